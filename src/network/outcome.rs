//! Why an attempt stopped, and what it produced. Part of every result.

use serde::{Deserialize, Serialize};

/// How one attempt of the network ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
#[non_exhaustive]
pub enum Termination {
    /// The stop rule fired, every square has two active moves, and they form one cycle:
    /// a closed knight's tour.
    Tour,
    /// The stop rule fired on a degree-2 subgraph of several disjoint cycles.
    MultipleCycles {
        /// Cycle lengths, longest first.
        lengths: Vec<usize>,
    },
    /// The stop rule fired but some square does not have exactly two active moves.
    StableNotDegreeTwo {
        /// How many squares do not have degree 2.
        squares_off: usize,
    },
    /// The iteration cap was reached before the stop rule fired.
    IterationCap,
}

impl Termination {
    /// Short kebab-case name, used in records and JSON.
    pub fn name(&self) -> &'static str {
        match self {
            Termination::Tour => "tour",
            Termination::MultipleCycles { .. } => "multiple-cycles",
            Termination::StableNotDegreeTwo { .. } => "stable-not-degree-two",
            Termination::IterationCap => "iteration-cap",
        }
    }

    /// Position of this outcome in [`Termination::NAMES`].
    pub fn index(&self) -> usize {
        match self {
            Termination::Tour => 0,
            Termination::MultipleCycles { .. } => 1,
            Termination::StableNotDegreeTwo { .. } => 2,
            Termination::IterationCap => 3,
        }
    }

    /// Counts per outcome (in [`Termination::NAMES`] order) as a JSON object keyed by name.
    pub(crate) fn counts_json<T: serde::Serialize>(counts: [T; 4]) -> serde_json::Value {
        let map: serde_json::Map<String, serde_json::Value> = Termination::NAMES
            .iter()
            .zip(counts)
            .map(|(n, c)| (n.to_string(), serde_json::json!(c)))
            .collect();
        serde_json::Value::Object(map)
    }

    /// Number of cycles when the output is a degree-2 cover, else 0.
    pub(crate) fn cycle_count(&self) -> usize {
        match self {
            Termination::Tour => 1,
            Termination::MultipleCycles { lengths } => lengths.len(),
            _ => 0,
        }
    }

    /// All termination names, in a fixed order (for summaries and plots).
    pub const NAMES: [&'static str; 4] = [
        "tour",
        "multiple-cycles",
        "stable-not-degree-two",
        "iteration-cap",
    ];
}

/// Per-step measurements of one attempt (for convergence curves).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepStats {
    /// Neurons whose U changed during the step.
    pub changed: u32,
    /// Outputs that flipped during the step.
    pub flips: u32,
    /// Active neurons after the step.
    pub active: u32,
    /// Squares whose number of active moves is not 2 after the step.
    pub off_two: u32,
}

/// The result of one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// How the attempt ended.
    pub termination: Termination,
    /// Steps (synchronous) or sweeps (sequential) performed.
    pub iterations: u32,
    /// The cycles of the final output when it is a degree-2 cover (each a square list).
    pub cycles: Vec<Vec<u32>>,
    /// What the rule recorded ([`super::rules::Rule::events`]); 0 under the plain rule.
    pub rule_events: u32,
}

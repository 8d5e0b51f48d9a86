//! A trace written by `solve --trace FILE` ([`crate::trace_file`], read and checked
//! there), as the convergence and animation figures draw it, so that they can be drawn
//! from saved data as well as from fresh runs: its graph, its unit and how the attempt
//! ended are typed values, decided once when the file is read.
//!
//! On the open graph (`solve --open`) the apex is a vertex but not a square: the
//! figures count squares off degree 2 over the board's squares only ([`square_steps`]).

use std::path::Path;

use crate::board::Board;
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::{NetworkParams, OutputState};
use crate::network::{StepStats, Termination, classify};
use crate::solvers::Outcome;
use crate::trace_file::{IterationUnit, TraceFile};

/// A saved trace of one attempt.
#[derive(Debug, Clone)]
pub struct SavedTrace {
    /// The graph the neurons are the edges of (the knight's graph, or the open graph).
    pub graph: KnightGraph,
    /// The board whose knight's graph (or open graph) `graph` is.
    pub board: Board,
    /// The seed of the solve that wrote it, if recorded.
    pub seed: Option<u64>,
    /// The configuration's name ([`crate::network::NetworkParams::variant`]), `unknown`
    /// when the file names none.
    pub variant: String,
    /// How the attempt ended, with the cycle lengths or squares off degree 2 of its
    /// last state.
    pub termination: Termination,
    /// Which attempt of the solve this was (1-based), if recorded.
    pub attempt: Option<u64>,
    /// The parameters the network ran with, if recorded.
    pub params: Option<NetworkParams>,
    /// What one recorded step is: a synchronous step or a sweep.
    pub unit: IterationUnit,
    /// The recorded states, the initial one first.
    pub outputs: Vec<OutputState>,
    /// The measurements after each step, squares off degree 2 over squares only.
    pub steps: Vec<StepStats>,
}

impl SavedTrace {
    /// Read and check a trace file ([`TraceFile::read`]), and how its attempt ended: its
    /// `outcome`, one of the network's four endings, which must be what its last state
    /// shows.
    pub fn load(path: &Path) -> Result<SavedTrace, InputError> {
        let (t, graph) = TraceFile::read_graph(path)?;
        let board = t.board()?;
        let err = |msg: String| InputError::File(format!("{}: {msg}", path.display()));
        let outcome = t.outcome.ok_or_else(|| {
            err("has no 'outcome' (how the attempt ended, as a trace file records it)".into())
        })?;
        let last = t.outputs.last().expect("read checks one state or more");
        let termination = ending(&graph, outcome, last).map_err(err)?;
        Ok(SavedTrace {
            unit: t.unit(),
            seed: t.seed,
            variant: t.variant.unwrap_or_else(|| "unknown".into()),
            termination,
            attempt: t.attempt,
            params: t.params,
            steps: square_steps(&graph, &t.outputs, t.steps),
            outputs: t.outputs,
            board,
            graph,
        })
    }

    /// The board the network ran on.
    pub fn board(&self) -> Board {
        self.board
    }
}

/// The termination an attempt that ended as `outcome` with outputs `last` stands for:
/// the iteration cap, or the classification of its last state, which must agree.
fn ending(
    graph: &KnightGraph,
    outcome: Outcome,
    last: &OutputState,
) -> Result<Termination, String> {
    if outcome == Outcome::IterationCap {
        return Ok(Termination::IterationCap);
    }
    if !Termination::NAMES.contains(&outcome.name()) {
        return Err(format!(
            "its outcome '{outcome}' is not an ending of a network attempt; accepted: {}",
            Termination::NAMES.join(", ")
        ));
    }
    let shown = classify(graph, &last.to_bytes(), true, 0).termination;
    if Outcome::from(&shown) != outcome {
        return Err(format!(
            "its outcome '{outcome}' is not what its last state shows ({})",
            shown.name()
        ));
    }
    Ok(shown)
}

/// Number of squares (the apex is none) without exactly two active moves in `outputs`
/// (one output per neuron of `graph`), counting a square's apex neuron as one of them.
pub(crate) fn squares_off_two(graph: &KnightGraph, outputs: &OutputState) -> u32 {
    let mut degree = vec![0u32; graph.vertices()];
    for e in outputs.active() {
        let (a, b) = graph.endpoints(e);
        degree[a as usize] += 1;
        degree[b as usize] += 1;
    }
    degree[..graph.squares()]
        .iter()
        .filter(|&&d| d != 2)
        .count() as u32
}

/// `steps` of an attempt on `graph` recorded with its `outputs` (the initial state first),
/// with squares off degree 2 counted over the squares only: the network counts every
/// vertex, the open graph's apex too. Unchanged on the knight's graph.
pub fn square_steps(
    graph: &KnightGraph,
    outputs: &[OutputState],
    mut steps: Vec<StepStats>,
) -> Vec<StepStats> {
    let Some(apex) = graph.apex() else {
        return steps;
    };
    // The apex's neurons are the last ones, one per square.
    let first = graph.edges() - graph.degree(apex);
    for (s, after) in steps.iter_mut().zip(&outputs[1..]) {
        let apex_degree = after.outputs()[first..].iter().filter(|&&on| on).count();
        s.off_two -= u32::from(apex_degree != 2);
    }
    steps
}

//! What each solver family reports besides the tour and the effort: typed facts that
//! the JSON of a solution (`solve --format json`, docs/json.md) shows as top-level keys.

use serde::{Serialize, Serializer};

use crate::merge::MergeReport;
use crate::network::{NetworkParams, RuleKind, Termination};

/// The facts of one solver family, serialised as the keys they add to a solution's JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
#[non_exhaustive]
pub enum Facts {
    /// `network`.
    Network(NetworkFacts),
    /// `network+merge`.
    NetworkMerge(NetworkMergeFacts),
    /// The search solvers: `backtrack`, `forward-check`, `warnsdorff-backtrack`.
    Search(SearchFacts),
    /// `warnsdorff`.
    Warnsdorff(WarnsdorffFacts),
    /// `circuit`.
    Circuit(CircuitFacts),
    /// `divide-conquer`.
    DivideConquer(DivideConquerFacts),
}

/// Attempts counted by how they ended, in [`Termination::NAMES`] order; serialised as an
/// object keyed by those names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TerminationCounts(pub [u64; 4]);

impl Serialize for TerminationCounts {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Termination::counts_json(self.0).serialize(s)
    }
}

/// Which engine ran the network (`"engine"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// Several attempts side by side (the plain rule only).
    Batched,
    /// One attempt at a time.
    Scalar,
}

/// A non-plain update rule's run (`"rule_events"`, `"engine_note"`; the rule itself is
/// in the parameters, `"params": {"rule": {"name", ...}}`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleFacts {
    /// The rule (the same as the parameters' rule: not written again in JSON).
    #[serde(skip)]
    pub rule: RuleKind,
    /// How often the rule acted in the last attempt.
    pub rule_events: u32,
    /// Why the scalar engine ran.
    pub engine_note: String,
}

/// `"graph": "open"` when the network ran on the open graph (the key is left out on the
/// board's own graph).
fn open_graph<S: Serializer>(_: &bool, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str("open")
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What every run of the network reports, alone or before merging.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkRunFacts {
    /// Attempts by how they ended.
    pub terminations: TerminationCounts,
    /// The parameters it ran with.
    pub params: NetworkParams,
    /// Whether it ran on the open graph (an extra vertex joined to every square).
    #[serde(
        rename = "graph",
        serialize_with = "open_graph",
        skip_serializing_if = "is_false"
    )]
    pub open_graph: bool,
}

/// What the network reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkFacts {
    /// How the last attempt ended.
    pub last_termination: Termination,
    /// Its attempts, parameters and graph.
    #[serde(flatten)]
    pub run: NetworkRunFacts,
    /// The update rule's facts, for a rule other than the plain one.
    #[serde(flatten)]
    pub rule: Option<RuleFacts>,
    /// The engine, shown for an open graph or a non-plain rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<EngineKind>,
}

/// What `network+merge` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NetworkMergeFacts {
    /// The tile side in the tiled mode, `None` for the whole board (`null` in JSON).
    pub tile: Option<usize>,
    /// The network's attempts, parameters and graph.
    #[serde(flatten)]
    pub run: NetworkRunFacts,
    /// What merging did and where the time went.
    #[serde(flatten)]
    pub merge: MergeFacts,
}

/// What `network+merge` did besides the tour. JSON output shows `merged` and `merge`
/// (the report), never the timings; the experiment runner records `merged`, the swaps
/// and both timings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergeFacts {
    /// Whether the tour came from merging several cycles.
    pub merged: bool,
    /// The last merge's report (`None` when no cover was merged).
    #[serde(rename = "merge")]
    pub report: Option<MergeReport>,
    /// Nanoseconds in the network.
    #[serde(skip)]
    pub network_ns: u64,
    /// Nanoseconds merging.
    #[serde(skip)]
    pub merge_ns: u64,
}

/// What a search solver reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchFacts {
    /// Squares taken back.
    pub backtracks: u64,
    /// The step budget.
    pub max_steps: u64,
    /// Squares scanned by connectivity checks (`forward-check:connectivity` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub connectivity_squares: Option<u64>,
    /// Why the search gave up, when it ran out of steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What `warnsdorff` reports about its last walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WarnsdorffFacts {
    /// Squares the walk visited.
    pub visited: usize,
    /// Moves where the rule left a tie to break.
    pub ties: u64,
}

/// What `circuit` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CircuitFacts {
    /// Where the closed tour came from: `search` (small boards) or `divide-conquer`.
    pub source: &'static str,
}

/// What `divide-conquer` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct DivideConquerFacts {
    /// How the tour was built, when one was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<&'static str>,
}

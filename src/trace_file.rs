//! The trace file of one network attempt: what `knightnet solve --trace FILE` writes and
//! `convergence --trace` and `animate` read back, as one serde type for both.
//!
//! A JSON object with `board` (`{"rows", "cols"}`), `neurons` (`[a, b]` per neuron, in
//! the graph's canonical order), `outputs` (one '0'/'1' string per recorded state, the
//! initial state first: each an [`OutputState`], read once and written back as read) and
//! `steps` (per step: `changed`, `flips`, `active`, `off_two`); and, as `solve` writes
//! them, `seed`, `variant` (the name that replays the configuration,
//! [`NetworkParams::variant`]), `params`, `attempt` (1-based), `outcome` and `version`. A
//! trace of the open graph (`solve --open`) also has `"graph": "open"` and `apex`, the
//! extra vertex the last neurons join to every square, and `start`, the square whose apex
//! neuron was held on (`--start`), if any.
//!
//! Any file with these keys reads, whichever version of knightnet wrote it.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::InputError;
use crate::graph::{KnightGraph, Tours, edge_count};
use crate::network::{NetworkParams, OutputState, StepStats, Trace, UpdateOrder};
use crate::solvers::Outcome;

/// What one iteration of an attempt is: a synchronous step, or a sweep of sequential
/// updates (every other update order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterationUnit {
    /// A synchronous step: every neuron updated once from the previous outputs.
    Step,
    /// A sweep of sequential updates, in the update order.
    Sweep,
}

impl IterationUnit {
    /// The unit of `order`.
    pub fn of(order: UpdateOrder) -> IterationUnit {
        match order {
            UpdateOrder::Synchronous => IterationUnit::Step,
            _ => IterationUnit::Sweep,
        }
    }

    /// "step" or "sweep".
    pub fn name(self) -> &'static str {
        match self {
            IterationUnit::Step => "step",
            IterationUnit::Sweep => "sweep",
        }
    }
}

impl std::fmt::Display for IterationUnit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A board as the trace writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceBoard {
    /// Number of columns.
    pub cols: usize,
    /// Number of rows.
    pub rows: usize,
}

/// Which graph the neurons are the edges of; written only for the open graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TraceGraph {
    /// The open graph: the knight's graph and an apex joined to every square.
    Open,
}

/// One attempt's trace file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceFile {
    /// The open graph's apex vertex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apex: Option<u32>,
    /// Which attempt of the solve this is (1-based).
    #[serde(default)]
    pub attempt: Option<u64>,
    /// The board the network ran on.
    pub board: TraceBoard,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The open graph, when the network ran on it; `None` for the knight's graph.
    pub graph: Option<TraceGraph>,
    /// The two vertices of every neuron (edge), in the graph's canonical order.
    pub neurons: Vec<[u32; 2]>,
    #[serde(default)]
    /// How the attempt ended.
    pub outcome: Option<Outcome>,
    /// The recorded states, the initial one first.
    pub outputs: Vec<OutputState>,
    #[serde(default)]
    /// The parameters the network ran with.
    pub params: Option<NetworkParams>,
    #[serde(default)]
    /// The seed of the solve (`solve --seed`).
    pub seed: Option<u64>,
    /// The open graph's held start square (its apex neuron held on), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// The measurements after every step, one fewer than states.
    pub steps: Vec<StepStats>,
    /// The configuration's name, which replays it ([`NetworkParams::variant`]).
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    /// The version of knightnet that wrote the file.
    pub version: Option<String>,
}

impl TraceFile {
    /// The trace of one attempt of `params` on `graph` from `seed`. Traces are of the
    /// knight's graph (or its open graph) of a whole plane board: another graph is
    /// refused ([`InputError::Unsupported`]).
    pub fn new(
        graph: &KnightGraph,
        params: NetworkParams,
        seed: u64,
        attempt: u64,
        outcome: Outcome,
        trace: Trace,
    ) -> Result<TraceFile, InputError> {
        let Some(board) = graph.source().knight_board() else {
            return Err(InputError::Unsupported(crate::error::Refusal::new(
                format!(
                    "a trace is written for the knight on a whole plane board, and {} is not one",
                    graph.describe()
                ),
            )));
        };
        Ok(TraceFile {
            apex: graph.apex(),
            attempt: Some(attempt),
            board: TraceBoard {
                cols: board.cols(),
                rows: board.rows(),
            },
            graph: graph.apex().map(|_| TraceGraph::Open),
            neurons: (0..graph.edges())
                .map(|e| {
                    let (a, b) = graph.endpoints(e);
                    [a, b]
                })
                .collect(),
            outcome: Some(outcome),
            outputs: trace.outputs,
            params: Some(params),
            seed: Some(seed),
            start: match graph.tours() {
                Tours::Open { start } => start,
                Tours::Closed => None,
            },
            steps: trace.steps,
            variant: Some(params.variant()),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        })
    }

    /// The board, checked.
    pub fn board(&self) -> Result<Board, InputError> {
        Board::new(self.board.rows, self.board.cols)
    }

    /// Steps (synchronous updates) or sweeps (sequential ones; also when the file has
    /// no parameters).
    pub fn unit(&self) -> IterationUnit {
        self.params
            .map_or(IterationUnit::Sweep, |p| IterationUnit::of(p.order))
    }

    /// The tours the traced graph's cycles stand for: closed, or open (from the held
    /// start, if any) for a trace of the open graph.
    pub fn tours(&self) -> Tours {
        match self.graph {
            Some(TraceGraph::Open) => Tours::Open { start: self.start },
            None => Tours::Closed,
        }
    }

    /// Read and check a trace: its neurons must be the edges of its graph in canonical
    /// order (the board's knight moves, then on the open graph one apex neuron per
    /// square), every output string must have one character 0/1 per neuron, and there is
    /// one state more than steps. Every failure is an [`InputError::File`] naming `path`.
    pub fn read(path: &Path) -> Result<TraceFile, InputError> {
        Self::read_graph(path).map(|(t, _)| t)
    }

    /// [`TraceFile::read`], with the graph the trace's neurons are the edges of.
    pub(crate) fn read_graph(path: &Path) -> Result<(TraceFile, KnightGraph), InputError> {
        let err = |msg: String| InputError::File(format!("{}: {msg}", path.display()));
        let text = crate::io::read_input_to_string(path)
            .map_err(|e| err(format!("cannot read: {}", crate::io::os_reason(&e))))?;
        let t: TraceFile = serde_json::from_str(&text)
            .map_err(|e| err(format!("is not a trace (the JSON of a traced solve): {e}")))?;
        let board = t.board()?;
        let n = board.squares() as u64;
        let (what, edges) = match t.graph {
            Some(TraceGraph::Open) => {
                if t.apex != Some(n as u32) {
                    return Err(err(format!(
                        "is a trace of the open graph, whose apex on the {board} board is vertex {n}; its 'apex' is {}",
                        t.apex.map_or("missing".to_string(), |a| a.to_string())
                    )));
                }
                if t.start.is_some_and(|s| s as u64 >= n) {
                    return Err(err(format!(
                        "its 'start' is not one of the {n} squares of the {board} board"
                    )));
                }
                (
                    "knight moves and apex neurons",
                    edge_count(board.rows(), board.cols()) + n,
                )
            }
            None => ("knight moves", edge_count(board.rows(), board.cols())),
        };
        // The graph is built only once the file holds its neurons, so a small file
        // naming a huge board costs nothing.
        let wrong = || {
            err(format!(
                "its neurons are not the {edges} {what} of the {board} board in canonical order"
            ))
        };
        if edges == 0 || t.neurons.len() as u64 != edges {
            return Err(wrong());
        }
        let graph = KnightGraph::for_tours(board, t.tours());
        let canonical = t.neurons.len() == graph.edges()
            && t.neurons.iter().enumerate().all(|(e, n)| {
                let (a, b) = graph.endpoints(e);
                n == &[a, b]
            });
        if !canonical {
            return Err(wrong());
        }
        if t.outputs.is_empty() || t.outputs.iter().any(|o| o.len() != graph.edges()) {
            return Err(err(format!(
                "'outputs' must be non-empty strings of {} characters 0/1 (one per neuron)",
                graph.edges()
            )));
        }
        if t.steps.is_empty() || t.steps.len() + 1 != t.outputs.len() {
            return Err(err(format!(
                "has {} steps and {} output states; a trace holds at least one step and one \
                 state more than steps (the initial one)",
                t.steps.len(),
                t.outputs.len()
            )));
        }
        Ok((t, graph))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::{Network, Preset};
    use crate::rng_from_seed;

    fn read_text(text: &str) -> Result<TraceFile, InputError> {
        let dir = std::env::temp_dir().join(format!(
            "knightnet-trace-{}-{}",
            std::process::id(),
            text.len()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.json");
        std::fs::write(&path, text).unwrap();
        let back = TraceFile::read(&path);
        std::fs::remove_dir_all(&dir).unwrap();
        back
    }

    #[test]
    fn a_small_file_naming_a_huge_board_is_refused_before_any_graph() {
        // 3.6 x 10^9 squares: building its graph would take hundreds of GiB.
        let text = r#"{"board": {"rows": 60000, "cols": 60000}, "neurons": [[0, 1]],
            "outputs": ["0", "1"], "steps": [{"changed": 1, "flips": 1, "active": 1, "off_two": 2}]}"#;
        let e = read_text(text).unwrap_err().to_string();
        assert!(
            e.contains("are not the") && e.contains("60000x60000"),
            "{e}"
        );
        let empty = r#"{"board": {"rows": 1, "cols": 1000000}, "neurons": [],
            "outputs": [""], "steps": []}"#;
        assert!(read_text(empty).is_err());
    }

    #[test]
    fn a_written_trace_reads_back_equal() {
        let graph = KnightGraph::new(Board::new(6, 6).unwrap());
        let params = Preset::Parberry.params();
        let net = Network::new(&graph, params).unwrap();
        let mut trace = Trace::default();
        let attempt = net.attempt(&mut rng_from_seed(3), Some(&mut trace));
        let steps = trace.steps.len();
        let file = TraceFile::new(
            &graph,
            params,
            3,
            1,
            Outcome::from(&attempt.termination),
            trace,
        )
        .unwrap();
        assert_eq!(file.steps.len(), steps);
        assert_eq!(file.outputs.len(), steps + 1);
        let text = serde_json::to_string(&file).unwrap();
        // Each state is written as one '0'/'1' character per neuron.
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        let first = json["outputs"][0].as_str().unwrap();
        assert_eq!(first.len(), graph.edges());
        assert!(first.chars().all(|c| c == '0' || c == '1'));
        assert_eq!(first, file.outputs[0].to_string());
        assert_eq!(json["variant"], "parberry");
        let back = read_text(&text);
        assert_eq!(back.unwrap(), file);
    }

    #[test]
    fn a_trace_names_the_variant_that_replays_it() {
        let graph = KnightGraph::new(Board::new(6, 6).unwrap());
        let params = NetworkParams {
            c: 3,
            order: UpdateOrder::SquareSweep,
            ..Preset::Parberry.params()
        };
        let net = Network::new(&graph, params).unwrap();
        let mut trace = Trace::default();
        let attempt = net.attempt(&mut rng_from_seed(4), Some(&mut trace));
        let outcome = Outcome::from(&attempt.termination);
        let file = TraceFile::new(&graph, params, 4, 1, outcome, trace).unwrap();
        assert_eq!(
            file.variant.as_deref(),
            Some("parberry --c 3 --order square-sweep")
        );
    }

    #[test]
    fn an_open_trace_reads_back_with_its_graph_and_held_start() {
        let board = Board::new(5, 6).unwrap();
        for start in [None, Some(7)] {
            let graph = KnightGraph::open(board, start);
            let params = Preset::Parberry.params();
            let net = Network::new(&graph, params).unwrap();
            let mut trace = Trace::default();
            let attempt = net.attempt(&mut rng_from_seed(5), Some(&mut trace));
            let file = TraceFile::new(
                &graph,
                params,
                5,
                1,
                Outcome::from(&attempt.termination),
                trace,
            )
            .unwrap();
            assert_eq!(file.tours(), Tours::Open { start });
            assert_eq!(file.unit(), IterationUnit::of(params.order));
            let text = serde_json::to_string(&file).unwrap();
            assert_eq!(text.contains("\"start\""), start.is_some());
            let dir = std::env::temp_dir().join(format!(
                "knightnet-open-trace-{}-{}",
                std::process::id(),
                start.is_some()
            ));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("t.json");
            std::fs::write(&path, &text).unwrap();
            let (back, read) = TraceFile::read_graph(&path).unwrap();
            std::fs::remove_dir_all(&dir).unwrap();
            assert_eq!(back, file);
            assert_eq!(read.tours(), graph.tours());
            assert_eq!(read.edges(), graph.edges());
        }
    }

    #[test]
    fn a_file_with_a_state_that_is_not_0_or_1_is_refused_naming_the_file() {
        let text = r#"{"board": {"rows": 3, "cols": 4}, "neurons": [],
            "outputs": ["0", "2"], "steps": []}"#;
        let e = read_text(text).unwrap_err().to_string();
        assert!(e.contains("'2' at neuron 0"), "{e}");
    }
}

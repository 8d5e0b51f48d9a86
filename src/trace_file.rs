//! The trace file of one network attempt: what `knightnet solve --trace FILE` writes and
//! `convergence --trace` and `animate` read back, as one serde type for both.
//!
//! A JSON object with `board` (`{"rows", "cols"}`), `neurons` (`[a, b]` per neuron, in
//! the graph's canonical order), `outputs` (one '0'/'1' string per recorded state, the
//! initial state first; read as [`OutputState`]s) and `steps` (per step: `changed`, `flips`, `active`, `off_two`);
//! and, as `solve` writes them, `seed`, `variant`, `params`, `attempt` (1-based),
//! `outcome` and `version`. A trace of the open graph (`solve --open`) also has
//! `"graph": "open"` and `apex`, the extra vertex the last neurons join to every square,
//! and `start`, the square whose apex neuron was held on (`--start`), if any.
//!
//! Files written before this type existed (the same keys, written from an untyped JSON
//! value) read the same.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::InputError;
use crate::graph::{edge_count, KnightGraph, Tours};
use crate::network::{NetworkParams, StepStats, Trace, UpdateOrder};
use crate::solvers::Outcome;

/// What one iteration of an attempt is: a synchronous step, or a sweep of sequential
/// updates (every other update order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IterationUnit {
    Step,
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
    pub cols: usize,
    pub rows: usize,
}

/// Which graph the neurons are the edges of; written only for the open graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TraceGraph {
    Open,
}

/// One recorded state of the network: the output of every neuron (on or off), in the
/// graph's canonical edge order. A trace file writes it as a string of `0`/`1`, one
/// character per neuron, read once into this type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputState(Vec<bool>);

impl OutputState {
    /// The state with these outputs, neuron by neuron.
    pub fn new(outputs: Vec<bool>) -> OutputState {
        OutputState(outputs)
    }

    /// The states of a network [`Trace`], initial state first.
    pub fn of_trace(trace: &Trace) -> Vec<OutputState> {
        trace
            .outputs
            .iter()
            .map(|o| o.parse().expect("the network records outputs as 0/1"))
            .collect()
    }

    /// The outputs of a network [`State`](crate::network::State).
    pub fn of_state(state: &crate::network::State) -> OutputState {
        OutputState(state.v().iter().map(|&x| x == 1).collect())
    }

    /// Number of neurons.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the state has no neurons.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each neuron's output, in order.
    pub fn outputs(&self) -> &[bool] {
        &self.0
    }

    /// The neurons that are on, in order.
    pub fn active(&self) -> impl Iterator<Item = usize> + '_ {
        self.0
            .iter()
            .enumerate()
            .filter(|&(_, &on)| on)
            .map(|(e, _)| e)
    }

    /// The outputs as 0/1 bytes, as the network's classification takes them.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().map(|&on| u8::from(on)).collect()
    }
}

/// A state string holds a character other than `0` or `1`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("an output state holds '{found}' at neuron {neuron}; each character is 0 or 1")]
pub struct OutputStateError {
    /// The character found.
    pub found: char,
    /// Its position (the neuron), from 0.
    pub neuron: usize,
}

impl std::str::FromStr for OutputState {
    type Err = OutputStateError;

    /// One `0` or `1` per neuron.
    fn from_str(text: &str) -> Result<OutputState, OutputStateError> {
        text.chars()
            .enumerate()
            .map(|(neuron, c)| match c {
                '0' => Ok(false),
                '1' => Ok(true),
                found => Err(OutputStateError { found, neuron }),
            })
            .collect::<Result<_, _>>()
            .map(OutputState)
    }
}

impl std::fmt::Display for OutputState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        self.0
            .iter()
            .try_for_each(|&on| f.write_char(if on { '1' } else { '0' }))
    }
}

impl Serialize for OutputState {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for OutputState {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<OutputState, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
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
    pub board: TraceBoard,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<TraceGraph>,
    pub neurons: Vec<[u32; 2]>,
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The recorded states, the initial one first.
    pub outputs: Vec<OutputState>,
    #[serde(default)]
    pub params: Option<NetworkParams>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// The open graph's held start square (its apex neuron held on), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    pub steps: Vec<StepStats>,
    #[serde(default)]
    pub variant: Option<String>,
    #[serde(default)]
    pub version: Option<String>,
}

impl TraceFile {
    /// The trace of one attempt of `params` on `graph` from `seed`.
    pub fn new(
        graph: &KnightGraph,
        params: NetworkParams,
        seed: u64,
        attempt: u64,
        outcome: Outcome,
        trace: Trace,
    ) -> TraceFile {
        let board = graph.board();
        TraceFile {
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
            outputs: OutputState::of_trace(&trace),
            params: Some(params),
            seed: Some(seed),
            start: match graph.tours() {
                Tours::Open { start } => start,
                Tours::Closed => None,
            },
            steps: trace.steps,
            variant: Some(params.variant_name()),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }
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
        );
        assert_eq!(file.steps.len(), steps);
        assert_eq!(file.outputs.len(), steps + 1);
        let back = read_text(&serde_json::to_string(&file).unwrap());
        assert_eq!(back.unwrap(), file);
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
            );
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
    fn output_states_read_once_and_write_back_as_read() {
        let state: OutputState = "0110".parse().unwrap();
        assert_eq!(state.outputs(), [false, true, true, false]);
        assert_eq!(state.active().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(state.to_bytes(), [0, 1, 1, 0]);
        assert_eq!(state.to_string(), "0110");
        assert_eq!(serde_json::to_string(&state).unwrap(), "\"0110\"");
        let back: OutputState = serde_json::from_str("\"0110\"").unwrap();
        assert_eq!(back, state);
        assert!("".parse::<OutputState>().unwrap().is_empty());
        assert_eq!(
            "01x".parse::<OutputState>(),
            Err(OutputStateError {
                found: 'x',
                neuron: 2
            })
        );
        // A file with a state that is not 0/1 is refused naming the file.
        let text = r#"{"board": {"rows": 3, "cols": 4}, "neurons": [],
            "outputs": ["0", "2"], "steps": []}"#;
        let e = read_text(text).unwrap_err().to_string();
        assert!(e.contains("'2' at neuron 0"), "{e}");
    }
}

//! Reading a trace written by `solve --trace FILE`, so that the convergence and
//! animation figures can be drawn from saved data as well as from fresh runs.
//!
//! Fields used: `board` {`rows`, `cols`}, `neurons` (`[a, b]` per neuron, canonical
//! order), `outputs` (one '0'/'1' string per recorded state), `steps` (per step:
//! `changed`, `flips`, `active`, `off_two`); optional: `seed`, `variant`, `outcome`,
//! `attempt`, `params.order`.

use std::path::Path;

use serde_json::Value;

use crate::board::Board;
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::StepStats;

/// A saved trace of one attempt.
#[derive(Debug, Clone)]
pub struct SavedTrace {
    pub board: Board,
    pub seed: Option<u64>,
    pub variant: String,
    pub outcome: String,
    /// Which attempt of the solve this was (1-based), if recorded.
    pub attempt: Option<u64>,
    /// "step" for synchronous updates, else "sweep".
    pub unit: String,
    pub outputs: Vec<String>,
    pub steps: Vec<StepStats>,
}

impl SavedTrace {
    /// Read and check a trace file: the neurons must be the board's knight moves in
    /// canonical order, and every output string must have one character per neuron.
    pub fn load(path: &Path) -> Result<SavedTrace, InputError> {
        let err = |msg: String| InputError::File(format!("{}: {msg}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| err(format!("cannot read: {e}")))?;
        let v: Value = serde_json::from_str(&text)
            .map_err(|e| err(format!("is not a trace (JSON from solve --trace): {e}")))?;
        let side = |k: &str| {
            v["board"][k]
                .as_u64()
                .ok_or_else(|| err(format!("has no board.{k}; expected a solve --trace file")))
        };
        let board = Board::new(side("rows")? as usize, side("cols")? as usize)?;
        if v["graph"] == "open" {
            return Err(err(
                "is a trace of the open graph (solve --open); only traces of closed-tour runs can be drawn".into(),
            ));
        }
        let graph = KnightGraph::new(board);
        let neurons = v["neurons"]
            .as_array()
            .ok_or_else(|| err("has no 'neurons' list".into()))?;
        let canonical = neurons.len() == graph.edges()
            && neurons.iter().enumerate().all(|(e, n)| {
                let (a, b) = graph.endpoints(e);
                n[0].as_u64() == Some(a as u64) && n[1].as_u64() == Some(b as u64)
            });
        if !canonical {
            return Err(err(format!(
                "its neurons are not the {} knight moves of the {board} board in canonical order",
                graph.edges()
            )));
        }
        let outputs: Vec<String> = v["outputs"]
            .as_array()
            .ok_or_else(|| err("has no 'outputs' list".into()))?
            .iter()
            .map(|o| o.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| err("'outputs' must be strings of 0 and 1".into()))?;
        if outputs.is_empty()
            || outputs
                .iter()
                .any(|o| o.len() != graph.edges() || o.bytes().any(|b| b != b'0' && b != b'1'))
        {
            return Err(err(format!(
                "'outputs' must be non-empty strings of {} characters 0/1 (one per neuron)",
                graph.edges()
            )));
        }
        let steps: Vec<StepStats> = serde_json::from_value(v["steps"].clone())
            .map_err(|e| err(format!("'steps' is malformed: {e}")))?;
        if steps.is_empty() || steps.len() + 1 != outputs.len() {
            return Err(err(format!(
                "has {} steps and {} output states; a trace holds at least one step and one \
                 state more than steps (the initial one)",
                steps.len(),
                outputs.len()
            )));
        }
        let unit = match v["params"]["order"].as_str() {
            Some("synchronous") => "step",
            _ => "sweep",
        };
        Ok(SavedTrace {
            board,
            seed: v["seed"].as_u64(),
            variant: v["variant"].as_str().unwrap_or("unknown").to_string(),
            outcome: v["outcome"].as_str().unwrap_or("unknown").to_string(),
            attempt: v["attempt"].as_u64(),
            unit: unit.to_string(),
            outputs,
            steps,
        })
    }
}

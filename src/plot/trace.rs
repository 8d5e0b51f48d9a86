//! A trace written by `solve --trace FILE` ([`crate::trace_file`], read and checked
//! there), as the convergence and animation figures draw it, so that they can be drawn
//! from saved data as well as from fresh runs.

use std::path::Path;

use crate::board::Board;
use crate::error::InputError;
use crate::network::StepStats;
use crate::trace_file::TraceFile;

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
        let t = TraceFile::read(path)?;
        let unit = if t.synchronous() { "step" } else { "sweep" };
        Ok(SavedTrace {
            board: t.board()?,
            seed: t.seed,
            variant: t.variant.unwrap_or_else(|| "unknown".into()),
            outcome: t
                .outcome
                .map_or_else(|| "unknown".into(), |o| o.to_string()),
            attempt: t.attempt,
            unit: unit.to_string(),
            outputs: t.outputs,
            steps: t.steps,
        })
    }
}

//! One interface for every tour finder: the network presets and the classical solvers.
//!
//! A [`Solver`] checks a [`Request`] before doing any work (theorems, memory, its own
//! abilities) and returns a [`Solution`] whose tour, if any, has passed the oracle in
//! [`crate::tour`]. [`SolverKind`] names solvers for the command line and spec files.

pub mod network;
pub mod neural_merge;

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::board::Board;
use crate::error::InputError;
use crate::existence;
use crate::network::{NetworkParams, Preset};
use crate::tour::Tour;
use crate::Rng;

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub board: Board,
    /// `Some(true)`: closed tour required; `Some(false)`: open tour is enough;
    /// `None`: the solver's default (closed for the network, open for the others).
    pub closed: Option<bool>,
    /// Square the tour must start on.
    pub start: Option<u32>,
    /// Walk a closed tour in the other direction.
    pub reverse: bool,
}

impl Request {
    pub fn new(board: Board) -> Request {
        Request {
            board,
            closed: None,
            start: None,
            reverse: false,
        }
    }

    /// Refuse the request when a theorem says no such tour exists.
    pub fn check_exists(&self, closed: bool) -> Result<(), InputError> {
        let ex = existence::tour_exists(self.board, closed);
        if ex.exists {
            Ok(())
        } else {
            Err(InputError::Impossible(ex.reason))
        }
    }
}

/// What a solver returns.
#[derive(Debug, Clone)]
pub struct Solution {
    /// Solver name (`network`, `warnsdorff`, ...).
    pub solver: String,
    /// Variant or tie-break (`parberry`, `roth`, ...), if the solver has one.
    pub variant: Option<String>,
    /// Whether the tour (when found) is closed.
    pub closed: bool,
    /// The tour, already validated; `None` when the solver failed.
    pub tour: Option<Tour>,
    /// Why the solver stopped: `tour`, or a solver-specific failure name.
    pub outcome: String,
    /// Network steps or sweeps over all attempts (0 for search solvers).
    pub iterations: u64,
    /// Attempts made (restarts + 1).
    pub attempts: u64,
    /// Search steps (squares placed), for search solvers.
    pub steps: Option<u64>,
    /// Solver-specific extra facts for JSON output.
    pub extra: Map<String, Value>,
}

impl Solution {
    /// Rotate/reverse a closed tour to the requested start square.
    pub fn apply_start(mut self, req: &Request) -> Result<Solution, InputError> {
        if let (Some(tour), Some(start)) = (&self.tour, req.start) {
            let rotated = tour.rotated(start, req.reverse).ok_or_else(|| {
                InputError::param(format!(
                    "the {} tour cannot be started at {} in that direction",
                    self.solver,
                    req.board.square_name(start)
                ))
            })?;
            self.tour = Some(rotated);
        } else if let (Some(tour), None, true) = (&self.tour, req.start, req.reverse) {
            let start = tour.start();
            self.tour = tour.rotated(start, true).or(self.tour.take());
        }
        Ok(self)
    }
}

/// A tour finder.
pub trait Solver: Send + Sync {
    /// Short name, as on the command line.
    fn name(&self) -> String;
    /// Variant or tie-break name, if any.
    fn variant(&self) -> Option<String> {
        None
    }
    /// Refuse requests this solver cannot serve, before any work.
    fn check(&self, req: &Request) -> Result<(), InputError>;
    /// Find a tour. `rng` is the only source of randomness.
    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError>;
}

/// Every solver knightnet knows, with its parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum SolverKind {
    /// The Takefuji–Lee network with the given parameters.
    Network(NetworkParams),
    /// The network followed by cycle merging; `tile` selects the tiled mode.
    NetworkMerge {
        params: NetworkParams,
        tile: neural_merge::TileMode,
    },
}

impl SolverKind {
    /// The solver object.
    pub fn build(&self) -> Box<dyn Solver> {
        match self {
            SolverKind::Network(p) => Box::new(network::NetworkSolver::new(*p)),
            SolverKind::NetworkMerge { params, tile } => {
                Box::new(neural_merge::NeuralMergeSolver::new(*params, *tile))
            }
        }
    }

    /// Names accepted by [`FromStr`].
    pub fn names() -> Vec<String> {
        let mut v = vec!["network".to_string()];
        v.extend(Preset::ALL.iter().map(|p| format!("network:{}", p.name())));
        v.push("network+merge".to_string());
        v.extend(
            Preset::ALL
                .iter()
                .map(|p| format!("network+merge:{}", p.name())),
        );
        v
    }
}

impl FromStr for SolverKind {
    type Err = InputError;

    /// `network` (the `parberry` preset), `network:PRESET`, `network+merge[:PRESET]`
    /// (alias `neural+merge`).
    fn from_str(s: &str) -> Result<SolverKind, InputError> {
        let s = s.trim();
        let (head, tail) = match s.split_once(':') {
            Some((h, t)) => (h, Some(t)),
            None => (s, None),
        };
        match head {
            "network" => {
                let preset: Preset = tail.unwrap_or("parberry").parse()?;
                Ok(SolverKind::Network(preset.params()))
            }
            "network+merge" | "neural+merge" => {
                let preset: Preset = tail.unwrap_or("parberry").parse()?;
                Ok(SolverKind::NetworkMerge {
                    params: preset.params(),
                    tile: neural_merge::TileMode::Auto,
                })
            }
            _ => Err(InputError::param(format!(
                "unknown solver '{s}'; accepted: {}",
                SolverKind::names().join(", ")
            ))),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverKind::Network(p) => write!(f, "network:{}", p.variant_name()),
            SolverKind::NetworkMerge {
                params,
                tile: neural_merge::TileMode::Auto,
            } => {
                write!(f, "network+merge:{}", params.variant_name())
            }
            SolverKind::NetworkMerge { params, tile } => {
                write!(f, "network+merge:{}@tile={tile}", params.variant_name())
            }
        }
    }
}

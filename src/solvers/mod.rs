//! One interface for every tour finder: the network presets and the classical solvers.
//!
//! A [`Solver`] checks a [`Request`] before doing any work (theorems, memory, its own
//! abilities) and returns a [`Solution`] whose tour, if any, has passed the oracle in
//! [`crate::tour`]. [`SolverKind`] names solvers for the command line and spec files.

pub mod backtrack;
pub mod circuit;
pub mod classical;
pub mod divide_conquer;
pub(crate) mod forward_check;
pub mod network;
pub mod neural_merge;
pub mod outcome;
pub mod search;
pub mod warnsdorff;
pub mod warnsdorff_backtrack;

use std::fmt;
use std::str::FromStr;

use serde_json::{Map, Value};

use crate::board::Board;
use crate::error::{Hint, InputError, Param, Scope};
use crate::existence;
use crate::merge::MergeReport;
use crate::network::{NetworkParams, Preset};
use crate::tour::Tour;
use crate::Rng;
use backtrack::BacktrackSolver;
use circuit::CircuitSolver;
use divide_conquer::DivideConquerSolver;
use forward_check::ForwardCheckSolver;
use warnsdorff::{TieBreak, WarnsdorffSolver};
use warnsdorff_backtrack::WarnsdorffBacktrackSolver;

pub use outcome::Outcome;

/// Split a solver name `NAME[:VARIANT]` into its name and optional variant.
pub fn split_name(s: &str) -> (&str, Option<&str>) {
    match s.split_once(':') {
        Some((h, t)) => (h, Some(t)),
        None => (s, None),
    }
}

/// Which tours a [`Request`] accepts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Closure {
    /// A closed tour is required.
    Closed,
    /// An open tour is enough.
    Open,
    /// The solver's default: closed for the network, open for the others.
    #[default]
    SolverDefault,
}

impl Closure {
    /// Whether a closed tour is asked for of a solver whose default is `default_closed`.
    pub(crate) fn wants_closed(self, default_closed: bool) -> bool {
        match self {
            Closure::Closed => true,
            Closure::Open => false,
            Closure::SolverDefault => default_closed,
        }
    }
}

impl From<Option<bool>> for Closure {
    /// `Some(true)`: [`Closure::Closed`], `Some(false)`: [`Closure::Open`], `None`:
    /// [`Closure::SolverDefault`] (a `closed` setting that may be left out).
    fn from(closed: Option<bool>) -> Closure {
        match closed {
            Some(true) => Closure::Closed,
            Some(false) => Closure::Open,
            None => Closure::SolverDefault,
        }
    }
}

/// What the user asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request {
    pub board: Board,
    /// Which tours are accepted.
    pub closed: Closure,
    /// Square the tour must start on.
    pub start: Option<u32>,
    /// Walk a closed tour in the other direction.
    pub reverse: bool,
}

impl Request {
    pub fn new(board: Board) -> Request {
        Request {
            board,
            closed: Closure::SolverDefault,
            start: None,
            reverse: false,
        }
    }

    /// For a solver that builds closed tours only, on a board without one: a hint naming
    /// solvers that find an open tour, when the board has one.
    pub(crate) fn open_tour_hint(&self) -> Option<Hint> {
        existence::tour_exists(self.board, false)
            .exists
            .then_some(Hint::UseSolver(&[
                "divide-conquer",
                "backtrack",
                "warnsdorff",
            ]))
    }

    /// Refuse the request when a theorem says no such tour exists.
    pub(crate) fn check_exists(&self, closed: bool) -> Result<(), InputError> {
        let ex = existence::tour_exists(self.board, closed);
        if ex.exists {
            Ok(())
        } else {
            Err(InputError::impossible(ex.reason))
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
    /// Why the solver stopped: a tour, or a solver-specific failure.
    pub outcome: Outcome,
    /// Network steps or sweeps over all attempts (0 for search solvers).
    pub iterations: u64,
    /// Attempts made (restarts + 1).
    pub attempts: u64,
    /// Search steps (squares placed), for search solvers.
    pub steps: Option<u64>,
    /// `network+merge` only: what merging did and where the time went.
    pub merge: Option<MergeFacts>,
    /// Solver-specific extra facts for JSON output (facts read back by other modules
    /// are typed fields instead).
    pub extra: Map<String, Value>,
}

/// What `network+merge` did besides the tour. JSON output shows `merged` and `merge`
/// (the report); the experiment runner records `merged`, the swaps and both timings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeFacts {
    /// Whether the tour came from merging several cycles.
    pub merged: bool,
    /// The last merge's report (`None` when no cover was merged).
    pub report: Option<MergeReport>,
    /// Nanoseconds in the network.
    pub network_ns: u64,
    /// Nanoseconds merging.
    pub merge_ns: u64,
}

impl Solution {
    /// Rotate/reverse a closed tour to the requested start square.
    pub(crate) fn apply_start(mut self, req: &Request) -> Result<Solution, InputError> {
        if let (Some(tour), Some(start)) = (&self.tour, req.start) {
            if tour.start() == start && !req.reverse {
                // Already there: skip the copy (a whole tour on large boards).
                return Ok(self);
            }
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

/// How an experiment trial records a solve: the solution's outcome, or
/// [`Outcome::InvalidTour`] when it says `tour` without holding one; a refusal is
/// [`Outcome::Impossible`] when a theorem says no such tour exists, else
/// [`Outcome::Refused`]. `compare` and the experiment runner both record with it.
pub(crate) fn record_outcome(result: &Result<Solution, InputError>) -> Outcome {
    match result {
        Ok(s) => match (s.outcome, &s.tour) {
            (Outcome::Tour, None) => Outcome::InvalidTour,
            (o, _) => o,
        },
        Err(InputError::Impossible(_)) => Outcome::Impossible,
        Err(_) => Outcome::Refused,
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
    /// Several independent solves of one request, solve `k` drawing from `rngs[k]`: the
    /// same solutions as calling [`Solver::solve`] on each in turn. Solvers that can share
    /// work between solves (the network's lanes) override it to be faster.
    fn solve_many(&self, req: &Request, rngs: &mut [Rng]) -> Vec<Result<Solution, InputError>> {
        rngs.iter_mut().map(|rng| self.solve(req, rng)).collect()
    }
}

/// Every solver knightnet knows, with its parameters.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum SolverKind {
    /// The Takefuji–Lee network with the given parameters.
    Network(NetworkParams),
    /// The network followed by cycle merging; `tile` selects the tiled mode.
    NetworkMerge {
        params: NetworkParams,
        tile: neural_merge::TileMode,
    },
    /// Warnsdorff's rule with a tie-break; `restarts` re-runs a failed random run.
    Warnsdorff { tie: TieBreak, restarts: u32 },
    /// Plain depth-first search in clockwise order.
    Backtrack { max_steps: u64 },
    /// Depth-first search with forward checking (and optionally connectivity).
    ForwardCheck { connectivity: bool, max_steps: u64 },
    /// Depth-first search in Warnsdorff order (optionally tie points only).
    WarnsdorffBacktrack { ties_only: bool, max_steps: u64 },
    /// One closed tour, rotated to the start square.
    Circuit,
    /// Linear-time construction from block tours.
    DivideConquer,
}

impl SolverKind {
    /// The run of a search solver kind (`backtrack`, `forward-check`,
    /// `warnsdorff-backtrack`) after its check of `req`; `None` for other kinds.
    pub(crate) fn search_run(
        &self,
        req: &Request,
        path: Option<&[u32]>,
    ) -> Option<Result<search::SolverRun, InputError>> {
        let (solver, cfg): (Box<dyn Solver>, search::Config) = match *self {
            SolverKind::Backtrack { max_steps } => {
                let s = backtrack::BacktrackSolver { max_steps };
                (Box::new(s), s.config(req))
            }
            SolverKind::ForwardCheck {
                connectivity,
                max_steps,
            } => {
                let s = forward_check::ForwardCheckSolver {
                    connectivity,
                    max_steps,
                };
                (Box::new(s), s.config(req))
            }
            SolverKind::WarnsdorffBacktrack {
                ties_only,
                max_steps,
            } => {
                let s = warnsdorff_backtrack::WarnsdorffBacktrackSolver {
                    ties_only,
                    max_steps,
                };
                (Box::new(s), s.config(req))
            }
            _ => return None,
        };
        Some(
            solver
                .check(req)
                .map(|()| search::SolverRun::new(&solver.name(), solver.variant(), cfg, req, path)),
        )
    }

    /// The solver object.
    pub fn build(&self) -> Box<dyn Solver> {
        match self {
            SolverKind::Network(p) => Box::new(network::NetworkSolver::new(*p)),
            SolverKind::NetworkMerge { params, tile } => {
                Box::new(neural_merge::NeuralMergeSolver::new(*params, *tile))
            }
            SolverKind::Warnsdorff { tie, restarts } => Box::new(WarnsdorffSolver {
                tie: *tie,
                restarts: *restarts,
            }),
            SolverKind::Backtrack { max_steps } => Box::new(BacktrackSolver {
                max_steps: *max_steps,
            }),
            SolverKind::ForwardCheck {
                connectivity,
                max_steps,
            } => Box::new(ForwardCheckSolver {
                connectivity: *connectivity,
                max_steps: *max_steps,
            }),
            SolverKind::WarnsdorffBacktrack {
                ties_only,
                max_steps,
            } => Box::new(WarnsdorffBacktrackSolver {
                ties_only: *ties_only,
                max_steps: *max_steps,
            }),
            SolverKind::Circuit => Box::new(CircuitSolver),
            SolverKind::DivideConquer => Box::new(DivideConquerSolver),
        }
    }

    /// Names accepted by [`FromStr`].
    pub fn names() -> Vec<String> {
        let mut v = vec!["network".to_string()];
        v.extend(Preset::every().map(|p| format!("network:{}", p.name())));
        v.push("network+merge".to_string());
        v.extend(Preset::every().map(|p| format!("network+merge:{}", p.name())));
        v.push("warnsdorff".into());
        v.extend(
            TieBreak::ALL
                .iter()
                .map(|t| format!("warnsdorff:{}", t.name())),
        );
        v.extend(
            [
                "backtrack",
                "forward-check",
                "forward-check:connectivity",
                "warnsdorff-backtrack",
                "warnsdorff-backtrack:ties",
                "circuit",
                "divide-conquer",
            ]
            .map(String::from),
        );
        v
    }

    /// The label an experiment spec gives a `[[solver]]` entry of this kind by default:
    /// the network's variant name (`parberry`, or `parberry*` with overrides),
    /// `merge-VARIANT` for network+merge, the solver name otherwise. With the board it
    /// names the cell whose trial seeds `compare`, `growth` and `convergence` use
    /// ([`crate::seeds`]).
    pub fn default_label(&self) -> String {
        match self {
            SolverKind::Network(p) => p.seed_label(),
            SolverKind::NetworkMerge { params, .. } => format!("merge-{}", params.seed_label()),
            _ => self.to_string(),
        }
    }

    /// Whether the solver finds an open tour on every board that has one when asked
    /// for an open tour (`Request::closed == Closure::Open`): all but the closed-only
    /// `circuit` (`network+merge` finds open tours on the whole board's open graph).
    pub fn finds_open_tours(&self) -> bool {
        !matches!(self, SolverKind::Circuit)
    }

    /// Whether this is one of the classical (non-network) solvers.
    pub fn is_classical(&self) -> bool {
        !matches!(
            self,
            SolverKind::Network(_) | SolverKind::NetworkMerge { .. }
        )
    }

    /// Apply the classical solvers' command-line flags, refusing flags that do not fit
    /// the solver: `tie_break` (warnsdorff only), `max_steps` (search solvers only),
    /// `restarts` (warnsdorff only; the random tie-break re-runs, see its docs).
    pub fn apply_classical_flags(
        &mut self,
        tie_break: Option<TieBreak>,
        max_steps: Option<u64>,
        restarts: Option<u32>,
    ) -> Result<(), InputError> {
        let me = self.to_string();
        if let Some(t) = tie_break {
            match self {
                SolverKind::Warnsdorff { tie, .. } => *tie = t,
                _ => {
                    return Err(InputError::NotApplicable {
                        param: Param::TieBreak,
                        solver: me,
                        scope: Scope::Solver("warnsdorff"),
                        hint: None,
                    })
                }
            }
        }
        if let Some(n) = max_steps {
            if n == 0 {
                return Err(InputError::max_steps_zero());
            }
            match self {
                SolverKind::Backtrack { max_steps }
                | SolverKind::ForwardCheck { max_steps, .. }
                | SolverKind::WarnsdorffBacktrack { max_steps, .. } => *max_steps = n,
                _ => {
                    return Err(InputError::NotApplicable {
                        param: Param::MaxSteps,
                        solver: me,
                        scope: Scope::SearchSolvers,
                        hint: None,
                    })
                }
            }
        }
        if let Some(n) = restarts {
            match self {
                SolverKind::Warnsdorff { restarts, .. } => *restarts = n,
                _ => {
                    return Err(InputError::NotApplicable {
                        param: Param::Restarts,
                        solver: me,
                        scope: Scope::Solver("warnsdorff"),
                        hint: Some(Hint::Instead {
                            param: Param::MaxAttempts,
                            solvers: "the network",
                        }),
                    })
                }
            }
        }
        Ok(())
    }
}

/// Other names of solvers, accepted wherever a solver is named (`solve`, `compare`,
/// specs, `play --watch`), as `queens --solver` names its own solvers:
/// `(alias, name)`, the alias replacing the part before any `:`.
pub(crate) const ALIASES: [(&str, &str); 3] = [
    ("backtracking", "backtrack"),
    ("forward-checking", "forward-check"),
    ("neural", "network"),
];

impl FromStr for SolverKind {
    type Err = InputError;

    /// `network` (the `parberry` preset) or `network:PRESET`; `network+merge[:PRESET]`
    /// (alias `neural+merge`); `warnsdorff` (tie-break `roth`) or `warnsdorff:TIE`;
    /// `backtrack`; `forward-check[:connectivity]`; `warnsdorff-backtrack[:ties]`;
    /// `circuit`; `divide-conquer`; and the `ALIASES`.
    fn from_str(s: &str) -> Result<SolverKind, InputError> {
        let s = s.trim();
        let (head, tail) = split_name(s);
        let head = ALIASES
            .iter()
            .find(|(alias, _)| *alias == head)
            .map_or(head, |(_, name)| name);
        let unknown = || {
            InputError::param(format!(
                "unknown solver '{s}'; accepted: {}",
                SolverKind::names().join(", ")
            ))
        };
        let steps = search::DEFAULT_MAX_STEPS;
        match (head, tail) {
            ("network", _) => {
                let preset: Preset = tail.unwrap_or("parberry").parse()?;
                Ok(SolverKind::Network(preset.params()))
            }
            ("network+merge" | "neural+merge", _) => {
                let preset: Preset = tail.unwrap_or("parberry").parse()?;
                Ok(SolverKind::NetworkMerge {
                    params: preset.params(),
                    tile: neural_merge::TileMode::Auto,
                })
            }
            ("warnsdorff", _) => Ok(SolverKind::Warnsdorff {
                tie: tail.unwrap_or("roth").parse()?,
                restarts: 0,
            }),
            ("backtrack", None) => Ok(SolverKind::Backtrack { max_steps: steps }),
            ("forward-check", None | Some("connectivity")) => Ok(SolverKind::ForwardCheck {
                connectivity: tail.is_some(),
                max_steps: steps,
            }),
            ("warnsdorff-backtrack", None | Some("ties")) => Ok(SolverKind::WarnsdorffBacktrack {
                ties_only: tail.is_some(),
                max_steps: steps,
            }),
            ("circuit", None) => Ok(SolverKind::Circuit),
            ("divide-conquer", None) => Ok(SolverKind::DivideConquer),
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverKind::Network(p) => write!(f, "network:{}", p.seed_label()),
            SolverKind::NetworkMerge {
                params,
                tile: neural_merge::TileMode::Auto,
            } => {
                write!(f, "network+merge:{}", params.seed_label())
            }
            SolverKind::NetworkMerge { params, tile } => {
                write!(f, "network+merge:{}@tile={tile}", params.seed_label())
            }
            SolverKind::Warnsdorff { tie, .. } => write!(f, "warnsdorff:{tie}"),
            SolverKind::Backtrack { .. } => f.write_str("backtrack"),
            SolverKind::ForwardCheck { connectivity, .. } => f.write_str(if *connectivity {
                "forward-check:connectivity"
            } else {
                "forward-check"
            }),
            SolverKind::WarnsdorffBacktrack { ties_only, .. } => f.write_str(if *ties_only {
                "warnsdorff-backtrack:ties"
            } else {
                "warnsdorff-backtrack"
            }),
            SolverKind::Circuit => f.write_str("circuit"),
            SolverKind::DivideConquer => f.write_str("divide-conquer"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aliases_name_the_same_solvers_with_or_without_a_variant() {
        for (alias, name) in ALIASES {
            let a: SolverKind = alias.parse().unwrap();
            let n: SolverKind = name.parse().unwrap();
            assert_eq!(a, n, "{alias}");
        }
        let a: SolverKind = "neural:brant".parse().unwrap();
        assert_eq!(a, "network:brant".parse::<SolverKind>().unwrap());
        let a: SolverKind = "forward-checking:connectivity".parse().unwrap();
        assert_eq!(
            a,
            "forward-check:connectivity".parse::<SolverKind>().unwrap()
        );
        assert!("backtracked".parse::<SolverKind>().is_err());
    }
}

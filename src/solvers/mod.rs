//! One interface for every tour finder: the network presets and the classical solvers.
//!
//! A [`Solver`] checks a [`Request`] before doing any work (theorems, memory, its own
//! abilities) and returns a [`Solution`] whose tour, if any, has passed the oracle in
//! [`crate::tour`]. [`SolverKind`] names solvers for the command line and spec files.

pub mod backtrack;
pub mod circuit;
pub mod classical;
pub mod divide_conquer;
pub mod facts;
pub(crate) mod forward_check;
mod name;
pub mod network;
pub mod neural_merge;
pub mod on_graph;
pub mod outcome;
pub mod search;
pub mod warnsdorff;
pub mod warnsdorff_backtrack;

use std::fmt;
use std::str::FromStr;

use crate::Rng;
use crate::board::Board;
use crate::error::{Hint, InputError, Param, Scope, Setting};
use crate::existence;
use crate::network::{NetworkParams, Preset};
use crate::tour::Tour;
use backtrack::BacktrackSolver;
use circuit::CircuitSolver;
use divide_conquer::DivideConquerSolver;
use forward_check::ForwardCheckSolver;
use warnsdorff::{TieBreak, WarnsdorffSolver};
use warnsdorff_backtrack::WarnsdorffBacktrackSolver;

pub use facts::{
    CircuitFacts, DivideConquerFacts, EngineKind, Facts, MergeFacts, NetworkFacts,
    NetworkMergeFacts, NetworkRunFacts, RuleFacts, SearchFacts, TerminationCounts, WarnsdorffFacts,
};
pub use name::{SolverFamily, SolverName};
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
    /// The board to tour.
    pub board: Board,
    /// Which tours are accepted.
    pub closed: Closure,
    /// Square the tour must start on.
    pub start: Option<u32>,
    /// Walk a closed tour in the other direction.
    pub reverse: bool,
}

impl Request {
    /// A request for `board` with the solver's default closure, any start square, and
    /// the tour walked in its own direction.
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

/// What a solver returns: its name, a validated tour or the outcome that says why there
/// is none, and the effort and facts of the run. The tour and the outcome cannot
/// disagree: [`Solution::outcome`] is [`Outcome::Tour`] exactly when
/// [`Solution::tour`] holds one.
#[derive(Debug, Clone)]
pub struct Solution {
    solver: SolverName,
    found: Found,
    /// Network steps or sweeps over all attempts (0 for search solvers).
    pub iterations: u64,
    /// Attempts made (restarts + 1).
    pub attempts: u64,
    /// Search steps (squares placed), for search solvers.
    pub steps: Option<u64>,
    /// The solver family's own facts (shown as top-level keys of the JSON output).
    pub facts: Facts,
}

/// A tour, or why there is none.
#[derive(Debug, Clone)]
enum Found {
    /// A tour that passed the oracle in [`crate::tour`].
    Tour(Tour),
    /// No tour: `outcome` (never [`Outcome::Tour`]) says why; `closed` is whether a
    /// closed tour was asked for.
    Failed { outcome: Outcome, closed: bool },
}

impl Solution {
    /// A solution holding `tour` (validated when it was built), made with one attempt
    /// and no iterations or steps until the solver sets them.
    pub fn found(solver: SolverName, tour: Tour, facts: Facts) -> Solution {
        Solution::with(solver, Found::Tour(tour), facts)
    }

    /// A solution without a tour: `outcome` says why, `closed` whether a closed tour was
    /// asked for. An `outcome` of [`Outcome::Tour`] (a tour claimed but not held) is
    /// recorded as [`Outcome::InvalidTour`].
    pub fn failed(solver: SolverName, outcome: Outcome, closed: bool, facts: Facts) -> Solution {
        debug_assert_ne!(outcome, Outcome::Tour, "a failed solution claims a tour");
        let outcome = match outcome {
            Outcome::Tour => Outcome::InvalidTour,
            o => o,
        };
        Solution::with(solver, Found::Failed { outcome, closed }, facts)
    }

    fn with(solver: SolverName, found: Found, facts: Facts) -> Solution {
        Solution {
            solver,
            found,
            iterations: 0,
            attempts: 1,
            steps: None,
            facts,
        }
    }

    /// The solver that made it: its family (the JSON's `solver`) and variant or
    /// tie-break (the JSON's `variant`: `parberry`, `roth`, `connectivity`, ...).
    pub fn solver(&self) -> &SolverName {
        &self.solver
    }

    /// The solver as the text output and figures name it: `network (parberry)`,
    /// `backtrack`.
    pub fn solver_label(&self) -> String {
        match self.solver.detail() {
            Some(v) => format!("{} ({v})", self.solver.family()),
            None => self.solver.family().to_string(),
        }
    }

    /// The tour, if one was found.
    pub fn tour(&self) -> Option<&Tour> {
        match &self.found {
            Found::Tour(t) => Some(t),
            Found::Failed { .. } => None,
        }
    }

    /// The tour, if one was found, without copying it.
    pub fn into_tour(self) -> Option<Tour> {
        match self.found {
            Found::Tour(t) => Some(t),
            Found::Failed { .. } => None,
        }
    }

    /// Why the solver stopped: [`Outcome::Tour`] with a tour, else a solver-specific
    /// failure.
    pub fn outcome(&self) -> Outcome {
        match self.found {
            Found::Tour(_) => Outcome::Tour,
            Found::Failed { outcome, .. } => outcome,
        }
    }

    /// Whether the tour is closed; without a tour, whether a closed one was asked for.
    pub fn closed(&self) -> bool {
        match &self.found {
            Found::Tour(t) => t.is_closed(),
            Found::Failed { closed, .. } => *closed,
        }
    }

    /// `network+merge` only: what merging did and where the time went.
    pub fn merge(&self) -> Option<&MergeFacts> {
        match &self.facts {
            Facts::NetworkMerge(f) => Some(&f.merge),
            _ => None,
        }
    }

    /// Rotate/reverse a closed tour to the requested start square.
    pub(crate) fn apply_start(mut self, req: &Request) -> Result<Solution, InputError> {
        let Found::Tour(tour) = &self.found else {
            return Ok(self);
        };
        if let Some(start) = req.start {
            if tour.start() == start && !req.reverse {
                // Already there: skip the copy (a whole tour on large boards).
                return Ok(self);
            }
            let rotated = tour.rotated(start, req.reverse).ok_or_else(|| {
                InputError::param(format!(
                    "the {} tour cannot be started at {} in that direction",
                    self.solver.family(),
                    req.board.square_name(start)
                ))
            })?;
            self.found = Found::Tour(rotated);
        } else if req.reverse
            && let Some(reversed) = tour.rotated(tour.start(), true)
        {
            self.found = Found::Tour(reversed);
        }
        Ok(self)
    }
}

/// How an experiment trial records a solve: the solution's outcome; a refusal is
/// [`Outcome::Impossible`] when a theorem says no such tour exists, else
/// [`Outcome::Refused`]. `compare` and the experiment runner both record with it.
pub(crate) fn record_outcome(result: &Result<Solution, InputError>) -> Outcome {
    match result {
        Ok(s) => s.outcome(),
        Err(InputError::Impossible(_)) => Outcome::Impossible,
        Err(_) => Outcome::Refused,
    }
}

/// A classical solver's name: `name` (its family, as the command line writes it) and
/// its variant, if any.
pub(crate) fn classical_name(name: &str, variant: Option<&str>) -> SolverName {
    SolverName::new(SolverFamily::from_name(name), variant.map(str::to_string))
}

/// A tour finder.
pub trait Solver: Send + Sync {
    /// The solver's name: its family and variant or tie-break, as on the command line
    /// (`network:parberry`, `warnsdorff:roth`, `backtrack`).
    fn name(&self) -> SolverName;
    /// Variant or tie-break name, if any (what follows the `:` of [`Solver::name`]).
    fn variant(&self) -> Option<String> {
        self.name().detail().map(str::to_string)
    }
    /// Refuse requests this solver cannot serve, before any work.
    fn check(&self, req: &Request) -> Result<(), InputError>;
    /// Find a tour. `rng` is the only source of randomness.
    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError>;
    /// Independent solves of one request handed out by `next` (an id of the caller's
    /// choosing and the solve's random stream) until it returns `None`; each comes back
    /// through `done(id, solution, seconds)` as it finishes, with the seconds spent on it.
    /// The solutions are those of [`Solver::solve`]. Threads sharing one queue behind
    /// `next` each call this; a solver that shares work between solves (the network's
    /// lanes) takes a new solve only when its current ones need no more work, so every
    /// thread stays busy until the queue is empty.
    fn solve_stream(
        &self,
        req: &Request,
        next: &mut dyn FnMut() -> Option<(u64, Rng)>,
        done: &mut dyn FnMut(u64, Result<Solution, InputError>, f64),
    ) {
        solve_one_by_one(self, req, next, done)
    }
}

/// [`Solver::solve_stream`] one [`Solver::solve`] at a time, each timed alone.
pub(crate) fn solve_one_by_one(
    solver: &(impl Solver + ?Sized),
    req: &Request,
    next: &mut dyn FnMut() -> Option<(u64, Rng)>,
    done: &mut dyn FnMut(u64, Result<Solution, InputError>, f64),
) {
    while let Some((id, mut rng)) = next() {
        let t0 = std::time::Instant::now();
        let solution = solver.solve(req, &mut rng);
        done(id, solution, t0.elapsed().as_secs_f64());
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
        /// The network's parameters.
        params: NetworkParams,
        /// Whole board or tiles.
        tile: neural_merge::TileMode,
    },
    /// Warnsdorff's rule with a tie-break; `restarts` re-runs a failed random run.
    Warnsdorff {
        /// The tie-break.
        tie: TieBreak,
        /// Re-runs after a failed run (the random tie-break only).
        restarts: u32,
    },
    /// Plain depth-first search in clockwise order.
    Backtrack {
        /// The step budget.
        max_steps: u64,
    },
    /// Depth-first search with forward checking (and optionally connectivity).
    ForwardCheck {
        /// Also backtrack when the unvisited squares fall apart.
        connectivity: bool,
        /// The step budget.
        max_steps: u64,
    },
    /// Depth-first search in Warnsdorff order (optionally tie points only).
    WarnsdorffBacktrack {
        /// Try only the moves tied for Warnsdorff's minimum.
        ties_only: bool,
        /// The step budget.
        max_steps: u64,
    },
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
                .map(|()| search::SolverRun::new(solver.name(), cfg, req, path)),
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
    /// the network's seed label (`parberry`, or `parberry*` with overrides),
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

    /// The network followed by cycle merging, with automatic tiles (`merge`); refused
    /// unless the solver is the network (network+merge stays as it is).
    pub fn merged(self) -> Result<SolverKind, InputError> {
        match self {
            SolverKind::Network(params) => Ok(SolverKind::NetworkMerge {
                params,
                tile: neural_merge::TileMode::Auto,
            }),
            k @ SolverKind::NetworkMerge { .. } => Ok(k),
            other => Err(InputError::NotApplicable {
                param: Param::Merge,
                solver: other.to_string(),
                scope: Scope::Solver("network"),
                hint: None,
            }),
        }
    }

    /// network+merge's tiles (`tile`); refused for any other solver, with the hint to
    /// merge when the solver is the network.
    pub fn set_tile(&mut self, mode: neural_merge::TileMode) -> Result<(), InputError> {
        match self {
            SolverKind::NetworkMerge { tile, .. } => {
                *tile = mode;
                Ok(())
            }
            other => Err(InputError::NotApplicable {
                param: Param::Tile,
                solver: other.to_string(),
                scope: Scope::Solver("network+merge"),
                hint: matches!(other, SolverKind::Network(_))
                    .then(|| Hint::Use(Setting::of(Param::Merge))),
            }),
        }
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
                    });
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
                    });
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
                    });
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
        let unknown = || InputError::unknown("solver", s, SolverKind::names());
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

    #[test]
    fn a_solution_holds_a_tour_exactly_when_its_outcome_is_tour() {
        let board = Board::new(5, 5).unwrap();
        let mut req = Request::new(board);
        req.closed = Closure::Open;
        let found = SolverKind::Warnsdorff {
            tie: TieBreak::Roth,
            restarts: 0,
        }
        .build()
        .solve(&req, &mut crate::rng_from_seed(1))
        .unwrap();
        assert_eq!(found.outcome(), Outcome::Tour);
        let tour = found.tour().expect("warnsdorff tours 5x5 from a corner");
        assert_eq!(found.closed(), tour.is_closed());
        assert_eq!(found.solver().to_string(), "warnsdorff:roth");

        let facts = Facts::Circuit(CircuitFacts { source: "search" });
        let name = classical_name("circuit", None);
        let failed = Solution::failed(name.clone(), Outcome::NotFound, true, facts.clone());
        assert!(failed.tour().is_none() && failed.into_tour().is_none());
        let failed = Solution::failed(name.clone(), Outcome::NotFound, true, facts);
        assert_eq!(
            (failed.outcome(), failed.closed()),
            (Outcome::NotFound, true)
        );
        assert_eq!(record_outcome(&Ok(failed)), Outcome::NotFound);
        assert_eq!(record_outcome(&Ok(found)), Outcome::Tour);
    }

    #[test]
    fn facts_serialise_to_the_keys_of_the_json_output() {
        let keys = |facts: &Facts| -> Vec<String> {
            match serde_json::to_value(facts).unwrap() {
                serde_json::Value::Object(m) => m.keys().cloned().collect(),
                other => panic!("facts serialise to an object, not {other}"),
            }
        };
        let search = SearchFacts {
            backtracks: 3,
            max_steps: 10,
            connectivity_squares: None,
            message: None,
        };
        assert_eq!(
            keys(&Facts::Search(search.clone())),
            ["backtracks", "max_steps"]
        );
        let search = SearchFacts {
            connectivity_squares: Some(7),
            message: Some("gave up after 10 steps".into()),
            ..search
        };
        assert_eq!(
            keys(&Facts::Search(search)),
            ["backtracks", "connectivity_squares", "max_steps", "message"]
        );
        let merge = NetworkMergeFacts {
            tile: None,
            run: NetworkRunFacts {
                terminations: TerminationCounts::default(),
                params: Preset::Parberry.params(),
                open_graph: true,
            },
            merge: MergeFacts {
                merged: false,
                report: None,
                network_ns: 5,
                merge_ns: 6,
            },
        };
        let v = serde_json::to_value(Facts::NetworkMerge(merge)).unwrap();
        assert_eq!(v["graph"], "open");
        assert!(v["tile"].is_null() && v["merge"].is_null() && v["merged"] == false);
        assert!(v.get("network_ns").is_none() && v.get("merge_ns").is_none());
        assert_eq!(v["terminations"]["multiple-cycles"], 0);
        let dc = Facts::DivideConquer(DivideConquerFacts { method: None });
        assert!(keys(&dc).is_empty());
    }
}

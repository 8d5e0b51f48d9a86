//! Watch mode: the `solve` solvers, one step at a time, so the UI can draw every
//! intermediate state. What is watched is what `solve --solver S` runs with the same
//! board, start and seed, step for step, ending in the same [`Solution`] (tests compare
//! them):
//!
//! - the search solvers `backtrack`, `forward-check[:connectivity]` and
//!   `warnsdorff-backtrack[:ties]` ([`search`]): one step is one [`Search::step`]: the
//!   knight placed on a square or taken back. They continue the game's path (or start
//!   on the cursor square) and look for an open tour;
//! - `warnsdorff[:TIE]` ([`walk`]): the solver's walk, one move per step (the rule never
//!   takes a move back);
//! - `network[:PRESET]` ([`network`]): one step is one network step (a sweep for the
//!   sequential presets) of the library's own run ([`crate::network::RunSteps`], the
//!   attempt and restart loops `solve` runs), computed once and shown as it goes.
//!
//! Beyond the knight on a whole plane board (a [`Field`] with another leaper, a cylinder
//! or torus, or holes), the same watchers run the solvers of
//! [`crate::solvers::on_graph`] on the field's move graph, as `solve --leaper ..
//! --surface .. --shape ..` runs them: the network (its neurons the move graph's edges),
//! Warnsdorff's walk (`warnsdorff`, ties to the lowest vertex) and the depth-first
//! searches `backtrack` and `forward-check`, one vertex placed or taken back per step
//! (the one search of `on_graph`, stepped). The others are refused, naming those.
//! Views are in squares of the board the field is cut from (holes never appear).
//!
//! Each watcher implements [`Steps`] (one step of its solver's run, the result at the
//! end); `Driver` keeps the step count and the status for all of them.
//!
//! [`Search::step`]: crate::solvers::search::Search::step

pub mod network;
pub mod search;
pub mod walk;

use std::fmt;
use std::str::FromStr;

use std::sync::Arc;

use crate::error::{InputError, Refusal};
use crate::graph::KnightGraph;
use crate::network::Preset;
use crate::puzzle::Field;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolution, GraphSolver};
use crate::solvers::warnsdorff::TieBreak;
use crate::solvers::{ALIASES, Closure, Outcome, Request, Solution, SolverKind};
use crate::{Rng, rng_from_seed};

/// The solvers watch mode runs beyond the knight on a whole plane board, for refusals.
pub const WATCH_ON_GRAPH: &str = "network[:PRESET], warnsdorff, backtrack and forward-check";

/// Where a stepper stands.
#[derive(Debug, Clone)]
// One `Status` per watcher, never held in bulk: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub enum Status {
    /// The solver's run is not over: another step may do something.
    Running,
    /// The solver finished on the knight's whole plane board: its result, exactly as
    /// `solve` makes it.
    Done(Result<Solution, InputError>),
    /// The solver finished on another geometry: its result, exactly as `solve --leaper
    /// .. --surface .. --shape ..` makes it ([`on_graph::solve`]; vertices of the
    /// field's move graph).
    DoneOnGraph(Result<GraphSolution, InputError>),
}

impl Status {
    /// Whether the solver's run is not over yet.
    pub fn is_running(&self) -> bool {
        matches!(self, Status::Running)
    }

    /// Whether the solver finished with a tour.
    pub fn solved(&self) -> bool {
        matches!(self.outcome(), Some(Ok(Outcome::Tour)))
    }

    /// How the run ended (`tour`, or why there is none), or the refusal; `None` while
    /// it runs.
    pub fn outcome(&self) -> Option<Result<Outcome, &InputError>> {
        match self {
            Status::Running => None,
            Status::Done(Ok(s)) => Some(Ok(s.outcome())),
            Status::DoneOnGraph(Ok(s)) => Some(Ok(s.outcome)),
            Status::Done(Err(e)) | Status::DoneOnGraph(Err(e)) => Some(Err(e)),
        }
    }
}

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View<'a> {
    /// The piece's path so far (squares).
    Path(&'a [u32]),
    /// The network's active moves and each square's active degree.
    Edges {
        /// The active moves (output 1), each as its two squares.
        edges: Vec<(u32, u32)>,
        /// Each square's number of active moves (0 to 8), indexed by square (0 on a
        /// hole).
        degree: Vec<u8>,
        /// Squares whose active degree is not 2 (all of them before the first state).
        off_two: u32,
        /// When every square has two active moves: the cycles they form, each as its
        /// squares (the move graph's cycle finder, [`crate::network::classify`]).
        cycles: Option<Vec<Vec<u32>>>,
        /// The attempt being run, counted from 1 (0 before the first).
        attempt: u32,
        /// Every move of the graph (one neuron each), as its two squares, by the
        /// network's move index.
        moves: Vec<(u32, u32)>,
        /// Each move's U (the neuron's state), by move index; empty before the first
        /// state.
        u: &'a [i32],
    },
}

/// What a solver provides to be watched: one step of its own run, its result once the
/// run is over, and what to show. `Driver` makes a [`Stepper`] of it.
pub trait Steps {
    /// One step of the solver's run; whether it did something (false once the run is
    /// over).
    fn advance(&mut self) -> bool;
    /// The solver's result, exactly as `solve` makes it, once the run is over: a
    /// [`Status::Done`] or [`Status::DoneOnGraph`] (`None` while it runs).
    fn result(&self) -> Option<Status>;
    /// See [`Stepper::counters`].
    fn counters(&self) -> String;
    /// See [`Stepper::view`].
    fn view(&self) -> View<'_>;
}

/// Every watcher's bookkeeping, once: the steps taken and the status, which turns to
/// [`Status::Done`] with the solver's result the moment its run is over.
pub(crate) struct Driver<S: Steps> {
    solver: S,
    steps: u64,
    status: Status,
}

impl<S: Steps> Driver<S> {
    pub fn new(solver: S) -> Driver<S> {
        Driver {
            solver,
            steps: 0,
            status: Status::Running,
        }
    }
}

impl<S: Steps> Stepper for Driver<S> {
    fn step(&mut self) -> &Status {
        if self.status.is_running() {
            if self.solver.advance() {
                self.steps += 1;
            }
            if let Some(result) = self.solver.result() {
                self.status = result;
            }
        }
        &self.status
    }

    fn status(&self) -> &Status {
        &self.status
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn counters(&self) -> String {
        self.solver.counters()
    }

    fn view(&self) -> View<'_> {
        self.solver.view()
    }
}

/// A solver run one step at a time.
pub trait Stepper {
    /// Do one step (nothing once finished).
    fn step(&mut self) -> &Status;
    /// Where the run stands, without stepping it.
    fn status(&self) -> &Status;
    /// Steps done so far (each call of [`Stepper::step`] that did something).
    fn steps(&self) -> u64;
    /// One line of the solver's own counters (search steps and backtracks, moves,
    /// attempts and iterations).
    fn counters(&self) -> String;
    /// What to draw for the run's current position.
    fn view(&self) -> View<'_>;
}

/// The network presets in the order Tab reaches them: those whose attempts settle (a
/// sweep that changes nothing ends them, on 8x8 nearly every one) first, so the first
/// network a user tabs to shows the network settling; then `takefuji-lee` and `numpy`
/// (most attempts run to the iteration cap) and `wikipedia`, whose (2, 0) rule never
/// settles (see docs/network-variants.md).
pub(crate) const NETWORK_ORDER: [Preset; 5] = [
    Preset::Parberry,
    Preset::Brant,
    Preset::TakefujiLee,
    Preset::Numpy,
    Preset::Wikipedia,
];

/// The watcher that steps a solver of [`on_graph`] beyond the knight on a whole plane
/// board.
#[derive(Debug, Clone, Copy)]
enum GraphWatcher {
    /// The network, with these parameters ([`network::NetworkWatch::on_graph`]).
    Network(crate::network::NetworkParams),
    /// Warnsdorff's walk ([`walk::WalkWatch::on_graph`]).
    Walk,
    /// A depth-first search ([`search::SearchWatch::on_graph`]).
    Search,
}

impl GraphWatcher {
    /// The watcher of `solver`, or `None` for one watch mode does not step
    /// (`network+merge`, `circuit`).
    fn of(solver: &GraphSolver) -> Option<GraphWatcher> {
        match *solver {
            GraphSolver::Network(params) => Some(GraphWatcher::Network(params)),
            GraphSolver::Warnsdorff => Some(GraphWatcher::Walk),
            GraphSolver::Backtrack { .. } | GraphSolver::ForwardCheck { .. } => {
                Some(GraphWatcher::Search)
            }
            GraphSolver::NetworkMerge(_) | GraphSolver::Circuit => None,
        }
    }
}

/// A solver watch mode can step: one of `solve`'s solvers.
#[derive(Debug, Clone, PartialEq)]
pub struct WatchKind(SolverKind);

impl WatchKind {
    /// Whether `kind` can be watched (the search solvers, Warnsdorff, the network).
    pub fn new(kind: SolverKind) -> Option<WatchKind> {
        match kind {
            SolverKind::Backtrack { .. }
            | SolverKind::ForwardCheck { .. }
            | SolverKind::WarnsdorffBacktrack { .. }
            | SolverKind::Warnsdorff { restarts: 0, .. }
            | SolverKind::Network(_) => Some(WatchKind(kind)),
            _ => None,
        }
    }

    /// The solver this choice steps.
    pub fn kind(&self) -> &SolverKind {
        &self.0
    }

    /// Every choice, in the order the UI cycles through them.
    pub fn all() -> Vec<WatchKind> {
        let max_steps = crate::solvers::search::DEFAULT_MAX_STEPS;
        let mut v: Vec<WatchKind> = [
            SolverKind::Backtrack { max_steps },
            SolverKind::ForwardCheck {
                connectivity: false,
                max_steps,
            },
            SolverKind::ForwardCheck {
                connectivity: true,
                max_steps,
            },
            SolverKind::WarnsdorffBacktrack {
                ties_only: false,
                max_steps,
            },
            SolverKind::WarnsdorffBacktrack {
                ties_only: true,
                max_steps,
            },
        ]
        .into_iter()
        .map(WatchKind)
        .collect();
        v.extend(
            TieBreak::ALL
                .iter()
                .map(|&tie| WatchKind(SolverKind::Warnsdorff { tie, restarts: 0 })),
        );
        v.extend(
            NETWORK_ORDER
                .iter()
                .map(|p| WatchKind(SolverKind::Network(p.params()))),
        );
        v
    }

    /// The next choice after this one (wrapping).
    pub fn next(&self) -> WatchKind {
        let all = WatchKind::all();
        let i = all.iter().position(|k| k == self).unwrap_or(all.len() - 1);
        all[(i + 1) % all.len()].clone()
    }

    /// Build the stepper on `field` (a [`crate::board::Board`] is the knight's whole
    /// plane board): the search solvers continue `path` (or start on `start`);
    /// Warnsdorff's walk starts on the path's first square (or `start`); the network looks
    /// for a closed tour from `seed`, as `solve` does. A request `solve` would refuse is
    /// refused with `solve`'s message; a solver that runs only on the knight's whole
    /// plane board, beyond it, with one line naming [`WATCH_ON_GRAPH`].
    pub fn build(
        &self,
        field: impl Into<Field>,
        path: &[u32],
        start: u32,
        seed: u64,
    ) -> Result<Box<dyn Stepper + Send>, InputError> {
        self.build_with(&field.into(), path, start, seed, &mut rng_from_seed(seed))
    }

    /// [`WatchKind::build`] from a start drawn first from `seed`'s stream
    /// ([`crate::seeds::random_start`], over the squares that are not holes), Warnsdorff's
    /// walk then drawing from the rest of it: the run of an experiment's trial with
    /// `start = "random"` and that seed.
    pub fn build_drawn_start(
        &self,
        field: impl Into<Field>,
        seed: u64,
    ) -> Result<Box<dyn Stepper + Send>, InputError> {
        let field = field.into();
        let mut rng = rng_from_seed(seed);
        let vertex = crate::seeds::random_start(&mut rng, field.squares() as u64);
        let start = field.square_of(vertex);
        self.build_with(&field, &[], start, seed, &mut rng)
    }

    /// The stepper, Warnsdorff's walk drawing from `rng` (the network from `seed`).
    fn build_with(
        &self,
        field: &Field,
        path: &[u32],
        start: u32,
        seed: u64,
        rng: &mut Rng,
    ) -> Result<Box<dyn Stepper + Send>, InputError> {
        if let Some(graph) = field.shared_graph() {
            return self.build_on_graph(field, graph, path, start, seed);
        }
        let first = path.first().copied().unwrap_or(start);
        let req = Request {
            board: field.board(),
            closed: Closure::SolverDefault,
            start: Some(first),
            reverse: false,
        };
        Ok(match &self.0 {
            SolverKind::Network(p) => {
                let req = Request { start: None, ..req };
                Box::new(Driver::new(network::NetworkWatch::new(*p, &req, seed)?))
            }
            SolverKind::Warnsdorff { tie, .. } => {
                Box::new(Driver::new(walk::WalkWatch::new(*tie, &req, rng)?))
            }
            kind => {
                let path = if path.is_empty() { &[start][..] } else { path };
                Box::new(Driver::new(search::SearchWatch::new(kind, &req, path)?))
            }
        })
    }

    /// The stepper on a geometry's move graph `graph` (of `field`): the solver of
    /// [`on_graph`], checked as `solve` checks it, from `path` (or `start`).
    fn build_on_graph(
        &self,
        field: &Field,
        graph: Arc<KnightGraph>,
        path: &[u32],
        start: u32,
        seed: u64,
    ) -> Result<Box<dyn Stepper + Send>, InputError> {
        let refused = || {
            InputError::Unsupported(Refusal::new(format!(
                "{self} runs only on the knight on a whole plane board; on {} watch runs {WATCH_ON_GRAPH}",
                graph.describe()
            )))
        };
        let solver = GraphSolver::from_kind(&self.0).map_err(|_| refused())?;
        let watcher = GraphWatcher::of(&solver).ok_or_else(refused)?;
        // The walk's and the searches' first vertex: the path's, or the start square's
        // (the network looks for a closed tour from no start; on the knight's board
        // vertex `v` is square `v`).
        let first = || match path.first() {
            Some(_) => Ok(field.vertices(&path[..1])[0]),
            None => field.moves().map_or(Ok(start), |m| m.start_vertex(start)),
        };
        let closed = solver.closed_by_default();
        Ok(match watcher {
            GraphWatcher::Network(params) => {
                let req = GraphRequest {
                    closed,
                    start: None,
                };
                on_graph::check(&graph, &solver, &req)?;
                Box::new(Driver::new(network::NetworkWatch::on_graph(
                    field.clone(),
                    graph,
                    params,
                    req,
                    seed,
                )?))
            }
            GraphWatcher::Walk => {
                let req = GraphRequest {
                    closed,
                    start: Some(first()?),
                };
                on_graph::check(&graph, &solver, &req)?;
                Box::new(Driver::new(walk::WalkWatch::on_graph(field, &graph, &req)))
            }
            GraphWatcher::Search => {
                let first = first()?;
                let req = GraphRequest {
                    closed,
                    start: Some(first),
                };
                on_graph::check(&graph, &solver, &req)?;
                let path = if path.is_empty() {
                    vec![first]
                } else {
                    field.vertices(path)
                };
                Box::new(Driver::new(search::SearchWatch::on_graph(
                    field.clone(),
                    graph,
                    solver,
                    &path,
                )))
            }
        })
    }

    /// The names `--watch` accepts, for messages.
    pub fn accepted() -> String {
        format!(
            "backtrack, forward-check[:connectivity], warnsdorff-backtrack[:ties], warnsdorff[:TIE] (TIE: {}), network[:PRESET] (PRESET: {}); aliases {}",
            TieBreak::ALL.map(|t| t.name()).join(", "),
            Preset::every()
                .map(|p| p.name())
                .collect::<Vec<_>>()
                .join(", "),
            ALIASES
                .iter()
                .map(|(old, new)| format!("{old} = {new}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    }
}

impl fmt::Display for WatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for WatchKind {
    type Err = InputError;

    /// `solve`'s names of the watchable solvers, and the aliases.
    fn from_str(s: &str) -> Result<WatchKind, InputError> {
        let s = s.trim();
        let refused = || {
            InputError::param(format!(
                "unknown watch solver '{s}'; accepted: {}",
                WatchKind::accepted()
            ))
        };
        let kind: SolverKind = s.parse().map_err(|_| refused())?;
        WatchKind::new(kind).ok_or_else(refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_watched_beyond_the_knight_has_its_watcher() {
        let mut watched = 0;
        for k in WatchKind::all() {
            if let Ok(solver) = GraphSolver::from_kind(k.kind()) {
                assert!(GraphWatcher::of(&solver).is_some(), "{k}");
                watched += 1;
            }
        }
        assert!(watched > 0);
        assert!(GraphWatcher::of(&GraphSolver::Circuit).is_none());
    }

    #[test]
    fn watch_names_round_trip() {
        for k in WatchKind::all() {
            assert_eq!(k.to_string().parse::<WatchKind>().unwrap(), k);
        }
        assert_eq!(
            "backtracking".parse::<WatchKind>().unwrap().to_string(),
            "backtrack"
        );
        assert_eq!(
            "network".parse::<WatchKind>().unwrap().to_string(),
            "network:parberry"
        );
        for bad in [
            "dfs",
            "circuit",
            "divide-conquer",
            "network+merge",
            "warnsdorff:x",
        ] {
            let e = bad.parse::<WatchKind>().unwrap_err().to_string();
            assert!(
                e.contains(&format!("'{bad}'")) && e.contains("accepted: backtrack"),
                "{e}"
            );
            assert!(!e.contains('\n'), "{e}");
        }
    }
}

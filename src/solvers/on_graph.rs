//! The solvers that run on any graph: a geometry's move graph (any leaper, surface and
//! shape) or a graph read from a file ([`KnightGraph::from_moves`],
//! [`KnightGraph::from_file`]). Every tour they return has passed the oracle on the
//! graph searched ([`crate::tour::check_on`]).
//!
//! - `network`: the Takefuji–Lee network's scalar engine ([`crate::network::Network`]),
//!   closed tours (Hamiltonian cycles) only, any degree below 2^16;
//! - `network+merge`: the same network; an attempt that settles into several cycles is
//!   merged into one by [`crate::merge`]'s swaps over the graph's edges (a new attempt
//!   when the merge fails), closed tours only, whole graph (no tiles);
//! - `warnsdorff`: Warnsdorff's rule (Warnsdorff 1823) on the graph: one walk from the
//!   start, always to the unvisited neighbour with the fewest unvisited neighbours, ties
//!   to the lowest vertex number;
//! - `backtrack`: depth-first search, neighbours in increasing vertex number, no pruning
//!   beyond "vertex already visited";
//! - `forward-check`: the same search, taking a move back as soon as a neighbour of the
//!   vertex just left can no longer be entered and left (closed tours) or reached (open
//!   tours);
//! - `circuit`: one closed tour found by `forward-check` from vertex 0, started at the
//!   start (a closed tour serves every start, so it is closed even when an open one is
//!   asked for).
//!
//! The other solvers (`divide-conquer`, `warnsdorff-backtrack`, the knight's
//! tie-breaks, `forward-check:connectivity`) build on the knight's board and are refused
//! here ([`GraphSolver::from_kind`]).
//!
//! A search's step is one vertex placed; the budget is `max_steps` (default
//! [`super::search::DEFAULT_MAX_STEPS`]).

use super::neural_merge::{MAX_LOCAL_MOVES, TileMode};
use super::{Outcome, SolverKind};
use crate::Rng;
use crate::cover::Cover;
use crate::error::{InputError, Refusal};
use crate::existence;
use crate::graph::KnightGraph;
use crate::merge::merge_on;
use crate::network::{Network, NetworkParams, NetworkRun};
use crate::solvers::warnsdorff::TieBreak;
use crate::tour::GraphTour;

/// The geometries and graphs the solvers run on, for refusals.
pub const RUNS_ON: &str =
    "the network, network+merge, warnsdorff, backtrack, forward-check and circuit";

/// A solver that runs on any graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GraphSolver {
    /// The network's scalar engine, closed tours.
    Network(NetworkParams),
    /// The network, its several-cycle outcomes merged into one cycle; closed tours.
    NetworkMerge(NetworkParams),
    /// One Warnsdorff walk from the start.
    Warnsdorff,
    /// Depth-first search.
    Backtrack {
        /// The step budget (vertices placed).
        max_steps: u64,
    },
    /// Depth-first search with forward checking.
    ForwardCheck {
        /// The step budget (vertices placed).
        max_steps: u64,
    },
    /// One closed tour, found by the forward-checking search from vertex 0 (within
    /// [`super::search::DEFAULT_MAX_STEPS`] vertices placed), started at the start in
    /// the direction found: `circuit` beyond the knight. The tour is closed even when an
    /// open one is asked for: a closed tour serves every start.
    Circuit,
}

impl GraphSolver {
    /// The solver named by `kind`, or why it runs only on the knight's board (one line
    /// naming the solvers that run here).
    pub fn from_kind(kind: &SolverKind) -> Result<GraphSolver, InputError> {
        let knight_only = |name: &str, why: &str| {
            Err(InputError::Unsupported(Refusal::new(format!(
                "{name} {why}, so it runs only on the knight on a whole plane board; on other leapers, surfaces, shapes and graph files use {RUNS_ON}"
            ))))
        };
        match *kind {
            SolverKind::Network(p) => Ok(GraphSolver::Network(p)),
            SolverKind::Warnsdorff { tie, restarts } => {
                if tie != TieBreak::Roth || restarts != 0 {
                    return knight_only(
                        &format!("warnsdorff:{tie}"),
                        "breaks ties by the board's squares and moves",
                    );
                }
                Ok(GraphSolver::Warnsdorff)
            }
            SolverKind::Backtrack { max_steps } => Ok(GraphSolver::Backtrack { max_steps }),
            SolverKind::ForwardCheck {
                connectivity: false,
                max_steps,
            } => Ok(GraphSolver::ForwardCheck { max_steps }),
            SolverKind::ForwardCheck {
                connectivity: true, ..
            } => knight_only(
                "forward-check:connectivity",
                "is built on the knight's search engine",
            ),
            SolverKind::NetworkMerge {
                tile: TileMode::Side(_),
                ..
            } => knight_only(
                "network+merge on tiles",
                "cuts the board into rectangular tiles",
            ),
            SolverKind::NetworkMerge { params, .. } => Ok(GraphSolver::NetworkMerge(params)),
            SolverKind::DivideConquer => knight_only(
                "divide-conquer",
                "joins knight's tours of fixed blocks of the board",
            ),
            SolverKind::Circuit => Ok(GraphSolver::Circuit),
            SolverKind::WarnsdorffBacktrack { .. } => {
                knight_only("warnsdorff-backtrack", "orders moves by the board's centre")
            }
        }
    }

    /// The solver's name, as output names it.
    pub fn name(&self) -> &'static str {
        match self {
            GraphSolver::Network(_) => "network",
            GraphSolver::NetworkMerge(_) => "network+merge",
            GraphSolver::Warnsdorff => "warnsdorff",
            GraphSolver::Backtrack { .. } => "backtrack",
            GraphSolver::ForwardCheck { .. } => "forward-check",
            GraphSolver::Circuit => "circuit",
        }
    }

    /// Whether the solver looks for a closed tour unless told: the network (with or
    /// without the merge) does, the others find open tours.
    pub fn closed_by_default(&self) -> bool {
        self.is_network() || matches!(self, GraphSolver::Circuit)
    }

    /// Whether the solver is the network, with or without the merge.
    fn is_network(&self) -> bool {
        matches!(self, GraphSolver::Network(_) | GraphSolver::NetworkMerge(_))
    }
}

/// What is asked of a [`GraphSolver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphRequest {
    /// A closed tour (Hamiltonian cycle) or an open one (Hamiltonian path).
    pub closed: bool,
    /// The vertex the tour starts on; `None`: vertex 0 (the search solvers), any (the
    /// network).
    pub start: Option<u32>,
}

/// What a [`GraphSolver`] returns: a checked tour or the outcome that says why there is
/// none, and the run's effort.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphSolution {
    /// The solver's name ([`GraphSolver::name`]).
    pub solver: &'static str,
    /// The tour, checked by [`crate::tour::check_on`] on the graph searched.
    pub tour: Option<GraphTour>,
    /// [`Outcome::Tour`] exactly when there is a tour.
    pub outcome: Outcome,
    /// Whether a closed tour was asked for.
    pub closed: bool,
    /// Network attempts (1 for the other solvers).
    pub attempts: u64,
    /// Network steps or sweeps over all attempts (0 for the other solvers).
    pub iterations: u64,
    /// Vertices placed (the search solvers and Warnsdorff).
    pub steps: Option<u64>,
}

/// Refuse a request that theory rules out ([`existence::ruled_out`]: a leaper's
/// lattice, components, degrees, colours), naming the reason. Also refuses the network
/// on an open tour, and a start that is not a vertex.
pub fn check(
    graph: &KnightGraph,
    solver: &GraphSolver,
    req: &GraphRequest,
) -> Result<(), InputError> {
    if let Some(s) = req.start
        && s as usize >= graph.squares()
    {
        return Err(InputError::Square(format!(
            "start vertex {s} is not in {}",
            graph.describe()
        )));
    }
    if solver.is_network() && !req.closed {
        return Err(InputError::Unsupported(Refusal::new(format!(
            "{} looks for closed tours on {}; drop the open tour, or use warnsdorff, backtrack or forward-check",
            solver.name(),
            graph.describe()
        ))));
    }
    match existence::ruled_out(graph, req.closed) {
        Some(why) => Err(InputError::impossible(why)),
        None => Ok(()),
    }
}

/// Run `solver` on `graph` after [`check`]. Deterministic but for the network, which
/// draws from `rng` as [`Network::solve`] does.
pub fn solve(
    graph: &KnightGraph,
    solver: &GraphSolver,
    req: &GraphRequest,
    rng: &mut Rng,
) -> Result<GraphSolution, InputError> {
    check(graph, solver, req)?;
    Ok(match *solver {
        GraphSolver::Network(params) => {
            let run = Network::new(graph, params)?.solve(rng);
            network_solution(graph, solver, run, req)
        }
        GraphSolver::NetworkMerge(params) => network_merge(graph, params, req, rng)?,
        GraphSolver::Warnsdorff => warnsdorff_solution(graph, solver, req).0,
        GraphSolver::Backtrack { max_steps } => {
            let start = [req.start.unwrap_or(0)];
            let (found, steps) = search(graph, &start, req.closed, max_steps, false, &mut |_| true);
            found.finish(solver, graph, req.closed, steps)
        }
        GraphSolver::ForwardCheck { max_steps } => {
            let start = [req.start.unwrap_or(0)];
            let (found, steps) = search(graph, &start, req.closed, max_steps, true, &mut |_| true);
            found.finish(solver, graph, req.closed, steps)
        }
        GraphSolver::Circuit => {
            let (found, steps) = search(
                graph,
                &[0],
                true,
                super::search::DEFAULT_MAX_STEPS,
                true,
                &mut |_| true,
            );
            let found = match found {
                Found::Tour(mut cycle) => {
                    if let Some(p) = req.start.and_then(|s| cycle.iter().position(|&v| v == s)) {
                        cycle.rotate_left(p);
                    }
                    Found::Tour(cycle)
                }
                other => other,
            };
            found.finish(solver, graph, true, steps)
        }
    })
}

/// The solution of the network's `run` (made by [`Network::solve`] or stepped by
/// [`crate::network::RunSteps`]) on `graph`: its tour started at `req.start` when given.
pub(crate) fn network_solution(
    graph: &KnightGraph,
    solver: &GraphSolver,
    run: NetworkRun,
    req: &GraphRequest,
) -> GraphSolution {
    let outcome = Outcome::from(&run.last.termination);
    let mut tour = None;
    if outcome == Outcome::Tour {
        let mut cycle = run.last.cycles[0].clone();
        if let Some(p) = req.start.and_then(|s| cycle.iter().position(|&v| v == s)) {
            cycle.rotate_left(p);
        }
        tour = Some(cycle);
    }
    GraphSolution {
        solver: solver.name(),
        tour: None,
        outcome,
        closed: req.closed,
        attempts: u64::from(run.attempts),
        iterations: run.total_iterations,
        steps: None,
    }
    .with(graph, tour, outcome)
}

/// Warnsdorff's walk on `graph` from `req.start` (vertex 0 when not given): the
/// solution and the whole walk (the tour, or the walk up to where it got stuck).
pub(crate) fn warnsdorff_solution(
    graph: &KnightGraph,
    solver: &GraphSolver,
    req: &GraphRequest,
) -> (GraphSolution, Vec<u32>) {
    let (walk, steps) = warnsdorff(graph, req.start.unwrap_or(0));
    let outcome = if walk.len() < graph.squares() {
        Outcome::Stuck
    } else if req.closed && !closes(graph, &walk) {
        Outcome::NotClosed
    } else {
        Outcome::Tour
    };
    let tour = (outcome == Outcome::Tour).then(|| walk.clone());
    let solution = GraphSolution::search(solver, req.closed, steps).with(graph, tour, outcome);
    (solution, walk)
}

/// `network+merge` on `graph`: up to `params.max_attempts` network attempts, each
/// drawn from `rng`; the first that settles into cycles is merged ([`merge_on`], its
/// fallback drawing from `rng` too) and, if the merge reaches one cycle, is the tour
/// (from `req.start` when given). A failed merge is followed by a fresh attempt.
fn network_merge(
    graph: &KnightGraph,
    params: NetworkParams,
    req: &GraphRequest,
    rng: &mut Rng,
) -> Result<GraphSolution, InputError> {
    let net = Network::new(graph, params)?;
    let mut solution = GraphSolution {
        solver: GraphSolver::NetworkMerge(params).name(),
        tour: None,
        outcome: Outcome::IterationCap,
        closed: true,
        attempts: 0,
        iterations: 0,
        steps: None,
    };
    for _ in 0..params.max_attempts {
        let attempt = net.attempt(rng, None);
        solution.attempts += 1;
        solution.iterations += u64::from(attempt.iterations);
        solution.outcome = Outcome::from(&attempt.termination);
        if attempt.termination.cycle_count() == 0 {
            continue;
        }
        let cover = Cover::from_cycles(graph.squares(), &attempt.cycles);
        drop(attempt);
        match merge_on(cover, graph, rng, MAX_LOCAL_MOVES) {
            (Some(cycle), _) => {
                let mut tour = Vec::with_capacity(graph.squares());
                cycle.walk_cycle(req.start.unwrap_or(0), |v| tour.push(v));
                return Ok(solution.with(graph, Some(tour), Outcome::Tour));
            }
            (None, _) => solution.outcome = Outcome::MergeFailed,
        }
    }
    let outcome = solution.outcome;
    Ok(solution.with(graph, None, outcome))
}

impl GraphSolution {
    /// A search's solution before its tour is known.
    fn search(solver: &GraphSolver, closed: bool, steps: u64) -> GraphSolution {
        GraphSolution {
            solver: solver.name(),
            tour: None,
            outcome: Outcome::Tour,
            closed,
            attempts: 1,
            iterations: 0,
            steps: Some(steps),
        }
    }

    /// This solution with `tour`, checked on `graph` (a tour the oracle rejects is
    /// recorded as [`Outcome::InvalidTour`]), and otherwise `outcome`.
    fn with(mut self, graph: &KnightGraph, tour: Option<Vec<u32>>, outcome: Outcome) -> Self {
        self.outcome = outcome;
        self.tour = None;
        if let Some(t) = tour {
            match GraphTour::new(graph, t, self.closed) {
                Ok(t) => self.tour = Some(t),
                Err(_) => self.outcome = Outcome::InvalidTour,
            }
        }
        self
    }
}

/// Whether an edge joins the walk's last vertex to its first (a closed tour needs three
/// vertices or more).
fn closes(graph: &KnightGraph, walk: &[u32]) -> bool {
    walk.len() >= 3 && graph.edge_between(walk[walk.len() - 1], walk[0]).is_some()
}

/// Warnsdorff's walk from `start`: the walk and the vertices placed.
fn warnsdorff(graph: &KnightGraph, start: u32) -> (Vec<u32>, u64) {
    walk_on(graph, &[start])
}

/// Warnsdorff's walk continuing `path` (non-empty, distinct vertices, each joined to
/// the one before): the whole walk, `path` first, and its length (the vertices placed,
/// counting the path's). The game's hint and completion beyond the knight
/// ([`crate::puzzle`]) use it too.
pub(crate) fn walk_on(graph: &KnightGraph, path: &[u32]) -> (Vec<u32>, u64) {
    let n = graph.squares();
    let mut free: Vec<u32> = (0..n as u32).map(|v| graph.degree(v) as u32).collect();
    let mut visited = vec![false; n];
    let mut walk = Vec::with_capacity(n);
    let (&last, before) = path.split_last().expect("a walk needs a start");
    for &v in before {
        visited[v as usize] = true;
        walk.push(v);
        for &e in graph.incident(v) {
            free[graph.other(e as usize, v) as usize] -= 1;
        }
    }
    let mut head = last;
    loop {
        visited[head as usize] = true;
        walk.push(head);
        let mut best: Option<(u32, u32)> = None;
        for &e in graph.incident(head) {
            let w = graph.other(e as usize, head);
            free[w as usize] -= 1;
            if !visited[w as usize] {
                let key = (free[w as usize], w);
                if best.is_none_or(|b| key < b) {
                    best = Some(key);
                }
            }
        }
        match best {
            Some((_, w)) => head = w,
            None => break,
        }
    }
    let steps = walk.len() as u64;
    (walk, steps)
}

/// The tours of `graph` counted by the forward-checking search ([`count`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TourCount {
    /// Closed tours: Hamiltonian cycles, each once; open tours: Hamiltonian paths, each
    /// once (a path and its reverse are one).
    pub undirected: u64,
    /// Closed tours: the cycles from vertex 0 in each direction (`2 * undirected`);
    /// open tours: the paths from every start in each direction (`2 * undirected`, but
    /// 1 on a graph of one vertex).
    pub directed: u64,
    /// Vertices placed.
    pub steps: u64,
}

/// Count the closed (or open) tours of `graph` by the forward-checking search, placing
/// at most `max_steps` vertices: closed tours from vertex 0 (every cycle passes
/// there, once per direction), open tours from every vertex. `None` when the budget
/// runs out first.
pub fn count(graph: &KnightGraph, closed: bool, max_steps: u64) -> Option<TourCount> {
    let n = graph.squares();
    let starts = if closed { n.min(1) } else { n };
    let mut directed = 0u64;
    let mut steps = 0u64;
    for start in 0..starts as u32 {
        let (found, used) = search(
            graph,
            &[start],
            closed,
            max_steps.saturating_sub(steps),
            true,
            &mut |_| {
                directed += 1;
                false
            },
        );
        steps += used;
        if matches!(found, Found::Budget) {
            return None;
        }
    }
    let undirected = if n == 1 && !closed { 1 } else { directed / 2 };
    Some(TourCount {
        undirected,
        directed,
        steps,
    })
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    Tour(Vec<u32>),
    Exhausted,
    Budget,
}

impl Found {
    /// The solution of a search that ended so after `steps` vertices placed.
    pub(crate) fn finish(
        self,
        solver: &GraphSolver,
        graph: &KnightGraph,
        closed: bool,
        steps: u64,
    ) -> GraphSolution {
        let sol = GraphSolution::search(solver, closed, steps);
        match self {
            Found::Tour(t) => sol.with(graph, Some(t), Outcome::Tour),
            Found::Exhausted => sol.with(graph, None, Outcome::Exhausted),
            Found::Budget => sol.with(graph, None, Outcome::GaveUp),
        }
    }
}

/// Depth-first search continuing `path` (its first vertex the start, the others never
/// taken back: a lone start for the solvers and `count`, a played position for the
/// game's completion beyond the knight), neighbours in increasing vertex number, at
/// most `max_steps` vertices placed (the path's last counts as one); with `forward_check`, a move is
/// taken back when a neighbour of the vertex just left has fewer than two links (one
/// for an open tour): unvisited neighbours, the head, and for a closed tour the start.
/// That pruning is sound: such a vertex cannot be inside the tour (or, with no link,
/// anywhere on it). Each tour is shown to `stop`, which says whether to end there (the
/// tour returned) or to go on to the next ([`Found::Exhausted`] once none is left).
/// Returns how it ended and the vertices placed. It runs [`GraphSearch`] to the end.
pub(crate) fn search(
    graph: &KnightGraph,
    path: &[u32],
    closed: bool,
    max_steps: u64,
    forward_check: bool,
    stop: &mut dyn FnMut(&[u32]) -> bool,
) -> (Found, u64) {
    let mut s = GraphSearch::new(graph, path, closed, max_steps, forward_check);
    if s.is_tour() && stop(s.path()) {
        return (Found::Tour(s.path), s.steps);
    }
    loop {
        match s.step() {
            SearchStep::Placed => {
                if s.is_tour() && stop(s.path()) {
                    return (Found::Tour(s.path), s.steps);
                }
            }
            SearchStep::TookBack => {}
            SearchStep::Ended(found) => return (found, s.steps),
        }
    }
}

/// What one [`GraphSearch::step`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SearchStep {
    /// A vertex was placed at the head of the path (it may complete a tour:
    /// [`GraphSearch::is_tour`]).
    Placed,
    /// The head of the path was taken back.
    TookBack,
    /// The search is over: [`Found::Exhausted`] or [`Found::Budget`] (a tour is seen
    /// after [`SearchStep::Placed`]).
    Ended(Found),
}

/// The depth-first search of [`search`], one vertex placed or taken back per
/// [`GraphSearch::step`], so that a front end can show every position (the game's
/// watch mode beyond the knight).
pub(crate) struct GraphSearch {
    /// Each vertex's neighbours, in increasing order.
    neighbours: Vec<Vec<u32>>,
    visited: Vec<bool>,
    /// The start's neighbours (a closed tour ends on one).
    near_start: Vec<bool>,
    start: u32,
    closed: bool,
    forward_check: bool,
    max_steps: u64,
    path: Vec<u32>,
    /// The next neighbour index to try at each depth (below the given path's head).
    next: Vec<usize>,
    /// Vertices placed (the given path's head counts as one).
    steps: u64,
    /// Takebacks so far.
    backtracks: u64,
    /// The head was just placed and is not yet checked (forward checking, a full path).
    unchecked: bool,
    /// How the search ended, once it has.
    ended: Option<Found>,
}

impl GraphSearch {
    /// The search of [`search`] continuing `path`, before its first step.
    pub(crate) fn new(
        graph: &KnightGraph,
        path: &[u32],
        closed: bool,
        max_steps: u64,
        forward_check: bool,
    ) -> GraphSearch {
        let n = graph.squares();
        let start = path[0];
        let neighbours: Vec<Vec<u32>> = (0..n as u32)
            .map(|v| {
                let mut w: Vec<u32> = graph
                    .incident(v)
                    .iter()
                    .map(|&e| graph.other(e as usize, v))
                    .collect();
                w.sort_unstable();
                w
            })
            .collect();
        let mut near_start = vec![false; n];
        for &w in &neighbours[start as usize] {
            near_start[w as usize] = true;
        }
        let mut visited = vec![false; n];
        for &v in path {
            visited[v as usize] = true;
        }
        GraphSearch {
            neighbours,
            visited,
            near_start,
            start,
            closed,
            forward_check,
            max_steps,
            path: path.to_vec(),
            next: vec![0],
            steps: 1,
            backtracks: 0,
            unchecked: false,
            ended: None,
        }
    }

    /// The path as it stands (vertices).
    pub(crate) fn path(&self) -> &[u32] {
        &self.path
    }

    /// Vertices placed so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// Vertices taken back so far.
    pub(crate) fn backtracks(&self) -> u64 {
        self.backtracks
    }

    /// Whether the path is a tour (closed: its last vertex next to the start).
    pub(crate) fn is_tour(&self) -> bool {
        let n = self.visited.len();
        self.path.len() == n
            && (!self.closed || (n >= 3 && self.near_start[self.path[n - 1] as usize]))
    }

    /// Whether unvisited `u` keeps enough links (two for a closed tour, one for an open
    /// one) with `head` at the head.
    fn links_ok(&self, u: u32, head: u32) -> bool {
        let need = if self.closed { 2 } else { 1 };
        let mut links = 0;
        for &w in &self.neighbours[u as usize] {
            if !self.visited[w as usize] || w == head || (self.closed && w == self.start) {
                links += 1;
                if links >= need {
                    return true;
                }
            }
        }
        false
    }

    /// Take back the head.
    fn take_back(&mut self) -> SearchStep {
        let head = self.path.pop().expect("a head to take back");
        if !self.path.is_empty() {
            self.visited[head as usize] = false;
        }
        self.backtracks += 1;
        SearchStep::TookBack
    }

    /// One vertex placed or taken back; [`SearchStep::Ended`] (again) once over.
    pub(crate) fn step(&mut self) -> SearchStep {
        if let Some(found) = &self.ended {
            return SearchStep::Ended(found.clone());
        }
        let n = self.visited.len();
        if std::mem::take(&mut self.unchecked) {
            // The head was placed from the vertex before it: prune it, or go deeper.
            let w = *self.path.last().expect("a head just placed");
            let from = self.path[self.path.len() - 2];
            let pruned = self.path.len() == n
                || self.forward_check
                    && self.neighbours[from as usize]
                        .iter()
                        .any(|&u| !self.visited[u as usize] && !self.links_ok(u, w));
            if pruned {
                self.visited[w as usize] = false;
                self.path.pop();
                self.backtracks += 1;
                return SearchStep::TookBack;
            }
            self.next.push(0);
        }
        let Some(&i) = self.next.last() else {
            self.ended = Some(Found::Exhausted);
            return SearchStep::Ended(Found::Exhausted);
        };
        let head = *self.path.last().expect("as deep as the path");
        let list = &self.neighbours[head as usize];
        let Some(k) = list[i..].iter().position(|&w| !self.visited[w as usize]) else {
            self.next.pop();
            return self.take_back();
        };
        let w = list[i + k];
        *self.next.last_mut().expect("a depth") = i + k + 1;
        if self.steps >= self.max_steps {
            self.ended = Some(Found::Budget);
            return SearchStep::Ended(Found::Budget);
        }
        self.steps += 1;
        self.visited[w as usize] = true;
        self.path.push(w);
        self.unchecked = true;
        SearchStep::Placed
    }
}

//! Step-by-step solvers for watch mode. Each [`Stepper`] does one unit of work per
//! [`Stepper::step`] so the UI can draw every intermediate state:
//!
//! - the search solvers ([`SearchStepper`]): one step places the knight on a square or
//!   takes it back. `backtracking` tries moves in the clockwise offset order;
//!   `forward-checking` does the same but abandons a branch as soon as the dead-position
//!   check of [`super::dead`] fails; `warnsdorff` tries moves in Warnsdorff order
//!   (fewest onward moves first) and backtracks on a dead end. They continue the path on
//!   the board (or start from a given square) and look for an open tour;
//! - the network ([`NetworkStepper`]): one step is one network step (a sweep for the
//!   sequential presets), restarting from a new random state when an attempt ends
//!   without a tour, as `solve` does.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::error::InputError;
use crate::existence;
use crate::graph::KnightGraph;
use crate::network::{Dynamics, NetworkParams, Preset, State, StopRule};
use crate::tour::cycles_from_edges;

use super::complete::warnsdorff_order;
use super::dead::{Checker, Verdict};

/// Where a stepper stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    Running,
    /// A tour was found.
    Solved,
    /// The stepper gave up, with the reason.
    Failed(String),
}

/// What to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View<'a> {
    /// The knight's path so far.
    Path(&'a [u32]),
    /// The network's active moves and each square's active degree.
    Edges {
        edges: Vec<(u32, u32)>,
        degree: Vec<u8>,
        off_two: u32,
        attempt: u32,
    },
}

/// A solver that can be run one step at a time.
pub trait Stepper {
    /// Display name.
    fn name(&self) -> String;
    /// Do one unit of work (nothing once finished).
    fn step(&mut self) -> &Status;
    fn status(&self) -> &Status;
    /// Steps done so far.
    fn steps(&self) -> u64;
    fn view(&self) -> View<'_>;
    /// The finished tour, if solved: square order (closed for the network).
    fn tour(&self) -> Option<Vec<u32>>;
}

/// The solvers watch mode offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WatchKind {
    Backtracking,
    ForwardChecking,
    Warnsdorff,
    Network(Preset),
}

impl WatchKind {
    /// Every choice, in the order the UI cycles through them.
    pub fn all() -> Vec<WatchKind> {
        let mut v = vec![
            WatchKind::Backtracking,
            WatchKind::ForwardChecking,
            WatchKind::Warnsdorff,
        ];
        v.extend(Preset::ALL.iter().map(|&p| WatchKind::Network(p)));
        v
    }

    /// The next choice after this one (wrapping).
    pub fn next(self) -> WatchKind {
        let all = WatchKind::all();
        let i = all.iter().position(|&k| k == self).expect("listed");
        all[(i + 1) % all.len()]
    }

    /// Build the stepper on `board`, continuing `path` (search solvers) or from `start`.
    pub fn build(
        self,
        board: Board,
        path: &[u32],
        start: u32,
        seed: u64,
    ) -> Result<Box<dyn Stepper>, InputError> {
        Ok(match self {
            WatchKind::Network(p) => Box::new(NetworkStepper::new(board, p.params(), seed)?),
            search => {
                let strategy = match search {
                    WatchKind::Backtracking => Strategy::Plain,
                    WatchKind::ForwardChecking => Strategy::ForwardCheck,
                    _ => Strategy::Warnsdorff,
                };
                let path = if path.is_empty() {
                    vec![start]
                } else {
                    path.to_vec()
                };
                Box::new(SearchStepper::new(board, &path, strategy))
            }
        })
    }
}

impl fmt::Display for WatchKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WatchKind::Backtracking => f.write_str("backtracking"),
            WatchKind::ForwardChecking => f.write_str("forward-checking"),
            WatchKind::Warnsdorff => f.write_str("warnsdorff"),
            WatchKind::Network(p) => write!(f, "network:{}", p.name()),
        }
    }
}

impl FromStr for WatchKind {
    type Err = InputError;
    fn from_str(s: &str) -> Result<WatchKind, InputError> {
        let s = s.trim();
        if s == "network" {
            return Ok(WatchKind::Network(Preset::Parberry));
        }
        WatchKind::all()
            .into_iter()
            .find(|k| k.to_string() == s)
            .ok_or_else(|| {
                InputError::param(format!(
                    "unknown watch solver '{s}'; accepted: {}, network",
                    WatchKind::all()
                        .iter()
                        .map(|k| k.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
}

/// Move ordering and pruning of a [`SearchStepper`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Clockwise offset order, no pruning.
    Plain,
    /// Clockwise offset order; a branch ends as soon as the dead-position check fails.
    ForwardCheck,
    /// Warnsdorff order (fewest onward moves first), backtracking on dead ends.
    Warnsdorff,
}

/// Depth-first search for an open tour, one placement or retreat per step.
#[derive(Debug, Clone)]
pub struct SearchStepper {
    board: Board,
    strategy: Strategy,
    checker: Checker,
    visited: Vec<bool>,
    path: Vec<u32>,
    /// Moves not yet tried from each square of the path beyond the fixed prefix.
    frames: Vec<Vec<u32>>,
    /// Length of the given path, which the search never takes back.
    base: usize,
    steps: u64,
    status: Status,
}

impl SearchStepper {
    pub fn new(board: Board, path: &[u32], strategy: Strategy) -> SearchStepper {
        assert!(!path.is_empty(), "a search needs a start square");
        let mut visited = vec![false; board.squares()];
        for &s in path {
            visited[s as usize] = true;
        }
        let mut s = SearchStepper {
            board,
            strategy,
            checker: Checker::new(board),
            visited,
            path: path.to_vec(),
            frames: Vec::new(),
            base: path.len(),
            steps: 0,
            status: Status::Running,
        };
        let first = s.candidates();
        s.frames.push(first);
        if s.path.len() == board.squares() {
            s.status = Status::Solved;
        }
        s
    }

    /// Untried moves from the knight's square, in reverse (popped from the back).
    fn candidates(&mut self) -> Vec<u32> {
        let at = *self.path.last().expect("non-empty");
        let remaining = self.board.squares() - self.path.len();
        let mut c = match self.strategy {
            Strategy::Warnsdorff => warnsdorff_order(self.board, &self.visited, at),
            Strategy::Plain => self
                .board
                .knight_moves(at)
                .filter(|&t| !self.visited[t as usize])
                .collect(),
            Strategy::ForwardCheck => {
                if self.checker.check(&self.visited, at, remaining) != Verdict::Alive {
                    Vec::new()
                } else {
                    self.board
                        .knight_moves(at)
                        .filter(|&t| !self.visited[t as usize])
                        .collect()
                }
            }
        };
        c.reverse();
        c
    }
}

impl Stepper for SearchStepper {
    fn name(&self) -> String {
        match self.strategy {
            Strategy::Plain => "backtracking",
            Strategy::ForwardCheck => "forward-checking",
            Strategy::Warnsdorff => "warnsdorff",
        }
        .to_string()
    }

    fn step(&mut self) -> &Status {
        if self.status != Status::Running {
            return &self.status;
        }
        self.steps += 1;
        match self.frames.last_mut().and_then(|f| f.pop()) {
            Some(t) => {
                self.visited[t as usize] = true;
                self.path.push(t);
                if self.path.len() == self.board.squares() {
                    self.status = Status::Solved;
                } else {
                    let c = self.candidates();
                    self.frames.push(c);
                }
            }
            None => {
                if self.path.len() <= self.base {
                    self.status =
                        Status::Failed("no open tour continues this position".to_string());
                } else {
                    let s = self.path.pop().expect("beyond base");
                    self.visited[s as usize] = false;
                    self.frames.pop();
                }
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

    fn view(&self) -> View<'_> {
        View::Path(&self.path)
    }

    fn tour(&self) -> Option<Vec<u32>> {
        (self.status == Status::Solved).then(|| self.path.clone())
    }
}

/// The Takefuji–Lee network, one step at a time, restarting like `solve`.
#[derive(Debug, Clone)]
pub struct NetworkStepper {
    graph: KnightGraph,
    params: NetworkParams,
    /// Base seed of the run: attempt `i` draws from `attempt_rng(base, i)`, as `solve`.
    base: u64,
    state: Option<State>,
    deg: Vec<u8>,
    off_two: u32,
    /// Iterations of the current attempt.
    iterations: u32,
    attempt: u32,
    steps: u64,
    status: Status,
    tour: Option<Vec<u32>>,
    /// Outcome of the last finished attempt.
    pub last_outcome: Option<String>,
}

impl NetworkStepper {
    /// Refuses boards without a closed tour (the network looks only for closed tours).
    pub fn new(board: Board, params: NetworkParams, seed: u64) -> Result<Self, InputError> {
        let ex = existence::tour_exists(board, true);
        if !ex.exists {
            return Err(InputError::Impossible(format!(
                "the network looks for closed tours, and {}",
                ex.reason
            )));
        }
        params.check()?;
        let graph = KnightGraph::new(board);
        let n = graph.squares();
        Ok(NetworkStepper {
            graph,
            params,
            base: rand::Rng::random(&mut crate::rng_from_seed(seed)),
            state: None,
            deg: vec![0; n],
            off_two: n as u32,
            iterations: 0,
            attempt: 0,
            steps: 0,
            status: Status::Running,
            tour: None,
            last_outcome: None,
        })
    }
}

impl Stepper for NetworkStepper {
    fn name(&self) -> String {
        format!("network:{}", self.params.variant_name())
    }

    fn step(&mut self) -> &Status {
        if self.status != Status::Running {
            return &self.status;
        }
        let state = match self.state.take() {
            Some(s) => s,
            None => {
                self.attempt += 1;
                self.iterations = 0;
                let mut rng = crate::network::attempt_rng(self.base, self.attempt as u64 - 1);
                State::random(&self.graph, &self.params, &mut rng)
            }
        };
        let mut d = Dynamics::new(&self.graph, self.params, state);
        let stats = d.step();
        self.steps += 1;
        self.iterations += 1;
        self.deg = d.deg.iter().map(|&x| x as u8).collect(); // knight-graph degrees: at most 8
        self.off_two = stats.off_two;
        let stable = stats.changed == 0;
        let stopped = match self.params.stop {
            StopRule::Stable => stable,
            StopRule::DegreeTwo => stats.off_two == 0,
            StopRule::Either => stable || stats.off_two == 0,
        };
        let edges = d.active_edges();
        self.state = Some(d.state);
        if stopped || self.iterations >= self.params.max_iterations {
            let outcome = if !stopped {
                "iteration-cap".to_string()
            } else if stats.off_two > 0 {
                "stable-not-degree-two".to_string()
            } else {
                let cycles =
                    cycles_from_edges(self.graph.board(), &edges).expect("degree 2 everywhere");
                if cycles.len() == 1 {
                    self.tour = Some(cycles[0].clone());
                    self.status = Status::Solved;
                    "tour".to_string()
                } else {
                    format!("multiple-cycles ({})", cycles.len())
                }
            };
            self.last_outcome = Some(outcome);
            if self.status == Status::Running {
                if self.attempt >= self.params.max_attempts {
                    self.status =
                        Status::Failed(format!("no tour after {} attempts", self.attempt));
                } else {
                    // Keep the final state on screen; the next step starts a new attempt.
                    self.state = None;
                }
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

    fn view(&self) -> View<'_> {
        let edges = match &self.state {
            Some(s) => {
                s.v.iter()
                    .enumerate()
                    .filter(|(_, &v)| v == 1)
                    .map(|(e, _)| self.graph.endpoints(e))
                    .collect()
            }
            None => self
                .tour
                .as_ref()
                .map(|t| (0..t.len()).map(|i| (t[i], t[(i + 1) % t.len()])).collect())
                .unwrap_or_default(),
        };
        View::Edges {
            edges,
            degree: self.deg.clone(),
            off_two: self.off_two,
            attempt: self.attempt,
        }
    }

    fn tour(&self) -> Option<Vec<u32>> {
        self.tour.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::validate;

    fn run(s: &mut dyn Stepper, max: u64) {
        while *s.status() == Status::Running && s.steps() < max {
            s.step();
        }
    }

    #[test]
    fn search_steppers_find_open_tours() {
        for kind in [
            WatchKind::Backtracking,
            WatchKind::ForwardChecking,
            WatchKind::Warnsdorff,
        ] {
            for (m, n) in [(5, 5), (3, 4), (6, 6)] {
                let b = Board::new(m, n).unwrap();
                let mut s = kind.build(b, &[], 0, 1).unwrap();
                run(s.as_mut(), 50_000_000);
                assert_eq!(*s.status(), Status::Solved, "{kind} {m}x{n}");
                validate(b, &s.tour().unwrap(), false).unwrap();
            }
        }
    }

    #[test]
    fn search_stepper_reports_impossible_positions() {
        let b = Board::new(5, 5).unwrap();
        let mut s = WatchKind::ForwardChecking.build(b, &[1], 1, 1).unwrap();
        run(s.as_mut(), 100_000_000);
        assert!(matches!(s.status(), Status::Failed(_)), "{:?}", s.status());
        let b3 = Board::new(3, 3).unwrap();
        let mut s = WatchKind::Backtracking.build(b3, &[], 0, 1).unwrap();
        run(s.as_mut(), 1000);
        assert!(matches!(s.status(), Status::Failed(_)));
    }

    #[test]
    fn network_stepper_matches_solve() {
        let b = Board::new(6, 6).unwrap();
        let mut s = WatchKind::Network(Preset::Parberry)
            .build(b, &[], 0, 1)
            .unwrap();
        run(s.as_mut(), 1_000_000);
        assert_eq!(*s.status(), Status::Solved);
        let tour = s.tour().unwrap();
        validate(b, &tour, true).unwrap();
        // Same seed, same stream: the network's own solve takes as many iterations.
        let g = KnightGraph::new(b);
        let net = crate::network::Network::new(&g, Preset::Parberry.params()).unwrap();
        let run = net.solve(&mut crate::rng_from_seed(1));
        assert_eq!(run.total_iterations, s.steps());
        assert!(WatchKind::Network(Preset::Parberry)
            .build(Board::new(5, 5).unwrap(), &[], 0, 1)
            .is_err());
    }

    #[test]
    fn watch_names_round_trip() {
        for k in WatchKind::all() {
            assert_eq!(k.to_string().parse::<WatchKind>().unwrap(), k);
        }
        assert!("dfs".parse::<WatchKind>().is_err());
    }
}

//! The network in watch mode: one network step at a time, restarting like `solve`.
//!
//! Each attempt is the network's own: its initial state is drawn from the attempt's
//! stream ([`attempt_rng`]) of the base seed `solve` draws, and the attempt itself is
//! run by the network's attempt loop ([`Network::attempt_from`]), which decides when it
//! stops and why ([`Attempt`]). Watch mode then steps the same dynamics from the same
//! state to show each step, up to that attempt's last; the attempts are gathered as
//! `solve` gathers them, into the same [`crate::network::Run`] and
//! [`crate::solvers::Solution`].

use rand::Rng as _;

use super::{Status, Stepper, View};
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::{attempt_rng, Attempt, Dynamics, Network, NetworkParams, RunBuilder, State};
use crate::rng_from_seed;
use crate::solvers::network::NetworkSolver;
use crate::solvers::{Request, Solver};

/// The attempt on screen.
struct Shown {
    state: State,
    /// The attempt as the network's loop ran it (its end and outcome).
    attempt: Attempt,
    /// Steps shown so far.
    iterations: u32,
}

/// The network being watched.
pub struct NetworkWatch {
    graph: KnightGraph,
    solver: NetworkSolver,
    req: Request,
    /// Base seed of the run: attempt `i` draws from `attempt_rng(base, i)`, as `solve`.
    base: u64,
    shown: Option<Shown>,
    run: RunBuilder,
    attempts: u32,
    deg: Vec<u8>,
    off_two: u32,
    steps: u64,
    status: Status,
}

impl NetworkWatch {
    /// The network with `params` on `req`, seeded as `solve --seed seed`; refused as
    /// `solve` refuses it.
    pub fn new(params: NetworkParams, req: &Request, seed: u64) -> Result<Self, InputError> {
        let solver = NetworkSolver::new(params);
        solver.check(req)?;
        let graph = KnightGraph::new(req.board);
        let n = graph.squares();
        Ok(NetworkWatch {
            graph,
            solver,
            req: *req,
            base: rng_from_seed(seed).random(),
            shown: None,
            run: RunBuilder::default(),
            attempts: 0,
            deg: vec![0; n],
            off_two: n as u32,
            steps: 0,
            status: Status::Running,
        })
    }

    fn params(&self) -> NetworkParams {
        self.solver.params
    }

    /// Draw the next attempt's initial state and let the network's loop run it.
    fn next_attempt(&mut self) -> Shown {
        let mut rng = attempt_rng(self.base, self.attempts as u64);
        self.attempts += 1;
        let state = State::random(&self.graph, &self.params(), &mut rng);
        let net = Network::new(&self.graph, self.params()).expect("checked parameters");
        let attempt = net.attempt_from(state.clone(), None);
        Shown {
            state,
            attempt,
            iterations: 0,
        }
    }
}

impl Stepper for NetworkWatch {
    fn step(&mut self) -> &Status {
        if !self.status.is_running() {
            return &self.status;
        }
        let mut shown = match self.shown.take() {
            Some(s) if s.iterations < s.attempt.iterations => s,
            _ => self.next_attempt(),
        };
        let mut d = Dynamics::new(&self.graph, self.params(), shown.state);
        let stats = d.step();
        shown.iterations += 1;
        self.steps += 1;
        self.deg = d.deg.iter().map(|&x| x as u8).collect(); // knight-graph degrees: at most 8
        self.off_two = stats.off_two;
        shown.state = d.state;
        if shown.iterations == shown.attempt.iterations {
            let tour = self.run.add(shown.attempt.clone());
            if tour || self.attempts >= self.params().max_attempts {
                let run = std::mem::take(&mut self.run).finish(&self.graph);
                self.status = Status::Done(self.solver.solution(run, &self.req, false));
            }
        }
        self.shown = Some(shown);
        &self.status
    }

    fn status(&self) -> &Status {
        &self.status
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn counters(&self) -> String {
        let last = match &self.shown {
            Some(s) if s.iterations == s.attempt.iterations => {
                format!(", ended: {}", s.attempt.termination.name())
            }
            _ => String::new(),
        };
        format!(
            "attempt {}, iteration {}{last}",
            self.attempts,
            self.shown.as_ref().map_or(0, |s| s.iterations)
        )
    }

    fn view(&self) -> View<'_> {
        let edges = self
            .shown
            .as_ref()
            .map(|s| {
                s.state
                    .v
                    .iter()
                    .enumerate()
                    .filter(|(_, &v)| v == 1)
                    .map(|(e, _)| self.graph.endpoints(e))
                    .collect()
            })
            .unwrap_or_default();
        View::Edges {
            edges,
            degree: self.deg.clone(),
            off_two: self.off_two,
            attempt: self.attempts,
        }
    }
}

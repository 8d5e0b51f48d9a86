//! The network in watch mode: the library's own run ([`RunSteps`]), one network step at
//! a time. It is the run `solve` makes (the same base seed drawn from `--seed`, attempt
//! `i` from its own stream, the same stop rule, restarts and outcomes), computed once:
//! the screen shows its state between steps, and its [`crate::network::NetworkRun`] becomes
//! `solve`'s [`Solution`].

use super::{Steps, View};
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::{NetworkParams, RunSteps};
use crate::rng_from_seed;
use crate::solvers::network::NetworkSolver;
use crate::solvers::{Request, Solution, Solver};

/// The network being watched.
pub(crate) struct NetworkWatch {
    solver: NetworkSolver,
    req: Request,
    run: RunSteps<KnightGraph>,
}

impl NetworkWatch {
    /// The network with `params` on `req`, seeded as `solve --seed seed`; refused as
    /// `solve` refuses it.
    pub fn new(params: NetworkParams, req: &Request, seed: u64) -> Result<Self, InputError> {
        let solver = NetworkSolver::new(params);
        solver.check(req)?;
        let run = RunSteps::new(NetworkSolver::graph(req)?, params, &mut rng_from_seed(seed))?;
        Ok(NetworkWatch {
            solver,
            req: *req,
            run,
        })
    }
}

impl Steps for NetworkWatch {
    fn advance(&mut self) -> bool {
        self.run.step().is_some()
    }

    fn result(&self) -> Option<Result<Solution, InputError>> {
        let run = self.run.result()?;
        Some(self.solver.solution(run, &self.req, false))
    }

    fn counters(&self) -> String {
        let ended = match self.run.ended() {
            Some(a) => format!(", ended: {}", a.termination.name()),
            None => String::new(),
        };
        format!(
            "attempt {}, iteration {}{ended}",
            self.run.attempts(),
            self.run.iterations()
        )
    }

    fn view(&self) -> View<'_> {
        let graph = self.run.graph();
        let squares = graph.squares();
        let edges = self
            .run
            .state()
            .map(|s| {
                s.v()
                    .iter()
                    .enumerate()
                    .filter(|&(_, &v)| v == 1)
                    .map(|(e, _)| graph.endpoints(e))
                    .collect()
            })
            .unwrap_or_default();
        // Knight-graph degrees are at most 8.
        let degree = match self.run.degrees() {
            Some(d) => d[..squares].iter().map(|&x| x as u8).collect(),
            None => vec![0; squares],
        };
        View::Edges {
            edges,
            degree,
            off_two: self.run.off_two().unwrap_or(squares as u32),
            attempt: self.run.attempts(),
            moves: (0..graph.edges()).map(|e| graph.endpoints(e)).collect(),
            u: self
                .run
                .state()
                .and_then(|s| s.u().as_slice())
                .unwrap_or(&[]),
        }
    }
}

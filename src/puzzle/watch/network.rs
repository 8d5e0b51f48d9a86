//! The network in watch mode: the library's own run ([`RunSteps`]), one network step at
//! a time. It is the run `solve` makes (the same base seed drawn from `--seed`, attempt
//! `i` from its own stream, the same stop rule, restarts and outcomes), computed once:
//! the screen shows its state between steps, and its [`crate::network::NetworkRun`] becomes
//! `solve`'s [`crate::solvers::Solution`] on the knight's whole plane board, or
//! [`on_graph`]'s solution on another geometry's move graph (its neurons that graph's
//! edges).

use std::sync::Arc;

use super::{Status, Steps, View};
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::{NetworkParams, RunSteps, classify};
use crate::puzzle::Field;
use crate::rng_from_seed;
use crate::solvers::network::NetworkSolver;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::solvers::{Request, Solver};

/// What the run's end becomes: `solve`'s solution on the knight's board, or
/// [`on_graph::solve`]'s on a geometry.
enum Ending {
    Board(NetworkSolver, Request),
    Graph(GraphSolver, GraphRequest),
}

/// The network being watched.
pub(crate) struct NetworkWatch {
    run: RunSteps<Arc<KnightGraph>>,
    ending: Ending,
    /// Where the run's vertices are squares.
    field: Field,
}

impl NetworkWatch {
    /// The network with `params` on `req` (the knight's whole plane board), seeded as
    /// `solve --seed seed`; refused as `solve` refuses it.
    pub fn new(params: NetworkParams, req: &Request, seed: u64) -> Result<Self, InputError> {
        let solver = NetworkSolver::new(params);
        solver.check(req)?;
        let graph = Arc::new(NetworkSolver::graph(req)?);
        let run = RunSteps::new(graph, params, &mut rng_from_seed(seed))?;
        Ok(NetworkWatch {
            run,
            ending: Ending::Board(solver, *req),
            field: Field::knight(req.board),
        })
    }

    /// The network with `params` on `graph`, the move graph of `field` (checked by the
    /// caller as [`on_graph::check`] checks it), seeded as `solve --seed seed` there.
    pub fn on_graph(
        field: Field,
        graph: Arc<KnightGraph>,
        params: NetworkParams,
        req: GraphRequest,
        seed: u64,
    ) -> Result<Self, InputError> {
        let run = RunSteps::new(graph, params, &mut rng_from_seed(seed))?;
        Ok(NetworkWatch {
            run,
            ending: Ending::Graph(GraphSolver::Network(params), req),
            field,
        })
    }
}

impl Steps for NetworkWatch {
    fn advance(&mut self) -> bool {
        self.run.step().is_some()
    }

    fn result(&self) -> Option<Status> {
        let run = self.run.result()?;
        Some(match &self.ending {
            Ending::Board(solver, req) => Status::Done(solver.solution(run, req, false)),
            Ending::Graph(solver, req) => Status::DoneOnGraph(Ok(on_graph::network_solution(
                self.run.graph(),
                solver,
                run,
                req,
            ))),
        })
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
        let vertices = graph.squares();
        let square = |v: u32| self.field.square_of(v);
        let edge = |e: usize| {
            let (a, b) = graph.endpoints(e);
            (square(a), square(b))
        };
        let v = self
            .run
            .state()
            .map(|s| s.v().as_slice().expect("contiguous"));
        let edges = v
            .map(|v| {
                v.iter()
                    .enumerate()
                    .filter(|&(_, &x)| x == 1)
                    .map(|(e, _)| edge(e))
                    .collect()
            })
            .unwrap_or_default();
        // Leaper graphs have degrees of at most 8; holes keep 0.
        let mut degree = vec![0u8; self.field.board().squares()];
        if let Some(d) = self.run.degrees() {
            for (x, &dx) in d[..vertices].iter().enumerate() {
                degree[square(x as u32) as usize] = dx as u8;
            }
        }
        let off_two = self.run.off_two().unwrap_or(vertices as u32);
        let cycles = v.filter(|_| off_two == 0).map(|v| {
            classify(graph, v, true, 0)
                .cycles
                .into_iter()
                .map(|c| c.into_iter().map(square).collect())
                .collect()
        });
        View::Edges {
            edges,
            degree,
            off_two,
            cycles,
            attempt: self.run.attempts(),
            moves: (0..graph.edges()).map(edge).collect(),
            u: self
                .run
                .state()
                .and_then(|s| s.u().as_slice())
                .unwrap_or(&[]),
        }
    }
}

//! The Takefuji–Lee network behind the [`Solver`] interface: restarts until a closed
//! tour (or the attempt limit), then starts the tour at the requested square.

use serde_json::{json, Map};

use super::{Request, Solution, Solver};
use crate::error::InputError;
use crate::graph::{check_memory, KnightGraph};
use crate::network::{
    batch, Network, NetworkParams, Run, Termination, Trace, UpdateOrder, BYTES_PER_NEURON,
};
use crate::Rng;

/// From this many squares (12×12) up, a single `solve` uses the batched engine. A single
/// solve waits for every attempt before the first tour, so lanes idle on slow attempts:
/// on 8×8 the batched solve measured 2–2.6× slower than the scalar one, on 12×12 1.35×
/// faster with `parberry` and 7% slower with `brant` (`cargo bench --bench network --
/// ^tour/`, PERFORMANCE.md). Many solves at once
/// ([`Solver::solve_many`], as `compare` runs them) share lanes on every board size.
pub const BATCH_FROM_SQUARES: usize = 144;

/// The network as a solver.
#[derive(Debug, Clone)]
pub struct NetworkSolver {
    pub params: NetworkParams,
}

impl NetworkSolver {
    pub fn new(params: NetworkParams) -> NetworkSolver {
        NetworkSolver { params }
    }

    /// Solve and also return the trace of the last attempt (the successful one, if any).
    pub fn solve_traced(
        &self,
        req: &Request,
        rng: &mut Rng,
    ) -> Result<(Solution, Trace, KnightGraph), InputError> {
        self.check(req)?;
        let graph = KnightGraph::new(req.board);
        let net = Network::new(&graph, self.params)?;
        let mut trace = Trace::default();
        let run = net.solve_traced(rng, Some(&mut trace));
        let solution = self.solution(run, req)?;
        Ok((solution, trace, graph))
    }

    pub(crate) fn solution(&self, run: Run, req: &Request) -> Result<Solution, InputError> {
        let mut extra = Map::new();
        extra.insert("last_termination".into(), json!(run.last.termination));
        extra.insert(
            "terminations".into(),
            Termination::counts_json(run.terminations),
        );
        extra.insert("params".into(), json!(self.params));
        Solution {
            solver: "network".into(),
            variant: Some(self.params.variant_name()),
            closed: true,
            outcome: run.last.termination.name().to_string(),
            tour: run.tour,
            iterations: run.total_iterations,
            attempts: run.attempts as u64,
            steps: None,
            extra,
        }
        .apply_start(req)
    }
}

impl Solver for NetworkSolver {
    fn name(&self) -> String {
        "network".into()
    }

    fn variant(&self) -> Option<String> {
        Some(self.params.variant_name())
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        self.params.check()?;
        req.check_exists(true).map_err(|e| {
            InputError::Impossible(format!(
                "{e}; the network finds closed tours only{}",
                req.open_tour_hint()
            ))
        })?;
        check_memory(req.board, BYTES_PER_NEURON, 2, "the network")
    }

    /// Boards of at least [`BATCH_FROM_SQUARES`] squares run in the batched engine when
    /// the parameters allow; the run is the same either way (tests assert it), only faster.
    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let graph = KnightGraph::new(req.board);
        let net = Network::new(&graph, self.params)?;
        let batched = req.board.squares() >= BATCH_FROM_SQUARES
            && self.params.order != UpdateOrder::RandomPermutation
            && batch::fits_i16(&self.params, req.board.cols());
        let run = if batched {
            batch::solve(&graph, self.params, rng)?
        } else {
            net.solve(rng)
        };
        self.solution(run, req)
    }

    /// Throughput mode: the solves share the lanes of one batch ([`batch::solve_many`]),
    /// so even small boards keep every lane busy; the solutions are those of `solve`.
    fn solve_many(&self, req: &Request, rngs: &mut [Rng]) -> Vec<Result<Solution, InputError>> {
        let batched = rngs.len() > 1
            && self.params.order != UpdateOrder::RandomPermutation
            && batch::fits_i16(&self.params, req.board.cols());
        if !batched {
            return rngs.iter_mut().map(|rng| self.solve(req, rng)).collect();
        }
        if let Err(e) = self.check(req) {
            return rngs.iter().map(|_| Err(e.clone())).collect();
        }
        let graph = KnightGraph::new(req.board);
        match batch::solve_many(&graph, self.params, rngs) {
            Ok(runs) => runs
                .into_iter()
                .map(|run| self.solution(run, req))
                .collect(),
            Err(e) => rngs.iter().map(|_| Err(e.clone())).collect(),
        }
    }
}

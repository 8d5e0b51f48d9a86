//! The Takefuji–Lee network behind the [`Solver`] interface: restarts until a closed
//! tour (or the attempt limit), then starts the tour at the requested square.
//!
//! With an open tour requested (`Request::closed == Closure::Open`, `solve --open`) the
//! network runs on the open graph ([`KnightGraph::open`]): its Hamiltonian cycles are the
//! board's open tours, and a requested start square is held as the tour's first square.
//! The JSON of an open run names the graph and the engine that ran it (`engine`:
//! `batched`, or `scalar` where the batched engine cannot bound U in 16 bits: the apex
//! has one edge per square). So does the JSON of a run under a rule other than the plain
//! one (`noisy`, `local-restart`: [`crate::network::rules`]), which always runs in the
//! scalar engine, with the rule's name and what it recorded on the last attempt
//! (`rule_events`).

use super::{
    EngineKind, Facts, NetworkFacts, NetworkRunFacts, Outcome, Request, RuleFacts, Solution,
    Solver, SolverFamily, SolverName, TerminationCounts,
};
use crate::Rng;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::graph::{KnightGraph, Tours, check_memory};
use crate::network::{BYTES_PER_NEURON, Network, NetworkParams, NetworkRun, Trace, batch};

/// From this many squares (12×12) up, a single `solve` uses the batched engine. A single
/// solve waits for every attempt before the first tour, so lanes idle on slow attempts:
/// on 8×8 the batched solve measured 2–2.6× slower than the scalar one, on 12×12 1.35×
/// faster with `parberry` and 7% slower with `brant` (`cargo bench -p knightnet-bench
/// --bench network -- ^tour/`, PERFORMANCE.md). Many solves at once
/// ([`Solver::solve_stream`], as `compare` runs them) share lanes on every board size.
pub(crate) const BATCH_FROM_SQUARES: usize = 144;

/// The network as a solver.
#[derive(Debug, Clone)]
pub struct NetworkSolver {
    /// The network's parameters.
    pub params: NetworkParams,
}

impl NetworkSolver {
    /// The network with `params` as a solver.
    pub fn new(params: NetworkParams) -> NetworkSolver {
        NetworkSolver { params }
    }

    /// The tours a request asks the network for: open ones (on the open graph, from the
    /// requested start if any) when an open tour is asked for, else closed ones.
    pub fn tours(req: &Request) -> Tours {
        if req.closed.wants_closed(true) {
            Tours::Closed
        } else {
            Tours::Open { start: req.start }
        }
    }

    /// The checks of an open request that do not depend on how the network runs: an
    /// open tour exists (from the start, if any), the board has more than one square, no
    /// `--reverse` with a start. (`network+merge` runs them before tiling the board.)
    pub(crate) fn check_open_request(req: &Request) -> Result<(), InputError> {
        req.check_exists(false)?;
        if req.board.squares() < 2 {
            return Err(InputError::unsupported(
                Refusal::new(format!(
                    "the {} board's only tour is its single square, which makes no cycle with the open graph's apex",
                    req.board
                ))
                .hint(Hint::UseSolver(&["backtrack"])),
            ));
        }
        if let Some(start) = req.start {
            let ex = crate::existence::tour_exists_from(req.board, start, false);
            if !ex.exists {
                return Err(InputError::impossible(ex.reason));
            }
        }
        if req.reverse && req.start.is_some() {
            return Err(InputError::unsupported(
                Refusal::new(
                    "the network's open tour starts on the start square, so it cannot be walked the other way",
                )
                .about([
                    Setting::of(Param::Reverse),
                    Setting::of(Param::Open),
                    Setting::of(Param::Start),
                ])
                .hint(Hint::Drop(Param::Reverse)),
            ));
        }
        Ok(())
    }

    /// The graph the network runs on for `req`, allocated fallibly (callers check the
    /// request's memory first; a failed allocation is [`InputError::OutOfMemory`]).
    pub fn graph(req: &Request) -> Result<KnightGraph, InputError> {
        Ok(KnightGraph::try_for_tours(req.board, Self::tours(req))?)
    }

    /// Bytes per neuron and per square the network needs beyond the graph on `req`: the
    /// scalar engine's U, V and order, plus the batched engine's lanes on boards it may
    /// run (an upper estimate: the batched engine is assumed wherever it could run).
    pub(crate) fn bytes_per_item(&self, req: &Request) -> (u64, u64) {
        let batched = req.board.squares() >= BATCH_FROM_SQUARES
            && self.params.rule.is_plain()
            && self.params.order != crate::network::UpdateOrder::RandomPermutation;
        if batched {
            (
                BYTES_PER_NEURON + batch::BYTES_PER_NEURON,
                2 + batch::BYTES_PER_SQUARE,
            )
        } else {
            (BYTES_PER_NEURON, 2)
        }
    }

    /// Solve and also return the trace of the last attempt (the successful one, if any).
    pub fn solve_traced(
        &self,
        req: &Request,
        rng: &mut Rng,
    ) -> Result<(Solution, Trace, KnightGraph), InputError> {
        self.check(req)?;
        let graph = Self::graph(req)?;
        let net = Network::new(&graph, self.params)?;
        let mut trace = Trace::default();
        let run = net.solve_traced(rng, Some(&mut trace));
        let solution = self.solution(run, req, false)?;
        Ok((solution, trace, graph))
    }

    pub(crate) fn solution(
        &self,
        run: NetworkRun,
        req: &Request,
        batched: bool,
    ) -> Result<Solution, InputError> {
        let open = Self::tours(req) != Tours::Closed;
        let rule = self.params.rule;
        // The batched engine runs only the plain rule: a run under another was scalar.
        let rule_facts = (!rule.is_plain()).then(|| RuleFacts {
            rule,
            rule_events: run.last.rule_events,
            engine_note: format!(
                "the batched engine runs only the plain rule; '{}' ran in the scalar engine",
                rule.name()
            ),
        });
        let engine = (open || !rule.is_plain()).then_some(if batched {
            EngineKind::Batched
        } else {
            EngineKind::Scalar
        });
        let outcome = Outcome::from(&run.last.termination);
        let facts = Facts::Network(NetworkFacts {
            last_termination: run.last.termination,
            run: NetworkRunFacts {
                terminations: TerminationCounts(run.terminations.map(u64::from)),
                params: self.params,
                open_graph: open,
            },
            rule: rule_facts,
            engine,
        });
        let mut solution = match run.tour {
            Some(tour) => Solution::found(self.name(), tour, facts),
            // A last attempt that ended in one cycle the graph could not turn into a tour.
            None if outcome == Outcome::Tour => {
                Solution::failed(self.name(), Outcome::InvalidTour, !open, facts)
            }
            None => Solution::failed(self.name(), outcome, !open, facts),
        };
        solution.iterations = run.total_iterations;
        solution.attempts = run.attempts as u64;
        solution.apply_start(req)
    }
}

impl Solver for NetworkSolver {
    fn name(&self) -> SolverName {
        SolverName::new(SolverFamily::Network, Some(self.params.variant()))
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        self.params.check()?;
        if Self::tours(req) == Tours::Closed {
            req.check_exists(true)
                .map_err(|e| closed_only(e, "the network", req))?;
            let (per_edge, per_square) = self.bytes_per_item(req);
            return check_memory(req.board, per_edge, per_square, "the network");
        }
        Self::check_open_request(req)?;
        // The open graph has one more vertex and one more neuron per square.
        let (per_edge, per_square) = self.bytes_per_item(req);
        let per_square = per_square + 2 + 16 + per_edge;
        check_memory(req.board, per_edge, per_square, "the network")
    }

    /// Boards of at least `BATCH_FROM_SQUARES` squares run in the batched engine when
    /// it supports the graph and parameters ([`batch::supports`]); the run is the same
    /// either way (tests assert it), only faster.
    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let graph = Self::graph(req)?;
        let net = Network::new(&graph, self.params)?;
        let batched =
            req.board.squares() >= BATCH_FROM_SQUARES && batch::supports(&graph, &self.params);
        let run = if batched {
            batch::solve(&graph, self.params, rng)?
        } else {
            net.solve(rng)
        };
        self.solution(run, req, batched)
    }

    /// Throughput mode ([`batch::solve_stream`]): the solves share the lanes of one batch,
    /// so even small boards keep every lane busy, and the lanes take a new solve only when
    /// no solve they hold needs another attempt; the solutions are those of `solve`.
    fn solve_stream(
        &self,
        req: &Request,
        next: &mut dyn FnMut() -> Option<(u64, Rng)>,
        done: &mut dyn FnMut(u64, Result<Solution, InputError>, f64),
    ) {
        let graph = self.check(req).and_then(|()| Self::graph(req));
        let refused = match graph {
            Ok(graph) if batch::supports(&graph, &self.params) => {
                let streamed =
                    batch::solve_stream(&graph, self.params, &mut *next, |id, run, ns| {
                        done(id, self.solution(run, req, true), ns as f64 * 1e-9)
                    });
                match streamed {
                    Ok(()) => return,
                    Err(e) => e,
                }
            }
            Ok(_) => return super::solve_one_by_one(self, req, next, done),
            Err(e) => e,
        };
        while let Some((id, _)) = next() {
            done(id, Err(refused.clone()), 0.0);
        }
    }
}

/// The refusal of a closed tour that a theorem rules out (`e`), by `what`, a solver that
/// looks for closed tours unless asked for an open one: it suggests allowing an open
/// tour when the board has one.
pub(super) fn closed_only(e: InputError, what: &str, req: &Request) -> InputError {
    let mut r = Refusal::new(format!(
        "{e}; {what} looks for closed tours unless asked for an open one"
    ));
    if req.open_tour_hint().is_some() {
        r.reason.push_str("; this board has open tours");
        r.hint = Some(Hint::AllowOpen {
            or_solver: "divide-conquer",
        });
    }
    InputError::Impossible(r)
}

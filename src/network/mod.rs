//! The Takefuji–Lee network for closed knight's tours (Takefuji & Lee, "Neural network
//! computing for knight's tour problems", Neurocomputing 4 (1992) 249–254).
//!
//! Every legal knight move is a neuron with integer state U and binary output V. See
//! [`params`] for the update rule and the named presets, [`dynamics`] for the vectorised
//! step, [`rules`] for rules beyond the plain one (each in one file), and [`outcome`] for
//! why an attempt ends.
//!
//! ```
//! use knightnet::{board::Board, graph::KnightGraph, network::{Network, Preset}, rng_from_seed};
//! let graph = KnightGraph::new(Board::new(6, 6).unwrap());
//! let net = Network::new(&graph, Preset::Parberry.params()).unwrap();
//! let run = net.solve(&mut rng_from_seed(1));
//! assert!(run.tour.is_some());
//! ```

pub mod batch;
// The dense test oracle: the integration tests compare every engine with it; not part of
// the API (hidden from the docs).
#[doc(hidden)]
pub mod dense;
pub mod dynamics;
pub mod outcome;
pub mod outputs;
pub mod overrides;
pub mod params;
pub mod rules;
pub mod simd;
pub mod state;
pub mod steps;

use rand::Rng;
use serde::Serialize;

pub use dynamics::{Dynamics, OwnedDynamics};
pub use outcome::{Attempt, StepStats, Termination};
pub use outputs::{OutputState, OutputStateError};
pub use overrides::{Clamp, OverrideValue, Overrides};
pub use params::{Init, NetworkParams, Preset, StopRule, UpdateOrder};
pub use rules::{RuleKind, RuleState};
pub use state::State;
pub use steps::{AttemptSteps, RunSteps};

use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::tour::{Tour, cycles_from_neighbours};

/// Bytes per neuron the network allocates beyond the graph (U, V, order).
pub(crate) const BYTES_PER_NEURON: u64 = 4 + 1 + 4;

/// A recording of one attempt: the outputs before the first step and after every step.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trace {
    /// The outputs of every recorded state, initial state first (one more than steps
    /// once an attempt has been recorded).
    pub outputs: Vec<OutputState>,
    /// Measurements after every step.
    pub steps: Vec<StepStats>,
}

/// The result of `solve`: restarts until a tour or the attempt limit.
#[derive(Debug, Clone, PartialEq)]
pub struct NetworkRun {
    /// The tour, if an attempt found one on a knight's board (on any other graph a
    /// tour is the last attempt's one cycle, `last.cycles[0]`).
    pub tour: Option<Tour>,
    /// Attempts made (1 if the first attempt succeeded).
    pub attempts: u32,
    /// The last attempt (the successful one, if any).
    pub last: Attempt,
    /// Steps over all attempts.
    pub total_iterations: u64,
    /// Count of attempts by termination name, in [`Termination::NAMES`] order.
    pub terminations: [u32; 4],
}

/// A network bound to a graph with checked parameters.
#[derive(Debug, Clone)]
pub struct Network<'g> {
    graph: &'g KnightGraph,
    params: NetworkParams,
}

impl<'g> Network<'g> {
    /// Check the parameters and bind them to a graph.
    pub fn new(graph: &'g KnightGraph, params: NetworkParams) -> Result<Network<'g>, InputError> {
        params.check()?;
        // As in `NetworkParams::check`, with the graph's own degree bound (the open
        // graph's apex has one edge per square): U must stay inside i32.
        let step = params.c.unsigned_abs() as u64
            + graph.max_degree_sum()
            + (2 - params.s).unsigned_abs() as u64
            + params.rule.extra_delta() as u64;
        if 2 * step * params.max_iterations as u64 + 1_000_000 > i32::MAX as u64 {
            return Err(InputError::param(match graph.source().knight_board() {
                Some(board) => format!(
                    "max-iterations = {} with C = {} could overflow U on the open graph of the {} board (its apex has {} edges); lower max-iterations",
                    params.max_iterations,
                    params.c,
                    board,
                    graph.squares()
                ),
                None => format!(
                    "max-iterations = {} with C = {} could overflow U on {} (degrees up to {}); lower max-iterations",
                    params.max_iterations,
                    params.c,
                    graph.describe(),
                    graph.max_degree()
                ),
            }));
        }
        if graph.max_degree() >= u16::MAX as usize {
            return Err(InputError::param(format!(
                "the network counts each vertex's active edges in 16 bits, and {} has a vertex of degree {}; it runs on graphs of degree below {}",
                graph.describe(),
                graph.max_degree(),
                u16::MAX
            )));
        }
        Ok(Network { graph, params })
    }

    /// The checked parameters.
    pub fn params(&self) -> &NetworkParams {
        &self.params
    }

    /// The graph the network runs on.
    pub fn graph(&self) -> &'g KnightGraph {
        self.graph
    }

    /// One attempt from a fresh random state drawn from `rng` (then, for a rule that
    /// draws, its seed: `steps::draw_attempt`).
    pub fn attempt<R: Rng + ?Sized>(&self, rng: &mut R, trace: Option<&mut Trace>) -> Attempt {
        let (state, rule) = steps::draw_attempt(self.graph, &self.params, rng);
        AttemptSteps::with_rule(self, state, rule).finish(trace)
    }

    /// One attempt from a given initial state (the loop is [`AttemptSteps`]); a rule's
    /// attempt starts with seed 0.
    pub fn attempt_from(&self, state: State, trace: Option<&mut Trace>) -> Attempt {
        AttemptSteps::new(self, state).finish(trace)
    }

    /// Restart from fresh random states until an attempt ends in a tour, or
    /// `max_attempts` attempts have been made.
    ///
    /// Draws one `u64` base seed from `rng`; attempt `i` (0-based) then draws from
    /// [`attempt_rng`]`(base, i)`. Attempts are therefore independent of each other, and
    /// the batched engine ([`batch`]) reproduces this run exactly.
    pub fn solve<R: Rng + ?Sized>(&self, rng: &mut R) -> NetworkRun {
        self.solve_traced(rng, None)
    }

    /// [`Network::solve`], recording the last attempt (the successful one, if any) into
    /// `trace`.
    pub fn solve_traced<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        mut trace: Option<&mut Trace>,
    ) -> NetworkRun {
        let mut run = RunSteps::of(self, rng);
        while !run.is_done() {
            if let Some(t) = trace.as_deref_mut() {
                *t = Trace::default();
            }
            run.run_attempt(trace.as_deref_mut());
        }
        run.into_result().expect("a finished run")
    }
}

/// The random stream of attempt `index` of a run whose base seed is `base`: ChaCha8
/// seeded with `seed_from_u64(base)`, on stream number `index`.
pub fn attempt_rng(base: u64, index: u64) -> crate::Rng {
    let mut r = crate::rng_from_seed(base);
    r.set_stream(index);
    r
}

/// The random stream of the first attempt of `solve --seed SEED`: the stream a network
/// trial of one attempt with this seed draws its initial state from (an experiment
/// trial, a `convergence` run, Python's `Network(board, seed=SEED)`), so that
/// `solve --seed SEED --max-attempts 1` replays it.
pub fn first_attempt_rng(seed: u64) -> crate::Rng {
    attempt_rng(crate::rng_from_seed(seed).random(), 0)
}

/// Accumulates attempts, in order, into a [`NetworkRun`].
#[derive(Debug, Clone, Default)]
pub(crate) struct RunBuilder {
    attempts: u32,
    total_iterations: u64,
    terminations: [u32; 4],
    last: Option<Attempt>,
}

impl RunBuilder {
    /// Add the next attempt; returns true when it is a tour.
    pub(crate) fn add(&mut self, attempt: Attempt) -> bool {
        self.attempts += 1;
        self.total_iterations += attempt.iterations as u64;
        self.terminations[attempt.termination.index()] += 1;
        let done = attempt.termination == Termination::Tour;
        self.last = Some(attempt);
        done
    }

    pub(crate) fn finish(self, graph: &KnightGraph) -> NetworkRun {
        let last = self.last.expect("at least one attempt");
        // A tour of the knight's board; on another graph the cycle is `last.cycles[0]`.
        let knight = graph.source().knight_board().is_some();
        let tour: Option<Tour> = (knight && last.termination == Termination::Tour).then(|| {
            graph
                .tour_from_cycle(last.cycles[0].clone())
                .expect("a single degree-2 cycle through every vertex is a tour")
        });
        NetworkRun {
            tour,
            attempts: self.attempts,
            last,
            total_iterations: self.total_iterations,
            terminations: self.terminations,
        }
    }
}

/// Classify a final output vector `v` (one 0/1 per neuron, canonical order). Vertices
/// are counted as squares here: on the open graph the apex is one more (a tour is one
/// cycle through the squares and the apex, and `squares_off` may count the apex).
pub fn classify(graph: &KnightGraph, v: &[u8], stopped: bool, iterations: u32) -> Attempt {
    let plain = |termination| Attempt::without_cycles(termination, iterations);
    if !stopped {
        return plain(Termination::IterationCap);
    }
    let mut deg = vec![0u32; graph.vertices()];
    let mut nbr = vec![[u32::MAX; 2]; graph.vertices()];
    for (e, &x) in v.iter().enumerate() {
        if x == 1 {
            let (a, b) = graph.endpoints(e);
            for (p, q) in [(a, b), (b, a)] {
                let d = &mut deg[p as usize];
                if *d < 2 {
                    nbr[p as usize][*d as usize] = q;
                }
                *d += 1;
            }
        }
    }
    let off = deg.iter().filter(|&&d| d != 2).count();
    if off > 0 {
        return plain(Termination::StableNotDegreeTwo { squares_off: off });
    }
    cover_attempt(cycles_from_neighbours(&nbr), iterations)
}

impl Attempt {
    /// An attempt that ended without a cover to keep (or whose cycles are not kept).
    pub(crate) fn without_cycles(termination: Termination, iterations: u32) -> Attempt {
        Attempt {
            termination,
            iterations,
            cycles: Vec::new(),
            rule_events: 0,
        }
    }
}

/// The attempt whose stable output is the degree-2 cover made of `cycles`.
pub(crate) fn cover_attempt(cycles: Vec<Vec<u32>>, iterations: u32) -> Attempt {
    let termination = if cycles.len() == 1 {
        Termination::Tour
    } else {
        let mut lengths: Vec<usize> = cycles.iter().map(Vec::len).collect();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        Termination::MultipleCycles { lengths }
    };
    Attempt {
        termination,
        iterations,
        cycles,
        rule_events: 0,
    }
}

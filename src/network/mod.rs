//! The Takefuji–Lee network for closed knight's tours (Takefuji & Lee, "Neural network
//! computing for knight's tour problems", Neurocomputing 4 (1992) 249–254).
//!
//! Every legal knight move is a neuron with integer state U and binary output V. See
//! [`params`] for the update rule and the named presets, [`dynamics`] for the vectorised
//! step, and [`outcome`] for why an attempt ends.
//!
//! ```
//! use knightnet::{board::Board, graph::KnightGraph, network::{Network, Preset}, rng_from_seed};
//! let graph = KnightGraph::new(Board::new(6, 6).unwrap());
//! let net = Network::new(&graph, Preset::Parberry.params()).unwrap();
//! let run = net.solve(&mut rng_from_seed(1));
//! assert!(run.tour.is_some());
//! ```

pub mod dense;
pub mod dynamics;
pub mod outcome;
pub mod params;
pub mod state;

use rand::Rng;
use serde::Serialize;

pub use dynamics::Dynamics;
pub use outcome::{Attempt, StepStats, Termination};
pub use params::{Init, NetworkParams, Preset, StopRule, UpdateOrder};
pub use state::State;

use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::tour::{cycles_from_edges, Tour};

/// Bytes per neuron the network allocates beyond the graph (U, V, order).
pub const BYTES_PER_NEURON: u64 = 4 + 1 + 4;

/// A recording of one attempt: the outputs before the first step and after every step.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Trace {
    /// One '0'/'1' string per neuron, initial state first.
    pub outputs: Vec<String>,
    /// Measurements after every step.
    pub steps: Vec<StepStats>,
}

/// The result of `solve`: restarts until a tour or the attempt limit.
#[derive(Debug, Clone)]
pub struct Run {
    /// The tour, if an attempt found one.
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
        Ok(Network { graph, params })
    }

    pub fn params(&self) -> &NetworkParams {
        &self.params
    }

    pub fn graph(&self) -> &'g KnightGraph {
        self.graph
    }

    /// One attempt from a fresh random state drawn from `rng`.
    pub fn attempt<R: Rng + ?Sized>(&self, rng: &mut R, trace: Option<&mut Trace>) -> Attempt {
        let state = State::random(self.graph, &self.params, rng);
        self.attempt_from(state, trace)
    }

    /// One attempt from a given initial state.
    pub fn attempt_from(&self, state: State, mut trace: Option<&mut Trace>) -> Attempt {
        let mut dyn_ = Dynamics::new(self.graph, self.params, state);
        if let Some(t) = trace.as_deref_mut() {
            t.outputs.push(dyn_.state.outputs_string());
        }
        let mut iterations = 0;
        let mut stopped = false;
        while iterations < self.params.max_iterations {
            let stats = dyn_.step();
            iterations += 1;
            if let Some(t) = trace.as_deref_mut() {
                t.outputs.push(dyn_.state.outputs_string());
                t.steps.push(stats);
            }
            let stable = stats.changed == 0;
            let degree_two = stats.off_two == 0;
            stopped = match self.params.stop {
                StopRule::Stable => stable,
                StopRule::DegreeTwo => degree_two,
                StopRule::Either => stable || degree_two,
            };
            if stopped {
                break;
            }
        }
        self.classify(&dyn_, stopped, iterations)
    }

    fn classify(&self, dyn_: &Dynamics<'_>, stopped: bool, iterations: u32) -> Attempt {
        if !stopped {
            return Attempt {
                termination: Termination::IterationCap,
                iterations,
                cycles: Vec::new(),
            };
        }
        if dyn_.off_two() > 0 {
            return Attempt {
                termination: Termination::StableNotDegreeTwo {
                    squares_off: dyn_.off_two() as usize,
                },
                iterations,
                cycles: Vec::new(),
            };
        }
        let cycles = cycles_from_edges(self.graph.board(), &dyn_.active_edges())
            .expect("degree counters say every square has degree 2");
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
        }
    }

    /// Restart from fresh random states drawn from `rng` until an attempt ends in a tour,
    /// or `max_attempts` attempts have been made.
    pub fn solve<R: Rng + ?Sized>(&self, rng: &mut R) -> Run {
        self.solve_traced(rng, None)
    }

    /// [`Network::solve`], recording the last attempt (the successful one, if any) into
    /// `trace`.
    pub fn solve_traced<R: Rng + ?Sized>(&self, rng: &mut R, mut trace: Option<&mut Trace>) -> Run {
        let mut total_iterations = 0u64;
        let mut terminations = [0u32; 4];
        let mut attempts = 0;
        loop {
            if let Some(t) = trace.as_deref_mut() {
                *t = Trace::default();
            }
            let attempt = self.attempt(rng, trace.as_deref_mut());
            attempts += 1;
            total_iterations += attempt.iterations as u64;
            let k = Termination::NAMES
                .iter()
                .position(|&n| n == attempt.termination.name())
                .expect("known name");
            terminations[k] += 1;
            if attempt.termination == Termination::Tour || attempts >= self.params.max_attempts {
                let tour = (attempt.termination == Termination::Tour).then(|| {
                    Tour::new(self.graph.board(), attempt.cycles[0].clone(), true)
                        .expect("a single degree-2 cycle through every square is a closed tour")
                });
                return Run {
                    tour,
                    attempts,
                    last: attempt,
                    total_iterations,
                    terminations,
                };
            }
        }
    }
}

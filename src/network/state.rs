//! The network's state (integer U, binary V per neuron) and its seeded initialisation.
//!
//! Draw order from the attempt's random stream, fixed so a seed replays exactly:
//! 1. for [`Init::RandomOutputs`]: one `Uniform{0,1}` draw per neuron in canonical order
//!    (U = 0); for [`Init::NegativeStates`]: one `Uniform{0..spread-1}` draw per neuron,
//!    negated (V = 0);
//! 2. for [`UpdateOrder::RandomPermutation`]: a Fisher–Yates shuffle of `0..E`.
//!
//! A held neuron (the apex–start edge of an open graph with a fixed start) is drawn like
//! every other, so the stream is the same shape, and then put on (V = 1): it keeps that
//! output, as no engine updates it.

use ndarray::Array1;
use ndarray_rand::rand_distr::{Distribution, Uniform};
use rand::Rng;
use rand::seq::SliceRandom;

use super::outputs::OutputState;
use super::params::{Init, NetworkParams, UpdateOrder};
use crate::error::InputError;
use crate::graph::KnightGraph;

/// U and V of every neuron, plus the update order for sequential variants.
#[derive(Debug, Clone, PartialEq, Eq)]
///
/// The three agree in length (one entry per neuron), and `order`, when given, is a
/// permutation of the neurons: [`State::new`] checks both, and the engines keep them.
pub struct State {
    pub(super) u: Array1<i32>,
    pub(super) v: Array1<u8>,
    /// Neuron visiting order within a sweep (canonical order unless randomised).
    pub(super) order: Option<Vec<u32>>,
}

impl State {
    /// A state from its parts: `u` and `v` of the same length (one entry per neuron),
    /// and `order`, when given, a permutation of `0..len`.
    pub fn new(
        u: Array1<i32>,
        v: Array1<u8>,
        order: Option<Vec<u32>>,
    ) -> Result<State, InputError> {
        if u.len() != v.len() {
            return Err(InputError::param(format!(
                "a network state needs one U and one V per neuron; got {} U and {} V",
                u.len(),
                v.len()
            )));
        }
        if v.iter().any(|&x| x > 1) {
            return Err(InputError::param("a network state's outputs V are 0 or 1"));
        }
        if let Some(order) = &order {
            let mut seen = vec![false; u.len()];
            let is_permutation = order.len() == u.len()
                && order.iter().all(|&e| {
                    (e as usize) < seen.len() && !std::mem::replace(&mut seen[e as usize], true)
                });
            if !is_permutation {
                return Err(InputError::param(format!(
                    "a network state's update order must list each of its {} neurons once",
                    u.len()
                )));
            }
        }
        Ok(State { u, v, order })
    }

    /// The state with U = 0 and V = 0 for `neurons` neurons, in canonical order.
    pub fn zeros(neurons: usize) -> State {
        State {
            u: Array1::zeros(neurons),
            v: Array1::zeros(neurons),
            order: None,
        }
    }

    /// Number of neurons.
    pub fn neurons(&self) -> usize {
        self.u.len()
    }

    /// The integer state U of every neuron, in canonical order.
    pub fn u(&self) -> &Array1<i32> {
        &self.u
    }

    /// The output V (0 or 1) of every neuron, in canonical order.
    pub fn v(&self) -> &Array1<u8> {
        &self.v
    }

    /// The neuron visiting order within a sweep, when not the canonical one.
    pub fn order(&self) -> Option<&[u32]> {
        self.order.as_deref()
    }

    /// The parts `(U, V, order)`.
    pub fn into_parts(self) -> (Array1<i32>, Array1<u8>, Option<Vec<u32>>) {
        (self.u, self.v, self.order)
    }

    /// Draw an initial state for one attempt.
    pub fn random<R: Rng + ?Sized>(
        graph: &KnightGraph,
        params: &NetworkParams,
        rng: &mut R,
    ) -> State {
        let e = graph.edges();
        let (mut u, mut v) = (Array1::zeros(e), Array1::zeros(e));
        Self::draw(graph, params, rng, |i, ui, vi| {
            u[i] = ui;
            v[i] = vi;
        });
        let order = (params.order == UpdateOrder::RandomPermutation).then(|| {
            let mut p: Vec<u32> = (0..e as u32).collect();
            p.shuffle(rng);
            p
        });
        State { u, v, order }
    }

    /// Draw the initial U and V of every neuron in canonical order, handing each to
    /// `put(neuron, U, V)`: the draws of step 1 above, without building arrays (the
    /// batched engine writes them straight into its lanes).
    #[inline(always)]
    pub fn draw<R: Rng + ?Sized>(
        graph: &KnightGraph,
        params: &NetworkParams,
        rng: &mut R,
        mut put_drawn: impl FnMut(usize, i32, u8),
    ) {
        // Two instances of one loop: the knight's graph holds nothing, and its loop (the
        // batched engine's attempt set-up) stays free of the held-neuron test.
        if graph.held().is_empty() {
            return Self::draw_each(graph, params, rng, put_drawn);
        }
        let mut held = graph.held().iter().copied().peekable();
        Self::draw_each(graph, params, rng, |i: usize, u: i32, v: u8| {
            let v = if held.next_if_eq(&(i as u32)).is_some() {
                1
            } else {
                v
            };
            put_drawn(i, u, v)
        })
    }

    /// The draws of [`State::draw`], before held neurons are put on.
    #[inline(always)]
    fn draw_each<R: Rng + ?Sized>(
        graph: &KnightGraph,
        params: &NetworkParams,
        rng: &mut R,
        mut put: impl FnMut(usize, i32, u8),
    ) {
        match params.init {
            Init::RandomOutputs => {
                // Each output is `Uniform::new_inclusive(0u8, 1)`'s draw, the top bit of
                // one `u32` (rand's widening multiply never rejects a range of 2), taken
                // here from words drawn in blocks: the same values, without a call per
                // neuron (`random_outputs_are_uniform_draws` checks it).
                let mut words = [0u32; 64];
                for first in (0..graph.edges()).step_by(words.len()) {
                    let block = &mut words[..(graph.edges() - first).min(64)];
                    rng.fill(block);
                    for (i, w) in (first..).zip(block.iter()) {
                        put(i, 0, (w >> 31) as u8);
                    }
                }
            }
            Init::NegativeStates => {
                let spread = graph.init_spread().max(1) as i32;
                let d = Uniform::new(0i32, spread).expect("spread >= 1");
                for i in 0..graph.edges() {
                    put(i, -d.sample(rng), 0);
                }
            }
        }
    }

    /// The outputs V of every neuron, in canonical order.
    pub fn outputs(&self) -> OutputState {
        OutputState::new(self.v.iter().map(|&x| x == 1).collect())
    }
}

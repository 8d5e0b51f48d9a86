//! A deliberately plain implementation of the update rule with a dense E×E neighbour
//! mask, used only as a test oracle on small boards: the fast [`super::Dynamics`] must
//! produce identical trajectories (U and V after every step) for every update order.
//! Held neurons (the apex–start edge of an open graph with a fixed start) are skipped:
//! they keep their initial state.

use ndarray::{Array1, Array2};

use super::params::{NetworkParams, UpdateOrder};
use super::rules::hysteresis;
use super::state::State;
use crate::graph::KnightGraph;

/// Largest number of neurons the oracle accepts (the mask is E×E bytes).
pub(crate) const MAX_NEURONS: usize = 4096;

/// The dense-mask network.
#[derive(Debug, Clone)]
pub struct DenseNetwork {
    params: NetworkParams,
    /// `mask[[e, f]] = 1` when neurons e ≠ f share a square.
    mask: Array2<i32>,
    state: State,
    /// Visiting order of [`UpdateOrder::SquareSweep`].
    square_sweep: Vec<u32>,
    /// Neurons never updated.
    held: Vec<usize>,
}

impl DenseNetwork {
    /// Build the mask; `None` when the graph has more than `MAX_NEURONS` neurons.
    pub fn new(graph: &KnightGraph, params: NetworkParams, state: State) -> Option<DenseNetwork> {
        let square_sweep = graph.incident_all().to_vec();
        let e = graph.edges();
        if e > MAX_NEURONS {
            return None;
        }
        let mut mask = Array2::zeros((e, e));
        for i in 0..e {
            let (a, b) = graph.endpoints(i);
            for j in 0..e {
                let (c, d) = graph.endpoints(j);
                if i != j && (a == c || a == d || b == c || b == d) {
                    mask[[i, j]] = 1;
                }
            }
        }
        Some(DenseNetwork {
            params,
            mask,
            state,
            square_sweep,
            held: graph.held().iter().map(|&e| e as usize).collect(),
        })
    }

    /// The current state.
    pub fn state(&self) -> &State {
        &self.state
    }

    fn delta(&self, e: usize, v: &Array1<u8>) -> i32 {
        let sum: i32 = self
            .mask
            .row(e)
            .iter()
            .zip(v)
            .map(|(&m, &x)| m * x as i32)
            .sum();
        self.params.c - sum - self.params.s * v[e] as i32
    }

    fn update(&mut self, e: usize, du: i32) {
        let p = self.params;
        let mut nu = self.state.u[e] + du;
        if let Some(k) = p.clamp {
            nu = nu.clamp(-k, k);
        }
        self.state.u[e] = nu;
        self.state.v[e] = hysteresis(nu, self.state.v[e], p.upper, p.lower);
    }

    /// One step; returns how many neurons had ΔU ≠ 0.
    pub fn step(&mut self) -> u32 {
        let e = self.state.v.len();
        let mut changed = 0;
        match self.params.order {
            UpdateOrder::Synchronous => {
                let v0 = self.state.v.clone();
                let deltas: Vec<i32> = (0..e).map(|i| self.delta(i, &v0)).collect();
                for (i, du) in deltas.into_iter().enumerate() {
                    if self.held.contains(&i) {
                        continue;
                    }
                    changed += (du != 0) as u32;
                    self.update(i, du);
                }
            }
            UpdateOrder::Sequential | UpdateOrder::RandomPermutation | UpdateOrder::SquareSweep => {
                let order: Vec<usize> = match (&self.state.order, self.params.order) {
                    (Some(o), _) => o.iter().map(|&x| x as usize).collect(),
                    (None, UpdateOrder::SquareSweep) => {
                        self.square_sweep.iter().map(|&x| x as usize).collect()
                    }
                    (None, _) => (0..e).collect(),
                };
                for i in order {
                    if self.held.contains(&i) {
                        continue;
                    }
                    let du = self.delta(i, &self.state.v);
                    changed += (du != 0) as u32;
                    self.update(i, du);
                }
            }
        }
        changed
    }
}

//! `local-restart`: when an attempt settles into a cover of several cycles, re-randomise
//! only the neurons near the smaller cycles and go on, instead of restarting the whole
//! board. The largest cycle (the first of equal length, in the order the cover's cycles
//! are read) is kept; every neuron with an end on a square of another cycle is redrawn
//! as an initial state is (`U = 0`, `V` 0 or 1 with probability 1/2, in increasing
//! neuron order), held neurons excepted; every other neuron keeps its U and V. The
//! attempt then steps on under the plain rule until it settles again.
//!
//! An attempt ends on a tour, on a stable state that is not a cover, at the iteration cap
//! (which counts every step, before and after restarts), or on a cover of several cycles
//! once `max_restarts` local restarts have been made. The redraws come from a ChaCha8
//! stream seeded by one `u64` drawn from the attempt's own random stream after its
//! initial state, so a seed determines the run.
//!
//! Records ([`Rule::events`]): the local restarts made.

use rand::Rng as _;
use serde::{Deserialize, Serialize};

use super::{Neurons, Rule, StepHook};
use crate::error::InputError;

/// Parameters of the `local-restart` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocalRestart {
    /// Local restarts an attempt may make.
    pub max_restarts: u32,
}

impl Default for LocalRestart {
    /// 50 local restarts per attempt (an attempt's steps stay bounded by its cap).
    fn default() -> LocalRestart {
        LocalRestart { max_restarts: 50 }
    }
}

/// One attempt of the `local-restart` rule.
#[derive(Debug, Clone)]
pub struct LocalRestartAttempt {
    rng: crate::Rng,
    restarts: u32,
}

/// Steps are the plain rule's.
impl StepHook for LocalRestartAttempt {}

/// The neurons a local restart redraws for a cover made of `cycles`: every neuron with an
/// end on a square of a cycle other than the largest, held neurons excepted, in
/// increasing order.
pub fn near_smaller_cycles<N: Neurons>(net: &N, cycles: &[Vec<u32>]) -> Vec<u32> {
    let graph = net.graph();
    let largest = cycles
        .iter()
        .enumerate()
        .max_by(|(i, x), (j, y)| x.len().cmp(&y.len()).then(j.cmp(i)))
        .map_or(0, |(i, _)| i);
    let mut near: Vec<u32> = cycles
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != largest)
        .flat_map(|(_, c)| c.iter())
        .flat_map(|&sq| graph.incident(sq).iter().copied())
        .filter(|e| graph.held().binary_search(e).is_err())
        .collect();
    near.sort_unstable();
    near.dedup();
    near
}

impl Rule for LocalRestart {
    type Attempt = LocalRestartAttempt;
    const DRAWS: bool = true;

    fn check(&self) -> Result<(), InputError> {
        if self.max_restarts > 1_000_000 {
            return Err(InputError::param(format!(
                "max restarts = {} is not accepted; give 0 to 1000000",
                self.max_restarts
            )));
        }
        Ok(())
    }

    fn start(&self, seed: u64) -> LocalRestartAttempt {
        LocalRestartAttempt {
            rng: crate::rng_from_seed(seed),
            restarts: 0,
        }
    }

    fn on_cycles<N: Neurons>(
        &self,
        a: &mut LocalRestartAttempt,
        net: &mut N,
        cycles: &[Vec<u32>],
    ) -> bool {
        if a.restarts >= self.max_restarts {
            return false;
        }
        for e in near_smaller_cycles(net, cycles) {
            let v: u8 = a.rng.random_range(0..=1);
            net.set_neuron(e as usize, 0, v);
        }
        a.restarts += 1;
        true
    }

    fn events(&self, a: &LocalRestartAttempt) -> u32 {
        a.restarts
    }
}

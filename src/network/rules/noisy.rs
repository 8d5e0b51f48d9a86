//! `noisy`: stochastic hysteresis. Every update adds integer noise, uniform in
//! `−A(t) ..= A(t)`, to the plain rule's ΔU, where the amplitude is annealed linearly to
//! zero over the first `anneal` steps of an attempt:
//!
//! ```text
//! A(t) = ⌈amplitude · (anneal − t) / anneal⌉  for step t = 0, 1, … < anneal,  0 after
//! ```
//!
//! The noise lets an attempt leave the several-cycle fixed points of the (4, 2) rule
//! early on (every 2-factor is a fixed point of the plain rule); once the amplitude is 0
//! the step is the plain rule's, so the stop rule can fire and every settled state is
//! one of the plain rule's fixed points. The noise is drawn from a ChaCha8 stream seeded
//! by one `u64` drawn from the attempt's own random stream after its initial state,
//! one draw per neuron update while `A(t) > 0`, so a seed determines the run.
//!
//! Records ([`Rule::events`]): the steps taken with noise on.

use ndarray_rand::rand_distr::{Distribution, Uniform};
use serde::{Deserialize, Serialize};

use super::{Rule, StepHook};
use crate::error::InputError;

/// The largest amplitude accepted (a few times the plain rule's largest |ΔU|).
pub(crate) const MAX_AMPLITUDE: i32 = 64;

/// Parameters of the `noisy` rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Noisy {
    /// Noise amplitude at the first step.
    pub amplitude: i32,
    /// Steps over which the amplitude falls to zero.
    pub anneal: u32,
}

impl Default for Noisy {
    /// Amplitude 2 annealed over 50 steps (chosen from a pilot on 8×8; docs/rules.md).
    fn default() -> Noisy {
        Noisy {
            amplitude: 2,
            anneal: 50,
        }
    }
}

impl Noisy {
    /// The amplitude at step `t` (0-based) of an attempt.
    pub fn amplitude_at(&self, t: u32) -> i32 {
        if t >= self.anneal {
            return 0;
        }
        let left = (self.anneal - t) as u64;
        let a = (self.amplitude.max(0) as u64 * left).div_ceil(self.anneal as u64);
        a as i32
    }
}

/// One attempt of the `noisy` rule.
#[derive(Debug, Clone)]
pub struct NoisyAttempt {
    rng: crate::Rng,
    /// Steps begun.
    step: u32,
    /// The noise of the current step; `None` once the amplitude is 0.
    noise: Option<Uniform<i32>>,
    amplitude: i32,
    noisy_steps: u32,
}

impl NoisyAttempt {
    /// The amplitude of the current step (0 once annealed).
    pub fn amplitude(&self) -> i32 {
        self.amplitude
    }
}

impl StepHook for NoisyAttempt {
    #[inline(always)]
    fn delta(&mut self, du: i32) -> i32 {
        match &self.noise {
            Some(d) => du + d.sample(&mut self.rng),
            None => du,
        }
    }
}

impl Rule for Noisy {
    type Attempt = NoisyAttempt;
    const DRAWS: bool = true;

    fn check(&self) -> Result<(), InputError> {
        if !(0..=MAX_AMPLITUDE).contains(&self.amplitude) {
            return Err(InputError::param(format!(
                "noise amplitude = {} is not accepted; give 0 to {MAX_AMPLITUDE}",
                self.amplitude
            )));
        }
        if self.anneal == 0 || self.anneal > 100_000_000 {
            return Err(InputError::param(format!(
                "noise anneal = {} steps is not accepted; give 1 to 100000000",
                self.anneal
            )));
        }
        Ok(())
    }

    fn extra_delta(&self) -> u32 {
        self.amplitude.unsigned_abs()
    }

    fn start(&self, seed: u64) -> NoisyAttempt {
        NoisyAttempt {
            rng: crate::rng_from_seed(seed),
            step: 0,
            noise: None,
            amplitude: 0,
            noisy_steps: 0,
        }
    }

    fn begin_step(&self, a: &mut NoisyAttempt) {
        let amp = self.amplitude_at(a.step);
        a.step = a.step.saturating_add(1);
        a.amplitude = amp;
        a.noise = (amp > 0).then(|| Uniform::new_inclusive(-amp, amp).expect("-amp <= amp"));
        a.noisy_steps += (amp > 0) as u32;
    }

    fn events(&self, a: &NoisyAttempt) -> u32 {
        a.noisy_steps
    }
}

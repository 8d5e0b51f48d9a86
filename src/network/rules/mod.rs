//! The update rule as an extension point: the Takefuji–Lee step with hooks a rule fills
//! in (its ΔU, its output function, a per-step schedule, what to do when an attempt
//! settles into several cycles, and a count of what it did), each rule in one file.
//!
//! The engines ([`super::Dynamics`], [`super::AttemptSteps`]) run the step loops once,
//! generic over the hooks ([`StepHook`]), and pick the instance by matching on
//! [`RuleKind`] once per step, so every rule's loop is compiled for it (monomorphised):
//! the plain rule's hooks are the identity and its loop is the engine's own loop,
//! with no call through a pointer.
//!
//! Every preset of the literature (`parberry`, `brant`, ...) runs the plain rule
//! ([`RuleKind::TakefujiLee`]): its ΔU is `C − deg(a) − deg(b) + (2 − S)·V(e)` and its
//! output the hysteresis of [`hysteresis`]. The rules registered
//! here add to it:
//!
//! | rule | file | what it changes |
//! |---|---|---|
//! | `noisy` | [`noisy`] | seeded integer noise added to ΔU, its amplitude annealed to zero |
//! | `local-restart` | [`local_restart`] | a cover of several cycles re-randomises the neurons at the smaller cycles' squares and the attempt goes on |
//!
//! Adding a rule: write `src/network/rules/my_rule.rs` (a parameter struct with
//! `impl Rule`, a per-attempt struct with `impl StepHook`), add `pub mod my_rule;` and one
//! line to the `rules!` list at the end of this file, and a [`super::Preset`] that sets
//! it (docs/rules.md walks through it). The batched engine runs only the plain rule;
//! every other rule runs in the scalar engine, and the JSON of a solve says so
//! (`"engine": "scalar"`).

pub mod local_restart;
pub mod noisy;

use std::fmt::Debug;

use serde::{Deserialize, Serialize};

use crate::error::InputError;
use crate::graph::KnightGraph;

/// Hysteresis: on above `upper`, off below `lower`, else unchanged.
#[inline(always)]
pub fn hysteresis(u: i32, v: u8, upper: i32, lower: i32) -> u8 {
    if u > upper {
        1
    } else if u < lower {
        0
    } else {
        v
    }
}

/// The network as a rule sees it: implemented by the engine ([`super::Dynamics`]), so
/// that this module, which the parameters and the engine both import, imports neither.
pub trait Neurons {
    /// The graph the network runs on.
    fn graph(&self) -> &KnightGraph;

    /// Set neuron `e`'s state and output, keeping the engine's degrees and counters in
    /// step.
    fn set_neuron(&mut self, e: usize, u: i32, v: u8);

    /// One step of the engine with the hooks `hook`; returns the numbers of neurons whose
    /// U changed and of outputs that flipped.
    fn step_with<H: StepHook>(&mut self, hook: &mut H) -> (u32, u32);
}

/// The hooks of one attempt of a rule, called from inside the step loops. Both are
/// inlined into the loop; the defaults are the plain Takefuji–Lee rule.
pub trait StepHook {
    /// ΔU of the neuron being updated, given the plain rule's ΔU `du`.
    #[inline(always)]
    fn delta(&mut self, du: i32) -> i32 {
        du
    }

    /// The output of a neuron whose new state is `u` and whose output was `v`.
    #[inline(always)]
    fn output(&self, u: i32, v: u8, upper: i32, lower: i32) -> u8 {
        hysteresis(u, v, upper, lower)
    }
}

/// A rule: its parameters (this type) and its per-attempt state ([`Rule::Attempt`]).
pub trait Rule: Copy + Debug + PartialEq + Eq {
    /// What one attempt of the rule keeps between steps (a schedule's position, a
    /// random stream, counters).
    type Attempt: StepHook + Clone + Debug;

    /// Whether [`Rule::start`] needs a seed drawn from the attempt's random stream (after
    /// the initial state): a rule that draws nothing leaves the stream as the plain rule
    /// leaves it.
    const DRAWS: bool;

    /// Refuse parameters the rule cannot run, naming the field and what is accepted.
    fn check(&self) -> Result<(), InputError>;

    /// The largest amount by which the rule's ΔU can exceed the plain rule's, in either
    /// direction (for the bounds that keep U inside `i32`).
    fn extra_delta(&self) -> u32 {
        0
    }

    /// A fresh attempt; `seed` comes from the attempt's random stream when
    /// [`Rule::DRAWS`], else it is 0.
    fn start(&self, seed: u64) -> Self::Attempt;

    /// Called before every step (the per-step schedule).
    fn begin_step(&self, _attempt: &mut Self::Attempt) {}

    /// Called when the stop rule has fired on a cover of several cycles (`cycles`, as
    /// square lists): change the network through `net` ([`Neurons::set_neuron`]) and
    /// return true to go on stepping, or return false to end the attempt there.
    fn on_cycles<N: Neurons>(
        &self,
        _attempt: &mut Self::Attempt,
        _net: &mut N,
        _cycles: &[Vec<u32>],
    ) -> bool {
        false
    }

    /// What the rule records for an attempt: how many times it intervened (its meaning
    /// is the rule's; see each rule's doc).
    fn events(&self, _attempt: &Self::Attempt) -> u32 {
        0
    }
}

/// The plain rule's attempt: no state, identity hooks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Plain;

impl StepHook for Plain {}

/// Register the rules: one line per rule, `Variant => "name" => Type`. Generates
/// [`RuleKind`] (which rule, with its parameters; part of
/// [`super::NetworkParams`]) and [`RuleState`] (one attempt of it), and the dispatch
/// between them, one `match` per step.
macro_rules! rules {
    ($($variant:ident => $name:literal => $ty:ty),+ $(,)?) => {
        /// Which update rule a network runs, with the rule's parameters.
        #[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "kebab-case", tag = "name")]
        #[non_exhaustive]
        pub enum RuleKind {
            /// The Takefuji–Lee rule as the presets run it.
            #[default]
            TakefujiLee,
            $(
                #[doc = concat!("The `", $name, "` rule, with its parameters.")]
                $variant($ty),
            )+
        }

        /// One attempt of the rule of a [`RuleKind`] (boxed, so that the engine moves
        /// a pointer, not the rule's state, around each step).
        #[derive(Debug, Clone, Default)]
        pub enum RuleState {
            /// An attempt of the plain rule, which keeps no state.
            #[default]
            TakefujiLee,
            $(
                #[doc = concat!("An attempt of the `", $name, "` rule.")]
                $variant(Box<<$ty as Rule>::Attempt>),
            )+
        }

        impl RuleKind {
            /// The rule's name (`takefuji-lee` for the plain rule).
            pub fn name(&self) -> &'static str {
                match self {
                    RuleKind::TakefujiLee => "takefuji-lee",
                    $(RuleKind::$variant(_) => $name,)+
                }
            }

            /// Whether this is the plain rule (the one the batched engine runs).
            pub fn is_plain(&self) -> bool {
                matches!(self, RuleKind::TakefujiLee)
            }

            /// [`Rule::DRAWS`] of the rule.
            pub fn draws(&self) -> bool {
                match self {
                    RuleKind::TakefujiLee => false,
                    $(RuleKind::$variant(_) => <$ty as Rule>::DRAWS,)+
                }
            }

            /// [`Rule::check`] of the rule.
            pub fn check(&self) -> Result<(), InputError> {
                match self {
                    RuleKind::TakefujiLee => Ok(()),
                    $(RuleKind::$variant(r) => r.check(),)+
                }
            }

            /// [`Rule::extra_delta`] of the rule.
            pub(crate) fn extra_delta(&self) -> u32 {
                match self {
                    RuleKind::TakefujiLee => 0,
                    $(RuleKind::$variant(r) => r.extra_delta(),)+
                }
            }

            /// [`Rule::start`] of the rule.
            pub fn start(&self, seed: u64) -> RuleState {
                match self {
                    RuleKind::TakefujiLee => RuleState::TakefujiLee,
                    $(RuleKind::$variant(r) => RuleState::$variant(Box::new(r.start(seed))),)+
                }
            }
        }

        impl RuleState {
            /// One step of `net` under `kind` (the rule this state was started from):
            /// the schedule, then the engine's step compiled for the rule's hooks.
            #[inline(always)]
            pub(crate) fn step<N: Neurons>(&mut self, kind: &RuleKind, net: &mut N) -> (u32, u32) {
                match (kind, self) {
                    (_, RuleState::TakefujiLee) => net.step_with(&mut Plain),
                    $((RuleKind::$variant(r), RuleState::$variant(a)) => {
                        r.begin_step(a);
                        net.step_with(&mut **a)
                    })+
                    _ => unreachable!("a rule's state is started from the same rule"),
                }
            }

            /// [`Rule::on_cycles`] of the rule.
            pub(crate) fn on_cycles<N: Neurons>(
                &mut self,
                kind: &RuleKind,
                net: &mut N,
                cycles: &[Vec<u32>],
            ) -> bool {
                match (kind, self) {
                    (_, RuleState::TakefujiLee) => false,
                    $((RuleKind::$variant(r), RuleState::$variant(a)) => r.on_cycles(a, net, cycles),)+
                    _ => unreachable!("a rule's state is started from the same rule"),
                }
            }

            /// [`Rule::events`] of the rule `kind` (the rule this state was started
            /// from).
            pub fn events(&self, kind: &RuleKind) -> u32 {
                match (kind, self) {
                    (_, RuleState::TakefujiLee) => 0,
                    $((RuleKind::$variant(r), RuleState::$variant(a)) => r.events(a),)+
                    _ => unreachable!("a rule's state is started from the same rule"),
                }
            }
        }
    };
}

rules! {
    Noisy => "noisy" => noisy::Noisy,
    LocalRestart => "local-restart" => local_restart::LocalRestart,
}

//! Parameters of the Takefuji–Lee network and the named presets that reproduce the rule
//! variants in circulation. Every parameter is checked by [`NetworkParams::check`]
//! before a run.
//!
//! The update of neuron `e = {a, b}` is
//!
//! ```text
//! U(e) += C − Σ_{f ∈ G(e)} V(f) − S·V(e)     (G(e): other neurons touching a or b)
//! V(e)  = 1 if U(e) > upper, 0 if U(e) < lower, else unchanged
//! ```
//!
//! | preset | C | S | order | init | stop | cap, restarts |
//! |---|---|---|---|---|---|---|
//! | `takefuji-lee` | 4 | 2 | synchronous | random V, U = 0 | a step changes no U | 1000 steps |
//! | `brant` | 4 | 2 | sequential row-major | V = 0, U = −(0..cols−1), U clamped to ±10 | a sweep changes no U | 1000 sweeps |
//! | `parberry` | 4 | 2 | sequential row-major | random V, U = 0 | a sweep changes no U | 1000 sweeps |
//! | `wikipedia` | 2 | 0 | sequential row-major | random V, U = 0 | a sweep changes no U | 1000 sweeps |
//! | `numpy` | 3 | 1 | synchronous | random V, U = 0 | degree 2, or no U change | 40 steps |
//!
//! Every preset uses thresholds upper = 3, lower = 0 and up to 1000 attempts in `solve`.
//!
//! Two more named variants run `parberry`'s parameters under a rule of
//! [`super::rules`] instead of the plain one: `noisy` (annealed noise on ΔU) and
//! `local-restart` (a cover of several cycles re-randomises the smaller cycles' neurons).
//! [`Preset::ALL`] lists the literature's five, [`Preset::RULES`] these two; a name
//! parses to any of the seven.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::outcome::StepStats;
use super::overrides::Overrides;
use super::rules::RuleKind;
use super::rules::local_restart::LocalRestart;
use super::rules::noisy::Noisy;
use crate::error::InputError;

/// In which order neurons are updated within one step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum UpdateOrder {
    /// Every neuron reads the outputs of the previous step (a Jacobi step).
    Synchronous,
    /// One neuron at a time in canonical (row-major) neuron order, each reading the
    /// current outputs (a Gauss–Seidel sweep).
    Sequential,
    /// Sequential, in a permutation of the neurons drawn once per attempt from the
    /// attempt's random stream.
    RandomPermutation,
    /// Sequential by squares: each square in row-major order updates every move out of
    /// it (in increasing neuron order), so each neuron is updated twice per sweep, once
    /// from each end. One reading of Parberry's (1996) "for each square, each move out of
    /// it" epoch; measured to diverge far less often than the canonical order (see
    /// docs/results.md, "Update order changes divergence a lot").
    SquareSweep,
}

/// How an attempt's initial state is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Init {
    /// Each V is 0 or 1 with probability 1/2; every U is 0.
    RandomOutputs,
    /// Every V is 0; each U is drawn uniformly from `−(spread−1) ..= 0`, where `spread`
    /// is the board's number of columns (Brant's "−(rand mod n)").
    NegativeStates,
}

/// When an attempt counts as settled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum StopRule {
    /// A whole step (sweep) leaves every U unchanged (ΔU = 0 for every neuron).
    Stable,
    /// After a step, every square has exactly two active moves.
    DegreeTwo,
    /// Whichever of the two happens first.
    Either,
}

/// The named rule variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Preset {
    /// Takefuji and Lee (1992): synchronous steps.
    TakefujiLee,
    /// Brant's reading: sequential, V = 0 and negative U to start, U clamped.
    Brant,
    /// Parberry's (1996) reading: sequential sweeps from random outputs.
    Parberry,
    /// The `wikipedia` variant: C = 2, S = 0, sequential.
    Wikipedia,
    /// The `numpy` variant: C = 3, S = 1, synchronous, stopping on degree 2 or no change
    /// of U, 40 steps.
    Numpy,
    /// `parberry` under the `noisy` rule ([`super::rules::noisy`]).
    Noisy,
    /// `parberry` under the `local-restart` rule ([`super::rules::local_restart`]).
    LocalRestart,
}

impl Preset {
    /// The presets of the literature (each runs the plain rule).
    pub const ALL: [Preset; 5] = [
        Preset::TakefujiLee,
        Preset::Brant,
        Preset::Parberry,
        Preset::Wikipedia,
        Preset::Numpy,
    ];

    /// The presets that run a rule of [`super::rules`] other than the plain one.
    pub const RULES: [Preset; 2] = [Preset::Noisy, Preset::LocalRestart];

    /// Every named variant: [`Preset::ALL`], then [`Preset::RULES`].
    pub fn every() -> impl Iterator<Item = Preset> {
        Preset::ALL.into_iter().chain(Preset::RULES)
    }

    /// The preset's name, as the command line and specs take it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Noisy => "noisy",
            Preset::LocalRestart => "local-restart",
            Preset::TakefujiLee => "takefuji-lee",
            Preset::Brant => "brant",
            Preset::Parberry => "parberry",
            Preset::Wikipedia => "wikipedia",
            Preset::Numpy => "numpy",
        }
    }

    /// The preset's parameters.
    pub fn params(self) -> NetworkParams {
        let base = NetworkParams {
            preset: Some(self),
            c: 4,
            s: 2,
            upper: 3,
            lower: 0,
            order: UpdateOrder::Sequential,
            init: Init::RandomOutputs,
            clamp: None,
            stop: StopRule::Stable,
            max_iterations: 1000,
            max_attempts: 1000,
            rule: RuleKind::TakefujiLee,
        };
        match self {
            Preset::TakefujiLee => NetworkParams {
                order: UpdateOrder::Synchronous,
                ..base
            },
            Preset::Brant => NetworkParams {
                init: Init::NegativeStates,
                clamp: Some(10),
                ..base
            },
            Preset::Parberry => base,
            Preset::Wikipedia => NetworkParams { c: 2, s: 0, ..base },
            Preset::Numpy => NetworkParams {
                c: 3,
                s: 1,
                order: UpdateOrder::Synchronous,
                stop: StopRule::Either,
                max_iterations: 40,
                ..base
            },
            Preset::Noisy => NetworkParams {
                rule: RuleKind::Noisy(Noisy::default()),
                ..base
            },
            Preset::LocalRestart => NetworkParams {
                rule: RuleKind::LocalRestart(LocalRestart::default()),
                ..base
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Preset, InputError> {
        Preset::every()
            .find(|p| p.name() == s.trim())
            .ok_or_else(|| {
                InputError::unknown("variant", s.trim(), Preset::every().map(|p| p.name()))
            })
    }
}

macro_rules! kebab_enum {
    ($ty:ty, $what:literal, $($variant:ident => $name:literal),+) => {
        impl $ty {
            /// The kebab-case name, as the command line, specs and JSON take it.
            pub fn name(self) -> &'static str {
                match self { $(<$ty>::$variant => $name),+ }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
        impl FromStr for $ty {
            type Err = InputError;
            fn from_str(s: &str) -> Result<$ty, InputError> {
                match s.trim() {
                    $($name => Ok(<$ty>::$variant),)+
                    _ => Err(InputError::unknown($what, s.trim(), [$($name),+])),
                }
            }
        }
    };
}

impl StopRule {
    /// Whether this rule ends an attempt after a step with these measurements.
    pub fn settled(self, stats: &StepStats) -> bool {
        let stable = stats.changed == 0;
        let degree_two = stats.off_two == 0;
        match self {
            StopRule::Stable => stable,
            StopRule::DegreeTwo => degree_two,
            StopRule::Either => stable || degree_two,
        }
    }
}

kebab_enum!(UpdateOrder, "update order", Synchronous => "synchronous", Sequential => "sequential", RandomPermutation => "random-permutation", SquareSweep => "square-sweep");
kebab_enum!(Init, "initialisation", RandomOutputs => "random-outputs", NegativeStates => "negative-states");
kebab_enum!(StopRule, "stop rule", Stable => "stable", DegreeTwo => "degree-two", Either => "either");

/// All the knobs of one network run. Build from a [`Preset`] and override fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkParams {
    /// The preset these parameters started from, if any (`None` once overridden is not
    /// tracked: overrides keep the preset's name and are recorded field by field).
    pub preset: Option<Preset>,
    /// Bias C added at every update.
    pub c: i32,
    /// Self-coupling S: how much a neuron's own output is subtracted.
    pub s: i32,
    /// V turns on when U > upper.
    pub upper: i32,
    /// V turns off when U < lower.
    pub lower: i32,
    /// In which order neurons are updated within a step.
    pub order: UpdateOrder,
    /// How an attempt's initial state is drawn.
    pub init: Init,
    /// Clamp U to `[-clamp, clamp]` after every update.
    pub clamp: Option<i32>,
    /// When an attempt counts as settled.
    pub stop: StopRule,
    /// Steps (synchronous) or sweeps (sequential) per attempt.
    pub max_iterations: u32,
    /// Attempts `solve` makes before giving up.
    pub max_attempts: u32,
    /// The update rule ([`super::rules`]); the plain Takefuji–Lee rule unless a rule
    /// preset set another (left out of JSON when plain).
    #[serde(default, skip_serializing_if = "RuleKind::is_plain")]
    pub rule: RuleKind,
}

impl Default for NetworkParams {
    /// The `parberry` preset.
    fn default() -> NetworkParams {
        Preset::Parberry.params()
    }
}

impl NetworkParams {
    /// Reject contradictory or out-of-range parameters, naming the field.
    pub fn check(&self) -> Result<(), InputError> {
        const LIMIT: i32 = 1 << 20;
        for (name, v) in [
            ("c", self.c),
            ("s", self.s),
            ("upper", self.upper),
            ("lower", self.lower),
        ] {
            if v.abs() > LIMIT {
                return Err(InputError::param(format!(
                    "parameter {name} = {v} is out of range; values from -{LIMIT} to {LIMIT} are accepted"
                )));
            }
        }
        if self.upper < self.lower {
            return Err(InputError::param(format!(
                "threshold upper = {} is below lower = {}; hysteresis needs upper >= lower",
                self.upper, self.lower
            )));
        }
        if let Some(k) = self.clamp {
            if k <= 0 || k > LIMIT {
                return Err(InputError::param(format!(
                    "clamp = {k} is not accepted; give a positive bound up to {LIMIT}"
                )));
            }
            if k <= self.upper {
                return Err(InputError::param(format!(
                    "clamp = {k} keeps U at or below upper = {}, so no output could ever turn on; use a clamp above the upper threshold",
                    self.upper
                )));
            }
            if -k >= self.lower {
                return Err(InputError::param(format!(
                    "clamp = {k} keeps U at or above lower = {}, so no output could ever turn off; use a clamp above {}",
                    self.lower, -self.lower
                )));
            }
        }
        if self.max_iterations == 0 || self.max_iterations > 100_000_000 {
            return Err(InputError::param(format!(
                "max-iterations = {} is not accepted; give 1 to 100000000",
                self.max_iterations
            )));
        }
        // U must stay inside i32: each update moves it by at most |C| + 16 + |2 − S|
        // (16 = two squares of degree 8), at most twice per sweep, from a start of at
        // most a board side (1,000,000) in size.
        self.rule.check()?;
        let step =
            (self.c.unsigned_abs() + 16 + (2 - self.s).unsigned_abs() + self.rule.extra_delta())
                as u64;
        if 2 * step * self.max_iterations as u64 + 1_000_000 > i32::MAX as u64 {
            return Err(InputError::param(format!(
                "max-iterations = {} with C = {} and S = {} could overflow U; lower max-iterations or |C|",
                self.max_iterations, self.c, self.s
            )));
        }
        if self.max_attempts == 0 {
            return Err(InputError::param(
                "max-attempts = 0 is not accepted; give at least 1",
            ));
        }
        Ok(())
    }

    /// The name of this configuration, which replays it: the preset's name (`parberry`
    /// when none), then `--KEY VALUE` for each parameter that differs from the preset
    /// (`parberry --order square-sweep`), written by [`Overrides::variant_text`]. The
    /// attempt cap is left out: it bounds a run, not the configuration. `solve`'s JSON
    /// `variant`, the Python `Network.variant`, trace files and experiment records carry
    /// it.
    pub fn variant(&self) -> String {
        let preset = self.preset.unwrap_or(Preset::Parberry);
        Overrides::between(&preset.params(), self).variant_text(preset)
    }

    /// The key the trial seeds of `compare`, `growth` and `convergence` derive from
    /// ([`crate::solvers::SolverKind::default_label`]), and the detail of the solver's
    /// name in experiment records (`network:parberry*`): the preset's name, `NAME*` once
    /// a parameter other than the attempt cap differs from it, `custom` without a preset.
    /// It names no configuration ([`NetworkParams::variant`] does); it stays as it is so
    /// that seeds, and the committed results drawn from them, stay as they are.
    pub(crate) fn seed_label(&self) -> String {
        match self.preset {
            Some(p)
                if p.params()
                    == NetworkParams {
                        max_attempts: p.params().max_attempts,
                        ..*self
                    } =>
            {
                p.name().to_string()
            }
            Some(p) => format!("{}*", p.name()),
            None => "custom".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_are_valid_and_named() {
        for p in Preset::every() {
            p.params().check().unwrap();
            assert_eq!(p.name().parse::<Preset>().unwrap(), p);
            assert_eq!(p.params().seed_label(), p.name());
            assert_eq!(p.params().variant(), p.name());
        }
        assert!(
            "hopfield"
                .parse::<Preset>()
                .unwrap_err()
                .to_string()
                .contains("parberry")
        );
        let changed = NetworkParams {
            c: 5,
            ..Preset::Parberry.params()
        };
        assert_eq!(changed.seed_label(), "parberry*");
        assert_eq!(changed.variant(), "parberry --c 5");
        let more_attempts = NetworkParams {
            max_attempts: 9,
            ..Preset::Brant.params()
        };
        assert_eq!(more_attempts.seed_label(), "brant");
        assert_eq!(more_attempts.variant(), "brant");
        let custom = NetworkParams {
            preset: None,
            ..changed
        };
        assert_eq!(custom.seed_label(), "custom");
        assert_eq!(custom.variant(), "parberry --c 5");
    }

    #[test]
    fn contradictions_are_rejected() {
        let p = Preset::Parberry.params();
        assert!(NetworkParams { upper: -1, ..p }.check().is_err());
        assert!(
            NetworkParams {
                clamp: Some(3),
                ..p
            }
            .check()
            .is_err()
        );
        assert!(
            NetworkParams {
                clamp: Some(0),
                ..p
            }
            .check()
            .is_err()
        );
        assert!(
            NetworkParams {
                max_iterations: 0,
                ..p
            }
            .check()
            .is_err()
        );
        assert!(
            NetworkParams {
                max_attempts: 0,
                ..p
            }
            .check()
            .is_err()
        );
        assert!(NetworkParams { c: i32::MAX, ..p }.check().is_err());
        assert!("diagonal".parse::<UpdateOrder>().is_err());
        assert_eq!("either".parse::<StopRule>().unwrap(), StopRule::Either);
    }
}

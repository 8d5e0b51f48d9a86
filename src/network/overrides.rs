//! Overrides of a preset's parameters: the one wiring of the knobs `knightnet solve`
//! takes as flags (`--variant`, `--c`, ... `--max-attempts`) and the Python package as
//! keyword arguments (`Network(board, preset, **overrides)`).
//!
//! ```
//! use knightnet::network::{Overrides, OverrideValue, Preset, UpdateOrder};
//!
//! let mut o = Overrides { c: Some(3), ..Overrides::default() };
//! o.set("order", OverrideValue::Name("synchronous")).unwrap();
//! let p = o.apply(Preset::Parberry.params()).unwrap();
//! assert_eq!((p.c, p.s, p.order), (3, 2, UpdateOrder::Synchronous));
//! assert_eq!(p.variant(), "parberry --c 3 --order synchronous");
//! ```

use std::fmt;
use std::str::FromStr;

use super::params::{Init, NetworkParams, Preset, StopRule, UpdateOrder};
use crate::error::InputError;

/// A clamp of U: `Clamp(Some(k))` keeps U within ±k, `Clamp(None)` (`none`) removes
/// the preset's clamp. Parsed from `none` or a whole number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clamp(pub Option<i32>);

impl FromStr for Clamp {
    type Err = InputError;
    fn from_str(s: &str) -> Result<Clamp, InputError> {
        match s.trim() {
            "none" => Ok(Clamp(None)),
            k => k.parse().map(|k| Clamp(Some(k))).map_err(|_| {
                InputError::param(format!(
                    "clamp '{k}' is malformed; give a positive whole number or 'none'"
                ))
            }),
        }
    }
}

impl fmt::Display for Clamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(k) => write!(f, "{k}"),
            None => f.write_str("none"),
        }
    }
}

/// A preset (else the caller's base parameters) and the fields to change in it. Each
/// field left `None` keeps the base's value; [`Overrides::apply`] checks the result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Overrides {
    /// The preset that replaces the base, if any.
    pub preset: Option<Preset>,
    /// The bias C ([`NetworkParams::c`]).
    pub c: Option<i32>,
    /// The self-coupling S ([`NetworkParams::s`]).
    pub s: Option<i32>,
    /// V turns on when U > upper ([`NetworkParams::upper`]).
    pub upper: Option<i32>,
    /// V turns off when U < lower ([`NetworkParams::lower`]).
    pub lower: Option<i32>,
    /// The update order ([`NetworkParams::order`]).
    pub order: Option<UpdateOrder>,
    /// How an attempt's initial state is drawn ([`NetworkParams::init`]).
    pub init: Option<Init>,
    /// The clamp of U; `Clamp(None)` removes the preset's ([`NetworkParams::clamp`]).
    pub clamp: Option<Clamp>,
    /// When an attempt counts as settled ([`NetworkParams::stop`]).
    pub stop: Option<StopRule>,
    /// Steps or sweeps per attempt ([`NetworkParams::max_iterations`]).
    pub max_iterations: Option<u32>,
    /// Attempts per run ([`NetworkParams::max_attempts`]).
    pub max_attempts: Option<u32>,
}

/// A value given by name to [`Overrides::set`] (from Python, a spec, a form).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum OverrideValue<'a> {
    /// A whole number.
    Int(i64),
    /// A name (an order, an initialisation, a stop rule, a clamp's `none`).
    Name(&'a str),
}

impl Overrides {
    /// The names [`Overrides::set`] takes, one per field after the preset (as in
    /// `run.json`).
    pub const KEYS: [&'static str; 10] = [
        "c",
        "s",
        "upper",
        "lower",
        "order",
        "init",
        "clamp",
        "stop",
        "max_iterations",
        "max_attempts",
    ];

    /// Whether a preset or any override was given.
    pub fn any(&self) -> bool {
        *self != Overrides::default()
    }

    /// Set the field `key` (one of [`Overrides::KEYS`]) from a whole number or a name:
    /// thresholds, C and S take a number in `i32`, the counts one in `u32`, `order`,
    /// `init` and `stop` a name, `clamp` a number or `none`.
    pub fn set(&mut self, key: &str, value: OverrideValue<'_>) -> Result<(), InputError> {
        let int = |min: i64, max: i64| match value {
            OverrideValue::Int(v) if (min..=max).contains(&v) => Ok(v),
            OverrideValue::Int(v) => Err(InputError::param(format!(
                "{key} = {v} is out of range; give {min} to {max}"
            ))),
            OverrideValue::Name(s) => Err(InputError::param(format!(
                "{key} = '{s}' is not a whole number"
            ))),
        };
        let name = || match value {
            OverrideValue::Name(s) => Ok(s),
            OverrideValue::Int(v) => Err(InputError::param(format!(
                "{key} = {v} is not accepted; give a name"
            ))),
        };
        let i32s = || int(i32::MIN.into(), i32::MAX.into()).map(|v| v as i32);
        let u32s = || int(0, u32::MAX.into()).map(|v| v as u32);
        match key {
            "c" => self.c = Some(i32s()?),
            "s" => self.s = Some(i32s()?),
            "upper" => self.upper = Some(i32s()?),
            "lower" => self.lower = Some(i32s()?),
            "order" => self.order = Some(name()?.parse()?),
            "init" => self.init = Some(name()?.parse()?),
            "stop" => self.stop = Some(name()?.parse()?),
            "clamp" => {
                self.clamp = Some(match value {
                    OverrideValue::Name(s) => s.parse()?,
                    OverrideValue::Int(_) => Clamp(Some(i32s()?)),
                })
            }
            "max_iterations" => self.max_iterations = Some(u32s()?),
            "max_attempts" => self.max_attempts = Some(u32s()?),
            _ => {
                return Err(InputError::unknown(
                    "network parameter",
                    key,
                    std::iter::once("preset").chain(Overrides::KEYS.iter().copied()),
                ));
            }
        }
        Ok(())
    }

    /// The overrides that turn `base` into `p`: every field in which they differ (the
    /// preset left `None`), so that `between(base, p).apply(base) == p` for checked `p`
    /// with the same rule.
    pub fn between(base: &NetworkParams, p: &NetworkParams) -> Overrides {
        fn differs<T: PartialEq + Copy>(base: T, p: T) -> Option<T> {
            (base != p).then_some(p)
        }
        Overrides {
            preset: None,
            c: differs(base.c, p.c),
            s: differs(base.s, p.s),
            upper: differs(base.upper, p.upper),
            lower: differs(base.lower, p.lower),
            order: differs(base.order, p.order),
            init: differs(base.init, p.init),
            clamp: differs(base.clamp, p.clamp).map(Clamp),
            stop: differs(base.stop, p.stop),
            max_iterations: differs(base.max_iterations, p.max_iterations),
            max_attempts: differs(base.max_attempts, p.max_attempts),
        }
    }

    /// The fields set, as `(key, value)` in [`Overrides::KEYS`] order, each value written
    /// as [`Overrides::set`] reads it (the preset aside).
    pub fn fields(&self) -> Vec<(&'static str, String)> {
        fn text<T: fmt::Display>(v: Option<T>) -> Option<String> {
            v.map(|v| v.to_string())
        }
        let o = *self;
        let values: [Option<String>; 10] = [
            text(o.c),
            text(o.s),
            text(o.upper),
            text(o.lower),
            text(o.order),
            text(o.init),
            text(o.clamp),
            text(o.stop),
            text(o.max_iterations),
            text(o.max_attempts),
        ];
        Overrides::KEYS
            .into_iter()
            .zip(values)
            .filter_map(|(k, v)| v.map(|v| (k, v)))
            .collect()
    }

    /// The `variant` syntax: `preset`'s name, then ` --KEY VALUE` for each field set but
    /// the attempt cap, in [`Overrides::KEYS`] order, each key as a `knightnet solve`
    /// flag (`max_iterations` as `--max-iterations`) and each value as
    /// [`Overrides::set`] reads it: `brant --c 3 --order square-sweep --clamp none`.
    /// `knightnet solve --variant` followed by it (unquoted) runs the configuration, and
    /// experiment records store it in their `variant` column; it is written here only
    /// ([`NetworkParams::variant`]), so stored names stay readable.
    pub fn variant_text(&self, preset: Preset) -> String {
        let mut text = preset.name().to_string();
        for (key, value) in self.fields() {
            if key != "max_attempts" {
                text += &format!(" --{} {value}", key.replace('_', "-"));
            }
        }
        text
    }

    /// The preset's parameters (else `base`) with the overrides applied, checked by
    /// [`NetworkParams::check`].
    pub fn apply(&self, base: NetworkParams) -> Result<NetworkParams, InputError> {
        let mut p = self.preset.map_or(base, Preset::params);
        let o = *self;
        p.c = o.c.unwrap_or(p.c);
        p.s = o.s.unwrap_or(p.s);
        p.upper = o.upper.unwrap_or(p.upper);
        p.lower = o.lower.unwrap_or(p.lower);
        p.order = o.order.unwrap_or(p.order);
        p.init = o.init.unwrap_or(p.init);
        p.clamp = o.clamp.map_or(p.clamp, |Clamp(k)| k);
        p.stop = o.stop.unwrap_or(p.stop);
        p.max_iterations = o.max_iterations.unwrap_or(p.max_iterations);
        p.max_attempts = o.max_attempts.unwrap_or(p.max_attempts);
        p.check()?;
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_override_keeps_the_base() {
        let base = Preset::Brant.params();
        assert!(!Overrides::default().any());
        assert_eq!(Overrides::default().apply(base).unwrap(), base);
    }

    #[test]
    fn the_preset_replaces_the_base_and_fields_replace_the_preset() {
        let o = Overrides {
            preset: Some(Preset::Numpy),
            s: Some(0),
            clamp: Some(Clamp(Some(12))),
            ..Overrides::default()
        };
        assert!(o.any());
        let p = o.apply(Preset::Brant.params()).unwrap();
        let numpy = Preset::Numpy.params();
        assert_eq!((p.c, p.s, p.clamp), (numpy.c, 0, Some(12)));
        assert_eq!(p.order, numpy.order);
        // `none` removes the preset's clamp.
        let o = Overrides {
            clamp: Some("none".parse().unwrap()),
            ..Overrides::default()
        };
        assert_eq!(o.apply(Preset::Brant.params()).unwrap().clamp, None);
    }

    #[test]
    fn set_takes_each_key_and_refuses_wrong_kinds() {
        let mut o = Overrides::default();
        o.set("max_attempts", OverrideValue::Int(7)).unwrap();
        o.set("stop", OverrideValue::Name("either")).unwrap();
        o.set("clamp", OverrideValue::Int(9)).unwrap();
        assert_eq!(o.max_attempts, Some(7));
        assert_eq!(o.stop, Some(StopRule::Either));
        assert_eq!(o.clamp, Some(Clamp(Some(9))));
        let err = |k: &str, v| {
            let mut copy = o;
            copy.set(k, v).unwrap_err().to_string()
        };
        assert!(err("c", OverrideValue::Int(1 << 40)).contains("out of range"));
        assert!(err("c", OverrideValue::Name("x")).contains("not a whole number"));
        assert!(err("order", OverrideValue::Int(1)).contains("give a name"));
        assert!(err("order", OverrideValue::Name("x")).contains("update order 'x'"));
        assert!(err("clamp", OverrideValue::Name("x")).contains("clamp 'x' is malformed"));
        assert!(err("temperature", OverrideValue::Int(1)).contains("max_attempts"));
    }

    #[test]
    fn between_undoes_apply_and_the_variant_lists_the_flags() {
        let base = Preset::Brant.params();
        let o = Overrides {
            c: Some(3),
            order: Some(UpdateOrder::SquareSweep),
            clamp: Some(Clamp(None)),
            max_attempts: Some(4),
            ..Overrides::default()
        };
        let p = o.apply(base).unwrap();
        assert_eq!(Overrides::between(&base, &p), o);
        assert_eq!(p.variant(), "brant --c 3 --order square-sweep --clamp none");
        assert_eq!(base.variant(), "brant");
    }

    /// Read a variant back as `knightnet solve --variant` followed by it would: the
    /// preset, then `--KEY VALUE` pairs.
    fn read_variant(text: &str) -> NetworkParams {
        let mut words = text.split(' ');
        let mut o = Overrides {
            preset: Some(words.next().unwrap().parse().unwrap()),
            ..Overrides::default()
        };
        while let Some(flag) = words.next() {
            let key = flag.strip_prefix("--").unwrap().replace('-', "_");
            let value = words.next().unwrap();
            let value = match value.parse() {
                Ok(v) => OverrideValue::Int(v),
                Err(_) => OverrideValue::Name(value),
            };
            o.set(&key, value).unwrap();
        }
        o.apply(Preset::Parberry.params()).unwrap()
    }

    #[test]
    fn the_variant_replays_every_configuration_but_the_attempt_cap() {
        let changes = [
            Overrides::default(),
            Overrides {
                c: Some(-4),
                stop: Some(StopRule::Either),
                ..Overrides::default()
            },
            Overrides {
                s: Some(0),
                order: Some(UpdateOrder::SquareSweep),
                init: Some(Init::NegativeStates),
                clamp: Some(Clamp(Some(7))),
                max_iterations: Some(60),
                max_attempts: Some(3),
                ..Overrides::default()
            },
            Overrides {
                upper: Some(2),
                lower: Some(-2),
                clamp: Some(Clamp(None)),
                ..Overrides::default()
            },
        ];
        for preset in Preset::every() {
            for change in changes {
                let p = change.apply(preset.params()).unwrap();
                let back = read_variant(&p.variant());
                assert_eq!(
                    back,
                    NetworkParams {
                        max_attempts: preset.params().max_attempts,
                        ..p
                    },
                    "{}",
                    p.variant()
                );
                assert_eq!(back.variant(), p.variant());
            }
        }
    }

    #[test]
    fn apply_checks_the_result() {
        let o = Overrides {
            upper: Some(-1),
            ..Overrides::default()
        };
        let e = o.apply(Preset::Parberry.params()).unwrap_err();
        assert!(e.to_string().contains("below lower"), "{e}");
    }
}

//! The TOML layer of a spec: the file and its `[[solver]]` entries as written, with
//! spans for error lines, before any value is checked against the others (see
//! [`super::resolve`]).

use serde::{Deserialize, Deserializer};
use toml::Spanned;

use super::sweep::Setting;
use crate::network::{Init, NetworkParams, StopRule, UpdateOrder};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct SpecFile {
    pub(super) name: Option<Spanned<String>>,
    pub(super) description: Option<String>,
    pub(super) seed: Option<u64>,
    pub(super) trials: Option<Spanned<u64>>,
    pub(super) boards: Option<Vec<Spanned<String>>>,
    pub(super) reference: Option<Spanned<String>>,
    /// `"R,S"`, `[R, S]` or a leaper's name.
    pub(super) leaper: Option<Spanned<toml::Value>>,
    /// `plane`, `cylinder` or `torus`.
    pub(super) surface: Option<Spanned<String>>,
    /// A picture of the board: `.` a square, `#` a hole.
    pub(super) shape: Option<Spanned<String>>,
    /// A graph file's path, relative to the spec file.
    pub(super) graph: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) solver: Vec<Entry>,
}

/// The keys that name where tours are looked for beyond the knight on a whole plane
/// board, at the top of a spec or in an entry (an entry's value overrides the top's):
/// borrowed from either, key by key.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct GeometryKeys<'a> {
    pub(super) leaper: Option<&'a Spanned<toml::Value>>,
    pub(super) surface: Option<&'a Spanned<String>>,
    pub(super) shape: Option<&'a Spanned<String>>,
    pub(super) graph: Option<&'a Spanned<String>>,
}

impl SpecFile {
    /// The spec's top-level geometry keys.
    pub(super) fn geometry(&self) -> GeometryKeys<'_> {
        GeometryKeys {
            leaper: self.leaper.as_ref(),
            surface: self.surface.as_ref(),
            shape: self.shape.as_ref(),
            graph: self.graph.as_ref(),
        }
    }
}

impl Entry {
    /// The entry's geometry keys over the spec's `top` ones, key by key; an entry's
    /// `graph` replaces the top's board keys (`leaper`, `surface`, `shape`), and an
    /// entry's board key replaces the top's `graph`.
    pub(super) fn geometry<'a>(&'a self, top: GeometryKeys<'a>) -> GeometryKeys<'a> {
        let top = if self.graph.is_some() {
            GeometryKeys {
                graph: top.graph,
                ..GeometryKeys::default()
            }
        } else if self.leaper.is_some() || self.surface.is_some() || self.shape.is_some() {
            GeometryKeys { graph: None, ..top }
        } else {
            top
        };
        GeometryKeys {
            leaper: self.leaper.as_ref().or(top.leaper),
            surface: self.surface.as_ref().or(top.surface),
            shape: self.shape.as_ref().or(top.shape),
            graph: self.graph.as_ref().or(top.graph),
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Entry {
    pub(super) solver: Spanned<String>,
    pub(super) label: Option<Spanned<String>>,
    pub(super) trials: Option<Spanned<u64>>,
    pub(super) boards: Option<Vec<Spanned<String>>>,
    pub(super) c: Option<OneOrList<i32>>,
    pub(super) s: Option<OneOrList<i32>>,
    pub(super) upper: Option<OneOrList<i32>>,
    pub(super) lower: Option<OneOrList<i32>>,
    pub(super) order: Option<OneOrList<UpdateOrder>>,
    pub(super) init: Option<OneOrList<Init>>,
    pub(super) stop: Option<StopRule>,
    pub(super) clamp: Option<Clamp>,
    pub(super) max_iterations: Option<OneOrList<u32>>,
    pub(super) start: Option<Spanned<String>>,
    pub(super) closed: Option<bool>,
    pub(super) max_steps: Option<u64>,
    pub(super) restarts: Option<u32>,
    /// `network+merge` only: tile side, "none" or "auto".
    pub(super) tile: Option<Spanned<String>>,
    /// Network only: open tours on the open graph.
    pub(super) open: Option<bool>,
    /// `"R,S"`, `[R, S]` or a leaper's name.
    pub(super) leaper: Option<Spanned<toml::Value>>,
    /// `plane`, `cylinder` or `torus`.
    pub(super) surface: Option<Spanned<String>>,
    /// A picture of the board: `.` a square, `#` a hole.
    pub(super) shape: Option<Spanned<String>>,
    /// A graph file's path, relative to the spec file.
    pub(super) graph: Option<Spanned<String>>,
}

impl Entry {
    /// The network keys the entry gives, in the order of the spec format.
    pub(super) fn network_keys(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        macro_rules! given {
            ($($f:ident),*) => { $(if self.$f.is_some() { v.push(stringify!($f)); })* };
        }
        given!(c, s, upper, lower, order, init, stop, clamp, max_iterations);
        v
    }

    /// The parameters with the entry's single values applied (listed values are the
    /// sweep's: see [`Entry::axes`]).
    pub(super) fn apply(&self, mut p: NetworkParams) -> NetworkParams {
        macro_rules! set {
            ($($f:ident),*) => { $(if let Some(OneOrList::One(x)) = self.$f { p.$f = x; })* };
        }
        set!(c, s, upper, lower, order, init, max_iterations);
        if let Some(x) = self.stop {
            p.stop = x;
        }
        if let Some(Clamp(k)) = self.clamp {
            p.clamp = k;
        }
        p
    }

    /// The swept keys, in sweep order, each with its listed values.
    pub(super) fn axes(&self) -> Vec<Vec<Setting>> {
        let mut v = Vec::new();
        macro_rules! axis {
            ($($f:ident => $variant:ident),*) => {
                $(if let Some(OneOrList::List(xs)) = &self.$f {
                    v.push(xs.iter().map(|&x| Setting::$variant(x)).collect());
                })*
            };
        }
        axis!(c => C, s => S, upper => Upper, lower => Lower, order => Order, init => Init,
            max_iterations => MaxIterations);
        v
    }

    /// Cells the entry expands into: the product of its list lengths times its boards,
    /// saturating (so a huge product is refused, never computed in full).
    pub(super) fn cells(&self, boards: usize) -> usize {
        self.axes_lengths()
            .into_iter()
            .fold(boards, |acc, n| acc.saturating_mul(n))
    }

    /// The length of each listed key, without building the settings.
    fn axes_lengths(&self) -> Vec<usize> {
        let mut v = Vec::new();
        macro_rules! len {
            ($($f:ident),*) => { $(if let Some(OneOrList::List(xs)) = &self.$f { v.push(xs.len()); })* };
        }
        len!(c, s, upper, lower, order, init, max_iterations);
        v
    }
}

/// A network key given as one value or as a list of values to sweep.
#[derive(Debug, Clone)]
pub(super) enum OneOrList<T> {
    One(T),
    List(Vec<T>),
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OneOrList<T>, D::Error> {
        use serde::de::Error;
        match toml::Value::deserialize(d)? {
            toml::Value::Array(items) => {
                if items.is_empty() {
                    return Err(D::Error::custom(
                        "an empty list sweeps nothing; give one value or a list of values",
                    ));
                }
                items
                    .into_iter()
                    .map(|x| T::deserialize(x).map_err(D::Error::custom))
                    .collect::<Result<Vec<T>, _>>()
                    .map(OneOrList::List)
            }
            one => T::deserialize(one)
                .map(OneOrList::One)
                .map_err(D::Error::custom),
        }
    }
}

/// `clamp = 10` or `clamp = "none"`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clamp(Option<i32>);

impl<'de> Deserialize<'de> for Clamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Clamp, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Clamp;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a positive integer or \"none\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Clamp, E> {
                i32::try_from(v)
                    .map(|k| Clamp(Some(k)))
                    .map_err(|_| E::custom(format!("clamp {v} is out of range")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Clamp, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Clamp, E> {
                match v {
                    "none" => Ok(Clamp(None)),
                    _ => Err(E::custom(format!(
                        "clamp \"{v}\" is not accepted; give a positive integer or \"none\""
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

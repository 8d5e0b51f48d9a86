//! Sweeps: a network key given as a list (`c = [3, 4, 5]`) makes its entry expand into
//! one cell per combination of the listed values; [`Setting`] is one such value.

use crate::network::{Init, NetworkParams, UpdateOrder};

/// One value of a swept key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Setting {
    /// `c`: the bias C ([`NetworkParams::c`]).
    C(i32),
    /// `s`: the self-coupling S ([`NetworkParams::s`]).
    S(i32),
    /// `upper`: the threshold V turns on above ([`NetworkParams::upper`]).
    Upper(i32),
    /// `lower`: the threshold V turns off below ([`NetworkParams::lower`]).
    Lower(i32),
    /// `order`: the update order within a step ([`NetworkParams::order`]).
    Order(UpdateOrder),
    /// `init`: how an attempt's initial state is drawn ([`NetworkParams::init`]).
    Init(Init),
    /// `max_iterations`: steps or sweeps per attempt ([`NetworkParams::max_iterations`]).
    MaxIterations(u32),
}

impl Setting {
    /// The swept keys' values of `p`, in sweep order (c, s, upper, lower, order, init,
    /// max_iterations).
    pub fn all_of(p: &NetworkParams) -> [Setting; 7] {
        [
            Setting::C(p.c),
            Setting::S(p.s),
            Setting::Upper(p.upper),
            Setting::Lower(p.lower),
            Setting::Order(p.order),
            Setting::Init(p.init),
            Setting::MaxIterations(p.max_iterations),
        ]
    }

    /// The spec key.
    pub fn key(self) -> &'static str {
        match self {
            Setting::C(_) => "c",
            Setting::S(_) => "s",
            Setting::Upper(_) => "upper",
            Setting::Lower(_) => "lower",
            Setting::Order(_) => "order",
            Setting::Init(_) => "init",
            Setting::MaxIterations(_) => "max_iterations",
        }
    }

    /// The value as the spec writes it.
    pub fn value(self) -> String {
        match self {
            Setting::C(x) | Setting::S(x) | Setting::Upper(x) | Setting::Lower(x) => x.to_string(),
            Setting::Order(x) => x.to_string(),
            Setting::Init(x) => x.to_string(),
            Setting::MaxIterations(x) => x.to_string(),
        }
    }

    /// Set this value in `p`.
    pub fn apply(self, p: &mut NetworkParams) {
        match self {
            Setting::C(x) => p.c = x,
            Setting::S(x) => p.s = x,
            Setting::Upper(x) => p.upper = x,
            Setting::Lower(x) => p.lower = x,
            Setting::Order(x) => p.order = x,
            Setting::Init(x) => p.init = x,
            Setting::MaxIterations(x) => p.max_iterations = x,
        }
    }

    /// `key=value`, as it appears in a swept cell's label.
    pub fn label(self) -> String {
        format!("{}={}", self.key(), self.value())
    }
}

/// The `point`-th combination of the axes' values (mixed radix, the last axis fastest).
pub(super) fn sweep_point(axes: &[Vec<Setting>], mut point: usize) -> Vec<Setting> {
    let mut v: Vec<Setting> = axes
        .iter()
        .rev()
        .map(|a| {
            let s = a[point % a.len()];
            point /= a.len();
            s
        })
        .collect();
    v.reverse();
    v
}

//! The tie-breaks of Warnsdorff's rule: their names, parsing and whether a run depends on
//! the random stream (what each one does is in the parent module's documentation).

use std::fmt;
use std::str::FromStr;

use crate::error::InputError;

/// How ties between equally constrained moves are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// `first`: the first tied move in clockwise order.
    First,
    /// `random`: a uniformly random tied move, drawn from the seeded stream.
    Random,
    /// `pohl`: Pohl's second-level rule, then clockwise.
    Pohl,
    /// `squirrel-cull`: the move orderings and switch squares of Squirrel & Cull 1996.
    SquirrelCull,
    /// `roth` (the default): the tied move farthest from the board centre, then
    /// clockwise.
    Roth,
}

impl TieBreak {
    /// Every tie-break, the default first.
    pub const ALL: [TieBreak; 5] = [
        TieBreak::Roth,
        TieBreak::SquirrelCull,
        TieBreak::Pohl,
        TieBreak::First,
        TieBreak::Random,
    ];

    /// The tie-break's name, as the command line takes it (`roth`, `squirrel-cull`).
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::First => "first",
            TieBreak::Random => "random",
            TieBreak::Pohl => "pohl",
            TieBreak::SquirrelCull => "squirrel-cull",
            TieBreak::Roth => "roth",
        }
    }

    /// Whether a run depends on the random stream.
    pub(crate) fn is_random(self) -> bool {
        self == TieBreak::Random
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TieBreak {
    type Err = InputError;

    fn from_str(s: &str) -> Result<TieBreak, InputError> {
        let t = s.trim();
        TieBreak::ALL
            .into_iter()
            .find(|tb| tb.name() == t)
            .ok_or_else(|| InputError::unknown("tie-break", t, TieBreak::ALL.map(|t| t.name())))
    }
}

//! Why a solve or a trial ended: one enum for every solver and every record, printed and
//! parsed by the kebab-case names that JSON output and `records.csv` carry (`tour`,
//! `multiple-cycles`, `gave-up`, ...).
//!
//! The network's four endings are its [`Termination`]s without their data
//! ([`Outcome::from`] a termination); the classical solvers, `network+merge` and the
//! experiment runner add their own.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::network::Termination;

/// How a solve or a trial ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Outcome {
    /// A tour, validated by the oracle.
    Tour,
    /// Network: the stop rule fired on several disjoint cycles.
    MultipleCycles,
    /// Network: the stop rule fired with some square not at degree 2.
    StableNotDegreeTwo,
    /// Network: the iteration cap came first.
    IterationCap,
    /// Experiment: the solver claimed a tour the oracle rejects.
    InvalidTour,
    /// Experiment: a theorem says the cell's board has no such tour.
    Impossible,
    /// Experiment: the solver refused the cell (memory, size, its own abilities).
    Refused,
    /// Warnsdorff: the walk reached a square with no unvisited neighbour.
    Stuck,
    /// A closed tour was asked for; the solver found an open one only.
    NotClosed,
    /// Circuit: no tour found.
    NotFound,
    /// Search: every branch tried, no tour.
    Exhausted,
    /// Search over Warnsdorff's ties only: every tie tried, no tour.
    ExhaustedTies,
    /// Search: the step budget ran out.
    GaveUp,
    /// Divide and conquer: the blocks could not be joined.
    JoinFailed,
    /// Divide and conquer: the fallback search refuses a board this large.
    TooLargeForSearch,
    /// `network+merge`: the cycles could not be merged into one tour.
    MergeFailed,
    /// `network+merge`: a tile did not settle into a degree-2 cover.
    TileNotSettled,
}

impl Outcome {
    /// Every outcome, in a fixed order (`tour`, the network's endings, the rest).
    pub const ALL: [Outcome; 17] = [
        Outcome::Tour,
        Outcome::MultipleCycles,
        Outcome::StableNotDegreeTwo,
        Outcome::IterationCap,
        Outcome::InvalidTour,
        Outcome::Impossible,
        Outcome::Refused,
        Outcome::Stuck,
        Outcome::NotClosed,
        Outcome::NotFound,
        Outcome::Exhausted,
        Outcome::ExhaustedTies,
        Outcome::GaveUp,
        Outcome::JoinFailed,
        Outcome::TooLargeForSearch,
        Outcome::MergeFailed,
        Outcome::TileNotSettled,
    ];

    /// The kebab-case name, as in JSON and `records.csv`.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Tour => "tour",
            Outcome::MultipleCycles => "multiple-cycles",
            Outcome::StableNotDegreeTwo => "stable-not-degree-two",
            Outcome::IterationCap => "iteration-cap",
            Outcome::InvalidTour => "invalid-tour",
            Outcome::Impossible => "impossible",
            Outcome::Refused => "refused",
            Outcome::Stuck => "stuck",
            Outcome::NotClosed => "not-closed",
            Outcome::NotFound => "not-found",
            Outcome::Exhausted => "exhausted",
            Outcome::ExhaustedTies => "exhausted-ties",
            Outcome::GaveUp => "gave-up",
            Outcome::JoinFailed => "join-failed",
            Outcome::TooLargeForSearch => "too-large-for-search",
            Outcome::MergeFailed => "merge-failed",
            Outcome::TileNotSettled => "tile-not-settled",
        }
    }

    /// Whether this is a tour.
    pub fn is_tour(self) -> bool {
        self == Outcome::Tour
    }

    /// Whether one attempt of the network (a network cell's trial) can end this way:
    /// its four terminations, or a tour the oracle rejected.
    pub(crate) fn ends_network_attempt(self) -> bool {
        matches!(
            self,
            Outcome::Tour
                | Outcome::MultipleCycles
                | Outcome::StableNotDegreeTwo
                | Outcome::IterationCap
                | Outcome::InvalidTour
        )
    }
}

impl From<&Termination> for Outcome {
    fn from(t: &Termination) -> Outcome {
        match t {
            Termination::Tour => Outcome::Tour,
            Termination::MultipleCycles { .. } => Outcome::MultipleCycles,
            Termination::StableNotDegreeTwo { .. } => Outcome::StableNotDegreeTwo,
            Termination::IterationCap => Outcome::IterationCap,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An outcome name that is not one of [`Outcome::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("outcome '{0}' is not one knightnet records (accepted: {names})", names = names(&Outcome::ALL))]
pub struct UnknownOutcome(pub String);

/// The names of `outcomes`, comma-separated.
pub fn names(outcomes: &[Outcome]) -> String {
    outcomes
        .iter()
        .map(|o| o.name())
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Outcome {
    type Err = UnknownOutcome;
    fn from_str(s: &str) -> Result<Outcome, UnknownOutcome> {
        Outcome::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| UnknownOutcome(s.to_string()))
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for o in Outcome::ALL {
            assert_eq!(o.name().parse::<Outcome>(), Ok(o));
            assert_eq!(o.to_string(), o.name());
            assert!(seen.insert(o.name()), "{o} twice");
        }
        let err = "foo".parse::<Outcome>().unwrap_err().to_string();
        assert!(err.starts_with("outcome 'foo' is not one"), "{err}");
        assert!(err.contains("gave-up"), "{err}");
    }

    #[test]
    fn network_names_are_the_terminations() {
        for (name, t) in Termination::NAMES.iter().zip([
            Termination::Tour,
            Termination::MultipleCycles { lengths: vec![4] },
            Termination::StableNotDegreeTwo { squares_off: 1 },
            Termination::IterationCap,
        ]) {
            let o = Outcome::from(&t);
            assert_eq!(o.name(), *name);
            assert_eq!(o.name(), t.name());
            assert!(o.ends_network_attempt());
        }
        assert!(!Outcome::GaveUp.ends_network_attempt());
    }

    #[test]
    fn json_and_csv_carry_the_name() {
        assert_eq!(
            serde_json::to_string(&Outcome::TooLargeForSearch).unwrap(),
            "\"too-large-for-search\""
        );
        let back: Outcome = serde_json::from_str("\"exhausted-ties\"").unwrap();
        assert_eq!(back, Outcome::ExhaustedTies);
        assert!(serde_json::from_str::<Outcome>("\"bogus\"").is_err());
    }
}

//! A solver's name, typed: its [`SolverFamily`] (the network, the network followed by
//! cycle merging, or another solver by its name) and what follows the `:` (the network's
//! seed label, a tie-break). Solutions carry it, and records write it in their `solver`
//! column and read it back.

use serde::{Deserialize, Serialize};

/// Which solver family a [`SolverName`] names: the network, the network followed by
/// cycle merging, or another solver by its name (`warnsdorff`, `backtrack`, or any name
/// a records file from elsewhere gives).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SolverFamily {
    /// `network`: the Takefuji–Lee network.
    Network,
    /// `network+merge`: the network, then cycle merging.
    NetworkMerge,
    /// Any other solver, by its name (the text before `:`).
    Other(String),
}

impl SolverFamily {
    /// The family's name as the `solver` column writes it.
    pub fn name(&self) -> &str {
        match self {
            SolverFamily::Network => "network",
            SolverFamily::NetworkMerge => "network+merge",
            SolverFamily::Other(name) => name,
        }
    }

    /// The family named exactly `name` (no aliases: the text is kept as written).
    pub(crate) fn from_name(name: &str) -> SolverFamily {
        match name {
            "network" => SolverFamily::Network,
            "network+merge" => SolverFamily::NetworkMerge,
            other => SolverFamily::Other(other.to_string()),
        }
    }

    /// The network alone or followed by cycle merging.
    pub fn is_neural(&self) -> bool {
        matches!(self, SolverFamily::Network | SolverFamily::NetworkMerge)
    }
}

impl std::fmt::Display for SolverFamily {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Families order by name, as the text of the `solver` column sorts.
impl Ord for SolverFamily {
    fn cmp(&self, other: &SolverFamily) -> std::cmp::Ordering {
        self.name().cmp(other.name())
    }
}

impl PartialOrd for SolverFamily {
    fn partial_cmp(&self, other: &SolverFamily) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// The `solver` column of a record, typed: its [`SolverFamily`] and what follows the
/// first `:` (a network preset such as `parberry` or `parberry*`, a tie-break, ...).
/// Read once from the column's text and written back as the same text.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SolverName {
    family: SolverFamily,
    detail: Option<String>,
}

impl SolverName {
    /// A name from its family and the text after `:`, if any.
    pub fn new(family: SolverFamily, detail: Option<String>) -> SolverName {
        SolverName { family, detail }
    }

    /// The solver's family.
    pub fn family(&self) -> &SolverFamily {
        &self.family
    }

    /// What follows the `:` (`parberry` in `network:parberry`), if anything does.
    pub fn detail(&self) -> Option<&str> {
        self.detail.as_deref()
    }

    /// Whether the column was empty.
    pub fn is_empty(&self) -> bool {
        self.family.name().is_empty() && self.detail.is_none()
    }
}

impl std::str::FromStr for SolverName {
    type Err = std::convert::Infallible;

    /// Split at the first `:`; every text is a name (an empty one included), so that a
    /// records file's column is kept byte for byte.
    fn from_str(text: &str) -> Result<SolverName, Self::Err> {
        let (family, detail) = match text.split_once(':') {
            Some((f, d)) => (f, Some(d.to_string())),
            None => (text, None),
        };
        Ok(SolverName::new(SolverFamily::from_name(family), detail))
    }
}

impl std::fmt::Display for SolverName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.family.name())?;
        if let Some(d) = &self.detail {
            write!(f, ":{d}")?;
        }
        Ok(())
    }
}

impl Serialize for SolverName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for SolverName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SolverName, D::Error> {
        let text = String::deserialize(d)?;
        let Ok(name) = text.parse();
        Ok(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_names_are_typed_once_and_written_back_as_read() {
        for (text, family, detail) in [
            ("network:parberry", SolverFamily::Network, Some("parberry")),
            (
                "network:parberry*",
                SolverFamily::Network,
                Some("parberry*"),
            ),
            ("network", SolverFamily::Network, None),
            (
                "network+merge:brant",
                SolverFamily::NetworkMerge,
                Some("brant"),
            ),
            (
                "warnsdorff:roth",
                SolverFamily::Other("warnsdorff".into()),
                Some("roth"),
            ),
            (
                "divide-conquer",
                SolverFamily::Other("divide-conquer".into()),
                None,
            ),
            ("a:b:c", SolverFamily::Other("a".into()), Some("b:c")),
            ("", SolverFamily::Other(String::new()), None),
        ] {
            let Ok(name) = text.parse::<SolverName>();
            assert_eq!((name.family(), name.detail()), (&family, detail), "{text}");
            assert_eq!(name.to_string(), text);
        }
        assert!("".parse::<SolverName>().unwrap().is_empty());
        // Families sort as their names do.
        let mut v = ["warnsdorff", "network+merge", "backtrack", "network"]
            .map(SolverFamily::from_name)
            .to_vec();
        v.sort();
        assert_eq!(
            v.iter().map(SolverFamily::name).collect::<Vec<_>>(),
            ["backtrack", "network", "network+merge", "warnsdorff"]
        );
    }
}

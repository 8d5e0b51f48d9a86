//! Text for readers, written the same way by every report (`compare`, `growth`, an
//! experiment's `summary.md`): durations in a readable unit and Markdown tables.

/// A duration in nanoseconds in a readable unit (ns, µs, ms, s, min, h) with three
/// significant digits at most: `6.60 ms`, `12.3 µs`, `2.08 min`.
pub fn human_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else if ns < 60e9 {
        (ns / 1e9, "s")
    } else if ns < 3600e9 {
        (ns / 60e9, "min")
    } else {
        (ns / 3600e9, "h")
    };
    if v < 10.0 {
        format!("{v:.2} {unit}")
    } else if v < 100.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.0} {unit}")
    }
}

/// A duration in seconds, as [`human_ns`] writes it.
pub fn human_secs(secs: f64) -> String {
    human_ns(secs * 1e9)
}

/// What a table cell shows for a missing value.
pub(crate) const MISSING: &str = "–";

/// A table cell: `x` written by `f`, or `MISSING`.
pub fn cell<T>(x: Option<T>, f: impl FnOnce(T) -> String) -> String {
    x.map_or_else(|| MISSING.to_string(), f)
}

/// How a Markdown column is aligned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    Left,
    /// Numbers: `---:`.
    Right,
}

/// A Markdown table built row by row: `| a | b |` lines under a header and its rule.
#[derive(Debug, Clone)]
pub(crate) struct MarkdownTable {
    text: String,
    columns: usize,
}

impl MarkdownTable {
    /// A table with these column titles and alignments.
    pub fn new(columns: &[(&str, Align)]) -> MarkdownTable {
        let titles: Vec<&str> = columns.iter().map(|c| c.0).collect();
        let mut text = line(&titles);
        text.push('|');
        for (_, align) in columns {
            text += match align {
                Align::Left => "---|",
                Align::Right => "---:|",
            };
        }
        text.push('\n');
        MarkdownTable {
            text,
            columns: columns.len(),
        }
    }

    /// Append a row (as many cells as there are columns).
    pub fn row<S: AsRef<str>>(&mut self, cells: &[S]) {
        debug_assert_eq!(cells.len(), self.columns, "cells in a Markdown row");
        let cells: Vec<&str> = cells.iter().map(AsRef::as_ref).collect();
        self.text += &line(&cells);
    }

    /// The table's text, ending with a newline.
    pub fn finish(self) -> String {
        self.text
    }
}

fn line(cells: &[&str]) -> String {
    format!("| {} |\n", cells.join(" | "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_in_readable_units() {
        assert_eq!(human_ns(512.0), "512 ns");
        assert_eq!(human_ns(6.6e6), "6.60 ms");
        assert_eq!(human_ns(12.34e3), "12.3 µs");
        assert_eq!(human_ns(125.0e9), "2.08 min");
        assert_eq!(human_ns(7200e9), "2.00 h");
        assert_eq!(human_secs(1.0), "1.00 s");
        assert_eq!(human_secs(0.25), "250 ms");
    }

    #[test]
    fn missing_values_are_a_dash() {
        assert_eq!(cell(Some(2.5), |x| format!("{x:.1}")), "2.5");
        assert_eq!(cell(None::<f64>, |x| format!("{x:.1}")), "–");
    }

    #[test]
    fn table_has_header_rule_and_rows() {
        let mut t = MarkdownTable::new(&[("name", Align::Left), ("count", Align::Right)]);
        t.row(&["a", "1"]);
        t.row(&[String::from("b"), String::from("22")]);
        assert_eq!(
            t.finish(),
            "| name | count |\n|---|---:|\n| a | 1 |\n| b | 22 |\n"
        );
    }
}

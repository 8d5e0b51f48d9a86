//! The data behind a figure, written beside it as CSV (same name, `.csv`), so that the
//! figure can be redrawn elsewhere (pgfplots, R, a notebook). Every figure kind fills a
//! [`Table`]; measured numbers are written by [`num`] to [`SIGNIFICANT_DIGITS`]
//! significant digits (counts as integers), missing values as empty fields.

use std::path::{Path, PathBuf};

/// A header and rows of text fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    /// The column names.
    pub header: Vec<String>,
    /// The rows, each with one field per column.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names and no rows.
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Append a row; it must have as many fields as the header.
    pub fn push(&mut self, row: Vec<String>) {
        debug_assert_eq!(row.len(), self.header.len());
        self.rows.push(row);
    }

    /// Write the table to `path` (atomically, through `crate::io::write_atomic_with`).
    pub fn write(&self, path: &Path) -> Result<(), super::PlotError> {
        crate::io::write_atomic_with(path, &mut |out: &mut dyn std::io::Write| self.write_to(out))?;
        Ok(())
    }

    /// Write the table as CSV to `out` (the bytes [`Table::write`] puts in its file).
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(&self.header)?;
        for r in &self.rows {
            w.write_record(r)?;
        }
        w.flush()
    }
}

/// `path` with its extension replaced by `.csv`.
pub(crate) fn csv_path(path: &Path) -> PathBuf {
    path.with_extension("csv")
}

/// Significant digits of every measured number in a figure's CSV: enough for a share of
/// a million trials or a time to the microsecond's fraction, and no floating-point noise
/// (`0.0042648420000000005` is written `0.00426484`).
pub const SIGNIFICANT_DIGITS: usize = 6;

/// A number for a CSV field: rounded to [`SIGNIFICANT_DIGITS`] significant digits and
/// written in plain decimal notation without trailing zeros (`0.00000146352`, `33.86`,
/// `1234570`); `None` and non-finite values are written as an empty field.
pub fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            // Scientific notation with the digits kept, read back: the nearest double to
            // the rounded value, which prints as its shortest decimal form.
            let rounded: f64 = format!("{x:.*e}", SIGNIFICANT_DIGITS - 1)
                .parse()
                .unwrap_or(x);
            if rounded == 0.0 {
                "0".into()
            } else {
                format!("{rounded}")
            }
        }
        _ => String::new(),
    }
}

/// A whole-number quantity carried as `f64` (summed iterations or nanoseconds), written
/// exactly as an integer.
pub fn whole(v: f64) -> String {
    format!("{:.0}", v.round())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keep_six_significant_digits_and_no_noise() {
        assert_eq!(num(Some(0.0042648420000000005)), "0.00426484");
        assert_eq!(num(Some(0.0000014635200000000002)), "0.00000146352");
        assert_eq!(num(Some(0.007624340461552241)), "0.00762434");
        assert_eq!(num(Some(33.86)), "33.86");
        assert_eq!(num(Some(1.0)), "1");
        assert_eq!(num(Some(1234567.0)), "1234570");
        assert_eq!(num(Some(-0.25)), "-0.25");
        assert_eq!(num(Some(-1e-300 * 1e-300)), "0");
        assert_eq!(num(Some(f64::NAN)), "");
        assert_eq!(num(Some(f64::INFINITY)), "");
        assert_eq!(num(None), "");
        // Rounding keeps order: a lower end never prints above its point.
        let (lo, p) = (0.123456749, 0.123456751);
        assert!(num(Some(lo)).parse::<f64>().unwrap() <= num(Some(p)).parse::<f64>().unwrap());
        // Every field reads back within half a unit of the sixth digit.
        for x in [2676.0 / 20000.0, 9862.0 / 36236.0, 1e-9 / 3.0, 123456.789] {
            let back: f64 = num(Some(x)).parse().unwrap();
            assert!((back - x).abs() <= 5e-6 * x.abs(), "{x} -> {back}");
        }
        assert_eq!(whole(123456789.0), "123456789");
        assert_eq!(whole(4763244423.0), "4763244423");
    }
}

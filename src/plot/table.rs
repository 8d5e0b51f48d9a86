//! The data behind a figure, written beside it as CSV (same name, `.csv`), so that the
//! figure can be redrawn elsewhere (pgfplots, R, a notebook). Every figure kind fills a
//! [`Table`]; numbers are written with full precision, missing values as empty fields.

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
        crate::io::write_atomic_with(path, &mut |out: &mut dyn std::io::Write| {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(&self.header)?;
            for r in &self.rows {
                w.write_record(r)?;
            }
            w.flush()?;
            Ok(())
        })?;
        Ok(())
    }
}

/// `path` with its extension replaced by `.csv`.
pub(crate) fn csv_path(path: &Path) -> PathBuf {
    path.with_extension("csv")
}

/// A number for a CSV field: shortest round-trip form; `None` and non-finite values are
/// written as an empty field.
pub fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x}"),
        _ => String::new(),
    }
}

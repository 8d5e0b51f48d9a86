//! The data behind a figure, written beside it as CSV (same name, `.csv`), so that the
//! figure can be redrawn elsewhere (pgfplots, R, a notebook). Every figure kind fills a
//! [`Table`]; numbers are written with full precision, missing values as empty fields.

use std::path::{Path, PathBuf};

use anyhow::Context;

/// A header and rows of text fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
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

    /// Write the table to `path` (through a temporary file renamed into place).
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let tmp = super::temp_path(path);
        let result = (|| -> anyhow::Result<()> {
            let mut w = csv::Writer::from_path(&tmp)?;
            w.write_record(&self.header)?;
            for r in &self.rows {
                w.write_record(r)?;
            }
            w.flush()?;
            Ok(())
        })();
        match result {
            Ok(()) => super::finish(&tmp, path),
            Err(e) => {
                let _ = std::fs::remove_file(&tmp);
                Err(e).with_context(|| format!("cannot write {}", path.display()))
            }
        }
    }
}

/// `path` with its extension replaced by `.csv`.
pub fn csv_path(path: &Path) -> PathBuf {
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

//! Published tour rates to draw beside measured ones: a CSV with columns `n`, `trials`,
//! `success` (and optionally `failure`, `diverge`), one row per n x n board, as in
//! Parberry (1996), "Scalability of a neural network for the knight's tour problem",
//! Neurocomputing 12, 19–34, Table 1. [`load`] reads it ([`Param::Published`]).

use std::path::Path;

use super::csv_input::CsvInput;
use crate::board::Board;
use crate::error::{InputError, Param};

/// One published board: trials run and tours found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedRate {
    /// The board (`n` by `n`).
    pub board: Board,
    /// Trials run.
    pub trials: u64,
    /// Trials that found a tour.
    pub success: u64,
}

/// Published rates, with a name for the legend (the file's stem).
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    /// The legend's name: the file's stem.
    pub name: String,
    /// The rates, in file order.
    pub rates: Vec<PublishedRate>,
}

/// Read a published-rates CSV. Every error names the file, and the line and column.
pub fn load(path: &Path) -> Result<Published, InputError> {
    let file = CsvInput::read(
        Param::Published,
        path,
        "n,trials,success (failure, diverge optional)",
    )?;
    let (c_n, c_trials, c_success) = (
        file.column("n")?,
        file.column("trials")?,
        file.column("success")?,
    );
    let mut rates = Vec::new();
    for row in file.rows() {
        let n: u64 = row.number(c_n, "n")?;
        let (trials, success): (u64, u64) = (
            row.number(c_trials, "trials")?,
            row.number(c_success, "success")?,
        );
        if trials == 0 || success > trials {
            return Err(row.error(format!(
                "success {success} of {trials} trials; need 0 <= success <= trials, trials >= 1"
            )));
        }
        let board: Board = format!("{n}x{n}")
            .parse()
            .map_err(|e| row.error(format!("column 'n': {e}")))?;
        rates.push(PublishedRate {
            board,
            trials,
            success,
        });
    }
    let name = file.stem().unwrap_or_else(|| "published".into());
    Ok(Published { name, rates })
}

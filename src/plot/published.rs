//! Published tour rates to draw beside measured ones: a CSV with columns `n`, `trials`,
//! `success` (and optionally `failure`, `diverge`), one row per n x n board, as in
//! Parberry (1996), "Scalability of a neural network for the knight's tour problem",
//! Neurocomputing 12, 19–34, Table 1. `plot --published FILE` reads it.

use std::path::Path;

use crate::board::Board;
use crate::error::InputError;

/// One published board: trials run and tours found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PublishedRate {
    pub board: Board,
    pub trials: u64,
    pub success: u64,
}

/// Published rates, with a name for the legend (the file's stem).
#[derive(Debug, Clone, PartialEq)]
pub struct Published {
    pub name: String,
    pub rates: Vec<PublishedRate>,
}

fn err(path: &Path, msg: impl std::fmt::Display) -> InputError {
    InputError::File(format!("--published {}: {msg}", path.display()))
}

/// Read a published-rates CSV. Every error names the file, and the line and column.
pub fn load(path: &Path) -> Result<Published, InputError> {
    let text = std::fs::read_to_string(path).map_err(|e| err(path, format!("cannot read: {e}")))?;
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| err(path, format!("cannot read the header row: {e}")))?
        .clone();
    let col = |name: &str| {
        headers.iter().position(|h| h == name).ok_or_else(|| {
            err(
                path,
                format!("the column '{name}' is missing; expected columns n,trials,success (failure, diverge optional)"),
            )
        })
    };
    let (c_n, c_trials, c_success) = (col("n")?, col("trials")?, col("success")?);
    let mut rates = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let line = i + 2;
        let rec = rec.map_err(|e| err(path, format!("line {line}: {e}")))?;
        let number = |c: usize, name: &str| -> Result<u64, InputError> {
            let s = rec.get(c).unwrap_or("");
            s.parse::<u64>().map_err(|_| {
                err(
                    path,
                    format!("line {line}: column '{name}' has '{s}', expected a whole number"),
                )
            })
        };
        let n = number(c_n, "n")?;
        let (trials, success) = (number(c_trials, "trials")?, number(c_success, "success")?);
        if trials == 0 || success > trials {
            return Err(err(
                path,
                format!("line {line}: success {success} of {trials} trials; need 0 <= success <= trials, trials >= 1"),
            ));
        }
        let board: Board = format!("{n}x{n}")
            .parse()
            .map_err(|e| err(path, format!("line {line}: column 'n': {e}")))?;
        rates.push(PublishedRate {
            board,
            trials,
            success,
        });
    }
    if rates.is_empty() {
        return Err(err(path, "has a header but no rows"));
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "published".into());
    Ok(Published { name, rates })
}

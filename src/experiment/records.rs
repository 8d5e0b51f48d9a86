//! `records.csv`: one long-format row per trial, appended and flushed as each trial
//! finishes, never rewritten.
//!
//! Columns, in order (empty where a column does not apply):
//!
//! | column | meaning |
//! |---|---|
//! | `spec` | spec name |
//! | `cell` | cell index in the spec (rows sort by `cell`, then `trial`) |
//! | `label` | the solver entry's label |
//! | `board` | `ROWSxCOLS` |
//! | `solver` | solver name (`network:parberry`, `warnsdorff`, ...) |
//! | `variant` | network variant (`parberry`, `parberry*` when overridden) or tie-break |
//! | `trial` | trial number within the cell, from 0 |
//! | `seed` | the trial's ChaCha8 seed (see `seeds`) |
//! | `start` | start square (classical cells) |
//! | `outcome` | `tour`, a network termination name, or the solver's failure name |
//! | `iterations` | network sweeps/steps of the attempt; solver iterations otherwise |
//! | `restarts` | restarts within the trial (0 for network trials: one trial = one attempt) |
//! | `cycles` | network: cycles of the final output when it is a degree-2 cover |
//! | `largest_cycle` | network: squares in the longest of those cycles |
//! | `steps` | search steps (classical solvers that count them) |
//! | `time_ns` | wall time of the trial on its thread (network trials run in lanes: the trial's share of its batch's time, each step split evenly among the busy lanes) |
//!
//! Only columns whose names end in `_ns` may differ between reruns of the same spec.
//! Rows arrive in finishing order; readers sort by (`cell`, `trial`).
//!
//! A crash or kill can leave a half-written last line; [`read`] ignores it and reports
//! its length, and [`repair`] cuts it off before a resumed run appends.

use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::error::InputError;

/// The column names, in file order.
pub const COLUMNS: [&str; 20] = [
    "spec",
    "cell",
    "label",
    "board",
    "solver",
    "variant",
    "trial",
    "seed",
    "start",
    "outcome",
    "iterations",
    "restarts",
    "cycles",
    "largest_cycle",
    "steps",
    "merged",
    "swaps",
    "time_ns",
    "network_ns",
    "merge_ns",
];

/// One trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub spec: String,
    pub cell: usize,
    pub label: String,
    pub board: String,
    pub solver: String,
    pub variant: String,
    pub trial: u64,
    pub seed: u64,
    pub start: Option<String>,
    pub outcome: String,
    pub iterations: u64,
    pub restarts: u64,
    pub cycles: Option<u64>,
    pub largest_cycle: Option<u64>,
    pub steps: Option<u64>,
    /// network+merge: whether the tour came from merging several cycles.
    pub merged: Option<bool>,
    /// network+merge: swaps that joined cycles.
    pub swaps: Option<u64>,
    pub time_ns: u64,
    /// network+merge: time in the network.
    pub network_ns: Option<u64>,
    /// network+merge: time in merging.
    pub merge_ns: Option<u64>,
}

impl Record {
    /// The record with its timing columns zeroed (for comparing reruns).
    pub fn without_timing(&self) -> Record {
        Record {
            time_ns: 0,
            network_ns: self.network_ns.map(|_| 0),
            merge_ns: self.merge_ns.map(|_| 0),
            ..self.clone()
        }
    }
}

/// Sort records by (cell, trial).
pub fn sort(records: &mut [Record]) {
    records.sort_by_key(|r| (r.cell, r.trial));
}

/// Appends records to a file, flushing after every row.
pub struct Writer {
    inner: csv::Writer<File>,
}

impl Writer {
    /// Open `path` for appending; write the header when the file is new or empty.
    pub fn append(path: &Path) -> Result<Writer> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let empty = file.metadata()?.len() == 0;
        let mut inner = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(file);
        if empty {
            inner.write_record(COLUMNS)?;
            inner.flush()?;
        }
        Ok(Writer { inner })
    }

    /// Write one row and flush it to the file.
    pub fn write(&mut self, r: &Record) -> Result<()> {
        self.inner.serialize(r)?;
        self.inner.flush()?;
        Ok(())
    }
}

/// Write `records` (already sorted) as a complete file, atomically.
pub fn write_all(path: &Path, records: &[Record]) -> Result<()> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    w.write_record(COLUMNS)?;
    for r in records {
        w.serialize(r)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    crate::cli::write_atomic(path, &bytes)
}

/// What [`read`] found.
#[derive(Debug, Clone)]
pub struct Contents {
    pub records: Vec<Record>,
    /// Length of the complete lines (the file is valid up to here).
    pub valid_len: u64,
    /// Bytes of a half-written last line that were ignored (0 if none).
    pub truncated: u64,
}

/// Read a records file, ignoring a half-written last line. A bad header or a bad row
/// before the last line is an error naming the file and line.
pub fn read(path: &Path) -> Result<Contents> {
    let mut bytes = Vec::new();
    File::open(path)
        .with_context(|| format!("cannot open {}", path.display()))?
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let valid_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let truncated = (bytes.len() - valid_len) as u64;
    let body = &bytes[..valid_len];
    let mut records = Vec::new();
    if body.is_empty() {
        return Ok(Contents {
            records,
            valid_len: 0,
            truncated,
        });
    }
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_reader(body);
    let header = rdr.headers()?.clone();
    if header.iter().ne(COLUMNS) {
        return Err(InputError::File(format!(
            "{} does not look like a knightnet records file: its header is '{}', expected '{}'",
            path.display(),
            header.iter().collect::<Vec<_>>().join(","),
            COLUMNS.join(",")
        ))
        .into());
    }
    for (i, row) in rdr.deserialize::<Record>().enumerate() {
        let r = row.map_err(|e| {
            InputError::File(format!(
                "{}, line {}: bad record: {e}",
                path.display(),
                i + 2
            ))
        })?;
        records.push(r);
    }
    Ok(Contents {
        records,
        valid_len: valid_len as u64,
        truncated,
    })
}

/// Cut a half-written last line off a records file so appending can continue.
pub fn repair(path: &Path, contents: &Contents) -> Result<()> {
    if contents.truncated > 0 {
        let f = OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        f.set_len(contents.valid_len)?;
        f.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn rec(cell: usize, trial: u64) -> Record {
        Record {
            spec: "t".into(),
            cell,
            label: "parberry".into(),
            board: "6x6".into(),
            solver: "network:parberry".into(),
            variant: "parberry".into(),
            trial,
            seed: 42,
            start: None,
            outcome: "tour".into(),
            iterations: 17,
            restarts: 0,
            cycles: Some(1),
            largest_cycle: Some(36),
            steps: None,
            merged: None,
            swaps: None,
            time_ns: 1000,
            network_ns: None,
            merge_ns: None,
        }
    }

    #[test]
    fn round_trip_and_truncated_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.csv");
        let mut w = Writer::append(&path).unwrap();
        w.write(&rec(0, 0)).unwrap();
        w.write(&rec(1, 3)).unwrap();
        drop(w);
        let c = read(&path).unwrap();
        assert_eq!(c.records, vec![rec(0, 0), rec(1, 3)]);
        assert_eq!(c.truncated, 0);
        // A half-written line is ignored, then cut off; appending continues cleanly.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"t,2,parb").unwrap();
        drop(f);
        let c = read(&path).unwrap();
        assert_eq!(c.records.len(), 2);
        assert_eq!(c.truncated, 8);
        repair(&path, &c).unwrap();
        let mut w = Writer::append(&path).unwrap();
        w.write(&rec(2, 0)).unwrap();
        drop(w);
        assert_eq!(read(&path).unwrap().records.len(), 3);
    }
}

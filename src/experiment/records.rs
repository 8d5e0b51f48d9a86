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
//! | `variant` | network and `network+merge` cells: the preset, then the `solve` flags of the parameters that differ from it (`parberry --order square-sweep`); classical cells: the tie-break |
//! | `trial` | trial number within the cell, from 0 |
//! | `seed` | the trial's ChaCha8 seed (see `seeds`) |
//! | `start` | start square (classical cells) |
//! | `outcome` | `tour`, a network termination name, or the solver's failure name ([`Outcome`]) |
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

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::InputError;
use crate::io::{complete_len, cut_to, write_atomic, write_atomic_with, Appender};
use crate::solvers::Outcome;

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
    /// Written as `ROWSxCOLS`.
    #[serde(with = "board_text")]
    pub board: Board,
    /// The cell's solver name ([`super::Cell::solver_name`]): a name, not a
    /// [`crate::solvers::SolverKind`] (`network:parberry*` stands for parameters the
    /// name does not carry; they are in `run.json`).
    pub solver: String,
    pub variant: String,
    pub trial: u64,
    pub seed: u64,
    pub start: Option<String>,
    pub outcome: Outcome,
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

/// A board in a records column: `ROWSxCOLS`, read back with [`Board`]'s parser (a row
/// whose board does not parse is refused naming its line).
mod board_text {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use crate::board::Board;

    pub fn serialize<S: Serializer>(board: &Board, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(board)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Board, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// Sort records by (cell, trial).
pub fn sort(records: &mut [Record]) {
    records.sort_by_key(|r| (r.cell, r.trial));
}

/// CSV bytes of `records` (and the header first when `header`).
fn csv_bytes<'a>(header: bool, records: impl IntoIterator<Item = &'a Record>) -> Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    if header {
        w.write_record(COLUMNS)?;
    }
    for r in records {
        w.serialize(r)?;
    }
    w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
}

/// Appends records to a file, one flushed write per row (see [`crate::io::Appender`]).
pub struct Writer {
    inner: Appender,
}

impl Writer {
    /// Open `path` for appending; write the header when the file is new or empty.
    pub fn append(path: &Path) -> Result<Writer> {
        let (mut inner, len) = Appender::open(path)?;
        if len == 0 {
            inner.append(&csv_bytes(true, [])?)?;
        }
        Ok(Writer { inner })
    }

    /// Write one row and flush it to the file.
    pub fn write(&mut self, r: &Record) -> Result<()> {
        self.inner.append(&csv_bytes(false, [r])?)
    }
}

/// Write `records` (already sorted) as a complete file, atomically.
pub fn write_all(path: &Path, records: &[Record]) -> Result<()> {
    write_atomic(path, &csv_bytes(true, records)?)
}

/// Write a records file atomically from rows of other records files, without holding
/// them in memory: `rows` gives, in output order, which of `files` holds the row and the
/// byte offset where its line starts (as [`scan`] reported it). The lines are copied as
/// they are, after the header.
pub fn copy_rows(
    path: &Path,
    files: &[std::path::PathBuf],
    mut rows: impl Iterator<Item = (usize, u64)>,
) -> Result<()> {
    use std::io::{BufRead, Seek, SeekFrom, Write};
    let mut open: Vec<Option<BufReader<File>>> = files.iter().map(|_| None).collect();
    write_atomic_with(path, &mut |w: &mut dyn Write| {
        w.write_all(&csv_bytes(true, [])?)?;
        let mut line = Vec::new();
        for (i, offset) in rows.by_ref() {
            let src = &files[i];
            let reader = match &mut open[i] {
                Some(r) => r,
                slot => slot.insert(BufReader::with_capacity(
                    4096,
                    File::open(src).with_context(|| format!("cannot open {}", src.display()))?,
                )),
            };
            line.clear();
            reader
                .seek(SeekFrom::Start(offset))
                .and_then(|_| reader.read_until(b'\n', &mut line))
                .with_context(|| format!("cannot read {}", src.display()))?;
            if line.last() != Some(&b'\n') {
                anyhow::bail!("{} changed while it was being merged", src.display());
            }
            w.write_all(&line)?;
        }
        Ok(())
    })
}

/// What [`scan`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scan {
    /// Complete rows read.
    pub rows: u64,
    /// Length of the complete lines (the file is valid up to here).
    pub valid_len: u64,
    /// Bytes of a half-written last line that were ignored (0 if none).
    pub truncated: u64,
}

/// Read a records file row by row without holding it in memory, handing each record, its
/// line number and the byte offset where its line starts to `each`; a half-written last line is ignored (and reported in the
/// result). A missing file, a bad header, a row that is not UTF-8 or does not parse is
/// bad input naming the file (and line); errors from `each` are passed on.
pub fn scan(path: &Path, mut each: impl FnMut(Record, u64, u64) -> Result<()>) -> Result<Scan> {
    let mut file = File::open(path).map_err(|e| -> anyhow::Error {
        if e.kind() == std::io::ErrorKind::NotFound {
            InputError::File(format!(
                "{} is missing; a results folder holds the records.csv its run wrote",
                path.display()
            ))
            .into()
        } else {
            anyhow::Error::new(e).context(format!("cannot open {}", path.display()))
        }
    })?;
    let (valid_len, total) =
        complete_len(&mut file).with_context(|| format!("cannot read {}", path.display()))?;
    let truncated = total - valid_len;
    let mut scan = Scan {
        rows: 0,
        valid_len,
        truncated,
    };
    if valid_len == 0 {
        return Ok(scan);
    }
    let bad = |line: u64, what: String| -> anyhow::Error {
        InputError::File(format!(
            "{}, line {line}: {what}; it is not a knightnet records file, or was edited",
            path.display()
        ))
        .into()
    };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(BufReader::new(file.take(valid_len)));
    let mut row = csv::ByteRecord::new();
    let header = csv::ByteRecord::from(COLUMNS.to_vec());
    let read_row = |rdr: &mut csv::Reader<_>, row: &mut csv::ByteRecord| {
        rdr.read_byte_record(row).map_err(|e| match e.kind() {
            csv::ErrorKind::Io(_) => {
                anyhow::Error::new(e).context(format!("cannot read {}", path.display()))
            }
            _ => bad(e.position().map_or(0, |p| p.line()), format!("{e}")),
        })
    };
    if !read_row(&mut rdr, &mut row)? {
        return Ok(scan);
    }
    if row != header {
        return Err(InputError::File(format!(
            "{} does not look like a knightnet records file: its header is '{}', expected '{}'",
            path.display(),
            String::from_utf8_lossy(&row.as_slice()[..row.as_slice().len().min(200)]),
            COLUMNS.join(",")
        ))
        .into());
    }
    while read_row(&mut rdr, &mut row)? {
        let (line, byte) = row.position().map_or((0, 0), |p| (p.line(), p.byte()));
        let r: Record = row
            .deserialize(Some(&header))
            .map_err(|e| bad(line, format!("bad record: {e}")))?;
        scan.rows += 1;
        each(r, line, byte)?;
    }
    Ok(scan)
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

/// Read a whole records file into memory (see [`scan`] for the rules).
pub fn read(path: &Path) -> Result<Contents> {
    let mut records = Vec::new();
    let s = scan(path, |r, _, _| {
        records.push(r);
        Ok(())
    })?;
    Ok(Contents {
        records,
        valid_len: s.valid_len,
        truncated: s.truncated,
    })
}

/// Cut a half-written last line off a records file so appending can continue.
pub fn repair(path: &Path, scan: &Scan) -> Result<()> {
    if scan.truncated > 0 {
        cut_to(path, scan.valid_len)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::io::Write;

    fn rec(cell: usize, trial: u64) -> Record {
        Record {
            spec: "t".into(),
            cell,
            label: "parberry".into(),
            board: "6x6".parse().unwrap(),
            solver: "network:parberry".into(),
            variant: "parberry".into(),
            trial,
            seed: 42,
            start: None,
            outcome: Outcome::Tour,
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
        let s = scan(&path, |_, _, _| Ok(())).unwrap();
        assert_eq!((s.rows, s.truncated), (2, 8));
        repair(&path, &s).unwrap();
        let mut w = Writer::append(&path).unwrap();
        w.write(&rec(2, 0)).unwrap();
        drop(w);
        assert_eq!(read(&path).unwrap().records.len(), 3);
    }

    #[test]
    fn the_board_column_is_a_board() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.csv");
        write_all(&path, &[rec(0, 0)]).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("t,0,parberry,6x6,"));
        std::fs::write(&path, text.replace(",6x6,", ",6by6,")).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("6by6"), "{e}");
    }
}

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
//! A spec with a cell beyond the knight on a whole plane board (spec keys `leaper`,
//! `surface`, `shape`, `graph`) writes four more columns, [`GEOMETRY_COLUMNS`], after
//! those ([`columns`]); every other spec writes the columns above only, so files written
//! before these columns existed keep their bytes, and readers accept either header:
//!
//! | column | meaning |
//! |---|---|
//! | `leaper` | `R,S` (`1,2` for the knight; empty on a graph file) |
//! | `surface` | `plane`, `cylinder` or `torus` (empty on a graph file) |
//! | `shape` | a board with holes: its picture's rows joined by `/` (`..#/.../...`); empty on a whole board |
//! | `graph` | a graph file's name (its stem: `petersen`); empty on a board |
//!
//! On a graph file, `board` is `1xV` (V vertices, one square a vertex) and `start` is a
//! vertex number from 1; on a shape, `start` is the square's vertex number from 1 (the
//! squares that are not holes, row by row).
//!
//! Only columns whose names end in `_ns` may differ between reruns of the same spec.
//! Rows arrive in finishing order; readers sort by (`cell`, `trial`).
//!
//! A crash or kill can leave a half-written last line; [`read`] ignores it and reports
//! its length, and `repair` cuts it off before a resumed run appends. Only the last
//! line can be torn: bytes after the last LF that hold another line end (a file whose
//! lines end in CR) are refused, never cut off and recomputed.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Result;
use crate::board::Board;
use crate::error::{Error, InputError};
use crate::io::{
    Appender, complete_len, cut_to, environment, open_input, write_atomic, write_atomic_with,
};
use crate::solvers::Outcome;
use crate::solvers::SolverName;

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

/// The columns a spec beyond the knight adds after [`COLUMNS`] (module doc).
pub const GEOMETRY_COLUMNS: [&str; 4] = ["leaper", "surface", "shape", "graph"];

/// The header of a records file: [`COLUMNS`], followed by [`GEOMETRY_COLUMNS`] when
/// `geometry` (a spec with a cell beyond the knight on a whole plane board).
pub fn columns(geometry: bool) -> Vec<&'static str> {
    let mut v = COLUMNS.to_vec();
    if geometry {
        v.extend(GEOMETRY_COLUMNS);
    }
    v
}

/// A text column of the geometry columns: absent from the file (its header has only
/// [`COLUMNS`]), present but empty, or a value. Written as nothing, an empty field or
/// the value; an empty field reads back as [`Column::Empty`], so a file reads and
/// writes back byte for byte.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Column {
    /// The file has no such column.
    #[default]
    Absent,
    /// The column is there and empty.
    Empty,
    /// The column's value.
    Text(String),
}

impl Column {
    /// The column holding `value` (empty for `None`).
    pub fn of(value: Option<String>) -> Column {
        value.map_or(Column::Empty, Column::Text)
    }

    /// Whether the file has no such column (then the writer writes none).
    pub fn is_absent(&self) -> bool {
        matches!(self, Column::Absent)
    }

    /// The value, if the column holds one.
    pub fn text(&self) -> Option<&str> {
        match self {
            Column::Text(t) => Some(t),
            _ => None,
        }
    }
}

impl Serialize for Column {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.text().unwrap_or(""))
    }
}

impl<'de> Deserialize<'de> for Column {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Column, D::Error> {
        let t = String::deserialize(d)?;
        Ok(if t.is_empty() {
            Column::Empty
        } else {
            Column::Text(t)
        })
    }
}

/// One trial.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The spec's name.
    pub spec: String,
    /// The cell's index in the spec.
    pub cell: usize,
    /// The solver entry's label.
    pub label: String,
    /// Written as `ROWSxCOLS`.
    #[serde(with = "board_text")]
    pub board: Board,
    /// The cell's solver name (`super::Cell::solver_name`): a name, not a
    /// [`crate::solvers::SolverKind`] (`network:parberry*` stands for parameters the
    /// name does not carry; they are in `run.json`).
    pub solver: SolverName,
    /// Network cells: the preset and the parameters that differ from it, in the
    /// notation that replays the trial (module doc); classical cells: the tie-break.
    pub variant: String,
    /// The trial's number within its cell, from 0.
    pub trial: u64,
    /// The trial's ChaCha8 seed ([`crate::seeds`]).
    pub seed: u64,
    /// The start square, `ROW,COL` (classical cells and open tours from a square).
    pub start: Option<String>,
    /// How the trial ended.
    pub outcome: Outcome,
    /// Network: sweeps or steps of the attempt; other solvers: their iterations.
    pub iterations: u64,
    /// Restarts within the trial (0 for network trials: a trial is one attempt).
    pub restarts: u64,
    /// Network: cycles of the final output when it is a degree-2 cover.
    pub cycles: Option<u64>,
    /// Network: squares in the longest of those cycles.
    pub largest_cycle: Option<u64>,
    /// Search steps (classical solvers that count them).
    pub steps: Option<u64>,
    /// network+merge: whether the tour came from merging several cycles.
    pub merged: Option<bool>,
    /// network+merge: swaps that joined cycles.
    pub swaps: Option<u64>,
    /// Wall time of the trial on its thread, in nanoseconds (module doc).
    pub time_ns: u64,
    /// network+merge: time in the network.
    pub network_ns: Option<u64>,
    /// network+merge: time in merging.
    pub merge_ns: Option<u64>,
    /// The leaper (`None`: not written, or a graph file's row); a geometry column.
    #[serde(default, skip_serializing_if = "Column::is_absent")]
    pub leaper: Column,
    /// The surface; a geometry column.
    #[serde(default, skip_serializing_if = "Column::is_absent")]
    pub surface: Column,
    /// A board with holes, its picture's rows joined by `/`; a geometry column.
    #[serde(default, skip_serializing_if = "Column::is_absent")]
    pub shape: Column,
    /// A graph file's name; a geometry column.
    #[serde(default, skip_serializing_if = "Column::is_absent")]
    pub graph: Column,
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
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

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

/// CSV bytes of `records` (and the header first when `header`). Writing to memory
/// fails only if a record cannot be serialized: a bug ([`Error::Internal`]).
fn csv_bytes<'a>(
    header: Option<&[&str]>,
    records: impl IntoIterator<Item = &'a Record>,
) -> Result<Vec<u8>> {
    let internal = |e: &dyn std::fmt::Display| Error::Internal(format!("records as CSV: {e}"));
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::new());
    if let Some(header) = header {
        w.write_record(header).map_err(|e| internal(&e))?;
    }
    for r in records {
        w.serialize(r).map_err(|e| internal(&e))?;
    }
    w.into_inner().map_err(|e| internal(&e))
}

/// Appends records to a file, one flushed write per row (see [`crate::io::Appender`]).
pub(crate) struct Writer {
    inner: Appender,
}

impl Writer {
    /// Open `path` for appending; write the header ([`columns`]`(geometry)`) when the
    /// file is new or empty.
    pub fn append(path: &Path, geometry: bool) -> Result<Writer> {
        let (mut inner, len) = Appender::open(path)?;
        if len == 0 {
            inner.append(&csv_bytes(Some(&columns(geometry)), [])?)?;
        }
        Ok(Writer { inner })
    }

    /// Write one row and flush it to the file.
    pub fn write(&mut self, r: &Record) -> Result<()> {
        self.inner.append(&csv_bytes(None, [r])?)
    }
}

/// Write `records` (already sorted) as a complete file, atomically; with the geometry
/// columns when the records have them.
pub fn write_all(path: &Path, records: &[Record]) -> Result<()> {
    let geometry = records.iter().any(|r| !r.leaper.is_absent());
    write_atomic(path, &csv_bytes(Some(&columns(geometry)), records)?)
}

/// Write a records file atomically from rows of other records files, without holding
/// them in memory: `rows` gives, in output order, which of `files` holds the row and the
/// byte offset where its line starts (as [`scan`] reported it). The lines are copied as
/// they are, after the header.
pub(crate) fn copy_rows(
    path: &Path,
    geometry: bool,
    files: &[std::path::PathBuf],
    mut rows: impl Iterator<Item = (usize, u64)>,
) -> Result<()> {
    use std::io::{BufRead, Seek, SeekFrom, Write};
    let header = csv_bytes(Some(&columns(geometry)), [])?;
    let mut readers: Vec<Option<BufReader<File>>> = files.iter().map(|_| None).collect();
    // A source's failure, reported as itself rather than as a failed write of `path`.
    let mut source: Option<Error> = None;
    let written = write_atomic_with(path, &mut |w: &mut dyn Write| {
        w.write_all(&header)?;
        let mut line = Vec::new();
        for (i, offset) in rows.by_ref() {
            let src = &files[i];
            let mut failed = |e: Error| {
                source = Some(e);
                std::io::Error::other("a source records file failed")
            };
            let reader = match &mut readers[i] {
                Some(r) => r,
                slot => slot.insert(BufReader::with_capacity(
                    4096,
                    open(src).map_err(&mut failed)?,
                )),
            };
            line.clear();
            reader
                .seek(SeekFrom::Start(offset))
                .and_then(|_| reader.read_until(b'\n', &mut line))
                .map_err(|e| failed(environment("read", src, e)))?;
            if line.last() != Some(&b'\n') {
                return Err(failed(Error::Io {
                    action: "merge",
                    path: src.clone(),
                    source: std::io::Error::other("it changed while it was being merged"),
                }));
            }
            w.write_all(&line)?;
        }
        Ok(())
    });
    match source {
        Some(e) => Err(e),
        None => written,
    }
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
/// line number and the byte offset where its line starts to `each`; a half-written last
/// line is ignored (and reported in the result). A missing file or one that is not a
/// regular file (opened with [`open_input`]), bytes after the last line break that
/// cannot be a torn last line (lines that end in CR), a bad header, a row that is not
/// UTF-8 or does not parse are bad input naming the file (and line); errors from `each`
/// are passed on.
pub fn scan(path: &Path, mut each: impl FnMut(Record, u64, u64) -> Result<()>) -> Result<Scan> {
    let mut file = open(path)?;
    let (valid_len, total) = complete_len(&mut file).map_err(|e| environment("read", path, e))?;
    if total > valid_len {
        check_torn_tail(path, &mut file, valid_len, total)?;
    }
    let mut scan = Scan {
        rows: 0,
        valid_len,
        truncated: total - valid_len,
    };
    if valid_len > 0 {
        let input = BufReader::new(file.take(valid_len));
        scan.rows = rows(path, input, false, &mut each)?.0;
    }
    Ok(scan)
}

/// The columns every records file must have, for [`read_lenient`].
pub(crate) const REQUIRED: [&str; 3] = ["board", "solver", "outcome"];

/// What [`read_lenient`] found.
#[derive(Debug, Clone)]
pub struct Lenient {
    /// The rows, in file order.
    pub records: Vec<Record>,
    /// The file's columns, in its order.
    pub columns: Vec<String>,
    /// The column read as `time_ns`: `time_ns`, or else the first column ending in
    /// `_ns`; `None` without one.
    pub time_column: Option<String>,
    /// Bytes of a half-written last line that were ignored (0 if none).
    pub truncated: u64,
}

/// Read a records file that knightnet may not have written, such as a table assembled
/// by hand or another program: columns are found by name in any order, unknown ones are
/// ignored, and a missing column reads as empty (numbers as 0); only `REQUIRED` must
/// be there. Without `time_ns`, the first column ending in `_ns` is read as it. A last
/// line without its newline is half-written when it has fewer fields than the header
/// (ignored and reported), else kept. Rows are checked as [`scan`] checks them.
pub fn read_lenient(path: &Path) -> Result<Lenient> {
    let mut bytes = Vec::new();
    open(path)?
        .read_to_end(&mut bytes)
        .map_err(|e| environment("read", path, e))?;
    let mut valid = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let fields = |line: &[u8]| {
        csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(line)
            .byte_records()
            .next()
            .and_then(Result::ok)
            .map_or(0, |r| r.len())
    };
    let header_line = bytes.split(|&b| b == b'\n').next().unwrap_or(&[]);
    if valid == 0 || fields(&bytes[valid..]) == fields(header_line) {
        valid = bytes.len();
    }
    let mut records = Vec::new();
    let (_, columns) = rows(path, &bytes[..valid], true, &mut |r, _, _| {
        records.push(r);
        Ok(())
    })?;
    let time_column = columns
        .iter()
        .find(|c| *c == "time_ns")
        .or_else(|| columns.iter().find(|c| c.ends_with("_ns")))
        .cloned();
    Ok(Lenient {
        records,
        columns,
        time_column,
        truncated: (bytes.len() - valid) as u64,
    })
}

/// Open a records file for reading without blocking on it ([`open_input`]): a missing
/// one, a symbolic link to nothing, and anything but a regular file (a FIFO, a device, a
/// folder) are bad input naming the path; other failures (permissions) are the
/// environment's.
fn open(path: &Path) -> Result<File> {
    open_input(path).map_err(|e| {
        super::unopened(
            path,
            e,
            "a results folder holds the records.csv its run wrote, a regular file",
        )
    })
}

/// Check the bytes after the last line break of a records file (`valid_len` to `total`):
/// a run killed mid-write leaves at most one torn line there, so they must hold no other
/// line end (a file whose lines end in CR is refused, not read as one torn line and
/// recomputed), and in a file without a complete line they must be the start of the
/// header. Leaves `file` at its start.
fn check_torn_tail(path: &Path, file: &mut File, valid_len: u64, total: u64) -> Result<()> {
    use std::io::{Seek, SeekFrom};
    let cannot = |e| environment("read", path, e);
    file.seek(SeekFrom::Start(valid_len)).map_err(cannot)?;
    let headers = [columns(false).join(","), columns(true).join(",")];
    let mut block = vec![0u8; 64 * 1024];
    let mut at = valid_len;
    while at < total {
        let n = file.read(&mut block).map_err(cannot)?;
        if n == 0 {
            break;
        }
        let bytes = &block[..n];
        if bytes.contains(&b'\r') {
            return Err(InputError::File(format!(
                "{}: its lines end in CR, not LF; knightnet writes records.csv with LF line ends (convert it, e.g. tr '\\r' '\\n')",
                path.display()
            ))
            .into());
        }
        if valid_len == 0
            && at == 0
            && !headers.iter().any(|header| {
                let header = format!("{header}\n");
                header.as_bytes().starts_with(&bytes[..n.min(header.len())])
            })
        {
            return Err(InputError::File(format!(
                "{} has no complete line and does not start with the records header '{}'; it is not a knightnet records file",
                path.display(),
                headers[0]
            ))
            .into());
        }
        at += n as u64;
    }
    file.seek(SeekFrom::Start(0)).map_err(cannot)?;
    Ok(())
}

/// The columns of a numeric field that cannot be empty: a lenient read fills them with
/// 0 when the file lacks them.
const NUMBERS: [&str; 6] = ["cell", "trial", "seed", "iterations", "restarts", "time_ns"];

/// The one row reader: each complete row of `input` (a header line, then rows) as a
/// [`Record`] handed to `each` with its line number and byte offset. Strict: the header
/// must be [`COLUMNS`]. Lenient: see [`read_lenient`]. Returns the rows read and the
/// file's columns.
fn rows<R: Read>(
    path: &Path,
    input: R,
    lenient: bool,
    each: &mut dyn FnMut(Record, u64, u64) -> Result<()>,
) -> Result<(u64, Vec<String>)> {
    let bad = |line: u64, what: String| -> Error {
        InputError::RecordsLine {
            path: path.to_path_buf(),
            line,
            what,
        }
        .into()
    };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(input);
    let mut row = csv::ByteRecord::new();
    let read_row = |rdr: &mut csv::Reader<R>, row: &mut csv::ByteRecord| {
        rdr.read_byte_record(row).map_err(|e| {
            if !matches!(e.kind(), csv::ErrorKind::Io(_)) {
                return bad(e.position().map_or(0, |p| p.line()), format!("{e}"));
            }
            match e.into_kind() {
                csv::ErrorKind::Io(io) => environment("read", path, io),
                _ => unreachable!("an I/O error"),
            }
        })
    };
    if !read_row(&mut rdr, &mut row)? {
        return Ok((0, Vec::new()));
    }
    let columns: Vec<String> = row
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_string())
        .collect();
    let geometry = GEOMETRY_COLUMNS
        .iter()
        .all(|g| columns.iter().any(|c| c == g));
    let names = self::columns(geometry);
    let header = csv::ByteRecord::from(names.clone());
    // Lenient: where each of the columns is in the file.
    let mut from: Vec<Option<usize>> = Vec::new();
    if lenient {
        for name in REQUIRED {
            if !columns.iter().any(|c| c == name) {
                return Err(InputError::File(format!(
                    "{}: the required column '{name}' is missing (header: {}); records need {}",
                    path.display(),
                    columns.join(","),
                    REQUIRED.join(", ")
                ))
                .into());
            }
        }
        let at = |name: &str| columns.iter().position(|c| c == name);
        from = names
            .iter()
            .map(|&name| match (name, at(name)) {
                ("time_ns", None) => columns.iter().position(|c| c.ends_with("_ns")),
                (_, i) => i,
            })
            .collect();
    } else if row != header {
        return Err(InputError::File(format!(
            "{} does not look like a knightnet records file: its header is '{}', expected '{}'",
            path.display(),
            String::from_utf8_lossy(&row.as_slice()[..row.as_slice().len().min(200)]),
            COLUMNS.join(",")
        ))
        .into());
    }
    let mut n = 0;
    let mut mapped = csv::ByteRecord::new();
    while read_row(&mut rdr, &mut row)? {
        let (line, byte) = row.position().map_or((0, 0), |p| (p.line(), p.byte()));
        let fields = if lenient {
            mapped.clear();
            for (name, i) in names.iter().zip(&from) {
                let v = i.and_then(|i| row.get(i)).unwrap_or(b"").trim_ascii();
                let number = NUMBERS.contains(name);
                mapped.push_field(if v.is_empty() && number { b"0" } else { v });
            }
            &mapped
        } else {
            &row
        };
        let r: Record = fields
            .deserialize(Some(&header))
            .map_err(|e| bad(line, format!("bad record: {e}")))?;
        n += 1;
        each(r, line, byte)?;
    }
    Ok((n, columns))
}

/// What [`read`] found.
#[derive(Debug, Clone)]
pub struct Contents {
    /// The rows, in file order.
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
pub(crate) fn repair(path: &Path, scan: &Scan) -> Result<()> {
    if scan.truncated > 0 {
        cut_to(path, scan.valid_len)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::SolverFamily;
    use std::fs::OpenOptions;
    use std::io::Write;

    fn rec(cell: usize, trial: u64) -> Record {
        Record {
            spec: "t".into(),
            cell,
            label: "parberry".into(),
            board: "6x6".parse().unwrap(),
            solver: "network:parberry".parse().unwrap(),
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
            leaper: Column::Absent,
            surface: Column::Absent,
            shape: Column::Absent,
            graph: Column::Absent,
        }
    }

    #[test]
    fn round_trip_and_truncated_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.csv");
        let mut w = Writer::append(&path, false).unwrap();
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
        let mut w = Writer::append(&path, false).unwrap();
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
        assert!(
            text.lines()
                .nth(1)
                .unwrap()
                .starts_with("t,0,parberry,6x6,")
        );
        std::fs::write(&path, text.replace(",6x6,", ",6by6,")).unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("line 2") && e.contains("6by6"), "{e}");
    }

    #[test]
    fn the_lenient_mode_reads_a_knightnet_file_as_the_strict_one_and_others_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.csv");
        write_all(&path, &[rec(0, 0), rec(1, 3)]).unwrap();
        let strict = read(&path).unwrap().records;
        let lenient = read_lenient(&path).unwrap();
        assert_eq!(lenient.records, strict);
        assert_eq!(lenient.columns, COLUMNS);
        assert_eq!(lenient.time_column.as_deref(), Some("time_ns"));
        // Columns by name in any order, an unknown one ignored, missing ones empty or 0,
        // the first `_ns` column as the time; a complete last row without its newline kept.
        std::fs::write(
            &path,
            "outcome,extra,solver,board,wall_ns\ntour,x,warnsdorff,6x6,7",
        )
        .unwrap();
        let l = read_lenient(&path).unwrap();
        assert_eq!(
            (l.time_column.as_deref(), l.truncated),
            (Some("wall_ns"), 0)
        );
        let r = &l.records[0];
        assert_eq!(
            (r.board.to_string(), r.solver.to_string()),
            ("6x6".to_string(), "warnsdorff".to_string())
        );
        assert_eq!(r.solver.family(), &SolverFamily::Other("warnsdorff".into()));
        assert_eq!(
            (r.outcome, r.time_ns, r.iterations, r.cycles),
            (Outcome::Tour, 7, 0, None)
        );
        std::fs::write(&path, "board,solver\n6x6,warnsdorff\n").unwrap();
        let err = read_lenient(&path).unwrap_err().to_string();
        assert!(err.contains("'outcome'"), "{err}");
        // The strict mode refuses what the lenient one reads.
        std::fs::write(&path, "board,solver,outcome\n6x6,warnsdorff,tour\n").unwrap();
        assert!(read(&path).is_err());
        assert_eq!(read_lenient(&path).unwrap().records.len(), 1);
    }

    #[test]
    fn a_records_file_reads_and_writes_back_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("records.csv");
        let mut a = rec(0, 0);
        a.solver = "network+merge:parberry".parse().unwrap();
        let mut b = rec(1, 3);
        b.solver = "forward-check:connectivity".parse().unwrap();
        write_all(&path, &[a, b]).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let back = read(&path).unwrap().records;
        assert_eq!(back[0].solver.family(), &SolverFamily::NetworkMerge);
        let again = dir.path().join("again.csv");
        write_all(&again, &back).unwrap();
        assert_eq!(std::fs::read(&again).unwrap(), bytes);
    }
}

//! Reading an undirected graph from a file, in the formats Hamiltonian-cycle researchers
//! use, into one typed value ([`FileGraph`]) that has been checked to be a simple
//! undirected graph.
//!
//! # Formats
//! The format is decided by the first line that is not blank, never by the file's name:
//! - a line whose first word is `c` or `p` starts a **DIMACS** file: `c` comment lines,
//!   one problem line `p edge N M` (`p col N M` is read alike), then `e A B` lines, one
//!   per edge; blank lines are skipped. `M` must equal the number of `e` lines;
//! - a line that starts with a digit or `#` starts a **plain edge list**: one edge `A B`
//!   a line, `#` comment lines and blank lines skipped. The graph's vertices are 1 to the
//!   largest number in the file: a plain list cannot name an isolated vertex after its
//!   last endpoint;
//! - a line that starts with a letter starts a **TSPLIB** file (Reinelt 1991), which must
//!   have `TYPE : HCP`, the format of the FHCP Challenge Set (Haythorpe 2019): header
//!   lines `NAME`, `COMMENT`, `TYPE`, `DIMENSION` and `EDGE_DATA_FORMAT` (`EDGE_LIST` or
//!   `ADJ_LIST`), each `KEY : value`, `KEY: value` or `KEY value`, in any order, then
//!   `EDGE_DATA_SECTION`. In an `EDGE_LIST` section each line is one edge `A B`; in an
//!   `ADJ_LIST` section each line is `V W1 W2 ... -1`, the edges from V to each W. The
//!   section ends with a line `-1`, and the file with `EOF`; either may be missing at the
//!   end of the file. An `ADJ_LIST` may give an edge from one end or from both (`1 2 -1`
//!   and `2 1 -1`): it is one edge either way.
//!
//! # Numbering
//! Every format numbers vertices from 1: a 0 is refused, never taken as a hint that the
//! file counts from 0. Inside a [`FileGraph`] vertices are numbered from 0, so vertex `v`
//! is number `v + 1` in the file ([`FileGraph::file_number`], [`FileGraph::vertex`]);
//! whatever names vertices to a reader (JSON output, messages) uses the file's number.
//!
//! # Limits
//! Vertex numbers are 32-bit (at most 4,294,967,295 vertices) and edge indices too (at
//! most 2,147,483,647 edges): a graph beyond either is refused as too large
//! ([`InputError::TooLarge`]) before anything is allocated for it. Below those, the bound
//! is the memory this process may really use ([`crate::memory::limit`]): a header's
//! vertex count is checked against it before any edge is read (so a `DIMENSION` of
//! 10^18, or of 4 billion on a small machine, is refused at once), the edges are stored
//! with fallible allocation as they are read, and the whole graph is checked again at the
//! end ([`bytes_needed`]). Such a refusal is the environment's
//! ([`InputError::OutOfMemory`]).
//!
//! # Refusals
//! Every refusal is one line, `ORIGIN, line N: WHAT; WHAT IS ACCEPTED` (without the
//! line when it concerns the whole file): a malformed line, a vertex number out of range,
//! a self-loop (`3 3`), an edge given twice (in either direction: the graph must be a
//! simple undirected graph; the refusal names both lines), a missing or repeated header
//! (`DIMENSION`, the problem line), a `TYPE` other than `HCP`, counts that disagree (a
//! DIMACS `M` that is not the number of edges), anything after the end of the section but
//! `EOF`, a `FIXED_EDGES_SECTION` (edges every cycle must use: a constraint, not part of the
//! graph), text that is not UTF-8, and a graph too large (above). Nothing in a file can
//! make the reader panic.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, InputError, Param, Phrase, Refusal};
use crate::memory::{self, MemoryError};

/// Most edges a graph may have: edge indices are 32-bit, and the neighbour lists of a
/// graph count `2E` entries in 32 bits ([`crate::graph`]'s limit).
pub const MAX_EDGES: u64 = crate::graph::MAX_EDGES;

/// Bytes per vertex in [`bytes_needed`]: a degree or neighbour-list offset (4) and room
/// for a solver's per-vertex state (4).
const BYTES_PER_VERTEX: u64 = 8;

/// Bytes per edge in [`bytes_needed`]: an edge as read (both ends, its line and where it
/// came from: 24), in the graph (8), and in neighbour lists (both directions: 8).
const BYTES_PER_EDGE: u64 = 40;

/// The memory the reader counts on for a graph of `vertices` and `edges`: what it holds
/// while reading and what a solver's neighbour lists take (40 bytes per edge, 8 per
/// vertex). A graph needing more than [`crate::memory::limit`] is refused.
pub fn bytes_needed(vertices: u64, edges: u64) -> u64 {
    vertices
        .saturating_add(1)
        .saturating_mul(BYTES_PER_VERTEX)
        .saturating_add(edges.saturating_mul(BYTES_PER_EDGE))
}

/// How a TSPLIB `HCP` file lists its edges (`EDGE_DATA_FORMAT`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeData {
    /// `EDGE_LIST`: one edge `A B` a line.
    EdgeList,
    /// `ADJ_LIST`: one vertex a line, `V W1 W2 ... -1`.
    AdjList,
}

impl EdgeData {
    /// The TSPLIB keyword: `EDGE_LIST` or `ADJ_LIST`.
    pub fn keyword(self) -> &'static str {
        match self {
            EdgeData::EdgeList => "EDGE_LIST",
            EdgeData::AdjList => "ADJ_LIST",
        }
    }
}

/// A graph file's format (module documentation: how each is recognised).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// TSPLIB with `TYPE : HCP`, its edges listed as the `EdgeData` says.
    Hcp(EdgeData),
    /// DIMACS: `p edge N M` and `e A B` lines.
    Dimacs,
    /// A plain edge list: `A B` lines.
    EdgeList,
}

impl Format {
    /// The format's name in messages: `TSPLIB HCP (EDGE_LIST)`, `DIMACS`, `plain edge list`.
    pub fn name(self) -> String {
        match self {
            Format::Hcp(d) => format!("TSPLIB HCP ({})", d.keyword()),
            Format::Dimacs => "DIMACS".to_string(),
            Format::EdgeList => "plain edge list".to_string(),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A simple undirected graph read from a file: vertices `0..vertices`, each edge once as
/// `(lo, hi)` with `lo < hi`, edges in increasing order. Vertex `v` is number
/// [`FileGraph::file_number`]`(v)` in the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGraph {
    name: Option<String>,
    format: Option<Format>,
    vertices: u32,
    edges: Vec<(u32, u32)>,
}

/// What the formats accept, for refusals that do not know the format yet.
const FORMATS: &str = "a TSPLIB HCP file (NAME, TYPE : HCP, DIMENSION, EDGE_DATA_FORMAT, EDGE_DATA_SECTION), DIMACS (p edge N M, then e A B lines) or a plain edge list (A B a line, vertices numbered from 1)";

/// The header keys a TSPLIB HCP file may have.
const HCP_KEYS: &str = "NAME, COMMENT, TYPE, DIMENSION, EDGE_DATA_FORMAT, EDGE_DATA_SECTION, EOF";

/// One edge as read: its ends (0-based, `lo < hi`), its line, and whether an `ADJ_LIST`
/// gave it from its lower end (`false` in every other format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    lo: u32,
    hi: u32,
    line: usize,
    from_lo: bool,
}

/// The reader's state: the origin for messages and the edges read so far.
struct Reader<'a> {
    origin: &'a str,
    entries: Vec<Entry>,
}

impl Reader<'_> {
    /// A refusal of line `line`: `ORIGIN, line N: WHAT`.
    fn at(&self, line: usize, what: impl std::fmt::Display) -> InputError {
        InputError::File(format!("{}, line {line}: {what}", self.origin))
    }

    /// A refusal of the whole file: `ORIGIN: WHAT`.
    fn whole(&self, what: impl std::fmt::Display) -> InputError {
        InputError::File(format!("{}: {what}", self.origin))
    }

    /// A vertex count from a header (`DIMENSION`, the problem line's `N`): a whole number
    /// from 1 that fits 32 bits, and whose graph fits in memory.
    fn vertex_count(&self, line: usize, key: &str, text: &str) -> Result<u32, InputError> {
        let n: u64 = parse_number(text).ok_or_else(|| {
            self.at(
                line,
                format!(
                    "{key} '{text}' is not a whole number; give the number of vertices, 1 or more"
                ),
            )
        })?;
        if n == 0 {
            return Err(self.at(line, format!("{key} is 0; a graph needs 1 vertex or more")));
        }
        let n = u32::try_from(n).map_err(|_| {
            InputError::TooLarge(Refusal::new(format!(
                "{}, line {line}: {key} {text} is too large: vertex numbers are 32-bit, so a graph has at most {} vertices",
                self.origin,
                u32::MAX
            )))
        })?;
        memory::check(
            || format!("the graph of {} ({key} {n} on line {line})", self.origin),
            bytes_needed(u64::from(n), 0),
        )?;
        Ok(n)
    }

    /// A vertex number of line `line`, 1 to `n` in the file, as a 0-based vertex.
    fn vertex(&self, line: usize, token: &str, n: u32, bound: &str) -> Result<u32, InputError> {
        let out_of_range = || {
            self.at(
                line,
                format!("vertex {token} is out of range; {bound}, so give 1 to {n}"),
            )
        };
        let negative = token
            .strip_prefix('-')
            .is_some_and(|d| parse_number(d).is_some());
        if negative {
            return Err(out_of_range());
        }
        let v: u64 = parse_number(token).ok_or_else(|| {
            self.at(
                line,
                format!("'{token}' is not a vertex number; vertices are whole numbers from 1"),
            )
        })?;
        if v == 0 || v > u64::from(n) {
            return Err(out_of_range());
        }
        Ok((v - 1) as u32)
    }

    /// Record the edge `a`-`b` (0-based) of line `line`; `from_lo` as in [`Entry`].
    fn edge(&mut self, line: usize, a: u32, b: u32, adj_list: bool) -> Result<(), InputError> {
        if a == b {
            return Err(self.at(
                line,
                format!(
                    "vertex {} is joined to itself (a self-loop); a simple undirected graph joins two different vertices",
                    u64::from(a) + 1
                ),
            ));
        }
        grow(&mut self.entries, || {
            format!("the edges of {}", self.origin)
        })?;
        self.entries.push(Entry {
            lo: a.min(b),
            hi: a.max(b),
            line,
            from_lo: adj_list && a < b,
        });
        Ok(())
    }

    /// The graph of the edges read: each edge once (an `ADJ_LIST` may give it once from
    /// each end), within the limits.
    fn finish(
        mut self,
        name: Option<String>,
        format: Format,
        vertices: u32,
    ) -> Result<FileGraph, InputError> {
        self.entries.sort_unstable();
        let mut repeat: Option<(usize, usize, Entry)> = None;
        let mut edges = Vec::new();
        let mut i = 0;
        while i < self.entries.len() {
            let first = self.entries[i];
            let mut j = i + 1;
            while j < self.entries.len()
                && (self.entries[j].lo, self.entries[j].hi) == (first.lo, first.hi)
            {
                j += 1;
            }
            // In line order, the first entry given again from an end already seen (every
            // format but ADJ_LIST has one end: any second entry).
            let (mut from_lo, mut from_hi) = (false, false);
            for e in &self.entries[i..j] {
                let seen = if e.from_lo {
                    &mut from_lo
                } else {
                    &mut from_hi
                };
                if *seen {
                    if repeat.is_none_or(|(l, _, _)| e.line < l) {
                        repeat = Some((e.line, first.line, first));
                    }
                    break;
                }
                *seen = true;
            }
            grow(&mut edges, || format!("the graph of {}", self.origin))?;
            edges.push((first.lo, first.hi));
            i = j;
        }
        if let Some((line, first, e)) = repeat {
            return Err(self.at(
                line,
                format!(
                    "the edge {}-{} is given again (first on line {first}); a simple undirected graph has each edge once, in either direction",
                    u64::from(e.lo) + 1,
                    u64::from(e.hi) + 1
                ),
            ));
        }
        if edges.len() as u64 > MAX_EDGES {
            return Err(InputError::TooLarge(Refusal::new(format!(
                "{}: the graph has {} edges; edge indices are 32-bit, so a graph has at most {MAX_EDGES}",
                self.origin,
                edges.len()
            ))));
        }
        drop(self.entries);
        memory::check(
            || format!("the graph of {}", self.origin),
            bytes_needed(u64::from(vertices), edges.len() as u64),
        )?;
        edges.shrink_to_fit();
        Ok(FileGraph {
            name,
            format: Some(format),
            vertices,
            edges,
        })
    }
}

/// Room for one more item in `v` (growing it as `push` would), or a [`MemoryError`]
/// naming `what` if the allocator refuses.
fn grow<T>(v: &mut Vec<T>, what: impl FnOnce() -> String) -> Result<(), MemoryError> {
    if v.len() < v.capacity() {
        return Ok(());
    }
    v.try_reserve(1).map_err(|_| MemoryError {
        what: what(),
        needed: (v.len() as u64)
            .saturating_mul(2)
            .saturating_mul(std::mem::size_of::<T>() as u64),
        limit: None,
    })
}

/// A whole number of digits only (an optional leading `+`), or `None`. A number past
/// 64 bits is `u64::MAX`: beyond every bound the reader checks, so refused as too large
/// or out of range rather than as not a number.
fn parse_number(token: &str) -> Option<u64> {
    let digits = token.strip_prefix('+').unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(digits.parse().unwrap_or(u64::MAX))
}

/// The lines of `text`, numbered from 1, each without its line break (`\n` or `\r\n`) and
/// without a byte-order mark at the start of the file.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    text.lines().enumerate().map(|(i, l)| (i + 1, l))
}

impl FileGraph {
    /// The graph of `vertices` (numbered from 0) and `edges`, checked as a file is: each
    /// end below `vertices`, no self-loop, no edge twice in either direction. The edges
    /// are stored as `(lo, hi)`, sorted. It has no name and no format.
    pub fn new(
        vertices: u32,
        edges: impl IntoIterator<Item = (u32, u32)>,
    ) -> Result<FileGraph, InputError> {
        let bad = |msg: String| InputError::param(format!("the graph: {msg}"));
        let mut list = Vec::new();
        for (i, (a, b)) in edges.into_iter().enumerate() {
            if a.max(b) >= vertices {
                return Err(bad(format!(
                    "edge #{i} ({a}, {b}) names vertex {}; a graph of {vertices} vertices numbers them from 0 to {}",
                    a.max(b),
                    i64::from(vertices) - 1
                )));
            }
            if a == b {
                return Err(bad(format!(
                    "edge #{i} joins vertex {a} to itself; a simple undirected graph joins two different vertices"
                )));
            }
            grow(&mut list, || "a graph's edges".to_string())?;
            list.push((a.min(b), a.max(b)));
        }
        list.sort_unstable();
        if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
            return Err(bad(format!(
                "the edge ({}, {}) is given twice; a simple undirected graph has each edge once, in either direction",
                w[0].0, w[0].1
            )));
        }
        if list.len() as u64 > MAX_EDGES {
            return Err(InputError::TooLarge(Refusal::new(format!(
                "the graph has {} edges; edge indices are 32-bit, so a graph has at most {MAX_EDGES}",
                list.len()
            ))));
        }
        memory::check(
            || "the graph".to_string(),
            bytes_needed(u64::from(vertices), list.len() as u64),
        )?;
        Ok(FileGraph {
            name: None,
            format: None,
            vertices,
            edges: list,
        })
    }

    /// The same graph named `name`.
    pub fn with_name(mut self, name: impl Into<String>) -> FileGraph {
        self.name = Some(name.into());
        self
    }

    /// Read the graph file at `path`: opened with [`crate::io::open_input`] (a FIFO, a
    /// device or a folder is refused at once), read whole if it fits in the memory this
    /// process may use, then [`FileGraph::from_bytes`] with the path as origin.
    pub fn read(path: &Path) -> Result<FileGraph, Error> {
        let file =
            crate::io::open_input(path).map_err(|e| crate::io::io_failure("read", path, e))?;
        let limit = memory::limit();
        let len = file
            .metadata()
            .map_err(|e| crate::io::io_failure("read", path, e))?
            .len();
        let what = || format!("reading {}", path.display());
        limit.check(what, len)?;
        let mut bytes = memory::try_with_capacity(len as usize, &what())?;
        file.take(limit.bytes.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| crate::io::io_failure("read", path, e))?;
        // The file may have grown since its length was read.
        limit.check(what, bytes.len() as u64)?;
        Ok(FileGraph::from_bytes(&bytes, &path.display().to_string())?)
    }

    /// [`FileGraph::parse`] of bytes, which must be UTF-8 text (the refusal names the line
    /// of the first byte that is not).
    pub fn from_bytes(bytes: &[u8], origin: &str) -> Result<FileGraph, InputError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => FileGraph::parse(text, origin),
            Err(e) => {
                let at = e.valid_up_to();
                let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
                Err(InputError::File(format!(
                    "{origin}, line {line}: not UTF-8 text (invalid byte at offset {at}); give {FORMATS}"
                )))
            }
        }
    }

    /// Read a graph from `text` (named `origin` in refusals), in the format its first line
    /// that is not blank says (module documentation).
    pub fn parse(text: &str, origin: &str) -> Result<FileGraph, InputError> {
        let reader = Reader {
            origin,
            entries: Vec::new(),
        };
        let first = numbered_lines(text).find(|(_, l)| !l.trim().is_empty());
        let Some((line, first)) = first else {
            return Err(reader.whole(format!("holds no graph (it is empty); give {FORMATS}")));
        };
        let first = first.trim_start();
        let word = first.split_whitespace().next().unwrap_or("");
        if word == "c" || word == "p" {
            parse_dimacs(reader, text)
        } else if first.starts_with(|c: char| c.is_ascii_digit() || c == '#') {
            parse_plain(reader, text)
        } else if first.starts_with(|c: char| c.is_ascii_alphabetic()) {
            parse_hcp(reader, text)
        } else {
            Err(reader.at(
                line,
                format!(
                    "'{}' does not start a graph file; give {FORMATS}",
                    short(first)
                ),
            ))
        }
    }

    /// The graph's name: a TSPLIB file's `NAME`, else the one given with
    /// [`FileGraph::with_name`], else `None`.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The format the graph was read from (`None` for a graph made by [`FileGraph::new`]).
    pub fn format(&self) -> Option<Format> {
        self.format
    }

    /// The number of vertices, numbered 0 to `vertices() - 1`.
    pub fn vertices(&self) -> u32 {
        self.vertices
    }

    /// The edges, each `(lo, hi)` with `lo < hi`, in increasing order.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// The number vertex `v` has in the file: `v + 1` (every format numbers from 1).
    /// `v` must be below [`FileGraph::vertices`]; the result then fits 32 bits.
    pub fn file_number(&self, v: u32) -> u32 {
        debug_assert!(v < self.vertices);
        v + 1
    }

    /// The vertex numbered `number` in the file, if the graph has one.
    pub fn vertex(&self, number: u64) -> Option<u32> {
        (number >= 1 && number <= u64::from(self.vertices)).then(|| (number - 1) as u32)
    }

    /// The vertex a walk starting at the vertex numbered `given` (text, from 1) starts
    /// from, refused, naming the start and the numbers accepted, when the graph has none.
    pub fn start_vertex(&self, given: &str) -> Result<u32, InputError> {
        let given = given.trim();
        given
            .parse::<u64>()
            .ok()
            .and_then(|n| self.vertex(n))
            .ok_or_else(|| {
                InputError::named(Phrase::new().setting(Param::Start, given).text(format!(
                    ": give a vertex number of the graph, 1 to {}",
                    self.vertices
                )))
            })
    }

    /// The degree of every vertex, in vertex order.
    pub fn degrees(&self) -> Vec<u32> {
        let mut deg = vec![0u32; self.vertices as usize];
        for &(a, b) in &self.edges {
            deg[a as usize] += 1;
            deg[b as usize] += 1;
        }
        deg
    }

    /// The graph written in `format`, read back by [`FileGraph::parse`] as the same
    /// graph, with one exception: a plain edge list does not say how many vertices there
    /// are, so vertices after the last one with an edge are not in it. A TSPLIB file
    /// gets the graph's name (`graph` when it has none); an `ADJ_LIST` gives each edge
    /// once, on the line of its lower end.
    pub fn write(&self, format: Format) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let n = |v: u32| u64::from(v) + 1;
        match format {
            Format::Hcp(data) => {
                let _ = writeln!(s, "NAME : {}", self.name.as_deref().unwrap_or("graph"));
                let _ = writeln!(s, "TYPE : HCP");
                let _ = writeln!(s, "DIMENSION : {}", self.vertices);
                let _ = writeln!(s, "EDGE_DATA_FORMAT : {}", data.keyword());
                let _ = writeln!(s, "EDGE_DATA_SECTION");
                match data {
                    EdgeData::EdgeList => {
                        for &(a, b) in &self.edges {
                            let _ = writeln!(s, "{} {}", n(a), n(b));
                        }
                    }
                    EdgeData::AdjList => {
                        for run in self.edges.chunk_by(|x, y| x.0 == y.0) {
                            let _ = write!(s, "{}", n(run[0].0));
                            for &(_, b) in run {
                                let _ = write!(s, " {}", n(b));
                            }
                            let _ = writeln!(s, " -1");
                        }
                    }
                }
                let _ = writeln!(s, "-1\nEOF");
            }
            Format::Dimacs => {
                if let Some(name) = &self.name {
                    let _ = writeln!(s, "c {name}");
                }
                let _ = writeln!(s, "p edge {} {}", self.vertices, self.edges.len());
                for &(a, b) in &self.edges {
                    let _ = writeln!(s, "e {} {}", n(a), n(b));
                }
            }
            Format::EdgeList => {
                for &(a, b) in &self.edges {
                    let _ = writeln!(s, "{} {}", n(a), n(b));
                }
            }
        }
        s
    }
}

/// At most 40 characters of a line, for a message.
fn short(line: &str) -> String {
    let mut chars = line.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// The two vertex numbers of an edge line's words, or `None` if there are not two.
fn two<'a>(words: &[&'a str]) -> Option<(&'a str, &'a str)> {
    match words {
        [a, b] => Some((a, b)),
        _ => None,
    }
}

fn parse_dimacs(mut r: Reader<'_>, text: &str) -> Result<FileGraph, InputError> {
    let mut problem: Option<(usize, u32, u64, &str)> = None;
    let mut count: u64 = 0;
    for (line, l) in numbered_lines(text) {
        let words: Vec<&str> = l.split_whitespace().collect();
        match words.first().copied() {
            None | Some("c") => {}
            Some("p") => {
                if let Some((first, ..)) = problem {
                    return Err(r.at(
                        line,
                        format!("a second problem line (the first is line {first}); a DIMACS file has one, p edge N M"),
                    ));
                }
                let [_, kind, n, m] = words[..] else {
                    return Err(r.at(
                        line,
                        format!(
                            "'{}' is not a problem line; give p edge N M (N vertices, M edges)",
                            short(l.trim())
                        ),
                    ));
                };
                if kind != "edge" && kind != "col" {
                    return Err(r.at(
                        line,
                        format!("problem '{kind}' is not an undirected graph; give p edge N M (or p col N M)"),
                    ));
                }
                let n = r.vertex_count(line, "the vertex count N", n)?;
                let m = parse_number(m).ok_or_else(|| {
                    r.at(
                        line,
                        format!("the edge count M '{m}' is not a whole number; give p edge N M"),
                    )
                })?;
                problem = Some((line, n, m, words[3]));
            }
            Some("e") => {
                let Some((_, n, ..)) = problem else {
                    return Err(r.at(
                        line,
                        "an edge before the problem line; a DIMACS file gives p edge N M before its e lines",
                    ));
                };
                let Some((a, b)) = two(&words[1..]) else {
                    return Err(r.at(
                        line,
                        format!(
                            "'{}' is not an edge; give e A B (two vertex numbers)",
                            short(l.trim())
                        ),
                    ));
                };
                let bound = format!("the problem line says {n} vertices");
                let a = r.vertex(line, a, n, &bound)?;
                let b = r.vertex(line, b, n, &bound)?;
                r.edge(line, a, b, false)?;
                count += 1;
            }
            Some(w) => {
                return Err(r.at(
                    line,
                    format!("a DIMACS line starts with c, p or e, not '{}'", short(w)),
                ));
            }
        }
    }
    let Some((line, n, m, m_text)) = problem else {
        return Err(
            r.whole("has no problem line; a DIMACS file gives p edge N M (N vertices, M edges)")
        );
    };
    if m != count {
        return Err(r.at(
            line,
            format!("the problem line says {m_text} edges, but the file has {count} e lines; give the number of e lines as M"),
        ));
    }
    r.finish(None, Format::Dimacs, n)
}

fn parse_plain(mut r: Reader<'_>, text: &str) -> Result<FileGraph, InputError> {
    let mut largest: u64 = 0;
    let mut raw: Vec<(usize, u64, u64)> = Vec::new();
    for (line, l) in numbered_lines(text) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        let malformed = || {
            r.at(
                line,
                format!("'{}' is not an edge; a plain edge list has one edge A B a line (vertices numbered from 1) and # comments", short(t)),
            )
        };
        let (a, b) = two(&words).ok_or_else(malformed)?;
        let (Some(a), Some(b)) = (parse_number(a), parse_number(b)) else {
            return Err(malformed());
        };
        for v in [a, b] {
            if v == 0 {
                return Err(r.at(
                    line,
                    "vertex 0: a plain edge list numbers vertices from 1 (as TSPLIB and DIMACS do); add 1 to every number",
                ));
            }
            if v > u64::from(u32::MAX) {
                return Err(InputError::TooLarge(Refusal::new(format!(
                    "{}, line {line}: vertex {v} is too large: vertex numbers are 32-bit, so a graph has at most {} vertices",
                    r.origin,
                    u32::MAX
                ))));
            }
        }
        largest = largest.max(a).max(b);
        grow(&mut raw, || format!("the edges of {}", r.origin))?;
        raw.push((line, a, b));
    }
    if raw.is_empty() {
        return Err(r.whole(
            "a plain edge list with no edge; give one edge A B a line (vertices numbered from 1)",
        ));
    }
    let n = largest as u32;
    memory::check(
        || format!("the graph of {} (vertex {n})", r.origin),
        bytes_needed(u64::from(n), raw.len() as u64),
    )?;
    for (line, a, b) in raw {
        r.edge(line, (a - 1) as u32, (b - 1) as u32, false)?;
    }
    r.finish(None, Format::EdgeList, n)
}

/// Where a TSPLIB file's reading is.
enum Part {
    Header,
    Section,
    /// After the section's `-1`: only `EOF` may follow.
    Ended,
}

/// The refusal of a TSPLIB `FIXED_EDGES_SECTION` on line `line`: edges every cycle must
/// use are a constraint on the answer, not part of the graph, and dropping them would
/// change the problem.
fn fixed_edges(r: &Reader<'_>, line: usize) -> InputError {
    r.at(
        line,
        "FIXED_EDGES (edges every cycle must use) are not read: dropping them would change the problem; give the graph without them",
    )
}

fn parse_hcp(mut r: Reader<'_>, text: &str) -> Result<FileGraph, InputError> {
    let mut name: Option<(usize, String)> = None;
    let mut kind: Option<usize> = None;
    let mut dimension: Option<(usize, u32)> = None;
    let mut data: Option<(usize, EdgeData)> = None;
    let mut part = Part::Header;
    for (line, l) in numbered_lines(text) {
        let t = l.trim();
        if t.is_empty() {
            continue;
        }
        if t == "EOF" {
            break;
        }
        match part {
            Part::Header => {
                let (key, value) = match t.split_once(':') {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => match t.split_once(char::is_whitespace) {
                        Some((k, v)) => (k, v.trim()),
                        None => (t, ""),
                    },
                };
                let again = |first: usize| {
                    r.at(
                        line,
                        format!("{key} is given twice (first on line {first}); give it once"),
                    )
                };
                match key {
                    "NAME" => {
                        if let Some((first, _)) = name {
                            return Err(again(first));
                        }
                        name = Some((line, value.to_string()));
                    }
                    "COMMENT" => {}
                    "TYPE" => {
                        if let Some(first) = kind {
                            return Err(again(first));
                        }
                        if value != "HCP" {
                            return Err(r.at(
                                line,
                                format!("TYPE {} is not accepted; give TYPE : HCP (a Hamiltonian cycle problem: an undirected graph)", short(value)),
                            ));
                        }
                        kind = Some(line);
                    }
                    "DIMENSION" => {
                        if let Some((first, _)) = dimension {
                            return Err(again(first));
                        }
                        dimension = Some((line, r.vertex_count(line, "DIMENSION", value)?));
                    }
                    "EDGE_DATA_FORMAT" => {
                        if let Some((first, _)) = data {
                            return Err(again(first));
                        }
                        let d = match value {
                            "EDGE_LIST" => EdgeData::EdgeList,
                            "ADJ_LIST" => EdgeData::AdjList,
                            _ => {
                                return Err(r.at(
                                    line,
                                    format!("EDGE_DATA_FORMAT {} is not accepted; give EDGE_LIST or ADJ_LIST", short(value)),
                                ));
                            }
                        };
                        data = Some((line, d));
                    }
                    "EDGE_DATA_SECTION" if value.is_empty() => {
                        let missing = |what: &str| {
                            r.at(line, format!("EDGE_DATA_SECTION before {what}; a TSPLIB HCP file gives {what} in its header"))
                        };
                        if kind.is_none() {
                            return Err(missing("TYPE : HCP"));
                        }
                        if dimension.is_none() {
                            return Err(missing("DIMENSION : N (the number of vertices)"));
                        }
                        if data.is_none() {
                            return Err(missing("EDGE_DATA_FORMAT : EDGE_LIST (or ADJ_LIST)"));
                        }
                        part = Part::Section;
                    }
                    _ if key.starts_with("FIXED_EDGES") => return Err(fixed_edges(&r, line)),
                    _ => {
                        return Err(r.at(
                            line,
                            format!(
                                "'{}' is not a TSPLIB HCP header line; accepted keys: {HCP_KEYS}",
                                short(t)
                            ),
                        ));
                    }
                }
            }
            Part::Section => {
                let (_, n) = dimension.expect("checked at EDGE_DATA_SECTION");
                let (_, d) = data.expect("checked at EDGE_DATA_SECTION");
                let words: Vec<&str> = t.split_whitespace().collect();
                if words == ["-1"] {
                    part = Part::Ended;
                    continue;
                }
                let bound = format!("DIMENSION is {n}");
                match d {
                    EdgeData::EdgeList => {
                        let Some((a, b)) = two(&words) else {
                            return Err(r.at(
                                line,
                                format!("'{}' is not an edge; an EDGE_LIST line is A B (two vertex numbers), and -1 ends the section", short(t)),
                            ));
                        };
                        let a = r.vertex(line, a, n, &bound)?;
                        let b = r.vertex(line, b, n, &bound)?;
                        r.edge(line, a, b, false)?;
                    }
                    EdgeData::AdjList => {
                        let malformed = || {
                            r.at(
                                line,
                                format!("'{}' is not an adjacency list; an ADJ_LIST line is V W1 W2 ... -1, and -1 alone ends the section", short(t)),
                            )
                        };
                        let [v, rest @ .., end] = &words[..] else {
                            return Err(malformed());
                        };
                        if *end != "-1" || rest.is_empty() {
                            return Err(malformed());
                        }
                        let v = r.vertex(line, v, n, &bound)?;
                        for w in rest {
                            let w = r.vertex(line, w, n, &bound)?;
                            r.edge(line, v, w, true)?;
                        }
                    }
                }
            }
            Part::Ended if t.starts_with("FIXED_EDGES") => return Err(fixed_edges(&r, line)),
            Part::Ended => {
                return Err(r.at(
                    line,
                    format!("'{}' after the end of EDGE_DATA_SECTION (the -1 line); only EOF may follow", short(t)),
                ));
            }
        }
    }
    if matches!(part, Part::Header) {
        let what = if dimension.is_none() {
            "no DIMENSION and no EDGE_DATA_SECTION"
        } else {
            "no EDGE_DATA_SECTION"
        };
        return Err(r.whole(format!(
            "a TSPLIB file with {what}; a TSPLIB HCP file gives TYPE : HCP, DIMENSION : N, EDGE_DATA_FORMAT : EDGE_LIST, then EDGE_DATA_SECTION and its edges"
        )));
    }
    let (_, n) = dimension.expect("checked at EDGE_DATA_SECTION");
    let (_, d) = data.expect("checked at EDGE_DATA_SECTION");
    r.finish(name.map(|(_, s)| s), Format::Hcp(d), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        FileGraph::parse(text, "g").unwrap_err().to_string()
    }

    const SQUARE_HCP: &str = "NAME : square\nCOMMENT : a 4-cycle\nTYPE : HCP\nDIMENSION : 4\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n1 2\n2 3\n3 4\n4 1\n-1\nEOF\n";

    #[test]
    fn reads_each_format_to_the_same_graph() {
        let hcp = FileGraph::parse(SQUARE_HCP, "g").unwrap();
        assert_eq!(hcp.name(), Some("square"));
        assert_eq!(hcp.format(), Some(Format::Hcp(EdgeData::EdgeList)));
        assert_eq!(hcp.vertices(), 4);
        assert_eq!(hcp.edges(), &[(0, 1), (0, 3), (1, 2), (2, 3)]);
        let adj = "NAME: square\nTYPE: HCP\nDIMENSION: 4\nEDGE_DATA_FORMAT: ADJ_LIST\nEDGE_DATA_SECTION\n1 2 4 -1\n3 2 4 -1\n-1\n";
        let dimacs = "c a 4-cycle\np edge 4 4\ne 1 2\ne 3 2\ne 3 4\ne 1 4\n";
        let plain = "# a 4-cycle\n1 2\n\n2 3\r\n3 4\n4 1";
        for (text, format) in [
            (adj, Format::Hcp(EdgeData::AdjList)),
            (dimacs, Format::Dimacs),
            (plain, Format::EdgeList),
        ] {
            let g = FileGraph::parse(text, "g").unwrap();
            assert_eq!(g.format(), Some(format));
            assert_eq!((g.vertices(), g.edges()), (4, hcp.edges()), "{format}");
        }
        assert_eq!(hcp.file_number(0), 1);
        assert_eq!(hcp.vertex(4), Some(3));
        assert_eq!(hcp.vertex(0), None);
        assert_eq!(hcp.vertex(5), None);
        assert_eq!(hcp.degrees(), vec![2, 2, 2, 2]);
    }

    #[test]
    fn tolerates_spacing_a_missing_eof_and_an_adj_list_from_both_ends() {
        let text = "NAME:sq\nTYPE :HCP\nDIMENSION 4\nEDGE_DATA_FORMAT : ADJ_LIST\nEDGE_DATA_SECTION\n  1 2 4 -1\n2 1 3 -1\n3 2 4 -1\n4 3 1 -1\n";
        let g = FileGraph::parse(text, "g").unwrap();
        assert_eq!(g.edges(), &[(0, 1), (0, 3), (1, 2), (2, 3)]);
        assert_eq!(g.name(), Some("sq"));
        // A header line with a BOM before it, and DIMENSION with isolated vertices.
        let text = "\u{feff}TYPE : HCP\nDIMENSION : 6\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n1 2\nEOF";
        let g = FileGraph::parse(text, "g").unwrap();
        assert_eq!((g.vertices(), g.name()), (6, None));
        assert_eq!(g.degrees(), vec![1, 1, 0, 0, 0, 0]);
    }

    #[test]
    fn every_refusal_names_its_line_and_what_is_accepted() {
        let head = "TYPE : HCP\nDIMENSION : 4\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n";
        let adj = "TYPE : HCP\nDIMENSION : 4\nEDGE_DATA_FORMAT : ADJ_LIST\nEDGE_DATA_SECTION\n";
        for (text, want) in [
            (
                format!("{head}1 2\n1 x\n"),
                "g, line 6: 'x' is not a vertex number",
            ),
            (
                format!("{head}1 2 3\n"),
                "g, line 5: '1 2 3' is not an edge; an EDGE_LIST line is A B",
            ),
            (
                format!("{head}1 5\n"),
                "g, line 5: vertex 5 is out of range; DIMENSION is 4, so give 1 to 4",
            ),
            (
                format!("{head}0 1\n"),
                "g, line 5: vertex 0 is out of range",
            ),
            (
                format!("{head}1 -3\n"),
                "g, line 5: vertex -3 is out of range",
            ),
            (
                format!("{head}2 2\n"),
                "g, line 5: vertex 2 is joined to itself (a self-loop)",
            ),
            (
                format!("{head}1 2\n3 4\n2 1\n"),
                "g, line 7: the edge 1-2 is given again (first on line 5); a simple undirected graph",
            ),
            (
                format!("{head}1 2\n-1\n3 4\n"),
                "g, line 7: '3 4' after the end of EDGE_DATA_SECTION",
            ),
            (
                format!("{adj}1 2 3\n"),
                "g, line 5: '1 2 3' is not an adjacency list; an ADJ_LIST line is V W1 W2 ... -1",
            ),
            (
                format!("{adj}1 2 -1\n1 2 -1\n"),
                "g, line 6: the edge 1-2 is given again (first on line 5)",
            ),
            (
                format!("{adj}1 2 -1\n2 1 -1\n1 2 -1\n"),
                "g, line 7: the edge 1-2 is given again (first on line 5)",
            ),
            (
                "TYPE : TSP\n".into(),
                "g, line 1: TYPE TSP is not accepted; give TYPE : HCP",
            ),
            (
                "TYPE : HCP\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n1 2\n".into(),
                "g, line 3: EDGE_DATA_SECTION before DIMENSION : N",
            ),
            (
                "TYPE : HCP\nDIMENSION : 3\nEDGE_DATA_SECTION\n".into(),
                "g, line 3: EDGE_DATA_SECTION before EDGE_DATA_FORMAT",
            ),
            (
                "DIMENSION : 3\nEDGE_DATA_FORMAT : EDGE_LIST\nEDGE_DATA_SECTION\n".into(),
                "g, line 3: EDGE_DATA_SECTION before TYPE : HCP",
            ),
            (
                "NAME : x\nTYPE : HCP\n".into(),
                "g: a TSPLIB file with no DIMENSION and no EDGE_DATA_SECTION",
            ),
            (
                "TYPE : HCP\nDIMENSION : 3\nDIMENSION : 4\n".into(),
                "g, line 3: DIMENSION is given twice (first on line 2)",
            ),
            (
                "TYPE : HCP\nDIMENSION : many\n".into(),
                "g, line 2: DIMENSION 'many' is not a whole number",
            ),
            (
                "TYPE : HCP\nDIMENSION : 0\n".into(),
                "g, line 2: DIMENSION is 0; a graph needs 1 vertex or more",
            ),
            (
                "TYPE : HCP\nEDGE_DATA_FORMAT : MATRIX\n".into(),
                "g, line 2: EDGE_DATA_FORMAT MATRIX is not accepted; give EDGE_LIST or ADJ_LIST",
            ),
            (
                "NAME : x\nEDGE_WEIGHT_TYPE : EUC_2D\n".into(),
                "g, line 2: 'EDGE_WEIGHT_TYPE : EUC_2D' is not a TSPLIB HCP header line; accepted keys: NAME",
            ),
            (
                "c x\np edge 3 2\ne 1 2\n".into(),
                "g, line 2: the problem line says 2 edges, but the file has 1 e lines",
            ),
            (
                "c x\ne 1 2\n".into(),
                "g, line 2: an edge before the problem line",
            ),
            (
                "p edge 3 1\ne 1 4\n".into(),
                "g, line 2: vertex 4 is out of range; the problem line says 3 vertices, so give 1 to 3",
            ),
            (
                "p edge 3 1\ne 1\n".into(),
                "g, line 2: 'e 1' is not an edge; give e A B",
            ),
            (
                "p sp 3 1\n".into(),
                "g, line 1: problem 'sp' is not an undirected graph; give p edge N M",
            ),
            (
                "p edge 3\n".into(),
                "g, line 1: 'p edge 3' is not a problem line; give p edge N M",
            ),
            (
                "p edge 3 1\np edge 3 1\n".into(),
                "g, line 2: a second problem line (the first is line 1)",
            ),
            (
                "p edge 3 1\nx 1 2\n".into(),
                "g, line 2: a DIMACS line starts with c, p or e, not 'x'",
            ),
            (
                "c only comments\n".into(),
                "g: has no problem line; a DIMACS file gives p edge N M",
            ),
            (
                "1 2\n2 3 4\n".into(),
                "g, line 2: '2 3 4' is not an edge; a plain edge list has one edge A B a line",
            ),
            (
                "1 2\n0 3\n".into(),
                "g, line 2: vertex 0: a plain edge list numbers vertices from 1",
            ),
            (
                "1 2\n3 3\n".into(),
                "g, line 2: vertex 3 is joined to itself",
            ),
            (
                "1 2\n3 1\n2 1\n".into(),
                "g, line 3: the edge 1-2 is given again (first on line 1)",
            ),
            ("# nothing\n".into(), "g: a plain edge list with no edge"),
            (
                "".into(),
                "g: holds no graph (it is empty); give a TSPLIB HCP file",
            ),
            (
                "\n\n  {\"a\": 1}\n".into(),
                "g, line 3: '{\"a\": 1}' does not start a graph file; give a TSPLIB HCP file",
            ),
        ] {
            let e = err(&text);
            assert!(e.starts_with(want), "{text:?}:\n  got  {e}\n  want {want}");
            assert!(!e.contains('\n'), "{e}");
            assert!(
                matches!(FileGraph::parse(&text, "g"), Err(InputError::File(_))),
                "{text:?}"
            );
        }
    }

    #[test]
    fn a_huge_header_is_refused_before_anything_is_allocated() {
        for text in [
            "TYPE : HCP\nDIMENSION : 1000000000000000000\n",
            "p edge 4294967296 1\n",
        ] {
            let e = FileGraph::parse(text, "g").unwrap_err();
            assert!(matches!(&e, InputError::TooLarge(_)), "{e:?}");
            assert!(e.to_string().contains("vertex numbers are 32-bit"), "{e}");
        }
        let e = FileGraph::parse("1 2\n1 4294967296\n", "g").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("g, line 2: vertex 4294967296 is too large"),
            "{e}"
        );
        let e = FileGraph::parse("p edge 3 99999999999999999999999\n", "g").unwrap_err();
        assert!(
            e.to_string().starts_with(
                "g, line 1: the problem line says 99999999999999999999999 edges, but the file has 0"
            ),
            "{e}"
        );
        let e =
            FileGraph::parse("TYPE : HCP\nDIMENSION : 99999999999999999999999\n", "g").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("g, line 2: DIMENSION 99999999999999999999999 is too large"),
            "{e}"
        );
        let e = FileGraph::parse("p edge 3 1\ne 1 99999999999999999999999\n", "g").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("g, line 2: vertex 99999999999999999999999 is out of range"),
            "{e}"
        );
    }

    #[test]
    fn the_memory_bound_is_the_limit_given() {
        let limit = memory::Limit {
            bytes: 1000,
            source: memory::Source::Available,
        };
        assert!(limit.check(|| "x".into(), bytes_needed(10, 10)).is_ok());
        let e = limit
            .check(|| "the graph of g".into(), bytes_needed(1000, 0))
            .unwrap_err();
        assert_eq!(e.needed, bytes_needed(1000, 0));
        assert!(
            e.to_string().starts_with(
                "out of memory: the graph of g needs about 7.8 KiB, and this process has"
            ),
            "{e}"
        );
        assert_eq!(bytes_needed(u64::MAX, u64::MAX), u64::MAX);
    }

    #[test]
    fn new_checks_as_a_file_is_checked() {
        let g = FileGraph::new(3, [(2, 0), (1, 0)]).unwrap().with_name("v");
        assert_eq!(g.edges(), &[(0, 1), (0, 2)]);
        assert_eq!((g.name(), g.format()), (Some("v"), None));
        for (edges, want) in [
            (
                vec![(0, 3)],
                "the graph: edge #0 (0, 3) names vertex 3; a graph of 3 vertices numbers them from 0 to 2",
            ),
            (vec![(1, 1)], "the graph: edge #0 joins vertex 1 to itself"),
            (
                vec![(0, 1), (2, 0), (1, 0)],
                "the graph: the edge (0, 1) is given twice",
            ),
        ] {
            let e = FileGraph::new(3, edges).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
    }

    #[test]
    fn bytes_that_are_not_utf8_name_their_line() {
        let e = FileGraph::from_bytes(b"1 2\n2 \xff\n", "g")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("g, line 2: not UTF-8 text"), "{e}");
    }

    #[test]
    fn what_is_written_reads_back() {
        let g = FileGraph::parse(SQUARE_HCP, "g").unwrap();
        for f in [
            Format::Hcp(EdgeData::EdgeList),
            Format::Hcp(EdgeData::AdjList),
            Format::Dimacs,
            Format::EdgeList,
        ] {
            let back = FileGraph::parse(&g.write(f), "w").unwrap();
            assert_eq!((back.vertices(), back.edges()), (4, g.edges()), "{f}");
            assert_eq!(back.format(), Some(f));
        }
    }
}

//! Counting knight's tours (and 2-factors) of a board, by one of two methods:
//!
//! - [`frontier`]: a transfer-matrix (frontier) dynamic program over the squares, whose
//!   cost grows with the number of frontier states, not with the number of tours (the
//!   default; counts 6x6 closed tours in well under a second);
//! - [`split`]: the frontier program run on the board's upper rows and, turned, on its
//!   lower rows, the two parts joined at a row (meet in the middle; closed tours, and
//!   open tours from every start); it counts the 13,267,364,410,532 closed tours of 8x8
//!   in minutes;
//! - [`search`]: exhaustive depth-first enumeration, kept as the oracle the tests
//!   compare the frontier method with; its cost grows with the number of tours.
//!
//! Boards that the theorems of [`crate::existence`] (Schwenk 1991; Conrad et al. 1994)
//! or the start-square rules decide to have no tour are answered at once with count 0,
//! whatever the method, without building anything of the board's size.
//!
//! Semantics of the counts (both methods):
//! - open, all starts: `directed` counts every square sequence (a path and its reverse
//!   separately, as OEIS A165134 does); `undirected = directed / 2`;
//! - open, one start: `directed` counts the tours starting there, which is also the
//!   number of undirected tours with an end there;
//! - closed: `undirected` counts Hamiltonian cycles; `directed = 2 * undirected` counts
//!   the closed tours from a fixed start square (each cycle once per direction).

mod cycle;
pub mod frontier;
pub mod geometry;
pub mod search;
pub mod split;
pub(crate) mod table;

use serde::{Serialize, Serializer};

use crate::board::Board;
use crate::existence;
use crate::solvers::classical::check_start_colour;

pub use search::DEFAULT_COUNT_STEPS;

/// Which counting method to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Transfer-matrix dynamic program ([`frontier`]).
    Frontier,
    /// Exhaustive search ([`search`]).
    Search,
    /// The frontier program on two parts of the board, joined ([`split`]; closed tours,
    /// and open tours from every start).
    Split,
}

impl Method {
    /// The work budget ([`CountSpec::max_steps`]) when none is given:
    /// [`DEFAULT_COUNT_STEPS`] for the search, whose work grows with the number of tours
    /// and can run for ever; none (`u64::MAX`) for the frontier and split methods, whose
    /// work is bounded by the states the memory holds (checked before any work and after
    /// each square).
    pub fn default_max_steps(self) -> u64 {
        match self {
            Method::Search => DEFAULT_COUNT_STEPS,
            Method::Frontier | Method::Split => u64::MAX,
        }
    }
}

/// What to count.
#[derive(Debug, Clone, Copy)]
pub struct CountSpec {
    /// The board whose tours are counted.
    pub board: Board,
    /// Count closed tours (Hamiltonian cycles) rather than open ones.
    pub closed: bool,
    /// Open tours: count only those starting on this square (index `row * cols + col`);
    /// `None` counts from every start. A closed count is the same from any start: the
    /// square is only reported in [`Count::start`] (square 0 when `None`).
    pub start: Option<u32>,
    /// Work budget: search steps (squares placed, plus the squares initialised for each
    /// start) for [`Method::Search`], state transitions for [`Method::Frontier`] and
    /// [`Method::Split`]. At least 1; [`Method::default_max_steps`] when the caller has
    /// none.
    pub max_steps: u64,
    /// How to count.
    pub method: Method,
}

/// A finished (or budget-limited) count.
///
/// Serialized (the `count` JSON document, docs/json.md) with every count of tours as a
/// decimal string (`directed`, `undirected`, the third item of each `per_start` entry):
/// counts pass 2^53, where JSON readers that hold numbers as doubles round them, and
/// 2^64.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Count {
    /// The board counted.
    pub board: Board,
    /// Whether closed tours were counted.
    pub closed: bool,
    /// The start square as `[row, col]`, if one was fixed (closed counts always fix one).
    pub start: Option<[usize; 2]>,
    /// The method used (the one asked for, also when a theorem decided the count).
    pub method: Method,
    /// Directed count (see the module docs for exactly what is counted).
    #[serde(serialize_with = "decimal")]
    pub directed: u128,
    /// Undirected count, when it follows from the directed one (`None` for one open start).
    #[serde(serialize_with = "decimal_option")]
    pub undirected: Option<u128>,
    /// Whether the whole count was made (else, for search, the counts are lower bounds;
    /// for the frontier method, they are 0 and meaningless).
    pub complete: bool,
    /// Work done: search steps, or frontier state transitions (split: both parts').
    pub steps: u64,
    /// The theorem that decided the count without any work, if one did.
    pub decided_by: Option<String>,
    /// Largest number of frontier states held at once (frontier and split methods).
    pub peak_states: Option<usize>,
    /// Pairs of upper and lower states checked by the join (split method only).
    pub pairs_joined: Option<u64>,
    /// Per start square `[row, col, directed count]` for open counts over all starts
    /// (search method only).
    #[serde(serialize_with = "per_start")]
    pub per_start: Vec<[u64; 3]>,
}

/// A count as its decimal string (see [`Count`]).
fn decimal<S: Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(n)
}

/// An optional count as its decimal string, or null.
fn decimal_option<S: Serializer>(n: &Option<u128>, s: S) -> Result<S::Ok, S::Error> {
    match n {
        Some(n) => decimal(n, s),
        None => s.serialize_none(),
    }
}

/// [`Count::per_start`] as `[row, col, "count"]` entries.
fn per_start<S: Serializer>(rows: &[[u64; 3]], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(rows.iter().map(|&[r, c, k]| (r, c, k.to_string())))
}

impl Count {
    /// A count of zero decided by a theorem, with no work done.
    fn decided(spec: &CountSpec, reason: String) -> Count {
        Count {
            board: spec.board,
            closed: spec.closed,
            start: start_field(spec),
            method: spec.method,
            directed: 0,
            undirected: if !spec.closed && spec.start.is_some() {
                None
            } else {
                Some(0)
            },
            complete: true,
            steps: 0,
            decided_by: Some(reason),
            peak_states: None,
            pairs_joined: None,
            per_start: Vec::new(),
        }
    }
}

/// The `start` field of a [`Count`]: the fixed start, or square 0 for closed counts.
fn start_field(spec: &CountSpec) -> Option<[usize; 2]> {
    match (spec.closed, spec.start) {
        (false, None) => None,
        (_, s) => {
            let (r, c) = spec.board.coords(s.unwrap_or(0));
            Some([r, c])
        }
    }
}

/// Check a count request before any work.
pub fn check(spec: &CountSpec) -> Result<(), crate::error::InputError> {
    if spec.max_steps == 0 {
        return Err(crate::error::InputError::max_steps_zero());
    }
    Ok(())
}

/// Why a board (and start) has no tour of the requested kind, if a theorem says so.
pub(crate) fn no_tour_reason(board: Board, closed: bool, start: Option<u32>) -> Option<String> {
    let ex = existence::tour_exists(board, closed);
    if !ex.exists {
        return Some(ex.reason);
    }
    if let Some(s) = start
        && let Err(e) = check_start_colour(board, s, closed)
    {
        return Some(e.to_string());
    }
    None
}

/// The count, if a theorem decides it (zero tours) without any work.
pub fn decide(spec: &CountSpec) -> Option<Count> {
    no_tour_reason(spec.board, spec.closed, spec.start).map(|r| Count::decided(spec, r))
}

/// Count by the frontier method ([`frontier`]) or, with [`Method::Split`], by the
/// split ([`split`]); `max_memory` bounds the states (bytes).
pub fn frontier_count(
    spec: &CountSpec,
    max_memory: u64,
    mut progress: impl FnMut(frontier::Progress),
) -> Result<Count, crate::error::InputError> {
    frontier_count_dyn(spec, max_memory, &mut progress)
}

/// [`frontier_count`] compiled once, whatever the caller's `progress` (as
/// [`frontier::run`]).
fn frontier_count_dyn(
    spec: &CountSpec,
    max_memory: u64,
    progress: &mut dyn FnMut(frontier::Progress),
) -> Result<Count, crate::error::InputError> {
    if let Some(c) = decide(spec) {
        return Ok(c);
    }
    check(spec)?;
    let quantity = if spec.closed {
        frontier::Quantity::Cycles
    } else {
        frontier::Quantity::Paths
    };
    let req = frontier::FrontierRequest {
        board: spec.board,
        quantity,
        start: if spec.closed { None } else { spec.start },
        max_transitions: spec.max_steps,
        max_memory,
        rows_limit: None,
    };
    let run = if spec.method == Method::Split {
        split::run(&req, progress)?
    } else {
        frontier::run(&req, progress)?
    };
    let k = run.count.unwrap_or(0);
    let n = spec.board.squares();
    // The directed count is twice the undirected one: it must fit in 128 bits too.
    let twice = || {
        k.checked_mul(2)
            .ok_or_else(|| frontier::overflow(spec.board))
    };
    let (directed, undirected) = match (spec.closed, spec.start) {
        (true, _) => (twice()?, Some(k)),
        (false, None) if n == 1 => (k, Some(k)),
        (false, None) => (twice()?, Some(k)),
        (false, Some(_)) => (k, None),
    };
    Ok(Count {
        board: spec.board,
        closed: spec.closed,
        start: start_field(spec),
        method: spec.method,
        directed,
        undirected,
        complete: run.complete,
        steps: run.transitions,
        decided_by: None,
        peak_states: Some(run.peak_states),
        pairs_joined: (spec.method == Method::Split).then_some(run.pairs_joined),
        per_start: Vec::new(),
    })
}

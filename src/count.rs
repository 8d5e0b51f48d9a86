//! Exhaustive enumeration of knight's tours on small boards.
//!
//! Counts are made with the search engine of [`crate::solvers::search`] in clockwise
//! order with forward checking, whose pruning never discards a tour, so the counts are
//! exact (tests compare them with a plain recursive count and with published values:
//! 5x5 open directed 1,728, 304 from each corner, OEIS A165134; 6x6 closed undirected
//! 9,862, OEIS A001230).
//!
//! Semantics:
//! - open, all starts: `directed` counts every square sequence (a path and its reverse
//!   separately, as A165134 does); `undirected = directed / 2`;
//! - open, one start: `directed` counts the tours starting there, which is also the
//!   number of undirected tours with an end there;
//! - closed: every cycle passes through the start (default square 0), so the search
//!   from there counts each undirected cycle twice (once per direction):
//!   `undirected = directed / 2`, where `directed` counts closed tours from the start.

use serde::Serialize;

use crate::board::Board;
use crate::error::InputError;
use crate::solvers::classical::MAX_SEARCH_SQUARES;
use crate::solvers::search::{Config, Neighbours, Order, Search, Stop};

/// What to count.
#[derive(Debug, Clone, Copy)]
pub struct CountSpec {
    pub board: Board,
    pub closed: bool,
    pub start: Option<u32>,
    /// Total step budget over all start squares.
    pub max_steps: u64,
}

/// The default step budget of `count`.
pub const DEFAULT_COUNT_STEPS: u64 = 10_000_000_000;

/// A finished (or budget-limited) count.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Count {
    pub rows: usize,
    pub cols: usize,
    pub closed: bool,
    /// The start square as `[row, col]`, if one was fixed (closed counts always fix one).
    pub start: Option<[usize; 2]>,
    /// Directed count (see the module docs for exactly what is counted).
    pub directed: u64,
    /// Undirected count, when it follows from the directed one (`None` for one open start).
    pub undirected: Option<u64>,
    /// Whether the whole search space was enumerated (else the counts are lower bounds).
    pub complete: bool,
    pub steps: u64,
    /// Per start square `[row, col, directed count]` for open counts over all starts.
    pub per_start: Vec<[u64; 3]>,
}

/// Check a count request before any work.
pub fn check(spec: &CountSpec) -> Result<(), InputError> {
    if spec.max_steps == 0 {
        return Err(InputError::param("--max-steps must be at least 1"));
    }
    if spec.board.squares() > MAX_SEARCH_SQUARES {
        return Err(InputError::TooLarge(format!(
            "board {} is too large to count tours on: it has {} squares, and counting accepts at most {MAX_SEARCH_SQUARES} (and finishes only on tiny boards)",
            spec.board,
            spec.board.squares()
        )));
    }
    Ok(())
}

/// Count tours. `progress(steps, found_so_far)` is called now and then during long runs.
pub fn count(spec: &CountSpec, mut progress: impl FnMut(u64, u64)) -> Result<Count, InputError> {
    check(spec)?;
    let board = spec.board;
    let n = board.squares();
    let nb = Neighbours::new(board);
    let starts: Vec<u32> = match (spec.closed, spec.start) {
        (_, Some(s)) => vec![s],
        (true, None) => vec![0],
        (false, None) => (0..n as u32).collect(),
    };
    let mut total = 0u64;
    let mut steps = 0u64;
    let mut complete = true;
    let mut per_start = Vec::new();
    for &s in &starts {
        let budget = spec.max_steps.saturating_sub(steps);
        if budget == 0 {
            complete = false;
            break;
        }
        let cfg = Config {
            order: Order::Clockwise,
            ties_only: false,
            forward_check: true,
            connectivity: false,
            closed: spec.closed,
            max_steps: budget,
        };
        let mut search = Search::new(board, &nb, s, cfg);
        let base_total = total;
        let base_steps = steps;
        let (c, stop) = search.count(|st, f| progress(base_steps + st, base_total + f));
        steps += search.steps;
        total += c;
        let (r, col) = board.coords(s);
        per_start.push([r as u64, col as u64, c]);
        if stop == Stop::Budget {
            complete = false;
            break;
        }
    }
    let undirected = match (spec.closed, spec.start) {
        (true, _) => Some(total / 2),
        (false, None) => Some(if n == 1 { total } else { total / 2 }),
        (false, Some(_)) => None,
    };
    let start = match (spec.closed, spec.start) {
        (false, None) => None,
        _ => {
            let (r, c) = board.coords(starts[0]);
            Some([r, c])
        }
    };
    Ok(Count {
        rows: board.rows(),
        cols: board.cols(),
        closed: spec.closed,
        start,
        directed: total,
        undirected,
        complete,
        steps,
        per_start: if spec.closed || spec.start.is_some() {
            Vec::new()
        } else {
            per_start
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(m: usize, n: usize, closed: bool, start: Option<u32>) -> CountSpec {
        CountSpec {
            board: Board::new(m, n).unwrap(),
            closed,
            start,
            max_steps: DEFAULT_COUNT_STEPS,
        }
    }

    #[test]
    fn published_counts() {
        let c = count(&spec(5, 5, false, None), |_, _| {}).unwrap();
        assert!(c.complete);
        assert_eq!(c.directed, 1728);
        assert_eq!(c.undirected, Some(864));
        for [r, col, k] in &c.per_start {
            if (*r == 0 || *r == 4) && (*col == 0 || *col == 4) {
                assert_eq!(*k, 304);
            }
        }
        let c = count(&spec(5, 5, false, Some(0)), |_, _| {}).unwrap();
        assert_eq!((c.directed, c.undirected), (304, None));
        // Schwenk's smallest closed boards: 3x10 has 16 closed tours, 5x6 has 8.
        assert_eq!(
            count(&spec(3, 10, true, None), |_, _| {})
                .unwrap()
                .undirected,
            Some(16)
        );
        assert_eq!(
            count(&spec(5, 6, true, None), |_, _| {})
                .unwrap()
                .undirected,
            Some(8)
        );
        assert_eq!(
            count(&spec(6, 5, true, Some(7)), |_, _| {})
                .unwrap()
                .undirected,
            Some(8)
        );
        let c = count(&spec(6, 6, true, None), |_, _| {}).unwrap();
        assert_eq!(
            (c.directed, c.undirected, c.complete),
            (19724, Some(9862), true)
        );
        // 4 x n: no tour starts on an inner line (the rule solve applies).
        for n in 5..=8 {
            for r in [1, 2] {
                for c in 0..n {
                    let start = Some((r * n + c) as u32);
                    assert_eq!(
                        count(&spec(4, n, false, start), |_, _| {})
                            .unwrap()
                            .directed,
                        0
                    );
                }
            }
        }
        // No tours where the theorems say none.
        assert_eq!(
            count(&spec(4, 4, false, None), |_, _| {}).unwrap().directed,
            0
        );
        assert_eq!(
            count(&spec(1, 1, false, None), |_, _| {}).unwrap().directed,
            1
        );
        assert_eq!(
            count(&spec(1, 1, true, None), |_, _| {}).unwrap().directed,
            0
        );
    }

    #[test]
    fn budget_makes_an_incomplete_count() {
        let mut s = spec(5, 5, false, None);
        s.max_steps = 1000;
        let c = count(&s, |_, _| {}).unwrap();
        assert!(!c.complete);
        assert_eq!(c.steps, 1000);
    }
}

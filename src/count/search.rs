//! Exhaustive enumeration of knight's tours on small boards: the oracle for
//! [`super::frontier`].
//!
//! Counts are made with the search engine of [`crate::solvers::search`] in clockwise
//! order with forward checking, whose pruning never discards a tour, so the counts are
//! exact (tests compare them with a plain recursive count and with published values:
//! 5x5 open directed 1,728, 304 from each corner, OEIS A165134; 6x6 closed undirected
//! 9,862, OEIS A001230). See [`super`] for what is counted.
//!
//! The step budget bounds all the work: each start square costs the squares its search
//! initialises (one step per square of the board) before its first move, and the
//! budget is checked before that set-up, so `--max-steps` bounds the time even on long
//! boards with many starts. Boards the theorems decide are answered before any of it.

use super::{Count, CountSpec, Method, decide, start_field};
use crate::error::InputError;
use crate::solvers::classical::MAX_SEARCH_SQUARES;
use crate::solvers::search::{Config, Neighbours, Order, Search, Stop};

/// The default step budget of a count by search ([`super::Method::default_max_steps`]).
pub const DEFAULT_COUNT_STEPS: u64 = 10_000_000_000;

/// Check a search count request before any work.
pub fn check(spec: &CountSpec) -> Result<(), InputError> {
    super::check(spec)?;
    if spec.board.squares() > MAX_SEARCH_SQUARES {
        return Err(InputError::too_large(format!(
            "board {} is too large to count tours on by search: it has {} squares, and the search method accepts at most {MAX_SEARCH_SQUARES} (and finishes only on tiny boards)",
            spec.board,
            spec.board.squares()
        )));
    }
    Ok(())
}

/// Count tours. `progress(steps, found_so_far)` is called now and then during long runs.
pub fn count(spec: &CountSpec, mut progress: impl FnMut(u64, u64)) -> Result<Count, InputError> {
    count_dyn(spec, &mut progress)
}

/// [`count`] compiled once, whatever the caller's `progress` (as [`super::frontier::run`]).
fn count_dyn(spec: &CountSpec, progress: &mut dyn FnMut(u64, u64)) -> Result<Count, InputError> {
    if let Some(c) = decide(spec) {
        return Ok(c);
    }
    check(spec)?;
    let board = spec.board;
    let n = board.squares();
    let nb = Neighbours::new(board);
    let mut total = 0u64;
    let mut steps = 0u64;
    let mut complete = true;
    let mut per_start = Vec::new();
    let starts = match (spec.closed, spec.start) {
        (_, Some(s)) => s..s + 1,
        (true, None) => 0..1,
        (false, None) => 0..n as u32,
    };
    for s in starts {
        // Setting up a search from `s` touches every square: it counts in the budget.
        let setup = n as u64;
        if spec.max_steps.saturating_sub(steps) <= setup {
            complete = false;
            break;
        }
        steps += setup;
        let budget = spec.max_steps - steps;
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
    let total = u128::from(total);
    let undirected = match (spec.closed, spec.start) {
        (true, _) => Some(total / 2),
        (false, None) => Some(if n == 1 { total } else { total / 2 }),
        (false, Some(_)) => None,
    };
    Ok(Count {
        board,
        closed: spec.closed,
        start: start_field(spec),
        method: Method::Search,
        directed: total,
        undirected,
        complete,
        steps,
        decided_by: None,
        peak_states: None,
        pairs_joined: None,
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
    use crate::board::Board;

    fn spec(m: usize, n: usize, closed: bool, start: Option<u32>) -> CountSpec {
        CountSpec {
            board: Board::new(m, n).unwrap(),
            closed,
            start,
            max_steps: DEFAULT_COUNT_STEPS,
            method: Method::Search,
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

    /// Regression: a long thin board with no tour was searched from each of its
    /// squares, each search set up in O(squares) outside the budget (quadratic time).
    #[test]
    fn boards_without_tours_are_answered_without_work() {
        let mut s = spec(1, 100_000, false, None);
        s.max_steps = 100_000;
        let c = count(&s, |_, _| {}).unwrap();
        assert_eq!((c.directed, c.complete, c.steps), (0, true, 0));
        assert!(c.decided_by.unwrap().contains("1x100000"));
        let c = count(&spec(7, 7, true, None), |_, _| {}).unwrap();
        assert_eq!((c.directed, c.undirected, c.steps), (0, Some(0), 0));
    }

    /// Regression: the set-up of each start's search counts in the budget, so a board
    /// larger than the budget stops before setting up any search.
    #[test]
    fn budget_covers_the_set_up_of_each_start() {
        let mut s = spec(5, 40_000, false, None);
        s.max_steps = 100_000;
        let c = count(&s, |_, _| {}).unwrap();
        assert!(!c.complete);
        // One start's set-up (200,000 squares) is over the budget: nothing is set up.
        assert_eq!((c.steps, c.per_start.len()), (0, 0));
    }

    #[test]
    fn budget_makes_an_incomplete_count() {
        let mut s = spec(5, 5, false, None);
        s.max_steps = 1000;
        let c = count(&s, |_, _| {}).unwrap();
        assert!(!c.complete);
        assert!(c.steps > 0 && c.steps <= 1000, "{}", c.steps);
    }
}

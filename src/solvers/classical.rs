//! Shared plumbing of the classical solvers: request checks (theorems, colour, size),
//! the default start square, and turning a square sequence into a validated
//! [`Solution`] through the oracle in [`crate::tour`].

use super::{Facts, Outcome, Request, Solution, SolverName};
use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::tour::Tour;

/// Largest board (in squares) the search solvers (`backtrack`, `forward-check`,
/// `warnsdorff-backtrack`) and `count` accept: their per-square tables take about
/// 50 bytes a square, and search on larger boards is hopeless anyway.
pub(crate) const MAX_SEARCH_SQUARES: usize = 4_000_000;

/// Whether a tour is closed when none was asked for: classical solvers default to open.
pub(crate) fn wants_closed(req: &Request) -> bool {
    req.closed.wants_closed(false)
}

/// The start square: the requested one, else the top-left corner `(0,0)`.
pub fn start_square(req: &Request) -> u32 {
    req.start.unwrap_or(0)
}

/// Refuse requests that no solver could serve: no tour of that kind exists (Schwenk 1991
/// for closed tours, the open-tour theorem otherwise), or no open tour starts on the
/// requested square (see [`crate::existence::open_tour_from`]).
pub(crate) fn check_possible(req: &Request, closed: bool) -> Result<(), InputError> {
    req.check_exists(closed)?;
    if let Some(s) = req.start {
        check_start_colour(req.board, s, closed)?;
    }
    Ok(())
}

/// Refuse a start square from which no tour of the requested kind exists, by the
/// rules of [`crate::existence::open_tour_from`] (colour, the outer lines of 4 x n, the
/// exceptions of 3x4, 3x7 and 3x8). The message names the square and the rule.
pub(crate) fn check_start_colour(board: Board, start: u32, closed: bool) -> Result<(), InputError> {
    let ex = crate::existence::tour_exists_from(board, start, closed);
    if ex.exists {
        Ok(())
    } else {
        Err(InputError::impossible(ex.reason))
    }
}

/// A reversed tour ([`Request::reverse`]) is a closed tour walked the other way; solvers that build open tours refuse
/// it up front unless a closed tour is requested.
pub(crate) fn check_reverse(req: &Request, what: &str) -> Result<(), InputError> {
    if req.reverse && !wants_closed(req) {
        return Err(InputError::unsupported(
            Refusal::new(format!(
                "only a closed tour can be walked the other way, and {what} builds open tours unless closed ones are asked for (circuit and divide-conquer build closed tours)"
            ))
            .about([Setting::of(Param::Reverse)])
            .hint(Hint::AskClosed),
        ));
    }
    Ok(())
}

/// Refuse boards too large for a search solver, before allocating anything.
pub(crate) fn check_search_size(board: Board, what: &str) -> Result<(), InputError> {
    if board.squares() > MAX_SEARCH_SQUARES {
        return Err(InputError::too_large(
            Refusal::new(format!(
                "board {board} is too large for {what}: it has {} squares and search solvers accept at most {MAX_SEARCH_SQUARES}",
                board.squares()
            ))
            .hint(Hint::UseSolver(&["divide-conquer", "warnsdorff"])),
        ));
    }
    Ok(())
}

/// Everything a classical solver reports besides the tour.
#[derive(Debug, Clone)]
pub struct Report {
    /// Why the solver stopped ([`Outcome::Tour`] when it built a sequence).
    pub outcome: Outcome,
    /// Attempts made (at least 1 is reported).
    pub attempts: u64,
    /// Search steps, for the solvers that count them.
    pub steps: Option<u64>,
    /// The solver's own facts.
    pub facts: Facts,
}

/// Build the [`Solution`]: the squares (if any) go through the oracle. A sequence that
/// ends a knight move from its start is reported closed (a stronger result than asked);
/// a request for a closed tour that is not met is a failure with outcome `not-closed`.
///
/// An invalid sequence is a bug in the solver: it is reported as an error naming the
/// oracle's objection rather than hidden.
pub fn finish(
    solver: SolverName,
    req: &Request,
    squares: Option<Vec<u32>>,
    report: Report,
) -> Result<Solution, InputError> {
    let board = req.board;
    let want_closed = wants_closed(req);
    let mut outcome = report.outcome;
    let mut tour = None;
    if let Some(sq) = squares {
        let n = sq.len();
        let is_closed = n > 2 && n == board.squares() && board.is_knight_move(sq[n - 1], sq[0]);
        match Tour::new(board, sq, is_closed) {
            Ok(t) => {
                if want_closed && !is_closed {
                    outcome = Outcome::NotClosed;
                } else {
                    tour = Some(t);
                }
            }
            Err(e) => {
                return Err(InputError::param(format!(
                    "internal error: {} produced a sequence the tour oracle rejects: {e}",
                    solver.family()
                )));
            }
        }
    }
    let mut solution = match tour {
        Some(t) => Solution::found(solver, t, report.facts),
        None => Solution::failed(solver, outcome, want_closed, report.facts),
    };
    solution.attempts = report.attempts.max(1);
    solution.steps = report.steps;
    solution.apply_start(req)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_rule_refuses_minority_starts() {
        let b = Board::new(5, 5).unwrap();
        assert!(check_start_colour(b, b.index(0, 1), false).is_err());
        assert!(check_start_colour(b, b.index(1, 1), false).is_ok());
        let e = Board::new(6, 6).unwrap();
        assert!(check_start_colour(e, e.index(0, 1), false).is_ok());
        // Inner lines of 4 x n boards (confirmed by exhaustive search on 4x5..4x8).
        let f = Board::new(4, 7).unwrap();
        assert!(check_start_colour(f, f.index(1, 3), false).is_err());
        assert!(check_start_colour(f, f.index(3, 3), false).is_ok());
        let g = Board::new(9, 4).unwrap();
        assert!(check_start_colour(g, g.index(4, 2), false).is_err());
    }
}

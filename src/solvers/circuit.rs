//! `circuit`: look up (small boards) or build (large boards) one closed tour of the
//! board, then start it at any square in either direction: a closed tour passes through
//! every square, so rotating it serves every start square at no extra cost.
//!
//! Boards with at most `SEARCH_SQUARES` squares use the closed tour found once by this
//! crate's own search from the corner (Warnsdorff order with forward checking, see
//! [`super::search`]) and cached for the process; larger boards use the closed tour of
//! [`super::divide_conquer`]. Only boards with a closed tour are accepted (Schwenk
//! 1991); the tour is closed even when an open one is asked for.
//!
//! Complexity: O(mn) after the lookup. Deterministic.

use super::classical::{self, Report};
use super::divide_conquer::{DivideConquerSolver, base_tour};
use super::{CircuitFacts, Facts, Outcome, Request, Solution, Solver, SolverName};
use crate::Rng;
use crate::error::InputError;

/// Boards up to this many squares take their tour from the cached search.
pub(crate) const SEARCH_SQUARES: usize = 144;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CircuitSolver;

impl Solver for CircuitSolver {
    fn name(&self) -> SolverName {
        super::classical_name("circuit", None)
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        req.check_exists(true).map_err(|e| {
            InputError::impossible(format!(
                "{e}; circuit starts a closed tour anywhere, so it needs a board with one"
            ))
        })?;
        let bytes = req.board.squares() as u64 * 16;
        crate::graph::check_bytes(req.board, bytes, "circuit")
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let board = req.board;
        let (tour, source) = if board.squares() <= SEARCH_SQUARES {
            (base_tour(board.rows(), board.cols(), true, 0), "search")
        } else {
            (DivideConquerSolver::closed_tour(board, 0), "divide-conquer")
        };
        let outcome = if tour.is_some() {
            Outcome::Tour
        } else {
            Outcome::NotFound
        };
        classical::finish(
            self.name(),
            req,
            tour,
            Report {
                outcome,
                attempts: 1,
                steps: None,
                facts: Facts::Circuit(CircuitFacts { source }),
            },
        )
    }
}

//! Warnsdorff's rule as a [`Solver`]: checks the request, runs the rule (with restarts
//! for the `random` tie-break) and reports the tour or where it got stuck.

use super::{Engine, TieBreak, try_run_on};
use crate::Rng;
use crate::error::InputError;
use crate::solvers::classical::{self, Report};
use crate::solvers::{Facts, Outcome, Request, Solution, Solver, SolverName, WarnsdorffFacts};

/// Warnsdorff's rule as a [`Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarnsdorffSolver {
    /// How ties are broken.
    pub tie: TieBreak,
    /// Extra attempts after a failure (random tie-break only).
    pub restarts: u32,
}

impl WarnsdorffSolver {
    /// Warnsdorff's rule with tie-break `tie`, without restarts.
    pub fn new(tie: TieBreak) -> WarnsdorffSolver {
        WarnsdorffSolver { tie, restarts: 0 }
    }
}

/// Bytes per square a Warnsdorff run plans: degree byte, tour (u32) and the oracle's
/// position table (u32).
const BYTES_PER_SQUARE: u64 = 9;

impl Solver for WarnsdorffSolver {
    fn name(&self) -> SolverName {
        crate::solvers::classical_name("warnsdorff", Some(self.tie.name()))
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        if self.restarts > 0 && !self.tie.is_random() {
            return Err(InputError::NotApplicable {
                param: crate::error::Param::Restarts,
                solver: format!("warnsdorff:{}", self.tie),
                scope: crate::error::Scope::RandomTieBreak,
                hint: None,
            });
        }
        if let Some(s) = req.start
            && s as usize >= req.board.squares()
        {
            return Err(InputError::param(format!(
                "start square {s} is not on the {} board (squares 0..{})",
                req.board,
                req.board.squares()
            )));
        }
        classical::check_possible(req, classical::wants_closed(req))?;
        classical::check_reverse(req, "warnsdorff")?;
        let bytes = req.board.squares() as u64 * BYTES_PER_SQUARE;
        crate::graph::check_bytes(req.board, bytes, "warnsdorff")
    }

    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        self.solve_walk(req, rng).map(|(solution, _)| solution)
    }
}

impl WarnsdorffSolver {
    /// [`Solver::solve`], also giving the last walk's squares when they are not the
    /// solution's tour (a walk that got stuck, or did not close): what watch mode shows
    /// move by move, from the one walk `solve` made.
    pub(crate) fn solve_walk(
        &self,
        req: &Request,
        rng: &mut Rng,
    ) -> Result<(Solution, Option<Vec<u32>>), InputError> {
        self.check(req)?;
        let board = req.board;
        let closed = classical::wants_closed(req);
        let start = classical::start_square(req);
        // Whether a walk ends where a closed tour needs it to (always, for an open one).
        let closes = |path: &[u32]| {
            !closed || (board.squares() > 2 && board.is_knight_move(*path.last().unwrap(), start))
        };
        let mut attempts = 0u64;
        let mut last;
        loop {
            attempts += 1;
            last = try_run_on(Engine::DEFAULT, board, start, self.tie, rng)?;
            if (last.complete(board) && closes(&last.path)) || attempts > self.restarts as u64 {
                break;
            }
        }
        let complete = last.complete(board);
        let facts = Facts::Warnsdorff(WarnsdorffFacts {
            visited: last.path.len(),
            ties: last.ties,
        });
        let outcome = if complete {
            Outcome::Tour
        } else {
            Outcome::Stuck
        };
        let steps = Some(last.path.len() as u64 - 1);
        let (squares, walk) = match (complete, closes(&last.path)) {
            (true, true) => (Some(last.path), None),
            (false, _) => (None, Some(last.path)),
            // A whole walk that does not close when a closed tour was asked for: the
            // solution has no tour (`finish` says why), and the walk is still shown.
            (true, false) => (Some(last.path.clone()), Some(last.path)),
        };
        let solution = classical::finish(
            self.name(),
            req,
            squares,
            Report {
                outcome,
                attempts,
                steps,
                facts,
            },
        )?;
        Ok((solution, walk))
    }
}

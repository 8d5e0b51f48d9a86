//! `warnsdorff-backtrack`: depth-first search that tries moves in Warnsdorff's order
//! (fewest onward moves first; ties farthest from the board centre as in Roth's rule,
//! then clockwise), so its first descent is exactly a Warnsdorff–Roth run, and it
//! backtracks when that run gets stuck. Moves to a square with no onward move are
//! skipped unless it is the last square (they can only be dead ends).
//!
//! Variant `ties` (`warnsdorff-backtrack:ties`): at each square only the moves tied for
//! Warnsdorff's minimum are tried, so a dead end jumps straight back to the last square
//! where the rule had a real choice (a tie point) instead of one step. This search is
//! incomplete: it can report `exhausted-ties` on a board that has tours.
//!
//! Arguments, returns and budget as for [`super::backtrack`]. Deterministic.
//!
//! Complexity: O(mn) when Warnsdorff's rule succeeds outright; exponential worst case.

use super::search::{self, Config, Order};
use super::{Request, Solution, Solver, SolverName};
use crate::Rng;
use crate::error::InputError;

/// Depth-first search in Warnsdorff's order as a [`Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarnsdorffBacktrackSolver {
    /// Try only the moves tied for Warnsdorff's minimum (variant `ties`).
    pub ties_only: bool,
    /// The step budget.
    pub max_steps: u64,
}

impl WarnsdorffBacktrackSolver {
    /// The search, all moves or tie points only, with the default step budget.
    pub fn new(ties_only: bool) -> WarnsdorffBacktrackSolver {
        WarnsdorffBacktrackSolver {
            ties_only,
            max_steps: search::DEFAULT_MAX_STEPS,
        }
    }

    /// The search this solver runs on `req` (see [`super::search`]).
    pub fn config(&self, req: &Request) -> Config {
        Config {
            order: Order::Warnsdorff,
            ties_only: self.ties_only,
            forward_check: false,
            connectivity: false,
            closed: super::classical::wants_closed(req),
            max_steps: self.max_steps,
        }
    }
}

impl Solver for WarnsdorffBacktrackSolver {
    fn name(&self) -> SolverName {
        super::classical_name("warnsdorff-backtrack", self.ties_only.then_some("ties"))
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        search::check_request("warnsdorff-backtrack", self.max_steps, req)
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        search::solve_request(self.name(), self.config(req), req)
    }
}

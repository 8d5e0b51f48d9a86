//! `backtrack`: plain depth-first search for a knight's tour in the fixed clockwise move
//! order of [`crate::board::KNIGHT_OFFSETS`], with no pruning beyond "square already
//! visited" (the textbook method, e.g. Wirth, *Algorithms + Data Structures =
//! Programs*, 1976, sec. 3.4).
//!
//! Arguments: board (at most `super::classical::MAX_SEARCH_SQUARES` squares), start
//! square (default the corner), open or closed, and a step budget (`--max-steps`,
//! default [`super::search::DEFAULT_MAX_STEPS`]). A step is one square placed.
//!
//! Returns the first tour in that order (`tour`), `exhausted` when no tour of that kind
//! starts there, or `gave-up` after the budget. Deterministic.
//!
//! Complexity: exponential in the worst case; about 40 bytes per square.

use super::search::{self, Config, Order};
use super::{Request, Solution, Solver, SolverName};
use crate::Rng;
use crate::error::InputError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct BacktrackSolver {
    pub max_steps: u64,
}

impl Default for BacktrackSolver {
    fn default() -> Self {
        BacktrackSolver {
            max_steps: search::DEFAULT_MAX_STEPS,
        }
    }
}

impl BacktrackSolver {
    /// The search this solver runs on `req` (see [`super::search`]).
    pub fn config(&self, req: &Request) -> Config {
        Config {
            order: Order::Clockwise,
            ties_only: false,
            forward_check: false,
            connectivity: false,
            closed: super::classical::wants_closed(req),
            max_steps: self.max_steps,
        }
    }
}

impl Solver for BacktrackSolver {
    fn name(&self) -> SolverName {
        super::classical_name("backtrack", None)
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        search::check_request("backtrack", self.max_steps, req)
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        search::solve_request(self.name(), self.config(req), req)
    }
}

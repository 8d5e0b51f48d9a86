//! `forward-check`: depth-first search in the fixed clockwise move order that keeps,
//! for every unvisited square, the number of its unvisited neighbours up to date, and
//! backtracks as soon as some unvisited square can no longer be entered and left (for
//! an open tour one square may be left with a single way in: it must be the end; for a
//! closed tour a neighbour of the start counts the start as a way out). See
//! [`super::search`] for why this check is O(1) per move and never loses a tour.
//!
//! Variant `connectivity` (`forward-check:connectivity`) also backtracks when the
//! unvisited squares fall apart into parts the head cannot all reach, at O(mn) per
//! move. Measured on 8x8 (all 64 starts, budget 2*10^7 steps, release build): it
//! succeeds from exactly the same starts as plain forward checking, saves 1-5% of the
//! steps (corner: 275 vs 288 open, 309 vs 309 closed) and costs 4-7x the time
//! (222 s vs 57 s open, 6.8 s vs 1.0 s closed), so it does not pay for itself there.
//!
//! Arguments and returns as for [`super::backtrack`]; the budget (`--max-steps`)
//! counts the squares the connectivity checks scan as well as the squares placed, so
//! it bounds the time of the `connectivity` variant too. Deterministic.
//!
//! Complexity: exponential in the worst case, but far fewer steps than `backtrack`.

use super::search::{self, Config, Order};
use super::{Request, Solution, Solver, SolverName};
use crate::Rng;
use crate::error::InputError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ForwardCheckSolver {
    pub connectivity: bool,
    pub max_steps: u64,
}

impl ForwardCheckSolver {
    /// The search this solver runs on `req` (see [`super::search`]).
    pub fn config(&self, req: &Request) -> Config {
        Config {
            order: Order::Clockwise,
            ties_only: false,
            forward_check: true,
            connectivity: self.connectivity,
            closed: super::classical::wants_closed(req),
            max_steps: self.max_steps,
        }
    }
}

impl Solver for ForwardCheckSolver {
    fn name(&self) -> SolverName {
        super::classical_name("forward-check", self.connectivity.then_some("connectivity"))
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        search::check_request("forward-check", self.max_steps, req)
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        search::solve_request(self.name(), self.config(req), req)
    }
}

//! Warnsdorff's rule in watch mode: the `warnsdorff` solver's walk, one move per step.
//! The rule never takes a move back, so the walk is run once (by the solver's own
//! engine, from the same seed as `solve`) and shown move by move; the result at the end
//! is the solver's.

use super::{Steps, View};
use crate::error::InputError;
use crate::solvers::warnsdorff::{self, TieBreak, WarnsdorffSolver};
use crate::solvers::{classical, Request, Solution, Solver};
use crate::{rng_from_seed, Rng};

/// A Warnsdorff walk being watched.
pub struct WalkWatch {
    /// The whole walk, of which `shown` squares are on the board.
    path: Vec<u32>,
    shown: usize,
    /// What `solve` reports for this walk.
    solution: Result<Solution, InputError>,
}

impl WalkWatch {
    /// The walk with tie-break `tie` on `req`, drawing from `seed` as `solve` does;
    /// refused as `solve` refuses it.
    pub fn new(tie: TieBreak, req: &Request, seed: u64) -> Result<WalkWatch, InputError> {
        let solver = WarnsdorffSolver::new(tie);
        solver.check(req)?;
        let start = classical::start_square(req);
        let rng = || -> Rng { rng_from_seed(seed) };
        let path = warnsdorff::run(req.board, start, tie, &mut rng()).path;
        let solution = solver.solve(req, &mut rng());
        Ok(WalkWatch {
            path,
            shown: 1,
            solution,
        })
    }
}

impl Steps for WalkWatch {
    fn advance(&mut self) -> bool {
        let more = self.shown < self.path.len();
        if more {
            self.shown += 1;
        }
        more
    }

    fn result(&self) -> Option<Result<Solution, InputError>> {
        (self.shown == self.path.len()).then(|| self.solution.clone())
    }

    fn counters(&self) -> String {
        format!("moves {}", self.shown - 1)
    }

    fn view(&self) -> View<'_> {
        View::Path(&self.path[..self.shown])
    }
}

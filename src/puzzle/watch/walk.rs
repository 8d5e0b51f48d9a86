//! Warnsdorff's rule in watch mode: the `warnsdorff` solver's walk, one move per step.
//! The rule never takes a move back, so the walk is made once, by `solve` itself
//! (`WarnsdorffSolver::solve_walk`, from the same seed), and shown move by move; the
//! result at the end is that solve's.

use super::{Steps, View};
use crate::Rng;
use crate::error::InputError;
use crate::solvers::warnsdorff::{TieBreak, WarnsdorffSolver};
use crate::solvers::{Request, Solution};

/// A Warnsdorff walk being watched.
pub(crate) struct WalkWatch {
    /// The whole walk, of which `shown` squares are on the board.
    path: Vec<u32>,
    shown: usize,
    /// What `solve` reports for this walk.
    solution: Result<Solution, InputError>,
}

impl WalkWatch {
    /// The walk with tie-break `tie` on `req`, drawing from `rng` as `solve` does;
    /// refused as `solve` refuses it.
    pub fn new(tie: TieBreak, req: &Request, rng: &mut Rng) -> Result<WalkWatch, InputError> {
        let (solution, stuck) = WarnsdorffSolver::new(tie).solve_walk(req, rng)?;
        // The walk is the solution's tour unless `solve_walk` gave it apart.
        let path = match (stuck, solution.tour()) {
            (Some(walk), _) => walk,
            (None, tour) => tour.map_or_else(Vec::new, |t| t.squares().to_vec()),
        };
        Ok(WalkWatch {
            shown: path.len().min(1),
            path,
            solution: Ok(solution),
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

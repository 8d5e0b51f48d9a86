//! Warnsdorff's rule in watch mode: the `warnsdorff` solver's walk, one move per step.
//! The rule never takes a move back, so the walk is made once, by `solve` itself
//! (`WarnsdorffSolver::solve_walk` from the same seed on the knight's whole plane board,
//! the walk of [`on_graph`] on another geometry), and shown move by move; the result at
//! the end is that solve's.

use super::{Status, Steps, View};
use crate::Rng;
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::puzzle::Field;
use crate::solvers::Request;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::solvers::warnsdorff::{TieBreak, WarnsdorffSolver};

/// A Warnsdorff walk being watched.
pub(crate) struct WalkWatch {
    /// The whole walk (squares), of which `shown` squares are on the board.
    path: Vec<u32>,
    shown: usize,
    /// What `solve` reports for this walk.
    solution: Status,
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
            solution: Status::Done(Ok(solution)),
        })
    }

    /// The walk of [`on_graph`] on `graph`, the move graph of `field`, from `req`'s start
    /// (checked by the caller as [`on_graph::check`] checks it).
    pub fn on_graph(field: &Field, graph: &KnightGraph, req: &GraphRequest) -> WalkWatch {
        let (solution, walk) = on_graph::warnsdorff_solution(graph, &GraphSolver::Warnsdorff, req);
        let path = field.squares_of(&walk);
        WalkWatch {
            shown: path.len().min(1),
            path,
            solution: Status::DoneOnGraph(Ok(solution)),
        }
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

    fn result(&self) -> Option<Status> {
        (self.shown == self.path.len()).then(|| self.solution.clone())
    }

    fn counters(&self) -> String {
        format!("moves {}", self.shown - 1)
    }

    fn view(&self) -> View<'_> {
        View::Path(&self.path[..self.shown])
    }
}

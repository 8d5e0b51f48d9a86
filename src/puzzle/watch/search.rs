//! The search solvers in watch mode: their [`SolverRun`], one [`Search::step`] at a time.
//!
//! [`Search::step`]: crate::solvers::search::Search::step

use super::{Status, Stepper, View};
use crate::error::InputError;
use crate::solvers::search::{SolverRun, Step};
use crate::solvers::{Request, SolverKind};

/// A search solver being watched.
pub struct SearchWatch {
    run: SolverRun,
    steps: u64,
    status: Status,
}

impl SearchWatch {
    /// The run of `kind` (a search solver) on `req`, continuing `path` (which starts on
    /// the request's start square); refused as `solve` refuses it.
    pub fn new(kind: &SolverKind, req: &Request, path: &[u32]) -> Result<SearchWatch, InputError> {
        let run = kind
            .search_run(req, Some(path))
            .ok_or_else(|| InputError::param(format!("{kind} is not a search solver")))??;
        Ok(SearchWatch {
            run,
            steps: 0,
            status: Status::Running,
        })
    }
}

impl Stepper for SearchWatch {
    fn step(&mut self) -> &Status {
        if self.status.is_running() {
            if !matches!(self.run.step(), Step::Done(_)) {
                self.steps += 1;
            }
            if let Some(solution) = self.run.solution() {
                self.status = Status::Done(solution);
            }
        }
        &self.status
    }

    fn status(&self) -> &Status {
        &self.status
    }

    fn steps(&self) -> u64 {
        self.steps
    }

    fn counters(&self) -> String {
        let s = self.run.search();
        format!("placed {}, backtracks {}", s.steps, s.backtracks)
    }

    fn view(&self) -> View<'_> {
        View::Path(self.run.search().path())
    }
}

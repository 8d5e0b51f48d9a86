//! The search solvers in watch mode: their `SolverRun`, one [`Search::step`] at a time.
//!
//! [`Search::step`]: crate::solvers::search::Search::step

use super::{Steps, View};
use crate::error::InputError;
use crate::solvers::search::{SolverRun, Step};
use crate::solvers::{Request, Solution, SolverKind};

/// A search solver being watched.
pub(crate) struct SearchWatch {
    run: SolverRun,
}

impl SearchWatch {
    /// The run of `kind` (a search solver) on `req`, continuing `path` (which starts on
    /// the request's start square); refused as `solve` refuses it.
    pub fn new(kind: &SolverKind, req: &Request, path: &[u32]) -> Result<SearchWatch, InputError> {
        let run = kind
            .search_run(req, Some(path))
            .ok_or_else(|| InputError::param(format!("{kind} is not a search solver")))??;
        Ok(SearchWatch { run })
    }
}

impl Steps for SearchWatch {
    fn advance(&mut self) -> bool {
        !matches!(self.run.step(), Step::Done(_))
    }

    fn result(&self) -> Option<Result<Solution, InputError>> {
        self.run.solution()
    }

    fn counters(&self) -> String {
        let s = self.run.search();
        format!("placed {}, backtracks {}", s.steps, s.backtracks)
    }

    fn view(&self) -> View<'_> {
        View::Path(self.run.search().path())
    }
}

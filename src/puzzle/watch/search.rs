//! The search solvers in watch mode: on the knight's whole plane board their
//! `SolverRun`, one [`Search::step`] at a time; on another geometry the depth-first
//! search of [`crate::solvers::on_graph`] (`backtrack`, `forward-check`), one vertex
//! placed or taken back at a time.
//!
//! [`Search::step`]: crate::solvers::search::Search::step

use std::sync::Arc;

use super::{Status, Steps, View};
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::puzzle::Field;
use crate::solvers::on_graph::{Found, GraphSearch, GraphSolver, SearchStep};
use crate::solvers::search::{SolverRun, Step};
use crate::solvers::{Request, SolverKind};

/// A search solver being watched.
// One per watcher, never held in bulk: its size does not matter.
#[allow(clippy::large_enum_variant)]
pub(crate) enum SearchWatch {
    /// On the knight's whole plane board.
    Board(SolverRun),
    /// On a geometry's move graph.
    Graph(OnGraph),
}

/// The search of [`crate::solvers::on_graph`] being watched on a geometry.
pub(crate) struct OnGraph {
    search: GraphSearch,
    solver: GraphSolver,
    graph: Arc<KnightGraph>,
    field: Field,
    /// The search's path as squares.
    shown: Vec<u32>,
    /// How the search ended, once it has.
    found: Option<Found>,
}

impl SearchWatch {
    /// The run of `kind` (a search solver) on `req`, continuing `path` (which starts on
    /// the request's start square); refused as `solve` refuses it.
    pub fn new(kind: &SolverKind, req: &Request, path: &[u32]) -> Result<SearchWatch, InputError> {
        let run = kind
            .search_run(req, Some(path))
            .ok_or_else(|| InputError::param(format!("{kind} is not a search solver")))??;
        Ok(SearchWatch::Board(run))
    }

    /// The search of `solver` (`backtrack` or `forward-check`, checked by the caller as
    /// [`crate::solvers::on_graph::check`] checks it) on `graph`, the move graph of
    /// `field`, for an open tour continuing `path` (vertices), as `solve` runs it from
    /// the path's first vertex.
    pub fn on_graph(
        field: Field,
        graph: Arc<KnightGraph>,
        solver: GraphSolver,
        path: &[u32],
    ) -> SearchWatch {
        let (max_steps, forward_check) = match solver {
            GraphSolver::Backtrack { max_steps } => (max_steps, false),
            GraphSolver::ForwardCheck { max_steps } => (max_steps, true),
            _ => unreachable!("only the searches are stepped here"),
        };
        let search = GraphSearch::new(&graph, path, false, max_steps, forward_check);
        let found = search.is_tour().then(|| Found::Tour(path.to_vec()));
        SearchWatch::Graph(OnGraph {
            shown: field.squares_of(path),
            search,
            solver,
            graph,
            field,
            found,
        })
    }
}

impl Steps for SearchWatch {
    fn advance(&mut self) -> bool {
        match self {
            SearchWatch::Board(run) => !matches!(run.step(), Step::Done(_)),
            SearchWatch::Graph(g) => {
                if g.found.is_some() {
                    return false;
                }
                match g.search.step() {
                    SearchStep::Placed => {
                        let head = *g.search.path().last().expect("a vertex placed");
                        g.shown.push(g.field.square_of(head));
                        if g.search.is_tour() {
                            g.found = Some(Found::Tour(g.search.path().to_vec()));
                        }
                        true
                    }
                    SearchStep::TookBack => {
                        g.shown.pop();
                        true
                    }
                    SearchStep::Ended(found) => {
                        g.found = Some(found);
                        false
                    }
                }
            }
        }
    }

    fn result(&self) -> Option<Status> {
        match self {
            SearchWatch::Board(run) => run.solution().map(Status::Done),
            SearchWatch::Graph(g) => g.found.clone().map(|found| {
                Status::DoneOnGraph(Ok(found.finish(
                    &g.solver,
                    &g.graph,
                    false,
                    g.search.steps(),
                )))
            }),
        }
    }

    fn counters(&self) -> String {
        let (steps, backtracks) = match self {
            SearchWatch::Board(run) => (run.search().steps, run.search().backtracks),
            SearchWatch::Graph(g) => (g.search.steps(), g.search.backtracks()),
        };
        format!("placed {steps}, backtracks {backtracks}")
    }

    fn view(&self) -> View<'_> {
        match self {
            SearchWatch::Board(run) => View::Path(run.search().path()),
            SearchWatch::Graph(g) => View::Path(&g.shown),
        }
    }
}

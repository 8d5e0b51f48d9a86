//! `solve` beyond the knight on a whole plane board: the `leaper`, `surface`, `shape`
//! and `graph` keywords (the command line's `--leaper`, `--surface`, `--shape`,
//! `--graph`), the solvers of [`knightnet::solvers::on_graph`], and the
//! `GraphSolution` they return. The same arguments and seed give the same tour as
//! `knightnet solve` with those flags.

use std::path::PathBuf;

use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::geometry::{Leaper, Shape, Surface};
use knightnet::graph::{KnightGraph, Source};
use knightnet::graph_file::FileGraph;
use knightnet::plot::board::BoardFigure;
use knightnet::rng_from_seed;
use knightnet::solvers::SolverKind;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolution, GraphSolver};
use knightnet::target::{Named as TargetNamed, Target};
use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use serde_json::Value;

use crate::{errors, figure, json, tour};

/// The geometry keywords of `solve`, `Network` and `is_tour`, as given.
struct GeometryKeywords<'a, 'py> {
    leaper: Option<&'a Bound<'py, PyAny>>,
    surface: Option<String>,
    shape: Option<String>,
    graph: Option<PathBuf>,
}

/// What `board` and the geometry keywords name.
pub enum Named {
    /// The knight on a whole plane board: `solve` as before.
    Knight(Board),
    /// Anything else, its graph built.
    Graph(KnightGraph),
}

impl Named {
    /// What `board` and the geometry keywords `leaper`, `surface`, `shape` and `graph`
    /// name ([`GeometryKeywords::named`]).
    pub fn from_keywords(
        board: Option<Board>,
        leaper: Option<&Bound<'_, PyAny>>,
        surface: Option<String>,
        shape: Option<String>,
        graph: Option<PathBuf>,
    ) -> PyResult<Named> {
        GeometryKeywords {
            leaper,
            surface,
            shape,
            graph,
        }
        .named(board)
    }
}

impl GeometryKeywords<'_, '_> {
    /// The target: a graph file alone; else a shape (the picture's board) or `board`,
    /// with the leaper (default the knight) and the surface (default the plane).
    fn named(&self, board: Option<Board>) -> PyResult<Named> {
        let refuse = |m: &str| Err(PyValueError::new_err(m.to_string()));
        if let Some(path) = &self.graph {
            if board.is_some()
                || self.leaper.is_some()
                || self.surface.is_some()
                || self.shape.is_some()
            {
                return refuse(
                    "graph= names the whole graph; drop board, leaper, surface and shape",
                );
            }
            let file = FileGraph::read(path).map_err(errors::library)?;
            return graph(KnightGraph::from_file(file));
        }
        if self.shape.is_some() && board.is_some() {
            return refuse("shape= gives the board; drop board");
        }
        let shape = self
            .shape
            .as_deref()
            .map(|picture| {
                picture
                    .parse::<Shape>()
                    .map_err(|e| errors::input(shape_error(e)))
            })
            .transpose()?;
        let leaper = self.leaper.map(leaper).transpose()?;
        let surface = self
            .surface
            .as_deref()
            .map(|s| s.parse::<Surface>().map_err(errors::input))
            .transpose()?;
        Ok(
            match Target::name(board, shape, leaper, surface).map_err(errors::input)? {
                TargetNamed::Knight(board) => Named::Knight(board),
                TargetNamed::Other(target) => Named::Graph(target.graph().map_err(errors::input)?),
            },
        )
    }
}

fn shape_error(e: InputError) -> InputError {
    InputError::param(format!("shape: {}", e.render(&errors::Keywords)))
}

fn graph(g: Result<KnightGraph, knightnet::memory::MemoryError>) -> PyResult<Named> {
    Ok(Named::Graph(g.map_err(|e| errors::input(e.into()))?))
}

/// A leaper given as `"R,S"`, a name (`"zebra"`) or an `(r, s)` pair.
fn leaper(arg: &Bound<'_, PyAny>) -> PyResult<Leaper> {
    if let Ok(text) = arg.extract::<String>() {
        return text.parse().map_err(errors::input);
    }
    match arg.extract::<(u32, u32)>() {
        Ok((r, s)) => Leaper::new(r, s).map_err(errors::input),
        Err(_) => Err(pyo3::exceptions::PyTypeError::new_err(
            "leaper is 'R,S', a name such as 'zebra', or an (r, s) pair",
        )),
    }
}

/// The vertex `start` names: a square of a geometry (not a hole) or of the knight's
/// board, or a vertex number of a file graph (from 1).
fn start_vertex(graph: &KnightGraph, arg: &Bound<'_, PyAny>) -> PyResult<u32> {
    match graph.source() {
        Source::Geometry(m) => m
            .start_vertex(tour::square_arg(m.geometry().board(), arg)?)
            .map_err(errors::input),
        Source::File(f) => f
            .start_vertex(&arg.str()?.to_string_lossy())
            .map_err(errors::input),
        // Vertex v is square v (the knight's board runs in `solve`, but the answer holds).
        Source::Knight(board) => tour::square_arg(*board, arg),
    }
}

/// Run `kind` on `graph` (closed: `None` is the solver's default).
pub fn solve(
    py: Python<'_>,
    graph: KnightGraph,
    kind: &SolverKind,
    start: Option<&Bound<'_, PyAny>>,
    closed: Option<bool>,
    seed: u64,
) -> PyResult<PyGraphSolution> {
    let solver = GraphSolver::from_kind(kind).map_err(errors::input)?;
    let start = start.map(|s| start_vertex(&graph, s)).transpose()?;
    let req = GraphRequest {
        closed: closed.unwrap_or(solver.closed_by_default()),
        start,
    };
    let solution = py
        .detach(|| on_graph::solve(&graph, &solver, &req, &mut rng_from_seed(seed)))
        .map_err(errors::input)?;
    Ok(PyGraphSolution {
        solution,
        graph,
        seed,
    })
}

/// What a solver returned on another leaper, a cylinder or torus, a shape or a graph
/// file: the tour (when found) as the graph's vertices, and the solver's effort.
#[pyclass(module = "knightnet", name = "GraphSolution", frozen)]
pub struct PyGraphSolution {
    solution: GraphSolution,
    graph: KnightGraph,
    seed: u64,
}

#[pymethods]
impl PyGraphSolution {
    /// The tour's vertices in visiting order as the output numbers them (square
    /// numbers ``row * cols + col`` on a geometry, the file's numbers from 1 on a graph
    /// file), or ``None``.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u64>>> {
        self.numbers().map(|v| PyArray1::from_vec(py, v))
    }

    /// ``(row, col)`` of every square in visiting order on a geometry, shape
    /// ``(squares, 2)``; ``None`` on a graph file or without a tour.
    #[getter]
    fn tour<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<i64>>> {
        let Source::Geometry(m) = self.graph.source() else {
            return None;
        };
        let board = m.geometry().board();
        let t = self.solution.tour.as_ref()?;
        let rows: Vec<Vec<i64>> = t
            .vertices()
            .iter()
            .map(|&v| {
                let (r, c) = board.coords(m.square(v));
                vec![r as i64, c as i64]
            })
            .collect();
        PyArray2::from_vec2(py, &rows).ok()
    }

    /// What was toured, as ``solve --format json``'s ``target``: the leaper, surface
    /// and shape, or the file's name, format and sizes.
    #[getter]
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &knightnet::json::graph(&self.graph))
    }

    /// The seed the solver drew from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Solver name (``network``, ``network+merge``, ``warnsdorff``, ...).
    #[getter]
    fn solver(&self) -> &str {
        self.solution.solver
    }

    /// Whether a closed tour was asked for.
    #[getter]
    fn closed(&self) -> bool {
        self.solution.closed
    }

    /// ``"tour"``, or why the solver stopped without one.
    #[getter]
    fn outcome(&self) -> String {
        self.solution.outcome.to_string()
    }

    /// Name of the first vertex (a square's name, or the file's number), or ``None``.
    #[getter]
    fn start(&self) -> Option<String> {
        let t = self.solution.tour.as_ref()?;
        Some(self.graph.vertex_name(t.vertices()[0]))
    }

    /// Network steps over all attempts (0 for the other solvers).
    #[getter]
    fn iterations(&self) -> u64 {
        self.solution.iterations
    }

    /// Network attempts (1 for the other solvers).
    #[getter]
    fn attempts(&self) -> u64 {
        self.solution.attempts
    }

    /// Vertices placed, for Warnsdorff and the search solvers (else ``None``).
    #[getter]
    fn steps(&self) -> Option<u64> {
        self.solution.steps
    }

    /// Everything ``knightnet solve --format json`` prints for this solution, as a dict.
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.json())
    }

    /// Draw the tour as ``knightnet solve --png/--svg`` does on a geometry: holes
    /// dark and crossed, wrapped moves running off their edges (``ValueError`` without
    /// a tour, or on a graph file, which has no squares to draw).
    fn save_figure(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let Some(fig) = BoardFigure::graph_solution(&self.solution, &self.graph, self.seed) else {
            return Err(PyValueError::new_err(match self.solution.tour {
                None => format!(
                    "no tour to draw: the solver stopped with '{}'",
                    self.solution.outcome
                ),
                Some(_) => format!("{} has no squares to draw", self.graph.describe()),
            }));
        };
        let width = BoardFigure::default_width(fig.board);
        figure::save(py, &fig, &path, width)
    }

    fn __repr__(&self) -> String {
        format!(
            "<GraphSolution: {} on {}, seed {}: {}>",
            self.solution.solver,
            self.graph.describe(),
            self.seed,
            self.solution.outcome
        )
    }
}

impl PyGraphSolution {
    fn json(&self) -> Value {
        knightnet::json::graph_solution(&self.solution, &self.graph, self.seed)
    }

    /// The tour's vertices as the JSON numbers them ([`knightnet::json::vertex_number`]).
    fn numbers(&self) -> Option<Vec<u64>> {
        let tour = self.solution.tour.as_ref()?;
        Some(
            tour.vertices()
                .iter()
                .map(|&v| knightnet::json::vertex_number(&self.graph, v))
                .collect(),
        )
    }
}

//! `solve`: one tour with any solver, named as on the command line, and the `Solution`
//! it returns. The same arguments and seed give the same solution as `knightnet solve`.

use std::path::PathBuf;

use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::network::Overrides;
use knightnet::plot::board::BoardFigure;
use knightnet::rng_from_seed;
use knightnet::solvers::{Request, Solution, SolverKind, split_name};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::board::{self, PyBoard};
use crate::graph_solve::{self, Named};
use crate::params;
use crate::tour::{self, PyTour};
use crate::{errors, figure, json};

/// What a solver returned: the tour (when found) and the solver's effort.
#[pyclass(module = "knightnet", name = "Solution", frozen)]
pub struct PySolution {
    pub solution: Solution,
    pub board: Board,
    pub seed: u64,
}

#[pymethods]
impl PySolution {
    /// ``(row, col)`` of every square in visiting order, shape ``(squares, 2)``, or
    /// ``None`` when no tour was found (the ``"tour"`` of ``solve --format json``; a new
    /// array on every access).
    #[getter]
    fn tour<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<i64>>> {
        self.solution.tour().map(|t| tour::coords(py, t))
    }

    /// Square numbers (``row * cols + col``) in visiting order, or ``None``.
    #[getter]
    fn squares<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u32>>> {
        self.solution
            .tour()
            .map(|t| PyArray1::from_slice(py, t.squares()))
    }

    /// The tour as a :class:`Tour`, or ``None``.
    fn to_tour(&self) -> Option<PyTour> {
        self.solution.tour().cloned().map(|tour| PyTour { tour })
    }

    /// The board.
    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard { board: self.board }
    }

    /// The seed the solver drew from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// Solver name (``network``, ``warnsdorff``, ...).
    #[getter]
    fn solver(&self) -> &str {
        self.solution.solver().family().name()
    }

    /// Preset or tie-break (``parberry``, ``roth``, ...), if the solver has one.
    #[getter]
    fn variant(&self) -> Option<&str> {
        self.solution.solver().detail()
    }

    /// Whether the tour (when found) is closed.
    #[getter]
    fn closed(&self) -> bool {
        self.solution.closed()
    }

    /// ``"tour"``, or why the solver stopped without one.
    #[getter]
    fn outcome(&self) -> String {
        self.solution.outcome().to_string()
    }

    /// Name of the first square, or ``None``.
    #[getter]
    fn start(&self) -> Option<String> {
        let t = self.solution.tour()?;
        Some(self.board.square_name(t.start()))
    }

    /// Network steps or sweeps over all attempts (0 for the search solvers).
    #[getter]
    fn iterations(&self) -> u64 {
        self.solution.iterations
    }

    /// Attempts made (restarts + 1).
    #[getter]
    fn attempts(&self) -> u64 {
        self.solution.attempts
    }

    /// Squares placed, for the search solvers (else ``None``).
    #[getter]
    fn steps(&self) -> Option<u64> {
        self.solution.steps
    }

    /// Everything ``knightnet solve --format json`` prints for this solution, as a dict
    /// (the same keys and values; timings, whose keys end in ``_ns``, left out).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &self.json())
    }

    /// Draw the tour as ``knightnet solve --png/--svg`` does (``ValueError`` without a
    /// tour).
    fn save_figure(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let Some(fig) = BoardFigure::solution(&self.solution, self.seed) else {
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "no tour to draw: the solver stopped with '{}'",
                self.solution.outcome()
            )));
        };
        figure::save(py, &fig, &path, BoardFigure::default_width(self.board))
    }

    fn __repr__(&self) -> String {
        format!(
            "<Solution: {} on {}, seed {}: {}>",
            self.solution.solver().family(),
            self.board,
            self.seed,
            self.solution.outcome()
        )
    }
}

impl PySolution {
    /// The fields of `solve --format json`, the tour as `[row, col]` pairs.
    fn json(&self) -> Value {
        knightnet::json::solution(&self.solution, self.board, self.seed)
    }
}

/// The solver of one `solve` call, checked as the command line checks it.
fn solver_kind(
    solver: &str,
    merge: bool,
    tile: Option<&str>,
    network: &Overrides,
    tie_break: Option<&str>,
    max_steps: Option<u64>,
    restarts: Option<u32>,
) -> Result<SolverKind, InputError> {
    let mut kind: SolverKind = solver.parse()?;
    // A preset or tie-break named in the solver and again by its keyword must agree.
    let (head, tail) = split_name(solver.trim());
    if let Some(tail) = tail {
        let given = match head {
            "network" | "network+merge" | "neural+merge" => {
                network.preset.map(|p| ("preset", p.name()))
            }
            "warnsdorff" => tie_break.map(|t| ("tie_break", t)),
            _ => None,
        };
        if let Some((name, value)) = given.filter(|(_, v)| v.trim() != tail.trim()) {
            return Err(InputError::param(format!(
                "solver '{}' and {name}='{value}' contradict each other; give the {} once",
                solver.trim(),
                if name == "preset" {
                    "preset"
                } else {
                    "tie-break"
                }
            )));
        }
    }
    if merge {
        kind = kind.merged()?;
    }
    if let Some(t) = tile {
        kind.set_tile(t.parse()?)?;
    }
    match &mut kind {
        SolverKind::Network(p) => *p = network.apply(*p)?,
        SolverKind::NetworkMerge { params, .. } => *params = network.apply(*params)?,
        _ if network.any() => {
            return Err(InputError::param(format!(
                "network parameters (preset, c, ...) apply only to solver='network', not '{solver}'"
            )));
        }
        _ => {}
    }
    let tie_break = tie_break.map(str::parse).transpose()?;
    kind.apply_classical_flags(tie_break, max_steps, restarts)?;
    Ok(kind)
}

/// Find one tour on ``board`` with ``solver`` (any name the command line takes:
/// ``network[:PRESET]``, ``network+merge[:PRESET]``, ``warnsdorff[:TIE]``, ``backtrack``,
/// ``forward-check[:connectivity]``, ``warnsdorff-backtrack[:ties]``, ``circuit``,
/// ``divide-conquer``), drawing randomness only from ``seed``.
///
/// The keywords are those of ``knightnet solve``: ``start`` (a square number, a
/// ``(row, col)`` pair or a name such as ``"a1"``), ``reverse``, ``closed`` (``True``:
/// closed required, ``False``: open is enough, ``None``: the solver's default),
/// ``merge``, ``tile``, ``tie_break``, ``max_steps``, ``restarts``, and for the network
/// ``preset`` (``--variant``) and the overrides ``c``, ``s``, ``upper``, ``lower``,
/// ``order``, ``init``, ``clamp``, ``stop``, ``max_iterations``, ``max_attempts``.
/// Bad input raises ``ValueError`` with the command line's message; a solver that
/// finds no tour returns a solution whose ``tour`` is ``None``. Runs without the GIL.
///
/// Beyond the knight on a whole plane board (``--leaper``, ``--surface``, ``--shape``,
/// ``--graph``): ``leaper`` (``"2,3"``, ``"zebra"`` or ``(2, 3)``), ``surface``
/// (``"plane"``, ``"cylinder"``, ``"torus"``), ``shape`` (a text picture, ``.`` a square
/// and ``#`` a hole, instead of ``board``) or ``graph`` (the path of an HCP, DIMACS or
/// edge-list file, instead of ``board``). Then the solvers that run on any graph do
/// (``network``, ``network+merge``, ``warnsdorff``, ``backtrack``, ``forward-check``),
/// ``start`` is a square of the shape or a vertex number of the file (from 1), and the
/// result is a :class:`GraphSolution`. Naming the knight on a whole plane board this way
/// is the same as naming the board.
#[pyfunction]
#[pyo3(signature = (board = None, solver = "network", *, seed = knightnet::DEFAULT_SEED,
    start = None, reverse = false, closed = None, merge = false, tile = None, preset = None,
    tie_break = None, max_steps = None, restarts = None, leaper = None, surface = None,
    shape = None, graph = None, **network))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    board: Option<&Bound<'py, PyAny>>,
    solver: &str,
    seed: u64,
    start: Option<&Bound<'_, PyAny>>,
    reverse: bool,
    closed: Option<bool>,
    merge: bool,
    tile: Option<String>,
    preset: Option<String>,
    tie_break: Option<String>,
    max_steps: Option<u64>,
    restarts: Option<u32>,
    leaper: Option<&Bound<'py, PyAny>>,
    surface: Option<String>,
    shape: Option<String>,
    graph: Option<PathBuf>,
    network: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let board = board.map(board::extract).transpose()?;
    let overrides = params::from_kwargs(preset, network)?;
    let kind = solver_kind(
        solver,
        merge,
        tile.as_deref(),
        &overrides,
        tie_break.as_deref(),
        max_steps,
        restarts,
    )
    .map_err(errors::input)?;
    let board = match Named::from_keywords(board, leaper, surface, shape, graph)? {
        Named::Knight(board) => board,
        Named::Graph(g) => {
            if reverse || restarts.is_some() || tile.is_some() {
                return Err(pyo3::exceptions::PyValueError::new_err(
                    "reverse, restarts and tile apply to the knight on a whole plane board; drop them",
                ));
            }
            let sol = graph_solve::solve(py, g, &kind, start, closed, seed)?;
            return Ok(Bound::new(py, sol)?.into_any());
        }
    };
    let start = start.map(|s| tour::square_arg(board, s)).transpose()?;
    let request = Request {
        board,
        closed: closed.into(),
        start,
        reverse,
    };
    let solution = py
        .detach(|| {
            let s = kind.build();
            s.check(&request)?;
            s.solve(&request, &mut rng_from_seed(seed))
        })
        .map_err(errors::input)?;
    Ok(Bound::new(
        py,
        PySolution {
            solution,
            board,
            seed,
        },
    )?
    .into_any())
}

/// Every solver name ``solve`` and experiment specs accept.
#[pyfunction]
pub fn solver_names() -> Vec<String> {
    SolverKind::names()
}

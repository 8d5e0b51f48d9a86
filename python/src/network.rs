//! `Network`: the Takefuji–Lee network on one board (the knight's, another leaper's, a
//! cylinder, a torus, a shape with holes) or a graph file, stepped from Python with its
//! state as numpy arrays, and `Run`, the result of a whole seeded solve with its trace.

use std::sync::Arc;

use std::path::PathBuf;

use knightnet::board::Board;
use knightnet::graph::{KnightGraph, Source};
use knightnet::network::OutputState;
use knightnet::network::{
    Attempt, Network, NetworkParams, OwnedDynamics, Preset, State, StepStats, Termination, Trace,
    classify, first_attempt_rng,
};
use knightnet::plot::board::BoardFigure;
use knightnet::rng_from_seed;
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolver};
use knightnet::solvers::{Request, Solver};
use knightnet::tour::Tour;
use ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::board::{self, PyBoard};
use crate::graph_solve::Named;
use crate::tour::PyTour;
use crate::{errors, figure, json, params};

/// The network of one board or graph: every move (edge) is a neuron with integer state
/// U and output V (0 or 1).
///
/// ``Network(board, preset="parberry", seed=1, **overrides)`` draws the initial state of
/// one attempt from ``seed`` exactly as ``knightnet solve --seed SEED --max-attempts 1``
/// draws its attempt 0: the attempt an experiment record, a ``compare`` trial's first
/// attempt or a ``convergence`` run with that seed made (their CSV and JSON list the
/// seeds; :func:`trial_seed` derives them);
/// ``step()`` updates every neuron once (a sweep for sequential orders). The overrides
/// are those of ``solve``: ``c``, ``s``, ``upper``, ``lower``, ``order``, ``init``,
/// ``clamp``, ``stop``, ``max_iterations``, ``max_attempts``.
///
/// The keywords ``leaper``, ``surface``, ``shape`` and ``graph`` name another graph as
/// :func:`solve` takes them (``Network("10x10", leaper="zebra", surface="torus")``,
/// ``Network(graph="petersen.dimacs")``); its ``run()`` is then ``knightnet solve
/// --solver network`` with those flags. The arrays number the graph's vertices from 0
/// (a square's number ``row * cols + col`` on a board without holes); ``vertex_numbers``
/// gives each vertex's number as the output numbers it.
///
/// ``u``, ``v``, ``degrees`` and ``edges`` are **copies**: each access returns a new
/// numpy array that later steps do not change (keep them to compare steps).
/// ``run()`` is the whole solve ``knightnet solve --solver network --seed SEED`` runs
/// (restarts included; its attempts draw from their own streams, attempt 0 from the
/// stepped network's initial state), independent of the stepped state.
#[pyclass(module = "knightnet", name = "Network")]
pub struct PyNetwork {
    graph: Arc<KnightGraph>,
    params: NetworkParams,
    seed: u64,
    /// The one network stepped from Python, kept between steps.
    dynamics: OwnedDynamics<Arc<KnightGraph>>,
    iterations: u32,
    stopped: bool,
}

/// Measurements after one step.
#[pyclass(module = "knightnet", name = "StepStats", frozen, get_all)]
#[derive(Clone, Copy)]
pub struct PyStepStats {
    /// Number of the step (1 for the first).
    pub iteration: u32,
    /// Neurons whose U changed.
    pub changed: u32,
    /// Outputs that flipped.
    pub flips: u32,
    /// Active neurons (V = 1) after the step.
    pub active: u32,
    /// Squares whose number of active moves is not 2 after the step.
    pub off_two: u32,
    /// Whether the stop rule fired on this step.
    pub stopped: bool,
}

#[pymethods]
impl PyStepStats {
    fn __repr__(&self) -> String {
        format!(
            "StepStats(iteration={}, changed={}, flips={}, active={}, off_two={}, stopped={})",
            self.iteration,
            self.changed,
            self.flips,
            self.active,
            self.off_two,
            if self.stopped { "True" } else { "False" }
        )
    }
}

#[pymethods]
impl PyNetwork {
    #[new]
    #[pyo3(signature = (board = None, preset = None, seed = knightnet::DEFAULT_SEED, *,
        leaper = None, surface = None, shape = None, graph = None, **overrides))]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        py: Python<'_>,
        board: Option<&Bound<'_, PyAny>>,
        preset: Option<String>,
        seed: u64,
        leaper: Option<&Bound<'_, PyAny>>,
        surface: Option<String>,
        shape: Option<String>,
        graph: Option<PathBuf>,
        overrides: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyNetwork> {
        let board = board.map(board::extract).transpose()?;
        let named = Named::from_keywords(board, leaper, surface, shape, graph)?;
        let params = params::from_kwargs(preset, overrides)?
            .apply(Preset::Parberry.params())
            .map_err(errors::input)?;
        if !params.rule.is_plain() {
            return Err(errors::input(knightnet::error::InputError::param(format!(
                "preset '{}' runs a rule other than the plain one, which Network does not step; run it with knightnet.solve(\"network:{}\", ...)",
                params.rule.name(),
                params.rule.name()
            ))));
        }
        let graph = match named {
            Named::Knight(board) => {
                NetworkSolver::new(params)
                    .check(&Request::new(board))
                    .map_err(errors::input)?;
                py.detach(|| KnightGraph::new(board))
            }
            Named::Graph(graph) => {
                let request = GraphRequest {
                    closed: true,
                    start: None,
                };
                on_graph::check(&graph, &GraphSolver::Network(params), &request)
                    .map_err(errors::input)?;
                graph
            }
        };
        Network::new(&graph, params).map_err(errors::input)?;
        if graph.max_degree() > usize::from(u8::MAX) {
            return Err(errors::input(knightnet::error::InputError::param(format!(
                "Network reports each vertex's active edges as uint8, and {} has a vertex of degree {}; graphs of degree up to 255 are stepped; run it with knightnet.solve(solver=\"network\", graph=...)",
                graph.describe(),
                graph.max_degree()
            ))));
        }
        py.detach(|| {
            let graph = Arc::new(graph);
            let state = State::random(&graph, &params, &mut first_attempt_rng(seed));
            Ok(PyNetwork {
                dynamics: OwnedDynamics::new(Arc::clone(&graph), params, state),
                graph,
                params,
                seed,
                iterations: 0,
                stopped: false,
            })
        })
    }

    /// The board (the rectangle a shape is cut from), or ``None`` on a graph file.
    #[getter]
    fn board(&self) -> Option<PyBoard> {
        self.graph.board().map(|board| PyBoard { board })
    }

    /// What the network runs on, as ``solve --format json``'s ``target``: ``None`` for
    /// the knight on a whole plane board, else the leaper, surface and shape, or the
    /// file's name, format and sizes.
    #[getter]
    fn target<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json::to_py(py, &knightnet::json::graph(&self.graph))
    }

    /// Each vertex's number as the output numbers it, indexed by vertex (``uint64``, a
    /// copy): its square ``row * cols + col`` on a board, its number in the file (from
    /// 1) on a graph file.
    #[getter]
    fn vertex_numbers<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        let numbers = (0..self.graph.squares() as u32)
            .map(|v| knightnet::json::vertex_number(&self.graph, v))
            .collect();
        PyArray1::from_vec(py, numbers)
    }

    /// The seed of the initial state and of `run()`.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The parameters in force (field names as in ``run.json``).
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        params::to_dict(py, &self.params)
    }

    /// The configuration's name, which replays it: the preset's name, then
    /// ``--KEY VALUE`` for each parameter that differs from it (``parberry --c 5``), as
    /// ``knightnet solve --variant`` takes them.
    #[getter]
    fn variant(&self) -> String {
        self.params.variant()
    }

    /// Number of neurons (the graph's edges: the legal moves).
    #[getter]
    fn neurons(&self) -> usize {
        self.graph.edges()
    }

    /// Steps made so far.
    #[getter]
    fn iterations(&self) -> u32 {
        self.iterations
    }

    /// Whether the stop rule fired on the last step.
    #[getter]
    fn stopped(&self) -> bool {
        self.stopped
    }

    /// State U of every neuron (``int32``, a copy).
    #[getter]
    fn u<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        PyArray1::from_array(py, self.dynamics.state().u())
    }

    /// Output V of every neuron (``uint8``, 0 or 1, a copy).
    #[getter]
    fn v<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_array(py, self.dynamics.state().v())
    }

    /// Active moves (V = 1) at every vertex (``uint8``, indexed by vertex: by square
    /// number on a board without holes; a copy).
    #[getter]
    fn degrees<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        PyArray1::from_array(py, &degrees_u8(self.dynamics.deg()))
    }

    /// The two vertices of every neuron, shape ``(neurons, 2)`` (``uint32``, a copy).
    #[getter]
    fn edges<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u32>> {
        let e = self.graph.edges();
        let pairs = Array2::from_shape_fn((e, 2), |(i, j)| {
            let (a, b) = self.graph.endpoints(i);
            if j == 0 { a } else { b }
        });
        PyArray2::from_owned_array(py, pairs)
    }

    /// Vertices whose number of active moves is not 2.
    #[getter]
    fn off_two(&self) -> u32 {
        self.dynamics.off_two()
    }

    /// Active neurons.
    #[getter]
    fn active(&self) -> u32 {
        self.dynamics.active()
    }

    /// One step (a sweep for sequential orders); returns its measurements. Steps go on
    /// past the stop rule and the iteration cap if asked to.
    fn step(&mut self, py: Python<'_>) -> PyStepStats {
        py.detach(|| self.advance())
    }

    /// An iterator of steps until the stop rule fires or ``max_iterations`` steps have
    /// been made (``limit``: at most this many more), as one attempt runs.
    #[pyo3(signature = (limit = None))]
    fn steps(slf: Bound<'_, Self>, limit: Option<u64>) -> Steps {
        Steps {
            network: slf.unbind(),
            left: limit,
        }
    }

    /// Step until the stop rule fires or the iteration cap, then classify the outputs as
    /// the library ends an attempt (``knightnet convergence`` reports this outcome).
    fn finish(&mut self, py: Python<'_>) -> PyAttempt {
        py.detach(|| {
            while !self.stopped && self.iterations < self.params.max_iterations {
                self.advance();
            }
            let v = self.dynamics.state().v().as_slice().expect("contiguous");
            PyAttempt {
                attempt: classify(&self.graph, v, self.stopped, self.iterations),
            }
        })
    }

    /// The whole seeded solve: attempts until a tour or ``max_attempts``, as
    /// ``knightnet solve --solver network --seed SEED`` (with this network's parameters).
    /// With ``trace`` the last attempt's outputs and measurements are kept, as
    /// ``solve --trace`` writes them. Runs without the GIL.
    #[pyo3(signature = (trace = true))]
    fn run(&self, py: Python<'_>, trace: bool) -> PyResult<PyRun> {
        let (graph, params, seed) = (&self.graph, self.params, self.seed);
        let (run, mut t) = py
            .detach(|| {
                let net = Network::new(graph, params)?;
                let mut t = Trace::default();
                let run = net.solve_traced(
                    &mut rng_from_seed(seed),
                    if trace { Some(&mut t) } else { None },
                );
                Ok::<_, knightnet::error::InputError>((run, t))
            })
            .map_err(errors::input)?;
        let trace = if trace {
            Some(Py::new(py, PyTrace::new(&t, self.graph.edges()))?)
        } else {
            None
        };
        Ok(PyRun {
            graph: Arc::clone(&self.graph),
            tour: run.tour,
            attempts: run.attempts,
            iterations: run.total_iterations,
            last: run.last,
            terminations: run.terminations,
            trace,
            last_outputs: t.outputs.pop(),
            seed,
            variant: params.variant(),
        })
    }

    /// Draw the current state: its cycles when every square has two active moves, else
    /// the active moves in grey with the other squares ringed; a shape's holes and the
    /// moves that wrap round a cylinder or torus as ``solve --png`` draws them
    /// (``ValueError`` on a graph file, which has no squares to draw).
    #[pyo3(signature = (path, title = None, width = None))]
    fn save_figure(
        &self,
        py: Python<'_>,
        path: PathBuf,
        title: Option<String>,
        width: Option<u32>,
    ) -> PyResult<()> {
        let board = drawn_board(&self.graph)?;
        let fig = BoardFigure::outputs(
            &self.graph,
            &self.dynamics.state().outputs(),
            title.unwrap_or_else(|| format!("Network on {}", place(&self.graph))),
            format!(
                "{}, seed {}, after {} iterations",
                self.params.variant(),
                self.seed,
                self.iterations
            ),
        )
        .map_err(errors::plot)?;
        figure::save(
            py,
            &fig,
            &path,
            width.unwrap_or_else(|| BoardFigure::default_width(board)),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<Network: {} on {}, seed {}, {} iterations>",
            self.params.variant(),
            place(&self.graph),
            self.seed,
            self.iterations
        )
    }
}

impl PyNetwork {
    /// One step of the library's dynamics on the held state.
    pub(crate) fn advance(&mut self) -> PyStepStats {
        let stats: StepStats = self.dynamics.step();
        self.iterations += 1;
        self.stopped = self.params.stop.settled(&stats);
        PyStepStats {
            iteration: self.iterations,
            changed: stats.changed,
            flips: stats.flips,
            active: stats.active,
            off_two: stats.off_two,
            stopped: self.stopped,
        }
    }
}

/// The iterator of `Network.steps()`.
#[pyclass(module = "knightnet")]
pub struct Steps {
    network: Py<PyNetwork>,
    left: Option<u64>,
}

#[pymethods]
impl Steps {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<PyStepStats> {
        if self.left == Some(0) {
            return None;
        }
        let mut net = self.network.bind(py).borrow_mut();
        if net.stopped || net.iterations >= net.params.max_iterations {
            return None;
        }
        if let Some(n) = &mut self.left {
            *n -= 1;
        }
        Some(net.advance())
    }
}

/// How one attempt ended.
#[pyclass(module = "knightnet", name = "Attempt", frozen)]
pub struct PyAttempt {
    attempt: Attempt,
}

#[pymethods]
impl PyAttempt {
    /// ``tour``, ``multiple-cycles``, ``stable-not-degree-two`` or ``iteration-cap``.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.attempt.termination.name()
    }

    /// Steps (or sweeps) of the attempt.
    #[getter]
    fn iterations(&self) -> u32 {
        self.attempt.iterations
    }

    /// The cycles of the final outputs when every vertex has two active moves (each a
    /// ``uint32`` array of vertices, numbered as ``edges`` numbers them), else an empty
    /// list.
    #[getter]
    fn cycles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cycles(py, &self.attempt.cycles)
    }

    /// With ``stable-not-degree-two``: how many squares do not have two active moves.
    #[getter]
    fn squares_off(&self) -> Option<usize> {
        match self.attempt.termination {
            Termination::StableNotDegreeTwo { squares_off } => Some(squares_off),
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<Attempt: {} after {} iterations>",
            self.outcome(),
            self.attempt.iterations
        )
    }
}

fn cycles<'py>(py: Python<'py>, cycles: &[Vec<u32>]) -> PyResult<Bound<'py, PyList>> {
    PyList::new(py, cycles.iter().map(|c| PyArray1::from_slice(py, c)))
}

/// The outputs and measurements of one attempt, as arrays.
#[pyclass(module = "knightnet", name = "Trace", frozen)]
pub struct PyTrace {
    outputs: Array2<u8>,
    changed: Vec<u32>,
    flips: Vec<u32>,
    active: Vec<u32>,
    off_two: Vec<u32>,
}

impl PyTrace {
    fn new(t: &Trace, neurons: usize) -> PyTrace {
        let mut outputs = Array2::zeros((t.outputs.len(), neurons));
        for (mut row, state) in outputs.rows_mut().into_iter().zip(&t.outputs) {
            for (x, &on) in row.iter_mut().zip(state.outputs()) {
                *x = u8::from(on);
            }
        }
        PyTrace {
            outputs,
            changed: t.steps.iter().map(|s| s.changed).collect(),
            flips: t.steps.iter().map(|s| s.flips).collect(),
            active: t.steps.iter().map(|s| s.active).collect(),
            off_two: t.steps.iter().map(|s| s.off_two).collect(),
        }
    }
}

#[pymethods]
impl PyTrace {
    /// V of every neuron before the first step and after every step, shape
    /// ``(steps + 1, neurons)`` (``uint8``, a copy).
    #[getter]
    fn outputs<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u8>> {
        PyArray2::from_array(py, &self.outputs)
    }

    /// Neurons whose U changed, per step (``uint32``).
    #[getter]
    fn changed<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, &self.changed)
    }

    /// Outputs that flipped, per step.
    #[getter]
    fn flips<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, &self.flips)
    }

    /// Active neurons after every step.
    #[getter]
    fn active<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, &self.active)
    }

    /// Squares not at degree 2 after every step.
    #[getter]
    fn off_two<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, &self.off_two)
    }

    fn __len__(&self) -> usize {
        self.changed.len()
    }
}

/// A whole seeded solve of the network.
#[pyclass(module = "knightnet", name = "Run", frozen)]
pub struct PyRun {
    graph: Arc<KnightGraph>,
    tour: Option<Tour>,
    attempts: u32,
    iterations: u64,
    last: Attempt,
    terminations: [u32; 4],
    trace: Option<Py<PyTrace>>,
    /// The last attempt's final outputs (kept with the trace).
    last_outputs: Option<OutputState>,
    seed: u64,
    variant: String,
}

#[pymethods]
impl PyRun {
    /// ``tour`` or how the last attempt ended.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.last.termination.name()
    }

    /// The closed tour on the knight's board, or ``None`` (on any other graph the tour
    /// is ``vertices``).
    #[getter]
    fn tour(&self) -> Option<PyTour> {
        self.tour.clone().map(|tour| PyTour { tour })
    }

    /// The tour's vertices in visiting order as the output numbers them (square
    /// numbers ``row * cols + col`` on a board, the file's numbers from 1 on a graph
    /// file; as ``knightnet.solve(...).vertices``), or ``None``.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u64>>> {
        let numbers = match &self.tour {
            Some(t) => t.squares().iter().map(|&s| u64::from(s)).collect(),
            None => self
                .tour_cycle()?
                .iter()
                .map(|&v| knightnet::json::vertex_number(&self.graph, v))
                .collect(),
        };
        Some(PyArray1::from_vec(py, numbers))
    }

    /// Attempts made (1 when the first attempt found a tour).
    #[getter]
    fn attempts(&self) -> u32 {
        self.attempts
    }

    /// Steps over all attempts.
    #[getter]
    fn iterations(&self) -> u64 {
        self.iterations
    }

    /// The last attempt (the successful one, if any).
    #[getter]
    fn last(&self) -> PyAttempt {
        PyAttempt {
            attempt: self.last.clone(),
        }
    }

    /// Cycles of the last attempt's outputs (one for a tour), as vertices numbered as
    /// ``Network.edges`` numbers them.
    #[getter]
    fn cycles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        cycles(py, &self.last.cycles)
    }

    /// Attempts by outcome: ``{"tour": n, "multiple-cycles": n, ...}``.
    #[getter]
    fn terminations(&self) -> std::collections::BTreeMap<&'static str, u32> {
        Termination::NAMES
            .into_iter()
            .zip(self.terminations)
            .collect()
    }

    /// The last attempt's trace, or ``None`` for ``run(trace=False)``.
    #[getter]
    fn trace(&self, py: Python<'_>) -> Option<Py<PyTrace>> {
        self.trace.as_ref().map(|t| t.clone_ref(py))
    }

    /// Draw the result: the tour, else the last attempt's cycles or (with a trace) its
    /// final outputs; a shape's holes and wrapped moves as ``solve --png`` draws them
    /// (``ValueError`` on a graph file, which has no squares to draw).
    #[pyo3(signature = (path, width = None))]
    fn save_figure(&self, py: Python<'_>, path: PathBuf, width: Option<u32>) -> PyResult<()> {
        let board = drawn_board(&self.graph)?;
        let subtitle = format!(
            "network ({}), seed {}, {} attempt{}: {}",
            self.variant,
            self.seed,
            self.attempts,
            if self.attempts == 1 { "" } else { "s" },
            self.outcome()
        );
        let moves = match self.graph.source() {
            Source::Geometry(m) => Some(m),
            _ => None,
        };
        // On the knight's board vertex `v` is square `v`.
        let squares =
            |vertices: &[u32]| moves.map_or_else(|| vertices.to_vec(), |m| m.squares_of(vertices));
        let fig = if let Some(t) = &self.tour {
            BoardFigure::tour(t, BoardFigure::tour_title(t), subtitle)
        } else if let (Some(m), Some(cycle)) = (moves, self.tour_cycle()) {
            BoardFigure::geometry_tour(m.geometry(), m.squares_of(cycle), true, subtitle)
        } else if !self.last.cycles.is_empty() {
            let cycles: Vec<Vec<u32>> = self.last.cycles.iter().map(|c| squares(c)).collect();
            BoardFigure {
                geometry: moves.map(|m| m.geometry().clone()),
                ..BoardFigure::cycles(
                    board,
                    &cycles,
                    format!("Network cycles on {}", place(&self.graph)),
                    subtitle,
                )
            }
        } else if let Some(outputs) = &self.last_outputs {
            BoardFigure::outputs(
                &self.graph,
                outputs,
                format!("Network on {}", place(&self.graph)),
                subtitle,
            )
            .map_err(errors::plot)?
        } else {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "no tour and no cycles to draw; run(trace=True) keeps the final outputs",
            ));
        };
        figure::save(
            py,
            &fig,
            &path,
            width.unwrap_or_else(|| BoardFigure::default_width(board)),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "<Run: {} after {} attempts, {} iterations>",
            self.outcome(),
            self.attempts,
            self.iterations
        )
    }
}

impl PyRun {
    /// The tour as the network's one cycle, when the last attempt found one.
    fn tour_cycle(&self) -> Option<&[u32]> {
        (self.last.termination == Termination::Tour)
            .then(|| self.last.cycles.first().map(Vec::as_slice))
            .flatten()
    }
}

/// The engine's active-move counts (16-bit, for the open graph's apex) as the `uint8`
/// array `degrees` returns: `Network` steps graphs of degree up to 255 only.
fn degrees_u8(deg: &ndarray::Array1<u16>) -> Array1<u8> {
    deg.mapv(|x| u8::try_from(x).expect("Network refuses graphs of degree above 255"))
}

/// What a network runs on, in a title: the knight's board as `8x8`, any other graph as
/// the library describes it.
fn place(graph: &KnightGraph) -> String {
    match graph.source().knight_board() {
        Some(board) => board.to_string(),
        None => graph.describe(),
    }
}

/// The board a figure of `graph` draws, or the refusal of a graph file.
fn drawn_board(graph: &KnightGraph) -> PyResult<Board> {
    graph.board().ok_or_else(|| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "{} has no squares to draw",
            graph.describe()
        ))
    })
}

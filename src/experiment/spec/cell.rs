//! A resolved cell, typed, and how `run.json` stores it; the start rule of its trials;
//! the replay flags of its network parameters.

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::error::InputError;
use crate::geometry::{Geometry, Leaper, Shape, Surface};
use crate::graph::Tours;
use crate::graph_file::FileGraph;
use crate::network::NetworkParams;
use crate::solvers::search::DEFAULT_MAX_STEPS;
use crate::solvers::{Request, SolverKind};
use crate::solvers::{SolverFamily, SolverName};
use crate::target::{Target, parse_shape_line, shape_text};

/// One (solver, board) pair of a spec, with everything needed to run its trials, held
/// typed: every value is parsed once, when the spec (or `run.json`) is read. A cell
/// beyond the knight on a whole plane board has a [`Target`] (a geometry or a graph
/// file); its trials run on that graph ([`crate::solvers::on_graph`]).
///
/// In `run.json` a cell is written as the strings and numbers the spec gave: `board` as `ROWSxCOLS`, `solver` as its name, the network parameters
/// under `params` (network cells) or `merge` (with the tile mode, `network+merge`
/// cells), a classical solver's caps as `max_steps`/`restarts` when they differ from its
/// defaults, and `start` as the spec's word or the square's name; a cell with a target
/// adds `leaper`, `surface` and `shape` (the picture's rows joined by `/`) or `graph`
/// (the file's name, its vertex count and its edges, vertices numbered from 1 as in the
/// file: `run.json` reads back without the file, the same from any folder).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredCell", into = "StoredCell")]
pub struct Cell {
    /// Position in the spec (records sort by it).
    pub index: usize,
    /// The solver entry's label; with the board it names the cell and seeds its trials.
    pub label: String,
    /// The board: the knight's, a geometry's rectangle (holes included), or for a graph
    /// file `1xV` (one square a vertex).
    pub board: Board,
    /// Where the trials run when it is not the knight on the whole plane `board`.
    pub target: Option<Target>,
    /// The solver with every parameter of the cell folded in: a network's parameters
    /// (`max_attempts` 1: a trial is one attempt), a merge's parameters and tile mode, a
    /// classical solver's step cap and restarts.
    pub solver: SolverKind,
    /// Classical cells: how each trial's start square is picked; open network cells: the
    /// square held first (never [`StartRule::Random`]).
    pub start: Option<StartRule>,
    /// Whether a closed tour is required (classical cells only; `None`: solver default).
    pub closed: Option<bool>,
    /// Network cells only: open tours, on the open graph (from `start` when given).
    pub open: bool,
    /// Trials of the cell.
    pub trials: u64,
}

impl Cell {
    /// The cell's name, `label/ROWSxCOLS`, which also enters its trial seeds; on a
    /// target, `label/` followed by [`Target::seed_text`] (the board with its leaper and
    /// surface, a shape's picture, or the graph file's name), so that it never shares
    /// its seeds with the knight's cell of the same label and board.
    pub fn key(&self) -> String {
        match &self.target {
            None => format!("{}/{}", self.label, self.board),
            Some(t) => format!("{}/{}", self.label, t.seed_text()),
        }
    }

    /// How summaries and figures name where the cell runs: the board (`8x8`), or the
    /// target's label (`8x8 torus (2,3)-leaper`, `graph petersen`).
    pub fn place(&self) -> String {
        match &self.target {
            None => self.board.to_string(),
            Some(t) => t.label(),
        }
    }

    /// The vertices a tour visits: the board's squares, or the target graph's vertices.
    pub fn vertices(&self) -> u64 {
        match &self.target {
            None => self.board.squares() as u64,
            Some(Target::Geometry(g)) => g.shape().squares() as u64,
            Some(Target::File { graph, .. }) => u64::from(graph.vertices()),
        }
    }

    /// The `start` column of a trial that starts on `q`: the square's name on the
    /// knight's board, a vertex number from 1 on a target.
    pub(crate) fn start_text(&self, q: u32) -> String {
        match &self.target {
            None => self.board.square_name(q),
            Some(_) => (u64::from(q) + 1).to_string(),
        }
    }

    /// The solver's name in `run.json`, `records.csv` and the summary: `network:PRESET`
    /// (`PRESET*` when parameters differ from the preset), `network+merge:PRESET`, or the
    /// classical solver's name.
    pub(crate) fn solver_name(&self) -> SolverName {
        match &self.solver {
            SolverKind::Network(params) => {
                SolverName::new(SolverFamily::Network, Some(params.seed_label()))
            }
            SolverKind::NetworkMerge { params, .. } => SolverName::new(
                SolverFamily::NetworkMerge,
                Some(
                    params
                        .preset
                        .unwrap_or(crate::network::Preset::Parberry)
                        .name()
                        .to_string(),
                ),
            ),
            kind => {
                let Ok(name) = kind.to_string().parse();
                name
            }
        }
    }

    /// The network parameters of a network cell (`None` for other cells).
    pub fn params(&self) -> Option<NetworkParams> {
        match self.solver {
            SolverKind::Network(p) => Some(p),
            _ => None,
        }
    }

    pub(crate) fn is_network(&self) -> bool {
        matches!(self.solver, SolverKind::Network(_))
    }

    /// The tours a network cell's graph stands for (closed unless `open = true`).
    pub fn tours(&self) -> Tours {
        if !self.open {
            return Tours::Closed;
        }
        Tours::Open {
            start: self.start.and_then(StartRule::fixed),
        }
    }

    /// The request of a classical cell's trials, before a random start square is drawn
    /// (open network cells: what `solve --open` asks for).
    pub fn request(&self) -> Request {
        Request {
            board: self.board,
            closed: if self.open { Some(false) } else { self.closed }.into(),
            start: self.start.and_then(StartRule::fixed),
            reverse: false,
        }
    }

    /// The variant column of the cell's records: for network and `network+merge` cells,
    /// the preset followed by the `solve` flags of the parameters that differ from it
    /// (`parberry`, `parberry --order square-sweep`), so that
    /// `knightnet solve --board BOARD --variant VARIANT --seed SEED --max-attempts 1`
    /// (VARIANT pasted unquoted) replays a network trial; for classical cells the
    /// solver's tie-break, if any.
    pub fn variant(&self) -> String {
        match &self.solver {
            SolverKind::Network(p) => match self.tours() {
                Tours::Closed => p.variant(),
                Tours::Open { start } => {
                    // ROW,COL: the same text on every board for the same square rule.
                    let from = start.map_or(String::new(), |q| {
                        let (r, c) = self.board.coords(q);
                        format!(" --start {r},{c}")
                    });
                    format!("{} --open{from}", p.variant())
                }
            },
            SolverKind::NetworkMerge { params, .. } => params.variant(),
            kind => kind.build().variant().unwrap_or_default(),
        }
    }
}

/// A cell as `run.json` holds it: the spec's strings and numbers, in the order written.
/// [`Cell`] reads and writes itself through it, so the file's bytes are those of the
/// untyped cells older versions wrote.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredCell {
    index: usize,
    label: String,
    board: String,
    solver: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    params: Option<NetworkParams>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    merge: Option<StoredMerge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    start: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    closed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    max_steps: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    restarts: Option<u32>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    open: bool,
    trials: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    leaper: Option<Leaper>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    surface: Option<Surface>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shape: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    graph: Option<StoredGraph>,
}

/// A graph file's graph in `run.json`: its name (the file's stem), its vertices and its
/// edges, numbered from 1 as in the file.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredGraph {
    name: String,
    vertices: u32,
    edges: Vec<[u64; 2]>,
}

impl StoredGraph {
    fn of(path: &std::path::Path, graph: &FileGraph) -> StoredGraph {
        StoredGraph {
            name: Target::file_stem(path),
            vertices: graph.vertices(),
            edges: graph
                .edges()
                .iter()
                .map(|&(a, b)| [u64::from(a) + 1, u64::from(b) + 1])
                .collect(),
        }
    }

    fn target(&self) -> Result<Target, InputError> {
        let from_one = |x: u64| {
            u32::try_from(x.wrapping_sub(1)).map_err(|_| {
                InputError::param(format!("graph: vertex {x} is not 1 to {}", self.vertices))
            })
        };
        let edges = self
            .edges
            .iter()
            .map(|&[a, b]| Ok((from_one(a)?, from_one(b)?)))
            .collect::<Result<Vec<_>, InputError>>()?;
        Ok(Target::File {
            path: self.name.clone().into(),
            graph: FileGraph::new(self.vertices, edges)?.with_name(self.name.clone()),
        })
    }
}

/// The network parameters and tile mode of a `network+merge` cell in `run.json` (one
/// trial = one solve: attempts until a tour, merging several-cycle covers).
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoredMerge {
    params: NetworkParams,
    /// `auto`, `none` or a tile side.
    tile: String,
}

impl From<Cell> for StoredCell {
    fn from(c: Cell) -> StoredCell {
        let (params, merge) = match &c.solver {
            SolverKind::Network(p) => (Some(*p), None),
            SolverKind::NetworkMerge { params, tile } => (
                None,
                Some(StoredMerge {
                    params: *params,
                    tile: tile.to_string(),
                }),
            ),
            _ => (None, None),
        };
        let (max_steps, restarts) = classical_caps(&c.solver);
        let (mut leaper, mut surface, mut shape, mut graph) = (None, None, None, None);
        match &c.target {
            Some(Target::Geometry(g)) => {
                leaper = Some(g.leaper());
                surface = Some(g.surface());
                shape = (!g.shape().is_full()).then(|| shape_text(g));
            }
            Some(Target::File { path, graph: g }) => graph = Some(StoredGraph::of(path, g)),
            None => {}
        }
        StoredCell {
            index: c.index,
            solver: c.solver_name().to_string(),
            board: c.board.to_string(),
            start: c.start.map(|s| s.text(c.board)),
            label: c.label,
            params,
            merge,
            closed: c.closed,
            max_steps,
            restarts,
            open: c.open,
            trials: c.trials,
            leaper,
            surface,
            shape,
            graph,
        }
    }
}

impl TryFrom<StoredCell> for Cell {
    type Error = String;

    /// The typed cell, refusing values that do not parse or do not fit together (a
    /// `solver` name other than the one its parameters give).
    fn try_from(s: StoredCell) -> Result<Cell, String> {
        let bad = |e: &dyn std::fmt::Display| format!("cell {} ({}): {e}", s.index, s.label);
        let board: Board = s.board.parse().map_err(|e: InputError| bad(&e))?;
        let mut solver = match (s.params, &s.merge) {
            (Some(p), None) => SolverKind::Network(p),
            (None, Some(m)) => SolverKind::NetworkMerge {
                params: m.params,
                tile: m.tile.parse().map_err(|e: InputError| bad(&e))?,
            },
            (None, None) => s.solver.parse().map_err(|e: InputError| bad(&e))?,
            (Some(_), Some(_)) => return Err(bad(&"a cell has params or merge, not both")),
        };
        solver
            .apply_classical_flags(None, s.max_steps, s.restarts)
            .map_err(|e| bad(&e))?;
        let start = s
            .start
            .as_deref()
            .map(|t| StartRule::parse(t, board))
            .transpose()
            .map_err(|e| bad(&e))?;
        let target = match (&s.graph, s.leaper, s.surface, &s.shape) {
            (Some(g), None, None, None) => Some(g.target().map_err(|e| bad(&e))?),
            (None, None, None, None) => None,
            (None, leaper, surface, shape) => {
                let shape = match shape {
                    Some(t) => parse_shape_line(t).map_err(|e| bad(&e))?,
                    None => Shape::full(board),
                };
                Some(Target::Geometry(Geometry::new(
                    shape,
                    leaper.unwrap_or(Leaper::KNIGHT),
                    surface.unwrap_or(Surface::Plane),
                )))
            }
            (Some(_), ..) => return Err(bad(&"a cell has a graph or a geometry, not both")),
        };
        let cell = Cell {
            index: s.index,
            label: s.label.clone(),
            board,
            target,
            solver,
            start,
            closed: s.closed,
            open: s.open,
            trials: s.trials,
        };
        if cell.solver_name().to_string() != s.solver {
            return Err(bad(&format!(
                "solver '{}' is not the name of its parameters, '{}'",
                s.solver,
                cell.solver_name()
            )));
        }
        Ok(cell)
    }
}

/// A classical solver's step cap and restarts where they differ from the solver's
/// defaults (what the spec's `max_steps` and `restarts` changed); `None` otherwise.
fn classical_caps(kind: &SolverKind) -> (Option<u64>, Option<u32>) {
    match *kind {
        SolverKind::Backtrack { max_steps }
        | SolverKind::ForwardCheck { max_steps, .. }
        | SolverKind::WarnsdorffBacktrack { max_steps, .. } => {
            ((max_steps != DEFAULT_MAX_STEPS).then_some(max_steps), None)
        }
        SolverKind::Warnsdorff { restarts, .. } => (None, (restarts != 0).then_some(restarts)),
        _ => (None, None),
    }
}

/// How a cell picks the start square of each trial.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartRule {
    /// The top-left square (row 0, column 0).
    Corner,
    /// Uniform over all squares, drawn first from the trial's random stream.
    Random,
    /// A fixed square.
    Square(u32),
}

impl StartRule {
    /// `corner`, `random`, or a square of `board` as [`Board::parse_square`] reads it.
    pub fn parse(text: &str, board: Board) -> Result<StartRule, InputError> {
        match text.trim() {
            "corner" => Ok(StartRule::Corner),
            "random" => Ok(StartRule::Random),
            other => board
                .parse_square(other)
                .map(StartRule::Square)
                .map_err(|e| {
                    InputError::param(format!(
                    "{e}; start accepts \"corner\", \"random\", \"ROW,COL\" or an algebraic name"
                ))
                }),
        }
    }

    /// The rule as [`StartRule::parse`] reads it on `board`: `corner`, `random`, or the
    /// square's name ([`Board::square_name`]).
    pub fn text(self, board: Board) -> String {
        match self {
            StartRule::Corner => "corner".into(),
            StartRule::Random => "random".into(),
            StartRule::Square(q) => board.square_name(q),
        }
    }

    /// The square every trial starts on (`None` for [`StartRule::Random`]).
    pub fn fixed(self) -> Option<u32> {
        match self {
            StartRule::Corner => Some(0),
            StartRule::Square(q) => Some(q),
            StartRule::Random => None,
        }
    }
}

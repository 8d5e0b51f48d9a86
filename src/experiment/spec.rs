//! Experiment specs: the TOML format, its checking, and the resolved list of cells.
//!
//! A spec names boards, solvers and trials; every (solver entry, board) pair is a
//! *cell*. Unknown keys and bad values are errors naming the key and the line.
//!
//! ```toml
//! name = "example"          # names the results folder; letters, digits, '.', '_', '-'
//! description = "..."       # optional, free text
//! seed = 1                  # base seed (default 1); see `seeds` for the derivation
//! trials = 200              # trials per cell unless an entry says otherwise
//! boards = ["6x6", "8x8"]   # boards of every entry unless an entry says otherwise
//!
//! [[solver]]
//! solver = "network:parberry"   # any name `SolverKind` accepts
//! label = "parberry"            # optional; default: the preset/solver name
//! trials = 500                  # optional
//! boards = ["8x8"]              # optional
//! # network overrides (network solvers only):
//! # c, s, upper, lower (integers), order, init, stop (names), clamp (integer or "none"),
//! # max_iterations (the per-attempt cap)
//! # open = true: open tours, on the network's open graph; start = a fixed square
//! # ("corner", "r,c" or a name) is then held as every tour's first square
//! # sweeps: c, s, upper, lower, order, init and max_iterations may each be a list,
//! # e.g. c = [3, 4, 5]; the entry expands into the product of the lists (see below)
//!
//! [[solver]]
//! solver = "warnsdorff"
//! start = "corner"              # classical only: "corner", "random", "r,c" or "c3"
//! closed = false                # classical only: require a closed tour
//! # max_steps = 1000000         # classical only: step cap of the search solvers
//! # restarts = 10               # classical only: restarts within one solve
//! ```
//!
//! Cells are numbered in the order of the `[[solver]]` entries, each entry's boards in
//! the order given.
//!
//! **Sweeps.** A network key given as a list (`c = [3, 4, 5]`, `s = [0, 1]`, `upper`,
//! `lower`, `order`, `init`, `max_iterations`) makes the entry a sweep: it expands into
//! one cell per combination of the listed values and board, the keys varying in the order
//! just given (the last fastest), boards innermost. Each cell's label is the entry's
//! label (default: the preset, or `preset*` when single values override it) followed by
//! `key=value` for every listed key, e.g. `parberry c=4 s=2`. A key given as a list names
//! itself in the label even with one value, so a label depends on that cell's values
//! alone: as trial seeds come from the label and board (see [`super::seeds`]), adding a
//! value to a list adds cells and changes no other cell's trials, and a hand-written
//! entry with `label = "parberry c=4 s=2"`, `c = 4`, `s = 2` runs the same trials.
//!
//! `reference = "LABEL"` (top level, optional) names the cells every other cell of the
//! same board is compared with in the summary; default: the first network cell's label.
//!
//! Bounds, checked before any work: a spec file is at most [`MAX_SPEC_BYTES`] bytes, with
//! at most [`MAX_ENTRIES`] `[[solver]]` entries and [`MAX_CELLS`] cells (a sweep's cells
//! counted from its list lengths before any is made); each cell runs 1 to
//! [`MAX_TRIALS`] trials. Trials are produced one at a time and never listed, so a run's
//! memory does not grow with its trial count.

use std::ops::Range;

use serde::{Deserialize, Deserializer, Serialize};
use toml::Spanned;

use crate::board::Board;
use crate::error::InputError;
use crate::graph::Tours;
use crate::network::{Init, NetworkParams, StopRule, UpdateOrder};
use crate::solvers::{Request, SolverKind};

/// The quickstart spec, built into the binary.
pub const QUICKSTART: &str = include_str!("../../experiments/quickstart.toml");

/// Most trials one cell may ask for.
pub const MAX_TRIALS: u64 = 1_000_000_000;

/// Largest spec file read, in bytes.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// Most `[[solver]]` entries in a spec.
pub const MAX_ENTRIES: usize = 1_000;

/// Most cells (entry × board pairs) in a spec.
pub const MAX_CELLS: usize = 10_000;

/// A checked spec: a name, a base seed, and its cells.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub seed: u64,
    pub cells: Vec<Cell>,
    /// The label of the reference cells (spec key `reference`); `None`: the default,
    /// see [`Spec::reference_label`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// One (solver, board) pair of a spec, with everything needed to run its trials, held
/// typed: every value is parsed once, when the spec (or `run.json`) is read.
///
/// In `run.json` a cell is written as the strings and numbers the spec gave: `board` as `ROWSxCOLS`, `solver` as its name, the network parameters
/// under `params` (network cells) or `merge` (with the tile mode, `network+merge`
/// cells), a classical solver's caps as `max_steps`/`restarts` when they differ from its
/// defaults, and `start` as the spec's word or the square's name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredCell", into = "StoredCell")]
pub struct Cell {
    /// Position in the spec (records sort by it).
    pub index: usize,
    /// The solver entry's label; with the board it names the cell and seeds its trials.
    pub label: String,
    pub board: Board,
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
    pub trials: u64,
}

impl Cell {
    /// The cell's name, `label/ROWSxCOLS`, which also enters its trial seeds.
    pub fn key(&self) -> String {
        format!("{}/{}", self.label, self.board)
    }

    /// The solver's name in `run.json`, `records.csv` and the summary: `network:PRESET`
    /// (`PRESET*` when parameters differ from the preset), `network+merge:PRESET`, or the
    /// classical solver's name.
    pub fn solver_name(&self) -> String {
        match &self.solver {
            SolverKind::NetworkMerge { params, .. } => format!(
                "network+merge:{}",
                params.preset.map_or("parberry", |p| p.name())
            ),
            kind => kind.to_string(),
        }
    }

    /// The network parameters of a network cell (`None` for other cells).
    pub fn params(&self) -> Option<NetworkParams> {
        match self.solver {
            SolverKind::Network(p) => Some(p),
            _ => None,
        }
    }

    pub fn is_network(&self) -> bool {
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
            closed: if self.open { Some(false) } else { self.closed },
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
                Tours::Closed => replay_variant(p),
                Tours::Open { start } => {
                    // ROW,COL: the same text on every board for the same square rule.
                    let from = start.map_or(String::new(), |q| {
                        let (r, c) = self.board.coords(q);
                        format!(" --start {r},{c}")
                    });
                    format!("{} --open{from}", replay_variant(p))
                }
            },
            SolverKind::NetworkMerge { params, .. } => replay_variant(params),
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
        StoredCell {
            index: c.index,
            solver: c.solver_name(),
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
        apply_classical_caps(&mut solver, s.max_steps, s.restarts).map_err(|e| bad(&e))?;
        let start = s
            .start
            .as_deref()
            .map(|t| StartRule::parse(t, board))
            .transpose()
            .map_err(|e| bad(&e))?;
        let cell = Cell {
            index: s.index,
            label: s.label.clone(),
            board,
            solver,
            start,
            closed: s.closed,
            open: s.open,
            trials: s.trials,
        };
        if cell.solver_name() != s.solver {
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
    let Ok(default) = kind.to_string().parse::<SolverKind>() else {
        return (None, None);
    };
    match (kind, default) {
        (
            SolverKind::Backtrack { max_steps }
            | SolverKind::ForwardCheck { max_steps, .. }
            | SolverKind::WarnsdorffBacktrack { max_steps, .. },
            SolverKind::Backtrack { max_steps: d }
            | SolverKind::ForwardCheck { max_steps: d, .. }
            | SolverKind::WarnsdorffBacktrack { max_steps: d, .. },
        ) => ((*max_steps != d).then_some(*max_steps), None),
        (SolverKind::Warnsdorff { restarts, .. }, SolverKind::Warnsdorff { restarts: d, .. }) => {
            (None, (*restarts != d).then_some(*restarts))
        }
        _ => (None, None),
    }
}

/// A network's parameters as `solve` takes them: the preset's name, then a flag for each
/// parameter that differs from the preset (the attempt cap aside: a trial is one attempt).
pub fn replay_variant(p: &NetworkParams) -> String {
    let preset = p.preset.unwrap_or(crate::network::Preset::Parberry);
    let base = preset.params();
    let mut v = preset.name().to_string();
    let mut flag = |differs: bool, name: &str, value: String| {
        if differs {
            v += &format!(" --{name} {value}");
        }
    };
    flag(p.c != base.c, "c", p.c.to_string());
    flag(p.s != base.s, "s", p.s.to_string());
    flag(p.upper != base.upper, "upper", p.upper.to_string());
    flag(p.lower != base.lower, "lower", p.lower.to_string());
    flag(p.order != base.order, "order", p.order.to_string());
    flag(p.init != base.init, "init", p.init.to_string());
    flag(
        p.clamp != base.clamp,
        "clamp",
        p.clamp.map_or("none".into(), |k| k.to_string()),
    );
    flag(p.stop != base.stop, "stop", p.stop.to_string());
    flag(
        p.max_iterations != base.max_iterations,
        "max-iterations",
        p.max_iterations.to_string(),
    );
    v
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

impl Spec {
    /// The label of the cells the summary compares every other cell of the same board
    /// with: the spec's `reference`, else the first network cell's label, else the first
    /// cell's.
    pub fn reference_label(&self) -> Option<&str> {
        self.reference.as_deref().or_else(|| {
            self.cells
                .iter()
                .find(|c| c.is_network())
                .or(self.cells.first())
                .map(|c| c.label.as_str())
        })
    }

    /// Total trials over all cells.
    pub fn total_trials(&self) -> u64 {
        self.cells.iter().map(|c| c.trials).sum()
    }

    /// Global index of each cell's trial 0: trials are numbered cell by cell, in cell
    /// order (the numbering sharding uses).
    pub fn offsets(&self) -> Vec<u64> {
        // At most MAX_CELLS × MAX_TRIALS in all, far below u64::MAX; saturating anyway.
        let mut acc: u64 = 0;
        self.cells
            .iter()
            .map(|c| {
                let o = acc;
                acc = acc.saturating_add(c.trials);
                o
            })
            .collect()
    }

    /// The built-in quickstart spec.
    pub fn quickstart() -> Spec {
        Spec::parse(QUICKSTART, "quickstart", "built-in quickstart.toml")
            .expect("the built-in spec is valid")
    }

    /// Read and check a spec file; the default name is the file stem.
    pub fn from_file(path: &std::path::Path) -> Result<Spec, InputError> {
        use std::io::Read;
        let cannot = |e: std::io::Error| {
            InputError::File(format!("cannot read spec {}: {e}", path.display()))
        };
        let mut bytes = Vec::new();
        std::fs::File::open(path)
            .map_err(cannot)?
            .take(MAX_SPEC_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        if bytes.len() as u64 > MAX_SPEC_BYTES {
            return Err(InputError::File(format!(
                "spec {} is too large: spec files are limited to {MAX_SPEC_BYTES} bytes",
                path.display()
            )));
        }
        let text = String::from_utf8(bytes).map_err(|e| {
            InputError::File(format!(
                "spec {} is not UTF-8 text (invalid byte at offset {}); give a TOML file",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "experiment".into());
        Spec::parse(&text, &stem, &path.display().to_string())
    }

    /// Parse and check spec text. `default_name` is used when the spec has no `name`;
    /// `origin` (a path) starts every error message.
    pub fn parse(text: &str, default_name: &str, origin: &str) -> Result<Spec, InputError> {
        let file: SpecFile = toml::from_str(text).map_err(|e| {
            let msg = e.message().trim_end().replace('\n', "; ");
            InputError::File(match e.span() {
                Some(span) => {
                    let line = line_of(text, span.clone());
                    let source = text.lines().nth(line - 1).unwrap_or("").trim();
                    let source: String = source.chars().take(80).collect();
                    format!("{origin}, line {line}: {msg} (in `{source}`)")
                }
                None => format!("{origin}: {msg}"),
            })
        })?;
        resolve(file, text, default_name, origin)
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SpecFile {
    name: Option<Spanned<String>>,
    description: Option<String>,
    seed: Option<u64>,
    trials: Option<Spanned<u64>>,
    boards: Option<Vec<Spanned<String>>>,
    reference: Option<Spanned<String>>,
    #[serde(default)]
    solver: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    solver: Spanned<String>,
    label: Option<Spanned<String>>,
    trials: Option<Spanned<u64>>,
    boards: Option<Vec<Spanned<String>>>,
    c: Option<OneOrList<i32>>,
    s: Option<OneOrList<i32>>,
    upper: Option<OneOrList<i32>>,
    lower: Option<OneOrList<i32>>,
    order: Option<OneOrList<UpdateOrder>>,
    init: Option<OneOrList<Init>>,
    stop: Option<StopRule>,
    clamp: Option<Clamp>,
    max_iterations: Option<OneOrList<u32>>,
    start: Option<Spanned<String>>,
    closed: Option<bool>,
    max_steps: Option<u64>,
    restarts: Option<u32>,
    /// `network+merge` only: tile side, "none" or "auto".
    tile: Option<Spanned<String>>,
    /// Network only: open tours on the open graph.
    open: Option<bool>,
}

impl Entry {
    fn network_keys(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        macro_rules! given {
            ($($f:ident),*) => { $(if self.$f.is_some() { v.push(stringify!($f)); })* };
        }
        given!(c, s, upper, lower, order, init, stop, clamp, max_iterations);
        v
    }

    /// The parameters with the entry's single values applied (listed values are the
    /// sweep's: see [`Entry::axes`]).
    fn apply(&self, mut p: NetworkParams) -> NetworkParams {
        macro_rules! set {
            ($($f:ident),*) => { $(if let Some(OneOrList::One(x)) = self.$f { p.$f = x; })* };
        }
        set!(c, s, upper, lower, order, init, max_iterations);
        if let Some(x) = self.stop {
            p.stop = x;
        }
        if let Some(Clamp(k)) = self.clamp {
            p.clamp = k;
        }
        p
    }

    /// The swept keys, in sweep order, each with its listed values.
    fn axes(&self) -> Vec<Vec<Setting>> {
        let mut v = Vec::new();
        macro_rules! axis {
            ($($f:ident => $variant:ident),*) => {
                $(if let Some(OneOrList::List(xs)) = &self.$f {
                    v.push(xs.iter().map(|&x| Setting::$variant(x)).collect());
                })*
            };
        }
        axis!(c => C, s => S, upper => Upper, lower => Lower, order => Order, init => Init,
            max_iterations => MaxIterations);
        v
    }
}

/// A network key given as one value or as a list of values to sweep.
#[derive(Debug, Clone)]
enum OneOrList<T> {
    One(T),
    List(Vec<T>),
}

impl<'de, T: serde::de::DeserializeOwned> Deserialize<'de> for OneOrList<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OneOrList<T>, D::Error> {
        use serde::de::Error;
        match toml::Value::deserialize(d)? {
            toml::Value::Array(items) => {
                if items.is_empty() {
                    return Err(D::Error::custom(
                        "an empty list sweeps nothing; give one value or a list of values",
                    ));
                }
                items
                    .into_iter()
                    .map(|x| T::deserialize(x).map_err(D::Error::custom))
                    .collect::<Result<Vec<T>, _>>()
                    .map(OneOrList::List)
            }
            one => T::deserialize(one)
                .map(OneOrList::One)
                .map_err(D::Error::custom),
        }
    }
}

/// One value of a swept key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Setting {
    C(i32),
    S(i32),
    Upper(i32),
    Lower(i32),
    Order(UpdateOrder),
    Init(Init),
    MaxIterations(u32),
}

impl Setting {
    /// The swept keys' values of `p`, in sweep order (c, s, upper, lower, order, init,
    /// max_iterations).
    pub fn all_of(p: &NetworkParams) -> [Setting; 7] {
        [
            Setting::C(p.c),
            Setting::S(p.s),
            Setting::Upper(p.upper),
            Setting::Lower(p.lower),
            Setting::Order(p.order),
            Setting::Init(p.init),
            Setting::MaxIterations(p.max_iterations),
        ]
    }

    /// The spec key.
    pub fn key(self) -> &'static str {
        match self {
            Setting::C(_) => "c",
            Setting::S(_) => "s",
            Setting::Upper(_) => "upper",
            Setting::Lower(_) => "lower",
            Setting::Order(_) => "order",
            Setting::Init(_) => "init",
            Setting::MaxIterations(_) => "max_iterations",
        }
    }

    /// The value as the spec writes it.
    pub fn value(self) -> String {
        match self {
            Setting::C(x) | Setting::S(x) | Setting::Upper(x) | Setting::Lower(x) => x.to_string(),
            Setting::Order(x) => x.to_string(),
            Setting::Init(x) => x.to_string(),
            Setting::MaxIterations(x) => x.to_string(),
        }
    }

    /// Set this value in `p`.
    pub fn apply(self, p: &mut NetworkParams) {
        match self {
            Setting::C(x) => p.c = x,
            Setting::S(x) => p.s = x,
            Setting::Upper(x) => p.upper = x,
            Setting::Lower(x) => p.lower = x,
            Setting::Order(x) => p.order = x,
            Setting::Init(x) => p.init = x,
            Setting::MaxIterations(x) => p.max_iterations = x,
        }
    }

    /// `key=value`, as it appears in a swept cell's label.
    pub fn label(self) -> String {
        format!("{}={}", self.key(), self.value())
    }
}

/// The `point`-th combination of the axes' values (mixed radix, the last axis fastest).
fn sweep_point(axes: &[Vec<Setting>], mut point: usize) -> Vec<Setting> {
    let mut v: Vec<Setting> = axes
        .iter()
        .rev()
        .map(|a| {
            let s = a[point % a.len()];
            point /= a.len();
            s
        })
        .collect();
    v.reverse();
    v
}

/// Cells an entry expands into: the product of its list lengths times its boards,
/// saturating (so a huge product is refused, never computed in full).
fn entry_cells(entry: &Entry, boards: usize) -> usize {
    entry
        .axes_lengths()
        .into_iter()
        .fold(boards, |acc, n| acc.saturating_mul(n))
}

impl Entry {
    /// The length of each listed key, without building the settings.
    fn axes_lengths(&self) -> Vec<usize> {
        let mut v = Vec::new();
        macro_rules! len {
            ($($f:ident),*) => { $(if let Some(OneOrList::List(xs)) = &self.$f { v.push(xs.len()); })* };
        }
        len!(c, s, upper, lower, order, init, max_iterations);
        v
    }
}

/// A network entry's `open` and `start` keys: `start` (a fixed square) only with
/// `open = true`, where it is held as the first square of every tour. Errors carry the
/// span to point at, when there is one.
fn check_open_network(entry: &Entry) -> Result<(), (Option<Range<usize>>, String)> {
    match (&entry.start, entry.open == Some(true)) {
        (Some(s), false) => Err((
            Some(s.span()),
            "start applies to classical solvers, and to network solvers with open = true (a closed tour has no start square)".into(),
        )),
        (Some(s), true) if s.get_ref().trim() == "random" => Err((
            Some(s.span()),
            "start = \"random\" is not accepted for a network entry: its held start square is part of the graph; give \"corner\", \"ROW,COL\" or a square name".into(),
        )),
        _ => Ok(()),
    }
}

/// `clamp = 10` or `clamp = "none"`.
#[derive(Debug, Clone, Copy)]
struct Clamp(Option<i32>);

impl<'de> Deserialize<'de> for Clamp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Clamp, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Clamp;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a positive integer or \"none\"")
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Clamp, E> {
                i32::try_from(v)
                    .map(|k| Clamp(Some(k)))
                    .map_err(|_| E::custom(format!("clamp {v} is out of range")))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Clamp, E> {
                self.visit_i64(i64::try_from(v).unwrap_or(i64::MAX))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Clamp, E> {
                match v {
                    "none" => Ok(Clamp(None)),
                    _ => Err(E::custom(format!(
                        "clamp \"{v}\" is not accepted; give a positive integer or \"none\""
                    ))),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// Apply a classical cell's caps (`max_steps`, `restarts`) to its solver; solvers they
/// do not fit refuse them with a one-line reason.
fn apply_classical_caps(
    kind: &mut SolverKind,
    max_steps: Option<u64>,
    restarts: Option<u32>,
) -> Result<(), InputError> {
    kind.apply_classical_flags(None, max_steps, restarts)
}

fn line_of(text: &str, span: Range<usize>) -> usize {
    text[..span.start.min(text.len())].matches('\n').count() + 1
}

fn check_trials(t: &Spanned<u64>, text: &str, origin: &str) -> Result<u64, InputError> {
    let n = *t.get_ref();
    if n == 0 || n > MAX_TRIALS {
        return Err(InputError::File(format!(
            "{origin}, line {}: trials = {n} is not accepted; give 1 to {MAX_TRIALS}",
            line_of(text, t.span())
        )));
    }
    Ok(n)
}

fn resolve(
    file: SpecFile,
    text: &str,
    default_name: &str,
    origin: &str,
) -> Result<Spec, InputError> {
    let err = |span: Range<usize>, msg: String| {
        InputError::File(format!("{origin}, line {}: {msg}", line_of(text, span)))
    };
    let name = match &file.name {
        Some(n) => {
            let s = n.get_ref().trim().to_string();
            let ok = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
            if !ok {
                return Err(err(
                    n.span(),
                    format!("name = \"{s}\" is not accepted; use letters, digits, '.', '_' and '-' (it names the results folder)"),
                ));
            }
            s
        }
        None => default_name.to_string(),
    };
    if file.solver.is_empty() {
        return Err(InputError::File(format!(
            "{origin}: the spec has no [[solver]] entry; add at least one, e.g. [[solver]] with solver = \"network:parberry\" on the next line"
        )));
    }
    if file.solver.len() > MAX_ENTRIES {
        return Err(InputError::File(format!(
            "{origin}: {} [[solver]] entries; a spec may have at most {MAX_ENTRIES}",
            file.solver.len()
        )));
    }
    let cell_count: usize = file
        .solver
        .iter()
        .map(|e| {
            let boards = e
                .boards
                .as_ref()
                .or(file.boards.as_ref())
                .map_or(0, Vec::len);
            entry_cells(e, boards)
        })
        .fold(0usize, usize::saturating_add);
    if cell_count > MAX_CELLS {
        return Err(InputError::File(format!(
            "{origin}: {} cells (entries × swept values × boards); a spec may have at most {MAX_CELLS}",
            if cell_count == usize::MAX { "too many".to_string() } else { cell_count.to_string() }
        )));
    }
    let mut keys: std::collections::HashSet<String> = std::collections::HashSet::new();
    let default_trials = file
        .trials
        .as_ref()
        .map(|t| check_trials(t, text, origin))
        .transpose()?;
    let mut cells: Vec<Cell> = Vec::new();
    for (k, entry) in file.solver.iter().enumerate() {
        let solver_span = entry.solver.span();
        let solver_text = entry.solver.get_ref().trim();
        let entry_err = |msg: String| {
            err(
                solver_span.clone(),
                format!("[[solver]] #{} (\"{solver_text}\"): {msg}", k + 1),
            )
        };
        let base_kind: SolverKind = solver_text
            .parse()
            .map_err(|e: InputError| entry_err(e.to_string()))?;
        if entry.tile.is_some() && !matches!(base_kind, SolverKind::NetworkMerge { .. }) {
            return Err(entry_err("tile applies to network+merge only".into()));
        }
        let axes = entry.axes();
        let points: usize = axes.iter().map(Vec::len).product();
        for point in 0..points {
            let settings = sweep_point(&axes, point);
            let mut kind = base_kind.clone();
            // The default label comes from the single values alone; the swept ones follow.
            let mut default_label = String::new();
            match &mut kind {
                SolverKind::NetworkMerge { params, tile } => {
                    if entry.start.is_some()
                        || entry.open.is_some()
                        || entry.closed.is_some()
                        || entry.max_steps.is_some()
                        || entry.restarts.is_some()
                    {
                        return Err(entry_err(
                        "start, open, closed, max_steps and restarts do not apply to network+merge (closed tours, attempts capped by the preset)".into(),
                    ));
                    }
                    *params = entry.apply(*params);
                    default_label = format!("merge-{}", params.variant_name());
                    for x in &settings {
                        x.apply(params);
                    }
                    params.check().map_err(|e| entry_err(e.to_string()))?;
                    if let Some(t) = &entry.tile {
                        *tile = t
                            .get_ref()
                            .parse()
                            .map_err(|e: InputError| err(t.span(), e.to_string()))?;
                    }
                }
                SolverKind::Network(p) => {
                    check_open_network(entry)
                        .map_err(|(span, msg)| err(span.unwrap_or(solver_span.clone()), msg))?;
                    if entry.closed.is_some() {
                        return Err(entry_err(
                        "closed applies to classical solvers only; the network always looks for closed tours".into(),
                    ));
                    }
                    if entry.max_steps.is_some() || entry.restarts.is_some() {
                        return Err(entry_err(
                        "max_steps and restarts apply to classical solvers only; a network trial is one attempt, capped by max_iterations".into(),
                    ));
                    }
                    *p = entry.apply(*p);
                    default_label = p.variant_name();
                    for x in &settings {
                        x.apply(p);
                    }
                    // One trial is one attempt: record it so, and so that
                    // `solve --seed SEED --max-attempts 1` replays a trial.
                    p.max_attempts = 1;
                    p.check().map_err(|e| entry_err(e.to_string()))?;
                }
                _ => {
                    let mut keys = entry.network_keys();
                    if entry.open.is_some() {
                        keys.push("open");
                    }
                    if !keys.is_empty() {
                        return Err(entry_err(format!(
                            "{} applies to network solvers only",
                            keys.join(", ")
                        )));
                    }
                    apply_classical_caps(&mut kind, entry.max_steps, entry.restarts)
                        .map_err(|e| entry_err(e.to_string()))?;
                }
            }
            let label = match &entry.label {
                Some(l) => {
                    let s = l.get_ref().trim().to_string();
                    if s.is_empty() || s.contains(['/', ',', '\n', '"']) {
                        return Err(err(
                        l.span(),
                        format!("label = \"{s}\" is not accepted; give a non-empty name without '/', ',' or quotes"),
                    ));
                    }
                    s
                }
                None if default_label.is_empty() => kind.to_string(),
                None => default_label,
            };
            let label = std::iter::once(label)
                .chain(settings.iter().map(|x| x.label()))
                .collect::<Vec<_>>()
                .join(" ");
            let trials = match &entry.trials {
                Some(t) => check_trials(t, text, origin)?,
                None => default_trials.ok_or_else(|| {
                    entry_err(
                        "no trial count: give trials = N here or at the top of the spec".into(),
                    )
                })?,
            };
            let boards = entry
                .boards
                .as_ref()
                .or(file.boards.as_ref())
                .ok_or_else(|| {
                    entry_err(
                        "no boards: give boards = [\"8x8\", ...] here or at the top of the spec"
                            .into(),
                    )
                })?;
            if boards.is_empty() {
                return Err(entry_err("the board list is empty".into()));
            }
            for b in boards {
                let board: Board = b
                    .get_ref()
                    .parse()
                    .map_err(|e: InputError| err(b.span(), e.to_string()))?;
                let start = match &entry.start {
                    Some(s) => Some(
                        StartRule::parse(s.get_ref(), board)
                            .map_err(|e| err(s.span(), format!("on {board}: {e}")))?,
                    ),
                    None => None,
                };
                let cell = Cell {
                    index: cells.len(),
                    label: label.clone(),
                    board,
                    solver: kind.clone(),
                    start,
                    closed: entry.closed,
                    open: entry.open == Some(true),
                    trials,
                };
                cell.solver
                    .build()
                    .check(&cell.request())
                    .map_err(|e| err(b.span(), format!("{label} on {board}: {e}")))?;
                if !keys.insert(cell.key()) {
                    return Err(err(
                        b.span(),
                        format!(
                        "cell {} appears twice; give the entries distinct labels (label = \"...\")",
                        cell.key()
                    ),
                    ));
                }
                cells.push(cell);
            }
        }
    }
    let reference = match &file.reference {
        Some(r) => {
            let label = r.get_ref().trim().to_string();
            if !cells.iter().any(|c| c.label == label) {
                let mut labels: Vec<&str> = cells.iter().map(|c| c.label.as_str()).collect();
                labels.dedup();
                let shown: Vec<&str> = labels.iter().take(10).copied().collect();
                return Err(err(
                    r.span(),
                    format!(
                        "reference = \"{label}\" is no cell's label; the labels are {}{}",
                        shown.join(", "),
                        if labels.len() > 10 { ", ..." } else { "" }
                    ),
                ));
            }
            Some(label)
        }
        None => None,
    };
    Ok(Spec {
        name,
        description: file.description.unwrap_or_default().trim().to_string(),
        seed: file.seed.unwrap_or(crate::DEFAULT_SEED),
        cells,
        reference,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn parse(t: &str) -> Result<Spec, InputError> {
        Spec::parse(t, "t", "t.toml")
    }

    #[test]
    fn quickstart_parses() {
        let s = Spec::quickstart();
        assert_eq!(s.name, "quickstart");
        assert!(!s.cells.is_empty());
    }

    #[test]
    fn cells_and_overrides() {
        let s = parse(
            "seed = 7\ntrials = 3\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network:brant\"\n[[solver]]\nsolver = \"network\"\nc = 5\nmax_iterations = 50\nclamp = \"none\"\nboards = [\"10x10\"]\ntrials = 4\n",
        )
        .unwrap();
        assert_eq!(s.seed, 7);
        assert_eq!(s.cells.len(), 3);
        assert_eq!(s.cells[0].key(), "brant/6x6");
        assert_eq!(s.cells[2].key(), "parberry*/10x10");
        assert_eq!(s.cells[2].variant(), "parberry --c 5 --max-iterations 50");
        assert_eq!(s.cells[0].variant(), "brant");
        let p = s.cells[2].params().unwrap();
        assert_eq!(
            (p.c, p.max_iterations, p.clamp, s.cells[2].trials),
            (5, 50, None, 4)
        );
        assert_eq!(s.total_trials(), 3 + 3 + 4);
    }

    #[test]
    fn errors_name_key_and_line() {
        let e =
            parse("trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nbogus = 1\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("bogus") && e.contains("line 5"), "{e}");
        let e = parse("trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\norder = \"diagonal\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("diagonal") && e.contains("line 5"), "{e}");
        let e =
            parse("trials = 3\nboards = [\"6x6\",\n \"5x5\"]\n[[solver]]\nsolver = \"network\"\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("line 3") && e.contains("5x5"), "{e}");
        let e = parse("trials = 0\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("trials") && e.contains("line 1"), "{e}");
        let e =
            parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nupper = -5\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("line 4") && e.contains("upper"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n[[solver]]\nsolver = \"network:parberry\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice") && e.contains("label"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nstart = \"corner\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 5") && e.contains("start"), "{e}");
    }

    #[test]
    fn lists_expand_into_labelled_cells() {
        let s = parse(
            "trials = 2\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network\"\nc = [3, 4]\ns = [2]\norder = \"square-sweep\"\n[[solver]]\nsolver = \"network:brant\"\nlabel = \"b\"\ninit = [\"random-outputs\"]\nboards = [\"6x6\"]\n",
        )
        .unwrap();
        let keys: Vec<String> = s.cells.iter().map(Cell::key).collect();
        assert_eq!(
            keys,
            [
                "parberry* c=3 s=2/6x6",
                "parberry* c=3 s=2/8x8",
                "parberry* c=4 s=2/6x6",
                "parberry* c=4 s=2/8x8",
                "b init=random-outputs/6x6",
            ]
        );
        let p = s.cells[1].params().unwrap();
        assert_eq!((p.c, p.s, p.order), (3, 2, UpdateOrder::SquareSweep));
        assert_eq!(s.cells[1].variant(), "parberry --c 3 --order square-sweep");
        assert_eq!(
            s.cells.iter().map(|c| c.index).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        // The default reference is the first network cell's label.
        assert_eq!(s.reference_label(), Some("parberry* c=3 s=2"));
    }

    #[test]
    fn sweep_bounds_are_checked_before_expansion() {
        // 200 x 200 x 1 = 40,000 cells: refused from the list lengths.
        let list: Vec<String> = (0..200).map(|i| i.to_string()).collect();
        let text = format!(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [{0}]\nupper = [{0}]\n",
            list.join(", ")
        );
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains("40000 cells") && e.contains("10000"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = []\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("empty list") && e.contains("line 5"), "{e}");
        let e = parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\norder = [\"row-major\", \"diagonal\"]\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("diagonal") && e.contains("line 5"), "{e}");
        let e =
            parse("trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [4, 4]\n")
                .unwrap_err()
                .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = parse(
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\nc = [4, 5]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("network solvers only"), "{e}");
    }

    #[test]
    fn cells_hold_typed_values_and_read_back_as_written() {
        let s = parse(
            "trials = 2\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\nopen = true\nstart = \"2,1\"\n[[solver]]\nsolver = \"network+merge\"\ntile = \"whole\"\n[[solver]]\nsolver = \"warnsdorff:random\"\nrestarts = 3\nstart = \"random\"\n[[solver]]\nsolver = \"backtrack\"\nmax_steps = 100\nstart = \"c3\"\n",
        )
        .unwrap();
        let board: Board = "6x6".parse().unwrap();
        let c = &s.cells;
        assert_eq!(c[0].board, board);
        assert_eq!(c[0].start, Some(StartRule::Square(board.index(2, 1))));
        assert_eq!(
            c[0].tours(),
            Tours::Open {
                start: Some(board.index(2, 1))
            }
        );
        assert_eq!(c[0].params().map(|p| p.max_attempts), Some(1));
        assert!(matches!(
            c[1].solver,
            SolverKind::NetworkMerge {
                tile: crate::solvers::neural_merge::TileMode::Whole,
                ..
            }
        ));
        assert!(matches!(
            c[2].solver,
            SolverKind::Warnsdorff { restarts: 3, .. }
        ));
        assert_eq!(c[2].start, Some(StartRule::Random));
        assert!(matches!(
            c[3].solver,
            SolverKind::Backtrack { max_steps: 100 }
        ));
        assert_eq!(c[3].start, Some(StartRule::Square(board.index(3, 2))));
        // run.json: the strings a spec gives, the square by its name, the caps given.
        let json = serde_json::to_value(&s).unwrap();
        let cell = |i: usize, key: &str| json["cells"][i][key].clone();
        assert_eq!(cell(0, "board"), "6x6");
        assert_eq!(cell(0, "solver"), "network:parberry");
        assert_eq!(cell(0, "start"), "b4");
        assert_eq!(cell(1, "solver"), "network+merge:parberry");
        assert_eq!(cell(1, "merge")["tile"], "none");
        assert!(cell(1, "params").is_null());
        assert_eq!(cell(2, "solver"), "warnsdorff:random");
        assert_eq!(
            (cell(2, "restarts"), cell(2, "max_steps")),
            (3.into(), Value::Null)
        );
        assert_eq!(
            (cell(3, "max_steps"), cell(3, "start")),
            (100.into(), "c3".into())
        );
        let back: Spec = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, s);
        // A stored cell whose values do not parse or do not fit together is refused.
        for (i, key, value, needle) in [
            (
                0,
                "solver",
                "network:brant",
                "not the name of its parameters",
            ),
            (0, "board", "0x6", "zero side"),
            (1, "merge", "", "tile"),
            (2, "solver", "warnsdorff:sideways", "sideways"),
            (3, "start", "z9", "z9"),
            (2, "max_steps", "", "max-steps"),
        ] {
            let mut j = json.clone();
            j["cells"][i][key] = match (key, value) {
                ("merge", _) => {
                    serde_json::json!({"params": cell(1, "merge")["params"], "tile": "huge"})
                }
                ("max_steps", _) => 5.into(),
                _ => value.into(),
            };
            let e = serde_json::from_value::<Spec>(j).unwrap_err().to_string();
            assert!(
                e.contains(needle) && e.contains(&format!("cell {i}")),
                "{key}: {e}"
            );
        }
    }

    #[test]
    fn reference_must_name_a_label() {
        let t = "trials = 1\nboards = [\"6x6\"]\nreference = \"parberry c=5\"\n[[solver]]\nsolver = \"network\"\nc = [4, 5]\n";
        assert_eq!(parse(t).unwrap().reference_label(), Some("parberry c=5"));
        let e = parse(&t.replace("c=5\"", "c=6\"")).unwrap_err().to_string();
        assert!(
            e.contains("line 3") && e.contains("parberry c=6") && e.contains("parberry c=4"),
            "{e}"
        );
    }
}

//! Reading an experiment's `records.csv` (one row per trial) and aggregating it per
//! (solver, variant, board) for the records-based figures.
//!
//! The file is read by the experiment's own reader in its lenient mode
//! (`records::read_lenient`), into the one [`Record`] type: columns are found by name
//! in any order, unknown columns are ignored, missing ones read as empty.
//!
//! | column | needed | use |
//! |---|---|---|
//! | `board` | required | `ROWSxCOLS` |
//! | `solver` | required | `network`, `warnsdorff`, ...; `network:PRESET` is split into solver and variant |
//! | `outcome` | required | `tour`, `multiple-cycles`, `stable-not-degree-two`, `iteration-cap`, or a solver's failure name ([`crate::solvers::Outcome`]) |
//! | `variant` | optional | network preset or classical tie-break; empty = none |
//! | `label` | optional | the spec entry's name; groups apart entries that share solver and variant |
//! | `iterations` | optional | iterations histogram, run lengths |
//! | `time_ns`, or else the first column ending in `_ns` | optional | cost per tour |
//! | `trial` | optional | run lengths (trial order) |
//!
//! Figures whose column is missing are skipped by the `plot` command, which says so.
//! A half-written last line (a run killed mid-write: the last line has no newline and
//! fewer fields than the header) is ignored and reported.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::error::InputError;
pub use crate::experiment::records::{self, Record};
use crate::geometry::{Leaper, Surface};
use crate::solvers::Outcome;
pub use crate::solvers::SolverFamily;

/// A loaded records file.
#[derive(Debug, Clone)]
pub struct Records {
    /// The file read.
    pub path: PathBuf,
    /// Its rows, in file order.
    pub rows: Vec<Record>,
    /// Name of the timing column used, if any.
    pub time_column: Option<String>,
    /// Whether an `iterations` column exists.
    pub has_iterations: bool,
    /// Bytes of a half-written last line that were ignored (0 if none).
    pub partial_line_bytes: usize,
}

impl Records {
    /// A row's iterations; `None` when the file has no `iterations` column.
    pub fn iterations(&self, r: &Record) -> Option<u64> {
        self.has_iterations.then_some(r.iterations)
    }

    /// A row's wall time in nanoseconds; `None` when the file has no timing column.
    pub fn time_ns(&self, r: &Record) -> Option<f64> {
        self.time_column.is_some().then_some(r.time_ns as f64)
    }
}

/// A row's solver without its variant: [`SolverFamily::Network`] for `network:parberry`.
pub fn solver(r: &Record) -> &SolverFamily {
    r.solver.family()
}

/// A row's variant: the `variant` column, or else what follows `:` in the solver's name;
/// `None` when neither says one.
pub fn variant(r: &Record) -> Option<String> {
    Some(r.variant.clone())
        .filter(|v| !v.is_empty())
        .or_else(|| r.solver.detail().map(str::to_string))
}

/// How a row's moves differ from the knight's on a whole plane board, from its geometry
/// columns (records module doc): `torus`, `(2,3)-leaper`, `cylinder (1,4)-leaper with
/// holes`, `graph files`; `None` on the knight's plane board or without the columns.
/// Series are named with it (`parberry on torus`); the board axis holds the [`Place`].
pub fn geometry(r: &Record) -> Option<String> {
    if r.graph.text().is_some() {
        return Some("graph files".to_string());
    }
    let surface = r.surface.text().and_then(|s| s.parse().ok());
    let leaper = r.leaper.text().and_then(|l| l.parse().ok());
    geometry_words(surface, leaper, r.shape.text().is_some())
}

/// How a surface, a leaper and holes differ from the knight's whole plane board, in the
/// words of [`geometry`] (`torus (2,3)-leaper`); `None` for the knight's plane board.
pub(crate) fn geometry_words(
    surface: Option<Surface>,
    leaper: Option<Leaper>,
    holes: bool,
) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(s) = surface.filter(|s| *s != Surface::Plane) {
        parts.push(s.to_string());
    }
    if let Some(l) = leaper.filter(|l| *l != Leaper::KNIGHT) {
        parts.push(format!("({l})-leaper"));
    }
    if holes {
        parts.push("with holes".to_string());
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

/// Where a group's trials ran, one tick of the board axis: a board (its rows and columns,
/// whatever its leaper, surface or holes: those name the series) or a graph file (its
/// name, with its vertices). Boards come first, by squares then rows; then graphs, by
/// vertices then name. Lines in figures join boards only: graphs are not a sequence.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Place {
    /// A rectangle of squares.
    Board(Board),
    /// A graph read from a file, by the name the records give it.
    Graph {
        /// The file's stem (`petersen`).
        name: String,
        /// Its vertices.
        vertices: usize,
    },
}

impl Place {
    /// A row's place: its graph when it ran on one (the records keep a graph's vertices
    /// as the board `1xV`), else its board.
    pub fn of(r: &Record) -> Place {
        match r.graph.text() {
            Some(name) => Place::Graph {
                name: name.to_string(),
                vertices: r.board.squares(),
            },
            None => Place::Board(r.board),
        }
    }

    /// The board, `None` for a graph.
    pub fn board(&self) -> Option<Board> {
        match self {
            Place::Board(b) => Some(*b),
            Place::Graph { .. } => None,
        }
    }

    /// Squares of a board, vertices of a graph.
    pub fn squares(&self) -> usize {
        match self {
            Place::Board(b) => b.squares(),
            Place::Graph { vertices, .. } => *vertices,
        }
    }

    /// A panel's heading: `board 8x8`, `graph petersen`.
    pub fn heading(&self) -> String {
        match self {
            Place::Board(b) => format!("board {b}"),
            Place::Graph { name, .. } => format!("graph {name}"),
        }
    }

    /// Whether it is a board (a point a figure's line may join).
    pub fn is_board(&self) -> bool {
        matches!(self, Place::Board(_))
    }

    fn key(&self) -> (bool, usize, usize, &str) {
        match self {
            Place::Board(b) => (false, b.squares(), b.rows(), ""),
            Place::Graph { name, vertices } => (true, *vertices, 0, name),
        }
    }
}

impl Ord for Place {
    fn cmp(&self, other: &Place) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Place {
    fn partial_cmp(&self, other: &Place) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Place::Board(b) => b.fmt(f),
            Place::Graph { name, .. } => f.write_str(name),
        }
    }
}

/// A row's spec entry label, `None` when empty.
pub fn label(r: &Record) -> Option<String> {
    Some(r.label.clone()).filter(|l| !l.is_empty())
}

fn file_err(path: &Path, msg: impl std::fmt::Display) -> InputError {
    InputError::File(format!("{}: {msg}", path.display()))
}

/// Load `records.csv` (or any file with that layout, see the module doc).
pub fn load(path: &Path) -> Result<Records, super::PlotError> {
    let read = records::read_lenient(path)?;
    for (i, r) in read.records.iter().enumerate() {
        let line = i + 2;
        if r.solver.is_empty() {
            return Err(file_err(path, format!("line {line}: column 'solver' is empty")).into());
        }
    }
    if read.records.is_empty() {
        return Err(file_err(path, "has a header but no trials").into());
    }
    Ok(Records {
        path: path.to_path_buf(),
        rows: read.records,
        time_column: read.time_column,
        has_iterations: read.columns.iter().any(|c| c == "iterations"),
        partial_line_bytes: read.truncated as usize,
    })
}

/// Which solver and variant a group of trials used.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SolverId {
    /// The solver, network presets apart.
    pub solver: SolverFamily,
    /// The records' `variant`, when they give one.
    pub variant: Option<String>,
    /// The spec entry's `label` when it says more than solver and variant (two entries
    /// with the same variant but different overrides stay apart).
    pub entry: Option<String>,
}

impl SolverId {
    /// The network alone.
    pub(crate) fn is_network(&self) -> bool {
        self.solver == SolverFamily::Network
    }

    /// The network followed by cycle merging (`network+merge`).
    pub(crate) fn is_network_merge(&self) -> bool {
        self.solver == SolverFamily::NetworkMerge
    }

    /// The network, alone or followed by cycle merging (`network+merge`).
    pub(crate) fn is_neural(&self) -> bool {
        self.solver.is_neural()
    }

    /// `network:parberry`, `warnsdorff`, `warnsdorff:roth` (the entry label replaces
    /// the variant when there is one).
    pub fn name(&self) -> String {
        match (&self.entry, &self.variant) {
            (Some(e), _) | (None, Some(e)) => format!("{}:{e}", self.solver),
            (None, None) => self.solver.to_string(),
        }
    }

    /// The preset (or entry label) for network groups, like `parberry`; else
    /// [`SolverId::name`].
    pub fn short(&self) -> String {
        match (&self.entry, &self.variant, self.is_network()) {
            (Some(e), _, true) | (None, Some(e), true) => e.clone(),
            _ => self.name(),
        }
    }

    /// The name a reader sees on a panel or in a legend: the spec entry's label when it
    /// has one (`parberry-square-sweep`; `auto-tiles (network+merge)` with the solver
    /// added when the label does not name it), the preset for the network
    /// (`parberry`), else the solver with its variant in brackets (`warnsdorff (roth)`,
    /// `network+merge (parberry)`).
    pub fn display(&self) -> String {
        match (&self.entry, &self.variant) {
            (Some(e), _) if !self.is_network() && !e.contains(self.solver.name()) => {
                format!("{e} ({})", self.solver)
            }
            (Some(e), _) => e.clone(),
            (None, Some(v)) if self.is_network() => v.clone(),
            (None, Some(v)) => format!("{} ({v})", self.solver),
            (None, None) => self.solver.to_string(),
        }
    }
}

/// The trials of one (solver, variant, place).
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The solver and variant.
    pub id: SolverId,
    /// The board or graph.
    pub place: Place,
    /// How its moves differ from the knight's on a whole plane board ([`geometry`]);
    /// `None` for the knight's plane board.
    pub geometry: Option<String>,
    /// Trials in the group.
    pub trials: u64,
    /// Trials per outcome name.
    pub outcomes: BTreeMap<String, u64>,
    /// `iterations` of every trial that has it, in file order, with whether the trial
    /// ended in a tour.
    pub iterations: Vec<(u64, bool)>,
    /// Sum of the timing column over trials that have it, and how many had it.
    pub total_time_ns: f64,
    /// Trials that have a time.
    pub timed_trials: u64,
    /// Per timed trial, its time in nanoseconds and whether it found a tour (for the
    /// bootstrap interval of the time per tour).
    pub times: Vec<(f64, bool)>,
    /// Index of the group's first row in the records file: groups ordered by it come in
    /// the spec's order.
    pub first_row: usize,
}

impl Group {
    /// Trials that ended in `outcome` (its name: `tour`, `multiple-cycles`, ...).
    pub fn count(&self, outcome: &str) -> u64 {
        self.outcomes.get(outcome).copied().unwrap_or(0)
    }

    /// Trials that ended in a tour.
    pub fn tours(&self) -> u64 {
        self.count("tour")
    }

    /// Total time over all trials divided by the tours found, in seconds; `None` if
    /// no tour was found or the records have no timing for every trial.
    pub fn seconds_per_tour(&self) -> Option<f64> {
        (self.tours() > 0 && self.timed_trials == self.trials)
            .then(|| self.total_time_ns / self.tours() as f64 * 1e-9)
    }

    /// Bootstrap 95% percentile interval of the time per tour, in seconds: the group's
    /// trials resampled with replacement [`BOOTSTRAP_RESAMPLES`] times from a fixed seed
    /// (so the same records give the same interval), each resample's total time divided
    /// by its tours. `None` without a time per tour; the upper end is `None` when more
    /// than 2.5% of resamples found no tour (unbounded above).
    pub(crate) fn time_per_tour_interval(&self) -> Option<(f64, Option<f64>)> {
        use rand::{Rng, SeedableRng};
        self.seconds_per_tour()?;
        let n = self.times.len();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(BOOTSTRAP_SEED);
        let mut stats: Vec<f64> = (0..BOOTSTRAP_RESAMPLES)
            .map(|_| {
                let (mut total, mut tours) = (0.0, 0u64);
                for _ in 0..n {
                    let (t, tour) = self.times[rng.random_range(0..n)];
                    total += t;
                    tours += tour as u64;
                }
                if tours == 0 {
                    f64::INFINITY
                } else {
                    total / tours as f64 * 1e-9
                }
            })
            .collect();
        stats.sort_by(f64::total_cmp);
        let at = |q: f64| stats[((q * (stats.len() - 1) as f64).round()) as usize];
        let hi = at(0.975);
        Some((at(0.025), hi.is_finite().then_some(hi)))
    }

    /// Share of trials with an outcome among `names`, with its Wilson 95% interval.
    pub fn share(&self, names: &[&str]) -> Share {
        let k: u64 = names.iter().map(|n| self.count(n)).sum();
        Share::wilson(k, self.trials)
    }
}

/// Resamples of the bootstrap interval of the time per tour.
pub(crate) const BOOTSTRAP_RESAMPLES: usize = 1000;
/// Fixed seed of that bootstrap.
pub(crate) const BOOTSTRAP_SEED: u64 = 1996;

/// A proportion with its Wilson score 95% interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Share {
    /// Successes.
    pub k: u64,
    /// Trials.
    pub n: u64,
    /// The proportion `k / n` (0 when `n` is 0).
    pub p: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Share {
    /// Wilson score interval at 95% (z = 1.959964). `n = 0` gives `p = 0` and [0, 1].
    pub fn wilson(k: u64, n: u64) -> Share {
        if n == 0 {
            return Share {
                k,
                n,
                p: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (low, high) = crate::stats::wilson(k, n, crate::stats::Z95);
        Share {
            k,
            n,
            p: k as f64 / n as f64,
            low,
            high,
        }
    }
}

/// Groups sorted by solver id, then place ([`Place`]'s order).
pub fn aggregate(records: &Records) -> Vec<Group> {
    let mut map: BTreeMap<(SolverId, Place), Group> = BTreeMap::new();
    for (row, r) in records.rows.iter().enumerate() {
        let (solver, variant, place) = (solver(r).clone(), variant(r), Place::of(r));
        let name = solver.name().to_string();
        let plain = [Some(&name), variant.as_ref()];
        let mut id = SolverId {
            entry: label(r).filter(|l| {
                !plain.contains(&Some(l))
                    && *l != format!("{}:{}", solver, variant.as_deref().unwrap_or(""))
            }),
            solver,
            variant,
        };
        // Cells beyond the knight on a whole plane board are series of their own, named
        // with how they moved (`parberry on torus (2,3)-leaper`, `parberry on graph files`).
        let moves = geometry(r);
        if let Some(p) = &moves {
            id.entry = Some(format!(
                "{} on {p}",
                id.entry.clone().unwrap_or_else(|| id.short())
            ));
        }
        let key = (id.clone(), place.clone());
        let g = map.entry(key).or_insert_with(|| Group {
            id,
            place,
            geometry: moves,
            trials: 0,
            outcomes: BTreeMap::new(),
            iterations: Vec::new(),
            total_time_ns: 0.0,
            timed_trials: 0,
            times: Vec::new(),
            first_row: row,
        });
        g.trials += 1;
        let tour = r.outcome == Outcome::Tour;
        *g.outcomes.entry(r.outcome.name().to_string()).or_insert(0) += 1;
        if let Some(i) = records.iterations(r) {
            g.iterations.push((i, tour));
        }
        if let Some(t) = records.time_ns(r) {
            g.total_time_ns += t;
            g.timed_trials += 1;
            g.times.push((t, tour));
        }
    }
    map.into_values().collect()
}

/// Sort key for boards: by number of squares, then rows.
pub(crate) fn board_key(b: Board) -> (usize, usize, usize) {
    (b.squares(), b.rows(), b.cols())
}

/// The title of an axis of `places`: `board`, or `board or graph` when a graph is one.
pub(crate) fn places_title(places: &[Place]) -> &'static str {
    if places.iter().all(Place::is_board) {
        "board"
    } else {
        "board or graph"
    }
}

/// The width of a figure `base` pixels wide whose board axis holds `places` and takes all
/// but `margin` pixels of it: `base`, or wider when graphs are among the places and their
/// names would not all be labelled (a graph is not one of a sequence a reader can fill
/// in, as boards are).
pub(crate) fn width_for_places(places: &[Place], base: u32, margin: u32) -> u32 {
    if places.iter().all(Place::is_board) {
        base
    } else {
        base.max(super::axes::axis_width_for_every_label(places) + margin)
    }
}

/// The distinct places of `groups`, smallest first.
pub fn places(groups: &[Group]) -> Vec<Place> {
    let mut v: Vec<Place> = groups.iter().map(|g| g.place.clone()).collect();
    v.sort();
    v.dedup();
    v
}

/// The distinct solver ids of `groups` in the order the spec lists them (first
/// appearance in the records file).
pub(crate) fn spec_order(groups: &[Group]) -> Vec<SolverId> {
    let mut first: Vec<(usize, SolverId)> = Vec::new();
    for g in groups {
        match first.iter_mut().find(|(_, id)| *id == g.id) {
            Some(e) => e.0 = e.0.min(g.first_row),
            None => first.push((g.first_row, g.id.clone())),
        }
    }
    first.sort();
    first.into_iter().map(|(_, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 8 of 10: Wilson 95% interval (0.4902, 0.9433).
        let s = Share::wilson(8, 10);
        assert!(
            (s.low - 0.4902).abs() < 1e-3 && (s.high - 0.9433).abs() < 1e-3,
            "{s:?}"
        );
        let s = Share::wilson(0, 50);
        assert_eq!(s.low, 0.0);
        assert!((s.high - 0.0713).abs() < 1e-3, "{s:?}");
        assert_eq!(Share::wilson(0, 0).high, 1.0);
    }
}

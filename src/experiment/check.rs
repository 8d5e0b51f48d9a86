//! Provenance: proving that a results folder holds exactly what its spec would write.
//!
//! Resume, merge and `stats` check every row of `records.csv` against the spec of the run
//! (the fully resolved spec in `run.json`, compared key by key with `first_difference`)
//! for everything a row can prove on its own:
//! - its spec name, cell, label, board, solver and variant are those of its cell;
//! - its trial number is within the cell and in the folder's shard, and appears once;
//! - its seed is the one the seed rule gives the cell's trial under the spec's base seed
//!   (so rows of another seed, another cell or an edited trial number are refused);
//! - its start square is the cell's: the fixed square, or with `start = "random"` the
//!   first draw of the trial's random stream (drawn by the runner's own
//!   `trial_start`);
//! - its outcome is one the cell's solver can report, and its numbers are in range and
//!   agree with the outcome (network: iterations from 1 to the cap, and exactly the cap
//!   for `iteration-cap`; no restarts; a `tour` is one cycle of every vertex, several
//!   cycles cover the vertices with the longest at least their mean; classical:
//!   Warnsdorff's steps are the walk's moves, so a tour has one fewer than the squares;
//!   a search's steps are within its cap, and a tour places every square; restarts within
//!   the solver's; no network columns).
//!
//! Then a sample of the rows is replayed ([`Replay`]): each is run again by the runner's
//! own code for one trial (`Prepared::run`) and must match the row in every column but
//! the timings. By default [`DEFAULT_REPLAYS`] rows of each records file are replayed,
//! the ones with the smallest seeds (a spread over cells and trials that does not depend
//! on the order of the rows); [`Replay::All`] replays every row, `Replay::Sample(0)` none.
//!
//! The first offending row is refused naming the file, the line and the field.
//!
//! A content hash of the spec is not stored: `run.json` already carries the whole
//! resolved spec, which is compared key by key (naming the first key that differs, which
//! a hash could not), and anyone able to edit the spec could rewrite a hash beside it.
//! What ties each row to the spec is its seed, recomputed here for every row.

use std::collections::BTreeMap;
use std::path::Path;
use std::str::FromStr;
use std::sync::OnceLock;

use rayon::prelude::*;
use serde_json::Value;

use super::records::Record;
use super::runner::{Prepared, Shard, trial_start};
use super::seeds::trial_seed;
use super::spec::{Cell, Spec, StartRule, escaped};
use crate::error::{InputError, Param, Phrase};
use crate::rng_from_seed;
use crate::solvers::SolverKind;
use crate::solvers::SolverName;
use crate::solvers::outcome::{self, Outcome};

/// The first key at which two specs differ, as `PATH: A vs B` (e.g.
/// `seed: 6 vs 5`, `cells[2].trials: 24 vs 10`), or `None` when they are equal.
pub(crate) fn first_difference(a: &Spec, b: &Spec) -> Option<String> {
    let (va, vb) = (
        serde_json::to_value(a).unwrap_or(Value::Null),
        serde_json::to_value(b).unwrap_or(Value::Null),
    );
    diff(&va, &vb, String::new())
}

fn diff(a: &Value, b: &Value, path: String) -> Option<String> {
    let show = |v: Option<&Value>| v.map_or("(absent)".to_string(), |v| v.to_string());
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            // Keys in the order the spec serialises them, then any others.
            let ordered = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for k in ordered.filter(|k| keys.contains(k)) {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(u), Some(v)) => {
                        if let Some(d) = diff(u, v, p) {
                            return Some(d);
                        }
                    }
                    (u, v) => return Some(format!("{p}: {} vs {}", show(u), show(v))),
                }
            }
            None
        }
        (Value::Array(x), Value::Array(y)) => {
            for (i, (u, v)) in x.iter().zip(y).enumerate() {
                if let Some(d) = diff(u, v, format!("{path}[{i}]")) {
                    return Some(d);
                }
            }
            (x.len() != y.len()).then(|| {
                format!(
                    "{}: {} vs {} entries",
                    if path.is_empty() { "spec" } else { &path },
                    x.len(),
                    y.len()
                )
            })
        }
        _ => (a != b).then(|| {
            format!(
                "{}: {a} vs {b}",
                if path.is_empty() { "spec" } else { &path }
            )
        }),
    }
}

/// Trial numbers recorded so far, as disjoint ranges (start → end, exclusive): a run
/// records trials in nearly increasing order, so this stays a handful of ranges however
/// many trials are recorded.
#[derive(Debug, Clone, Default)]
pub(crate) struct TrialSet {
    ranges: BTreeMap<u64, u64>,
    len: u64,
}

impl TrialSet {
    pub fn contains(&self, g: u64) -> bool {
        self.ranges
            .range(..=g)
            .next_back()
            .is_some_and(|(_, &end)| g < end)
    }

    /// Add `g`; false when it was already there.
    pub fn insert(&mut self, g: u64) -> bool {
        if self.contains(g) {
            return false;
        }
        let end = g + 1;
        let mut start = g;
        let mut stop = end;
        // Join the range ending at g and the one starting at g + 1.
        if let Some((&s, &e)) = self.ranges.range(..g).next_back()
            && e == g
        {
            start = s;
        }
        if let Some(e) = self.ranges.get(&end).copied() {
            self.ranges.remove(&end);
            stop = e;
        }
        self.ranges.insert(start, stop);
        self.len += 1;
        true
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    #[cfg(test)]
    /// Number of disjoint ranges (what the set's memory grows with).
    pub(crate) fn ranges(&self) -> usize {
        self.ranges.len()
    }
}

/// Rows of each records file replayed by default (see [`Replay`]).
pub const DEFAULT_REPLAYS: u64 = 100;

/// Rows replayed in one parallel batch by [`Replay::All`] (what its memory holds).
const REPLAY_BATCH: usize = 4096;

/// How many rows of each records file are run again and compared with their record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Replay {
    /// At most this many rows: those with the smallest seeds (0: none).
    Sample(u64),
    /// Every row.
    All,
}

impl Default for Replay {
    /// [`DEFAULT_REPLAYS`] rows.
    fn default() -> Replay {
        Replay::Sample(DEFAULT_REPLAYS)
    }
}

impl FromStr for Replay {
    type Err = InputError;

    /// `all`, or a number of rows (0 for none).
    fn from_str(s: &str) -> Result<Replay, InputError> {
        match s.trim() {
            "all" => Ok(Replay::All),
            n => n.parse().map(Replay::Sample).map_err(|_| {
                InputError::named(
                    Phrase::new().setting(Param::Replay, format!("{s:?}")).text(format!(
                        " is not accepted; give a number of rows per records file (default {DEFAULT_REPLAYS}, 0 for none) or all"
                    )),
                )
            }),
        }
    }
}

impl std::fmt::Display for Replay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Replay::Sample(n) => write!(f, "{n}"),
            Replay::All => f.write_str("all"),
        }
    }
}

/// What a row of each cell must look like.
struct CellRule {
    key: String,
    solver: SolverName,
    variant: String,
    /// Per-attempt cap of a network cell; `None` for classical cells.
    max_iterations: Option<u64>,
    /// Vertices of the cell's graph: the squares, plus the apex of the open graph.
    vertices: u64,
}

/// A row kept for replay: its sample key, its line and the row.
type Kept = (u64, u64, Record);

/// Checks rows of a results folder against its spec and shard, remembering the trials
/// seen (to refuse duplicates, and to tell a resumed run what is done), and replays a
/// sample of them ([`RowCheck::replaying`], then [`RowCheck::finish`]).
pub(crate) struct RowCheck<'s> {
    spec: &'s Spec,
    shard: Shard,
    offsets: Vec<u64>,
    rules: Vec<CellRule>,
    /// Global numbers of the trials seen.
    pub seen: TrialSet,
    replay: Replay,
    /// Rows waiting for their replay.
    kept: Vec<Kept>,
    /// Each cell made ready to run, when a row of it is first replayed.
    prepared: Vec<OnceLock<Prepared<'s>>>,
}

impl<'s> RowCheck<'s> {
    /// Checks of rows of `spec` run as `shard`, replaying none.
    pub fn new(spec: &'s Spec, shard: Shard) -> RowCheck<'s> {
        let rules = spec
            .cells
            .iter()
            .map(|c| CellRule {
                key: c.key(),
                solver: c.solver_name(),
                variant: c.variant(),
                max_iterations: c.params().map(|p| u64::from(p.max_iterations)),
                vertices: c.vertices() + u64::from(c.open),
            })
            .collect();
        RowCheck {
            spec,
            shard,
            offsets: spec.offsets(),
            rules,
            seen: TrialSet::default(),
            replay: Replay::Sample(0),
            kept: Vec::new(),
            prepared: spec.cells.iter().map(|_| OnceLock::new()).collect(),
        }
    }

    /// Also replay the rows `replay` asks for (when [`RowCheck::finish`] is called, and
    /// along the way for [`Replay::All`]).
    pub fn replaying(mut self, replay: Replay) -> RowCheck<'s> {
        self.replay = replay;
        self
    }

    /// Check row `r`, read from line `line` of `origin`, and remember its trial.
    pub fn check(&mut self, r: &Record, origin: &Path, line: u64) -> Result<(), InputError> {
        let (g, rule) = self.placed(r).map_err(|why| refused(origin, line, why))?;
        let cell = &self.spec.cells[r.cell];
        Self::in_range(r, cell, rule).map_err(|why| refused(origin, line, why))?;
        if self.seen.contains(g) {
            return Err(refused(
                origin,
                line,
                format!(
                    "cell {} ({}) trial {} appears twice",
                    r.cell, rule.key, r.trial
                ),
            ));
        }
        self.seen.insert(g);
        self.keep(r, line, origin)
    }

    /// Replay the rows kept for it; the first (by line) that its replay contradicts is
    /// refused naming `origin`, the line and the field.
    pub fn finish(&mut self, origin: &Path) -> Result<(), InputError> {
        let kept = std::mem::take(&mut self.kept);
        self.replay_rows(&kept, origin)
    }

    /// Keep row `r` for replay if the sample takes it (replaying a full batch at once for
    /// [`Replay::All`]).
    fn keep(&mut self, r: &Record, line: u64, origin: &Path) -> Result<(), InputError> {
        match self.replay {
            Replay::Sample(0) => Ok(()),
            Replay::Sample(n) => {
                // The n smallest seeds: keep up to 2n, then cut back to n.
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                if self.kept.len() >= n.saturating_mul(2).max(REPLAY_BATCH) {
                    self.kept.select_nth_unstable_by_key(n - 1, |k| (k.0, k.1));
                    self.kept.truncate(n);
                }
                self.kept.push((r.seed, line, r.clone()));
                Ok(())
            }
            Replay::All => {
                self.kept.push((r.seed, line, r.clone()));
                if self.kept.len() >= REPLAY_BATCH {
                    self.finish(origin)?;
                }
                Ok(())
            }
        }
    }

    /// Replay `rows` in parallel; the first mismatch by line is the error.
    fn replay_rows(&self, rows: &[Kept], origin: &Path) -> Result<(), InputError> {
        let rows: Vec<&Kept> = match self.replay {
            Replay::Sample(n) => {
                let mut sorted: Vec<&Kept> = rows.iter().collect();
                sorted.sort_unstable_by_key(|k| (k.0, k.1));
                sorted.truncate(usize::try_from(n).unwrap_or(usize::MAX));
                sorted
            }
            Replay::All => rows.iter().collect(),
        };
        let first = rows
            .par_iter()
            .filter_map(|&&(_, line, ref r)| {
                let prepared = self.prepared[r.cell]
                    .get_or_init(|| Prepared::new(self.spec, &self.spec.cells[r.cell]));
                let why = match prepared.run(r.trial) {
                    Ok(again) => mismatch(r, &again)?,
                    Err(e) => format!("its cell cannot run: {e}"),
                };
                Some((line, why))
            })
            .min_by_key(|(line, _)| *line);
        match first {
            Some((line, why)) => Err(refused(origin, line, why)),
            None => Ok(()),
        }
    }

    /// Whether row `r` is where its spec, cell and seed put it: its global trial number
    /// and its cell's rule, or what differs.
    fn placed(&self, r: &Record) -> Result<(u64, &CellRule), String> {
        let spec = self.spec;
        if r.spec != spec.name {
            return Err(format!(
                "spec '{}' is not this run's spec '{}'",
                r.spec, spec.name
            ));
        }
        let (Some(cell), Some(rule)) = (spec.cells.get(r.cell), self.rules.get(r.cell)) else {
            return Err(format!(
                "cell {} is not in the spec (it has {} cells)",
                r.cell,
                spec.cells.len()
            ));
        };
        let fields = [
            ("label", r.label == cell.label, &r.label, &cell.label),
            (
                "board",
                r.board == cell.board,
                &r.board.to_string(),
                &cell.board.to_string(),
            ),
            (
                "solver",
                r.solver == rule.solver,
                &r.solver.to_string(),
                &rule.solver.to_string(),
            ),
            (
                "variant",
                r.variant == rule.variant,
                &r.variant,
                &rule.variant,
            ),
        ];
        for (name, same, got, want) in fields {
            if !same {
                return Err(format!(
                    "{name} '{got}' is not that of cell {} ({}), '{want}'",
                    r.cell, rule.key
                ));
            }
        }
        if r.trial >= cell.trials {
            return Err(format!(
                "trial {} is beyond cell {} ({})'s {} trials",
                r.trial, r.cell, rule.key, cell.trials
            ));
        }
        let seed = trial_seed(spec.seed, &rule.key, r.trial);
        if r.seed != seed {
            return Err(format!(
                "seed {} is not the seed of cell {} ({}) trial {} under base seed {} (expected {seed})",
                r.seed, r.cell, rule.key, r.trial, spec.seed
            ));
        }
        let g = self.offsets[r.cell] + r.trial;
        if !self.shard.contains(g) {
            return Err(format!(
                "cell {} ({}) trial {} is not in shard {}",
                r.cell, rule.key, r.trial, self.shard
            ));
        }
        Ok((g, rule))
    }

    /// Whether row `r`'s outcome and numbers are ones cell `cell` (with `rule`) can
    /// record and agree with each other, or what does not.
    fn in_range(r: &Record, cell: &Cell, rule: &CellRule) -> Result<(), String> {
        // Any outcome name parsed (the reader refused unknown ones); a network cell's
        // trial is one attempt, which ends in one of the network's own outcomes.
        if rule.max_iterations.is_some() && !r.outcome.ends_network_attempt() {
            let network: Vec<Outcome> = Outcome::ALL
                .into_iter()
                .filter(|o| o.ends_network_attempt())
                .collect();
            return Err(format!(
                "outcome '{}' is not one this cell records ({})",
                r.outcome,
                outcome::names(&network)
            ));
        }
        match rule.max_iterations {
            Some(cap) => {
                let classical = [
                    ("start", r.start.is_some()),
                    ("steps", r.steps.is_some()),
                    ("merged", r.merged.is_some()),
                    ("swaps", r.swaps.is_some()),
                ];
                if let Some((name, _)) = classical.iter().find(|(_, set)| *set) {
                    return Err(format!("{name} is set, but network trials leave it empty"));
                }
                network_numbers(r, cap, rule.vertices)
            }
            None => {
                let start = match cell.start {
                    Some(StartRule::Random) => "its seed's first draw",
                    _ => "the cell's",
                };
                // The start square the runner gives this trial (drawn from its seed).
                let want =
                    trial_start(cell, &mut rng_from_seed(r.seed)).map(|q| cell.start_text(q));
                if r.start != want {
                    let show = |s: &Option<String>| {
                        s.as_deref()
                            .map_or("empty".to_string(), |s| format!("'{}'", escaped(s)))
                    };
                    return Err(format!(
                        "start is {}, but {start} is {}",
                        show(&r.start),
                        show(&want)
                    ));
                }
                if r.cycles.is_some() || r.largest_cycle.is_some() {
                    return Err("cycles is set, but only network trials record cycles".into());
                }
                classical_numbers(r, cell)
            }
        }
    }
}

/// `ORIGIN, line N: WHY; the folder holds rows this spec did not write, so it is refused`.
fn refused(origin: &Path, line: u64, why: String) -> InputError {
    InputError::File(format!(
        "{}, line {line}: {why}; the folder holds rows this spec did not write, so it is refused",
        origin.display()
    ))
}

/// `NAME X is above MAX`, when it is.
fn at_most(name: &str, v: Option<u64>, max: u64) -> Result<(), String> {
    match v {
        Some(x) if x > max => Err(format!("{name} {x} is above {max}")),
        _ => Ok(()),
    }
}

/// A number column shown as the row holds it.
fn show(v: Option<u64>) -> String {
    v.map_or("empty".into(), |x| x.to_string())
}

/// The numbers of a network trial (one attempt on a graph of `vertices` vertices, capped
/// at `cap` iterations) against its outcome: every attempt takes 1 to `cap` iterations,
/// and one the cap stopped took exactly `cap`; a tour (or a tour the oracle rejected) is
/// one cycle through every vertex; several cycles (each of at least 3 vertices) cover all
/// vertices, so the longest holds at least their mean; other outcomes have no cycles.
fn network_numbers(r: &Record, cap: u64, vertices: u64) -> Result<(), String> {
    at_most("iterations", Some(r.iterations), cap)?;
    at_most("restarts", Some(r.restarts), 0)?;
    if r.iterations == 0 {
        return Err("iterations is 0, but every attempt takes at least one".into());
    }
    if r.outcome == Outcome::IterationCap && r.iterations != cap {
        return Err(format!(
            "outcome '{}' with iterations {}: the cap stops an attempt at {cap}",
            r.outcome, r.iterations
        ));
    }
    let (cycles, largest) = (r.cycles, r.largest_cycle);
    let agree = match r.outcome {
        Outcome::Tour | Outcome::InvalidTour => cycles == Some(1) && largest == Some(vertices),
        Outcome::MultipleCycles => match (cycles, largest) {
            (Some(k), Some(l)) => {
                k >= 2 && 3 * k <= vertices && l * k >= vertices && l + 3 * (k - 1) <= vertices
            }
            _ => false,
        },
        _ => cycles.is_none() && largest.is_none(),
    };
    if !agree {
        let want = match r.outcome {
            Outcome::Tour | Outcome::InvalidTour => {
                format!(
                    "one cycle through all {vertices} vertices (cycles 1, largest_cycle {vertices})"
                )
            }
            Outcome::MultipleCycles => format!(
                "2 to {} cycles covering the {vertices} vertices, each of at least 3 (largest_cycle at least their mean)",
                vertices / 3
            ),
            _ => "no cycles (cycles and largest_cycle empty)".to_string(),
        };
        return Err(format!(
            "outcome '{}' with cycles {} and largest_cycle {}: that outcome has {want}",
            r.outcome,
            show(cycles),
            show(largest)
        ));
    }
    Ok(())
}

/// The numbers of a classical trial against its outcome and its cell's solver. A trial
/// the solver refused (`refused`, `impossible`) has none; Warnsdorff's steps are the last
/// walk's moves (a complete walk has one fewer than the squares, a stuck one fewer still);
/// a search's steps are within its cap, and a tour places every square; restarts are
/// within the solver's; only `network+merge` fills the merge columns.
fn classical_numbers(r: &Record, cell: &Cell) -> Result<(), String> {
    // Warnsdorff's walk on the knight's board counts its moves; on a target (the
    // solvers of `on_graph`) the vertices it placed, one more.
    let moves = cell.vertices() - 1;
    let whole_walk = moves + u64::from(cell.target.is_some());
    let merge = matches!(cell.solver, SolverKind::NetworkMerge { .. });
    if !merge {
        if let Some(name) = [("merged", r.merged.is_some()), ("swaps", r.swaps.is_some())]
            .iter()
            .find(|(_, set)| *set)
            .map(|(n, _)| n)
        {
            return Err(format!(
                "{name} is set, but only network+merge trials record it"
            ));
        }
        at_most("iterations", Some(r.iterations), 0)?;
    }
    if matches!(r.outcome, Outcome::Refused | Outcome::Impossible) {
        let numbers = [
            ("iterations", r.iterations != 0),
            ("restarts", r.restarts != 0),
            ("steps", r.steps.is_some()),
            ("merged", r.merged.is_some()),
            ("swaps", r.swaps.is_some()),
        ];
        if let Some((name, _)) = numbers.iter().find(|(_, set)| *set) {
            return Err(format!(
                "outcome '{}' with {name} set: a trial the solver refused has no numbers",
                r.outcome
            ));
        }
        return Ok(());
    }
    let steps_for = |what: String| {
        format!(
            "outcome '{}' with steps {}: {what}",
            r.outcome,
            show(r.steps)
        )
    };
    match cell.solver {
        SolverKind::Warnsdorff { restarts, .. } => {
            at_most("restarts", Some(r.restarts), u64::from(restarts))?;
            let ok = match (r.outcome, r.steps) {
                (Outcome::Tour | Outcome::NotClosed | Outcome::InvalidTour, Some(s)) => {
                    s == whole_walk
                }
                (Outcome::Stuck, Some(s)) => s < whole_walk,
                _ => false,
            };
            if !ok {
                return Err(steps_for(format!(
                    "Warnsdorff's walk ends in a tour or a whole walk after {whole_walk} steps on {}, or is stuck before",
                    cell.place()
                )));
            }
        }
        SolverKind::Backtrack { max_steps }
        | SolverKind::ForwardCheck { max_steps, .. }
        | SolverKind::WarnsdorffBacktrack { max_steps, .. } => {
            at_most("restarts", Some(r.restarts), 0)?;
            let ok = match r.steps {
                Some(s) => s <= max_steps && (r.outcome != Outcome::Tour || s >= moves),
                None => false,
            };
            if !ok {
                return Err(steps_for(format!(
                    "a search takes at most its {max_steps} steps, and a tour at least {moves} on {}",
                    cell.place()
                )));
            }
        }
        // Its attempts and iterations count tiles too: left to the replay.
        SolverKind::NetworkMerge { .. } => {}
        _ => at_most("restarts", Some(r.restarts), 0)?,
    }
    Ok(())
}

/// The first column (timings aside) in which `again`, the replay of row `r`, differs
/// from it, as `FIELD is X in the row, its replay gives Y`; `None` when they agree.
fn mismatch(r: &Record, again: &Record) -> Option<String> {
    let (a, b) = (r.without_timing(), again.without_timing());
    if a == b {
        return None;
    }
    let (Ok(Value::Object(x)), Ok(Value::Object(y))) =
        (serde_json::to_value(&a), serde_json::to_value(&b))
    else {
        return Some("its replay differs".into());
    };
    let field = super::records::COLUMNS
        .iter()
        .find(|c| x.get(**c) != y.get(**c))
        .copied()
        .unwrap_or("a column");
    let show = |v: Option<&Value>| match v {
        Some(Value::Null) | None => "empty".to_string(),
        Some(Value::String(s)) => format!("'{}'", escaped(s)),
        Some(v) => v.to_string(),
    };
    Some(format!(
        "{field} is {} in the row, but a replay of cell {} trial {} gives {} (every column but the timings must match)",
        show(x.get(field)),
        r.cell,
        r.trial,
        show(y.get(field))
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trial_sets_merge_ranges() {
        let mut s = TrialSet::default();
        for g in [0, 1, 2, 5, 4, 3, 10, 8, 9] {
            assert!(s.insert(g));
        }
        assert!(!s.insert(4));
        assert_eq!(s.len(), 9);
        assert_eq!(s.ranges(), 2);
        assert!(s.contains(5) && s.contains(8) && s.contains(10));
        assert!(!s.contains(6) && !s.contains(7) && !s.contains(11));
    }

    #[test]
    fn replay_counts_parse_and_print() {
        assert_eq!("all".parse::<Replay>(), Ok(Replay::All));
        assert_eq!(" 0 ".parse::<Replay>(), Ok(Replay::Sample(0)));
        assert_eq!(Replay::default(), Replay::Sample(DEFAULT_REPLAYS));
        assert_eq!(Replay::default().to_string(), "100");
        let e = "-1".parse::<Replay>().unwrap_err().to_string();
        assert!(e.contains("replay = \"-1\"") && e.contains("all"), "{e}");
    }

    #[test]
    fn differences_name_the_key() {
        let a = Spec::parse(
            "seed = 6\ntrials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n",
            "small",
            "a",
        )
        .unwrap();
        let mut b = a.clone();
        assert_eq!(first_difference(&a, &b), None);
        b.seed = 5;
        assert_eq!(first_difference(&a, &b).unwrap(), "seed: 6 vs 5");
        let mut c = a.clone();
        c.cells[0].trials = 4;
        assert_eq!(first_difference(&a, &c).unwrap(), "cells[0].trials: 3 vs 4");
    }
}

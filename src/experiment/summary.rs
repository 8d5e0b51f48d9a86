//! Per-cell summaries of records: outcome shares with 95% Wilson score intervals,
//! median and mean iterations, attempts per tour and time per tour; written as
//! `summary.json` and `summary.md`.
//!
//! Definitions (per cell, over the trials recorded):
//! - share of an outcome = count / trials, with the Wilson score interval at z = 1.96;
//! - attempts per tour = trials / tours (for network cells, trials are single attempts,
//!   so this is the expected number of restarts + 1 per tour found);
//! - time per tour = total trial time / tours (Parberry's "CPU time per tour": each trial
//!   runs on one thread);
//! - R99 = ⌈ln 0.01 / ln(1 − p)⌉ attempts for a 99% chance of a tour at tour rate p, with
//!   the interval from p's Wilson bounds; TTS99 = R99 × mean time per trial (its interval
//!   carries the uncertainty of p only); see [`crate::stats::Estimate::r99`];
//! - comparisons: every cell against the reference cell of the same board (the spec's
//!   `reference` label, default the first network cell's; see
//!   `Spec::reference_label`): the difference of tour rates with Newcombe's hybrid score
//!   95% interval, the two-sided two-proportion z test with Holm's correction over all
//!   the summary's comparisons, and the ratio of attempts per tour (cell / reference).
//!
//! A summary is a function of the spec, the shard and the records alone; keys ending in
//! `_ns` are the only ones that differ between reruns. It is computed by a streaming
//! `Tally`: outcome counts, histograms of iterations and steps (exact medians), and
//! sums, so a run never holds its records in memory.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::records::Record;
use super::runner::Shard;
use super::spec::Spec;

use crate::solvers::Outcome;
use crate::stats::{Estimate, holm, newcombe, two_proportion};
use crate::target::{Target, shape_text};

/// The network's four terminations, in [`crate::network::Termination::NAMES`] order:
/// the outcomes every network cell's summary lists first, found or not.
const NETWORK_ENDINGS: [Outcome; 4] = [
    Outcome::Tour,
    Outcome::MultipleCycles,
    Outcome::StableNotDegreeTwo,
    Outcome::IterationCap,
];
pub use crate::stats::{Z95, wilson};

/// One outcome's count and share in a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// The outcome.
    pub outcome: Outcome,
    /// Trials of the cell that ended so.
    pub count: u64,
    /// `count / trials` (0 to 1; 0 when no trial is recorded).
    pub share: f64,
    /// Lower end of the share's 95% Wilson score interval.
    pub ci_low: f64,
    /// Upper end of the share's 95% Wilson score interval.
    pub ci_high: f64,
}

/// The summary of one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    /// The cell's index in the spec, from 0.
    pub cell: usize,
    /// The cell's label in the spec.
    pub label: String,
    /// The board, as `RxC`; beyond the knight on a whole plane board, where the cell
    /// runs ([`crate::experiment::Cell::place`]: `8x8 torus (2,3)-leaper`,
    /// `graph petersen`).
    pub board: String,
    /// The leaper, `R,S` (cells beyond the knight on a whole plane board only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaper: Option<String>,
    /// The surface (cells beyond the knight on a whole plane board only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub surface: Option<String>,
    /// A shape's picture, rows joined by `/` (cells on a board with holes only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// A graph file's name (cells on a graph file only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
    /// The solver's name, as `records.csv` gives it (`network:PRESET`,
    /// `network+merge:PRESET` or a classical solver's name).
    pub solver: String,
    /// The cell's variant, as its records' `variant` column holds it
    /// ([`crate::experiment::Cell::variant`]: the network's preset and replayable `solve`
    /// flags, or the classical solver's tie-break; empty when there is none).
    pub variant: String,
    /// Trials this run (or shard) was to do.
    pub trials_planned: u64,
    /// Trials recorded.
    pub trials: u64,
    /// Trials that found a tour.
    pub tours: u64,
    /// Every outcome, `tour` first (network cells list all four termination names).
    pub outcomes: Vec<Share>,
    /// Network sweeps/steps per attempt (network cells only).
    pub iterations_median: Option<f64>,
    /// Mean network sweeps/steps per attempt (network cells only; `None` also without
    /// records).
    pub iterations_mean: Option<f64>,
    /// Mean number of cycles over trials that ended in a degree-2 cover (network).
    pub cycles_mean: Option<f64>,
    /// Median search steps (squares placed) per trial, over the trials that record
    /// steps (the classical solvers that count them; `None` for the others).
    pub steps_median: Option<f64>,
    /// Mean search steps per trial, over the same trials as `steps_median`.
    pub steps_mean: Option<f64>,
    /// Trials per tour found, `trials / tours` (`None`: no tour).
    pub attempts_per_tour: Option<f64>,
    /// Wall time of all the cell's trials, summed (ns; each trial runs on one thread).
    pub time_total_ns: u64,
    /// Mean wall time per trial (ns; `None` without records).
    pub time_mean_ns: Option<f64>,
    /// Wall time per tour found, `time_total_ns / tours` (ns; `None`: no tour).
    pub time_per_tour_ns: Option<f64>,
    /// Attempts for a 99% chance of a tour (`None`: no tour, unbounded), and its 95%
    /// interval from the Wilson bounds of p(tour) (`r99_high` `None`: unbounded).
    #[serde(default)]
    pub r99: Option<f64>,
    /// Lower end of R99's 95% interval (from the upper Wilson bound of p(tour)).
    #[serde(default)]
    pub r99_low: Option<f64>,
    /// Upper end of R99's 95% interval (`None`: unbounded, the lower Wilson bound of
    /// p(tour) is 0).
    #[serde(default)]
    pub r99_high: Option<f64>,
    /// TTS99 = R99 × mean time per trial, with the interval of R99 times the same mean.
    #[serde(default)]
    /// (ns; `None`: no tour, or no records).
    pub tts99_ns: Option<f64>,
    /// Lower end of TTS99's interval (ns): `r99_low` × the mean time per trial.
    #[serde(default)]
    pub tts99_low_ns: Option<f64>,
    /// Upper end of TTS99's interval (ns; `None`: unbounded).
    #[serde(default)]
    pub tts99_high_ns: Option<f64>,
}

/// One cell compared with the reference cell of its board.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The cell's index in the spec.
    pub cell: usize,
    /// The cell's label.
    pub label: String,
    /// The board both cells run on, as `RxC`.
    pub board: String,
    /// The reference cell's index.
    pub reference_cell: usize,
    /// p(tour) of the cell minus p(tour) of the reference.
    pub difference: f64,
    /// Newcombe's hybrid score 95% interval of the difference.
    pub difference_low: f64,
    /// Upper end of the difference's interval.
    pub difference_high: f64,
    /// Two-proportion z statistic (pooled variance).
    pub z: f64,
    /// Two-sided p-value of `z`, before correction.
    pub p: f64,
    /// `p` after Holm's correction over every comparison of the summary.
    pub p_holm: f64,
    /// Attempts per tour of the cell divided by the reference's (`None` when either
    /// found no tour).
    pub attempts_ratio: Option<f64>,
}

/// Compare every cell of `cells` with the cell labelled `reference` on the same board
/// (boards without such a cell get no comparisons), Holm-corrected together.
pub fn compare(cells: &[CellSummary], reference: &str) -> Vec<Comparison> {
    let mut v: Vec<Comparison> = Vec::new();
    for c in cells {
        let Some(r) = cells
            .iter()
            .find(|r| r.label == reference && r.board == c.board)
        else {
            continue;
        };
        if r.cell == c.cell {
            continue;
        }
        let t = two_proportion(c.tours, c.trials, r.tours, r.trials);
        let (lo, hi) = newcombe(c.tours, c.trials, r.tours, r.trials, Z95);
        v.push(Comparison {
            cell: c.cell,
            label: c.label.clone(),
            board: c.board.clone(),
            reference_cell: r.cell,
            difference: t.difference,
            difference_low: lo,
            difference_high: hi,
            z: t.z,
            p: t.p,
            p_holm: t.p,
            attempts_ratio: c
                .attempts_per_tour
                .zip(r.attempts_per_tour)
                .map(|(a, b)| a / b),
        });
    }
    let adjusted = holm(&v.iter().map(|c| c.p).collect::<Vec<f64>>());
    for (c, a) in v.iter_mut().zip(adjusted) {
        c.p_holm = a;
    }
    v
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The spec's name.
    pub spec: String,
    /// The spec's description.
    pub description: String,
    /// The spec's base seed ([`crate::seeds`]).
    pub seed: u64,
    /// Trials the run (or shard) was to do, over all cells.
    pub trials_planned: u64,
    /// Trials recorded, over all cells.
    pub trials_done: u64,
    /// Every planned trial is recorded.
    pub complete: bool,
    /// One summary per cell, in the spec's order.
    pub cells: Vec<CellSummary>,
    /// The label the comparisons are made against (`None`: no cells).
    #[serde(default)]
    pub reference: Option<String>,
    /// Every cell against the reference cell of its board (see [`compare`]).
    #[serde(default)]
    pub comparisons: Vec<Comparison>,
}

/// Counts of values (a histogram), enough for an exact median and mean: its size grows
/// with the number of distinct values, not with the number of trials.
#[derive(Debug, Clone, Default)]
struct Counts {
    by_value: BTreeMap<u64, u64>,
    n: u64,
    sum: u128,
}

impl Counts {
    fn add(&mut self, x: u64) {
        *self.by_value.entry(x).or_insert(0) += 1;
        self.n += 1;
        self.sum += u128::from(x);
    }

    /// The value of rank `k` (from 0) in sorted order.
    fn nth(&self, k: u64) -> u64 {
        let mut seen = 0;
        for (&x, &c) in &self.by_value {
            seen += c;
            if k < seen {
                return x;
            }
        }
        unreachable!("rank {k} below the count {}", self.n)
    }

    fn median(&self) -> Option<f64> {
        let n = self.n;
        if n == 0 {
            return None;
        }
        Some(if n % 2 == 1 {
            self.nth(n / 2) as f64
        } else {
            (self.nth(n / 2 - 1) as f64 + self.nth(n / 2) as f64) / 2.0
        })
    }

    fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum as f64 / self.n as f64)
    }
}

/// Running totals of one cell: outcome counts, histograms of iterations and steps, sums of
/// cycles and time. Everything a [`CellSummary`] needs, without the records.
#[derive(Debug, Clone, Default)]
struct CellTally {
    trials: u64,
    outcomes: BTreeMap<Outcome, u64>,
    iterations: Counts,
    steps: Counts,
    cycles_n: u64,
    cycles_sum: u128,
    time_total_ns: u64,
}

/// Streaming summary of a run: add records one by one (any order, one per (cell,
/// trial)), then [`Tally::summary`]. Memory: per cell, one count per distinct outcome,
/// iteration count and step count seen.
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    cells: Vec<CellTally>,
}

impl Tally {
    pub fn new(spec: &Spec) -> Tally {
        Tally {
            cells: vec![CellTally::default(); spec.cells.len()],
        }
    }

    /// Count one record (records of cells the spec does not have are ignored).
    pub fn add(&mut self, r: &Record) {
        let Some(c) = self.cells.get_mut(r.cell) else {
            return;
        };
        c.trials += 1;
        *c.outcomes.entry(r.outcome).or_insert(0) += 1;
        c.iterations.add(r.iterations);
        if let Some(s) = r.steps {
            c.steps.add(s);
        }
        if let Some(k) = r.cycles {
            c.cycles_n += 1;
            c.cycles_sum += u128::from(k);
        }
        c.time_total_ns = c.time_total_ns.saturating_add(r.time_ns);
    }

    /// The summary of the records added, for `spec` run as `shard`.
    pub fn summary(&self, spec: &Spec, shard: Shard) -> Summary {
        let offsets = spec.offsets();
        let mut cells = Vec::new();
        for (cell, t) in spec.cells.iter().zip(&self.cells) {
            let n = t.trials;
            let mut listed: Vec<Outcome> = if cell.is_network() {
                NETWORK_ENDINGS.to_vec()
            } else {
                vec![Outcome::Tour]
            };
            // Any others in the order of their names.
            let mut others: Vec<Outcome> = t
                .outcomes
                .keys()
                .copied()
                .filter(|o| !listed.contains(o))
                .collect();
            others.sort_by_key(|o| o.name());
            listed.extend(others);
            let outcomes: Vec<Share> = listed
                .into_iter()
                .map(|outcome| {
                    let count = t.outcomes.get(&outcome).copied().unwrap_or(0);
                    let (ci_low, ci_high) = wilson(count, n, Z95);
                    Share {
                        share: if n == 0 { 0.0 } else { count as f64 / n as f64 },
                        outcome,
                        count,
                        ci_low,
                        ci_high,
                    }
                })
                .collect();
            let tours = outcomes[0].count;
            let time_total_ns = t.time_total_ns;
            let time_mean_ns = (n > 0).then(|| time_total_ns as f64 / n as f64);
            let r99 = Estimate::r99(tours, n, Z95);
            let tts99 = r99.times(time_mean_ns.unwrap_or(f64::NAN));
            let (leaper, surface, shape, graph) = match &cell.target {
                None => (None, None, None, None),
                Some(Target::Geometry(g)) => (
                    Some(g.leaper().to_string()),
                    Some(g.surface().to_string()),
                    (!g.shape().is_full()).then(|| shape_text(g)),
                    None,
                ),
                Some(Target::File { path, .. }) => {
                    (None, None, None, Some(Target::file_stem(path)))
                }
            };
            cells.push(CellSummary {
                cell: cell.index,
                label: cell.label.clone(),
                board: cell.place(),
                leaper,
                surface,
                shape,
                graph,
                solver: cell.solver_name().to_string(),
                variant: cell.variant(),
                trials_planned: shard.count_in(offsets[cell.index], cell.trials),
                trials: n,
                tours,
                outcomes,
                iterations_median: t.iterations.median().filter(|_| cell.is_network()),
                iterations_mean: t.iterations.mean().filter(|_| cell.is_network()),
                cycles_mean: (t.cycles_n > 0).then(|| t.cycles_sum as f64 / t.cycles_n as f64),
                steps_median: t.steps.median(),
                steps_mean: t.steps.mean(),
                attempts_per_tour: (tours > 0).then(|| n as f64 / tours as f64),
                time_total_ns,
                time_mean_ns,
                time_per_tour_ns: (tours > 0).then(|| time_total_ns as f64 / tours as f64),
                r99: r99.value,
                r99_low: r99.low,
                r99_high: r99.high,
                tts99_ns: tts99.value.filter(|_| n > 0),
                tts99_low_ns: tts99.low.filter(|_| n > 0),
                tts99_high_ns: tts99.high.filter(|_| n > 0),
            });
        }
        let trials_planned = cells.iter().map(|c| c.trials_planned).sum();
        let trials_done = cells.iter().map(|c| c.trials).sum();
        let reference = spec.reference_label().map(str::to_string);
        let comparisons = reference
            .as_deref()
            .map(|r| compare(&cells, r))
            .unwrap_or_default();
        Summary {
            spec: spec.name.clone(),
            description: spec.description.clone(),
            seed: spec.seed,
            trials_planned,
            trials_done,
            complete: trials_done == trials_planned,
            cells,
            reference,
            comparisons,
        }
    }
}

/// Recompute the summary of a results folder from its `run.json` and `records.csv`,
/// every row checked against the spec as `--resume` checks it, `replay` of them replayed
/// (bad rows are bad input naming the file, line and field), after checking that this
/// engine version made the folder. Memory grows with the cells (and the rows replayed
/// together), not the trials. Returns the folder's spec with the summary.
pub fn from_folder(dir: &std::path::Path, replay: super::Replay) -> super::Result<(Spec, Summary)> {
    let info = super::read_run_info(dir)?;
    super::check_engine(dir, &info)?;
    let shard = info.shard.unwrap_or(Shard::ALL);
    let mut tally = Tally::new(&info.spec);
    let mut check = super::check::RowCheck::new(&info.spec, shard).replaying(replay);
    let path = dir.join(super::RECORDS);
    super::scan_checked(&path, &mut check, |r, _| tally.add(r))?;
    drop(check);
    let summary = tally.summary(&info.spec, shard);
    Ok((info.spec, summary))
}

/// Summarise `records` (any order; one per (cell, trial)) of `spec` run as `shard`.
pub fn build(spec: &Spec, shard: Shard, records: &[Record]) -> Summary {
    let mut t = Tally::new(spec);
    for r in records {
        t.add(r);
    }
    t.summary(spec, shard)
}

/// A percentage with enough digits for small shares.
fn pct(x: f64) -> String {
    let p = 100.0 * x;
    if p == 0.0 || p >= 1.0 {
        format!("{p:.1}")
    } else if p >= 0.1 {
        format!("{p:.2}")
    } else {
        format!("{p:.3}")
    }
}

/// Durations are written as every report writes them.
pub use crate::report::human_ns;

/// A whole count, or ∞ for an unbounded end.
fn count_or_inf(x: Option<f64>) -> String {
    x.map_or("∞".into(), |v| format!("{v:.0}"))
}

/// A duration, or ∞ for an unbounded end.
fn time_or_inf(x: Option<f64>) -> String {
    x.map_or("∞".into(), human_ns)
}

/// A p-value with three significant digits (`< 1e-300` below the double range).
pub fn p_value(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else if p > 1e-300 {
        format!("{p:.2e}")
    } else {
        "< 1e-300".into()
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map(f).unwrap_or_else(|| "–".into())
}

impl Summary {
    /// The R99 / TTS99 section (Markdown).
    pub fn time_to_solution_markdown(&self) -> String {
        let mut s = String::from(
            "\n## Time to solution\n\nR99 = ⌈ln 0.01 / ln(1 − p)⌉ attempts for a 99% chance of a tour at tour rate p, \
             95% interval from p's Wilson bounds (∞: unbounded); TTS99 = R99 × mean time per trial.\n\n\
             | cell | board | R99 [95% CI] | mean time per trial | TTS99 [95% CI] |\n|---|---|---|---:|---|\n",
        );
        for c in &self.cells {
            s += &format!(
                "| {} | {} | {} [{}, {}] | {} | {} [{}, {}] |\n",
                c.label,
                c.board,
                count_or_inf(c.r99),
                count_or_inf(c.r99_low),
                count_or_inf(c.r99_high),
                opt(c.time_mean_ns, human_ns),
                time_or_inf(c.tts99_ns),
                time_or_inf(c.tts99_low_ns),
                time_or_inf(c.tts99_high_ns),
            );
        }
        s
    }

    /// The comparisons section (Markdown); empty when there are none.
    pub fn comparisons_markdown(&self) -> String {
        let Some(reference) = &self.reference else {
            return String::new();
        };
        if self.comparisons.is_empty() {
            return String::new();
        }
        let mut s = format!(
            "\n## Comparisons with `{reference}`\n\nEach cell against the `{reference}` cell of its board: \
             difference of tour rates (cell − reference, points) with Newcombe's hybrid score 95% interval; \
             two-sided two-proportion z test, p-values Holm-corrected over the {} comparisons; \
             ratio of attempts per tour (cell / reference).\n\n\
             | cell | board | difference [95% CI] | z | p | p (Holm) | attempts-per-tour ratio |\n|---|---|---|---:|---:|---:|---:|\n",
            self.comparisons.len()
        );
        for c in &self.comparisons {
            s += &format!(
                "| {} | {} | {:+.1} [{:+.1}, {:+.1}] | {:.2} | {} | {} | {} |\n",
                c.label,
                c.board,
                100.0 * c.difference,
                100.0 * c.difference_low,
                100.0 * c.difference_high,
                c.z,
                p_value(c.p),
                p_value(c.p_holm),
                opt(c.attempts_ratio, |x| format!("{x:.2}")),
            );
        }
        s
    }

    /// The summary as Markdown.
    pub fn markdown(&self) -> String {
        let mut s = format!("# Experiment `{}`\n\n", self.spec);
        if !self.description.is_empty() {
            s += &format!("{}\n\n", self.description);
        }
        s += &format!(
            "{} of {} planned trials recorded{}; base seed {}. Intervals are 95% Wilson score intervals. \
             Attempts per tour = trials / tours; time per tour = total trial time / tours (one thread per trial).\n\n",
            self.trials_done,
            self.trials_planned,
            if self.complete { "" } else { " (incomplete)" },
            self.seed
        );
        let steps = self.cells.iter().any(|c| c.steps_median.is_some());
        s += "| cell | board | trials | tours | p(tour) % [95% CI] | median iterations | mean iterations |";
        s += if steps {
            " median steps | mean steps |"
        } else {
            ""
        };
        s += " attempts per tour | time per tour |\n|---|---|---:|---:|---|---:|---:|";
        s += if steps { "---:|---:|" } else { "" };
        s += "---:|---:|\n";
        for c in &self.cells {
            let t = &c.outcomes[0];
            s += &format!(
                "| {} | {} | {} | {} | {} [{}, {}] | {} | {} |",
                c.label,
                c.board,
                c.trials,
                c.tours,
                pct(t.share),
                pct(t.ci_low),
                pct(t.ci_high),
                opt(c.iterations_median, |x| format!("{x}")),
                opt(c.iterations_mean, |x| format!("{x:.1}")),
            );
            if steps {
                s += &format!(
                    " {} | {} |",
                    opt(c.steps_median, |x| format!("{x}")),
                    opt(c.steps_mean, |x| format!("{x:.1}")),
                );
            }
            s += &format!(
                " {} | {} |\n",
                opt(c.attempts_per_tour, |x| format!("{x:.2}")),
                opt(c.time_per_tour_ns, human_ns),
            );
        }
        s += &self.time_to_solution_markdown();
        s += &self.comparisons_markdown();
        s += "\n## Outcomes\n\n| cell | board | outcome | count | share % [95% CI] |\n|---|---|---|---:|---|\n";
        for c in &self.cells {
            for o in &c.outcomes {
                s += &format!(
                    "| {} | {} | {} | {} | {} [{}, {}] |\n",
                    c.label,
                    c.board,
                    o.outcome,
                    o.count,
                    pct(o.share),
                    pct(o.ci_low),
                    pct(o.ci_high)
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_cells_list_the_terminations_in_their_order() {
        let names: Vec<&str> = NETWORK_ENDINGS.iter().map(|o| o.name()).collect();
        assert_eq!(names, crate::network::Termination::NAMES);
    }

    #[test]
    fn wilson_known_values() {
        // 1159 / 5000 is 23.2% [22.0, 24.4] in anchors/network.md.
        let (lo, hi) = wilson(1159, 5000, Z95);
        assert!((lo - 0.220_312_047_686).abs() < 1e-9, "{lo}");
        assert!((hi - 0.243_699_747_637).abs() < 1e-9, "{hi}");
        let (lo, hi) = wilson(1394, 5000, Z95);
        assert!((lo - 0.266_544_394_254).abs() < 1e-9, "{lo}");
        assert!((hi - 0.291_395_237_086).abs() < 1e-9, "{hi}");
        // By hand: k = 0 gives [0, z²/(n + z²)]; k = n mirrors it; k = n/2 is symmetric.
        let z2 = Z95 * Z95;
        let (lo, hi) = wilson(0, 10, Z95);
        assert_eq!(lo, 0.0);
        assert!((hi - z2 / (10.0 + z2)).abs() < 1e-12);
        let (lo, hi) = wilson(10, 10, Z95);
        assert_eq!(hi, 1.0);
        assert!((lo - 10.0 / (10.0 + z2)).abs() < 1e-12);
        let (lo, hi) = wilson(5, 10, Z95);
        assert!((lo + hi - 1.0).abs() < 1e-12);
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn medians_and_units() {
        let counts = |v: &[u64]| {
            let mut c = Counts::default();
            for &x in v {
                c.add(x);
            }
            c
        };
        assert_eq!(counts(&[10, 2, 3, 1]).median(), Some(2.5));
        assert_eq!(counts(&[4]).median(), Some(4.0));
        assert_eq!(counts(&[3, 3, 1, 3, 9]).median(), Some(3.0));
        assert_eq!(counts(&[3, 3, 1, 3, 9]).mean(), Some(19.0 / 5.0));
        assert_eq!(counts(&[]).median(), None);
        assert_eq!(human_ns(6.6e6), "6.60 ms");
        assert_eq!(human_ns(125.0e9), "2.08 min");
        assert_eq!(pct(0.00003), "0.003");
    }
}

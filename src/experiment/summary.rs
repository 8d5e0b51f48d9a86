//! Per-cell summaries of records: outcome shares with 95% Wilson score intervals,
//! median and mean iterations, attempts per tour and time per tour; written as
//! `summary.json` and `summary.md`.
//!
//! Definitions (per cell, over the trials recorded):
//! - share of an outcome = count / trials, with the Wilson score interval at z = 1.96;
//! - attempts per tour = trials / tours (for network cells, trials are single attempts,
//!   so this is the expected number of restarts + 1 per tour found);
//! - time per tour = total trial time / tours (Parberry's "CPU time per tour": each trial
//!   runs on one thread).
//!
//! A summary is a function of the spec, the shard and the records alone; keys ending in
//! `_ns` are the only ones that differ between reruns.

use serde::{Deserialize, Serialize};

use super::records::Record;
use super::runner::Shard;
use super::spec::Spec;

pub use crate::stats::{wilson, Z95};

/// One outcome's count and share in a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    pub outcome: String,
    pub count: u64,
    pub share: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// The summary of one cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellSummary {
    pub cell: usize,
    pub label: String,
    pub board: String,
    pub solver: String,
    pub variant: String,
    /// Trials this run (or shard) was to do.
    pub trials_planned: u64,
    /// Trials recorded.
    pub trials: u64,
    pub tours: u64,
    /// Every outcome, `tour` first (network cells list all four termination names).
    pub outcomes: Vec<Share>,
    /// Network sweeps/steps per attempt (network cells only).
    pub iterations_median: Option<f64>,
    pub iterations_mean: Option<f64>,
    /// Mean number of cycles over trials that ended in a degree-2 cover (network).
    pub cycles_mean: Option<f64>,
    pub steps_median: Option<f64>,
    pub steps_mean: Option<f64>,
    pub attempts_per_tour: Option<f64>,
    pub time_total_ns: u64,
    pub time_mean_ns: Option<f64>,
    pub time_per_tour_ns: Option<f64>,
}

/// The summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub spec: String,
    pub description: String,
    pub seed: u64,
    pub trials_planned: u64,
    pub trials_done: u64,
    /// Every planned trial is recorded.
    pub complete: bool,
    pub cells: Vec<CellSummary>,
}

fn median(sorted: &[u64]) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    Some(if n % 2 == 1 {
        sorted[n / 2] as f64
    } else {
        (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0
    })
}

fn mean(v: &[u64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64)
}

/// Summarise `records` (any order; one per (cell, trial)) of `spec` run as `shard`.
pub fn build(spec: &Spec, shard: Shard, records: &[Record]) -> Summary {
    let mut by_cell: Vec<Vec<&Record>> = vec![Vec::new(); spec.cells.len()];
    for r in records {
        if let Some(v) = by_cell.get_mut(r.cell) {
            v.push(r);
        }
    }
    let offsets = spec.offsets();
    let mut cells = Vec::new();
    for (cell, recs) in spec.cells.iter().zip(by_cell.iter_mut()) {
        recs.sort_by_key(|r| r.trial);
        let n = recs.len() as u64;
        let mut names: Vec<String> = if cell.is_network() {
            crate::network::Termination::NAMES
                .iter()
                .map(|s| s.to_string())
                .collect()
        } else {
            vec!["tour".to_string()]
        };
        let mut others: Vec<String> = recs
            .iter()
            .map(|r| r.outcome.clone())
            .filter(|o| !names.contains(o))
            .collect();
        others.sort();
        others.dedup();
        names.extend(others);
        let outcomes: Vec<Share> = names
            .into_iter()
            .map(|outcome| {
                let count = recs.iter().filter(|r| r.outcome == outcome).count() as u64;
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
        let mut iterations: Vec<u64> = recs.iter().map(|r| r.iterations).collect();
        iterations.sort_unstable();
        let mut steps: Vec<u64> = recs.iter().filter_map(|r| r.steps).collect();
        steps.sort_unstable();
        let cycles: Vec<u64> = recs.iter().filter_map(|r| r.cycles).collect();
        let time_total_ns: u64 = recs.iter().map(|r| r.time_ns).sum();
        cells.push(CellSummary {
            cell: cell.index,
            label: cell.label.clone(),
            board: cell.board.clone(),
            solver: cell.solver.clone(),
            variant: cell.variant(),
            trials_planned: shard.count_in(offsets[cell.index], cell.trials),
            trials: n,
            tours,
            outcomes,
            iterations_median: median(&iterations).filter(|_| cell.is_network()),
            iterations_mean: mean(&iterations).filter(|_| cell.is_network()),
            cycles_mean: mean(&cycles),
            steps_median: median(&steps),
            steps_mean: mean(&steps),
            attempts_per_tour: (tours > 0).then(|| n as f64 / tours as f64),
            time_total_ns,
            time_mean_ns: (n > 0).then(|| time_total_ns as f64 / n as f64),
            time_per_tour_ns: (tours > 0).then(|| time_total_ns as f64 / tours as f64),
        });
    }
    let trials_planned = cells.iter().map(|c| c.trials_planned).sum();
    let trials_done = cells.iter().map(|c| c.trials).sum();
    Summary {
        spec: spec.name.clone(),
        description: spec.description.clone(),
        seed: spec.seed,
        trials_planned,
        trials_done,
        complete: trials_done == trials_planned,
        cells,
    }
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

/// A duration in nanoseconds, in a readable unit.
pub fn human_ns(ns: f64) -> String {
    let (v, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else if ns < 60e9 {
        (ns / 1e9, "s")
    } else if ns < 3600e9 {
        (ns / 60e9, "min")
    } else {
        (ns / 3600e9, "h")
    };
    if v < 10.0 {
        format!("{v:.2} {unit}")
    } else if v < 100.0 {
        format!("{v:.1} {unit}")
    } else {
        format!("{v:.0} {unit}")
    }
}

fn opt(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.map(f).unwrap_or_else(|| "–".into())
}

impl Summary {
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
        assert_eq!(median(&[1, 2, 3, 10]), Some(2.5));
        assert_eq!(median(&[4]), Some(4.0));
        assert_eq!(median(&[]), None);
        assert_eq!(human_ns(6.6e6), "6.60 ms");
        assert_eq!(human_ns(125.0e9), "2.08 min");
        assert_eq!(pct(0.00003), "0.003");
    }
}

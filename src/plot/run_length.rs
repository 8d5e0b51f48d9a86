//! Run-length distributions (Hoos & Stützle, *Stochastic Local Search: Foundations and
//! Applications*, Morgan Kaufmann 2004, ch. 4): per cell, the empirical distribution
//! function of the iterations and of the time it takes to reach a tour when a failed
//! trial is followed by a restart. Trials are taken in trial order; a run is the trials
//! from just after one tour up to and including the next, and its length is their summed
//! iterations (time). Failed trials after the last tour form a censored run: it is left
//! out of the ECDF and its attempts are reported in the CSV.
//!
//! Two panels, iterations and time, both on log x axes, one step line per cell that
//! found at least one tour (up to [`MAX_SERIES`], in spec order).

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{LEGEND_ROW, Mark, legend_below, legend_rows};
use super::data::{Place, Records, geometry, label, solver, variant};
use super::palette;
use super::panel::{cartesian, line, mesh, step_points};
use super::table::{Table, csv_path, num, whole};
use super::{DrawResult, Figure, axes, de, heading, render};
use crate::solvers::Outcome;

/// Most cells drawn (the CSV holds every cell).
pub(crate) const MAX_SERIES: usize = 8;

/// A curve resting on fewer runs than this is drawn dashed and named so in the legend:
/// its steps are single runs, not a distribution.
pub(crate) const FEW_RUNS: usize = 10;

/// The runs of one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Runs {
    /// The cell's label (or solver and variant without a label column), and its board.
    pub name: String,
    pub place: Place,
    /// Completed runs: (attempts, iterations, time in ns or `None` without timing).
    pub runs: Vec<(u64, u64, Option<f64>)>,
    /// Attempts after the last tour (the censored run).
    pub censored: u64,
    /// Index of the cell's first row in the file (spec order).
    first_row: usize,
}

impl Runs {
    /// Sorted run lengths in iterations.
    pub fn iterations(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self.runs.iter().map(|r| r.1 as f64).collect();
        v.sort_by(f64::total_cmp);
        v
    }

    /// Sorted run lengths in nanoseconds (empty when a run lacks timing).
    pub fn times(&self) -> Vec<f64> {
        let mut v: Vec<f64> = self
            .runs
            .iter()
            .map(|r| r.2)
            .collect::<Option<_>>()
            .unwrap_or_default();
        v.sort_by(f64::total_cmp);
        v
    }
}

/// Split each cell's trials (in trial order) into runs ending at a tour.
pub fn runs(records: &Records) -> Vec<Runs> {
    // (name, place) -> rows in file order.
    type CellKey = (String, Place);
    let mut cells: BTreeMap<CellKey, Vec<usize>> = BTreeMap::new();
    for (i, r) in records.rows.iter().enumerate() {
        let mut name = label(r).unwrap_or_else(|| match variant(r) {
            Some(v) => format!("{}:{v}", solver(r)),
            None => solver(r).to_string(),
        });
        // Cells beyond the knight on a whole plane board apart, as in the other figures.
        if let Some(g) = geometry(r) {
            name = format!("{name} on {g}");
        }
        cells.entry((name, Place::of(r))).or_default().push(i);
    }
    let mut out: Vec<Runs> = cells
        .into_iter()
        .map(|((name, place), mut rows)| {
            rows.sort_by_key(|&i| (records.rows[i].trial, i));
            let first_row = rows.iter().copied().min().unwrap_or(0);
            let mut runs = Vec::new();
            let (mut attempts, mut iterations, mut time) = (0u64, 0u64, Some(0.0));
            for &i in &rows {
                let r = &records.rows[i];
                attempts += 1;
                iterations = iterations.saturating_add(records.iterations(r).unwrap_or(0));
                time = time.zip(records.time_ns(r)).map(|(a, b)| a + b);
                if r.outcome == Outcome::Tour {
                    runs.push((attempts, iterations, time));
                    (attempts, iterations, time) = (0, 0, Some(0.0));
                }
            }
            Runs {
                name,
                place,
                runs,
                censored: attempts,
                first_row,
            }
        })
        .collect();
    out.sort_by_key(|r| r.first_row);
    out
}

/// The run-length figure of an experiment.
#[derive(Debug, Clone)]
pub struct RunLengths {
    pub source: String,
    pub cells: Vec<Runs>,
}

impl RunLengths {
    /// `None` without an iterations column or without a tour.
    pub fn new(source: impl Into<String>, records: &Records) -> Option<RunLengths> {
        if !records.has_iterations {
            return None;
        }
        let cells = runs(records);
        cells
            .iter()
            .any(|c| !c.runs.is_empty())
            .then(|| RunLengths {
                source: source.into(),
                cells,
            })
    }

    /// The cells drawn: those with a tour, in spec order, at most [`MAX_SERIES`]. When
    /// more have one, the cells of one board, so that the solvers are compared where they
    /// all ran: the board on which the most cells found a tour (the larger board on a tie).
    fn drawn(&self) -> Vec<&Runs> {
        let with_tour: Vec<&Runs> = self.cells.iter().filter(|c| !c.runs.is_empty()).collect();
        if with_tour.len() <= MAX_SERIES {
            return with_tour;
        }
        let mut per_board: BTreeMap<&Place, usize> = BTreeMap::new();
        for c in &with_tour {
            *per_board.entry(&c.place).or_default() += 1;
        }
        let best = per_board
            .iter()
            .max_by_key(|(place, n)| (**n, **place))
            .map(|(place, _)| (*place).clone());
        with_tour
            .into_iter()
            .filter(|c| Some(&c.place) == best.as_ref())
            .take(MAX_SERIES)
            .collect()
    }

    /// The board of the drawn cells, when they are all on one.
    fn one_board(drawn: &[&Runs]) -> Option<Place> {
        let b = &drawn.first()?.place;
        drawn.iter().all(|c| c.place == *b).then(|| b.clone())
    }

    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, (1050, 620))?;
        self.table().write(&csv_path(path))
    }

    /// One row per cell, quantity and distinct run length: the ECDF's steps.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "cell",
            "board",
            "quantity",
            "run_length",
            "runs_at_or_below",
            "ecdf",
            "runs",
            "censored_attempts",
        ]);
        for c in &self.cells {
            for (quantity, values) in [("iterations", c.iterations()), ("time_ns", c.times())] {
                let n = values.len();
                for (i, v) in values.iter().enumerate() {
                    if values.get(i + 1) == Some(v) {
                        continue;
                    }
                    t.push(vec![
                        c.name.clone(),
                        c.place.to_string(),
                        quantity.into(),
                        whole(*v),
                        (i + 1).to_string(),
                        num(Some((i + 1) as f64 / n as f64)),
                        n.to_string(),
                        c.censored.to_string(),
                    ]);
                }
            }
            if c.runs.is_empty() {
                t.push(vec![
                    c.name.clone(),
                    c.place.to_string(),
                    String::new(),
                    String::new(),
                    "0".into(),
                    String::new(),
                    "0".into(),
                    c.censored.to_string(),
                ]);
            }
        }
        t
    }
}

/// One ECDF panel: a step line per series (sorted values), log x; a series resting on
/// fewer than [`FEW_RUNS`] runs is dashed.
fn ecdf_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_desc: &str,
    series: &[Vec<f64>],
    label: &dyn Fn(f64) -> String,
) -> DrawResult {
    let positive = || series.iter().flatten().copied().filter(|v| *v > 0.0);
    let (lo, hi) = match (
        positive().fold(f64::INFINITY, f64::min),
        positive().fold(0.0f64, f64::max),
    ) {
        (lo, hi) if lo.is_finite() && hi > 0.0 => (lo / 1.5, hi * 1.5),
        _ => (1.0, 10.0),
    };
    let ticks = axes::log_ticks_at_most(lo, hi, 6);
    let mut chart = cartesian(
        area,
        12,
        70,
        axes::ticked((lo..hi).log_scale(), ticks),
        0.0..1.02,
    )?;
    mesh(&mut chart, x_desc, "share of runs")
        .x_label_formatter(&|v| label(*v))
        .y_label_formatter(&|v| axes::percent(*v))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(de)?;
    for (i, values) in series.iter().enumerate() {
        let n = values.len();
        if n == 0 {
            continue;
        }
        let points = values
            .iter()
            .enumerate()
            .map(|(k, v)| (v.max(lo), (k + 1) as f64 / n as f64));
        let (colour, dash) = curve_style(i, n);
        line(&mut chart, step_points(points, lo, hi), colour, dash, 2)?;
    }
    Ok(())
}

/// Colour and line of the `i`-th curve, resting on `runs` runs: the series' colour,
/// dashed when the runs are fewer than [`FEW_RUNS`] (at most [`MAX_SERIES`] curves, so
/// the palette's own dashes never occur).
fn curve_style(i: usize, runs: usize) -> (RGBColor, palette::Dash) {
    let dash = if runs < FEW_RUNS {
        palette::Dash::Dashed
    } else {
        palette::dash(i)
    };
    (palette::series(i), dash)
}

/// A cell's legend entry: its name (and board when the cells are on several), and, when
/// they are fewer than [`FEW_RUNS`], the runs its curves rest on.
fn legend_name(c: &Runs, with_board: bool) -> String {
    let name = if with_board {
        format!("{} {}", c.name, c.place)
    } else {
        c.name.clone()
    };
    match c.runs.len() {
        1 => format!("{name} (1 run)"),
        n if n < FEW_RUNS => format!("{name} ({n} runs)"),
        _ => name,
    }
}

impl Figure for RunLengths {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let drawn = self.drawn();
        let with_tour = self.cells.iter().filter(|c| !c.runs.is_empty()).count();
        // One board drawn while cells of others exist: the board is in the subtitle.
        let single = Self::one_board(&drawn).filter(|_| with_tour > drawn.len());
        let shown = match &single {
            Some(b) => format!(
                "cells on {b}, the board where most found a tour ({} of {with_tour} with a tour; the CSV has all)",
                drawn.len()
            ),
            None if with_tour > drawn.len() => format!(
                "the first {} of {with_tour} cells with a tour (the CSV has all)",
                drawn.len()
            ),
            None => format!("{with_tour} cells with a tour"),
        };
        heading(
            root,
            "Run lengths: effort to a tour, failed attempts counted as restarts",
            format!("{}: {shown}", self.source),
        )?;
        let legend: Vec<(Mark, String)> = drawn
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let (colour, dash) = curve_style(i, c.runs.len());
                (Mark::Stroke(colour, dash), legend_name(c, single.is_none()))
            })
            .collect();
        let below = 50 + (legend_rows(root, &legend, 16) as u32 - 1) * LEGEND_ROW as u32;
        let body = root.margin(72, below, 10, 24);
        let panels = body.split_evenly((1, 2));
        let series =
            |f: fn(&Runs) -> Vec<f64>| -> Vec<Vec<f64>> { drawn.iter().map(|c| f(c)).collect() };
        ecdf_panel(
            &panels[0],
            "iterations to a tour",
            &series(Runs::iterations),
            &|v| axes::number(v),
        )?;
        ecdf_panel(&panels[1], "time to a tour", &series(Runs::times), &|v| {
            axes::seconds(v * 1e-9)
        })?;
        legend_below(root, &legend, 16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::data::Record;

    fn row(trial: u64, outcome: Outcome, iterations: u64) -> Record {
        Record {
            spec: "s".into(),
            cell: 0,
            label: "p".into(),
            board: "6x6".parse().unwrap(),
            solver: "network:parberry".parse().unwrap(),
            variant: "parberry".into(),
            trial,
            seed: 0,
            start: None,
            outcome,
            iterations,
            restarts: 0,
            cycles: None,
            largest_cycle: None,
            steps: None,
            merged: None,
            swaps: None,
            time_ns: 10 * iterations,
            network_ns: None,
            merge_ns: None,
            leaper: Default::default(),
            surface: Default::default(),
            shape: Default::default(),
            graph: Default::default(),
        }
    }

    #[test]
    fn failed_trials_count_until_the_next_tour_in_trial_order() {
        // File order differs from trial order: trials 0..6 are
        // fail(5) tour(3) tour(2) fail(7) fail(1) tour(4) fail(9).
        let rows = vec![
            row(2, Outcome::Tour, 2),
            row(0, Outcome::IterationCap, 5),
            row(5, Outcome::Tour, 4),
            row(1, Outcome::Tour, 3),
            row(6, Outcome::MultipleCycles, 9),
            row(3, Outcome::IterationCap, 7),
            row(4, Outcome::StableNotDegreeTwo, 1),
        ];
        let records = Records {
            path: "r.csv".into(),
            rows,
            time_column: Some("time_ns".into()),
            has_iterations: true,
            partial_line_bytes: 0,
        };
        let r = runs(&records);
        assert_eq!(r.len(), 1);
        assert_eq!(
            r[0].runs,
            vec![(2, 8, Some(80.0)), (1, 2, Some(20.0)), (3, 12, Some(120.0))]
        );
        assert_eq!(r[0].censored, 1);
        assert_eq!(r[0].iterations(), vec![2.0, 8.0, 12.0]);
        let fig = RunLengths::new("t", &records).unwrap();
        let t = fig.table();
        let ecdf: Vec<&str> = t
            .rows
            .iter()
            .filter(|r| r[2] == "iterations")
            .map(|r| r[5].as_str())
            .collect();
        assert_eq!(ecdf.len(), 3);
        assert_eq!(ecdf[2], "1");
    }
}

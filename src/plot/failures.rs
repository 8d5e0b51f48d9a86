//! Anatomy of the network's failures that settle into several cycles (outcome
//! `multiple-cycles`), by board: how many cycles such an outcome has (the records'
//! `cycles` column, every such trial) and how long its cycles are. The records hold only
//! the count and the longest cycle, so the lengths come from replaying the trials
//! ([`super::replay`]; each replay checked against its record): up to
//! `PER_BOARD` several-cycle trials per board, those with the smallest seeds (trial
//! seeds are hashes of the cell and trial, so this is a fixed sample that does not
//! depend on how the trials ended). All network configurations of a board are pooled.
//!
//! Left panel: share of the several-cycle outcomes by number of cycles. Right panel:
//! the cycle lengths as a distribution over the failed attempts' squares: at a cycle
//! length x (as a share of the board's squares, so boards compare), the share
//! of the replayed trials' squares that lie in cycles of at most that length.

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{Mark, above_legend, legend_below};
use super::data::board_key;
use super::palette;
use super::panel::{cartesian, mesh, series_line, step_points};
use super::table::{Table, csv_path, num};
use super::{DrawResult, Figure, axes, de, heading, render, replay};
use crate::board::Board;
use crate::error::InputError;
use crate::experiment::{Record, Spec};
use crate::solvers::Outcome;
use crate::target::Target;

/// Most several-cycle trials replayed per board for the cycle lengths (the CSV and the
/// subtitle say how many were).
pub(crate) const PER_BOARD: usize = 400;

/// One board's several-cycle outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardFailures {
    /// The board (`1xV` for a graph of V vertices).
    pub board: Board,
    /// How figures name it: the board (`8x8`), or with what differs from the knight on
    /// the plane (`8x8 torus`), or `graph NAME` ([`crate::target::Target::label`]).
    pub place: String,
    /// Its squares (a shape's holes left out; a graph's vertices).
    pub squares: usize,
    /// Several-cycle outcomes in the records.
    pub outcomes: u64,
    /// Outcomes per number of cycles.
    pub cycles: BTreeMap<u64, u64>,
    /// The replayed trials: the squares in each of their cycles, longest first.
    pub lengths: Vec<Vec<usize>>,
}

/// One cycle length of a board's replayed trials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LengthRow {
    /// Squares in the cycle.
    pub length: usize,
    /// Cycles of this length over the replayed trials.
    pub cycles: u64,
    /// Share of the replayed trials' squares in cycles of this length.
    pub share: f64,
    /// Share of those squares in cycles of this length or shorter (the curve drawn).
    pub cumulative: f64,
}

impl BoardFailures {
    /// Every distinct cycle length of the replayed trials, shortest first.
    pub(crate) fn length_distribution(&self) -> Vec<LengthRow> {
        let mut count: BTreeMap<usize, u64> = BTreeMap::new();
        for &l in self.lengths.iter().flatten() {
            *count.entry(l).or_insert(0) += 1;
        }
        let total: u64 = self.lengths.iter().flatten().map(|&l| l as u64).sum();
        let mut below = 0u64;
        count
            .into_iter()
            .map(|(length, cycles)| {
                let squares = length as u64 * cycles;
                below += squares;
                LengthRow {
                    length,
                    cycles,
                    share: squares as f64 / total as f64,
                    cumulative: below as f64 / total as f64,
                }
            })
            .collect()
    }

    /// A cycle length as a share of the board's squares (the right panel's x).
    pub(crate) fn of_board(&self, length: usize) -> f64 {
        length as f64 / self.squares as f64
    }
}

/// The failure-anatomy figure.
#[derive(Debug, Clone)]
pub struct FailureAnatomy {
    /// Title context, for example the results folder name.
    pub source: String,
    /// Most trials replayed per board.
    pub per_board: usize,
    /// The boards with several-cycle outcomes, one panel group each.
    pub boards: Vec<BoardFailures>,
}

impl FailureAnatomy {
    /// The anatomy of the several-cycle trials among `rows` (records of `spec`),
    /// replaying up to `per_board` of them per board. `None` when no trial ended in
    /// several cycles; an error when a replay does not match its record.
    pub fn new(
        source: impl Into<String>,
        spec: &Spec,
        rows: &[Record],
        per_board: usize,
    ) -> Result<Option<FailureAnatomy>, super::PlotError> {
        // (board key, place label) -> the board's failures and the rows to replay.
        type Key = ((usize, usize, usize), String);
        let mut by: BTreeMap<Key, (BoardFailures, Vec<&Record>)> = BTreeMap::new();
        for r in rows {
            let Some(k) = r.cycles.filter(|&k| k >= 2) else {
                continue;
            };
            if r.outcome != Outcome::MultipleCycles {
                continue;
            }
            let Some(cell) = spec.cells.get(r.cell) else {
                return Err(InputError::File(format!(
                    "records.csv row of cell {}, trial {}: the run has no such cell",
                    r.cell, r.trial
                ))
                .into());
            };
            let board = cell.board;
            let (place, squares) = match &cell.target {
                None => (board.to_string(), board.squares()),
                Some(t @ Target::Geometry(g)) => (t.label(), g.shape().squares()),
                Some(t @ Target::File { graph, .. }) => (t.label(), graph.vertices() as usize),
            };
            let (f, picked) = by
                .entry((board_key(board), place.clone()))
                .or_insert_with(|| {
                    let f = BoardFailures {
                        board,
                        place,
                        squares,
                        outcomes: 0,
                        cycles: BTreeMap::new(),
                        lengths: Vec::new(),
                    };
                    (f, Vec::new())
                });
            f.outcomes += 1;
            *f.cycles.entry(k).or_insert(0) += 1;
            picked.push(r);
        }
        let mut boards = Vec::with_capacity(by.len());
        for (_, (mut f, mut picked)) in by {
            picked.sort_by_key(|r| (r.seed, r.cell, r.trial));
            picked.truncate(per_board);
            f.lengths = replay::cycle_lengths(spec, &picked)?;
            boards.push(f);
        }
        Ok((!boards.is_empty()).then(|| FailureAnatomy {
            source: source.into(),
            per_board,
            boards,
        }))
    }

    /// Write the figure (`.png`, `.svg` or `.pdf` by extension, 1050 x 600 pixels) and
    /// its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, (1050, 600))?;
        self.table().write(&csv_path(path))
    }

    /// Per board: one row per number of cycles (share of the several-cycle outcomes),
    /// then one per cycle length of the replayed trials (share of their squares, and
    /// the cumulative share the right panel draws at `share_of_board`).
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "board",
            "quantity",
            "value",
            "share_of_board",
            "count",
            "share",
            "cumulative_share",
            "several_cycle_outcomes",
            "replayed",
            "replay_cap",
        ]);
        for f in &self.boards {
            let n = f.outcomes.max(1) as f64;
            let tail = [
                f.outcomes.to_string(),
                f.lengths.len().to_string(),
                self.per_board.to_string(),
            ];
            let mut below = 0;
            for (&k, &c) in &f.cycles {
                below += c;
                let mut row = vec![
                    f.place.clone(),
                    "cycles".into(),
                    k.to_string(),
                    String::new(),
                    c.to_string(),
                    num(Some(c as f64 / n)),
                    num(Some(below as f64 / n)),
                ];
                row.extend(tail.iter().cloned());
                t.push(row);
            }
            for l in f.length_distribution() {
                let mut row = vec![
                    f.place.clone(),
                    "cycle_length".into(),
                    l.length.to_string(),
                    num(Some(f.of_board(l.length))),
                    l.cycles.to_string(),
                    num(Some(l.share)),
                    num(Some(l.cumulative)),
                ];
                row.extend(tail.iter().cloned());
                t.push(row);
            }
        }
        t
    }

    /// Left: share of the several-cycle outcomes by number of cycles.
    fn draw_counts<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult {
        let share = |f: &BoardFailures, c: u64| c as f64 / f.outcomes.max(1) as f64;
        let kmax = self
            .boards
            .iter()
            .filter_map(|f| f.cycles.keys().next_back().copied())
            .max()
            .unwrap_or(2);
        let top = self
            .boards
            .iter()
            .flat_map(|f| f.cycles.values().map(move |&c| share(f, c)))
            .fold(0.05, f64::max)
            * 1.1;
        let x = axes::ticked(
            1.5..kmax as f64 + 0.5,
            axes::linear_ticks(2.0, kmax as f64, 8, true),
        );
        let mut chart = cartesian(area, 12, 70, x, 0.0..top)?;
        mesh(
            &mut chart,
            "number of cycles",
            "share of several-cycle outcomes",
        )
        .x_label_formatter(&|v| axes::number(*v))
        .y_label_formatter(&|v| axes::percent(*v))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(de)?;
        for (i, f) in self.boards.iter().enumerate() {
            let colour = palette::series(i);
            let pts: Vec<(f64, f64)> = (2..=kmax)
                .map(|k| (k as f64, share(f, f.cycles.get(&k).copied().unwrap_or(0))))
                .collect();
            series_line(&mut chart, pts.clone(), i, 2)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(de)?;
        }
        Ok(())
    }

    /// Right: the distribution of the replayed trials' squares over cycle lengths.
    fn draw_lengths<DB: DrawingBackend>(&self, area: &DrawingArea<DB, Shift>) -> DrawResult {
        let (lo, hi) = (0.0, 1.0);
        let mut chart = cartesian(area, 12, 70, lo..hi, 0.0..1.02)?;
        mesh(
            &mut chart,
            "cycle length, share of the board's squares",
            "share of squares in cycles ≤ x",
        )
        .x_label_formatter(&|v| axes::percent(*v))
        .y_label_formatter(&|v| axes::percent(*v))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(de)?;
        for (i, f) in self.boards.iter().enumerate() {
            let rows = f.length_distribution();
            let points = rows.iter().map(|l| (f.of_board(l.length), l.cumulative));
            series_line(&mut chart, step_points(points, lo, hi), i, 2)?;
        }
        Ok(())
    }
}

impl Figure for FailureAnatomy {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let outcomes: u64 = self.boards.iter().map(|f| f.outcomes).sum();
        let replayed: usize = self.boards.iter().map(|f| f.lengths.len()).sum();
        heading(
            root,
            "Anatomy of several-cycle failures",
            format!(
                "{}: {} several-cycle outcomes, network configurations pooled per board; \
                 lengths of {} replayed (≤ {} per board)",
                self.source,
                axes::count(outcomes),
                axes::count(replayed as u64),
                axes::count(self.per_board as u64)
            ),
        )?;
        let legend: Vec<(Mark, String)> = self
            .boards
            .iter()
            .enumerate()
            .map(|(i, f)| (Mark::series(i), f.place.clone()))
            .collect();
        let body = above_legend(root, &legend, 18, (72, 10, 10));
        let panels = body.split_evenly((1, 2));
        self.draw_counts(&panels[0])?;
        self.draw_lengths(&panels[1])?;
        legend_below(root, &legend, 18)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::runner::Prepared;

    /// Closed and open network cells on two boards, and a classical cell (no cycles).
    const SPEC: &str = r#"
name = "anatomy"
seed = 7
trials = 80
boards = ["6x6", "6x8"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "network:parberry"
label = "open"
open = true

[[solver]]
solver = "warnsdorff:roth"
start = "random"
"#;

    fn run() -> (Spec, Vec<Record>) {
        let spec = Spec::parse(SPEC, "anatomy", "test").unwrap();
        let mut rows = Vec::new();
        for cell in &spec.cells {
            let p = Prepared::new(&spec, cell);
            rows.extend((0..cell.trials).map(|t| p.run(t).unwrap()));
        }
        (spec, rows)
    }

    #[test]
    fn replayed_lengths_cover_the_board_and_the_csv_holds_what_is_drawn() {
        let (spec, rows) = run();
        let per_board = 12;
        let fig = FailureAnatomy::new("t", &spec, &rows, per_board)
            .unwrap()
            .unwrap();
        assert_eq!(fig.boards.len(), 2);
        for f in &fig.boards {
            // The several-cycle rows of this board, counted and sampled independently.
            let mut several: Vec<&Record> = rows
                .iter()
                .filter(|r| r.outcome == Outcome::MultipleCycles)
                .filter(|r| spec.cells[r.cell].board == f.board)
                .collect();
            assert_eq!(f.outcomes, several.len() as u64);
            assert!(several.len() > per_board, "too few failures to sample");
            several.sort_by_key(|r| r.seed);
            assert_eq!(f.lengths.len(), per_board);
            for (r, lengths) in several.iter().zip(&f.lengths) {
                assert_eq!(lengths.iter().sum::<usize>(), f.board.squares(), "{r:?}");
                assert_eq!(Some(lengths.len() as u64), r.cycles, "{r:?}");
                assert!(lengths.windows(2).all(|w| w[0] >= w[1]));
                if !spec.cells[r.cell].open {
                    assert_eq!(Some(lengths[0] as u64), r.largest_cycle, "{r:?}");
                }
            }
            let total: u64 = f.cycles.values().sum();
            assert_eq!(total, f.outcomes);
        }
        // The CSV beside the figure holds every point the right panel draws, and each
        // cumulative share is the share of replayed squares in cycles up to that length.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("failures.csv");
        fig.table().write(&path).unwrap();
        let mut csv = csv::Reader::from_path(&path).unwrap();
        let head = csv.headers().unwrap().clone();
        let col = |name: &str| head.iter().position(|h| h == name).unwrap();
        let rows_csv: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
        for f in &fig.boards {
            let board = f.board.to_string();
            let drawn: Vec<(f64, f64)> = f
                .length_distribution()
                .iter()
                .map(|l| (f.of_board(l.length), l.cumulative))
                .collect();
            // The CSV holds the drawn values at its precision (six significant digits).
            let drawn: Vec<(String, String)> = drawn
                .iter()
                .map(|&(x, y)| {
                    (
                        crate::plot::table::num(Some(x)),
                        crate::plot::table::num(Some(y)),
                    )
                })
                .collect();
            let written: Vec<(String, String)> = rows_csv
                .iter()
                .filter(|r| r[0] == board && &r[1] == "cycle_length")
                .map(|r| {
                    (
                        r[col("share_of_board")].to_string(),
                        r[col("cumulative_share")].to_string(),
                    )
                })
                .collect();
            assert_eq!(drawn, written);
            let all: Vec<usize> = f.lengths.iter().flatten().copied().collect();
            let squares = (per_board * f.board.squares()) as f64;
            for r in rows_csv
                .iter()
                .filter(|r| r[0] == board && &r[1] == "cycle_length")
            {
                let l: usize = r[col("value")].parse().unwrap();
                let below: usize = all.iter().filter(|&&x| x <= l).sum();
                assert_eq!(
                    r[col("cumulative_share")],
                    crate::plot::table::num(Some(below as f64 / squares))
                );
                assert_eq!(&r[col("replayed")], per_board.to_string());
                assert_eq!(&r[col("several_cycle_outcomes")], f.outcomes.to_string());
            }
            assert_eq!(written.last().map(|p| p.1.as_str()), Some("1"));
        }
    }

    #[test]
    fn a_replay_that_does_not_match_its_record_is_an_error_naming_the_row() {
        let (spec, mut rows) = run();
        let r = rows
            .iter_mut()
            .find(|r| r.outcome == Outcome::MultipleCycles)
            .unwrap();
        r.iterations += 1;
        let (cell, trial) = (r.cell, r.trial);
        let err = FailureAnatomy::new("t", &spec, &rows, usize::MAX)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(&format!("cell {cell} ")) && err.contains(&format!("trial {trial} ")),
            "{err}"
        );
        assert!(err.contains("does not match"), "{err}");
    }

    #[test]
    fn no_several_cycle_trial_no_figure() {
        let (spec, rows) = run();
        let classical: Vec<Record> = rows
            .into_iter()
            .filter(|r| r.outcome != Outcome::MultipleCycles)
            .collect();
        assert!(
            FailureAnatomy::new("t", &spec, &classical, 10)
                .unwrap()
                .is_none()
        );
    }
}

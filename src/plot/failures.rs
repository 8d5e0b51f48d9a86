//! Anatomy of the network's failures that settle into several cycles (outcome
//! `multiple-cycles`), by board, from what the records hold: the number of cycles of
//! each such outcome (`cycles`) and the share of the board's squares its longest cycle
//! covers (`largest_cycle`). All network configurations of a board are pooled (the CSV
//! and the subtitle say how many outcomes each board has).

use std::collections::BTreeMap;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{legend_row, Mark};
use super::data::{board_key, Records};
use super::palette::{self, INK};
use super::table::{csv_path, num, Table};
use super::{axes, de, heading, render, DrawResult, FONT};
use crate::board::Board;

/// Bins of the longest cycle's share of the squares.
pub const SHARE_BINS: usize = 10;

/// One board's several-cycle outcomes.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardFailures {
    pub board: Board,
    /// Outcomes per number of cycles.
    pub cycles: BTreeMap<u64, u64>,
    /// Outcomes per tenth of the squares covered by the longest cycle.
    pub largest: [u64; SHARE_BINS],
    /// Several-cycle outcomes with a cycle count.
    pub outcomes: u64,
}

/// The failure-anatomy figure.
#[derive(Debug, Clone)]
pub struct FailureAnatomy {
    pub source: String,
    pub boards: Vec<BoardFailures>,
}

impl FailureAnatomy {
    /// `None` when no network trial ended in several cycles with a cycle count.
    pub fn new(source: impl Into<String>, records: &Records) -> Option<FailureAnatomy> {
        let mut by: BTreeMap<(usize, usize, usize), BoardFailures> = BTreeMap::new();
        for r in &records.rows {
            let Some(k) = r.cycles.filter(|&k| k >= 2) else {
                continue;
            };
            if r.solver != "network" || r.outcome != "multiple-cycles" {
                continue;
            }
            let f = by
                .entry(board_key(r.board))
                .or_insert_with(|| BoardFailures {
                    board: r.board,
                    cycles: BTreeMap::new(),
                    largest: [0; SHARE_BINS],
                    outcomes: 0,
                });
            f.outcomes += 1;
            *f.cycles.entry(k).or_insert(0) += 1;
            if let Some(l) = r.largest_cycle {
                let share = l as f64 / r.board.squares() as f64;
                let bin = ((share * SHARE_BINS as f64) as usize).min(SHARE_BINS - 1);
                f.largest[bin] += 1;
            }
        }
        (!by.is_empty()).then(|| FailureAnatomy {
            source: source.into(),
            boards: by.into_values().collect(),
        })
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        render(self, path, (1050, 600))?;
        self.table().write(&csv_path(path))
    }

    /// One row per board and bin of either distribution.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "board",
            "quantity",
            "bin_low",
            "bin_high",
            "outcomes_in_bin",
            "share",
            "several_cycle_outcomes",
        ]);
        for f in &self.boards {
            let n = f.outcomes.max(1) as f64;
            for (&k, &c) in &f.cycles {
                t.push(vec![
                    f.board.to_string(),
                    "cycles".into(),
                    k.to_string(),
                    k.to_string(),
                    c.to_string(),
                    num(Some(c as f64 / n)),
                    f.outcomes.to_string(),
                ]);
            }
            for (i, &c) in f.largest.iter().enumerate() {
                t.push(vec![
                    f.board.to_string(),
                    "largest_cycle_share".into(),
                    num(Some(i as f64 / SHARE_BINS as f64)),
                    num(Some((i + 1) as f64 / SHARE_BINS as f64)),
                    c.to_string(),
                    num(Some(c as f64 / n)),
                    f.outcomes.to_string(),
                ]);
            }
        }
        t
    }

    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        let counts: Vec<String> = self
            .boards
            .iter()
            .map(|f| format!("{} {}", f.board, f.outcomes))
            .collect();
        heading(
            root,
            "Anatomy of several-cycle failures",
            format!(
                "{}: network configurations pooled per board; outcomes: {}",
                self.source,
                counts.join(", ")
            ),
        )?;
        let body = root.margin(72, 50, 10, 10);
        let panels = body.split_evenly((1, 2));
        let share = |f: &BoardFailures, c: u64| c as f64 / f.outcomes.max(1) as f64;
        // Left: number of cycles.
        let kmax = self
            .boards
            .iter()
            .filter_map(|f| f.cycles.keys().next_back().copied())
            .max()
            .unwrap_or(2);
        let ymax = |vals: &mut dyn Iterator<Item = f64>| vals.fold(0.05, f64::max) * 1.1;
        let y1 = ymax(
            &mut self
                .boards
                .iter()
                .flat_map(|f| f.cycles.values().map(move |&c| share(f, c))),
        );
        let mut chart = ChartBuilder::on(&panels[0])
            .margin(12)
            .x_label_area_size(52)
            .y_label_area_size(70)
            .build_cartesian_2d(
                axes::ticked(
                    1.5..kmax as f64 + 0.5,
                    axes::linear_ticks(2.0, kmax as f64, 8, true),
                ),
                0.0..y1,
            )
            .map_err(de)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| axes::number(*v))
            .y_label_formatter(&|v| axes::percent(*v))
            .x_desc("number of cycles")
            .y_desc("share of several-cycle outcomes")
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 18))
            .bold_line_style(RGBColor(0xE4, 0xE4, 0xE4))
            .light_line_style(TRANSPARENT)
            .draw()
            .map_err(de)?;
        for (i, f) in self.boards.iter().enumerate() {
            let colour = palette::series(i);
            let pts: Vec<(f64, f64)> = (2..=kmax)
                .map(|k| (k as f64, share(f, f.cycles.get(&k).copied().unwrap_or(0))))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(de)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(de)?;
        }
        // Right: the longest cycle's share of the squares.
        let y2 = ymax(
            &mut self
                .boards
                .iter()
                .flat_map(|f| f.largest.iter().map(move |&c| share(f, c))),
        );
        let mut chart = ChartBuilder::on(&panels[1])
            .margin(12)
            .x_label_area_size(52)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..1.0, 0.0..y2)
            .map_err(de)?;
        chart
            .configure_mesh()
            .x_label_formatter(&|v| axes::percent(*v))
            .y_label_formatter(&|v| axes::percent(*v))
            .x_desc("longest cycle, share of the squares")
            .y_desc("share of several-cycle outcomes")
            .axis_desc_style((FONT, 20))
            .label_style((FONT, 18))
            .bold_line_style(RGBColor(0xE4, 0xE4, 0xE4))
            .light_line_style(TRANSPARENT)
            .draw()
            .map_err(de)?;
        for (i, f) in self.boards.iter().enumerate() {
            let colour = palette::series(i);
            let pts: Vec<(f64, f64)> = f
                .largest
                .iter()
                .enumerate()
                .map(|(b, &c)| ((b as f64 + 0.5) / SHARE_BINS as f64, share(f, c)))
                .collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(de)?;
            chart
                .draw_series(pts.iter().map(|&p| Circle::new(p, 4, colour.filled())))
                .map_err(de)?;
        }
        let legend: Vec<(Mark, String)> = self
            .boards
            .iter()
            .enumerate()
            .map(|(i, f)| (Mark::Line(palette::series(i)), f.board.to_string()))
            .collect();
        legend_row(
            root,
            &legend,
            &(FONT, 18).into_font().color(&INK),
            h as i32 - 24,
            w as i32,
        )
    }
}

crate::impl_figure!(FailureAnatomy);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::data::Record;

    fn row(board: &str, outcome: &str, cycles: Option<u64>, largest: Option<u64>) -> Record {
        Record {
            board: board.parse().unwrap(),
            solver: "network".into(),
            variant: Some("parberry".into()),
            outcome: outcome.into(),
            iterations: Some(10),
            trial: Some(0),
            seed: None,
            restarts: None,
            cycles,
            largest_cycle: largest,
            steps: None,
            spec: None,
            label: None,
            time_ns: None,
        }
    }

    #[test]
    fn counts_several_cycle_outcomes_by_board() {
        let rows = vec![
            row("6x6", "multiple-cycles", Some(2), Some(20)),
            row("6x6", "multiple-cycles", Some(3), Some(12)),
            row("6x6", "multiple-cycles", Some(2), Some(35)),
            row("6x6", "tour", Some(1), Some(36)),
            row("8x8", "multiple-cycles", Some(4), Some(40)),
            row("8x8", "iteration-cap", None, None),
        ];
        let records = Records {
            path: "r.csv".into(),
            rows,
            time_column: None,
            has_iterations: true,
            partial_line_bytes: 0,
        };
        let f = FailureAnatomy::new("t", &records).unwrap();
        assert_eq!(f.boards.len(), 2);
        let six = &f.boards[0];
        assert_eq!(six.outcomes, 3);
        assert_eq!(six.cycles.get(&2), Some(&2));
        // 20/36 = 0.56 -> bin 5; 12/36 = 0.33 -> bin 3; 35/36 -> bin 9.
        assert_eq!((six.largest[5], six.largest[3], six.largest[9]), (1, 1, 1));
        assert_eq!(f.boards[1].outcomes, 1);
        let t = f.table();
        assert_eq!(t.rows.len(), 2 + SHARE_BINS + 1 + SHARE_BINS);
    }
}

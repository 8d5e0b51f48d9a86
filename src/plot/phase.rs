//! Phase diagram of a sweep: the network's tour rate as a heat map over the two swept
//! keys (see [`crate::experiment::spec`]), one panel per board, each square printing its
//! tour rate and tours / trials. Drawn from a results folder's `run.json` (the cells'
//! parameters) and its summary, when exactly two of the swept keys (c, s, upper, lower,
//! order, init, max_iterations) take more than one value over the network cells and no
//! two cells share a square.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::board_key;
use super::palette::{self, INK};
use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, de, heading, render};
use crate::board::Board;
use crate::experiment::spec::Setting;
use crate::experiment::{Spec, Summary};
use crate::stats::{Z95, wilson};

/// One square: a cell's position on the two axes and its counts.
#[derive(Debug, Clone, PartialEq)]
pub struct Square {
    /// The cell's board: the panel the square is drawn in.
    pub board: Board,
    /// Index of the cell's x value in [`PhaseDiagram::x`].
    pub x: usize,
    /// Index of the cell's y value in [`PhaseDiagram::y`].
    pub y: usize,
    /// The cell's label in the spec.
    pub label: String,
    /// Trials recorded.
    pub trials: u64,
    /// Trials that found a tour.
    pub tours: u64,
}

/// The heat maps of a two-key sweep.
#[derive(Debug, Clone)]
pub struct PhaseDiagram {
    /// Title context, for example the results folder name.
    pub source: String,
    /// Values of the x and y keys, in the order the spec lists them.
    pub x: Vec<Setting>,
    /// Values of the y key (see `x`).
    pub y: Vec<Setting>,
    /// The boards, one panel each, smallest first.
    pub boards: Vec<Board>,
    /// One square per network cell; no two share a board and a position.
    pub squares: Vec<Square>,
}

impl PhaseDiagram {
    /// The diagram of `summary`'s network cells, or why there is none.
    pub fn new(
        source: impl Into<String>,
        spec: &Spec,
        summary: &Summary,
    ) -> Result<PhaseDiagram, String> {
        let cells: Vec<(usize, [Setting; 7])> = spec
            .cells
            .iter()
            .filter_map(|c| c.params().map(|p| (c.index, Setting::all_of(&p))))
            .collect();
        if cells.is_empty() {
            return Err("no network cells".into());
        }
        // Distinct values of each key, in order of first appearance.
        let values: Vec<Vec<Setting>> = (0..7)
            .map(|k| {
                let mut v: Vec<Setting> = Vec::new();
                for (_, s) in &cells {
                    if !v.contains(&s[k]) {
                        v.push(s[k]);
                    }
                }
                v
            })
            .collect();
        let varying: Vec<usize> = (0..7).filter(|&k| values[k].len() > 1).collect();
        let &[kx, ky] = varying.as_slice() else {
            let names: Vec<&str> = varying.iter().map(|&k| values[k][0].key()).collect();
            return Err(format!(
                "needs exactly two swept network keys; the network cells vary in {}",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ));
        };
        let mut squares: Vec<Square> = Vec::new();
        for (index, s) in &cells {
            let c = &summary.cells[*index];
            let board = spec.cells[*index].board;
            let x = values[kx].iter().position(|v| *v == s[kx]).unwrap_or(0);
            let y = values[ky].iter().position(|v| *v == s[ky]).unwrap_or(0);
            if let Some(other) = squares
                .iter()
                .find(|q| q.board == board && q.x == x && q.y == y)
            {
                return Err(format!(
                    "cells '{}' and '{}' on {board} share the square {} {}",
                    other.label,
                    c.label,
                    s[kx].label(),
                    s[ky].label()
                ));
            }
            squares.push(Square {
                board,
                x,
                y,
                label: c.label.clone(),
                trials: c.trials,
                tours: c.tours,
            });
        }
        let mut boards: Vec<Board> = squares.iter().map(|q| q.board).collect();
        boards.sort_by_key(|&b| board_key(b));
        boards.dedup();
        Ok(PhaseDiagram {
            source: source.into(),
            x: values[kx].clone(),
            y: values[ky].clone(),
            boards,
            squares,
        })
    }

    fn grid(&self) -> (usize, usize) {
        let n = self.boards.len().max(1);
        let cols = if n == 4 { 2 } else { n.min(3) };
        (n.div_ceil(cols), cols)
    }

    /// Pixel size: 1050 wide, 380 high per row of panels plus the title.
    pub fn size(&self) -> (u32, u32) {
        let (rows, _) = self.grid();
        (1050, rows as u32 * 380 + 110)
    }

    /// Write the figure (`.png`, `.svg` or `.pdf` by extension) and its data (`.csv`
    /// beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, self.size())?;
        self.table().write(&csv_path(path))
    }

    /// One row per square.
    pub fn table(&self) -> Table {
        let (kx, ky) = (self.x[0].key(), self.y[0].key());
        let mut t = Table::new(&[
            "board",
            kx,
            ky,
            "cell",
            "trials",
            "tours",
            "p_tour",
            "wilson_low",
            "wilson_high",
        ]);
        for q in &self.squares {
            let (lo, hi) = wilson(q.tours, q.trials, Z95);
            t.push(vec![
                q.board.to_string(),
                self.x[q.x].value(),
                self.y[q.y].value(),
                q.label.clone(),
                q.trials.to_string(),
                q.tours.to_string(),
                num((q.trials > 0).then(|| q.tours as f64 / q.trials as f64)),
                num(Some(lo)),
                num(Some(hi)),
            ]);
        }
        t
    }
}

impl Figure for PhaseDiagram {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let rate = |q: &Square| {
            if q.trials == 0 {
                0.0
            } else {
                q.tours as f64 / q.trials as f64
            }
        };
        let top = self.squares.iter().map(rate).fold(0.0, f64::max);
        heading(
            root,
            "Tour rate over the sweep",
            format!(
                "{}: each square p(tour) and tours / trials; shade from 0 (white) to {:.1}% (darkest)",
                self.source,
                100.0 * top
            ),
        )?;
        let body = root.margin(72, 10, 10, 10);
        let areas = body.split_evenly(self.grid());
        let (nx, ny) = (self.x.len(), self.y.len());
        for (area, board) in areas.iter().zip(&self.boards) {
            let mut chart = ChartBuilder::on(area)
                .caption(board.to_string(), (FONT, 20))
                .margin(8)
                .x_label_area_size(48)
                .y_label_area_size(56)
                .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)
                .map_err(de)?;
            let xs = &self.x;
            let ys = &self.y;
            let at = |v: f64, n: usize| {
                let i = v - 0.5;
                (i >= 0.0 && (i - i.round()).abs() < 1e-6 && (i.round() as usize) < n)
                    .then(|| i.round() as usize)
            };
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(nx * 2 + 1)
                .y_labels(ny * 2 + 1)
                .x_label_formatter(&|v| at(*v, nx).map_or(String::new(), |i| xs[i].value()))
                .y_label_formatter(&|v| at(*v, ny).map_or(String::new(), |i| ys[i].value()))
                .x_desc(xs[0].key().to_uppercase())
                .y_desc(ys[0].key().to_uppercase())
                .axis_desc_style((FONT, 20))
                .label_style((FONT, 18))
                .draw()
                .map_err(de)?;
            for q in self.squares.iter().filter(|q| q.board == *board) {
                let shade = if top > 0.0 { rate(q) / top } else { 0.0 };
                let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * shade).round() as u8;
                let b = palette::BLUE;
                let fill = RGBColor(mix(255, b.0), mix(255, b.1), mix(255, b.2));
                let (x0, y0) = (q.x as f64, q.y as f64);
                chart
                    .draw_series([
                        Rectangle::new([(x0, y0), (x0 + 1.0, y0 + 1.0)], fill.filled()),
                        Rectangle::new(
                            [(x0, y0), (x0 + 1.0, y0 + 1.0)],
                            RGBColor(0xC8, 0xC8, 0xC8).stroke_width(1),
                        ),
                    ])
                    .map_err(de)?;
                let ink = if shade > 0.55 { WHITE } else { INK };
                let style = (FONT, 14)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center));
                chart
                    .draw_series([
                        Text::new(
                            format!("{:.1}%", 100.0 * rate(q)),
                            (x0 + 0.5, y0 + 0.64),
                            style.clone(),
                        ),
                        Text::new(
                            format!("{}/{}", q.tours, q.trials),
                            (x0 + 0.5, y0 + 0.34),
                            style,
                        ),
                    ])
                    .map_err(de)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::Shard;
    use crate::experiment::summary::build;

    #[test]
    fn squares_follow_the_two_swept_keys() {
        let spec = Spec::parse(
            "trials = 3\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network\"\nc = [4, 5]\ns = [1, 2, 3]\n",
            "t",
            "t.toml",
        )
        .unwrap();
        let summary = build(&spec, Shard::ALL, &[]);
        let d = PhaseDiagram::new("t", &spec, &summary).unwrap();
        assert_eq!((d.x.len(), d.y.len(), d.boards.len()), (2, 3, 2));
        assert_eq!(d.squares.len(), 12);
        let q = d
            .squares
            .iter()
            .find(|q| q.label == "parberry c=5 s=3" && q.board.to_string() == "8x8")
            .unwrap();
        assert_eq!((q.x, q.y), (1, 2));
        assert_eq!(d.table().header[1..3], ["c", "s"]);
        // One swept key is not a phase diagram.
        let spec = Spec::parse(
            "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [4, 5]\n",
            "t",
            "t.toml",
        )
        .unwrap();
        let e = PhaseDiagram::new("t", &spec, &build(&spec, Shard::ALL, &[])).unwrap_err();
        assert!(e.contains("exactly two") && e.contains("c"), "{e}");
    }
}

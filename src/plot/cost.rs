//! Cost per tour: total wall time of a group's trials divided by the tours they found,
//! on a logarithmic axis, per board size; one line per network preset (circles) and per
//! classical solver (squares). A group that found no tour has no point.

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::{boards, solver_ids, Group};
use super::palette::{self, INK};
use super::{de, render, DrawResult, FONT};
use crate::board::Board;

/// Line colours of network presets (circles) and classical solvers (squares).
const NETWORK_COLOURS: [RGBColor; 5] = [
    palette::BLUE,
    palette::VERMILLION,
    palette::GREEN,
    palette::PURPLE,
    palette::SKY_BLUE,
];
const CLASSICAL_COLOURS: [RGBColor; 7] = [
    palette::INK,
    palette::ORANGE,
    palette::GREY,
    palette::YELLOW,
    palette::GREEN,
    palette::PURPLE,
    palette::SKY_BLUE,
];

/// Width of the legend column, in pixels.
const LEGEND_WIDTH: i32 = 360;

/// Timed groups of an experiment.
#[derive(Debug, Clone)]
pub struct CostPerTour {
    pub source: String,
    /// Name of the timing column the times came from.
    pub time_column: String,
    pub groups: Vec<Group>,
}

impl CostPerTour {
    /// Keep groups with a time for every trial; `None` if no group has a tour.
    pub fn new(
        source: impl Into<String>,
        time_column: impl Into<String>,
        groups: &[Group],
    ) -> Option<CostPerTour> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.timed_trials == g.trials)
            .cloned()
            .collect();
        groups
            .iter()
            .any(|g| g.seconds_per_tour().is_some())
            .then(|| CostPerTour {
                source: source.into(),
                time_column: time_column.into(),
                groups,
            })
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        render(self, path, (1240, 720))
    }

    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, _) = root.dim_in_pixel();
        let bs = boards(&self.groups);
        let ids = solver_ids(&self.groups);
        let secs: Vec<f64> = self
            .groups
            .iter()
            .filter_map(Group::seconds_per_tour)
            .filter(|s| *s > 0.0)
            .collect();
        let lo = secs.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = secs.iter().copied().fold(0.0, f64::max);
        let (lo, hi) = if lo.is_finite() && hi > 0.0 {
            (lo / 3.0, hi * 3.0)
        } else {
            (1e-6, 1.0)
        };
        let per = trials_phrase(self.groups.iter().map(|g| g.trials), "solver and board");
        heading(
            root,
            "Cost per tour: network presets against classical solvers",
            format!(
                "{}: total '{}' of all trials / tours found; {per}; no point = no tour",
                self.source, self.time_column
            ),
        )?;
        let (body, side) = root
            .margin(70, 10, 10, 10)
            .split_horizontally(w as i32 - LEGEND_WIDTH);
        let nb = bs.len();
        let mut chart = ChartBuilder::on(&body)
            .margin(10)
            .x_label_area_size(50)
            .y_label_area_size(90)
            .build_cartesian_2d(super::outcomes::x_range(nb), (lo..hi).log_scale())
            .map_err(de)?;
        // At most about 16 board labels; with more boards, label every k-th.
        let every = nb.div_ceil(16).max(1);
        let fmt = |x: &f64| label(&bs, *x, every);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(nb.max(1))
            .x_label_formatter(&fmt)
            .y_label_formatter(&|y| seconds(*y))
            .x_desc("board")
            .y_desc("time per tour (log scale)")
            .axis_desc_style((FONT, 17))
            .label_style((FONT, 15))
            .light_line_style(RGBColor(0xF0, 0xF0, 0xF0))
            .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
            .draw()
            .map_err(de)?;
        let mut legend: Vec<(RGBColor, bool, String)> = Vec::new();
        let (mut n_net, mut n_other) = (0, 0);
        // Series are dodged sideways so that equal costs on a board stay visible.
        let k = ids.len() as f64;
        for (i, id) in ids.iter().enumerate() {
            let dodge = (i as f64 - (k - 1.0) / 2.0) * (0.5 / k.max(1.0));
            let colour = if id.is_network() {
                n_net += 1;
                NETWORK_COLOURS[(n_net - 1) % NETWORK_COLOURS.len()]
            } else {
                n_other += 1;
                CLASSICAL_COLOURS[(n_other - 1) % CLASSICAL_COLOURS.len()]
            };
            let pts: Vec<(f64, f64)> = bs
                .iter()
                .enumerate()
                .filter_map(|(x, b)| {
                    self.groups
                        .iter()
                        .find(|g| &g.id == id && g.board == *b)
                        .and_then(Group::seconds_per_tour)
                        .filter(|s| *s > 0.0)
                        .map(|s| (x as f64 + dodge, s))
                })
                .collect();
            let network = id.is_network();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(de)?;
            // Boards this solver ran on without finding a tour (boards it did not run on
            // are simply absent).
            let ran = self.groups.iter().filter(|g| &g.id == id).count();
            let missing = ran - pts.len();
            let label = match missing {
                // One board: the legend carries the value.
                0 if nb == 1 => format!("{}: {}", id.name(), seconds(pts[0].1)),
                0 => id.name(),
                m if m == ran => format!("{} (no tour)", id.name()),
                m => format!("{} ({m} without a tour)", id.name()),
            };
            legend.push((colour, network, label));
            if network {
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 6, colour.filled())))
                    .map_err(de)?;
            } else {
                chart
                    .draw_series(pts.iter().map(|&p| {
                        EmptyElement::at(p) + Rectangle::new([(-6, -6), (6, 6)], colour.filled())
                    }))
                    .map_err(de)?;
            }
        }
        let font = (FONT, 15).into_font().color(&INK);
        let mut y = 90;
        for (colour, network, label) in legend {
            side.draw(&PathElement::new(
                vec![(6, y), (34, y)],
                colour.stroke_width(2),
            ))
            .map_err(de)?;
            if network {
                side.draw(&Circle::new((20, y), 6, colour.filled()))
                    .map_err(de)?;
            } else {
                side.draw(&Rectangle::new([(14, y - 6), (26, y + 6)], colour.filled()))
                    .map_err(de)?;
            }
            side.draw(&Text::new(
                label,
                (42, y),
                font.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
            y += 28;
        }
        Ok(())
    }
}

fn label(boards: &[Board], x: f64, every: usize) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6
        || i < 0.0
        || i as usize >= boards.len()
        || !(i as usize).is_multiple_of(every)
    {
        return String::new();
    }
    boards[i as usize].to_string()
}

/// Seconds in engineering units: 12 ns, 3.4 µs, 560 ms, 2.1 s.
pub fn seconds(s: f64) -> String {
    let (v, unit) = if s < 1e-6 {
        (s * 1e9, "ns")
    } else if s < 1e-3 {
        (s * 1e6, "µs")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    if v >= 10.0 {
        format!("{v:.0} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

crate::impl_figure!(CostPerTour);

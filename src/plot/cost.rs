//! Time per tour: total wall time of a group's trials divided by the tours they found,
//! on a logarithmic axis, per board size; one line per network configuration (circles)
//! and per classical solver (squares). A group that found no tour has no point.
//!
//! Every point carries a bootstrap 95% interval (`Group::time_per_tour_interval`):
//! the trials resampled with replacement, so both the spread of trial times and the
//! uncertainty of the tour count enter it. It measures the variation within one run;
//! a loaded machine can move whole runs further (rerun to see that).

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::data::{BOOTSTRAP_RESAMPLES, Group, SolverId, boards, spec_order};
use super::palette::{self, INK};
use super::panel::{cartesian, mesh};
use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, axes, de, render};

/// Width of the legend column, in pixels.
const LEGEND_WIDTH: i32 = 330;

/// Timed groups of an experiment.
#[derive(Debug, Clone)]
pub struct CostPerTour {
    /// Title context, for example the results folder name.
    pub source: String,
    /// Name of the timing column the times came from.
    pub time_column: String,
    /// The groups with a time for every trial, one per configuration and board.
    pub groups: Vec<Group>,
}

/// One plotted series: a solver configuration's points (board index, seconds per
/// tour, interval) and how many of its boards had no tour.
struct Series {
    id: SolverId,
    colour: RGBColor,
    points: Vec<(usize, f64, f64, Option<f64>)>,
    ran: usize,
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

    /// Write the figure and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, (1050, 620))?;
        self.table().write(&csv_path(path))
    }

    /// Series in spec order, each with its colour.
    fn series(&self) -> Vec<Series> {
        let bs = boards(&self.groups);
        spec_order(&self.groups)
            .into_iter()
            .enumerate()
            .map(|(i, id)| {
                let points = bs
                    .iter()
                    .enumerate()
                    .filter_map(|(x, b)| {
                        let g = self.groups.iter().find(|g| g.id == id && g.board == *b)?;
                        let s = g.seconds_per_tour().filter(|s| *s > 0.0)?;
                        let (lo, hi) = g.time_per_tour_interval()?;
                        Some((x, s, lo, hi))
                    })
                    .collect();
                let ran = self.groups.iter().filter(|g| g.id == id).count();
                Series {
                    colour: palette::series(i),
                    id,
                    points,
                    ran,
                }
            })
            .collect()
    }

    /// Title by what was compared.
    fn title(&self) -> &'static str {
        let neural = self.groups.iter().any(|g| g.id.is_neural());
        let classical = self.groups.iter().any(|g| !g.id.is_neural());
        match (neural, classical) {
            (true, true) => "Time per tour: the network against classical solvers",
            (true, false) => "Time per tour of the network",
            _ => "Time per tour of classical solvers",
        }
    }

    /// The plotted numbers, one row per solver configuration and board.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "solver",
            "board",
            "trials",
            "tours",
            "total_time_s",
            "time_per_tour_s",
            "bootstrap_low_s",
            "bootstrap_high_s",
        ]);
        let bs = boards(&self.groups);
        for id in spec_order(&self.groups) {
            for b in &bs {
                let Some(g) = self.groups.iter().find(|g| g.id == id && g.board == *b) else {
                    continue;
                };
                let iv = g.time_per_tour_interval();
                t.push(vec![
                    id.display(),
                    b.to_string(),
                    g.trials.to_string(),
                    g.tours().to_string(),
                    num(Some(g.total_time_ns * 1e-9)),
                    num(g.seconds_per_tour()),
                    num(iv.map(|i| i.0)),
                    num(iv.and_then(|i| i.1)),
                ]);
            }
        }
        t
    }
}

/// Seconds as a value in ns, µs, ms or s and that unit.
fn engineering(s: f64) -> (f64, &'static str) {
    if s < 1e-6 {
        (s * 1e9, "ns")
    } else if s < 1e-3 {
        (s * 1e6, "µs")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    }
}

/// Seconds in engineering units: 12 ns, 3.4 µs, 560 ms, 2.1 s.
pub fn seconds(s: f64) -> String {
    let (v, unit) = engineering(s);
    if v >= 10.0 {
        format!("{v:.0} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

/// An axis tick in engineering units without needless digits: 1 ms, 20 µs, 2.5 s.
fn tick_seconds(s: f64) -> String {
    let (v, unit) = engineering(s);
    format!("{} {unit}", axes::number((v * 1000.0).round() / 1000.0))
}

impl Figure for CostPerTour {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, _) = root.dim_in_pixel();
        let bs = boards(&self.groups);
        let mut series = self.series();
        let values = series.iter().flat_map(|s| {
            s.points
                .iter()
                .flat_map(|p| [Some(p.1), Some(p.2), p.3].into_iter().flatten())
        });
        let (lo, hi) = values
            .filter(|v| *v > 0.0)
            .fold((f64::INFINITY, 0f64), |(a, b), v| (a.min(v), b.max(v)));
        // Whole decades when the values span two or more, so both ends are labelled.
        let (lo, hi) = if !(lo.is_finite() && hi > 0.0) {
            (1e-6, 1.0)
        } else if hi / lo >= 100.0 {
            (
                10f64.powf(lo.log10().floor()),
                10f64.powf(hi.log10().ceil()),
            )
        } else {
            (lo / 1.6, hi * 1.6)
        };
        let per = trials_phrase(self.groups.iter().map(|g| g.trials), "solver and board");
        heading(
            root,
            self.title(),
            format!(
                "{}: {per}; bars: bootstrap 95% over trials ({BOOTSTRAP_RESAMPLES} resamples), to the top = unbounded",
                self.source
            ),
        )?;
        let (body, side) = root
            .margin(70, 10, 10, 10)
            .split_horizontally(w as i32 - LEGEND_WIDTH);
        let nb = bs.len();
        let mut chart = cartesian(
            &body,
            10,
            96,
            axes::board_axis(&bs, body.dim_in_pixel().0.saturating_sub(126)),
            axes::ticked((lo..hi).log_scale(), axes::log_ticks(lo, hi)),
        )?;
        let fmt =
            |x: &f64| axes::category_index(*x, nb).map_or_else(String::new, |i| bs[i].to_string());
        let y_desc = format!("time per tour: total {} / tours", self.time_column);
        mesh(&mut chart, "board", &y_desc)
            .disable_x_mesh()
            .x_label_formatter(&fmt)
            .y_label_formatter(&|y| tick_seconds(*y))
            .draw()
            .map_err(de)?;
        // Series are dodged sideways so that equal costs on a board stay visible.
        let k = series.len() as f64;
        for (i, s) in series.iter().enumerate() {
            let dodge = (i as f64 - (k - 1.0) / 2.0) * (0.5 / k.max(1.0));
            let colour = s.colour;
            let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0 as f64 + dodge, p.1)).collect();
            chart
                .draw_series(LineSeries::new(pts.clone(), colour.stroke_width(2)))
                .map_err(de)?;
            for p in &s.points {
                let x = p.0 as f64 + dodge;
                let top = p.3.unwrap_or(hi);
                let cap = 0.04;
                let mut bars = vec![
                    PathElement::new(vec![(x, p.2), (x, top)], colour.stroke_width(2)),
                    PathElement::new(vec![(x - cap, p.2), (x + cap, p.2)], colour.stroke_width(2)),
                ];
                if p.3.is_some() {
                    bars.push(PathElement::new(
                        vec![(x - cap, top), (x + cap, top)],
                        colour.stroke_width(2),
                    ));
                }
                chart.draw_series(bars).map_err(de)?;
            }
            if s.id.is_neural() {
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
        // Legend top to bottom in the order the lines end on the right (highest cost
        // first); series without a tour last.
        series.sort_by(|a, b| {
            let end = |s: &Series| s.points.last().map(|p| (p.0, p.1));
            match (end(a), end(b)) {
                (Some(x), Some(y)) => y.1.total_cmp(&x.1),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
        let font = (FONT, 18).into_font().color(&INK);
        let mut y = 80;
        for s in &series {
            let colour = s.colour;
            side.draw(&PathElement::new(
                vec![(6, y), (34, y)],
                colour.stroke_width(2),
            ))
            .map_err(de)?;
            if s.id.is_neural() {
                side.draw(&Circle::new((20, y), 6, colour.filled()))
                    .map_err(de)?;
            } else {
                side.draw(&Rectangle::new([(14, y - 6), (26, y + 6)], colour.filled()))
                    .map_err(de)?;
            }
            let missing = s.ran - s.points.len();
            let name = s.id.display();
            let text = match missing {
                0 if nb == 1 => format!("{name}: {}", seconds(s.points[0].1)),
                0 => name,
                m if m == s.ran => format!("{name}: no tour"),
                m => format!("{name}: no tour on {m} of {} boards", s.ran),
            };
            side.draw(&Text::new(
                text,
                (42, y),
                font.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
            y += 30;
        }
        let small = (FONT, 16).into_font().color(&palette::GREY);
        let both =
            series.iter().any(|s| s.id.is_neural()) && series.iter().any(|s| !s.id.is_neural());
        let notes: &[&str] = if both {
            &["circles: the network", "squares: classical solvers"]
        } else {
            &[]
        };
        for (j, line) in notes.iter().enumerate() {
            side.draw(&Text::new(
                line.to_string(),
                (6, y + 10 + 24 * j as i32),
                small.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
        }
        Ok(())
    }
}

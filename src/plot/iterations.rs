//! Iterations to settle: one histogram per network preset (rows) and board (columns) of
//! the records' `iterations` column (steps or sweeps over all attempts of a trial),
//! trials that found a tour stacked under those that did not. The x axis uses
//! logarithmic bins when a panel's values span more than two decades.

use super::heading;
use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{legend_row, Mark};
use super::data::{boards, Group};
use super::palette::{self, INK};
use super::{de, render, DrawResult, FONT};

/// Bins per histogram.
pub const BINS: usize = 20;

/// The network groups of an experiment that have iteration counts.
#[derive(Debug, Clone)]
pub struct IterationHistograms {
    pub source: String,
    pub groups: Vec<Group>,
}

/// Bin edges and the (tour, other) counts per bin.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    pub edges: Vec<f64>,
    pub tours: Vec<u64>,
    pub others: Vec<u64>,
    pub log: bool,
}

/// Histogram of `values` in [`BINS`] bins; logarithmic bins when max/min > 100.
pub fn histogram(values: &[(u64, bool)]) -> Histogram {
    let lo = values.iter().map(|v| v.0).min().unwrap_or(0).max(1) as f64;
    let hi = values.iter().map(|v| v.0).max().unwrap_or(1).max(1) as f64;
    let log = hi / lo > 100.0;
    let (a, b) = if log {
        (lo.log10(), (hi * 1.0001).log10())
    } else {
        (lo.min(hi - 0.5) - 0.5, hi + 0.5)
    };
    let edges: Vec<f64> = (0..=BINS)
        .map(|i| {
            let t = a + (b - a) * i as f64 / BINS as f64;
            if log {
                10f64.powf(t)
            } else {
                t
            }
        })
        .collect();
    let mut tours = vec![0; BINS];
    let mut others = vec![0; BINS];
    for &(v, tour) in values {
        let v = (v.max(1)) as f64;
        let i = edges[1..].partition_point(|&e| e <= v).min(BINS - 1);
        if tour {
            tours[i] += 1;
        } else {
            others[i] += 1;
        }
    }
    Histogram {
        edges,
        tours,
        others,
        log,
    }
}

impl IterationHistograms {
    /// Keep the network groups with iteration counts; `None` if there are none.
    pub fn new(source: impl Into<String>, groups: &[Group]) -> Option<IterationHistograms> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.id.is_network() && !g.iterations.is_empty())
            .cloned()
            .collect();
        (!groups.is_empty()).then(|| IterationHistograms {
            source: source.into(),
            groups,
        })
    }

    fn presets(&self) -> Vec<String> {
        super::data::preset_order(self.groups.iter().map(|g| g.id.short()))
    }

    /// Panels in drawing order: preset by preset, boards smallest first.
    fn panels(&self) -> Vec<&Group> {
        let bs = boards(&self.groups);
        let mut v = Vec::new();
        for preset in self.presets() {
            for b in &bs {
                if let Some(g) = self
                    .groups
                    .iter()
                    .find(|g| g.id.short() == preset && g.board == *b)
                {
                    v.push(g);
                }
            }
        }
        v
    }

    /// A near-square grid of at most five columns.
    fn grid(&self) -> (usize, usize) {
        let n = self.panels().len().max(1);
        let cols = ((n as f64).sqrt().ceil() as usize).clamp(1, 5);
        (n.div_ceil(cols), cols)
    }

    pub fn size(&self) -> (u32, u32) {
        let (rows, cols) = self.grid();
        ((cols as u32 * 380).max(900) + 20, rows as u32 * 290 + 140)
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        render(self, path, self.size())
    }

    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        heading(root, "Iterations per network trial", format!(
                "{}: the records' iterations column (network steps or sweeps per trial), one panel per preset and board",
                self.source
            ))?;
        let body = root.margin(76, 56, 10, 10);
        let areas = body.split_evenly(self.grid());
        for (area, g) in areas.iter().zip(self.panels()) {
            let hist = histogram(&g.iterations);
            let (lo, hi) = (hist.edges[0], hist.edges[BINS]);
            if hist.log {
                panel(area, (lo..hi).log_scale(), g, &hist)?;
            } else {
                panel(area, lo..hi, g, &hist)?;
            }
        }
        legend_row(
            root,
            &[
                (Mark::Box(palette::BLUE), "trial found a tour".into()),
                (Mark::Box(palette::VERMILLION), "no tour".into()),
            ],
            &(FONT, 17).into_font().color(&INK),
            h as i32 - 26,
            w as i32,
        )
    }
}

fn median(values: &[(u64, bool)]) -> f64 {
    let mut v: Vec<u64> = values.iter().map(|x| x.0).collect();
    v.sort_unstable();
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
    }
}

fn panel<DB: DrawingBackend, X>(
    area: &DrawingArea<DB, Shift>,
    x: X,
    g: &Group,
    hist: &Histogram,
) -> DrawResult
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let y_max = hist
        .tours
        .iter()
        .zip(&hist.others)
        .map(|(a, b)| a + b)
        .max()
        .unwrap_or(1)
        .max(1) as f64
        * 1.1;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "{}, {}: n={}, median {}",
                g.id.short(),
                g.board,
                g.iterations.len(),
                median(&g.iterations)
            ),
            (FONT, 16).into_font().style(FontStyle::Bold),
        )
        .margin(8)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(x, 0f64..y_max)
        .map_err(de)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(5)
        .y_labels(5)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .x_desc(if hist.log {
            "iterations (log scale)"
        } else {
            "iterations"
        })
        .y_desc("trials")
        .axis_desc_style((FONT, 14))
        .label_style((FONT, 12))
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(0xE0, 0xE0, 0xE0))
        .draw()
        .map_err(de)?;
    for i in 0..BINS {
        let (x0, x1) = (hist.edges[i], hist.edges[i + 1]);
        let (t, o) = (hist.tours[i] as f64, hist.others[i] as f64);
        if t > 0.0 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1, t)],
                    palette::BLUE.filled(),
                )))
                .map_err(de)?;
        }
        if o > 0.0 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, t), (x1, t + o)],
                    palette::VERMILLION.filled(),
                )))
                .map_err(de)?;
        }
        if t + o > 0.0 {
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x0, 0.0), (x1, t + o)],
                    WHITE.stroke_width(1),
                )))
                .map_err(de)?;
        }
    }
    Ok(())
}

crate::impl_figure!(IterationHistograms);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_counts_every_value() {
        let v: Vec<(u64, bool)> = (1..=50).map(|i| (i * 3, i % 2 == 0)).collect();
        let h = histogram(&v);
        assert!(!h.log);
        assert_eq!(
            h.tours.iter().sum::<u64>() + h.others.iter().sum::<u64>(),
            50
        );
        let v: Vec<(u64, bool)> = vec![(1, true), (10, true), (10_000, false)];
        let h = histogram(&v);
        assert!(h.log);
        assert_eq!(h.others[BINS - 1], 1);
        assert_eq!(h.tours[0], 1);
    }
}

//! Iterations to settle, from the records' `iterations` column (steps or sweeps over all
//! attempts of a trial).
//!
//! Up to `MAX_HISTOGRAMS` (configuration, board) pairs: one histogram each, trials
//! that found a tour stacked under those that did not, all panels on one shared x axis
//! (logarithmic bins when the values span more than two decades) and one shared y axis
//! (percent of the panel's trials), so panels compare at a glance. More pairs than that:
//! one chart of the median, quartiles and 10th–90th percentiles per board, one series
//! per configuration.

use super::heading;
use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::board::{Mark, above_legend, legend_below};
use super::data::{Group, places, places_title, spec_order, width_for_places};
use super::palette;
use super::panel::{cartesian, mesh};
use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, axes, de, render};

/// Bins per histogram.
pub(crate) const BINS: usize = 20;
/// Most panels drawn as histograms; beyond it the figure shows quantiles per board.
pub(crate) const MAX_HISTOGRAMS: usize = 6;

/// The network groups of an experiment that have iteration counts.
#[derive(Debug, Clone)]
pub struct IterationHistograms {
    /// Title context, for example the results folder name.
    pub source: String,
    /// The network groups with iteration counts, one per configuration and board.
    pub groups: Vec<Group>,
}

/// Bin edges and the (tour, other) counts per bin.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Histogram {
    pub edges: Vec<f64>,
    pub tours: Vec<u64>,
    pub others: Vec<u64>,
    pub log: bool,
}

/// `BINS` bin edges covering `values`; logarithmic when max/min > 100.
pub fn edges(values: impl Iterator<Item = u64> + Clone) -> (Vec<f64>, bool) {
    let lo = values.clone().min().unwrap_or(0).max(1) as f64;
    let hi = values.max().unwrap_or(1).max(1) as f64;
    let log = hi / lo > 100.0;
    let (a, b) = if log {
        (lo.log10(), (hi * 1.0001).log10())
    } else {
        (lo - 0.5, hi + 0.5)
    };
    let e = (0..=BINS)
        .map(|i| {
            let t = a + (b - a) * i as f64 / BINS as f64;
            if log { 10f64.powf(t) } else { t }
        })
        .collect();
    (e, log)
}

#[cfg(test)]
/// Histogram of `values` in [`BINS`] bins; logarithmic bins when max/min > 100.
pub(crate) fn histogram(values: &[(u64, bool)]) -> Histogram {
    let (e, log) = edges(values.iter().map(|v| v.0));
    histogram_on(values, e, log)
}

/// Histogram of `values` on given bin edges (values outside go to the end bins).
pub(crate) fn histogram_on(values: &[(u64, bool)], edges: Vec<f64>, log: bool) -> Histogram {
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

/// Quantile `q` of sorted values (nearest rank with linear interpolation).
fn quantile(sorted: &[u64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (i, f) = (pos.floor() as usize, pos.fract());
    let next = sorted[(i + 1).min(sorted.len() - 1)] as f64;
    sorted[i] as f64 + f * (next - sorted[i] as f64)
}

/// 10th, 25th, 50th, 75th and 90th percentiles of a group's iterations.
fn quantiles(g: &Group) -> [f64; 5] {
    let mut v: Vec<u64> = g.iterations.iter().map(|x| x.0).collect();
    v.sort_unstable();
    [0.1, 0.25, 0.5, 0.75, 0.9].map(|q| quantile(&v, q))
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

    /// Panels in drawing order: configuration by configuration in spec order, boards
    /// smallest first.
    fn panels(&self) -> Vec<&Group> {
        let mut v = Vec::new();
        for id in spec_order(&self.groups) {
            let mut gs: Vec<&Group> = self.groups.iter().filter(|g| g.id == id).collect();
            gs.sort_by(|a, b| a.place.cmp(&b.place));
            v.extend(gs);
        }
        v
    }

    /// Whether the figure shows histograms (else quantiles per board).
    pub fn histograms(&self) -> bool {
        self.groups.len() <= MAX_HISTOGRAMS
    }

    /// Rows and columns of histogram panels: up to three columns.
    fn grid(&self) -> (usize, usize) {
        let n = self.panels().len().max(1);
        let cols = n.clamp(1, 3);
        (n.div_ceil(cols), cols)
    }

    /// Pixel size: 1050 wide; 320 high per row of histograms plus the title, or 640
    /// for the quantiles.
    /// Wider when graphs sit on the board axis and their names would not all be labelled.
    pub fn size(&self) -> (u32, u32) {
        if !self.histograms() {
            return (width_for_places(&places(&self.groups), 1050, 150), 640);
        }
        let (rows, _) = self.grid();
        (1050, rows as u32 * 320 + 140)
    }

    /// Write the figure and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, self.size())?;
        self.table().write(&csv_path(path))
    }

    /// Histogram bins (histogram figure) or quantiles per board (quantile figure).
    pub fn table(&self) -> Table {
        if self.histograms() {
            let (e, log) = self.shared_edges();
            let mut t = Table::new(&[
                "configuration",
                "board",
                "bin_low",
                "bin_high",
                "tour_trials",
                "other_trials",
                "trials",
            ]);
            for g in self.panels() {
                let h = histogram_on(&g.iterations, e.clone(), log);
                for i in 0..BINS {
                    t.push(vec![
                        g.id.display(),
                        g.place.to_string(),
                        num(Some(h.edges[i])),
                        num(Some(h.edges[i + 1])),
                        h.tours[i].to_string(),
                        h.others[i].to_string(),
                        g.iterations.len().to_string(),
                    ]);
                }
            }
            t
        } else {
            let mut t = Table::new(&[
                "configuration",
                "board",
                "trials",
                "p10",
                "p25",
                "median",
                "p75",
                "p90",
            ]);
            for g in self.panels() {
                let q = quantiles(g);
                let mut row = vec![
                    g.id.display(),
                    g.place.to_string(),
                    g.iterations.len().to_string(),
                ];
                row.extend(q.iter().map(|v| num(Some(*v))));
                t.push(row);
            }
            t
        }
    }

    fn shared_edges(&self) -> (Vec<f64>, bool) {
        edges(
            self.groups
                .iter()
                .flat_map(|g| g.iterations.iter().map(|v| v.0)),
        )
    }

    /// Many panels: median, quartiles (thick) and 10th–90th percentiles (thin) per board,
    /// one series per configuration.
    fn draw_quantiles<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        heading(
            root,
            "Iterations per network trial",
            format!(
                "{}: median (dot), quartiles (thick), 10th–90th percentiles (thin) of the iterations column",
                self.source
            ),
        )?;
        let bs = places(&self.groups);
        let ids = spec_order(&self.groups);
        let qs: Vec<(usize, usize, [f64; 5])> = self
            .groups
            .iter()
            .map(|g| {
                let c = ids.iter().position(|i| *i == g.id).unwrap_or(0);
                let x = bs.iter().position(|b| *b == g.place).unwrap_or(0);
                (c, x, quantiles(g))
            })
            .collect();
        let lo = qs
            .iter()
            .map(|q| q.2[0])
            .fold(f64::INFINITY, f64::min)
            .max(1.0);
        let hi = qs.iter().map(|q| q.2[4]).fold(1.0, f64::max).max(lo + 1.0);
        let log = hi / lo > 30.0;
        let items: Vec<(Mark, String)> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (Mark::Line(palette::series(i)), id.display()))
            .collect();
        let body = above_legend(root, &items, 18, (72, 10, 20));
        let nb = bs.len();
        let x = axes::board_axis(&bs, body.dim_in_pixel().0.saturating_sub(110));
        let xfmt =
            |x: &f64| axes::category_index(*x, nb).map_or_else(String::new, |i| bs[i].to_string());
        let desc = if log {
            "iterations per trial (log scale)"
        } else {
            "iterations per trial"
        };
        if log {
            let (lo, hi) = (lo / 1.5, hi * 1.5);
            let mut chart = cartesian(
                &body,
                10,
                80,
                x,
                axes::ticked((lo..hi).log_scale(), axes::log_ticks(lo, hi)),
            )?;
            mesh(&mut chart, places_title(&bs), desc)
                .disable_x_mesh()
                .x_label_formatter(&xfmt)
                .y_label_formatter(&|y| axes::number(*y))
                .draw()
                .map_err(de)?;
            draw_quantile_series(&mut chart, &qs, ids.len())?;
        } else {
            let hi = hi * 1.08;
            let mut chart = cartesian(
                &body,
                10,
                80,
                x,
                axes::ticked(0f64..hi, axes::linear_ticks(0.0, hi, 6, true)),
            )?;
            mesh(&mut chart, places_title(&bs), desc)
                .disable_x_mesh()
                .x_label_formatter(&xfmt)
                .y_label_formatter(&|y| axes::number(*y))
                .draw()
                .map_err(de)?;
            draw_quantile_series(&mut chart, &qs, ids.len())?;
        }
        legend_below(root, &items, 18)
    }
}

/// Whiskers (10th–90th percentile), thick bars (quartiles) and median dots, dodged per
/// configuration; `qs` holds (configuration index, board index, quantiles).
fn draw_quantile_series<DB: DrawingBackend, X, Y>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    qs: &[(usize, usize, [f64; 5])],
    configs: usize,
) -> DrawResult
where
    X: Ranged<ValueType = f64>,
    Y: Ranged<ValueType = f64>,
{
    let k = configs as f64;
    for &(c, x, q) in qs {
        let colour = palette::series(c);
        let x = x as f64 + (c as f64 - (k - 1.0) / 2.0) * (0.6 / k.max(1.0));
        chart
            .draw_series([
                PathElement::new(vec![(x, q[0]), (x, q[4])], colour.stroke_width(1)),
                PathElement::new(vec![(x, q[1]), (x, q[3])], colour.stroke_width(5)),
            ])
            .map_err(de)?;
        chart
            .draw_series(std::iter::once(Circle::new((x, q[2]), 5, WHITE.filled())))
            .map_err(de)?;
        chart
            .draw_series(std::iter::once(Circle::new(
                (x, q[2]),
                5,
                colour.stroke_width(2),
            )))
            .map_err(de)?;
    }
    Ok(())
}

fn median(values: &[(u64, bool)]) -> f64 {
    let mut v: Vec<u64> = values.iter().map(|x| x.0).collect();
    v.sort_unstable();
    quantile(&v, 0.5)
}

fn panel<DB: DrawingBackend, X>(
    area: &DrawingArea<DB, Shift>,
    x: X,
    g: &Group,
    hist: &Histogram,
    y_max: f64,
) -> DrawResult
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let n = g.iterations.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!(
                "{} {}, median {}",
                g.id.display(),
                g.place,
                axes::number(median(&g.iterations))
            ),
            (FONT, 17).into_font(),
        )
        .margin(8)
        .x_label_area_size(46)
        .y_label_area_size(58)
        .build_cartesian_2d(
            x,
            axes::ticked(0f64..y_max, axes::linear_ticks(0.0, y_max, 4, false)),
        )
        .map_err(de)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_label_formatter(&|y| axes::number(*y))
        .x_label_formatter(&|x| axes::number(*x))
        .x_desc(if hist.log {
            "iterations (log scale)"
        } else {
            "iterations"
        })
        .y_desc("% of trials")
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 17))
        .bold_line_style(RGBColor(0xE0, 0xE0, 0xE0))
        .draw()
        .map_err(de)?;
    for i in 0..BINS {
        let (x0, x1) = (hist.edges[i], hist.edges[i + 1]);
        let (t, o) = (
            100.0 * hist.tours[i] as f64 / n,
            100.0 * hist.others[i] as f64 / n,
        );
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

impl Figure for IterationHistograms {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        if !self.histograms() {
            return self.draw_quantiles(root);
        }
        heading(
            root,
            "Iterations per network trial",
            format!(
                "{}: the records' iterations column (steps or sweeps per trial); {}; shared axes",
                self.source,
                super::trials_phrase(self.groups.iter().map(|g| g.trials), "panel")
            ),
        )?;
        let body = root.margin(72, 50, 10, 10);
        let areas = body.split_evenly(self.grid());
        let (e, log) = self.shared_edges();
        let hists: Vec<(&Group, Histogram)> = self
            .panels()
            .into_iter()
            .map(|g| (g, histogram_on(&g.iterations, e.clone(), log)))
            .collect();
        let y_max = hists
            .iter()
            .flat_map(|(g, h)| {
                let n = g.iterations.len().max(1) as f64;
                (0..BINS).map(move |i| 100.0 * (h.tours[i] + h.others[i]) as f64 / n)
            })
            .fold(1.0, f64::max)
            * 1.08;
        let (lo, hi) = (e[0], e[BINS]);
        for (area, (g, hist)) in areas.iter().zip(&hists) {
            if log {
                let ticks = axes::log_ticks_at_most(lo, hi, 5);
                panel(
                    area,
                    axes::ticked((lo..hi).log_scale(), ticks),
                    g,
                    hist,
                    y_max,
                )?;
            } else {
                let ticks = axes::linear_ticks(lo, hi, 4, true);
                panel(area, axes::ticked(lo..hi, ticks), g, hist, y_max)?;
            }
        }
        legend_below(
            root,
            &[
                (Mark::Box(palette::BLUE), "trial found a tour".into()),
                (Mark::Box(palette::VERMILLION), "no tour".into()),
            ],
            18,
        )
    }
}

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

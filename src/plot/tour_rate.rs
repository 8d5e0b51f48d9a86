//! p(tour): the share of network trials that ended in a tour, per board, on a log axis
//! (rates from 100% down to a few in ten thousand stay readable), with Wilson 95%
//! intervals; one line per network configuration in spec order, and published rates
//! (for example Parberry 1996, Table 1) as black diamonds with their own intervals.
//! A configuration with no tour on a board shows the upper end of its interval as a
//! downward triangle.

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{Mark, above_legend, legend_below};
use super::data::{Group, Place, Share, places_title, spec_order, width_for_places};
use super::palette::{self, INK};
use super::panel::{cartesian, interval_bar, mesh, series_line};
use super::published::Published;
use super::table::{Table, csv_path, num};
use super::{DrawResult, Figure, axes, de, render};

/// Network groups and optional published rates.
#[derive(Debug, Clone)]
pub struct TourRate {
    pub source: String,
    pub groups: Vec<Group>,
    pub published: Option<Published>,
}

impl TourRate {
    /// Keep the network groups (not network+merge, which always ends in a tour); `None`
    /// if there are none.
    pub fn new(
        source: impl Into<String>,
        groups: &[Group],
        published: Option<Published>,
    ) -> Option<TourRate> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.id.is_network())
            .cloned()
            .collect();
        (!groups.is_empty()).then(|| TourRate {
            source: source.into(),
            groups,
            published,
        })
    }

    /// Places of the measured groups and boards of the published rates, smallest first.
    fn boards(&self) -> Vec<Place> {
        let mut v: Vec<Place> = self.groups.iter().map(|g| g.place.clone()).collect();
        if let Some(p) = &self.published {
            v.extend(p.rates.iter().map(|r| Place::Board(r.board)));
        }
        v.sort();
        v.dedup();
        v
    }

    /// Every series: its name and (board, share) points.
    fn series(&self) -> Vec<(String, Vec<(Place, Share)>)> {
        let mut v: Vec<(String, Vec<(Place, Share)>)> = spec_order(&self.groups)
            .into_iter()
            .map(|id| {
                let mut pts: Vec<(Place, Share)> = self
                    .groups
                    .iter()
                    .filter(|g| g.id == id)
                    .map(|g| (g.place.clone(), g.share(&["tour"])))
                    .collect();
                pts.sort_by(|a, b| a.0.cmp(&b.0));
                (id.display(), pts)
            })
            .collect();
        if let Some(p) = &self.published {
            v.push((
                format!("{} (published)", p.name),
                p.rates
                    .iter()
                    .map(|r| (Place::Board(r.board), Share::wilson(r.success, r.trials)))
                    .collect(),
            ));
        }
        v
    }

    /// 1050 x 640 pixels; wider when graphs sit on the board axis and their names would
    /// not all be labelled (a graph is not one of a sequence a reader can fill in).
    pub fn size(&self) -> (u32, u32) {
        (width_for_places(&self.boards(), 1050, 150), 640)
    }

    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, self.size())?;
        self.table().write(&csv_path(path))
    }

    /// One row per series and board.
    pub fn table(&self) -> Table {
        let mut t = Table::new(&[
            "series",
            "board",
            "trials",
            "tours",
            "p_tour",
            "wilson_low",
            "wilson_high",
        ]);
        for (name, pts) in self.series() {
            for (b, s) in pts {
                t.push(vec![
                    name.clone(),
                    b.to_string(),
                    s.n.to_string(),
                    s.k.to_string(),
                    num(Some(s.p)),
                    num(Some(s.low)),
                    num(Some(s.high)),
                ]);
            }
        }
        t
    }
}

impl Figure for TourRate {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let bs = self.boards();
        let series = self.series();
        let lo = series
            .iter()
            .flat_map(|(_, p)| p.iter())
            .flat_map(|(_, s)| [s.low, s.p, s.high])
            .filter(|v| *v > 0.0)
            .fold(1.0f64, f64::min);
        let (lo, hi) = (lo / 2.0, 1.5);
        let per = trials_phrase(
            self.groups.iter().map(|g| g.trials),
            "configuration and board",
        );
        heading(
            root,
            "Share of network trials that end in a tour",
            format!(
                "{}: {per}; log axis; bars: Wilson 95% intervals; ▽ no tour (upper end shown)",
                self.source
            ),
        )?;
        let nb = bs.len();
        let published = self.published.is_some();
        let is_pub = |i: usize| published && i + 1 == series.len();
        let legend: Vec<(Mark, String)> = series
            .iter()
            .enumerate()
            .map(|(i, (name, _))| {
                let mark = if is_pub(i) {
                    Mark::Line(INK)
                } else {
                    Mark::series(i)
                };
                (mark, name.clone())
            })
            .collect();
        let body = above_legend(root, &legend, 18, (70, 10, 20));
        let ticks: Vec<f64> = axes::log_ticks(lo, 1.0);
        let mut chart = cartesian(
            &body,
            10,
            90,
            axes::board_axis(&bs, body.dim_in_pixel().0.saturating_sub(120)),
            axes::ticked((lo..hi).log_scale(), ticks),
        )?;
        let fmt =
            |x: &f64| axes::category_index(*x, nb).map_or_else(String::new, |i| bs[i].to_string());
        mesh(&mut chart, places_title(&bs), "p(tour), log scale")
            .disable_x_mesh()
            .x_label_formatter(&fmt)
            .y_label_formatter(&|y| axes::percent(*y))
            .draw()
            .map_err(de)?;
        let k = series.len() as f64;
        for (i, (_, pts)) in series.iter().enumerate() {
            let is_pub = is_pub(i);
            let colour = if is_pub { INK } else { palette::series(i) };
            let dodge = (i as f64 - (k - 1.0) / 2.0) * (0.4 / k.max(1.0));
            let at = |b: &Place| bs.iter().position(|x| x == b).unwrap_or(0) as f64 + dodge;
            let dots: Vec<(f64, f64)> = pts
                .iter()
                .filter(|(_, s)| s.k > 0)
                .map(|(b, s)| (at(b), s.p))
                .collect();
            let line: Vec<(f64, f64)> = pts
                .iter()
                .filter(|(b, s)| s.k > 0 && b.is_board())
                .map(|(b, s)| (at(b), s.p))
                .collect();
            if is_pub {
                chart
                    .draw_series(LineSeries::new(line.clone(), colour.stroke_width(1)))
                    .map_err(de)?;
            } else {
                series_line(&mut chart, line.clone(), i, 2)?;
            }
            for (b, s) in pts {
                let x = at(b);
                interval_bar(&mut chart, x, s, lo, 0.04, colour)?;
            }
            if is_pub {
                chart
                    .draw_series(dots.iter().map(|&p| {
                        EmptyElement::at(p)
                            + Polygon::new(vec![(0, -8), (8, 0), (0, 8), (-8, 0)], WHITE.filled())
                            + PathElement::new(
                                vec![(0, -8), (8, 0), (0, 8), (-8, 0), (0, -8)],
                                INK.stroke_width(2),
                            )
                    }))
                    .map_err(de)?;
            } else {
                chart
                    .draw_series(dots.iter().map(|&p| Circle::new(p, 5, colour.filled())))
                    .map_err(de)?;
            }
        }
        legend_below(root, &legend, 18)
    }
}

//! Outcome shares versus board size, one panel per network preset: stacked bars of
//! `tour`, `multiple-cycles`, `stable-not-degree-two` and `iteration-cap` (any other
//! outcome name is stacked on top as "other"). The interval bars are Wilson 95% intervals
//! of the cumulative share at each boundary between two stacked outcomes (for example the
//! boundary above `tour` carries the interval of the tour share, the one above
//! `multiple-cycles` the interval of "a degree-2 cover"): each cumulative share is itself
//! a binomial proportion, so the interval is exact in meaning.

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::board::{legend_row, Mark};
use super::data::{boards, Group, Share};
use super::palette::{self, INK};
use super::{de, render, DrawResult, FONT};
use crate::board::Board;
use crate::network::Termination;

/// Stacked outcomes, bottom first, with their legend labels.
pub const STACK: [(&str, &str); 5] = [
    ("tour", "tour"),
    ("multiple-cycles", "several cycles"),
    ("stable-not-degree-two", "stable, not degree 2"),
    ("iteration-cap", "iteration cap (not settled)"),
    ("other", "other"),
];

/// The network groups of an experiment, one panel per preset.
#[derive(Debug, Clone)]
pub struct OutcomeShares {
    /// Title context, for example the results folder name.
    pub source: String,
    pub groups: Vec<Group>,
}

impl OutcomeShares {
    /// Keep the network groups of `groups`; `None` if there are none.
    pub fn new(source: impl Into<String>, groups: &[Group]) -> Option<OutcomeShares> {
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.id.is_neural())
            .cloned()
            .collect();
        (!groups.is_empty()).then(|| OutcomeShares {
            source: source.into(),
            groups,
        })
    }

    fn presets(&self) -> Vec<String> {
        super::data::preset_order(self.groups.iter().map(|g| g.id.short()))
    }

    /// Panels per row: up to three, fewer when each panel holds many boards.
    fn columns(&self) -> usize {
        let per_row = if boards(&self.groups).len() > 6 { 1 } else { 3 };
        self.presets().len().clamp(1, per_row)
    }

    pub fn size(&self) -> (u32, u32) {
        let n = self.presets().len();
        let cols = self.columns();
        let rows = n.div_ceil(cols) as u32;
        let panel_w = (boards(&self.groups).len() as u32 * 80 + 140).max(520);
        ((cols as u32 * panel_w + 20).max(1100), rows * 440 + 140)
    }

    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        render(self, path, self.size())
    }

    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        let presets = self.presets();
        let per = trials_phrase(self.groups.iter().map(|g| g.trials), "preset and board");
        heading(
            root,
            "How network trials end, by board size",
            format!(
                "{}: {per}; bars: Wilson 95% intervals of the cumulative share at each boundary",
                self.source
            ),
        )?;
        let cols = self.columns();
        let rows = presets.len().div_ceil(cols);
        let body = root.margin(76, 56, 10, 10);
        let areas = body.split_evenly((rows, cols));
        for (area, preset) in areas.iter().zip(&presets) {
            let groups: Vec<&Group> = self
                .groups
                .iter()
                .filter(|g| &g.id.short() == preset)
                .collect();
            panel(area, preset, &groups)?;
        }
        let used: Vec<&str> = STACK
            .iter()
            .map(|(k, _)| *k)
            .filter(|k| self.groups.iter().any(|g| stacked_count(g, k) > 0))
            .collect();
        let items: Vec<(Mark, String)> = STACK
            .iter()
            .filter(|(k, _)| used.contains(k) || *k != "other")
            .map(|(k, label)| (Mark::Box(palette::outcome(k)), label.to_string()))
            .chain(std::iter::once((
                Mark::Line(INK),
                "95% interval".to_string(),
            )))
            .collect();
        legend_row(
            root,
            &items,
            &(FONT, 17).into_font().color(&INK),
            h as i32 - 26,
            w as i32,
        )
    }
}

/// Trials of `g` in stack category `key` ("other" collects unknown outcome names).
fn stacked_count(g: &Group, key: &str) -> u64 {
    if key == "other" {
        g.outcomes
            .iter()
            .filter(|(name, _)| !Termination::NAMES.contains(&name.as_str()))
            .map(|(_, c)| c)
            .sum()
    } else {
        g.count(key)
    }
}

/// The category axis for `n` boards: at least three slots wide, so that one board does
/// not make one giant bar.
pub(crate) fn x_range(n: usize) -> std::ops::Range<f64> {
    let pad = (3usize.saturating_sub(n)) as f64 / 2.0;
    -0.5 - pad..n as f64 - 0.5 + pad
}

/// 950 -> "950", 20000 -> "20k", 1500000 -> "1.5M".
fn compact(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=999_999 => format!("{}k", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

fn board_label(boards: &[Board], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 || i as usize >= boards.len() {
        return String::new();
    }
    boards[i as usize].to_string()
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    preset: &str,
    groups: &[&Group],
) -> DrawResult {
    let owned: Vec<Group> = groups.iter().map(|g| (*g).clone()).collect();
    let bs = boards(&owned);
    let nb = bs.len();
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("preset {preset}"),
            (FONT, 21).into_font().style(FontStyle::Bold),
        )
        .margin(10)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(x_range(nb), 0f64..109.0)
        .map_err(de)?;
    let fmt = |x: &f64| board_label(&bs, *x);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(nb.max(1))
        .x_label_formatter(&fmt)
        .y_labels(12)
        .y_label_formatter(&|y| {
            if *y <= 100.0 {
                format!("{y:.0}")
            } else {
                String::new()
            }
        })
        .x_desc("board")
        .y_desc("share of trials (%)")
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .light_line_style(WHITE)
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .draw()
        .map_err(de)?;
    let half = 0.34;
    for (i, b) in bs.iter().enumerate() {
        let Some(g) = groups.iter().find(|g| g.board == *b) else {
            continue;
        };
        let x = i as f64;
        let mut cum = 0u64;
        let mut boundaries = Vec::new();
        for (key, _) in STACK {
            let k = stacked_count(g, key);
            if k == 0 {
                continue;
            }
            let y0 = 100.0 * cum as f64 / g.trials as f64;
            cum += k;
            let y1 = 100.0 * cum as f64 / g.trials as f64;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x - half, y0), (x + half, y1)],
                    palette::outcome(key).filled(),
                )))
                .map_err(de)?;
            boundaries.push(cum);
        }
        // Interval bars at each boundary between two stacked outcomes, plus the tour
        // share when every trial or no trial is a tour.
        let mut cuts: Vec<u64> = boundaries
            .iter()
            .copied()
            .filter(|&c| c < g.trials)
            .collect();
        if g.tours() == 0 || g.tours() == g.trials {
            cuts.push(g.tours());
        }
        cuts.sort_unstable();
        cuts.dedup();
        // Side by side, so that intervals of nearby boundaries do not overprint.
        let m = cuts.len() as f64;
        for (j, c) in cuts.into_iter().enumerate() {
            let s = Share::wilson(c, g.trials);
            let (lo, hi) = (100.0 * s.low, 100.0 * s.high);
            let x = x + (j as f64 - (m - 1.0) / 2.0) * 0.1;
            let cap = 0.05;
            chart
                .draw_series([
                    PathElement::new(vec![(x, lo), (x, hi)], INK.stroke_width(2)),
                    PathElement::new(vec![(x - cap, lo), (x + cap, lo)], INK.stroke_width(2)),
                    PathElement::new(vec![(x - cap, hi), (x + cap, hi)], INK.stroke_width(2)),
                ])
                .map_err(de)?;
        }
        chart
            .draw_series(std::iter::once(Text::new(
                format!("n={}", compact(g.trials)),
                (x, 101.5),
                (FONT, 13)
                    .into_font()
                    .color(&INK)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )))
            .map_err(de)?;
    }
    Ok(())
}

crate::impl_figure!(OutcomeShares);

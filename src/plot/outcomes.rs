//! Outcome shares versus board size, one panel per network preset: stacked bars of
//! `tour`, `multiple-cycles`, `stable-not-degree-two` and `iteration-cap` (any other
//! outcome name is stacked on top as "other"). The interval bars are Wilson 95% intervals
//! of the cumulative share at each boundary between two stacked outcomes (for example the
//! boundary above `tour` carries the interval of the tour share, the one above
//! `multiple-cycles` the interval of "a degree-2 cover"): each cumulative share is itself
//! a binomial proportion, so the interval is exact in meaning.
//!
//! Panels come in the spec's order and are named by the spec entry. When there are
//! fewer boards than configurations, the panels are per board instead, one bar per
//! configuration (a spec on one board gets one grouped chart). network+merge groups
//! whose every trial ended in a tour carry no information here and are left out; the
//! tour share itself, on a log axis, is the `tour_rate` figure.

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::board::{Mark, legend_below};

use super::data::{Group, Share, SolverId, places, spec_order};
use super::palette::{self, INK};
use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, axes, de, render};
use crate::network::Termination;

/// Stacked outcomes, bottom first, with their legend labels.
pub(crate) const STACK: [(&str, &str); 5] = [
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
    /// The network groups drawn, one per configuration and board.
    pub groups: Vec<Group>,
}

impl OutcomeShares {
    /// Keep the network groups of `groups`, less network+merge configurations that
    /// found a tour in every trial on every board; `None` if nothing is left.
    pub fn new(source: impl Into<String>, groups: &[Group]) -> Option<OutcomeShares> {
        let always = |id: &SolverId| {
            id.is_network_merge()
                && groups
                    .iter()
                    .filter(|g| &g.id == id)
                    .all(|g| g.tours() == g.trials)
        };
        let groups: Vec<Group> = groups
            .iter()
            .filter(|g| g.id.is_neural() && !always(&g.id))
            .cloned()
            .collect();
        (!groups.is_empty()).then(|| OutcomeShares {
            source: source.into(),
            groups,
        })
    }

    /// Configurations in spec order.
    fn configs(&self) -> Vec<SolverId> {
        spec_order(&self.groups)
    }

    /// Panels per board (bars per configuration) when there are fewer boards than
    /// configurations; else panels per configuration (bars per board).
    fn by_board(&self) -> bool {
        places(&self.groups).len() < self.configs().len()
    }

    /// The title by what the bars stand for: boards, configurations on one board, or
    /// configurations per board.
    fn title(&self) -> String {
        match places(&self.groups).as_slice() {
            [b] => format!("How network trials end on {b}, by configuration"),
            _ if self.by_board() => "How network trials end, by configuration and board".into(),
            _ => "How network trials end, by board size".into(),
        }
    }

    /// (panels, bars per panel).
    fn shape(&self) -> (usize, usize) {
        let (b, c) = (places(&self.groups).len(), self.configs().len());
        if self.by_board() { (b, c) } else { (c, b) }
    }

    /// Panels per row: two, or one when each panel holds many bars.
    fn columns(&self) -> usize {
        let (panels, bars) = self.shape();
        let per_row = if bars > 4 { 1 } else { 2 };
        panels.clamp(1, per_row)
    }

    /// Pixel size: 1050 wide, 400 high per row of panels plus the title.
    pub fn size(&self) -> (u32, u32) {
        let rows = self.shape().0.div_ceil(self.columns()) as u32;
        (1050, rows * 400 + 140)
    }

    /// Write the figure and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, self.size())?;
        self.table().write(&csv_path(path))
    }

    /// One row per configuration and board: counts and shares of each outcome.
    pub fn table(&self) -> Table {
        let mut header = vec!["configuration", "board", "trials"];
        for (k, _) in STACK {
            header.push(k);
        }
        header.extend(["p_tour", "p_tour_low", "p_tour_high"]);
        let mut t = Table::new(&header);
        for id in self.configs() {
            for b in places(&self.groups) {
                let Some(g) = self.groups.iter().find(|g| g.id == id && g.place == b) else {
                    continue;
                };
                let s = g.share(&["tour"]);
                let mut row = vec![id.display(), b.to_string(), g.trials.to_string()];
                row.extend(STACK.iter().map(|(k, _)| stacked_count(g, k).to_string()));
                row.extend([num(Some(s.p)), num(Some(s.low)), num(Some(s.high))]);
                t.push(row);
            }
        }
        t
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

/// The whole words every name starts with, when every name has more after them
/// (`parberry` of `parberry c=2 s=0` and `parberry c=3 s=1`).
fn common_words(groups: &[(String, &Group)]) -> Option<String> {
    let first: Vec<&str> = groups.first()?.0.split(' ').collect();
    let shared = groups.iter().skip(1).fold(first.len(), |n, (name, _)| {
        first
            .iter()
            .zip(name.split(' '))
            .take(n)
            .take_while(|(a, b)| **a == *b)
            .count()
    });
    let shortest = groups
        .iter()
        .map(|(name, _)| name.split(' ').count())
        .min()?;
    (groups.len() > 1 && shared > 0 && shared < shortest).then(|| first[..shared].join(" "))
}

fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    x_desc: &str,
    groups: &[(String, &Group)],
) -> DrawResult {
    let nb = groups.len();
    // Every configuration keeps its label: when the names do not fit side by side at the
    // tick font, the words they all start with move to the axis description, and the
    // labels get a smaller font (never below 10 px) instead of being thinned, since a
    // bar without a name cannot be read.
    let axis_width = area.dim_in_pixel().0.saturating_sub(94);
    let fits = |groups: &[(String, &Group)]| {
        let longest = groups.iter().map(|g| g.0.chars().count()).max();
        axes::labels_that_fit(axis_width, longest.unwrap_or(1)) >= nb
    };
    let shortened: Vec<(String, &Group)>;
    let described: String;
    let (groups, x_desc) = match common_words(groups) {
        Some(prefix) if !fits(groups) => {
            shortened = groups
                .iter()
                .map(|(name, g)| (name[prefix.len()..].trim_start().to_string(), *g))
                .collect();
            described = format!("{x_desc}, all {prefix}");
            (shortened.as_slice(), described.as_str())
        }
        _ => (groups, x_desc),
    };
    let longest = groups
        .iter()
        .map(|g| g.0.chars().count())
        .max()
        .unwrap_or(1);
    let label_px = if axes::labels_that_fit(axis_width, longest) >= nb {
        18
    } else {
        // About half an em a character as plotters draws DejaVu Sans, plus a gap.
        let per_label = f64::from(axis_width) / nb as f64 - 8.0;
        (per_label / (0.5 * longest as f64)).clamp(10.0, 18.0) as u32
    };
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 20).into_font().style(FontStyle::Bold))
        .margin(10)
        .x_label_area_size(48)
        .y_label_area_size(64)
        .build_cartesian_2d(
            axes::ticked(axes::category_range(nb), axes::categories(nb, nb)),
            axes::ticked(0f64..109.0, (0..=5).map(|i| i as f64 * 20.0).collect()),
        )
        .map_err(de)?;
    let fmt =
        |x: &f64| axes::category_index(*x, nb).map_or_else(String::new, |i| groups[i].0.clone());
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_label_formatter(&fmt)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .x_desc(x_desc)
        .y_desc("share of trials (%)")
        .axis_desc_style((FONT, 20))
        .y_label_style((FONT, 18))
        .x_label_style((FONT, label_px))
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .draw()
        .map_err(de)?;
    let half = 0.34;
    // The trials over every bar, in a font that fits the bar's slot (15 px at most).
    let widest = groups
        .iter()
        .map(|(_, g)| format!("n={}", axes::count(g.trials)).chars().count())
        .max()
        .unwrap_or(1);
    let slot = f64::from(axis_width) / nb.max(1) as f64 - 6.0;
    let n_px = (slot / (0.62 * widest as f64)).clamp(9.0, 15.0) as u32;
    for (i, (_, g)) in groups.iter().enumerate() {
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
                format!("n={}", axes::count(g.trials)),
                (x, 101.5),
                (FONT, n_px)
                    .into_font()
                    .color(&INK)
                    .pos(Pos::new(HPos::Center, VPos::Bottom)),
            )))
            .map_err(de)?;
    }
    Ok(())
}

impl Figure for OutcomeShares {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let configs = self.configs();
        let per = trials_phrase(
            self.groups.iter().map(|g| g.trials),
            "configuration and board",
        );
        heading(
            root,
            self.title(),
            format!(
                "{}: {per}; bars: Wilson 95% intervals of the cumulative share at each boundary",
                self.source
            ),
        )?;
        let body = root.margin(72, 50, 10, 10);
        let cols = self.columns();
        let (panels, _) = self.shape();
        let areas = body.split_evenly((panels.div_ceil(cols), cols));
        if self.by_board() {
            for (area, b) in areas.iter().zip(places(&self.groups)) {
                let groups: Vec<(String, &Group)> = configs
                    .iter()
                    .filter_map(|id| {
                        let g = self.groups.iter().find(|g| &g.id == id && g.place == b)?;
                        Some((id.display(), g))
                    })
                    .collect();
                panel(area, &b.heading(), "configuration", &groups)?;
            }
        } else {
            for (area, id) in areas.iter().zip(&configs) {
                let mut groups: Vec<(String, &Group)> = self
                    .groups
                    .iter()
                    .filter(|g| &g.id == id)
                    .map(|g| (g.place.to_string(), g))
                    .collect();
                groups.sort_by(|a, b| a.1.place.cmp(&b.1.place));
                panel(area, &id.display(), "board", &groups)?;
            }
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
        legend_below(root, &items, 18)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_that_share_their_first_words_lose_them() {
        let g = Group {
            id: SolverId {
                solver: crate::solvers::SolverFamily::Network,
                variant: None,
                entry: None,
            },
            place: crate::plot::data::Place::Board("6x6".parse().unwrap()),
            geometry: None,
            trials: 1,
            outcomes: Default::default(),
            iterations: Vec::new(),
            total_time_ns: 0.0,
            timed_trials: 0,
            times: Vec::new(),
            first_row: 0,
        };
        let common = |names: &[&str]| {
            let named: Vec<(String, &Group)> = names.iter().map(|n| (n.to_string(), &g)).collect();
            common_words(&named)
        };
        assert_eq!(
            common(&["parberry c=2 s=0", "parberry c=3 s=1"]),
            Some("parberry".into())
        );
        assert_eq!(
            common(&["parberry c=2 s=0", "parberry c=2 s=1"]),
            Some("parberry c=2".into())
        );
        assert_eq!(common(&["parberry", "parberry c=2"]), None);
        assert_eq!(common(&["parberry", "brant"]), None);
        assert_eq!(common(&["parberry c=2"]), None);
    }

    #[test]
    fn the_title_names_what_the_bars_stand_for() {
        let g = |board: &str, variant: &str| Group {
            id: SolverId {
                solver: crate::solvers::SolverFamily::Network,
                variant: Some(variant.into()),
                entry: None,
            },
            place: crate::plot::data::Place::Board(board.parse().unwrap()),
            geometry: None,
            trials: 10,
            outcomes: [
                ("tour".to_string(), 3u64),
                ("multiple-cycles".to_string(), 7),
            ]
            .into(),
            iterations: Vec::new(),
            total_time_ns: 0.0,
            timed_trials: 0,
            times: Vec::new(),
            first_row: 0,
        };
        let one = OutcomeShares::new("s", &[g("8x8", "parberry"), g("8x8", "brant")]).unwrap();
        assert_eq!(
            one.title(),
            "How network trials end on 8x8, by configuration"
        );
        let sizes = OutcomeShares::new("s", &[g("6x6", "parberry"), g("8x8", "parberry")]).unwrap();
        assert_eq!(sizes.title(), "How network trials end, by board size");
    }
}

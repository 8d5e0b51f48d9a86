//! Time per tour: total wall time of a group's trials divided by the tours they found,
//! on a logarithmic axis, per board size; one line per network configuration (circles)
//! and per classical solver (squares). A group that found no tour has no point.
//!
//! Every point carries a bootstrap 95% interval (`Group::time_per_tour_interval`):
//! the trials resampled with replacement, so both the spread of trial times and the
//! uncertainty of the tour count enter it. It measures the variation within one run;
//! a loaded machine can move whole runs further (rerun to see that). An interval without
//! an upper end (more than 2.5% of resamples found no tour) ends in an upward arrow
//! inside the plot ([`upper_end`]), explained beside the legend.
//!
//! A `network+merge` configuration that ran on tiles (known from the run's cells,
//! [`CostPerTour::with_tiling`]) gets a note on how the tiles are cut: the last tile of
//! each row and column takes the remainder, which makes the cost a sawtooth over boards.

use super::{heading, trials_phrase};
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::board::{Mark, draw_mark};
use super::data::{
    BOOTSTRAP_RESAMPLES, Group, Records, SolverId, places, places_title, spec_order,
    width_for_places,
};
use super::palette::{self, INK};
use super::panel::{cartesian, mesh, series_line};
use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, axes, de, render};
use crate::board::Board;
use crate::experiment::Spec;
use crate::solvers::SolverKind;

/// Width of the legend column, in pixels.
const LEGEND_WIDTH: i32 = 330;
/// Width of the side panel the legend is drawn in: the legend column less the figure's
/// 10-pixel margins left and right (the body takes the rest).
const SIDE_WIDTH: i32 = LEGEND_WIDTH - 20;
/// Pixels from the figure's top to the side panel's.
const SIDE_TOP: u32 = 70;

/// Timed groups of an experiment.
#[derive(Debug, Clone)]
pub struct CostPerTour {
    /// Title context, for example the results folder name.
    pub source: String,
    /// Name of the timing column the times came from.
    pub time_column: String,
    /// The groups with a time for every trial, one per configuration and board.
    pub groups: Vec<Group>,
    /// The `network+merge` configurations that ran on tiles ([`CostPerTour::with_tiling`]).
    pub tiling: Vec<Tiling>,
}

/// A `network+merge` configuration whose cover came from tiles on some of its boards.
#[derive(Debug, Clone, PartialEq)]
pub struct Tiling {
    /// The configuration.
    pub id: SolverId,
    /// The tile side.
    pub side: usize,
    /// The smallest board it cut into tiles.
    pub from: Board,
}

/// Where an interval bar ends at the top, on a log axis from `bottom` to `top`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum UpperEnd {
    /// At the interval's upper end (capped).
    At(f64),
    /// No upper end: the bar runs up to an arrow whose tip is `tip`, inside the plot.
    Unbounded {
        /// The arrow's tip, below `top`.
        tip: f64,
    },
}

/// Share of the axis height (log scale) between an unbounded bar's arrow tip and the top.
const ARROW_GAP: f64 = 0.03;

/// Where the bar of an interval with upper end `high` ends on a log axis from `bottom`
/// to `top`: at `high`, or, without one, at an arrow tip 3% of the axis below
/// the top, so that the bar stays inside the plot and is seen to be open.
pub fn upper_end(high: Option<f64>, bottom: f64, top: f64) -> UpperEnd {
    match high {
        Some(h) => UpperEnd::At(h),
        None => UpperEnd::Unbounded {
            tip: top * (bottom / top).powf(ARROW_GAP),
        },
    }
}

/// One plotted series: a solver configuration's points (board index, seconds per
/// tour, interval) and how many of its boards had no tour.
struct Series {
    id: SolverId,
    index: usize,
    colour: RGBColor,
    points: Vec<(usize, f64, f64, Option<f64>)>,
    ran: usize,
}

/// Whether some interval of `series` has no upper end (its bar ends in an arrow).
fn open(series: &[Series]) -> bool {
    series
        .iter()
        .any(|s| s.points.iter().any(|p| p.3.is_none()))
}

/// The side legend laid out: its lines and where they go, in pixels from the side
/// panel's top. Text is measured as every plotters backend measures it (the font's
/// layout box), so the figure's height is known before it is drawn.
struct Legend<'a> {
    /// The series with a line, top to bottom: each with its lines of text, the marker
    /// beside the first.
    entries: Vec<(&'a Series, Vec<(String, i32)>)>,
    /// The notes' lines, in the smaller grey font.
    notes: Vec<(String, i32)>,
    /// Where the legend ends.
    end: i32,
}

/// The legend's font for the series' names.
fn legend_font() -> TextStyle<'static> {
    (FONT, 18).into_font().color(&INK)
}

/// The legend's font for its notes.
fn note_font() -> TextStyle<'static> {
    (FONT, 15).into_font().color(&palette::GREY)
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
                tiling: Vec::new(),
            })
    }

    /// The tiles of the `network+merge` configurations, from the run's `spec` and the
    /// `records` the groups were made of: a group's first record names its cell, whose
    /// tile mode gives the tile side on the group's board, if any.
    pub fn with_tiling(mut self, spec: &Spec, records: &Records) -> CostPerTour {
        let mut tiling: Vec<Tiling> = Vec::new();
        for g in self.groups.iter().filter(|g| g.id.is_network_merge()) {
            let Some(board) = g.place.board() else {
                continue;
            };
            let Some(cell) = records
                .rows
                .get(g.first_row)
                .and_then(|r| spec.cells.get(r.cell))
                .filter(|c| c.board == board)
            else {
                continue;
            };
            let SolverKind::NetworkMerge { tile, .. } = &cell.solver else {
                continue;
            };
            let Some(side) = tile.side(board) else {
                continue;
            };
            match tiling.iter_mut().find(|t| t.id == g.id && t.side == side) {
                Some(t) if super::data::board_key(board) < super::data::board_key(t.from) => {
                    t.from = board
                }
                Some(_) => {}
                None => tiling.push(Tiling {
                    id: g.id.clone(),
                    side,
                    from: board,
                }),
            }
        }
        self.tiling = tiling;
        self
    }

    /// The notes beside the legend: the markers, an unbounded interval's arrow and how
    /// tiles are cut.
    fn notes(&self, series: &[Series], unbounded: bool) -> Vec<String> {
        let mut notes = Vec::new();
        let neural = series.iter().any(|s| s.id.is_neural());
        if neural && series.iter().any(|s| !s.id.is_neural()) {
            notes.push("circles: the network, squares: classical solvers".to_string());
        }
        if unbounded {
            notes.push(
                "arrow: no upper end (no tour in more than 2.5% of the resamples)".to_string(),
            );
        }
        for t in &self.tiling {
            let n = t.side;
            notes.push(format!(
                "{}: {n}x{n} tiles from {} on, the last tile of each row and column taking \
                 the remainder ({n} to {} squares): the larger that tile, the longer it \
                 takes to settle, and all tiles are {n}x{n} where the side is a multiple \
                 of {n}",
                t.id.display(),
                t.from,
                2 * n - 1
            ));
        }
        notes
    }

    /// 1050 x 620 pixels; wider when graphs sit on the board axis and their names would
    /// not all be labelled, taller when the legend needs it.
    pub fn size(&self) -> (u32, u32) {
        let bs = places(&self.groups);
        let width = width_for_places(&bs, 1050, 136 + LEGEND_WIDTH as u32 + 20);
        super::register_fonts();
        let series = self.series();
        let end = self.legend(&series, bs.len(), open(&series)).end;
        // The legend's lines are placed from the side panel's top; 10 pixels of margin
        // and a line's height below the last.
        (width, 620.max(end.max(0) as u32 + SIDE_TOP + 10 + 24))
    }

    /// The side legend of `series` (over `nb` boards; `open` when an interval has no
    /// upper end): the series with a tour in the order their lines end on the right
    /// (highest cost first), then the notes. Configurations without a tour on any board
    /// have no line: they are named in a note, so that a sweep of many cells keeps its
    /// legend inside the figure.
    fn legend<'a>(&self, series: &'a [Series], nb: usize, open: bool) -> Legend<'a> {
        let mut sorted: Vec<&Series> = series.iter().collect();
        sorted.sort_by(|a, b| {
            let end = |s: &Series| s.points.last().map(|p| (p.0, p.1));
            match (end(a), end(b)) {
                (Some(x), Some(y)) => y.1.total_cmp(&x.1),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
        });
        let (listed, none): (Vec<&Series>, Vec<&Series>) =
            sorted.into_iter().partition(|s| !s.points.is_empty());
        let mut y = 80;
        let mut entries = Vec::new();
        for s in listed {
            let missing = s.ran - s.points.len();
            let name = s.id.display();
            let text = match missing {
                0 if nb == 1 => format!("{name}: {}", seconds(s.points[0].1)),
                0 => name,
                m => format!("{name}: no tour on {m} of {} boards", s.ran),
            };
            let mut lines = Vec::new();
            for (j, line) in super::wrap(&text, &legend_font(), SIDE_WIDTH - 48)
                .into_iter()
                .enumerate()
            {
                if j > 0 {
                    y += 22;
                }
                lines.push((line, y));
            }
            entries.push((s, lines));
            y += 30;
        }
        y += 6;
        let mut notes = self.notes(series, open);
        if !none.is_empty() {
            let names: Vec<String> = none.iter().map(|s| s.id.display()).collect();
            notes.insert(0, format!("no tour on any board: {}", names.join(", ")));
        }
        let mut note_lines = Vec::new();
        for note in notes {
            for line in super::wrap(&note, &note_font(), SIDE_WIDTH - 12) {
                note_lines.push((line, y));
                y += 20;
            }
            y += 8;
        }
        Legend {
            entries,
            notes: note_lines,
            end: y,
        }
    }

    /// Write the figure and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        render(self, path, self.size())?;
        self.table().write(&csv_path(path))
    }

    /// Series in spec order, each with its colour.
    fn series(&self) -> Vec<Series> {
        let bs = places(&self.groups);
        spec_order(&self.groups)
            .into_iter()
            .enumerate()
            .map(|(i, id)| {
                let points = bs
                    .iter()
                    .enumerate()
                    .filter_map(|(x, b)| {
                        let g = self.groups.iter().find(|g| g.id == id && g.place == *b)?;
                        let s = g.seconds_per_tour().filter(|s| *s > 0.0)?;
                        let (lo, hi) = g.time_per_tour_interval()?;
                        Some((x, s, lo, hi))
                    })
                    .collect();
                let ran = self.groups.iter().filter(|g| g.id == id).count();
                Series {
                    colour: palette::series(i),
                    index: i,
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
        let bs = places(&self.groups);
        for id in spec_order(&self.groups) {
            for b in &bs {
                let Some(g) = self.groups.iter().find(|g| g.id == id && g.place == *b) else {
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

/// Seconds in engineering units: 12 ns, 3.4 µs, 560 ms, 2.1 s.
pub fn seconds(s: f64) -> String {
    let (v, unit) = axes::engineering(s);
    if v >= 10.0 {
        format!("{v:.0} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

impl Figure for CostPerTour {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, _) = root.dim_in_pixel();
        let bs = places(&self.groups);
        let series = self.series();
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
        // An interval without an upper end gets a decade of headroom, so that its arrow
        // stands clear above the highest point.
        let open = open(&series);
        let hi = if open { hi * 10.0 } else { hi };
        let per = trials_phrase(self.groups.iter().map(|g| g.trials), "solver and board");
        heading(
            root,
            self.title(),
            format!(
                "{}: {per}; bars: bootstrap 95% intervals over trials ({BOOTSTRAP_RESAMPLES} resamples)",
                self.source
            ),
        )?;
        let (body, side) = root
            .margin(SIDE_TOP, 10, 10, 10)
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
        mesh(
            &mut chart,
            places_title(&bs),
            "time per tour (time of all trials / tours)",
        )
        .disable_x_mesh()
        .x_label_formatter(&fmt)
        .y_label_formatter(&|y| axes::seconds(*y))
        .draw()
        .map_err(de)?;
        // Series are dodged sideways so that equal costs on a board stay visible.
        let k = series.len() as f64;
        for (i, s) in series.iter().enumerate() {
            let dodge = (i as f64 - (k - 1.0) / 2.0) * (0.5 / k.max(1.0));
            let colour = s.colour;
            let pts: Vec<(f64, f64)> = s.points.iter().map(|p| (p.0 as f64 + dodge, p.1)).collect();
            let line = s
                .points
                .iter()
                .filter(|p| bs[p.0].is_board())
                .map(|p| (p.0 as f64 + dodge, p.1))
                .collect();
            series_line(&mut chart, line, s.index, 2)?;
            for p in &s.points {
                let x = p.0 as f64 + dodge;
                let cap = 0.04;
                let cap_at = |y: f64| {
                    PathElement::new(vec![(x - cap, y), (x + cap, y)], colour.stroke_width(2))
                };
                let top = match upper_end(p.3, lo, hi) {
                    UpperEnd::At(h) => {
                        chart.draw_series([cap_at(h)]).map_err(de)?;
                        h
                    }
                    UpperEnd::Unbounded { tip } => {
                        chart
                            .draw_series(std::iter::once(
                                EmptyElement::at((x, tip))
                                    + Polygon::new(
                                        vec![(0, 0), (-7, 13), (7, 13)],
                                        colour.filled(),
                                    ),
                            ))
                            .map_err(de)?;
                        tip
                    }
                };
                chart
                    .draw_series([
                        PathElement::new(vec![(x, p.2), (x, top)], colour.stroke_width(2)),
                        cap_at(p.2),
                    ])
                    .map_err(de)?;
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
        let legend = self.legend(&series, nb, open);
        let font = legend_font();
        for (s, lines) in &legend.entries {
            let colour = s.colour;
            let y = lines.first().map_or(0, |l| l.1);
            draw_mark(&side, Mark::series(s.index), 6, y, 28)?;
            if s.id.is_neural() {
                side.draw(&Circle::new((20, y), 6, colour.filled()))
                    .map_err(de)?;
            } else {
                side.draw(&Rectangle::new([(14, y - 6), (26, y + 6)], colour.filled()))
                    .map_err(de)?;
            }
            for (line, y) in lines {
                side.draw(&Text::new(
                    line.as_str(),
                    (42, *y),
                    font.pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(de)?;
            }
        }
        let small = note_font();
        for (line, y) in &legend.notes {
            side.draw(&Text::new(
                line.as_str(),
                (6, *y),
                small.pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(de)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::data::SolverFamily;
    use std::collections::BTreeMap;

    /// A network group on `board` of `trials` trials of 1 ms, the first `tours` tours.
    fn group(board: &str, trials: u64, tours: u64) -> Group {
        let times: Vec<(f64, bool)> = (0..trials).map(|i| (1e6, i < tours)).collect();
        Group {
            id: SolverId {
                solver: SolverFamily::Network,
                variant: Some("parberry".into()),
                entry: None,
            },
            place: crate::plot::data::Place::Board(board.parse().unwrap()),
            geometry: None,
            trials,
            outcomes: BTreeMap::from([
                ("tour".to_string(), tours),
                ("multiple-cycles".to_string(), trials - tours),
            ]),
            iterations: Vec::new(),
            total_time_ns: 1e6 * trials as f64,
            timed_trials: trials,
            times,
            first_row: 0,
        }
    }

    /// The texts of the figure drawn as SVG.
    fn texts(fig: &CostPerTour) -> String {
        crate::plot::register_fonts();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (1050, 620)).into_drawing_area();
            fig.draw(&root).unwrap();
            root.present().unwrap();
        }
        svg
    }

    #[test]
    fn a_long_legend_makes_the_figure_tall_enough_to_hold_it() {
        let groups: Vec<Group> = (0..24)
            .map(|i| {
                let mut g = group("6x6", 200, 100);
                g.id.variant = Some(format!("variant-{i}"));
                g
            })
            .collect();
        let fig = CostPerTour::new("t", "time_ns", &groups).unwrap();
        let (width, height) = fig.size();
        assert!(height > 620, "{height}");
        crate::plot::register_fonts();
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            fig.draw(&root).unwrap();
            root.present().unwrap();
        }
        // Every name is drawn, and the lowest line of text ends above the figure's foot.
        for g in &groups {
            let name = g.id.display();
            assert!(svg.contains(&format!("{name}: ")), "{name}");
        }
        let lowest = svg
            .split("<text")
            .skip(1)
            .filter_map(|t| {
                let y = t.split(" y=\"").nth(1)?.split('"').next()?;
                y.parse::<f64>().ok()
            })
            .fold(0f64, f64::max);
        assert!(lowest > 620.0 - 24.0, "{lowest}");
        assert!(lowest + 10.0 < f64::from(height), "{lowest} in {height}");
    }

    #[test]
    fn an_unbounded_interval_ends_in_an_arrow_inside_the_plot() {
        let (bottom, top) = (1e-6, 1.0);
        assert_eq!(upper_end(Some(0.5), bottom, top), UpperEnd::At(0.5));
        let UpperEnd::Unbounded { tip } = upper_end(None, bottom, top) else {
            panic!("no upper end must be unbounded");
        };
        assert!(tip < top && tip > bottom, "{tip}");
        // Near the top: within the top 5% of the axis (log scale).
        let height = (top / tip).log10() / (top / bottom).log10();
        assert!(height > 0.0 && height < 0.05, "{height}");

        // One tour in 200 trials: more than 2.5% of resamples have none, so the interval
        // has no upper end and the figure explains the arrow; 100 tours in 200 do not.
        let rare = group("8x8", 200, 1);
        assert_eq!(rare.time_per_tour_interval().map(|i| i.1), Some(None));
        let fig = CostPerTour::new("t", "time_ns", &[rare, group("6x6", 200, 100)]).unwrap();
        assert!(texts(&fig).contains("arrow: no upper end"));
        let fig = CostPerTour::new("t", "time_ns", &[group("6x6", 200, 100)]).unwrap();
        let svg = texts(&fig);
        assert!(!svg.contains("arrow"), "{svg}");
        assert!(!svg.contains("time_ns"), "the axis names no column");
    }
}

//! Convergence curves from traces: per step, the active neurons, the squares whose
//! number of active moves is not two, and the outputs that changed. One panel per
//! measure; each shows the mean over all runs with a 10–90 percentile band and the first
//! run (the given seed) as a thin line. Runs that stopped early hold their final value.
//! The x axis is logarithmic when the longest run exceeds [`LOG_X_AFTER`] steps.

use super::heading;
use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::board::{legend_row, Mark};
use super::palette::{self, INK};
use super::{de, render, DrawResult, FONT};
use crate::network::StepStats;

/// Longest run (in steps) still drawn on a linear x axis.
pub const LOG_X_AFTER: usize = 60;

/// The traces of many seeded runs of one network configuration.
#[derive(Debug, Clone)]
pub struct ConvergenceData {
    /// Board, e.g. `8x8`.
    pub board: String,
    /// Preset or variant name.
    pub variant: String,
    /// Whether an iteration is a synchronous step or a sequential sweep.
    pub unit: String,
    /// Seed of the first run; run `i` used seed `seed + i`.
    pub seed: u64,
    /// Per run, the measurements after each step.
    pub runs: Vec<Vec<StepStats>>,
    /// Per run, how it ended (`tour`, `multiple-cycles`, ...).
    pub outcomes: Vec<String>,
    /// For a single run taken from a `solve --trace` file: which attempt of that solve
    /// it was (run `i` is otherwise the first attempt from seed `seed + i`).
    pub attempt: Option<u64>,
}

/// Mean and 10th/90th percentiles per step, after holding each run's last value.
#[derive(Debug, Clone, PartialEq)]
pub struct Bands {
    pub mean: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
}

/// Summaries over runs of one measure, steps `1..=T` where `T` is the longest run.
pub fn bands(runs: &[Vec<u32>]) -> Bands {
    let t_max = runs.iter().map(Vec::len).max().unwrap_or(0);
    let mut b = Bands {
        mean: Vec::with_capacity(t_max),
        low: Vec::with_capacity(t_max),
        high: Vec::with_capacity(t_max),
    };
    let mut col: Vec<f64> = Vec::with_capacity(runs.len());
    for t in 0..t_max {
        col.clear();
        col.extend(
            runs.iter()
                .filter_map(|r| r.get(t).or(r.last()).map(|&v| v as f64)),
        );
        col.sort_by(f64::total_cmp);
        b.mean.push(col.iter().sum::<f64>() / col.len() as f64);
        b.low.push(quantile(&col, 0.1));
        b.high.push(quantile(&col, 0.9));
    }
    b
}

/// Linear-interpolated quantile of sorted data.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let (i, frac) = (pos.floor() as usize, pos.fract());
    let next = sorted[(i + 1).min(sorted.len() - 1)];
    sorted[i] + frac * (next - sorted[i])
}

impl ConvergenceData {
    /// Write the figure (`.png` or `.svg`).
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.runs.iter().any(|r| !r.is_empty()),
            "no steps to plot in {}",
            path.display()
        );
        render(self, path, (1680, 600))
    }

    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        let runs = self.runs.len();
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for o in &self.outcomes {
            match counts.iter_mut().find(|(n, _)| *n == o.as_str()) {
                Some((_, c)) => *c += 1,
                None => counts.push((o.as_str(), 1)),
            }
        }
        counts.sort_by_key(|&(n, _)| {
            crate::network::Termination::NAMES
                .iter()
                .position(|&k| k == n)
                .unwrap_or(usize::MAX)
        });
        let ended = counts
            .iter()
            .map(|(n, c)| format!("{c} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        let t_max = self.runs.iter().map(Vec::len).max().unwrap_or(1);
        heading(
            root,
            if runs == 1 {
                format!(
                    "Network convergence on {}, preset {}: one run, seed {}",
                    self.board, self.variant, self.seed
                )
            } else {
                format!(
                    "Network convergence on {}, preset {}: {runs} runs, seeds {}..{}",
                    self.board,
                    self.variant,
                    self.seed,
                    self.seed + runs as u64 - 1
                )
            },
            if runs == 1 {
                let which = match self.attempt {
                    Some(a) => format!("attempt {a} of solve --seed {}", self.seed),
                    None => "one attempt from a random state".to_string(),
                };
                format!("{which}; ended: {ended} after {t_max} {}s", self.unit)
            } else {
                format!(
                    "one attempt per run from a random state; ended: {ended}; longest run {t_max} {}s; \
                     a run that stopped holds its final value",
                    self.unit
                )
            },
        )?;
        let body = root.margin(76, 46, 10, 16);
        let panels = body.split_evenly((1, 3));
        type Pick = fn(&StepStats) -> u32;
        let measures: [(&str, &str, Pick, RGBColor); 3] = [
            (
                "Active neurons",
                "active moves (V = 1)",
                |s| s.active,
                palette::BLUE,
            ),
            (
                "Squares off degree 2",
                "squares without exactly 2 active moves",
                |s| s.off_two,
                palette::VERMILLION,
            ),
            (
                "Changed neurons",
                "neurons whose U changed in the step",
                |s| s.changed,
                palette::GREEN,
            ),
        ];
        let log_x = t_max > LOG_X_AFTER;
        for (area, (title, ylabel, pick, colour)) in panels.iter().zip(measures) {
            let series: Vec<Vec<u32>> = self
                .runs
                .iter()
                .map(|r| r.iter().map(pick).collect())
                .collect();
            let b = bands(&series);
            let y_max = series.iter().flatten().copied().max().unwrap_or(1).max(1) as f64 * 1.05;
            let xlabel = format!("{} (log scale)", self.unit);
            if log_x {
                panel(
                    area,
                    (1f64..t_max as f64).log_scale(),
                    &xlabel,
                    y_max,
                    title,
                    ylabel,
                    colour,
                    &b,
                    &series[0],
                    runs == 1,
                )?;
            } else {
                panel(
                    area,
                    1f64..(t_max as f64).max(2.0),
                    &self.unit,
                    y_max,
                    title,
                    ylabel,
                    colour,
                    &b,
                    &series[0],
                    runs == 1,
                )?;
            }
        }
        let font = (FONT, 17).into_font().color(&INK);
        let items = if runs == 1 {
            vec![(
                Mark::Line(INK),
                format!("the run (seed {}); colour: the panel's measure", self.seed),
            )]
        } else {
            vec![
                (
                    Mark::Line(palette::GREY),
                    format!("mean of {runs} runs (thick)"),
                ),
                (
                    Mark::Box(on_white(palette::SKY_BLUE, 0.3)),
                    "10th–90th percentile".into(),
                ),
                (Mark::Line(INK), format!("run with seed {}", self.seed)),
            ]
        };
        legend_row(root, &items, &font, h as i32 - 22, w as i32)
    }
}

/// `colour` at opacity `alpha` over white, as an opaque colour (legend swatches of
/// translucent bands).
fn on_white(colour: RGBColor, alpha: f64) -> RGBColor {
    let mix = |c: u8| (c as f64 * alpha + 255.0 * (1.0 - alpha)).round() as u8;
    RGBColor(mix(colour.0), mix(colour.1), mix(colour.2))
}

#[allow(clippy::too_many_arguments)]
fn panel<DB: DrawingBackend, X>(
    area: &DrawingArea<DB, Shift>,
    x: X,
    xlabel: &str,
    y_max: f64,
    title: &str,
    ylabel: &str,
    colour: RGBColor,
    b: &Bands,
    first: &[u32],
    single: bool,
) -> DrawResult
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 21).into_font().style(FontStyle::Bold))
        .margin(8)
        .x_label_area_size(46)
        .y_label_area_size(62)
        .build_cartesian_2d(x, 0f64..y_max)
        .map_err(de)?;
    chart
        .configure_mesh()
        .x_desc(xlabel)
        .y_desc(ylabel)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .axis_desc_style((FONT, 16))
        .label_style((FONT, 14))
        .light_line_style(RGBColor(0xF6, 0xF6, 0xF6))
        .bold_line_style(RGBColor(0xDD, 0xDD, 0xDD))
        .draw()
        .map_err(de)?;
    let steps = || (0..b.mean.len()).map(|t| (t + 1) as f64);
    if single {
        chart
            .draw_series(LineSeries::new(
                steps().zip(b.mean.iter().copied()),
                colour.stroke_width(2),
            ))
            .map_err(de)?;
        return Ok(());
    }
    let mut band: Vec<(f64, f64)> = steps().zip(b.high.iter().copied()).collect();
    band.extend(steps().zip(b.low.iter().copied()).rev());
    chart
        .draw_series(std::iter::once(Polygon::new(
            band,
            colour.mix(0.3).filled(),
        )))
        .map_err(de)?;
    chart
        .draw_series(LineSeries::new(
            first
                .iter()
                .enumerate()
                .map(|(t, &v)| ((t + 1) as f64, v as f64)),
            INK.stroke_width(1),
        ))
        .map_err(de)?;
    chart
        .draw_series(LineSeries::new(
            steps().zip(b.mean.iter().copied()),
            colour.stroke_width(3),
        ))
        .map_err(de)?;
    Ok(())
}

crate::impl_figure!(ConvergenceData);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_hold_final_values() {
        let b = bands(&[vec![4, 2], vec![6, 4, 0, 0]]);
        assert_eq!(b.mean, vec![5.0, 3.0, 1.0, 1.0]);
        assert_eq!(b.low.len(), 4);
        assert!(b.low[0] <= b.mean[0] && b.mean[0] <= b.high[0]);
    }
}

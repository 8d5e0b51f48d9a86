//! Convergence curves from traces: per step, the active neurons, the squares whose
//! number of active moves is not two, and the outputs that changed. One panel per
//! measure; each shows the mean over all runs with a 10–90 percentile band, and for a
//! single configuration the first run (the given seed) as a thin grey line under the
//! mean. Runs that stopped early hold their final value. Several configurations
//! ([`ConvergenceFigure`], `convergence --overlay`) share the panels, one colour each,
//! the same colour in every panel and in the legend. The x axis is logarithmic when
//! the longest run exceeds `LOG_X_AFTER` steps. Beside the figure: its data as CSV,
//! every run with its seed, ending and length as `-runs.csv` ([`runs_csv_path`]), and
//! what the runs were as `.convergence.json` ([`ConvergenceInfo`], [`info_path`]): the
//! knightnet version and git revision that drew them, the board and graph, the runs and
//! base seed (or the trace they came from), and every configuration with its parameters.
//!
//! Runs on the open graph (`convergence --open`) count the apex's neurons among the
//! active and changed ones, and squares off degree 2 over the board's squares only
//! ([`super::trace::square_steps`]); the title says which graph.

use super::heading;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::board::{Mark, legend_row};
use super::palette::{self, INK};

use super::table::{Table, csv_path, num};
use super::{DrawResult, FONT, Figure, axes, de, render};
use crate::board::Board;
use crate::graph::Tours;
use crate::network::{NetworkParams, Preset, StepStats, Termination};
use crate::trace_file::{IterationUnit, TraceBoard};

/// Longest run (in steps) still drawn on a linear x axis.
pub const LOG_X_AFTER: usize = 60;

/// The traces of many seeded runs of one network configuration.
#[derive(Debug, Clone)]
pub struct ConvergenceData {
    /// The board the runs ran on.
    pub board: Board,
    /// The graph the runs ran on: the knight's graph (closed tours) or the open graph.
    pub tours: Tours,
    /// Preset or variant name.
    pub variant: String,
    /// Whether an iteration is a synchronous step or a sequential sweep.
    pub unit: IterationUnit,
    /// The base seed of the runs (`convergence --seed`), or the seed of the solve a
    /// single traced run came from.
    pub seed: u64,
    /// Per run, its own seed: `solve --seed SEED --max-attempts 1` replays run `i`
    /// (attempt [`ConvergenceData::attempt`] of `solve --seed SEED` for a traced run).
    pub seeds: Vec<u64>,
    /// Per run, the measurements after each step (squares off degree 2 over squares).
    pub runs: Vec<Vec<StepStats>>,
    /// Per run, how it ended.
    pub outcomes: Vec<Termination>,
    /// For a single run taken from a `solve --trace` file: which attempt of that solve
    /// it was (run `i` is otherwise the first attempt of `solve --seed seeds[i]`).
    pub attempt: Option<u64>,
    /// The parameters the runs ran with (`None`: a trace file that records none).
    pub params: Option<NetworkParams>,
}

/// Mean and 10th/90th percentiles per step, after holding each run's last value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bands {
    pub mean: Vec<f64>,
    pub low: Vec<f64>,
    pub high: Vec<f64>,
}

/// Summaries over runs of one measure, steps `1..=T` where `T` is the longest run.
pub(crate) fn bands(runs: &[Vec<u32>]) -> Bands {
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
    /// Write the figure (`.png`, `.svg` or `.pdf`) and its data (`.csv` beside it).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        ConvergenceFigure {
            sets: vec![self.clone()],
            trace_file: None,
        }
        .save(path)
    }

    /// "12 tour, 38 multiple-cycles" in the order of the network's outcome names.
    fn ended(&self) -> String {
        let mut counts = [0usize; 4];
        for o in &self.outcomes {
            counts[o.index()] += 1;
        }
        Termination::NAMES
            .iter()
            .zip(counts)
            .filter(|&(_, c)| c > 0)
            .map(|(n, c)| format!("{c} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The board as the title names it: `8x8`, or `7x7 (open graph)` (`from a1`).
    fn board_label(&self) -> String {
        match self.tours {
            Tours::Closed => self.board.to_string(),
            Tours::Open { start: None } => format!("{} (open graph)", self.board),
            Tours::Open { start: Some(s) } => format!(
                "{} (open graph from {})",
                self.board,
                self.board.square_name(s)
            ),
        }
    }

    fn t_max(&self) -> usize {
        self.runs.iter().map(Vec::len).max().unwrap_or(1)
    }
}

type Pick = fn(&StepStats) -> u32;

/// The three measures: panel title, y label, column name, accessor.
const MEASURES: [(&str, &str, &str, Pick); 3] = [
    ("Active neurons (V = 1)", "neurons", "active", |s| s.active),
    ("Squares off degree 2", "squares", "off_two", |s| s.off_two),
    ("Neurons whose U changed", "neurons", "changed", |s| {
        s.changed
    }),
];

/// One or more configurations drawn on the same three panels.
#[derive(Debug, Clone)]
pub struct ConvergenceFigure {
    /// The configurations, in legend order.
    pub sets: Vec<ConvergenceData>,
    /// The `solve --trace` file the one run was read from, as it was named.
    pub trace_file: Option<String>,
}

/// The value of [`ConvergenceInfo::format`]: what a reader checks before trusting the
/// rest of the file.
pub const INFO_FORMAT: &str = "knightnet-convergence";

/// How the runs of a convergence figure were made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConvergenceMode {
    /// `runs` seeded runs of each configuration (`convergence --board ... --runs N`).
    Runs,
    /// The one run of a `solve --trace` file (`convergence --trace FILE`).
    Trace,
}

/// The graph the runs ran on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConvergenceGraph {
    /// The knight's graph: closed tours.
    Knight,
    /// The open graph (the knight's graph and an apex joined to every square).
    Open,
}

/// One configuration of a convergence figure, as its `.convergence.json` names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigurationInfo {
    /// The configuration's name in both CSVs' `configuration` column
    /// ([`NetworkParams::variant`]).
    pub variant: String,
    /// The preset the parameters started from.
    pub preset: Option<Preset>,
    /// The parameters, resolved (`None`: a trace file that records none).
    pub params: Option<NetworkParams>,
    /// What one iteration is: `step` (synchronous) or `sweep`.
    pub unit: String,
    /// Its runs.
    pub runs: usize,
    /// Its runs that ended in a tour.
    pub tours: usize,
    /// For a run read from a trace: which attempt of `solve --seed SEED` it was.
    pub attempt: Option<u64>,
}

/// `FIG.convergence.json`, written beside a convergence figure: what its data (`FIG.csv`
/// and `FIG-runs.csv`) was computed from, and by which knightnet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConvergenceInfo {
    /// Always [`INFO_FORMAT`].
    pub format: String,
    /// The knightnet package version that wrote it.
    pub knightnet_version: String,
    /// [`crate::ENGINE_VERSION`] of the code that ran.
    pub engine_version: u32,
    /// `git rev-parse HEAD` of the source tree (`null` without git), as `run.json` has it.
    pub git_revision: Option<String>,
    /// Whether tracked files differed from that revision.
    pub git_dirty: Option<bool>,
    /// Seeded runs, or the one run of a trace.
    pub mode: ConvergenceMode,
    /// The trace file the run was read from, as it was named (mode `trace`).
    pub trace_file: Option<String>,
    /// The board.
    pub board: TraceBoard,
    /// The knight's graph or the open graph.
    pub graph: ConvergenceGraph,
    /// The open graph's start square, by name, if one was held.
    pub start: Option<String>,
    /// The base seed of the runs (mode `runs`: run `i` of a configuration is trial `i`
    /// of its cell under this seed), or the seed of the traced solve (0 when the trace
    /// records none).
    pub seed: u64,
    /// Runs of each configuration.
    pub runs: usize,
    /// The configurations, in the CSVs' order.
    pub configurations: Vec<ConfigurationInfo>,
}

/// The metadata beside a convergence figure: `NAME.convergence.json` for `NAME.png`.
pub fn info_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}{INFO_SUFFIX}"))
}

/// The end of a convergence figure's metadata file's name ([`info_path`]).
pub const INFO_SUFFIX: &str = ".convergence.json";

/// The columns of a convergence figure's runs CSV ([`runs_csv_path`]).
pub const RUNS_HEADER: [&str; 6] = [
    "configuration",
    "run",
    "seed",
    "attempt",
    "outcome",
    "iterations",
];

/// The columns of a convergence figure's data CSV: `configuration`, `step`, then the
/// mean, 10th and 90th percentile of `active`, `off_two` and `changed`.
pub fn data_header() -> Vec<String> {
    let mut header = vec!["configuration".to_string(), "step".to_string()];
    for (_, _, col, _) in MEASURES {
        for stat in ["mean", "p10", "p90"] {
            header.push(format!("{col}_{stat}"));
        }
    }
    header
}

impl ConvergenceFigure {
    /// What the figure's runs were, with this knightnet's version and git revision.
    pub fn info(&self) -> ConvergenceInfo {
        let first = &self.sets[0];
        let (git_revision, git_dirty) = crate::experiment::git_revision();
        let trace = first.attempt.is_some() || self.trace_file.is_some();
        let (graph, start) = match first.tours {
            Tours::Closed => (ConvergenceGraph::Knight, None),
            Tours::Open { start } => (
                ConvergenceGraph::Open,
                start.map(|s| first.board.square_name(s)),
            ),
        };
        ConvergenceInfo {
            format: INFO_FORMAT.to_string(),
            knightnet_version: env!("CARGO_PKG_VERSION").to_string(),
            engine_version: crate::ENGINE_VERSION,
            git_revision,
            git_dirty,
            mode: if trace {
                ConvergenceMode::Trace
            } else {
                ConvergenceMode::Runs
            },
            trace_file: self.trace_file.clone(),
            board: TraceBoard {
                cols: first.board.cols(),
                rows: first.board.rows(),
            },
            graph,
            start,
            seed: first.seed,
            runs: first.runs.len(),
            configurations: self
                .sets
                .iter()
                .map(|d| ConfigurationInfo {
                    variant: d.variant.clone(),
                    preset: d.params.and_then(|p| p.preset),
                    params: d.params,
                    unit: d.unit.to_string(),
                    runs: d.runs.len(),
                    tours: d
                        .outcomes
                        .iter()
                        .filter(|o| **o == Termination::Tour)
                        .count(),
                    attempt: d.attempt,
                })
                .collect(),
        }
    }

    /// Write the figure, its data (`.csv` beside it), its runs (`-runs.csv`) and what
    /// they were (`.convergence.json`).
    pub fn save(&self, path: &Path) -> Result<(), super::PlotError> {
        if !self
            .sets
            .iter()
            .any(|d| d.runs.iter().any(|r| !r.is_empty()))
        {
            return Err(super::PlotError::Empty(format!(
                "no steps to plot in {}",
                path.display()
            )));
        }
        render(self, path, (1050, 460))?;
        self.table().write(&csv_path(path))?;
        self.runs_table().write(&runs_csv_path(path))?;
        let text = serde_json::to_string_pretty(&self.info())
            .map_err(|e| super::PlotError::Write(format!("{}: {e}", info_path(path).display())))?
            + "\n";
        crate::io::write_atomic(&info_path(path), text.as_bytes())?;
        Ok(())
    }

    /// Per configuration and run: its seed, which attempt of `solve --seed SEED` it is
    /// (1-based, as in a trace file: 1 for every run of `convergence`), how it ended,
    /// and its length in steps or sweeps.
    pub(crate) fn runs_table(&self) -> Table {
        let mut t = Table {
            header: RUNS_HEADER.map(String::from).to_vec(),
            rows: Vec::new(),
        };
        for d in &self.sets {
            for (i, (steps, outcome)) in d.runs.iter().zip(&d.outcomes).enumerate() {
                t.rows.push(vec![
                    d.variant.clone(),
                    i.to_string(),
                    d.seeds.get(i).map_or(String::new(), |s| s.to_string()),
                    d.attempt.unwrap_or(1).to_string(),
                    outcome.name().to_string(),
                    steps.len().to_string(),
                ]);
            }
        }
        t
    }

    /// Per configuration and step: mean, 10th and 90th percentile of each measure.
    pub fn table(&self) -> Table {
        let mut t = Table {
            header: data_header(),
            rows: Vec::new(),
        };
        for d in &self.sets {
            let bs: Vec<Bands> = MEASURES.iter().map(|m| bands(&series(d, m.3))).collect();
            for step in 0..bs[0].mean.len() {
                let mut row = vec![d.variant.clone(), (step + 1).to_string()];
                for b in &bs {
                    row.extend([
                        num(Some(b.mean[step])),
                        num(Some(b.low[step])),
                        num(Some(b.high[step])),
                    ]);
                }
                t.rows.push(row);
            }
        }
        t
    }

    fn unit(&self) -> String {
        let mut units: Vec<IterationUnit> = self.sets.iter().map(|d| d.unit).collect();
        units.dedup();
        if units.len() == 1 {
            units[0].to_string()
        } else {
            "step or sweep".to_string()
        }
    }
}

/// Colour of the seed run's thin line: light, so that it stays under the mean.
const SEED_RUN: RGBColor = RGBColor(0xAA, 0xAA, 0xAA);

/// Opacity of the percentile bands.
const BAND_ALPHA: f64 = 0.25;

/// One measure of every run of `d`.
fn series(d: &ConvergenceData, pick: Pick) -> Vec<Vec<u32>> {
    d.runs
        .iter()
        .map(|r| r.iter().map(pick).collect())
        .collect()
}

/// `colour` at opacity `alpha` over white, as an opaque colour (legend swatches of
/// translucent bands).
fn on_white(colour: RGBColor, alpha: f64) -> RGBColor {
    let mix = |c: u8| (c as f64 * alpha + 255.0 * (1.0 - alpha)).round() as u8;
    RGBColor(mix(colour.0), mix(colour.1), mix(colour.2))
}

fn panel<DB: DrawingBackend, X>(
    area: &DrawingArea<DB, Shift>,
    x: X,
    xlabel: &str,
    y_max: f64,
    title: &str,
    ylabel: &str,
    sets: &[(Vec<Vec<u32>>, RGBColor)],
) -> DrawResult
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .caption(title, (FONT, 20).into_font().style(FontStyle::Bold))
        .margin(8)
        .x_label_area_size(46)
        .y_label_area_size(62)
        .build_cartesian_2d(
            x,
            axes::ticked(0f64..y_max, axes::linear_ticks(0.0, y_max, 5, true)),
        )
        .map_err(de)?;
    chart
        .configure_mesh()
        .x_desc(xlabel)
        .y_desc(ylabel)
        .x_label_formatter(&|x| axes::number(*x))
        .y_label_formatter(&|y| axes::number(*y))
        .axis_desc_style((FONT, 18))
        .label_style((FONT, 17))
        .bold_line_style(RGBColor(0xE4, 0xE4, 0xE4))
        .draw()
        .map_err(de)?;
    let single = sets.len() == 1;
    // Bands first, then the seed run, then every mean on top.
    let summaries: Vec<(Bands, RGBColor)> = sets.iter().map(|(s, c)| (bands(s), *c)).collect();
    let steps = |n: usize| (0..n).map(|t| (t + 1) as f64);
    for ((runs, _), (b, colour)) in sets.iter().zip(&summaries) {
        if runs.len() == 1 {
            continue;
        }
        let mut band: Vec<(f64, f64)> = steps(b.mean.len()).zip(b.high.iter().copied()).collect();
        band.extend(steps(b.low.len()).zip(b.low.iter().copied()).rev());
        chart
            .draw_series(std::iter::once(Polygon::new(
                band,
                colour.mix(BAND_ALPHA).filled(),
            )))
            .map_err(de)?;
    }
    if single && sets[0].0.len() > 1 {
        chart
            .draw_series(LineSeries::new(
                sets[0].0[0]
                    .iter()
                    .enumerate()
                    .map(|(t, &v)| ((t + 1) as f64, v as f64)),
                SEED_RUN.stroke_width(1),
            ))
            .map_err(de)?;
    }
    for (b, colour) in &summaries {
        chart
            .draw_series(LineSeries::new(
                steps(b.mean.len()).zip(b.mean.iter().copied()),
                colour.stroke_width(3),
            ))
            .map_err(de)?;
    }
    Ok(())
}

/// The runs CSV beside a convergence figure: `NAME-runs.csv` for `NAME.png`.
pub fn runs_csv_path(path: &Path) -> PathBuf {
    let stem = path.file_stem().unwrap_or_default().to_string_lossy();
    path.with_file_name(format!("{stem}-runs.csv"))
}

impl Figure for ConvergenceFigure {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult {
        root.fill(&WHITE).map_err(de)?;
        let (w, h) = root.dim_in_pixel();
        let first = &self.sets[0];
        let runs = first.runs.len();
        let t_max = self
            .sets
            .iter()
            .map(ConvergenceData::t_max)
            .max()
            .unwrap_or(1);
        let unit = self.unit();
        let (title, subtitle) = if self.sets.len() > 1 {
            let names: Vec<&str> = self.sets.iter().map(|d| d.variant.as_str()).collect();
            (
                format!(
                    "Network convergence on {}: {}",
                    first.board_label(),
                    names.join(" vs ")
                ),
                format!(
                    "{runs} runs each, base seed {}; lines: mean, bands: 10th–90th percentile; \
                     a run that stopped holds its final value",
                    first.seed,
                ),
            )
        } else if runs == 1 {
            let run_seed = first.seeds.first().copied().unwrap_or(first.seed);
            let (seed, which) = match first.attempt {
                Some(a) => (
                    format!("seed {}", first.seed),
                    format!("attempt {a} of solve --seed {}", first.seed),
                ),
                None => (
                    format!("base seed {}", first.seed),
                    format!("solve --seed {run_seed} --max-attempts 1"),
                ),
            };
            (
                format!(
                    "Network convergence on {}, preset {}: one run, {seed}",
                    first.board_label(),
                    first.variant
                ),
                format!("{which}; ended: {} after {t_max} {unit}s", first.ended()),
            )
        } else {
            (
                format!(
                    "Network convergence on {}, preset {}: {runs} runs, base seed {}",
                    first.board_label(),
                    first.variant,
                    first.seed,
                ),
                format!(
                    "ended: {}; longest run {t_max} {unit}s; a run that stopped holds its final value",
                    first.ended()
                ),
            )
        };
        heading(root, title, subtitle)?;
        let body = root.margin(72, 46, 6, 12);
        let panels = body.split_evenly((1, 3));
        let log_x = t_max > LOG_X_AFTER;
        for (area, (title, ylabel, _, pick)) in panels.iter().zip(MEASURES) {
            let all: Vec<(Vec<Vec<u32>>, RGBColor)> = self
                .sets
                .iter()
                .enumerate()
                .map(|(i, d)| (series(d, pick), palette::series(i)))
                .collect();
            let y_max = all
                .iter()
                .flat_map(|(s, _)| s.iter().flatten().copied())
                .max()
                .unwrap_or(1)
                .max(1) as f64
                * 1.05;
            if log_x {
                let hi = t_max as f64;
                let ticks = axes::log_ticks(1.0, hi);
                panel(
                    area,
                    axes::ticked((1f64..hi).log_scale(), ticks),
                    &format!("{unit} (log scale)"),
                    y_max,
                    title,
                    ylabel,
                    &all,
                )?;
            } else {
                let hi = (t_max as f64).max(2.0);
                let ticks = axes::linear_ticks(1.0, hi, 5, true);
                panel(
                    area,
                    axes::ticked(1f64..hi, ticks),
                    &unit,
                    y_max,
                    title,
                    ylabel,
                    &all,
                )?;
            }
        }
        let font = (FONT, 18).into_font().color(&INK);
        let items = if self.sets.len() > 1 {
            self.sets
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    let tours = d
                        .outcomes
                        .iter()
                        .filter(|o| **o == Termination::Tour)
                        .count();
                    (
                        Mark::Line(palette::series(i)),
                        format!("{} ({tours} of {} runs a tour)", d.variant, d.runs.len()),
                    )
                })
                .collect()
        } else if runs == 1 {
            vec![(
                Mark::Line(palette::series(0)),
                format!(
                    "the run (seed {})",
                    first.seeds.first().unwrap_or(&first.seed)
                ),
            )]
        } else {
            vec![
                (
                    Mark::Line(palette::series(0)),
                    format!("mean of {runs} runs"),
                ),
                (
                    Mark::Box(on_white(palette::series(0), BAND_ALPHA)),
                    "10th–90th percentile".into(),
                ),
                (
                    Mark::Line(SEED_RUN),
                    format!(
                        "run 0 (seed {})",
                        first.seeds.first().unwrap_or(&first.seed)
                    ),
                ),
            ]
        };
        legend_row(root, &items, &font, h as i32 - 22, w as i32)
    }
}

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

//! `knightnet stats`: the time to solution of every cell of a results folder and its
//! comparison with a reference cell of the same board, recomputed from the records
//! (see [`knightnet::experiment::summary`] for the definitions).

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::Failure;
use super::report::ReportFormat;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::experiment::Replay;
use knightnet::experiment::summary::{self, Summary, compare, human_ns, p_value};
use knightnet::stats::Estimate;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example:\n  knightnet stats experiments/results/network-vs-classical --format markdown"
)]
pub struct StatsArgs {
    /// An experiment's results folder (holding run.json and records.csv).
    #[arg(value_name = "RESULTS_DIR")]
    pub results: PathBuf,
    /// Label (the spec entry's name, as in records.csv) of the cells every other cell of
    /// the same board is compared with
    /// (default: the spec's `reference`, else its first network cell's label).
    #[arg(long, value_name = "NAME")]
    pub reference: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Rows of records.csv run again and compared with their record (after every row is
    /// checked against the spec): a number (default 100: the rows with the smallest
    /// seeds; 0 for none) or all.
    #[arg(long, value_name = "N|all", default_value_t = Replay::default())]
    pub replay: Replay,
}

pub fn run(args: StatsArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (_, mut summary) = summary::from_folder(&args.results, args.replay)?;
    if let Some(r) = &args.reference {
        if !summary.cells.iter().any(|c| &c.label == r) {
            let mut labels: Vec<&str> = summary.cells.iter().map(|c| c.label.as_str()).collect();
            labels.dedup();
            let more = if labels.len() > 10 { ", ..." } else { "" };
            labels.truncate(10);
            return Err(InputError::param(format!(
                "--reference '{r}' is no cell's label in {}; the labels are {}{more}",
                args.results.display(),
                labels.join(", ")
            ))
            .into());
        }
        summary.comparisons = compare(&summary.cells, r);
        summary.reference = Some(r.clone());
    }
    match args.format {
        ReportFormat::Json => {
            let body = serde_json::to_value(Report::of(&summary)?).map_err(anyhow::Error::from)?;
            out.write_all(super::json::to_text(&super::json::document("stats", body))?.as_bytes())?;
        }
        ReportFormat::Markdown => {
            write!(
                out,
                "# Statistics of `{}`{}",
                summary.spec,
                summary.time_to_solution_markdown()
            )?;
            write!(out, "{}", summary.comparisons_markdown())?;
        }
        ReportFormat::Text => text(&summary, out)?,
    }
    Ok(())
}

/// What `--format json` prints: the cells' time to solution and the comparisons, in the
/// shape of every document (docs/json.md): a board as `{"rows", "cols"}`, durations in
/// seconds, an estimate with its interval as `{"value", "low", "high"}`.
#[derive(serde::Serialize)]
struct Report<'a> {
    spec: &'a str,
    reference: Option<&'a str>,
    cells: Vec<CellStats<'a>>,
    comparisons: Vec<ComparisonStats<'a>>,
}

#[derive(serde::Serialize)]
struct CellStats<'a> {
    cell: usize,
    label: &'a str,
    board: Board,
    trials: u64,
    tours: u64,
    p_tour: Estimate,
    attempts_per_tour: Option<f64>,
    seconds_per_trial: Option<f64>,
    r99: Estimate,
    tts99_seconds: Estimate,
}

#[derive(serde::Serialize)]
struct ComparisonStats<'a> {
    cell: usize,
    label: &'a str,
    board: Board,
    reference_cell: usize,
    difference: Estimate,
    z: f64,
    p: f64,
    p_holm: f64,
    attempts_ratio: Option<f64>,
}

/// Nanoseconds (as the summary keeps them) in seconds.
fn seconds(ns: Option<f64>) -> Option<f64> {
    ns.map(|t| t / 1e9)
}

impl<'a> Report<'a> {
    fn of(s: &'a Summary) -> Result<Report<'a>, InputError> {
        Ok(Report {
            spec: &s.spec,
            reference: s.reference.as_deref(),
            cells: s
                .cells
                .iter()
                .map(|c| {
                    let tour = &c.outcomes[0];
                    Ok(CellStats {
                        cell: c.cell,
                        label: &c.label,
                        board: c.board.parse::<Board>()?,
                        trials: c.trials,
                        tours: c.tours,
                        p_tour: Estimate {
                            value: (c.trials > 0).then_some(tour.share),
                            low: Some(tour.ci_low),
                            high: Some(tour.ci_high),
                        },
                        attempts_per_tour: c.attempts_per_tour,
                        seconds_per_trial: seconds(c.time_mean_ns),
                        r99: Estimate {
                            value: c.r99,
                            low: c.r99_low,
                            high: c.r99_high,
                        },
                        tts99_seconds: Estimate {
                            value: seconds(c.tts99_ns),
                            low: seconds(c.tts99_low_ns),
                            high: seconds(c.tts99_high_ns),
                        },
                    })
                })
                .collect::<Result<_, InputError>>()?,
            comparisons: s
                .comparisons
                .iter()
                .map(|c| {
                    Ok(ComparisonStats {
                        cell: c.cell,
                        label: &c.label,
                        board: c.board.parse::<Board>()?,
                        reference_cell: c.reference_cell,
                        difference: Estimate {
                            value: Some(c.difference),
                            low: Some(c.difference_low),
                            high: Some(c.difference_high),
                        },
                        z: c.z,
                        p: c.p,
                        p_holm: c.p_holm,
                        attempts_ratio: c.attempts_ratio,
                    })
                })
                .collect::<Result<_, InputError>>()?,
        })
    }
}

/// Plain aligned columns.
fn text(s: &Summary, out: &mut dyn Write) -> std::io::Result<()> {
    let count = |x: Option<f64>| x.map_or("inf".to_string(), |v| format!("{v:.0}"));
    let time = |x: Option<f64>| x.map_or("inf".to_string(), human_ns);
    let width = s
        .cells
        .iter()
        .map(|c| c.label.len())
        .max()
        .unwrap_or(4)
        .max(4);
    // Boards beyond the knight are named with their geometry (`8x8 torus`).
    let bw = s
        .cells
        .iter()
        .map(|c| c.board.chars().count())
        .max()
        .unwrap_or(7)
        .max(7);
    writeln!(
        out,
        "{}: time to solution (R99 = attempts for a 99% chance of a tour; 95% intervals)",
        s.spec
    )?;
    writeln!(
        out,
        "{:<width$}  {:>bw$}  {:>6}/{:<6}  {:>24}  {:>34}",
        "cell", "board", "tours", "trials", "R99 [95% CI]", "TTS99 [95% CI]"
    )?;
    for c in &s.cells {
        writeln!(
            out,
            "{:<width$}  {:>bw$}  {:>6}/{:<6}  {:>24}  {:>34}",
            c.label,
            c.board,
            c.tours,
            c.trials,
            format!(
                "{} [{}, {}]",
                count(c.r99),
                count(c.r99_low),
                count(c.r99_high)
            ),
            format!(
                "{} [{}, {}]",
                time(c.tts99_ns),
                time(c.tts99_low_ns),
                time(c.tts99_high_ns)
            ),
        )?;
    }
    let Some(reference) = &s.reference else {
        return Ok(());
    };
    writeln!(
        out,
        "\ncompared with '{reference}' on the same board: difference of tour rates in points \
         (Newcombe 95% CI), two-proportion z test, Holm over {} comparisons",
        s.comparisons.len()
    )?;
    writeln!(
        out,
        "{:<width$}  {:>bw$}  {:>24}  {:>7}  {:>9}  {:>9}  {:>8}",
        "cell", "board", "difference [95% CI]", "z", "p", "p (Holm)", "ratio"
    )?;
    for c in &s.comparisons {
        writeln!(
            out,
            "{:<width$}  {:>bw$}  {:>24}  {:>7.2}  {:>9}  {:>9}  {:>8}",
            c.label,
            c.board,
            format!(
                "{:+.1} [{:+.1}, {:+.1}]",
                100.0 * c.difference,
                100.0 * c.difference_low,
                100.0 * c.difference_high
            ),
            c.z,
            p_value(c.p),
            p_value(c.p_holm),
            c.attempts_ratio
                .map_or("–".to_string(), |x| format!("{x:.2}")),
        )?;
    }
    Ok(())
}

//! `knightnet plot`: draw every figure an experiment's `records.csv` supports into a
//! folder, each with its data as CSV beside it; also the tour figure behind
//! `solve --png/--svg`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::Failure;
use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::experiment::Replay;
use knightnet::plot::board::BoardFigure;
use knightnet::plot::cost::CostPerTour;
use knightnet::plot::data::{aggregate, load};
use knightnet::plot::failures::{self, FailureAnatomy};
use knightnet::plot::hf::{self, HfRatio};
use knightnet::plot::iterations::IterationHistograms;
use knightnet::plot::outcomes::OutcomeShares;
use knightnet::plot::phase::PhaseDiagram;
use knightnet::plot::published;
use knightnet::plot::run_length::RunLengths;
use knightnet::plot::tour_rate::TourRate;
use knightnet::plot::ImageFormat;
use knightnet::solvers::Solution;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example:\n  knightnet plot experiments/results/quickstart --out out/plots/quickstart --format pdf"
)]
pub struct PlotArgs {
    /// An experiment's results folder (holding records.csv), or a records CSV file.
    pub results: PathBuf,
    /// Folder to write the figures into (created if missing). Default: out/plots/NAME,
    /// NAME being the results folder's name (out/ is git-ignored; the committed gallery
    /// in plots/ is remade by plots/regenerate.sh).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Image format of the figures (pdf: vector, text in the bundled DejaVu Sans).
    #[arg(long, value_enum, default_value_t = ImageFormat::Png)]
    pub format: ImageFormat,
    /// Published tour rates to draw beside the measured p(tour): a CSV with columns
    /// n,trials,success (failure, diverge optional), one row per n x n board, e.g.
    /// Parberry (1996), Table 1.
    #[arg(long, value_name = "FILE")]
    pub published: Option<PathBuf>,
    /// Closed-tour and 2-factor counts (H, F) per board, to draw each preset's tour share
    /// among settled attempts beside H/F (the hf-ratio figure): a CSV with columns
    /// board,closed_tours,two_factors,closed_tours_source,command, e.g.
    /// experiments/hf-counts.csv.
    #[arg(long, value_name = "FILE")]
    pub hf: Option<PathBuf>,
}

/// The records file of a results folder (or the file itself). A missing one is bad
/// input here; one that is not a regular file (a FIFO, a device) is refused by the
/// reader, which opens it without blocking ([`knightnet::io::open_input`]).
fn records_path(results: &Path) -> Result<PathBuf, InputError> {
    let path = if results.is_dir() {
        results.join("records.csv")
    } else {
        results.to_path_buf()
    };
    if std::fs::metadata(&path).is_err() {
        return Err(InputError::File(format!(
            "{} does not exist; give an experiment results folder holding records.csv, or the CSV file",
            path.display()
        )));
    }
    Ok(path)
}

pub fn run(args: PlotArgs, stdout: &mut dyn Write) -> Result<(), Failure> {
    // The report goes out once every figure is written: nothing on stdout on a failure.
    let mut report = Vec::new();
    draw(args, &mut report)?;
    stdout.write_all(&report)?;
    Ok(())
}

/// Draw the figures, writing what was drawn and skipped to `out`.
fn draw(args: PlotArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let path = records_path(&args.results)?;
    let published = args.published.as_deref().map(published::load).transpose()?;
    let counts = args.hf.as_deref().map(hf::load).transpose()?;
    let records = load(&path)?;
    let groups = aggregate(&records);
    if records.partial_line_bytes > 0 {
        writeln!(
            out,
            "ignored a half-written last line ({} bytes) in {}",
            records.partial_line_bytes,
            path.display()
        )?;
    }
    let source = {
        let dir = if args.results.is_dir() {
            args.results.as_path()
        } else {
            args.results.parent().unwrap_or(Path::new("."))
        };
        dir.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "results".into())
    };
    let ext = args.format.extension();
    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("out").join("plots").join(&source));
    if folder.exists() && !folder.is_dir() {
        return Err(InputError::File(format!(
            "--out '{}' is a file; plot writes its figures into a folder: give a folder path (created if missing)",
            folder.display()
        ))
        .into());
    }
    let target = |name: &str| folder.join(format!("{name}.{ext}"));
    let mut written = 0;
    let note = |out: &mut dyn Write, what: &str, result: Option<PathBuf>, why: &str| match result {
        Some(p) => writeln!(
            out,
            "wrote {} and its data {} ({what})",
            p.display(),
            p.with_extension("csv").display()
        ),
        None => writeln!(out, "skipped {what}: {why}"),
    };

    match OutcomeShares::new(&source, &groups) {
        Some(fig) => {
            let p = target("outcomes");
            fig.save(&p)?;
            written += 1;
            note(out, "outcome shares by board", Some(p), "")?;
        }
        None => note(
            out,
            "outcome shares",
            None,
            "no network trials (network+merge that always found a tour is left out)",
        )?,
    }
    match TourRate::new(&source, &groups, published) {
        Some(fig) => {
            let p = target("tour-rate");
            fig.save(&p)?;
            written += 1;
            note(out, "p(tour) per board, log axis", Some(p), "")?;
        }
        None => note(out, "p(tour) per board", None, "no network trials")?,
    }
    if let Some(counts) = counts {
        match HfRatio::new(&source, &groups, counts) {
            Some(fig) => {
                let p = target("hf-ratio");
                fig.save(&p)?;
                written += 1;
                note(out, "tours among settled attempts against H/F", Some(p), "")?;
            }
            None => note(
                out,
                "tours among settled attempts against H/F",
                None,
                "no network trial settled on a board of the --hf file",
            )?,
        }
    }
    match records
        .has_iterations
        .then(|| IterationHistograms::new(&source, &groups))
        .flatten()
    {
        Some(fig) => {
            let p = target("iterations");
            fig.save(&p)?;
            written += 1;
            note(out, "iteration histograms", Some(p), "")?;
        }
        None => note(
            out,
            "iteration histograms",
            None,
            "no network trials with an 'iterations' column",
        )?,
    }
    match records
        .time_column
        .as_deref()
        .and_then(|col| CostPerTour::new(&source, col, &groups))
    {
        Some(fig) => {
            let p = target("cost");
            fig.save(&p)?;
            written += 1;
            note(out, "cost per tour", Some(p), "")?;
        }
        None => note(
            out,
            "cost per tour",
            None,
            "needs a timing column ending in _ns and at least one tour",
        )?,
    }
    match RunLengths::new(&source, &records) {
        Some(fig) => {
            let p = target("run-length");
            fig.save(&p)?;
            written += 1;
            note(out, "run-length distributions", Some(p), "")?;
        }
        None => note(
            out,
            "run-length distributions",
            None,
            "needs an 'iterations' column and at least one tour",
        )?,
    }
    let run_json = args.results.join(knightnet::experiment::RUN);
    // A folder whose rows do not match its run.json loses the figures that need it only.
    // Rows are replayed below, by the figures that need their cycles (a mismatch there
    // is an error), not here.
    let run = if std::fs::symlink_metadata(&run_json).is_ok() {
        knightnet::experiment::summary::from_folder(&args.results, Replay::Sample(0))
            .map_err(|e| format!("cannot read the run: {e}"))
    } else {
        Err("needs the results folder's run.json (the cells' parameters)".into())
    };
    let phase = match &run {
        Ok((spec, summary)) => PhaseDiagram::new(&source, spec, summary),
        Err(why) => Err(why.clone()),
    };
    match phase {
        Ok(fig) => {
            let p = target("phase");
            fig.save(&p)?;
            written += 1;
            note(out, "phase diagram of the sweep", Some(p), "")?;
        }
        Err(why) => note(out, "phase diagram", None, &why)?,
    }
    let failures = match &run {
        // A replay that does not match its record is an error, not a skipped figure.
        Ok((spec, _)) => FailureAnatomy::new(&source, spec, &records.rows, failures::PER_BOARD)?
            .ok_or_else(|| "no network trial ended in several cycles".to_string()),
        Err(why) => Err(why.clone()),
    };
    match failures {
        Ok(fig) => {
            let p = target("failures");
            fig.save(&p)?;
            written += 1;
            note(out, "anatomy of several-cycle failures", Some(p), "")?;
        }
        Err(why) => note(out, "anatomy of several-cycle failures", None, &why)?,
    }
    writeln!(
        out,
        "{written} figure{} from {} trials in {} (in {})",
        if written == 1 { "" } else { "s" },
        records.rows.len(),
        path.display(),
        folder.display()
    )?;
    Ok(())
}

/// Check `--png`/`--svg` paths before any work: each must carry its own extension.
pub fn check_image_flags(png: Option<&Path>, svg: Option<&Path>) -> Result<(), InputError> {
    for (flag, path, want) in [
        ("--png", png, ImageFormat::Png),
        ("--svg", svg, ImageFormat::Svg),
    ] {
        if let Some(p) = path {
            knightnet::plot::check_output_path(p, flag)?;
            if ImageFormat::from_path(p, flag)? != want {
                return Err(InputError::param(format!(
                    "{flag} '{}' must end in .{}",
                    p.display(),
                    want.extension()
                )));
            }
        }
    }
    Ok(())
}

/// Draw a solution's tour into each given file (`solve --png/--svg`). Writes nothing
/// when the solution has no tour.
pub fn write_tour_figures(
    sol: &Solution,
    board: Board,
    seed: u64,
    paths: &[&Path],
) -> anyhow::Result<()> {
    let Some(fig) = BoardFigure::solution(sol, seed) else {
        return Ok(());
    };
    let width = BoardFigure::default_width(board);
    for p in paths {
        fig.save(p, width)?;
    }
    Ok(())
}

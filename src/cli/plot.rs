//! `knightnet plot`: draw every figure an experiment's `records.csv` supports into a
//! folder, each with its data as CSV beside it; also the tour figure behind
//! `solve --png/--svg`.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::Failure;
use knightnet::board::Board;
use knightnet::error::{InputError, Param, Phrase};
use knightnet::plot::board::BoardFigure;
use knightnet::plot::data::load;
use knightnet::plot::results::{self, ResultsInputs};
use knightnet::plot::{ImageFormat, PlotError, hf, published};
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
    #[arg(long, value_enum, default_value_t = Format::Png)]
    pub format: Format,
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
    ImageFormat::from(args.format).check_built(|| Phrase::new().text("--format pdf"))?;
    let path = records_path(&args.results)?;
    let published = args.published.as_deref().map(published::load).transpose()?;
    let counts = args.hf.as_deref().map(hf::load).transpose()?;
    let records = load(&path)?;
    if records.partial_line_bytes > 0 {
        writeln!(
            out,
            "ignored a half-written last line ({} bytes) in {}",
            records.partial_line_bytes,
            path.display()
        )?;
    }
    let source = results::source_name(&args.results);
    let folder = args
        .out
        .clone()
        .unwrap_or_else(|| results::default_out(&source));
    if folder.exists() && !folder.is_dir() {
        return Err(InputError::File(format!(
            "--out '{}' is a file; plot writes its figures into a folder: give a folder path (created if missing)",
            folder.display()
        ))
        .into());
    }
    let plan = results::plan(ResultsInputs {
        source: &source,
        results: &args.results,
        records: &records,
        published,
        counts,
    })?;
    let mut written = 0;
    for planned in plan {
        match planned.figure {
            Ok(fig) => {
                let p = folder.join(format!(
                    "{}.{}",
                    planned.stem,
                    ImageFormat::from(args.format).extension()
                ));
                fig.save(&p)?;
                written += 1;
                writeln!(
                    out,
                    "wrote {} and its data {} ({})",
                    p.display(),
                    p.with_extension("csv").display(),
                    planned.drawn
                )?;
            }
            Err(why) => writeln!(out, "skipped {}: {why}", planned.skipped)?,
        }
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

/// `--format`: the library's [`ImageFormat`] as the command line offers it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    // No doc comments: clap would list them as each value's help.
    Png,
    Svg,
    Pdf,
}

impl From<Format> for ImageFormat {
    fn from(f: Format) -> ImageFormat {
        match f {
            Format::Png => ImageFormat::Png,
            Format::Svg => ImageFormat::Svg,
            Format::Pdf => ImageFormat::Pdf,
        }
    }
}

/// Check `--png`/`--svg` paths before any work: each must carry its own extension.
pub fn check_image_flags(png: Option<&Path>, svg: Option<&Path>) -> Result<(), InputError> {
    for (param, path, want) in [
        (Param::Png, png, ImageFormat::Png),
        (Param::Svg, svg, ImageFormat::Svg),
    ] {
        if let Some(p) = path {
            knightnet::plot::check_output_path(p, param)?;
            if ImageFormat::from_path(p, param)? != want {
                return Err(InputError::param(format!(
                    "--{} '{}' must end in .{}",
                    super::wording::flag(param),
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
) -> Result<(), PlotError> {
    let Some(fig) = BoardFigure::solution(sol, seed) else {
        return Ok(());
    };
    let width = BoardFigure::default_width(board);
    for p in paths {
        fig.save(p, width)?;
    }
    Ok(())
}

//! Figures. Each figure kind lives in its own file and is a function of saved (or
//! freshly computed) data and an output path; the file extension picks the format
//! (`.png`, `.svg` or `.pdf`; the animation writes `.gif`). Every records-based and
//! convergence figure also writes the data it draws beside it as CSV ([`table`]).
//!
//! Sizes and fonts are chosen for a two-column journal figure: about 1000 pixels wide,
//! tick labels 18–19 px and axis labels 20 px, so at a printed width of 7 inches (504 pt;
//! the SVG/PDF scale freely) the text is 9–10 pt.
//!
//! Text is drawn with DejaVu Sans, compiled in from the `dejavu` crate and registered
//! with plotters' `ab_glyph` font table by `register_fonts` (no system fonts, no
//! fontconfig). The DejaVu / Bitstream Vera licence ships as `LICENSE-DEJAVU`.
//!
//! | file | figure |
//! |---|---|
//! | [`board`] | a tour, the cycles of a failed attempt, or any set of moves on a checkered board |
//! | [`animation`] | GIF of the network's outputs step by step |
//! | [`convergence`] | active neurons, squares off degree 2 and changed outputs per step |
//! | [`outcomes`] | outcome shares versus board size, one panel per preset |
//! | [`iterations`] | histograms of iterations per trial, per preset and board |
//! | [`cost`] | time per tour, network presets against the classical solvers |
//! | [`data`] | the `records.csv` loader and per-group aggregates the last three draw |
//! | `tour_rate` | p(tour) per board on a log axis with Wilson intervals and published points |
//! | `run_length` | run-length distributions: ECDFs of iterations and time to a tour with restarts |
//! | [`phase`] | phase diagram of a two-key sweep: tour rate as a heat map, one panel per board |
//! | [`hf`] | tours among settled attempts per preset beside H/F (closed tours / 2-factors) |
//! | [`failures`] | anatomy of several-cycle failures: number of cycles and cycle lengths, by board |
//! | [`results`] | which figures a results folder supports, in drawing order, and why the others are left out |
//! | [`replay`] | replaying network trials of a results folder, checked against their records (the cycle lengths) |
//! | [`trace`] | the `solve --trace` reader, for convergence and animation from saved runs |
//! | `axes` | tick positions shared by the figures (board categories, log and linear axes) |
//! | [`panel`] | the chart set-up the panels share (label areas, mesh style) and a distribution's step line |
//! | [`table`] | the CSV written beside each figure |
//! | `pdf` | SVG to PDF with the bundled font (feature `pdf`) |
//! | [`published`] | published tour rates (`plot --published FILE`) |

pub mod animation;
pub(crate) mod axes;
pub mod board;
pub mod convergence;
pub mod cost;
pub(crate) mod csv_input;
pub mod data;
pub mod failures;
pub mod hf;
pub mod iterations;
pub mod outcomes;
pub(crate) mod palette;
pub mod panel;
#[cfg(feature = "pdf")]
pub mod pdf;
pub mod phase;
pub mod published;
pub mod replay;
pub mod results;
pub(crate) mod run_length;
pub mod table;
pub(crate) mod tour_rate;
pub mod trace;

use std::path::Path;
use std::sync::Once;

use plotters::drawing::DrawingAreaErrorKind;
use plotters::prelude::*;

use crate::error::{InputError, Param, Phrase};

/// A figure that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// Bad input: an output path that cannot be a file, a data file that cannot be read
    /// or that contradicts its run.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The backend failed to draw.
    #[error("drawing failed: {0}")]
    Drawing(String),
    /// The figure or its data could not be written for a reason of the environment (a
    /// full disk, an encoder's failure); the message names the file.
    #[error("{0}")]
    Write(String),
    /// There is nothing to draw (a convergence figure without steps, an animation
    /// without states).
    #[error("{0}")]
    Empty(String),
}

impl PlotError {
    /// Whether the failure is bad input rather than the environment's.
    pub fn is_input(&self) -> bool {
        matches!(self, PlotError::Input(e) if !e.is_environment())
    }

    /// The failure as the I/O error a write through [`crate::io`] reports with its
    /// file's name: what it says, as [`std::io::Error::other`].
    pub(crate) fn into_io(self) -> std::io::Error {
        std::io::Error::other(self.to_string())
    }
}

/// The error of a write through [`crate::io`] or of a records file read for a figure:
/// its [`InputError`] if it is bad input, else the environment's failure with its
/// message.
impl From<crate::error::Error> for PlotError {
    fn from(e: crate::error::Error) -> PlotError {
        match e {
            crate::error::Error::Input(i) => PlotError::Input(i),
            e => PlotError::Write(e.to_string()),
        }
    }
}

/// Every font family string the figures draw with; each is registered as DejaVu Sans.
pub(crate) const FONT: &str = "sans-serif";
const FAMILIES: [&str; 3] = ["sans-serif", "serif", "monospace"];

/// Register DejaVu Sans (regular and bold) under every family name used. Idempotent;
/// every figure function calls it before drawing (SVG text layout needs it too).
pub(crate) fn register_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for family in FAMILIES {
            let ok =
                plotters::style::register_font(family, FontStyle::Normal, dejavu::sans::regular())
                    .is_ok()
                    && plotters::style::register_font(
                        family,
                        FontStyle::Bold,
                        dejavu::sans::bold(),
                    )
                    .is_ok();
            assert!(ok, "the bundled DejaVu Sans font failed to load");
        }
    });
}

/// Output format of a still figure, chosen by the path's extension
/// ([`ImageFormat::from_path`]) or given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    /// A PNG bitmap.
    Png,
    /// An SVG drawing.
    Svg,
    /// A PDF page (the SVG drawing converted, text in DejaVu Sans).
    Pdf,
}

impl ImageFormat {
    /// `.png`, `.svg` or `.pdf` (case-insensitive); anything else is bad input naming
    /// `param`, the parameter that gave the path.
    pub fn from_path(path: &Path, param: Param) -> Result<ImageFormat, InputError> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("png") => Ok(ImageFormat::Png),
            Some("svg") => Ok(ImageFormat::Svg),
            Some("pdf") => ImageFormat::Pdf
                .check_built(|| Phrase::new().setting(param, format!("'{}'", path.display()))),
            _ => Err(InputError::named(
                Phrase::new()
                    .setting(param, format!("'{}'", path.display()))
                    .text(" has no image extension; accepted: .png, .svg, .pdf"),
            )),
        }
    }

    /// Whether this build writes `self`: PDF needs the `pdf` feature; without it a
    /// `.pdf` is bad input, worded after `given` (the parameter and value that asked).
    pub fn check_built(self, given: impl FnOnce() -> Phrase) -> Result<ImageFormat, InputError> {
        if self == ImageFormat::Pdf && !cfg!(feature = "pdf") {
            return Err(InputError::named(given().text(
                " asks for PDF, which this build cannot write (built without the `pdf` \
                 feature: cargo build --release --features pdf); accepted: .png, .svg",
            )));
        }
        Ok(self)
    }

    /// The file extension, without its dot: `png`, `svg`, `pdf`.
    pub fn extension(self) -> &'static str {
        match self {
            ImageFormat::Png => "png",
            ImageFormat::Svg => "svg",
            ImageFormat::Pdf => "pdf",
        }
    }
}

/// Refuse, before any work, an output path that names a folder or anything else that
/// is not a regular file (a FIFO, a device, ...; symbolic links are followed), or whose
/// parent is a file: all are bad input (exit 2) naming `param`, the parameter that gave
/// the path.
pub fn check_output_path(path: &Path, param: Param) -> Result<(), InputError> {
    let given = || Phrase::new().setting(param, format!("'{}'", path.display()));
    if path.is_dir() {
        return Err(InputError::named(given().text(format!(
            " is a folder; give a file path (the folder may hold it: '{}')",
            path.join("figure.png").display()
        ))));
    }
    if let Ok(m) = std::fs::metadata(path)
        && !m.is_file()
    {
        return Err(InputError::named(given().text(format!(
            " is {}, not a regular file; give a file path",
            crate::io::file_kind(&m.file_type())
        ))));
    }
    let mut dir = path.parent();
    while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if d.exists() {
            if !d.is_dir() {
                return Err(InputError::named(
                    given().text(format!(": '{}' is a file, not a folder", d.display())),
                ));
            }
            break;
        }
        dir = d.parent();
    }
    Ok(())
}

/// Make ready to write the figure `path`: the path is checked ([`check_output_path`])
/// and its folder created.
pub(crate) fn prepare(path: &Path) -> Result<(), PlotError> {
    check_output_path(path, Param::Out)?;
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| crate::io::io_failure("create folder", dir, e))?;
    }
    Ok(())
}

/// A backend's failure, as the I/O error it carries (so that [`crate::io`] reports it
/// with the file's name, as input or environment by one rule), or as what it says.
fn backend_io_error(e: &(dyn std::error::Error + 'static)) -> std::io::Error {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if let Some(io) = c.downcast_ref::<std::io::Error>() {
            return std::io::Error::new(io.kind(), crate::io::os_reason(io));
        }
        cause = c.source();
    }
    // The image encoders' errors print the I/O error they carry (a full disk, say) but do
    // not hand it out: the environment, with what they say.
    let text = e.to_string();
    let text = match text.rfind(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    };
    std::io::Error::other(text)
}

/// A bitmap (PNG or GIF) backend's failure to write its file.
pub(crate) fn bitmap_err(
    e: DrawingAreaErrorKind<plotters_bitmap::BitMapBackendError>,
) -> std::io::Error {
    use plotters_backend::DrawingErrorKind as D;
    use plotters_bitmap::BitMapBackendError as B;
    match e {
        DrawingAreaErrorKind::BackendError(D::DrawingError(B::IOError(io))) => {
            backend_io_error(&io)
        }
        DrawingAreaErrorKind::BackendError(D::DrawingError(B::ImageError(e))) => {
            backend_io_error(&e)
        }
        DrawingAreaErrorKind::BackendError(D::DrawingError(B::GifEncodingError(e))) => {
            backend_io_error(&e)
        }
        other => std::io::Error::other(format!("drawing failed: {other}")),
    }
}

/// The SVG backend's failure.
pub(crate) fn svg_err(e: DrawingAreaErrorKind<std::io::Error>) -> std::io::Error {
    match e {
        DrawingAreaErrorKind::BackendError(plotters_backend::DrawingErrorKind::DrawingError(
            io,
        )) => backend_io_error(&io),
        other => std::io::Error::other(format!("drawing failed: {other}")),
    }
}

/// Render a still figure on a PNG or SVG backend chosen by the extension of `path`, of
/// `size` pixels (a `.pdf`, with the `pdf` feature, is drawn as SVG in memory and converted). The
/// file is written through [`crate::io`]: drawn into a temporary file beside `path`
/// (created before drawing starts, so a path that cannot be written fails at once),
/// renamed into place when complete, removed on every failure.
pub fn render<F: Figure>(figure: &F, path: &Path, size: (u32, u32)) -> Result<(), PlotError> {
    register_fonts();
    let format = ImageFormat::from_path(path, Param::Out)?;
    prepare(path)?;
    let written = match format {
        ImageFormat::Png => crate::io::write_atomic_at(path, &mut |tmp: &Path| {
            let root = BitMapBackend::new(tmp, size).into_drawing_area();
            figure.draw(&root).map_err(PlotError::into_io)?;
            root.present().map_err(bitmap_err)
        }),
        ImageFormat::Svg | ImageFormat::Pdf => {
            crate::io::write_atomic_with(path, &mut |w: &mut dyn std::io::Write| {
                let mut svg = String::new();
                {
                    let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
                    figure.draw(&root).map_err(PlotError::into_io)?;
                    root.present().map_err(svg_err)?;
                }
                #[cfg(feature = "pdf")]
                if format == ImageFormat::Pdf {
                    w.write_all(&pdf::svg_to_pdf(&svg).map_err(PlotError::into_io)?)?;
                    return Ok(());
                }
                w.write_all(svg.as_bytes())?;
                Ok(())
            })
        }
    };
    Ok(written?)
}

/// Result of drawing on a backend.
pub(crate) type DrawResult = Result<(), PlotError>;

/// A figure: it draws itself on any plotters backend (PNG, GIF, SVG), so [`render`]
/// writes it in whichever format the path asks for.
pub trait Figure {
    /// Draw the whole figure on `root`.
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, plotters::coord::Shift>,
    ) -> DrawResult;
}

/// A backend's drawing error as a [`PlotError::Drawing`] (backend errors are not
/// `'static` in plotters' signatures, so they are formatted on one line).
pub(crate) fn de<E: std::fmt::Display>(e: E) -> PlotError {
    PlotError::Drawing(e.to_string())
}

/// Draw a figure's bold title and the subtitle under it, centred at the top (the body
/// starts about 70 pixels down).
pub(crate) fn heading<DB: DrawingBackend>(
    root: &DrawingArea<DB, plotters::coord::Shift>,
    title: impl AsRef<str>,
    subtitle: impl AsRef<str>,
) -> DrawResult {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let (w, _) = root.dim_in_pixel();
    let centre = Pos::new(HPos::Center, VPos::Top);
    let title_font = (FONT, 24)
        .into_font()
        .style(FontStyle::Bold)
        .color(&palette::INK)
        .pos(centre);
    root.draw(&Text::new(
        title.as_ref().to_string(),
        (w as i32 / 2, 10),
        title_font,
    ))
    .map_err(de)?;
    let sub_font = (FONT, 17).into_font().color(&palette::INK).pos(centre);
    root.draw(&Text::new(
        subtitle.as_ref().to_string(),
        (w as i32 / 2, 44),
        sub_font,
    ))
    .map_err(de)
}

/// `text` broken at spaces into lines no wider than `width` pixels in `font` (a word
/// wider than that gets a line of its own). Text is measured by its layout box, as
/// every plotters backend measures it, so no drawing area is needed.
pub(crate) fn wrap(text: &str, font: &TextStyle<'_>, width: i32) -> Vec<String> {
    let fits = |s: &str| {
        font.font
            .layout_box(s)
            .map_or(s.chars().count() as i32 * 8, |((x0, _), (x1, _))| x1 - x0)
            <= width
    };
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// "N trials per WHAT" or "A–B trials per WHAT" over the given trial counts.
pub(crate) fn trials_phrase(trials: impl Iterator<Item = u64>, what: &str) -> String {
    let (lo, hi) = trials.fold((u64::MAX, 0), |(lo, hi), t| (lo.min(t), hi.max(t)));
    match (lo, hi) {
        (u64::MAX, _) => format!("0 trials per {what}"),
        (lo, hi) if lo == hi => format!("{} trials per {what}", axes::count(lo)),
        (lo, hi) => format!("{}–{} trials per {what}", axes::count(lo), axes::count(hi)),
    }
}

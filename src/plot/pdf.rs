//! PDF output: a figure drawn as SVG is converted in-process with `usvg` and `svg2pdf`,
//! its text set in the bundled DejaVu Sans (loaded from memory into the font database
//! under every family name the figures use; no system fonts are looked up). One SVG
//! pixel becomes one PDF point.
//!
//! Only the regular face is loaded: bold text (titles) is set in regular in the PDF.
//! `svg2pdf` writes the fonts of a document in hash-map order, so with two faces the
//! same figure could give different bytes from run to run; with one it cannot.

use anyhow::anyhow;

/// Convert an SVG document (as written by plotters' SVG backend) into PDF bytes.
pub fn svg_to_pdf(svg: &str) -> anyhow::Result<Vec<u8>> {
    let mut options = usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(dejavu::sans::regular().to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    db.set_serif_family("DejaVu Sans");
    db.set_monospace_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options)
        .map_err(|e| anyhow!("cannot read the drawn SVG for PDF conversion: {e}"))?;
    svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| anyhow!("cannot convert the figure to PDF: {e}"))
}

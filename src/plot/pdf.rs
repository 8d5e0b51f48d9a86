//! PDF output: a figure drawn as SVG is converted in-process with `usvg` and `svg2pdf`,
//! its text set in the bundled DejaVu Sans (loaded from memory into the font database
//! under every family name the figures use; no system fonts are looked up). One SVG
//! pixel becomes one PDF point.
//!
//! Only the regular face is loaded: bold text (titles) is set in regular in the PDF.
//! `svg2pdf` writes the fonts of a document in hash-map order, so with two faces the
//! same figure could give different bytes from run to run; with one it cannot.
//!
//! It writes the entries of a page's resource dictionaries (`/XObject`, `/ExtGState`,
//! ...) in hash-map order too, which differs between runs once a figure has more than
//! one of a kind (translucent bands, for example). `svg_to_pdf` sorts those entries:
//! each is one line `/NAME N 0 R`, so sorting them inside their dictionary keeps every
//! byte offset, and the cross-reference table stays right. The same figure then gives
//! the same bytes.

use super::PlotError;

/// Convert an SVG document (as written by plotters' SVG backend) into PDF bytes.
pub(crate) fn svg_to_pdf(svg: &str) -> Result<Vec<u8>, PlotError> {
    let mut options = usvg::Options::default();
    let db = options.fontdb_mut();
    db.load_font_data(dejavu::sans::regular().to_vec());
    db.set_sans_serif_family("DejaVu Sans");
    db.set_serif_family("DejaVu Sans");
    db.set_monospace_family("DejaVu Sans");
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| {
        PlotError::Write(format!("cannot read the drawn SVG for PDF conversion: {e}"))
    })?;
    let mut pdf = svg2pdf::to_pdf(
        &tree,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions::default(),
    )
    .map_err(|e| PlotError::Write(format!("cannot convert the figure to PDF: {e}")))?;
    sort_reference_dictionaries(&mut pdf);
    Ok(pdf)
}

/// Sort, in place, the lines of every dictionary whose lines are all references
/// `/NAME N 0 R` (the resource dictionaries), leaving every other byte where it was.
fn sort_reference_dictionaries(pdf: &mut [u8]) {
    let is_reference = |line: &[u8]| {
        let text = String::from_utf8_lossy(line);
        let mut words = text.split_ascii_whitespace();
        matches!(
            (words.next(), words.next(), words.next(), words.next(), words.next()),
            (Some(name), Some(n), Some("0"), Some("R"), None)
                if name.starts_with('/') && n.bytes().all(|b| b.is_ascii_digit())
        )
    };
    let mut start = 0;
    while let Some(open) = find(&pdf[start..], b"<<\n").map(|i| start + i + 3) {
        start = open;
        // The dictionary's lines, up to the line that closes it.
        let mut lines: Vec<(usize, usize)> = Vec::new();
        let mut at = open;
        let closed = loop {
            let Some(end) = pdf[at..].iter().position(|&b| b == b'\n').map(|i| at + i) else {
                break false;
            };
            let line = &pdf[at..end];
            if line.iter().all(|&b| b == b' ') || !is_reference(line) {
                break line.trim_ascii() == b">>";
            }
            lines.push((at, end));
            at = end + 1;
        };
        if !closed || lines.len() < 2 {
            continue;
        }
        let mut sorted: Vec<Vec<u8>> = lines.iter().map(|&(a, b)| pdf[a..b].to_vec()).collect();
        sorted.sort();
        let (first, last) = (lines[0].0, lines[lines.len() - 1].1);
        let joined = sorted.join(&b'\n');
        // A permutation of the same lines: the same length.
        pdf[first..last].copy_from_slice(&joined);
        start = last;
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_dictionaries_are_sorted_in_place() {
        let mut pdf = b"1 0 obj\n<<\n  /XObject <<\n    /xo2 12 0 R\n    /xo0 8 0 R\n    /xo1 10 0 R\n  >>\n  /Type /Page\n>>\nendobj\n".to_vec();
        let len = pdf.len();
        sort_reference_dictionaries(&mut pdf);
        assert_eq!(pdf.len(), len);
        assert_eq!(
            String::from_utf8(pdf).unwrap(),
            "1 0 obj\n<<\n  /XObject <<\n    /xo0 8 0 R\n    /xo1 10 0 R\n    /xo2 12 0 R\n  >>\n  /Type /Page\n>>\nendobj\n"
        );
    }

    #[test]
    fn a_figure_with_several_translucent_groups_converts_to_the_same_bytes() {
        let rects: String = (0..6)
            .map(|i| {
                format!(
                    r##"<rect x="{}" y="10" width="20" height="20" fill="#3366cc" opacity="0.{}"/>"##,
                    10 + 30 * i,
                    i + 2
                )
            })
            .collect();
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="220" height="40">{rects}</svg>"#
        );
        let first = svg_to_pdf(&svg).unwrap();
        for _ in 0..20 {
            assert_eq!(svg_to_pdf(&svg).unwrap(), first);
        }
    }
}

//! Colours: the Okabe–Ito palette (safe for the common colour-vision deficiencies), the
//! board's neutral squares, and fixed colours per outcome so every figure agrees.

use plotters::style::RGBColor;

/// Okabe & Ito (2008), "Color Universal Design", in their order minus black.
pub(crate) const OKABE_ITO: [RGBColor; 7] = [
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xF0, 0xE4, 0x42), // yellow
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
];

pub(crate) const ORANGE: RGBColor = OKABE_ITO[0];
pub(crate) const SKY_BLUE: RGBColor = OKABE_ITO[1];
pub(crate) const GREEN: RGBColor = OKABE_ITO[2];
pub(crate) const BLUE: RGBColor = OKABE_ITO[4];
pub(crate) const VERMILLION: RGBColor = OKABE_ITO[5];
pub(crate) const PURPLE: RGBColor = OKABE_ITO[6];
pub(crate) const INK: RGBColor = RGBColor(0x20, 0x20, 0x20);
pub(crate) const GREY: RGBColor = RGBColor(0x80, 0x80, 0x80);

/// Light and dark board squares: neutral, so coloured paths stand out on both.
pub(crate) const SQUARE_LIGHT: RGBColor = RGBColor(0xF4, 0xF1, 0xEA);
pub(crate) const SQUARE_DARK: RGBColor = RGBColor(0xD6, 0xD0, 0xC4);

/// The series colours in order: Okabe–Ito without its yellow (hard to read on white and
/// on the light board), then near-black and grey.
const SERIES: [RGBColor; 8] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE, SKY_BLUE, INK, GREY];

/// Colour for the `i`-th of several cycles, or series: the eight [`SERIES`] colours in
/// turn ([`dash`] tells series that share a colour apart).
pub fn series(i: usize) -> RGBColor {
    SERIES[i % SERIES.len()]
}

/// How a series' line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dash {
    /// A solid line: the first eight series.
    Solid,
    /// Dashes: series 9 to 16.
    Dashed,
    /// Dots: series 17 to 24 (and so on in turn).
    Dotted,
}

/// The line of the `i`-th series: solid for the first eight, whose colours are all
/// distinct, then dashed, then dotted, so that every multi-series figure (up to 24
/// series) tells each one apart by colour and line together.
pub fn dash(i: usize) -> Dash {
    match (i / SERIES.len()) % 3 {
        0 => Dash::Solid,
        1 => Dash::Dashed,
        _ => Dash::Dotted,
    }
}

/// Colour of a network outcome name (records' `outcome` column).
pub fn outcome(name: &str) -> RGBColor {
    match name {
        "tour" => BLUE,
        "multiple-cycles" => ORANGE,
        "stable-not-degree-two" => SKY_BLUE,
        "iteration-cap" => VERMILLION,
        _ => GREY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_series_up_to_24_has_its_own_colour_and_line() {
        let styles: Vec<(RGBColor, Dash)> = (0..24).map(|i| (series(i), dash(i))).collect();
        for (i, a) in styles.iter().enumerate() {
            for b in &styles[i + 1..] {
                assert_ne!(a, b);
            }
        }
        // Eleven boards: the first eight solid in distinct colours, three dashed.
        assert_eq!((0..11).filter(|&i| dash(i) == Dash::Dashed).count(), 3);
    }
}

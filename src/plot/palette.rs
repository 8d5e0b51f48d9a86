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

/// Colour for the `i`-th of several cycles, or series. Yellow is left out (hard to
/// read on white and on the light board); after seven colours comes grey.
pub fn series(i: usize) -> RGBColor {
    const ORDER: [RGBColor; 8] = [BLUE, VERMILLION, GREEN, PURPLE, ORANGE, SKY_BLUE, INK, GREY];
    ORDER[i % ORDER.len()]
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

//! Figures through the library's plot module: the board figure of a tour, of a
//! network's cycles or of a network state, written as PNG, SVG or PDF.

use std::path::Path;

use knightnet::error::Param;
use knightnet::plot::board::BoardFigure;
use knightnet::plot::{ImageFormat, check_output_path};
use pyo3::prelude::*;

use crate::errors;

/// Check the path (an image extension, not a folder), then draw without the GIL.
pub fn save(py: Python<'_>, fig: &BoardFigure, path: &Path, width: u32) -> PyResult<()> {
    ImageFormat::from_path(path, Param::Path).map_err(errors::input)?;
    check_output_path(path, Param::Path).map_err(errors::input)?;
    if width == 0 || width > 4_000 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "width = {width} is not accepted; give 1 to 4000 pixels"
        )));
    }
    py.detach(|| fig.save(path, width)).map_err(errors::plot)
}

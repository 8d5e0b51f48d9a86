//! Library errors as Python exceptions: bad input ([`InputError`]) is a `ValueError` with
//! the library's message, its parameters named as keyword arguments ([`Keywords`]); a
//! failed file write is an `OSError`; anything else a `RuntimeError`.

use knightnet::error::{Error, InputError, Naming, Param};
use knightnet::tour::TourError;
use pyo3::PyErr;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};

/// Parameters named as this module's keyword arguments: `threads`, `threads=0`.
pub struct Keywords;

impl Naming for Keywords {
    fn param(&self, p: Param) -> String {
        p.keyword()
    }
    fn setting(&self, p: Param, value: &str) -> String {
        format!("{}={value}", p.keyword())
    }
    fn switch(&self, p: Param) -> String {
        format!("{}=True", p.keyword())
    }
}

/// Bad input.
pub fn input(e: InputError) -> PyErr {
    PyValueError::new_err(e.render(&Keywords))
}

/// A library error: bad input, or the environment's failure.
pub fn library(e: Error) -> PyErr {
    match e {
        Error::Input(i) => input(i),
        e @ Error::Io { .. } => PyOSError::new_err(e.to_string()),
        e => PyRuntimeError::new_err(e.render(&Keywords)),
    }
}

/// A sequence that is not a tour (the oracle's reason).
pub fn tour(e: TourError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A figure that could not be drawn or written: bad input, else a `RuntimeError` with
/// its message (which names the file).
pub fn plot(e: knightnet::plot::PlotError) -> PyErr {
    match e {
        knightnet::plot::PlotError::Input(i) => input(i),
        e => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A value that could not be serialized: a bug, as a `RuntimeError`.
pub fn internal(e: impl std::fmt::Display) -> PyErr {
    PyRuntimeError::new_err(format!("internal error: {e}"))
}

//! Library errors as Python exceptions: bad input ([`InputError`]) is a `ValueError` with
//! the library's message, its parameters named as keyword arguments ([`Keywords`]); a
//! failed file write is an `OSError`; anything else a `RuntimeError`.

use knightnet::error::{Error, InputError, Naming, Param};
use knightnet::tour::TourError;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

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

/// An error from a library call that reports through `anyhow`.
pub fn any(e: anyhow::Error) -> PyErr {
    let e = match e.downcast::<InputError>() {
        Ok(i) => return input(i),
        Err(e) => e,
    };
    let e = match e.downcast::<Error>() {
        Ok(l) => return library(l),
        Err(e) => e,
    };
    match e {
        e if e.chain().any(|c| c.is::<std::io::Error>()) => PyOSError::new_err(format!("{e:#}")),
        e => PyRuntimeError::new_err(format!("{e:#}")),
    }
}

//! Library errors as Python exceptions: bad input ([`InputError`]) is a `ValueError` with
//! the library's message (the line the command line prints after `error: `); a failed
//! file write is an `OSError`; anything else a `RuntimeError`.

use knightnet::error::InputError;
use knightnet::tour::TourError;
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

/// Bad input.
pub fn input(e: InputError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A sequence that is not a tour (the oracle's reason).
pub fn tour(e: TourError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An error from a library call that reports through `anyhow`.
pub fn any(e: anyhow::Error) -> PyErr {
    match e.downcast::<InputError>() {
        Ok(i) => input(i),
        Err(e) if e.chain().any(|c| c.is::<std::io::Error>()) => {
            PyOSError::new_err(format!("{e:#}"))
        }
        Err(e) => PyRuntimeError::new_err(format!("{e:#}")),
    }
}

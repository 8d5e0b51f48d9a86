//! Errors a user can cause. Every message names what was wrong and what is accepted;
//! the binary prints it on one line and exits with code 2.

use thiserror::Error;

/// Bad input: a board, square, parameter, file or request that cannot be served.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
pub enum InputError {
    #[error("{0}")]
    Board(String),
    #[error("{0}")]
    Square(String),
    #[error("{0}")]
    Parameter(String),
    /// The request is impossible by a theorem (for example a closed tour on an odd board).
    #[error("{0}")]
    Impossible(String),
    /// The board would need more memory than the documented limit.
    #[error("{0}")]
    TooLarge(String),
    /// A spec, tour or trace file that cannot be read or parsed.
    #[error("{0}")]
    File(String),
}

impl InputError {
    /// Shorthand for a parameter error.
    pub fn param(msg: impl Into<String>) -> InputError {
        InputError::Parameter(msg.into())
    }
}

//! Flags and their values: a bad value is reported with the flag that carried it.
//!
//! Values that parse on their own (a board, a solver, a preset, a seed) are parsed by
//! clap through each type's `FromStr` (`#[arg(long)] board: Board`), so a subcommand's
//! `run` receives typed values. A value that needs another to be checked (a square needs
//! its board) is parsed once in `run` and its error is tagged with its flag by
//! [`OfFlag::of_flag`]. Either way the printed line is `error: --flag: message`, or the
//! bare message when it names a flag already.

use std::fmt;

/// The help text of every `--board` flag, as a literal (so that a flag can add to it
/// with `concat!`): what [`Board`]'s `FromStr` accepts, a single number included.
macro_rules! board_help {
    () => {
        "Board size ROWSxCOLS, like 8x8 or 10x12; a single number N is the square board NxN (8 is 8x8)."
    };
}
pub(crate) use board_help;

use knightnet::board::Board;
use knightnet::error::InputError;

/// A value refused by the library, with the flag that carried it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FlagError {
    /// The flag as typed on the command line (`--start`).
    pub flag: &'static str,
    /// What was wrong with its value.
    pub error: InputError,
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&with_flag(self.flag, &super::wording::input(&self.error)))
    }
}

impl std::error::Error for FlagError {}

/// Tag a library error with the flag whose value caused it.
pub trait OfFlag<T> {
    /// The error, if any, as a [`FlagError`] of `flag`.
    fn of_flag(self, flag: &'static str) -> Result<T, FlagError>;
}

impl<T> OfFlag<T> for Result<T, InputError> {
    fn of_flag(self, flag: &'static str) -> Result<T, FlagError> {
        self.map_err(|error| FlagError { flag, error })
    }
}

/// The square `--start` names on `board` (`ROW,COL`, or an algebraic name on boards of at
/// most 26 columns), if given; a bad name is a [`FlagError`] of `--start`.
pub fn start_square(board: Board, start: Option<&str>) -> Result<Option<u32>, FlagError> {
    start
        .map(|s| board.parse_square(s))
        .transpose()
        .of_flag("--start")
}

/// `flag: message`, or the message alone when it names a flag already (`--trials 0 is
/// not accepted ...`).
pub fn with_flag(flag: &str, msg: &str) -> String {
    if msg.contains("--") {
        msg.to_string()
    } else {
        format!("{flag}: {msg}")
    }
}

/// The line for a value clap's parser refused by the library's own check (a board, a
/// solver, a preset...): the flag and the library's message, as a value refused later
/// would read. `None` for every other clap error.
pub fn value_error_line(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let input = std::error::Error::source(e)?.downcast_ref::<InputError>()?;
    // The argument as clap shows it: `--board <BOARD>`.
    let arg = match e.get(ContextKind::InvalidArg)? {
        ContextValue::String(s) => s.clone(),
        _ => return None,
    };
    let flag = arg.split_whitespace().next()?;
    Some(with_flag(flag, &super::wording::input(input)))
}

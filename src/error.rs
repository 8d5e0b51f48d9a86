//! Errors a request can meet before or while it is served. Every message names what was
//! wrong and what is accepted; the binary prints it on one line and exits with code 2,
//! except for [`InputError::OutOfMemory`] and [`InputError::Threads`]: the request was
//! sound but the process lacks the memory or threads (the environment's failure, exit
//! code 1; [`InputError::is_environment`]).

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
    /// The request is beyond a bound the user typed (`--max-memory`) or a hard
    /// representation limit (32-bit edge indices, the frontier key's width).
    #[error("{0}")]
    TooLarge(String),
    /// The request needs more memory than this process may use
    /// ([`crate::memory::limit`]), or a large buffer could not be allocated: not the
    /// input's fault but the environment's ([`InputError::is_environment`]).
    #[error(transparent)]
    OutOfMemory(#[from] crate::memory::MemoryError),
    /// The worker threads asked for could not be started: the environment's failure.
    #[error(transparent)]
    Threads(#[from] ThreadsError),
    /// A spec, tour or trace file that cannot be read or parsed.
    #[error("{0}")]
    File(String),
    /// A spec whose content cannot be served, with what the message names as fields.
    #[error("{0}")]
    Spec(Box<SpecError>),
}

/// Worker threads that could not be started ([`crate::thread_pool`]): more than the
/// memory allows, or refused by the system.
#[derive(Debug, Clone, Error, PartialEq, Eq)]
#[error("cannot start {threads} threads: {reason}; give fewer with --threads")]
pub struct ThreadsError {
    /// Threads asked for.
    pub threads: usize,
    /// Why not: the memory they would reserve, or the system's message.
    pub reason: String,
}

/// An experiment spec's content that cannot be served, carrying as fields what its
/// message names: the file, the line, the `[[solver]]` entry and the key. It prints one
/// line, `ORIGIN[, line N]: [[[solver]] #K ("SOLVER"): ]MESSAGE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    /// The spec's path, or `built-in quickstart.toml`.
    pub origin: String,
    /// The 1-based line pointed at (`None`: the spec as a whole).
    pub line: Option<usize>,
    /// The `[[solver]]` entry the message names, if it names one.
    pub entry: Option<SpecEntry>,
    /// The spec key concerned (`trials`, `boards`, `start`, ...), when the message names
    /// one.
    pub key: Option<String>,
    /// What is wrong and what is accepted.
    pub message: String,
}

/// A `[[solver]]` entry of a spec, as errors name it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecEntry {
    /// Its position among the entries, from 1.
    pub number: usize,
    /// Its `solver` text.
    pub solver: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.origin)?;
        if let Some(line) = self.line {
            write!(f, ", line {line}")?;
        }
        f.write_str(": ")?;
        if let Some(e) = &self.entry {
            write!(f, "[[solver]] #{} (\"{}\"): ", e.number, e.solver)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for SpecError {}

impl From<SpecError> for InputError {
    fn from(e: SpecError) -> InputError {
        InputError::Spec(Box::new(e))
    }
}

impl InputError {
    /// Whether the failure is the environment's (exit code 1) rather than the input's
    /// (exit code 2): out of memory, or threads that could not start.
    pub fn is_environment(&self) -> bool {
        matches!(self, InputError::OutOfMemory(_) | InputError::Threads(_))
    }

    /// Shorthand for a parameter error.
    pub fn param(msg: impl Into<String>) -> InputError {
        InputError::Parameter(msg.into())
    }
}

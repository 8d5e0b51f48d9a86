//! The command line: a thin clap layer. Each subcommand lives in its own file, turns its
//! flags into validated library configuration, calls the library, and prints.

pub mod count;
pub mod exists;
pub mod solve;

use std::ffi::OsString;
use std::io::Write;

use clap::{Parser, Subcommand};

use crate::error::InputError;

/// knightnet: knight's tours with the Takefuji–Lee neural network and classical solvers.
#[derive(Debug, Parser)]
#[command(name = "knightnet", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)]
pub enum Command {
    /// Find one knight's tour and print it (default: 8x8, network preset `parberry`, seed 1).
    Solve(solve::SolveArgs),
    /// Whether a tour exists, from the theorems (Schwenk 1991 for closed tours).
    Exists(exists::ExistsArgs),
    /// Count all tours of a small board by exhaustive search.
    Count(count::CountArgs),
}

/// How a failed command should exit.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: one line on stderr, exit code 2.
    Input(InputError),
    /// Anything else (I/O, internal): exit code 1.
    Other(anyhow::Error),
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        Failure::Input(e)
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        match e.downcast::<InputError>() {
            Ok(i) => Failure::Input(i),
            Err(e) => Failure::Other(e),
        }
    }
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Failure {
        Failure::Other(e.into())
    }
}

/// Parse the arguments and run; returns the process exit code.
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args, &mut out),
        Command::Exists(args) => exists::run(args, &mut out),
        Command::Count(args) => count::run(args, &mut out),
    };
    let _ = out.flush();
    match result {
        Ok(()) => 0,
        Err(Failure::Input(e)) => {
            eprintln!("error: {e}");
            2
        }
        Err(Failure::Other(e)) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

/// Write `bytes` to `path` atomically: a temporary file beside it, then a rename.
pub fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

//! The command line: a thin clap layer. Each subcommand lives in its own file, turns its
//! flags into validated library configuration, calls the library, and prints.

pub mod animate;
pub mod compare;
pub mod convergence;
pub mod count;
pub mod exists;
pub mod experiment;
pub mod growth;
pub mod merge;
pub mod play;
pub mod plot;
pub mod queens;
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

// Parsed once per process, so variant sizes do not matter (the lint fires once the
// classical solve flags join `SolveArgs`).
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run solvers side by side on one board with the same seeds: time per tour, success, ratios.
    Compare(compare::CompareArgs),
    /// Find one knight's tour and print it (default: 8x8, network preset `parberry`, seed 1).
    Solve(solve::SolveArgs),
    /// Run an experiment spec (default: the built-in quickstart) into a results folder.
    Experiment(experiment::ExperimentArgs),
    /// Merge shard results folders into the folder one run would have written.
    Merge(merge::MergeArgs),
    /// Draw every figure an experiment's records.csv supports into a folder.
    Plot(plot::PlotArgs),
    /// Animate the network settling, step by step, as a GIF (or its final state as PNG/SVG).
    Animate(animate::AnimateArgs),
    /// Run the network many times and draw its convergence curves (PNG or SVG).
    Convergence(convergence::ConvergenceArgs),
    /// Play the knight's tour in the terminal; watch solvers step by step.
    Play(play::PlayArgs),
    /// The Queen's Challenge: N queens, none attacking another, some locked in place.
    Queens(queens::QueensArgs),
    /// Whether a tour exists, from the theorems (Schwenk 1991 for closed tours).
    Exists(exists::ExistsArgs),
    /// Count all tours of a small board by exhaustive search.
    Count(count::CountArgs),
    /// Time against board size for each solver, fitted as an exponent (time ∝ squares^k).
    ///
    /// For each solver, square boards of increasing side (default 8, 16, 32, ... while
    /// a solve is predicted to fit --budget) are solved --trials times; the median wall
    /// time per solve is fitted by least squares on log(time) against log(squares), and
    /// the exponent k is reported with its standard error, a 95% confidence interval and
    /// the fit range (linear time is k = 1). Sides a solver cannot serve (closed tours on
    /// odd sides, memory, search limits) are skipped with the reason. One thread by
    /// default. Example: knightnet growth --solvers warnsdorff:roth,divide-conquer
    /// --sizes 8,16,32,64,128 --format markdown
    Growth(growth::GrowthArgs),
}

/// How a failed command should exit.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: one line on stderr, exit code 2.
    Input(InputError),
    /// Anything else (I/O, internal): exit code 1.
    Other(anyhow::Error),
    /// Stopped by Ctrl-C with results saved: the message on stderr, exit code 130.
    Interrupted(String),
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
        Command::Compare(args) => compare::run(args, &mut out),
        Command::Experiment(args) => experiment::run(args, &mut out),
        Command::Merge(args) => merge::run(args, &mut out),
        Command::Plot(args) => plot::run(args, &mut out),
        Command::Animate(args) => animate::run(args, &mut out),
        Command::Convergence(args) => convergence::run(args, &mut out),
        Command::Queens(args) => queens::run(args, &mut out),
        Command::Play(args) => play::run(args, &mut out),
        Command::Exists(args) => exists::run(args, &mut out),
        Command::Count(args) => count::run(args, &mut out),
        Command::Growth(args) => growth::run(args, &mut out),
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
        Err(Failure::Interrupted(msg)) => {
            eprintln!("{msg}");
            130
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

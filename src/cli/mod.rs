//! The command line: a thin clap layer. Each subcommand lives in its own file, turns its
//! flags into validated library configuration, calls the library, and prints.

pub mod animate;
pub mod check;
pub mod compare;
pub mod convergence;
pub mod count;
pub mod exists;
pub mod experiment;
pub mod flags;
pub mod growth;
pub mod manuals;
pub mod merge;
pub mod open;
pub mod play;
pub mod plot;
pub mod queens;
pub mod report;
pub mod serve;
// Flag docs are clap's help text: `network[:PRESET]` there is syntax, not a doc link.
#[allow(rustdoc::broken_intra_doc_links)]
pub mod solve;
pub mod solve_graph;
pub mod solve_output;
pub mod stats;
pub mod wording;

use std::ffi::OsString;
use std::io::Write;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use self::flags::FlagError;
use knightnet::error::InputError;
/// Atomic whole-file writes live in the library ([`knightnet::io`]).
pub use knightnet::io::write_atomic;
/// The one JSON shape (docs/json.md) lives in the library, shared with the Python package.
use knightnet::json;

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
    /// Serve the Play view in a browser on a local web server (needs the `serve` feature).
    Serve(serve::ServeArgs),
    /// The Queen's Challenge: N queens, none attacking another, some locked in place.
    Queens(queens::QueensArgs),
    /// Whether a tour exists, from the theorems (Schwenk 1991 for closed tours): exit 0
    /// for yes, 1 for no (the answer is printed either way), 2 for bad input.
    Exists(exists::ExistsArgs),
    /// Check a tour from a file (any program's) with the validity oracle: exit 0 if it is
    /// a tour, 1 if not (the first defect is printed), 2 if the file is not a square list.
    Check(check::CheckArgs),
    /// Count a board's tours exactly, open or closed: by a dynamic program over its squares
    /// (split or frontier, the default) or by exhaustive search.
    Count(count::CountArgs),
    /// Time against board size for each solver, fitted as an exponent (time ∝ squares^k).
    ///
    /// For each solver, square boards of increasing side (default 8, 16, 32, ... while
    /// a solve is predicted to fit --budget) are solved --trials times; the median wall
    /// time per solve is fitted by least squares on log(time) against log(squares), and
    /// the exponent k is reported with its standard error, a 95% confidence interval and
    /// the fit range (linear time is k = 1). Sides a solver cannot serve (closed tours on
    /// odd sides, memory, search limits) are skipped with the reason. One thread by
    /// default.
    Growth(growth::GrowthArgs),
    /// Time to solution (R99, TTS99) of every cell of a results folder and its comparison
    /// with the reference cell of its board, recomputed from the records.
    Stats(stats::StatsArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell) on stdout.
    Completions(manuals::CompletionsArgs),
    /// Man pages (roff) generated from the command-line definitions.
    Manpage(manuals::ManpageArgs),
}

/// How a failed command should exit. This is the one place the exit codes are decided
/// ([`Failure::exit_code`]); the manual's "Exit codes and bad input" (docs/reference.md) states the same rule:
///
/// | code | meaning | stdout |
/// |---|---|---|
/// | 0 | done (`exists`, `check`: yes; `solve`: a tour) | the result |
/// | 1 | the answer is no (`exists`, `check`, `solve` without a tour) | the answer |
/// | 1 | the environment failed: disk full, file too large, permission denied, out of the memory the process really has, a results folder busy with another process | nothing |
/// | 2 | the input must change: a flag, a file's content, a path that is not a regular file, a request beyond a bound the user typed or a hard limit of the format | nothing |
/// | 3 | the answer is unknown (`exists` beyond the knight: the search's budget ran out) | the answer |
/// | 130, 143 | stopped by SIGINT or SIGTERM (128 + the signal), what was done saved | nothing more |
#[derive(Debug)]
pub enum Failure {
    /// Bad input: one line on stderr, exit code 2.
    Input(InputError),
    /// A flag's bad value: `--flag: message` on stderr, exit code 2.
    Flag(FlagError),
    /// The environment's failure reported by the library (out of memory, threads that
    /// cannot start, a file the system refuses, an internal check): exit code 1.
    Environment(knightnet::error::Error),
    /// Anything else (I/O, internal): exit code 1.
    Other(anyhow::Error),
    /// Stopped by Ctrl-C with results saved: the message on stderr, exit code 130.
    Interrupted(String),
    /// The command's answer is "no" (`check`: not a tour), already printed: exit code 1
    /// with nothing more on stderr, as `grep` and `test` do.
    No,
    /// The command's answer is "unknown" (`exists` beyond the knight: the search's
    /// budget ran out), already printed: exit code 3 with nothing more on stderr.
    Unknown,
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Failure {
        knightnet::error::Error::from(e).into()
    }
}

impl From<knightnet::error::Error> for Failure {
    fn from(e: knightnet::error::Error) -> Failure {
        match e {
            knightnet::error::Error::Input(i) => Failure::Input(i),
            e => Failure::Environment(e),
        }
    }
}

impl From<knightnet::plot::PlotError> for Failure {
    fn from(e: knightnet::plot::PlotError) -> Failure {
        match e {
            knightnet::plot::PlotError::Input(i) => i.into(),
            e => Failure::Other(e.into()),
        }
    }
}

impl From<FlagError> for Failure {
    fn from(e: FlagError) -> Failure {
        Failure::Flag(e)
    }
}

impl From<anyhow::Error> for Failure {
    fn from(e: anyhow::Error) -> Failure {
        let e = match e.downcast::<InputError>() {
            Ok(i) => return i.into(),
            Err(e) => e,
        };
        let e = match e.downcast::<knightnet::plot::PlotError>() {
            Ok(p) => return p.into(),
            Err(e) => e,
        };
        match e.downcast::<knightnet::error::Error>() {
            Ok(l) => l.into(),
            Err(e) => Failure::Other(e),
        }
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Failure {
        Failure::Other(e.into())
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
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cmd = command();
    // The subcommand the user named, for the pointer to its --help in a usage error.
    let named = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find(|a| cmd.find_subcommand(a).is_some())
        .map(|a| format!("knightnet {a}"))
        .unwrap_or_else(|| "knightnet".to_string());
    let matches = match cmd.try_get_matches_from(&args) {
        Ok(m) => m,
        Err(e) => return parse_failure(&e, &named),
    };
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return parse_failure(&e, &named),
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
        Command::Serve(args) => serve::run(args, &mut out),
        Command::Exists(args) => exists::run(args, &mut out),
        Command::Count(args) => count::run(args, &mut out),
        Command::Check(args) => check::run(args, &mut out),
        Command::Growth(args) => growth::run(args, &mut out),
        Command::Stats(args) => stats::run(args, &mut out),
        Command::Completions(args) => manuals::completions(args, &mut out),
        Command::Manpage(args) => manuals::manpage(args, &mut out),
    };
    let flushed = out.flush();
    match result {
        Ok(()) => match flushed {
            Ok(()) => 0,
            Err(e) => {
                let failure = Failure::Other(
                    anyhow::Error::new(e).context("cannot write to standard output"),
                );
                failure.report();
                failure.exit_code()
            }
        },
        Err(failure) => {
            failure.report();
            failure.exit_code()
        }
    }
}

impl Failure {
    /// The process exit code for this failure (the table on [`Failure`]).
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Input(_) | Failure::Flag(_) => 2,
            Failure::Environment(_) | Failure::Other(_) | Failure::No => 1,
            Failure::Unknown => 3,
            Failure::Interrupted(_) => 130,
        }
    }

    /// Say what failed on stderr, on one line (nothing for [`Failure::No`], whose answer
    /// is already printed).
    fn report(&self) {
        match self {
            Failure::Input(e) => say(&format!("error: {}", one_line(&wording::input(e)))),
            Failure::Environment(e) => say(&format!("error: {}", one_line(&wording::error(e)))),
            Failure::Flag(e) => say(&format!("error: {}", one_line(&e.to_string()))),
            Failure::Other(e) => say(&format!("error: {}", one_line(&format!("{e:#}")))),
            Failure::Interrupted(msg) => say(msg),
            Failure::No | Failure::Unknown => {}
        }
    }
}

/// The command line as clap sees it, with one adjustment made for every subcommand:
/// a value that looks like a negative number (`--seed -1`) is handed to the flag's own
/// parser, so the error names the flag instead of reporting an unknown argument.
pub fn command() -> clap::Command {
    Cli::command().mut_subcommands(|sub| {
        sub.mut_args(|arg| {
            if arg.get_action().takes_values() && !arg.is_positional() {
                arg.allow_negative_numbers(true)
            } else {
                arg
            }
        })
    })
}

/// Report a clap error: help and version go to stdout (exit 0); a bare `knightnet`
/// shows the help on stderr (exit 2); a value the library refused is `--flag: message`
/// (exit 2); any other usage error becomes one line on stderr that names the flag and
/// ends with the command whose `--help` lists what is accepted, exit 2.
fn parse_failure(e: &clap::Error, named: &str) -> i32 {
    if !e.use_stderr() {
        return match e.print() {
            Ok(()) => 0,
            Err(_) => 1,
        };
    }
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return 2;
    }
    if let Some(line) = flags::value_error_line(e) {
        say(&format!("error: {}", one_line(&line)));
        return 2;
    }
    let text = e.render().to_string();
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let line = parts.join("; ");
    let line = if line.starts_with("error:") {
        line
    } else {
        format!("error: {line}")
    };
    say(&format!("{line} (see '{named} --help')"));
    2
}

/// This process's command line as recorded in `run.json` (any argument that is not UTF-8
/// is kept lossily, never a panic).
pub(crate) fn command_line() -> Vec<String> {
    std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

/// Fold a message onto one line (an error chain may carry newlines from below).
fn one_line(msg: &str) -> String {
    msg.split('\n')
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// Write one line to stderr. A closed or full stderr is ignored: the exit code still
/// tells what happened, and a failed diagnostic must not turn into a panic.
pub fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}

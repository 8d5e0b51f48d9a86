//! `knightnet experiment`: run (or resume, or one shard of) an experiment spec into a
//! results folder, with a progress bar on a terminal. Ctrl-C stops after the trials in
//! flight; the folder then holds valid records and a summary of what finished.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::Failure;
use knightnet::experiment::{self, Options, Progress, Record, Replay, Shard, Spec};

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet experiment quickstart --out out/quickstart\n  knightnet experiment experiments/variants-8x8.toml\n  knightnet experiment experiments/quickstart.toml --shard 0/2 --out out/q0"
)]
pub struct ExperimentArgs {
    /// Spec file (TOML), or the name of a built-in spec: `quickstart`, which runs from any
    /// folder (a file is named by a path with a folder or a suffix). Default: quickstart.
    pub spec: Option<PathBuf>,
    /// Results folder. Default: results/NAME (results/NAME-shard-I-of-N for a shard).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Worker threads, 1 to 1024 (default: the machine's cores; never more than the
    /// trials to run). Never changes a result.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Run only shard I of N (0 <= I < N <= 1000000): the trials whose global number is
    /// I mod N.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
    /// Continue the run in --out: skip trials already in its records.csv (every row is
    /// checked against the spec first, and some are replayed: see --replay). A complete
    /// run is checked and left as it is: one line says so and where its summary is.
    #[arg(long)]
    pub resume: bool,
    /// With --resume: rows of records.csv run again and compared with their record
    /// before continuing: a number (default 100: the rows with the smallest seeds; 0 for
    /// none) or all.
    #[arg(long, value_name = "N|all", default_value_t = Replay::default())]
    pub replay: Replay,
    /// No progress bar and no summary table on stdout.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Set by the first SIGINT; the runner stops starting trials once it is set.
static STOP: AtomicBool = AtomicBool::new(false);
/// Whether an experiment is running and takes the first SIGINT as "stop after the trials
/// in flight" ([`Interrupts`]).
static GRACEFUL: AtomicBool = AtomicBool::new(false);

/// The binary's signal thread asks this on SIGINT: true when an experiment is running and
/// this is the first Ctrl-C, which then only asks the runner to stop after the trials in
/// flight (the records and summary are then written as usual). A second Ctrl-C, or one
/// outside an experiment, returns false: the binary then removes its temporary files and
/// exits 130.
pub fn stop_gracefully() -> bool {
    GRACEFUL.load(Ordering::SeqCst) && !STOP.swap(true, Ordering::SeqCst)
}

/// Takes the first Ctrl-C as a request to stop ([`stop_gracefully`]) while alive.
struct Interrupts;

impl Interrupts {
    fn catch() -> Interrupts {
        STOP.store(false, Ordering::SeqCst);
        GRACEFUL.store(true, Ordering::SeqCst);
        Interrupts
    }
}

impl Drop for Interrupts {
    fn drop(&mut self) {
        GRACEFUL.store(false, Ordering::SeqCst);
    }
}

struct Bar {
    bar: ProgressBar,
    tours: AtomicU64,
}

impl Progress for Bar {
    fn start(&self, to_run: u64) {
        self.bar.set_length(to_run);
    }

    fn record(&self, r: &Record) {
        if r.outcome.is_tour() {
            self.tours.fetch_add(1, Ordering::Relaxed);
        }
        let stopping = if STOP.load(Ordering::Relaxed) {
            " — stopping after the trials in flight (Ctrl-C again to kill)"
        } else {
            ""
        };
        self.bar.set_message(format!(
            "{} tours{stopping}",
            self.tours.load(Ordering::Relaxed)
        ));
        self.bar.inc(1);
    }
}

fn progress_bar(quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {pos}/{len} trials, eta {eta} · {msg}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

pub fn run(args: ExperimentArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let (spec, source) = Spec::load(args.spec.as_deref())?;
    let shard = args.shard.unwrap_or(Shard::ALL);
    let threads = match args.threads {
        Some(n) => knightnet::check_threads(n)?,
        None => knightnet::default_threads(),
    };
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| knightnet::experiment::default_out(&spec.name, shard));
    let opts = Options {
        out: dir.clone(),
        threads,
        shard,
        resume: args.resume,
        spec_source: source,
        command: super::command_line(),
        replay: args.replay,
    };
    let bar = Bar {
        bar: progress_bar(args.quiet),
        tours: AtomicU64::new(0),
    };
    let report = {
        let _guard = Interrupts::catch();
        experiment::run(&spec, &opts, &STOP, &bar)
    };
    bar.bar.finish_and_clear();
    let report = report?;
    if report.already_complete {
        eprintln!(
            "the run in {} is complete ({} of {} trials recorded; nothing to run, nothing rewritten); its summary is {}",
            dir.display(),
            report.summary.trials_done,
            report.planned,
            dir.join(experiment::SUMMARY_MD).display()
        );
        return Ok(());
    }
    if report.truncated_bytes > 0 {
        eprintln!(
            "note: cut off a half-written last line ({} bytes) of {}",
            report.truncated_bytes,
            dir.join(experiment::RECORDS).display()
        );
    }
    if !args.quiet {
        let md = report.summary.markdown();
        let table = md.split("\n## ").next().unwrap_or(&md);
        out.write_all(table.trim_end().as_bytes())?;
        out.write_all(b"\n")?;
    }
    eprintln!(
        "{} trials run{}, {} of {} recorded in {}",
        report.ran,
        if report.already_done > 0 {
            format!(" ({} were already recorded)", report.already_done)
        } else {
            String::new()
        },
        report.summary.trials_done,
        report.planned,
        dir.display()
    );
    if report.interrupted {
        return Err(Failure::Interrupted(format!(
            "interrupted: records.csv and the summary hold the {} finished trials; continue with --resume --out {}",
            report.summary.trials_done,
            dir.display()
        )));
    }
    Ok(())
}

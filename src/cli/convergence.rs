//! `knightnet convergence`: run the network many times from seeded random states,
//! record every step, and draw the convergence curves (see [`knightnet::plot::convergence`]).
//!
//! Run `i` (0-based) of a preset is trial `i` of an experiment with base seed `--seed`
//! and a network cell of that preset on the board ([`knightnet::seeds`]): one attempt, drawn
//! as `solve --seed RUN_SEED --max-attempts 1` draws it. Runs are computed in parallel;
//! each has its own random stream, so the thread count never changes the figure.
//! `--overlay PRESET` runs further presets (each its own cell, so its own seeds) and
//! draws them on the same panels. The data of the figure is written beside it as CSV,
//! every run with its seed as `-runs.csv`, and what was run as `.convergence.json`
//! (version, git revision, board, runs, seed and each configuration's parameters;
//! [`knightnet::plot::convergence::ConvergenceInfo`]). `--open` runs the network on its
//! open graph (from `--start` when given); squares off degree 2 are counted over squares.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;

use super::Failure;
use super::open::OpenFlags;
use super::solve::NetworkFlags;
use knightnet::DEFAULT_SEED;
use knightnet::board::Board;
use knightnet::error::{InputError, Param};
use knightnet::network::{Network, Preset, StepStats, Termination, Trace, first_attempt_rng};
use knightnet::plot::convergence::{ConvergenceData, ConvergenceFigure, info_path, runs_csv_path};
use knightnet::plot::trace::{SavedTrace, square_steps};
use knightnet::plot::{ImageFormat, check_output_path};
use knightnet::seeds::{cell_key, trial_seed};
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::{Solver, SolverKind};
use knightnet::trace_file::IterationUnit;

/// Most runs one figure accepts.
pub const MAX_RUNS: u32 = 100_000;
/// Most presets overlaid on the first configuration.
pub const MAX_OVERLAYS: usize = 5;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Examples:\n  knightnet convergence --board 8x8 --runs 100 --overlay brant --out out/convergence.png\n  knightnet convergence --board 7x7 --open --runs 100 --out out/convergence-open.png"
)]
pub struct ConvergenceArgs {
    #[arg(long, default_value = "8x8", allow_hyphen_values = true, help = super::flags::board_help!())]
    pub board: Board,
    /// Number of runs (one attempt each).
    #[arg(long, default_value_t = 50)]
    pub runs: u32,
    /// Base seed: run i uses the seed an experiment with this seed gives trial i of the
    /// preset's cell on the board (listed in the -runs.csv beside the figure).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output image, .png, .svg or .pdf; its data is written beside it as .csv.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Draw the one run saved by `solve --trace FILE` instead of running the network.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "runs", "seed", "overlay", "open", "start"])]
    pub trace: Option<PathBuf>,
    /// Also run this preset (same board, runs and seeds) and draw it on the same panels
    /// in its own colour; repeat for more (at most 5).
    #[arg(long, value_name = "PRESET")]
    pub overlay: Vec<Preset>,
    #[command(flatten)]
    pub open: OpenFlags,
    #[command(flatten)]
    pub network: NetworkFlags,
}

/// Seed, step measurements and ending of `runs` seeded attempts: run `i` is trial `i`
/// of the network's cell (its default label and board) under the base `seed`. Squares
/// off degree 2 are counted over the squares ([`square_steps`]).
pub fn traces(
    net: &Network<'_>,
    board: Board,
    seed: u64,
    runs: u32,
) -> Vec<(u64, Vec<StepStats>, Termination)> {
    let label = SolverKind::Network(*net.params()).default_label();
    let key = cell_key(&label, board);
    (0..runs as u64)
        .into_par_iter()
        .map(|i| {
            let run_seed = trial_seed(seed, &key, i);
            let mut trace = Trace::default();
            let attempt = net.attempt(&mut first_attempt_rng(run_seed), Some(&mut trace));
            let steps = square_steps(net.graph(), &trace.outputs, trace.steps);
            (run_seed, steps, attempt.termination)
        })
        .collect()
}

pub fn run(args: ConvergenceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(path) = &args.trace {
        ImageFormat::from_path(&args.out, Param::Out)?;
        check_output_path(&args.out, Param::Out)?;
        if args.network.any() {
            return Err(InputError::param(
                "network flags do not apply with --trace: the trace records its own parameters",
            )
            .into());
        }
        let t = SavedTrace::load(path)?;
        let info = info_path(&args.out);
        if std::fs::canonicalize(&info).ok() == std::fs::canonicalize(path).ok() {
            return Err(InputError::param(format!(
                "--out {} would write its metadata {} over the trace given with --trace; choose another --out",
                args.out.display(),
                info.display()
            ))
            .into());
        }
        let ending = t.termination.name();
        let data = ConvergenceData {
            board: t.board(),
            tours: t.graph.tours(),
            variant: t.variant.clone(),
            unit: t.unit,
            seed: t.seed.unwrap_or(0),
            seeds: vec![t.seed.unwrap_or(0)],
            runs: vec![t.steps],
            outcomes: vec![t.termination],
            attempt: t.attempt,
            params: t.params,
        };
        ConvergenceFigure {
            sets: vec![data.clone()],
            trace_file: Some(path.display().to_string()),
        }
        .save(&args.out)?;
        writeln!(
            out,
            "wrote {} and its data (CSV, runs CSV, metadata {}): the run in {} ({} on {}, {ending})",
            args.out.display(),
            info.display(),
            path.display(),
            t.variant,
            data.board,
        )?;
        return Ok(());
    }
    let board = args.board;
    let params = args.network.apply(Preset::Parberry.params())?;
    ImageFormat::from_path(&args.out, Param::Out)?;
    check_output_path(&args.out, Param::Out)?;
    if args.runs == 0 || args.runs > MAX_RUNS {
        return Err(InputError::param(format!(
            "--runs {} is out of range; 1..={MAX_RUNS} are accepted",
            args.runs
        ))
        .into());
    }
    if args.overlay.len() > MAX_OVERLAYS {
        return Err(InputError::param(format!(
            "--overlay was given {} times; at most {MAX_OVERLAYS} presets can be overlaid",
            args.overlay.len()
        ))
        .into());
    }
    let mut configs = vec![params];
    configs.extend(args.overlay.iter().map(|p| p.params()));
    let request = args.open.request(board)?;
    for p in &configs {
        NetworkSolver::new(*p).check(&request)?;
    }
    let graph = NetworkSolver::graph(&request)?;
    let mut sets = Vec::new();
    let mut lines = Vec::new();
    for p in configs {
        let net = Network::new(&graph, p)?;
        let results = traces(&net, board, args.seed, args.runs);
        let tours = results.iter().filter(|r| r.2 == Termination::Tour).count();
        let mut seeds = Vec::with_capacity(results.len());
        let (runs, outcomes): (Vec<_>, Vec<_>) = results
            .into_iter()
            .map(|(seed, s, o)| {
                seeds.push(seed);
                (s, o)
            })
            .unzip();
        lines.push(format!("{} ({tours} ended in a tour)", p.variant()));
        sets.push(ConvergenceData {
            board,
            tours: graph.tours(),
            variant: p.variant(),
            unit: IterationUnit::of(p.order),
            seed: args.seed,
            seeds,
            runs,
            outcomes,
            attempt: None,
            params: Some(p),
        });
    }
    ConvergenceFigure {
        sets,
        trace_file: None,
    }
    .save(&args.out)?;
    writeln!(
        out,
        "wrote {} and its data {} (runs and their seeds: {}; what ran: {}): {} runs each of network {} on {board}, base seed {}",
        args.out.display(),
        args.out.with_extension("csv").display(),
        runs_csv_path(&args.out).display(),
        info_path(&args.out).display(),
        args.runs,
        lines.join(", "),
        args.seed,
    )?;
    Ok(())
}

//! `knightnet convergence`: run the network many times from seeded random states,
//! record every step, and draw the convergence curves (see [`crate::plot::convergence`]).
//!
//! Run `i` (0-based) of a preset is trial `i` of an experiment with base seed `--seed`
//! and a network cell of that preset on the board ([`crate::seeds`]): one attempt, drawn
//! as `solve --seed RUN_SEED --max-attempts 1` draws it. Runs are computed in parallel;
//! each has its own random stream, so the thread count never changes the figure.
//! `--overlay PRESET` runs further presets (each its own cell, so its own seeds) and
//! draws them on the same panels. The data of the figure is written beside it as CSV,
//! and every run with its seed as `-runs.csv`.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use rayon::prelude::*;

use super::solve::NetworkFlags;
use super::Failure;
use crate::board::Board;
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::network::{
    first_attempt_rng, Network, Preset, StepStats, Termination, Trace, UpdateOrder,
};
use crate::plot::convergence::{runs_csv_path, ConvergenceData, ConvergenceFigure};
use crate::plot::trace::SavedTrace;
use crate::plot::{check_output_path, ImageFormat};
use crate::seeds::{cell_key, trial_seed};
use crate::solvers::network::NetworkSolver;
use crate::solvers::{Request, Solver, SolverKind};
use crate::DEFAULT_SEED;

/// Most runs one figure accepts.
pub const MAX_RUNS: u32 = 100_000;
/// Most presets overlaid on the first configuration.
pub const MAX_OVERLAYS: usize = 5;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example:\n  knightnet convergence --board 8x8 --runs 100 --overlay brant --out out/convergence.png"
)]
pub struct ConvergenceArgs {
    /// Board size ROWSxCOLS.
    #[arg(long, default_value = "8x8", allow_hyphen_values = true)]
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
    #[arg(long, value_name = "FILE", conflicts_with_all = ["board", "runs", "seed", "overlay"])]
    pub trace: Option<PathBuf>,
    /// Also run this preset (same board, runs and seeds) and draw it on the same panels
    /// in its own colour; repeat for more (at most 5).
    #[arg(long, value_name = "PRESET")]
    pub overlay: Vec<Preset>,
    #[command(flatten)]
    pub network: NetworkFlags,
}

/// Seed, step measurements and ending of `runs` seeded attempts: run `i` is trial `i`
/// of the network's cell (its default label and board) under the base `seed`.
pub fn traces(net: &Network<'_>, seed: u64, runs: u32) -> Vec<(u64, Vec<StepStats>, Termination)> {
    let label = SolverKind::Network(*net.params()).default_label();
    let key = cell_key(&label, net.graph().board());
    (0..runs as u64)
        .into_par_iter()
        .map(|i| {
            let run_seed = trial_seed(seed, &key, i);
            let mut trace = Trace::default();
            let attempt = net.attempt(&mut first_attempt_rng(run_seed), Some(&mut trace));
            (run_seed, trace.steps, attempt.termination)
        })
        .collect()
}

/// "step" for synchronous updates, "sweep" for sequential ones.
pub fn unit(order: UpdateOrder) -> &'static str {
    match order {
        UpdateOrder::Synchronous => "step",
        _ => "sweep",
    }
}

pub fn run(args: ConvergenceArgs, out: &mut dyn Write) -> Result<(), Failure> {
    if let Some(path) = &args.trace {
        ImageFormat::from_path(&args.out, "--out")?;
        check_output_path(&args.out, "--out")?;
        if args.network.any() {
            return Err(InputError::param(
                "network flags do not apply with --trace: the trace records its own parameters",
            )
            .into());
        }
        let t = SavedTrace::load(path)?;
        let data = ConvergenceData {
            board: t.board.to_string(),
            variant: t.variant.clone(),
            unit: t.unit.clone(),
            seed: t.seed.unwrap_or(0),
            seeds: vec![t.seed.unwrap_or(0)],
            runs: vec![t.steps],
            outcomes: vec![t.outcome.clone()],
            attempt: t.attempt,
        };
        data.save(&args.out)?;
        writeln!(
            out,
            "wrote {}: the run in {} ({} on {}, {})",
            args.out.display(),
            path.display(),
            t.variant,
            t.board,
            t.outcome
        )?;
        return Ok(());
    }
    let board = args.board;
    let params = args.network.apply(Preset::Parberry.params())?;
    ImageFormat::from_path(&args.out, "--out")?;
    check_output_path(&args.out, "--out")?;
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
    for p in &configs {
        NetworkSolver::new(*p).check(&Request::new(board))?;
    }
    let graph = KnightGraph::new(board);
    let mut sets = Vec::new();
    let mut lines = Vec::new();
    for p in configs {
        let net = Network::new(&graph, p)?;
        let results = traces(&net, args.seed, args.runs);
        let tours = results.iter().filter(|r| r.2 == Termination::Tour).count();
        let mut seeds = Vec::with_capacity(results.len());
        let (runs, outcomes): (Vec<_>, Vec<_>) = results
            .into_iter()
            .map(|(seed, s, o)| {
                seeds.push(seed);
                (s, o.name().to_string())
            })
            .unzip();
        lines.push(format!("{} ({tours} ended in a tour)", p.variant_name()));
        sets.push(ConvergenceData {
            board: board.to_string(),
            variant: p.variant_name(),
            unit: unit(p.order).to_string(),
            seed: args.seed,
            seeds,
            runs,
            outcomes,
            attempt: None,
        });
    }
    ConvergenceFigure { sets }.save(&args.out)?;
    writeln!(
        out,
        "wrote {} and its data {} (runs and their seeds: {}): {} runs each of network {} on {board}, base seed {}",
        args.out.display(),
        args.out.with_extension("csv").display(),
        runs_csv_path(&args.out).display(),
        args.runs,
        lines.join(", "),
        args.seed,
    )?;
    Ok(())
}

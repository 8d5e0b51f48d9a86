//! `knightnet compare`: the flags of [`knightnet::compare`], and its printing. Threads: 1 to
//! 1024, never more than trials; default: all cores.

use std::io::Write;

use clap::Args;

use super::Failure;
use super::report::{ReportFormat, plural};
use super::solve_graph::{GeometryArgs, Named};
use knightnet::DEFAULT_SEED;
use knightnet::board::Board;
use knightnet::compare::{Comparison, markdown};
use knightnet::error::InputError;
use knightnet::solvers::SolverKind;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Columns: time per tour is the solver's time over its trials divided by the tours found,\nwith a 95% interval from the Wilson interval of the tour rate per attempt; R99 is the\nattempts for a 99% chance of a tour, TTS99 = R99 x time per attempt; \"moves shared by\ntwo tours\" measures variety: over every pair of the solver's first 20 tours (in trial\norder), the share of knight moves (unordered square pairs) both tours use, averaged\n(100%: every seed gives the same tour, as a construction does; lower: more variety).\n\nExamples:\n  knightnet compare --board 8x8 --trials 50 --solvers network:parberry,warnsdorff:roth,divide-conquer --format markdown\n  knightnet compare --board 7x7 --open --trials 50 --solvers network:parberry,warnsdorff:roth,backtrack"
)]
pub struct CompareArgs {
    #[arg(long, default_value = "8x8", allow_hyphen_values = true, help = super::flags::board_help!())]
    pub board: Board,
    /// Another leaper, surface, shape or a graph file: the solvers that run there
    /// (network, warnsdorff, backtrack, forward-check) run on its graph.
    #[command(flatten)]
    pub geometry: GeometryArgs,
    /// Comma-separated solver names (any `solve --solver` name). Default:
    /// network:parberry, network:brant, network+merge:parberry, warnsdorff:roth,
    /// warnsdorff:squirrel-cull, divide-conquer.
    #[arg(long, value_delimiter = ',')]
    pub solvers: Vec<SolverKind>,
    /// Open tours: the network (and network+merge) runs on its open graph; `circuit`,
    /// which builds closed tours only, is refused. Default: closed tours for the network,
    /// open ones for the other solvers.
    #[arg(long)]
    pub open: bool,
    /// Trials (solves) per solver.
    #[arg(long, default_value_t = 20)]
    pub trials: u64,
    /// Base seed: trial i of solver X on board B uses the seed an experiment with this
    /// seed gives trial i of its cell X/B (default label of X, e.g. parberry/8x8).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Threads, 1 to 1024 (1 pins the comparison to one core; never more than --trials
    /// are started); default: all cores.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// Solvers compared when `--solvers` is not given.
pub const DEFAULT_SOLVERS: &str = "network:parberry,network:brant,network+merge:parberry,warnsdorff:roth,warnsdorff:squirrel-cull,divide-conquer";

/// The solvers compared: `--solvers`, else [`DEFAULT_SOLVERS`] (those that find open
/// tours, with `--open`).
fn solvers(args: &CompareArgs) -> Vec<SolverKind> {
    if !args.solvers.is_empty() {
        return args.solvers.clone();
    }
    DEFAULT_SOLVERS
        .split(',')
        .map(|s| {
            s.parse::<SolverKind>()
                .expect("the default solver names parse")
        })
        .filter(|k| !args.open || k.finds_open_tours())
        .collect()
}

pub fn run(args: CompareArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let board = args.board;
    if args.trials == 0 || args.trials > 1_000_000 {
        return Err(InputError::param(format!(
            "--trials {} is not accepted; give 1 to 1000000",
            args.trials
        ))
        .into());
    }
    let threads = match args.threads {
        Some(t) => knightnet::check_threads(t)?,
        None => knightnet::default_threads(),
    }
    .min(args.trials as usize);
    // The knight on a whole plane board (from --shape when it is one), or a target.
    let (comparison, board, target) = match super::solve_graph::named(Some(board), &args.geometry)?
    {
        Named::Knight(b) => (Comparison::new(b, solvers(&args)), b, None),
        Named::Other(target) => {
            let label = target.label();
            (
                Comparison::new(board, solvers(&args)).on(target),
                board,
                Some(label),
            )
        }
    };
    let on = target.clone().unwrap_or_else(|| board.to_string());
    let rows = comparison
        .open(args.open)
        .trials(args.trials)
        .seed(args.seed)
        .threads(threads)
        .run()?;
    let mut meta = serde_json::json!({
        "board": super::json::board(rows.first().map_or(board, |r| r.board)),
        "open": args.open,
        "seed": args.seed,
        "trials": args.trials,
        "threads": threads,
    });
    if let Some(t) = &target {
        meta["target"] = t.clone().into();
    }
    args.format.write(
        "compare",
        meta,
        &rows,
        markdown(&rows),
        || {
            format!(
                "{} trials per solver on {on}{}, base seed {} (trial seeds as an experiment's, listed in --format json), {threads} thread{}",
                args.trials,
                if args.open { ", open tours" } else { "" },
                args.seed,
                plural(threads)
            )
        },
        out,
    )
}

//! `knightnet growth`: the flags of [`knightnet::growth`], and its printing. `--sizes` lists
//! the sides (default: 8, 16, ... up to 8192 while a solve is predicted to fit
//! `--budget`); `--threads` defaults to 1, so solvers that could use more cores are timed
//! on one. `--leaper` and `--surface` time the solvers that run on any graph on that
//! leaper's square boards on that surface (shapes and graph files have no side to vary).

use std::io::Write;

use clap::Args;

use super::Failure;
use super::report::{ReportFormat, plural};
use knightnet::DEFAULT_SEED;
use knightnet::error::InputError;
use knightnet::geometry::{Leaper, Surface};
use knightnet::growth::{
    GrowthConfig, check_budget, check_side, check_trials, default_sides, fit_sides, growth,
    markdown, parallel_items,
};
use knightnet::report::human_secs;
use knightnet::solvers::SolverKind;

#[derive(Debug, Clone, Args)]
#[command(
    after_help = "Example:\n  knightnet growth --solvers warnsdorff:roth,divide-conquer --sizes 8,16,32,64,128 --format markdown"
)]
pub struct GrowthArgs {
    /// Comma-separated solver names (any `solve --solver` name; with --leaper or
    /// --surface, those that run on any graph). Default: warnsdorff:roth,
    /// warnsdorff:squirrel-cull, divide-conquer, network+merge:parberry,
    /// warnsdorff-backtrack, network:parberry; with --leaper or --surface: warnsdorff,
    /// network+merge:parberry, network:parberry.
    #[arg(long, value_delimiter = ',')]
    pub solvers: Option<Vec<SolverKind>>,
    /// The piece on every board: R,S for the (R,S)-leaper, or knight, camel, zebra,
    /// giraffe. Default: the knight (1,2).
    #[arg(long, value_name = "R,S")]
    pub leaper: Option<Leaper>,
    /// The surface of every board: plane (default), cylinder (the columns wrap) or
    /// torus (rows and columns wrap).
    #[arg(long, value_name = "plane|cylinder|torus")]
    pub surface: Option<Surface>,
    /// Comma-separated board sides (square boards), e.g. 8,16,32. Default: 8, 16, 32, ...
    /// up to 8192, while a solve is predicted to fit --budget.
    #[arg(long, value_delimiter = ',', value_parser = parse_side)]
    pub sizes: Option<Vec<usize>>,
    /// Per-solve time budget in seconds: a size whose solve is predicted to take longer
    /// is not run, and a trial that takes longer ends the solver's sweep.
    #[arg(long, default_value_t = 1.0)]
    pub budget: f64,
    /// Trials (solves) per solver and size; the median time is kept.
    #[arg(long, default_value_t = 5)]
    pub trials: u64,
    /// Base seed: trial i of solver X on board B uses the seed an experiment with this
    /// seed gives trial i of its cell X/B (default label of X, e.g. parberry/8x8).
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Threads the solvers may use, 1 to 1024 (only network+merge uses more than one:
    /// its tiles).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Solvers measured when `--solvers` is not given.
pub const DEFAULT_SOLVERS: &str = "warnsdorff:roth,warnsdorff:squirrel-cull,divide-conquer,network+merge:parberry,warnsdorff-backtrack,network:parberry";

/// Solvers measured beyond the knight on the plane when `--solvers` is not given.
pub const DEFAULT_SOLVERS_BEYOND: &str = "warnsdorff,network+merge:parberry,network:parberry";

/// One entry of `--sizes`: a whole number of at least 1.
pub fn parse_side(item: &str) -> Result<usize, InputError> {
    let t = item.trim();
    let side: usize = t.parse().map_err(|_| {
        InputError::param(format!(
            "--sizes entry '{t}' is malformed: expected board sides as whole numbers, like 8,16,32"
        ))
    })?;
    check_side(side)
}

/// Check the flags and turn them into a configuration.
pub fn config(args: &GrowthArgs) -> Result<GrowthConfig, InputError> {
    check_budget(args.budget)?;
    check_trials(args.trials)?;
    knightnet::check_threads(args.threads)?;
    let sides = match &args.sizes {
        Some(sides) => fit_sides(sides.clone())?,
        None => default_sides(),
    };
    let (leaper, surface) = (
        args.leaper.unwrap_or(Leaper::KNIGHT),
        args.surface.unwrap_or(Surface::Plane),
    );
    let knight = leaper == Leaper::KNIGHT && surface == Surface::Plane;
    let solvers = match &args.solvers {
        Some(solvers) => solvers.clone(),
        None => (if knight {
            DEFAULT_SOLVERS
        } else {
            DEFAULT_SOLVERS_BEYOND
        })
        .split(',')
        .map(str::parse)
        .collect::<Result<_, _>>()?,
    };
    Ok(GrowthConfig::new(solvers, sides, args.budget, args.trials, args.seed)?.on(leaper, surface))
}

pub fn run(args: GrowthArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cfg = config(&args)?;
    let threads = args.threads.min(parallel_items(&cfg));
    let rows = growth(&cfg, threads)?;
    args.format.write(
        "growth",
        serde_json::json!({
            "leaper": cfg.leaper,
            "surface": cfg.surface,
            "seed": cfg.seed,
            "trials": cfg.trials,
            "threads": threads,
            "budget_seconds": cfg.budget,
        }),
        &rows,
        markdown(&rows),
        || {
            let on = if cfg.leaper == Leaper::KNIGHT && cfg.surface == Surface::Plane {
                String::new()
            } else {
                let piece = cfg
                    .leaper
                    .name()
                    .map_or_else(|| format!("({}) leaper", cfg.leaper), str::to_string);
                format!("the {piece} on the {}, ", cfg.surface)
            };
            format!(
                "{on}median of {} trials per side (base seed {}, trial seeds as an experiment's, listed in --format json), budget {} per solve, {threads} thread{}",
                cfg.trials,
                cfg.seed,
                human_secs(cfg.budget),
                plural(threads)
            )
        },
        out,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--sizes` as clap reads it: each entry, then the whole list.
    fn parse_sides(items: &[String]) -> Result<Vec<usize>, InputError> {
        let sides = items
            .iter()
            .map(|item| parse_side(item))
            .collect::<Result<_, _>>()?;
        fit_sides(sides)
    }

    #[test]
    fn sides_are_parsed_sorted_and_checked() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(parse_sides(&s(&["16", " 8", "16"])).unwrap(), vec![8, 16]);
        for bad in [
            &["8"][..],
            &["0", "8"],
            &["8", "x"],
            &["8", "-4"],
            &["8", ""],
        ] {
            assert!(parse_sides(&s(bad)).is_err(), "{bad:?} accepted");
        }
    }
}

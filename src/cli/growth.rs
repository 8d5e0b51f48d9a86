//! `knightnet growth`: the flags of [`knightnet::growth`], and its printing. `--sizes` lists
//! the sides (default: 8, 16, ... up to 8192 while a solve is predicted to fit
//! `--budget`); `--threads` defaults to 1, so solvers that could use more cores are timed
//! on one.

use std::io::Write;

use clap::Args;

use super::Failure;
use super::report::{ReportFormat, plural};
use knightnet::DEFAULT_SEED;
use knightnet::error::InputError;
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
    /// Comma-separated solver names (any `solve --solver` name).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_SOLVERS)]
    pub solvers: Vec<SolverKind>,
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
    GrowthConfig::new(
        args.solvers.clone(),
        sides,
        args.budget,
        args.trials,
        args.seed,
    )
}

pub fn run(args: GrowthArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cfg = config(&args)?;
    let threads = args.threads.min(parallel_items(&cfg));
    let rows = growth(&cfg, threads)?;
    args.format.write(
        "growth",
        serde_json::json!({
            "seed": cfg.seed,
            "trials": cfg.trials,
            "threads": threads,
            "budget_seconds": cfg.budget,
        }),
        &rows,
        markdown(&rows),
        || {
            format!(
                "median of {} trials per side (base seed {}, trial seeds as an experiment's, listed in --format json), budget {} per solve, {threads} thread{}",
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

//! `knightnet growth`: how each solver's time grows with the board. For every solver,
//! square boards of increasing side are solved `--trials` times (trial `i` with seed
//! `SEED + i`, as in `compare`), the median wall time per solve is kept, and a
//! least-squares line through `ln(seconds)` against `ln(squares)` gives the exponent `k`
//! of `time ∝ squares^k` (1 is linear in the number of squares) with its standard error
//! and a 95% confidence interval.
//!
//! Sizes: `--sizes` lists the sides; by default the side doubles from 8 up to 8192 while
//! a solve is predicted to fit the per-solve `--budget` (the prediction extends the last
//! two points' slope, at least linear). A side a solver refuses (no tour of its kind,
//! too much memory, too large for a search) is skipped with the reason; a solver that can
//! run none of the sides is bad input. Only sides where at least one trial found a tour
//! enter the fit. Everything runs on `--threads` threads (default 1, so solvers that
//! could use more cores are timed on one).

use std::io::Write;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::compare::human;
use super::Failure;
use crate::board::Board;
use crate::error::InputError;
use crate::solvers::{Request, SolverKind};
use crate::{rng_from_seed, DEFAULT_SEED};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GrowthFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Args)]
pub struct GrowthArgs {
    /// Comma-separated solver names (any `solve --solver` name).
    #[arg(long, value_delimiter = ',', default_value = DEFAULT_SOLVERS)]
    pub solvers: Vec<String>,
    /// Comma-separated board sides (square boards), e.g. 8,16,32. Default: 8, 16, 32, ...
    /// up to 8192, while a solve is predicted to fit --budget.
    #[arg(long, value_delimiter = ',')]
    pub sizes: Option<Vec<String>>,
    /// Per-solve time budget in seconds: a size whose solve is predicted to take longer
    /// is not run, and a trial that takes longer ends the solver's sweep.
    #[arg(long, default_value_t = 1.0)]
    pub budget: f64,
    /// Trials (solves) per solver and size; the median time is kept.
    #[arg(long, default_value_t = 5)]
    pub trials: u64,
    /// Seed of trial 0; trial i uses SEED + i.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = GrowthFormat::Text)]
    pub format: GrowthFormat,
    /// Threads the solvers may use, 1 to 1024 (only network+merge uses more than one:
    /// its tiles).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Solvers measured when `--solvers` is not given.
pub const DEFAULT_SOLVERS: &str =
    "warnsdorff:roth,warnsdorff:squirrel-cull,divide-conquer,network+merge:parberry,warnsdorff-backtrack,network:parberry";

/// Sides tried when `--sizes` is not given: 8, 16, ..., this.
pub const DEFAULT_LARGEST_SIDE: usize = 8192;

/// Validated configuration of a growth run.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthConfig {
    pub solvers: Vec<SolverKind>,
    /// Sides in increasing order.
    pub sides: Vec<usize>,
    pub budget: f64,
    pub trials: u64,
    pub seed: u64,
}

/// A least-squares fit of `ln(seconds) = a + k ln(squares)`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PowerFit {
    /// The exponent `k`.
    pub exponent: f64,
    /// `e^a`: seconds for one square, on the fitted line.
    pub coefficient: f64,
    /// Standard error of `k` (`None` with two points).
    pub stderr: Option<f64>,
    /// 95% confidence interval of `k` (Student's t with `points - 2` degrees of freedom).
    pub ci95: Option<[f64; 2]>,
    /// Coefficient of determination of the log-log line.
    pub r2: f64,
    pub points: usize,
}

/// Two-sided 95% quantiles of Student's t for 1..=30 degrees of freedom (standard
/// tables); 1.96 (the normal quantile) beyond.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// Fit `seconds = c * squares^k` by least squares on logarithms. `None` with fewer than
/// two points, two equal square counts only, or a non-positive value.
pub fn fit_power_law(squares: &[f64], seconds: &[f64]) -> Option<PowerFit> {
    let n = squares.len().min(seconds.len());
    if n < 2
        || squares[..n]
            .iter()
            .chain(&seconds[..n])
            .any(|&v| !(v > 0.0 && v.is_finite()))
    {
        return None;
    }
    let x: Vec<f64> = squares[..n].iter().map(|v| v.ln()).collect();
    let y: Vec<f64> = seconds[..n].iter().map(|v| v.ln()).collect();
    let mx = x.iter().sum::<f64>() / n as f64;
    let my = y.iter().sum::<f64>() / n as f64;
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = x.iter().zip(&y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    let k = sxy / sxx;
    let a = my - k * mx;
    let sse: f64 = x.iter().zip(&y).map(|(u, v)| (v - a - k * u).powi(2)).sum();
    let stderr = (n > 2).then(|| (sse / (n - 2) as f64 / sxx).sqrt());
    let ci95 = stderr.map(|se| {
        let t = T95.get(n - 3).copied().unwrap_or(1.96);
        [k - t * se, k + t * se]
    });
    Some(PowerFit {
        exponent: k,
        coefficient: a.exp(),
        stderr,
        ci95,
        r2: if syy > 0.0 { 1.0 - sse / syy } else { 1.0 },
        points: n,
    })
}

/// One measured size.
#[derive(Debug, Clone, Serialize)]
pub struct GrowthPoint {
    pub side: usize,
    pub squares: usize,
    /// Median wall time of one solve (the oracle's check included).
    pub seconds: f64,
    pub tours: u64,
    /// Trials run (fewer than asked when one exceeded the budget).
    pub trials: u64,
}

/// A side that was not measured, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    pub side: usize,
    pub reason: String,
}

/// One solver's growth: its points, the fit, and the sides it skipped.
#[derive(Debug, Clone, Serialize)]
pub struct GrowthRow {
    pub solver: String,
    /// Sides measured (parallel to `seconds`).
    pub sizes: Vec<usize>,
    /// Median seconds per solve at each measured side.
    pub seconds: Vec<f64>,
    pub points: Vec<GrowthPoint>,
    /// Exponent `k` of `time ∝ squares^k`, when at least two sides found tours.
    pub exponent: Option<f64>,
    pub stderr: Option<f64>,
    pub ci95: Option<[f64; 2]>,
    pub r2: Option<f64>,
    /// Smallest and largest side in the fit.
    pub fit_from: Option<usize>,
    pub fit_to: Option<usize>,
    pub skipped: Vec<Skipped>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn request(side: usize) -> Result<Request, InputError> {
    Ok(Request::new(Board::new(side, side)?))
}

/// Refuse a run in which some solver can serve none of the sides (for example closed
/// tours asked on odd sides only), naming the solver and its first objection.
pub fn check(cfg: &GrowthConfig) -> Result<(), InputError> {
    for kind in &cfg.solvers {
        let solver = kind.build();
        let mut first_err = None;
        let mut any = false;
        for &side in &cfg.sides {
            match solver.check(&request(side)?) {
                Ok(()) => {
                    any = true;
                    break;
                }
                Err(e) => {
                    first_err.get_or_insert((side, e));
                }
            }
        }
        if !any {
            let (side, e) = first_err.expect("at least one side");
            return Err(InputError::param(format!(
                "{kind} can run none of the sides {} (at {side}x{side}: {e}); give --sizes it accepts",
                cfg.sides
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )));
        }
    }
    Ok(())
}

/// Measure one solver over the configured sides.
pub fn measure(kind: &SolverKind, cfg: &GrowthConfig) -> Result<GrowthRow, InputError> {
    let solver = kind.build();
    let mut points: Vec<GrowthPoint> = Vec::new();
    let mut skipped = Vec::new();
    let mut stop: Option<String> = None;
    for &side in &cfg.sides {
        if let Some(why) = &stop {
            skipped.push(Skipped {
                side,
                reason: why.clone(),
            });
            continue;
        }
        let req = request(side)?;
        if let Err(e) = solver.check(&req) {
            skipped.push(Skipped {
                side,
                reason: e.to_string(),
            });
            continue;
        }
        if let Some(pred) = predict(&points, side) {
            if pred > cfg.budget {
                let why = format!(
                    "predicted {} per solve at {side}x{side}, over the {} budget",
                    human(pred),
                    human(cfg.budget)
                );
                skipped.push(Skipped { side, reason: why });
                stop = Some(format!("larger than {side}x{side}, which was over budget"));
                continue;
            }
        }
        let mut times = Vec::new();
        let mut tours = 0;
        for i in 0..cfg.trials {
            let mut rng = rng_from_seed(cfg.seed.wrapping_add(i));
            let t0 = Instant::now();
            let sol = solver.solve(&req, &mut rng)?;
            let secs = t0.elapsed().as_secs_f64();
            tours += u64::from(sol.tour.is_some());
            times.push(secs);
            if secs > cfg.budget {
                stop = Some(format!(
                    "larger than {side}x{side}, where a solve took {} (budget {})",
                    human(secs),
                    human(cfg.budget)
                ));
                break;
            }
        }
        let trials = times.len() as u64;
        points.push(GrowthPoint {
            side,
            squares: side * side,
            seconds: median(&mut times),
            tours,
            trials,
        });
    }
    let fitted: Vec<&GrowthPoint> = points.iter().filter(|p| p.tours > 0).collect();
    let fit = fit_power_law(
        &fitted.iter().map(|p| p.squares as f64).collect::<Vec<_>>(),
        &fitted.iter().map(|p| p.seconds).collect::<Vec<_>>(),
    );
    Ok(GrowthRow {
        solver: kind.to_string(),
        sizes: points.iter().map(|p| p.side).collect(),
        seconds: points.iter().map(|p| p.seconds).collect(),
        exponent: fit.map(|f| f.exponent),
        stderr: fit.and_then(|f| f.stderr),
        ci95: fit.and_then(|f| f.ci95),
        r2: fit.map(|f| f.r2),
        fit_from: fit.and_then(|_| fitted.first().map(|p| p.side)),
        fit_to: fit.and_then(|_| fitted.last().map(|p| p.side)),
        points,
        skipped,
    })
}

/// Predicted seconds at `side`: the last point extended along the slope of the last two
/// points in log-log, never less steep than linear in the squares.
fn predict(points: &[GrowthPoint], side: usize) -> Option<f64> {
    let last = points.last()?;
    let slope = match points {
        [.., a, b] => fit_power_law(
            &[a.squares as f64, b.squares as f64],
            &[a.seconds.max(1e-9), b.seconds.max(1e-9)],
        )
        .map_or(1.0, |f| f.exponent.max(1.0)),
        _ => 1.0,
    };
    Some(last.seconds * ((side * side) as f64 / last.squares as f64).powf(slope))
}

/// Run the whole measurement (library entry point; the CLI only formats it).
pub fn growth(cfg: &GrowthConfig, threads: usize) -> Result<Vec<GrowthRow>, InputError> {
    check(cfg)?;
    let threads = crate::check_threads(threads)?.min(parallel_items(cfg));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| InputError::param(format!("cannot start {threads} threads: {e}")))?;
    pool.install(|| cfg.solvers.iter().map(|k| measure(k, cfg)).collect())
}

/// The most work items any solve of `cfg` can run in parallel: the tiles of
/// network+merge on the largest side, 1 for every other solver (their solves are
/// sequential). The pool never gets more threads than this.
pub fn parallel_items(cfg: &GrowthConfig) -> usize {
    let side = cfg.sides.iter().copied().max().unwrap_or(1);
    cfg.solvers
        .iter()
        .map(|k| match (k, Board::new(side, side)) {
            (SolverKind::NetworkMerge { tile, .. }, Ok(board)) => tile.side(board).map_or(1, |t| {
                crate::solvers::neural_merge::strips(side, t).len().pow(2)
            }),
            _ => 1,
        })
        .max()
        .unwrap_or(1)
}

/// Parse `--sizes`: whole numbers of at least 1, at least two distinct ones.
pub fn parse_sides(items: &[String]) -> Result<Vec<usize>, InputError> {
    let mut sides = Vec::new();
    for item in items {
        let t = item.trim();
        let side: usize = t.parse().map_err(|_| {
            InputError::param(format!(
                "--sizes entry '{t}' is malformed: expected board sides as whole numbers, like 8,16,32"
            ))
        })?;
        if side == 0 {
            return Err(InputError::param(
                "--sizes entry 0 is not a board side; give sides of at least 5 (smaller boards have no tour)",
            ));
        }
        Board::new(side, side)?;
        sides.push(side);
    }
    sides.sort_unstable();
    sides.dedup();
    if sides.len() < 2 {
        return Err(InputError::param(format!(
            "--sizes needs at least two different sides to fit an exponent, got {}",
            sides.len()
        )));
    }
    Ok(sides)
}

/// The default sides: 8, 16, ..., [`DEFAULT_LARGEST_SIDE`].
pub fn default_sides() -> Vec<usize> {
    std::iter::successors(Some(8usize), |s| Some(s * 2))
        .take_while(|&s| s <= DEFAULT_LARGEST_SIDE)
        .collect()
}

impl GrowthConfig {
    /// Check the flags and turn them into a configuration.
    pub fn from_args(args: &GrowthArgs) -> Result<GrowthConfig, InputError> {
        if !(args.budget.is_finite() && args.budget > 0.0) {
            return Err(InputError::param(format!(
                "--budget {} is not accepted; give a positive number of seconds",
                args.budget
            )));
        }
        if args.trials == 0 || args.trials > 1000 {
            return Err(InputError::param(format!(
                "--trials {} is not accepted; give 1 to 1000",
                args.trials
            )));
        }
        crate::check_threads(args.threads)?;
        let solvers: Vec<SolverKind> = args
            .solvers
            .iter()
            .map(|s| s.parse())
            .collect::<Result<_, _>>()?;
        if solvers.is_empty() {
            return Err(InputError::param("--solvers is empty; name at least one"));
        }
        let sides = match &args.sizes {
            Some(items) => parse_sides(items)?,
            None => default_sides(),
        };
        Ok(GrowthConfig {
            solvers,
            sides,
            budget: args.budget,
            trials: args.trials,
            seed: args.seed,
        })
    }
}

fn fmt_opt(x: Option<f64>, digits: usize) -> String {
    x.map_or("–".into(), |v| format!("{v:.digits$}"))
}

/// The exponent table and the times table, as Markdown (also the text output).
pub fn markdown(rows: &[GrowthRow]) -> String {
    let mut s = String::from(
        "| solver | fit range | sides fitted | exponent k (time ∝ squares^k) | ± s.e. | 95% CI | r² | time at largest |\n|---|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let n_fit = r.points.iter().filter(|p| p.tours > 0).count();
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            r.solver,
            match (r.fit_from, r.fit_to) {
                (Some(a), Some(b)) => format!("{a}x{a}..{b}x{b}"),
                _ => "–".into(),
            },
            n_fit,
            fmt_opt(r.exponent, 3),
            fmt_opt(r.stderr, 3),
            r.ci95
                .map_or("–".into(), |[a, b]| format!("{a:.3}..{b:.3}")),
            fmt_opt(r.r2, 4),
            r.points.last().map_or("–".into(), |p| format!(
                "{} ({}x{})",
                human(p.seconds),
                p.side,
                p.side
            )),
        );
    }
    s += "\n| solver | side | median time per solve | tours / trials |\n|---|---:|---:|---:|\n";
    for r in rows {
        for p in &r.points {
            s += &format!(
                "| {} | {} | {} | {} / {} |\n",
                r.solver,
                p.side,
                human(p.seconds),
                p.tours,
                p.trials
            );
        }
        for k in &r.skipped {
            s += &format!(
                "| {} | {} | skipped: {} | – |\n",
                r.solver, k.side, k.reason
            );
        }
    }
    s
}

pub fn run(args: GrowthArgs, out: &mut dyn Write) -> Result<(), Failure> {
    let cfg = GrowthConfig::from_args(&args)?;
    let threads = args.threads.min(parallel_items(&cfg));
    let rows = growth(&cfg, threads)?;
    let text = match args.format {
        GrowthFormat::Json => {
            serde_json::to_string_pretty(&rows).map_err(anyhow::Error::from)? + "\n"
        }
        GrowthFormat::Markdown => markdown(&rows),
        GrowthFormat::Text => format!(
            "median of {} trials per side (seeds {}..{}), budget {} per solve, {} thread{}\n{}",
            cfg.trials,
            cfg.seed,
            cfg.seed.wrapping_add(cfg.trials - 1),
            human(cfg.budget),
            threads,
            if threads == 1 { "" } else { "s" },
            markdown(&rows)
        ),
    };
    out.write_all(text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
    }

    #[test]
    fn prediction_is_at_least_linear() {
        let p = |side: usize, seconds: f64| GrowthPoint {
            side,
            squares: side * side,
            seconds,
            tours: 1,
            trials: 1,
        };
        // Flat times still predict linear growth: 4x the squares, 4x the time.
        let flat = [p(8, 1.0), p(16, 1.0)];
        assert!((predict(&flat, 32).unwrap() - 4.0).abs() < 1e-9);
        // Quadratic in the squares: 16x.
        let quad = [p(8, 1.0), p(16, 16.0)];
        assert!((predict(&quad, 32).unwrap() - 256.0).abs() < 1e-6);
    }
}

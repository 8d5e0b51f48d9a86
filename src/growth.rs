//! How each solver's time grows with the board (`knightnet growth` prints this). For
//! every solver, square boards of increasing side are solved `trials` times (trial `i`
//! with the seed an experiment with base seed `SEED` gives trial `i` of the solver's cell
//! on that board, as in [`crate::compare`]; each point lists its seeds), the median wall
//! time per solve is
//! kept, and a least-squares line through `ln(seconds)` against `ln(squares)`
//! ([`fit_power_law`]) gives the exponent `k` of `time ∝ squares^k` (1 is linear in the
//! number of squares) with its standard error and a 95% confidence interval.
//!
//! Sizes: by default the side doubles from 8 up to `DEFAULT_LARGEST_SIDE` while a solve
//! is predicted to fit the per-solve budget (the prediction extends the last two points'
//! slope, at least linear). A side a solver refuses (no tour of its kind, too much
//! memory, too large for a search) is skipped with the reason; a solver that can run none
//! of the sides is bad input. Only sides where at least one trial found a tour enter the
//! fit. Everything runs on the given threads (only network+merge uses more than one).
//!
//! Beyond the knight on the plane ([`GrowthConfig::on`]: another leaper, a cylinder or a
//! torus; shapes and graph files have no side to vary), each side's square board is a
//! [`Geometry`] and the solvers are those that run on its move graph
//! ([`crate::solvers::on_graph`], as `compare` runs them there; the others are refused,
//! saying why), each trial one [`on_graph::solve`] with the seed an experiment gives
//! that cell ([`Target::seed_text`]).
//!
//! ```
//! use knightnet::growth::{growth, GrowthConfig};
//!
//! let solvers = vec!["warnsdorff:roth".parse().unwrap()];
//! let cfg = GrowthConfig::new(solvers, vec![8, 16, 32], 1.0, 3, 1).unwrap();
//! let rows = growth(&cfg, 1).unwrap();
//! assert_eq!(rows[0].sizes, [8, 16, 32]);
//! assert!(rows[0].exponent.value.is_some());
//! ```

use std::time::Instant;

use serde::Serialize;

use crate::Rng;
use crate::board::Board;
use crate::error::{Accepted, Hint, InputError, Param, Refusal, Setting};
use crate::geometry::{Geometry, Leaper, Shape, Surface};
use crate::graph::KnightGraph;
use crate::report::{Align, MISSING, MarkdownTable, cell, human_secs};
use crate::rng_from_seed;
use crate::seeds::{cell_key, trial_seed};
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::solvers::{Request, Solver, SolverKind};
use crate::stats::Estimate;
use crate::target::Target;

/// Sides tried when none are given: 8, 16, ..., this.
pub(crate) const DEFAULT_LARGEST_SIDE: usize = 8192;

/// Validated configuration of a growth run.
#[derive(Debug, Clone, PartialEq)]
pub struct GrowthConfig {
    /// The solvers measured, each on every side (at least one).
    pub solvers: Vec<SolverKind>,
    /// Sides in increasing order.
    pub sides: Vec<usize>,
    /// Per-solve time budget in seconds.
    pub budget: f64,
    /// Trials per solver and side.
    pub trials: u64,
    /// Base seed of the trials ([`crate::seeds`]).
    pub seed: u64,
    /// The leaper on every board (the knight unless [`GrowthConfig::on`] says).
    pub leaper: Leaper,
    /// The surface of every board (the plane unless [`GrowthConfig::on`] says).
    pub surface: Surface,
}

impl GrowthConfig {
    /// Check a configuration: a positive budget, 1 to 1000 trials, at least one solver,
    /// and at least two distinct board sides (sorted here).
    pub fn new(
        solvers: Vec<SolverKind>,
        sides: Vec<usize>,
        budget: f64,
        trials: u64,
        seed: u64,
    ) -> Result<GrowthConfig, InputError> {
        check_budget(budget)?;
        check_trials(trials)?;
        if solvers.is_empty() {
            return Err(InputError::Empty {
                param: Param::Solvers,
            });
        }
        for &side in &sides {
            check_side(side)?;
        }
        Ok(GrowthConfig {
            solvers,
            sides: fit_sides(sides)?,
            budget,
            trials,
            seed,
            leaper: Leaper::KNIGHT,
            surface: Surface::Plane,
        })
    }

    /// The same run with another leaper or surface on every board.
    pub fn on(mut self, leaper: Leaper, surface: Surface) -> GrowthConfig {
        self.leaper = leaper;
        self.surface = surface;
        self
    }

    /// The geometry of the `side` x `side` board, `None` for the knight on the plane.
    fn geometry(&self, side: usize) -> Result<Option<Geometry>, InputError> {
        if self.leaper == Leaper::KNIGHT && self.surface == Surface::Plane {
            return Ok(None);
        }
        let shape = Shape::full(Board::new(side, side)?);
        Ok(Some(Geometry::new(shape, self.leaper, self.surface)))
    }
}

/// One side's solves: the knight's request, or a geometry's move graph with what is
/// asked of the solver there.
enum Trials {
    Knight {
        solver: Box<dyn Solver>,
        req: Request,
    },
    Graph {
        geometry: Geometry,
        graph: Box<KnightGraph>,
        solver: GraphSolver,
        req: GraphRequest,
    },
}

impl Trials {
    /// The solves of `kind` on the `side` board of `cfg`, or why the solver cannot run
    /// there (the side is skipped with that reason).
    fn new(kind: &SolverKind, cfg: &GrowthConfig, side: usize) -> Result<Trials, InputError> {
        let Some(geometry) = cfg.geometry(side)? else {
            let req = request(side)?;
            let solver = kind.build();
            solver.check(&req)?;
            return Ok(Trials::Knight { solver, req });
        };
        let solver = GraphSolver::from_kind(kind)?;
        let graph = Box::new(KnightGraph::from_moves(geometry.moves()?)?);
        let req = GraphRequest {
            closed: solver.closed_by_default(),
            start: None,
        };
        on_graph::check(&graph, &solver, &req)?;
        Ok(Trials::Graph {
            geometry,
            graph,
            solver,
            req,
        })
    }

    /// The seeds' key: the experiment cell's.
    fn key(&self, kind: &SolverKind) -> String {
        match self {
            Trials::Knight { req, .. } => cell_key(&kind.default_label(), req.board),
            Trials::Graph { geometry, .. } => format!(
                "{}/{}",
                kind.default_label(),
                Target::Geometry(geometry.clone()).seed_text()
            ),
        }
    }

    /// One solve: whether it found a tour, the network's attempts, and its steps
    /// (sweeps) over all attempts (0 for the solvers that do not iterate).
    fn solve(&self, rng: &mut Rng) -> Result<(bool, u64, u64), InputError> {
        Ok(match self {
            Trials::Knight { solver, req } => {
                let sol = solver.solve(req, rng)?;
                (sol.tour().is_some(), sol.attempts, sol.iterations)
            }
            Trials::Graph {
                graph, solver, req, ..
            } => {
                let sol = on_graph::solve(graph, solver, req, rng)?;
                (sol.tour.is_some(), sol.attempts, sol.iterations)
            }
        })
    }
}

/// Check a per-solve budget: a positive number of seconds.
pub fn check_budget(budget: f64) -> Result<f64, InputError> {
    if budget.is_finite() && budget > 0.0 {
        Ok(budget)
    } else {
        Err(InputError::OutOfRange {
            param: Param::Budget,
            value: budget.to_string(),
            accepted: Accepted::Positive("seconds"),
        })
    }
}

/// Check a trial count: 1 to 1000.
pub fn check_trials(trials: u64) -> Result<u64, InputError> {
    if (1..=1000).contains(&trials) {
        Ok(trials)
    } else {
        Err(InputError::OutOfRange {
            param: Param::Trials,
            value: trials.to_string(),
            accepted: Accepted::Range { min: 1, max: 1000 },
        })
    }
}

/// Check one board side: at least 1, and a board the toolkit accepts.
pub fn check_side(side: usize) -> Result<usize, InputError> {
    if side == 0 {
        return Err(InputError::OutOfRange {
            param: Param::Sizes,
            value: "0".into(),
            accepted: Accepted::BoardSides(5),
        });
    }
    Board::new(side, side)?;
    Ok(side)
}

/// Sort and deduplicate sides; at least two distinct ones are needed to fit an exponent.
pub fn fit_sides(mut sides: Vec<usize>) -> Result<Vec<usize>, InputError> {
    sides.sort_unstable();
    sides.dedup();
    if sides.len() < 2 {
        return Err(InputError::unsupported(
            Refusal::new(format!(
                "needs at least two different sides to fit an exponent, got {}",
                sides.len()
            ))
            .about([Setting::of(Param::Sizes)]),
        ));
    }
    Ok(sides)
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
    /// Points in the fit (at least 2).
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
    /// The board's side: the board is `side x side`.
    pub side: usize,
    /// Squares of the board, `side * side`.
    pub squares: usize,
    /// Median wall time of one solve (the oracle's check included).
    pub seconds: f64,
    /// Trials that found a tour.
    pub tours: u64,
    /// Trials run (fewer than asked when one exceeded the budget).
    pub trials: u64,
    /// The seed of each trial run, in order: `solve --solver NAME --board SIDExSIDE
    /// --seed SEED` replays one.
    pub seeds: Vec<u64>,
    /// The network's mean attempts per solve; `None` for the solvers that do not
    /// iterate.
    pub mean_attempts: Option<f64>,
    /// The network's mean steps (sweeps, for sequential orders) per solve, over all
    /// attempts; `None` for the solvers that do not iterate.
    pub mean_sweeps: Option<f64>,
    /// Seconds per step: the trials' total time over their total steps (so `mean_sweeps`
    /// times this is the mean time per solve); `None` without steps.
    pub seconds_per_sweep: Option<f64>,
}

/// A side that was not measured, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    /// The side not measured.
    pub side: usize,
    /// Why, in words: the solver refused the board, the predicted time was over the
    /// budget, or a smaller side already was.
    pub reason: String,
}

/// One solver's growth: its points, the fit, and the sides it skipped.
#[derive(Debug, Clone, Serialize)]
pub struct GrowthRow {
    /// The solver's name, as `--solver` takes it.
    pub solver: String,
    /// Sides measured (parallel to `seconds`).
    pub sizes: Vec<usize>,
    /// Median seconds per solve at each measured side.
    pub seconds: Vec<f64>,
    /// Each measured side in full, in increasing order.
    pub points: Vec<GrowthPoint>,
    /// Exponent `k` of `time ∝ squares^k` (`value` `None` unless at least two sides found
    /// tours) with its 95% confidence interval ([`PowerFit::ci95`]; both ends `None`
    /// with two points: the interval is unbounded).
    pub exponent: Estimate,
    /// Standard error of the exponent ([`PowerFit::stderr`]; `None` without a fit or
    /// with two points).
    pub stderr: Option<f64>,
    /// Coefficient of determination of the fit (`None` without a fit).
    pub r2: Option<f64>,
    /// Smallest side in the fit (sides whose trials found a tour); `None` without a fit.
    pub fit_from: Option<usize>,
    /// Largest side in the fit; `None` without a fit.
    pub fit_to: Option<usize>,
    /// Sides not measured, in increasing order, each with its reason.
    pub skipped: Vec<Skipped>,
    /// For the network: the exponent `c` of attempts per solve ∝ squares^c, fitted on
    /// the same sides as `exponent`, with its 95% interval; `None` for the other solvers.
    pub attempts_exponent: Option<Estimate>,
    /// For the network: the exponent `a` of sweeps per solve ∝ squares^a (`a - c` is the
    /// exponent of sweeps per attempt, exactly: the fits are linear).
    pub sweeps_exponent: Option<Estimate>,
    /// For the network: the exponent `b` of time per sweep ∝ squares^b. `a + b` is the
    /// exponent of the mean time per solve (exactly: the fits are linear); `exponent`
    /// fits the median, so it may differ by the spread of the trials.
    pub sweep_seconds_exponent: Option<Estimate>,
}

/// The fit of `value` against the squares over `points`, as an estimate with its 95%
/// interval; `None` unless every point has a value and a fit exists.
fn fit_estimate(
    points: &[&GrowthPoint],
    value: impl Fn(&GrowthPoint) -> Option<f64>,
) -> Option<Estimate> {
    let values: Option<Vec<f64>> = points.iter().map(|p| value(p)).collect();
    let squares: Vec<f64> = points.iter().map(|p| p.squares as f64).collect();
    let fit = fit_power_law(&squares, &values?)?;
    Some(Estimate {
        value: Some(fit.exponent),
        low: fit.ci95.map(|[lo, _]| lo),
        high: fit.ci95.map(|[_, hi]| hi),
    })
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
        if cfg.geometry(cfg.sides[0])?.is_some() {
            // A solver that runs on no geometry is refused for what it is.
            GraphSolver::from_kind(kind)?;
        }
        let mut first_err = None;
        let mut any = false;
        for &side in &cfg.sides {
            match Trials::new(kind, cfg, side) {
                Ok(_) => {
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
            return Err(InputError::unsupported(
                Refusal::new(format!(
                    "{kind} can run none of the sides {} (at {side}x{side}: {e})",
                    cfg.sides
                        .iter()
                        .map(|s| s.to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ))
                .hint(Hint::GiveAccepted(Param::Sizes)),
            ));
        }
    }
    Ok(())
}

/// Measure one solver over the configured sides.
pub fn measure(kind: &SolverKind, cfg: &GrowthConfig) -> Result<GrowthRow, InputError> {
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
        let trials = match Trials::new(kind, cfg, side) {
            Ok(t) => t,
            Err(e) => {
                skipped.push(Skipped {
                    side,
                    reason: e.to_string(),
                });
                continue;
            }
        };
        if let Some(pred) = predict(&points, side)
            && pred > cfg.budget
        {
            let why = format!(
                "predicted {} per solve at {side}x{side}, over the {} budget",
                human_secs(pred),
                human_secs(cfg.budget)
            );
            skipped.push(Skipped { side, reason: why });
            stop = Some(format!("larger than {side}x{side}, which was over budget"));
            continue;
        }
        let mut times = Vec::new();
        let mut seeds = Vec::new();
        let mut tours = 0;
        let mut steps = 0u64;
        let mut attempts = 0u64;
        let key = trials.key(kind);
        for i in 0..cfg.trials {
            let seed = trial_seed(cfg.seed, &key, i);
            seeds.push(seed);
            let mut rng = rng_from_seed(seed);
            let t0 = Instant::now();
            let (found, tried, iterations) = trials.solve(&mut rng)?;
            let secs = t0.elapsed().as_secs_f64();
            tours += u64::from(found);
            steps += iterations;
            attempts += tried;
            times.push(secs);
            if secs > cfg.budget {
                stop = Some(format!(
                    "larger than {side}x{side}, where a solve took {} (budget {})",
                    human_secs(secs),
                    human_secs(cfg.budget)
                ));
                break;
            }
        }
        drop(trials);
        let trials = times.len() as u64;
        let total: f64 = times.iter().sum();
        points.push(GrowthPoint {
            side,
            squares: side * side,
            seconds: median(&mut times),
            tours,
            trials,
            seeds,
            mean_attempts: (steps > 0).then(|| attempts as f64 / trials as f64),
            mean_sweeps: (steps > 0).then(|| steps as f64 / trials as f64),
            seconds_per_sweep: (steps > 0).then(|| total / steps as f64),
        });
    }
    let fitted: Vec<&GrowthPoint> = points.iter().filter(|p| p.tours > 0).collect();
    let fit = fit_power_law(
        &fitted.iter().map(|p| p.squares as f64).collect::<Vec<_>>(),
        &fitted.iter().map(|p| p.seconds).collect::<Vec<_>>(),
    );
    let ci95 = fit.and_then(|f| f.ci95);
    Ok(GrowthRow {
        solver: kind.to_string(),
        sizes: points.iter().map(|p| p.side).collect(),
        seconds: points.iter().map(|p| p.seconds).collect(),
        exponent: Estimate {
            value: fit.map(|f| f.exponent),
            low: ci95.map(|[lo, _]| lo),
            high: ci95.map(|[_, hi]| hi),
        },
        stderr: fit.and_then(|f| f.stderr),
        r2: fit.map(|f| f.r2),
        fit_from: fit.and_then(|_| fitted.first().map(|p| p.side)),
        fit_to: fit.and_then(|_| fitted.last().map(|p| p.side)),
        attempts_exponent: fit.and_then(|_| fit_estimate(&fitted, |p| p.mean_attempts)),
        sweeps_exponent: fit.and_then(|_| fit_estimate(&fitted, |p| p.mean_sweeps)),
        sweep_seconds_exponent: fit.and_then(|_| fit_estimate(&fitted, |p| p.seconds_per_sweep)),
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
    let pool = crate::thread_pool(threads, "knightnet-growth")?;
    pool.install(|| cfg.solvers.iter().map(|k| measure(k, cfg)).collect())
}

/// The most work items any solve of `cfg` can run in parallel: the tiles of
/// network+merge on the largest side, 1 for every other solver (their solves are
/// sequential). The pool never gets more threads than this.
pub fn parallel_items(cfg: &GrowthConfig) -> usize {
    let side = cfg.sides.iter().copied().max().unwrap_or(1);
    if cfg.leaper != Leaper::KNIGHT || cfg.surface != Surface::Plane {
        // Beyond the knight network+merge runs whole, on one thread.
        return 1;
    }
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

/// The default sides: 8, 16, ..., `DEFAULT_LARGEST_SIDE`.
pub fn default_sides() -> Vec<usize> {
    std::iter::successors(Some(8usize), |s| Some(s * 2))
        .take_while(|&s| s <= DEFAULT_LARGEST_SIDE)
        .collect()
}

fn fmt_opt(x: Option<f64>, digits: usize) -> String {
    cell(x, |v| format!("{v:.digits$}"))
}

/// The exponent table and the times table, as Markdown (also the body of the text
/// output).
pub fn markdown(rows: &[GrowthRow]) -> String {
    let mut fits = MarkdownTable::new(&[
        ("solver", Align::Left),
        ("fit range", Align::Left),
        ("sides fitted", Align::Right),
        ("exponent k (time ∝ squares^k)", Align::Right),
        ("± s.e.", Align::Right),
        ("95% CI", Align::Right),
        ("r²", Align::Right),
        ("time at largest", Align::Right),
    ]);
    for r in rows {
        let n_fit = r.points.iter().filter(|p| p.tours > 0).count();
        fits.row(&[
            r.solver.clone(),
            match (r.fit_from, r.fit_to) {
                (Some(a), Some(b)) => format!("{a}x{a}..{b}x{b}"),
                _ => MISSING.into(),
            },
            n_fit.to_string(),
            fmt_opt(r.exponent.value, 3),
            fmt_opt(r.stderr, 3),
            cell(r.exponent.low.zip(r.exponent.high), |(a, b)| {
                format!("{a:.3}..{b:.3}")
            }),
            fmt_opt(r.r2, 4),
            cell(r.points.last(), |p| {
                format!("{} ({}x{})", human_secs(p.seconds), p.side, p.side)
            }),
        ]);
    }
    let mut times = MarkdownTable::new(&[
        ("solver", Align::Left),
        ("side", Align::Right),
        ("median time per solve", Align::Right),
        ("tours / trials", Align::Right),
        ("attempts per solve (mean)", Align::Right),
        ("sweeps per solve (mean)", Align::Right),
        ("time per sweep", Align::Right),
    ]);
    for r in rows {
        for p in &r.points {
            times.row(&[
                r.solver.clone(),
                p.side.to_string(),
                human_secs(p.seconds),
                format!("{} / {}", p.tours, p.trials),
                fmt_opt(p.mean_attempts, 2),
                fmt_opt(p.mean_sweeps, 1),
                cell(p.seconds_per_sweep, human_secs),
            ]);
        }
        for k in &r.skipped {
            times.row(&[
                r.solver.clone(),
                k.side.to_string(),
                format!("skipped: {}", k.reason),
                MISSING.into(),
                MISSING.into(),
                MISSING.into(),
                MISSING.into(),
            ]);
        }
    }
    let mut out = fits.finish() + "\n" + &times.finish();
    if rows.iter().any(|r| r.sweeps_exponent.is_some()) {
        let mut split = MarkdownTable::new(&[
            ("solver", Align::Left),
            ("attempts per solve ∝ squares^c", Align::Right),
            ("sweeps per solve ∝ squares^a", Align::Right),
            ("sweeps per attempt: a − c", Align::Right),
            ("time per sweep ∝ squares^b", Align::Right),
            ("a + b (mean time per solve)", Align::Right),
        ]);
        let shown = |e: &Estimate| {
            let v = fmt_opt(e.value, 3);
            match (e.low, e.high) {
                (Some(a), Some(b)) => format!("{v} ({a:.3}..{b:.3})"),
                _ => v,
            }
        };
        for r in rows {
            let (Some(c), Some(a), Some(b)) = (
                &r.attempts_exponent,
                &r.sweeps_exponent,
                &r.sweep_seconds_exponent,
            ) else {
                continue;
            };
            split.row(&[
                r.solver.clone(),
                shown(c),
                shown(a),
                fmt_opt(a.value.zip(c.value).map(|(a, c)| a - c), 3),
                shown(b),
                fmt_opt(a.value.zip(b.value).map(|(a, b)| a + b), 3),
            ]);
        }
        out = out + "\n" + &split.finish();
    }
    out
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
            seeds: vec![1],
            mean_attempts: None,
            mean_sweeps: None,
            seconds_per_sweep: None,
        };
        // Flat times still predict linear growth: 4x the squares, 4x the time.
        let flat = [p(8, 1.0), p(16, 1.0)];
        assert!((predict(&flat, 32).unwrap() - 4.0).abs() < 1e-9);
        // Quadratic in the squares: 16x.
        let quad = [p(8, 1.0), p(16, 16.0)];
        assert!((predict(&quad, 32).unwrap() - 256.0).abs() < 1e-6);
    }
}

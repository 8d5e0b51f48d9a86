//! Several solvers side by side on one board with the same seeds, in one process: time
//! per tour, success rate, the ratio to the fastest, and the variety of the tours
//! (`knightnet compare` prints this).
//!
//! Trial `i` of a solver runs with the seed an experiment with base seed `SEED` gives
//! trial `i` of that solver's cell on the board ([`crate::seeds`]: the cell is the
//! solver's default label and the board, e.g. `parberry/8x8`), so the trials of
//! `compare` are those of an experiment's cells, and every row lists its trials with
//! their seeds ([`CompareRow::per_trial`]): `solve --solver NAME --seed THAT` replays
//! one. Trials run on `threads` threads (never
//! more than trials) in one chunk of consecutive trials per thread, solved with
//! [`crate::solvers::Solver::solve_many`] (the network runs a chunk's solves in the lanes
//! of one batch: throughput mode; the tours are the same as one `solve` per seed).
//! `seconds` is the sum of the chunks' own wall times, each on one core, so it hardly
//! depends on the thread count. [`shared_moves`] measures variety: the mean share of moves
//! two tours of the same solver have in common (a construction that always builds the
//! same tour scores 100%).
//!
//! With `open` (`compare --open`) every solver is asked for an open tour: the network
//! and `network+merge` run on the open graph ([`crate::graph::KnightGraph::open`]), the
//! classical solvers as they do by default, and `circuit`, which builds closed tours only
//! ([`SolverKind::finds_open_tours`]), is refused by name. The trials' seeds
//! are the same as without it; `solve --solver NAME --open --seed THAT` replays one.
//!
//! ```
//! use knightnet::{board::Board, compare::Comparison};
//!
//! let kinds = vec!["warnsdorff:roth".parse().unwrap(), "divide-conquer".parse().unwrap()];
//! let rows = Comparison::new(Board::new(8, 8).unwrap(), kinds)
//!     .trials(3)
//!     .seed(1)
//!     .run()
//!     .unwrap();
//! assert_eq!(rows.len(), 2);
//! assert!(rows.iter().all(|r| r.tours == 3));
//! print!("{}", knightnet::compare::markdown(&rows));
//! ```

use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::report::{Align, MarkdownTable, cell, human_secs};
use crate::rng_from_seed;
use crate::seeds::{cell_key, trial_seed};
use crate::solvers::{Closure, Outcome, Request, SolverKind, record_outcome};
use crate::stats::{Estimate, Z95, wilson};

/// One row of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// The solver, as [`SolverKind`]'s `Display` names it (`network:parberry`).
    pub solver: String,
    /// The board (`{"rows", "cols"}` in JSON).
    pub board: Board,
    /// Trials run.
    pub trials: u64,
    /// Trials that found a tour.
    pub tours: u64,
    /// Network attempts (restarts + 1) summed over trials; 1 per trial for the others.
    pub attempts: u64,
    /// Sum of the trials' own times.
    pub seconds: f64,
    /// Time per tour: `seconds` over `tours` (`value` `None` when no trial found a
    /// tour), with its 95% interval from the Wilson interval of the tour rate per attempt
    /// (seconds per attempt over each bound; `high` `None`: unbounded); timing noise is
    /// not in it.
    pub seconds_per_tour: Estimate,
    /// Share of trials that found a tour, `tours / trials` (0 to 1), with its Wilson
    /// score interval.
    pub p_tour: Estimate,
    /// The value of `seconds_per_tour` over the fastest solver's.
    pub ratio_to_fastest: Option<f64>,
    /// Variety: the mean share of moves two of this solver's tours have in common, over
    /// all pairs of the first `VARIETY_TOURS` tours (1.0: always the same tour).
    pub shared_moves: Option<f64>,
    /// Attempts for a 99% chance of a tour, R99 = ⌈ln 0.01 / ln(1 − p)⌉ with p the tour
    /// rate per attempt, and its 95% interval from the Wilson bounds of p.
    pub r99: Estimate,
    /// Time to a tour with 99% confidence: R99 × seconds per attempt, with the interval
    /// of R99 (timing noise is not in it).
    pub tts99_seconds: Estimate,
    /// Every trial in order, with its seed (JSON only).
    pub per_trial: Vec<CompareTrial>,
}

/// One trial of a comparison: its seed and how it ended.
#[derive(Debug, Clone, Serialize)]
pub struct CompareTrial {
    /// The trial's number, from 0.
    pub trial: u64,
    /// The trial's seed: `solve --solver NAME --board BOARD --seed SEED` replays it.
    pub seed: u64,
    /// How the trial ended, as an experiment records it.
    pub outcome: Outcome,
    /// Network attempts (restarts + 1); 1 for the other solvers.
    pub attempts: u64,
    /// Network steps or sweeps over all attempts (0 for the other solvers).
    pub iterations: u64,
}

impl CompareRow {
    /// Seconds per attempt (network attempts; one per trial for the other solvers).
    pub fn seconds_per_attempt(&self) -> f64 {
        self.seconds / self.attempts.max(1) as f64
    }
}

/// One trial: the tour's moves (if any), what is listed of it, seconds taken.
type TrialResult = (Option<Vec<(u32, u32)>>, CompareTrial, f64);

/// Tours per solver that enter the variety measure.
pub(crate) const VARIETY_TOURS: usize = 20;

/// Mean share of common moves over all pairs of `tours` (sorted move lists).
pub fn shared_moves(tours: &[Vec<(u32, u32)>]) -> Option<f64> {
    let mut total = 0.0;
    let mut pairs = 0usize;
    for i in 0..tours.len() {
        for j in i + 1..tours.len() {
            let (a, b) = (&tours[i], &tours[j]);
            let (mut x, mut y, mut common) = (0, 0, 0usize);
            while x < a.len() && y < b.len() {
                match a[x].cmp(&b[y]) {
                    std::cmp::Ordering::Less => x += 1,
                    std::cmp::Ordering::Greater => y += 1,
                    std::cmp::Ordering::Equal => {
                        common += 1;
                        x += 1;
                        y += 1;
                    }
                }
            }
            total += common as f64 / a.len().max(b.len()).max(1) as f64;
            pairs += 1;
        }
    }
    (pairs > 0).then(|| total / pairs as f64)
}

/// A comparison to run: the solvers, the board, and how many trials of each with which
/// base seed on how many threads. Built with [`Comparison::new`] and its setters, run
/// with [`Comparison::run`].
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    board: Board,
    kinds: Vec<SolverKind>,
    open: bool,
    trials: u64,
    seed: u64,
    threads: usize,
}

impl Comparison {
    /// The solvers `kinds` on `board`, each solver's default tour (closed for the
    /// network, open for the others), 10 trials each from [`crate::DEFAULT_SEED`], on one
    /// thread.
    pub fn new(board: Board, kinds: Vec<SolverKind>) -> Comparison {
        Comparison {
            board,
            kinds,
            open: false,
            trials: 10,
            seed: crate::DEFAULT_SEED,
            threads: 1,
        }
    }

    /// Ask every solver for an open tour (`true`), or for its default tour (`false`).
    pub fn open(mut self, open: bool) -> Comparison {
        self.open = open;
        self
    }

    /// Trials per solver.
    pub fn trials(mut self, trials: u64) -> Comparison {
        self.trials = trials;
        self
    }

    /// The base seed the trials' seeds derive from ([`crate::seeds`]).
    pub fn seed(mut self, seed: u64) -> Comparison {
        self.seed = seed;
        self
    }

    /// Threads to run the trials on (never more than the trials are used).
    pub fn threads(mut self, threads: usize) -> Comparison {
        self.threads = threads;
        self
    }

    /// Run the comparison (the CLI only formats it): one row per solver, in order.
    pub fn run(&self) -> Result<Vec<CompareRow>, InputError> {
        let Comparison {
            board,
            ref kinds,
            open,
            trials,
            seed,
            threads,
        } = *self;
        let request = Request {
            closed: if open {
                Closure::Open
            } else {
                Closure::SolverDefault
            },
            ..Request::new(board)
        };
        if open && let Some(k) = kinds.iter().find(|k| !k.finds_open_tours()) {
            return Err(InputError::unsupported(
                Refusal::new(format!("{k} builds closed tours only"))
                    .about([Setting::of(Param::Open)])
                    .hint(Hint::OpenSolvers),
            ));
        }
        // One chunk of trials per thread: more threads than trials would idle.
        let threads = crate::check_threads(threads)?.min(trials.max(1) as usize);
        let solvers: Vec<_> = kinds
            .iter()
            .map(|k| (k, k.to_string(), k.build()))
            .collect();
        for (_, name, s) in &solvers {
            s.check(&request).map_err(|e| match e {
                e if e.is_environment() => e,
                e => InputError::Within {
                    what: name.clone(),
                    error: Box::new(e),
                },
            })?;
        }
        let pool = crate::thread_pool(threads, "knightnet-compare")?;
        let mut rows: Vec<CompareRow> = pool.install(|| {
            solvers
                .iter()
                .map(|(kind, name, solver)| {
                    let key = cell_key(&kind.default_label(), board);
                    // One chunk of consecutive trials per thread, solved together so that
                    // solvers with lanes (the network) keep them full; a chunk's time is
                    // spread evenly over its trials.
                    let chunk = trials.div_ceil(threads as u64).max(1);
                    let chunks: Vec<(u64, u64)> = (0..trials)
                        .step_by(chunk as usize)
                        .map(|lo| (lo, (lo + chunk).min(trials)))
                        .collect();
                    let results: Vec<TrialResult> = chunks
                        .into_par_iter()
                        .flat_map_iter(|(lo, hi)| {
                            let seeds: Vec<u64> =
                                (lo..hi).map(|i| trial_seed(seed, &key, i)).collect();
                            let mut rngs: Vec<_> =
                                seeds.iter().map(|&s| rng_from_seed(s)).collect();
                            let t0 = Instant::now();
                            let sols = solver.solve_many(&request, &mut rngs);
                            let secs = t0.elapsed().as_secs_f64() / (hi - lo) as f64;
                            sols.into_iter().zip(lo..hi).zip(seeds).map(
                                move |((sol, trial), seed)| {
                                    let mut listed = CompareTrial {
                                        trial,
                                        seed,
                                        // Outcomes as an experiment records them.
                                        outcome: record_outcome(&sol),
                                        attempts: 1,
                                        iterations: 0,
                                    };
                                    let tour = sol.ok().and_then(|s| {
                                        listed.attempts = s.attempts.max(1);
                                        listed.iterations = s.iterations;
                                        s.into_tour().map(|t| t.moves())
                                    });
                                    (tour, listed, secs)
                                },
                            )
                        })
                        .collect();
                    let tours = results.iter().filter(|r| r.0.is_some()).count() as u64;
                    let sample: Vec<Vec<(u32, u32)>> = results
                        .iter()
                        .filter_map(|r| r.0.clone())
                        .take(VARIETY_TOURS)
                        .collect();
                    let seconds: f64 = results.iter().map(|r| r.2).sum();
                    let attempts: u64 = results.iter().map(|r| r.1.attempts).sum();
                    let per_attempt = seconds / attempts.max(1) as f64;
                    let r99 = Estimate::r99(tours, attempts, Z95);
                    let (lo, hi) = wilson(tours, attempts, Z95);
                    let per_tour_at = |p: f64| (p > 0.0).then(|| per_attempt / p);
                    CompareRow {
                        solver: name.clone(),
                        board,
                        trials,
                        tours,
                        attempts,
                        seconds,
                        seconds_per_tour: Estimate {
                            value: (tours > 0).then(|| seconds / tours as f64),
                            low: per_tour_at(hi),
                            high: per_tour_at(lo),
                        },
                        p_tour: Estimate::share(tours, trials, Z95),
                        ratio_to_fastest: None,
                        shared_moves: shared_moves(&sample),
                        r99,
                        tts99_seconds: r99.times(per_attempt),
                        per_trial: results.into_iter().map(|r| r.1).collect(),
                    }
                })
                .collect()
        });
        let best = rows
            .iter()
            .filter_map(|r| r.seconds_per_tour.value)
            .fold(f64::INFINITY, f64::min);
        for r in &mut rows {
            r.ratio_to_fastest = r.seconds_per_tour.value.map(|t| t / best);
        }
        Ok(rows)
    }
}

/// The table as Markdown (also the body of the text output).
pub fn markdown(rows: &[CompareRow]) -> String {
    let mut t = MarkdownTable::new(&[
        ("solver", Align::Left),
        ("board", Align::Left),
        ("tours / trials", Align::Right),
        ("attempts", Align::Right),
        ("time per tour [95%]", Align::Right),
        ("R99 [95%]", Align::Right),
        ("TTS99 [95%]", Align::Right),
        ("ratio to fastest", Align::Right),
        ("moves shared by two tours", Align::Right),
    ]);
    for r in rows {
        t.row(&[
            r.solver.clone(),
            r.board.to_string(),
            format!("{} / {}", r.tours, r.trials),
            r.attempts.to_string(),
            with_interval(r.seconds_per_tour, human_secs),
            with_interval(r.r99, |x| format!("{x:.0}")),
            with_interval(r.tts99_seconds, human_secs),
            cell(r.ratio_to_fastest, |x| format!("{x:.2}×")),
            cell(r.shared_moves, |x| format!("{:.0}%", 100.0 * x)),
        ]);
    }
    t.finish()
}

/// `value [low, high]`, "–" for a missing value and "∞" for an unbounded end.
fn with_interval(e: Estimate, show: impl Fn(f64) -> String) -> String {
    let Some(v) = e.value else {
        return cell(None, &show);
    };
    let end = |x: Option<f64>| x.map_or("∞".to_string(), &show);
    format!("{} [{}, {}]", show(v), end(e.low), end(e.high))
}

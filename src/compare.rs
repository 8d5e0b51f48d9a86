//! Several solvers side by side on one board with the same seeds, in one process: time
//! per tour, success rate, the ratio to the fastest, and the variety of the tours
//! (`knightnet compare` prints this).
//!
//! Trial `i` of a solver runs with the seed an experiment with base seed `SEED` gives
//! trial `i` of that solver's cell on the board ([`crate::seeds`]: the cell is the
//! solver's default label and the board, e.g. `parberry/8x8`), so the trials of
//! `compare` are those of an experiment's cells, and every row lists its trials with
//! their seeds ([`CompareRow::per_trial`]): `solve --solver NAME --seed THAT` replays
//! one. Trials run on `threads` threads (never more than trials) that share one queue
//! of trials, each thread feeding its solver the next trial whenever it can take one
//! ([`crate::solvers::Solver::solve_stream`]: the network runs its solves in the lanes of
//! one batch, throughput mode, and takes a new one whenever no solve it holds needs
//! another attempt; the tours are the same as one `solve` per seed). `seconds` is the sum
//! of the trials' own times, each on one core (a network trial's is its attempts' share
//! of its batch's wall time), so it hardly depends on the thread count. [`shared_moves`]
//! measures variety: the mean share of moves two tours of the same solver have in common
//! (a construction that always builds the same tour scores 100%).
//!
//! With `open` (`compare --open`) every solver is asked for an open tour: the network
//! and `network+merge` run on the open graph ([`crate::graph::KnightGraph::open`]), the
//! classical solvers as they do by default, and `circuit`, which builds closed tours only
//! ([`SolverKind::finds_open_tours`]), is refused by name. The trials' seeds
//! are the same as without it; `solve --solver NAME --open --seed THAT` replays one.
//!
//! On a target ([`Comparison::on`]: a leaper, surface or shape other than the knight on
//! a whole plane board, or a graph file) the solvers are those of
//! [`crate::solvers::on_graph`], each trial one [`on_graph::solve`] on the target's
//! graph (every tour checked by the oracle on it), seeded as an experiment's cell on
//! that target with the solver's default label ([`crate::target::Target::seed_text`]).
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

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::report::{Align, MarkdownTable, cell, human_secs};
use crate::rng_from_seed;
use crate::seeds::{cell_key, trial_seed};
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::solvers::{Closure, Outcome, Request, Solution, SolverKind, record_outcome};
use crate::stats::{Estimate, Z95, wilson};
use crate::target::Target;

/// One row of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CompareRow {
    /// The solver, as [`SolverKind`]'s `Display` names it (`network:parberry`).
    pub solver: String,
    /// The board (`{"rows", "cols"}` in JSON); on a graph file `1xV`.
    pub board: Board,
    /// Where the solvers ran when it is not the knight on a whole plane board
    /// ([`Target::label`]: `8x8 torus (2,3)-leaper`, `graph petersen`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
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
    target: Option<Target>,
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
            target: None,
            kinds,
            open: false,
            trials: 10,
            seed: crate::DEFAULT_SEED,
            threads: 1,
        }
    }

    /// Run on `target` instead of the knight's board: the solvers of
    /// [`crate::solvers::on_graph`] on its graph (the others are refused, saying why).
    pub fn on(mut self, target: Target) -> Comparison {
        if let Target::Geometry(g) = &target {
            self.board = g.board();
        }
        self.target = Some(target);
        self
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
        if let Some(target) = &self.target {
            return self.run_on(target);
        }
        let Comparison {
            board,
            ref kinds,
            open,
            trials,
            seed,
            threads,
            ..
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
        // More threads than trials would idle.
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
        let mut rows: Vec<CompareRow> = solvers
            .iter()
            .map(|(kind, name, solver)| {
                let key = cell_key(&kind.default_label(), board);
                // The threads share one queue of trials, each handing its solver the
                // next trial whenever it can take one ([`Solver::solve_stream`]:
                // the network keeps its lanes full), so no thread waits for another
                // until the queue is empty.
                let queue = AtomicU64::new(0);
                let mut results: Vec<(u64, TrialResult)> = pool
                    .broadcast(|_| {
                        let mut mine = Vec::new();
                        solver.solve_stream(
                            &request,
                            &mut || {
                                let trial = queue.fetch_add(1, Ordering::Relaxed);
                                (trial < trials)
                                    .then(|| (trial, rng_from_seed(trial_seed(seed, &key, trial))))
                            },
                            &mut |trial, sol, secs| {
                                let seed = trial_seed(seed, &key, trial);
                                mine.push((trial, trial_result(trial, seed, sol, secs)));
                            },
                        );
                        mine
                    })
                    .into_iter()
                    .flatten()
                    .collect();
                results.sort_unstable_by_key(|r| r.0);
                let results = results.into_iter().map(|r| r.1).collect();
                row(name.clone(), board, None, trials, results)
            })
            .collect();
        with_ratios(&mut rows);
        Ok(rows)
    }

    /// [`Comparison::run`] on a target: each solver refused unless
    /// [`GraphSolver::from_kind`] and [`on_graph::check`] accept it, then its trials,
    /// one [`on_graph::solve`] each, timed one by one.
    fn run_on(&self, target: &Target) -> Result<Vec<CompareRow>, InputError> {
        let within = |name: &str, e: InputError| match e {
            e if e.is_environment() => e,
            e => InputError::Within {
                what: name.to_string(),
                error: Box::new(e),
            },
        };
        let graph = target.graph()?;
        let board = match target {
            Target::Geometry(g) => g.board(),
            Target::File { graph, .. } => Board::new(1, graph.vertices() as usize)?,
        };
        let mut solvers = Vec::new();
        for kind in &self.kinds {
            let name = kind.to_string();
            let solver = GraphSolver::from_kind(kind).map_err(|e| within(&name, e))?;
            let req = GraphRequest {
                closed: !self.open && solver.closed_by_default(),
                start: None,
            };
            on_graph::check(&graph, &solver, &req).map_err(|e| within(&name, e))?;
            solvers.push((kind, name, solver, req));
        }
        let threads = crate::check_threads(self.threads)?.min(self.trials.max(1) as usize);
        let pool = crate::thread_pool(threads, "knightnet-compare")?;
        let mut rows: Vec<CompareRow> = pool.install(|| {
            solvers
                .iter()
                .map(|(kind, name, solver, req)| {
                    let key = format!("{}/{}", kind.default_label(), target.seed_text());
                    let results: Vec<TrialResult> = (0..self.trials)
                        .into_par_iter()
                        .map(|trial| {
                            let seed = trial_seed(self.seed, &key, trial);
                            let t0 = Instant::now();
                            let sol =
                                on_graph::solve(&graph, solver, req, &mut rng_from_seed(seed));
                            let secs = t0.elapsed().as_secs_f64();
                            let mut listed = CompareTrial {
                                trial,
                                seed,
                                outcome: Outcome::Refused,
                                attempts: 1,
                                iterations: 0,
                            };
                            let tour = match sol {
                                Ok(s) => {
                                    listed.outcome = s.outcome;
                                    listed.attempts = s.attempts.max(1);
                                    listed.iterations = s.iterations;
                                    s.tour.map(|t| {
                                        let v = t.vertices();
                                        let ends =
                                            if t.is_closed() { v.len() } else { v.len() - 1 };
                                        let mut moves: Vec<(u32, u32)> = (0..ends)
                                            .map(|i| {
                                                let (a, b) = (v[i], v[(i + 1) % v.len()]);
                                                (a.min(b), a.max(b))
                                            })
                                            .collect();
                                        moves.sort_unstable();
                                        moves
                                    })
                                }
                                Err(InputError::Impossible(_)) => {
                                    listed.outcome = Outcome::Impossible;
                                    None
                                }
                                Err(_) => None,
                            };
                            (tour, listed, secs)
                        })
                        .collect();
                    row(
                        name.clone(),
                        board,
                        Some(target.label()),
                        self.trials,
                        results,
                    )
                })
                .collect()
        });
        with_ratios(&mut rows);
        Ok(rows)
    }
}

/// Trial `trial` (drawn from `seed`) as its row lists it, with its tour's moves if it
/// found one and its seconds.
fn trial_result(
    trial: u64,
    seed: u64,
    sol: Result<Solution, InputError>,
    secs: f64,
) -> TrialResult {
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
}

/// Each row's time per tour over the fastest row's.
fn with_ratios(rows: &mut [CompareRow]) {
    let best = rows
        .iter()
        .filter_map(|r| r.seconds_per_tour.value)
        .fold(f64::INFINITY, f64::min);
    for r in rows {
        r.ratio_to_fastest = r.seconds_per_tour.value.map(|t| t / best);
    }
}

/// The row of solver `name` from its trials' results, in trial order.
fn row(
    name: String,
    board: Board,
    target: Option<String>,
    trials: u64,
    results: Vec<TrialResult>,
) -> CompareRow {
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
        solver: name,
        board,
        target,
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
            r.target.clone().unwrap_or_else(|| r.board.to_string()),
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

//! Running trials: one trial per (cell, trial number), each with its own seeded RNG, on a
//! local rayon thread pool. Results never depend on the thread count or the shard.
//!
//! Trial semantics:
//! - network cell: one trial = ONE attempt: a random initial state drawn from the trial's
//!   RNG, run to the stop rule or the iteration cap (Parberry's per-attempt probability);
//!   a `tour` outcome has passed the tour oracle. When the batched engine runs the cell's
//!   parameters (every order but random-permutation), a thread runs up to
//!   [`crate::network::batch::LANES`] consecutive trials of the cell at once in the lanes of
//!   a batch: the records are those of the trials run alone (tested), `time_ns` is the
//!   trial's share of the batch's wall time, and on Ctrl-C the trials in lanes finish;
//! - classical cell: one trial = one `Solver::solve` with the trial's RNG; with
//!   `start = "random"` the start square is the first draw from that RNG. A solve the
//!   solver refuses is recorded, not fatal: outcome `impossible` when a theorem rules the
//!   request out (e.g. a random start on the minority colour of an odd board), else
//!   `refused`;
//! - a cell on a target (a leaper, surface or shape other than the knight on a whole
//!   plane board, or a graph file: [`crate::target::Target`]): its graph is built once.
//!   A network trial is one attempt on that graph, drawn exactly as on the knight's
//!   (the attempt `on_graph::solve` makes with `max_attempts` 1, here so that its cycles
//!   are recorded and trials share lanes where the batched engine holds the graph's
//!   degrees); a classical trial is one [`on_graph::solve`], from the first vertex or,
//!   with `start = "random"`, a vertex drawn first from the trial's stream. Every tour
//!   passes the oracle on that graph.
//!
//! Sharding: trials are numbered globally, cell by cell in spec order (cell 0's trials
//! 0..n0, then cell 1's, ...); shard `i/N` runs the trials whose global number g has
//! `g mod N == i` (i from 0 to N−1).

use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use super::Result;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

use super::records::{Column, Record};
use super::seeds::trial_seed;
use super::spec::{Cell, Spec, StartRule};
use crate::error::{Error, InputError, Param, Phrase};
use crate::graph::KnightGraph;
use crate::network::batch::{self, Jobs};
use crate::network::{Attempt, Network, NetworkParams, Termination, attempt_rng};
use crate::rng_from_seed;
use crate::solvers::SolverName;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};
use crate::solvers::{Outcome, Request, Solver, SolverKind, record_outcome};

/// One slice of a sweep: trials whose global number is `index` mod `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// This shard's number, from 0 (less than `count`).
    pub index: u64,
    /// How many shards the sweep is cut into (1 for the whole sweep).
    pub count: u64,
}

/// Most shards a sweep may be cut into ([`Param::Shard`] `I/N` with N up to this).
pub const MAX_SHARDS: u64 = 1_000_000;

impl Shard {
    /// The whole sweep.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    pub(crate) fn is_all(&self) -> bool {
        self.count == 1
    }

    /// Whether global trial number `g` is in this shard.
    pub fn contains(&self, g: u64) -> bool {
        g % self.count == self.index
    }

    /// The first trial `t >= 0` of a cell whose trial 0 has global number `offset` with
    /// `offset + t` in this shard (no overflow for any shard).
    pub(crate) fn first_in(&self, offset: u64) -> u64 {
        let r = offset % self.count;
        if self.index >= r {
            self.index - r
        } else {
            self.index + (self.count - r)
        }
    }

    /// How many of the global numbers `offset .. offset + n` are in this shard.
    pub fn count_in(&self, offset: u64, n: u64) -> u64 {
        let below = |x: u64| {
            if x > self.index {
                (x - self.index - 1) / self.count + 1
            } else {
                0
            }
        };
        let end = offset.saturating_add(n);
        below(end) - below(offset)
    }
}

impl FromStr for Shard {
    type Err = InputError;

    /// `I/N` with 0 <= I < N <= [`MAX_SHARDS`].
    fn from_str(s: &str) -> Result<Shard, InputError> {
        let bad = || {
            InputError::named(
                Phrase::new()
                    .setting(Param::Shard, format!("'{s}'"))
                    .text(format!(" is not accepted; give I/N with 0 <= I < N <= {MAX_SHARDS}, e.g. 0/16 (shards are numbered from 0)")),
            )
        };
        let (i, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count || count > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The (cell, trial) pairs of a spec in a shard, in global order, minus those `done`
/// (by global number): produced one at a time, never held as a list.
pub(crate) struct Plan<'a> {
    spec: &'a Spec,
    shard: Shard,
    offsets: Vec<u64>,
    done: &'a (dyn Fn(u64) -> bool + Sync),
    cell: usize,
    /// The next trial of `cell` to consider (`None`: the cell is not entered yet).
    next: Option<u64>,
}

impl<'a> Plan<'a> {
    pub fn new(spec: &'a Spec, shard: Shard, done: &'a (dyn Fn(u64) -> bool + Sync)) -> Plan<'a> {
        Plan {
            spec,
            shard,
            offsets: spec.offsets(),
            done,
            cell: 0,
            next: None,
        }
    }
}

impl Iterator for Plan<'_> {
    type Item = (usize, u64);

    fn next(&mut self) -> Option<(usize, u64)> {
        loop {
            let cell = self.spec.cells.get(self.cell)?;
            let off = self.offsets[self.cell];
            let t = *self.next.get_or_insert_with(|| self.shard.first_in(off));
            if t >= cell.trials {
                self.cell += 1;
                self.next = None;
                continue;
            }
            // Past the end of the cell on overflow.
            self.next = Some(t.saturating_add(self.shard.count));
            if !(self.done)(off + t) {
                return Some((cell.index, t));
            }
        }
    }
}

/// The (cell, trial) pairs of `spec` in `shard`, in global order, minus those `done`,
/// as a list (small specs and tests; runs use `Plan`).
pub fn plan(
    spec: &Spec,
    shard: Shard,
    done: &(dyn Fn(usize, u64) -> bool + Sync),
) -> Vec<(usize, u64)> {
    let offsets = spec.offsets();
    let by_global = |g: u64| {
        let c = offsets.partition_point(|&o| o <= g) - 1;
        done(c, g - offsets[c])
    };
    Plan::new(spec, shard, &by_global).collect()
}

enum Engine {
    Network {
        /// Boxed: the graph is the larger variant by far, and one engine serves a cell.
        graph: Box<KnightGraph>,
        params: NetworkParams,
    },
    Classical {
        solver: Box<dyn Solver>,
        request: Request,
    },
    /// A classical solver on a target's graph.
    OnGraph {
        graph: Box<KnightGraph>,
        solver: GraphSolver,
        closed: bool,
    },
    /// A target whose graph or solver could not be made (reading the spec made them
    /// once, so only when memory ran short since): every trial fails with it.
    Unavailable(InputError),
}

/// The start square of a classical trial of `cell` whose random stream is `rng`: the
/// cell's fixed square, or with `start = "random"` the stream's first draw (the solve
/// then draws from the rest of the stream). The runner and the row checks
/// ([`super::check`]) both draw it here.
pub(crate) fn trial_start(cell: &Cell, rng: &mut crate::Rng) -> Option<u32> {
    match cell.start {
        Some(StartRule::Random) => Some(crate::seeds::random_start(rng, cell.vertices())),
        rule => rule.and_then(StartRule::fixed),
    }
}

/// A cell ready to run: its graph or solver built once and shared by all threads.
pub(crate) struct Prepared<'s> {
    spec: &'s Spec,
    cell: &'s Cell,
    key: String,
    /// The solver and variant columns of the cell's records.
    solver: SolverName,
    variant: String,
    engine: Engine,
}

impl<'s> Prepared<'s> {
    pub fn new(spec: &'s Spec, cell: &'s Cell) -> Prepared<'s> {
        let engine = match (&cell.target, &cell.solver) {
            (Some(target), kind) => {
                Self::on_target(cell, target, kind).unwrap_or_else(Engine::Unavailable)
            }
            (None, SolverKind::Network(params)) => Engine::Network {
                graph: Box::new(KnightGraph::for_tours(cell.board, cell.tours())),
                params: *params,
            },
            (None, kind) => Engine::Classical {
                solver: kind.build(),
                request: cell.request(),
            },
        };
        Prepared {
            spec,
            cell,
            key: cell.key(),
            solver: cell.solver_name(),
            variant: cell.variant(),
            engine,
        }
    }

    /// The engine of a cell on a target: its graph built, its solver one that runs there.
    fn on_target(
        cell: &Cell,
        target: &crate::target::Target,
        kind: &SolverKind,
    ) -> Result<Engine, InputError> {
        let graph = Box::new(target.graph()?);
        Ok(match kind {
            SolverKind::Network(params) => Engine::Network {
                graph,
                params: *params,
            },
            kind => {
                let solver = GraphSolver::from_kind(kind)?;
                Engine::OnGraph {
                    graph,
                    closed: cell.closed.unwrap_or(solver.closed_by_default()),
                    solver,
                }
            }
        })
    }

    /// The geometry columns of the cell's records: absent unless the spec has a cell on
    /// a target; then the leaper and surface (empty on a graph file), the shape's
    /// picture (empty on a whole board) and the graph file's name (empty on a board).
    fn geometry_columns(&self) -> [Column; 4] {
        use crate::target::{Target, shape_text};
        if !self.spec.has_targets() {
            return Default::default();
        }
        match &self.cell.target {
            None => [
                Column::of(Some(crate::geometry::Leaper::KNIGHT.to_string())),
                Column::of(Some(crate::geometry::Surface::Plane.to_string())),
                Column::Empty,
                Column::Empty,
            ],
            Some(Target::Geometry(g)) => [
                Column::of(Some(g.leaper().to_string())),
                Column::of(Some(g.surface().to_string())),
                Column::of((!g.shape().is_full()).then(|| shape_text(g))),
                Column::Empty,
            ],
            Some(Target::File { path, .. }) => [
                Column::Empty,
                Column::Empty,
                Column::Empty,
                Column::of(Some(Target::file_stem(path))),
            ],
        }
    }

    /// The record of trial `trial` before it runs, and the trial's random stream.
    fn record(&self, trial: u64) -> (Record, crate::Rng) {
        let seed = trial_seed(self.spec.seed, &self.key, trial);
        let [leaper, surface, shape, graph] = self.geometry_columns();
        let r = Record {
            spec: self.spec.name.clone(),
            cell: self.cell.index,
            label: self.cell.label.clone(),
            board: self.cell.board,
            solver: self.solver.clone(),
            variant: self.variant.clone(),
            trial,
            seed,
            start: None,
            // Set by the trial (every path below writes it).
            outcome: Outcome::Refused,
            iterations: 0,
            restarts: 0,
            cycles: None,
            largest_cycle: None,
            steps: None,
            merged: None,
            swaps: None,
            time_ns: 0,
            network_ns: None,
            merge_ns: None,
            leaper,
            surface,
            shape,
            graph,
        };
        (r, rng_from_seed(seed))
    }

    /// Fill in a network trial's outcome from its one attempt.
    fn network_outcome(r: &mut Record, graph: &KnightGraph, a: &Attempt) {
        r.iterations = a.iterations as u64;
        r.outcome = Outcome::from(&a.termination);
        match &a.termination {
            Termination::Tour => {
                // The oracle: a knight's tour on the knight's graph, a Hamiltonian cycle
                // of the graph on a target's.
                let valid = match graph.source() {
                    crate::graph::Source::Knight(_) => {
                        graph.tour_from_cycle(a.cycles[0].clone()).is_ok()
                    }
                    _ => crate::tour::check_on(graph, &a.cycles[0], true).is_ok(),
                };
                if !valid {
                    r.outcome = Outcome::InvalidTour;
                }
                r.cycles = Some(1);
                r.largest_cycle = Some(a.cycles[0].len() as u64);
            }
            Termination::MultipleCycles { lengths } => {
                r.cycles = Some(lengths.len() as u64);
                r.largest_cycle = lengths.first().map(|&l| l as u64);
            }
            _ => {}
        }
    }

    /// For a network cell whose parameters the batched engine runs: the graph and the
    /// parameters, so trials can share lanes ([`run_parallel`] does so).
    fn lanes(&self) -> Option<(&KnightGraph, NetworkParams)> {
        match &self.engine {
            Engine::Network { graph, params } if batch::supports(graph, params) => {
                Some((graph, *params))
            }
            _ => None,
        }
    }

    /// The random stream of a network trial's one attempt: the stream
    /// `solve --seed SEED --max-attempts 1` gives attempt 0.
    fn attempt_stream(rng: &mut crate::Rng) -> crate::Rng {
        attempt_rng(rng.random(), 0)
    }

    /// The one attempt of a network trial whose random stream is `rng`, drawn exactly as
    /// `solve --seed SEED --max-attempts 1` draws it (the cell's parameters have
    /// max_attempts = 1). Fails only when the parameters do not fit the graph, which
    /// reading the spec already refused.
    fn network_attempt(
        graph: &KnightGraph,
        params: &NetworkParams,
        rng: &mut crate::Rng,
    ) -> Result<Attempt, InputError> {
        let net = Network::new(graph, *params)?;
        Ok(net.attempt(&mut Self::attempt_stream(rng), None))
    }

    /// Replay network trial `trial` of this cell: its record (timing columns zero) and its
    /// attempt, with the cycles of the final output, made exactly as [`Prepared::run`]
    /// makes them. `None` for a classical cell. (Only the figures replay trials.)
    #[cfg_attr(not(feature = "plot"), allow(dead_code))]
    pub fn replay(&self, trial: u64) -> Result<Option<(Record, Attempt)>, InputError> {
        let Engine::Network { graph, params } = &self.engine else {
            return Ok(None);
        };
        let (mut r, mut rng) = self.record(trial);
        let a = Self::network_attempt(graph, params, &mut rng)?;
        Self::network_outcome(&mut r, graph, &a);
        Ok(Some((r, a)))
    }

    /// Run trial `trial` of this cell on its own. Fails only when the cell's network
    /// parameters do not fit its graph, which reading the spec already refused.
    pub fn run(&self, trial: u64) -> Result<Record, InputError> {
        let (mut r, mut rng) = self.record(trial);
        let t0 = Instant::now();
        match &self.engine {
            Engine::Network { graph, params } => {
                let a = Self::network_attempt(graph, params, &mut rng)?;
                Self::network_outcome(&mut r, graph, &a);
            }
            Engine::OnGraph {
                graph,
                solver,
                closed,
            } => {
                let req = GraphRequest {
                    closed: *closed,
                    start: trial_start(self.cell, &mut rng),
                };
                r.start = req.start.map(|q| self.cell.start_text(q));
                let result = on_graph::solve(graph, solver, &req, &mut rng);
                match result {
                    Ok(sol) => {
                        r.outcome = sol.outcome;
                        r.iterations = sol.iterations;
                        r.restarts = sol.attempts.saturating_sub(1);
                        r.steps = sol.steps;
                    }
                    Err(InputError::Impossible(_)) => r.outcome = Outcome::Impossible,
                    Err(_) => r.outcome = Outcome::Refused,
                }
            }
            Engine::Unavailable(e) => return Err(e.clone()),
            Engine::Classical { solver, request } => {
                let mut req = *request;
                req.start = trial_start(self.cell, &mut rng);
                r.start = req.start.map(|q| self.cell.start_text(q));
                let result = solver.solve(&req, &mut rng);
                // A random start can fall where no tour starts (odd boards): `impossible`.
                r.outcome = record_outcome(&result);
                if let Ok(sol) = result {
                    r.iterations = sol.iterations;
                    r.restarts = sol.attempts.saturating_sub(1);
                    r.steps = sol.steps;
                    if let Some(m) = sol.merge() {
                        r.merged = Some(m.merged);
                        r.swaps = m.report.as_ref().map(|rep| u64::from(rep.swaps));
                        r.network_ns = Some(m.network_ns);
                        r.merge_ns = Some(m.merge_ns);
                    }
                }
            }
        }
        r.time_ns = t0.elapsed().as_nanos() as u64;
        Ok(r)
    }
}

/// The trials to run, shared by the worker threads: each takes the next one.
pub type Source<'a> = Mutex<&'a mut (dyn Iterator<Item = (usize, u64)> + Send)>;

/// Run the trials `source` yields on `threads` threads, handing each record to `sink` as
/// it finishes. Stops starting new trials once `stop` is set (trials in flight finish and
/// are handed over) or `sink` fails. Returns how many trials ran.
pub(crate) fn run_parallel(
    spec: &Spec,
    source: &mut (dyn Iterator<Item = (usize, u64)> + Send),
    threads: usize,
    stop: &AtomicBool,
    sink: &(dyn Fn(Record) -> Result<()> + Sync),
) -> Result<usize> {
    let prepared: Vec<Prepared> = spec.cells.iter().map(|c| Prepared::new(spec, c)).collect();
    if let Some(e) = prepared.iter().find_map(|p| match &p.engine {
        Engine::Unavailable(e) => Some(e.clone()),
        _ => None,
    }) {
        return Err(e.into());
    }
    let pool = crate::thread_pool(threads.max(1), "knightnet-trial")?;
    let source: Source = Mutex::new(source);
    let next = || source.lock().expect("no panics while holding").next();
    let ran = AtomicUsize::new(0);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    let fail = |e: Error| {
        failed.store(true, Ordering::SeqCst);
        failure
            .lock()
            .expect("no panics while holding")
            .get_or_insert(e);
    };
    let deliver = |record: Record| match sink(record) {
        Ok(()) => {
            ran.fetch_add(1, Ordering::SeqCst);
        }
        Err(e) => fail(e),
    };
    let halted = || stop.load(Ordering::SeqCst) || failed.load(Ordering::SeqCst);
    pool.broadcast(|_| {
        // A trial taken from the queue but not run yet (it belongs to another cell than
        // the batch that took it).
        let mut carried: Option<(usize, u64)> = None;
        loop {
            if halted() {
                break;
            }
            let Some((cell, trial)) = carried.take().or_else(next) else {
                break;
            };
            let p = &prepared[cell];
            match p.lanes() {
                // Network trials of one cell share the lanes of a batch: the same records
                // as alone (tests assert it), several times faster.
                Some((graph, params)) => {
                    let mut jobs = CellJobs {
                        prepared: p,
                        graph,
                        cell,
                        first: Some(trial),
                        next: &next,
                        carried: None,
                        halted: &halted,
                        records: std::collections::HashMap::new(),
                        deliver: &deliver,
                    };
                    match batch::Batch::new(graph, params) {
                        Ok(mut batch) => batch.run_jobs(&mut jobs),
                        Err(e) => fail(e.into()),
                    }
                    carried = jobs.carried;
                }
                None => match p.run(trial) {
                    Ok(r) => deliver(r),
                    Err(e) => fail(e.into()),
                },
            }
        }
    });
    if let Some(e) = failure.into_inner().expect("no panics while holding") {
        return Err(e);
    }
    Ok(ran.into_inner())
}

/// The job source of one network cell's batch in [`run_parallel`]: trials come from the
/// shared queue while they belong to this cell; the first one that does not is carried
/// back to the worker loop.
struct CellJobs<'a, 's, N: Fn() -> Option<(usize, u64)>, H: Fn() -> bool, D: Fn(Record)> {
    prepared: &'a Prepared<'s>,
    graph: &'a KnightGraph,
    cell: usize,
    first: Option<u64>,
    next: &'a N,
    carried: Option<(usize, u64)>,
    halted: &'a H,
    /// Records of the trials in lanes, by trial number.
    records: std::collections::HashMap<u64, Record>,
    deliver: &'a D,
}

impl<N: Fn() -> Option<(usize, u64)>, H: Fn() -> bool, D: Fn(Record)> Jobs
    for CellJobs<'_, '_, N, H, D>
{
    fn next(&mut self) -> Option<(u64, crate::Rng)> {
        if (self.halted)() || self.carried.is_some() {
            return None;
        }
        let trial = match self.first.take() {
            Some(t) => t,
            None => match (self.next)() {
                Some((cell, t)) if cell == self.cell => t,
                Some(other) => {
                    self.carried = Some(other);
                    return None;
                }
                None => return None,
            },
        };
        let (r, mut rng) = self.prepared.record(trial);
        self.records.insert(trial, r);
        Some((trial, Prepared::attempt_stream(&mut rng)))
    }

    fn done(&mut self, id: u64, attempt: Attempt) {
        self.done_timed(id, attempt, 0)
    }

    fn done_timed(&mut self, id: u64, attempt: Attempt, ns: u64) {
        let mut r = self
            .records
            .remove(&id)
            .expect("a record per started trial");
        Prepared::network_outcome(&mut r, self.graph, &attempt);
        r.time_ns = ns;
        (self.deliver)(r);
    }

    fn keeps_cycles(&self, _id: u64) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_trials() {
        let spec = Spec::parse(
            "trials = 7\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network\"\n[[solver]]\nsolver = \"network:brant\"\ntrials = 5\n",
            "t",
            "t.toml",
        )
        .unwrap();
        let all = plan(&spec, Shard::ALL, &|_, _| false);
        assert_eq!(all.len() as u64, spec.total_trials());
        let mut union = Vec::new();
        for i in 0..3 {
            let sh = Shard { index: i, count: 3 };
            let part = plan(&spec, sh, &|_, _| false);
            let offsets = spec.offsets();
            let planned: u64 = spec
                .cells
                .iter()
                .map(|c| sh.count_in(offsets[c.index], c.trials))
                .sum();
            assert_eq!(planned, part.len() as u64);
            for &(c, t) in &part {
                assert!(sh.contains(offsets[c] + t));
            }
            union.extend(part);
        }
        union.sort();
        assert_eq!(union, all);
        assert!("3/3".parse::<Shard>().is_err());
        assert!("a/3".parse::<Shard>().is_err());
        assert_eq!(
            "2/16".parse::<Shard>().unwrap(),
            Shard {
                index: 2,
                count: 16
            }
        );
    }
}

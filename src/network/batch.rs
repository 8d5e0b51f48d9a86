//! Many independent attempts advanced together, with attempts as the innermost array
//! axis: U is an E×[`LANES`] array, V an E×LANES array, the per-square degrees an
//! N×LANES array. A sequential sweep still visits neurons one at a time *within* each
//! attempt, but every visit updates all lanes at once with branch-free SIMD integer code.
//! When a lane's attempt stops (its stop rule fires or it reaches the cap), the lane is
//! classified and refilled with the next attempt, so lanes stay busy.
//!
//! Lanes can serve one solve ([`solve`]) or many independent solves at once
//! ([`solve_many`], throughput mode), or any other source of attempts ([`Jobs`]).
//!
//! Attempt `i` draws its initial state from [`super::attempt_rng`]`(base, i)`, exactly as
//! [`super::Network::solve`] does, so [`solve`] returns the same run as the scalar engine
//! (tests assert it), whatever the number of lanes.
//!
//! Supported update orders: synchronous, sequential and square-sweep (a random
//! permutation differs per attempt, so it cannot share one sweep; use the scalar engine).
//! [`supports`] says whether a graph and parameters can run here.
//!
//! On the open graph ([`KnightGraph::open`]) the apex is one more degree row, and a held
//! neuron is simply left out of the sweep: its output stays on in every lane.
//!
//! The sweep kernels live in [`super::simd`]: AVX-512BW, AVX2 or portable, chosen at run
//! time (`KNIGHTNET_SIMD=avx2|portable` caps the choice); the arithmetic is the same
//! integer code either way.
//!
//! Every lane quantity is an `i16` (U, V and degrees alike), so one visit is a handful of
//! vertical SIMD instructions with no widening. [`Batch::new`] accepts parameters only
//! when a bound proves U can never leave the `i16` range within the iteration cap (each
//! update moves U by at most `max(C + max(0, 2−S), 16 − C − min(0, 2−S))`, at most twice
//! per sweep), so the results are exactly those of the `i32` scalar engine.

// Lane loops index several rows in lockstep (`for k in 0..LANES`).
#![allow(clippy::needless_range_loop)]

use super::params::{NetworkParams, StopRule, UpdateOrder};
use super::simd::{Consts, Visits};
pub use super::simd::{Kernels, LANES, Row};
use super::state::State;
use super::{Attempt, NetworkRun, RunBuilder, Termination, attempt_rng, cover_attempt};
use crate::error::InputError;
use crate::graph::KnightGraph;
use crate::memory;
use crate::tour::CycleWalk;

/// Bytes per neuron of a batch beyond the graph: U and V rows ([`LANES`] lanes of 16
/// bits each), the visit plan (order, visit list, runs and endpoints; at most 48 bytes
/// with the square-sweep order, which visits every neuron twice), each square's incident
/// neurons (16 bytes: every neuron twice) and an attempt's draws (4 bytes).
pub(crate) const BYTES_PER_NEURON: u64 = 2 * std::mem::size_of::<Row>() as u64 + 48 + 20;

/// Bytes per square of a batch: the degree row, the offsets of its incident neurons and
/// the scratch of a finished lane.
pub(crate) const BYTES_PER_SQUARE: u64 = std::mem::size_of::<Row>() as u64 + 4 + 16;
use crate::Rng;

/// A batch of lanes over one graph.
pub struct Batch<'g> {
    graph: &'g KnightGraph,
    params: NetworkParams,
    /// The neurons of one sweep, in visiting order.
    visits: Visits,
    consts: Consts,
    u: Vec<Row>,
    /// V as a lane mask: 0 (off) or −1 (on).
    v: Vec<Row>,
    deg: Vec<Row>,
    /// Scratch degrees for synchronous steps.
    deg_next: Vec<Row>,
    lane_attempt: [Option<u64>; LANES],
    /// Neuron updates performed (all lanes, including idle ones).
    pub updates: u64,
    kernels: Kernels,
    /// Every square's incident neurons as `[neuron, other end]`, square by square; the
    /// square `s` owns `incident[starts[s]..starts[s + 1]]`. Loading a lane sums each
    /// square's degree from them: reads of one square at a time, where walking the
    /// neurons would add to two squares' rows in turn (a chain of stores and loads
    /// through memory).
    incident: Vec<[u32; 2]>,
    starts: Vec<u32>,
    /// Scratch: each square's two neighbours in a finished lane's cover.
    nbr: Vec<[u32; 2]>,
    /// Scratch: an attempt's initial (U, V) per neuron, one entry per neuron.
    draws: Vec<(i16, i16)>,
    /// Scratch: the cycles of a finished lane's cover.
    walk: CycleWalk,
}

impl<'g> Batch<'g> {
    /// A batch for `params`, which must be checked and use a supported order.
    pub fn new(graph: &'g KnightGraph, params: NetworkParams) -> Result<Batch<'g>, InputError> {
        params.check()?;
        if !params.rule.is_plain() {
            return Err(InputError::param(format!(
                "the batched engine runs the plain Takefuji–Lee rule, not '{}'; use the scalar engine",
                params.rule.name()
            )));
        }
        let mut order: Vec<u32> = match params.order {
            UpdateOrder::Sequential | UpdateOrder::Synchronous => {
                (0..graph.edges() as u32).collect()
            }
            UpdateOrder::SquareSweep => graph.incident_all().to_vec(),
            UpdateOrder::RandomPermutation => {
                return Err(InputError::param(
                    "the batched engine runs synchronous, sequential and square-sweep orders; random-permutation differs per attempt",
                ));
            }
        };
        if !fits(&params, graph.init_spread(), graph) {
            return Err(InputError::param(format!(
                "the batched engine keeps U in 16 bits, which these parameters (C = {}, S = {}, thresholds {}..{}, clamp {:?}, {} iterations) could exceed on this graph (neighbour degrees up to {}); use the scalar engine",
                params.c,
                params.s,
                params.lower,
                params.upper,
                params.clamp,
                params.max_iterations,
                graph.max_degree_sum()
            )));
        }
        if !graph.held().is_empty() {
            order.retain(|e| graph.held().binary_search(e).is_err());
        }
        let (e, n) = (graph.edges(), graph.vertices());
        let mut incident = memory::try_with_capacity(2 * e, "the batched network's incidence")?;
        let mut starts = memory::try_with_capacity(n + 1, "the batched network's incidence")?;
        for s in 0..n as u32 {
            starts.push(incident.len() as u32);
            incident.extend(
                graph
                    .incident(s)
                    .iter()
                    .map(|&f| [f, graph.other(f as usize, s)]),
            );
        }
        starts.push(incident.len() as u32);
        let visits = Visits::new(
            &order,
            graph.a.as_slice().expect("contiguous"),
            graph.b.as_slice().expect("contiguous"),
            n,
        );
        let consts = Consts {
            c: params.c as i16,
            self_w: (2 - params.s) as i16,
            upper: params.upper as i16,
            lower_m1: (params.lower - 1) as i16,
            clamp: params.clamp.map(|k| (-k as i16, k as i16)),
        };
        Ok(Batch {
            graph,
            params,
            visits,
            consts,
            u: memory::try_vec(e, Row::ZERO, "the batched network's U")?,
            v: memory::try_vec(e, Row::ZERO, "the batched network's V")?,
            deg: memory::try_vec(n, Row::ZERO, "the batched network's degrees")?,
            deg_next: Vec::new(),
            lane_attempt: [None; LANES],
            updates: 0,
            kernels: Kernels::detect(),
            incident,
            starts,
            nbr: Vec::new(),
            draws: memory::try_vec(e, (0, 0), "the batched network's draws")?,
            walk: CycleWalk::default(),
        })
    }

    /// NetworkRun on the given kernel set instead of the detected one (the results are the same;
    /// for tests and comparisons). Every [`Kernels`] value is one this CPU runs: see
    /// [`Kernels::available`].
    pub fn with_kernels(mut self, kernels: Kernels) -> Batch<'g> {
        self.kernels = kernels;
        self
    }

    /// The kernel set in use.
    pub fn kernels(&self) -> Kernels {
        self.kernels
    }

    fn load(&mut self, lane: usize, id: u64, rng: &mut Rng) {
        let draws = &mut self.draws;
        State::draw(self.graph, &self.params, rng, |i, u, v| {
            draws[i] = (u as i16, v as i16)
        });
        for ((ur, vr), &(u, v)) in self.u.iter_mut().zip(self.v.iter_mut()).zip(draws.iter()) {
            ur[lane] = u;
            vr[lane] = -v;
        }
        for (d, w) in self.deg.iter_mut().zip(self.starts.windows(2)) {
            let ends = &self.incident[w[0] as usize..w[1] as usize];
            d[lane] = ends.iter().map(|&[e, _]| draws[e as usize].1).sum();
        }
        self.lane_attempt[lane] = Some(id);
    }

    /// Load attempts `0..LANES` of base seed `base` into the lanes (for kernel
    /// measurements with [`Batch::sweep`]).
    pub fn fill(&mut self, base: u64) {
        for lane in 0..LANES {
            self.load(lane, lane as u64, &mut attempt_rng(base, lane as u64));
        }
    }

    /// One step of every lane with no stop checks (for kernel measurements): per lane,
    /// whether some U changed. Stepping a lane past the iteration cap may overflow U.
    pub fn sweep(&mut self) -> [bool; LANES] {
        self.step().map(|x| x != 0)
    }

    /// One step of every lane; returns per lane whether any U changed (nonzero).
    fn step(&mut self) -> Row {
        self.updates += (self.visits.len() * LANES) as u64;
        match self.params.order {
            UpdateOrder::Synchronous => self.kernels.synchronous(
                &self.visits,
                &mut self.u,
                &mut self.v,
                &mut self.deg,
                &mut self.deg_next,
                &self.consts,
            ),
            _ => self.kernels.sequential(
                &self.visits,
                &mut self.u,
                &mut self.v,
                &mut self.deg,
                &self.consts,
            ),
        }
    }

    /// The attempt in `lane`, classified straight from the lane's rows: the same result
    /// as [`super::classify`] on its outputs (tests assert it), without building them.
    /// With `keep_cycles` false, a cover of several cycles comes back with its cycle
    /// lengths but without the cycles themselves (a tour always keeps its cycle).
    fn classify_lane(
        &mut self,
        lane: usize,
        stopped: bool,
        iterations: u32,
        keep_cycles: bool,
    ) -> Attempt {
        let plain = |termination| Attempt::without_cycles(termination, iterations);
        if !stopped {
            return plain(Termination::IterationCap);
        }
        let off = self.deg.iter().filter(|d| d[lane] != 2).count();
        if off > 0 {
            return plain(Termination::StableNotDegreeTwo { squares_off: off });
        }
        // Every square has degree 2: collect each square's two neighbours. The lane's
        // active neurons as bits, 64 neurons at a time, gathered without a branch per
        // neuron (which half of the time mispredicts), then visited bit by bit. Each end
        // keeps the last neighbour written and the XOR of both: plain stores and XORs,
        // where choosing the free slot made each store wait for the load before it.
        let nbr = &mut self.nbr;
        nbr.clear();
        nbr.resize(self.deg.len(), [u32::MAX, 0]);
        let (ea, eb) = self.visits.endpoints();
        for (first, rows) in (0..).step_by(64).zip(self.v.chunks(64)) {
            let mut on = rows
                .iter()
                .enumerate()
                .fold(0u64, |bits, (k, row)| bits | ((row[lane] != 0) as u64) << k);
            while on != 0 {
                let e = first + on.trailing_zeros() as usize;
                on &= on - 1;
                let (a, b) = (ea[e] as usize, eb[e] as usize);
                nbr[a][0] = b as u32;
                nbr[a][1] ^= b as u32;
                nbr[b][0] = a as u32;
                nbr[b][1] ^= a as u32;
            }
        }
        for [last, both] in nbr.iter_mut() {
            *both ^= *last;
        }
        self.walk.walk(nbr);
        if !keep_cycles && self.walk.count() > 1 {
            let lengths = self.walk.lengths();
            return plain(Termination::MultipleCycles { lengths });
        }
        cover_attempt(self.walk.cycles(), iterations)
    }

    /// NetworkRun attempts `0, 1, 2, ...` of base seed `base` in lanes (attempt `i` draws from
    /// [`attempt_rng`]`(base, i)`). Before attempt `i` is started, `may_start(i)` is asked
    /// (false stops issuing new attempts); every finished attempt is handed to
    /// `done(i, attempt)`, in the order they finish.
    pub fn run(
        &mut self,
        base: u64,
        may_start: impl FnMut(u64) -> bool,
        done: impl FnMut(u64, Attempt),
    ) {
        self.run_keeping(base, 0, may_start, done)
    }

    /// [`Batch::run`], where an attempt before `keep_from` that ends in a cover of several
    /// cycles comes back with their lengths only ([`Jobs::keeps_cycles`]).
    fn run_keeping(
        &mut self,
        base: u64,
        keep_from: u64,
        may_start: impl FnMut(u64) -> bool,
        done: impl FnMut(u64, Attempt),
    ) {
        struct Numbered<F, G> {
            base: u64,
            next: u64,
            open: bool,
            keep_from: u64,
            may_start: F,
            done: G,
        }
        impl<F: FnMut(u64) -> bool, G: FnMut(u64, Attempt)> Jobs for Numbered<F, G> {
            fn next(&mut self) -> Option<(u64, Rng)> {
                if self.open && (self.may_start)(self.next) {
                    self.next += 1;
                    Some((self.next - 1, attempt_rng(self.base, self.next - 1)))
                } else {
                    self.open = false;
                    None
                }
            }
            fn done(&mut self, id: u64, attempt: Attempt) {
                (self.done)(id, attempt)
            }
            fn keeps_cycles(&self, id: u64) -> bool {
                id >= self.keep_from
            }
        }
        self.run_jobs(&mut Numbered {
            base,
            next: 0,
            open: true,
            keep_from,
            may_start,
            done,
        });
    }

    /// NetworkRun attempts handed out by `jobs` until it has none left and every lane is idle.
    pub fn run_jobs(&mut self, jobs: &mut dyn Jobs) {
        let max = self.params.max_iterations as u64;
        // Steps taken by this call; a busy lane `k` started at step `started[k]`, an idle
        // one holds `u64::MAX`.
        let mut step = 0u64;
        let mut started = [u64::MAX; LANES];
        // Lanes running an attempt, as a bit set.
        let mut busy = 0u64;
        for (lane, a) in self.lane_attempt.iter().enumerate() {
            if a.is_some() {
                busy |= 1 << lane;
                started[lane] = 0;
            }
        }
        let mut refill = true;
        // Each lane's share of the wall time: every step's time (loading included) split
        // evenly among the lanes busy in it. The busy lanes change only when an attempt
        // ends, so the clock is read then, and the time since the last reading is split
        // among the lanes busy all through it.
        let mut lane_ns = [0u64; LANES];
        let mut clock = std::time::Instant::now();
        // The first step at which some lane can reach the cap: the oldest lane's start
        // plus the cap, recomputed whenever the busy lanes change.
        let mut cap_step = 0u64;
        loop {
            // New attempts can appear only at the start or after a result came back.
            if refill {
                for lane in 0..LANES {
                    if busy >> lane & 1 == 0
                        && let Some((id, mut rng)) = jobs.next()
                    {
                        self.load(lane, id, &mut rng);
                        started[lane] = step;
                        busy |= 1 << lane;
                    }
                }
                refill = false;
                cap_step = started
                    .iter()
                    .min()
                    .map_or(u64::MAX, |s| s.saturating_add(max));
            }
            if busy == 0 {
                return;
            }
            let changed = self.step();
            step += 1;
            let stopped = self.stopped_lanes(&changed);
            // Lanes at the cap: only looked for when the oldest lane could be there.
            let mut at_cap = 0u64;
            if step >= cap_step {
                for lane in 0..LANES {
                    at_cap |= ((started[lane] <= step - max) as u64) << lane;
                }
            }
            let mut finished = busy & (stopped | at_cap);
            if finished == 0 {
                continue;
            }
            let now = std::time::Instant::now();
            let share = (now - clock).as_nanos() as u64 / busy.count_ones() as u64;
            clock = now;
            for (lane, ns) in lane_ns.iter_mut().enumerate() {
                *ns += share * (busy >> lane & 1);
            }
            while finished != 0 {
                let lane = finished.trailing_zeros() as usize;
                finished &= finished - 1;
                let id = self.lane_attempt[lane]
                    .take()
                    .expect("a busy lane has an attempt");
                let iterations = (step - started[lane]) as u32;
                let keep = jobs.keeps_cycles(id);
                let attempt = self.classify_lane(lane, stopped >> lane & 1 == 1, iterations, keep);
                busy &= !(1 << lane);
                started[lane] = u64::MAX;
                jobs.done_timed(id, attempt, std::mem::take(&mut lane_ns[lane]));
                refill = true;
            }
        }
    }

    /// The lanes (bit set) whose stop rule fires after a step that left `changed`.
    fn stopped_lanes(&self, changed: &Row) -> u64 {
        let stable = lane_bits(|k| changed[k] == 0);
        if self.params.stop == StopRule::Stable {
            return stable;
        }
        // Degree 2 everywhere: the OR over squares of (degree XOR 2) is zero.
        let mut off = [0i16; LANES];
        for d in &self.deg {
            for k in 0..LANES {
                off[k] |= d[k] ^ 2;
            }
        }
        let degree_two = lane_bits(|k| off[k] == 0);
        match self.params.stop {
            StopRule::DegreeTwo => degree_two,
            _ => stable | degree_two,
        }
    }
}

/// The lanes where `f` holds, as a bit set.
fn lane_bits(f: impl Fn(usize) -> bool) -> u64 {
    (0..LANES).fold(0, |bits, k| bits | (f(k) as u64) << k)
}

/// A source of attempts for [`Batch::run_jobs`]: each has an id and its own random
/// stream, and its result comes back through `done`. A source may hand out new attempts
/// after results come back (a retry, for instance).
pub trait Jobs {
    /// The next attempt to start, or `None` for now.
    fn next(&mut self) -> Option<(u64, Rng)>;
    /// A finished attempt.
    fn done(&mut self, id: u64, attempt: Attempt);
    /// A finished attempt with its share of the batch's wall time in nanoseconds (each
    /// step's time split evenly among the lanes busy in it). By default, `done`.
    fn done_timed(&mut self, id: u64, attempt: Attempt, _ns: u64) {
        self.done(id, attempt)
    }
    /// Whether attempt `id`, if it ends in a cover of several cycles, needs the cycles
    /// themselves (or only their lengths, which is cheaper).
    fn keeps_cycles(&self, _id: u64) -> bool {
        true
    }
}

/// Whether the lanes run `params` on the knight's graph of a board `cols` wide: the plain
/// rule (the lanes have no hooks for another, [`super::rules`]), and U provably inside
/// `i16` (and the thresholds and clamp fit; the `negative-states` initialisation draws U
/// from −(cols−1)..0).
pub fn fits_i16(params: &NetworkParams, cols: usize) -> bool {
    params.rule.is_plain() && fits_bound(params, cols, 2 * KnightGraph::knight_max_degree() as u64)
}

/// Whether [`Batch::new`] accepts `params` on `graph`: the plain rule, a supported order
/// and 16-bit arithmetic that provably cannot overflow. Where it does not, run the scalar
/// engine.
pub fn supports(graph: &KnightGraph, params: &NetworkParams) -> bool {
    params.rule.is_plain()
        && params.order != UpdateOrder::RandomPermutation
        && fits(params, graph.init_spread(), graph)
}

/// [`fits_i16`] on any graph: its degree bound, and every degree inside `i16`.
fn fits(params: &NetworkParams, cols: usize, graph: &KnightGraph) -> bool {
    graph.max_degree_sum() <= i16::MAX as u64 && fits_bound(params, cols, graph.max_degree_sum())
}

/// The bound of [`fits_i16`] for neurons with at most `degree_sum` active neighbours plus
/// two (16 on the knight's graph).
fn fits_bound(params: &NetworkParams, cols: usize, degree_sum: u64) -> bool {
    let NetworkParams {
        c,
        s,
        upper,
        lower,
        clamp,
        max_iterations,
        ..
    } = *params;
    let w = 2 - s as i64;
    let (c, up) = (c as i64, c as i64 + w.max(0));
    let down = degree_sum as i64 - c - w.min(0);
    let step = up.abs().max(down.abs());
    let start = cols as i64;
    let reach = 2 * step * max_iterations as i64 + start;
    let limit = i16::MAX as i64 - 64;
    let small = |x: i32| (x as i64).abs() <= limit;
    reach <= limit
        && small(c as i32)
        && small(upper)
        && small(lower)
        && small(s)
        && clamp.is_none_or(small)
}

/// The batched equivalent of [`super::Network::solve`]: the same attempts, the same run.
///
/// Attempts run out of order in lanes; once attempt `i` is a tour, no attempt after `i`
/// is started, the ones before it are finished, and the run is assembled in index order
/// up to the first tour. Finished attempts are folded into the run as soon as every
/// earlier one has finished, so at most about [`LANES`] attempts are held at a time,
/// whatever `max_attempts` is.
pub fn solve<R: rand::Rng + ?Sized>(
    graph: &KnightGraph,
    params: NetworkParams,
    rng: &mut R,
) -> Result<NetworkRun, InputError> {
    let base: u64 = rng.random();
    let mut batch = Batch::new(graph, params)?;
    let max = params.max_attempts as u64;
    let mut fold = InOrder::new(max);
    let first_tour = std::cell::Cell::new(max);
    // Only the run's last attempt keeps its cycles (`InOrder::put`): the others need
    // their cycle lengths only.
    batch.run_keeping(
        base,
        max.saturating_sub(1),
        |i| i < max && i < first_tour.get(),
        |i, attempt| {
            if attempt.termination == Termination::Tour {
                first_tour.set(first_tour.get().min(i));
            }
            fold.put(i, attempt);
        },
    );
    Ok(fold.finish(graph))
}

/// Attempts that finish out of order, folded into a [`RunBuilder`] in index order up to
/// and including the first tour. Only the attempts that finished ahead of an unfinished
/// earlier one are held (a window of about [`LANES`]); the ones after the first tour are
/// dropped.
struct InOrder {
    run: RunBuilder,
    /// The run's attempt cap.
    max: u64,
    /// Index of the next attempt to fold.
    next: u64,
    /// Whether the run has reached its first tour (nothing more is folded).
    closed: bool,
    /// Finished attempts waiting for an earlier one, by index.
    waiting: std::collections::BTreeMap<u64, Attempt>,
}

impl InOrder {
    fn new(max: u64) -> InOrder {
        InOrder {
            run: RunBuilder::default(),
            max,
            next: 0,
            closed: false,
            waiting: std::collections::BTreeMap::new(),
        }
    }

    /// Hand in attempt `i` (each index once).
    fn put(&mut self, i: u64, mut attempt: Attempt) {
        if self.closed || i < self.next {
            return;
        }
        if attempt.termination != Termination::Tour && i + 1 < self.max {
            // Only the run's last attempt keeps its cycles (`Run::last`); a non-tour is
            // last only when it is attempt `max − 1`.
            attempt.cycles = Vec::new();
        }
        self.waiting.insert(i, attempt);
        while let Some(a) = self.waiting.remove(&self.next) {
            self.next += 1;
            if self.run.add(a) {
                self.closed = true;
                self.waiting.clear();
                return;
            }
        }
    }

    /// The run of every attempt folded; every attempt up to the first tour (or the cap)
    /// must have been handed in.
    fn finish(self, graph: &KnightGraph) -> NetworkRun {
        debug_assert!(
            self.closed || self.waiting.is_empty(),
            "every attempt before the first tour has finished"
        );
        self.run.finish(graph)
    }
}

/// Many independent solves sharing the lanes of one batch (throughput mode): solve `k`
/// draws its base seed from `rngs[k]` exactly as [`solve`] does and returns the same
/// [`NetworkRun`] as `solve(graph, params, &mut rngs[k])` (tests assert it). This is
/// [`solve_stream`] over the slice.
pub fn solve_many(
    graph: &KnightGraph,
    params: NetworkParams,
    rngs: &mut [Rng],
) -> Result<Vec<NetworkRun>, InputError> {
    use rand::Rng as _;
    let mut runs: Vec<Option<NetworkRun>> = (0..rngs.len()).map(|_| None).collect();
    let mut bases = rngs.iter_mut().map(|r| r.random::<u64>()).enumerate();
    run_solves(
        graph,
        params,
        || bases.next().map(|(k, base)| (k as u64, base)),
        |k, run, _| runs[k as usize] = Some(run),
    )?;
    Ok(runs
        .into_iter()
        .map(|r| r.expect("every solve handed out finishes"))
        .collect())
}

/// Throughput mode fed one solve at a time: `next` hands out solves (an id of the
/// caller's choosing and the random stream the solve draws its base seed from, as
/// [`solve`] does) until it returns `None`; each finished run comes back through
/// `done(id, run, ns)`, in the order they finish, with `ns` its attempts' share of the
/// batch's wall time (each step's time split evenly among the lanes busy in it, attempts
/// run past the first tour included). Every run is the one [`solve`] returns alone.
///
/// Solves are taken from `next` only when no solve already started needs another
/// attempt, so at most [`LANES`] are held at once however many `next` hands out. Threads
/// sharing one queue behind `next` (as `compare` runs them) therefore stay busy until the
/// queue is empty; only then do lanes start later attempts of a solve ahead of its earlier
/// ones finishing.
pub fn solve_stream(
    graph: &KnightGraph,
    params: NetworkParams,
    mut next: impl FnMut() -> Option<(u64, Rng)>,
    done: impl FnMut(u64, NetworkRun, u64),
) -> Result<(), InputError> {
    use rand::Rng as _;
    run_solves(
        graph,
        params,
        || next().map(|(id, mut rng)| (id, rng.random())),
        done,
    )
}

/// [`solve_stream`] with each solve's base seed drawn.
fn run_solves(
    graph: &KnightGraph,
    params: NetworkParams,
    next: impl FnMut() -> Option<(u64, u64)>,
    done: impl FnMut(u64, NetworkRun, u64),
) -> Result<(), InputError> {
    let mut batch = Batch::new(graph, params)?;
    batch.run_jobs(&mut Many {
        graph,
        slots: Vec::new(),
        free: Vec::new(),
        ready: std::collections::VecDeque::new(),
        unfinished: Vec::new(),
        cursor: 0,
        max: params.max_attempts as u64,
        next,
        drained: false,
        done,
    });
    Ok(())
}

/// One solve of [`solve_stream`].
struct SolveSlot {
    /// The caller's id.
    id: u64,
    base: u64,
    /// Next attempt index to start.
    next: u64,
    /// Index of the first attempt known to be a tour (`u64::MAX`: none yet).
    first_tour: u64,
    in_flight: u32,
    /// Wall time of its attempts so far (shares of the steps they ran in).
    ns: u64,
    /// The run so far: attempts folded in index order as they become contiguous.
    fold: InOrder,
}

impl SolveSlot {
    /// Attempts the run consists of: up to and including the first tour, at most `max`.
    fn end(&self, max: u64) -> u64 {
        self.first_tour.saturating_add(1).min(max)
    }

    /// Whether another attempt may still be needed.
    fn open(&self, max: u64) -> bool {
        self.next < self.end(max)
    }
}

/// The job source of [`solve_stream`]; a job id is `slot << 32 | attempt`.
struct Many<'g, N, D> {
    graph: &'g KnightGraph,
    /// The solves held, by slot (`None`: a free slot, listed in `free`).
    slots: Vec<Option<SolveSlot>>,
    free: Vec<usize>,
    /// Slots with no attempt in flight that need another one, in order.
    ready: std::collections::VecDeque<usize>,
    /// Once `next` is drained: the slots that may still need attempts, for starting
    /// attempts ahead, and the round-robin position in it.
    unfinished: Vec<usize>,
    cursor: usize,
    max: u64,
    /// The caller's solves (id, base seed).
    next: N,
    drained: bool,
    done: D,
}

impl<N, D> Many<'_, N, D> {
    fn slot(&mut self, k: usize) -> &mut SolveSlot {
        self.slots[k].as_mut().expect("a listed slot holds a solve")
    }

    fn start(&mut self, k: usize) -> (u64, Rng) {
        let slot = self.slot(k);
        let i = slot.next;
        slot.next += 1;
        slot.in_flight += 1;
        ((k as u64) << 32 | i, attempt_rng(slot.base, i))
    }

    /// Whether slot `k` holds a solve that may need another attempt.
    fn open(&self, k: usize) -> bool {
        self.slots[k].as_ref().is_some_and(|s| s.open(self.max))
    }
}

impl<N: FnMut() -> Option<(u64, u64)>, D: FnMut(u64, NetworkRun, u64)> Jobs for Many<'_, N, D> {
    fn next(&mut self) -> Option<(u64, Rng)> {
        while let Some(k) = self.ready.pop_front() {
            if self.open(k) {
                return Some(self.start(k));
            }
        }
        if !self.drained {
            if let Some((id, base)) = (self.next)() {
                let slot = SolveSlot {
                    id,
                    base,
                    next: 0,
                    first_tour: u64::MAX,
                    in_flight: 0,
                    ns: 0,
                    fold: InOrder::new(self.max),
                };
                let k = match self.free.pop() {
                    Some(k) => {
                        self.slots[k] = Some(slot);
                        k
                    }
                    None => {
                        self.slots.push(Some(slot));
                        self.slots.len() - 1
                    }
                };
                return Some(self.start(k));
            }
            self.drained = true;
            self.unfinished = (0..self.slots.len()).filter(|&k| self.open(k)).collect();
        }
        // Nothing waits and nothing new: start a later attempt of some unfinished solve,
        // round robin over the solves still open (closed ones are dropped as they are met).
        while !self.unfinished.is_empty() {
            self.cursor %= self.unfinished.len();
            let k = self.unfinished[self.cursor];
            if self.open(k) {
                self.cursor += 1;
                return Some(self.start(k));
            }
            self.unfinished.swap_remove(self.cursor);
        }
        None
    }

    fn keeps_cycles(&self, id: u64) -> bool {
        (id & 0xffff_ffff) + 1 >= self.max
    }

    fn done(&mut self, id: u64, attempt: Attempt) {
        self.done_timed(id, attempt, 0)
    }

    fn done_timed(&mut self, id: u64, attempt: Attempt, ns: u64) {
        let (k, i) = ((id >> 32) as usize, id & 0xffff_ffff);
        let max = self.max;
        let slot = self.slot(k);
        slot.in_flight -= 1;
        slot.ns += ns;
        if attempt.termination == Termination::Tour {
            slot.first_tour = slot.first_tour.min(i);
        }
        slot.fold.put(i, attempt);
        if slot.in_flight > 0 {
            return;
        }
        if slot.open(max) {
            self.ready.push_back(k);
            return;
        }
        // Every attempt of the run has finished: hand it over and free the slot.
        let slot = self.slots[k].take().expect("a listed slot holds a solve");
        self.free.push(k);
        (self.done)(slot.id, slot.fold.finish(self.graph), slot.ns);
    }
}

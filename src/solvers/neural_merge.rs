//! `network+merge`: the Takefuji–Lee network produces a degree-2 cover (one or several
//! cycles), and [`crate::merge`] joins the cycles into one closed tour.
//!
//! Two ways to get the cover:
//! - **whole board** (default): one network on the whole board; an attempt that ends in a
//!   tour is used as is, one that ends in several cycles is merged, any other outcome
//!   (not settled, not degree 2) is followed by a fresh attempt;
//! - **tiled** (`tile = Some(t)`): the board is cut into sub-boards of side `t` to `2t−1`
//!   (the last strip of each axis takes the remainder), one network per tile runs until
//!   its tile settles into a degree-2 cover, and the union of the tile covers is merged
//!   across the whole board. Tiles are independent, run in parallel (rayon), and each
//!   makes its attempts `j = 0, 1, ...` from `attempt_rng(mix(base ^
//!   mix(tile)), j)` (`mix`: SplitMix64's output function, [`crate::seeds::mix`]), where `base` is one draw from the solver's stream, so the
//!   result does not depend on the thread count. Tiles of one size run together in the
//!   lanes of the batched engine ([`crate::network::batch`]) when the parameters allow it,
//!   one at a time otherwise; both give the same cover. This is the neural route to boards of a million squares: the
//!   network's dynamics are local, and a whole-board attempt must wait for the slowest
//!   region to settle.

use std::collections::HashMap;
use std::time::Instant;

use rand::Rng as _;
use rayon::prelude::*;
use serde_json::{json, Map};

use super::{MergeFacts, Outcome, Request, Solution, Solver};
use crate::board::Board;
use crate::error::InputError;
use crate::existence;
use crate::graph::{check_memory, KnightGraph};
use crate::merge::{merge_cycles, MergeReport};
use crate::network::batch::{fits_i16, Batch, Jobs, LANES};
use crate::network::{
    attempt_rng, Attempt, Network, NetworkParams, Termination, UpdateOrder, BYTES_PER_NEURON,
};
use crate::seeds::mix;
use crate::Rng;

/// Fallback local-search budget of the merge, per cover.
pub const MAX_LOCAL_MOVES: u32 = 200;

/// Boards with more squares than this (20×20) use tiles of [`AUTO_TILE`] unless told
/// otherwise. A whole-board network needs ever more sweeps to settle as boards grow (on
/// 40×40 about 130 ms per tour against about 14 ms tiled, `experiments/merge.toml`), and
/// on 100×100 none of 1000 attempts of 1000 sweeps settled
/// (`knightnet solve --board 100x100 --merge --tile none`).
pub const AUTO_TILE_ABOVE: usize = 20 * 20;
/// Tile side used automatically on large boards.
pub const AUTO_TILE: usize = 10;

/// How `network+merge` obtains its cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileMode {
    /// Whole board up to [`AUTO_TILE_ABOVE`] squares, tiles of [`AUTO_TILE`] above.
    Auto,
    /// Always one network on the whole board.
    Whole,
    /// Tiles of this side.
    Side(usize),
}

impl std::str::FromStr for TileMode {
    type Err = InputError;
    fn from_str(s: &str) -> Result<TileMode, InputError> {
        match s.trim() {
            "auto" => Ok(TileMode::Auto),
            "none" | "whole" => Ok(TileMode::Whole),
            n => n.parse().map(TileMode::Side).map_err(|_| {
                InputError::param(format!(
                    "tile '{n}' is malformed; give a side (6 or more), 'none' or 'auto'"
                ))
            }),
        }
    }
}

impl std::fmt::Display for TileMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TileMode::Auto => f.write_str("auto"),
            TileMode::Whole => f.write_str("none"),
            TileMode::Side(n) => write!(f, "{n}"),
        }
    }
}

impl TileMode {
    /// The tile side used on `board`, if any.
    pub fn side(self, board: Board) -> Option<usize> {
        match self {
            TileMode::Whole => None,
            TileMode::Side(n) => Some(n),
            TileMode::Auto => (board.squares() > AUTO_TILE_ABOVE).then_some(AUTO_TILE),
        }
    }
}

/// The network followed by cycle merging.
#[derive(Debug, Clone, PartialEq)]
pub struct NeuralMergeSolver {
    pub params: NetworkParams,
    /// Whole board or tiles.
    pub tile: TileMode,
    /// Run tiles in the batched engine where the parameters allow (default); `false`
    /// forces the scalar engine, which gives the same cover (tests compare them).
    pub batched: bool,
}

/// Cut a side of length `n` into strips of `tile` to `2·tile − 1` squares (one strip if
/// `n < 2·tile`); the last strip takes the remainder.
pub fn strips(n: usize, tile: usize) -> Vec<(usize, usize)> {
    let k = (n / tile).max(1);
    (0..k)
        .map(|i| {
            let start = i * tile;
            let len = if i + 1 == k { n - start } else { tile };
            (start, len)
        })
        .collect()
}

/// One tile: its index, top-left square `(row, col)` and size `(rows, cols)`.
type TileSpec = (usize, (usize, usize), (usize, usize));

/// Map cycles of a tile (tile square indices) to squares of the whole board.
fn to_board(
    cycles: &[Vec<u32>],
    tile: Board,
    origin: (usize, usize),
    cols: usize,
) -> Vec<Vec<u32>> {
    cycles
        .iter()
        .map(|c| {
            c.iter()
                .map(|&s| {
                    let (r, cc) = tile.coords(s);
                    ((origin.0 + r) * cols + origin.1 + cc) as u32
                })
                .collect()
        })
        .collect()
}

/// A tile's cover in board squares (`None` if it never settled) and how it was reached.
type TileResult = (Option<Vec<Vec<u32>>>, CoverStats);

/// How the cover was obtained, for reports.
#[derive(Debug, Clone, Default)]
struct CoverStats {
    attempts: u64,
    iterations: u64,
    terminations: [u64; 4],
}

impl CoverStats {
    fn count(&mut self, t: &Termination, iterations: u32) {
        self.attempts += 1;
        self.iterations += iterations as u64;
        self.terminations[t.index()] += 1;
    }
}

impl NeuralMergeSolver {
    pub fn new(params: NetworkParams, tile: TileMode) -> NeuralMergeSolver {
        NeuralMergeSolver {
            params,
            tile,
            batched: true,
        }
    }

    /// Settle one tile into a degree-2 cover; squares are returned in board coordinates.
    fn tile_cover(
        &self,
        graph: &KnightGraph,
        origin: (usize, usize),
        cols: usize,
        seed: u64,
    ) -> TileResult {
        let net = Network::new(graph, self.params).expect("parameters checked");
        let mut stats = CoverStats::default();
        let tb = graph.board();
        for j in 0..self.params.max_attempts {
            let attempt = net.attempt(&mut attempt_rng(seed, j as u64), None);
            stats.count(&attempt.termination, attempt.iterations);
            if attempt.termination.cycle_count() > 0 {
                return (Some(to_board(&attempt.cycles, tb, origin, cols)), stats);
            }
        }
        (None, stats)
    }

    /// Settle a group of same-sized tiles in the lanes of one batch. Tile `k` of the group
    /// makes attempts from `attempt_rng(seeds[k], j)`, `j = 0, 1, ...`, exactly as
    /// [`Self::tile_cover`] does, until one settles into a degree-2 cover.
    fn tile_covers_batched(
        &self,
        graph: &KnightGraph,
        tiles: &[((usize, usize), u64)],
        cols: usize,
    ) -> Vec<TileResult> {
        struct TileJobs {
            seeds: Vec<u64>,
            tries: Vec<u32>,
            queue: std::collections::VecDeque<usize>,
            results: Vec<TileResult>,
            max_attempts: u32,
        }
        impl Jobs for TileJobs {
            fn next(&mut self) -> Option<(u64, Rng)> {
                let k = self.queue.pop_front()?;
                let j = self.tries[k];
                self.tries[k] += 1;
                Some((k as u64, attempt_rng(self.seeds[k], j as u64)))
            }
            fn done(&mut self, id: u64, attempt: Attempt) {
                let k = id as usize;
                self.results[k]
                    .1
                    .count(&attempt.termination, attempt.iterations);
                if attempt.termination.cycle_count() > 0 {
                    self.results[k].0 = Some(attempt.cycles);
                } else if self.tries[k] < self.max_attempts {
                    self.queue.push_back(k);
                }
            }
        }
        let mut batch = Batch::new(graph, self.params).expect("checked by fits_i16");
        let mut jobs = TileJobs {
            seeds: tiles.iter().map(|t| t.1).collect(),
            tries: vec![0; tiles.len()],
            queue: (0..tiles.len()).collect(),
            results: vec![(None, CoverStats::default()); tiles.len()],
            max_attempts: self.params.max_attempts,
        };
        batch.run_jobs(&mut jobs);
        let tb = graph.board();
        jobs.results
            .into_iter()
            .zip(tiles)
            .map(|((cycles, stats), &(origin, _))| {
                (cycles.map(|c| to_board(&c, tb, origin, cols)), stats)
            })
            .collect()
    }

    fn tiled(&self, board: Board, tile: usize, rng: &mut Rng) -> TileResult {
        let base: u64 = rng.random();
        let rows = strips(board.rows(), tile);
        let cols = strips(board.cols(), tile);
        let mut graphs: HashMap<(usize, usize), KnightGraph> = HashMap::new();
        for &(_, h) in &rows {
            for &(_, w) in &cols {
                graphs.entry((h, w)).or_insert_with(|| {
                    KnightGraph::new(Board::new(h, w).expect("tile fits the board"))
                });
            }
        }
        let tiles: Vec<TileSpec> = rows
            .iter()
            .flat_map(|&(r0, h)| cols.iter().map(move |&(c0, w)| ((r0, c0), (h, w))))
            .enumerate()
            .map(|(i, (o, d))| (i, o, d))
            .collect();
        let seed_of = |i: usize| mix(base ^ mix(i as u64));
        let batched = self.batched
            && self.params.order != UpdateOrder::RandomPermutation
            && graphs.keys().all(|&(_, w)| fits_i16(&self.params, w));
        let results: Vec<TileResult> = if batched {
            // Chunks of same-sized tiles share a batch; chunks run in parallel. Which
            // chunk a tile lands in does not change its attempts or its cover.
            let mut by_dims: Vec<((usize, usize), Vec<usize>)> = Vec::new();
            for &(i, _, dims) in &tiles {
                match by_dims.iter_mut().find(|(d, _)| *d == dims) {
                    Some((_, v)) => v.push(i),
                    None => by_dims.push((dims, vec![i])),
                }
            }
            let chunks: Vec<((usize, usize), &[usize])> = by_dims
                .iter()
                .flat_map(|(d, v)| v.chunks(4 * LANES).map(move |c| (*d, c)))
                .collect();
            let done: Vec<Vec<(usize, TileResult)>> = chunks
                .par_iter()
                .map(|&(dims, ids)| {
                    let spec: Vec<((usize, usize), u64)> =
                        ids.iter().map(|&i| (tiles[i].1, seed_of(i))).collect();
                    let out = self.tile_covers_batched(&graphs[&dims], &spec, board.cols());
                    ids.iter().copied().zip(out).collect()
                })
                .collect();
            let mut all: Vec<Option<TileResult>> = vec![None; tiles.len()];
            for (i, r) in done.into_iter().flatten() {
                all[i] = Some(r);
            }
            all.into_iter()
                .map(|r| r.expect("every tile ran"))
                .collect()
        } else {
            tiles
                .par_iter()
                .map(|&(i, origin, dims)| {
                    self.tile_cover(&graphs[&dims], origin, board.cols(), seed_of(i))
                })
                .collect()
        };
        let mut stats = CoverStats::default();
        let mut cycles = Vec::new();
        let mut ok = true;
        for (c, s) in results {
            stats.attempts += s.attempts;
            stats.iterations += s.iterations;
            for k in 0..4 {
                stats.terminations[k] += s.terminations[k];
            }
            match c {
                Some(c) => cycles.extend(c),
                None => ok = false,
            }
        }
        (ok.then_some(cycles), stats)
    }

    fn check_tiles(&self, board: Board, tile: usize) -> Result<(), InputError> {
        if tile < 6 {
            return Err(InputError::param(format!(
                "tile {tile} is too small; tiles of side 6 or more are accepted"
            )));
        }
        for &(_, h) in &strips(board.rows(), tile) {
            for &(_, w) in &strips(board.cols(), tile) {
                let t = Board::new(h, w).expect("tile fits the board");
                let ex = existence::closed_tour(t);
                if !ex.exists {
                    return Err(InputError::param(format!(
                        "tile {tile} cuts the {board} board into {t} pieces, which have no degree-2 cover of this kind ({}); choose another --tile",
                        ex.reason
                    )));
                }
            }
        }
        Ok(())
    }
}

impl Solver for NeuralMergeSolver {
    fn name(&self) -> String {
        "network+merge".into()
    }

    fn variant(&self) -> Option<String> {
        Some(self.params.variant_name())
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        self.params.check()?;
        req.check_exists(true).map_err(|e| {
            InputError::Impossible(format!(
                "{e}; network+merge builds closed tours only{}",
                req.open_tour_hint()
            ))
        })?;
        if let Some(t) = self.tile.side(req.board) {
            self.check_tiles(req.board, t)?;
        }
        // Whole board: graph + state. Tiled: per-square cover and merge arrays.
        match self.tile.side(req.board) {
            None => check_memory(req.board, BYTES_PER_NEURON, 2, "network+merge"),
            Some(_) => check_memory(req.board, 0, 40, "tiled network+merge"),
        }
    }

    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let board = req.board;
        let mut stats = CoverStats::default();
        let mut network_ns = 0u64;
        let mut merge_ns = 0u64;
        let mut tour = None;
        let mut merged = false;
        let mut last_outcome = Outcome::IterationCap;
        let mut report: Option<MergeReport> = None;
        let tile_side = self.tile.side(board);
        match tile_side {
            Some(tile) => {
                let t0 = Instant::now();
                let (cover, s) = self.tiled(board, tile, rng);
                network_ns += t0.elapsed().as_nanos() as u64;
                stats = s;
                if let Some(cycles) = cover {
                    let t1 = Instant::now();
                    let (t, r) = merge_cycles(board, &cycles, rng, MAX_LOCAL_MOVES);
                    merge_ns += t1.elapsed().as_nanos() as u64;
                    merged = r.cycles_before > 1 && t.is_some();
                    last_outcome = if t.is_some() {
                        Outcome::Tour
                    } else {
                        Outcome::MergeFailed
                    };
                    tour = t;
                    report = Some(r);
                } else {
                    last_outcome = Outcome::TileNotSettled;
                }
            }
            None => {
                let graph = KnightGraph::new(board);
                let net = Network::new(&graph, self.params)?;
                for _ in 0..self.params.max_attempts {
                    let t0 = Instant::now();
                    let attempt = net.attempt(rng, None);
                    network_ns += t0.elapsed().as_nanos() as u64;
                    stats.count(&attempt.termination, attempt.iterations);
                    last_outcome = Outcome::from(&attempt.termination);
                    if attempt.termination.cycle_count() == 0 {
                        continue;
                    }
                    let t1 = Instant::now();
                    let (t, r) = merge_cycles(board, &attempt.cycles, rng, MAX_LOCAL_MOVES);
                    merge_ns += t1.elapsed().as_nanos() as u64;
                    let ok = t.is_some();
                    merged = ok && r.cycles_before > 1;
                    report = Some(r);
                    if ok {
                        tour = t;
                        last_outcome = Outcome::Tour;
                        break;
                    }
                    last_outcome = Outcome::MergeFailed;
                }
            }
        }
        let mut extra = Map::new();
        extra.insert("tile".into(), json!(tile_side));
        extra.insert(
            "terminations".into(),
            Termination::counts_json(stats.terminations),
        );
        extra.insert("params".into(), json!(self.params));
        Solution {
            solver: self.name(),
            variant: Some(self.params.variant_name()),
            closed: true,
            tour,
            outcome: last_outcome,
            iterations: stats.iterations,
            attempts: stats.attempts,
            steps: None,
            merge: Some(MergeFacts {
                merged,
                report,
                network_ns,
                merge_ns,
            }),
            extra,
        }
        .apply_start(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_cover_the_side() {
        for n in 1..60 {
            for t in [6, 8, 10] {
                let s = strips(n, t);
                assert_eq!(s.iter().map(|x| x.1).sum::<usize>(), n);
                assert_eq!(s[0].0, 0);
                for w in s.windows(2) {
                    assert_eq!(w[0].0 + w[0].1, w[1].0);
                }
                if n >= t {
                    assert!(s.iter().all(|x| x.1 >= t && x.1 < 2 * t));
                }
            }
        }
    }
}

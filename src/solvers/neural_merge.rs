//! `network+merge`: the Takefuji–Lee network produces a degree-2 cover (one or several
//! cycles), and [`crate::merge`] joins the cycles into one closed tour.
//!
//! **Open tours** (`Request::closed == Closure::Open`, `solve --merge --open`): the network
//! runs on the whole board's open graph ([`KnightGraph::open`], as the `network` solver
//! does), the apex's cycle becomes the open path with its two ends joined by a fixed move
//! (`Cover::from_open_cycles`), the merge joins every other cycle into it without ever
//! dropping that move, and the one cycle left, cut at the fixed move, is the open tour
//! (from the held start square when one is asked for). Tiled: on a board with a closed
//! tour the tiles give a closed tour as above, cut at the start (square 0 if none); on a
//! board without one (odd × odd; an even tile side leaves one odd strip per side) the one
//! tile with two odd sides, placed to hold the start, runs on its own open graph and
//! gives the open path, and the closed tiles' cycles are merged into it.
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
use std::sync::Mutex;
use std::time::Instant;

use super::network::NetworkSolver;
use super::{
    Facts, MergeFacts, NetworkMergeFacts, NetworkRunFacts, Outcome, Request, Solution, Solver,
    SolverFamily, SolverName, TerminationCounts,
};
use crate::Rng;
use crate::board::Board;
use crate::cover::{Circuit, Cover};
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::existence;
use crate::graph::{KnightGraph, Tours, check_bytes, check_memory, open_path};
use crate::merge::{MergeReport, merge_cover};
use crate::network::batch::{Batch, Jobs, LANES, fits_i16};
use crate::network::{Attempt, Network, NetworkParams, Termination, UpdateOrder, attempt_rng};
use crate::seeds::mix;
use rand::Rng as _;
use rayon::prelude::*;

/// Fallback local-search budget of the merge, per cover.
pub(crate) const MAX_LOCAL_MOVES: u32 = 200;

/// Bytes per square of tiled `network+merge`: the cover's neighbour pairs (8), the
/// merge's cycle labels (4) and, after a local move that split off a large piece, its
/// stuck region (up to 4); or the pairs and the tour's square list (4). Measured: 13–16
/// (PERFORMANCE.md).
pub(crate) const TILED_BYTES_PER_SQUARE: u64 = 16;

/// Boards with more squares than this (20×20) use tiles of [`AUTO_TILE`] unless told
/// otherwise. A whole-board network needs ever more sweeps to settle as boards grow (on
/// 40×40 about 130 ms per tour against about 14 ms tiled, `experiments/merge.toml`), and
/// on 100×100 none of 1000 attempts of 1000 sweeps settled
/// (`knightnet solve --board 100x100 --merge --tile none`).
pub(crate) const AUTO_TILE_ABOVE: usize = 20 * 20;
/// Tile side used automatically on large boards.
pub(crate) const AUTO_TILE: usize = 10;

/// How `network+merge` obtains its cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TileMode {
    /// Whole board up to `AUTO_TILE_ABOVE` squares, tiles of `AUTO_TILE` above.
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
    /// The network's parameters.
    pub params: NetworkParams,
    /// Whole board or tiles.
    pub tile: TileMode,
    /// Run tiles in the batched engine where the parameters allow (default); `false`
    /// forces the scalar engine, which gives the same cover (tests compare them).
    pub batched: bool,
}

/// Cut a side of length `n` into strips of `tile` to `2·tile − 1` squares (one strip if
/// `n < 2·tile`); the last strip takes the remainder.
pub(crate) fn strips(n: usize, tile: usize) -> Vec<(usize, usize)> {
    let k = (n / tile).max(1);
    (0..k)
        .map(|i| {
            let start = i * tile;
            let len = if i + 1 == k { n - start } else { tile };
            (start, len)
        })
        .collect()
}

/// [`strips`] with the one strip of odd length (an odd side cut by an even `tile`) moved
/// to cover square `at` of the side, when given: an open run's apex tile holds its start.
pub(crate) fn strips_placing_odd(n: usize, tile: usize, at: Option<usize>) -> Vec<(usize, usize)> {
    let mut lens: Vec<usize> = strips(n, tile).into_iter().map(|(_, l)| l).collect();
    if let (Some(r), Some(odd)) = (at, lens.iter().position(|l| l % 2 == 1)) {
        let len = lens.remove(odd);
        lens.insert((r / tile).min(lens.len()), len);
    }
    let mut start = 0;
    lens.into_iter()
        .map(|l| {
            start += l;
            (start - l, l)
        })
        .collect()
}

/// One tile: its index, top-left square `(row, col)` and size `(rows, cols)`.
type TileSpec = (usize, (usize, usize), (usize, usize));

/// Add the cycles of a tile (tile square indices) to the board's cover. On a tile run
/// on the open graph, the cycle through its `apex` vertex becomes the cover's open path
/// (the apex left out, its two neighbours joined by the fixed move).
fn add_tile_cycles(
    cover: &mut Cover,
    cols: usize,
    cycles: &[Vec<u32>],
    tile: Board,
    origin: (usize, usize),
    apex: Option<u32>,
) {
    let to_board = |s: u32| {
        let (r, cc) = tile.coords(s);
        ((origin.0 + r) * cols + origin.1 + cc) as u32
    };
    let mut on_board = Vec::new();
    for c in cycles {
        on_board.clear();
        match apex.and_then(|a| open_path(c, a)) {
            Some(path) => {
                on_board.extend(path.iter().map(|&s| to_board(s)));
                cover.add_open_path(&on_board);
            }
            None => {
                on_board.extend(c.iter().map(|&s| to_board(s)));
                cover.add_cycle(&on_board);
            }
        }
    }
}

/// A tile's cover in tile squares (`None` if it never settled) and how it was reached.
type TileResult = (Option<Vec<Vec<u32>>>, CoverStats);

/// The board's cover as tiles settle, with their statistics; tiles write their
/// squares in any order (each square belongs to one tile).
struct Gathered {
    cover: Cover,
    /// The board's columns.
    cols: usize,
    stats: CoverStats,
    all_settled: bool,
}

impl Gathered {
    fn add(&mut self, result: &TileResult, tile: Board, origin: (usize, usize), apex: Option<u32>) {
        self.stats.add(&result.1);
        match &result.0 {
            Some(cycles) => add_tile_cycles(&mut self.cover, self.cols, cycles, tile, origin, apex),
            None => self.all_settled = false,
        }
    }
}

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

    fn add(&mut self, other: &CoverStats) {
        self.attempts += other.attempts;
        self.iterations += other.iterations;
        for k in 0..4 {
            self.terminations[k] += other.terminations[k];
        }
    }
}

impl NeuralMergeSolver {
    /// The network with `params`, on the whole board or on tiles (`tile`), then merging,
    /// in the batched engine where the parameters allow.
    pub fn new(params: NetworkParams, tile: TileMode) -> NeuralMergeSolver {
        NeuralMergeSolver {
            params,
            tile,
            batched: true,
        }
    }

    /// Settle one tile into a degree-2 cover (squares of the tile).
    fn tile_cover(&self, graph: &KnightGraph, seed: u64) -> TileResult {
        let net = Network::new(graph, self.params).expect("parameters checked");
        let mut stats = CoverStats::default();
        for j in 0..self.params.max_attempts {
            let attempt = net.attempt(&mut attempt_rng(seed, j as u64), None);
            stats.count(&attempt.termination, attempt.iterations);
            if attempt.termination.cycle_count() > 0 {
                return (Some(attempt.cycles), stats);
            }
        }
        (None, stats)
    }

    /// Settle a group of same-sized tiles in the lanes of one batch. Tile `k` of the group
    /// makes attempts from `attempt_rng(seeds[k], j)`, `j = 0, 1, ...`, exactly as
    /// [`Self::tile_cover`] does, until one settles into a degree-2 cover.
    fn tile_covers_batched(&self, graph: &KnightGraph, seeds: Vec<u64>) -> Vec<TileResult> {
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
            tries: vec![0; seeds.len()],
            queue: (0..seeds.len()).collect(),
            results: vec![(None, CoverStats::default()); seeds.len()],
            seeds,
            max_attempts: self.params.max_attempts,
        };
        batch.run_jobs(&mut jobs);
        jobs.results
    }

    /// The union of the tile covers as one cover of the board (`None` if a tile never
    /// settled), filled as groups of tiles settle: the cover's 8 bytes per square and
    /// the groups in flight are all that is held.
    ///
    /// With `apex = Some(start)` (an open tour on a board without a closed tour, so odd ×
    /// odd, with an even `tile`), the one tile with two odd sides, placed to hold `start`
    /// when given, runs on its open graph (from `start`) and gives the cover's open path.
    fn tiled(
        &self,
        board: Board,
        tile: usize,
        apex: Option<Option<u32>>,
        rng: &mut Rng,
    ) -> (Option<Cover>, CoverStats) {
        let base: u64 = rng.random();
        let (rows, cols) = match apex {
            None => (strips(board.rows(), tile), strips(board.cols(), tile)),
            Some(start) => {
                let at = start.map(|s| board.coords(s));
                (
                    strips_placing_odd(board.rows(), tile, at.map(|p| p.0)),
                    strips_placing_odd(board.cols(), tile, at.map(|p| p.1)),
                )
            }
        };
        let mut graphs: HashMap<(usize, usize), (Board, KnightGraph)> = HashMap::new();
        for &(_, h) in &rows {
            for &(_, w) in &cols {
                graphs.entry((h, w)).or_insert_with(|| {
                    let tile = Board::new(h, w).expect("tile fits the board");
                    (tile, KnightGraph::new(tile))
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
        // The open run's apex tile: the one with two odd sides.
        let apex_tile = apex.and_then(|_| {
            tiles
                .iter()
                .find(|&&(_, _, (h, w))| h % 2 == 1 && w % 2 == 1)
                .map(|t| t.0)
        });
        let batched = self.batched
            && self.params.order != UpdateOrder::RandomPermutation
            && graphs.keys().all(|&(_, w)| fits_i16(&self.params, w));
        let gathered = Mutex::new(Gathered {
            cover: Cover::empty(board.squares()),
            cols: board.cols(),
            stats: CoverStats::default(),
            all_settled: true,
        });
        let gather = |results: Vec<(TileResult, Board, (usize, usize))>| {
            let mut g = gathered.lock().expect("no tile panics");
            for (result, tb, origin) in &results {
                g.add(result, *tb, *origin, None);
            }
        };
        if batched {
            // Chunks of same-sized tiles share a batch; chunks run in parallel. Which
            // chunk a tile lands in does not change its attempts or its cover.
            let mut by_dims: Vec<((usize, usize), Vec<usize>)> = Vec::new();
            for &(i, _, dims) in tiles.iter().filter(|t| Some(t.0) != apex_tile) {
                match by_dims.iter_mut().find(|(d, _)| *d == dims) {
                    Some((_, v)) => v.push(i),
                    None => by_dims.push((dims, vec![i])),
                }
            }
            let chunks: Vec<((usize, usize), &[usize])> = by_dims
                .iter()
                .flat_map(|(d, v)| v.chunks(4 * LANES).map(move |c| (*d, c)))
                .collect();
            chunks.par_iter().for_each(|&(dims, ids)| {
                let (tile, graph) = &graphs[&dims];
                let out =
                    self.tile_covers_batched(graph, ids.iter().map(|&i| seed_of(i)).collect());
                gather(
                    out.into_iter()
                        .zip(ids)
                        .map(|(r, &i)| (r, *tile, tiles[i].1))
                        .collect(),
                );
            });
        } else {
            let closed_tiles: Vec<&TileSpec> =
                tiles.iter().filter(|t| Some(t.0) != apex_tile).collect();
            closed_tiles.par_iter().for_each(|&&(i, origin, dims)| {
                let (tile, graph) = &graphs[&dims];
                gather(vec![(self.tile_cover(graph, seed_of(i)), *tile, origin)]);
            });
        }
        let mut g = gathered.into_inner().expect("no tile panics");
        if let Some(i) = apex_tile {
            let (_, origin, (h, w)) = tiles[i];
            let tb = Board::new(h, w).expect("tile fits the board");
            let local = apex.flatten().map(|s| {
                let (r, c) = board.coords(s);
                tb.index(r - origin.0, c - origin.1)
            });
            let graph = KnightGraph::open(tb, local);
            let result = self.tile_cover(&graph, seed_of(i));
            g.add(&result, tb, origin, graph.apex());
        }
        (g.all_settled.then_some(g.cover), g.stats)
    }

    /// The tiles of an open run on a board without a closed tour: an even side, so that
    /// each odd side of the board has one odd strip, and tiles that have covers: closed
    /// tours on every tile but the one with two odd sides, which needs an open tour (from
    /// the start, when it holds one).
    fn check_open_tiles(
        &self,
        board: Board,
        tile: usize,
        start: Option<u32>,
    ) -> Result<(), InputError> {
        if tile < 6 || tile % 2 == 1 {
            return Err(InputError::unsupported(
                Refusal::new(format!(
                    "the {board} board has no closed tour, so one tile runs on its open graph and the others need closed covers"
                ))
                .about([Setting::with(Param::Tile, tile), Setting::of(Param::Open)])
                .hint(Hint::OtherTile {
                    even_from: Some(6),
                    or_none: true,
                }),
            ));
        }
        let at = start.map(|s| board.coords(s));
        for &(r0, h) in &strips_placing_odd(board.rows(), tile, at.map(|p| p.0)) {
            for &(c0, w) in &strips_placing_odd(board.cols(), tile, at.map(|p| p.1)) {
                let t = Board::new(h, w).expect("tile fits the board");
                let ex = if h % 2 == 1 && w % 2 == 1 {
                    match at {
                        Some((r, c)) if (r0..r0 + h).contains(&r) && (c0..c0 + w).contains(&c) => {
                            existence::tour_exists_from(t, t.index(r - r0, c - c0), false)
                        }
                        _ => existence::tour_exists(t, false),
                    }
                } else {
                    existence::closed_tour(t)
                };
                if !ex.exists {
                    return Err(InputError::unsupported(
                        Refusal::new(format!(
                            "tile {tile} cuts the {board} board into {t} pieces, which have no cover for an open tour ({})",
                            ex.reason
                        ))
                        .hint(Hint::OtherTile {
                            even_from: None,
                            or_none: true,
                        }),
                    ));
                }
            }
        }
        Ok(())
    }

    fn check_tiles(&self, board: Board, tile: usize) -> Result<(), InputError> {
        if tile < 6 {
            return Err(InputError::param(format!(
                "tile {tile} is too small; tiles of side 6 or more are accepted"
            )));
        }
        // Tiles come in a few sizes (a strip's side is the tile's or the last one's):
        // each size is checked once.
        let sizes = |side| {
            let mut v: Vec<usize> = strips(side, tile).iter().map(|p| p.1).collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        for &h in &sizes(board.rows()) {
            for &w in &sizes(board.cols()) {
                let t = Board::new(h, w).expect("tile fits the board");
                let ex = existence::closed_tour(t);
                if !ex.exists {
                    return Err(InputError::unsupported(
                        Refusal::new(format!(
                            "tile {tile} cuts the {board} board into {t} pieces, which have no degree-2 cover of this kind ({})",
                            ex.reason
                        ))
                        .hint(Hint::OtherTile {
                            even_from: None,
                            or_none: false,
                        }),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Solver for NeuralMergeSolver {
    fn name(&self) -> SolverName {
        SolverName::new(SolverFamily::NetworkMerge, Some(self.params.variant()))
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        if Self::open(req) {
            let Some(t) = self.tile.side(req.board) else {
                // The network's own checks of an open request: the tour exists (from
                // the start, if any), the open graph fits in memory.
                return NetworkSolver::new(self.params).check(req);
            };
            self.params.check()?;
            NetworkSolver::check_open_request(req)?;
            check_bytes(
                req.board,
                req.board.squares() as u64 * TILED_BYTES_PER_SQUARE,
                "tiled network+merge",
            )?;
            if existence::closed_tour(req.board).exists {
                self.check_tiles(req.board, t)?;
            } else {
                self.check_open_tiles(req.board, t, req.start)?;
            }
            return Ok(());
        }
        self.params.check()?;
        req.check_exists(true)
            .map_err(|e| super::network::closed_only(e, "network+merge", req))?;
        // Whole board: graph + state. Tiled: see TILED_BYTES_PER_SQUARE. Checked before
        // the tiles, whose check visits every tile.
        match self.tile.side(req.board) {
            None => {
                let (per_edge, per_square) = NetworkSolver::new(self.params).bytes_per_item(req);
                check_memory(req.board, per_edge, per_square, "network+merge")
            }
            Some(t) => {
                check_bytes(
                    req.board,
                    req.board.squares() as u64 * TILED_BYTES_PER_SQUARE,
                    "tiled network+merge",
                )?;
                self.check_tiles(req.board, t)
            }
        }
    }

    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        let (circuit, merged) = self.merged(req, rng)?;
        let tour = match circuit {
            Some(c) if Self::open(req) => Some(c.into_open_tour(req.start).map_err(|_| {
                InputError::param(format!(
                    "internal error: the merged network+merge cover of {} is not an open tour",
                    req.board
                ))
            })?),
            Some(c) => Some(c.into_tour()),
            None => None,
        };
        let solution = match tour {
            Some(tour) => {
                let mut s = Solution::found(self.name(), tour, merged.facts);
                s.iterations = merged.iterations;
                s.attempts = merged.attempts;
                s
            }
            None => merged.failed(self.name(), !Self::open(req)),
        };
        solution.apply_start(req)
    }
}

/// What a `network+merge` run reported besides its tour: what
/// [`NeuralMergeSolver::stream`] returns, having walked the tour rather than held it.
#[derive(Debug, Clone)]
pub struct Merged {
    /// How the run ended: [`Outcome::Tour`] when merging reached one cycle (the tour that
    /// `stream` walked), else why it did not.
    pub outcome: Outcome,
    /// Network steps over all attempts.
    pub iterations: u64,
    /// Attempts made.
    pub attempts: u64,
    /// The facts of the run ([`Facts::NetworkMerge`]).
    pub facts: Facts,
}

impl Merged {
    /// What merging did and where the time went.
    pub fn merge(&self) -> Option<&MergeFacts> {
        match &self.facts {
            Facts::NetworkMerge(f) => Some(&f.merge),
            _ => None,
        }
    }

    /// The solution of a run that found no tour.
    fn failed(self, solver: SolverName, closed: bool) -> Solution {
        let mut solution = Solution::failed(solver, self.outcome, closed, self.facts);
        solution.iterations = self.iterations;
        solution.attempts = self.attempts;
        solution
    }
}

impl NeuralMergeSolver {
    /// Whether `req` asks for an open tour.
    fn open(req: &Request) -> bool {
        NetworkSolver::tours(req) != Tours::Closed
    }

    /// The cover, network and merge steps of [`Solver::solve`]: the one-cycle cover
    /// when merging reached one, and what the steps reported.
    fn merged(
        &self,
        req: &Request,
        rng: &mut Rng,
    ) -> Result<(Option<Circuit>, Merged), InputError> {
        self.check(req)?;
        let board = req.board;
        let mut stats = CoverStats::default();
        let mut network_ns = 0u64;
        let mut merge_ns = 0u64;
        let mut circuit = None;
        let mut merged = false;
        let mut last_outcome = Outcome::IterationCap;
        let mut report: Option<MergeReport> = None;
        let open = Self::open(req);
        let tile_side = self.tile.side(board);
        match tile_side {
            Some(tile) => {
                // An open tour where a closed one exists is cut from a closed tour; on a
                // board without one, one tile runs on its open graph.
                let apex = (open && !existence::closed_tour(board).exists).then_some(req.start);
                let t0 = Instant::now();
                let (cover, s) = self.tiled(board, tile, apex, rng);
                network_ns += t0.elapsed().as_nanos() as u64;
                stats = s;
                if let Some(cover) = cover {
                    let t1 = Instant::now();
                    let (c, r) = merge_cover(board, cover, rng, MAX_LOCAL_MOVES);
                    merge_ns += t1.elapsed().as_nanos() as u64;
                    merged = r.cycles_before > 1 && c.is_some();
                    last_outcome = if c.is_some() {
                        Outcome::Tour
                    } else {
                        Outcome::MergeFailed
                    };
                    circuit = c;
                    report = Some(r);
                } else {
                    last_outcome = Outcome::TileNotSettled;
                }
            }
            None => {
                let graph = NetworkSolver::graph(req)?;
                let net = Network::new(&graph, self.params)?;
                let n = board.squares();
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
                    let cover = match graph.apex() {
                        Some(apex) => Cover::from_open_cycles(n, &attempt.cycles, apex),
                        None => Cover::from_cycles(n, &attempt.cycles),
                    };
                    let (c, r) = merge_cover(board, cover, rng, MAX_LOCAL_MOVES);
                    merge_ns += t1.elapsed().as_nanos() as u64;
                    let ok = c.is_some();
                    merged = ok && r.cycles_before > 1;
                    report = Some(r);
                    if ok {
                        circuit = c;
                        last_outcome = Outcome::Tour;
                        break;
                    }
                    last_outcome = Outcome::MergeFailed;
                }
            }
        }
        let facts = Facts::NetworkMerge(NetworkMergeFacts {
            tile: tile_side,
            run: NetworkRunFacts {
                terminations: TerminationCounts(stats.terminations),
                params: self.params,
                open_graph: open,
            },
            merge: MergeFacts {
                merged,
                report,
                network_ns,
                merge_ns,
            },
        });
        let merged = Merged {
            outcome: last_outcome,
            iterations: stats.iterations,
            attempts: stats.attempts,
            facts,
        };
        Ok((circuit, merged))
    }

    /// Walk the tour that [`Solver::solve`] returns for `req` (from `req.start`, in
    /// `req.reverse`'s direction), square by square, calling `visit(row, col)` in
    /// visiting order, without holding it as a square list: 8 bytes per square for the
    /// merged cover and a bit per square for the tour oracle, which checks the walk.
    /// Returns what the run reported; its outcome is [`Outcome::Tour`] when a tour was
    /// walked.
    pub fn stream(
        &self,
        req: &Request,
        rng: &mut Rng,
        mut visit: impl FnMut(usize, usize),
    ) -> Result<Merged, crate::error::Error> {
        let (circuit, merged) = self.merged(req, rng)?;
        if let Some(circuit) = circuit {
            let board = req.board;
            let visit = |s| {
                let (r, c) = board.coords(s);
                visit(r, c)
            };
            let walked = if Self::open(req) {
                circuit.walk_open(req.start, visit)
            } else {
                circuit.walk(req.start, req.reverse, visit)
            };
            walked.map_err(|_| {
                crate::error::Error::Internal(format!(
                    "the merged network+merge cover of {board} is not a tour"
                ))
            })?;
        }
        Ok(merged)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_odd_strip_moves_to_cover_the_square_asked() {
        for n in [41usize, 43, 101] {
            for at in [0, 5, 17, n / 2, n - 1] {
                let s = strips_placing_odd(n, 10, Some(at));
                assert_eq!(s.iter().map(|p| p.1).sum::<usize>(), n);
                assert!(s.windows(2).all(|w| w[0].0 + w[0].1 == w[1].0));
                let odd: Vec<_> = s.iter().filter(|p| p.1 % 2 == 1).collect();
                assert_eq!(odd.len(), 1, "{n} {at}: {s:?}");
                assert!(
                    (odd[0].0..odd[0].0 + odd[0].1).contains(&at),
                    "{n} {at}: {s:?}"
                );
            }
            assert_eq!(strips_placing_odd(n, 10, None), strips(n, 10));
        }
    }

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

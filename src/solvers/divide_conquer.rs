//! `divide-conquer`: a linear-time construction of knight's tours on large boards, in
//! the spirit of Parberry ("An efficient algorithm for the knight's tour problem",
//! Discrete Appl. Math. 73 (1997) 251-260): cut the board into small blocks that have
//! closed tours, lay a base tour on each block, and join neighbouring blocks one at a
//! time by a two-edge exchange.
//!
//! What it does exactly:
//!
//! 1. Each side `n >= 5` is cut into bands: an even side into bands of 6, 8 and 10
//!    (greedy 8s; 12 = 6 + 6), an odd side into one odd band of 5, 7 or 9 plus even
//!    bands.
//! 2. Every block whose sides are not both odd gets a closed base tour; when both sides
//!    of the board are odd (no closed tour, Schwenk), the one odd x odd block gets an
//!    open base tour instead, placed so that it contains the requested start square and
//!    starting there. Base tours are found once per process by this crate's own search
//!    ([`super::search`], Warnsdorff order with forward checking) and cached.
//! 3. Blocks are joined along a spanning tree, in row-major order: each block to the
//!    block on its left, the first block of a row to the block above. To join, it looks
//!    for a current cover edge `x1-y1` on the old side and a base-tour edge `x2-y2` in
//!    the new block with `x1-x2` and `y1-y2` knight moves, removes the two edges and adds
//!    the two moves: two cycles become one cycle, and a path plus a cycle one path with
//!    the same ends. This is Parberry's joining step, but the exchange is found by a
//!    local scan near the boundary instead of being fixed in advance by "structured"
//!    base tours; if a block's first base tour offers no exchange, up to 63 other closed
//!    tours of its size are tried. A missing exchange would be reported as the outcome
//!    `join-failed`, never as a wrong tour; the tests build every board from 3x3 to
//!    40x40 and 1000x1000 without one.
//! 4. `3 x n` with a closed tour (even `n >= 10`, Schwenk 1991): a closed `3 x 10` or
//!    `3 x 12` block, then `3 x 4` open tours spliced in one at a time (remove a cover
//!    edge `u-v` at the boundary, add `u-p`, the block's path `p ~ q`, and `q-v`), which
//!    is Schwenk's induction step.
//! 5. Boards with a side of 3 or 4 and no closed tour, open tours only: on `3 x n`, a
//!    chain of `3 x w` blocks (w in 4, 7, 8, 9, 10) each crossed by a Hamiltonian path
//!    whose exit is a knight move from the next block's entry, widths chosen by dynamic
//!    programming, starting at the start square's block (or mirrored). On `4 x n` no
//!    such chain exists (every Hamiltonian path of a `4 x w` block starts and ends on an
//!    outer line), so it runs Warnsdorff with random ties from the fixed seeds 0, 1, 2,
//!    ... (up to 1000 attempts; measured to succeed within a few on 4 x 5 .. 4 x 1001).
//! 6. Anything left (odd starts the odd block cannot be placed around on small boards,
//!    thin boards where the above fail) falls back to search with a budget of 2*10^7
//!    steps (`gave-up` / `exhausted` outcomes). The result is walked from the start
//!    square (the corner `(0,0)` by default) and checked by the oracle.
//!
//! Guarantees: a closed tour on every board with a closed tour (Schwenk), built in
//! linear time; an open tour from every corner-coloured start on boards with both sides
//! odd and at least 5 (linear time except for small boards where the odd block cannot
//! be placed around the start); open tours of thin boards as described in 5-6, without
//! a linear-time guarantee on `4 x n`.
//!
//! Representation: on boards with both sides >= 5 the cover is never laid square by
//! square. `plan::Plan` keeps one neighbour table per distinct block state (interned),
//! memoises each join on the two tables it touches, and shares a row's chain of joins
//! between rows that start alike; the tour is then walked from it, block by block, along
//! precomputed in-block segments. It is the same cover (slot for slot) as laying it on
//! `Cover`, which remains for `3 x n` boards and for any join the compact form does
//! not model (a test checks both give identical tours on every board 5x5..36x36 and
//! several larger ones). [`DivideConquerSolver::stream`] walks the same plan without
//! collecting the tour.
//!
//! Complexity: O(mn) time. Memory: the tour (4 bytes a square) and the oracle's bitset
//! (1/8 byte a square); the plan is O(rows + cols) (a few hundred KB at 10000 x 10000).
//! Streaming needs only the plan. No knight graph is built.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use super::classical::{self, Report};
use super::search::{Config, Neighbours, Order, Search, Stop};
use super::warnsdorff::{self, TieBreak};
use super::{DivideConquerFacts, Facts, Outcome, Request, Solution, Solver, SolverName};
use crate::Rng;
use crate::board::{Board, KNIGHT_OFFSETS};
use crate::cover;
use crate::error::{Hint, InputError, Param, Refusal, Setting};
use crate::existence;
use crate::memory::{self, MemoryError};
use plan::{Cfg, Collect, Each, Plan};

mod plan;

/// An empty neighbour slot (a path end), in the cover and in the plan alike.
const NONE: u32 = cover::UNSET;

/// Bytes per square the construction plans: the tour (4) and the oracle's bitset
/// (1/8), rounded up; the compact cover is independent of the area.
const BYTES_PER_SQUARE: u64 = 5;

/// Step budget of the last-resort search on boards the blocks do not cover.
const FALLBACK_MAX_STEPS: u64 = 20_000_000;

/// Seeded Warnsdorff attempts on thin boards before falling back to search.
const THIN_WARNSDORFF_ATTEMPTS: u64 = 1000;

/// Step budget of the searches for base tours and thin boards.
const BASE_MAX_STEPS: u64 = 200_000_000;

type BaseKey = (usize, usize, bool, u32);

fn base_cache() -> &'static Mutex<HashMap<BaseKey, Option<Vec<u32>>>> {
    static CACHE: OnceLock<Mutex<HashMap<BaseKey, Option<Vec<u32>>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A tour of an `h x w` board (local row-major indices) from `start`, closed or open,
/// found by Warnsdorff-ordered search with forward checking and cached for the process.
pub(crate) fn base_tour(h: usize, w: usize, closed: bool, start: u32) -> Option<Vec<u32>> {
    let key = (h, w, closed, start);
    if let Some(t) = base_cache().lock().unwrap().get(&key) {
        return t.clone();
    }
    let tour = search_tour(Board::new(h, w).ok()?, closed, start, BASE_MAX_STEPS).0;
    base_cache().lock().unwrap().insert(key, tour.clone());
    tour
}

/// One search for a tour; returns the tour (if found), the stop reason and the steps.
fn search_tour(
    board: Board,
    closed: bool,
    start: u32,
    max_steps: u64,
) -> (Option<Vec<u32>>, Stop, u64) {
    let nb = Neighbours::new(board);
    let cfg = Config {
        order: Order::Warnsdorff,
        ties_only: false,
        forward_check: true,
        connectivity: false,
        closed,
        max_steps,
    };
    let mut s = Search::new(board, &nb, start, cfg);
    let stop = s.find();
    (
        (stop == Stop::Found).then(|| s.path().to_vec()),
        stop,
        s.steps,
    )
}

/// Cut an even side `n` (0 or >= 6) into bands of 6, 8 and 10.
fn split_even(n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut n = n;
    while n > 10 {
        let take = if n - 8 >= 6 { 8 } else { 6 };
        out.push(take);
        n -= take;
    }
    if n > 0 {
        out.push(n);
    }
    out
}

fn even_ok(n: usize) -> bool {
    n.is_multiple_of(2) && (n == 0 || n >= 6)
}

/// Cut a side `n >= 5` into bands; an odd side gets one odd band (5, 7 or 9) which,
/// when `target` is given, covers that coordinate. Returns the bands and the index of
/// the odd band, or `None` if the odd band cannot be placed around `target`.
fn split_side(n: usize, target: Option<usize>) -> Option<(Vec<usize>, Option<usize>)> {
    if n.is_multiple_of(2) {
        return even_ok(n).then(|| (split_even(n), None));
    }
    let t = target.unwrap_or(0);
    for h in [5, 7, 9] {
        if h > n {
            break;
        }
        let lo = (t + 1).saturating_sub(h);
        for before in lo..=t.min(n - h) {
            let after = n - before - h;
            if even_ok(before) && even_ok(after) {
                let mut bands = split_even(before);
                let idx = bands.len();
                bands.push(h);
                bands.extend(split_even(after));
                return Some((bands, Some(idx)));
            }
        }
    }
    None
}

/// The cover under construction, laid block by block: each square's two tour neighbours
/// ([`cover::UNSET`] at the ends of the one path, if any), with the board's width for
/// the block geometry.
struct Cover {
    cols: usize,
    cover: cover::Cover,
}

#[derive(Debug, Clone, Copy)]
struct Rect {
    r0: usize,
    c0: usize,
    h: usize,
    w: usize,
}

impl Rect {
    fn contains(&self, r: i64, c: i64) -> bool {
        r >= self.r0 as i64
            && c >= self.c0 as i64
            && r < (self.r0 + self.h) as i64
            && c < (self.c0 + self.w) as i64
    }
}

impl Cover {
    /// An empty cover of `rows x cols` (`None` if that is not a board).
    fn new(rows: usize, cols: usize) -> Option<Cover> {
        let board = Board::new(rows, cols).ok()?;
        Some(Cover {
            cols,
            cover: cover::Cover::empty(board.squares()),
        })
    }

    #[inline]
    fn idx(&self, r: usize, c: usize) -> u32 {
        (r * self.cols + c) as u32
    }

    #[inline]
    fn coords(&self, s: u32) -> (i64, i64) {
        let s = s as usize;
        ((s / self.cols) as i64, (s % self.cols) as i64)
    }

    fn knight(&self, a: u32, b: u32) -> bool {
        let (ar, ac) = self.coords(a);
        let (br, bc) = self.coords(b);
        let (dr, dc) = ((ar - br).abs(), (ac - bc).abs());
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// Lay the base tour `local` (indices in `rect.h x rect.w`) on `rect`.
    fn place(&mut self, rect: Rect, local: &[u32], closed: bool) {
        let cols = self.cols;
        let map = |l: u32| {
            let l = l as usize;
            ((rect.r0 + l / rect.w) * cols + rect.c0 + l % rect.w) as u32
        };
        for pair in local.windows(2) {
            let (a, b) = (map(pair[0]), map(pair[1]));
            self.cover.link(a, b);
        }
        if closed {
            let (a, b) = (map(local[local.len() - 1]), map(local[0]));
            self.cover.link(a, b);
        }
    }

    /// Splice an open tour of the fresh block `b` into the cycle through block `a`
    /// (Schwenk's 3 x n step): remove a cover edge `u-v` near the shared side and add
    /// `u-p`, the block's path `p ~ q`, and `q-v`. Tries every path of the block.
    fn insert_path(&mut self, a: Rect, b: Rect) -> bool {
        let cr = a.c0 + a.w - 2..a.c0 + a.w;
        for r in a.r0..a.r0 + a.h {
            for c in cr.clone() {
                let u = self.idx(r, c);
                for &(dr, dc) in KNIGHT_OFFSETS.iter() {
                    let (pr, pc) = (r as i64 + dr as i64, c as i64 + dc as i64);
                    if !b.contains(pr, pc) {
                        continue;
                    }
                    let local_p = ((pr as usize - b.r0) * b.w + (pc as usize - b.c0)) as u32;
                    for (q, path) in paths_by_end(b.h, b.w, local_p) {
                        let qg = self.idx(b.r0 + q as usize / b.w, b.c0 + q as usize % b.w);
                        for v in self.cover.pair(u) {
                            if v != NONE && self.knight(v, qg) {
                                let pg = self.idx(pr as usize, pc as usize);
                                self.cover.replace(u, v, pg);
                                self.cover.replace(v, u, qg);
                                self.place(b, &path, false);
                                self.cover.link_one(pg, u);
                                self.cover.link_one(qg, v);
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Unlink every square of `rect` (before its block has been joined to anything).
    fn clear(&mut self, rect: Rect) {
        for r in rect.r0..rect.r0 + rect.h {
            for c in rect.c0..rect.c0 + rect.w {
                let s = self.idx(r, c);
                self.cover.unset(s);
            }
        }
    }

    /// Join the component holding block `a` to the one holding block `b` (different
    /// components, sharing a side) by a two-edge exchange near the shared side.
    fn join(&mut self, a: Rect, b: Rect) -> bool {
        // Squares of `a` within two rows/columns of `b`.
        let (rr, cr) = if b.c0 == a.c0 + a.w {
            (a.r0..a.r0 + a.h, a.c0 + a.w - 2..a.c0 + a.w)
        } else {
            (a.r0 + a.h - 2..a.r0 + a.h, a.c0..a.c0 + a.w)
        };
        for r in rr {
            for c in cr.clone() {
                let x1 = self.idx(r, c);
                for &(dr, dc) in KNIGHT_OFFSETS.iter() {
                    let (r2, c2) = (r as i64 + dr as i64, c as i64 + dc as i64);
                    if !b.contains(r2, c2) {
                        continue;
                    }
                    let x2 = self.idx(r2 as usize, c2 as usize);
                    for y1 in self.cover.pair(x1) {
                        if y1 == NONE {
                            continue;
                        }
                        for y2 in self.cover.pair(x2) {
                            if y2 != NONE && self.knight(y1, y2) {
                                self.cover.replace(x1, y1, x2);
                                self.cover.replace(y1, x1, y2);
                                self.cover.replace(x2, y2, x1);
                                self.cover.replace(y2, x2, y1);
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    /// Walk the single cycle or path from `start` (a path must start at one of its ends).
    fn walk(&self, start: u32) -> Option<Vec<u32>> {
        let n = self.cover.squares();
        let mut out = Vec::with_capacity(n);
        let mut prev = NONE;
        let mut cur = start;
        loop {
            out.push(cur);
            if out.len() > n {
                return None;
            }
            let [p, q] = self.cover.pair(cur);
            let next = if p != prev { p } else { q };
            if next == NONE || next == start {
                break;
            }
            prev = cur;
            cur = next;
        }
        Some(out)
    }
}

/// Why a construction did not produce a tour.
#[derive(Debug, Clone)]
enum Built {
    Tour(Vec<u32>, &'static str),
    Failed(Outcome, u64),
    /// The tour's buffer could not be allocated.
    OutOfMemory(MemoryError),
}

/// Where the block construction cuts a board (both sides >= 5): the row and column
/// bands, and for odd x odd boards (`closed == false`) the block holding `start`, which
/// gets the open base tour, with the start's local index.
struct Layout {
    row_bands: Vec<usize>,
    col_bands: Vec<usize>,
    path: Option<(usize, usize, u32)>,
}

fn layout(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Layout> {
    let (sr, sc) = ((start as usize) / cols, (start as usize) % cols);
    let target = |t| (!closed).then_some(t);
    let (row_bands, odd_r) = split_side(rows, target(sr))?;
    let (col_bands, odd_c) = split_side(cols, target(sc))?;
    let path = match (closed, odd_r, odd_c) {
        (false, Some(i), Some(j)) => {
            let r0: usize = row_bands[..i].iter().sum();
            let c0: usize = col_bands[..j].iter().sum();
            Some((i, j, ((sr - r0) * col_bands[j] + (sc - c0)) as u32))
        }
        _ => None,
    };
    Some(Layout {
        row_bands,
        col_bands,
        path,
    })
}

/// The block construction in compact form ([`plan::Plan`]): the same cover as
/// `build_blocks` would lay square by square, in memory independent of the area.
/// `None` where the compact form does not apply (then `build_blocks` decides).
fn compact_plan(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Plan> {
    if rows < 5 || cols < 5 {
        return None;
    }
    let l = layout(rows, cols, closed, start)?;
    Plan::build(
        rows,
        cols,
        &l.row_bands,
        &l.col_bands,
        l.path,
        &mut |h, w, ps| {
            let closed = ps.is_none();
            Cfg::from_tour(h, w, &base_tour(h, w, closed, ps.unwrap_or(0))?, closed)
        },
        &mut |h, w| {
            closed_candidates(h, w)
                .iter()
                .skip(1)
                .filter_map(|t| Cfg::from_tour(h, w, t, true))
                .collect()
        },
    )
}

/// Ask Linux to back the spare capacity of `v` with 2 MB pages where it can (the
/// 2 MB-aligned part). Filling a large tour otherwise takes a page fault per 4 KB,
/// which on virtual machines costs more than the walk itself. Advice only: nothing
/// changes if it is refused or transparent huge pages are off.
fn advise_huge_pages(v: &mut Vec<u32>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let spare = v.spare_capacity_mut();
        let begin = spare.as_ptr() as usize;
        let end = begin + std::mem::size_of_val(spare);
        let (lo, hi) = (begin.next_multiple_of(HUGE), end / HUGE * HUGE);
        if hi > lo {
            // SAFETY: madvise only advises the kernel about pages of this process's
            // own allocation (the aligned interior of `v`'s buffer, owned and not
            // shared); MADV_HUGEPAGE does not change their contents or validity.
            unsafe {
                libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

/// Boards of at least this many squares are built in the compact form; smaller ones
/// square by square (the same tour either way, tested).
const COMPACT_FROM_SQUARES: usize = 80 * 80;

/// Build by blocks on a `rows x cols` board (both sides >= 5, or 3 x even >= 10).
/// `closed`: all blocks closed; else both sides odd and the odd block holds `start`.
/// Uses the compact form when it applies, else lays the cover square by square.
fn build_blocks(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Built> {
    if rows == 3 {
        return build_three(cols, start);
    }
    let (sr, sc) = ((start as usize) / cols, (start as usize) % cols);
    // Building the compact plan costs more than it saves on small boards (measured
    // crossover about 80x80: `compare --solvers divide-conquer`, PERFORMANCE.md).
    if rows * cols < COMPACT_FROM_SQUARES {
        return build_blocks_cover(rows, cols, closed, start);
    }
    if let Some(plan) = compact_plan(rows, cols, closed, start) {
        let squares = match memory::try_with_capacity(rows * cols, "the divide-conquer tour") {
            Ok(v) => v,
            Err(e) => return Some(Built::OutOfMemory(e)),
        };
        let mut tour = Collect { cols, squares };
        advise_huge_pages(&mut tour.squares);
        plan.walk((sr, sc), false, &mut tour)?;
        return Some(Built::Tour(tour.squares, "blocks"));
    }
    build_blocks_cover(rows, cols, closed, start)
}

/// [`build_blocks`] square by square on a [`Cover`] (8 bytes a square): for layouts
/// the compact form does not model, and as its reference in the tests.
fn build_blocks_cover(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Built> {
    let (sr, sc) = ((start as usize) / cols, (start as usize) % cols);
    let Layout {
        row_bands,
        col_bands,
        path,
    } = layout(rows, cols, closed, start)?;
    let (odd_r, odd_c) = (path.map(|p| p.0), path.map(|p| p.1));
    let mut cover = Cover::new(rows, cols)?;
    let mut blocks: Vec<Vec<Rect>> = Vec::with_capacity(row_bands.len());
    let mut r0 = 0;
    // Blocks in row-major order; each joins the block to its left (or, first in its
    // row, the block above), which is a spanning tree, so every join merges two
    // components. A block whose first base tour offers no exchange tries other
    // closed tours of its size.
    for (i, &h) in row_bands.iter().enumerate() {
        let mut row: Vec<Rect> = Vec::with_capacity(col_bands.len());
        let mut c0 = 0;
        for (j, &w) in col_bands.iter().enumerate() {
            let rect = Rect { r0, c0, h, w };
            let is_path = !closed && Some(i) == odd_r && Some(j) == odd_c;
            let local_start = if is_path {
                ((sr - r0) * w + (sc - c0)) as u32
            } else {
                0
            };
            let base = base_tour(h, w, !is_path, local_start)?;
            cover.place(rect, &base, !is_path);
            let neighbour = if j > 0 {
                Some(row[j - 1])
            } else if i > 0 {
                Some(blocks[i - 1][0])
            } else {
                None
            };
            if let Some(a) = neighbour
                && !cover.join(a, rect)
            {
                let mut joined = false;
                if !is_path {
                    for alt in closed_candidates(h, w).iter().skip(1) {
                        cover.clear(rect);
                        cover.place(rect, alt, true);
                        if cover.join(a, rect) {
                            joined = true;
                            break;
                        }
                    }
                }
                if !joined {
                    return Some(Built::Failed(Outcome::JoinFailed, 0));
                }
            }
            row.push(rect);
            c0 += w;
        }
        blocks.push(row);
        r0 += h;
    }
    let tour = cover.walk(start)?;
    drop(cover);
    Some(Built::Tour(tour, "blocks"))
}

/// A closed tour of `3 x n` (`n` even, >= 10): a closed `3 x 10` or `3 x 12` block,
/// then `3 x 4` blocks spliced in one by one (Schwenk 1991's induction step).
fn build_three(n: usize, start: u32) -> Option<Built> {
    let w0 = if (n - 10).is_multiple_of(4) { 10 } else { 12 };
    let mut cover = Cover::new(3, n)?;
    let first = Rect {
        r0: 0,
        c0: 0,
        h: 3,
        w: w0,
    };
    cover.place(first, &base_tour(3, w0, true, 0)?, true);
    let mut prev = first;
    while prev.c0 + prev.w < n {
        let next = Rect {
            r0: 0,
            c0: prev.c0 + prev.w,
            h: 3,
            w: 4,
        };
        if !cover.insert_path(prev, next) {
            return Some(Built::Failed(Outcome::JoinFailed, 0));
        }
        prev = next;
    }
    Some(Built::Tour(cover.walk(start)?, "blocks"))
}

/// Up to 64 closed tours of an `h x w` board from square 0 (the first is
/// [`base_tour`]'s), for blocks whose first tour offers no exchange. Cached.
fn closed_candidates(h: usize, w: usize) -> Vec<Vec<u32>> {
    type Key = (usize, usize);
    static CACHE: OnceLock<Mutex<HashMap<Key, Vec<Vec<u32>>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = cache.lock().unwrap().get(&(h, w)) {
        return v.clone();
    }
    let board = Board::new(h, w).unwrap();
    let nb = Neighbours::new(board);
    let cfg = Config {
        order: Order::Warnsdorff,
        ties_only: false,
        forward_check: true,
        connectivity: false,
        closed: true,
        max_steps: BASE_MAX_STEPS,
    };
    let mut out: Vec<Vec<u32>> = Vec::new();
    Search::new(board, &nb, 0, cfg).for_each_tour(|p| {
        out.push(p.to_vec());
        out.len() < 64
    });
    cache.lock().unwrap().insert((h, w), out.clone());
    out
}

/// All Hamiltonian paths of an `h x w` board from `a`, one per end square:
/// `(end, path)` in local indices. Cached for the process.
fn paths_by_end(h: usize, w: usize, a: u32) -> Vec<(u32, Vec<u32>)> {
    type Key = (usize, usize, u32);
    type Paths = Vec<(u32, Vec<u32>)>;
    static CACHE: OnceLock<Mutex<HashMap<Key, Paths>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(v) = cache.lock().unwrap().get(&(h, w, a)) {
        return v.clone();
    }
    let board = Board::new(h, w).unwrap();
    let nb = Neighbours::new(board);
    let cfg = Config {
        order: Order::Clockwise,
        ties_only: false,
        forward_check: true,
        connectivity: false,
        closed: false,
        max_steps: BASE_MAX_STEPS,
    };
    let mut by_end: HashMap<u32, Vec<u32>> = HashMap::new();
    Search::new(board, &nb, a, cfg).for_each_tour(|p| {
        by_end
            .entry(*p.last().unwrap())
            .or_insert_with(|| p.to_vec());
        true
    });
    let mut v: Vec<(u32, Vec<u32>)> = by_end.into_iter().collect();
    v.sort();
    cache.lock().unwrap().insert((h, w, a), v.clone());
    v
}

/// An open tour of a thin `h x n` board (`h` = 3 or 4) from `start`, which must lie in
/// the first block: the board is cut into `h x w` blocks, each crossed by a Hamiltonian
/// path from an entry square to an exit square a knight move from the next block's
/// entry. Block widths and entries are chosen by dynamic programming from the right,
/// so it finds a chain whenever one of these widths exists. O(n) time.
fn build_thin(h: usize, n: usize, start: u32) -> Option<Vec<u32>> {
    let widths: &[usize] = if h == 4 {
        &[5, 6, 7, 8]
    } else {
        &[4, 7, 8, 9, 10]
    };
    let (sr, sc) = ((start as usize) / n, (start as usize) % n);
    // Entries into a block: local (r, c) with c in {0, 1}, numbered e = 2r + c.
    let entries = 2 * h;
    // For width index wi and entry e: whether some path crosses the block (for the last
    // block), and the next-block entries reachable through an exit.
    let mut any_path = vec![vec![false; entries]; widths.len()];
    let mut next: Vec<Vec<Vec<(u8, u32)>>> = vec![vec![Vec::new(); entries]; widths.len()];
    let exits_to_next = |w: usize, b: u32| -> Vec<u8> {
        let (br, bc) = ((b as usize / w) as i64, (b as usize % w) as i64);
        KNIGHT_OFFSETS
            .iter()
            .filter_map(|&(dr, dc)| {
                let (r, c) = (br + dr as i64, bc + dc as i64 - w as i64);
                (r >= 0 && (r as usize) < h && (0..2).contains(&c)).then(|| (2 * r + c) as u8)
            })
            .collect()
    };
    for (wi, &w) in widths.iter().enumerate() {
        for e in 0..entries {
            let a = ((e / 2) * w + e % 2) as u32;
            let paths = paths_by_end(h, w, a);
            any_path[wi][e] = !paths.is_empty();
            for (b, _) in &paths {
                for e2 in exits_to_next(w, *b) {
                    if !next[wi][e].iter().any(|x| x.0 == e2) {
                        next[wi][e].push((e2, *b));
                    }
                }
            }
        }
    }
    // ok[p][e]: columns p.. can be covered entering column block p at entry e.
    // choice[p][e] = (width index, exit b, next entry) or the last block.
    const NO: (u8, u32, u8) = (u8::MAX, 0, 0);
    let mut choice = vec![[NO; 8]; n + 1];
    let mut ok = vec![[false; 8]; n + 1];
    for p in (0..n).rev() {
        for e in 0..entries {
            for (wi, &w) in widths.iter().enumerate() {
                if p + w > n {
                    continue;
                }
                if p + w == n && any_path[wi][e] {
                    ok[p][e] = true;
                    choice[p][e] = (wi as u8, u32::MAX, 0);
                    break;
                }
                if let Some(&(e2, b)) = next[wi][e].iter().find(|x| ok[p + w][x.0 as usize]) {
                    ok[p][e] = true;
                    choice[p][e] = (wi as u8, b, e2);
                    break;
                }
            }
        }
    }
    // The first block starts at the start square itself.
    let mut plan: Vec<(usize, u32, u32)> = Vec::new(); // (width, entry, exit) per block
    let mut first = None;
    for &w in widths {
        if sc >= w || w > n {
            continue;
        }
        let a = (sr * w + sc) as u32;
        for (b, _) in paths_by_end(h, w, a) {
            if w == n {
                first = Some((w, a, b, None));
                break;
            }
            if let Some(e2) = exits_to_next(w, b)
                .into_iter()
                .find(|&e2| ok[w][e2 as usize])
            {
                first = Some((w, a, b, Some(e2)));
                break;
            }
        }
        if first.is_some() {
            break;
        }
    }
    let (w0, a0, b0, mut e) = first?;
    plan.push((w0, a0, b0));
    let mut p = w0;
    while let Some(en) = e {
        let (wi, b, e2) = choice[p][en as usize];
        let w = widths[wi as usize];
        let a = ((en as usize / 2) * w + en as usize % 2) as u32;
        let b = if b == u32::MAX {
            paths_by_end(h, w, a)[0].0
        } else {
            b
        };
        plan.push((w, a, b));
        p += w;
        e = (p < n).then_some(e2);
    }
    let mut tour = Vec::with_capacity(h * n);
    let mut c0 = 0;
    for (w, a, b) in plan {
        let paths = paths_by_end(h, w, a);
        let path = &paths.iter().find(|x| x.0 == b)?.1;
        tour.extend(path.iter().map(|&l| {
            let l = l as usize;
            ((l / w) * n + c0 + l % w) as u32
        }));
        c0 += w;
    }
    Some(tour)
}

/// Thin boards (a side of 3 or 4) without closed tours: chain blocks from the start;
/// a start near the far end runs the chain mirrored. Works in the `h x n` orientation.
fn build_thin_any(board: Board, start: u32) -> Option<Vec<u32>> {
    let (rows, cols) = (board.rows(), board.cols());
    let transpose = rows > cols;
    let (h, n) = if transpose {
        (cols, rows)
    } else {
        (rows, cols)
    };
    let (sr, sc) = board.coords(start);
    let (tr, tc) = if transpose { (sc, sr) } else { (sr, sc) };
    for mirror in [false, true] {
        let c = if mirror { n - 1 - tc } else { tc };
        if let Some(t) = build_thin(h, n, (tr * n + c) as u32) {
            return Some(
                t.into_iter()
                    .map(|s| {
                        let (r, c) = ((s as usize) / n, (s as usize) % n);
                        let c = if mirror { n - 1 - c } else { c };
                        let (r, c) = if transpose { (c, r) } else { (r, c) };
                        (r * cols + c) as u32
                    })
                    .collect(),
            );
        }
    }
    None
}

/// The whole construction for a request: blocks where they apply, else search.
fn construct(board: Board, closed: bool, start: u32) -> Built {
    let (rows, cols) = (board.rows(), board.cols());
    let n = board.squares();
    if n == 1 {
        return Built::Tour(vec![0], "trivial");
    }
    let has_closed = existence::closed_tour(board).exists;
    let (m, _) = (rows.min(cols), rows.max(cols));
    let use_closed = has_closed;
    // Blocks: both sides >= 5, or a 3-row/column board with a closed tour.
    if m >= 5 || (m == 3 && has_closed) {
        // Work on the orientation with 3 rows when the short side is 3 columns.
        let transpose = m == 3 && cols == 3;
        let (r, c) = if transpose {
            (cols, rows)
        } else {
            (rows, cols)
        };
        let (sr, sc) = board.coords(start);
        let tstart = if transpose { sc * c + sr } else { sr * c + sc } as u32;
        if (use_closed || (rows % 2 == 1 && cols % 2 == 1))
            && let Some(built) = build_blocks(r, c, use_closed, tstart)
        {
            return match built {
                Built::Tour(mut t, how) if transpose => {
                    for s in t.iter_mut() {
                        let (tr, tc) = ((*s as usize) / c, (*s as usize) % c);
                        *s = (tc * cols + tr) as u32;
                    }
                    Built::Tour(t, how)
                }
                other => other,
            };
        }
    }
    if m <= 4 && !(use_closed && closed) {
        if let Some(t) = build_thin_any(board, start) {
            return Built::Tour(t, "thin-blocks");
        }
        // 4 x n: no chain of block paths exists (every Hamiltonian path of a 4 x w
        // block starts and ends on an outer row, and a knight move from an outer row
        // lands on an inner one). Warnsdorff with random ties from fixed seeds
        // succeeds within a few attempts on the 4 x n boards measured (up to 4 x 1001).
        for seed in 0..THIN_WARNSDORFF_ATTEMPTS {
            let mut rng = crate::rng_from_seed(seed);
            let run = warnsdorff::run(board, start, TieBreak::Random, &mut rng);
            if run.complete(board) {
                return Built::Tour(run.path, "warnsdorff-random");
            }
        }
    }
    // Thin boards without closed tours, and odd starts the blocks cannot reach.
    if n > classical::MAX_SEARCH_SQUARES {
        return Built::Failed(Outcome::TooLargeForSearch, 0);
    }
    match search_tour(board, use_closed && closed, start, FALLBACK_MAX_STEPS) {
        (Some(t), _, _) => Built::Tour(t, "search"),
        (None, Stop::Budget, steps) => Built::Failed(Outcome::GaveUp, steps),
        (None, _, steps) => Built::Failed(Outcome::Exhausted, steps),
    }
}

/// The divide-and-conquer construction as a [`Solver`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DivideConquerSolver;

impl DivideConquerSolver {
    /// One closed tour of `board` from `start`, if the board has one (used by `circuit`).
    pub fn closed_tour(board: Board, start: u32) -> Option<Vec<u32>> {
        if !existence::closed_tour(board).exists {
            return None;
        }
        match construct(board, true, start) {
            Built::Tour(t, _) => Some(t),
            Built::Failed(..) | Built::OutOfMemory(_) => None,
        }
    }
}

/// What [`DivideConquerSolver::stream`] walked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Streamed {
    /// Squares visited (the board's area).
    pub squares: usize,
    /// Whether the tour is closed.
    pub closed: bool,
}

impl DivideConquerSolver {
    /// Walk the tour that [`Solver::solve`] returns for `req`, square by square,
    /// calling `visit(row, col)` in visiting order, without holding the tour: the
    /// cover is kept in compact form (`plan`), so memory is O(rows + cols) plus a
    /// few kilobytes of block tables, whatever the area.
    ///
    /// Supports boards with both sides at least 5 whose block layout applies (every
    /// such board from the corner; odd x odd boards from a start the odd block can be
    /// placed around); anything else is refused as bad input, naming the reason.
    ///
    /// Checks made on the way: each step is a knight move on the board (by
    /// construction), the walk visits exactly `rows * cols` squares, and a closed tour
    /// returns to its start. Repeats are not checked (that would need a bit per square);
    /// the tests check that the walk equals the oracle-validated tour of `solve`.
    pub fn stream(
        &self,
        req: &Request,
        visit: impl FnMut(usize, usize),
    ) -> Result<Streamed, crate::error::Error> {
        let board = req.board;
        classical::check_possible(req, classical::wants_closed(req))?;
        let (rows, cols) = (board.rows(), board.cols());
        if rows.min(cols) < 5 {
            return Err(InputError::unsupported(
                Refusal::new(format!(
                    "divide-conquer streams boards with both sides at least 5 (the block construction); {board} has a side of {}",
                    rows.min(cols)
                ))
                .about([Setting::of(Param::Stream)])
                .hint(Hint::Without(Param::Stream)),
            )
            .into());
        }
        let closed = existence::closed_tour(board).exists;
        let start = classical::start_square(req);
        let plan = compact_plan(rows, cols, closed, start).ok_or_else(|| {
            InputError::unsupported(
                Refusal::new(format!(
                    "the block construction does not cover the {board} board from {} (the whole tour falls back to search there)",
                    board.square_name(start)
                ))
                .about([Setting::of(Param::Stream)])
                .hint(Hint::Either(
                    Box::new(Hint::Without(Param::Stream)),
                    Box::new(Hint::Drop(Param::Start)),
                )),
            )
        })?;
        if req.reverse && !closed && req.start.is_some() {
            // The same refusal as `Solution::apply_start` for an open tour.
            return Err(InputError::param(format!(
                "the divide-conquer tour cannot be started at {} in that direction",
                board.square_name(start)
            ))
            .into());
        }
        let (sr, sc) = board.coords(start);
        let walked = plan.walk((sr, sc), req.reverse && closed, &mut Each(visit));
        match walked {
            Some((n, cycle)) if n == board.squares() && cycle == closed => {
                Ok(Streamed { squares: n, closed })
            }
            other => Err(crate::error::Error::Internal(format!(
                "the divide-conquer walk on {board} ended after {:?} squares (cycle {:?}), expected {} squares and cycle {closed}",
                other.map(|o| o.0),
                other.map(|o| o.1),
                board.squares()
            ))),
        }
    }
}

impl Solver for DivideConquerSolver {
    fn name(&self) -> SolverName {
        super::classical_name("divide-conquer", None)
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        classical::check_possible(req, classical::wants_closed(req))?;
        let bytes = req.board.squares() as u64 * BYTES_PER_SQUARE;
        crate::graph::check_bytes(req.board, bytes, "divide-conquer")
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let closed = classical::wants_closed(req);
        let start = classical::start_square(req);
        let mut method = None;
        let (squares, outcome, steps) = match construct(req.board, closed, start) {
            Built::Tour(t, how) => {
                method = Some(how);
                (Some(t), Outcome::Tour, None)
            }
            Built::Failed(why, steps) => (None, why, Some(steps)),
            Built::OutOfMemory(e) => return Err(e.into()),
        };
        classical::finish(
            self.name(),
            req,
            squares,
            Report {
                outcome,
                attempts: 1,
                steps,
                facts: Facts::DivideConquer(DivideConquerFacts { method }),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_split_into_bands() {
        for n in 5..200 {
            let (b, odd) = split_side(n, None).unwrap();
            assert_eq!(b.iter().sum::<usize>(), n);
            assert!(b.iter().all(|&x| (5..=10).contains(&x)));
            assert_eq!(odd.is_some(), n % 2 == 1);
        }
        assert_eq!(split_even(12), vec![6, 6]);
    }

    /// The compact cover's walk from `start`, as square indices.
    fn compact_tour(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Vec<u32>> {
        let plan = compact_plan(rows, cols, closed, start)?;
        let mut t = Vec::new();
        let s = start as usize;
        plan.walk(
            (s / cols, s % cols),
            false,
            &mut Each(|r, c| t.push((r * cols + c) as u32)),
        )?;
        Some(t)
    }

    fn cover_tour(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Vec<u32>> {
        match build_blocks_cover(rows, cols, closed, start)? {
            Built::Tour(t, _) => Some(t),
            Built::Failed(..) | Built::OutOfMemory(_) => None,
        }
    }

    #[test]
    fn compact_cover_walks_the_same_tour_as_the_square_by_square_cover() {
        // Every band pair meets in 5..=36; odd x odd boards also from a middle square
        // of the corners' colour (the odd block then sits inside the board).
        let mut boards: Vec<(usize, usize)> = Vec::new();
        for m in 5..=36 {
            for n in 5..=36 {
                boards.push((m, n));
            }
        }
        boards.extend([(100, 100), (101, 103), (98, 131), (250, 7), (9, 250)]);
        for (m, n) in boards {
            let board = Board::new(m, n).unwrap();
            let closed = existence::closed_tour(board).exists;
            let mut starts = vec![0u32];
            if !closed {
                let (r, c) = (m / 2, n / 2 - (m / 2 + n / 2) % 2);
                starts.push(board.index(r, c));
            }
            for start in starts {
                let reference = cover_tour(m, n, closed, start);
                let compact = compact_tour(m, n, closed, start);
                if reference.is_none() {
                    // Only odd starts the odd block cannot be placed around.
                    assert!(!closed && start != 0, "{m}x{n}");
                    assert!(compact.is_none(), "{m}x{n} from {start}");
                    continue;
                }
                // The compact form models every join on these boards.
                let compact = compact.unwrap_or_else(|| panic!("{m}x{n} from {start}"));
                assert_eq!(Some(&compact), reference.as_ref(), "{m}x{n} from {start}");
                assert_eq!(crate::tour::validate(board, &compact, closed), Ok(()));
            }
        }
    }

    #[test]
    fn compact_plan_memory_does_not_grow_with_the_area() {
        // Plans only (no walk): the tables and shared row chains do not depend on the
        // area. 10^5 x 10^5 is 10^10 squares; its plan is a few megabytes, most of it
        // the per-row and per-column band indices.
        let small = compact_plan(1000, 1000, true, 0).unwrap();
        let huge = compact_plan(100_000, 100_000, true, 0).unwrap();
        assert!(huge.chain_count() <= small.chain_count() + 8);
        assert!(huge.heap_bytes() < 4 << 20, "{}", huge.heap_bytes());
        // Linear in the side: 100x the side costs well under 100^2 x the memory.
        assert!(huge.heap_bytes() < 200 * small.heap_bytes());
        let odd = compact_plan(99_999, 100_001, false, 0).unwrap();
        assert!(odd.heap_bytes() < 4 << 20, "{}", odd.heap_bytes());
    }
}

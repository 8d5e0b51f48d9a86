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
//!    bands. A `3 x n` board (closed tours exist for even `n >= 10`, Schwenk 1991) is cut
//!    into `3 x 10 .. 3 x 18` blocks.
//! 2. Every block whose sides are not both odd gets a closed base tour; when both sides
//!    of the board are odd (no closed tour, Schwenk), the one odd x odd block gets an
//!    open base tour instead, placed so that it contains the requested start square and
//!    starting there. Base tours are found once per process by this crate's own search
//!    ([`super::search`], Warnsdorff order with forward checking) and cached.
//! 3. Blocks are joined along a spanning tree (left to right within a row of blocks,
//!    then each row's first block to the row above). To join components `A` and `B`
//!    across their shared side, it looks for a tour edge `x1-y1` of `A` and `x2-y2` of
//!    `B` with `x1-x2` and `y1-y2` knight moves, removes the two edges and adds the two
//!    moves: two cycles become one cycle, and a path plus a cycle one path with the same
//!    ends. This is Parberry's joining step, but the exchange is found by a local scan of
//!    the current edges near the boundary instead of being fixed by "structured" base
//!    tours; every board size is covered by the tests, and a missing exchange would be
//!    reported as the outcome `join-failed`, never as a wrong tour.
//! 4. The result is walked from the start square (the corner `(0,0)` by default) and
//!    checked by the oracle.
//!
//! Guarantees: a closed tour on every board with `min(m, n) >= 5` and `mn` even, and on
//! `3 x n` for even `n >= 10` (that is, every board with a closed tour, by Schwenk's
//! theorem); an open tour from any corner-coloured start on boards with both sides odd
//! and at least 5 (when the odd block cannot be placed around the start, search is used,
//! see below). Open tours on boards with a side of 3 or 4 and no closed tour (`4 x n`,
//! `3 x n` odd or 4 or 8) are found by the same search as the base tours with a step
//! budget (outcome `gave-up` if it runs out; no linear-time guarantee there).
//!
//! Complexity: O(mn) time; 8 bytes per square for the cover plus 8 for the tour and the
//! oracle, so 10000 x 10000 takes about 1.6 GB. No knight graph is built.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde_json::json;

use super::classical::{self, Report};
use super::search::{Config, Neighbours, Order, Search, Stop};
use super::{Request, Solution, Solver};
use crate::board::{Board, KNIGHT_OFFSETS};
use crate::error::InputError;
use crate::existence;
use crate::Rng;

const NONE: u32 = u32::MAX;

/// Bytes per square the construction plans (cover 8, tour 4, oracle 4).
const BYTES_PER_SQUARE: u64 = 16;

/// Step budget of the searches for base tours and thin boards.
const BASE_MAX_STEPS: u64 = 200_000_000;

type BaseKey = (usize, usize, bool, u32);

fn base_cache() -> &'static Mutex<HashMap<BaseKey, Option<Vec<u32>>>> {
    static CACHE: OnceLock<Mutex<HashMap<BaseKey, Option<Vec<u32>>>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// A tour of an `h x w` board (local row-major indices) from `start`, closed or open,
/// found by Warnsdorff-ordered search with forward checking and cached for the process.
pub fn base_tour(h: usize, w: usize, closed: bool, start: u32) -> Option<Vec<u32>> {
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
    n % 2 == 0 && (n == 0 || n >= 6)
}

/// Cut a side `n >= 5` into bands; an odd side gets one odd band (5, 7 or 9) which,
/// when `target` is given, covers that coordinate. Returns the bands and the index of
/// the odd band, or `None` if the odd band cannot be placed around `target`.
fn split_side(n: usize, target: Option<usize>) -> Option<(Vec<usize>, Option<usize>)> {
    if n % 2 == 0 {
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

/// Cut the long side of a 3-row board (even, >= 10) into widths 10..=18.
fn split_three(n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut n = n;
    while n > 18 {
        out.push(10);
        n -= 10;
    }
    out.push(n);
    out
}

/// The cover under construction: each square's two tour neighbours (`NONE` at the ends
/// of the one path, if any).
struct Cover {
    rows: usize,
    cols: usize,
    nbr: Vec<[u32; 2]>,
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
    fn new(rows: usize, cols: usize) -> Cover {
        Cover {
            rows,
            cols,
            nbr: vec![[NONE; 2]; rows * cols],
        }
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

    fn link(&mut self, a: u32, b: u32) {
        for (p, q) in [(a, b), (b, a)] {
            let slot = &mut self.nbr[p as usize];
            if slot[0] == NONE {
                slot[0] = q;
            } else {
                slot[1] = q;
            }
        }
    }

    fn replace(&mut self, at: u32, old: u32, new: u32) {
        let slot = &mut self.nbr[at as usize];
        if slot[0] == old {
            slot[0] = new;
        } else {
            debug_assert_eq!(slot[1], old);
            slot[1] = new;
        }
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
            self.link(a, b);
        }
        if closed {
            let (a, b) = (map(local[local.len() - 1]), map(local[0]));
            self.link(a, b);
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
                    for y1 in self.nbr[x1 as usize] {
                        if y1 == NONE {
                            continue;
                        }
                        for y2 in self.nbr[x2 as usize] {
                            if y2 != NONE && self.knight(y1, y2) {
                                self.replace(x1, y1, x2);
                                self.replace(y1, x1, y2);
                                self.replace(x2, y2, x1);
                                self.replace(y2, x2, y1);
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
        let n = self.rows * self.cols;
        let mut out = Vec::with_capacity(n);
        let mut prev = NONE;
        let mut cur = start;
        loop {
            out.push(cur);
            if out.len() > n {
                return None;
            }
            let [p, q] = self.nbr[cur as usize];
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
    Failed(&'static str, u64),
}

/// Build by blocks on a `rows x cols` board (both sides >= 5, or 3 x even >= 10).
/// `closed`: all blocks closed; else both sides odd and the odd block holds `start`.
fn build_blocks(rows: usize, cols: usize, closed: bool, start: u32) -> Option<Built> {
    let (sr, sc) = ((start as usize) / cols, (start as usize) % cols);
    let (row_bands, odd_r, col_bands, odd_c) = if rows == 3 {
        (vec![3], None, split_three(cols), None)
    } else {
        let target = |t| (!closed).then_some(t);
        let (rb, oi) = split_side(rows, target(sr))?;
        let (cb, oj) = split_side(cols, target(sc))?;
        (rb, oi, cb, oj)
    };
    let mut cover = Cover::new(rows, cols);
    let mut blocks: Vec<Vec<Rect>> = Vec::with_capacity(row_bands.len());
    let mut r0 = 0;
    for (i, &h) in row_bands.iter().enumerate() {
        let mut row = Vec::with_capacity(col_bands.len());
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
            row.push(rect);
            c0 += w;
        }
        blocks.push(row);
        r0 += h;
    }
    for i in 0..blocks.len() {
        for j in 1..blocks[i].len() {
            if !cover.join(blocks[i][j - 1], blocks[i][j]) {
                return Some(Built::Failed("join-failed", 0));
            }
        }
        if i > 0 && !cover.join(blocks[i - 1][0], blocks[i][0]) {
            return Some(Built::Failed("join-failed", 0));
        }
    }
    let tour = cover.walk(start)?;
    drop(cover);
    Some(Built::Tour(tour, "blocks"))
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
        if use_closed || (rows % 2 == 1 && cols % 2 == 1) {
            if let Some(built) = build_blocks(r, c, use_closed, tstart) {
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
    }
    let _ = closed;
    // Thin boards without closed tours, and odd starts the blocks cannot reach.
    if n > classical::MAX_SEARCH_SQUARES {
        return Built::Failed("too-large-for-search", 0);
    }
    match search_tour(board, use_closed && closed, start, BASE_MAX_STEPS) {
        (Some(t), _, _) => Built::Tour(t, "search"),
        (None, Stop::Budget, steps) => Built::Failed("gave-up", steps),
        (None, _, steps) => Built::Failed("exhausted", steps),
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
            Built::Failed(..) => None,
        }
    }
}

impl Solver for DivideConquerSolver {
    fn name(&self) -> String {
        "divide-conquer".into()
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        classical::check_possible(req, classical::wants_closed(req))?;
        let bytes = req.board.squares() as u64 * BYTES_PER_SQUARE;
        if bytes > crate::graph::MEMORY_LIMIT_BYTES {
            return Err(InputError::TooLarge(format!(
                "board {} is too large for divide-conquer: it would need about {:.1} GiB, and the limit is {} GiB",
                req.board,
                bytes as f64 / (1u64 << 30) as f64,
                crate::graph::MEMORY_LIMIT_BYTES >> 30
            )));
        }
        Ok(())
    }

    fn solve(&self, req: &Request, _rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let closed = classical::wants_closed(req);
        let start = classical::start_square(req);
        let mut extra = serde_json::Map::new();
        let (squares, outcome, steps) = match construct(req.board, closed, start) {
            Built::Tour(t, how) => {
                extra.insert("method".into(), json!(how));
                (Some(t), "tour".to_string(), None)
            }
            Built::Failed(why, steps) => (None, why.to_string(), Some(steps)),
        };
        classical::finish(
            "divide-conquer",
            None,
            req,
            squares,
            Report {
                outcome,
                attempts: 1,
                steps,
                extra,
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
        assert_eq!(split_three(38), vec![10, 10, 18]);
    }
}

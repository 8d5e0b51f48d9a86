//! Counting Hamiltonian cycles, Hamiltonian paths and 2-factors of the knight's graph
//! by a transfer-matrix ("frontier") dynamic program, square by square.
//!
//! The method is the one of frontier-based search (the "simpath"/"dynabidiham" family
//! of Knuth, and of ZDD frontier methods): order the squares, decide the edges of each
//! square towards earlier squares when that square is processed, and keep, for every
//! partial choice, only what the future needs to know. Partial choices that agree on it
//! are merged and their numbers added.
//!
//! **Order.** The board is processed row by row along its narrow side (width
//! `w = min(rows, cols)`, the board transposed if needed). A knight move spans at most
//! `2w + 1` squares in this order, so after square `x` only the squares
//! `x - 2w ..= x` can still receive edges: the frontier is a window of `P = 2w + 1`
//! squares (two rows and one square).
//!
//! **State.** For each window square a 4-bit code: `0` degree 0 so far; `1` finished
//! (degree 2, or retired, or off the board); `2` degree 1, the end of a path whose other
//! end is a retired path end (a "terminal", open tours only); `3..` degree 1, the end of
//! a path whose other end is the window square with the same label. Labels are
//! renumbered in order of first appearance, so equal situations get equal keys. Two
//! more fields: the number of terminals (0..=2, open tours) and one flag (the cycle was
//! closed / the path completed). The key packs it all into a `u128` (`4P + 3` bits,
//! so `w <= 13`); counts are `u128` with overflow checked.
//!
//! **Rules.** A square takes at most 2 edges (1 for a fixed start of an open tour).
//! Joining the two ends of one path closes a cycle: for a Hamiltonian cycle this is
//! allowed only at the last square (every square must be on it), for a path never.
//! A square leaves the window ("retires") after its last later neighbour was processed;
//! it must then have degree 2, or for open tours degree 1 as one of at most two
//! terminals; the second terminal of one path completes it, allowed only at the last
//! square. For 2-factors only the degrees matter (cycles may close anywhere), so the
//! labels are not kept.
//!
//! **Open tours** are counted directly as Hamiltonian paths with the terminal rule
//! above, rather than as cycles of the board plus an extra vertex joined to every
//! square: that extra vertex would be a neighbour of every square and stay in the
//! frontier with its degree and its path label, which is what the terminal count
//! encodes more cheaply. A fixed start is a square forced to be a terminal.
//!
//! **Cost.** Each square costs (number of states) x (at most 11 edge subsets) x O(w).
//! The number of states grows roughly geometrically with `w` and hardly with the
//! board's length; `knightnet count --profile-rows K` prints it per square.
//! The states are held in partitions by hash of the packed state; one worker per thread
//! (rayon) takes the partitions to expand one at a time, keeps their successors in lists
//! by partition, and the partitions are then summed one by one (the crate's
//! `count::table`).
//! [`super::split`] runs this program on two parts of the board and joins them.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::table::{self, Emitted, Failed, Key, Partitions, Shard, Tally};
use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal};

/// What the dynamic program counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quantity {
    /// Hamiltonian cycles (undirected closed tours).
    Cycles,
    /// Hamiltonian paths (undirected open tours), optionally with an end on `start`.
    Paths,
    /// 2-factors: spanning subgraphs with every square of degree 2 (disjoint cycles).
    TwoFactors,
}

/// Widest narrow side the packed key holds.
pub(crate) const MAX_WIDTH: usize = 13;

/// Largest window (the largest span of an edge in the processing order) the packed key
/// holds: `4p + 3` bits of a `u128`, with at most 13 path labels (codes 3 to 15) among
/// its squares; the knight's window `2w + 1` at narrow side 13.
pub const MAX_WINDOW: usize = 2 * MAX_WIDTH + 1;

/// The knight's moves towards earlier squares, then towards later ones, as (row, column)
/// steps in the processing order (rows along the narrow side).
const KNIGHT: [(i64, i64); 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (2, 1),
    (2, -1),
    (1, 2),
    (1, -2),
];

/// The window a graph numbered in processing order needs: the largest `y - x` over its
/// edges (at least 1). A square's edges to earlier squares are decided when it is
/// processed, so the squares that can still receive one are the last `window` processed.
pub fn window(neighbours: &[Vec<usize>]) -> usize {
    neighbours
        .iter()
        .enumerate()
        .flat_map(|(x, nb)| nb.iter().map(move |&y| y.abs_diff(x)))
        .max()
        .unwrap_or(0)
        .max(1)
}

/// Bytes of memory per frontier state used by the estimate and the check after each
/// square, with 64-bit keys (widths up to 8): at the largest square the states before it
/// (16 bytes each, freed as they are expanded) are held beside the successors made
/// from them, about twice the states after it, at 16 bytes each in blocks
/// ([`super::table`]). Measured: 8x8 closed peaks at 6.1 GB resident for 166,873,599
/// states (38 bytes a state, the split's join entries included; `/usr/bin/time -v
/// knightnet count --board 8x8 --closed`), so 64 is an upper estimate. 128-bit keys
/// (widths 9 to 13) take twice that.
pub(crate) const BYTES_PER_STATE: u64 = 64;

/// [`BYTES_PER_STATE`] for a board of narrow side `w`.
pub(crate) fn bytes_per_state(w: usize) -> u64 {
    bytes_per_window_state(2 * w + 1)
}

/// [`BYTES_PER_STATE`] for a window of `p` squares.
fn bytes_per_window_state(p: usize) -> u64 {
    if <u64 as Key>::fits(p) {
        BYTES_PER_STATE
    } else {
        2 * BYTES_PER_STATE
    }
}

/// A request to the dynamic program: what to count on which board, and its budgets.
/// [`run`] and [`super::split::run`] take it.
#[derive(Debug, Clone, Copy)]
pub struct FrontierRequest {
    /// The board (processed along its narrow side, transposed if needed).
    pub board: Board,
    /// What to count.
    pub quantity: Quantity,
    /// For [`Quantity::Paths`]: count only paths with an end on this square.
    pub start: Option<u32>,
    /// Stop (incomplete) before a square whose transitions would take the total over this
    /// (`u64::MAX`: no budget; the memory bounds the work).
    pub max_transitions: u64,
    /// Refuse ([`InputError::TooLarge`]) when the states would need more than this many
    /// bytes. Whatever it is, the memory the process may really use
    /// ([`crate::memory::limit`]) bounds them too ([`InputError::OutOfMemory`]); `u64::MAX`
    /// leaves that bound alone.
    pub max_memory: u64,
    /// Process only the first this many rows (of the narrow-side order), to profile.
    pub rows_limit: Option<usize>,
}

/// Progress after a square.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Squares processed so far (of both parts, for the split).
    pub done: usize,
    /// Squares to process in all.
    pub squares: usize,
    /// Frontier states held after the last square.
    pub states: usize,
}

/// The outcome of a run of the dynamic program ([`run`], [`super::split::run`]).
#[derive(Debug, Clone, Serialize)]
pub struct FrontierRun {
    /// The count, when the whole board was processed.
    pub count: Option<u128>,
    /// Whether every square was processed (false: budget or `rows_limit`).
    pub complete: bool,
    /// State transitions made (the work).
    pub transitions: u64,
    /// Largest number of frontier states held after any square.
    pub peak_states: usize,
    /// Number of states after each processed square (in processing order).
    pub states: Vec<usize>,
    /// The processing order's width: the board's narrow side.
    pub width: usize,
    /// The processing order's length: the board's long side (rows of `width` squares).
    pub length: usize,
    /// Pairs of states checked by the join ([`super::split`]; 0 for the frontier method).
    pub pairs_joined: u64,
}

/// The geometry of the processing order, precomputed.
pub(super) struct Plan {
    quantity: Quantity,
    /// The narrow side.
    w: usize,
    /// Window size `2w + 1`.
    p: usize,
    n: usize,
    /// Backward neighbours of each square, as working-window positions.
    back: Vec<Vec<usize>>,
    /// Working-window positions retiring after each square.
    retire: Vec<Vec<usize>>,
    /// The fixed terminal, as an index in processing order.
    start: Option<usize>,
    /// The square after which the fixed terminal retires.
    start_last: usize,
    /// After each square: per stored window position, the number of edges its square
    /// can still receive (its neighbours not processed yet; 0 off the board).
    future: Vec<Vec<u8>>,
    /// After each square: the window positions (bit `q` for position `q` of the window
    /// after the square) whose degree class an edge choice at the square can change:
    /// its backward neighbours, the square itself and the squares retiring. Every other
    /// position keeps its code, or a path label becomes another label or a terminal's
    /// end, which needs what a label needs.
    touched: Vec<u32>,
    /// After each square: what the squares no edge choice touches must not be, as
    /// masks of the key's nibbles (see [`Untouched`]).
    untouched: Vec<Untouched>,
    /// Whether a state after a row's last square is merged with its mirror image (see
    /// [`Plan::canonical`]): on unless a fixed start breaks the left-right symmetry.
    mirror: bool,
}

/// The narrow-side width and the processing index of board square `s`.
fn order(board: Board) -> (usize, usize, bool) {
    let transposed = board.cols() > board.rows();
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    (w, h, transposed)
}

fn processing_index(board: Board, s: u32) -> usize {
    let (w, _, transposed) = order(board);
    let (r, c) = board.coords(s);
    if transposed { c * w + r } else { r * w + c }
}

impl Plan {
    pub(super) fn new(board: Board, quantity: Quantity, start: Option<u32>) -> Plan {
        let (w, h, _) = order(board);
        let n = w * h;
        let idx = |r: i64, c: i64| -> Option<usize> {
            (r >= 0 && c >= 0 && (r as usize) < h && (c as usize) < w)
                .then(|| r as usize * w + c as usize)
        };
        let neighbours = (0..n)
            .map(|x| {
                let (r, c) = ((x / w) as i64, (x % w) as i64);
                KNIGHT
                    .iter()
                    .filter_map(|&(dr, dc)| idx(r + dr, c + dc))
                    .collect()
            })
            .collect::<Vec<Vec<usize>>>();
        Plan::from_neighbours(
            quantity,
            w,
            2 * w + 1,
            &neighbours,
            start.map(|s| processing_index(board, s)),
            start.is_none() && w >= 3,
        )
    }

    /// The plan of any graph whose vertices are numbered `0..n` in processing order:
    /// `neighbours[x]` lists the neighbours of `x` (in any order), every edge spanning at
    /// most `p` (the window: [`window`] of the same lists); `w` is the length of a
    /// processing row (what [`FrontierRun::width`] reports, and the row ends a `mirror`
    /// merges after: only for the knight's rectangle, whose rows are symmetric).
    pub(super) fn from_neighbours(
        quantity: Quantity,
        w: usize,
        p: usize,
        neighbours: &[Vec<usize>],
        start: Option<usize>,
        mirror: bool,
    ) -> Plan {
        let n = neighbours.len();
        debug_assert!(p >= window(neighbours) && p <= MAX_WINDOW);
        let mut back = vec![Vec::new(); n];
        let mut last = vec![0usize; n];
        for (x, nb) in neighbours.iter().enumerate() {
            let mut earlier: Vec<usize> = nb.iter().copied().filter(|&u| u < x).collect();
            earlier.sort_unstable();
            back[x] = earlier.into_iter().map(|u| u + p - x).collect();
            last[x] = nb.iter().copied().filter(|&y| y > x).max().unwrap_or(x);
        }
        let mut retire = vec![Vec::new(); n];
        for u in 0..n {
            retire[last[u]].push(u + p - last[u]);
        }
        for r in &mut retire {
            r.sort_unstable();
        }
        let future = (0..n)
            .map(|x| {
                (0..p)
                    .map(|q| {
                        let Some(u) = (x + q).checked_sub(p - 1) else {
                            return 0;
                        };
                        neighbours[u].iter().filter(|&&y| y > x).count() as u8
                    })
                    .collect()
            })
            .collect();
        let touched = (0..n)
            .map(|x| {
                back[x]
                    .iter()
                    .chain(&retire[x])
                    .chain([&p])
                    .filter(|&&pos| pos >= 1)
                    .fold(0u32, |m, &pos| m | 1 << (pos - 1))
            })
            .collect();
        let mut plan = Plan {
            quantity,
            w,
            p,
            n,
            back,
            retire,
            start,
            start_last: start.map_or(0, |s| last[s]),
            future,
            touched,
            untouched: Vec::new(),
            mirror,
        };
        plan.untouched = plan.untouched_masks();
        plan
    }

    /// [`Plan::untouched`] from the plan's `future` and `touched`.
    fn untouched_masks(&self) -> Vec<Untouched> {
        (0..self.n)
            .map(|x| {
                let mut u = Untouched::default();
                // Window position q after square x is the key's nibble q + 1 before it;
                // the last position (the square itself) is always touched.
                for q in (0..self.p - 1).filter(|q| self.touched[x] >> q & 1 == 0) {
                    let f = self.future[x][q];
                    let bit = 1u128 << (4 * (q + 1));
                    let (need_zero, bound) = self.need(x, q, 0);
                    // Codes 2 and above (path ends) need what a label needs.
                    let (need_label, _) = self.need(x, q, 3);
                    if need_zero > f {
                        u.dead_zero |= bit;
                    }
                    if need_label > f {
                        u.dead_label |= bit;
                    }
                    if bound {
                        u.bound |= bit;
                    }
                }
                u
            })
            .collect()
    }

    /// The plan of a board's lower part as [`super::split`] grows it: squares from
    /// `boundary` on (the two output rows) take edges only to squares before `boundary`,
    /// never retire, and are never pruned for lack of neighbours (what they still need
    /// comes from the other part).
    pub(super) fn output_from(mut self, boundary: usize) -> Plan {
        let p = self.p;
        for x in boundary..self.n {
            self.back[x].retain(|&pu| pu + x - p < boundary);
            self.retire[x].retain(|&pr| pr + x - p < boundary);
        }
        for (x, fut) in self.future.iter_mut().enumerate() {
            for (q, f) in fut.iter_mut().enumerate() {
                if (x + q)
                    .checked_sub(self.p - 1)
                    .is_some_and(|u| u >= boundary)
                {
                    *f = 2;
                }
            }
        }
        self.untouched = self.untouched_masks();
        self
    }

    /// Number of edges decided while processing the first `squares` squares.
    #[cfg(test)]
    pub(super) fn edges_decided(&self, squares: usize) -> usize {
        self.back[..squares].iter().map(Vec::len).sum()
    }

    /// The narrow side and the window size.
    pub(super) fn width(&self) -> (usize, usize) {
        (self.w, self.p)
    }

    fn initial(&self) -> u128 {
        // Every window square "finished": the squares before the board.
        let mut k = 0u128;
        for i in 0..self.p {
            k |= 1u128 << (4 * i);
        }
        k
    }

    /// Whether the states after square `x` are merged with their mirror images: after the
    /// last square of every row but the board's last.
    fn merges_mirrors(&self, x: usize) -> bool {
        self.mirror && (x + 1).is_multiple_of(self.w) && x + 1 < self.n
    }

    /// The state `key` after a row's last square, or its left-right mirror image,
    /// whichever packs smaller.
    ///
    /// After the last square of row `r` the window holds square `(r - 2, w - 1)`, retired,
    /// then rows `r - 1` and `r` whole; what is left of the board (the rows below) is
    /// symmetric under the left-right mirror, so a state and its mirror image have the
    /// same number of completions, and one of them can carry both counts. This roughly
    /// halves the states at row ends and the states grown from them.
    fn canonical(&self, key: u128) -> u128 {
        key.min(self.mirror_image(key))
    }

    /// The left-right mirror image of a state after a row's last square.
    pub(super) fn mirror_image(&self, key: u128) -> u128 {
        let (p, w) = (self.p, self.w);
        let mut c = decode(key, p);
        debug_assert_eq!(c[0], 1, "the square before the two rows has retired");
        c[1..=w].reverse();
        c[w + 1..=2 * w].reverse();
        let terminals = ((key >> (4 * p)) & 3) as u8;
        let flag = (key >> self.flag_bit()) & 1 == 1;
        self.encode(&c[..p], terminals, flag)
    }

    fn flag_bit(&self) -> u32 {
        4 * self.p as u32 + 2
    }

    /// The most edges square `x` takes: 1 for the fixed start of an open tour, else 2.
    fn max_degree(&self, x: usize) -> u32 {
        if self.start == Some(x) { 1 } else { 2 }
    }

    /// The edge subsets each state tries at square `x`, the work measure
    /// [`FrontierRun::transitions`] counts: every subset of the square's backward edges
    /// that its degree allows. [`Plan::expand`] passes over the subsets a state rules out
    /// at once (an edge to a finished square, a dead square no edge touches) without
    /// building them; they count all the same, so the work per square does not depend
    /// on the states.
    fn subsets(&self, x: usize) -> u64 {
        let k = self.back[x].len() as u64;
        1 + k
            + if self.max_degree(x) == 2 {
                k * k.saturating_sub(1) / 2
            } else {
                0
            }
    }

    /// Expand one state at square `x`; `emit` receives each successor key.
    fn expand(&self, x: usize, key: u128, emit: &mut impl FnMut(u128)) {
        let p = self.p;
        let codes = decode(key, p);
        let terminals = ((key >> (4 * p)) & 3) as u8;
        let flag = (key >> self.flag_bit()) & 1 == 1;
        let back = &self.back[x];
        let last = x + 1 == self.n;
        // Window position of the fixed start, if it is in the working window.
        let start_pos = self
            .start
            .and_then(|s| (s <= x && s + p >= x).then(|| s + p - x));
        let max_deg_x = self.max_degree(x);
        // The squares no subset touches must be viable as they are (see `Plan::need`):
        // checked on the key's nibbles all at once.
        let ones = NIBBLE_ONES & ((1u128 << (4 * p)) - 1);
        let any_bit = |y: u128| {
            let t = y | y >> 1;
            (t | t >> 2) & ones
        };
        let nonzero = any_bit(key);
        let zero = !nonzero & ones;
        let finished = !any_bit(key ^ ones) & ones;
        let label = nonzero & !finished;
        let u = &self.untouched[x];
        if zero & u.dead_zero != 0 || label & u.dead_label != 0 {
            return;
        }
        let forced = u32::from(self.start_pending(x)) + (zero & u.bound).count_ones();
        // Backward neighbours that can take an edge: not finished, and a fixed start
        // only while it has none. No edge of a subset changes this for another.
        let usable = back.iter().enumerate().fold(0u32, |m, (i, &pu)| {
            let a = codes[pu];
            let ok = a != 1 && !(start_pos == Some(pu) && a != 0);
            m | u32::from(ok) << i
        });
        // Every subset of `usable`, in increasing order.
        let mut mask = 0u32;
        loop {
            if mask.count_ones() <= max_deg_x {
                self.try_subset(
                    x,
                    mask,
                    &codes,
                    (terminals, flag, last),
                    start_pos,
                    forced,
                    emit,
                );
            }
            mask = mask.wrapping_sub(usable) & usable;
            if mask == 0 {
                break;
            }
        }
    }

    /// Build the successor of the state `codes` for the edges `mask` of square `x`'s
    /// backward edges, and emit it if every rule holds; `forced` is the terminals the
    /// untouched squares already force.
    #[allow(clippy::too_many_arguments)]
    fn try_subset(
        &self,
        x: usize,
        mask: u32,
        codes: &[u8; CODES],
        (terminals, flag, last): (u8, bool, bool),
        start_pos: Option<usize>,
        forced: u32,
        emit: &mut impl FnMut(u128),
    ) {
        let p = self.p;
        let mut c = *codes;
        let mut st = Step {
            terminals,
            flag,
            fresh: 16,
            last,
        };
        let ok = self.back[x]
            .iter()
            .enumerate()
            .filter(|(i, _)| mask >> i & 1 == 1)
            .all(|(_, &pu)| self.join(&mut c, pu, p, start_pos, &mut st))
            && self.retire[x]
                .iter()
                .all(|&pr| self.retire_one(&mut c, pr, start_pos, &mut st));
        if !ok {
            return;
        }
        debug_assert_eq!(c[0], 1, "square leaving the window was not retired");
        let mut forced = forced + u32::from(st.terminals);
        let mut touched = self.touched[x];
        while touched != 0 {
            let q = touched.trailing_zeros() as usize;
            touched &= touched - 1;
            let (need, end) = self.need(x, q, c[q + 1]);
            if need > self.future[x][q] {
                return;
            }
            forced += u32::from(end);
        }
        if self.quantity == Quantity::Paths && forced > 2 {
            return;
        }
        emit(self.encode(&c[1..=p], st.terminals, st.flag));
    }

    fn join(
        &self,
        c: &mut [u8],
        pu: usize,
        px: usize,
        start_pos: Option<usize>,
        st: &mut Step,
    ) -> bool {
        let (a, b) = (c[pu], c[px]);
        if a == 1 || b == 1 {
            return false;
        }
        if start_pos == Some(pu) && a != 0 {
            return false;
        }
        if self.quantity == Quantity::TwoFactors {
            c[pu] = if a == 0 { 3 } else { 1 };
            c[px] = if b == 0 { 3 } else { 1 };
            return true;
        }
        let other = |c: &[u8], label: u8, not: usize| {
            (0..c.len())
                .find(|&q| q != not && c[q] == label)
                .expect("every path label appears twice in the window")
        };
        match (a, b) {
            (0, 0) => {
                c[pu] = st.fresh;
                c[px] = st.fresh;
                st.fresh += 1;
            }
            (0, b) => {
                c[pu] = b;
                c[px] = 1;
            }
            (a, 0) => {
                c[px] = a;
                c[pu] = 1;
            }
            (a, b) if a == b => {
                // Two terminal-ended paths become one complete path (a == 2), or the
                // two ends of one path meet and close a cycle.
                let allowed = match self.quantity {
                    Quantity::Cycles => a != 2,
                    _ => a == 2,
                };
                if !allowed || !st.last || st.flag {
                    return false;
                }
                st.flag = true;
                c[pu] = 1;
                c[px] = 1;
            }
            (a, b) => {
                if a == 2 {
                    let q = other(c, b, px);
                    c[q] = 2;
                } else if b == 2 {
                    let q = other(c, a, pu);
                    c[q] = 2;
                } else {
                    let q = other(c, a, pu);
                    c[q] = b;
                }
                c[pu] = 1;
                c[px] = 1;
            }
        }
        true
    }

    fn retire_one(&self, c: &mut [u8], pr: usize, start_pos: Option<usize>, st: &mut Step) -> bool {
        let code = c[pr];
        let is_start = start_pos == Some(pr);
        match code {
            1 => !is_start,
            0 => false,
            _ if self.quantity != Quantity::Paths => false,
            _ => {
                st.terminals += 1;
                if st.terminals > 2 {
                    return false;
                }
                if code == 2 {
                    if !st.last || st.flag {
                        return false;
                    }
                    st.flag = true;
                } else {
                    let q = (0..c.len())
                        .find(|&q| q != pr && c[q] == code)
                        .expect("every path label appears twice in the window");
                    c[q] = 2;
                }
                c[pr] = 1;
                true
            }
        }
    }

    /// The edges window position `q` (after square `x`) still needs with code `code`,
    /// and whether it is bound to end as a terminal (an open tour's square with one
    /// unprocessed neighbour left, not the fixed start). A state whose square needs more
    /// edges than it has unprocessed neighbours, or (open tours) binds more than two
    /// squares to end as terminals, is dead, and is dropped now rather than when the
    /// squares retire.
    #[inline]
    fn need(&self, x: usize, q: usize, code: u8) -> (u8, bool) {
        match (code, self.quantity) {
            (1, _) => (0, false),
            (0, Quantity::Paths) => {
                let f = self.future[x][q];
                (
                    1,
                    f == 1 && self.start.is_none_or(|s| s + self.p - 1 != x + q),
                )
            }
            (0, _) => (2, false),
            (_, Quantity::Paths) => (0, false),
            _ => (1, false),
        }
    }

    /// Whether a fixed start is not retired yet after square `x`: it will take a
    /// terminal of its own.
    fn start_pending(&self, x: usize) -> bool {
        self.quantity == Quantity::Paths && self.start.is_some() && x < self.start_last
    }

    fn encode(&self, c: &[u8], terminals: u8, flag: bool) -> u128 {
        // The new code of each old one: 0, 1 and 2 stay; path labels are renumbered from
        // 3 in order of first appearance (UNSEEN until then). Labels are 3..=15 in a key,
        // and an edge subset makes at most one new one (16). Branch-free: whether a label
        // is new is as good as random.
        const UNSEEN: u8 = 0xFF;
        let mut map = [UNSEEN; 32];
        map[..3].copy_from_slice(&[0, 1, 2]);
        let mut next = 3u8;
        let mut relabel = |v: u8| {
            let slot = &mut map[usize::from(v) & 31];
            let new = *slot == UNSEEN;
            let out = if new { next } else { *slot };
            *slot = out;
            next += u8::from(new);
            debug_assert!(out < 16);
            u64::from(out)
        };
        let (low, high) = c.split_at(c.len().min(16));
        let lo = low
            .iter()
            .enumerate()
            .fold(0u64, |k, (i, &v)| k | relabel(v) << (4 * i));
        let hi = high
            .iter()
            .enumerate()
            .fold(0u64, |k, (i, &v)| k | relabel(v) << (4 * i));
        let mut k = u128::from(lo) | u128::from(hi) << 64;
        k |= u128::from(terminals) << (4 * self.p);
        k |= u128::from(flag) << self.flag_bit();
        k
    }

    fn accepts(&self, key: u128) -> bool {
        match self.quantity {
            Quantity::TwoFactors => true,
            _ => (key >> self.flag_bit()) & 1 == 1,
        }
    }
}

/// Bytes of [`decode`]'s codes: the largest window and the square itself, and spare
/// bytes up to a multiple of 8.
pub(super) const CODES: usize = 32;
const _: () = assert!(
    MAX_WINDOW < CODES,
    "decode's codes must hold the window and the square"
);

/// The codes of the `p` window squares of a key, one per byte; the bytes after them 0.
/// Built eight bytes at a time: after a byte-wise fill, the 8- and 16-byte reads of the
/// codes that follow (the copy per edge choice) waited for the byte writes to reach the
/// cache (PERFORMANCE.md, "Counting: staged successors").
#[inline]
pub(super) fn decode(key: u128, p: usize) -> [u8; CODES] {
    let window = key & ((1u128 << (4 * p)) - 1);
    let mut codes = [0u8; CODES];
    for (i, chunk) in codes.chunks_exact_mut(8).enumerate() {
        let nibbles = (window >> (32 * i)) as u32;
        chunk.copy_from_slice(&spread_nibbles(nibbles).to_le_bytes());
    }
    codes
}

/// The eight 4-bit values of `x`, one per byte (the value of bits `4i..4i + 4` in
/// byte `i`).
#[inline]
fn spread_nibbles(x: u32) -> u64 {
    let x = u64::from(x);
    let x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    let x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
}

/// The lowest bit of every 4-bit code of a key.
const NIBBLE_ONES: u128 = 0x1111_1111_1111_1111_1111_1111_1111_1111;

/// What the squares of the window that no edge choice at a square touches must not be:
/// bit `4i` for the key's nibble `i` (the window position `i - 1` after the square).
#[derive(Debug, Clone, Copy, Default)]
struct Untouched {
    /// Dead with code 0 (degree 0): fewer unprocessed neighbours than it needs.
    dead_zero: u128,
    /// Dead with a path end's code (degree 1).
    dead_label: u128,
    /// Bound to end as a terminal with code 0 (open tours).
    bound: u128,
}

struct Step {
    terminals: u8,
    flag: bool,
    fresh: u8,
    last: bool,
}

/// Check a request before any work: the width the key holds and the memory estimate.
pub fn check(req: &FrontierRequest) -> Result<(), InputError> {
    let w = req.board.rows().min(req.board.cols());
    if w > MAX_WIDTH {
        return Err(InputError::too_large(format!(
            "board {} is too large for the frontier method: its narrow side is {w} and the frontier state holds at most {MAX_WIDTH} (and needs far more memory than a machine has well before that)",
            req.board
        )));
    }
    let est = estimate_bytes(req.board, req.quantity, req.start.is_some());
    check_estimate(req, est, "the frontier method")?;
    check_fits_u128(req)
}

/// Refuse an estimate of `bytes` for counting on `req.board` by `method`: above
/// `req.max_memory` (the caller's bound: [`InputError::TooLarge`]), or above what the
/// process may use ([`crate::memory::limit`]: [`InputError::OutOfMemory`]).
pub(super) fn check_estimate(
    req: &FrontierRequest,
    bytes: u64,
    method: &str,
) -> Result<(), InputError> {
    if bytes > req.max_memory {
        return Err(InputError::too_large(
            Refusal::new(format!(
                "counting on {} by {method} needs about {} of memory (estimate), above the bound of {}",
                req.board,
                crate::memory::human(bytes),
                crate::memory::human(req.max_memory)
            ))
            .hint(Hint::Raise(Param::MaxMemory)),
        ));
    }
    crate::memory::check(
        || format!("counting on {} by {method} (estimate)", req.board),
        bytes,
    )?;
    Ok(())
}

/// Lower bounds on the bits of a count, for the boards whose counts can overflow 128
/// bits at a length the memory allows: `(narrow side, quantity, length L0, bits of the
/// count at L0, bits per added line)`, the count at length `L >= L0` taken to have at
/// least `bits + rate * (L - L0)` bits. Measured with `knightnet count` (undirected
/// counts; open tours from every start): the bits per added line are 2.40, 2.29, 2.24 on
/// 4xL for L = 10..20..30..40 (4x40: 9.06e26, 89.5 bits), 1.87, 1.80 on 3xL open
/// (3x30: 3.5e14), 1.64 on 3xL closed (3x40: 1.1e16), 4.40, 4.34, 4.32 on 5xL open
/// (5x24: 1.7e28), 4.19, 4.18 on 5xL closed (5x24: 5.7e24): slowly falling, so the
/// rates below take half the last one. 2-factors use the closed-tour bounds (every
/// closed tour is a 2-factor); wider boards run out of memory first, and the overflow
/// is still detected during the count.
const GROWTH: [(usize, Quantity, usize, f64, f64); 5] = [
    (3, Quantity::Paths, 30, 48.3, 0.9),
    (4, Quantity::Paths, 40, 89.5, 1.1),
    (5, Quantity::Paths, 24, 93.8, 2.1),
    (3, Quantity::Cycles, 40, 53.2, 0.8),
    (5, Quantity::Cycles, 24, 82.2, 2.0),
];

/// Refuse, before any work, a count that [`GROWTH`] shows cannot fit in 128 bits (the
/// widest count the program keeps; the directed count, twice the undirected one the
/// program makes, must fit too): a lower bound on its bits above 127.
pub(super) fn check_fits_u128(req: &FrontierRequest) -> Result<(), InputError> {
    if req.rows_limit.is_some() {
        return Ok(());
    }
    let w = req.board.rows().min(req.board.cols());
    let h = req.board.rows().max(req.board.cols());
    // Paths through a fixed start are fewer than all paths: no bound from the table.
    let quantity = match req.quantity {
        Quantity::Paths if req.start.is_some() => return Ok(()),
        Quantity::TwoFactors => Quantity::Cycles,
        q => q,
    };
    for &(width, q, from, bits, rate) in &GROWTH {
        if width == w && q == quantity && h >= from {
            let at_least = bits + rate * (h - from) as f64;
            if at_least > 127.0 {
                return Err(InputError::too_large(format!(
                    "the count on {} has more than {at_least:.0} bits, and counts are kept in 128 bits; count a shorter board",
                    req.board
                )));
            }
        }
    }
    Ok(())
}

/// Estimated peak number of frontier states (an upper estimate, for the memory check).
///
/// Measured peaks of closed-tour states on long boards (`knightnet count --board WxL
/// --closed --profile-rows L`, docs/counting.md): w=3: 153, 4: 672, 5: 52,752,
/// 6: 1,425,748 (6x10); 7x7 reaches 7.9 million by its fifth row; 8x8 closed holds
/// 436,044,206 states after its 42nd square of 64 and still grows (docs/counting.md), so
/// width 8 is taken as 2.4e9 on long boards. Beyond, a growth of x25 per unit of width
/// (the measured growth between widths 5, 6 and 7). Boards shorter than twice their width
/// peak lower (6x6: 147,050); the estimate takes a quarter there. Open tours hold up to 30 times as many (measured 13x at w=3, 29x at
/// w=4, the terminal states); 2-factors a quarter as many (degrees only; measured peaks
/// of 2-factor against cycle states, `--profile-rows`: 3x16 47 / 93, 5x12 3,965 /
/// 39,683, 6x6 10,430 / 99,436, 6x10 35,876 / 1,074,023, 8x8 3,849,899 against more
/// than 4.4·10^8).
pub fn estimate_states(board: Board, quantity: Quantity, _fixed_start: bool) -> u64 {
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    let measured: [f64; 9] = [1.0, 1.0, 4.0, 200.0, 700.0, 55e3, 1.5e6, 4e7, 2.4e9];
    let long = if w < measured.len() {
        measured[w]
    } else {
        measured[measured.len() - 1] * 25f64.powi((w - (measured.len() - 1)) as i32)
    };
    let shape = if h < 2 * w { 0.25 } else { 1.0 };
    let factor = match quantity {
        Quantity::Cycles => 1.0,
        Quantity::TwoFactors => 0.25,
        Quantity::Paths => 30.0,
    };
    (long * shape * factor).clamp(16.0, 1e18) as u64
}

/// [`estimate_states`] in bytes.
pub(crate) fn estimate_bytes(board: Board, quantity: Quantity, fixed_start: bool) -> u64 {
    let w = board.rows().min(board.cols());
    estimate_states(board, quantity, fixed_start).saturating_mul(bytes_per_state(w))
}

/// Run the dynamic program. `progress` is called after each square.
///
/// The states are stored with 64-bit keys where they fit (widths up to 8) and 64-bit
/// counts, rerun with 128-bit counts if a sum overflows (`count::table`).
pub fn run(
    req: &FrontierRequest,
    mut progress: impl FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    run_dyn(req, &mut progress)
}

/// [`run`] compiled once, whatever the caller's `progress` (a generic `run` would be
/// compiled again, with the whole dynamic program, in every crate that calls it).
fn run_dyn(
    req: &FrontierRequest,
    progress: &mut dyn FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    check(req)?;
    let plan = Plan::new(req.board, req.quantity, req.start);
    run_plan(req, &plan, progress)
}

/// Run the dynamic program of `plan` (a knight's board or any graph in processing
/// order, [`Plan::from_neighbours`]); `req` gives the budgets and the board its
/// messages name.
pub(super) fn run_plan(
    req: &FrontierRequest,
    plan: &Plan,
    progress: &mut dyn FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    let narrow = <u64 as Key>::fits(plan.p);
    let first = if narrow {
        run_with::<u64, u64>(req, plan, progress)?
    } else {
        run_with::<u128, u64>(req, plan, progress)?
    };
    match first {
        Some(run) => Ok(run),
        None if narrow => {
            run_with::<u64, u128>(req, plan, progress)?.ok_or_else(|| overflow(req.board))
        }
        None => run_with::<u128, u128>(req, plan, progress)?.ok_or_else(|| overflow(req.board)),
    }
}

pub(super) fn overflow(board: Board) -> InputError {
    InputError::too_large(format!(
        "a count on {board} overflows 128 bits; the frontier method cannot count it"
    ))
}

/// What [`grow`] ended with.
pub(super) enum Grown<K, C> {
    /// The states after the squares asked for.
    States(Vec<Shard<K, C>>),
    /// The budget stopped the run before a square (`out` tells how far it got).
    OutOfBudget,
    /// A count overflowed `C`.
    Overflowed,
}

/// Process the first `squares` squares of `plan` from the empty board, recording the
/// work and the states per square in `out`; progress counts squares out of `total`
/// (those of every part of the job).
pub(super) fn grow<K: Key, C: Tally>(
    req: &FrontierRequest,
    plan: &Plan,
    squares: usize,
    total: usize,
    out: &mut FrontierRun,
    progress: &mut dyn FnMut(Progress),
) -> Result<Grown<K, C>, InputError> {
    let board = req.board;
    let (n, p) = (plan.n, plan.p);
    // What the process may use beside what it holds now; the states are checked against
    // it after each square, and against `--max-memory`.
    let free = crate::memory::limit();
    let mut cur: Vec<Shard<K, C>> = vec![vec![vec![(K::pack(plan.initial(), p), C::one())]]];
    let mut held = 1usize;
    // One worker per thread, each with its own successor lists; the workers take the
    // partitions to expand one at a time, so that none waits while another finishes.
    let workers = rayon::current_num_threads();
    for x in 0..squares {
        let work = (held as u64).saturating_mul(plan.subsets(x));
        if out.transitions.saturating_add(work) > req.max_transitions {
            return Ok(Grown::OutOfBudget);
        }
        let parts = Partitions::for_states(held);
        let row_end = plan.merges_mirrors(x);
        // Each partition is taken once, and each block of states is freed as soon as it
        // is expanded.
        let partitions: Vec<Mutex<Shard<K, C>>> = cur.into_iter().map(Mutex::new).collect();
        let taken = AtomicUsize::new(0);
        let emitted: Vec<Emitted<K, C>> = (0..workers)
            .into_par_iter()
            .map(|_| {
                let mut made = Emitted::new(parts);
                while let Some(partition) = partitions.get(taken.fetch_add(1, Ordering::Relaxed)) {
                    let shard =
                        std::mem::take(&mut *partition.lock().unwrap_or_else(|e| e.into_inner()));
                    for (k, v) in shard.into_iter().flatten() {
                        plan.expand(x, k.unpack(p), &mut |k2| {
                            let k2 = if row_end { plan.canonical(k2) } else { k2 };
                            made.push(K::pack(k2, p), v);
                        });
                    }
                }
                made
            })
            .collect();
        let next = match table::merge(emitted) {
            Ok(next) => next,
            Err(Failed::Overflowed) => return Ok(Grown::Overflowed),
            Err(Failed::NoMemory) => {
                return Err(crate::memory::MemoryError {
                    what: format!(
                        "counting on {board} by the frontier method (the states of square {} of {n})",
                        x + 1
                    ),
                    needed: (held as u64).saturating_mul(bytes_per_window_state(p)),
                    limit: Some(free),
                }
                .into());
            }
        };
        out.transitions += work;
        cur = next;
        held = table::len(&cur);
        out.peak_states = out.peak_states.max(held);
        out.states.push(held);
        let bytes = held as u64 * bytes_per_window_state(p);
        if bytes > req.max_memory {
            return Err(InputError::too_large(
                Refusal::new(format!(
                    "counting on {board} by the frontier method reached {held} states (about {}) at square {} of {n}, above the bound of {}",
                    crate::memory::human(bytes),
                    x + 1,
                    crate::memory::human(req.max_memory)
                ))
                .hint(Hint::Raise(Param::MaxMemory)),
            ));
        }
        if bytes > free.bytes {
            return Err(crate::memory::MemoryError {
                what: format!(
                    "counting on {board} by the frontier method ({held} states at square {} of {n})",
                    x + 1
                ),
                needed: bytes,
                limit: Some(free.clone()),
            }
            .into());
        }
        progress(Progress {
            done: out.states.len(),
            squares: total,
            states: held,
        });
    }
    Ok(Grown::States(cur))
}

/// An empty [`FrontierRun`] of `plan`.
pub(super) fn empty_run(plan: &Plan) -> FrontierRun {
    FrontierRun {
        count: None,
        complete: false,
        transitions: 0,
        peak_states: 1,
        states: Vec::new(),
        width: plan.w,
        length: plan.n / plan.w,
        pairs_joined: 0,
    }
}

/// [`run`] with keys `K` and counts `C`; `None` when a count overflowed `C`.
fn run_with<K: Key, C: Tally>(
    req: &FrontierRequest,
    plan: &Plan,
    progress: &mut dyn FnMut(Progress),
) -> Result<Option<FrontierRun>, InputError> {
    let board = req.board;
    let (n, p, w) = (plan.n, plan.p, plan.w);
    let mut out = empty_run(plan);
    if n == 1 {
        out.count = Some(u128::from(req.quantity == Quantity::Paths));
        out.complete = true;
        return Ok(Some(out));
    }
    let squares = req.rows_limit.map_or(n, |r| (r * w).min(n));
    let cur: Vec<Shard<K, C>> = match grow(req, plan, squares, n, &mut out, progress)? {
        Grown::States(s) => s,
        Grown::OutOfBudget => return Ok(Some(out)),
        Grown::Overflowed => return Ok(None),
    };
    if squares < n {
        return Ok(Some(out));
    }
    let mut total = 0u128;
    for &(k, v) in cur.iter().flatten().flatten() {
        if plan.accepts(k.unpack(p)) {
            total = total.checked_add(v.into()).ok_or_else(|| overflow(board))?;
        }
    }
    out.count = Some(total);
    out.complete = true;
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Every code of the window in its byte, and nothing after it.
        #[test]
        fn decode_gives_each_code_of_the_window(key: u128, p in 1usize..=MAX_WINDOW) {
            let codes = decode(key, p);
            for (i, &c) in codes.iter().enumerate() {
                let want = if i < p { (key >> (4 * i)) as u8 & 15 } else { 0 };
                proptest::prop_assert_eq!(c, want, "byte {}", i);
            }
        }
    }

    /// A count that overflows its count type is reported (not wrapped), and the same run
    /// with a wider type gives the count: what [`run`] does when a `u64` overflows.
    #[test]
    fn an_overflowing_count_type_is_detected_and_a_wider_one_counts() {
        let req = FrontierRequest {
            board: Board::new(6, 6).unwrap(),
            quantity: Quantity::TwoFactors,
            start: None,
            max_transitions: u64::MAX,
            max_memory: u64::MAX,
            rows_limit: None,
        };
        let plan = Plan::new(req.board, req.quantity, None);
        let narrow = run_with::<u64, u8>(&req, &plan, &mut |_| {}).unwrap();
        assert!(narrow.is_none(), "36,236 2-factors do not fit 8 bits");
        let wide = run_with::<u128, u128>(&req, &plan, &mut |_| {})
            .unwrap()
            .unwrap();
        let packed = run(&req, |_| {}).unwrap();
        assert_eq!(wide.count, Some(36_236));
        assert_eq!(packed.count, wide.count);
        assert_eq!(packed.states, wide.states);
    }

    /// Merging each row end's states with their mirror images changes no count and
    /// holds fewer states, on boards of every width the mirror applies to.
    #[test]
    fn mirror_merging_keeps_every_count_and_holds_fewer_states() {
        for (rows, cols, quantity) in [
            (6, 6, Quantity::Cycles),
            (5, 6, Quantity::Cycles),
            (3, 10, Quantity::Cycles),
            (4, 7, Quantity::Paths),
            (5, 5, Quantity::Paths),
            (6, 6, Quantity::TwoFactors),
            (5, 8, Quantity::TwoFactors),
        ] {
            let req = FrontierRequest {
                board: Board::new(rows, cols).unwrap(),
                quantity,
                start: None,
                max_transitions: u64::MAX,
                max_memory: u64::MAX,
                rows_limit: None,
            };
            let merged = Plan::new(req.board, quantity, None);
            assert!(merged.mirror);
            let plain = Plan {
                mirror: false,
                ..Plan::new(req.board, quantity, None)
            };
            let a = run_with::<u128, u128>(&req, &merged, &mut |_| {})
                .unwrap()
                .unwrap();
            let b = run_with::<u128, u128>(&req, &plain, &mut |_| {})
                .unwrap()
                .unwrap();
            assert_eq!(a.count, b.count, "{rows}x{cols} {quantity:?}");
            assert!(a.peak_states <= b.peak_states, "{rows}x{cols} {quantity:?}");
            let (held, without): (usize, usize) = (a.states.iter().sum(), b.states.iter().sum());
            assert!(
                held < without,
                "{rows}x{cols} {quantity:?}: {held} vs {without}"
            );
        }
    }
}

//! The compact form of a block construction: the same cover as [`super::Cover`] would
//! build square by square, but stored per block as an interned neighbour table, so that
//! memory does not grow with the board's area.
//!
//! Every edge of the cover is a knight move, so a square's two cover neighbours are
//! two knight directions (indices into [`KNIGHT_OFFSETS`], or [`NO_DIR`] at the ends of
//! the path on odd x odd boards). A block's table ([`Cfg`]) lists them for its squares,
//! in the same slot order as `Cover` (slot order decides the walk's direction and the
//! join scan's order, so the tour comes out square for square the same).
//!
//! Joins follow the same spanning tree and the same scan as `Cover::join`, but on two
//! tables at a time; a join's result depends only on the two tables, so it is memoised.
//! A block row is a chain of joins from its first block, so rows with the same first
//! table and heights share one chain. What is stored:
//!
//! * the distinct tables (a few dozen, each at most 10 x 10 bytes);
//! * per block row: its chain (one table id per block of the row, shared between equal
//!   rows) and the final table of its first block (which the join to the row below
//!   edits after the row's own joins);
//! * per board row and column: which band it lies in.
//!
//! That is O(rows + cols) memory plus O(cols) per distinct chain; the number of distinct
//! chains is bounded by the number of table and height combinations, not by the board.
//!
//! A join that would edit a third block (possible in principle when a cover neighbour
//! found by the scan was set by an earlier join across another side) is not modelled:
//! [`Plan::build`] then returns `None` and the caller uses `Cover`.

use std::collections::HashMap;

use crate::board::KNIGHT_OFFSETS;

/// No neighbour in this slot (an end of the path).
pub(crate) const NO_DIR: u8 = 8;

const DR: [i32; 8] = {
    let mut a = [0; 8];
    let mut k = 0;
    while k < 8 {
        a[k] = KNIGHT_OFFSETS[k].0;
        k += 1;
    }
    a
};
const DC: [i32; 8] = {
    let mut a = [0; 8];
    let mut k = 0;
    while k < 8 {
        a[k] = KNIGHT_OFFSETS[k].1;
        k += 1;
    }
    a
};

/// The direction index of the knight move `(dr, dc)`, if it is one.
fn dir_of(dr: i32, dc: i32) -> Option<u8> {
    (0..8u8).find(|&k| DR[k as usize] == dr && DC[k as usize] == dc)
}

/// The opposite direction (the offsets come in opposite pairs four apart).
#[inline]
fn opp(d: u8) -> u8 {
    (d + 4) & 7
}

/// One block's cover neighbours: per local square (row-major), slot 0 in the low
/// nibble and slot 1 in the high nibble, each a direction or [`NO_DIR`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Cfg {
    h: u8,
    w: u8,
    slots: Box<[u8]>,
}

impl Cfg {
    /// The table of a base tour laid on an `h x w` block, slot for slot as
    /// `Cover::place` links it. `None` if a step is not a knight move.
    pub(crate) fn from_tour(h: usize, w: usize, local: &[u32], closed: bool) -> Option<Cfg> {
        let mut cfg = Cfg {
            h: h as u8,
            w: w as u8,
            slots: vec![NO_DIR | (NO_DIR << 4); h * w].into_boxed_slice(),
        };
        let link = |cfg: &mut Cfg, a: u32, b: u32| -> Option<()> {
            let (ar, ac) = ((a as usize / w) as i32, (a as usize % w) as i32);
            let (br, bc) = ((b as usize / w) as i32, (b as usize % w) as i32);
            let d = dir_of(br - ar, bc - ac)?;
            for (p, dp) in [(a as usize, d), (b as usize, opp(d))] {
                let k = usize::from(cfg.get(p, 0) != NO_DIR);
                cfg.set(p, k, dp);
            }
            Some(())
        };
        for pair in local.windows(2) {
            link(&mut cfg, pair[0], pair[1])?;
        }
        if closed && local.len() > 2 {
            link(&mut cfg, local[local.len() - 1], local[0])?;
        }
        Some(cfg)
    }

    #[inline]
    fn get(&self, l: usize, k: usize) -> u8 {
        (self.slots[l] >> (4 * k)) & 15
    }

    #[inline]
    fn set(&mut self, l: usize, k: usize, d: u8) {
        let keep = self.slots[l] & (0xF0 >> (4 * k));
        self.slots[l] = keep | (d << (4 * k));
    }

    /// Replace the neighbour in direction `old` of square `l` by direction `new`.
    fn replace(&mut self, l: usize, old: u8, new: u8) {
        let k = usize::from(self.get(l, 0) != old);
        debug_assert_eq!(self.get(l, k), old);
        self.set(l, k, new);
    }
}

/// The outcome of one join on two tables.
#[derive(Debug, Clone)]
enum Join {
    Done(Cfg, Cfg),
    NoExchange,
    /// The exchange found would edit a block other than the two.
    Unsupported,
}

/// `Cover::join` on two tables: `a` and the fresh block `b` to its right
/// (`vertical == false`, same height) or below it (`vertical == true`, same width).
/// Same scan order, same exchange.
fn join(a: &Cfg, b: &Cfg, vertical: bool) -> Join {
    let (ha, wa) = (i32::from(a.h), i32::from(a.w));
    let (hb, wb) = (i32::from(b.h), i32::from(b.w));
    let (br0, bc0) = if vertical { (ha, 0) } else { (0, wa) };
    let in_a = |r: i32, c: i32| r >= 0 && c >= 0 && r < ha && c < wa;
    let in_b = |r: i32, c: i32| r >= br0 && c >= bc0 && r < br0 + hb && c < bc0 + wb;
    let la = |r: i32, c: i32| (r * wa + c) as usize;
    let lb = |r: i32, c: i32| ((r - br0) * wb + (c - bc0)) as usize;
    let (rr, cr) = if vertical {
        (ha - 2..ha, 0..wa)
    } else {
        (0..ha, wa - 2..wa)
    };
    for r in rr {
        for c in cr.clone() {
            for k in 0..8u8 {
                let (r2, c2) = (r + DR[k as usize], c + DC[k as usize]);
                if !in_b(r2, c2) {
                    continue;
                }
                for s1 in 0..2 {
                    let d1 = a.get(la(r, c), s1);
                    if d1 == NO_DIR {
                        continue;
                    }
                    let (y1r, y1c) = (r + DR[d1 as usize], c + DC[d1 as usize]);
                    for s2 in 0..2 {
                        let d2 = b.get(lb(r2, c2), s2);
                        if d2 == NO_DIR {
                            continue;
                        }
                        let (y2r, y2c) = (r2 + DR[d2 as usize], c2 + DC[d2 as usize]);
                        let Some(dy) = dir_of(y2r - y1r, y2c - y1c) else {
                            continue;
                        };
                        if !in_a(y1r, y1c) || !in_b(y2r, y2c) {
                            return Join::Unsupported;
                        }
                        let (mut a2, mut b2) = (a.clone(), b.clone());
                        a2.set(la(r, c), s1, k);
                        a2.replace(la(y1r, y1c), opp(d1), dy);
                        b2.set(lb(r2, c2), s2, opp(k));
                        b2.replace(lb(y2r, y2c), opp(d2), opp(dy));
                        return Join::Done(a2, b2);
                    }
                }
            }
        }
    }
    Join::NoExchange
}

/// Interned tables and memoised joins.
#[derive(Default)]
struct Tables {
    cfgs: Vec<Cfg>,
    ids: HashMap<Cfg, u16>,
    /// (a, first table of b, vertical) -> (a after, b after); `None`: no supported join.
    joins: HashMap<(u16, u16, bool), Option<(u16, u16)>>,
}

impl Tables {
    fn intern(&mut self, cfg: Cfg) -> Option<u16> {
        if let Some(&id) = self.ids.get(&cfg) {
            return Some(id);
        }
        let id = u16::try_from(self.cfgs.len()).ok()?;
        self.cfgs.push(cfg.clone());
        self.ids.insert(cfg, id);
        Some(id)
    }

    /// Join table `a` to a fresh block whose first base tour has table `b`; when that
    /// offers no exchange, the block's other closed tours (`alts()`, asked for only
    /// then) are tried in order.
    fn join(
        &mut self,
        a: u16,
        b: u16,
        vertical: bool,
        alts: &mut dyn FnMut(&mut Tables) -> Option<Vec<u16>>,
    ) -> Option<(u16, u16)> {
        if let Some(&r) = self.joins.get(&(a, b, vertical)) {
            return r;
        }
        let mut result = None;
        let mut cands = vec![b];
        let mut asked = false;
        let mut n = 0;
        while n < cands.len() {
            match join(
                &self.cfgs[a as usize],
                &self.cfgs[cands[n] as usize],
                vertical,
            ) {
                Join::Done(a2, b2) => {
                    result = self.intern(a2).zip(self.intern(b2));
                    break;
                }
                Join::NoExchange => {
                    if !asked {
                        asked = true;
                        cands.extend(alts(self).unwrap_or_default());
                    }
                    n += 1;
                }
                Join::Unsupported => break,
            }
        }
        self.joins.insert((a, b, vertical), result);
        result
    }
}

/// What a walk does with the squares it visits, in order.
pub(crate) trait Visit {
    /// One square.
    fn square(&mut self, r: usize, c: usize);
    /// Consecutive squares of the block whose top-left square is `(r0, c0)`, given
    /// as local indices into `pos`, the local (row, column) table.
    #[inline]
    fn run(&mut self, r0: usize, c0: usize, run: &[u16], pos: &[(u8, u8)]) {
        for &q in run {
            let (qr, qc) = pos[q as usize];
            self.square(r0 + qr as usize, c0 + qc as usize);
        }
    }
}

/// A closure as a [`Visit`].
pub struct Each<F>(pub F);

impl<F: FnMut(usize, usize)> Visit for Each<F> {
    #[inline]
    fn square(&mut self, r: usize, c: usize) {
        (self.0)(r, c)
    }
}

/// Collects the squares' indices on a board of `cols` columns.
pub(crate) struct Collect {
    pub cols: usize,
    pub squares: Vec<u32>,
}

impl Visit for Collect {
    #[inline]
    fn square(&mut self, r: usize, c: usize) {
        self.squares.push((r * self.cols + c) as u32);
    }

    #[inline]
    fn run(&mut self, r0: usize, c0: usize, run: &[u16], pos: &[(u8, u8)]) {
        let (cols, base) = (self.cols, r0 * self.cols + c0);
        self.squares.extend(run.iter().map(|&q| {
            let (qr, qc) = pos[q as usize];
            (base + qr as usize * cols + qc as usize) as u32
        }));
    }
}

/// A step to a square outside the block: `OUT | direction`.
const OUT: u16 = 0x8000;
/// No neighbour (an end of the path).
const END: u16 = 0xFFFF;

/// A block table prepared for walking: per local square its two neighbours (slot
/// order) as local indices when inside the block, `OUT | direction` when outside,
/// [`END`] for none; each local square's (row, column); and, for every way into the
/// block (a square and the slot naming the outside square it was entered from), the
/// run of squares the walk visits before it leaves again (a segment).
struct Steps {
    w: usize,
    next: Vec<[u16; 2]>,
    pos: Vec<(u8, u8)>,
    /// Per `2 * square + slot`: the segment's range in `seg_squares`, and how it
    /// leaves (`OUT | direction` or [`END`]); `None` where that slot is not outside.
    segs: Vec<Option<(u32, u32, u16)>>,
    seg_squares: Vec<u16>,
}

impl Steps {
    fn new(cfg: &Cfg) -> Steps {
        let (h, w) = (i32::from(cfg.h), i32::from(cfg.w));
        let n = cfg.slots.len();
        let mut next = Vec::with_capacity(n);
        let mut pos = Vec::with_capacity(n);
        for l in 0..n {
            let (r, c) = (l as i32 / w, l as i32 % w);
            pos.push((r as u8, c as u8));
            next.push([0, 1].map(|k| {
                let d = cfg.get(l, k);
                if d == NO_DIR {
                    return END;
                }
                let (r2, c2) = (r + DR[d as usize], c + DC[d as usize]);
                if r2 >= 0 && c2 >= 0 && r2 < h && c2 < w {
                    (r2 * w + c2) as u16
                } else {
                    OUT | u16::from(d)
                }
            }));
        }
        let mut segs = vec![None; 2 * n];
        let mut seg_squares = Vec::new();
        for l in 0..n {
            for k in 0..2 {
                let from = next[l][k];
                if from < OUT || from == END {
                    continue;
                }
                let begin = seg_squares.len() as u32;
                let (mut cur, mut prev) = (l as u16, from);
                let exit = loop {
                    seg_squares.push(cur);
                    let [n0, n1] = next[cur as usize];
                    let nx = if n0 != prev { n0 } else { n1 };
                    // A cycle inside one block cannot be entered from outside; stop
                    // anyway if a broken table loops.
                    if nx >= OUT || seg_squares.len() - begin as usize > n {
                        break nx;
                    }
                    (prev, cur) = (cur, nx);
                };
                segs[2 * l + k] = Some((begin, seg_squares.len() as u32, exit));
            }
        }
        Steps {
            w: w as usize,
            next,
            pos,
            segs,
            seg_squares,
        }
    }
}

/// The cover of a whole board built from blocks, in compact form (see the module doc).
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    rows: usize,
    cols: usize,
    cfgs: Vec<Cfg>,
    /// Per board row / column: its band.
    band_of_row: Vec<u32>,
    band_of_col: Vec<u32>,
    /// Per band: first row / column and height / width.
    row_start: Vec<usize>,
    col_start: Vec<usize>,
    /// Per block row: index into `chains`, and the final table of its first block.
    row_chain: Vec<u32>,
    first_final: Vec<u16>,
    /// Table per block along a row (entry 0 is superseded by `first_final`).
    chains: Vec<Vec<u16>>,
}

impl Plan {
    /// Build the compact cover of a `rows x cols` board cut into `row_bands` x
    /// `col_bands`. Every block gets the closed base tour `base(h, w, None)`, except
    /// the block `path = (i, j, local start)` (odd x odd boards), which gets the open
    /// one `base(h, w, Some(local start))`. A block whose base tour offers no exchange
    /// tries `alts(h, w)`, the other closed tours of its size, in order. Joins go in
    /// row-major order, each block to its left neighbour, the first of a row to the
    /// block above, exactly as `Cover`. `None` when a join fails or is not modelled.
    pub fn build(
        rows: usize,
        cols: usize,
        row_bands: &[usize],
        col_bands: &[usize],
        path: Option<(usize, usize, u32)>,
        base: &mut dyn FnMut(usize, usize, Option<u32>) -> Option<Cfg>,
        alts: &mut dyn FnMut(usize, usize) -> Vec<Cfg>,
    ) -> Option<Plan> {
        let mut t = Tables::default();
        let mut firsts: HashMap<(usize, usize, Option<u32>), u16> = HashMap::new();
        let mut alt_ids: HashMap<(usize, usize), Vec<u16>> = HashMap::new();
        let mut block = |t: &mut Tables, i: usize, j: usize| -> Option<(u16, usize, usize, bool)> {
            let (h, w) = (row_bands[i], col_bands[j]);
            let ps = path.filter(|p| (p.0, p.1) == (i, j)).map(|p| p.2);
            let id = match firsts.get(&(h, w, ps)) {
                Some(&id) => id,
                None => {
                    let id = t.intern(base(h, w, ps)?)?;
                    firsts.insert((h, w, ps), id);
                    id
                }
            };
            Some((id, h, w, ps.is_some()))
        };
        let mut join = |t: &mut Tables, a: u16, b: (u16, usize, usize, bool), vertical: bool| {
            let (id, h, w, is_path) = b;
            let mut get_alts = |t: &mut Tables| -> Option<Vec<u16>> {
                if is_path {
                    return Some(Vec::new());
                }
                if let Some(v) = alt_ids.get(&(h, w)) {
                    return Some(v.clone());
                }
                let v = alts(h, w)
                    .into_iter()
                    .map(|c| t.intern(c))
                    .collect::<Option<Vec<u16>>>()?;
                alt_ids.insert((h, w), v.clone());
                Some(v)
            };
            t.join(a, id, vertical, &mut get_alts)
        };
        // Rows with the same first table, height and no path block share their chain.
        let mut chain_of: HashMap<(u16, usize, Option<usize>), u32> = HashMap::new();
        let mut chains: Vec<Vec<u16>> = Vec::new();
        let mut row_chain = Vec::with_capacity(row_bands.len());
        let mut first_final: Vec<u16> = Vec::with_capacity(row_bands.len());
        let mut above: Option<u16> = None; // first block of the previous row, joined right
        for (i, &h) in row_bands.iter().enumerate() {
            let b0 = block(&mut t, i, 0)?;
            let start = match above {
                None => b0.0,
                Some(a) => {
                    let (a2, b2) = join(&mut t, a, b0, true)?;
                    *first_final.last_mut()? = a2;
                    b2
                }
            };
            let path_row = path.filter(|p| p.0 == i).map(|_| i);
            let key = (start, h, path_row);
            let ci = match chain_of.get(&key) {
                Some(&ci) => ci,
                None => {
                    let mut chain = Vec::with_capacity(col_bands.len());
                    chain.push(start);
                    for j in 1..col_bands.len() {
                        let b = block(&mut t, i, j)?;
                        let a = *chain.last()?;
                        let (a2, b2) = join(&mut t, a, b, false)?;
                        *chain.last_mut()? = a2;
                        chain.push(b2);
                    }
                    let ci = u32::try_from(chains.len()).ok()?;
                    chains.push(chain);
                    chain_of.insert(key, ci);
                    ci
                }
            };
            let head = chains[ci as usize][0];
            row_chain.push(ci);
            first_final.push(head);
            above = Some(head);
        }
        let bands = |sizes: &[usize], n: usize| {
            let mut of = Vec::with_capacity(n);
            let mut starts = Vec::with_capacity(sizes.len());
            let mut s = 0;
            for (b, &len) in sizes.iter().enumerate() {
                starts.push(s);
                of.extend(std::iter::repeat_n(b as u32, len));
                s += len;
            }
            (of, starts)
        };
        let (band_of_row, row_start) = bands(row_bands, rows);
        let (band_of_col, col_start) = bands(col_bands, cols);
        if band_of_row.len() != rows || band_of_col.len() != cols {
            return None;
        }
        Some(Plan {
            rows,
            cols,
            cfgs: t.cfgs,
            band_of_row,
            band_of_col,
            row_start,
            col_start,
            row_chain,
            first_final,
            chains,
        })
    }

    /// Walk the cover from `(r, c)` (the first step along slot 0, or slot 1 if
    /// `reverse`), calling `visit(row, col)` for every square in order, until the walk
    /// returns to the start (a cycle) or reaches the other end of the path. Returns the
    /// number of squares visited and whether the cover was a cycle, or `None` if the
    /// walk left the board or ran longer than the board (a broken cover).
    ///
    /// Inside a block the walk follows [`Steps`] by local index; only a step out of
    /// the block looks up bands.
    pub fn walk(
        &self,
        start: (usize, usize),
        reverse: bool,
        visit: &mut impl Visit,
    ) -> Option<(usize, bool)> {
        let total = self.rows * self.cols;
        if start.0 >= self.rows || start.1 >= self.cols {
            return None;
        }
        let steps: Vec<Steps> = self.cfgs.iter().map(Steps::new).collect();
        let mut i = self.band_of_row[start.0] as usize;
        let mut j = self.band_of_col[start.1] as usize;
        let (start_i, start_j) = (i, j);
        let mut chain = &self.chains[self.row_chain[i] as usize];
        let (mut r0, mut c0) = (self.row_start[i], self.col_start[j]);
        let block = |i: usize, j: usize, chain: &[u16]| -> &Steps {
            &steps[if j == 0 {
                self.first_final[i]
            } else {
                chain[j]
            } as usize]
        };
        let mut st = block(i, j, chain);
        let start_l = ((start.0 - r0) * st.w + (start.1 - c0)) as u16;
        let mut l = start_l;
        // Local index of the start while in its block, else a value no square has.
        let mut stop_l = start_l;
        // How the current square names the previous one (nothing at the start).
        let [n0, n1] = st.next[l as usize];
        // The first step takes slot 0 (slot 1 if `reverse`), or the other slot if
        // that one is empty: `prev` is set to the slot not to take.
        let mut prev = match (reverse, n0, n1) {
            (false, END, _) => n0,
            (false, _, _) => n1,
            (true, _, END) => n1,
            (true, _, _) => n0,
        };
        let mut count = 0usize;
        loop {
            let (lr, lc) = st.pos[l as usize];
            // `nx`: how the walk leaves the square `l` (the last visited).
            let (lr, lc, nx) = if stop_l != END {
                // The start's block: step by step, watching for the start.
                visit.square(r0 + lr as usize, c0 + lc as usize);
                count += 1;
                if count > total {
                    return None;
                }
                let [n0, n1] = st.next[l as usize];
                let nx = if n0 != prev { n0 } else { n1 };
                if nx < OUT {
                    prev = l;
                    l = nx;
                    if l == stop_l {
                        return Some((count, true));
                    }
                    continue;
                }
                (lr, lc, nx)
            } else {
                // Any other block: the whole segment from the way in to the way out.
                let k = if st.next[l as usize][0] == prev {
                    0
                } else if st.next[l as usize][1] == prev {
                    1
                } else {
                    return None;
                };
                let (begin, end, exit) = st.segs[2 * l as usize + k]?;
                let run = &st.seg_squares[begin as usize..end as usize];
                count += run.len();
                if count > total {
                    return None;
                }
                visit.run(r0, c0, run, &st.pos);
                let last = *run.last()?;
                let (lr, lc) = st.pos[last as usize];
                (lr, lc, exit)
            };
            if nx == END {
                return Some((count, false));
            }
            // Out of the block in direction d.
            let d = (nx & 7) as usize;
            let r = (r0 + lr as usize) as i64 + i64::from(DR[d]);
            let c = (c0 + lc as usize) as i64 + i64::from(DC[d]);
            if r < 0 || c < 0 || r as usize >= self.rows || c as usize >= self.cols {
                return None;
            }
            let (r, c) = (r as usize, c as usize);
            let bi = self.band_of_row[r] as usize;
            if bi != i {
                i = bi;
                chain = &self.chains[self.row_chain[i] as usize];
            }
            j = self.band_of_col[c] as usize;
            (r0, c0) = (self.row_start[i], self.col_start[j]);
            st = block(i, j, chain);
            l = ((r - r0) * st.w + (c - c0)) as u16;
            prev = OUT | opp(d as u8) as u16;
            stop_l = if (i, j) == (start_i, start_j) {
                start_l
            } else {
                END
            };
            if l == stop_l {
                return Some((count, true));
            }
        }
    }

    #[cfg(test)]
    /// Bytes held by the plan (tables, bands, chains), for the memory claim in docs
    /// and tests.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.cfgs.iter().map(|c| c.slots.len() + 24).sum::<usize>()
            + 4 * (self.band_of_row.len() + self.band_of_col.len())
            + 8 * (self.row_start.len() + self.col_start.len())
            + 6 * self.row_chain.len()
            + self.chains.iter().map(|c| 2 * c.len() + 24).sum::<usize>()
    }

    #[cfg(test)]
    /// Number of distinct row chains (bounded independently of the board size).
    pub(crate) fn chain_count(&self) -> usize {
        self.chains.len()
    }
}

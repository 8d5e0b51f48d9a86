//! Closed tours counted by splitting the board at a row (meet in the middle).
//!
//! The frontier program ([`super::frontier`]) run over the whole board holds, in the
//! rows after the middle, hundreds of millions of states that the last rows can never
//! complete: on 8x8 more than 4·10^8 after its 43rd square. Splitting the board at a
//! row boundary avoids growing them (McKay 1997 counted the 8x8 tours from two halves).
//!
//! In processing order (rows along the narrow side, [`super::frontier`]), with `h` rows:
//!
//! - the **upper part** is rows `0..s`, grown by the frontier program: after row `s - 1`
//!   its states describe rows `s - 2` and `s - 1` (degree and which path ends are
//!   joined) given every edge among rows `0..s`;
//! - the **lower part** is rows `s..h` plus every edge between them and the upper rows
//!   (the crossing edges). Turning the board by 180 degrees maps the knight's graph
//!   onto itself, so it is grown by the same program on the turned board: its first
//!   `h - s` rows in full, then two **output rows** (the upper part's last two rows,
//!   turned) that take edges only to the full rows ([`Plan::output_from`]). Its states
//!   describe the same two rows: how many crossing edges each square received, and which
//!   of them the lower paths join.
//!
//! Every edge of the board is decided by exactly one part. A Hamiltonian cycle is one
//! upper state and one lower state that **fit**: every square of the two rows has
//! degree 2 in all (upper degree + lower degree = 2), and the upper paths and the lower
//! paths, alternating at their shared ends, close into a single cycle. The count is the
//! sum, over the pairs that fit, of the product of their numbers.
//!
//! **The join.** Both tables are keyed by the degree each square of the two rows needs
//! from the other part, sorted by it; only states with equal keys are paired, and each
//! pair is checked by walking the alternating cycle from the first end (at most 2w
//! steps). The mirror merge ([`super::frontier`]) is used in both parts: each part's
//! states after its last row are merged with their mirror images, then the smaller
//! table is expanded back (a merged state and its mirror image carry half its number
//! each: their numbers are equal, since each part is left-right symmetric), so that
//! the sum over the other, merged table counts each of its pairs once.
//!
//! Only closed tours (Hamiltonian cycles) are counted this way, on boards whose narrow
//! side is 3 to 8 (keys of 64 bits) and whose long side is at least 5.

use rayon::prelude::*;

use super::frontier::{self, Grown, Plan, Progress, Quantity, Request, Run};
use super::table::{Key, Shard, Tally};
use crate::board::Board;
use crate::error::InputError;

/// The memory estimate of the split, in states: the frontier program's estimate for
/// the board ([`frontier::estimate_states`]) where the upper part runs into the long
/// board's plateau (boards at least twice as long as wide), and 0.3 of it on shorter
/// boards, whose upper part stops before the middle rows' peak. Measured: 8x8 peaks at
/// 166,873,599 states (its upper part's 39th square) against the 6·10^8 of the
/// frontier estimate; `/usr/bin/time -v knightnet count --board 8x8 --closed
/// --max-memory 12` kept 7.4 GB resident (44 bytes a state).
pub fn estimate_states(board: Board) -> u64 {
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    let whole = frontier::estimate_states(board, Quantity::Cycles, false);
    if h < 2 * w {
        whole / 10 * 3
    } else {
        whole
    }
}

/// [`estimate_states`] in bytes.
pub fn estimate_bytes(board: Board) -> u64 {
    let w = board.rows().min(board.cols());
    estimate_states(board).saturating_mul(frontier::bytes_per_state(w))
}

/// Rows of the lower part (in processing order) for a board of `h` rows: the lower part
/// grows its full rows and two output rows, so it is kept the smaller side.
pub fn lower_rows(h: usize) -> usize {
    (h - 2) / 2
}

/// Whether a board's closed tours can be counted by splitting: a narrow side of 3 to 8
/// and a long side of at least 5.
pub fn fits(board: Board) -> bool {
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    (3..=8).contains(&w) && h >= 5
}

/// Check a request for the split before any work: closed tours, a board it takes, and
/// the memory estimate.
pub fn check(req: &Request) -> Result<(), InputError> {
    if req.quantity != Quantity::Cycles || req.start.is_some() {
        return Err(InputError::param(
            "--method split counts closed tours only: add --closed (and drop --start), or use --method frontier",
        ));
    }
    if !fits(req.board) {
        return Err(InputError::param(format!(
            "--method split needs a board whose narrow side is 3 to 8 and long side at least 5, not {}; use --method frontier",
            req.board
        )));
    }
    let est = estimate_bytes(req.board);
    if est > req.max_memory {
        return Err(InputError::TooLarge(format!(
            "counting on {} by the split method needs about {} of memory (estimate), above the bound of {}; raise --max-memory (GiB) to allow it",
            req.board,
            frontier::human_bytes(est),
            frontier::human_bytes(req.max_memory)
        )));
    }
    Ok(())
}

/// One state of a part, as the join needs it.
#[derive(Clone, Copy)]
struct Entry {
    /// Per square of the two rows (2 bits each, in the upper part's window order): the
    /// degree it needs from the other part.
    need: u64,
    /// Per path end (4 bits each, ends in window order): the index of the end its path
    /// joins it to.
    partner: u64,
    count: u128,
}

/// Count Hamiltonian cycles (closed tours) of `req.board` by splitting it.
pub fn run(req: &Request, mut progress: impl FnMut(Progress)) -> Result<Run, InputError> {
    check(req)?;
    match run_with::<u64>(req, &mut progress)? {
        Some(run) => Ok(run),
        None => run_with::<u128>(req, &mut progress)?.ok_or_else(|| frontier::overflow(req.board)),
    }
}

/// [`run`] with counts `C`; `None` when a count overflowed `C`.
fn run_with<C: Tally>(
    req: &Request,
    progress: &mut impl FnMut(Progress),
) -> Result<Option<Run>, InputError> {
    let upper = Plan::new(req.board, Quantity::Cycles, None);
    let (w, p) = upper.width();
    let h = req.board.squares() / w;
    let b = lower_rows(h);
    let s = h - b;
    let lower = Plan::new(req.board, Quantity::Cycles, None).output_from(b * w);
    let total = (s + b + 2) * w;
    let mut out = frontier::empty_run(&upper);
    let up: Vec<Shard<u64, C>> =
        match frontier::grow(req, &upper, s * w, total, &mut out, progress)? {
            Grown::States(t) => t,
            Grown::OutOfBudget => return Ok(Some(out)),
            Grown::Overflowed => return Ok(None),
        };
    let down: Vec<Shard<u64, C>> =
        match frontier::grow(req, &lower, (b + 2) * w, total, &mut out, progress)? {
            Grown::States(t) => t,
            Grown::OutOfBudget => return Ok(Some(out)),
            Grown::Overflowed => return Ok(None),
        };
    let (n_up, n_down) = (super::table::len(&up), super::table::len(&down));
    // Expand the smaller table's mirror merge; window position i of the lower part is
    // position p - i of the upper part.
    let (mut a, mut z) = if n_down <= n_up {
        (
            entries(&up, p, false, None),
            entries(&down, p, true, Some(&lower)),
        )
    } else {
        (
            entries(&up, p, false, Some(&upper)),
            entries(&down, p, true, None),
        )
    };
    drop(up);
    drop(down);
    a.par_sort_unstable_by_key(|e| e.need);
    z.par_sort_unstable_by_key(|e| e.need);
    let (groups, pairs) = groups(&a, &z);
    // Each pair checked is work like a transition: the budget covers the join too.
    if out.transitions.saturating_add(pairs) > req.max_transitions {
        return Ok(Some(out));
    }
    let count = join(&a, &z, &groups).ok_or_else(|| frontier::overflow(req.board))?;
    out.joined_pairs = pairs;
    out.count = Some(count);
    out.complete = true;
    Ok(Some(out))
}

/// The states of one part as join entries; `turned` for the lower part (its window is
/// the upper part's, reversed); `expand` to undo the mirror merge with that plan.
fn entries<C: Tally>(
    shards: &[Shard<u64, C>],
    p: usize,
    turned: bool,
    expand: Option<&Plan>,
) -> Vec<Entry> {
    shards
        .par_iter()
        .flat_map_iter(|shard| {
            shard.iter().flat_map(move |(k, v)| {
                let key = k.unpack(p);
                let count: u128 = (*v).into();
                let mut out = [None, None];
                match expand.map(|plan| plan.mirror_image(key)) {
                    Some(m) if m != key => {
                        debug_assert_eq!(count % 2, 0, "a merged pair carries twice one number");
                        out[0] = Some(entry(key, p, turned, count / 2));
                        out[1] = Some(entry(m, p, turned, count / 2));
                    }
                    _ => out[0] = Some(entry(key, p, turned, count)),
                }
                out.into_iter().flatten()
            })
        })
        .collect()
}

/// One state's join entry: its window codes read in the upper part's order.
fn entry(key: u128, p: usize, turned: bool, count: u128) -> Entry {
    let mut need = 0u64;
    let mut labels = [0u8; 16];
    let mut ends = 0usize;
    for j in 1..p {
        let i = if turned { p - j } else { j };
        let code = ((key >> (4 * i)) & 15) as u8;
        let degree = match code {
            0 => 0,
            1 => 2,
            _ => 1,
        };
        // The upper part needs what it lacks; the lower part gives what it has.
        let needed = if turned { degree } else { 2 - degree };
        need |= (needed as u64) << (2 * (j - 1));
        if code >= 3 {
            labels[ends] = code;
            ends += 1;
        }
    }
    let mut partner = 0u64;
    for e in 0..ends {
        let f = (0..ends)
            .find(|&f| f != e && labels[f] == labels[e])
            .expect("every path label appears twice in the window");
        partner |= (f as u64) << (4 * e);
    }
    Entry {
        need,
        partner,
        count,
    }
}

/// Whether the paths of one part and of the other, alternating at their shared ends,
/// close into one cycle through all `ends` of them.
fn one_cycle(a: u64, z: u64, ends: u32) -> bool {
    let mut e = 0u64;
    let mut walked = 0;
    loop {
        e = (a >> (4 * e)) & 15;
        e = (z >> (4 * e)) & 15;
        walked += 2;
        if e == 0 {
            return walked == ends;
        }
    }
}

/// The pairs of entries with equal keys: ranges of `a` and of `z` (both sorted by
/// `need`).
type Groups = Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>;

/// The groups of `a` and `z` to pair, and the number of pairs they hold.
fn groups(a: &[Entry], z: &[Entry]) -> (Groups, u64) {
    let mut groups = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < z.len() {
        let (ka, kz) = (a[i].need, z[j].need);
        if ka < kz {
            i += 1;
        } else if kz < ka {
            j += 1;
        } else {
            let i2 = i + a[i..].partition_point(|e| e.need == ka);
            let j2 = j + z[j..].partition_point(|e| e.need == kz);
            groups.push((i..i2, j..j2));
            i = i2;
            j = j2;
        }
    }
    let pairs = groups
        .iter()
        .map(|(x, y)| (x.len() as u64).saturating_mul(y.len() as u64))
        .fold(0u64, u64::saturating_add);
    (groups, pairs)
}

/// Sum of the products of the numbers of the pairs in `groups` that fit; `None` on
/// overflow.
fn join(a: &[Entry], z: &[Entry], groups: &Groups) -> Option<u128> {
    groups
        .par_iter()
        .map(|(ra, rz)| {
            // Squares needing exactly one edge from the other part are the path ends.
            let need = a[ra.start].need;
            let ends = (0..32).filter(|q| (need >> (2 * q)) & 3 == 1).count() as u32;
            let mut sum = 0u128;
            for x in &a[ra.clone()] {
                for y in &z[rz.clone()] {
                    if ends > 0 && one_cycle(x.partner, y.partner, ends) {
                        sum = sum.checked_add(x.count.checked_mul(y.count)?)?;
                    }
                }
            }
            Some(sum)
        })
        .try_reduce(|| 0, |x, y| x.checked_add(y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every edge of the board is decided by exactly one part: the upper part's edges
    /// and the lower part's (its own and the crossing ones) add up to the board's.
    #[test]
    fn the_two_parts_decide_every_edge_once() {
        for (rows, cols) in [(8, 8), (6, 6), (5, 9), (7, 3), (6, 11)] {
            let board = Board::new(rows, cols).unwrap();
            let upper = Plan::new(board, Quantity::Cycles, None);
            let (w, _) = upper.width();
            let h = board.squares() / w;
            let b = lower_rows(h);
            let lower = Plan::new(board, Quantity::Cycles, None).output_from(b * w);
            let edges = crate::graph::edge_count(rows, cols) as usize;
            assert_eq!(
                upper.edges_decided((h - b) * w) + lower.edges_decided((b + 2) * w),
                edges,
                "{board}"
            );
        }
    }

    /// The alternating walk: two parts whose paths join ends (0,1),(2,3) on one side
    /// and (1,2),(3,0) on the other close one cycle; (0,1),(2,3) on both close two.
    #[test]
    fn the_walk_tells_one_cycle_from_several() {
        let pairs = |p: &[usize]| {
            p.iter()
                .enumerate()
                .fold(0u64, |a, (e, &f)| a | (f as u64) << (4 * e))
        };
        let a = pairs(&[1, 0, 3, 2]);
        assert!(one_cycle(a, pairs(&[3, 2, 1, 0]), 4));
        assert!(!one_cycle(a, a, 4));
        assert!(one_cycle(pairs(&[1, 0]), pairs(&[1, 0]), 2));
        // Six ends: (0,1)(2,3)(4,5) against (1,2)(3,4)(5,0) is one cycle; against
        // (1,2)(3,0)(4,5) it leaves (4,5) apart.
        let a = pairs(&[1, 0, 3, 2, 5, 4]);
        assert!(one_cycle(a, pairs(&[5, 2, 1, 4, 3, 0]), 6));
        assert!(!one_cycle(a, pairs(&[3, 2, 1, 0, 5, 4]), 6));
    }
}

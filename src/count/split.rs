//! Closed and open tours counted by splitting the board at a row (meet in the middle).
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
//!   turned) that take edges only to the full rows (`Plan::output_from`). Its states
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
//! pair is checked for one alternating cycle (the crate's `count::cycle`: shuffles with
//! AVX2, a walk of at most `w` steps elsewhere). The mirror merge
//! ([`super::frontier`]) is used in both parts: each part's states after its last row
//! are merged with their mirror images, then the smaller table is expanded back (a
//! merged state and its mirror image carry half its number each: their numbers are
//! equal, since each part is left-right symmetric), so that the sum over the other,
//! merged table counts each of its pairs once.
//!
//! **Open tours** (Hamiltonian paths, from every start): the states also carry the
//! retired tour ends, and a square of the two rows may be a tour end, of degree 1 in
//! all. The smaller table is expanded once more, for each choice of the (at most two)
//! squares where the tour ends (`variants`); a pair fits when the walk from one tour
//! end, alternating parts, uses every path of both before reaching the other tour end.
//!
//! Boards: a narrow side of 3 to 8 (keys of 64 bits, at most 16 path ends in the two
//! rows) and a long side of at least 5.

use rayon::prelude::*;

use super::cycle;
use super::frontier::{self, FrontierRequest, FrontierRun, Grown, Plan, Progress, Quantity};
use super::table::{self, Key, Shard, Tally};
use crate::board::Board;
use crate::error::{Hint, InputError, Param, Refusal, Setting};

/// The memory estimate of the split, in states: the frontier program's estimate for
/// the board ([`frontier::estimate_states`]) where the upper part runs into the long
/// board's plateau (boards at least twice as long as wide); on shorter boards, whose
/// upper part stops before the middle rows' peak, 0.3 of it for closed tours and 0.6
/// for open tours. Measured peaks: 8x8 closed 166,873,599 states (the upper part's
/// 38th square) against the 6·10^8 of the frontier estimate, 8.9 GB resident; 7x7 open
/// 179,310,777 (its 33rd square) against 3·10^8, 11.0 GB resident (`/usr/bin/time -v`).
pub fn estimate_states(board: Board, quantity: Quantity) -> u64 {
    let w = board.rows().min(board.cols());
    let h = board.rows().max(board.cols());
    let whole = frontier::estimate_states(board, quantity, false);
    match (h < 2 * w, quantity) {
        (false, _) => whole,
        (true, Quantity::Paths) => whole / 10 * 6,
        (true, _) => whole / 10 * 3,
    }
}

/// [`estimate_states`] in bytes.
pub(crate) fn estimate_bytes(board: Board, quantity: Quantity) -> u64 {
    let w = board.rows().min(board.cols());
    estimate_states(board, quantity).saturating_mul(frontier::bytes_per_state(w))
}

/// Rows of the lower part (in processing order) for a board of `h` rows: the lower part
/// grows its full rows and two output rows, so it is kept the smaller side.
pub(crate) fn lower_rows(h: usize) -> usize {
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
pub fn check(req: &FrontierRequest) -> Result<(), InputError> {
    if req.quantity == Quantity::TwoFactors || req.start.is_some() {
        return Err(InputError::unsupported(
            Refusal::new("counts closed tours and open tours from every start")
                .about([Setting::with(Param::Method, "split")])
                .hint(Hint::Either(
                    Box::new(Hint::Drop(Param::Start)),
                    Box::new(Hint::Use(Setting::with(Param::Method, "frontier"))),
                )),
        ));
    }
    if !fits(req.board) {
        return Err(InputError::unsupported(
            Refusal::new(format!(
                "needs a board whose narrow side is 3 to 8 and long side at least 5, not {}",
                req.board
            ))
            .about([Setting::with(Param::Method, "split")])
            .hint(Hint::Use(Setting::with(Param::Method, "frontier"))),
        ));
    }
    let est = estimate_bytes(req.board, req.quantity);
    frontier::check_estimate(req, est, "the split method")?;
    frontier::check_fits_u128(req)
}

/// One state of a part, as the join needs it.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// The join key. Per square of the two rows (2 bits each, in the upper part's window
    /// order): the degree it needs from the other part. For open tours, at bit
    /// [`TOUR_ENDS`], the tour ends the other part must supply (upper part: the tour ends
    /// it has; lower part: 2 minus those it has), and the squares where a tour ends are
    /// counted here rather than in the degrees (see [`variants`]).
    need: u64,
    /// Closed tours: the matching of the path ends, numbered in window order
    /// ([`cycle`]: byte `e` the end that end `e`'s path joins it to). Open tours: per
    /// square (5 bits each, window order), the square its path joins it to (1-based),
    /// [`TERMINAL`] for a path to a retired tour end, 0 for a square that is no path end.
    partner: u128,
    count: u128,
    /// Open tours: the squares of the two rows where the tour ends (bit `j - 1` for
    /// square `j`), in the entries of [`variants`].
    ends: u32,
    /// Open tours: the number of paths (links) of this part.
    links: u8,
}

/// Bit of [`Entry::need`] where open tours keep their tour-end count.
const TOUR_ENDS: u32 = 40;

/// [`Entry::partner`] of a path end whose path leads to a retired tour end.
const TERMINAL: u128 = 31;

/// Count Hamiltonian cycles (closed tours) or Hamiltonian paths (open tours, from every
/// start) of `req.board` by splitting it.
pub fn run(
    req: &FrontierRequest,
    mut progress: impl FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    run_dyn(req, &mut progress)
}

/// [`run`] compiled once, whatever the caller's `progress` (as [`frontier::run`]).
fn run_dyn(
    req: &FrontierRequest,
    progress: &mut dyn FnMut(Progress),
) -> Result<FrontierRun, InputError> {
    check(req)?;
    match run_with::<u64>(req, progress)? {
        Some(run) => Ok(run),
        None => run_with::<u128>(req, progress)?.ok_or_else(|| frontier::overflow(req.board)),
    }
}

/// [`run`] with counts `C`; `None` when a count overflowed `C`.
fn run_with<C: Tally>(
    req: &FrontierRequest,
    progress: &mut dyn FnMut(Progress),
) -> Result<Option<FrontierRun>, InputError> {
    let q = req.quantity;
    let upper = Plan::new(req.board, q, None);
    let (w, p) = upper.width();
    let h = req.board.squares() / w;
    let b = lower_rows(h);
    let s = h - b;
    let lower = Plan::new(req.board, q, None).output_from(b * w);
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
    // The blocks the parts' largest squares freed are not needed again.
    crate::memory::release_free();
    let (n_up, n_down) = (table::len(&up), table::len(&down));
    // Expand the smaller table's mirror merge; window position i of the lower part is
    // position p - i of the upper part.
    let board = req.board;
    let (mut a, mut z) = if n_down <= n_up {
        (
            entries(up, p, q, false, None, board)?,
            entries(down, p, q, true, Some(&lower), board)?,
        )
    } else {
        (
            entries(up, p, q, false, Some(&upper), board)?,
            entries(down, p, q, true, None, board)?,
        )
    };
    if q == Quantity::Paths {
        // The squares where the tour ends are chosen on the smaller side; its entries
        // multiply, so their memory is checked first.
        let turned = z.len() <= a.len();
        let side = if turned { &z } else { &a };
        let made = variants_len(side, turned);
        let bytes =
            (made + (a.len() + z.len()) as u64).saturating_mul(std::mem::size_of::<Entry>() as u64);
        if bytes > req.max_memory {
            return Err(InputError::too_large(
                Refusal::new(format!(
                    "counting on {} by the split method needs {made} join entries for the squares where open tours end (about {}), above the bound of {}",
                    req.board,
                    crate::memory::human(bytes),
                    crate::memory::human(req.max_memory)
                ))
                .hint(Hint::Raise(Param::MaxMemory)),
            ));
        }
        crate::memory::check(
            || {
                format!(
                    "counting on {} by the split method ({made} join entries)",
                    req.board
                )
            },
            bytes,
        )?;
        if turned {
            z = variants(&z, true);
        } else {
            a = variants(&a, false);
        }
    }
    a.par_sort_unstable_by_key(|e| e.need);
    z.par_sort_unstable_by_key(|e| e.need);
    let (groups, pairs) = groups(&a, &z);
    // Each pair checked is work like a transition: the budget covers the join too.
    if out.transitions.saturating_add(pairs) > req.max_transitions {
        return Ok(Some(out));
    }
    let count =
        join(&a, &z, &groups, q == Quantity::Paths).ok_or_else(|| frontier::overflow(req.board))?;
    out.pairs_joined = pairs;
    out.count = Some(count);
    out.complete = true;
    Ok(Some(out))
}

/// The states of one part as join entries; `turned` for the lower part (its window is
/// the upper part's, reversed); `expand` to undo the mirror merge with that plan. Each
/// partition writes its entries into its own stretch of the result, and is freed when
/// it is done.
fn entries<C: Tally>(
    shards: Vec<Shard<u64, C>>,
    p: usize,
    q: Quantity,
    turned: bool,
    expand: Option<&Plan>,
    board: Board,
) -> Result<Vec<Entry>, InputError> {
    // A merged state whose mirror image is another state stands for both.
    let mirror = |key: u128| {
        expand
            .map(|plan| plan.mirror_image(key))
            .filter(|&m| m != key)
    };
    let sizes: Vec<usize> = shards
        .par_iter()
        .map(|shard| match expand {
            None => table::states_in(shard),
            Some(_) => shard
                .iter()
                .flatten()
                .map(|&(k, _)| 1 + usize::from(mirror(k.unpack(p)).is_some()))
                .sum(),
        })
        .collect();
    let total: usize = sizes.iter().sum();
    let what = format!("counting on {board} by the split method (the join entries)");
    // Filled in parallel before the entries are written: on 8x8 they take 4.3 GB.
    let mut all: Vec<Entry> = crate::memory::try_with_capacity(total, &what)?;
    all.par_extend(rayon::iter::repeat_n(Entry::default(), total));
    let mut stretches = Vec::with_capacity(shards.len());
    let mut rest = all.as_mut_slice();
    for &n in &sizes {
        let (stretch, after) = rest.split_at_mut(n);
        stretches.push(stretch);
        rest = after;
    }
    shards
        .into_par_iter()
        .zip(stretches)
        .for_each(|(shard, stretch)| {
            let mut slots = stretch.iter_mut();
            let mut put = |e: Entry| *slots.next().expect("sized above") = e;
            for (k, v) in shard.into_iter().flatten() {
                let key = k.unpack(p);
                let count: u128 = v.into();
                match mirror(key) {
                    Some(m) => {
                        assert_eq!(count % 2, 0, "a merged pair carries twice one number");
                        put(entry(key, p, q, turned, count / 2));
                        put(entry(m, p, q, turned, count / 2));
                    }
                    None => put(entry(key, p, q, turned, count)),
                }
            }
        });
    Ok(all)
}

/// One state's join entry: its window codes read in the upper part's order.
fn entry(key: u128, p: usize, q: Quantity, turned: bool, count: u128) -> Entry {
    let window = frontier::decode(key, p);
    let code = |j: usize| usize::from(window[if turned { p - j } else { j }]);
    // Per square, the degree it needs from the other part: the upper part needs what
    // it lacks, the lower part gives what it has (codes 0, 1 (finished), path ends).
    let needed = if turned { [0u64, 2, 1] } else { [2u64, 0, 1] };
    let mut need = 0u64;
    for j in 1..p {
        need |= needed[code(j).min(2)] << (2 * (j - 1));
    }
    // Both loops below keep, per path label, what they need of the end seen first;
    // label 0 stands for every square that is no label's end. Every path label appears
    // twice. The loops have no branch on the codes, which are as good as random.
    let (partner, links) = if q == Quantity::Paths {
        let tour_ends = ((key >> (4 * p)) & 3) as u64;
        need |= (if turned { 2 - tour_ends } else { tour_ends }) << TOUR_ENDS;
        // Per square (1-based), the square its path joins it to, or TERMINAL.
        let mut partner = 0u128;
        let mut path_ends = tour_ends as u8;
        // Per path label, the square of the end seen first.
        let mut first = [0usize; 16];
        for j in 1..p {
            let c = code(j);
            let label = if c >= 3 { c } else { 0 };
            let f = first[label];
            first[label] = j;
            let second = u128::from(label != 0 && f != 0).wrapping_neg();
            let mates = (f as u128) << (5 * (j - 1)) | (j as u128) << (5 * f.saturating_sub(1));
            partner |= second & mates;
            partner |= u128::from(c == 2).wrapping_neg() & TERMINAL << (5 * (j - 1));
            path_ends += u8::from(c >= 2);
        }
        (partner, path_ends / 2)
    } else {
        // Path ends numbered in window order: the matching of their paths ([`cycle`];
        // at most 16 ends), built in bytes (with 128-bit shifts an entry took about
        // 175 ns); byte 16 takes the writes of the ends that complete no path.
        let mut matching = [0u8; 17];
        matching[..16].copy_from_slice(&cycle::IDENTITY.to_le_bytes());
        let mut ends = 0u8;
        // Per path label, the number of the end seen first, or NONE.
        const NONE: u8 = 16;
        let mut first = [NONE; 16];
        for j in 1..p {
            let c = code(j);
            let label = if c >= 3 { c } else { 0 };
            let fe = first[label];
            first[label] = if label != 0 { ends } else { NONE };
            let second = label != 0 && fe != NONE;
            let (at_first, at_second) = if second { (fe, ends) } else { (NONE, NONE) };
            matching[usize::from(at_first)] = ends;
            matching[usize::from(at_second)] = fe;
            ends += u8::from(label != 0);
        }
        let partner = u128::from_le_bytes(matching[..16].try_into().expect("16 bytes"));
        (partner, 0)
    };
    Entry {
        need,
        partner,
        count,
        ends: 0,
        links,
    }
}

/// Open tours: each entry once for every choice of the squares of the two rows where
/// the tour ends (none, one or two, as many as the tour ends the part lacks). A square
/// where the tour ends has degree 1 in all, so it takes one edge less than the other
/// part's key says; the choice is written into the key, so that equal keys fit.
fn variants(side: &[Entry], turned: bool) -> Vec<Entry> {
    side.par_iter()
        .flat_map_iter(|e| {
            let (free, squares) = tour_end_squares(e, turned);
            let tour_ends = (e.need >> TOUR_ENDS) as u32;
            let degrees = e.need & ((1u64 << TOUR_ENDS) - 1);
            let place = |mask: u32| {
                // One edge per tour-end square, in its 2-bit lane.
                let lanes: u64 = bits(mask).map(|j| 1u64 << (2 * j)).sum();
                let k = mask.count_ones();
                let mut v = *e;
                let (deg, t) = if turned {
                    (degrees + lanes, tour_ends - k)
                } else {
                    (degrees - lanes, tour_ends + k)
                };
                v.need = deg | (u64::from(t) << TOUR_ENDS);
                v.ends = mask;
                v
            };
            let mut out = vec![*e];
            for i in bits(squares) {
                if free >= 1 {
                    out.push(place(1 << i));
                }
                if free >= 2 {
                    for j in bits(squares >> (i + 1) << (i + 1)) {
                        out.push(place(1 << i | 1 << j));
                    }
                }
            }
            out
        })
        .collect()
}

/// How many entries [`variants`] makes of `side`.
fn variants_len(side: &[Entry], turned: bool) -> u64 {
    side.par_iter()
        .map(|e| {
            let (free, squares) = tour_end_squares(e, turned);
            let m = u64::from(squares.count_ones());
            1 + if free >= 1 { m } else { 0 } + if free >= 2 { m * (m - 1) / 2 } else { 0 }
        })
        .sum()
}

/// The tour ends an entry may still place on the two rows (those its part lacks) and
/// the squares that can take one (bit `j` for square `j + 1`): in the upper part those
/// needing an edge, in the lower part those with at most one.
fn tour_end_squares(e: &Entry, turned: bool) -> (u32, u32) {
    let tour_ends = (e.need >> TOUR_ENDS) as u32;
    let free = if turned { tour_ends } else { 2 - tour_ends };
    let squares = (0..16)
        .filter(|&j| {
            let d = (e.need >> (2 * j)) & 3;
            if turned { d <= 1 } else { d >= 1 }
        })
        .fold(0u32, |m, j| m | 1 << j);
    (free, squares)
}

/// The set bits of `mask`, lowest first.
fn bits(mask: u32) -> impl Iterator<Item = u32> {
    (0..32).filter(move |j| mask >> j & 1 == 1)
}

/// Open tours: whether the upper paths `a` and the lower paths `z` (see
/// [`Entry::partner`]), with the tour ending on the squares `ends`, make one path
/// through all `links` of them. The walk starts at a tour end and, at each square,
/// leaves by the other part's path; it must use every path before it reaches the
/// other tour end.
fn one_path(a: u128, z: u128, ends: u32, links: u32) -> bool {
    let at = |x: u128, j: u32| (x >> (5 * (j - 1))) & 31;
    let (mut pos, mut upper, mut walked) = if ends != 0 {
        let j = ends.trailing_zeros() + 1;
        (j, at(a, j) != 0, 0)
    } else if let Some(j) = (1..=16).find(|&j| at(a, j) == TERMINAL) {
        // From the upper part's retired tour end to square j, then on by the lower part.
        (j, false, 1)
    } else if let Some(j) = (1..=16).find(|&j| at(z, j) == TERMINAL) {
        (j, true, 1)
    } else {
        return false;
    };
    for _ in 0..=2 * links {
        let to = at(if upper { a } else { z }, pos);
        if to == 0 {
            return false;
        }
        walked += 1;
        if to == TERMINAL {
            break;
        }
        pos = to as u32;
        if ends >> (pos - 1) & 1 == 1 {
            break;
        }
        upper = !upper;
    }
    walked == links
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
fn join(a: &[Entry], z: &[Entry], groups: &Groups, paths: bool) -> Option<u128> {
    let closer = cycle::Closer::detect();
    groups
        .par_iter()
        .map(|(ra, rz)| {
            // Squares needing exactly one edge from the other part are the path ends.
            let need = a[ra.start].need;
            let ends = (0..16).filter(|q| (need >> (2 * q)) & 3 == 1).count() as u32;
            let zs = &z[rz.clone()];
            let mut sum = 0u128;
            for x in &a[ra.clone()] {
                // The numbers of the entries that fit `x`, added before one product.
                let fit = if paths {
                    zs.iter().try_fold(0u128, |fit, y| {
                        let fits = one_path(
                            x.partner,
                            y.partner,
                            x.ends | y.ends,
                            u32::from(x.links + y.links),
                        );
                        fit.checked_add(cycle::keep(y.count, fits))
                    })?
                } else {
                    closer.sum(x.partner, ends, zs, |y| (y.partner, y.count))?
                };
                sum = sum.checked_add(x.count.checked_mul(fit)?)?;
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

    /// Open tours: the walk from a tour end must use every path of both parts.
    #[test]
    fn the_walk_tells_one_path_from_a_path_and_cycles() {
        // Per square (1-based), the square its path joins it to, or TERMINAL.
        let at = |links: &[(u32, u128)]| {
            links
                .iter()
                .fold(0u128, |a, &(j, to)| a | to << (5 * (j - 1)))
        };
        // Upper 1-2; lower: retired tour ends to 1 and to 2: one path, three links.
        let upper = at(&[(1, 2), (2, 1)]);
        let lower = at(&[(1, TERMINAL), (2, TERMINAL)]);
        assert!(one_path(upper, lower, 0, 3));
        // With a cycle 3-4 beside it (upper 3-4, lower 3-4): not one path.
        let upper2 = at(&[(1, 2), (2, 1), (3, 4), (4, 3)]);
        let lower2 = at(&[(1, TERMINAL), (2, TERMINAL), (3, 4), (4, 3)]);
        assert!(!one_path(upper2, lower2, 0, 5));
        // The tour ending on squares 1 (upper path 1-2) and 3 (lower path 2-3).
        let upper3 = at(&[(1, 2), (2, 1)]);
        let lower3 = at(&[(2, 3), (3, 2)]);
        assert!(one_path(upper3, lower3, 0b101, 2));
        // Two paths side by side (upper 1-2, lower 3-4, tour ends on all four) are not one.
        let lower4 = at(&[(3, 4), (4, 3)]);
        assert!(!one_path(upper3, lower4, 0b1111, 2));
    }
}

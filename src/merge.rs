//! Joining the cycles of a degree-2 cover (the network's several-cycle outcome) into one
//! closed tour: on the knight's board ([`merge_cycles`]) and, through a trait of the
//! moves (`Adjacency`), on any graph (other leapers, surfaces, shapes, graph files),
//! where "knight move" below reads "edge of the graph".
//!
//! Two disjoint cycles with moves `(a, b)` in one and `(c, d)` in the other fuse into one
//! cycle when `a–c` and `b–d` are knight moves: drop `(a, b)` and `(c, d)`, add `(a, c)`
//! and `(b, d)` (each cycle minus one move is a path, and the two new moves join the
//! paths end to end). Parberry (2020, "Tourneys and the fast generation and obfuscation
//! of closed knight's tours", arXiv:2001.06044) joins the cycles of such covers
//! ("tourneys") the same way; this module is an independent implementation.
//!
//! # Algorithm
//! A label per square says which cycle it is on. One pass visits every square `a`, each
//! of its two cover moves `(a, b)`, each knight neighbour `c` of `a` on another cycle,
//! and each cover move `(c, d)`; the first `d` with `b–d` a knight move is a swap,
//! applied at once (so later candidates see the merged cycles; the smaller cycle takes
//! the larger one's label). A pass costs O(N) (at most 2·8·2 candidates per square);
//! passes repeat until one cycle is left or a pass finds no swap. Then, if needed, a
//! small local search: a random exchange of two moves inside one cycle (which keeps the
//! cover degree-2 but changes its moves, and may split the cycle), made on or next to a
//! cycle that is not the largest (where a joining swap is missing), and another pass
//! over those cycles; up to `max_local_moves` times. A local move costs the size of the
//! cycles other than the largest and the smaller side of the move along its cycle, not
//! the board, so boards of 10⁸ squares, which need a local move per million squares or
//! so, stay linear.
//!
//! Every result is checked by the tour oracle ([`Tour::new`]).

use rand::Rng;
use serde::Serialize;

use crate::board::Board;
use crate::cover::{Circuit, Cover};
use crate::graph::KnightGraph;
use crate::tour::Tour;

/// What merging did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MergeReport {
    /// Cycles in the input cover.
    pub cycles_before: usize,
    /// Cycles left at the end (1 on success).
    pub cycles_after: usize,
    /// Swaps that joined two cycles.
    pub swaps: u32,
    /// Random exchanges inside one cycle made by the fallback local search.
    pub local_moves: u32,
    /// Full passes over the board.
    pub passes: u32,
}

/// The moves a merge may use: a square's neighbours, in a fixed order (the order of
/// the scan, and of the fallback's random draw), and whether two squares are joined.
/// The knight's board ([`Board`], its knight moves) and any graph ([`KnightGraph`], its
/// edges in incidence order).
pub(crate) trait Adjacency {
    /// The neighbours of `s`.
    fn neighbours(&self, s: u32) -> impl Iterator<Item = u32> + '_;
    /// Whether `a` and `b` are joined by a move.
    fn adjacent(&self, a: u32, b: u32) -> bool;
}

impl Adjacency for Board {
    #[inline]
    fn neighbours(&self, s: u32) -> impl Iterator<Item = u32> + '_ {
        self.knight_moves(s)
    }

    #[inline]
    fn adjacent(&self, a: u32, b: u32) -> bool {
        self.is_knight_move(a, b)
    }
}

impl Adjacency for KnightGraph {
    fn neighbours(&self, s: u32) -> impl Iterator<Item = u32> + '_ {
        self.incident(s)
            .iter()
            .map(move |&e| self.other(e as usize, s))
    }

    fn adjacent(&self, a: u32, b: u32) -> bool {
        self.edge_between(a, b).is_some()
    }
}

/// Which cycle each square is on: a label per square and, per label, the cycle's size
/// and one of its squares. Two cycles that a swap joins take the label of the larger,
/// the smaller one's squares being relabelled by walking it (so a square is relabelled
/// O(log N) times at most); a local move that splits a cycle gives the smaller piece a
/// new label, found by walking from both sides of the move at once (so the cost is the
/// smaller piece, not the board).
struct Labels {
    label: Vec<u32>,
    size: Vec<u32>,
    rep: Vec<u32>,
    /// Labels that may still be in use (some may have size 0; see [`Labels::live`]).
    live: Vec<u32>,
    count: usize,
}

impl Labels {
    /// Label the cycles of `cover` in the order of their smallest squares.
    fn new(cover: &Cover) -> Labels {
        const NONE: u32 = u32::MAX;
        let n = cover.squares();
        let mut labels = Labels {
            label: vec![NONE; n],
            size: Vec::new(),
            rep: Vec::new(),
            live: Vec::new(),
            count: 0,
        };
        for s in 0..n as u32 {
            if labels.label[s as usize] == NONE {
                let id = labels.size.len() as u32;
                let len = cover.walk_cycle(s, |t| labels.label[t as usize] = id);
                labels.size.push(len as u32);
                labels.rep.push(s);
                labels.live.push(id);
            }
        }
        labels.count = labels.size.len();
        labels
    }

    #[inline]
    fn of(&self, s: u32) -> u32 {
        self.label[s as usize]
    }

    /// Before a swap joins the cycles through `a` and `c`: give the smaller one the
    /// larger one's label.
    fn join(&mut self, cover: &Cover, a: u32, c: u32) {
        let (la, lc) = (self.of(a), self.of(c));
        let (from, small, big) = if self.size[la as usize] < self.size[lc as usize] {
            (a, la, lc)
        } else {
            (c, lc, la)
        };
        cover.walk_cycle(from, |t| self.label[t as usize] = big);
        self.size[big as usize] += self.size[small as usize];
        self.size[small as usize] = 0;
        self.count -= 1;
    }

    /// After the exchange `(a,b),(c,d) → (a,c),(b,d)` inside one cycle: if it split
    /// the cycle in two (`a` and `b` now apart), give the smaller piece a new label.
    /// Walks from `a` (away from `c`) and from `b` (away from `d`) in lockstep: a
    /// walker that comes back to its start has gone round its piece; one that meets
    /// the other's start shows that nothing split.
    fn after_local_move(&mut self, cover: &Cover, a: u32, b: u32, c: u32, d: u32) {
        let mut wa = (c, a);
        let mut wb = (d, b);
        let mut steps = 0u32;
        let (piece, len) = loop {
            wa = (wa.1, cover.next(wa.0, wa.1));
            wb = (wb.1, cover.next(wb.0, wb.1));
            steps += 1;
            if wa.1 == b || wb.1 == a {
                return;
            }
            if wa.1 == a {
                break ((a, b), steps);
            }
            if wb.1 == b {
                break ((b, a), steps);
            }
        };
        let old = self.of(a);
        let id = self.size.len() as u32;
        cover.walk_cycle(piece.0, |t| self.label[t as usize] = id);
        self.size.push(len);
        self.rep.push(piece.0);
        self.size[old as usize] -= len;
        self.rep[old as usize] = piece.1;
        self.live.push(id);
        self.count += 1;
    }

    /// The labels in use, in creation order.
    fn live(&mut self) -> &[u32] {
        let size = &self.size;
        self.live.retain(|&l| size[l as usize] > 0);
        &self.live
    }
}

/// One pass of cycle-joining swaps over `squares` (as first square `a` of a swap);
/// returns the swaps made.
fn pass<M: Adjacency + ?Sized>(
    cover: &mut Cover,
    moves: &M,
    squares: impl Iterator<Item = u32>,
    labels: &mut Labels,
) -> u32 {
    let mut swaps = 0;
    for a in squares {
        'again: loop {
            if labels.count == 1 {
                return swaps;
            }
            for slot in 0..2 {
                let b = cover.pair(a)[slot];
                if cover.is_fixed(a, b) {
                    continue;
                }
                let ra = labels.of(a);
                for c in moves.neighbours(a) {
                    if c == b || labels.of(c) == ra {
                        continue;
                    }
                    for d in cover.pair(c) {
                        if moves.adjacent(b, d) && !cover.is_fixed(c, d) {
                            labels.join(cover, a, c);
                            cover.exchange(a, b, c, d);
                            swaps += 1;
                            continue 'again;
                        }
                    }
                }
            }
            break;
        }
    }
    swaps
}

/// Squares on the cycles other than the largest, and their knight neighbours, in the
/// order of a scan of the board (each square, then its knight moves, first appearance
/// kept): where a local move can open up a joining swap. The largest cycle is the one
/// through the last square of the board among the cycles of the largest size. Costs
/// the size of the other cycles, not the board.
fn stuck_region<M: Adjacency + ?Sized>(cover: &Cover, moves: &M, labels: &mut Labels) -> Vec<u32> {
    let live = labels.live().to_vec();
    let Some(max) = live.iter().map(|&l| labels.size[l as usize]).max() else {
        return Vec::new();
    };
    let tied: Vec<u32> = live
        .iter()
        .copied()
        .filter(|&l| labels.size[l as usize] == max)
        .collect();
    let largest = if tied.len() == 1 {
        tied[0]
    } else {
        let last_square = |l: u32| {
            let mut top = 0;
            cover.walk_cycle(labels.rep[l as usize], |t| top = top.max(t));
            top
        };
        *tied
            .iter()
            .max_by_key(|&&l| last_square(l))
            .expect("a largest cycle")
    };
    let others = live.iter().filter(|&&l| l != largest);
    let count: usize = others
        .clone()
        .map(|&l| labels.size[l as usize] as usize)
        .sum();
    let mut region = Vec::new();
    let mut add = |s: u32, seen: &mut dyn FnMut(u32) -> bool| {
        for t in std::iter::once(s).chain(moves.neighbours(s)) {
            if seen(t) {
                region.push(t);
            }
        }
    };
    let n = cover.squares();
    if count.saturating_mul(64) < n {
        // Few squares (the usual case): sort them, and a hash set for the neighbours.
        let mut squares = Vec::with_capacity(count);
        for &l in others {
            cover.walk_cycle(labels.rep[l as usize], |t| squares.push(t));
        }
        squares.sort_unstable();
        let mut mark = std::collections::HashSet::new();
        for s in squares {
            add(s, &mut |t| mark.insert(t));
        }
    } else {
        // A large piece (a local move split the largest cycle far from its moves): the
        // squares and the neighbours seen as bits, read in board order.
        let mut on = vec![0u64; n.div_ceil(64)];
        for &l in others {
            cover.walk_cycle(labels.rep[l as usize], |t| {
                on[t as usize / 64] |= 1 << (t % 64)
            });
        }
        let mut mark = vec![0u64; n.div_ceil(64)];
        for (w, &word) in on.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let s = (w * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                add(s, &mut |t| {
                    let (i, bit) = (t as usize / 64, 1u64 << (t % 64));
                    let fresh = mark[i] & bit == 0;
                    mark[i] |= bit;
                    fresh
                });
            }
        }
    }
    region
}

/// A random exchange of two moves of the same cycle that keeps every degree 2, with
/// its first square drawn from `region`: the squares `(a, b, c, d)` of the exchange
/// `(a,b),(c,d) → (a,c),(b,d)`, not yet made.
fn random_local_move<M: Adjacency + ?Sized, R: Rng + ?Sized>(
    cover: &Cover,
    moves: &M,
    rng: &mut R,
    region: &[u32],
) -> Option<(u32, u32, u32, u32)> {
    if region.is_empty() {
        return None;
    }
    for _ in 0..64 * region.len() {
        let a = region[rng.random_range(0..region.len())];
        let b = cover.pair(a)[rng.random_range(0..2)];
        let k = moves.neighbours(a).count();
        let Some(c) = moves.neighbours(a).nth(rng.random_range(0..k.max(1))) else {
            continue;
        };
        let d = cover.pair(c)[rng.random_range(0..2)];
        let distinct = c != b && d != a && d != b;
        let kept = !cover.is_fixed(a, b) && !cover.is_fixed(c, d);
        if distinct
            && kept
            && moves.adjacent(b, d)
            && !cover.has_move(a, c)
            && !cover.has_move(b, d)
        {
            return Some((a, b, c, d));
        }
    }
    None
}

/// Join the cycles of a degree-2 cover of `board` into one closed tour.
///
/// # Arguments
/// - `cycles`: the cover, as the output of `crate::tour::cycles_from_edges` (every
///   square on exactly one cycle);
/// - `rng`: used only by the fallback local search;
/// - `max_local_moves`: budget of the fallback.
///
/// # Returns
/// The tour (validated by the oracle) when one cycle was reached, and what was done.
///
/// # Complexity
/// O(N) per pass over an N-square board; in practice one or two passes.
pub fn merge_cycles<R: Rng + ?Sized>(
    board: Board,
    cycles: &[Vec<u32>],
    rng: &mut R,
    max_local_moves: u32,
) -> (Option<Tour>, MergeReport) {
    let cover = Cover::from_cycles(board.squares(), cycles);
    let (circuit, report) = merge_cover(board, cover, rng, max_local_moves);
    (circuit.map(Circuit::into_tour), report)
}

/// [`merge_cycles`] on a cover of `board` held as neighbour pairs (every square set),
/// returning the one-cycle cover itself: 8 bytes per square for the cover and 4 for the
/// cycle labels while merging, whatever the number of cycles.
pub(crate) fn merge_cover<R: Rng + ?Sized>(
    board: Board,
    cover: Cover,
    rng: &mut R,
    max_local_moves: u32,
) -> (Option<Circuit>, MergeReport) {
    let (cover, report) = merge_on(cover, &board, rng, max_local_moves);
    (cover.map(|c| Circuit::new(board, c)), report)
}

/// The merge on any graph: the cover's cycles joined by swaps whose new moves are edges
/// of `moves` ([`Adjacency`]); the one-cycle cover when one cycle was reached.
pub(crate) fn merge_on<M: Adjacency + ?Sized, R: Rng + ?Sized>(
    mut cover: Cover,
    moves: &M,
    rng: &mut R,
    max_local_moves: u32,
) -> (Option<Cover>, MergeReport) {
    let mut labels = Labels::new(&cover);
    let mut report = MergeReport {
        cycles_before: labels.count,
        cycles_after: labels.count,
        swaps: 0,
        local_moves: 0,
        passes: 0,
    };
    let n = cover.squares() as u32;
    // After a local move only the leftover cycles can be joined, and every join involves
    // one of them, so later passes visit only those cycles' squares and their neighbours.
    let mut region: Option<Vec<u32>> = None;
    loop {
        loop {
            report.passes += 1;
            let swaps = match &region {
                None => pass(&mut cover, moves, 0..n, &mut labels),
                Some(r) => pass(&mut cover, moves, r.iter().copied(), &mut labels),
            };
            report.swaps += swaps;
            if swaps == 0 || labels.count == 1 {
                break;
            }
        }
        if labels.count == 1 || report.local_moves >= max_local_moves {
            break;
        }
        let stuck = stuck_region(&cover, moves, &mut labels);
        let Some((a, b, c, d)) = random_local_move(&cover, moves, rng, &stuck) else {
            break;
        };
        if labels.of(a) == labels.of(c) {
            cover.exchange(a, b, c, d);
            labels.after_local_move(&cover, a, b, c, d);
        } else {
            // Not reached after a pass without swaps (which leaves no joining swap), but
            // a move across two cycles joins them.
            labels.join(&cover, a, c);
            cover.exchange(a, b, c, d);
        }
        report.local_moves += 1;
        region = Some(stuck_region(&cover, moves, &mut labels));
    }
    report.cycles_after = labels.count;
    drop(labels);
    ((report.cycles_after == 1).then_some(cover), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng_from_seed;

    #[test]
    fn labels_follow_joins_and_splits() {
        // A network cover of 6x6 with three cycles or more: join two by a swap, split
        // them again by the inverse exchange, and check the labels against a fresh
        // labelling each time.
        let board = Board::new(6, 6).unwrap();
        let graph = crate::graph::KnightGraph::new(board);
        let net = crate::network::Network::new(&graph, crate::network::Preset::Parberry.params())
            .unwrap();
        let mut rng = rng_from_seed(5);
        let cycles = loop {
            let a = net.attempt(&mut rng, None);
            if a.cycles.len() >= 3 {
                break a.cycles;
            }
        };
        let mut cover = Cover::from_cycles(board.squares(), &cycles);
        let mut labels = Labels::new(&cover);
        assert_eq!(labels.count, cycles.len());
        let same_partition = |labels: &Labels, cover: &Cover| {
            let fresh = Labels::new(cover);
            assert_eq!(fresh.count, labels.count);
            for x in 0..36 {
                for y in 0..36 {
                    assert_eq!(fresh.of(x) == fresh.of(y), labels.of(x) == labels.of(y));
                }
            }
            let live: Vec<u32> = labels
                .live
                .iter()
                .copied()
                .filter(|&l| labels.size[l as usize] > 0)
                .collect();
            assert_eq!(live.len(), labels.count);
            for l in live {
                let on: Vec<u32> = (0..36).filter(|&s| labels.of(s) == l).collect();
                assert_eq!(on.len(), labels.size[l as usize] as usize);
                assert!(on.contains(&labels.rep[l as usize]));
            }
        };
        // Every joining swap the first pass would make, then the inverse exchange.
        let mut joined = 0;
        'outer: for a in 0..36u32 {
            for b in cover.pair(a) {
                for c in board.knight_moves(a) {
                    if c == b || labels.of(c) == labels.of(a) {
                        continue;
                    }
                    for d in cover.pair(c) {
                        if board.is_knight_move(b, d) {
                            labels.join(&cover, a, c);
                            cover.exchange(a, b, c, d);
                            same_partition(&labels, &cover);
                            // (a,c),(b,d) -> (a,b),(c,d): splits the cycle again.
                            cover.exchange(a, c, b, d);
                            labels.after_local_move(&cover, a, c, b, d);
                            same_partition(&labels, &cover);
                            assert_eq!(labels.count, cycles.len());
                            joined += 1;
                            if joined == 5 {
                                break 'outer;
                            }
                        }
                    }
                }
            }
        }
        assert!(joined > 0, "some pair of cycles of the cover can be joined");
    }

    #[test]
    fn a_single_cycle_is_returned_unchanged() {
        // A cover that is already one cycle needs no swap and keeps its moves.
        let board = Board::new(6, 6).unwrap();
        let mut rng = rng_from_seed(1);
        let graph = crate::graph::KnightGraph::new(board);
        let net = crate::network::Network::new(&graph, crate::network::Preset::Parberry.params())
            .unwrap();
        let tour = net
            .solve(&mut rng)
            .tour
            .expect("the network finds 6x6 tours");
        let (merged, report) = merge_cycles(board, &[tour.squares().to_vec()], &mut rng, 10);
        assert_eq!(merged.unwrap().moves(), tour.moves());
        assert_eq!(report.swaps, 0);
        assert_eq!(report.cycles_after, 1);
    }
}

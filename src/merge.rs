//! Joining the cycles of a degree-2 cover (the network's several-cycle outcome) into one
//! closed tour.
//!
//! Two disjoint cycles with moves `(a, b)` in one and `(c, d)` in the other fuse into one
//! cycle when `a–c` and `b–d` are knight moves: drop `(a, b)` and `(c, d)`, add `(a, c)`
//! and `(b, d)` (each cycle minus one move is a path, and the two new moves join the
//! paths end to end). Parberry (2020, "Tourneys and the fast generation and obfuscation
//! of closed knight's tours", arXiv:2001.06044) joins the cycles of such covers
//! ("tourneys") the same way; this module is an independent implementation.
//!
//! # Algorithm
//! A union-find over squares tracks which cycle each square is on. One pass visits every
//! square `a`, each of its two cover moves `(a, b)`, each knight neighbour `c` of `a` on
//! another cycle, and each cover move `(c, d)`; the first `d` with `b–d` a knight move
//! is a swap, applied at once (so later candidates see the merged cycles). A pass costs
//! O(N) (at most 2·8·2 candidates per square); passes repeat until one cycle is left or
//! a pass finds no swap. Then, if needed, a small local search: a random exchange of two
//! moves inside one cycle (which keeps the cover degree-2 but changes its moves), made
//! on or next to a cycle that is not the largest (where a joining swap is missing), a
//! fresh component count, and another pass; up to `max_local_moves` times.
//!
//! Every result is checked by the tour oracle ([`Tour::new`]).

use rand::Rng;
use serde::Serialize;

use crate::board::Board;
use crate::tour::{cycles_from_edges, Tour};

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

/// Union-find with path halving and union by size.
struct Dsu {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu {
            parent: (0..n as u32).collect(),
            size: vec![1; n],
        }
    }

    fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = self.parent[x as usize];
        }
        x
    }

    fn union(&mut self, x: u32, y: u32) {
        let (mut x, mut y) = (self.find(x), self.find(y));
        if x == y {
            return;
        }
        if self.size[x as usize] < self.size[y as usize] {
            std::mem::swap(&mut x, &mut y);
        }
        self.parent[y as usize] = x;
        self.size[x as usize] += self.size[y as usize];
    }
}

/// A degree-2 cover as a neighbour pair per square.
struct Cover {
    board: Board,
    nbr: Vec<[u32; 2]>,
}

impl Cover {
    fn from_cycles(board: Board, cycles: &[Vec<u32>]) -> Cover {
        let mut nbr = vec![[u32::MAX; 2]; board.squares()];
        for cycle in cycles {
            let k = cycle.len();
            for i in 0..k {
                nbr[cycle[i] as usize] = [cycle[(i + k - 1) % k], cycle[(i + 1) % k]];
            }
        }
        Cover { board, nbr }
    }

    #[inline]
    fn replace(&mut self, at: u32, old: u32, new: u32) {
        let slot = &mut self.nbr[at as usize];
        if slot[0] == old {
            slot[0] = new;
        } else {
            debug_assert_eq!(slot[1], old);
            slot[1] = new;
        }
    }

    #[inline]
    fn has_move(&self, x: u32, y: u32) -> bool {
        self.nbr[x as usize].contains(&y)
    }

    /// Drop moves (a,b) and (c,d); add (a,c) and (b,d).
    fn exchange(&mut self, a: u32, b: u32, c: u32, d: u32) {
        self.replace(a, b, c);
        self.replace(b, a, d);
        self.replace(c, d, a);
        self.replace(d, c, b);
    }

    /// Components (cycles) as a fresh union-find, and their count.
    fn components(&self) -> (Dsu, usize) {
        let n = self.nbr.len();
        let mut dsu = Dsu::new(n);
        for s in 0..n as u32 {
            for t in self.nbr[s as usize] {
                dsu.union(s, t);
            }
        }
        let count = (0..n as u32).filter(|&s| dsu.find(s) == s).count();
        (dsu, count)
    }

    /// One pass of cycle-joining swaps over `squares` (as first square `a` of a swap);
    /// returns the swaps made.
    fn pass(
        &mut self,
        squares: impl Iterator<Item = u32>,
        dsu: &mut Dsu,
        count: &mut usize,
    ) -> u32 {
        let board = self.board;
        let mut swaps = 0;
        for a in squares {
            'again: loop {
                if *count == 1 {
                    return swaps;
                }
                for slot in 0..2 {
                    let b = self.nbr[a as usize][slot];
                    let ra = dsu.find(a);
                    for c in board.knight_moves(a) {
                        if c == b || dsu.find(c) == ra {
                            continue;
                        }
                        for d in self.nbr[c as usize] {
                            if board.is_knight_move(b, d) {
                                self.exchange(a, b, c, d);
                                dsu.union(a, c);
                                *count -= 1;
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

    /// Squares on the cycles other than the largest, and their knight neighbours: where
    /// a local move can open up a joining swap.
    fn stuck_region(&self, dsu: &mut Dsu) -> Vec<u32> {
        let n = self.nbr.len() as u32;
        let largest = (0..n).max_by_key(|&s| {
            let r = dsu.find(s);
            dsu.size[r as usize]
        });
        let Some(largest) = largest.map(|s| dsu.find(s)) else {
            return Vec::new();
        };
        let mut mark = vec![false; n as usize];
        let mut region = Vec::new();
        for s in 0..n {
            if dsu.find(s) != largest {
                for t in std::iter::once(s).chain(self.board.knight_moves(s)) {
                    if !mark[t as usize] {
                        mark[t as usize] = true;
                        region.push(t);
                    }
                }
            }
        }
        region
    }

    /// A random exchange of two moves of the same cycle, keeping every degree 2, with its
    /// first square drawn from `region`.
    fn random_local_move<R: Rng + ?Sized>(&mut self, rng: &mut R, region: &[u32]) -> bool {
        let board = self.board;
        if region.is_empty() {
            return false;
        }
        for _ in 0..64 * region.len() {
            let a = region[rng.random_range(0..region.len())];
            let b = self.nbr[a as usize][rng.random_range(0..2)];
            let moves: Vec<u32> = board.knight_moves(a).collect();
            let c = moves[rng.random_range(0..moves.len())];
            let d = self.nbr[c as usize][rng.random_range(0..2)];
            let distinct = c != b && d != a && d != b;
            if distinct
                && board.is_knight_move(b, d)
                && !self.has_move(a, c)
                && !self.has_move(b, d)
            {
                self.exchange(a, b, c, d);
                return true;
            }
        }
        false
    }

    fn edges(&self) -> Vec<(u32, u32)> {
        let mut e = Vec::with_capacity(self.nbr.len());
        for (s, pair) in self.nbr.iter().enumerate() {
            for &t in pair {
                if (s as u32) < t {
                    e.push((s as u32, t));
                }
            }
        }
        e
    }
}

/// Join the cycles of a degree-2 cover of `board` into one closed tour.
///
/// # Arguments
/// - `cycles`: the cover, as the output of [`cycles_from_edges`] (every square on exactly
///   one cycle);
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
    let mut cover = Cover::from_cycles(board, cycles);
    let mut report = MergeReport {
        cycles_before: cycles.len(),
        cycles_after: cycles.len(),
        swaps: 0,
        local_moves: 0,
        passes: 0,
    };
    let (mut dsu, mut count) = cover.components();
    let n = board.squares() as u32;
    // After a local move only the leftover cycles can be joined, and every join involves
    // one of them, so later passes visit only those cycles' squares and their neighbours.
    let mut region: Option<Vec<u32>> = None;
    loop {
        loop {
            report.passes += 1;
            let swaps = match &region {
                None => cover.pass(0..n, &mut dsu, &mut count),
                Some(r) => cover.pass(r.iter().copied(), &mut dsu, &mut count),
            };
            report.swaps += swaps;
            if swaps == 0 || count == 1 {
                break;
            }
        }
        if count == 1 || report.local_moves >= max_local_moves {
            break;
        }
        let stuck = cover.stuck_region(&mut dsu);
        if !cover.random_local_move(rng, &stuck) {
            break;
        }
        report.local_moves += 1;
        (dsu, count) = cover.components();
        region = Some(cover.stuck_region(&mut dsu));
    }
    report.cycles_after = count;
    if count != 1 {
        return (None, report);
    }
    let cycle = cycles_from_edges(board, &cover.edges())
        .expect("exchanges keep every square at degree 2")
        .pop()
        .expect("one cycle");
    let tour = Tour::new(board, cycle, true)
        .expect("one degree-2 cycle through every square is a closed tour");
    (Some(tour), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng_from_seed;

    #[test]
    fn union_find_counts() {
        let mut d = Dsu::new(5);
        d.union(0, 1);
        d.union(3, 4);
        d.union(1, 0);
        assert_eq!(d.find(1), d.find(0));
        assert_ne!(d.find(2), d.find(3));
        assert_eq!((0..5).filter(|&s| d.find(s) == s).count(), 3);
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

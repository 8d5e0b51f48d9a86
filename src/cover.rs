//! A degree-2 cover of a board held as each square's two neighbours (8 bytes per
//! square), and `Circuit`, a cover that is one cycle through every square: a closed
//! tour that can be walked from any square in either direction without being held as a
//! square list.
//!
//! The order of a square's two neighbours is part of the cover: a cover built from
//! cycles (`Cover::add_cycle`) stores `[previous, next]` along each cycle, and
//! [`crate::merge`] draws and scans the slots in that order.

use crate::board::Board;
use crate::graph::open_path;
use crate::tour::{Tour, TourCheck};

/// Marks an empty neighbour slot: a square not set yet, or the end of a path in a cover
/// under construction.
pub(crate) const UNSET: u32 = u32::MAX;

/// A degree-2 cover as a neighbour pair per square.
///
/// An open tour's cover joins the tour's two ends by a move that is not a knight move
/// (it stands for the two moves through the open graph's apex): that move is *fixed*,
/// [`Cover::exchange`] never removes it, and walking the one-cycle cover from one end
/// away from the other is the open tour ([`Circuit::walk_open`]).
#[derive(Debug, Clone)]
pub(crate) struct Cover {
    nbr: Vec<[u32; 2]>,
    fixed: Option<[u32; 2]>,
}

impl Cover {
    /// A cover of `squares` squares (or vertices) with none set yet; fill it with
    /// [`Cover::add_cycle`].
    pub fn empty(squares: usize) -> Cover {
        Cover {
            nbr: vec![[UNSET; 2]; squares],
            fixed: None,
        }
    }

    /// The cover of an open graph's degree-2 cover (`cycles` over the squares and the
    /// apex, the vertex numbered `apex`): the apex's cycle, the apex taken out, closes
    /// through the fixed move between its two neighbours, the ends of the open path.
    pub(crate) fn from_open_cycles(squares: usize, cycles: &[Vec<u32>], apex: u32) -> Cover {
        let mut cover = Cover::empty(squares);
        for cycle in cycles {
            match open_path(cycle, apex) {
                Some(path) => cover.add_open_path(&path),
                None => cover.add_cycle(cycle),
            }
        }
        cover
    }

    /// Set the squares of an open path: along it, with its ends joined by the fixed move
    /// (a cover has at most one; a second one replaces the first).
    pub(crate) fn add_open_path(&mut self, path: &[u32]) {
        self.fixed = Some([path[0], path[path.len() - 1]]);
        self.add_cycle(path);
    }

    /// Whether `x–y` is the fixed move.
    #[inline]
    pub(crate) fn is_fixed(&self, x: u32, y: u32) -> bool {
        self.fixed
            .is_some_and(|[p, q]| (x == p && y == q) || (x == q && y == p))
    }

    /// The cover made of `cycles` (every square on exactly one of them).
    pub(crate) fn from_cycles(squares: usize, cycles: &[Vec<u32>]) -> Cover {
        let mut cover = Cover::empty(squares);
        for cycle in cycles {
            cover.add_cycle(cycle);
        }
        cover
    }

    /// Set the neighbours of the squares of one cycle: `[previous, next]` along it.
    pub(crate) fn add_cycle(&mut self, cycle: &[u32]) {
        let k = cycle.len();
        for i in 0..k {
            self.nbr[cycle[i] as usize] = [cycle[(i + k - 1) % k], cycle[(i + 1) % k]];
        }
    }

    /// The number of squares (or vertices) the cover spans.
    pub fn squares(&self) -> usize {
        self.nbr.len()
    }

    #[cfg(test)]
    /// Whether every square has its neighbours set.
    pub fn is_complete(&self) -> bool {
        self.nbr.iter().all(|p| p[0] != UNSET && p[1] != UNSET)
    }

    /// The two neighbours of `s`, in slot order.
    #[inline]
    pub fn pair(&self, s: u32) -> [u32; 2] {
        self.nbr[s as usize]
    }

    /// The neighbour of `cur` that is not `prev` (`prev` must be one of them).
    #[inline]
    pub fn next(&self, prev: u32, cur: u32) -> u32 {
        let [x, y] = self.nbr[cur as usize];
        if x == prev { y } else { x }
    }

    /// Empty both slots of `s`.
    pub fn unset(&mut self, s: u32) {
        self.nbr[s as usize] = [UNSET; 2];
    }

    /// Add the move `a–b`, each in the first empty slot of its square.
    pub fn link(&mut self, a: u32, b: u32) {
        self.link_one(a, b);
        self.link_one(b, a);
    }

    /// Add `b` as a neighbour of `a` only, in `a`'s first empty slot (the other side is
    /// set apart).
    pub(crate) fn link_one(&mut self, a: u32, b: u32) {
        let slot = &mut self.nbr[a as usize];
        if slot[0] == UNSET {
            slot[0] = b;
        } else {
            slot[1] = b;
        }
    }

    /// Replace the neighbour `old` of `at` by `new`, in the same slot.
    #[inline]
    pub fn replace(&mut self, at: u32, old: u32, new: u32) {
        let slot = &mut self.nbr[at as usize];
        if slot[0] == old {
            slot[0] = new;
        } else {
            debug_assert_eq!(slot[1], old);
            slot[1] = new;
        }
    }

    /// Whether `x–y` is a move of the cover.
    #[inline]
    pub(crate) fn has_move(&self, x: u32, y: u32) -> bool {
        self.nbr[x as usize].contains(&y)
    }

    /// Drop moves (a,b) and (c,d); add (a,c) and (b,d). Each new move takes the slot of
    /// the dropped one at its square. Neither dropped move may be the fixed one.
    pub(crate) fn exchange(&mut self, a: u32, b: u32, c: u32, d: u32) {
        debug_assert!(!self.is_fixed(a, b) && !self.is_fixed(c, d));
        self.replace(a, b, c);
        self.replace(b, a, d);
        self.replace(c, d, a);
        self.replace(d, c, b);
    }

    /// Call `visit` on every square of the cycle through `start`, starting there and
    /// going first to its slot-0 neighbour; returns the cycle's length.
    pub(crate) fn walk_cycle(&self, start: u32, mut visit: impl FnMut(u32)) -> usize {
        visit(start);
        let (mut prev, mut cur) = (start, self.nbr[start as usize][0]);
        let mut len = 1;
        while cur != start {
            visit(cur);
            len += 1;
            (prev, cur) = (cur, self.next(prev, cur));
        }
        len
    }
}

/// A cover that is one cycle through every square of its board: a closed tour as
/// neighbour pairs. Its canonical direction, the one [`Circuit::into_tour`] returns,
/// starts at square 0 and goes first to the smaller of its neighbours (the order
/// [`crate::tour::cycles_from_edges`] gives).
#[derive(Debug, Clone)]
pub(crate) struct Circuit {
    board: Board,
    cover: Cover,
}

/// Why a [`Circuit`] walk was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum WalkError {
    /// The walk did not pass the tour oracle (an internal error of whoever built the
    /// circuit).
    NotATour,
}

impl Circuit {
    /// Wrap a cover of `board`'s squares that the caller knows to be one cycle;
    /// [`Circuit::walk`] and [`Circuit::into_tour`] check it with the tour oracle.
    pub fn new(board: Board, cover: Cover) -> Circuit {
        debug_assert_eq!(cover.squares(), board.squares());
        Circuit { board, cover }
    }

    /// The square after `start` in the canonical direction, and the one before it.
    /// Costs a walk from square 0 up to `start` (none for square 0).
    fn around(&self, start: u32) -> (u32, u32) {
        let [p, q] = self.cover.pair(0);
        let (mut prev, mut cur) = (0, p.min(q));
        if start == 0 {
            return (p.min(q), p.max(q));
        }
        let n = self.cover.nbr.len();
        for _ in 0..n {
            let next = self.cover.next(prev, cur);
            if cur == start {
                return (next, prev);
            }
            (prev, cur) = (cur, next);
        }
        // Not reached on a one-cycle cover; the walk's check reports the defect.
        (p.min(q), p.max(q))
    }

    /// Walk the tour from `start` (square 0 if `None`) in the canonical direction, or
    /// the other way if `reverse`, calling `visit` on every square: the squares of
    /// `self.into_tour().rotated(start, reverse)`, produced one at a time in O(1)
    /// memory plus the oracle's bit per square. The tour oracle checks the walk
    /// ([`TourCheck`]); on an error `visit` has seen every square of a walk that was
    /// not a closed tour.
    pub fn walk(
        &self,
        start: Option<u32>,
        reverse: bool,
        mut visit: impl FnMut(u32),
    ) -> Result<(), WalkError> {
        let mut check = TourCheck::new(self.board);
        self.walk_unchecked(start.unwrap_or(0), reverse, |s| {
            check.push(s);
            visit(s);
        });
        if check.finish(true) {
            Ok(())
        } else {
            Err(WalkError::NotATour)
        }
    }

    /// [`Circuit::walk`] without the check: `n` squares from `start`.
    fn walk_unchecked(&self, start: u32, reverse: bool, mut visit: impl FnMut(u32)) {
        let n = self.cover.squares();
        let (after, before) = self.around(start);
        let (mut prev, mut cur) = (start, if reverse { before } else { after });
        visit(start);
        for _ in 1..n {
            visit(cur);
            (prev, cur) = (cur, self.cover.next(prev, cur));
        }
    }

    /// Walk an open tour of the circuit, calling `visit` on every square; the tour
    /// oracle checks the walk as an open tour. With a fixed move
    /// ([`Cover::from_open_cycles`]): from the end `start` names (the fixed move's first
    /// end when `None` or another square), away from the other end. Without one (a
    /// closed tour): from `start` (square 0 if `None`) in the canonical direction, the
    /// closing move left out.
    pub(crate) fn walk_open(
        &self,
        start: Option<u32>,
        mut visit: impl FnMut(u32),
    ) -> Result<(), WalkError> {
        let (first, reverse) = match self.cover.fixed {
            Some([x, y]) => {
                let (first, last) = if start == Some(y) { (y, x) } else { (x, y) };
                (first, self.around(first).0 == last)
            }
            None => (start.unwrap_or(0), false),
        };
        let mut check = TourCheck::new(self.board);
        self.walk_unchecked(first, reverse, |s| {
            check.push(s);
            visit(s);
        });
        if check.finish(false) {
            Ok(())
        } else {
            Err(WalkError::NotATour)
        }
    }

    /// [`Circuit::walk_open`]'s tour, validated by the oracle.
    pub(crate) fn into_open_tour(self, start: Option<u32>) -> Result<Tour, WalkError> {
        let board = self.board;
        let mut squares = Vec::with_capacity(board.squares());
        self.walk_open(start, |s| squares.push(s))?;
        drop(self);
        Tour::new(board, squares, false).map_err(|_| WalkError::NotATour)
    }

    /// The tour in its canonical direction, validated by the oracle ([`Tour::new`]).
    /// Holds the neighbour pairs and the square list (12 bytes per square) at its peak.
    pub(crate) fn into_tour(self) -> Tour {
        let board = self.board;
        let mut squares = Vec::with_capacity(board.squares());
        self.walk_unchecked(0, false, |s| squares.push(s));
        drop(self);
        Tour::new(board, squares, true).expect("a circuit is one cycle through every square")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_are_the_rotations_of_the_tour() {
        // A closed tour of 6x6 from the network; every start and direction of the walk
        // gives the rotated tour.
        let board = Board::new(6, 6).unwrap();
        let graph = crate::graph::KnightGraph::new(board);
        let net = crate::network::Network::new(&graph, crate::network::Preset::Parberry.params())
            .unwrap();
        let tour = net
            .solve(&mut crate::rng_from_seed(3))
            .tour
            .expect("the network finds 6x6 tours");
        let circuit = Circuit::new(
            board,
            Cover::from_cycles(board.squares(), &[tour.squares().to_vec()]),
        );
        let canonical = circuit.clone().into_tour();
        assert_eq!(canonical.moves(), tour.moves());
        assert_eq!(canonical.start(), 0);
        for start in 0..36 {
            for reverse in [false, true] {
                let mut walked = Vec::new();
                circuit
                    .walk(Some(start), reverse, |s| walked.push(s))
                    .unwrap();
                let rotated = canonical.rotated(start, reverse).unwrap();
                assert_eq!(walked, rotated.squares(), "start {start} reverse {reverse}");
            }
        }
    }

    #[test]
    fn a_cover_of_two_cycles_is_not_walked_as_a_tour() {
        // The 8-cycle round the 3x3 board's centre, with the centre pointed at a
        // corner: the walk of 9 squares comes back to its start early, and the oracle
        // refuses it.
        let board = Board::new(3, 3).unwrap();
        let ring = [0u32, 5, 6, 1, 8, 3, 2, 7];
        let mut cover = Cover::empty(board.squares());
        cover.add_cycle(&ring);
        assert!(!cover.is_complete());
        cover.nbr[4] = [0, 0];
        let circuit = Circuit::new(board, cover);
        assert_eq!(circuit.walk(None, false, |_| {}), Err(WalkError::NotATour));
    }
}

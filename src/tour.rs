//! The one validity oracle for knight's tours, and the conversion of a degree-2 edge
//! set (the network's output) into cycles and tours.
//!
//! Every solver's result passes through [`Tour::new`], which calls [`validate`]: each
//! square exactly once, every step a knight move, and for a closed tour a knight move
//! from the last square back to the first.

use std::fmt;

use thiserror::Error;

use crate::board::Board;
use crate::graph::KnightGraph;

/// Why a square sequence is not a knight's tour.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TourError {
    /// The sequence does not have one entry per square.
    #[error("a tour of the {board} board has {expected} squares, this one has {found}")]
    WrongLength {
        /// The board.
        board: Board,
        /// Squares of the board.
        expected: usize,
        /// Length of the sequence.
        found: usize,
    },
    /// A square index is not on the board.
    #[error("square index {square} at position {position} is off the {board} board")]
    OffBoard {
        /// The board.
        board: Board,
        /// Position in the sequence, from 0.
        position: usize,
        /// The index, at least the board's number of squares.
        square: u32,
    },
    /// A square appears twice.
    #[error("square {name} is visited twice (positions {first} and {second})")]
    Repeated {
        /// The square's name ([`Board::square_name`]).
        name: String,
        /// Its first position in the sequence, from 0.
        first: usize,
        /// Its second position.
        second: usize,
    },
    /// Two consecutive squares are not a knight move apart.
    #[error("step {position} from {from} to {to} is not a knight move")]
    NotKnightMove {
        /// Position of the second square in the sequence, from 0.
        position: usize,
        /// The square moved from ([`Board::square_name`]).
        from: String,
        /// The square moved to.
        to: String,
    },
    /// The tour is asked to be closed, and its last square is not a knight move from its
    /// first.
    #[error(
        "the tour is marked closed but its last square {last} is not a knight move from its first square {first}"
    )]
    NotClosed {
        /// The first square ([`Board::square_name`]).
        first: String,
        /// The last square.
        last: String,
    },
    /// The graph is not the knight's graph of a whole plane board, so its cycles are
    /// not knight's tours ([`crate::graph::KnightGraph::tour_from_cycle`]).
    #[error(
        "{graph} is not the knight's graph of a whole plane board: its tours are checked on the graph"
    )]
    NotKnightBoard {
        /// The graph, as [`crate::graph::KnightGraph::describe`] names it.
        graph: String,
    },
}

/// Why a vertex sequence is not a Hamiltonian path or cycle of a graph that is not a
/// knight's board ([`check_on`]); vertices are named as the graph names them
/// ([`KnightGraph::vertex_name`]).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WalkError {
    /// The knight's board's own check ([`validate`]) failed.
    #[error(transparent)]
    Knight(#[from] TourError),
    /// The sequence does not have one entry per vertex.
    #[error("a tour of {graph} visits {expected} vertices, this one has {found}")]
    WrongLength {
        /// The graph ([`KnightGraph::describe`]).
        graph: String,
        /// Vertices of the graph.
        expected: usize,
        /// Length of the sequence.
        found: usize,
    },
    /// A vertex number is not one of the graph's.
    #[error("vertex index {vertex} at position {position} is not in {graph}")]
    NotVertex {
        /// The graph ([`KnightGraph::describe`]).
        graph: String,
        /// Position in the sequence, from 0.
        position: usize,
        /// The index, at least the number of vertices.
        vertex: u32,
    },
    /// A vertex appears twice.
    #[error("vertex {name} is visited twice (positions {first} and {second})")]
    Repeated {
        /// The vertex's name.
        name: String,
        /// Its first position in the sequence, from 0.
        first: usize,
        /// Its second position.
        second: usize,
    },
    /// Two consecutive vertices are not joined by an edge.
    #[error("step {position} from {from} to {to} is not an edge of the graph")]
    NotAnEdge {
        /// Position of the second vertex in the sequence, from 0.
        position: usize,
        /// The vertex moved from.
        from: String,
        /// The vertex moved to.
        to: String,
    },
    /// The tour is asked to be closed, and no edge joins its last vertex to its first.
    #[error(
        "the tour is marked closed but no edge joins its last vertex {last} to its first vertex {first}"
    )]
    NotClosed {
        /// The first vertex.
        first: String,
        /// The last vertex.
        last: String,
    },
}

/// The one check of a tour on any graph: `vertices` visits every vertex of `graph` other
/// than the open graph's apex exactly once, consecutive vertices are joined by an edge,
/// and, if `closed`, so are the last and the first. On a knight's board this is
/// [`validate`], with its messages.
///
/// O(n · max degree) time (each step looks the edge up in one vertex's incidence list).
pub fn check_on(graph: &KnightGraph, vertices: &[u32], closed: bool) -> Result<(), WalkError> {
    if let Some(board) = graph.source().knight_board() {
        return Ok(validate(board, vertices, closed)?);
    }
    let n = graph.squares();
    if vertices.len() != n {
        return Err(WalkError::WrongLength {
            graph: graph.describe(),
            expected: n,
            found: vertices.len(),
        });
    }
    let mut seen = vec![usize::MAX; n];
    for (position, &v) in vertices.iter().enumerate() {
        let Some(first) = seen.get_mut(v as usize) else {
            return Err(WalkError::NotVertex {
                graph: graph.describe(),
                position,
                vertex: v,
            });
        };
        if *first != usize::MAX {
            return Err(WalkError::Repeated {
                name: graph.vertex_name(v),
                first: *first,
                second: position,
            });
        }
        *first = position;
    }
    for (i, w) in vertices.windows(2).enumerate() {
        if graph.edge_between(w[0], w[1]).is_none() {
            return Err(WalkError::NotAnEdge {
                position: i + 1,
                from: graph.vertex_name(w[0]),
                to: graph.vertex_name(w[1]),
            });
        }
    }
    if let (true, Some(&first), Some(&last)) = (closed, vertices.first(), vertices.last())
        && (n < 3 || graph.edge_between(last, first).is_none())
    {
        return Err(WalkError::NotClosed {
            first: graph.vertex_name(first),
            last: graph.vertex_name(last),
        });
    }
    Ok(())
}

/// A Hamiltonian path or cycle of a [`KnightGraph`] that passed [`check_on`]: the tour
/// of a geometry or a file graph, as vertex numbers of that graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphTour {
    vertices: Vec<u32>,
    closed: bool,
}

impl GraphTour {
    /// Check `vertices` with [`check_on`] and keep them.
    pub fn new(
        graph: &KnightGraph,
        vertices: Vec<u32>,
        closed: bool,
    ) -> Result<GraphTour, WalkError> {
        check_on(graph, &vertices, closed)?;
        Ok(GraphTour { vertices, closed })
    }

    /// The vertices in visiting order (the graph's numbers, from 0).
    pub fn vertices(&self) -> &[u32] {
        &self.vertices
    }

    /// Whether the tour is closed (a Hamiltonian cycle).
    pub fn is_closed(&self) -> bool {
        self.closed
    }
}

/// Check that `squares` is a knight's tour of `board` (closed if `closed`).
///
/// O(n) time and a bit per square: a fast pass decides, and only a sequence it rejects
/// is checked again, more slowly, to name the first defect.
pub fn validate(board: Board, squares: &[u32], closed: bool) -> Result<(), TourError> {
    if is_tour(board, squares, closed) {
        return Ok(());
    }
    first_defect(board, squares, closed)
}

/// The fast pass of [`validate`]: [`TourCheck`] over the slice.
fn is_tour(board: Board, squares: &[u32], closed: bool) -> bool {
    if squares.len() != board.squares() {
        return false;
    }
    let mut check = TourCheck::new(board);
    for &s in squares {
        check.push(s);
    }
    check.finish(closed)
}

/// The oracle's fast pass one square at a time, for tours that are walked and never
/// held whole: each square on the board and seen once (a bitset, counted), each step a
/// knight move (coordinates by multiplication, not division), and at the end every
/// square seen and, for a closed tour, the last square a knight move from the first.
/// A bit per square; it only decides ([`validate`] names the first defect of a slice).
pub(crate) struct TourCheck {
    board: Board,
    seen: Vec<u64>,
    cols: u64,
    /// `floor((2^64 - 1) / cols) + 1`: see [`TourCheck::coords`].
    m: u64,
    pushed: usize,
    first: u32,
    last: (i64, i64),
    ok: bool,
}

impl TourCheck {
    pub fn new(board: Board) -> TourCheck {
        let n = board.squares();
        let cols = board.cols() as u64;
        TourCheck {
            board,
            seen: vec![0u64; n.div_ceil(64)],
            cols,
            m: u64::MAX / cols.max(1) + 1,
            pushed: 0,
            first: 0,
            last: (0, 0),
            // Boards of one column or more than 2^32 squares are left to the detailed
            // pass of a slice (and refused here).
            ok: n > 0 && cols >= 2 && n <= u32::MAX as usize,
        }
    }

    /// `(row, col)` of a square by one multiplication: q = floor(s * m / 2^64) is
    /// exactly s / cols whenever s * cols < 2^64, which holds for 32-bit squares and
    /// columns.
    #[inline]
    fn coords(&self, s: u32) -> (i64, i64) {
        let q = ((u128::from(s) * u128::from(self.m)) >> 64) as u64;
        (q as i64, (u64::from(s) - q * self.cols) as i64)
    }

    /// The next square of the walk.
    #[inline]
    pub fn push(&mut self, s: u32) {
        if !self.ok || s as usize >= self.board.squares() {
            self.ok = false;
            return;
        }
        self.seen[s as usize / 64] |= 1 << (s % 64);
        let (r, c) = self.coords(s);
        if self.pushed == 0 {
            self.first = s;
        } else {
            let (dr, dc) = (r - self.last.0, c - self.last.1);
            // A knight move is exactly a step with dr^2 + dc^2 = 5 (1 + 4).
            self.ok = dr * dr + dc * dc == 5;
        }
        self.last = (r, c);
        self.pushed += 1;
    }

    /// Whether the squares pushed are a tour (closed if `closed`): n squares on the
    /// board are all different exactly when n bits are set.
    pub fn finish(self, closed: bool) -> bool {
        let n = self.board.squares();
        if !self.ok || self.pushed != n {
            return false;
        }
        if self
            .seen
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum::<usize>()
            != n
        {
            return false;
        }
        let (r, c) = self.coords(self.first);
        let (dr, dc) = (r - self.last.0, c - self.last.1);
        !closed || dr * dr + dc * dc == 5
    }
}

/// The detailed pass of [`validate`]: the first defect, named.
fn first_defect(board: Board, squares: &[u32], closed: bool) -> Result<(), TourError> {
    let n = board.squares();
    if squares.len() != n {
        return Err(TourError::WrongLength {
            board,
            expected: n,
            found: squares.len(),
        });
    }
    let mut seen = vec![u32::MAX; n];
    for (i, &s) in squares.iter().enumerate() {
        if s as usize >= n {
            return Err(TourError::OffBoard {
                board,
                position: i,
                square: s,
            });
        }
        if seen[s as usize] != u32::MAX {
            return Err(TourError::Repeated {
                name: board.square_name(s),
                first: seen[s as usize] as usize,
                second: i,
            });
        }
        seen[s as usize] = i as u32;
        if i > 0 && !board.is_knight_move(squares[i - 1], s) {
            return Err(TourError::NotKnightMove {
                position: i,
                from: board.square_name(squares[i - 1]),
                to: board.square_name(s),
            });
        }
    }
    // A 1x1 "tour" is a single square; it is never closed (there is no move to close it).
    if closed && !board.is_knight_move(squares[n - 1], squares[0]) {
        return Err(TourError::NotClosed {
            first: board.square_name(squares[0]),
            last: board.square_name(squares[n - 1]),
        });
    }
    Ok(())
}

/// A validated knight's tour: the squares in visiting order, and whether it is closed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tour {
    board: Board,
    squares: Vec<u32>,
    closed: bool,
}

impl Tour {
    /// Validate and wrap a square sequence.
    pub fn new(board: Board, squares: Vec<u32>, closed: bool) -> Result<Tour, TourError> {
        validate(board, &squares, closed)?;
        Ok(Tour {
            board,
            squares,
            closed,
        })
    }

    /// The board the tour covers.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The squares (indices `row * cols + col`) in visiting order: each square of the board
    /// exactly once.
    pub fn squares(&self) -> &[u32] {
        &self.squares
    }

    /// The squares in visiting order, without copying them.
    pub fn into_squares(self) -> Vec<u32> {
        self.squares
    }

    /// Whether the tour is closed: its last square is a knight move from its first.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// The first square visited.
    pub fn start(&self) -> u32 {
        self.squares[0]
    }

    /// `(row, col)` pairs in visiting order.
    pub fn coords(&self) -> Vec<[usize; 2]> {
        self.squares
            .iter()
            .map(|&s| {
                let (r, c) = self.board.coords(s);
                [r, c]
            })
            .collect()
    }

    /// For a closed tour: the same cycle started at `start`, in the given direction
    /// (`reverse` walks it the other way). Returns `None` for an open tour unless `start`
    /// is already its first square (and `reverse` is false), or its last (and `reverse`).
    pub fn rotated(&self, start: u32, reverse: bool) -> Option<Tour> {
        let pos = self.squares.iter().position(|&s| s == start)?;
        if !self.closed {
            let n = self.squares.len();
            return match (pos, reverse) {
                (0, false) => Some(self.clone()),
                (p, true) if p == n - 1 => {
                    let mut sq = self.squares.clone();
                    sq.reverse();
                    Some(Tour {
                        squares: sq,
                        ..self.clone()
                    })
                }
                _ => None,
            };
        }
        let mut sq = Vec::with_capacity(self.squares.len());
        sq.extend_from_slice(&self.squares[pos..]);
        sq.extend_from_slice(&self.squares[..pos]);
        if reverse {
            sq[1..].reverse();
        }
        Some(Tour {
            squares: sq,
            ..self.clone()
        })
    }

    /// Move number (1-based) of every square, indexed by square.
    pub(crate) fn move_numbers(&self) -> Vec<usize> {
        let mut num = vec![0; self.squares.len()];
        for (i, &s) in self.squares.iter().enumerate() {
            num[s as usize] = i + 1;
        }
        num
    }

    /// The set of undirected moves of the tour as `(min, max)` pairs, sorted
    /// (including the closing move of a closed tour).
    pub fn moves(&self) -> Vec<(u32, u32)> {
        let n = self.squares.len();
        let steps = if self.closed { n } else { n.saturating_sub(1) };
        let mut m: Vec<(u32, u32)> = (0..steps)
            .map(|i| {
                let (x, y) = (self.squares[i], self.squares[(i + 1) % n]);
                (x.min(y), x.max(y))
            })
            .collect();
        m.sort_unstable();
        m
    }
}

impl fmt::Display for Tour {
    /// The board with move numbers, row 0 at the top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = self.move_numbers();
        let width = self.squares.len().to_string().len();
        for r in 0..self.board.rows() {
            let line: Vec<String> = (0..self.board.cols())
                .map(|c| format!("{:>width$}", num[self.board.index(r, c) as usize]))
                .collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

/// Why an edge set is not a degree-2 cover.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CoverError {
    /// A square's degree in the edge set is not 2.
    #[error("square {square} has {degree} active moves, not 2")]
    Degree {
        /// The square's index.
        square: u32,
        /// Its number of edges.
        degree: usize,
    },
    /// An edge, as its two square indices, that is not a knight move of the board.
    #[error("edge {0:?} does not join two squares of the board by a knight move")]
    BadEdge((u32, u32)),
}

/// Split a set of undirected edges in which every square of `board` has degree exactly
/// two into its cycles. Each cycle starts at its lowest square and continues to the
/// smaller of that square's two neighbours. Cycles are ordered by their first square.
///
/// Squares with degree 0 are an error too: an empty output is not a cover.
pub fn cycles_from_edges(board: Board, edges: &[(u32, u32)]) -> Result<Vec<Vec<u32>>, CoverError> {
    let n = board.squares();
    const NONE: u32 = u32::MAX;
    let mut nbr = vec![[NONE, NONE]; n];
    let mut deg = vec![0usize; n];
    for &(x, y) in edges {
        if x as usize >= n || y as usize >= n || !board.is_knight_move(x, y) {
            return Err(CoverError::BadEdge((x, y)));
        }
        for (p, q) in [(x, y), (y, x)] {
            let d = &mut deg[p as usize];
            if *d < 2 {
                nbr[p as usize][*d] = q;
            }
            *d += 1;
        }
    }
    if let Some(s) = (0..n).find(|&s| deg[s] != 2) {
        return Err(CoverError::Degree {
            square: s as u32,
            degree: deg[s],
        });
    }
    Ok(cycles_from_neighbours(&nbr))
}

/// The cycles of a degree-2 cover given as each square's two neighbours (`nbr[s]`, which
/// the caller has checked): each cycle starts at its smallest square and goes first to
/// that square's smaller neighbour; cycles are ordered by their smallest square.
pub(crate) fn cycles_from_neighbours(nbr: &[[u32; 2]]) -> Vec<Vec<u32>> {
    let mut walk = CycleWalk::default();
    walk.walk(nbr);
    walk.cycles()
}

/// The cycles of [`cycles_from_neighbours`], walked into buffers that a caller can keep
/// from one cover to the next: every square once, cycle by cycle, and where each cycle
/// ends. Each cycle is then copied out at its exact length, with no vector growing a
/// square at a time.
#[derive(Debug, Default)]
pub(crate) struct CycleWalk {
    seen: Vec<bool>,
    order: Vec<u32>,
    ends: Vec<usize>,
}

impl CycleWalk {
    /// Walks the cover `nbr` (degree 2 everywhere, checked by the caller).
    pub(crate) fn walk(&mut self, nbr: &[[u32; 2]]) {
        let n = nbr.len();
        self.seen.clear();
        self.seen.resize(n, false);
        self.order.clear();
        self.ends.clear();
        for s in 0..n as u32 {
            if self.seen[s as usize] {
                continue;
            }
            self.seen[s as usize] = true;
            self.order.push(s);
            let [p, q] = nbr[s as usize];
            let (mut prev, mut cur) = (s, p.min(q));
            while cur != s {
                self.seen[cur as usize] = true;
                self.order.push(cur);
                let [x, y] = nbr[cur as usize];
                (prev, cur) = (cur, if x == prev { y } else { x });
            }
            self.ends.push(self.order.len());
        }
    }

    /// The number of cycles walked.
    pub(crate) fn count(&self) -> usize {
        self.ends.len()
    }

    /// The lengths of the cycles walked, longest first.
    pub(crate) fn lengths(&self) -> Vec<usize> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        let mut lengths: Vec<usize> = self.ends.iter().zip(starts).map(|(e, s)| e - s).collect();
        lengths.sort_unstable_by(|a, b| b.cmp(a));
        lengths
    }

    /// The cycles walked, as [`cycles_from_neighbours`] returns them.
    pub(crate) fn cycles(&self) -> Vec<Vec<u32>> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let cycle = self.order[start..end].to_vec();
                start = end;
                cycle
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // 3x4 has open tours but no closed one; the tour below was found by a throwaway
    // depth-first search and is checked step by step in the first test.
    fn board(m: usize, n: usize) -> Board {
        Board::new(m, n).unwrap()
    }

    #[test]
    fn oracle_rejects_each_defect() {
        let b = board(3, 4);
        // Open tour on 3x4 (0-based indices, row-major).
        let tour = vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4];
        assert_eq!(validate(b, &tour, false), Ok(()));
        assert!(matches!(
            validate(b, &tour, true),
            Err(TourError::NotClosed { .. })
        ));
        assert!(matches!(
            validate(b, &tour[..11], false),
            Err(TourError::WrongLength { .. })
        ));
        let mut rep = tour.clone();
        rep[11] = 0;
        assert!(matches!(
            validate(b, &rep, false),
            Err(TourError::Repeated { .. })
        ));
        let mut off = tour.clone();
        off[3] = 99;
        assert!(matches!(
            validate(b, &off, false),
            Err(TourError::OffBoard { .. })
        ));
        let mut swap = tour.clone();
        swap.swap(1, 2);
        assert!(matches!(
            validate(b, &swap, false),
            Err(TourError::NotKnightMove { .. })
        ));
        assert_eq!(validate(board(1, 1), &[0], false), Ok(()));
        assert!(validate(board(1, 1), &[0], true).is_err());
    }

    #[test]
    fn fast_and_detailed_oracles_agree() {
        // Every single-square change and every swap of a valid open tour (which
        // includes steps whose index difference is a knight's but wraps around a row
        // end): the fast pass accepts exactly what the detailed pass accepts.
        let b = board(3, 4);
        let tour = vec![0u32, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4];
        let agree = |sq: &[u32], closed: bool| {
            assert_eq!(
                is_tour(b, sq, closed),
                first_defect(b, sq, closed).is_ok(),
                "{sq:?} closed {closed}"
            );
        };
        for closed in [false, true] {
            agree(&tour, closed);
            for i in 0..tour.len() {
                for v in 0..14 {
                    let mut t = tour.clone();
                    t[i] = v;
                    agree(&t, closed);
                }
                for j in 0..tour.len() {
                    let mut t = tour.clone();
                    t.swap(i, j);
                    agree(&t, closed);
                }
            }
        }
    }

    #[test]
    fn repeated_square_names_its_first_position() {
        let b = board(3, 4);
        let mut rep = vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4];
        rep[9] = 6;
        assert_eq!(
            validate(b, &rep, false),
            Err(TourError::Repeated {
                name: b.square_name(6),
                first: 1,
                second: 9
            })
        );
    }

    #[test]
    fn cycles_and_rotation() {
        // Two 4-cycles cannot cover a board, but the 3x3 board minus its centre is one
        // 8-cycle: the centre has degree 0, so the edge set is rejected as a cover.
        let b = board(3, 3);
        let ring = [0u32, 5, 6, 1, 8, 3, 2, 7];
        let edges: Vec<(u32, u32)> = (0..8).map(|i| (ring[i], ring[(i + 1) % 8])).collect();
        assert!(matches!(
            cycles_from_edges(b, &edges),
            Err(CoverError::Degree {
                square: 4,
                degree: 0
            })
        ));
        assert!(matches!(
            cycles_from_edges(b, &[(0, 1)]),
            Err(CoverError::BadEdge(_))
        ));
        assert!(matches!(
            cycles_from_edges(b, &[]),
            Err(CoverError::Degree { .. })
        ));
    }

    #[test]
    fn rotation_keeps_closed_tours_valid() {
        // Open tours only rotate to their own ends; closed tours are covered by the
        // property tests on network output.
        let b = board(3, 4);
        let tour = Tour::new(b, vec![0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4], false).unwrap();
        assert!(tour.rotated(0, false).is_some());
        assert!(tour.rotated(4, true).is_some());
        assert!(tour.rotated(6, false).is_none());
        assert_eq!(tour.move_numbers()[4], 12);
        assert_eq!(tour.moves().len(), 11);
    }
}

//! The knight's graph of a board, built once and shared: squares are vertices, knight
//! moves are edges, and each edge is one neuron of the network.
//!
//! Canonical edge (neuron) order: squares in row-major order, and for each square its
//! moves to higher-numbered squares in increasing order of the other square's index.
//! Edge `e` joins `a[e] < b[e]`. Per-vertex incident edges are stored in CSR form.
//!
//! The *open* graph ([`KnightGraph::open`]) adds one apex vertex, numbered after the
//! squares, joined to every square; its edges follow the knight moves, square `s`'s apex
//! edge being edge `E + s`. A Hamiltonian cycle of the open graph minus the apex is an
//! open tour of the board whose ends are the apex's two neighbours, so the same
//! degree-2 network finds open tours on it. A fixed start square is imposed by *holding*
//! the apex–start edge on: a constant input of the network, never updated.

use ndarray::Array1;
use serde::{Deserialize, Serialize};

use crate::board::{Board, KNIGHT_OFFSETS};
use crate::error::InputError;
use crate::memory::{self, MemoryError};
use crate::tour::{Tour, TourError};

/// Which tours a graph's Hamiltonian cycles stand for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tours {
    /// The knight's graph itself: closed tours.
    #[default]
    Closed,
    /// The knight's graph plus an apex joined to every square: open tours, starting on
    /// `start` when given.
    Open {
        /// The square every tour starts on (index `row * cols + col`); `None`: any.
        start: Option<u32>,
    },
}

/// Immutable knight's graph of a board.
#[derive(Debug, Clone)]
pub struct KnightGraph {
    board: Board,
    /// Lower endpoint of each edge.
    pub(crate) a: Array1<u32>,
    /// Higher endpoint of each edge.
    pub(crate) b: Array1<u32>,
    /// CSR offsets: the edges at square `s` are `incident[offsets[s]..offsets[s+1]]`.
    offsets: Vec<u32>,
    incident: Vec<u32>,
    tours: Tours,
    /// Edges held on (constant inputs), increasing.
    held: Vec<u32>,
}

/// The open path a cycle through the open graph's `apex` stands for: its squares from
/// the one after the apex around to the one before it. `None` if the cycle does not pass
/// through the apex.
pub(crate) fn open_path(cycle: &[u32], apex: u32) -> Option<Vec<u32>> {
    let p = cycle.iter().position(|&x| x == apex)?;
    Some(cycle[p + 1..].iter().chain(&cycle[..p]).copied().collect())
}

/// Number of knight moves (undirected) on a `rows x cols` board, without building it.
pub(crate) fn edge_count(rows: usize, cols: usize) -> u64 {
    let (m, n) = (rows as u64, cols as u64);
    2 * (m.saturating_sub(1) * n.saturating_sub(2) + m.saturating_sub(2) * n.saturating_sub(1))
}

/// Bytes a graph plus `per_edge` extra bytes per edge and `per_square` per square would
/// take; used to refuse boards before allocating.
pub(crate) fn estimated_bytes(board: Board, per_edge: u64, per_square: u64) -> u64 {
    let e = edge_count(board.rows(), board.cols());
    let n = board.squares() as u64;
    // a, b, incident (twice per edge) as u32; offsets as u32.
    e * (4 + 4 + 8 + per_edge) + n * (4 + per_square)
}

/// Most edges a graph may have: edge indices, and the `2E` entries of the incidence
/// lists that the CSR offsets count, are `u32`.
pub(crate) const MAX_EDGES: u64 = (u32::MAX / 2) as u64;

/// Refuse a board whose graph (knight moves plus, counted by the caller in `per_square`,
/// an apex edge per square) has more edges than [`MAX_EDGES`] (a representation limit:
/// [`InputError::TooLarge`]), or whose estimated memory ([`estimated_bytes`]) exceeds
/// what the process may use ([`check_bytes`]).
pub(crate) fn check_memory(
    board: Board,
    per_edge: u64,
    per_square: u64,
    what: &str,
) -> Result<(), InputError> {
    // Knight moves plus one apex edge per square (the open graph): an upper bound.
    let edges = edge_count(board.rows(), board.cols()) + board.squares() as u64;
    if edges > MAX_EDGES {
        return Err(InputError::too_large(format!(
            "board {board} is too large for {what}: its graph has about {edges} edges, and edge indices are 32-bit (at most {MAX_EDGES} edges; it would also need about {})",
            crate::memory::human(estimated_bytes(board, per_edge, per_square))
        )));
    }
    check_bytes(board, estimated_bytes(board, per_edge, per_square), what)
}

/// Refuse `what` on `board` when it would need more than `bytes` beyond what the process
/// may still use ([`crate::memory::limit`]): [`InputError::OutOfMemory`], naming the
/// estimate, the limit and where it comes from.
pub fn check_bytes(board: Board, bytes: u64, what: &str) -> Result<(), InputError> {
    crate::memory::check(|| format!("{what} on board {board}"), bytes)?;
    Ok(())
}

impl KnightGraph {
    /// Build the graph. Callers that care about memory call `check_memory` first and
    /// build with `KnightGraph::try_for_tours`; this one panics when out of memory.
    pub fn new(board: Board) -> KnightGraph {
        Self::for_tours(board, Tours::Closed)
    }

    /// The open graph of `board` (see the module documentation), with the apex–`start`
    /// edge held on when a start is given. Panics if `start` is off the board.
    pub fn open(board: Board, start: Option<u32>) -> KnightGraph {
        Self::for_tours(board, Tours::Open { start })
    }

    /// The graph whose Hamiltonian cycles are `tours`; panics when out of memory.
    pub fn for_tours(board: Board, tours: Tours) -> KnightGraph {
        Self::try_for_tours(board, tours).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The graph whose Hamiltonian cycles are `tours`, its arrays allocated fallibly: a
    /// [`MemoryError`] when one cannot be.
    pub(crate) fn try_for_tours(board: Board, tours: Tours) -> Result<KnightGraph, MemoryError> {
        let n = board.squares();
        let knight = edge_count(board.rows(), board.cols()) as usize;
        let apex = matches!(tours, Tours::Open { .. });
        let (e, vertices) = if apex {
            (knight + n, n + 1)
        } else {
            (knight, n)
        };
        let what = || format!("the knight's graph of {board}");
        let mut a = memory::try_with_capacity(e, &what())?;
        let mut b = memory::try_with_capacity(e, &what())?;
        let mut degree = memory::try_vec(vertices, 0u32, &what())?;
        let mut targets: Vec<u32> = Vec::with_capacity(4);
        for s in 0..n as u32 {
            targets.clear();
            targets.extend(board.knight_moves(s).filter(|&t| t > s));
            targets.sort_unstable();
            for &t in &targets {
                a.push(s);
                b.push(t);
                degree[s as usize] += 1;
                degree[t as usize] += 1;
            }
        }
        debug_assert_eq!(a.len(), knight);
        if apex {
            for s in 0..n as u32 {
                a.push(s);
                b.push(n as u32);
                degree[s as usize] += 1;
                degree[n] += 1;
            }
        }
        let mut offsets = memory::try_vec(vertices + 1, 0u32, &what())?;
        for s in 0..vertices {
            offsets[s + 1] = offsets[s] + degree[s];
        }
        let mut fill = memory::try_with_capacity(vertices + 1, &what())?;
        fill.extend_from_slice(&offsets);
        drop(degree);
        let mut incident = memory::try_vec(2 * e, 0u32, &what())?;
        for (edge, (&x, &y)) in a.iter().zip(&b).enumerate() {
            for s in [x, y] {
                incident[fill[s as usize] as usize] = edge as u32;
                fill[s as usize] += 1;
            }
        }
        let held = match tours {
            Tours::Open { start: Some(s) } => {
                assert!(
                    (s as usize) < n,
                    "start square {s} is off the {board} board"
                );
                vec![(knight + s as usize) as u32]
            }
            _ => Vec::new(),
        };
        Ok(KnightGraph {
            board,
            a: Array1::from(a),
            b: Array1::from(b),
            offsets,
            incident,
            tours,
            held,
        })
    }

    /// The board whose knight moves this graph holds.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tours this graph's Hamiltonian cycles stand for.
    pub fn tours(&self) -> Tours {
        self.tours
    }

    /// Number of vertices: the squares, plus the apex on the open graph.
    pub fn vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// The apex vertex of the open graph.
    pub fn apex(&self) -> Option<u32> {
        matches!(self.tours, Tours::Open { .. }).then_some(self.board.squares() as u32)
    }

    /// Edges held on (constant inputs of the network, never updated), increasing.
    pub fn held(&self) -> &[u32] {
        &self.held
    }

    /// A bound on `degree(a) + degree(b)` over the edges `{a, b}`: the most active
    /// neighbours a neuron can have, plus two (16 on the knight's graph, which the
    /// engines' overflow bounds were always stated with).
    pub(crate) fn max_degree_sum(&self) -> u64 {
        let knight = 2 * Self::max_degree() as u64;
        match self.tours {
            Tours::Closed => knight,
            // A square has at most 8 moves and its apex edge; the apex has n.
            Tours::Open { .. } => (knight + 2).max(9 + self.squares() as u64),
        }
    }

    /// The tour a Hamiltonian cycle of this graph (every vertex once) stands for, checked
    /// by the tour oracle: the cycle itself on the knight's graph; on the open graph, the
    /// cycle cut at the apex, starting at the held start square when there is one.
    pub fn tour_from_cycle(&self, mut cycle: Vec<u32>) -> Result<Tour, TourError> {
        let (Tours::Open { start }, Some(apex)) = (self.tours, self.apex()) else {
            return Tour::new(self.board, cycle, true);
        };
        if let Some(path) = open_path(&cycle, apex) {
            cycle = path;
        }
        if start.is_some_and(|s| cycle.first() != Some(&s)) {
            cycle.reverse();
        }
        Tour::new(self.board, cycle, false)
    }

    /// Number of edges (neurons).
    pub fn edges(&self) -> usize {
        self.a.len()
    }

    /// Number of squares of the board (the apex of the open graph is not one).
    pub fn squares(&self) -> usize {
        self.board.squares()
    }

    /// Edges incident to `square` (any vertex), in increasing edge order.
    #[inline]
    pub fn incident(&self, square: u32) -> &[u32] {
        let s = square as usize;
        &self.incident[self.offsets[s] as usize..self.offsets[s + 1] as usize]
    }

    /// Every vertex's incident edges, squares in row-major order then the apex: the
    /// concatenation of [`KnightGraph::incident`] over all vertices (each edge twice).
    pub fn incident_all(&self) -> &[u32] {
        &self.incident
    }

    /// Degree of `square` (any vertex) in the full graph.
    #[inline]
    pub fn degree(&self, square: u32) -> usize {
        let s = square as usize;
        (self.offsets[s + 1] - self.offsets[s]) as usize
    }

    /// The lower endpoint of every edge, in canonical edge order.
    pub fn lower_ends(&self) -> &Array1<u32> {
        &self.a
    }

    /// The higher endpoint of every edge, in canonical edge order.
    pub fn higher_ends(&self) -> &Array1<u32> {
        &self.b
    }

    /// The endpoints of edge `e`.
    #[inline]
    pub fn endpoints(&self, e: usize) -> (u32, u32) {
        (self.a[e], self.b[e])
    }

    /// The square at the other end of edge `e` from `square`.
    #[inline]
    pub fn other(&self, e: usize, square: u32) -> u32 {
        if self.a[e] == square {
            self.b[e]
        } else {
            self.a[e]
        }
    }

    /// The edge joining `x` and `y`, if they are a knight move apart.
    pub fn edge_between(&self, x: u32, y: u32) -> Option<usize> {
        self.incident(x)
            .iter()
            .map(|&e| e as usize)
            .find(|&e| self.other(e, x) == y)
    }

    /// The number of possible moves from a square, counting all 8 offsets on the board.
    pub(crate) fn max_degree() -> usize {
        KNIGHT_OFFSETS.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_order_and_counts() {
        for (m, n) in [(1, 1), (1, 5), (2, 3), (3, 3), (3, 4), (8, 8), (5, 9)] {
            let board = Board::new(m, n).unwrap();
            let g = KnightGraph::new(board);
            assert_eq!(g.edges() as u64, edge_count(m, n));
            let mut last = (0, 0);
            for e in 0..g.edges() {
                let (a, b) = g.endpoints(e);
                assert!(a < b && board.is_knight_move(a, b));
                assert!(e == 0 || (a, b) > last, "edges not in canonical order");
                last = (a, b);
            }
            let degree_sum: usize = (0..board.squares() as u32).map(|s| g.degree(s)).sum();
            assert_eq!(degree_sum, 2 * g.edges());
            for s in 0..board.squares() as u32 {
                assert_eq!(g.degree(s), board.knight_moves(s).count());
                for &e in g.incident(s) {
                    assert_eq!(g.edge_between(s, g.other(e as usize, s)), Some(e as usize));
                }
            }
        }
        assert_eq!(edge_count(8, 8), 168);
    }

    #[test]
    fn refuses_huge_boards() {
        let huge = Board::new(100_000, 100_000).unwrap_err();
        assert!(huge.to_string().contains("too large"));
        // 60000x60000 has 1.4e10 knight moves: beyond 32-bit edge indices, whatever the
        // memory (input: exit 2).
        let big = Board::new(60_000, 60_000).unwrap();
        let err = check_memory(big, 5, 1, "the network").unwrap_err();
        assert!(matches!(err, InputError::TooLarge(_)), "{err}");
        assert!(err.to_string().contains("32-bit"), "{err}");
        // Beyond the memory the process may use: the environment's failure (exit 1).
        let err = check_bytes(Board::new(100, 100).unwrap(), u64::MAX, "a test").unwrap_err();
        assert!(err.is_environment(), "{err}");
        assert!(
            err.to_string()
                .contains("out of memory: a test on board 100x100"),
            "{err}"
        );
        assert!(check_memory(Board::new(100, 100).unwrap(), 5, 1, "the network").is_ok());
    }
}

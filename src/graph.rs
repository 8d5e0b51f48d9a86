//! The graph the network and the solvers search, built once and shared: vertices and
//! edges, each edge one neuron of the network. It is the knight's graph of a board
//! (squares are vertices, knight moves are edges), the move graph of a [`Geometry`]
//! (any leaper, surface and shape), or a graph read from a file; [`Source`] says which,
//! so that output can name squares or the file's vertex numbers.
//!
//! On the knight's board:
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
//!
//! A geometry's or a file's graph ([`KnightGraph::from_moves`], [`KnightGraph::from_file`])
//! keeps that graph's own vertex numbers and edge order (both canonical: `a < b`, sorted)
//! and stands for closed tours (Hamiltonian cycles) only. Its degrees are whatever the
//! graph has: [`KnightGraph::max_degree`] is the largest, not the knight's 8.

use std::sync::Arc;

use ndarray::Array1;
use serde::{Deserialize, Serialize};

use crate::board::{Board, KNIGHT_OFFSETS};
use crate::error::InputError;
use crate::geometry::{Geometry, MoveGraph};
use crate::graph_file::FileGraph;
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

/// What a [`KnightGraph`] was built from: it decides how its vertices are named.
#[derive(Debug, Clone)]
pub enum Source {
    /// The knight on a whole plane board: vertex `v` is square `v`.
    Knight(Board),
    /// A geometry's move graph: vertex `v` is square [`MoveGraph::square`]`(v)`.
    Geometry(Arc<MoveGraph>),
    /// A graph read from a file: vertex `v` is number [`FileGraph::file_number`]`(v)`.
    File(Arc<FileGraph>),
}

impl Source {
    /// The knight's board, when this is one.
    pub fn knight_board(&self) -> Option<Board> {
        match self {
            Source::Knight(b) => Some(*b),
            _ => None,
        }
    }

    /// The geometry, when this is one.
    pub fn geometry(&self) -> Option<&Geometry> {
        match self {
            Source::Geometry(m) => Some(m.geometry()),
            _ => None,
        }
    }
}

/// How a disconnected graph falls apart ([`KnightGraph::split`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// Its connected components: two or more.
    pub components: usize,
    /// A vertex of the first component (vertex 0).
    pub first: u32,
    /// The lowest vertex outside the first component.
    pub other: u32,
}

/// Immutable graph of a board, a geometry or a file (see the module documentation).
#[derive(Debug, Clone)]
pub struct KnightGraph {
    source: Source,
    /// Vertices that are not the open graph's apex.
    n: usize,
    /// Largest degree of a vertex that is not the apex (8 on every knight's board, the
    /// bound the engines' overflow checks were always stated with).
    max_degree: u32,
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
        let e = if apex { knight + n } else { knight };
        let what = || format!("the knight's graph of {board}");
        let mut a = memory::try_with_capacity(e, &what())?;
        let mut b = memory::try_with_capacity(e, &what())?;
        let mut targets: Vec<u32> = Vec::with_capacity(4);
        for s in 0..n as u32 {
            targets.clear();
            targets.extend(board.knight_moves(s).filter(|&t| t > s));
            targets.sort_unstable();
            for &t in &targets {
                a.push(s);
                b.push(t);
            }
        }
        debug_assert_eq!(a.len(), knight);
        if apex {
            for s in 0..n as u32 {
                a.push(s);
                b.push(n as u32);
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
        let max_degree = Self::knight_max_degree() as u32;
        Self::from_ends(
            Source::Knight(board),
            n,
            max_degree,
            a,
            b,
            tours,
            held,
            &what,
        )
    }

    /// The move graph of a geometry, for closed tours: vertex `v` is the graph's vertex
    /// `v` (square [`MoveGraph::square`]`(v)`), edges in the move graph's order.
    pub fn from_moves(moves: MoveGraph) -> Result<KnightGraph, MemoryError> {
        let n = moves.vertices();
        let board = moves.geometry().board();
        let what = || format!("the move graph of board {board}");
        let (a, b) = Self::split_ends(moves.edge_list(), &what)?;
        let max_degree = (0..n as u32).map(|v| moves.degree(v)).max().unwrap_or(0) as u32;
        Self::from_ends(
            Source::Geometry(Arc::new(moves)),
            n,
            max_degree,
            a,
            b,
            Tours::Closed,
            Vec::new(),
            &what,
        )
    }

    /// A graph read from a file, for closed tours (Hamiltonian cycles): vertex `v` is
    /// number [`FileGraph::file_number`]`(v)` in the file, edges in the file graph's order.
    pub fn from_file(file: FileGraph) -> Result<KnightGraph, MemoryError> {
        let n = file.vertices() as usize;
        let what = || "the graph read from the file".to_string();
        let (a, b) = Self::split_ends(file.edges(), &what)?;
        let max_degree = file.degrees().into_iter().max().unwrap_or(0);
        Self::from_ends(
            Source::File(Arc::new(file)),
            n,
            max_degree,
            a,
            b,
            Tours::Closed,
            Vec::new(),
            &what,
        )
    }

    /// The lower and the higher ends of `edges`, as two arrays.
    fn split_ends(
        edges: &[(u32, u32)],
        what: &dyn Fn() -> String,
    ) -> Result<(Vec<u32>, Vec<u32>), MemoryError> {
        let mut a = memory::try_with_capacity(edges.len(), &what())?;
        let mut b = memory::try_with_capacity(edges.len(), &what())?;
        for &(x, y) in edges {
            debug_assert!(x < y);
            a.push(x);
            b.push(y);
        }
        Ok((a, b))
    }

    /// The graph of the edges `a[e] < b[e]` on `n` vertices (plus the apex, `n`, for
    /// open tours), with its incidence lists built here.
    #[allow(clippy::too_many_arguments)]
    fn from_ends(
        source: Source,
        n: usize,
        max_degree: u32,
        a: Vec<u32>,
        b: Vec<u32>,
        tours: Tours,
        held: Vec<u32>,
        what: &dyn Fn() -> String,
    ) -> Result<KnightGraph, MemoryError> {
        let vertices = if matches!(tours, Tours::Open { .. }) {
            n + 1
        } else {
            n
        };
        let e = a.len();
        let mut degree = memory::try_vec(vertices, 0u32, &what())?;
        for (&x, &y) in a.iter().zip(&b) {
            degree[x as usize] += 1;
            degree[y as usize] += 1;
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
        Ok(KnightGraph {
            source,
            n,
            max_degree,
            a: Array1::from(a),
            b: Array1::from(b),
            offsets,
            incident,
            tours,
            held,
        })
    }

    /// What the graph was built from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The largest degree of a vertex other than the open graph's apex: 8 on a knight's
    /// board (the bound, whatever the board), the largest actual degree otherwise.
    pub fn max_degree(&self) -> usize {
        self.max_degree as usize
    }

    /// The range the `negative-states` initialisation draws −U from: the board's width
    /// on a knight's board or a geometry; on a file graph, which has no width,
    /// `ceil(sqrt(vertices))` (the width of a square board of as many squares).
    pub fn init_spread(&self) -> usize {
        match &self.source {
            Source::Knight(b) => b.cols(),
            Source::Geometry(m) => m.geometry().board().cols(),
            Source::File(_) => (self.n as f64).sqrt().ceil() as usize,
        }
    }

    /// How refusals and summaries name the graph: `the 8x8 board`; a geometry's leaper,
    /// board, surface and holes; a file graph's name and size.
    pub fn describe(&self) -> String {
        match &self.source {
            Source::Knight(b) => format!("the {b} board"),
            Source::Geometry(m) => {
                let g = m.geometry();
                let holes = g
                    .shape()
                    .holes_phrase()
                    .map_or_else(String::new, |h| format!(", {h}"));
                format!(
                    "the ({}) leaper on the {} {}{holes}",
                    g.leaper(),
                    g.board(),
                    g.surface()
                )
            }
            Source::File(f) => format!(
                "the graph{} ({} vertices, {} edges)",
                f.name().map(|n| format!(" {n}")).unwrap_or_default(),
                f.vertices(),
                f.edges().len()
            ),
        }
    }

    /// The board whose squares this graph's vertices are: the knight's board, or a
    /// geometry's rectangle (holes included, so it may have more squares than the graph
    /// has vertices); `None` on a graph read from a file, which has no board.
    pub fn board(&self) -> Option<Board> {
        match &self.source {
            Source::Knight(b) => Some(*b),
            Source::Geometry(m) => Some(m.geometry().board()),
            Source::File(_) => None,
        }
    }

    /// How the graph (the open graph's apex left out) falls apart into connected
    /// components, found by breadth-first search; `None` when it is connected (or has no
    /// vertex).
    pub fn split(&self) -> Option<Split> {
        let n = self.n;
        let mut component = vec![u32::MAX; n];
        let mut count = 0u32;
        let mut queue = std::collections::VecDeque::new();
        for root in 0..n {
            if component[root] != u32::MAX {
                continue;
            }
            component[root] = count;
            queue.push_back(root as u32);
            while let Some(v) = queue.pop_front() {
                for &e in self.incident(v) {
                    let w = self.other(e as usize, v);
                    if (w as usize) < n && component[w as usize] == u32::MAX {
                        component[w as usize] = count;
                        queue.push_back(w);
                    }
                }
            }
            count += 1;
        }
        let other = component.iter().position(|&c| c != 0)?;
        Some(Split {
            components: count as usize,
            first: 0,
            other: other as u32,
        })
    }

    /// [`KnightGraph::split`] in words: `… is disconnected: 2 components; a1 is in one,
    /// c1 in another`.
    pub(crate) fn describe_split(&self, split: &Split) -> String {
        format!(
            "{} is disconnected: {} components; {} {} is in one, {} in another",
            self.describe(),
            split.components,
            if matches!(self.source, Source::File(_)) {
                "vertex"
            } else {
                "square"
            },
            self.vertex_name(split.first),
            self.vertex_name(split.other)
        )
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
        matches!(self.tours, Tours::Open { .. }).then_some(self.n as u32)
    }

    /// Edges held on (constant inputs of the network, never updated), increasing.
    pub fn held(&self) -> &[u32] {
        &self.held
    }

    /// A bound on `degree(a) + degree(b)` over the edges `{a, b}`: the most active
    /// neighbours a neuron can have, plus two (16 on the knight's graph, which the
    /// engines' overflow bounds were always stated with).
    pub(crate) fn max_degree_sum(&self) -> u64 {
        let d = u64::from(self.max_degree);
        match self.tours {
            Tours::Closed => 2 * d,
            // A square has at most `d` moves and its apex edge; the apex has n.
            Tours::Open { .. } => (2 * d + 2).max(d + 1 + self.squares() as u64),
        }
    }

    /// The knight's tour a Hamiltonian cycle of this graph (every vertex once) stands
    /// for, checked by the tour oracle: the cycle itself on the knight's graph; on the
    /// open graph, the cycle cut at the apex, starting at the held start square when
    /// there is one. A geometry's or a file's graph has no knight's tours
    /// ([`TourError::NotKnightBoard`]): its cycles are checked as
    /// [`crate::tour::GraphTour`]s.
    pub fn tour_from_cycle(&self, mut cycle: Vec<u32>) -> Result<Tour, TourError> {
        let Source::Knight(board) = self.source else {
            return Err(TourError::NotKnightBoard {
                graph: self.describe(),
            });
        };
        let (Tours::Open { start }, Some(apex)) = (self.tours, self.apex()) else {
            return Tour::new(board, cycle, true);
        };
        if let Some(path) = open_path(&cycle, apex) {
            cycle = path;
        }
        if start.is_some_and(|s| cycle.first() != Some(&s)) {
            cycle.reverse();
        }
        Tour::new(board, cycle, false)
    }

    /// How output names vertex `v`: its square ([`Board::square_name`]) on a knight's
    /// board or a geometry, its number in the file (from 1) on a file graph, `apex` for
    /// the open graph's apex.
    pub fn vertex_name(&self, v: u32) -> String {
        if Some(v) == self.apex() {
            return "apex".to_string();
        }
        match &self.source {
            Source::Knight(b) => b.square_name(v),
            Source::Geometry(m) => m.geometry().board().square_name(m.square(v)),
            Source::File(f) => f.file_number(v).to_string(),
        }
    }

    /// Number of edges (neurons).
    pub fn edges(&self) -> usize {
        self.a.len()
    }

    /// Number of vertices other than the open graph's apex: the board's squares, a
    /// geometry's squares that are not holes, a file graph's vertices.
    pub fn squares(&self) -> usize {
        self.n
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

    /// The number of possible knight moves from a square, counting all 8 offsets.
    pub(crate) fn knight_max_degree() -> usize {
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
    fn a_file_graph_has_no_board_and_no_knights_tour() {
        let file = FileGraph::parse("1 2\n2 3\n3 1\n", "triangle").unwrap();
        let g = KnightGraph::from_file(file).unwrap();
        assert_eq!(g.board(), None);
        let err = g.tour_from_cycle(vec![0, 1, 2]).unwrap_err();
        assert!(matches!(err, TourError::NotKnightBoard { .. }), "{err}");
        assert!(err.to_string().contains("3 vertices"), "{err}");
        let torus = Geometry::new(
            crate::geometry::Shape::full(Board::new(4, 4).unwrap()),
            crate::geometry::Leaper::default(),
            crate::geometry::Surface::Torus,
        );
        let g = KnightGraph::from_moves(torus.moves().unwrap()).unwrap();
        assert_eq!(g.board(), Some(Board::new(4, 4).unwrap()));
        assert!(g.tour_from_cycle((0..16).collect()).is_err());
        let knight = KnightGraph::new(Board::new(3, 4).unwrap());
        assert_eq!(knight.board(), Some(Board::new(3, 4).unwrap()));
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

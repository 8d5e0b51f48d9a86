//! Where a game is played: a [`Geometry`] (a leaper, a surface and a shape). The knight
//! on a whole plane board plays on the board's own knight moves and asks the knight's
//! search for its hints, as it always has; any other geometry plays on its move graph
//! ([`crate::geometry::MoveGraph`], as the solvers of [`crate::solvers::on_graph`] take
//! it), where a move that leaves one edge of a cylinder or torus comes back at the other
//! and holes are no squares at all: never a move, never left to visit.

use std::sync::Arc;

use crate::board::Board;
use crate::error::InputError;
use crate::geometry::{Geometry, MoveGraph};
use crate::graph::{KnightGraph, Source};

/// The board of a game and its moves. Squares are numbered as on the [`Board`] the
/// shape is cut from, holes included.
#[derive(Debug, Clone)]
pub struct Field {
    geometry: Geometry,
    /// `None`: the knight on a whole plane board. Otherwise the geometry's move graph.
    graph: Option<Arc<KnightGraph>>,
}

impl PartialEq for Field {
    fn eq(&self, other: &Field) -> bool {
        self.geometry == other.geometry
    }
}

impl Eq for Field {}

impl From<Board> for Field {
    /// The knight on the whole board, on the plane ([`Field::knight`]).
    fn from(board: Board) -> Field {
        Field::knight(board)
    }
}

impl Field {
    /// The knight on the whole `board`, on the plane.
    pub fn knight(board: Board) -> Field {
        Field {
            geometry: Geometry::knight(board),
            graph: None,
        }
    }

    /// A game's field on `geometry` (the plain knight's is [`Field::knight`]). Refused
    /// when the move graph does not fit the memory or 32-bit edge indices.
    pub fn new(geometry: Geometry) -> Result<Field, InputError> {
        if geometry.is_plain_knight() {
            return Ok(Field::knight(geometry.board()));
        }
        let moves = geometry.moves()?;
        let graph = KnightGraph::from_moves(moves)?;
        Ok(Field {
            geometry,
            graph: Some(Arc::new(graph)),
        })
    }

    /// The rectangle the board is cut from.
    pub fn board(&self) -> Board {
        self.geometry.board()
    }

    /// The leaper, surface and shape.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// The move graph beyond the plain knight (vertex numbers: [`Field::vertex`]).
    pub(crate) fn graph(&self) -> Option<&KnightGraph> {
        self.graph.as_deref()
    }

    /// The move graph beyond the plain knight, shared.
    pub(crate) fn shared_graph(&self) -> Option<Arc<KnightGraph>> {
        self.graph.clone()
    }

    /// The square of vertex `v` of [`Field::graph`] (the knight's: `v` itself).
    pub(crate) fn square_of(&self, v: u32) -> u32 {
        self.moves().map_or(v, |m| m.square(v))
    }

    /// The geometry's move graph beyond the plain knight.
    pub(crate) fn moves(&self) -> Option<&MoveGraph> {
        match self.graph()?.source() {
            Source::Geometry(m) => Some(m),
            _ => None,
        }
    }

    /// Whether `square` is a hole.
    pub fn is_hole(&self, square: u32) -> bool {
        self.geometry.shape().is_hole(square)
    }

    /// Squares a tour visits: the board's, less its holes.
    pub fn squares(&self) -> usize {
        self.geometry.shape().squares()
    }

    /// The piece's name in messages: `knight`, `zebra`, or `2,5-leaper`.
    pub fn piece(&self) -> String {
        let l = self.geometry.leaper();
        l.name()
            .map_or_else(|| format!("{l}-leaper"), str::to_string)
    }

    /// The squares one move from `square`: the knight's clockwise, a geometry's in
    /// increasing square order (wrapped moves included, holes left out).
    pub fn moves_from(&self, square: u32) -> Vec<u32> {
        match self.moves() {
            None => self.board().knight_moves(square).collect(),
            Some(m) => m.vertex(square).map_or_else(Vec::new, |v| {
                m.neighbours(v).iter().map(|&w| m.square(w)).collect()
            }),
        }
    }

    /// Whether one move joins squares `a` and `b`.
    pub fn is_move(&self, a: u32, b: u32) -> bool {
        match self.moves() {
            None => self.board().is_knight_move(a, b),
            Some(m) => match (m.vertex(a), m.vertex(b)) {
                (Some(x), Some(y)) => m.neighbours(x).binary_search(&y).is_ok(),
                _ => false,
            },
        }
    }

    /// `path` (squares, none a hole) as vertices of [`Field::graph`].
    pub(crate) fn vertices(&self, path: &[u32]) -> Vec<u32> {
        match self.moves() {
            None => path.to_vec(),
            Some(m) => path
                .iter()
                .map(|&s| m.vertex(s).expect("a played square is not a hole"))
                .collect(),
        }
    }

    /// Vertices of [`Field::graph`] as squares.
    pub(crate) fn squares_of(&self, vertices: &[u32]) -> Vec<u32> {
        match self.moves() {
            None => vertices.to_vec(),
            Some(m) => m.squares_of(vertices),
        }
    }
}

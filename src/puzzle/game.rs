//! The game state: the path so far, the move number on each visited square, and a redo
//! stack. Only legal moves (the knight's, or the leaper's of the game's [`Field`]) to
//! unvisited squares are accepted; holes are never moves.

use std::fmt;

use crate::board::Board;

use super::complete::Hint;
use super::dead::{self, Verdict};
use super::field::Field;

/// Why a move was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The square index is not on the board.
    OffBoard,
    /// The square was already visited (at that move number).
    Visited {
        /// The square's name ([`Board::square_name`]).
        name: String,
        /// The move number it was visited at (1 = the start).
        number: u32,
    },
    /// The square is not a knight move from the knight's square.
    NotKnightMove {
        /// The knight's square ([`Board::square_name`]).
        from: String,
        /// The square asked for.
        to: String,
    },
    /// The square is a hole of the board's shape.
    Hole {
        /// The square's name ([`Board::square_name`]).
        name: String,
    },
    /// The square is not a move of the game's leaper (beyond the plain knight) from the
    /// leaper's square.
    NotAMove {
        /// The piece ([`Field::piece`]).
        piece: String,
        /// The leaper's square.
        from: String,
        /// The square asked for.
        to: String,
    },
    /// The tour is already complete.
    Complete,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::OffBoard => write!(f, "that square is off the board"),
            MoveError::Visited { name, number } => {
                write!(f, "{name} was already visited (move {number})")
            }
            MoveError::NotKnightMove { from, to } => {
                write!(f, "{to} is not a knight move from {from}")
            }
            MoveError::Hole { name } => write!(f, "{name} is a hole, not a square"),
            MoveError::NotAMove { piece, from, to } => {
                write!(f, "{to} is not a {piece} move from {from}")
            }
            MoveError::Complete => write!(f, "the tour is complete"),
        }
    }
}

impl std::error::Error for MoveError {}

/// How a completed tour ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The last square is a move from the first: the tour closes into a cycle.
    Closed,
    /// The last square is not a move from the first.
    Open,
}

impl Ending {
    /// `closed` or `open`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Closed => "closed",
            Ending::Open => "open",
        }
    }
}

/// A game of knight's tour (or a leaper's tour) on one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    field: Field,
    path: Vec<u32>,
    /// Move number (1-based) of each square, 0 when unvisited.
    number: Vec<u32>,
    /// Undone moves, the next one to redo last.
    redo: Vec<u32>,
}

impl Game {
    /// A knight's game on `board` with no move played: the first move may go to any
    /// square.
    pub fn new(board: Board) -> Game {
        Game::on(Field::knight(board))
    }

    /// A game on `field` with no move played: the first move may go to any square that
    /// is not a hole.
    pub fn on(field: Field) -> Game {
        let squares = field.board().squares();
        Game {
            field,
            path: Vec::new(),
            number: vec![0; squares],
            redo: Vec::new(),
        }
    }

    /// A game with `path` played (each move checked).
    pub fn with_path(board: Board, path: &[u32]) -> Result<Game, MoveError> {
        let mut g = Game::new(board);
        for &s in path {
            g.play(s)?;
        }
        Ok(g)
    }

    /// The board being played (the rectangle its shape is cut from).
    pub fn board(&self) -> Board {
        self.field.board()
    }

    /// The board, its leaper, surface and holes.
    pub fn field(&self) -> &Field {
        &self.field
    }

    /// The squares visited so far, in order.
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The knight's square (the last visited), if the game has started.
    pub fn current(&self) -> Option<u32> {
        self.path.last().copied()
    }

    /// Move number of `square` (1 = the start), if visited.
    pub(crate) fn move_number(&self, square: u32) -> Option<u32> {
        self.number.get(square as usize).copied().filter(|&n| n > 0)
    }

    pub(crate) fn is_visited(&self, square: u32) -> bool {
        self.move_number(square).is_some()
    }

    /// Whether every square (but the holes) has been visited: the game is won.
    pub fn is_complete(&self) -> bool {
        self.path.len() == self.field.squares()
    }

    /// How the tour ends once every square is visited (`None` before): closed when the
    /// last square is a move from the first and the tour has three squares or more (a
    /// cycle of distinct squares; a knight's move never joins the two squares of a
    /// two-square board), else open (so a one-square board's tour is open).
    pub fn ending(&self) -> Option<Ending> {
        let (&first, &last) = (self.path.first()?, self.path.last()?);
        self.is_complete().then(|| {
            if self.path.len() > 2 && self.field.is_move(first, last) {
                Ending::Closed
            } else {
                Ending::Open
            }
        })
    }

    /// Visited-square flags, indexed by square.
    pub fn visited(&self) -> Vec<bool> {
        self.number.iter().map(|&n| n > 0).collect()
    }

    /// The squares the knight may move to now (every square but the holes before the
    /// start).
    pub fn legal_moves(&self) -> Vec<u32> {
        match self.current() {
            None => (0..self.board().squares() as u32)
                .filter(|&s| !self.field.is_hole(s))
                .collect(),
            Some(c) => self
                .field
                .moves_from(c)
                .into_iter()
                .filter(|&t| !self.is_visited(t))
                .collect(),
        }
    }

    /// Whether moving to `square` is legal now.
    pub fn is_legal(&self, square: u32) -> bool {
        self.check_move(square).is_ok()
    }

    fn check_move(&self, square: u32) -> Result<(), MoveError> {
        let board = self.board();
        if square as usize >= board.squares() {
            return Err(MoveError::OffBoard);
        }
        if self.is_complete() {
            return Err(MoveError::Complete);
        }
        if self.field.is_hole(square) {
            return Err(MoveError::Hole {
                name: board.square_name(square),
            });
        }
        if let Some(number) = self.move_number(square) {
            return Err(MoveError::Visited {
                name: board.square_name(square),
                number,
            });
        }
        if let Some(c) = self.current()
            && !self.field.is_move(c, square)
        {
            let (from, to) = (board.square_name(c), board.square_name(square));
            return Err(if self.field.geometry().is_plain_knight() {
                MoveError::NotKnightMove { from, to }
            } else {
                MoveError::NotAMove {
                    piece: self.field.piece(),
                    from,
                    to,
                }
            });
        }
        Ok(())
    }

    /// Move the knight to `square` (the first move picks the start). A move equal to the
    /// next redo move keeps the rest of the redo stack; any other move clears it.
    pub fn play(&mut self, square: u32) -> Result<(), MoveError> {
        self.check_move(square)?;
        if self.redo.last() == Some(&square) {
            self.redo.pop();
        } else {
            self.redo.clear();
        }
        self.push(square);
        Ok(())
    }

    fn push(&mut self, square: u32) {
        self.path.push(square);
        self.number[square as usize] = self.path.len() as u32;
    }

    /// Take back the last move; returns its square.
    pub fn undo(&mut self) -> Option<u32> {
        let s = self.path.pop()?;
        self.number[s as usize] = 0;
        self.redo.push(s);
        Some(s)
    }

    /// Replay the last undone move; returns its square.
    pub fn redo(&mut self) -> Option<u32> {
        let s = self.redo.pop()?;
        self.push(s);
        Some(s)
    }

    /// Number of moves that can be redone.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Whether the position can still be completed, by the cheap check.
    pub fn verdict(&self) -> Verdict {
        dead::check_on(&self.field, &self.path)
    }

    /// The hint ([`super::complete::hint`]), within [`super::complete::SEARCH_BUDGET`]
    /// search steps; `None` before the start square is picked or after the last move.
    pub fn hint(&self) -> Option<Hint> {
        if self.path.is_empty() || self.is_complete() {
            return None;
        }
        Some(super::complete::hint_on(
            &self.field,
            &self.path,
            super::complete::SEARCH_BUDGET,
        ))
    }

    /// Append `moves` (a completion found by a solver) as played moves.
    pub fn extend(&mut self, moves: &[u32]) -> Result<(), MoveError> {
        for &s in moves {
            self.play(s)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b8() -> Board {
        Board::new(8, 8).unwrap()
    }

    #[test]
    fn only_legal_moves_are_accepted() {
        let b = b8();
        let mut g = Game::new(b);
        assert_eq!(g.legal_moves().len(), 64);
        let a1 = b.parse_square("a1").unwrap();
        g.play(a1).unwrap();
        let mut legal = g.legal_moves();
        legal.sort_unstable();
        let mut expect = vec![b.parse_square("b3").unwrap(), b.parse_square("c2").unwrap()];
        expect.sort_unstable();
        assert_eq!(legal, expect);
        assert!(matches!(
            g.play(b.parse_square("a2").unwrap()),
            Err(MoveError::NotKnightMove { .. })
        ));
        assert_eq!(g.play(64), Err(MoveError::OffBoard));
        g.play(b.parse_square("b3").unwrap()).unwrap();
        let err = g.play(a1).unwrap_err();
        assert_eq!(err.to_string(), "a1 was already visited (move 1)");
        assert_eq!(g.move_number(a1), Some(1));
        assert_eq!(g.move_number(b.parse_square("b3").unwrap()), Some(2));
        assert_eq!(g.path().len(), 2);
    }

    #[test]
    fn undo_and_redo_are_unlimited() {
        let b = b8();
        let names = ["a1", "b3", "c1", "d3", "e1", "f3", "g1", "h3"];
        let squares: Vec<u32> = names.iter().map(|n| b.parse_square(n).unwrap()).collect();
        let mut g = Game::with_path(b, &squares).unwrap();
        for k in (0..squares.len()).rev() {
            assert_eq!(g.undo(), Some(squares[k]));
            assert!(!g.is_visited(squares[k]));
        }
        assert_eq!(g.undo(), None);
        assert_eq!(g.redo_len(), 8);
        for &s in &squares {
            assert_eq!(g.redo(), Some(s));
        }
        assert_eq!(g.redo(), None);
        assert_eq!(g, Game::with_path(b, &squares).unwrap().clone());
        // Playing the redo move keeps the redo stack; a different move clears it.
        g.undo();
        g.undo();
        g.play(squares[6]).unwrap();
        assert_eq!(g.redo_len(), 1);
        g.undo();
        assert_eq!(g.redo_len(), 2);
        g.play(b.parse_square("f4").unwrap()).unwrap_err();
        assert_eq!(g.redo_len(), 2, "a refused move keeps the redo stack");
        g.play(b.parse_square("d4").unwrap()).unwrap();
        assert_eq!(g.redo_len(), 0);
        assert_eq!(g.move_number(b.parse_square("d4").unwrap()), Some(7));
    }

    #[test]
    fn complete_game_refuses_moves() {
        let b = Board::new(1, 1).unwrap();
        let mut g = Game::new(b);
        g.play(0).unwrap();
        assert!(g.is_complete());
        assert_eq!(g.play(0), Err(MoveError::Complete));
        assert_eq!(g.ending(), Some(Ending::Open), "one square is no cycle");
    }

    #[test]
    fn ending_tells_closed_from_open() {
        // An open tour of 3x4 and a closed one of 5x6 from square 0 (found by a
        // Warnsdorff-ordered backtracking search; `with_path` checks every move).
        let open = [0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4];
        let b = Board::new(3, 4).unwrap();
        let mut g = Game::with_path(b, &open[..11]).unwrap();
        assert_eq!(g.ending(), None, "not complete yet");
        g.play(open[11]).unwrap();
        assert_eq!(g.ending(), Some(Ending::Open));
        let closed = [
            0, 8, 4, 17, 28, 15, 23, 27, 19, 6, 2, 10, 21, 29, 16, 5, 9, 1, 12, 25, 14, 3, 11, 22,
            26, 18, 7, 20, 24, 13,
        ];
        let g = Game::with_path(Board::new(5, 6).unwrap(), &closed).unwrap();
        assert_eq!(g.ending(), Some(Ending::Closed));
        assert_eq!(g.ending().map(Ending::name), Some("closed"));
    }
}

//! Board geometry: a validated `rows x cols` size, square indices, knight offsets and
//! the two ways a user names a square (`row,col` 0-based, or algebraic like `c3`).
//!
//! Conventions used everywhere in knightnet:
//! - square index = `row * cols + col`, row 0 printed at the top;
//! - algebraic names exist for boards at most 26 columns wide: file `a` is column 0 and
//!   rank 1 is the bottom row (`row = rows - 1`), as on a chessboard.

use std::fmt;
use std::str::FromStr;

use crate::error::InputError;

/// Largest side accepted by [`Board::new`]. Individual solvers check memory separately.
pub const MAX_SIDE: usize = 1_000_000;
/// Largest number of squares accepted by [`Board::new`] (square indices are `u32`).
pub(crate) const MAX_SQUARES: u64 = u32::MAX as u64;

/// The eight knight offsets `(d_row, d_col)` in clockwise order, starting with the move
/// two rows up and one column right (row 0 is the top row, so "up" is `-2`).
pub const KNIGHT_OFFSETS: [(i32, i32); 8] = [
    (-2, 1),
    (-1, 2),
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
];

/// A validated board size. Both sides are at least 1, at most [`MAX_SIDE`], and the
/// square count fits in a `u32` index.
///
/// Serialized as `{"rows": R, "cols": C}`, the one JSON shape of a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Board {
    rows: usize,
    cols: usize,
}

impl Board {
    /// Check and build a board size.
    pub fn new(rows: usize, cols: usize) -> Result<Board, InputError> {
        if rows == 0 || cols == 0 {
            return Err(InputError::Board(format!(
                "board {rows}x{cols} has a zero side; both sides must be at least 1"
            )));
        }
        if rows > MAX_SIDE || cols > MAX_SIDE || (rows as u64) * (cols as u64) > MAX_SQUARES {
            return Err(InputError::Board(format!(
                "board {rows}x{cols} is too large ({} squares); sides up to {MAX_SIDE} and at most {MAX_SQUARES} squares are accepted",
                rows as u128 * cols as u128
            )));
        }
        Ok(Board { rows, cols })
    }

    /// Number of rows (1 to [`MAX_SIDE`]).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns (1 to [`MAX_SIDE`]).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of squares, `rows * cols`.
    pub fn squares(&self) -> usize {
        self.rows * self.cols
    }

    /// Index of `(row, col)`; the caller guarantees it is on the board.
    #[inline]
    pub fn index(&self, row: usize, col: usize) -> u32 {
        debug_assert!(row < self.rows && col < self.cols);
        (row * self.cols + col) as u32
    }

    /// `(row, col)` of a square index.
    #[inline]
    pub fn coords(&self, square: u32) -> (usize, usize) {
        let s = square as usize;
        (s / self.cols, s % self.cols)
    }

    /// Whether `(row, col)` given as signed numbers is on the board.
    #[inline]
    pub fn contains(&self, row: i64, col: i64) -> bool {
        row >= 0 && col >= 0 && (row as u64) < self.rows as u64 && (col as u64) < self.cols as u64
    }

    /// The knight moves from `square`, in the clockwise order of [`KNIGHT_OFFSETS`].
    pub fn knight_moves(&self, square: u32) -> impl Iterator<Item = u32> + '_ {
        let (r, c) = self.coords(square);
        KNIGHT_OFFSETS.iter().filter_map(move |&(dr, dc)| {
            let (nr, nc) = (r as i64 + dr as i64, c as i64 + dc as i64);
            self.contains(nr, nc)
                .then(|| self.index(nr as usize, nc as usize))
        })
    }

    /// Whether `a` and `b` are a knight move apart.
    #[inline]
    pub fn is_knight_move(&self, a: u32, b: u32) -> bool {
        let (ar, ac) = self.coords(a);
        let (br, bc) = self.coords(b);
        let dr = ar.abs_diff(br);
        let dc = ac.abs_diff(bc);
        (dr == 1 && dc == 2) || (dr == 2 && dc == 1)
    }

    /// Whether squares of this board have algebraic names (at most 26 columns).
    pub fn has_algebraic_names(&self) -> bool {
        self.cols <= 26
    }

    /// A human name for a square: algebraic (`c3`) on boards at most 26 wide, else `(r,c)`.
    pub fn square_name(&self, square: u32) -> String {
        let (r, c) = self.coords(square);
        if self.has_algebraic_names() {
            format!("{}{}", (b'a' + c as u8) as char, self.rows - r)
        } else {
            format!("({r},{c})")
        }
    }

    /// Parse a square given as `row,col` (0-based, row 0 at the top; also `(row,col)`, the
    /// form [`Board::square_name`] prints on wide boards) or algebraic (`c3`: file letter =
    /// column from `a`, rank 1 = bottom row; boards at most 26 columns wide).
    pub fn parse_square(&self, text: &str) -> Result<u32, InputError> {
        let t = text.trim();
        let t = match t.strip_prefix('(').and_then(|x| x.strip_suffix(')')) {
            Some(inner) if inner.contains(',') => inner,
            _ => t,
        };
        let bad = |why: String| InputError::Square(format!("square '{t}' {why}"));
        if let Some((r, c)) = t.split_once(',') {
            let r: i64 = r.trim().parse().map_err(|_| {
                bad("is malformed: expected ROW,COL with 0-based numbers like 2,3 or an algebraic name like c3".into())
            })?;
            let c: i64 = c.trim().parse().map_err(|_| {
                bad("is malformed: expected ROW,COL with 0-based numbers like 2,3 or an algebraic name like c3".into())
            })?;
            if !self.contains(r, c) {
                return Err(bad(format!(
                    "is off the {}x{} board: rows 0..={} and columns 0..={} are accepted",
                    self.rows,
                    self.cols,
                    self.rows - 1,
                    self.cols - 1
                )));
            }
            return Ok(self.index(r as usize, c as usize));
        }
        let mut chars = t.chars();
        let file = chars.next().filter(|ch| ch.is_ascii_lowercase());
        let rank: Option<usize> = chars.as_str().parse().ok();
        match (file, rank) {
            (Some(f), Some(rank)) => {
                if !self.has_algebraic_names() {
                    return Err(bad(format!(
                        "uses an algebraic name, which boards wider than 26 columns do not have (this one has {}); give ROW,COL",
                        self.cols
                    )));
                }
                let col = (f as u8 - b'a') as usize;
                if col >= self.cols || rank == 0 || rank > self.rows {
                    let last = (b'a' + self.cols as u8 - 1) as char;
                    return Err(bad(format!(
                        "is off the {}x{} board: files a..{last} and ranks 1..{} are accepted",
                        self.rows, self.cols, self.rows
                    )));
                }
                Ok(self.index(self.rows - rank, col))
            }
            _ => Err(bad(
                "is malformed: expected ROW,COL with 0-based numbers like 2,3 or an algebraic name like c3".into(),
            )),
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Board {
    type Err = InputError;

    /// Accepts `ROWSxCOLS` (`8x8`, `10X12`) or a single number for a square board.
    fn from_str(text: &str) -> Result<Board, InputError> {
        let t = text.trim();
        let malformed = || {
            InputError::Board(format!(
                "board '{t}' is malformed: expected ROWSxCOLS with positive whole numbers, like 8x8 or 10x12"
            ))
        };
        let parse_side = |s: &str| -> Result<usize, InputError> {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                if s.starts_with('-') {
                    return Err(InputError::Board(format!(
                        "board '{t}' has a negative side; both sides must be at least 1"
                    )));
                }
                return Err(malformed());
            }
            s.parse::<usize>().map_err(|_| {
                InputError::Board(format!(
                    "board '{t}' is too large; sides up to {MAX_SIDE} are accepted"
                ))
            })
        };
        let (r, c) = match t.split_once(['x', 'X']) {
            Some((r, c)) => (parse_side(r)?, parse_side(c)?),
            None => {
                let n = parse_side(t)?;
                (n, n)
            }
        };
        Board::new(r, c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name [`Board::square_name`] prints parses back to its square, on boards with
    /// and without algebraic names (records and `solve` print these names).
    #[test]
    fn every_printed_square_name_parses_back() {
        for (rows, cols) in [(1, 1), (3, 4), (8, 8), (26, 26), (5, 27), (28, 28), (3, 40)] {
            let b = Board::new(rows, cols).unwrap();
            for s in 0..b.squares() as u32 {
                assert_eq!(
                    b.parse_square(&b.square_name(s)).unwrap(),
                    s,
                    "{rows}x{cols} {s}"
                );
            }
        }
        let wide = Board::new(28, 28).unwrap();
        assert!(wide.parse_square("(26,28)").is_err());
        assert!(wide.parse_square("(26 27)").is_err());
    }

    #[test]
    fn parses_sizes() {
        assert_eq!("8x8".parse::<Board>().unwrap(), Board::new(8, 8).unwrap());
        assert_eq!(
            "10X12".parse::<Board>().unwrap(),
            Board::new(10, 12).unwrap()
        );
        assert_eq!(" 6 ".parse::<Board>().unwrap(), Board::new(6, 6).unwrap());
        for bad in [
            "",
            "x",
            "8x",
            "0x8",
            "8x0",
            "-3x8",
            "8y8",
            "8x8x8",
            "1.5x3",
            "99999999999999999999999x2",
        ] {
            assert!(bad.parse::<Board>().is_err(), "{bad} accepted");
        }
        assert!("2000000x2".parse::<Board>().is_err());
        assert!("100000x100000".parse::<Board>().is_err());
    }

    #[test]
    fn squares_round_trip() {
        let b = Board::new(8, 8).unwrap();
        assert_eq!(b.parse_square("a1").unwrap(), b.index(7, 0));
        assert_eq!(b.parse_square("h8").unwrap(), b.index(0, 7));
        assert_eq!(b.parse_square("2,3").unwrap(), b.index(2, 3));
        for s in 0..64 {
            assert_eq!(b.parse_square(&b.square_name(s)).unwrap(), s);
        }
        for bad in ["i1", "a9", "a0", "8,0", "0,8", "-1,0", "z", "3;4", ""] {
            assert!(b.parse_square(bad).is_err(), "{bad} accepted");
        }
        let wide = Board::new(3, 30).unwrap();
        assert!(wide.parse_square("a1").is_err());
        assert_eq!(wide.square_name(31), "(1,1)");
    }

    #[test]
    fn knight_moves_are_symmetric_and_counted() {
        let b = Board::new(5, 7).unwrap();
        let mut total = 0;
        for s in 0..b.squares() as u32 {
            for t in b.knight_moves(s) {
                assert!(b.is_knight_move(s, t));
                assert!(b.knight_moves(t).any(|u| u == s));
                total += 1;
            }
        }
        // Edges of the m x n knight graph: 4mn - 6(m+n) + 8 for m, n >= 2.
        assert_eq!(total / 2, 4 * 5 * 7 - 6 * (5 + 7) + 8);
    }
}

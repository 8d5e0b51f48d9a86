//! The state every Warnsdorff walk starts from: the board's degrees in a padded byte
//! array, the eight knight steps in it and in the output numbering, the start square, and
//! the move orderings with their switch squares. Its invariants are what the walks'
//! unchecked accesses rely on.

use super::TieBreak;
use super::squirrel_cull::squirrel_cull_table;
use crate::board::{Board, KNIGHT_OFFSETS};
use crate::memory::MemoryError;

/// The byte of a visited square (and of the border) in the degree array.
pub(super) const VISITED: u8 = u8::MAX;

/// Width of the border of always-"visited" squares around the board in the degree
/// array: a knight moves at most two squares, so its eight targets never need a
/// bounds check.
pub(super) const PAD: usize = 2;

/// In the walk's degree array, bytes at or above this are visited or off-board squares.
/// They start at [`VISITED`] and, like every square, are decremented once per visited
/// neighbour (at most eight times), so they never fall below `VISITED - 8`; a real
/// degree is at most 8. Decrementing unconditionally saves a test per move.
pub(super) const GONE: u8 = 0x80;

/// One move ordering (`rank[k]` is move `k`'s place; lower ranks win ties) and the padded
/// square where the next ordering takes over (`usize::MAX`, never reached, for the last).
#[derive(Debug, Clone, Copy)]
pub(super) struct Switch {
    pub(super) rank: [u8; 8],
    pub(super) at: usize,
}

/// A walk's starting state, in the frame where the start lives (Squirrel–Cull runs from
/// the other corners of a square board in a reflected frame; `out_step` maps its moves
/// back to board squares).
///
/// # Invariants
/// Made only by [`Frame::new`]; the walks rely on these for memory safety:
/// - `deg` has `rows + 2 PAD` rows of width `w = cols + 2 PAD`; the `PAD`-wide border
///   holds [`VISITED`] and each board square its number of knight moves that stay on the
///   board (at most 8).
/// - `step[k]` is `KNIGHT_OFFSETS[k]` as an index step in `deg` (`dr w + dc`, with
///   `|dr|, |dc| <= 2 = PAD`), so from any board square `p` every `p + step[k]` is an
///   index of `deg`, within the same padded row band (no wrap onto another board row).
/// - `start` is the padded index of a board square.
///
/// A walk keeps them true as it runs: it only sets the current square's byte to
/// [`VISITED`] and decrements the bytes of its eight targets, and each square is current
/// at most once, so a byte is decremented at most eight times. An unvisited board square
/// is decremented once per visited neighbour, which its degree counted, so it stays a
/// count (>= 0, < [`GONE`]); a border or visited byte stays >= `VISITED - 8 > GONE`. The
/// walks move only to a target whose byte is below [`GONE`]: an unvisited board square.
/// Hence the current square is always a board square, and all eight of its targets are in
/// `deg`.
#[derive(Debug, Clone)]
pub(super) struct Frame {
    pub(super) deg: Vec<u8>,
    pub(super) w: usize,
    pub(super) step: [isize; 8],
    pub(super) out_step: [isize; 8],
    /// The start as a padded index and as an output (board) square.
    pub(super) start: usize,
    pub(super) out_start: usize,
    /// Roth: the doubled offset of the start from the board centre
    /// ([`super::roth::centre_offset`]).
    pub(super) centre: (i64, i64),
    /// The orderings in use, first to last (one, clockwise, except for Squirrel–Cull).
    pub(super) orderings: Vec<Switch>,
    /// Squares of the board (the longest possible path).
    pub(super) squares: usize,
    /// The path's buffer: empty, with room for every square (allocated with the frame,
    /// so that a board too large for memory is refused before the walk).
    pub(super) path: Vec<u32>,
}

impl Frame {
    /// The starting state of a run of `tie` from square `start` of `board`, or a
    /// [`MemoryError`] when its degree array or path cannot be allocated.
    ///
    /// # Panics
    /// If `start` is not a square of `board`.
    pub(super) fn new(board: Board, start: u32, tie: TieBreak) -> Result<Frame, MemoryError> {
        assert!(
            (start as usize) < board.squares(),
            "start square {start} is not on the {board} board"
        );
        let (rows, cols) = (board.rows(), board.cols());
        let (sr, sc) = board.coords(start);
        let flip = reflection(board, (sr, sc), tie);
        let start = (
            if flip.0 { rows - 1 - sr } else { sr },
            if flip.1 { cols - 1 - sc } else { sc },
        );
        let w = cols + 2 * PAD;
        let mut step = [0isize; 8];
        let mut out_step = [0isize; 8];
        for (k, &(dr, dc)) in KNIGHT_OFFSETS.iter().enumerate() {
            let (dr, dc) = (dr as isize, dc as isize);
            step[k] = dr * w as isize + dc;
            let (or, oc) = (if flip.0 { -dr } else { dr }, if flip.1 { -dc } else { dc });
            out_step[k] = or * cols as isize + oc;
        }
        let padded = |(r, c): (usize, usize)| (r + PAD) * w + c + PAD;
        let orderings = if tie == TieBreak::SquirrelCull {
            squirrel_cull_table(rows)
                .into_iter()
                .map(|o| Switch {
                    rank: o.rank,
                    at: o.until.map_or(usize::MAX, padded),
                })
                .collect()
        } else {
            vec![Switch {
                rank: [0, 1, 2, 3, 4, 5, 6, 7],
                at: usize::MAX,
            }]
        };
        Ok(Frame {
            deg: padded_degrees(rows, cols)?,
            w,
            step,
            out_step,
            start: padded(start),
            out_start: board.index(sr, sc) as usize,
            centre: super::roth::centre_offset(board, start.0, start.1),
            orderings,
            squares: board.squares(),
            path: crate::memory::try_with_capacity(board.squares(), "Warnsdorff's path")?,
        })
    }
}

/// Squirrel–Cull is defined from the top-left corner of a square board; runs from the
/// other corners happen in the reflected frame (`(flip rows, flip columns)`) and their
/// squares are mapped back as they are written.
fn reflection(board: Board, (sr, sc): (usize, usize), tie: TieBreak) -> (bool, bool) {
    let (rows, cols) = (board.rows(), board.cols());
    if tie == TieBreak::SquirrelCull
        && rows == cols
        && (sr == 0 || sr == rows - 1)
        && (sc == 0 || sc == cols - 1)
    {
        (sr != 0, sc != 0)
    } else {
        (false, false)
    }
}

/// The degrees of a `rows x cols` board in a padded array of width `cols + 2 PAD`, the
/// border marked [`VISITED`]. A square's degree is the number of offsets that stay on
/// the board in both its row and its column: `popcount(row_mask & col_mask)`.
pub(super) fn padded_degrees(rows: usize, cols: usize) -> Result<Vec<u8>, MemoryError> {
    let w = cols + 2 * PAD;
    let mask = |x: usize, len: usize, pick: fn((i32, i32)) -> i32| -> u8 {
        let mut m = 0u8;
        for (k, &off) in KNIGHT_OFFSETS.iter().enumerate() {
            let y = x as i64 + pick(off) as i64;
            if y >= 0 && (y as usize) < len {
                m |= 1 << k;
            }
        }
        m
    };
    let col_mask: Vec<u8> = (0..cols).map(|c| mask(c, cols, |o| o.1)).collect();
    // Checked: on a 32-bit target a board of nearly 2^32 squares has a larger padded
    // array, and a wrapped length would put board squares outside the allocation.
    let len = w
        .checked_mul(rows + 2 * PAD)
        .expect("the padded degree array's size fits in usize");
    let mut deg = crate::memory::try_vec(len, VISITED, "Warnsdorff's degree array")?;
    for r in 0..rows {
        let rm = mask(r, rows, |o| o.0);
        let base = (r + PAD) * w + PAD;
        for (d, &cm) in deg[base..base + cols].iter_mut().zip(&col_mask) {
            *d = (rm & cm).count_ones() as u8;
        }
    }
    Ok(deg)
}

//! Warnsdorff–Roth's move order, defined once: fewest onward moves first (Warnsdorff);
//! among those, the target farthest (Euclidean) from the board centre (Roth); among
//! equals, the first in the clockwise order of [`KNIGHT_OFFSETS`]. The `roth` walks
//! (`scalar`, `sse`) take the smallest [`key`] at each square, and the search's
//! Warnsdorff order ([`crate::solvers::search`], behind `warnsdorff-backtrack`, the
//! game's hint and give-up) tries the moves in increasing [`key`], so its first choice
//! is always the walk's move.
//!
//! The two differ in one place, which is not the order: the search skips a move into a
//! square with no onward move unless it is the last square (such a square could only be
//! a dead end), where the walk takes it and is stuck. So the search's first descent is
//! the walk move for move until the walk steps into a dead end before the last square,
//! and a walk that completes is that descent exactly (tested).
//!
//! Roth's distance without a square root or a multiplication per target: with the
//! knight's doubled offset from the centre `(A, B) = (2r − (rows − 1), 2c − (cols −
//! 1))` (`centre_offset`), the target of move `(dr, dc)` has squared doubled distance
//! `A² + B² + 4 (dr A + dc B) + 20`, so the farthest target has the largest
//! [`along`]` = dr A + dc B`; a move changes `(A, B)` by `(2 dr, 2 dc)` ([`moved`]).

use crate::board::{Board, KNIGHT_OFFSETS};

/// Bit position of the onward count in a [`key`] (the walks' other keys use it too).
pub(super) const DEG_SHIFT: u32 = 40;

/// Added to Roth's term so it is positive: the key holds `ROTH_BIAS − along`, with
/// `|along| <= 2 (rows + cols) < 2^23` on any board this crate accepts.
const ROTH_BIAS: i64 = 1 << 31;

/// The doubled offset of square `(r, c)` of `board` from its centre.
#[inline(always)]
pub(crate) fn centre_offset(board: Board, r: usize, c: usize) -> (i64, i64) {
    (
        2 * r as i64 - (board.rows() as i64 - 1),
        2 * c as i64 - (board.cols() as i64 - 1),
    )
}

/// Roth's measure of move `k` from a knight whose doubled offset from the centre is
/// `centre`: larger is farther.
#[inline(always)]
pub fn along(k: usize, (a, b): (i64, i64)) -> i64 {
    let (dr, dc) = KNIGHT_OFFSETS[k];
    i64::from(dr) * a + i64::from(dc) * b
}

/// The doubled offset from the centre after move `k`.
#[inline(always)]
pub fn moved(k: usize, (a, b): (i64, i64)) -> (i64, i64) {
    let (dr, dc) = KNIGHT_OFFSETS[k];
    (a + 2 * i64::from(dr), b + 2 * i64::from(dc))
}

/// The place of move `k` in the order, from a knight at doubled offset `centre` whose
/// target has `onward` unvisited neighbours: smaller keys come first, and no two moves
/// of one knight share a key. The low three bits are `k`. (The walks pass the byte of
/// their degree array, which for a visited or off-board target is above any count, so
/// those keys come after every real move.)
#[inline(always)]
pub fn key(onward: u8, k: usize, centre: (i64, i64)) -> u64 {
    (u64::from(onward) << DEG_SHIFT) | (((ROTH_BIAS - along(k, centre)) as u64) << 8) | k as u64
}

/// The index in [`KNIGHT_OFFSETS`] of the move `(dr, dc)` (a knight move).
#[inline]
pub(crate) fn move_index(dr: i64, dc: i64) -> usize {
    // Row `(dr + 2) * 5 + dc + 2` of a 5x5 table of the offsets' indices.
    const TABLE: [u8; 25] = {
        let mut t = [u8::MAX; 25];
        let mut k = 0;
        while k < 8 {
            let (dr, dc) = KNIGHT_OFFSETS[k];
            t[((dr + 2) * 5 + dc + 2) as usize] = k as u8;
            k += 1;
        }
        t
    };
    let k = TABLE[((dr + 2) * 5 + dc + 2) as usize];
    debug_assert!(k < 8, "({dr}, {dc}) is not a knight move");
    k as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key orders by onward count, then by distance from the centre (largest
    /// first), then clockwise: checked against the squared distance on every square and
    /// move of a few boards.
    #[test]
    fn keys_order_by_count_then_distance_then_clockwise() {
        for (m, n) in [(5, 5), (8, 8), (6, 11), (12, 7)] {
            let b = Board::new(m, n).unwrap();
            for s in 0..b.squares() as u32 {
                let (r, c) = b.coords(s);
                let centre = centre_offset(b, r, c);
                let dist2 = |t: u32| {
                    let (tr, tc) = b.coords(t);
                    let (a, bb) = centre_offset(b, tr, tc);
                    a * a + bb * bb
                };
                let targets: Vec<u32> = b.knight_moves(s).collect();
                let index = |t: u32| {
                    let (tr, tc) = b.coords(t);
                    move_index(tr as i64 - r as i64, tc as i64 - c as i64)
                };
                for &t in &targets {
                    let k = index(t);
                    let (tr, tc) = b.coords(t);
                    assert_eq!(moved(k, centre), centre_offset(b, tr, tc));
                    for &u in &targets {
                        let j = index(u);
                        for (dt, du) in [(3u8, 3u8), (2, 3), (3, 2)] {
                            let want = (dt, std::cmp::Reverse(dist2(t)), k).cmp(&(
                                du,
                                std::cmp::Reverse(dist2(u)),
                                j,
                            ));
                            assert_eq!(key(dt, k, centre).cmp(&key(du, j, centre)), want);
                        }
                    }
                }
            }
        }
    }
}

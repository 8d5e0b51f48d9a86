//! Whether a knight's tour exists, answered from theorems rather than search.
//!
//! - Closed tours: Schwenk, "Which rectangular chessboards have a knight's tour?",
//!   Math. Magazine 64(5) (1991) 325-332. With `m <= n`, an `m x n` board has a closed
//!   tour unless (a) `m` and `n` are both odd, (b) `m` is 1, 2 or 4, or (c) `m = 3` and
//!   `n` is 4, 6 or 8.
//! - Open tours: with `m <= n`, a board has one iff it is `1x1`, or `m = 3` and `n = 4`
//!   or `n >= 7`, or `m = 4` and `n >= 5`, or `m >= 5` (Conrad et al. 1994; see also
//!   the rec.puzzles knight's-tour FAQ). Tests check both against exhaustive search.

use crate::board::Board;

/// The answer and, when there is no tour, the theorem's reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Existence {
    pub exists: bool,
    pub reason: String,
}

/// Schwenk's theorem for closed tours.
pub fn closed_tour(board: Board) -> Existence {
    let (m, n) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    let no = |why: String| Existence {
        exists: false,
        reason: why,
    };
    if m == 1 && n == 1 {
        return no("a 1x1 board has no knight move, so no closed tour".into());
    }
    if m % 2 == 1 && n % 2 == 1 {
        return no(format!(
            "a {board} board has no closed knight's tour: both sides are odd, and a closed tour alternates colours so needs an even number of squares (Schwenk 1991)"
        ));
    }
    if m == 1 || m == 2 || m == 4 {
        return no(format!(
            "a {board} board has no closed knight's tour: boards with a side of 1, 2 or 4 have none (Schwenk 1991)"
        ));
    }
    if m == 3 && (n == 4 || n == 6 || n == 8) {
        return no(format!(
            "a {board} board has no closed knight's tour: 3x4, 3x6 and 3x8 have none (Schwenk 1991)"
        ));
    }
    Existence {
        exists: true,
        reason: format!("a {board} board has closed knight's tours (Schwenk 1991)"),
    }
}

/// The known conditions for open tours (a closed tour is also an open one).
pub fn open_tour(board: Board) -> Existence {
    let (m, n) = (
        board.rows().min(board.cols()),
        board.rows().max(board.cols()),
    );
    let exists =
        (m == 1 && n == 1) || (m == 3 && (n == 4 || n >= 7)) || (m == 4 && n >= 5) || m >= 5;
    let reason = if exists {
        format!("a {board} board has open knight's tours")
    } else {
        format!(
            "a {board} board has no knight's tour at all: boards with a side of 1 or 2 (other than 1x1), 3x3, 3x5, 3x6 and 4x4 have none"
        )
    };
    Existence { exists, reason }
}

/// Existence of the requested kind of tour.
pub fn tour_exists(board: Board, closed: bool) -> Existence {
    if closed {
        closed_tour(board)
    } else {
        open_tour(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exhaustive search: does an open (or closed) tour exist? Small boards only.
    fn search(board: Board, closed: bool) -> bool {
        fn go(board: Board, path: &mut Vec<u32>, used: &mut [bool], closed: bool) -> bool {
            let n = board.squares();
            if path.len() == n {
                return !closed || (n > 1 && board.is_knight_move(path[n - 1], path[0]));
            }
            let last = *path.last().unwrap();
            let moves: Vec<u32> = board.knight_moves(last).collect();
            for t in moves {
                if !used[t as usize] {
                    used[t as usize] = true;
                    path.push(t);
                    if go(board, path, used, closed) {
                        return true;
                    }
                    path.pop();
                    used[t as usize] = false;
                }
            }
            false
        }
        let n = board.squares();
        // Closed tours pass through square 0, so starting there is enough.
        let starts: Vec<u32> = if closed {
            vec![0]
        } else {
            (0..n as u32).collect()
        };
        starts.into_iter().any(|s| {
            let mut used = vec![false; n];
            used[s as usize] = true;
            go(board, &mut vec![s], &mut used, closed)
        })
    }

    #[test]
    fn theorems_match_exhaustive_search_on_small_boards() {
        for m in 1..=5 {
            for n in m..=6 {
                if m * n > 30 {
                    continue;
                }
                let b = Board::new(m, n).unwrap();
                assert_eq!(open_tour(b).exists, search(b, false), "open {b}");
                assert_eq!(closed_tour(b).exists, search(b, true), "closed {b}");
            }
        }
        for (m, n) in [(3, 7), (3, 8), (3, 10), (4, 5)] {
            let b = Board::new(m, n).unwrap();
            assert_eq!(open_tour(b).exists, search(b, false), "open {b}");
            assert_eq!(closed_tour(b).exists, search(b, true), "closed {b}");
        }
    }

    #[test]
    fn reasons_name_the_board() {
        let b = Board::new(7, 7).unwrap();
        assert!(!closed_tour(b).exists);
        assert!(closed_tour(b).reason.contains("7x7"));
        assert!(closed_tour(Board::new(8, 8).unwrap()).exists);
        assert!(!closed_tour(Board::new(4, 10).unwrap()).exists);
    }
}

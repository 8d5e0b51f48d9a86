//! The Warnsdorff hint and the completion search behind "give up".
//!
//! [`warnsdorff_move`]: among the knight's moves to unvisited squares, the one with the
//! fewest onward moves (Warnsdorff 1823); ties go to the first in the clockwise order of
//! [`crate::board::KNIGHT_OFFSETS`].
//!
//! [`complete`]: depth-first search from the current position for an open tour that
//! continues the path. Candidates are tried in Warnsdorff order, and every node is
//! pruned by the sound dead-position check of [`super::dead`], so the search is exact:
//! `Impossible` means no completion exists. A node budget bounds it.

use crate::board::Board;

use super::dead::{Checker, Verdict};

/// The Warnsdorff move from `at` given the visited flags, if any move is left.
pub fn warnsdorff_move(board: Board, visited: &[bool], at: u32) -> Option<u32> {
    board
        .knight_moves(at)
        .filter(|&t| !visited[t as usize])
        .min_by_key(|&t| {
            board
                .knight_moves(t)
                .filter(|&u| !visited[u as usize])
                .count()
        })
}

/// Candidate moves from `at` in Warnsdorff order (fewest onward moves first; stable).
pub fn warnsdorff_order(board: Board, visited: &[bool], at: u32) -> Vec<u32> {
    let mut c: Vec<(usize, u32)> = board
        .knight_moves(at)
        .filter(|&t| !visited[t as usize])
        .map(|t| {
            let onward = board
                .knight_moves(t)
                .filter(|&u| !visited[u as usize])
                .count();
            (onward, t)
        })
        .collect();
    c.sort_by_key(|&(onward, _)| onward);
    c.into_iter().map(|(_, t)| t).collect()
}

/// What the completion search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The moves that complete the tour (after the given path).
    Found(Vec<u32>),
    /// No completion exists.
    Impossible,
    /// The node budget ran out first.
    Budget,
}

/// Result of [`complete`]: what was found and the nodes (moves tried) it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Search {
    pub completion: Completion,
    pub nodes: u64,
}

struct Dfs {
    board: Board,
    checker: Checker,
    visited: Vec<bool>,
    path: Vec<u32>,
    nodes: u64,
    budget: u64,
    prune: bool,
}

impl Dfs {
    /// True when the path is complete; false on failure; `None` when out of budget.
    fn go(&mut self) -> Option<bool> {
        let n = self.board.squares();
        if self.path.len() == n {
            return Some(true);
        }
        let at = *self.path.last().expect("started");
        if self.prune {
            let remaining = n - self.path.len();
            if self.checker.check(&self.visited, at, remaining) != Verdict::Alive {
                return Some(false);
            }
        }
        for t in warnsdorff_order(self.board, &self.visited, at) {
            if self.nodes >= self.budget {
                return None;
            }
            self.nodes += 1;
            self.visited[t as usize] = true;
            self.path.push(t);
            match self.go() {
                Some(true) => return Some(true),
                None => return None,
                Some(false) => {}
            }
            self.path.pop();
            self.visited[t as usize] = false;
        }
        Some(false)
    }
}

/// Search for a completion of `path` (which must be a legal, non-empty partial path).
/// `prune` turns on the dead-position pruning (off only to test the check against a
/// plain search).
pub fn complete_with(board: Board, path: &[u32], budget: u64, prune: bool) -> Search {
    assert!(
        !path.is_empty(),
        "the completion search needs a start square"
    );
    let mut visited = vec![false; board.squares()];
    for &s in path {
        visited[s as usize] = true;
    }
    let mut dfs = Dfs {
        board,
        checker: Checker::new(board),
        visited,
        path: path.to_vec(),
        nodes: 0,
        budget,
        prune,
    };
    let completion = match dfs.go() {
        Some(true) => Completion::Found(dfs.path[path.len()..].to_vec()),
        Some(false) => Completion::Impossible,
        None => Completion::Budget,
    };
    Search {
        completion,
        nodes: dfs.nodes,
    }
}

/// [`complete_with`] with pruning on.
pub fn complete(board: Board, path: &[u32], budget: u64) -> Search {
    complete_with(board, path, budget, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::validate;

    #[test]
    fn hint_is_the_warnsdorff_move() {
        let b = Board::new(8, 8).unwrap();
        let mut visited = vec![false; 64];
        let a1 = b.parse_square("a1").unwrap();
        visited[a1 as usize] = true;
        // From a1: b3 has 5 onward moves, c2 has 5; the first clockwise (b3) wins.
        assert_eq!(
            warnsdorff_move(b, &visited, a1),
            Some(b.parse_square("b3").unwrap())
        );
        let d4 = b.parse_square("d4").unwrap();
        visited[d4 as usize] = true;
        let h = warnsdorff_move(b, &visited, d4).unwrap();
        let onward = |t: u32| b.knight_moves(t).filter(|&u| !visited[u as usize]).count();
        for t in b.knight_moves(d4).filter(|&t| !visited[t as usize]) {
            assert!(onward(h) <= onward(t));
        }
    }

    #[test]
    fn completes_from_a_start_and_from_a_partial_path() {
        for (m, n) in [(5, 5), (6, 6), (8, 8), (3, 4)] {
            let b = Board::new(m, n).unwrap();
            let s = complete(b, &[0], 1_000_000);
            let Completion::Found(rest) = s.completion else {
                panic!("{m}x{n}: {:?}", s.completion)
            };
            let mut full = vec![0];
            full.extend(rest);
            validate(b, &full, false).unwrap();
        }
        let b = Board::new(8, 8).unwrap();
        let p: Vec<u32> = ["a1", "b3", "c1", "d3", "e1"]
            .iter()
            .map(|x| b.parse_square(x).unwrap())
            .collect();
        let Completion::Found(rest) = complete(b, &p, 1_000_000).completion else {
            panic!()
        };
        let mut full = p.clone();
        full.extend(rest);
        validate(b, &full, false).unwrap();
    }

    #[test]
    fn proves_impossible_positions() {
        // 5x5 open tours start only on the 13 squares of the corners' colour.
        let b = Board::new(5, 5).unwrap();
        assert_eq!(
            complete(b, &[1], 10_000_000).completion,
            Completion::Impossible
        );
        assert_eq!(
            complete_with(b, &[1], 10_000_000, false).completion,
            Completion::Impossible
        );
        assert_eq!(complete(b, &[1], 3).completion, Completion::Budget);
    }
}

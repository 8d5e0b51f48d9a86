//! The hint and the completion behind "give up": both ask the solvers' search
//! ([`crate::solvers::search`]) to continue the played path, with the game's
//! configuration (`super::search_config`): Warnsdorff's order (fewest onward moves
//! first, ties farthest from the centre, then clockwise), pruned by forward checking, so
//! the search is exact: `Impossible` means no completion exists. A step budget bounds it.
//!
//! The hint is the first move of the completion the search finds; when the budget runs
//! out first it is the search's first choice (Warnsdorff's move).
//!
//! Beyond the plain knight ([`complete_on`], [`hint_on`]) the knight's search does not
//! apply (its order is the knight's moves', its pruning the knight's graph's), and the
//! game asks the solvers that run on any graph ([`crate::solvers::on_graph`]): first
//! Warnsdorff's walk continuing the path (fewest onward moves, ties to the lowest
//! vertex), and when it gets stuck the forward-checking search, exact as the knight's:
//! `Impossible` means no completion exists. Its hint when the budget runs out is the
//! walk's first move.

use crate::board::Board;
use crate::solvers::on_graph::{self, Found};
use crate::solvers::search::{Search, Stop};

use super::field::Field;

/// Step budget of the game's hint and "give up" search (a few tens of milliseconds).
pub const SEARCH_BUDGET: u64 = 2_000_000;

/// What the completion search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The moves that complete the tour (after the given path).
    Found(Vec<u32>),
    /// No completion exists.
    Impossible,
    /// The step budget ran out first.
    Budget,
}

/// Result of [`complete`]: what was found and the search steps (squares placed) it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// What the search found.
    pub completion: Completion,
    /// Search steps taken: squares placed, counting placements later undone.
    pub steps: u64,
}

/// Search for a completion of `path` (a legal, non-empty partial path) within `budget`
/// search steps.
pub fn complete(board: Board, path: &[u32], budget: u64) -> Attempt {
    let mut search = Search::owned(board, path, super::search_config(budget, false));
    let completion = match search.find() {
        Stop::Found => Completion::Found(search.path()[path.len()..].to_vec()),
        Stop::Exhausted => Completion::Impossible,
        Stop::Budget => Completion::Budget,
    };
    Attempt {
        completion,
        steps: search.steps,
    }
}

/// A suggested next move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hint {
    /// The first move of a completion the search found: a tour continues from there.
    Completes(u32),
    /// The search's first choice (Warnsdorff's move); the budget ran out before it
    /// found a completion or proved there is none.
    Warnsdorff(u32),
    /// No completion exists (proved by the search), or the knight has no move.
    None,
}

/// The hint for the knight at the end of `path` (legal, non-empty, not complete).
pub fn hint(board: Board, path: &[u32], budget: u64) -> Hint {
    let done = complete(board, path, budget);
    match done.completion {
        Completion::Found(rest) => rest.first().map_or(Hint::None, |&s| Hint::Completes(s)),
        Completion::Impossible => Hint::None,
        Completion::Budget => {
            let search = Search::owned(board, path, super::search_config(budget, false));
            search
                .first_moves()
                .first()
                .map_or(Hint::None, |&s| Hint::Warnsdorff(s))
        }
    }
}

/// [`complete`] on any field: the knight's search for the plain knight, otherwise
/// Warnsdorff's walk and then the forward-checking search of
/// [`crate::solvers::on_graph`] (see the module doc); the steps count the vertices both
/// placed.
pub fn complete_on(field: &Field, path: &[u32], budget: u64) -> Attempt {
    let Some(graph) = field.graph() else {
        return complete(field.board(), path, budget);
    };
    let played = field.vertices(path);
    let (walk, walked) = on_graph::walk_on(graph, &played);
    let mut steps = walked - played.len() as u64;
    if walk.len() == graph.squares() {
        return Attempt {
            completion: Completion::Found(field.squares_of(&walk[played.len()..])),
            steps,
        };
    }
    let (found, placed) = on_graph::search(
        graph,
        &played,
        false,
        budget.saturating_sub(steps),
        true,
        &mut |_| true,
    );
    steps += placed;
    let completion = match found {
        Found::Tour(t) => Completion::Found(field.squares_of(&t[played.len()..])),
        Found::Exhausted => Completion::Impossible,
        Found::Budget => Completion::Budget,
    };
    Attempt { completion, steps }
}

/// [`hint`] on any field: the first move of [`complete_on`]'s completion, or when its
/// budget runs out, the first move of Warnsdorff's walk.
pub fn hint_on(field: &Field, path: &[u32], budget: u64) -> Hint {
    let Some(graph) = field.graph() else {
        return hint(field.board(), path, budget);
    };
    match complete_on(field, path, budget).completion {
        Completion::Found(rest) => rest.first().map_or(Hint::None, |&s| Hint::Completes(s)),
        Completion::Impossible => Hint::None,
        Completion::Budget => {
            let (walk, _) = on_graph::walk_on(graph, &field.vertices(path));
            walk.get(path.len())
                .map_or(Hint::None, |&v| Hint::Warnsdorff(field.squares_of(&[v])[0]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::validate;

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
        let done = complete(b, &[1], 10_000_000);
        assert_eq!(done.completion, Completion::Impossible);
        assert!(done.steps > 3);
        assert_eq!(complete(b, &[1], 3).completion, Completion::Budget);
        assert_eq!(hint(b, &[1], 10_000_000), Hint::None);
        assert!(matches!(hint(b, &[1], 3), Hint::Warnsdorff(_)));
    }

    /// The hint is a move a completion takes; from a fresh corner it is Warnsdorff's
    /// move (the search's first descent succeeds on 8x8).
    #[test]
    fn the_hint_leads_to_a_tour() {
        let b = Board::new(8, 8).unwrap();
        let a1 = b.parse_square("a1").unwrap();
        let Hint::Completes(h) = hint(b, &[a1], 1_000_000) else {
            panic!()
        };
        let first =
            Search::owned(b, &[a1], crate::puzzle::search_config(1, false)).first_moves()[0];
        assert_eq!(h, first);
        assert!(matches!(
            complete(b, &[a1, h], 1_000_000).completion,
            Completion::Found(_)
        ));
    }
}

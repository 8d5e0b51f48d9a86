//! The dead-position warning: can the knight still visit every unvisited square?
//!
//! The check is the pruning of the solvers' search ([`crate::solvers::search`]) applied
//! to the whole position at once (`Search::obstruction`): cheap (O(squares)) and sound:
//! when it says a position is dead, no completion exists. It tests necessary conditions
//! of a Hamiltonian path that starts at the knight's square `k` and covers the unvisited
//! set `U`:
//!
//! 1. `k` has a move into `U` (otherwise the knight is stuck);
//! 2. every square of `U` has a way in and a way out: its neighbours in `U ∪ {k}` number
//!    at least 2, except for the one square the tour ends on, which needs 1. A square
//!    with none is *stranded*; two squares with one each are two dead ends, and only one
//!    of them can be the last square; a square whose only link is `k` itself must be
//!    both the next and the last square (forward checking keeps these counts move by
//!    move during a search);
//! 3. `U ∪ {k}` is connected in the knight's graph (the search's connectivity option).
//!
//! It can miss dead positions (the conditions are necessary, not sufficient); how often
//! on 8×8 is measured by [`super::measure`].
//!
//! Nothing here is the knight's: the three conditions hold for a Hamiltonian path of any
//! graph, so [`check_on`] applies them to any leaper, surface and shape (over the move
//! graph's neighbour lists, holes counted as visited), and says a board has no tour
//! from the theory of [`existence::ruled_out`] (a leaper's lattice, components,
//! degrees). The tests compare its dead verdicts with an exhaustive search on small
//! tori, cylinders and shapes.

use crate::board::Board;
use crate::existence;
use crate::solvers::search::{Neighbours, Obstruction, Search};

use super::field::Field;

/// What the check says about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No start square yet.
    NotStarted,
    /// Every square visited.
    Complete,
    /// The cheap check finds no obstruction (the position may still be dead).
    Alive,
    /// The board has no open knight's tour at all.
    NoTour {
        /// The theorem's reason in words ([`crate::existence`]).
        reason: String,
    },
    /// The position can no longer be completed, and why.
    Dead(Obstruction),
}

impl Verdict {
    /// Whether the game cannot be won from here: a dead position, or a board without open
    /// tours ([`Verdict::Alive`] is not a promise of the opposite).
    pub fn is_dead(&self) -> bool {
        matches!(self, Verdict::Dead(_) | Verdict::NoTour { .. })
    }

    /// The square to point at, if any.
    pub fn square(&self) -> Option<u32> {
        match self {
            Verdict::Dead(Obstruction::Stuck { at }) => Some(*at),
            Verdict::Dead(Obstruction::Stranded { square })
            | Verdict::Dead(Obstruction::EntryOnly { square })
            | Verdict::Dead(Obstruction::Disconnected { square, .. }) => Some(*square),
            Verdict::Dead(Obstruction::TwoDeadEnds { a, .. }) => Some(*a),
            Verdict::Dead(Obstruction::NoReturn { start }) => Some(*start),
            _ => None,
        }
    }

    /// One line for the user.
    pub fn message(&self, board: Board) -> String {
        let n = |s: &u32| board.square_name(*s);
        match self {
            Verdict::NotStarted => "pick a start square".into(),
            Verdict::Complete => "tour complete: every square visited".into(),
            Verdict::Alive => "still completable as far as the quick check can tell".into(),
            Verdict::NoTour { reason } => format!("no open tour exists: {reason}"),
            Verdict::Dead(d) => match d {
                Obstruction::Stuck { at } => {
                    format!("dead: the knight on {} has no move left", n(at))
                }
                Obstruction::Stranded { square } => format!(
                    "dead: {} is stranded (no way in from any unvisited square)",
                    n(square)
                ),
                Obstruction::EntryOnly { square } => format!(
                    "dead: {} is stranded (its only way in is the knight's square, no way out)",
                    n(square)
                ),
                Obstruction::TwoDeadEnds { a, b } => format!(
                    "dead: {} and {} are both dead ends; only one can be the last square",
                    n(a),
                    n(b)
                ),
                Obstruction::NoReturn { start } => {
                    format!("dead: no way is left back to the start {}", n(start))
                }
                Obstruction::Disconnected {
                    square,
                    unreachable,
                } => format!(
                    "dead: {} (and {} more) cannot be reached from the knight",
                    n(square),
                    unreachable - 1
                ),
            },
        }
    }
}

/// Check a path played on `board` (see the module doc).
pub fn check(board: Board, path: &[u32]) -> Verdict {
    if path.is_empty() {
        let ex = existence::tour_exists(board, false);
        return if ex.exists {
            Verdict::NotStarted
        } else {
            Verdict::NoTour { reason: ex.reason }
        };
    }
    if path.len() == board.squares() {
        return Verdict::Complete;
    }
    let cfg = super::search_config(u64::MAX, true);
    match Search::owned(board, path, cfg).obstruction() {
        Some(why) => Verdict::Dead(why),
        None => Verdict::Alive,
    }
}

/// Check a path played on `field` (see the module doc); the plain knight's is
/// [`check`].
pub fn check_on(field: &Field, path: &[u32]) -> Verdict {
    let (Some(graph), Some(moves)) = (field.graph(), field.moves()) else {
        return check(field.board(), path);
    };
    if path.is_empty() {
        return match existence::ruled_out(graph, false) {
            Some(reason) => Verdict::NoTour {
                // The message says "no open tour exists" already.
                reason: reason
                    .strip_prefix("no tour: ")
                    .map_or(reason.clone(), str::to_string),
            },
            None => Verdict::NotStarted,
        };
    }
    if path.len() == field.squares() {
        return Verdict::Complete;
    }
    let cfg = super::search_config(u64::MAX, true);
    match Search::from_path(field.board(), Neighbours::from_moves(moves), path, cfg).obstruction() {
        Some(why) => Verdict::Dead(why),
        None => Verdict::Alive,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(b: Board, names: &str) -> Vec<u32> {
        names
            .split_whitespace()
            .map(|n| b.parse_square(n).unwrap())
            .collect()
    }

    #[test]
    fn fresh_and_simple_positions_are_alive() {
        let b = Board::new(8, 8).unwrap();
        assert_eq!(check(b, &[]), Verdict::NotStarted);
        assert_eq!(check(b, &path(b, "a1")), Verdict::Alive);
        assert_eq!(check(b, &path(b, "a1 b3 c1")), Verdict::Alive);
        let small = Board::new(3, 3).unwrap();
        assert!(check(small, &[]).is_dead());
    }

    #[test]
    fn a_stranded_corner_is_named() {
        let b = Board::new(8, 8).unwrap();
        // a1's neighbours are b3 and c2. Visit both without ending next to a1.
        let p = path(b, "b3 d2 c4 e3 c2 e1");
        let v = check(b, &p);
        assert_eq!(
            v,
            Verdict::Dead(Obstruction::Stranded {
                square: b.parse_square("a1").unwrap()
            })
        );
        assert!(v.message(b).contains("a1 is stranded"), "{}", v.message(b));
        assert_eq!(v.square(), b.parse_square("a1").ok());
    }

    #[test]
    fn entry_only_square() {
        let b = Board::new(8, 8).unwrap();
        // Knight on c2 next to a1, whose other neighbour b3 is visited: a1 is entry-only.
        let v = check(b, &path(b, "b3 d2 c4 e3 c2"));
        assert_eq!(
            v,
            Verdict::Dead(Obstruction::EntryOnly {
                square: b.parse_square("a1").unwrap()
            })
        );
    }

    /// Every dead verdict on sampled positions of small boards is confirmed by a plain
    /// search without pruning, and every kind of verdict occurs.
    #[test]
    fn the_check_is_sound_against_plain_search() {
        use crate::puzzle::measure::sample_path;
        use crate::solvers::search::{Config, Order, Stop};
        let plain = Config {
            order: Order::Clockwise,
            ties_only: false,
            forward_check: false,
            connectivity: false,
            closed: false,
            max_steps: 300_000,
        };
        let mut kinds = std::collections::BTreeSet::new();
        for (m, n, seed) in [(5, 5, 1), (4, 5, 2), (5, 6, 3), (3, 7, 4)] {
            let b = Board::new(m, n).unwrap();
            let mut rng = crate::rng_from_seed(seed);
            for i in 0..300 {
                let p = sample_path(b, &mut rng, i % 2 == 1);
                let v = check(b, &p);
                if let Verdict::Dead(d) = &v {
                    kinds.insert(
                        format!("{d:?}")
                            .split([' ', '{'])
                            .next()
                            .unwrap()
                            .to_string(),
                    );
                    let stop = Search::owned(b, &p, plain).find();
                    assert!(
                        stop != Stop::Found,
                        "{m}x{n} {p:?}: {} but a completion exists",
                        v.message(b)
                    );
                }
            }
        }
        for k in [
            "Stuck",
            "Stranded",
            "EntryOnly",
            "TwoDeadEnds",
            "Disconnected",
        ] {
            assert!(kinds.contains(k), "{k} never seen: {kinds:?}");
        }
    }

    #[test]
    fn stuck_knight() {
        let b = Board::new(3, 3).unwrap();
        // On 3x3 the centre has no knight moves.
        let p = vec![b.index(1, 1)];
        assert_eq!(
            check(b, &p),
            Verdict::Dead(Obstruction::Stuck { at: b.index(1, 1) })
        );
    }
}

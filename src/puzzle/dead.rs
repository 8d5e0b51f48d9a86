//! The dead-position warning: can the knight still visit every unvisited square?
//!
//! The check is cheap (O(squares)) and sound: when it says a position is dead, no
//! completion exists. It tests necessary conditions of a Hamiltonian path that starts at
//! the knight's square `k` and covers the unvisited set `U`:
//!
//! 1. `k` has a move into `U` (otherwise the knight is stuck);
//! 2. every square of `U` has a way in and a way out: its neighbours in `U ∪ {k}` number
//!    at least 2, except for the one square the tour ends on, which needs 1. A square
//!    with none is *stranded*; two squares with one each are two dead ends, and only one
//!    of them can be the last square; a square whose only link is `k` itself must be
//!    both the next and the last square;
//! 3. `U ∪ {k}` is connected in the knight's graph.
//!
//! It can miss dead positions (the conditions are necessary, not sufficient); how often
//! on 8×8 is measured by [`super::measure`].

use crate::board::Board;
use crate::existence;

/// Why a position can no longer be completed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dead {
    /// The board has no open knight's tour at all.
    NoTour { reason: String },
    /// The knight has no unvisited square to move to.
    Stuck { at: u32 },
    /// An unvisited square has no unvisited neighbour and is not reachable from the
    /// knight: nothing can enter it.
    Stranded { square: u32 },
    /// An unvisited square can be entered only from the knight's square and has no way
    /// out, while other squares remain.
    EntryOnly { square: u32 },
    /// Two unvisited squares each have a single way in and no way out: both would have to
    /// be the last square.
    TwoDeadEnds { a: u32, b: u32 },
    /// Some unvisited squares cannot be reached from the knight at all.
    Disconnected { square: u32, unreachable: usize },
}

/// What the check says about a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// No start square yet.
    NotStarted,
    /// Every square visited.
    Complete,
    /// The cheap check finds no obstruction (the position may still be dead).
    Alive,
    /// The position can no longer be completed.
    Dead(Dead),
}

impl Verdict {
    pub fn is_dead(&self) -> bool {
        matches!(self, Verdict::Dead(_))
    }

    /// The square to point at, if any.
    pub fn square(&self) -> Option<u32> {
        match self {
            Verdict::Dead(Dead::Stuck { at }) => Some(*at),
            Verdict::Dead(Dead::Stranded { square })
            | Verdict::Dead(Dead::EntryOnly { square })
            | Verdict::Dead(Dead::Disconnected { square, .. }) => Some(*square),
            Verdict::Dead(Dead::TwoDeadEnds { a, .. }) => Some(*a),
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
            Verdict::Dead(d) => match d {
                Dead::NoTour { reason } => format!("no open tour exists: {reason}"),
                Dead::Stuck { at } => format!("dead: the knight on {} has no move left", n(at)),
                Dead::Stranded { square } => format!(
                    "dead: {} is stranded (no way in from any unvisited square)",
                    n(square)
                ),
                Dead::EntryOnly { square } => format!(
                    "dead: {} is stranded (its only way in is the knight's square, no way out)",
                    n(square)
                ),
                Dead::TwoDeadEnds { a, b } => format!(
                    "dead: {} and {} are both dead ends; only one can be the last square",
                    n(a),
                    n(b)
                ),
                Dead::Disconnected {
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

/// Reusable buffers for [`Checker::check`], so a search can call it at every node.
#[derive(Debug, Clone)]
pub struct Checker {
    board: Board,
    neighbours: Vec<Vec<u32>>,
    seen: Vec<bool>,
    queue: Vec<u32>,
}

impl Checker {
    pub fn new(board: Board) -> Checker {
        let neighbours = (0..board.squares() as u32)
            .map(|s| board.knight_moves(s).collect())
            .collect();
        Checker {
            board,
            neighbours,
            seen: vec![false; board.squares()],
            queue: Vec::new(),
        }
    }

    /// The knight moves from `square`.
    pub fn moves(&self, square: u32) -> &[u32] {
        &self.neighbours[square as usize]
    }

    /// Check the position with the knight on `at` and `visited` flags (which include `at`);
    /// `remaining` is the number of unvisited squares.
    pub fn check(&mut self, visited: &[bool], at: u32, remaining: usize) -> Verdict {
        if remaining == 0 {
            return Verdict::Complete;
        }
        let free = |s: u32| !visited[s as usize];
        if !self.moves(at).iter().any(|&t| free(t)) {
            return Verdict::Dead(Dead::Stuck { at });
        }
        let mut dead_end: Option<u32> = None;
        for s in 0..self.board.squares() as u32 {
            if !free(s) {
                continue;
            }
            let ns = &self.neighbours[s as usize];
            let inner = ns.iter().filter(|&&t| free(t)).count();
            let from_knight = ns.contains(&at) as usize;
            match inner + from_knight {
                0 => return Verdict::Dead(Dead::Stranded { square: s }),
                1 => {
                    if inner == 0 && remaining > 1 {
                        return Verdict::Dead(Dead::EntryOnly { square: s });
                    }
                    if let Some(a) = dead_end {
                        return Verdict::Dead(Dead::TwoDeadEnds { a, b: s });
                    }
                    dead_end = Some(s);
                }
                _ => {}
            }
        }
        // Connectivity of the unvisited squares plus the knight's square.
        self.seen.fill(false);
        self.queue.clear();
        self.queue.push(at);
        self.seen[at as usize] = true;
        let mut reached = 0usize;
        while let Some(s) = self.queue.pop() {
            for &t in &self.neighbours[s as usize] {
                if free(t) && !self.seen[t as usize] {
                    self.seen[t as usize] = true;
                    reached += 1;
                    self.queue.push(t);
                }
            }
        }
        if reached < remaining {
            let square = (0..self.board.squares() as u32)
                .find(|&s| free(s) && !self.seen[s as usize])
                .expect("an unreached unvisited square");
            return Verdict::Dead(Dead::Disconnected {
                square,
                unreachable: remaining - reached,
            });
        }
        Verdict::Alive
    }
}

/// Check a path played on `board` (see the module doc).
pub fn check(board: Board, path: &[u32]) -> Verdict {
    let Some(&at) = path.last() else {
        let ex = existence::tour_exists(board, false);
        return if ex.exists {
            Verdict::NotStarted
        } else {
            Verdict::Dead(Dead::NoTour { reason: ex.reason })
        };
    };
    let mut visited = vec![false; board.squares()];
    for &s in path {
        visited[s as usize] = true;
    }
    Checker::new(board).check(&visited, at, board.squares() - path.len())
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
            Verdict::Dead(Dead::Stranded {
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
            Verdict::Dead(Dead::EntryOnly {
                square: b.parse_square("a1").unwrap()
            })
        );
    }

    /// Every dead verdict on sampled positions of small boards is confirmed by a plain
    /// exhaustive search without pruning, and every kind of verdict occurs.
    #[test]
    fn the_check_is_sound_against_plain_search() {
        use crate::puzzle::complete::{complete_with, Completion};
        use crate::puzzle::measure::sample_path;
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
                    let s = complete_with(b, &p, 300_000, false);
                    assert!(
                        !matches!(s.completion, Completion::Found(_)),
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
            Verdict::Dead(Dead::Stuck { at: b.index(1, 1) })
        );
    }
}

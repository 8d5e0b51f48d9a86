//! Whether a knight's tour exists, answered from theorems and from finite exhaustive
//! searches rather than by searching at run time.
//!
//! - Closed tours: Schwenk, "Which rectangular chessboards have a knight's tour?",
//!   Math. Magazine 64(5) (1991) 325-332. With `m <= n`, an `m x n` board has a closed
//!   tour unless (a) `m` and `n` are both odd, (b) `m` is 1, 2 or 4, or (c) `m = 3` and
//!   `n` is 4, 6 or 8.
//! - Open tours: with `m <= n`, a board has one iff it is `1x1`, or `m = 3` and `n = 4`
//!   or `n >= 7`, or `m = 4` and `n >= 5`, or `m >= 5` (Cull and De Curtins, "Knight's
//!   tour revisited", Fibonacci Quarterly 16 (1978) 276-285, for `m >= 5`; Conrad,
//!   Hindrichs, Morsy and Wegener, "Solution of the knight's Hamiltonian path problem on
//!   chessboards", Discrete Applied Math. 50 (1994) 125-134; the thin boards are small
//!   enough to settle by hand or by search). Tests check both against exhaustive search.
//!
//! Open tours from a given start square ([`open_tour_from`]); `m <= n` as above:
//!
//! 1. *Colour* (proof): when `m n` is odd, every tour starts and ends on the corners'
//!    colour, so no tour starts on the other colour.
//! 2. *4 x n, n >= 5* (proof, in [`open_tour_from`]): every tour starts and ends on one
//!    of the two outer lines (also confirmed by exhaustive search for n <= 16).
//! 3. *3 x 4, 3 x 7, 3 x 8* (exhaustive search of these three finite boards): on 3x4 a
//!    tour starts only in the two end columns; on 3x7 not on the centre square (nor on
//!    the minority colour); on 3x8 not on the two middle-line squares in the third
//!    column from either end.
//! 4. Every other square of a board with an open tour starts one. Where the board has
//!    a closed tour (Schwenk 1991) this follows by cutting the cycle at the start; on
//!    `n x n`, `n >= 6`, it is Conrad et al. (1994) (a path joins any two squares that
//!    satisfy the colour criterion). The remaining cases rest on exhaustive search
//!    only, on the boards the tests cover (`tests/library/existence.rs`): the majority colour of
//!    3 x n for odd n in 9..=15, the outer lines of 4 x n for n in 5..=16, and 5 x 5,
//!    5 x 7 and 5 x 9; beyond those sizes rule 4 is a conjecture on 3 x n (odd n),
//!    4 x n and odd non-square boards, which the reason text says.
//!
//! Beyond the knight on a whole plane board ([`tour_on_graph`]: other leapers,
//! cylinders and tori, shapes with holes, graphs read from files), in this order:
//!
//! 1. *Leaper lattices* ([`crate::geometry::disconnected`]): when `r + s` is even or
//!    `gcd(r, s) > 1` the leaper's moves never leave a class of squares (Knuth, "Leaper
//!    graphs", Mathematical Gazette 78 (1994) 274-297), so the graph is disconnected;
//!    on a full plane board it is also disconnected when the sides are too short
//!    (`m < r + s` or `n < 2s`, `m <= n`, same paper). No tour.
//! 2. *Components*: breadth-first search ([`KnightGraph::split`]); a tour visits every
//!    vertex along edges, so a disconnected graph has none.
//! 3. *Degrees*: a closed tour enters and leaves every vertex, so a vertex of degree
//!    below two rules it out; an open tour has two ends, so more than two vertices of
//!    degree one rule it out.
//! 4. *Colours*: when breadth-first search two-colours the graph (it is bipartite:
//!    always so for a leaper with `r + s` odd on the plane, and on a cylinder or torus
//!    when every wrapped side is even), a closed tour alternates sides, so the sides
//!    must be equal; an open tour alternates too, so they may differ by one at most.
//! 5. *The knight on a torus*: every rectangular torus of three squares or more has a
//!    closed knight's tour (Watkins, "Knight's tours on a torus", Mathematics Magazine
//!    70 (1997) 175-184; the move graph here is simple, several moves between the same
//!    two squares counted as one edge), hence also an open one. Checked against
//!    exhaustive search on every torus of up to 30 squares (`tests/library/exists.rs`).
//! 6. Otherwise *exhaustive search* with a budget: the forward-checking search of
//!    [`crate::solvers::on_graph`] (from vertex 0 for a closed tour; for an open tour
//!    from every vertex in turn, or only from a vertex of degree one when there is
//!    one, since it must be an end). A tour found is checked by the oracle; the whole
//!    tree searched without one is a proof there is none; a budget spent says
//!    *unknown*, never a guess.

use crate::board::Board;
use crate::graph::{KnightGraph, Source};
use crate::solvers::Outcome;
use crate::solvers::on_graph::{self, GraphRequest, GraphSolver};

/// The answer and, when there is no tour, the theorem's reason in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Existence {
    /// Whether a tour of the asked kind exists.
    pub exists: bool,
    /// The answer in words: why there is no tour (citing the theorem) when `exists` is
    /// false; a sentence saying there are tours, with the result it rests on where
    /// there is one, when it is true.
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
        return no("the 1x1 board has no knight move, so no closed tour".into());
    }
    if m % 2 == 1 && n % 2 == 1 {
        return no(format!(
            "the {board} board has no closed knight's tour: both sides are odd, and a closed tour alternates colours so needs an even number of squares (Schwenk 1991)"
        ));
    }
    if m == 1 || m == 2 || m == 4 {
        return no(format!(
            "the {board} board has no closed knight's tour: boards with a side of 1, 2 or 4 have none (Schwenk 1991)"
        ));
    }
    if m == 3 && (n == 4 || n == 6 || n == 8) {
        return no(format!(
            "the {board} board has no closed knight's tour: 3x4, 3x6 and 3x8 have none (Schwenk 1991)"
        ));
    }
    Existence {
        exists: true,
        reason: format!("the {board} board has closed knight's tours (Schwenk 1991)"),
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
        format!("the {board} board has open knight's tours")
    } else {
        format!(
            "the {board} board has no knight's tour at all: boards with a side of 1 or 2 (other than 1x1), 3x3, 3x5, 3x6 and 4x4 have none"
        )
    };
    Existence { exists, reason }
}

/// The two sides, short first, and `start` as (short-side coordinate, long-side
/// coordinate).
fn oriented(board: Board, start: u32) -> (usize, usize, usize, usize) {
    let (r, c) = board.coords(start);
    if board.rows() <= board.cols() {
        (board.rows(), board.cols(), r, c)
    } else {
        (board.cols(), board.rows(), c, r)
    }
}

/// Whether an open tour starts on `start` (equivalently, by reversal, ends there), by
/// the rules in the module docs. The reason names the board, the square and the rule.
pub fn open_tour_from(board: Board, start: u32) -> Existence {
    let whole = open_tour(board);
    if !whole.exists {
        return whole;
    }
    let name = board.square_name(start);
    let no = |why: &str| Existence {
        exists: false,
        reason: format!("no open knight's tour of the {board} board starts on {name}: {why}"),
    };
    let (m, n, i, j) = oriented(board, start);
    let (r, c) = board.coords(start);
    if board.squares() % 2 == 1 && board.squares() > 1 && (r + c) % 2 == 1 {
        return no(
            "the board has an odd number of squares, so every tour starts and ends on the corners' colour, and this square has the other colour",
        );
    }
    if m == 4 && (i == 1 || i == 2) {
        // The outer lines' squares only neighbour inner-line squares and are half of
        // the board, so along a tour they are never consecutive; strict alternation
        // outer/inner is ruled out by colour (the outer squares at even positions would
        // all share a colour, but the outer lines hold both colours equally), so the
        // tour has exactly one inner-inner step and both of its ends lie on outer lines.
        return no(
            "on a 4 x n board every tour starts and ends on one of the two outer lines (an outer/inner alternation and colour argument)",
        );
    }
    if m == 3 && n == 4 && (j == 1 || j == 2) {
        return no(
            "on 3x4 every open tour starts and ends in one of the two end lines of length 3 (exhaustive search of the board)",
        );
    }
    if m == 3 && n == 7 && i == 1 && j == 3 {
        return no(
            "no open tour of 3x7 starts on the centre square (exhaustive search of the board)",
        );
    }
    if m == 3 && n == 8 && i == 1 && (j == 2 || j == 5) {
        return no(
            "no open tour of 3x8 starts on the middle-line squares third from either end (exhaustive search of the board)",
        );
    }
    let basis = if closed_tour(board).exists {
        "a closed tour exists (Schwenk 1991); cut it at this square".to_string()
    } else if m == n && n >= 6 {
        "Conrad et al. 1994: on n x n, n >= 6, a path joins any two squares that meet the colour criterion".to_string()
    } else if (m == 3 && n <= 15) || (m == 4 && n <= 16) || (m == 5 && n <= 9) {
        "established by exhaustive search of every start square of this board".to_string()
    } else {
        format!(
            "established by exhaustive search on {m} x n boards of the same kind up to the sizes in the project's tests, extrapolated to {board} (not proven)"
        )
    };
    Existence {
        exists: true,
        reason: format!("open knight's tours of the {board} board start on {name} ({basis})"),
    }
}

/// Existence of the requested kind of tour from a given start square. A closed tour
/// passes through every square, so for closed tours the start does not matter.
pub fn tour_exists_from(board: Board, start: u32, closed: bool) -> Existence {
    if closed {
        closed_tour(board)
    } else {
        open_tour_from(board, start)
    }
}

/// Existence of the requested kind of tour.
pub fn tour_exists(board: Board, closed: bool) -> Existence {
    if closed {
        closed_tour(board)
    } else {
        open_tour(board)
    }
}

/// What [`tour_on_graph`] rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Basis {
    /// A theorem or an argument that settles the case (see the module documentation).
    Theorem,
    /// Exhaustive search: a tour it found, or its whole tree searched.
    Search,
    /// Exhaustive search whose budget ran out: no answer.
    Budget,
}

/// The answer of [`tour_on_graph`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GraphExistence {
    /// Whether a tour of the asked kind exists; `None`: unknown (the search's budget ran
    /// out).
    pub exists: Option<bool>,
    /// What the answer rests on.
    pub basis: Basis,
    /// The answer in words, naming the graph and the theorem, or the search and its
    /// steps.
    pub reason: String,
    /// Vertices placed by the search, when one ran.
    pub steps: Option<u64>,
}

impl GraphExistence {
    fn theorem(exists: bool, reason: String) -> GraphExistence {
        GraphExistence {
            exists: Some(exists),
            basis: Basis::Theorem,
            reason,
            steps: None,
        }
    }
}

/// The two sides of the graph when breadth-first search two-colours it (it is
/// bipartite and connected), as counts; `None` when it is not bipartite.
fn bipartite_sides(graph: &KnightGraph) -> Option<(usize, usize)> {
    let n = graph.squares();
    let mut side = vec![u8::MAX; n];
    let mut counts = [0usize; 2];
    let mut queue = std::collections::VecDeque::new();
    for root in 0..n {
        if side[root] != u8::MAX {
            continue;
        }
        side[root] = 0;
        counts[0] += 1;
        queue.push_back(root as u32);
        while let Some(v) = queue.pop_front() {
            for &e in graph.incident(v) {
                let w = graph.other(e as usize, v) as usize;
                if side[w] == u8::MAX {
                    side[w] = 1 - side[v as usize];
                    counts[side[w] as usize] += 1;
                    queue.push_back(w as u32);
                } else if side[w] == side[v as usize] {
                    return None;
                }
            }
        }
    }
    Some((counts[0], counts[1]))
}

/// Whether a closed (or open) tour of a geometry's or a file's graph exists, from the
/// theorems in the module documentation where one applies and otherwise from
/// exhaustive search placing at most `max_steps` vertices. On the knight's own
/// graph of a whole plane board, [`tour_exists`] answers.
pub fn tour_on_graph(graph: &KnightGraph, closed: bool, max_steps: u64) -> GraphExistence {
    if let Source::Knight(board) = graph.source() {
        let ex = tour_exists(*board, closed);
        return GraphExistence::theorem(ex.exists, ex.reason);
    }
    if let Some(why) = ruled_out(graph, closed) {
        return GraphExistence::theorem(false, why);
    }
    if let Source::Geometry(moves) = graph.source() {
        let g = moves.geometry();
        if g.leaper() == crate::geometry::Leaper::KNIGHT
            && g.surface() == crate::geometry::Surface::Torus
            && g.shape().is_full()
        {
            return GraphExistence::theorem(
                true,
                format!(
                    "{} has closed knight's tours (Watkins 1997, 'Knight's tours on a torus': every rectangular torus has one)",
                    graph.describe()
                ),
            );
        }
    }
    search_for_tour(graph, closed, max_steps, &ends(graph))
}

/// The vertices with one neighbour: an open tour's ends, if it has any.
fn ends(graph: &KnightGraph) -> Vec<u32> {
    (0..graph.squares() as u32)
        .filter(|&v| graph.degree(v) == 1)
        .collect()
}

/// Steps 1 to 4 of the module documentation on a geometry or a file graph: why theory
/// rules a closed (or open) tour out, in one sentence, or `None` when no argument
/// applies (which does not mean there is a tour). On a geometry, a closed tour is
/// first tested by [`crate::geometry::no_closed_tour`] (its words name the leaper and
/// the board). `None` on the knight's own board, which [`tour_exists`] answers. The
/// solvers on any graph refuse with this reason ([`on_graph::check`]).
pub fn ruled_out(graph: &KnightGraph, closed: bool) -> Option<String> {
    let what = graph.describe();
    let kind = if closed { "closed tour" } else { "tour" };
    let no = |why: String| Some(format!("no {kind} of {what}: {why}"));
    let n = graph.squares();
    match graph.source() {
        Source::Knight(_) => return None,
        Source::Geometry(moves) => {
            let g = moves.geometry();
            if closed && let Some(r) = crate::geometry::no_closed_tour(moves) {
                return Some(r.describe(g));
            }
            if let Some(d) = crate::geometry::disconnected(moves) {
                return Some(format!("no {kind}: {}", d.describe(g)));
            }
        }
        Source::File(_) => {}
    }
    if n == 0 {
        return no("it has no vertex".into());
    }
    if closed && n < 3 {
        return no(format!(
            "it has {n} vertices, and a closed tour visits at least three"
        ));
    }
    if let Some(split) = graph.split() {
        return no(graph
            .describe_split(&split)
            .replacen(&format!("{what} "), "it ", 1));
    }
    let degree = |v: u32| graph.degree(v);
    if closed && let Some(v) = (0..n as u32).find(|&v| degree(v) < 2) {
        return no(format!(
            "{} has {} neighbour(s), and a closed tour enters and leaves every vertex",
            graph.vertex_name(v),
            degree(v)
        ));
    }
    let ends = ends(graph);
    if !closed && ends.len() > 2 {
        return no(format!(
            "{} vertices have one neighbour each ({}, {}, {}, ...), and an open tour has two ends",
            ends.len(),
            graph.vertex_name(ends[0]),
            graph.vertex_name(ends[1]),
            graph.vertex_name(ends[2])
        ));
    }
    if let Some((a, b)) = bipartite_sides(graph) {
        let gap = a.abs_diff(b);
        if (closed && gap > 0) || gap > 1 {
            return no(format!(
                "its vertices split into two sides that every edge joins ({a} and {b}), and a {kind} alternates sides, so {}",
                if closed {
                    "the sides must be equal"
                } else {
                    "their sizes may differ by one at most"
                }
            ));
        }
    }
    None
}

/// Step 6 of the module documentation: exhaustive search from vertex 0 (closed), or
/// from the vertices of degree one (`ends`) or else every vertex (open).
fn search_for_tour(
    graph: &KnightGraph,
    closed: bool,
    max_steps: u64,
    ends: &[u32],
) -> GraphExistence {
    let what = graph.describe();
    let kind = if closed { "closed tour" } else { "tour" };
    let starts: Vec<u32> = if closed {
        vec![0]
    } else if let Some(&e) = ends.first() {
        vec![e]
    } else {
        (0..graph.squares() as u32).collect()
    };
    let mut steps = 0u64;
    let mut rng = crate::rng_from_seed(0);
    for start in starts {
        let solver = GraphSolver::ForwardCheck {
            max_steps: max_steps.saturating_sub(steps),
        };
        let req = GraphRequest {
            closed,
            start: Some(start),
        };
        let sol = match on_graph::solve(graph, &solver, &req, &mut rng) {
            Ok(sol) => sol,
            // The search's own checks refuse only with a theorem's reason.
            Err(e @ crate::error::InputError::Impossible(_)) => {
                return GraphExistence::theorem(false, format!("no {kind}: {e}"));
            }
            Err(e) => {
                return GraphExistence {
                    exists: None,
                    basis: Basis::Budget,
                    reason: format!(
                        "whether {what} has a {kind} is unknown: the search refused ({e})"
                    ),
                    steps: Some(steps),
                };
            }
        };
        steps += sol.steps.unwrap_or(0);
        match sol.outcome {
            Outcome::Tour => {
                return GraphExistence {
                    exists: Some(true),
                    basis: Basis::Search,
                    reason: format!(
                        "{what} has a {kind}: exhaustive search found one from {} after placing {steps} vertices",
                        graph.vertex_name(start)
                    ),
                    steps: Some(steps),
                };
            }
            Outcome::Exhausted => {}
            _ => {
                return GraphExistence {
                    exists: None,
                    basis: Basis::Budget,
                    reason: format!(
                        "unknown whether {what} has a {kind}: no theorem settles it, and exhaustive search placed its budget of {max_steps} vertices without finishing"
                    ),
                    steps: Some(steps),
                };
            }
        }
    }
    let from = if closed || !ends.is_empty() {
        format!(
            "from {}",
            graph.vertex_name(if closed { 0 } else { ends[0] })
        )
    } else {
        "from every vertex".to_string()
    };
    GraphExistence {
        exists: Some(false),
        basis: Basis::Search,
        reason: format!(
            "no {kind} of {what}: exhaustive search {from} found none ({steps} vertices placed)"
        ),
        steps: Some(steps),
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
    fn start_reasons_name_the_square_and_the_rule() {
        let b = Board::new(3, 4).unwrap();
        let e = open_tour_from(b, b.index(1, 1));
        assert!(!e.exists);
        assert!(
            e.reason.contains(&b.square_name(b.index(1, 1))),
            "{}",
            e.reason
        );
        assert!(e.reason.contains("exhaustive search"), "{}", e.reason);
        // Transposed: 4x3 refuses the same squares turned by a quarter.
        let t = Board::new(4, 3).unwrap();
        assert!(!open_tour_from(t, t.index(1, 1)).exists);
        assert!(open_tour_from(t, t.index(0, 1)).exists);
        let e = open_tour_from(Board::new(4, 9).unwrap(), 9);
        assert!(e.reason.contains("outer lines"), "{}", e.reason);
        let e = open_tour_from(Board::new(3, 101).unwrap(), 0);
        assert!(e.exists && e.reason.contains("not proven"), "{}", e.reason);
        assert!(
            open_tour_from(Board::new(8, 8).unwrap(), 9)
                .reason
                .contains("Schwenk")
        );
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

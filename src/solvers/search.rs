//! The depth-first search engine shared by `backtrack`, `forward-check`,
//! `warnsdorff-backtrack`, the base tours of `divide-conquer` and `count`.
//!
//! The search is iterative (an explicit stack of frames, so no recursion limit), keeps
//! per unvisited square the number of its unvisited neighbours (`free`), and counts a
//! *step* each time it places a square (including squares later taken back). Options:
//!
//! - move order: fixed clockwise ([`crate::board::KNIGHT_OFFSETS`]) or Warnsdorff's
//!   (fewest onward moves first; ties farthest from the centre, then clockwise);
//! - `ties_only`: at each square try only the moves tied for Warnsdorff's minimum, so a
//!   dead end jumps straight back to the last square where the rule had a real choice;
//! - forward checking: after each move, each unvisited square must keep a way in and a
//!   way out (its "links": unvisited neighbours, plus the head, plus for closed tours
//!   the start square it may return to). An open tour tolerates exactly one square with
//!   one link (it must be the end); a closed tour tolerates none. Only the neighbours
//!   of the square just left lose a link (the knight graph is bipartite, so the
//!   neighbours of the new head keep theirs), which makes the check O(1) per move;
//! - connectivity: additionally reject when the unvisited squares are not all reachable
//!   from the head (a breadth-first search per move, O(mn)). Each square a check
//!   reaches counts as one unit of work against the step budget ([`Search::work`]), so
//!   `max_steps` bounds the time with connectivity too (before, it counted only squares
//!   placed, and one budget of 10^8 placements on 200x200 meant 10^8 searches of up to
//!   40,000 squares each).
//!
//! All pruning is sound: it never discards a branch that contains a tour, so counts
//! made with it are exact.

use crate::board::Board;

const NONE: u32 = u32::MAX;

/// Neighbour lists of every square, clockwise, without building a [`crate::graph::KnightGraph`].
#[derive(Debug, Clone)]
pub struct Neighbours {
    list: Vec<[u32; 8]>,
    len: Vec<u8>,
}

impl Neighbours {
    pub fn new(board: Board) -> Neighbours {
        let n = board.squares();
        let mut list = vec![[NONE; 8]; n];
        let mut len = vec![0u8; n];
        for s in 0..n as u32 {
            for (i, t) in board.knight_moves(s).enumerate() {
                list[s as usize][i] = t;
                len[s as usize] = i as u8 + 1;
            }
        }
        Neighbours { list, len }
    }

    #[inline]
    pub fn of(&self, s: u32) -> &[u32] {
        &self.list[s as usize][..self.len[s as usize] as usize]
    }
}

/// Move ordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    Clockwise,
    Warnsdorff,
}

/// What the search looks for and how.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    pub order: Order,
    pub ties_only: bool,
    pub forward_check: bool,
    pub connectivity: bool,
    pub closed: bool,
    /// Stop after this much work: squares placed, plus (with `connectivity`) squares
    /// reached by the connectivity checks.
    pub max_steps: u64,
}

/// Why a search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// A tour was found (or, when counting, the search space was exhausted).
    Found,
    /// Every branch was tried: there is no tour of this kind from this start
    /// (with `ties_only`: none that the tie-point search can reach).
    Exhausted,
    /// The step budget ran out.
    Budget,
}

struct Frame {
    cands: [u32; 8],
    n: u8,
    next: u8,
    /// Change of the forced-endpoint count caused by placing this frame's square.
    delta: i8,
}

/// The search state. Create with [`Search::new`], then [`Search::find`] or
/// [`Search::count`].
pub struct Search<'a> {
    board: Board,
    nb: &'a Neighbours,
    cfg: Config,
    start: u32,
    visited: Vec<bool>,
    free: Vec<u8>,
    near_start: Vec<bool>,
    path: Vec<u32>,
    frames: Vec<Frame>,
    remaining: usize,
    forced: i32,
    pub steps: u64,
    pub backtracks: u64,
    /// Squares reached by connectivity checks (0 without connectivity).
    pub scanned: u64,
    stamp: Vec<u32>,
    gen: u32,
    queue: Vec<u32>,
    dead_at_start: bool,
}

impl<'a> Search<'a> {
    pub fn new(board: Board, nb: &'a Neighbours, start: u32, cfg: Config) -> Search<'a> {
        let n = board.squares();
        let mut free: Vec<u8> = (0..n as u32).map(|s| nb.of(s).len() as u8).collect();
        let mut visited = vec![false; n];
        let mut near_start = vec![false; n];
        visited[start as usize] = true;
        for &u in nb.of(start) {
            free[u as usize] -= 1;
            near_start[u as usize] = true;
        }
        let mut s = Search {
            board,
            nb,
            cfg,
            start,
            visited,
            free,
            near_start,
            path: vec![start],
            frames: Vec::with_capacity(n),
            remaining: n - 1,
            forced: 0,
            steps: 0,
            backtracks: 0,
            scanned: 0,
            stamp: if cfg.connectivity {
                vec![0; n]
            } else {
                Vec::new()
            },
            gen: 0,
            queue: Vec::new(),
            dead_at_start: false,
        };
        if cfg.forward_check && n > 1 {
            // Links of u before the first move: its free neighbours plus the start.
            for u in 0..n as u32 {
                if u == start {
                    continue;
                }
                let links = s.free[u as usize] + s.near_start[u as usize] as u8;
                let need = if cfg.closed { 2 } else { 1 };
                if links < need {
                    s.dead_at_start = true;
                } else if !cfg.closed && links == 1 {
                    s.forced += 1;
                }
            }
            if s.forced > 1 {
                s.dead_at_start = true;
            }
        }
        if cfg.closed && n > 1 && s.free[start as usize] == 0 {
            s.dead_at_start = true;
        }
        s
    }

    /// The current path (the tour after a successful [`Search::find`]).
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    fn candidates(&self, v: u32) -> Frame {
        let mut f = Frame {
            cands: [NONE; 8],
            n: 0,
            next: 0,
            delta: 0,
        };
        // Warnsdorff order skips moves into a dead end unless it is the last square.
        let skip_dead = self.cfg.order == Order::Warnsdorff && self.remaining > 1;
        for &t in self.nb.of(v) {
            let dead_end = skip_dead && self.free[t as usize] == 0;
            if !self.visited[t as usize] && !dead_end {
                f.cands[f.n as usize] = t;
                f.n += 1;
            }
        }
        if self.cfg.order == Order::Warnsdorff && f.n > 1 {
            let (rows, cols) = (self.board.rows() as i64, self.board.cols() as i64);
            let key = |t: u32| {
                let (r, c) = self.board.coords(t);
                let (a, b) = (2 * r as i64 - (rows - 1), 2 * c as i64 - (cols - 1));
                (self.free[t as usize], std::cmp::Reverse(a * a + b * b))
            };
            // Stable sort keeps clockwise order among complete ties.
            f.cands[..f.n as usize].sort_by_key(|&t| key(t));
            if self.cfg.ties_only {
                let min = self.free[f.cands[0] as usize];
                let keep = f.cands[..f.n as usize]
                    .iter()
                    .take_while(|&&t| self.free[t as usize] == min)
                    .count();
                f.n = keep as u8;
            }
        }
        f
    }

    /// Place `v` after the head. Returns `(dead, delta)`: whether forward checking (or
    /// connectivity) already proves this branch hopeless, and the forced-count change.
    fn push(&mut self, v: u32) -> (bool, i8) {
        let h = *self.path.last().unwrap();
        self.visited[v as usize] = true;
        self.path.push(v);
        self.remaining -= 1;
        for &u in self.nb.of(v) {
            self.free[u as usize] -= 1;
        }
        let mut dead = false;
        let mut delta = 0i8;
        if self.cfg.forward_check {
            let closed = self.cfg.closed;
            if !closed && self.free[v as usize] == 0 {
                // v had one link (from h): it was the forced end and is now used.
                delta -= 1;
                if self.remaining > 0 {
                    dead = true;
                }
            }
            if !(closed && h == self.start) {
                for &u in self.nb.of(h) {
                    if self.visited[u as usize] {
                        continue;
                    }
                    let links =
                        self.free[u as usize] + (closed && self.near_start[u as usize]) as u8;
                    if closed {
                        if links < 2 {
                            dead = true;
                        }
                    } else if links == 0 {
                        dead = true;
                    } else if links == 1 {
                        delta += 1;
                    }
                }
            }
            self.forced += delta as i32;
            if !closed && self.forced > 1 {
                dead = true;
            }
        }
        if self.cfg.closed && self.remaining > 0 && self.free[self.start as usize] == 0 {
            dead = true;
        }
        if !dead && self.cfg.connectivity && self.remaining > 0 && !self.connected(v) {
            dead = true;
        }
        (dead, delta)
    }

    fn pop(&mut self, delta: i8) {
        let v = self.path.pop().unwrap();
        for &u in self.nb.of(v) {
            self.free[u as usize] += 1;
        }
        self.visited[v as usize] = false;
        self.remaining += 1;
        self.forced -= delta as i32;
    }

    /// Whether every unvisited square is reachable from `head` through unvisited squares.
    fn connected(&mut self, head: u32) -> bool {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.gen = 1;
        }
        let g = self.gen;
        self.queue.clear();
        self.queue.push(head);
        self.stamp[head as usize] = g;
        let mut reached = 0usize;
        let mut i = 0;
        while i < self.queue.len() {
            let s = self.queue[i];
            i += 1;
            for &u in self.nb.of(s) {
                if !self.visited[u as usize] && self.stamp[u as usize] != g {
                    self.stamp[u as usize] = g;
                    reached += 1;
                    self.queue.push(u);
                }
            }
        }
        self.scanned += reached as u64 + 1;
        reached == self.remaining
    }

    /// Work done so far, the quantity `max_steps` bounds: squares placed plus squares
    /// reached by connectivity checks.
    pub fn work(&self) -> u64 {
        self.steps.saturating_add(self.scanned)
    }

    fn complete_ok(&self) -> bool {
        !self.cfg.closed
            || (self.path.len() > 2
                && self
                    .board
                    .is_knight_move(*self.path.last().unwrap(), self.start))
    }

    /// Run the search. `on_tour` is called for each tour found and returns whether to
    /// go on looking (`true`) or stop (`false`). `progress` is called every 2^24 steps.
    fn run(
        &mut self,
        mut on_tour: impl FnMut(&[u32]) -> bool,
        mut progress: impl FnMut(u64),
    ) -> Stop {
        if self.board.squares() == 1 {
            if self.cfg.closed {
                return Stop::Exhausted;
            }
            return if on_tour(&self.path) {
                Stop::Exhausted
            } else {
                Stop::Found
            };
        }
        if self.dead_at_start {
            return Stop::Exhausted;
        }
        let f = self.candidates(self.start);
        self.frames.push(f);
        loop {
            let top = self.frames.last_mut().unwrap();
            if top.next == top.n {
                // Every move from this square is tried: take the square back.
                let delta = top.delta;
                self.frames.pop();
                if self.frames.is_empty() {
                    return Stop::Exhausted;
                }
                self.backtracks += 1;
                self.pop(delta);
                continue;
            }
            let v = top.cands[top.next as usize];
            top.next += 1;
            if self.work() >= self.cfg.max_steps {
                return Stop::Budget;
            }
            self.steps += 1;
            if self.steps & ((1 << 24) - 1) == 0 {
                progress(self.steps);
            }
            let (dead, delta) = self.push(v);
            if self.remaining == 0 {
                if !dead && self.complete_ok() && !on_tour(&self.path) {
                    return Stop::Found;
                }
                self.pop(delta);
                continue;
            }
            if dead {
                self.pop(delta);
                continue;
            }
            let mut f = self.candidates(v);
            f.delta = delta;
            self.frames.push(f);
        }
    }

    /// Find one tour. On [`Stop::Found`], [`Search::path`] is the tour.
    pub fn find(&mut self) -> Stop {
        self.run(|_| false, |_| {})
    }

    /// Visit every tour from the start; `f` returns whether to go on. Returns
    /// [`Stop::Exhausted`] when all were visited, [`Stop::Found`] if `f` stopped early.
    pub fn for_each_tour(&mut self, f: impl FnMut(&[u32]) -> bool) -> Stop {
        self.run(f, |_| {})
    }

    /// Count every tour from the start (each direction separately). Returns the count
    /// and [`Stop::Found`] when the whole space was searched, else [`Stop::Budget`].
    pub fn count(&mut self, mut progress: impl FnMut(u64, u64)) -> (u64, Stop) {
        let mut found = 0u64;
        let counter = std::cell::Cell::new(0u64);
        let stop = self.run(
            |_| {
                counter.set(counter.get() + 1);
                true
            },
            |steps| progress(steps, counter.get()),
        );
        found += counter.get();
        let stop = match stop {
            Stop::Exhausted => Stop::Found,
            s => s,
        };
        (found, stop)
    }
}

/// Default step budget of the search solvers (`--max-steps`).
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// Run one search solver on a request: checks, search, oracle. Shared by the
/// `backtrack`, `forward-check` and `warnsdorff-backtrack` solvers.
pub fn solve_request(
    name: &str,
    variant: Option<String>,
    cfg: Config,
    req: &super::Request,
) -> Result<super::Solution, crate::error::InputError> {
    use super::classical::{self, Report};
    use serde_json::json;
    let board = req.board;
    let start = classical::start_square(req);
    let nb = Neighbours::new(board);
    let mut search = Search::new(board, &nb, start, cfg);
    let stop = search.find();
    let mut extra = serde_json::Map::new();
    extra.insert("backtracks".into(), json!(search.backtracks));
    extra.insert("max_steps".into(), json!(cfg.max_steps));
    if cfg.connectivity {
        extra.insert("connectivity_squares".into(), json!(search.scanned));
    }
    let outcome = match stop {
        Stop::Found => super::Outcome::Tour,
        Stop::Exhausted if cfg.ties_only => super::Outcome::ExhaustedTies,
        Stop::Exhausted => super::Outcome::Exhausted,
        Stop::Budget => super::Outcome::GaveUp,
    };
    if stop == Stop::Budget {
        extra.insert(
            "message".into(),
            json!(if cfg.connectivity {
                format!(
                    "gave up after {} steps and {} squares scanned by connectivity checks (--max-steps counts both)",
                    search.steps, search.scanned
                )
            } else {
                format!("gave up after {} steps", search.steps)
            }),
        );
    }
    let squares = (stop == Stop::Found).then(|| search.path().to_vec());
    classical::finish(
        name,
        variant,
        req,
        squares,
        Report {
            outcome,
            attempts: 1,
            steps: Some(search.steps),
            extra,
        },
    )
}

/// Checks shared by the search solvers: theorems, colour, size, step budget.
pub fn check_request(
    what: &str,
    max_steps: u64,
    req: &super::Request,
) -> Result<(), crate::error::InputError> {
    use super::classical;
    if max_steps == 0 {
        return Err(crate::error::InputError::param(
            "--max-steps must be at least 1",
        ));
    }
    classical::check_possible(req, classical::wants_closed(req))?;
    classical::check_reverse(req, what)?;
    classical::check_search_size(req.board, what)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(order: Order, fc: bool, conn: bool, closed: bool) -> Config {
        Config {
            order,
            ties_only: false,
            forward_check: fc,
            connectivity: conn,
            closed,
            max_steps: u64::MAX,
        }
    }

    /// Plain recursive count, independent of the engine.
    fn brute(board: Board, start: u32, closed: bool) -> u64 {
        fn go(b: Board, path: &mut Vec<u32>, used: &mut [bool], closed: bool) -> u64 {
            if path.len() == b.squares() {
                let ok =
                    !closed || (path.len() > 2 && b.is_knight_move(*path.last().unwrap(), path[0]));
                return ok as u64;
            }
            let last = *path.last().unwrap();
            let mut total = 0;
            for t in b.knight_moves(last).collect::<Vec<_>>() {
                if !used[t as usize] {
                    used[t as usize] = true;
                    path.push(t);
                    total += go(b, path, used, closed);
                    path.pop();
                    used[t as usize] = false;
                }
            }
            total
        }
        let mut used = vec![false; board.squares()];
        used[start as usize] = true;
        go(board, &mut vec![start], &mut used, closed)
    }

    #[test]
    fn pruned_counts_equal_brute_force() {
        for (m, n, closed) in [
            (1, 1, false),
            (3, 4, false),
            (4, 3, false),
            (3, 7, false),
            (4, 5, false),
            (5, 5, false),
            (5, 6, true),
            (3, 10, true),
        ] {
            let b = Board::new(m, n).unwrap();
            let nb = Neighbours::new(b);
            {
                let starts = if closed { 1 } else { b.squares() as u32 };
                for start in 0..starts {
                    let want = brute(b, start, closed);
                    for (order, fc, conn) in [
                        (Order::Clockwise, false, false),
                        (Order::Clockwise, true, false),
                        (Order::Warnsdorff, true, true),
                    ] {
                        let mut s = Search::new(b, &nb, start, cfg(order, fc, conn, closed));
                        let (got, stop) = s.count(|_, _| {});
                        assert_eq!(stop, Stop::Found);
                        assert_eq!(got, want, "{b} start {start} closed {closed} fc {fc}");
                    }
                }
            }
        }
    }
}

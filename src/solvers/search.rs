//! The depth-first search engine shared by `backtrack`, `forward-check`,
//! `warnsdorff-backtrack`, the base tours of `divide-conquer`, `count`, and the game of
//! `knightnet play` (watch mode, hint, give-up and the dead-position warning).
//!
//! A search is a sequence of steps ([`Search::step`]): each places the knight on a
//! square or takes it back. [`Search::find`], [`Search::count`] and watch mode all repeat
//! that one step, so what is watched is what `solve` runs, step for step
//! (`SolverRun` is one search solver's run on a request, stepped by either). A search
//! may continue a given path ([`Search::from_path`]), and `Search::obstruction` applies
//! its pruning to a whole position at once (the game's dead-position warning).
//!
//! The search is iterative (an explicit stack of frames, so no recursion limit), keeps
//! per unvisited square the number of its unvisited neighbours (`free`), and counts a
//! *step* each time it places a square (including squares later taken back). Options:
//!
//! - move order: fixed clockwise ([`crate::board::KNIGHT_OFFSETS`]) or Warnsdorff–Roth's
//!   (fewest onward moves first; ties farthest from the centre, then clockwise), the
//!   order of the `roth` walk, defined once in [`roth`];
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
//!   `max_steps` bounds the time with connectivity too: it counts the squares the
//!   connectivity checks reach as well as the squares placed (a budget of placements
//!   alone would allow 10^8 searches of up to 40,000 squares each on 200x200).
//!
//! All pruning is sound: it never discards a branch that contains a tour, so counts
//! made with it are exact.

use std::borrow::Borrow;

use crate::board::Board;
use crate::geometry::MoveGraph;
use crate::solvers::warnsdorff::roth;

const NONE: u32 = u32::MAX;

/// Neighbour lists of every square, clockwise, without building a [`crate::graph::KnightGraph`].
/// Built from a geometry's move graph (`Neighbours::from_moves`) they are the
/// leaper's moves with the surface's wraps, increasing, and the holes are listed: a
/// search counts them as visited from the start.
#[derive(Debug, Clone)]
pub struct Neighbours {
    list: Vec<[u32; 8]>,
    len: Vec<u8>,
    /// Squares that are not on the board (a shape's holes), increasing.
    holes: Vec<u32>,
}

impl Neighbours {
    /// The neighbour lists of every square of `board`.
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
        Neighbours {
            list,
            len,
            holes: Vec::new(),
        }
    }

    /// The neighbour lists of a geometry's move graph, by square (a leaper has at most
    /// eight moves, merged moves and holes only remove some); holes have none. A search
    /// over them serves its first-position check (`Search::obstruction`, the game's
    /// dead-position warning), which holds on any graph; stepping it does not: the
    /// move-by-move forward check relies on the knight's graph being bipartite, and
    /// Warnsdorff's order on the knight's moves.
    pub(crate) fn from_moves(moves: &MoveGraph) -> Neighbours {
        let n = moves.geometry().board().squares();
        let mut list = vec![[NONE; 8]; n];
        let mut len = vec![0u8; n];
        for v in 0..moves.vertices() as u32 {
            let s = moves.square(v) as usize;
            for (i, &w) in moves.neighbours(v).iter().enumerate() {
                list[s][i] = moves.square(w);
                len[s] = i as u8 + 1;
            }
        }
        Neighbours {
            list,
            len,
            holes: moves.geometry().shape().holes().to_vec(),
        }
    }

    /// The knight moves from square `s`, clockwise.
    #[inline]
    pub fn of(&self, s: u32) -> &[u32] {
        &self.list[s as usize][..self.len[s as usize] as usize]
    }
}

/// The neighbour lists a search holds, borrowed or owned.
#[inline(always)]
fn lists<N: Borrow<Neighbours>>(nb: &N) -> &Neighbours {
    nb.borrow()
}

/// Move ordering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// The fixed clockwise order of [`crate::board::KNIGHT_OFFSETS`].
    Clockwise,
    /// Warnsdorff's order: fewest onward moves first, ties as Roth's rule breaks them.
    Warnsdorff,
}

/// What the search looks for and how.
#[derive(Debug, Clone, Copy)]
pub struct Config {
    /// The order moves are tried in.
    pub order: Order,
    /// Try only the moves tied for Warnsdorff's minimum (an incomplete search).
    pub ties_only: bool,
    /// Backtrack as soon as an unvisited square can no longer be entered and left.
    pub forward_check: bool,
    /// Also backtrack when the unvisited squares fall apart into parts the head cannot
    /// all reach.
    pub connectivity: bool,
    /// Look for a closed tour.
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

/// What one [`Search::step`] did: the search moves one knight at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// The knight was placed on this square (one step of [`Search::steps`]). When the
    /// pruning rejects the new position, the next step takes it back.
    Placed(u32),
    /// The knight was placed on this square and the path is now a tour. The next step
    /// takes it back and goes on looking (as counting does); [`Search::find`] stops here.
    Tour(u32),
    /// The knight was taken back from this square.
    TakenBack(u32),
    /// The search is over; every later step returns the same.
    Done(Stop),
}

/// Why a position cannot be completed: what the search's pruning finds when it looks
/// at a whole position at once (`Search::obstruction`). Each is a sound proof that no
/// tour of the searched kind continues the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Obstruction {
    /// The knight on `at` has no move to an unvisited square.
    Stuck {
        /// The knight's square.
        at: u32,
    },
    /// An unvisited square has too few links (ways in or out among the unvisited squares
    /// and the knight's square): none for an open tour, fewer than two for a closed one.
    Stranded {
        /// The square.
        square: u32,
    },
    /// An open tour: the square's only link is the knight's square, so it would have to
    /// be both the next and the last square, while others remain.
    EntryOnly {
        /// The square.
        square: u32,
    },
    /// An open tour: two squares have a single link each, and only one can be the end.
    TwoDeadEnds {
        /// One square with a single link.
        a: u32,
        /// The other.
        b: u32,
    },
    /// A closed tour: the start square has no unvisited neighbour left to return from.
    NoReturn {
        /// The start square.
        start: u32,
    },
    /// Some unvisited squares cannot be reached from the knight (with connectivity).
    Disconnected {
        /// An unvisited square the knight cannot reach.
        square: u32,
        /// How many unvisited squares it cannot reach.
        unreachable: usize,
    },
}

struct Frame {
    cands: [u32; 8],
    n: u8,
    next: u8,
    /// Change of the forced-endpoint count caused by placing this frame's square.
    delta: i8,
}

/// The search state. Create with [`Search::new`] (from a start square) or
/// [`Search::from_path`] (continuing a path it never takes back), then step it with
/// [`Search::step`], or run the same steps to the end with [`Search::find`],
/// `Search::for_each_tour` or [`Search::count`].
pub struct Search<N: Borrow<Neighbours> = Neighbours> {
    board: Board,
    nb: N,
    cfg: Config,
    start: u32,
    visited: Vec<bool>,
    free: Vec<u8>,
    near_start: Vec<bool>,
    path: Vec<u32>,
    frames: Vec<Frame>,
    remaining: usize,
    forced: i32,
    /// Squares placed so far.
    pub steps: u64,
    /// Squares taken back so far.
    pub backtracks: u64,
    /// Squares reached by connectivity checks (0 without connectivity).
    pub scanned: u64,
    stamp: Vec<u32>,
    generation: u32,
    queue: Vec<u32>,
    /// What the pruning found at the first position (the search then ends at once).
    root: Option<Obstruction>,
    phase: Phase,
}

/// What the next [`Search::step`] does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Line up the moves from the first position.
    Begin,
    /// Try the next move, or take back a square whose moves are all tried.
    Search,
    /// Take back the head, which the pruning rejected or which completed a tour (the
    /// forced-count change of placing it).
    TakeBack(i8),
    /// The search is over.
    Done(Stop),
}

impl<'a> Search<&'a Neighbours> {
    /// A search from `start`, sharing the neighbour lists `nb` (of `board`).
    pub fn new(board: Board, nb: &'a Neighbours, start: u32, cfg: Config) -> Self {
        Search::from_path(board, nb, &[start], cfg)
    }
}

impl Search<Neighbours> {
    /// A search that owns its neighbour lists (for a caller that keeps it, as watch
    /// mode does).
    pub fn owned(board: Board, path: &[u32], cfg: Config) -> Self {
        Search::from_path(board, Neighbours::new(board), path, cfg)
    }
}

impl<N: Borrow<Neighbours>> Search<N> {
    /// A search that continues `path` (a non-empty sequence of distinct squares, each a
    /// knight move from the one before), which it never takes back. `path[0]` is the
    /// start a closed tour returns to.
    pub fn from_path(board: Board, nb: N, path: &[u32], cfg: Config) -> Self {
        assert!(!path.is_empty(), "a search needs a start square");
        let n = board.squares();
        let start = path[0];
        let lists: &Neighbours = nb.borrow();
        let mut free: Vec<u8> = (0..n as u32).map(|s| lists.of(s).len() as u8).collect();
        let mut visited = vec![false; n];
        for &h in &lists.holes {
            visited[h as usize] = true;
        }
        let holes = lists.holes.len();
        let mut near_start = vec![false; n];
        for &s in path {
            visited[s as usize] = true;
            for &u in lists.of(s) {
                free[u as usize] -= 1;
            }
        }
        for &u in lists.of(start) {
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
            path: path.to_vec(),
            frames: Vec::with_capacity(n),
            remaining: n - holes - path.len(),
            forced: 0,
            steps: 0,
            backtracks: 0,
            scanned: 0,
            stamp: if cfg.connectivity {
                vec![0; n]
            } else {
                Vec::new()
            },
            generation: 0,
            queue: Vec::new(),
            root: None,
            phase: Phase::Begin,
        };
        s.root = s.root_check();
        s
    }

    /// The current path (the tour after a successful [`Search::find`]).
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The board searched.
    pub fn board(&self) -> Board {
        self.board
    }

    /// What the search looks for and how.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Links of the unvisited square `u` at the first position: its unvisited
    /// neighbours, the knight's square, and for a closed tour the start it may return to.
    fn root_links(&self, u: u32) -> u8 {
        let head = *self.path.last().expect("non-empty");
        let adj = |a: u32| lists(&self.nb).of(u).contains(&a) as u8;
        let back = (self.cfg.closed && head != self.start && self.near_start[u as usize]) as u8;
        self.free[u as usize] + adj(head) + back
    }

    /// The pruning applied to the whole first position: the knight must have a move;
    /// with forward checking every unvisited square needs its links (and sets the
    /// forced-endpoint count the search then keeps up to date move by move); a closed
    /// tour needs a way back to the start. (Connectivity is left to
    /// [`Search::obstruction`]: the solvers' step counts do not include it.)
    fn root_check(&mut self) -> Option<Obstruction> {
        let head = *self.path.last().expect("non-empty");
        if self.remaining == 0 {
            return None;
        }
        if self.free[head as usize] == 0 {
            return Some(Obstruction::Stuck { at: head });
        }
        let mut found = None;
        if self.cfg.forward_check {
            let closed = self.cfg.closed;
            let need = if closed { 2 } else { 1 };
            let mut dead_end: Option<u32> = None;
            for u in 0..self.board.squares() as u32 {
                if self.visited[u as usize] {
                    continue;
                }
                let links = self.root_links(u);
                let why = if links < need {
                    Some(Obstruction::Stranded { square: u })
                } else if !closed && links == 1 {
                    self.forced += 1;
                    if self.free[u as usize] == 0 && self.remaining > 1 {
                        Some(Obstruction::EntryOnly { square: u })
                    } else if let Some(a) = dead_end {
                        Some(Obstruction::TwoDeadEnds { a, b: u })
                    } else {
                        dead_end = Some(u);
                        None
                    }
                } else {
                    None
                };
                found = found.or(why);
            }
        }
        if found.is_none() && self.cfg.closed && self.free[self.start as usize] == 0 {
            found = Some(Obstruction::NoReturn { start: self.start });
        }
        found
    }

    /// The first obstruction the search's pruning finds at the first position, if any:
    /// [`Obstruction::Stuck`] always, the forward check's obstructions with
    /// `forward_check`, [`Obstruction::Disconnected`] with `connectivity`. `None` means
    /// the pruning sees no reason the path cannot be completed (it may still be dead).
    /// Does not count as work of the search.
    pub(crate) fn obstruction(&mut self) -> Option<Obstruction> {
        if self.root.is_some() || !self.cfg.connectivity || self.remaining == 0 {
            return self.root;
        }
        let head = *self.path.last().expect("non-empty");
        let reached = self.reach(head);
        if reached == self.remaining {
            return None;
        }
        let g = self.generation;
        let square = (0..self.board.squares() as u32)
            .find(|&s| !self.visited[s as usize] && self.stamp[s as usize] != g)
            .expect("an unreached unvisited square");
        Some(Obstruction::Disconnected {
            square,
            unreachable: self.remaining - reached,
        })
    }

    #[inline(always)]
    fn candidates(&self, v: u32) -> Frame {
        let mut f = Frame {
            cands: [NONE; 8],
            n: 0,
            next: 0,
            delta: 0,
        };
        // Warnsdorff order skips moves into a dead end unless it is the last square.
        let skip_dead = self.cfg.order == Order::Warnsdorff && self.remaining > 1;
        for &t in lists(&self.nb).of(v) {
            let dead_end = skip_dead && self.free[t as usize] == 0;
            if !self.visited[t as usize] && !dead_end {
                f.cands[f.n as usize] = t;
                f.n += 1;
            }
        }
        if self.cfg.order == Order::Warnsdorff && f.n > 1 {
            let (r, c) = self.board.coords(v);
            let centre = roth::centre_offset(self.board, r, c);
            let mut keyed = [(0u64, 0u32); 8];
            for (slot, &t) in keyed.iter_mut().zip(&f.cands[..f.n as usize]) {
                let (tr, tc) = self.board.coords(t);
                let k = roth::move_index(tr as i64 - r as i64, tc as i64 - c as i64);
                *slot = (roth::key(self.free[t as usize], k, centre), t);
            }
            // Warnsdorff–Roth's order, the `roth` walk's (no two moves share a key).
            keyed[..f.n as usize].sort_unstable();
            for (t, &(_, s)) in f.cands.iter_mut().zip(&keyed[..f.n as usize]) {
                *t = s;
            }
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

    /// The moves the search would try next from the knight's square, in its order
    /// (before any is tried).
    pub(crate) fn first_moves(&self) -> Vec<u32> {
        let head = *self.path.last().expect("non-empty");
        let f = self.candidates(head);
        f.cands[..f.n as usize].to_vec()
    }

    /// Place `v` after the head. Returns `(dead, delta)`: whether forward checking (or
    /// connectivity) already proves this branch hopeless, and the forced-count change.
    #[inline(always)]
    fn push(&mut self, v: u32) -> (bool, i8) {
        let h = *self.path.last().unwrap();
        self.visited[v as usize] = true;
        self.path.push(v);
        self.remaining -= 1;
        for &u in lists(&self.nb).of(v) {
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
                for &u in lists(&self.nb).of(h) {
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

    /// Take back the head; returns its square.
    #[inline(always)]
    fn pop(&mut self, delta: i8) -> u32 {
        let v = self.path.pop().unwrap();
        for &u in lists(&self.nb).of(v) {
            self.free[u as usize] += 1;
        }
        self.visited[v as usize] = false;
        self.remaining += 1;
        self.forced -= delta as i32;
        v
    }

    /// Mark the unvisited squares reachable from `head` through unvisited squares with
    /// the current stamp; returns how many there are.
    fn reach(&mut self, head: u32) -> usize {
        if self.stamp.is_empty() {
            self.stamp = vec![0; self.board.squares()];
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|x| *x = 0);
            self.generation = 1;
        }
        let g = self.generation;
        self.queue.clear();
        self.queue.push(head);
        self.stamp[head as usize] = g;
        let mut reached = 0usize;
        let mut i = 0;
        while i < self.queue.len() {
            let s = self.queue[i];
            i += 1;
            for &u in lists(&self.nb).of(s) {
                if !self.visited[u as usize] && self.stamp[u as usize] != g {
                    self.stamp[u as usize] = g;
                    reached += 1;
                    self.queue.push(u);
                }
            }
        }
        reached
    }

    /// Whether every unvisited square is reachable from `head` through unvisited squares.
    fn connected(&mut self, head: u32) -> bool {
        let reached = self.reach(head);
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

    /// The first step: a complete path is a tour at once and an obstructed one ends the
    /// search (that step is returned); otherwise the moves from the knight's square are
    /// lined up and the search goes on (`None`).
    #[cold]
    #[inline(never)]
    fn begin(&mut self) -> Option<Step> {
        let head = *self.path.last().expect("non-empty");
        if self.remaining == 0 {
            self.phase = Phase::Done(Stop::Exhausted);
            return Some(if self.complete_ok() {
                Step::Tour(head)
            } else {
                Step::Done(Stop::Exhausted)
            });
        }
        if self.root.is_some() {
            self.phase = Phase::Done(Stop::Exhausted);
            return Some(Step::Done(Stop::Exhausted));
        }
        let f = self.candidates(head);
        self.frames.push(f);
        self.phase = Phase::Search;
        None
    }

    /// Do one step of the depth-first search: place the knight on the next untried
    /// move, or take it back when the position is rejected or every move from it is
    /// tried. Every way of running the search ([`Search::find`], [`Search::count`], watch
    /// mode) is this step repeated.
    #[inline(always)]
    pub fn step(&mut self) -> Step {
        match self.phase {
            Phase::Search => {}
            Phase::TakeBack(delta) => {
                self.phase = Phase::Search;
                return Step::TakenBack(self.pop(delta));
            }
            Phase::Done(stop) => return Step::Done(stop),
            Phase::Begin => {
                if let Some(step) = self.begin() {
                    return step;
                }
            }
        }
        let top = self.frames.last_mut().expect("a frame while searching");
        if top.next == top.n {
            // Every move from this square is tried: take the square back.
            let delta = top.delta;
            self.frames.pop();
            if self.frames.is_empty() {
                self.phase = Phase::Done(Stop::Exhausted);
                return Step::Done(Stop::Exhausted);
            }
            self.backtracks += 1;
            return Step::TakenBack(self.pop(delta));
        }
        let v = top.cands[top.next as usize];
        top.next += 1;
        if self.work() >= self.cfg.max_steps {
            self.phase = Phase::Done(Stop::Budget);
            return Step::Done(Stop::Budget);
        }
        self.steps += 1;
        let (dead, delta) = self.push(v);
        if self.remaining == 0 {
            self.phase = Phase::TakeBack(delta);
            return if !dead && self.complete_ok() {
                Step::Tour(v)
            } else {
                Step::Placed(v)
            };
        }
        if dead {
            self.phase = Phase::TakeBack(delta);
            return Step::Placed(v);
        }
        let mut f = self.candidates(v);
        f.delta = delta;
        self.frames.push(f);
        Step::Placed(v)
    }

    /// Step until the first tour. On [`Stop::Found`], [`Search::path`] is the tour.
    pub fn find(&mut self) -> Stop {
        self.for_each_tour(|_| false)
    }

    /// Visit every tour from the start; `f` returns whether to go on. Returns
    /// [`Stop::Exhausted`] when all were visited, [`Stop::Found`] if `f` stopped early.
    pub(crate) fn for_each_tour(&mut self, mut f: impl FnMut(&[u32]) -> bool) -> Stop {
        loop {
            match self.step() {
                Step::Tour(_) if !f(&self.path) => return Stop::Found,
                Step::Done(stop) => return stop,
                _ => {}
            }
        }
    }

    /// Count every tour from the start (each direction separately). Returns the count
    /// and [`Stop::Found`] when the whole space was searched, else [`Stop::Budget`].
    /// `progress(steps, found)` is called every 2^24 steps.
    pub fn count(&mut self, mut progress: impl FnMut(u64, u64)) -> (u64, Stop) {
        self.count_dyn(&mut progress)
    }

    /// [`Search::count`] compiled once, whatever the caller's `progress`.
    fn count_dyn(&mut self, progress: &mut dyn FnMut(u64, u64)) -> (u64, Stop) {
        let mut found = 0u64;
        loop {
            let before = self.steps;
            let step = self.step();
            if self.steps != before && self.steps & ((1 << 24) - 1) == 0 {
                progress(self.steps, found);
            }
            match step {
                Step::Tour(_) => found += 1,
                Step::Done(Stop::Exhausted) => return (found, Stop::Found),
                Step::Done(stop) => return (found, stop),
                _ => {}
            }
        }
    }
}

/// Default step budget of the search solvers (`--max-steps`).
pub const DEFAULT_MAX_STEPS: u64 = 100_000_000;

/// One search solver's run on one request: the [`Search`] with the solver's
/// [`Config`], stepped to the first tour by `solve` ([`solve_request`]) or one step at a
/// time by watch mode, and turned into the same [`super::Solution`] either way.
pub(crate) struct SolverRun {
    name: super::SolverName,
    req: super::Request,
    search: Search,
    stop: Option<Stop>,
}

impl SolverRun {
    /// The run of solver `name` on `req`, continuing `path` (a legal
    /// partial path starting on the request's start square; `None`: from the start).
    /// The solver's own `check` must have accepted `req`.
    pub fn new(
        name: super::SolverName,
        cfg: Config,
        req: &super::Request,
        path: Option<&[u32]>,
    ) -> SolverRun {
        let start = [super::classical::start_square(req)];
        let search = Search::owned(req.board, path.unwrap_or(&start), cfg);
        SolverRun {
            name,
            req: *req,
            search,
            stop: None,
        }
    }

    /// One step of the search; after the first tour (or the end) every step returns
    /// [`Step::Done`].
    pub fn step(&mut self) -> Step {
        if let Some(stop) = self.stop {
            return Step::Done(stop);
        }
        let step = self.search.step();
        match step {
            Step::Tour(_) => self.stop = Some(Stop::Found),
            Step::Done(stop) => self.stop = Some(stop),
            _ => {}
        }
        step
    }

    /// Step to the end (the first tour, exhaustion or the budget).
    pub fn finish(&mut self) -> Stop {
        if self.stop.is_none() {
            self.stop = Some(self.search.find());
        }
        self.stop.expect("just set")
    }

    /// The search, as far as it has run.
    pub fn search(&self) -> &Search {
        &self.search
    }

    /// The solver's result, once the run has ended (`None` before): the same whether
    /// `solve` or watch mode stepped it.
    pub fn solution(&self) -> Option<Result<super::Solution, crate::error::InputError>> {
        let stop = self.stop?;
        Some(solution(self.name.clone(), &self.search, stop, &self.req))
    }
}

/// Run one search solver on a request: search, oracle. Shared by the `backtrack`,
/// `forward-check` and `warnsdorff-backtrack` solvers (which check the request first).
pub(crate) fn solve_request(
    name: super::SolverName,
    cfg: Config,
    req: &super::Request,
) -> Result<super::Solution, crate::error::InputError> {
    let mut run = SolverRun::new(name, cfg, req, None);
    run.finish();
    run.solution().expect("finished")
}

/// The [`super::Solution`] of a search that stopped with `stop`.
fn solution(
    name: super::SolverName,
    search: &Search,
    stop: Stop,
    req: &super::Request,
) -> Result<super::Solution, crate::error::InputError> {
    use super::classical::{self, Report};
    let cfg = search.cfg;
    let outcome = match stop {
        Stop::Found => super::Outcome::Tour,
        Stop::Exhausted if cfg.ties_only => super::Outcome::ExhaustedTies,
        Stop::Exhausted => super::Outcome::Exhausted,
        Stop::Budget => super::Outcome::GaveUp,
    };
    let message = (stop == Stop::Budget).then(|| {
        if cfg.connectivity {
            format!(
                "gave up after {} steps and {} squares scanned by connectivity checks (the step budget counts both)",
                search.steps, search.scanned
            )
        } else {
            format!("gave up after {} steps", search.steps)
        }
    });
    let facts = super::Facts::Search(super::SearchFacts {
        backtracks: search.backtracks,
        max_steps: cfg.max_steps,
        connectivity_squares: cfg.connectivity.then_some(search.scanned),
        message,
    });
    let squares = (stop == Stop::Found).then(|| search.path().to_vec());
    classical::finish(
        name,
        req,
        squares,
        Report {
            outcome,
            attempts: 1,
            steps: Some(search.steps),
            facts,
        },
    )
}

/// Checks shared by the search solvers: theorems, colour, size, step budget.
pub(crate) fn check_request(
    what: &str,
    max_steps: u64,
    req: &super::Request,
) -> Result<(), crate::error::InputError> {
    use super::classical;
    if max_steps == 0 {
        return Err(crate::error::InputError::max_steps_zero());
    }
    classical::check_possible(req, classical::wants_closed(req))?;
    classical::check_reverse(req, what)?;
    classical::check_search_size(req.board, what)
}

#[cfg(test)]
mod tests {
    use rayon::prelude::*;

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
        pruned_counts_equal_brute_force_on(&[
            (1, 1, false),
            (3, 4, false),
            (3, 10, true),
            (4, 3, false),
            (3, 7, false),
            (4, 5, false),
        ]);
    }

    #[test]
    #[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
    fn pruned_counts_equal_brute_force_on_5x5_and_5x6() {
        pruned_counts_equal_brute_force_on(&[(5, 5, false), (5, 6, true)]);
    }

    fn pruned_counts_equal_brute_force_on(boards: &[(usize, usize, bool)]) {
        // Every (board, start) on its own core; the brute force takes most of the time.
        let jobs: Vec<(Board, u32, bool)> = boards
            .iter()
            .flat_map(|&(m, n, closed)| {
                let b = Board::new(m, n).unwrap();
                let starts = if closed { 1 } else { b.squares() as u32 };
                (0..starts).map(move |start| (b, start, closed))
            })
            .collect();
        jobs.into_par_iter().rev().for_each(|(b, start, closed)| {
            let nb = Neighbours::new(b);
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
        });
    }
    /// Stepping is the search: replaying the events on a shadow path gives the search's
    /// path after every step, each placement is one step, and `find` stops where stepping
    /// meets its first tour.
    #[test]
    fn steps_replay_the_search() {
        for (m, n, order, fc, conn, closed) in [
            (5, 5, Order::Clockwise, false, false, false),
            (5, 5, Order::Warnsdorff, true, false, false),
            (3, 7, Order::Clockwise, true, true, false),
            (6, 6, Order::Clockwise, true, false, true),
        ] {
            let b = Board::new(m, n).unwrap();
            let nb = Neighbours::new(b);
            let c = cfg(order, fc, conn, closed);
            let mut stepped = Search::new(b, &nb, 0, c);
            let mut shadow = vec![0u32];
            let mut placed = 0u64;
            let stop = loop {
                match stepped.step() {
                    Step::Placed(v) => {
                        placed += 1;
                        shadow.push(v);
                    }
                    Step::Tour(v) => {
                        placed += 1;
                        shadow.push(v);
                        break Stop::Found;
                    }
                    Step::TakenBack(v) => assert_eq!(shadow.pop(), Some(v)),
                    Step::Done(stop) => break stop,
                }
                assert_eq!(stepped.path(), &shadow[..]);
            };
            assert_eq!(stepped.path(), &shadow[..]);
            assert_eq!(placed, stepped.steps);
            let mut found = Search::new(b, &nb, 0, c);
            assert_eq!(found.find(), stop, "{b}");
            assert_eq!(found.path(), stepped.path());
            assert_eq!(found.steps, stepped.steps);
            assert_eq!(found.backtracks, stepped.backtracks);
        }
    }

    /// A search that continues a path counts exactly the tours that begin with it.
    #[test]
    fn a_search_from_a_path_counts_its_continuations() {
        let b = Board::new(5, 5).unwrap();
        let nb = Neighbours::new(b);
        let c = cfg(Order::Clockwise, true, false, false);
        let mut by_prefix = std::collections::BTreeMap::new();
        Search::new(b, &nb, 0, c).for_each_tour(|p| {
            *by_prefix.entry((p[1], p[2])).or_insert(0u64) += 1;
            true
        });
        assert!(by_prefix.len() > 1);
        for t in b.knight_moves(0) {
            for u in b.knight_moves(t).filter(|&u| u != 0) {
                let want = by_prefix.get(&(t, u)).copied().unwrap_or(0);
                let (got, stop) = Search::from_path(b, &nb, &[0, t, u], c).count(|_, _| {});
                assert_eq!(stop, Stop::Found);
                assert_eq!(got, want, "prefix a1 {t} {u}");
            }
        }
    }

    /// What the pruning reports about a whole position is sound: a plain search finds
    /// no continuation of an obstructed path.
    #[test]
    fn obstructions_are_sound() {
        let b = Board::new(5, 5).unwrap();
        let nb = Neighbours::new(b);
        let pruned = Config {
            connectivity: true,
            ..cfg(Order::Clockwise, true, true, false)
        };
        let plain = cfg(Order::Clockwise, false, false, false);
        let mut seen = 0;
        // Every path of four moves from the corner and from the centre.
        let mut paths = vec![vec![0u32], vec![12u32]];
        for _ in 0..4 {
            paths = paths
                .into_iter()
                .flat_map(|p| {
                    let last = *p.last().unwrap();
                    b.knight_moves(last)
                        .filter(|t| !p.contains(t))
                        .map(|t| {
                            let mut q = p.clone();
                            q.push(t);
                            q
                        })
                        .collect::<Vec<_>>()
                })
                .collect();
        }
        for p in &paths {
            if Search::from_path(b, &nb, p, pruned).obstruction().is_some() {
                seen += 1;
                let (tours, _) = Search::from_path(b, &nb, p, plain).count(|_, _| {});
                assert_eq!(tours, 0, "{p:?}");
            }
        }
        assert!(seen > 0);
    }
}

//! Forward checking on per-row domains: each row without a queen keeps the set of
//! columns still safe for it. Placing a queen removes the squares it attacks from every
//! other open row's domain; a row whose domain becomes empty is a dead end, found before
//! descending. The next row is the open row with the smallest domain (lowest row on a
//! tie), columns are tried left to right.
//!
//! Arguments: the problem, a budget of queens placed, a callback per solution.
//! Returns: queens placed (the steps) and whether the enumeration ran to the end.
//! Complexity: O(N) domain updates per placement; exponential in the worst case, but
//! smallest-domain-first solves N in the hundreds in a few thousand placements.

use super::{Control, Enumeration, Problem};

struct Search<'a> {
    n: usize,
    /// `domain[r * n + c]`: column `c` is still safe for row `r`.
    domain: Vec<bool>,
    size: Vec<usize>,
    assigned: Vec<bool>,
    cols: Vec<usize>,
    /// Removed `(row, col)` pairs, undone back to a mark on backtrack.
    trail: Vec<(u32, u32)>,
    steps: u64,
    max_steps: u64,
    limited: bool,
    stopped: bool,
    on_solution: &'a mut dyn FnMut(&[usize]) -> Control,
}

impl Search<'_> {
    fn remove(&mut self, r: usize, c: usize) {
        let k = r * self.n + c;
        if self.domain[k] {
            self.domain[k] = false;
            self.size[r] -= 1;
            self.trail.push((r as u32, c as u32));
        }
    }

    fn undo(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (r, c) = self.trail.pop().expect("above mark");
            self.domain[r as usize * self.n + c as usize] = true;
            self.size[r as usize] += 1;
        }
    }

    /// Prune every open row by a queen on `(r, c)`; false on a wiped-out domain.
    fn propagate(&mut self, r: usize, c: usize) -> bool {
        let mut ok = true;
        for r2 in 0..self.n {
            if self.assigned[r2] {
                continue;
            }
            let d = r2.abs_diff(r);
            self.remove(r2, c);
            if c + d < self.n {
                self.remove(r2, c + d);
            }
            if c >= d {
                self.remove(r2, c - d);
            }
            ok &= self.size[r2] > 0;
        }
        ok
    }

    fn search(&mut self) {
        let next = (0..self.n)
            .filter(|&r| !self.assigned[r])
            .min_by_key(|&r| (self.size[r], r));
        let Some(r) = next else {
            if (self.on_solution)(&self.cols) == Control::Stop {
                self.stopped = true;
            }
            return;
        };
        self.assigned[r] = true;
        for c in 0..self.n {
            if !self.domain[r * self.n + c] {
                continue;
            }
            if self.steps >= self.max_steps {
                self.limited = true;
                break;
            }
            self.steps += 1;
            self.cols[r] = c;
            let mark = self.trail.len();
            if self.propagate(r, c) {
                self.search();
            }
            self.undo(mark);
            if self.stopped || self.limited {
                break;
            }
        }
        self.assigned[r] = false;
    }
}

/// Enumerate every solution (order: smallest domain first, columns ascending).
pub fn enumerate(
    problem: &Problem,
    max_steps: u64,
    on_solution: &mut dyn FnMut(&[usize]) -> Control,
) -> Enumeration {
    let n = problem.n();
    let mut s = Search {
        n,
        domain: vec![true; n * n],
        size: vec![n; n],
        assigned: vec![false; n],
        cols: vec![0; n],
        trail: Vec::new(),
        steps: 0,
        max_steps,
        limited: false,
        stopped: false,
        on_solution,
    };
    let mut consistent = true;
    for &(r, c) in problem.locks() {
        s.assigned[r] = true;
        s.cols[r] = c;
    }
    for &(r, c) in problem.locks() {
        consistent &= s.propagate(r, c);
    }
    if consistent {
        s.search();
    }
    Enumeration {
        steps: s.steps,
        exhausted: !s.stopped && !s.limited,
        limited: s.limited,
    }
}

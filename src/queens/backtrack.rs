//! Backtracking: rows top to bottom, columns left to right, skipping any square a placed
//! (or locked) queen attacks; undo on a dead end.
//!
//! Arguments: the problem, a budget of queens placed, a callback per solution.
//! Returns: queens placed (the steps) and whether the enumeration ran to the end.
//! Complexity: exponential in the worst case; O(1) conflict test per square through
//! column and diagonal occupancy arrays.

use super::{Control, Enumeration, Problem};

struct Search<'a> {
    n: usize,
    locked: Vec<Option<usize>>,
    cols: Vec<usize>,
    col_used: Vec<bool>,
    diag: Vec<bool>,
    anti: Vec<bool>,
    steps: u64,
    max_steps: u64,
    limited: bool,
    stopped: bool,
    on_solution: &'a mut dyn FnMut(&[usize]) -> Control,
}

impl Search<'_> {
    fn set(&mut self, r: usize, c: usize, on: bool) {
        let n = self.n;
        self.col_used[c] = on;
        self.diag[r + n - c] = on;
        self.anti[r + c] = on;
    }

    fn free(&self, r: usize, c: usize) -> bool {
        !self.col_used[c] && !self.diag[r + self.n - c] && !self.anti[r + c]
    }

    /// Fill rows `r..`; returns early when stopped or out of budget.
    fn row(&mut self, r: usize) {
        if r == self.n {
            if (self.on_solution)(&self.cols) == Control::Stop {
                self.stopped = true;
            }
            return;
        }
        if let Some(c) = self.locked[r] {
            self.cols[r] = c;
            return self.row(r + 1);
        }
        for c in 0..self.n {
            if !self.free(r, c) {
                continue;
            }
            if self.steps >= self.max_steps {
                self.limited = true;
                return;
            }
            self.steps += 1;
            self.cols[r] = c;
            self.set(r, c, true);
            self.row(r + 1);
            self.set(r, c, false);
            if self.stopped || self.limited {
                return;
            }
        }
    }
}

/// Enumerate every solution in lexicographic order.
pub fn enumerate(
    problem: &Problem,
    max_steps: u64,
    on_solution: &mut dyn FnMut(&[usize]) -> Control,
) -> Enumeration {
    let n = problem.n();
    let mut s = Search {
        n,
        locked: problem.locked_cols(),
        cols: vec![0; n],
        col_used: vec![false; n],
        diag: vec![false; 2 * n],
        anti: vec![false; 2 * n],
        steps: 0,
        max_steps,
        limited: false,
        stopped: false,
        on_solution,
    };
    for &(r, c) in problem.locks() {
        s.set(r, c, true);
    }
    s.row(0);
    Enumeration {
        steps: s.steps,
        exhausted: !s.stopped && !s.limited,
        limited: s.limited,
    }
}

//! Brute force: generate and test, with no pruning.
//!
//! Every candidate has one queen per row and per column: the free columns (those without
//! a locked queen) are permuted over the free rows in lexicographic order
//! (`next_permutation`), and each complete placement is tested for a shared diagonal.
//!
//! Arguments: the problem, a budget of placements tested, a callback per solution.
//! Returns: placements tested (the steps) and whether the enumeration ran to the end.
//! Complexity: `(N − L)!` placements of `O(N)` each, for `L` locked queens.

use super::{Control, Enumeration, Problem};

/// Rearrange `v` into the next permutation in lexicographic order; false (and `v`
/// sorted ascending again) after the last one.
pub(crate) fn next_permutation(v: &mut [usize]) -> bool {
    if v.len() < 2 {
        return false;
    }
    let mut i = v.len() - 1;
    while i > 0 && v[i - 1] >= v[i] {
        i -= 1;
    }
    if i == 0 {
        v.reverse();
        return false;
    }
    let mut j = v.len() - 1;
    while v[j] <= v[i - 1] {
        j -= 1;
    }
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// Enumerate every solution in lexicographic order of the free rows' columns.
pub fn enumerate(
    problem: &Problem,
    max_steps: u64,
    on_solution: &mut dyn FnMut(&[usize]) -> Control,
) -> Enumeration {
    let n = problem.n();
    let locked = problem.locked_cols();
    let free_rows: Vec<usize> = (0..n).filter(|&r| locked[r].is_none()).collect();
    let mut perm: Vec<usize> = (0..n).filter(|&c| !locked.contains(&Some(c))).collect();
    let mut cols: Vec<usize> = locked.iter().map(|l| l.unwrap_or(0)).collect();
    let mut diag = vec![false; 2 * n];
    let mut anti = vec![false; 2 * n];
    let mut steps = 0u64;
    loop {
        if steps >= max_steps {
            return Enumeration {
                steps,
                exhausted: false,
                limited: true,
            };
        }
        steps += 1;
        for (&r, &c) in free_rows.iter().zip(&perm) {
            cols[r] = c;
        }
        diag.fill(false);
        anti.fill(false);
        let ok = cols.iter().enumerate().all(|(r, &c)| {
            let (d, a) = (r + n - c, r + c);
            let fresh = !diag[d] && !anti[a];
            diag[d] = true;
            anti[a] = true;
            fresh
        });
        if ok && on_solution(&cols) == Control::Stop {
            return Enumeration {
                steps,
                exhausted: false,
                limited: false,
            };
        }
        if !next_permutation(&mut perm) {
            return Enumeration {
                steps,
                exhausted: true,
                limited: false,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_in_order() {
        let mut v = vec![0, 1, 2];
        let mut seen = vec![v.clone()];
        while next_permutation(&mut v) {
            seen.push(v.clone());
        }
        assert_eq!(seen.len(), 6);
        assert_eq!(seen[1], vec![0, 2, 1]);
        assert_eq!(v, vec![0, 1, 2]);
        assert!(!next_permutation(&mut []));
    }
}

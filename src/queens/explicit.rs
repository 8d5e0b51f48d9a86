//! One solution for any N without search, by the explicit construction of Hoffman,
//! Loessi & Moore ("Constructions for the solution of the m queens problem", Mathematics
//! Magazine 42 (1969) 66–72), in the form given by Bernhardsson ("Explicit solutions to
//! the N-queens problem for all N", SIGART Bulletin 2(2) (1991) 7):
//!
//! with 1-based columns, list the even numbers 2, 4, ..., then the odd numbers 1, 3, ...;
//! if N mod 6 = 2, swap 1 and 3 and move 5 to the end; if N mod 6 = 3, move 2 to the end
//! of the even numbers and 1, 3 to the end of the odd ones. Row `r` takes the `r`-th
//! number. This is a solution for N = 1 and every N ≥ 4 (N = 2 and 3 have none); every
//! placement is checked by [`super::verify`] anyway. O(N) time and memory; locked queens
//! are not honoured (the construction is one fixed placement).

/// The construction's columns (0-based), one per row; `None` for N = 2 and 3, which
/// have no solution.
pub(crate) fn construct(n: usize) -> Option<Vec<usize>> {
    if n == 2 || n == 3 {
        return None;
    }
    let mut evens: Vec<usize> = (2..=n).step_by(2).collect();
    let mut odds: Vec<usize> = (1..=n).step_by(2).collect();
    match n % 6 {
        2 => {
            // Swap 1 and 3, move 5 to the end.
            odds.swap(0, 1);
            if let Some(i) = odds.iter().position(|&x| x == 5) {
                let five = odds.remove(i);
                odds.push(five);
            }
        }
        3 => {
            let two = evens.remove(0);
            evens.push(two);
            let (one, three) = (odds.remove(0), odds.remove(0));
            odds.push(one);
            odds.push(three);
        }
        _ => {}
    }
    Some(evens.into_iter().chain(odds).map(|c| c - 1).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::{Problem, verify};

    #[test]
    fn every_size_up_to_the_limit_is_a_solution() {
        assert_eq!(construct(2), None);
        assert_eq!(construct(3), None);
        for n in (1..=crate::queens::MAX_N).filter(|&n| n != 2 && n != 3) {
            let cols = construct(n).unwrap();
            let p = Problem::new(n, &[]).unwrap();
            assert_eq!(verify(&p, &cols), Ok(()), "N = {n}");
        }
    }
}

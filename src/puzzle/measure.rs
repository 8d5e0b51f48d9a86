//! How often does the cheap dead-position check miss a dead position?
//!
//! Positions are sampled from a seeded stream: a random start, then `k` moves (`k`
//! uniform in `1..squares`), alternately by a random walk (uniform legal moves) and by
//! the first `k` moves of a `warnsdorff:random` run (the solver's walk); a walk that
//! gets stuck early keeps its shorter path. Each position gets the cheap verdict, and
//! the exact answer from the completion search of [`super::complete`] (exhaustive within
//! a step budget).
//!
//! A *miss* is a position the cheap check calls alive but the search proves dead. The
//! search prunes with the cheap check itself, which is sound (tests compare it with an
//! unpruned search on small boards), so its "impossible" is exact.

use rand::Rng as _;
use rand::seq::IndexedRandom;

use crate::Rng;
use crate::board::Board;

use super::complete::{Completion, complete};
use super::dead::{Verdict, check};
use crate::solvers::warnsdorff::{self, TieBreak};

/// Totals of one measurement.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeadStats {
    /// Positions sampled.
    pub samples: u64,
    /// Complete tours among them (neither alive nor dead; not counted below).
    pub complete: u64,
    /// Cheap check says dead.
    pub cheap_dead: u64,
    /// Cheap says alive and the search found a completion.
    pub alive: u64,
    /// Cheap says alive, the search proves no completion exists.
    pub misses: u64,
    /// Cheap says alive, the search ran out of budget.
    pub undecided: u64,
    /// Search steps (squares placed) over all samples.
    pub steps: u64,
}

impl DeadStats {
    /// Dead positions found (by either method).
    pub fn dead(&self) -> u64 {
        self.cheap_dead + self.misses
    }

    /// A one-paragraph report.
    pub fn report(&self, board: Board, seed: u64, budget: u64) -> String {
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        format!(
            "dead-position check on {board}, seed {seed}, {} sampled positions (search budget {budget} steps):\n\
             cheap check says dead: {}\n\
             cheap check says alive, completion found: {}\n\
             cheap check says alive, search proves dead (misses): {}\n\
             undecided (budget ran out): {}\n\
             complete tours: {}\n\
             misses / total = {}/{} = {:.2}%; misses / dead positions = {}/{} = {:.2}%\n",
            self.samples,
            self.cheap_dead,
            self.alive,
            self.misses,
            self.undecided,
            self.complete,
            self.misses,
            self.samples,
            pct(self.misses, self.samples),
            self.misses,
            self.dead(),
            pct(self.misses, self.dead()),
        )
    }
}

/// Sample one partial path: random start, then up to `k` moves.
pub(crate) fn sample_path(board: Board, rng: &mut Rng, warnsdorff: bool) -> Vec<u32> {
    let n = board.squares();
    let k = rng.random_range(1..n.max(2));
    let start = rng.random_range(0..n as u32);
    if warnsdorff {
        let mut path = warnsdorff::run(board, start, TieBreak::Random, rng).path;
        path.truncate(k + 1);
        return path;
    }
    let mut visited = vec![false; n];
    let mut path = vec![start];
    visited[start as usize] = true;
    while path.len() <= k {
        let at = *path.last().expect("non-empty");
        let moves: Vec<u32> = board
            .knight_moves(at)
            .filter(|&t| !visited[t as usize])
            .collect();
        let Some(&next) = moves.choose(rng) else {
            break;
        };
        visited[next as usize] = true;
        path.push(next);
    }
    path
}

/// Sample `samples` positions on `board` and compare the cheap check with the search.
pub fn measure(board: Board, samples: u64, seed: u64, budget: u64) -> DeadStats {
    let mut rng = crate::rng_from_seed(seed);
    let mut st = DeadStats::default();
    for i in 0..samples {
        let path = sample_path(board, &mut rng, i % 2 == 1);
        st.samples += 1;
        let cheap = check(board, &path);
        if cheap == Verdict::Complete {
            st.complete += 1;
            continue;
        }
        if cheap.is_dead() {
            st.cheap_dead += 1;
            continue;
        }
        let search = complete(board, &path, budget);
        st.steps += search.steps;
        match search.completion {
            Completion::Found(_) => st.alive += 1,
            Completion::Impossible => st.misses += 1,
            Completion::Budget => st.undecided += 1,
        }
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_measurement_is_consistent() {
        let b = Board::new(6, 6).unwrap();
        let st = measure(b, 60, 1, 200_000);
        assert_eq!(st.samples, 60);
        assert_eq!(
            st.complete + st.cheap_dead + st.alive + st.misses + st.undecided,
            st.samples
        );
        assert_eq!(st, measure(b, 60, 1, 200_000), "same seed, same result");
    }
}

#[cfg(test)]
mod run {
    use super::*;

    /// The documented 8x8 measurement (same numbers as
    /// `knightnet play --measure-dead --samples S --budget B --seed 1`):
    /// `KN_SAMPLES=2000 cargo test --lib by_hand_measure_8x8 -- --ignored --nocapture`.
    #[test]
    #[ignore = "by hand: minutes, prints a measurement"]
    fn by_hand_measure_8x8() {
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let (samples, budget) = (env("KN_SAMPLES", 2000), env("KN_BUDGET", 2_000_000));
        let b = Board::new(8, 8).unwrap();
        let st = measure(b, samples, 1, budget);
        print!("{}", st.report(b, 1, budget));
        println!("search steps: {}", st.steps);
    }
}

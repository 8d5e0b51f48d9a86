//! A Rust timing loop, for measuring what a call from Python adds: the same solve as
//! `solve(board, solver, seed=seed)`, repeated in Rust without crossing into Python.

use std::time::Instant;

use knightnet::rng_from_seed;
use knightnet::solvers::{Request, SolverKind};
use pyo3::prelude::*;

use crate::{board, errors};

/// Seconds per solve of ``solver`` on ``board`` with ``seed``, over ``repeat`` solves in
/// a Rust loop (the best of ``rounds`` rounds), without the GIL.
#[pyfunction]
#[pyo3(signature = (board, solver, seed, repeat, rounds = 5))]
pub fn time_solve_in_rust(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    solver: &str,
    seed: u64,
    repeat: u32,
    rounds: u32,
) -> PyResult<f64> {
    let board = board::extract(board)?;
    let kind: SolverKind = solver.parse().map_err(errors::input)?;
    if !(1..=10_000_000).contains(&repeat) || !(1..=100).contains(&rounds) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "repeat must be 1 to 10000000 and rounds 1 to 100",
        ));
    }
    py.detach(|| {
        let request = Request::new(board);
        let mut best = f64::INFINITY;
        for _ in 0..rounds {
            let t = Instant::now();
            for _ in 0..repeat {
                let s = kind.build();
                s.check(&request)?;
                std::hint::black_box(s.solve(&request, &mut rng_from_seed(seed))?);
            }
            best = best.min(t.elapsed().as_secs_f64() / f64::from(repeat));
        }
        Ok(best)
    })
    .map_err(errors::input)
}

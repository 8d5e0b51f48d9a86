//! Rust timing loops, for measuring what a call from Python adds: the same solve as
//! `solve(board, solver, seed=seed)`, and the same steps as `Network.step()`, repeated in
//! Rust without crossing into Python.

use std::time::Instant;

use knightnet::rng_from_seed;
use knightnet::solvers::{Request, SolverKind};
use pyo3::prelude::*;

use crate::network::PyNetwork;
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

/// Seconds per step of ``Network(board, preset, seed=seed)`` over ``steps`` steps in a
/// Rust loop (the best of ``rounds`` rounds, each from a new network), without the GIL:
/// the work ``Network.step()`` does, without the call from Python.
#[pyfunction]
#[pyo3(signature = (board, preset, seed, steps, rounds = 5))]
pub fn time_steps_in_rust(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    preset: Option<String>,
    seed: u64,
    steps: u32,
    rounds: u32,
) -> PyResult<f64> {
    if !(1..=10_000_000).contains(&steps) || !(1..=100).contains(&rounds) {
        return Err(pyo3::exceptions::PyValueError::new_err(
            "steps must be 1 to 10000000 and rounds 1 to 100",
        ));
    }
    let mut best = f64::INFINITY;
    for _ in 0..rounds {
        let mut network = PyNetwork::new(
            py,
            Some(board),
            preset.clone(),
            seed,
            None,
            None,
            None,
            None,
            None,
        )?;
        let seconds = py.detach(|| {
            let t = Instant::now();
            for _ in 0..steps {
                std::hint::black_box(network.advance());
            }
            t.elapsed().as_secs_f64()
        });
        best = best.min(seconds / f64::from(steps));
    }
    Ok(best)
}

//! The native module of the `knightnet` Python package (`knightnet._knightnet`): the
//! library's typed API — boards, every solver, the tour oracle, the network stepped with
//! numpy arrays, experiments and figures — for Python. The library stays free of Python;
//! this crate only converts. Long calls run without the GIL.

mod board;
mod errors;
mod experiment;
mod figure;
mod graph_solve;
mod json;
mod network;
mod params;
mod seeds;
mod solve;
mod timing;
mod tour;

use pyo3::prelude::*;

#[pymodule]
fn _knightnet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<board::PyBoard>()?;
    m.add_class::<tour::PyTour>()?;
    m.add_class::<solve::PySolution>()?;
    m.add_class::<graph_solve::PyGraphSolution>()?;
    m.add_class::<network::PyNetwork>()?;
    m.add_class::<network::PyStepStats>()?;
    m.add_class::<network::PyAttempt>()?;
    m.add_class::<network::PyTrace>()?;
    m.add_class::<network::PyRun>()?;
    m.add_class::<network::Steps>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solver_names, m)?)?;
    m.add_function(wrap_pyfunction!(tour::is_tour, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::run_experiment, m)?)?;
    m.add_function(wrap_pyfunction!(experiment::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(timing::time_solve_in_rust, m)?)?;
    m.add_function(wrap_pyfunction!(timing::time_steps_in_rust, m)?)?;
    m.add_function(wrap_pyfunction!(seeds::trial_seed, m)?)?;
    m.add("ENGINE_VERSION", knightnet::ENGINE_VERSION)?;
    m.add("VERSION", env!("CARGO_PKG_VERSION"))?;
    m.add(
        "PRESETS",
        knightnet::network::Preset::ALL
            .iter()
            .map(|p| p.name())
            .collect::<Vec<_>>(),
    )?;
    Ok(())
}

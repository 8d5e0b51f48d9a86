//! `trial_seed`: the library's one rule for the seed of a trial, so that Python can find
//! the seed of trial `i` of an experiment cell, a `compare` or `growth` trial, or a
//! `convergence` run.

use pyo3::prelude::*;

/// The seed of trial ``trial`` (0-based) of the cell ``cell`` under the base seed
/// ``seed``, as ``knightnet experiment``, ``compare``, ``growth`` and ``convergence``
/// derive it. ``cell`` is ``"LABEL/ROWSxCOLS"``: a record's ``label`` and ``board``, or
/// for the other commands the label a spec gives the solver by default (the preset for
/// a network, e.g. ``"parberry/8x8"``; ``"merge-parberry/8x8"`` for network+merge; the
/// solver name otherwise). ``Network(board, seed=trial_seed(...))`` steps that trial's
/// attempt.
#[pyfunction]
pub fn trial_seed(seed: u64, cell: &str, trial: u64) -> u64 {
    knightnet::seeds::trial_seed(seed, cell, trial)
}

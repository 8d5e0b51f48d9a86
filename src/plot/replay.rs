//! Replaying network trials of a results folder to recover what its records do not
//! hold: the length of every cycle of a several-cycle outcome.
//!
//! A network trial is fully determined by its record and the cell it names in the
//! folder's `run.json` (seed, board, parameters, open or closed, start): the experiment
//! runner's own `Prepared::replay` reruns it bit for bit. Every replay is checked
//! against its record (every column but the timings: outcome, iterations, cycles and
//! longest cycle among them); a mismatch is bad input ([`InputError`]: the records
//! contradict their run) naming the row, never a silent skip. Replays run in parallel;
//! the result does not depend on the thread count.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::PlotError;
use crate::error::InputError;
use crate::experiment::runner::Prepared;
use crate::experiment::{Record, Spec};

/// A row the run cannot have written, as bad input.
fn bad(r: &Record, why: String) -> PlotError {
    InputError::File(format!("{}: {why}", name(r))).into()
}

/// The squares in each cycle of the final output of each trial of `rows` (network
/// trials of `spec`), longest first, in the order of `rows`. On an open-tour cell's
/// graph the component through the apex is an open path: its squares are counted, so
/// a trial's lengths always sum to the board's squares.
pub(crate) fn cycle_lengths(spec: &Spec, rows: &[&Record]) -> Result<Vec<Vec<usize>>, PlotError> {
    let mut cells: BTreeMap<usize, Prepared<'_>> = BTreeMap::new();
    for r in rows {
        let cell = spec
            .cells
            .get(r.cell)
            .ok_or_else(|| bad(r, "the run has no such cell".into()))?;
        cells
            .entry(r.cell)
            .or_insert_with(|| Prepared::new(spec, cell));
    }
    rows.par_iter()
        .map(|r| {
            let squares = spec.cells[r.cell].board.squares();
            let (again, attempt) = cells[&r.cell]
                .replay(r.trial)?
                .ok_or_else(|| bad(r, "not a network trial".into()))?;
            if again.without_timing() != r.without_timing() {
                return Err(bad(
                    r,
                    format!(
                        "the replay does not match the record: it gives {}, the record says {}",
                        ending(&again),
                        ending(r)
                    ),
                ));
            }
            let mut lengths: Vec<usize> = attempt
                .cycles
                .iter()
                .map(|c| c.iter().filter(|&&v| (v as usize) < squares).count())
                .collect();
            lengths.sort_unstable_by(|a, b| b.cmp(a));
            Ok(lengths)
        })
        .collect()
}

/// The row, as a reader finds it in `records.csv`.
fn name(r: &Record) -> String {
    format!(
        "records.csv row of cell {} ({}), trial {} (seed {})",
        r.cell, r.label, r.trial, r.seed
    )
}

/// How a trial ended, in the columns a replay is checked on.
fn ending(r: &Record) -> String {
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    format!(
        "{} after {} iterations, cycles {}, longest cycle {}, board {}, variant '{}', seed {}",
        r.outcome,
        r.iterations,
        opt(r.cycles),
        opt(r.largest_cycle),
        r.board,
        r.variant,
        r.seed
    )
}

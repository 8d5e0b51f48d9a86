//! Experiments from Python: run (or resume, or one shard of) a spec into a results
//! folder exactly as `knightnet experiment` does, and read a folder's records.
//!
//! Ctrl-C: the run goes on in a worker thread without the GIL while this thread checks
//! for signals every [`POLL`]; a `KeyboardInterrupt` sets the library's stop flag, waits
//! for the trials in flight to be recorded, and is raised again. The folder then holds
//! valid records and a summary of what finished, and `resume=True` continues it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use knightnet::error::Error;
use knightnet::experiment::spec::{self, Spec};
use knightnet::experiment::{self, Options, Quiet, Replay, Report, Shard, records};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{errors, json};

/// How often a running experiment checks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// Run `spec` (a spec file, or a built-in spec's bare name: [`load_spec`]) into `out`
/// (the CLI's defaults when `None`); returns the folder and what the run did, as a dict.
#[pyfunction]
#[pyo3(signature = (spec = None, out = None, *, threads = None, shard = None, resume = false))]
pub fn run_experiment<'py>(
    py: Python<'py>,
    spec: Option<PathBuf>,
    out: Option<PathBuf>,
    threads: Option<usize>,
    shard: Option<String>,
    resume: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let (spec_value, source) = load_spec(spec.as_deref())?;
    let shard = match &shard {
        Some(s) => s.parse::<Shard>().map_err(errors::input)?,
        None => Shard::ALL,
    };
    let threads = match threads {
        Some(n) => knightnet::check_threads(n).map_err(errors::input)?,
        None => knightnet::default_threads(),
    };
    let dir = out.unwrap_or_else(|| experiment::default_out(&spec_value.name, shard));
    let mut command = vec![
        "knightnet.experiment".to_string(),
        source.clone(),
        "--out".to_string(),
        dir.display().to_string(),
    ];
    if resume {
        command.push("--resume".into());
    }
    let opts = Options {
        out: dir.clone(),
        threads,
        shard,
        resume,
        spec_source: source,
        command,
        replay: Replay::default(),
    };
    let (report, interrupt) = run_interruptible(py, &spec_value, &opts)?;
    if let Some(e) = interrupt {
        return Err(e);
    }
    let report = report.map_err(errors::library)?;
    let d = PyDict::new(py);
    d.set_item("out", dir)?;
    d.set_item("planned", report.planned)?;
    d.set_item("already_done", report.already_done)?;
    d.set_item("ran", report.ran)?;
    d.set_item("truncated_bytes", report.truncated_bytes)?;
    d.set_item("interrupted", report.interrupted)?;
    Ok(d)
}

/// The spec to run and its origin as `run.json` records it: the built-in quickstart spec
/// when none is given, a built-in spec when `spec` is a bare name (one component, no
/// extension: `"quickstart"`), else a spec file. An unknown name is a `ValueError` listing
/// the built-in names; a missing file named like a built-in spec points to that spec.
fn load_spec(spec: Option<&Path>) -> PyResult<(Spec, String)> {
    match Spec::load(spec) {
        Ok(loaded) => Ok(loaded),
        Err(Error::Input(e)) => {
            let message = e.render(&errors::Keywords);
            Err(PyValueError::new_err(match spec {
                Some(path) if spec::built_in_name(path).is_some() => format!(
                    "{message}; a spec file is named by a path with a folder or a .toml suffix"
                ),
                Some(path) if !path.exists() => match path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .filter(|s| spec::BUILT_IN.contains(s))
                {
                    Some(name) => format!(
                        "{message}; the built-in spec of that name runs from any folder: experiment(\"{name}\")"
                    ),
                    None => message,
                },
                _ => message,
            }))
        }
        Err(e) => Err(errors::library(e)),
    }
}

/// The run in a worker thread without the GIL, this thread checking for signals; the
/// second value is the exception a signal handler raised (the run was then stopped
/// after the trials in flight).
fn run_interruptible(
    py: Python<'_>,
    spec: &Spec,
    opts: &Options,
) -> PyResult<(Result<Report, knightnet::error::Error>, Option<PyErr>)> {
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        let stop = &stop;
        s.spawn(move || {
            let report = experiment::run(spec, opts, stop, &Quiet);
            // The receiver waits until this arrives.
            let _ = tx.send(report);
        });
        let mut rx = rx;
        let mut interrupt = None;
        loop {
            let poll = if interrupt.is_some() {
                None
            } else {
                Some(POLL)
            };
            let (back, got) = py.detach(move || {
                let got = match poll {
                    Some(t) => rx.recv_timeout(t),
                    None => rx.recv().map_err(|_| mpsc::RecvTimeoutError::Disconnected),
                };
                (rx, got)
            });
            rx = back;
            match got {
                Ok(report) => return Ok((report, interrupt)),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::SeqCst);
                        interrupt = Some(e);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(pyo3::exceptions::PyRuntimeError::new_err(
                        "the experiment stopped without a report (a worker panicked)",
                    ));
                }
            }
        }
    })
}

/// The records of a results folder's `records.csv` as columns: `{name: [values]}` in
/// the file's column order (a half-written last line is ignored, as on resume).
#[pyfunction]
pub fn read_records<'py>(py: Python<'py>, out: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    let path = out.join(experiment::RECORDS);
    if !path.exists() {
        return Err(errors::input(knightnet::error::InputError::File(format!(
            "{} holds no {}; run an experiment into it first",
            out.display(),
            experiment::RECORDS
        ))));
    }
    let contents = py
        .detach(|| records::read(&path))
        .map_err(errors::library)?;
    // The geometry columns when the file has them (a spec beyond the knight).
    let names = records::columns(
        contents
            .records
            .first()
            .is_some_and(|r| !r.leaper.is_absent()),
    );
    let mut columns: Vec<Vec<serde_json::Value>> =
        vec![Vec::with_capacity(contents.records.len()); names.len()];
    for r in &contents.records {
        let row = serde_json::to_value(r).map_err(errors::internal)?;
        for (col, name) in columns.iter_mut().zip(&names) {
            col.push(row[*name].clone());
        }
    }
    let d = PyDict::new(py);
    for (name, col) in names.iter().zip(&columns) {
        let list = PyList::empty(py);
        for v in col {
            list.append(json::to_py(py, v)?)?;
        }
        d.set_item(name, list)?;
    }
    Ok(d)
}

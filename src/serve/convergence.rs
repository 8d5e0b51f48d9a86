//! The Results view's convergence data: what `knightnet convergence --out FIG` wrote
//! (`FIG.convergence.json`, what ran; `FIG.csv`, the curves; `FIG-runs.csv`, every run),
//! found in and under the folders named on the command line by the same walk as the
//! results folders ([`results::walk_folders`]).
//!
//! A file is taken for convergence data by its name (`*.convergence.json`) and then
//! checked: a JSON of at most [`MAX_INFO`] bytes whose `format` is
//! [`knightnet::plot::convergence::INFO_FORMAT`] and which reads as
//! [`ConvergenceInfo`], with both CSVs beside it, each a regular file in the same folder
//! of at most [`files::MAX_FILE`] bytes with the columns `convergence` writes. One that
//! fails is listed among the ignored with the reason. Every file is reached through
//! [`files::Folder::resolve`], the one path check of the server. The curves are sent up
//! to [`results::MAX_ROWS`] rows and the runs up to [`MAX_RUNS_SENT`] (the page says when
//! they were cut; the CSVs, `GET /api/convergence/{folder}/csv/{data|runs}`, are whole).
//!
//! A run is replayed by the Watch view as `solve --seed SEED --max-attempts 1` runs it
//! (`attempts=1`), with its configuration's preset ([`super::watch::watch_kind`]); a
//! traced run that was attempt `a` of its solve is watched with `attempts=a` (attempts 1
//! to `a`, the traced one last). Runs the Watch view cannot replay get no link, and the
//! page says why: the open graph, parameters that override their preset, boards beyond
//! the Watch view's sides, traces that record no parameters.

// Handlers answer a refusal as the `Err` of their helpers; it is built once per request.
#![allow(clippy::result_large_err)]

use std::path::{Path, PathBuf};

use axum::Json;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use knightnet::board::Board;
use knightnet::network::NetworkParams;
use knightnet::plot::convergence::{
    ConfigurationInfo, ConvergenceGraph, ConvergenceInfo, ConvergenceMode, INFO_FORMAT,
    INFO_SUFFIX, LOG_X_AFTER, RUNS_HEADER, data_header,
};
use knightnet::puzzle::watch::WatchKind;
use knightnet::solvers::SolverKind;
use serde::{Deserialize, Serialize};

use super::files::{self, Folder};
use super::results::{self, MAX_LISTED, inside, member, shown};
use super::{Shared, play, refuse, watch};

/// Largest `.convergence.json` read, in bytes (six configurations take 3 kB).
pub const MAX_INFO: u64 = 1024 * 1024;
/// Runs sent in an entry's JSON, over its configurations.
pub const MAX_RUNS_SENT: usize = 5_000;

/// Convergence data: which named folder, and the path of its `.convergence.json`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Which {
    /// The path of the `.convergence.json` inside the named folder, `/`-separated.
    pub path: String,
}

/// One entry of `GET /api/convergence`.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// The named folder's index.
    pub folder: usize,
    /// The path of its `.convergence.json` inside it.
    pub path: String,
    /// How the page names it: the named folder, then the path less `.convergence.json`.
    pub name: String,
    /// The board, as `8x8`.
    pub board: String,
    /// Runs of each configuration.
    pub runs: usize,
    /// The configurations' names.
    pub configurations: Vec<String>,
}

/// A `.convergence.json` that is not listed, and why.
#[derive(Debug, Serialize)]
pub struct Ignored {
    /// The named folder's index.
    pub folder: usize,
    /// The path inside it.
    pub path: String,
    /// Why it is not listed.
    pub why: String,
}

/// `GET /api/convergence`: the convergence data found, and the files ignored.
#[derive(Debug, Serialize)]
pub struct Listing {
    /// Convergence data, in walk order.
    pub entries: Vec<Listed>,
    /// `.convergence.json` files that failed a check, with the reason.
    pub ignored: Vec<Ignored>,
}

/// `GET /api/convergence`: every `.convergence.json` in or under the named folders.
pub async fn list(State(app): State<Shared>) -> Response {
    let folders = app.folders.clone();
    match play::with_worker(&app, move || walk(&folders)).await {
        Ok(listing) => Json(listing).into_response(),
        Err(r) => r,
    }
}

/// The convergence data in and under `folders`, checked, and what was ignored.
fn walk(folders: &[Folder]) -> Listing {
    let mut listing = Listing {
        entries: Vec::new(),
        ignored: Vec::new(),
    };
    results::walk_folders(folders, &mut |index, f, rel, names| {
        for name in names.iter().filter(|n| stem_of(n).is_some()) {
            let path = inside(rel, name);
            match open(f, &path) {
                Ok(e) => listing.entries.push(Listed {
                    folder: index,
                    name: shown(f, &inside(rel, &e.stem)),
                    path,
                    board: e.board.to_string(),
                    runs: e.info.runs,
                    configurations: e
                        .info
                        .configurations
                        .iter()
                        .map(|c| c.variant.clone())
                        .collect(),
                }),
                Err((_, why)) => listing.ignored.push(Ignored {
                    folder: index,
                    path,
                    why,
                }),
            }
            if listing.entries.len() + listing.ignored.len() >= MAX_LISTED {
                return false;
            }
        }
        true
    });
    listing
}

/// `FIG` of a file named `FIG.convergence.json`.
fn stem_of(name: &str) -> Option<&str> {
    name.strip_suffix(INFO_SUFFIX).filter(|s| !s.is_empty())
}

/// Convergence data checked: its metadata and board, and its two CSVs' real paths.
struct Entry {
    info: ConvergenceInfo,
    board: Board,
    stem: String,
    data: PathBuf,
    runs: PathBuf,
}

/// The convergence data whose `.convergence.json` is at `path` inside `f`, checked
/// (module doc), or the status and reason it is refused with.
fn open(f: &Folder, path: &str) -> Result<Entry, (StatusCode, String)> {
    let (rel, name) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = stem_of(name).ok_or_else(|| {
        (
            StatusCode::NOT_FOUND,
            format!("{name} is not convergence data: its file is named FIG{INFO_SUFFIX}"),
        )
    })?;
    f.resolve(path)
        .map_err(|(status, why)| (status, format!("{name}: {why}")))?;
    let dir = if rel.is_empty() {
        f.root.clone()
    } else {
        f.resolve(rel)
            .map_err(|(status, why)| (status, why.to_string()))?
    };
    let unusable = |why: String| (StatusCode::UNPROCESSABLE_ENTITY, why);
    let json = member(f, rel, &dir, name, MAX_INFO).map_err(unusable)?;
    let bytes = std::fs::read(&json).map_err(|e| unusable(format!("{name}: {e}")))?;
    let value: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| unusable(format!("{name} is not JSON: {e}")))?;
    if value.get("format").and_then(|v| v.as_str()) != Some(INFO_FORMAT) {
        return Err(unusable(format!(
            "{name} is not convergence data: its \"format\" is not \"{INFO_FORMAT}\""
        )));
    }
    let info: ConvergenceInfo =
        serde_json::from_value(value).map_err(|e| unusable(format!("{name} is malformed: {e}")))?;
    let board = Board::new(info.board.rows, info.board.cols)
        .map_err(|e| unusable(format!("{name}: board: {e}")))?;
    if info.configurations.is_empty() {
        return Err(unusable(format!("{name} names no configuration")));
    }
    let data = member(f, rel, &dir, &format!("{stem}.csv"), files::MAX_FILE).map_err(unusable)?;
    let runs =
        member(f, rel, &dir, &format!("{stem}-runs.csv"), files::MAX_FILE).map_err(unusable)?;
    Ok(Entry {
        info,
        board,
        stem: stem.to_string(),
        data,
        runs,
    })
}

/// A CSV file's rows, its header checked against `header`.
fn read_csv(path: &Path, header: &[String]) -> Result<Vec<Vec<String>>, String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut r = csv::Reader::from_path(path).map_err(|e| format!("{name}: {e}"))?;
    let found: Vec<String> = r
        .headers()
        .map_err(|e| format!("{name}: {e}"))?
        .iter()
        .map(String::from)
        .collect();
    if found != header {
        return Err(format!(
            "{name} has the columns {}; convergence writes {}",
            found.join(","),
            header.join(",")
        ));
    }
    r.records()
        .map(|row| {
            row.map(|row| row.iter().map(String::from).collect())
                .map_err(|e| format!("{name}: {e}"))
        })
        .collect()
}

/// One configuration as the page shows it.
#[derive(Debug, Serialize)]
pub struct ConfigurationView {
    /// Its name in the CSVs.
    pub variant: String,
    /// The preset it started from.
    pub preset: Option<String>,
    /// Its parameters, resolved.
    pub params: Option<NetworkParams>,
    /// `step` or `sweep`.
    pub unit: String,
    /// Its runs.
    pub runs: usize,
    /// Its runs that ended in a tour.
    pub tours: usize,
    /// The Watch view's query replaying its runs, less the seed.
    pub watch: Option<String>,
    /// Why its runs have no replay link, or what the link shows.
    pub replay_note: Option<String>,
}

/// One run as the page lists it.
#[derive(Debug, Serialize)]
pub struct RunView {
    /// Its configuration.
    pub configuration: String,
    /// Its number within the configuration, from 0.
    pub run: String,
    /// Its seed, as text.
    pub seed: String,
    /// How it ended.
    pub outcome: String,
    /// Its length in steps or sweeps.
    pub iterations: String,
    /// The Watch view's query that replays it, if it can.
    pub watch: Option<String>,
}

/// What `convergence.json` says, as the page shows it.
#[derive(Debug, Serialize)]
pub struct InfoView {
    /// The knightnet version that wrote it.
    pub version: String,
    /// The engine version.
    pub engine_version: u32,
    /// The git revision, if known.
    pub revision: Option<String>,
    /// Whether tracked files differed from it.
    pub dirty: Option<bool>,
    /// `runs` or `trace`.
    pub mode: ConvergenceMode,
    /// The trace file, in mode `trace`.
    pub trace_file: Option<String>,
    /// The board, as `8x8`.
    pub board: String,
    /// `knight` or `open`.
    pub graph: ConvergenceGraph,
    /// The open graph's start square.
    pub start: Option<String>,
    /// The base seed (or the traced solve's), as text.
    pub seed: String,
    /// Runs of each configuration.
    pub runs: usize,
}

/// The curves' table as sent.
#[derive(Debug, Serialize)]
pub struct TableView {
    /// Its columns.
    pub header: Vec<String>,
    /// Its first [`results::MAX_ROWS`] rows.
    pub rows: Vec<Vec<String>>,
    /// Its rows in all.
    pub total_rows: usize,
}

/// Everything the Results view shows of one convergence entry.
#[derive(Debug, Serialize)]
pub struct Detail {
    /// The named folder's index.
    pub folder: usize,
    /// The path of its `.convergence.json`.
    pub path: String,
    /// How the page names it.
    pub name: String,
    /// What ran.
    pub info: InfoView,
    /// Its configurations, in the CSVs' order.
    pub configurations: Vec<ConfigurationView>,
    /// Whether `convergence` drew its x axis on a log scale (runs longer than
    /// [`LOG_X_AFTER`] steps).
    pub log_x: bool,
    /// The curves: per configuration and step, mean, p10 and p90 of each measure.
    pub data: TableView,
    /// The first [`MAX_RUNS_SENT`] runs.
    pub runs: Vec<RunView>,
    /// The runs in all.
    pub total_runs: usize,
    /// What the page should know (another engine version, runs cut).
    pub notes: Vec<String>,
}

/// `GET /api/convergence/{folder}?path=…`: one entry's metadata, curves and runs.
pub async fn detail(
    State(app): State<Shared>,
    UrlPath(folder): UrlPath<usize>,
    Query(which): Query<Which>,
) -> Response {
    let Some(f) = app.folders.get(folder).cloned() else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    match play::with_worker(&app, move || read(&f, folder, which.path)).await {
        Ok(Ok(d)) => Json(d).into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

/// The entry at `path` inside `f`, read for the page.
fn read(f: &Folder, folder: usize, path: String) -> Result<Detail, Response> {
    let e = open(f, &path).map_err(|(status, why)| refuse(status, &why))?;
    let bad = |why: String| refuse(StatusCode::UNPROCESSABLE_ENTITY, &why);
    let data = read_csv(&e.data, &data_header()).map_err(bad)?;
    let runs = read_csv(&e.runs, &RUNS_HEADER.map(String::from)).map_err(bad)?;
    let info = &e.info;
    let known = |name: &str| info.configurations.iter().any(|c| c.variant == name);
    if let Some(row) = data.iter().chain(&runs).find(|r| !known(&r[0])) {
        return Err(bad(format!(
            "the CSVs name the configuration {}, which {}{INFO_SUFFIX} does not",
            row[0], e.stem
        )));
    }
    let mut notes = Vec::new();
    if info.engine_version != knightnet::ENGINE_VERSION {
        notes.push(format!(
            "written by engine version {}, this server's is {}: a replay may not be the recorded run",
            info.engine_version,
            knightnet::ENGINE_VERSION
        ));
    }
    let configurations: Vec<ConfigurationView> = info
        .configurations
        .iter()
        .map(|c| {
            let (watch, replay_note) = match replay_query(info, e.board, c) {
                Ok(q) => (
                    Some(q),
                    c.attempt.filter(|&a| a > 1).map(|a| {
                        format!(
                            "the run is attempt {a} of solve --seed {}: the Watch view runs attempts 1 to {a}, this one last",
                            info.seed
                        )
                    }),
                ),
                Err(why) => (None, Some(why)),
            };
            ConfigurationView {
                variant: c.variant.clone(),
                preset: c.preset.map(|p| p.name().to_string()),
                params: c.params,
                unit: c.unit.clone(),
                runs: c.runs,
                tours: c.tours,
                watch,
                replay_note,
            }
        })
        .collect();
    let total_runs = runs.len();
    if total_runs > MAX_RUNS_SENT {
        notes.push(format!(
            "the first {MAX_RUNS_SENT} of {total_runs} runs are listed; the runs CSV has them all"
        ));
    }
    let runs = runs
        .into_iter()
        .take(MAX_RUNS_SENT)
        .map(|r| {
            let query = configurations
                .iter()
                .find(|c| c.variant == r[0])
                .and_then(|c| c.watch.as_ref());
            let seed = r[2].parse::<u64>().ok();
            RunView {
                watch: query.zip(seed).map(|(q, s)| format!("{q}&seed={s}")),
                configuration: r[0].clone(),
                run: r[1].clone(),
                seed: r[2].clone(),
                outcome: r[4].clone(),
                iterations: r[5].clone(),
            }
        })
        .collect();
    let longest = data
        .iter()
        .filter_map(|r| r[1].parse::<usize>().ok())
        .max()
        .unwrap_or(0);
    Ok(Detail {
        folder,
        name: shown(
            f,
            &inside(path.rsplit_once('/').map_or("", |p| p.0), &e.stem),
        ),
        path,
        info: InfoView {
            version: info.knightnet_version.clone(),
            engine_version: info.engine_version,
            revision: info.git_revision.clone(),
            dirty: info.git_dirty,
            mode: info.mode,
            trace_file: info.trace_file.clone(),
            board: e.board.to_string(),
            graph: info.graph,
            start: info.start.clone(),
            seed: info.seed.to_string(),
            runs: info.runs,
        },
        configurations,
        log_x: longest > LOG_X_AFTER,
        data: TableView {
            header: data_header(),
            total_rows: data.len(),
            rows: data.into_iter().take(results::MAX_ROWS).collect(),
        },
        runs,
        total_runs,
        notes,
    })
}

/// The Watch view's query replaying the runs of configuration `c` less the seed, or why
/// it cannot (module doc).
fn replay_query(
    info: &ConvergenceInfo,
    board: Board,
    c: &ConfigurationInfo,
) -> Result<String, String> {
    if info.graph == ConvergenceGraph::Open {
        return Err(
            "runs on the open graph: the Watch view runs the network on the knight's graph only"
                .into(),
        );
    }
    let p = c
        .params
        .ok_or("the trace records no parameters: the Watch view cannot rebuild the network")?;
    if board.rows() > play::MAX_SIDE || board.cols() > play::MAX_SIDE {
        return Err(format!(
            "the Watch view runs boards up to {0}x{0}",
            play::MAX_SIDE
        ));
    }
    let attempts = u32::try_from(c.attempt.unwrap_or(1)).map_err(|_| "attempt out of range")?;
    let ran = NetworkParams {
        max_attempts: attempts,
        ..p
    };
    let preset = p.preset.map(|preset| NetworkParams {
        max_attempts: attempts,
        ..preset.params()
    });
    if preset != Some(ran) {
        return Err(format!(
            "{} overrides its preset's parameters, and the Watch view runs presets only",
            c.variant
        ));
    }
    let name = WatchKind::new(SolverKind::Network(p))
        .ok_or("the Watch view cannot run this network")?
        .to_string();
    let kind = watch::watch_kind(&name, Some(attempts))?;
    if kind.kind() != &SolverKind::Network(ran) {
        return Err(format!(
            "the Watch view runs {name} otherwise than {} ran",
            c.variant
        ));
    }
    Ok(format!(
        "solver={name}&rows={}&cols={}&attempts={attempts}",
        board.rows(),
        board.cols()
    ))
}

/// `GET /api/convergence/{folder}/csv/{data|runs}?path=…`: the entry's CSV file as
/// `convergence` wrote it.
pub async fn csv(
    State(app): State<Shared>,
    UrlPath((folder, which)): UrlPath<(usize, String)>,
    Query(q): Query<Which>,
) -> Response {
    let Some(f) = app.folders.get(folder).cloned() else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    let work = move || -> Result<Vec<u8>, Response> {
        let e = open(&f, &q.path).map_err(|(status, why)| refuse(status, &why))?;
        let file = match which.as_str() {
            "data" => e.data,
            "runs" => e.runs,
            _ => {
                return Err(refuse(
                    StatusCode::NOT_FOUND,
                    "no such CSV: data and runs are",
                ));
            }
        };
        std::fs::read(&file).map_err(|_| refuse(StatusCode::NOT_FOUND, "the file cannot be read"))
    };
    match play::with_worker(&app, work).await {
        Ok(Ok(bytes)) => (
            [
                (header::CONTENT_TYPE, "text/csv; charset=utf-8"),
                (header::CONTENT_DISPOSITION, "attachment"),
            ],
            bytes,
        )
            .into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

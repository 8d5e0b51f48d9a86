//! The Results view's data: the results folders under the folders named on the command
//! line, and for one of them its spec (`run.json`), its cells (`summary.json`), the
//! data of every figure `plot` draws from it (the library's own figures,
//! [`knightnet::plot::results::plan`], each as the table `plot` writes beside it) and
//! the first records of each cell the Watch view replays.
//!
//! Every file is reached through [`Folder::resolve`], the one path check of the server.
//! Bounds: the walk for results folders goes [`MAX_DEPTH`] folders deep and lists at
//! most [`MAX_LISTED`]; a records file is read only up to [`files::MAX_FILE`] bytes; a
//! figure's table is sent up to [`MAX_ROWS`] rows (the page says when it was cut; its
//! CSV, `GET /api/results/{folder}/csv/{stem}`, is whole); the work runs on one of the
//! server's [`super::WORKERS`].
//!
//! A record is replayed by the Watch view with the seed the record holds, which must be
//! the trial's seed by the experiment's rule ([`knightnet::seeds::trial_seed`]), and the
//! cell's solver exactly as the Watch view builds it from the link's query
//! ([`super::watch::watch_kind`]): a network trial is one attempt (`attempts=1`), a
//! classical trial with a random start draws it first from its stream
//! (`random_start=true`). A cell on a leaper, surface or shape links with them
//! (`leaper`, `surface`, `shape`), so the Watch view runs on its geometry. Cells the
//! Watch view cannot run as the experiment did get no links: open tours, a closed-tour
//! requirement that is not the solver's default, and graph files (no board to watch).

// Handlers answer a refusal as the `Err` of their helpers; it is built once per request.
#![allow(clippy::result_large_err)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use knightnet::experiment::spec::StartRule;
use knightnet::experiment::{Cell, RunInfo, Summary};
use knightnet::plot::data::Records;
use knightnet::plot::results::{ResultsInputs, plan};
use knightnet::plot::table::Table;
use knightnet::solvers::SolverKind;
use knightnet::target::{Target, shape_text};
use serde::{Deserialize, Serialize};

use super::files::{self, Folder};
use super::{Shared, play, refuse, watch};

/// Folders below a named folder that the walk for results folders enters.
pub const MAX_DEPTH: usize = 4;
/// Results folders listed, over all named folders.
pub const MAX_LISTED: usize = 500;
/// Directory entries the walk reads, over all named folders.
pub const MAX_VISITED: usize = 20_000;
/// Rows of a figure's table sent in the folder's JSON.
pub const MAX_ROWS: usize = 50_000;
/// Records of each cell offered for replay.
pub const REPLAYS_PER_CELL: usize = 3;
/// Largest `summary.json` read, in bytes.
pub const MAX_SUMMARY: u64 = 16 * 1024 * 1024;

/// A results folder: which named folder, and its path inside it (empty: the folder
/// itself).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Which {
    /// The path inside the named folder, `/`-separated; empty or absent: the folder.
    #[serde(default)]
    pub path: String,
}

/// One results folder as listed by `GET /api/results`.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// The named folder's index.
    pub folder: usize,
    /// The path inside it (empty: the folder itself).
    pub path: String,
    /// How the page names it: the named folder, then the path.
    pub name: String,
}

/// `GET /api/results`: every results folder (one holding `run.json` or
/// `summary.json`) in or under the named folders, in walk order.
pub async fn list(State(app): State<Shared>) -> Response {
    let folders = app.folders.clone();
    match play::with_worker(&app, move || walk(&folders)).await {
        Ok(listed) => Json(listed).into_response(),
        Err(r) => r,
    }
}

/// The results folders in and under `folders`, symbolic links to folders not entered.
fn walk(folders: &[Folder]) -> Vec<Listed> {
    let mut listed = Vec::new();
    walk_folders(folders, &mut |index, f, rel, _| {
        if [
            knightnet::experiment::RUN,
            knightnet::experiment::SUMMARY_JSON,
        ]
        .iter()
        .any(|name| f.resolve(&inside(rel, name)).is_ok())
        {
            listed.push(Listed {
                folder: index,
                name: shown(f, rel),
                path: rel.to_string(),
            });
        }
        listed.len() < MAX_LISTED
    });
    listed
}

/// How the page names the path `rel` inside `f`: the named folder, then the path.
pub(super) fn shown(f: &Folder, rel: &str) -> String {
    if rel.is_empty() {
        f.name.clone()
    } else {
        format!("{}/{rel}", f.name.trim_end_matches('/'))
    }
}

/// What [`walk_folders`] calls on each folder: the named folder's index, the named
/// folder, the path inside it and the names of its files; false stops the walk.
pub(super) type Visit<'a> = dyn FnMut(usize, &Folder, &str, &[String]) -> bool + 'a;

/// Call `visit(index, folder, rel, files)` on every folder in and under `folders`, in
/// name order, up to [`MAX_DEPTH`] deep and [`MAX_VISITED`] directory entries in all:
/// `index` is the named folder's, `rel` the path inside it (empty: the folder itself),
/// `files` the names of its entries that are not folders, sorted (hidden ones left out).
/// Symbolic links to folders are not entered. The walk stops when `visit` returns false.
pub(super) fn walk_folders(folders: &[Folder], visit: &mut Visit<'_>) {
    let mut visited = 0;
    for (index, f) in folders.iter().enumerate() {
        let mut todo = vec![(String::new(), 0)];
        while let Some((rel, depth)) = todo.pop() {
            let mut subs: Vec<String> = Vec::new();
            let mut files: Vec<String> = Vec::new();
            if let Ok(entries) = std::fs::read_dir(f.root.join(&rel)) {
                for e in entries.flatten() {
                    visited += 1;
                    if visited > MAX_VISITED {
                        return;
                    }
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.starts_with('.') {
                        continue;
                    }
                    if e.file_type().is_ok_and(|t| t.is_dir()) {
                        if depth < MAX_DEPTH {
                            subs.push(inside(&rel, &name));
                        }
                    } else {
                        files.push(name);
                    }
                }
            }
            files.sort_unstable();
            if !visit(index, f, &rel, &files) {
                return;
            }
            // Popped in name order.
            subs.sort_unstable_by(|a, b| b.cmp(a));
            todo.extend(subs.into_iter().map(|s| (s, depth + 1)));
        }
    }
}

/// `name` inside the folder at `rel` (`name` itself when `rel` is empty).
pub(super) fn inside(rel: &str, name: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{rel}/{name}")
    }
}

/// What `run.json` says of the run, as the page shows it.
#[derive(Debug, Serialize)]
pub struct RunView {
    /// The spec's name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// The base seed, as text (a JavaScript number cannot hold every `u64`).
    pub seed: String,
    /// The knightnet version that ran it.
    pub version: String,
    /// The engine version.
    pub engine_version: u32,
    /// The git revision of the source tree, if known.
    pub revision: Option<String>,
    /// Whether tracked files differed from it.
    pub dirty: Option<bool>,
    /// Where the spec came from.
    pub spec_source: String,
    /// Trials recorded and planned.
    pub trials_done: u64,
    /// Trials planned.
    pub trials_planned: u64,
}

/// One figure of the folder: its data, or why the folder has none.
#[derive(Debug, Serialize)]
pub struct FigureView {
    /// The name `plot` gives its file (`tour-rate`, `run-length`, ...).
    pub stem: &'static str,
    /// What it shows.
    pub title: &'static str,
    /// Why the folder does not support it, if it does not.
    pub skipped: Option<String>,
    /// The table's columns.
    pub header: Vec<String>,
    /// Its first [`MAX_ROWS`] rows.
    pub rows: Vec<Vec<String>>,
    /// Its rows in all.
    pub total_rows: usize,
}

/// A record the Watch view replays.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayView {
    /// The cell's index.
    pub cell: usize,
    /// The trial number.
    pub trial: u64,
    /// The trial's seed, as text.
    pub seed: String,
    /// Its recorded outcome.
    pub outcome: String,
    /// Its recorded iterations (network steps), when the file has them.
    pub iterations: Option<u64>,
    /// The Watch view's query that replays it (`solver`, `rows`, `cols`, `seed`,
    /// `start`, and `attempts` for a network).
    pub watch: String,
}

/// Everything the Results view shows of one folder.
#[derive(Debug, Serialize)]
pub struct Detail {
    /// The named folder's index.
    pub folder: usize,
    /// The path inside it.
    pub path: String,
    /// The run, from `run.json` (`None`: the folder has none or it cannot be read).
    pub run: Option<RunView>,
    /// The cells with their rates and intervals, from `summary.json`.
    pub summary: Option<Summary>,
    /// Every figure `plot` draws from the folder, in its order.
    pub figures: Vec<FigureView>,
    /// The first [`REPLAYS_PER_CELL`] records of each cell the Watch view replays.
    pub replays: Vec<ReplayView>,
    /// What could not be read, in words.
    pub notes: Vec<String>,
}

/// `GET /api/results/{folder}?path=…`: one results folder.
pub async fn detail(
    State(app): State<Shared>,
    UrlPath(folder): UrlPath<usize>,
    Query(which): Query<Which>,
) -> Response {
    let Some(f) = app.folders.get(folder).cloned() else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    let path = which.path;
    let shared = app.clone();
    match play::with_worker(&app, move || read(&shared.results, &f, folder, path)).await {
        Ok(Ok(d)) => Json(d).into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

/// `GET /api/results/{folder}/csv/{stem}?path=…`: one figure's data as the CSV `plot`
/// writes beside it.
pub async fn csv(
    State(app): State<Shared>,
    UrlPath((folder, stem)): UrlPath<(usize, String)>,
    Query(which): Query<Which>,
) -> Response {
    let Some(f) = app.folders.get(folder).cloned() else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    let path = which.path;
    let shared = app.clone();
    let work = move || -> Result<Vec<u8>, Response> {
        let dir = results_dir(&f, &path)?;
        let computed = shared.results.get(&f, &path, &dir);
        let Some((_, _, table)) = computed.figures.iter().find(|(s, _, _)| *s == stem) else {
            let why = if computed.notes.is_empty() {
                "no such figure".to_string()
            } else {
                computed.notes.join("; ")
            };
            return Err(refuse(StatusCode::NOT_FOUND, &why));
        };
        let table = table
            .as_ref()
            .map_err(|why| refuse(StatusCode::NOT_FOUND, why))?;
        let mut bytes = Vec::new();
        table.write_to(&mut bytes).map_err(|_| {
            refuse(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the table cannot be written",
            )
        })?;
        Ok(bytes)
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

/// The real folder of the results folder at `path` inside `f`: the folder holding its
/// `run.json` or, without one, its `summary.json` (each resolved by [`Folder::resolve`]).
fn results_dir(f: &Folder, path: &str) -> Result<PathBuf, Response> {
    for name in [
        knightnet::experiment::RUN,
        knightnet::experiment::SUMMARY_JSON,
    ] {
        match f.resolve(&inside(path, name)) {
            Ok(real) => {
                return real
                    .parent()
                    .map(Path::to_path_buf)
                    .ok_or_else(|| refuse(StatusCode::NOT_FOUND, "no such folder"));
            }
            Err((StatusCode::BAD_REQUEST, why)) => {
                return Err(refuse(StatusCode::BAD_REQUEST, why));
            }
            Err(_) => {}
        }
    }
    Err(refuse(
        StatusCode::NOT_FOUND,
        "not a results folder: it holds neither run.json nor summary.json",
    ))
}

/// The file `name` of the results folder at `path`, if it is a regular file of at most
/// `max` bytes lying in `dir` itself.
pub(super) fn member(
    f: &Folder,
    path: &str,
    dir: &Path,
    name: &str,
    max: u64,
) -> Result<PathBuf, String> {
    let real = f
        .resolve(&inside(path, name))
        .map_err(|(_, why)| format!("{name}: {why}"))?;
    if real.parent() != Some(dir) {
        return Err(format!("{name} is a link to another folder"));
    }
    match std::fs::metadata(&real) {
        Ok(m) if m.is_file() && m.len() <= max => Ok(real),
        Ok(m) if m.is_file() => Err(format!("{name} is larger than {max} bytes")),
        _ => Err(format!("{name} is not a regular file")),
    }
}

/// A figure's stem, title, and table (or why there is none).
type Figure = (&'static str, &'static str, Result<Table, String>);

/// What the folder's records give: every figure's table, the records to replay, and
/// notes on what could not be read.
#[derive(Debug, Default)]
pub struct Computed {
    figures: Vec<Figure>,
    replays: Vec<ReplayView>,
    notes: Vec<String>,
}

/// A folder's files as last seen: the folder, and the modification time and length of
/// its `run.json` and `records.csv`.
type Stamp = (PathBuf, Vec<Option<(std::time::SystemTime, u64)>>);

/// The [`Computed`] data of the last [`CACHED`] folders read, so that opening a folder
/// again, or downloading its figures' CSV, does not read its records again (a records
/// file of 21 MB takes seconds); an entry is read again once its files change.
#[derive(Debug, Default)]
pub struct Cache(Mutex<Vec<(Stamp, Arc<Computed>)>>);

/// Folders whose computed data the [`Cache`] keeps.
pub const CACHED: usize = 4;

impl Cache {
    /// The entries, oldest first (a panic while they were held leaves them usable).
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<(Stamp, Arc<Computed>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The computed data of the results folder `dir` (at `path` inside `f`), from the
    /// cache when its files have not changed.
    fn get(&self, f: &Folder, path: &str, dir: &Path) -> Arc<Computed> {
        let stamp: Stamp = (
            dir.to_path_buf(),
            [knightnet::experiment::RUN, knightnet::experiment::RECORDS]
                .iter()
                .map(|name| {
                    let m = std::fs::metadata(dir.join(name)).ok()?;
                    Some((m.modified().ok()?, m.len()))
                })
                .collect(),
        );
        if let Some((_, c)) = self.entries().iter().find(|(s, _)| *s == stamp) {
            return c.clone();
        }
        let c = Arc::new(compute(f, path, dir));
        let mut entries = self.entries();
        entries.retain(|(s, _)| s.0 != stamp.0);
        entries.push((stamp, c.clone()));
        if entries.len() > CACHED {
            entries.remove(0);
        }
        c
    }
}

/// Every figure of the folder with its table, the records to replay, and notes on what
/// could not be read.
fn compute(f: &Folder, path: &str, dir: &Path) -> Computed {
    let mut notes = Vec::new();
    let records = member(
        f,
        path,
        dir,
        knightnet::experiment::RECORDS,
        files::MAX_FILE,
    )
    .and_then(|p| knightnet::plot::data::load(&p).map_err(|e| e.to_string()));
    let records = match records {
        Ok(r) => r,
        Err(why) => {
            notes.push(format!("no figures: {why}"));
            return Computed {
                notes,
                ..Computed::default()
            };
        }
    };
    let source = knightnet::plot::results::source_name(dir);
    let planned = plan(ResultsInputs {
        source: &source,
        results: dir,
        records: &records,
        published: None,
        counts: None,
    });
    let figures = match planned {
        Ok(p) => p
            .into_iter()
            .map(|p| (p.stem, p.drawn, p.figure.map(|fig| fig.table())))
            .collect(),
        Err(e) => {
            notes.push(format!("no figures: {e}"));
            Vec::new()
        }
    };
    let replays = match member(f, path, dir, knightnet::experiment::RUN, u64::MAX)
        .and_then(|_| knightnet::experiment::read_run_info(dir).map_err(|e| e.to_string()))
    {
        Ok(info) => replays(&info, &records),
        Err(_) => Vec::new(),
    };
    Computed {
        figures,
        replays,
        notes,
    }
}

/// Everything the page shows of the results folder at `path` inside `f`.
fn read(cache: &Cache, f: &Folder, folder: usize, path: String) -> Result<Detail, Response> {
    let dir = results_dir(f, &path)?;
    let mut notes = Vec::new();
    let info: Option<RunInfo> = match member(f, &path, &dir, knightnet::experiment::RUN, u64::MAX)
        .and_then(|_| knightnet::experiment::read_run_info(&dir).map_err(|e| e.to_string()))
    {
        Ok(i) => Some(i),
        Err(why) => {
            notes.push(why);
            None
        }
    };
    let summary = member(
        f,
        &path,
        &dir,
        knightnet::experiment::SUMMARY_JSON,
        MAX_SUMMARY,
    )
    .and_then(|p| std::fs::read(&p).map_err(|e| format!("summary.json: {e}")))
    .and_then(|b| serde_json::from_slice::<Summary>(&b).map_err(|e| format!("summary.json: {e}")));
    let summary = match summary {
        Ok(s) => Some(s),
        Err(why) => {
            notes.push(why);
            None
        }
    };
    let computed = cache.get(f, &path, &dir);
    notes.extend(computed.notes.iter().cloned());
    Ok(Detail {
        folder,
        path,
        run: info.map(|i| RunView {
            name: i.spec.name,
            description: i.spec.description,
            seed: i.spec.seed.to_string(),
            version: i.knightnet_version,
            engine_version: i.engine_version,
            revision: i.git_revision,
            dirty: i.git_dirty,
            spec_source: i.spec_source,
            trials_done: i.trials_done,
            trials_planned: i.trials_planned,
        }),
        summary,
        figures: computed
            .figures
            .iter()
            .map(|(stem, title, table)| match table {
                Ok(t) => FigureView {
                    stem,
                    title,
                    skipped: None,
                    total_rows: t.rows.len(),
                    header: t.header.clone(),
                    rows: t.rows.iter().take(MAX_ROWS).cloned().collect(),
                },
                Err(why) => FigureView {
                    stem,
                    title,
                    skipped: Some(why.clone()),
                    header: Vec::new(),
                    rows: Vec::new(),
                    total_rows: 0,
                },
            })
            .collect(),
        replays: computed.replays.clone(),
        notes,
    })
}

/// Which trial to replay: `GET /api/results/{folder}/replay?path=…&cell=…&trial=…`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trial {
    /// The path inside the named folder (empty or absent: the folder).
    #[serde(default)]
    pub path: String,
    /// The cell's index.
    pub cell: usize,
    /// The trial number, from 0.
    pub trial: u64,
}

/// A trial the Watch view replays, named by its number.
#[derive(Debug, Serialize)]
pub struct TrialReplay {
    /// The trial's seed by the experiment's rule, as text.
    pub seed: String,
    /// The Watch view's query that replays it.
    pub watch: String,
}

/// `GET /api/results/{folder}/replay?path=…&cell=…&trial=…`: the Watch view's query
/// that replays any trial of a cell, its seed the experiment's
/// ([`knightnet::seeds::trial_seed`]), from `run.json` alone (404 for a cell or trial
/// the spec does not have, or a cell the Watch view cannot run as the experiment did).
pub async fn replay(
    State(app): State<Shared>,
    UrlPath(folder): UrlPath<usize>,
    Query(which): Query<Trial>,
) -> Response {
    let Some(f) = app.folders.get(folder).cloned() else {
        return refuse(StatusCode::NOT_FOUND, "no such folder");
    };
    let work = move || -> Result<TrialReplay, Response> {
        let dir = results_dir(&f, &which.path)?;
        let no = |why: &str| refuse(StatusCode::NOT_FOUND, why);
        member(&f, &which.path, &dir, knightnet::experiment::RUN, u64::MAX)
            .map_err(|why| no(&why))?;
        let info = knightnet::experiment::read_run_info(&dir).map_err(|e| no(&e.to_string()))?;
        let spec = &info.spec;
        let cell = spec
            .cells
            .get(which.cell)
            .ok_or_else(|| no("no such cell"))?;
        if which.trial >= cell.trials {
            return Err(no(&format!(
                "cell {} has trials 0 to {}",
                which.cell,
                cell.trials.saturating_sub(1)
            )));
        }
        let query = replay_query(cell)
            .ok_or_else(|| no("the Watch view cannot run this cell as the experiment did"))?;
        let seed = knightnet::seeds::trial_seed(spec.seed, &cell.key(), which.trial);
        Ok(TrialReplay {
            seed: seed.to_string(),
            watch: format!("{query}&seed={seed}"),
        })
    };
    match play::with_worker(&app, work).await {
        Ok(Ok(t)) => Json(t).into_response(),
        Ok(Err(r)) | Err(r) => r,
    }
}

/// The Watch view's query that runs `cell` as the experiment does, less the seed; `None`
/// when the Watch view cannot (see the module's doc).
pub fn replay_query(cell: &Cell) -> Option<String> {
    if cell.open || cell.closed.is_some() {
        return None;
    }
    // Beyond the knight's whole plane board, the Watch view's leaper, surface and shape
    // (a graph file has no board to watch on); a fixed start is a vertex there.
    let geometry = match &cell.target {
        None => None,
        Some(Target::Geometry(g)) => Some(g),
        Some(Target::File { .. }) => return None,
    };
    let start = match cell.start {
        None => "start=0".to_string(),
        Some(StartRule::Random) => "random_start=true".to_string(),
        Some(rule) => match geometry {
            None => format!("start={}", rule.fixed()?),
            Some(g) => format!("start={}", g.moves().ok()?.square(rule.fixed()?)),
        },
    };
    let attempts = match &cell.solver {
        SolverKind::Network(p) => Some(p.max_attempts),
        _ => None,
    };
    let name = knightnet::puzzle::watch::WatchKind::new(cell.solver.clone())?.to_string();
    let kind = watch::watch_kind(&name, attempts).ok()?;
    if kind.kind() != &cell.solver {
        return None;
    }
    let mut q = format!(
        "solver={name}&rows={}&cols={}&{start}",
        cell.board.rows(),
        cell.board.cols()
    );
    if let Some(a) = attempts {
        q.push_str(&format!("&attempts={a}"));
    }
    if let Some(g) = geometry {
        q.push_str(&format!("&leaper={}&surface={}", g.leaper(), g.surface()));
        if !g.shape().is_full() {
            let picture = shape_text(g).replace('/', "%0A").replace('#', "%23");
            q.push_str(&format!("&shape={picture}"));
        }
    }
    Some(q)
}

/// The first [`REPLAYS_PER_CELL`] records of each cell the Watch view replays, by trial
/// number; a record whose seed is not its trial's is left out.
fn replays(info: &RunInfo, records: &Records) -> Vec<ReplayView> {
    let spec = &info.spec;
    let mut out = Vec::new();
    for cell in &spec.cells {
        let Some(query) = replay_query(cell) else {
            continue;
        };
        let key = cell.key();
        let mut rows: Vec<_> = records
            .rows
            .iter()
            .filter(|r| r.cell == cell.index)
            .collect();
        rows.sort_by_key(|r| r.trial);
        for r in rows
            .into_iter()
            .filter(|r| r.seed == knightnet::seeds::trial_seed(spec.seed, &key, r.trial))
            .take(REPLAYS_PER_CELL)
        {
            out.push(ReplayView {
                cell: cell.index,
                trial: r.trial,
                seed: r.seed.to_string(),
                outcome: r.outcome.to_string(),
                iterations: records.iterations(r),
                watch: format!("{query}&seed={}", r.seed),
            });
        }
    }
    out
}

//! Experiments: a TOML spec of cells (solver × board) run as seeded, independent trials
//! into a results folder that can be trusted and published.
//!
//! A results folder holds
//! - `records.csv`: one row per trial, appended and flushed as trials finish
//!   (see [`records`] for the columns);
//! - `run.json`: knightnet version, git revision, the fully resolved spec, shard,
//!   machine cores, and one entry per session (start/end time, threads, trials run);
//! - `summary.json`, `summary.md`: per-cell outcome shares with 95% Wilson intervals,
//!   median/mean iterations, attempts and time per tour (see [`summary`]), written
//!   atomically after every session.
//!
//! Reproducibility rules:
//! - trial `t` of a cell draws from its own ChaCha8 stream seeded by
//!   `mix(mix(mix(base_seed) ^ fnv1a64("label/ROWSxCOLS")) ^ t)` (SplitMix64 `mix`;
//!   see [`seeds`]), so results never depend on thread count, shard or resumption;
//! - a network trial is one attempt; a classical trial is one solve (see [`runner`]);
//! - shard `i/N` runs the trials whose global number (cell by cell in spec order) is
//!   `i` mod `N`; [`merge`] joins shard folders into exactly what one run would give;
//! - `--resume` reads `records.csv` (ignoring and cutting off a half-written last line)
//!   and runs only the trials not yet recorded; a run that was complete is checked and
//!   left as it is (no file written, [`Report::already_complete`]);
//! - only columns and keys whose names end in `_ns` differ between reruns;
//! - `--resume`, [`merge`] and `stats` check every row against the spec (see [`check`]: its
//!   seed and start are recomputed, its outcome and numbers checked against each other, a
//!   sample of rows replayed) and refuse a folder holding rows the spec did not write,
//!   naming the file, line and field; they also require `run.json` and its
//!   `engine_version`, which must be this engine's;
//! - a results folder is written by one process at a time (see [`lock`]): `experiment`,
//!   `--resume` and `merge --out` hold its lock while they write, and a second process
//!   stops at once naming the holder's PID;
//! - every input is opened with [`crate::io::open_input`]: a FIFO, a device or a folder
//!   where a file should be is refused (exit 2) without blocking on it, and a resumed run
//!   checks everything it reads before it writes anything.
//!
//! Bounds: see [`spec`] for the spec's; `--threads` 1 to [`crate::MAX_THREADS`] (never more
//! threads than trials to run); shards up to [`runner::MAX_SHARDS`]. Memory does not grow
//! with the trial count (trials are produced one at a time, records go to disk, the
//! summary is a streaming tally).

pub mod check;
pub mod lock;
pub mod records;
pub mod runner;
pub use crate::seeds;
pub mod spec;
pub mod summary;

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

pub use check::Replay;
pub use records::Record;
pub use runner::Shard;
pub use spec::{Cell, Spec};
pub use summary::Summary;

use crate::error::{Error, InputError, Param, Phrase};
use crate::io::{is_input_problem, open_input, write_atomic};

/// A result whose error is the library's [`Error`](enum@Error).
pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;
use lock::FolderLock;

/// The records file of a results folder: one CSV row per trial ([`records`]).
pub const RECORDS: &str = "records.csv";
/// What ran, with which code and spec ([`RunInfo`]).
pub const RUN: &str = "run.json";
/// The summary of a results folder as JSON ([`Summary`]).
pub const SUMMARY_JSON: &str = "summary.json";
/// The summary of a results folder as Markdown tables ([`Summary::markdown`]).
pub const SUMMARY_MD: &str = "summary.md";

/// The folder that holds results folders when none is named: `results/`.
pub const RESULTS_DIR: &str = "results";

/// The results folder of `spec_name` run as `shard` when none is named:
/// `results/NAME`, or `results/NAME-shard-K-of-N` for one shard of several.
pub fn default_out(spec_name: &str, shard: Shard) -> std::path::PathBuf {
    let name = if shard.is_all() {
        spec_name.to_string()
    } else {
        format!("{spec_name}-shard-{}-of-{}", shard.index, shard.count)
    };
    std::path::Path::new(RESULTS_DIR).join(name)
}

/// The machine a session ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Cores available to the process.
    pub cores: usize,
    /// The operating system (`linux`, `macos`, ...).
    pub os: String,
    /// The CPU architecture (`x86_64`, `aarch64`, ...).
    pub arch: String,
}

impl Machine {
    /// The machine this process runs on.
    pub fn this() -> Machine {
        Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: std::env::consts::OS.into(),
            arch: std::env::consts::ARCH.into(),
        }
    }
}

/// One invocation that added records to a folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// UTC, RFC 3339.
    pub started_at: String,
    /// UTC, RFC 3339; `None` while it runs (or if it was killed).
    pub finished_at: Option<String>,
    /// Worker threads it ran on (0 for a merge).
    pub threads: usize,
    /// The shard it ran, `None` for the whole spec.
    pub shard: Option<Shard>,
    /// Trials it added.
    pub trials_run: u64,
    /// Whether it stopped before every planned trial ran.
    pub interrupted: bool,
    /// `git rev-parse HEAD` of the source tree when it ran (`None` without git).
    pub git_revision: Option<String>,
    /// Where it ran.
    pub machine: Machine,
    /// The command that started it, as the front end gave it (empty if none).
    pub command: Vec<String>,
}

impl Session {
    /// A session starting now on this machine, with no trial run yet.
    fn begin(
        threads: usize,
        shard: Option<Shard>,
        git_revision: Option<String>,
        command: Vec<String>,
    ) -> Session {
        Session {
            started_at: utc_now(),
            finished_at: None,
            threads,
            shard,
            trials_run: 0,
            interrupted: false,
            git_revision,
            machine: Machine::this(),
            command,
        }
    }
}

/// `run.json`: what ran, with which code, where and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The knightnet package version that wrote it.
    pub knightnet_version: String,
    /// [`crate::ENGINE_VERSION`] of the code that ran. Required: resuming, merging and
    /// `stats` refuse a folder of another engine version (its records would not replay).
    pub engine_version: u32,
    /// `git rev-parse HEAD` of the source tree, read at run time (`null` without git).
    pub git_revision: Option<String>,
    /// Whether tracked files differed from that revision.
    pub git_dirty: Option<bool>,
    /// Spec file path, or `built-in quickstart.toml`.
    pub spec_source: String,
    /// The fully resolved spec (every cell with its parameters).
    pub spec: Spec,
    /// `null` for a whole run (or a merge of shards).
    pub shard: Option<Shard>,
    /// Trials of the run (or shard) in the spec.
    pub trials_planned: u64,
    /// Trials `records.csv` holds.
    pub trials_done: u64,
    /// Whether every planned trial is recorded.
    pub complete: bool,
    /// Every invocation that added records, oldest first.
    pub sessions: Vec<Session>,
    /// Folders a merge read, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_from: Vec<String>,
}

/// How to run a spec.
#[derive(Debug, Clone)]
pub struct Options {
    /// The results folder ([`crate::error::Param::Out`]), created if missing.
    pub out: PathBuf,
    /// Worker threads (1 to 1024).
    pub threads: usize,
    /// The share of the trials to run ([`Shard::ALL`] for every one).
    pub shard: Shard,
    /// Continue the run `out` holds rather than refuse a folder holding one.
    pub resume: bool,
    /// The spec's origin as `run.json` records it (a path, `built-in quickstart.toml`).
    pub spec_source: String,
    /// The command line (or call) recorded in the session.
    pub command: Vec<String>,
    /// Rows of `records.csv` replayed when resuming (see [`check::Replay`]).
    pub replay: Replay,
}

impl Options {
    /// A new run into `out` on every core, the whole spec (no shard), replaying the
    /// default sample when resuming; no spec file or command line recorded.
    pub fn new(out: impl Into<PathBuf>) -> Options {
        Options {
            out: out.into(),
            threads: crate::default_threads(),
            shard: Shard::ALL,
            resume: false,
            spec_source: String::new(),
            command: Vec::new(),
            replay: Replay::default(),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// Trials of this run (or shard) in the spec.
    pub planned: u64,
    /// Trials found in `records.csv` before this session.
    pub already_done: u64,
    /// Trials this session ran.
    pub ran: u64,
    /// Bytes of a half-written last line cut off before resuming.
    pub truncated_bytes: u64,
    /// Stopped before every planned trial ran.
    pub interrupted: bool,
    /// A resumed run that was complete already (its `run.json` says so, every planned
    /// trial is in `records.csv`, both summaries are there): its rows were checked, and
    /// nothing ran and nothing was written.
    pub already_complete: bool,
    /// The summary of every trial recorded, as written to `summary.json`.
    pub summary: Summary,
}

/// Hooks for progress display.
pub trait Progress: Sync {
    /// Called once with the number of trials this session will run.
    fn start(&self, _to_run: u64) {}
    /// Called after each record is written.
    fn record(&self, _r: &Record) {}
}

/// No progress display.
pub struct Quiet;
impl Progress for Quiet {}

/// The current UTC time as RFC 3339 (`2026-11-21T18:30:00Z`).
pub(crate) fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// `git rev-parse HEAD` and dirtiness of the source tree the binary was built from,
/// falling back to the working directory; `None` when git or the tree is missing.
pub(crate) fn git_revision() -> (Option<String>, Option<bool>) {
    let git = |dir: &str, args: &[&str]| -> Option<String> {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    for dir in [env!("CARGO_MANIFEST_DIR"), "."] {
        if let Some(rev) = git(dir, &["rev-parse", "HEAD"]).filter(|r| !r.is_empty()) {
            let dirty =
                git(dir, &["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
            return (Some(rev), dirty);
        }
    }
    (None, None)
}

/// Largest `run.json` read, in bytes (a spec of the most cells and thousands of sessions
/// fit many times over).
pub(crate) const MAX_RUN_JSON_BYTES: u64 = 64 << 20;

/// An input file that could not be opened, as the error to report: bad input naming the
/// path when it is missing, a symbolic link to nothing, or not a regular file (`hint`
/// saying what is expected); the environment's failure otherwise.
fn unopened(path: &Path, e: std::io::Error, hint: &str) -> Error {
    if !is_input_problem(&e) {
        return crate::io::environment("open", path, e);
    }
    let what = match (e.kind(), std::fs::read_link(path)) {
        (std::io::ErrorKind::NotFound, Ok(target)) => format!(
            "is a symbolic link to {}, which does not exist",
            target.display()
        ),
        (std::io::ErrorKind::NotFound, Err(_)) => "is missing".to_string(),
        _ => e.to_string(),
    };
    InputError::File(format!("{} {what}; {hint}", path.display())).into()
}

/// Read `run.json` of `dir`: a folder without one is not a results folder; one that is
/// not a regular file, too large or not a knightnet run.json (`engine_version` included)
/// is bad input.
pub fn read_run_info(dir: &Path) -> Result<RunInfo> {
    use std::io::Read;
    let path = dir.join(RUN);
    let file = open_input(&path).map_err(|e| {
        let missing = matches!(
            e.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
        );
        if missing && std::fs::symlink_metadata(&path).is_err() {
            InputError::File(format!(
                "{} is not a results folder (no run.json); give a folder an experiment wrote its results into",
                dir.display()
            ))
            .into()
        } else {
            unopened(&path, e, "a results folder holds the run.json its run wrote, a regular file")
        }
    })?;
    let mut bytes = Vec::new();
    file.take(MAX_RUN_JSON_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| crate::io::environment("read", &path, e))?;
    if bytes.len() as u64 > MAX_RUN_JSON_BYTES {
        return Err(InputError::File(format!(
            "{} is larger than {MAX_RUN_JSON_BYTES} bytes; it is not a knightnet run.json",
            path.display()
        ))
        .into());
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        InputError::File(format!(
            "{} is not a knightnet run.json: {}",
            path.display(),
            spec::escaped(&e.to_string())
        ))
        .into()
    })
}

/// Refuse a folder whose `run.json` says another engine version made it: its records
/// would not replay, so they can be neither checked nor continued.
fn check_engine(dir: &Path, info: &RunInfo) -> Result<(), InputError> {
    if info.engine_version == crate::ENGINE_VERSION {
        return Ok(());
    }
    Err(InputError::File(format!(
        "{}: its records were made by engine version {}, this is version {} (seeded runs differ between them, so its rows can be neither checked nor continued); rerun the spec into a new folder",
        dir.display(),
        info.engine_version,
        crate::ENGINE_VERSION
    )))
}

/// Whether `path` names an entry in its folder (a file, a link, even one to nothing).
fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value)
        .map_err(|e| Error::Internal(format!("cannot serialize {}: {e}", path.display())))?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Write `summary.json` and `summary.md` into `dir`.
pub fn write_summary(dir: &Path, summary: &Summary) -> Result<()> {
    write_json(&dir.join(SUMMARY_JSON), summary)?;
    write_atomic(&dir.join(SUMMARY_MD), summary.markdown().as_bytes())
}

/// Refuse an output folder ([`Param::Out`]) that names something other than a folder.
fn check_out_dir(out: &Path) -> Result<()> {
    if out.exists() && !out.is_dir() {
        return Err(InputError::named(
            Phrase::new()
                .setting(Param::Out, out.display())
                .text(" is an existing file, not a folder; choose a folder for the results"),
        )
        .into());
    }
    Ok(())
}

/// Scan `path` checking every row with `check` (and handing it to `each`), then replay
/// the rows `check` kept for it.
fn scan_checked(
    path: &Path,
    check: &mut check::RowCheck,
    mut each: impl FnMut(&Record, u64),
) -> Result<records::Scan> {
    let scan = records::scan(path, |r, line, byte| {
        check.check(&r, path, line)?;
        each(&r, byte);
        Ok(())
    })?;
    check.finish(path)?;
    Ok(scan)
}

/// The `run.json` of the run in `opts.out` that this one continues (none for a new
/// run), after checking that it may: [`Param::Resume`] for a folder holding a run, whose
/// `run.json` (required beside records) names the same engine version, spec and shard.
fn earlier_run(spec: &Spec, opts: &Options) -> Result<Option<RunInfo>> {
    let out = &opts.out;
    let run_path = out.join(RUN);
    let has_records = present(&out.join(RECORDS));
    let has_run = present(&run_path);
    if (has_records || has_run) && !opts.resume {
        return Err(InputError::named(
            Phrase::new()
                .text(format!("{} already holds a run; pass ", out.display()))
                .switch(Param::Resume)
                .text(" to continue it, or choose another ")
                .param(Param::Out),
        )
        .into());
    }
    if !opts.resume || !(has_records || has_run) {
        return Ok(None);
    }
    if !has_run {
        return Err(InputError::named(
            Phrase::new()
                .text(format!(
                    "cannot resume {}: it holds records.csv but no run.json, so the engine version and spec of its records cannot be checked; restore its run.json, or start a new ",
                    out.display()
                ))
                .param(Param::Out),
        )
        .into());
    }
    let info = read_run_info(out)?;
    check_engine(out, &info).map_err(|e| InputError::File(format!("cannot resume {e}")))?;
    if let Some(d) = check::first_difference(&info.spec, spec) {
        return Err(InputError::File(format!(
            "cannot resume {}: its run.json records a different spec ({}, folder vs given); resume with the same spec",
            out.display(),
            spec::escaped(&d)
        ))
        .into());
    }
    let theirs = info.shard.unwrap_or(Shard::ALL);
    if theirs != opts.shard {
        return Err(InputError::File(format!(
            "cannot resume {}: it holds shard {theirs}, not {}",
            out.display(),
            opts.shard
        ))
        .into());
    }
    Ok(Some(info))
}

/// Run (or resume) `spec` into `opts.out`. Stops starting trials once `stop` is set.
///
/// The folder is locked first (`lock::FolderLock`: another process writing it is an
/// error naming its PID), and everything is read and checked before anything is written:
/// `run.json`, then every row of `records.csv` (with a sample replayed, see
/// [`check::Replay`]), then `records.csv` is opened for appending; only then is a torn
/// last line cut off and `run.json` rewritten.
///
/// Memory does not grow with the trials: they are produced one at a time
/// (`runner::Plan`), records go straight to `records.csv`, and the summary comes from a
/// streaming `summary::Tally`; on resume, the trials already recorded are kept as
/// ranges of trial numbers (`check::TrialSet`).
pub fn run(
    spec: &Spec,
    opts: &Options,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<Report> {
    let out = &opts.out;
    crate::check_threads(opts.threads)?;
    check_out_dir(out)?;
    let _lock = FolderLock::take(out)?;
    let records_path = out.join(RECORDS);
    let run_path = out.join(RUN);
    let earlier = earlier_run(spec, opts)?;
    let was_complete = earlier.as_ref().is_some_and(|i| i.complete);
    let mut sessions = earlier.map(|i| i.sessions).unwrap_or_default();
    let mut tally = summary::Tally::new(spec);
    let mut check = check::RowCheck::new(spec, opts.shard).replaying(opts.replay);
    let scan = if opts.resume && present(&records_path) {
        Some(scan_checked(&records_path, &mut check, |r, _| {
            tally.add(r)
        })?)
    } else {
        None
    };
    let done = check.seen;
    let already_done = done.len();
    let offsets = spec.offsets();
    let planned: u64 = spec
        .cells
        .iter()
        .map(|c| opts.shard.count_in(offsets[c.index], c.trials))
        .sum();
    let to_run = planned - already_done;
    // Never more threads than trials to run.
    let threads = opts
        .threads
        .min(usize::try_from(to_run).unwrap_or(usize::MAX))
        .max(1);

    let truncated_bytes = scan.map_or(0, |s| s.truncated);
    // A finished run resumed: its rows are checked, and there is nothing to run or write.
    if was_complete
        && to_run == 0
        && truncated_bytes == 0
        && out.join(SUMMARY_JSON).is_file()
        && out.join(SUMMARY_MD).is_file()
    {
        return Ok(Report {
            planned,
            already_done,
            ran: 0,
            truncated_bytes,
            interrupted: false,
            already_complete: true,
            summary: tally.summary(spec, opts.shard),
        });
    }

    // Everything is checked: now the writes, records.csv first (a torn last line cut off
    // before appending), so that run.json changes only once records.csv can be written.
    if let Some(scan) = &scan {
        records::repair(&records_path, scan)?;
    }
    let appender = records::Writer::append(&records_path, spec.has_targets())?;
    let (git_rev, git_dirty) = git_revision();
    sessions.push(Session::begin(
        threads,
        (!opts.shard.is_all()).then_some(opts.shard),
        git_rev.clone(),
        opts.command.clone(),
    ));
    let mut info = RunInfo {
        knightnet_version: env!("CARGO_PKG_VERSION").into(),
        engine_version: crate::ENGINE_VERSION,
        git_revision: git_rev,
        git_dirty,
        spec_source: opts.spec_source.clone(),
        spec: spec.clone(),
        shard: (!opts.shard.is_all()).then_some(opts.shard),
        trials_planned: planned,
        trials_done: already_done,
        complete: to_run == 0,
        sessions,
        merged_from: Vec::new(),
    };
    write_json(&run_path, &info)?;

    let writer = Mutex::new((appender, tally));
    progress.start(to_run);
    let is_done = |g: u64| done.contains(g);
    let mut plan = runner::Plan::new(spec, opts.shard, &is_done);
    let result = runner::run_parallel(spec, &mut plan, threads, stop, &|r: Record| {
        let mut guard = writer.lock().expect("no panics while holding");
        guard.0.write(&r)?;
        guard.1.add(&r);
        drop(guard);
        progress.record(&r);
        Ok(())
    });
    let (_, tally) = writer.into_inner().expect("no panics while holding");
    let summary = tally.summary(spec, opts.shard);
    write_summary(out, &summary)?;
    let ran = summary.trials_done - already_done;
    let interrupted = !summary.complete;
    info.trials_done = summary.trials_done;
    info.complete = summary.complete;
    if let Some(s) = info.sessions.last_mut() {
        s.finished_at = Some(utc_now());
        s.trials_run = ran;
        s.interrupted = interrupted;
    }
    write_json(&run_path, &info)?;
    result?;
    Ok(Report {
        planned,
        already_done,
        ran,
        truncated_bytes,
        interrupted,
        already_complete: false,
        summary,
    })
}

/// Join shard folders into `out`: records sorted by (cell, trial), the summary and a
/// `run.json` exactly as one run of the spec would have written them (timings and
/// sessions aside). All folders must hold the same spec, made by this engine version;
/// every row is checked (and `replay` of each folder's rows replayed, see
/// [`check::Replay`]); every trial must be present unless `partial`. `out` is locked
/// (`lock::FolderLock`) before anything is read, and written only once every folder
/// has been checked.
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    partial: bool,
    replay: Replay,
    command: Vec<String>,
) -> Result<Summary> {
    let Some(first) = dirs.first() else {
        return Err(InputError::param("merge needs at least one results folder").into());
    };
    check_merge_out(dirs, out)?;
    let _lock = FolderLock::take(out)?;
    // Another merge may have finished into `out` before the lock was free.
    check_merge_out(dirs, out)?;
    let base = read_run_info(first)?;
    check_engine(first, &base)?;
    let mut gathered = Gathered::new(&base.spec);
    for dir in dirs {
        let info = read_run_info(dir)?;
        check_engine(dir, &info)?;
        if let Some(d) = check::first_difference(&info.spec, &base.spec) {
            return Err(InputError::File(format!(
                "{} holds a different spec from {} ({}); only shards of one spec can be merged",
                dir.display(),
                first.display(),
                spec::escaped(&d)
            ))
            .into());
        }
        gathered.add(dir, info, &base.spec, replay)?;
    }
    let Gathered {
        mut rows,
        files,
        mut sessions,
        shards,
        merged_from,
        tally,
        ..
    } = gathered;
    rows.sort_unstable();
    let summary = tally.summary(&base.spec, Shard::ALL);
    if !summary.complete && !partial {
        return Err(InputError::named(incomplete(&summary, &shards)).into());
    }
    records::copy_rows(
        &out.join(RECORDS),
        base.spec.has_targets(),
        &files,
        rows.iter().map(|&(_, f, byte)| (f as usize, byte)),
    )?;
    drop(rows);
    write_summary(out, &summary)?;
    let mut session = Session::begin(0, None, git_revision().0, command);
    session.finished_at = Some(utc_now());
    sessions.push(session);
    let info = RunInfo {
        knightnet_version: base.knightnet_version.clone(),
        engine_version: base.engine_version,
        git_revision: base.git_revision.clone(),
        git_dirty: base.git_dirty,
        spec_source: base.spec_source.clone(),
        spec: base.spec.clone(),
        shard: None,
        trials_planned: summary.trials_planned,
        trials_done: summary.trials_done,
        complete: summary.complete,
        sessions,
        merged_from,
    };
    write_json(&out.join(RUN), &info)?;
    Ok(summary)
}

/// Refuse a merge's output folder ([`Param::Out`]) that is one of the folders merged, a
/// file, or a folder that already holds a run.
fn check_merge_out(dirs: &[PathBuf], out: &Path) -> Result<()> {
    for dir in dirs {
        if matches!((dir.canonicalize(), out.canonicalize()), (Ok(a), Ok(b)) if a == b) {
            return Err(InputError::named(
                Phrase::new()
                    .setting(Param::Out, out.display())
                    .text(" is one of the folders being merged; choose a new folder"),
            )
            .into());
        }
    }
    check_out_dir(out)?;
    if present(&out.join(RECORDS)) || present(&out.join(RUN)) {
        return Err(InputError::File(format!(
            "{} already holds a run; choose a new folder for the merge",
            out.display()
        ))
        .into());
    }
    Ok(())
}

/// Why a merge of `shards` whose records make `summary` is incomplete: the trials held,
/// and the missing shards when every folder is a shard of the same count.
fn incomplete(summary: &Summary, shards: &[Shard]) -> Phrase {
    let mut msg = format!(
        "the folders hold {} of the spec's {} trials",
        summary.trials_done, summary.trials_planned
    );
    if let Some(n) = shards
        .first()
        .map(|s| s.count)
        .filter(|&n| shards.iter().all(|s| s.count == n))
    {
        let missing: Vec<String> = (0..n)
            .filter(|i| !shards.iter().any(|s| s.index == *i))
            .take(10)
            .map(|i| format!("{i}/{n}"))
            .collect();
        if !missing.is_empty() {
            msg += &format!("; missing shards: {}", missing.join(", "));
        }
    }
    Phrase::new()
        .text(msg + "; finish them (resume each with ")
        .switch(Param::Resume)
        .text(") or pass ")
        .switch(Param::Partial)
}

/// What a merge gathers from its folders, one at a time.
struct Gathered {
    /// Where each row is: (global trial number, folder, byte offset): 24 bytes a row,
    /// the rows themselves stay on disk until they are copied in order.
    rows: Vec<(u64, u32, u64)>,
    files: Vec<PathBuf>,
    sessions: Vec<Session>,
    shards: Vec<Shard>,
    merged_from: Vec<String>,
    tally: summary::Tally,
    /// Trials of every folder so far, to refuse one recorded twice.
    everywhere: check::TrialSet,
    offsets: Vec<u64>,
}

impl Gathered {
    fn new(spec: &Spec) -> Gathered {
        Gathered {
            rows: Vec::new(),
            files: Vec::new(),
            sessions: Vec::new(),
            shards: Vec::new(),
            merged_from: Vec::new(),
            tally: summary::Tally::new(spec),
            everywhere: check::TrialSet::default(),
            offsets: spec.offsets(),
        }
    }

    /// Add folder `dir` (whose `run.json` is `info`), every row checked against `spec`
    /// and the folder's shard (and `replay` of them replayed); a trial another folder
    /// holds too is refused.
    fn add(&mut self, dir: &Path, info: RunInfo, spec: &Spec, replay: Replay) -> Result<()> {
        let shard = info.shard.unwrap_or(Shard::ALL);
        let path = dir.join(RECORDS);
        let mut check = check::RowCheck::new(spec, shard).replaying(replay);
        let mut twice: Option<(usize, u64)> = None;
        let folder = u32::try_from(self.files.len()).unwrap_or(u32::MAX);
        let (rows, tally, everywhere, offsets) = (
            &mut self.rows,
            &mut self.tally,
            &mut self.everywhere,
            &self.offsets,
        );
        let scan = scan_checked(&path, &mut check, |r, byte| {
            let g = offsets[r.cell] + r.trial;
            if !everywhere.insert(g) && twice.is_none() {
                twice = Some((r.cell, r.trial));
            }
            tally.add(r);
            rows.push((g, folder, byte));
        })?;
        self.files.push(path.clone());
        if let Some((cell, trial)) = twice {
            return Err(InputError::File(format!(
                "cell {cell} ({}) trial {trial} is recorded in more than one folder (again in {}); shards must be disjoint",
                spec.cells[cell].key(),
                path.display()
            ))
            .into());
        }
        if scan.truncated > 0 {
            eprintln!(
                "warning: {}: ignored a half-written last line ({} bytes)",
                path.display(),
                scan.truncated
            );
        }
        self.shards.push(shard);
        self.sessions.extend(info.sessions);
        self.merged_from.push(dir.display().to_string());
        Ok(())
    }
}

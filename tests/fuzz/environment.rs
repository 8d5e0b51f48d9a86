//! The contract when the environment, not a flag, is hostile: files that are not regular
//! files (FIFOs, devices, folders, links) where a path is read or written, address-space
//! limits below what a board needs, SIGINT and SIGTERM while a file is being written,
//! and two processes on one results folder. Each generator draws cases as the flag and
//! file generators do (`FUZZ_CASES`, the soak), and each run keeps [`keeps_contract`]
//! plus what its case adds: nothing that was not a regular file is replaced, no
//! temporary file is left behind, an interrupted run exits 130 or 143, and a folder two
//! processes raced for still reads as one run's results.

use std::os::unix::fs::FileTypeExt;

use super::*;

/// What a hostile path is, made in the scratch folder.
#[derive(Debug, Clone, Copy)]
enum Special {
    Fifo,
    /// A character device like /dev/null (made with mknod; skipped where that fails).
    Null,
    /// A character device like /dev/full: every write fails with ENOSPC.
    Full,
    Folder,
    LinkToFifo,
    /// A link to a file that does not exist.
    Dangling,
    /// A link to a regular file: written through, never replaced by a file.
    LinkToFile,
}

const SPECIALS: [Special; 7] = [
    Special::Fifo,
    Special::Null,
    Special::Full,
    Special::Folder,
    Special::LinkToFifo,
    Special::Dangling,
    Special::LinkToFile,
];

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo {path:?}");
}

/// A character device node (major, minor) at `path`; false where mknod is not allowed.
fn mknod(path: &Path, minor: u32) -> bool {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a NUL-terminated path that outlives the call; makedev is a pure
    // computation.
    unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, minor)) == 0 }
}

/// Make `special` at `path`; false where this machine does not allow it.
fn make(special: Special, path: &Path) -> bool {
    let dir = path.parent().unwrap();
    match special {
        Special::Fifo => mkfifo(path),
        Special::Null => return mknod(path, 3),
        Special::Full => return mknod(path, 7),
        Special::Folder => fs::create_dir(path).unwrap(),
        Special::LinkToFifo => {
            let target = dir.join(".fifo-target");
            mkfifo(&target);
            std::os::unix::fs::symlink(&target, path).unwrap();
        }
        Special::Dangling => std::os::unix::fs::symlink(dir.join(".missing-target"), path).unwrap(),
        Special::LinkToFile => {
            let target = dir.join(".file-target");
            fs::write(&target, b"x").unwrap();
            std::os::unix::fs::symlink(&target, path).unwrap();
        }
    }
    true
}

/// What kind of thing `path` is, without following a link.
fn kind(path: &Path) -> Option<&'static str> {
    let t = fs::symlink_metadata(path).ok()?.file_type();
    Some(if t.is_symlink() {
        "link"
    } else if t.is_fifo() {
        "fifo"
    } else if t.is_char_device() {
        "device"
    } else if t.is_dir() {
        "folder"
    } else {
        "file"
    })
}

/// Temporary files left anywhere below `dir` (the writers' `.NAME.XXXX.tmp` and the
/// like), the harness's own output files aside.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let t = e.file_type().unwrap();
            if t.is_dir() {
                stack.push(e.path());
            } else if name.contains(".tmp") && !name.starts_with(".fuzz-") {
                found.push(e.path());
            }
        }
    }
    found
}

/// A command with one hostile path in it: an input it reads or an output it writes.
/// `{P}` in an argument is the hostile path; `records` puts a results folder made from
/// [`SPEC`] at `r/` first (the hostile path then replaces one of its files).
struct PathCase {
    args: &'static [&'static str],
    /// The hostile path, relative to the scratch folder.
    path: &'static str,
    records: bool,
}

const PATH_CASES: &[PathCase] = &[
    // Inputs.
    PathCase {
        args: &["check", "{P}"],
        path: "t.txt",
        records: false,
    },
    PathCase {
        args: &["experiment", "{P}", "-q"],
        path: "s.toml",
        records: false,
    },
    PathCase {
        args: &["animate", "--trace", "{P}", "--out", "a.png"],
        path: "t.json",
        records: false,
    },
    PathCase {
        args: &["plot", "r", "--hf", "{P}", "--out", "f"],
        path: "hf.csv",
        records: true,
    },
    PathCase {
        args: &["plot", "r", "--published", "{P}", "--out", "f"],
        path: "p.csv",
        records: true,
    },
    PathCase {
        args: &["stats", "r"],
        path: "r/records.csv",
        records: true,
    },
    PathCase {
        args: &["stats", "r"],
        path: "r/run.json",
        records: true,
    },
    PathCase {
        args: &["plot", "r", "--out", "f"],
        path: "r/records.csv",
        records: true,
    },
    PathCase {
        args: &["merge", "r", "--out", "m", "-q"],
        path: "r/records.csv",
        records: true,
    },
    PathCase {
        args: &["experiment", "s.toml", "--out", "r", "--resume", "-q"],
        path: "r/records.csv",
        records: true,
    },
    PathCase {
        args: &["experiment", "s.toml", "--out", "r", "--resume", "-q"],
        path: "r/run.json",
        records: true,
    },
    // Outputs.
    PathCase {
        args: &["solve", "--board", "6x6", "--trace", "{P}"],
        path: "t.json",
        records: false,
    },
    PathCase {
        args: &[
            "solve",
            "--board",
            "6x6",
            "--solver",
            "warnsdorff",
            "--svg",
            "{P}",
        ],
        path: "s.svg",
        records: false,
    },
    PathCase {
        args: &[
            "solve",
            "--board",
            "6x6",
            "--solver",
            "warnsdorff",
            "--png",
            "{P}",
        ],
        path: "s.png",
        records: false,
    },
    PathCase {
        args: &[
            "convergence",
            "--board",
            "6x6",
            "--runs",
            "2",
            "--out",
            "{P}",
        ],
        path: "c.png",
        records: false,
    },
    PathCase {
        args: &[
            "animate",
            "--board",
            "6x6",
            "--max-attempts",
            "2",
            "--out",
            "{P}",
        ],
        path: "a.gif",
        records: false,
    },
    PathCase {
        args: &["merge", "r", "--out", "m", "-q"],
        path: "m/records.csv",
        records: true,
    },
    PathCase {
        args: &["experiment", "s.toml", "--out", "r2", "-q"],
        path: "r2/run.json",
        records: true,
    },
    PathCase {
        args: &["plot", "r", "--out", "f"],
        path: "f/tour-rate.png",
        records: true,
    },
];

fn special_paths(n: u32) {
    file_runner(n)
        .run(
            &(0..PATH_CASES.len(), prop::sample::select(SPECIALS.to_vec())),
            |(case, special)| {
                let case = &PATH_CASES[case];
                let dir = scratch();
                let d = dir.path();
                fs::write(d.join("s.toml"), SPEC).unwrap();
                if case.records {
                    let (_, records) = results();
                    results_with(d, records);
                }
                let path = d.join(case.path);
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent).unwrap();
                }
                let _ = fs::remove_file(&path);
                if !make(special, &path) {
                    count("paths", "(skipped: no mknod here)");
                    return Ok(());
                }
                let before = kind(&path);
                let args: Vec<String> = case
                    .args
                    .iter()
                    .map(|a| a.replace("{P}", case.path))
                    .collect();
                count("paths", &args[0]);
                let r = run_in(d, &args);
                let what = format!("{special:?} at {}: {:?}", case.path, r.args);
                keeps_contract(&r).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
                prop_assert_eq!(
                    kind(&path),
                    before,
                    "{} replaced what was there (exit {:?}, {})",
                    what,
                    r.code,
                    r.stderr
                );
                let left = leftovers(d);
                prop_assert!(
                    left.is_empty(),
                    "{}: temporary files left: {:?}",
                    what,
                    left
                );
                // A FIFO, a device or a folder is not a file to read or replace: the
                // user must change the path (exit 2). /dev/full as an output fails
                // like a full disk instead (exit 1); a folder where a file of a results
                // folder should be may be either.
                let not_regular = matches!(
                    special,
                    Special::Fifo | Special::Null | Special::Full | Special::LinkToFifo
                );
                // Named by the command line itself, the error says what the path is; a
                // file inside a results folder may instead be refused with the folder.
                let named = case.args.iter().any(|a| a.contains("{P}"));
                if not_regular {
                    prop_assert_eq!(r.code, Some(2), "{}: {}", what, r.stderr);
                    prop_assert!(
                        !named || r.stderr.contains("not a regular file"),
                        "{}: the error does not say what the path is: {}",
                        what,
                        r.stderr
                    );
                }
                Ok(())
            },
        )
        .unwrap();
    report("paths");
}

#[test]
fn special_paths_are_refused_or_written_through() {
    special_paths(cases(FILE_CASES));
}

/// Commands that allocate in proportion to the board, with `{N}` the side.
const MEMORY_CASES: &[&[&str]] = &[
    &[
        "solve",
        "--board",
        "{N}x{N}",
        "--solver",
        "warnsdorff",
        "--summary",
    ],
    &[
        "solve",
        "--board",
        "{N}x{N}",
        "--solver",
        "divide-conquer",
        "--summary",
    ],
    &["solve", "--board", "{N}x{N}", "--merge", "--stream"],
    &[
        "compare",
        "--board",
        "{N}x{N}",
        "--solvers",
        "warnsdorff",
        "--trials",
        "1",
    ],
    &["count", "--board", "4x{N}"],
    &["count", "--board", "8x8", "--closed", "--max-memory", "64"],
    &["experiment", "big.toml", "--out", "r", "-q"],
];

fn memory_limits(n: u32) {
    file_runner(n)
        .run(
            &(
                0..MEMORY_CASES.len(),
                prop::sample::select(vec![3000u32, 30000, 60000]),
                prop::sample::select(vec![256u64 << 20, 1 << 30, 4 << 30]),
            ),
            |(case, side, memory)| {
                let dir = scratch();
                let d = dir.path();
                fs::write(
                    d.join("big.toml"),
                    format!(
                        "name = \"big\"\nseed = 1\ntrials = 1\nboards = [\"{side}x{side}\"]\n\n[[solver]]\nsolver = \"warnsdorff\"\n"
                    ),
                )
                .unwrap();
                let args: Vec<String> = MEMORY_CASES[case]
                    .iter()
                    .map(|a| a.replace("{N}", &side.to_string()))
                    .collect();
                count("memory", &args[0]);
                let r = spawn_in(d, &args, memory).finish();
                keeps_contract(&r).map_err(|e| {
                    TestCaseError::fail(format!("under {} MiB: {e}", memory >> 20))
                })?;
                Ok(())
            },
        )
        .unwrap();
    report("memory");
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn address_space_limits_keep_the_contract() {
    memory_limits(cases(FILE_CASES) / 2);
}

/// Commands that write a file for a while, with the file they write.
const WRITING: &[(&[&str], &str)] = &[
    (
        &[
            "solve",
            "--board",
            "1500x1500",
            "--solver",
            "warnsdorff",
            "--svg",
            "s.svg",
            "--summary",
        ],
        "s.svg",
    ),
    (
        &[
            "solve",
            "--board",
            "1500x1500",
            "--solver",
            "warnsdorff",
            "--png",
            "s.png",
            "--summary",
        ],
        "s.png",
    ),
    (
        &["solve", "--board", "16x16", "--trace", "t.json"],
        "t.json",
    ),
    (&["animate", "--board", "16x16", "--out", "a.gif"], "a.gif"),
    (
        &[
            "convergence",
            "--board",
            "8x8",
            "--runs",
            "40",
            "--out",
            "c.png",
        ],
        "c.png",
    ),
    (
        &["experiment", "s.toml", "--out", "r", "-q"],
        "r/summary.json",
    ),
];

fn signals(n: u32) {
    file_runner(n)
        .run(
            &(
                0..WRITING.len(),
                prop::sample::select(vec![libc::SIGINT, libc::SIGTERM]),
                30u64..1500,
            ),
            |(case, signal, delay)| {
                let (args, file) = WRITING[case];
                let dir = scratch();
                let d = dir.path();
                fs::write(d.join("s.toml"), SPEC).unwrap();
                let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                count("signals", &args[0]);
                let started = spawn_in(d, &args, MEMORY_LIMIT);
                std::thread::sleep(Duration::from_millis(delay));
                // SAFETY: kill has no memory effects; the pid is our own child's, not yet
                // reaped (finish reaps it).
                unsafe { libc::kill(started.child.id() as libc::pid_t, signal) };
                let r = started.finish();
                let what = format!("{:?} after {delay} ms, signal {signal}", r.args);
                prop_assert!(!r.timed_out, "{}: no answer", what);
                prop_assert!(
                    matches!(r.code, Some(0) | Some(130) | Some(143)),
                    "{}: exit {:?} (done: 0, interrupted: 130 or 143): {}",
                    what,
                    r.code,
                    r.stderr
                );
                prop_assert!(!r.stderr.contains("panicked"), "{}: {}", what, r.stderr);
                let left = leftovers(d);
                prop_assert!(
                    left.is_empty(),
                    "{}: temporary files left: {:?}",
                    what,
                    left
                );
                if r.code == Some(0) {
                    prop_assert!(d.join(file).is_file(), "{}: exit 0 without {}", what, file);
                }
                Ok(())
            },
        )
        .unwrap();
    report("signals");
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn signals_during_writes_leave_no_temporary_files() {
    signals(cases(FILE_CASES) / 2);
}

/// Two commands that write one results folder, started `offset` ms apart. `r2` is a
/// folder the race spec began and was interrupted in; `m` a merge of the fuzz results.
const RACES: &[(&[&str], &[&str])] = &[
    (
        &["experiment", "s.toml", "--out", "r3", "-q"],
        &["experiment", "s.toml", "--out", "r3", "-q"],
    ),
    (
        &["experiment", "s.toml", "--out", "r2", "--resume", "-q"],
        &["experiment", "s.toml", "--out", "r2", "--resume", "-q"],
    ),
    (
        &["merge", "r", "--out", "m", "-q"],
        &["merge", "r", "--out", "m", "-q"],
    ),
];

/// The spec of the races: the fuzz spec with more trials on a larger board, so that a
/// run lasts long enough for the second process to meet it.
fn race_spec() -> String {
    SPEC.replace("trials = 4", "trials = 20000")
        .replace("[\"6x6\"]", "[\"8x8\"]")
}

/// Begin the race spec in `dir/out` and stop it with SIGINT once it has recorded a
/// trial: a folder for `--resume` to continue.
fn interrupted_run(dir: &Path, out: &str) {
    let args: Vec<String> = ["experiment", "s.toml", "--out", out, "-q", "--threads", "1"]
        .map(String::from)
        .to_vec();
    let started = spawn_in(dir, &args, MEMORY_LIMIT);
    let records = dir.join(out).join("records.csv");
    let t0 = Instant::now();
    while fs::read(&records).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) < 3 {
        assert!(t0.elapsed() < RUN_LIMIT, "no records in {records:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
    // SAFETY: kill has no memory effects; the pid is our own unreaped child's.
    unsafe { libc::kill(started.child.id() as libc::pid_t, libc::SIGINT) };
    let r = started.finish();
    assert!(
        matches!(r.code, Some(0) | Some(130)),
        "{:?}: {}",
        r.code,
        r.stderr
    );
}

fn races(n: u32) {
    file_runner(n)
        .run(&(0..RACES.len(), 0u64..40), |(case, offset)| {
            let (first, second) = RACES[case];
            let dir = scratch();
            let d = dir.path();
            let (_, records) = results();
            results_with(d, records);
            fs::write(d.join("s.toml"), race_spec()).unwrap();
            let owned = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
            let (first, second) = (owned(first), owned(second));
            if second.iter().any(|w| w == "r2") {
                interrupted_run(d, "r2");
            }
            count("races", &first[0]);
            let a = spawn_in(d, &first, MEMORY_LIMIT);
            std::thread::sleep(Duration::from_millis(offset));
            let b = spawn_in(d, &second, MEMORY_LIMIT);
            let (a, b) = (a.finish(), b.finish());
            let what = format!("{:?} and {:?} {offset} ms later", a.args, b.args);
            for r in [&a, &b] {
                keeps_contract(r).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
            }
            prop_assert!(
                a.code == Some(0) || b.code == Some(0),
                "{}: neither finished: {} / {}",
                what,
                a.stderr,
                b.stderr
            );
            // Whatever the order, the folder reads as one run's results.
            let folder = first
                .iter()
                .skip_while(|w| *w != "--out")
                .nth(1)
                .unwrap()
                .clone();
            let stats = run_in(d, &["stats".to_string(), folder]);
            prop_assert_eq!(
                stats.code,
                Some(0),
                "{}: the folder no longer reads: {}",
                what,
                stats.stderr
            );
            Ok(())
        })
        .unwrap();
    report("races");
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn two_processes_on_one_folder_leave_one_run() {
    races(cases(FILE_CASES) / 4);
}

/// Fields of a row that a replay decides, and values to put in them: each edit keeps
/// the row well formed but changes what it says.
const EDITABLE: &[&str] = &[
    "seed",
    "start",
    "outcome",
    "iterations",
    "restarts",
    "cycles",
    "largest_cycle",
    "steps",
];

const OUTCOMES: &[&str] = &["tour", "multiple-cycles", "stable-not-degree-two", "stuck"];

/// `records` with field `field` of data row `row` (0-based, modulo the rows) changed by
/// `pick`: a number moved by 1 or set to 0..9, an outcome or a start square swapped. `None` when
/// the edit would leave the field's value as it was.
fn edit_row(records: &[u8], row: usize, field: &str, pick: u64) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(records).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let header: Vec<&str> = lines[0].split(',').collect();
    let col = header.iter().position(|h| *h == field)?;
    let line = 1 + row % (lines.len() - 1);
    let mut cells: Vec<String> = lines[line].split(',').map(String::from).collect();
    let old = cells[col].clone();
    let new = match field {
        "outcome" => OUTCOMES[pick as usize % OUTCOMES.len()].to_string(),
        // Algebraic and bare, as records.csv writes a start on the fuzz spec's 6x6 board:
        // the CSV writer quotes only a field that needs it, and a reader unquotes, so
        // `"f1"` in place of `f1` is the same start and not an edit.
        "start" => format!(
            "{}{}",
            (b'a' + (pick % 6) as u8) as char,
            1 + (pick / 6) % 6
        ),
        _ => match old.parse::<u64>() {
            Ok(v) if pick.is_multiple_of(3) => (v + 1).to_string(),
            Ok(v) if pick % 3 == 1 && v > 0 => (v - 1).to_string(),
            _ => (pick % 10).to_string(),
        },
    };
    if new == old {
        return None;
    }
    cells[col] = new;
    lines[line] = cells.join(",");
    Some((lines.join("\n") + "\n").into_bytes())
}

fn edited_rows(n: u32) {
    let (_, records) = results();
    file_runner(n)
        .run(
            &(
                0usize..64,
                prop::sample::select(EDITABLE.to_vec()),
                any::<u64>(),
                0usize..3,
            ),
            |(row, field, pick, command)| {
                let Some(bytes) = edit_row(records, row, field, pick) else {
                    return Ok(());
                };
                let dir = scratch();
                results_with(dir.path(), &bytes);
                let args: Vec<String> = match command {
                    0 => vec!["stats", "r", "--replay", "all"],
                    1 => vec!["merge", "r", "--out", "m", "-q", "--replay", "all"],
                    _ => vec![
                        "experiment",
                        "s.toml",
                        "--out",
                        "r",
                        "--resume",
                        "-q",
                        "--replay",
                        "all",
                    ],
                }
                .into_iter()
                .map(String::from)
                .collect();
                count("edited rows", &args[0]);
                let r = run_in(dir.path(), &args);
                let what = format!("{field} of row {row} edited ({pick}): {:?}", r.args);
                keeps_contract(&r).map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
                prop_assert_eq!(r.code, Some(2), "{} was accepted: {}", what, r.stdout);
                prop_assert!(
                    r.stderr.contains("line "),
                    "{}: the refusal does not name the row: {}",
                    what,
                    r.stderr
                );
                Ok(())
            },
        )
        .unwrap();
    report("edited rows");
}

#[test]
fn edited_rows_are_refused_under_a_full_replay() {
    edited_rows(cases(FILE_CASES));
}

/// The fields of every row of `records` as a CSV reader reads them (quotes removed).
fn csv_fields(records: &[u8]) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(records)
        .records()
        .map(|r| r.unwrap().iter().map(String::from).collect())
        .collect()
}

/// Every edit [`edit_row`] makes changes the value a reader gets from the field it
/// edits, and nothing else: each row, each editable field, picks that reach every start
/// square, every outcome and every way of changing a number.
#[test]
fn row_edits_change_the_value_of_their_field() {
    let (_, records) = results();
    let before = csv_fields(records);
    let header = &before[0];
    for row in 0..before.len() - 1 {
        for &field in EDITABLE {
            let col = header.iter().position(|h| h == field).unwrap();
            for pick in 0..72 {
                let Some(bytes) = edit_row(records, row, field, pick) else {
                    continue;
                };
                let after = csv_fields(&bytes);
                assert_eq!(after.len(), before.len(), "{field} of row {row} ({pick})");
                for (line, (a, b)) in before.iter().zip(&after).enumerate() {
                    for (c, (x, y)) in a.iter().zip(b).enumerate() {
                        let edited = line == row + 1 && c == col;
                        assert_eq!(
                            x != y,
                            edited,
                            "{field} of row {row} ({pick}): column {} of line {} is {x:?}, then {y:?}",
                            header[c],
                            line + 1
                        );
                    }
                }
            }
        }
    }
}

/// The soak's share of these generators.
pub(crate) fn soak(n: impl Fn(u32) -> u32) {
    special_paths(n(FILE_CASES));
    memory_limits(n(FILE_CASES) / 2);
    signals(n(FILE_CASES) / 2);
    races(n(FILE_CASES) / 4);
    edited_rows(n(FILE_CASES));
}

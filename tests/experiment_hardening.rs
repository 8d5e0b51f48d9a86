//! Experiments under hostile input: huge trial counts run in bounded memory, results
//! folders refuse rows their spec did not write, shard and thread counts are bounded,
//! failed writes leave no temporary files, oversized specs are refused, bad files exit 2,
//! and every network record replays through `knightnet solve`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{knightnet, refused};
use knightnet::experiment::{records, runner, Shard, Spec};

const SMALL: &str = r#"
name = "small"
seed = 6
trials = 40
boards = ["6x6"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "warnsdorff:roth"
start = "random"
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Run `experiment SPEC --out OUT --quiet EXTRA...`, which must succeed.
fn run(spec: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec!["experiment", s(spec), "--out", s(out), "--quiet"];
    args.extend_from_slice(extra);
    let o = knightnet(&args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Run the binary with resource limits (`setrlimit` in the child), killing it after a
/// minute (a hang detector); returns its exit status, stdout and stderr.
#[cfg(target_os = "linux")]
fn run_limited(
    args: &[&str],
    limits: &[(libc::__rlimit_resource_t, u64)],
) -> (ExitStatus, Vec<u8>, String) {
    use std::io::Read;
    let mut cmd = common::limited_command(limits);
    cmd.args(args).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let (mut so, mut se) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = String::new();
        let _ = se.read_to_string(&mut v);
        v
    });
    let st = common::wait_at_most(&mut child, Duration::from_secs(60));
    (st, out.join().unwrap(), err.join().unwrap())
}

/// [`run_limited`] of a command that must be refused as bad input: exit 2, nothing on
/// stdout, one line on stderr. Returns the line.
#[cfg(target_os = "linux")]
fn refused_limited(args: &[&str], limits: &[(libc::__rlimit_resource_t, u64)]) -> String {
    let (st, out, err) = run_limited(args, limits);
    assert_eq!(st.code(), Some(2), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    err
}

/// Item: a billion-trial spec starts at once in bounded memory (the trial list was built
/// in memory before), records go to disk, and Ctrl-C stops it with valid results.
#[cfg(target_os = "linux")]
#[test]
fn a_billion_trials_run_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(
        tmp.path(),
        "huge.toml",
        "name = \"huge\"\ntrials = 1000000000\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff:roth\"\nstart = \"corner\"\n",
    );
    let out = tmp.path().join("out");
    // 768 MiB of address space: the binary, its threads and heap fit many times over;
    // a list of 10^9 trials (16 GB) or their records do not.
    let mut cmd = common::limited_command(&[(libc::RLIMIT_AS, 768 << 20)]);
    cmd.args([
        "experiment",
        s(&spec),
        "--out",
        s(&out),
        "--threads",
        "1",
        "--quiet",
    ])
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    // Wait for some thousands of records, then Ctrl-C.
    let records = out.join("records.csv");
    let t0 = Instant::now();
    loop {
        let len = std::fs::metadata(&records).map_or(0, |m| m.len());
        if len > 400_000 {
            break;
        }
        if let Some(st) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            panic!("the run ended before Ctrl-C ({st}): {err}");
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "no records after 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: a signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let st = common::wait_at_most(&mut child, Duration::from_secs(60));
    assert_eq!(st.code(), Some(130), "interrupted runs exit 130");
    let c = records::read(&records).unwrap();
    assert!(c.records.len() > 1000, "{}", c.records.len());
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["trials_planned"], 1_000_000_000u64);
    assert_eq!(summary["trials_done"], c.records.len() as u64);
}

/// A finished run of SMALL (seed 6) in `dir`.
fn small_run(tmp: &Path, dir: &str, seed: u64) -> (PathBuf, PathBuf) {
    let spec = write(
        tmp,
        &format!("small-{seed}.toml"),
        &SMALL.replace("seed = 6", &format!("seed = {seed}")),
    );
    let out = tmp.join(dir);
    run(&spec, &out, &["--threads", "2"]);
    (spec, out)
}

/// Item: resume checks every row against the spec: rows of another seed, an unknown
/// outcome, an edited seed or an iteration count above the cap are refused naming the
/// file and line (they were accepted and counted before).
#[test]
fn resume_refuses_rows_its_spec_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, six) = small_run(tmp.path(), "six", 6);
    let spec5 = write(
        tmp.path(),
        "five.toml",
        &SMALL.replace("seed = 6", "seed = 5"),
    );
    let text = std::fs::read_to_string(six.join("records.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut case = 0;
    let mut try_resume = |body: String, needles: &[&str]| {
        case += 1;
        let dir = tmp.path().join(format!("case-{case}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("records.csv"), body).unwrap();
        let err = refused(&[
            "experiment",
            s(&spec5),
            "--out",
            s(&dir),
            "--resume",
            "--quiet",
        ]);
        assert!(err.contains("records.csv, line "), "{err}");
        for n in needles {
            assert!(err.contains(n), "'{err}' lacks '{n}'");
        }
        // Nothing appended to the refused folder.
        assert!(!dir.join("run.json").exists());
    };
    // The seed-6 rows under the seed-5 spec.
    let half = lines[..41].join("\n") + "\n";
    try_resume(half, &["line 2", "seed", "base seed 5"]);

    // Rows of the seed-5 spec, one edited at a time.
    let (_, five) = small_run(tmp.path(), "five", 5);
    let text = std::fs::read_to_string(five.join("records.csv")).unwrap();
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let edit = |col: &str, f: &dyn Fn(&str) -> String| -> String {
        let i = records::COLUMNS.iter().position(|c| *c == col).unwrap();
        let mut out = lines[..3].to_vec();
        // Edit the first network row after line 3 (cell 0).
        let mut fields: Vec<String> = lines[3].split(',').map(str::to_string).collect();
        assert_eq!(fields[1], "0");
        fields[i] = f(&fields[i]);
        out.push(fields.join(","));
        out.join("\n") + "\n"
    };
    try_resume(
        edit("outcome", &|_| "foo".into()),
        &["line 4", "outcome 'foo'"],
    );
    try_resume(
        edit("seed", &|x| (x.parse::<u64>().unwrap() ^ 1).to_string()),
        &["line 4", "seed"],
    );
    try_resume(
        edit("iterations", &|_| "1000000".into()),
        &["line 4", "iterations 1000000"],
    );
    try_resume(
        edit("trial", &|t| if t == "39" { "38" } else { "39" }.into()),
        &["line 4", "seed"],
    );
    // Unedited, the rows resume fine.
    let dir = tmp.path().join("fine");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("records.csv"), lines[..4].join("\n") + "\n").unwrap();
    run(&spec5, &dir, &["--resume"]);
    assert_eq!(
        records::read(&dir.join("records.csv"))
            .unwrap()
            .records
            .len(),
        80
    );
}

/// Items: a shard of another seed is refused by name of the differing key; a shard whose
/// rows are foreign to its run.json is refused naming the file and line.
#[test]
fn merge_refuses_foreign_shards_and_names_what_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let spec6 = write(tmp.path(), "six.toml", SMALL);
    let spec5 = write(
        tmp.path(),
        "five.toml",
        &SMALL.replace("seed = 6", "seed = 5"),
    );
    let a = tmp.path().join("a");
    let b = tmp.path().join("b");
    run(&spec6, &a, &["--shard", "0/2"]);
    run(&spec5, &b, &["--shard", "1/2"]);
    let out = tmp.path().join("m");
    let err = refused(&["merge", s(&a), s(&b), "--out", s(&out)]);
    assert!(err.contains("seed: 5 vs 6"), "{err}");
    // Shard 1/2 of seed 6 with the rows of seed 5 in it.
    let c = tmp.path().join("c");
    run(&spec6, &c, &["--shard", "1/2"]);
    std::fs::copy(b.join("records.csv"), c.join("records.csv")).unwrap();
    let err = refused(&["merge", s(&a), s(&c), "--out", s(&out)]);
    assert!(
        err.contains(&format!("{}, line 2", c.join("records.csv").display())),
        "{err}"
    );
    assert!(err.contains("base seed 6"), "{err}");
    assert!(!out.join("records.csv").exists());
}

/// Item: shard counts are bounded (they overflowed into the wrong trials before).
#[test]
fn shard_counts_are_bounded_and_never_overflow() {
    // (--out in a temporary folder, so a regression writes nothing into the tree.)
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let err = refused(&[
        "experiment",
        "--shard",
        "5/18446744073709551615",
        "--quiet",
        "--out",
        s(&out),
    ]);
    assert!(err.contains("1000000"), "{err}");
    refused(&[
        "experiment",
        "--shard",
        "0/1000001",
        "--quiet",
        "--out",
        s(&out),
    ]);
    // The library's shard arithmetic holds for any count.
    let spec = Spec::parse(SMALL, "small", "small.toml").unwrap();
    for count in [u64::MAX, u64::MAX - 1, 1 << 63, 50, 7] {
        let offsets = spec.offsets();
        let mut total = 0;
        for index in [0, 5, 39, 40, 79].into_iter().filter(|&i| i < count) {
            let sh = Shard { index, count };
            let part = runner::plan(&spec, sh, &|_, _| false);
            let planned: u64 = spec
                .cells
                .iter()
                .map(|c| sh.count_in(offsets[c.index], c.trials))
                .sum();
            assert_eq!(planned, part.len() as u64, "{sh}");
            for &(c, t) in &part {
                assert!(sh.contains(offsets[c] + t), "{sh}: {c}/{t}");
            }
            if count > 80 {
                // Exactly the one trial whose global number is the index.
                assert_eq!(part.len(), usize::from(index < 80), "{sh}");
            }
            total += part.len();
        }
        assert!(total <= 80);
    }
}

/// Item: a failed write names the final file and leaves no temporary file behind.
#[test]
fn a_failed_summary_write_names_the_file_and_leaves_no_temporary() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(tmp.path(), "small.toml", SMALL);
    let out = tmp.path().join("out");
    // summary.json is a non-empty folder: writing it fails after the records are written.
    std::fs::create_dir_all(out.join("summary.json")).unwrap();
    std::fs::write(out.join("summary.json").join("x"), "x").unwrap();
    let o = knightnet(&["experiment", s(&spec), "--out", s(&out), "--quiet"]);
    let err = String::from_utf8_lossy(&o.stderr);
    // A target that is not a regular file is the input to change (issue #26: exit 2,
    // by the rule every writer follows; it was 1).
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is a directory, not a regular file"), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write {}",
            out.join("summary.json").display()
        )),
        "{err}"
    );
    let left: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

/// Item: spec files are read with a size bound (`/dev/zero` was read without end; the
/// address-space limit keeps a regression from eating the machine's memory).
#[cfg(target_os = "linux")]
#[test]
fn spec_files_are_size_bounded() {
    let err = refused_limited(
        &["experiment", "/dev/zero", "--quiet"],
        &[(libc::RLIMIT_AS, 512 << 20)],
    );
    assert!(
        err.contains("spec files are limited to 1048576 bytes"),
        "{err}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let bin_spec = tmp.path().join("bin.toml");
    std::fs::write(&bin_spec, b"name = \"\xff\xfe\"\n").unwrap();
    let err = refused(&["experiment", s(&bin_spec), "--quiet"]);
    assert!(err.contains("UTF-8"), "{err}");
}

/// Item: the number of entries and cells is bounded, checked before work.
#[test]
fn spec_entries_and_cells_are_bounded() {
    let entry = |i: usize| format!("[[solver]]\nsolver = \"warnsdorff:roth\"\nlabel = \"w{i}\"\n");
    let head = "trials = 1\nboards = [\"6x6\"]\n";
    let tmp = tempfile::tempdir().unwrap();
    let many: String = (0..1001).map(entry).collect();
    let p = write(tmp.path(), "many.toml", &format!("{head}{many}"));
    let err = refused(&[
        "experiment",
        s(&p),
        "--quiet",
        "--out",
        s(&tmp.path().join("x")),
    ]);
    assert!(err.contains("at most 1000"), "{err}");
    // 1000 entries on 11 boards: 11,000 cells.
    let boards: Vec<String> = (0..11)
        .map(|k| format!("\"{}x{}\"", 6 + 2 * k, 6 + 2 * k))
        .collect();
    let entries: String = (0..1000).map(entry).collect();
    let p = write(
        tmp.path(),
        "cells.toml",
        &format!("trials = 1\nboards = [{}]\n{entries}", boards.join(", ")),
    );
    let err = refused(&[
        "experiment",
        s(&p),
        "--quiet",
        "--out",
        s(&tmp.path().join("x")),
    ]);
    assert!(err.contains("at most 10000"), "{err}");
    // 1000 entries on one board are accepted (and checked in linear time).
    let p = write(tmp.path(), "ok.toml", &format!("{head}{entries}"));
    let spec = Spec::from_file(&p).unwrap();
    assert_eq!(spec.cells.len(), 1000);
}

/// Item: bad files and folders are bad input (exit 2, one line naming the path).
#[test]
fn bad_results_files_exit_2_naming_the_path() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, six) = small_run(tmp.path(), "six", 6);
    // Binary records.csv under a valid run.json.
    let junk = tmp.path().join("junk");
    std::fs::create_dir(&junk).unwrap();
    std::fs::copy(six.join("run.json"), junk.join("run.json")).unwrap();
    std::fs::write(
        junk.join("records.csv"),
        b"\xff\xfe\x00garbage\x80\n\x81\x82,\n",
    )
    .unwrap();
    let err = refused(&[
        "experiment",
        s(&spec),
        "--out",
        s(&junk),
        "--resume",
        "--quiet",
    ]);
    assert!(err.contains("records.csv"), "{err}");
    let out = tmp.path().join("m");
    let err = refused(&["merge", s(&junk), "--out", s(&out), "--quiet"]);
    assert!(err.contains("records.csv"), "{err}");
    // A header, then a row that is not UTF-8.
    let header = records::COLUMNS.join(",");
    let mut bytes = format!("{header}\n").into_bytes();
    bytes.extend(b"small,0,\xff\xfe,6x6,network:parberry,parberry,0,1,,tour,1,0,1,36,,,,5,,\n");
    std::fs::write(junk.join("records.csv"), bytes).unwrap();
    let err = refused(&["merge", s(&junk), "--out", s(&out), "--quiet"]);
    assert!(err.contains("records.csv, line 2"), "{err}");
    // A binary run.json.
    std::fs::write(junk.join("run.json"), b"\xff\xfe\x00{\n").unwrap();
    let err = refused(&["merge", s(&junk), "--out", s(&out), "--quiet"]);
    assert!(err.contains("run.json"), "{err}");
    let err = refused(&[
        "experiment",
        s(&spec),
        "--out",
        s(&junk),
        "--resume",
        "--quiet",
    ]);
    assert!(err.contains("run.json"), "{err}");
    // A run.json whose cells were edited into values that do not parse or do not fit
    // together: refused naming the file and the cell (the typed cells are read once,
    // with the file; nothing re-parses them later).
    let text = std::fs::read_to_string(six.join("run.json")).unwrap();
    std::fs::copy(six.join("records.csv"), junk.join("records.csv")).unwrap();
    for (from, to) in [
        ("\"board\": \"6x6\"", "\"board\": \"six\""),
        ("\"start\": \"random\"", "\"start\": \"z99\""),
        (
            "\"solver\": \"warnsdorff:roth\"",
            "\"solver\": \"warnsdorff:sideways\"",
        ),
        (
            "\"solver\": \"network:parberry\"",
            "\"solver\": \"network:brant\"",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        std::fs::write(junk.join("run.json"), text.replacen(from, to, 1)).unwrap();
        for args in [
            vec!["merge", s(&junk), "--out", s(&out), "--quiet"],
            vec!["stats", s(&junk)],
        ] {
            let err = refused(&args);
            assert!(
                err.contains("run.json") && err.contains("cell ") && !err.contains("panicked"),
                "{to}: {err}"
            );
        }
    }
    // A shard without records.csv.
    let bare = tmp.path().join("bare");
    std::fs::create_dir(&bare).unwrap();
    std::fs::copy(six.join("run.json"), bare.join("run.json")).unwrap();
    let err = refused(&["merge", s(&bare), "--out", s(&out), "--quiet"]);
    assert!(
        err.contains(&bare.join("records.csv").display().to_string()),
        "{err}"
    );
    // --out naming an existing file.
    let file = write(tmp.path(), "a-file", "x");
    let err = refused(&["experiment", s(&spec), "--out", s(&file), "--quiet"]);
    assert!(err.contains("a-file"), "{err}");
    let err = refused(&["merge", s(&six), "--out", s(&file), "--quiet"]);
    assert!(err.contains("a-file"), "{err}");
}

/// Item: --threads is bounded, and the pool never has more threads than trials. (The
/// process limit keeps a regression from spawning 100,000 threads.)
#[cfg(target_os = "linux")]
#[test]
fn threads_are_bounded_by_the_flag_and_the_trials() {
    let few = [(libc::RLIMIT_NPROC, 64)];
    let tmp = tempfile::tempdir().unwrap();
    let never = tmp.path().join("never");
    for n in ["100000", "1025", "0"] {
        let err = refused_limited(
            &["experiment", "--threads", n, "--quiet", "--out", s(&never)],
            &few,
        );
        assert!(err.contains("1 to 1024"), "{err}");
    }
    assert!(!never.exists());
    let spec = write(
        tmp.path(),
        "three.toml",
        "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff:roth\"\n",
    );
    let out = tmp.path().join("out");
    run(&spec, &out, &["--threads", "64"]);
    let info: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("run.json")).unwrap()).unwrap();
    assert_eq!(info["sessions"][0]["threads"], 3);
}

/// Item: every network record replays with the documented one-line command, including a
/// cell that overrides its preset (the square-sweep order).
#[test]
fn square_sweep_records_replay_through_solve() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(
        tmp.path(),
        "sweep.toml",
        "seed = 3\ntrials = 12\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\nlabel = \"parberry-square-sweep\"\norder = \"square-sweep\"\n[[solver]]\nsolver = \"network:brant\"\ntrials = 4\n",
    );
    let out = tmp.path().join("out");
    run(&spec, &out, &[]);
    let recs = records::read(&out.join("records.csv")).unwrap().records;
    assert_eq!(recs.len(), 16);
    let mut kinds = std::collections::BTreeSet::new();
    for r in &recs {
        // knightnet solve --board BOARD --variant VARIANT --seed SEED --max-attempts 1
        let board = r.board.to_string();
        let mut args = vec!["solve", "--board", &board, "--variant"];
        args.extend(r.variant.split(' '));
        let seed = r.seed.to_string();
        args.extend(["--seed", &seed, "--max-attempts", "1", "--format", "json"]);
        let o = knightnet(&args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|_| panic!("{args:?}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(v["outcome"], r.outcome.name(), "{args:?}");
        assert_eq!(v["iterations"], r.iterations, "{args:?}");
        kinds.insert(r.outcome);
    }
    assert!(recs
        .iter()
        .any(|r| r.variant == "parberry --order square-sweep"));
    assert!(kinds.len() > 1, "{kinds:?}");
}

/// Merge copies the shards' rows as they are (not re-serialised from memory), in
/// (cell, trial) order, after the header.
#[test]
fn merge_copies_the_rows_in_order() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(tmp.path(), "small.toml", SMALL);
    let mut shard_lines = Vec::new();
    let mut dirs = Vec::new();
    for i in 0..3 {
        let d = tmp.path().join(format!("s{i}"));
        run(&spec, &d, &["--shard", &format!("{i}/3")]);
        let text = std::fs::read_to_string(d.join("records.csv")).unwrap();
        shard_lines.extend(text.lines().skip(1).map(str::to_string));
        dirs.push(d);
    }
    let out = tmp.path().join("m");
    let mut args = vec!["merge"];
    args.extend(dirs.iter().map(|d| s(d)));
    args.extend(["--out", s(&out), "--quiet"]);
    assert!(knightnet(&args).status.success());
    let merged = std::fs::read_to_string(out.join("records.csv")).unwrap();
    let mut lines = merged.lines();
    assert_eq!(lines.next().unwrap(), records::COLUMNS.join(","));
    let merged: Vec<String> = lines.map(str::to_string).collect();
    let key = |l: &String| {
        let f: Vec<&str> = l.split(',').collect();
        (f[1].parse::<u64>().unwrap(), f[6].parse::<u64>().unwrap())
    };
    let mut want = shard_lines.clone();
    want.sort_by_key(key);
    assert_eq!(merged, want);
    assert_eq!(merged.len(), 80);
}

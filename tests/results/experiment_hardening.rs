//! Experiments under hostile input: huge trial counts run in bounded memory, results
//! folders refuse rows their spec did not write, shard and thread counts are bounded,
//! failed writes leave no temporary files, oversized specs are refused, bad files exit 2,
//! and every network record replays through `knightnet solve`.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::common::{knightnet, refused};
use knightnet::experiment::{Shard, Spec, records, runner};

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

/// Item (issue #26, signals): a second Ctrl-C while an experiment stops after its trials
/// in flight ends it at once with exit 130 and no temporary file left (it was the
/// default action before: killed by the signal, with no exit code, any temporary file of
/// a summary being written left behind). A first and a second Ctrl-C a millisecond apart,
/// at several moments of the run.
#[cfg(target_os = "linux")]
#[test]
fn a_second_ctrl_c_ends_the_run_with_130_and_no_temporary_file() {
    for wait_for_bytes in [1u64, 20_000, 200_000] {
        let tmp = tempfile::tempdir().unwrap();
        let spec = write(
            tmp.path(),
            "long.toml",
            "name = \"long\"\ntrials = 100000000\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff:roth\"\nstart = \"corner\"\n",
        );
        let out = tmp.path().join("out");
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args(["experiment", s(&spec), "--out", s(&out), "--quiet"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let records = out.join("records.csv");
        let t0 = Instant::now();
        while std::fs::metadata(&records).map_or(0, |m| m.len()) < wait_for_bytes {
            assert!(t0.elapsed() < Duration::from_secs(60), "no records");
            std::thread::sleep(Duration::from_millis(2));
        }
        for _ in 0..2 {
            // SAFETY: a signal to our own child, not yet reaped.
            unsafe {
                libc::kill(child.id() as i32, libc::SIGINT);
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let st = common::wait_at_most(&mut child, Duration::from_secs(60));
        assert_eq!(st.code(), Some(130), "after {wait_for_bytes} bytes: {st}");
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
    }
}

/// The three commands that read a results folder `dir` made from `spec`:
/// `experiment --resume`, `merge` (into `merged`) and `stats`.
fn readers<'a>(spec: &'a Path, dir: &'a Path, merged: &'a Path) -> [Vec<&'a str>; 3] {
    [
        vec![
            "experiment",
            s(spec),
            "--out",
            s(dir),
            "--resume",
            "--quiet",
        ],
        vec!["merge", s(dir), "--out", s(merged), "--quiet"],
        vec!["stats", s(dir)],
    ]
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
/// file and line (they were accepted and counted before). (Since issue #26 a folder
/// needs its run.json to be resumed: each case holds that of the seed-5 run.)
#[test]
fn resume_refuses_rows_its_spec_did_not_write() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, six) = small_run(tmp.path(), "six", 6);
    let (spec5, five) = small_run(tmp.path(), "five", 5);
    let run_json = std::fs::read(five.join("run.json")).unwrap();
    let text = std::fs::read_to_string(six.join("records.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut case = 0;
    let mut try_resume = |body: String, needles: &[&str]| {
        case += 1;
        let dir = tmp.path().join(format!("case-{case}"));
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("records.csv"), body).unwrap();
        std::fs::write(dir.join("run.json"), &run_json).unwrap();
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
        // Nothing written to the refused folder.
        assert_eq!(std::fs::read(dir.join("run.json")).unwrap(), run_json);
    };
    // The seed-6 rows under the seed-5 spec.
    let half = lines[..41].join("\n") + "\n";
    try_resume(half, &["line 2", "seed", "base seed 5"]);

    // Rows of the seed-5 spec, one edited at a time.
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
    std::fs::write(dir.join("run.json"), &run_json).unwrap();
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
/// address-space limit keeps a regression from eating the machine's memory). Since
/// issue #26 a device is refused before it is read, as not a regular file; a regular
/// file one byte over the bound is refused by the bound.
#[cfg(target_os = "linux")]
#[test]
fn spec_files_are_size_bounded() {
    let err = refused_limited(
        &["experiment", "/dev/zero", "--quiet"],
        &[(libc::RLIMIT_AS, 512 << 20)],
    );
    assert!(err.contains("is a character device"), "{err}");
    let tmp = tempfile::tempdir().unwrap();
    let big = write(
        tmp.path(),
        "big.toml",
        &format!("# {}\n", "x".repeat(1 << 20)),
    );
    let err = refused_limited(
        &["experiment", s(&big), "--quiet"],
        &[(libc::RLIMIT_AS, 512 << 20)],
    );
    assert!(
        err.contains("spec files are limited to 1048576 bytes"),
        "{err}"
    );
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
    assert!(
        recs.iter()
            .any(|r| r.variant == "parberry --order square-sweep")
    );
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

// ---------------------------------------------------------------------------------------
// Issue #26: results folders owned by one process, rows checked for what a row can prove,
// and inputs that are not regular files.

/// The lock file a process writing a results folder holds (its PID inside).
const LOCK: &str = ".lock";

/// Start the binary with `args`, its output discarded.
fn spawn(args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Wait until `child` holds the lock of `dir` (its PID is in the lock file): a condition
/// polled with a generous bound, not a timing.
fn wait_for_lock(dir: &Path, child: &mut std::process::Child) {
    let want = format!("{}\n", child.id());
    let t0 = Instant::now();
    loop {
        if std::fs::read_to_string(dir.join(LOCK)).is_ok_and(|t| t == want) {
            return;
        }
        if let Some(st) = child.try_wait().unwrap() {
            panic!(
                "the first process ended ({st}) before it was seen holding {}",
                dir.display()
            );
        }
        assert!(
            t0.elapsed() < Duration::from_secs(120),
            "process {} did not lock {} within two minutes",
            child.id(),
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Send `signal` to `child`.
#[cfg(unix)]
fn signal(child: &std::process::Child, signal: libc::c_int) {
    // SAFETY: kill() on the PID of a child this test started and has not reaped.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
}

/// A second process on a held folder: exit 1, nothing on stdout, one line naming the
/// folder and the holder's PID.
#[cfg(target_os = "linux")]
fn assert_busy(args: &[&str], dir: &Path, holder: u32) {
    let (st, out, err) = run_limited(args, &[]);
    assert_eq!(st.code(), Some(1), "{args:?}: {err}");
    assert!(out.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(
        err.contains(&dir.display().to_string()) && err.contains(&format!("process {holder}")),
        "{args:?}: '{err}' names neither the folder nor PID {holder}"
    );
}

/// Every row of `dir/records.csv` is a distinct trial, `summary.json` counts them all,
/// and `stats` accepts the folder.
fn assert_recorded_once(dir: &Path) -> usize {
    let recs = records::read(&dir.join("records.csv")).unwrap().records;
    let trials: std::collections::BTreeSet<(usize, u64)> =
        recs.iter().map(|r| (r.cell, r.trial)).collect();
    assert_eq!(
        trials.len(),
        recs.len(),
        "{}: a trial recorded twice",
        dir.display()
    );
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["trials_done"], recs.len() as u64);
    let o = knightnet(&["stats", s(dir)]);
    assert!(
        o.status.success(),
        "stats {}: {}",
        dir.display(),
        String::from_utf8_lossy(&o.stderr)
    );
    recs.len()
}

/// Case 1: a results folder is written by one process at a time. A second `experiment`
/// or `experiment --resume` on a folder another process is writing exits 1 at once
/// naming the folder and the holder's PID (before: both ran, every trial was recorded
/// twice and the folder could not be read again); a lock left by a killed process does
/// not block.
#[cfg(target_os = "linux")]
#[test]
fn a_results_folder_is_written_by_one_process_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    // Long enough to be running while the second process starts; stopped by Ctrl-C.
    let spec = write(
        tmp.path(),
        "long.toml",
        "name = \"long\"\ntrials = 100000000\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff:roth\"\nstart = \"corner\"\n",
    );
    let out = tmp.path().join("out");
    let first = [
        "experiment",
        s(&spec),
        "--out",
        s(&out),
        "--threads",
        "1",
        "--quiet",
    ];
    let mut a = spawn(&first);
    wait_for_lock(&out, &mut a);
    assert_busy(&first, &out, a.id());
    let resume = [&first[..], &["--resume"][..]].concat();
    assert_busy(&resume, &out, a.id());
    // Let it record some trials (a condition with a generous bound), then Ctrl-C.
    let header = records::COLUMNS.join(",").len() as u64 + 1;
    let t0 = Instant::now();
    while std::fs::metadata(out.join("records.csv")).map_or(0, |m| m.len()) <= header {
        assert!(t0.elapsed() < Duration::from_secs(120), "no trial recorded");
        std::thread::sleep(Duration::from_millis(5));
    }
    signal(&a, libc::SIGINT);
    assert_eq!(
        common::wait_at_most(&mut a, Duration::from_secs(120)).code(),
        Some(130)
    );
    let before = assert_recorded_once(&out);
    assert!(before > 0);
    // Two resumes: the second is refused while the first runs.
    let mut a = spawn(&resume);
    wait_for_lock(&out, &mut a);
    assert_busy(&resume, &out, a.id());
    signal(&a, libc::SIGINT);
    assert_eq!(
        common::wait_at_most(&mut a, Duration::from_secs(120)).code(),
        Some(130)
    );
    assert!(assert_recorded_once(&out) >= before);
    // Killed while holding the lock: its lock file stays, and does not block.
    let mut a = spawn(&resume);
    wait_for_lock(&out, &mut a);
    signal(&a, libc::SIGKILL);
    a.wait().unwrap();
    let dead = a.id();
    assert_eq!(
        std::fs::read_to_string(out.join(LOCK)).unwrap(),
        format!("{dead}\n")
    );
    let mut a = spawn(&resume);
    wait_for_lock(&out, &mut a);
    signal(&a, libc::SIGINT);
    assert_eq!(
        common::wait_at_most(&mut a, Duration::from_secs(120)).code(),
        Some(130)
    );
    assert_recorded_once(&out);
    // A finished run removes its lock file.
    assert!(!out.join(LOCK).exists());
}

/// Case 1, started at once: of two runs of one spec into one new folder, at most one
/// runs (the other is refused as busy, or finds the run already there); of two resumes,
/// the trials still end up recorded once.
#[test]
fn two_runs_started_at_once_record_every_trial_once() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(tmp.path(), "small.toml", SMALL);
    for round in 0..3 {
        let out = tmp.path().join(format!("out-{round}"));
        let args = [
            "experiment",
            s(&spec),
            "--out",
            s(&out),
            "--quiet",
            "--threads",
            "1",
        ];
        let (mut a, mut b) = (spawn(&args), spawn(&args));
        let codes = [
            common::wait_at_most(&mut a, Duration::from_secs(120)).code(),
            common::wait_at_most(&mut b, Duration::from_secs(120)).code(),
        ];
        assert_eq!(
            codes.iter().filter(|c| **c == Some(0)).count(),
            1,
            "round {round}: {codes:?}"
        );
        assert!(codes.iter().all(|c| matches!(c, Some(0..=2))), "{codes:?}");
        assert_eq!(assert_recorded_once(&out), 80);
        // Cut the records back to their first 20 rows, then resume twice at once.
        let path = out.join("records.csv");
        let text = std::fs::read_to_string(&path).unwrap();
        let head: Vec<&str> = text.lines().take(21).collect();
        std::fs::write(&path, head.join("\n") + "\n").unwrap();
        let resume = [&args[..], &["--resume"][..]].concat();
        let (mut a, mut b) = (spawn(&resume), spawn(&resume));
        let codes = [
            common::wait_at_most(&mut a, Duration::from_secs(120)).code(),
            common::wait_at_most(&mut b, Duration::from_secs(120)).code(),
        ];
        assert!(codes.contains(&Some(0)), "{codes:?}");
        assert!(codes.iter().all(|c| matches!(c, Some(0 | 1))), "{codes:?}");
        assert_eq!(assert_recorded_once(&out), 80);
    }
}

/// Case 1 for merge: a second `merge` into an `--out` another merge is writing exits 1
/// naming the holder (before: both wrote the folder).
#[cfg(target_os = "linux")]
#[test]
fn a_second_merge_into_one_folder_is_refused_while_the_first_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(
        tmp.path(),
        "net.toml",
        "name = \"net\"\nseed = 3\ntrials = 20000\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\n",
    );
    let (a_dir, b_dir) = (tmp.path().join("a"), tmp.path().join("b"));
    run(&spec, &a_dir, &["--shard", "0/2"]);
    run(&spec, &b_dir, &["--shard", "1/2"]);
    let out = tmp.path().join("merged");
    // Replaying every row keeps the first merge busy while it is stopped and watched.
    let args = [
        "merge",
        s(&a_dir),
        s(&b_dir),
        "--out",
        s(&out),
        "--quiet",
        "--replay",
        "all",
    ];
    let mut first = spawn(&args);
    wait_for_lock(&out, &mut first);
    signal(&first, libc::SIGSTOP);
    assert_busy(&args, &out, first.id());
    signal(&first, libc::SIGCONT);
    assert_eq!(
        common::wait_at_most(&mut first, Duration::from_secs(300)).code(),
        Some(0)
    );
    assert_eq!(assert_recorded_once(&out), 20000);
    assert!(!out.join(LOCK).exists());
}

/// A spec of a network cell and a Warnsdorff cell with random ties and random starts,
/// run into `tmp/NAME`.
const EDITS: &str = r#"
name = "edits"
seed = 9
trials = 40
boards = ["6x6"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "warnsdorff:random"
start = "random"
"#;

/// A copy of results folder `from` in `tmp/name` with `edit` applied to the fields of
/// the first row (by line) `pick` chooses; returns the folder and the row's line number.
fn edited_copy(
    from: &Path,
    tmp: &Path,
    name: &str,
    pick: &dyn Fn(&[String]) -> bool,
    edit: &dyn Fn(&mut Vec<String>),
) -> (PathBuf, usize) {
    let dir = tmp.join(name);
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(from.join("run.json"), dir.join("run.json")).unwrap();
    let text = std::fs::read_to_string(from.join("records.csv")).unwrap();
    let mut line = 0;
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        let mut fields: Vec<String> = l.split(',').map(str::to_string).collect();
        if i > 0 && line == 0 && pick(&fields) {
            edit(&mut fields);
            line = i + 1;
        }
        out += &fields.join(",");
        out.push('\n');
    }
    assert!(line > 0, "{name}: no row to edit");
    std::fs::write(dir.join("records.csv"), out).unwrap();
    (dir, line)
}

/// The index of column `name` in records.csv.
fn col(name: &str) -> usize {
    records::COLUMNS.iter().position(|c| *c == name).unwrap()
}

/// `--resume`, `merge` and `stats` on `dir` all refuse it (exit 2, one line) naming the
/// file, `line` and every one of `needles`; the resume writes nothing.
fn assert_all_refuse(spec: &Path, dir: &Path, line: usize, needles: &[&str], extra: &[&str]) {
    let run_json = std::fs::read(dir.join("run.json")).unwrap();
    let records_csv = std::fs::read(dir.join("records.csv")).unwrap();
    let merged = dir.with_extension("merged");
    let at = format!("{}, line {line}:", dir.join("records.csv").display());
    let mut resume = vec![
        "experiment",
        s(spec),
        "--out",
        s(dir),
        "--resume",
        "--quiet",
    ];
    let mut merge = vec!["merge", s(dir), "--out", s(&merged), "--quiet"];
    let mut stats = vec!["stats", s(dir)];
    for args in [&mut resume, &mut merge, &mut stats] {
        args.extend_from_slice(extra);
        let err = refused(args);
        assert!(err.contains(&at), "{args:?}: '{err}' lacks '{at}'");
        for n in needles {
            assert!(err.contains(n), "{args:?}: '{err}' lacks '{n}'");
        }
    }
    assert_eq!(std::fs::read(dir.join("run.json")).unwrap(), run_json);
    assert_eq!(std::fs::read(dir.join("records.csv")).unwrap(), records_csv);
    assert!(!merged.exists());
}

/// Case 2: rows edited with care are refused by `--resume`, `merge` and `stats` naming
/// the file, the line and the field (all were accepted before): an outcome flipped
/// between `tour` and `multiple-cycles`, iterations changed by one, a tour with 3
/// cycles or a longest cycle of 4, a Warnsdorff tour of 3 steps on 6x6, a random start
/// that is not its seed's first draw.
#[test]
fn rows_edited_with_care_are_refused_naming_line_and_field() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(tmp.path(), "edits.toml", EDITS);
    let good = tmp.path().join("good");
    run(&spec, &good, &["--threads", "2"]);
    let network = |outcome: &'static str| {
        move |f: &[String]| f[col("solver")] == "network:parberry" && f[col("outcome")] == outcome
    };
    let walk_tour =
        |f: &[String]| f[col("solver")] == "warnsdorff:random" && f[col("outcome")] == "tour";
    type Edit = Box<dyn Fn(&mut Vec<String>)>;
    let set = |column: &'static str, value: &'static str| -> Edit {
        Box::new(move |f: &mut Vec<String>| f[col(column)] = value.to_string())
    };
    type Pick = Box<dyn Fn(&[String]) -> bool>;
    let cases: Vec<(&str, Pick, Edit, Vec<&str>)> = vec![
        (
            "tour-to-cycles",
            Box::new(network("tour")),
            set("outcome", "multiple-cycles"),
            vec!["outcome 'multiple-cycles'", "cycles 1"],
        ),
        (
            "cycles-to-tour",
            Box::new(network("multiple-cycles")),
            set("outcome", "tour"),
            vec!["outcome 'tour'", "cycles"],
        ),
        (
            "iterations",
            Box::new(|f: &[String]| {
                f[col("outcome")] == "multiple-cycles"
                    && f[col("iterations")].parse::<u64>().unwrap() < 500
            }),
            Box::new(|f: &mut Vec<String>| {
                let i = col("iterations");
                f[i] = (f[i].parse::<u64>().unwrap() + 1).to_string();
            }),
            vec!["iterations is", "replay"],
        ),
        (
            "three-cycles",
            Box::new(network("tour")),
            set("cycles", "3"),
            vec!["cycles 3"],
        ),
        (
            "largest-4",
            Box::new(network("tour")),
            set("largest_cycle", "4"),
            vec!["largest_cycle 4"],
        ),
        (
            "steps-3",
            Box::new(walk_tour),
            set("steps", "3"),
            vec!["steps 3"],
        ),
        (
            "start",
            Box::new(walk_tour),
            Box::new(|f: &mut Vec<String>| {
                let i = col("start");
                f[i] = if f[i] == "c3" { "d4" } else { "c3" }.to_string();
            }),
            vec!["start is", "first draw"],
        ),
    ];
    for (name, pick, edit, needles) in &cases {
        let (dir, line) = edited_copy(&good, tmp.path(), name, pick.as_ref(), edit.as_ref());
        assert_all_refuse(&spec, &dir, line, needles, &[]);
    }
    // The unedited folder passes all three, replaying every row.
    for args in [
        vec!["stats", s(&good), "--replay", "all"],
        vec![
            "experiment",
            s(&spec),
            "--out",
            s(&good),
            "--resume",
            "--quiet",
            "--replay",
            "all",
        ],
    ] {
        let o = knightnet(&args);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// Case 2: a sample of rows is replayed by default (the 100 with the smallest seeds),
/// every row with `--replay all`: an edited row outside the sample passes the default
/// and is refused by `--replay all`, one inside it is refused by default.
#[test]
fn a_sample_of_rows_is_replayed_by_default_and_all_on_request() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(
        tmp.path(),
        "many.toml",
        "name = \"many\"\nseed = 2\ntrials = 300\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\n",
    );
    let good = tmp.path().join("good");
    run(&spec, &good, &["--threads", "2"]);
    let recs = records::read(&good.join("records.csv")).unwrap().records;
    // Rows whose iterations can grow by one without passing the cap.
    let mut seeds: Vec<u64> = recs
        .iter()
        .filter(|r| r.iterations < 1000)
        .map(|r| r.seed)
        .collect();
    seeds.sort_unstable();
    let plus_one = |f: &mut Vec<String>| {
        let i = col("iterations");
        f[i] = (f[i].parse::<u64>().unwrap() + 1).to_string();
    };
    let (smallest, largest) = (seeds[0].to_string(), seeds[seeds.len() - 1].to_string());
    let (inside, line) = edited_copy(
        &good,
        tmp.path(),
        "inside",
        &|f: &[String]| f[col("seed")] == smallest,
        &plus_one,
    );
    assert_all_refuse(&spec, &inside, line, &["iterations is"], &[]);
    let (outside, line) = edited_copy(
        &good,
        tmp.path(),
        "outside",
        &|f: &[String]| f[col("seed")] == largest,
        &plus_one,
    );
    let o = knightnet(&["stats", s(&outside)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_all_refuse(
        &spec,
        &outside,
        line,
        &["iterations is"],
        &["--replay", "all"],
    );
    let err = refused(&["stats", s(&good), "--replay", "some"]);
    assert!(err.contains("--replay") && err.contains("all"), "{err}");
}

/// Case 2: `plot`'s replay mismatch is bad input (exit 2), as the records contradict
/// their run (it exited 1 before).
#[test]
fn plots_replay_mismatch_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write(tmp.path(), "edits.toml", EDITS);
    let good = tmp.path().join("good");
    run(&spec, &good, &[]);
    let (dir, _) = edited_copy(
        &good,
        tmp.path(),
        "edited",
        &|f: &[String]| f[col("outcome")] == "multiple-cycles",
        &|f: &mut Vec<String>| {
            let i = col("iterations");
            f[i] = (f[i].parse::<u64>().unwrap() + 1).to_string();
        },
    );
    let figs = tmp.path().join("figs");
    let err = refused(&["plot", s(&dir), "--out", s(&figs)]);
    assert!(err.contains("does not match the record"), "{err}");
    // The figures drawn before it are not reported on stdout (refused checks that).
}

/// Case 3: `engine_version` is required and checked by `--resume`, `merge` and `stats`
/// (before: deleting run.json let `--resume` skip the check, and `stats` never made it).
#[test]
fn engine_version_is_required_and_checked_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, six) = small_run(tmp.path(), "six", 6);
    let text = std::fs::read_to_string(six.join("run.json")).unwrap();
    let copy = |name: &str, run_json: Option<String>| {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::copy(six.join("records.csv"), dir.join("records.csv")).unwrap();
        if let Some(t) = run_json {
            std::fs::write(dir.join("run.json"), t).unwrap();
        }
        dir
    };
    // No run.json beside the records: resume refuses (it ran on before).
    let bare = copy("bare", None);
    let err = refused(&[
        "experiment",
        s(&spec),
        "--out",
        s(&bare),
        "--resume",
        "--quiet",
    ]);
    assert!(err.contains("no run.json"), "{err}");
    assert!(!bare.join("run.json").exists());
    let line = format!("  \"engine_version\": {},\n", knightnet::ENGINE_VERSION);
    assert!(text.contains(&line));
    for (name, run_json, needle) in [
        (
            "missing",
            text.replace(&line, ""),
            "engine_version".to_string(),
        ),
        (
            "old",
            text.replace(&line, "  \"engine_version\": 1,\n"),
            "engine version 1".to_string(),
        ),
    ] {
        let dir = copy(name, Some(run_json));
        let merged = tmp.path().join(format!("{name}-merged"));
        for args in readers(&spec, &dir, &merged) {
            let err = refused(&args);
            assert!(err.contains(&needle), "{args:?}: {err}");
        }
    }
}

/// Case 4: a dangling `records.csv` symlink is refused (exit 2) before anything is
/// written (before: `--resume` rewrote run.json, then failed with exit 1).
#[cfg(unix)]
#[test]
fn a_dangling_records_link_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, six) = small_run(tmp.path(), "six", 6);
    let dir = tmp.path().join("dangling");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(six.join("run.json"), dir.join("run.json")).unwrap();
    std::os::unix::fs::symlink(
        tmp.path().join("nowhere/records.csv"),
        dir.join("records.csv"),
    )
    .unwrap();
    let before = std::fs::read(dir.join("run.json")).unwrap();
    let err = refused(&[
        "experiment",
        s(&spec),
        "--out",
        s(&dir),
        "--resume",
        "--quiet",
    ]);
    assert!(
        err.contains("symbolic link") && err.contains("does not exist"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("run.json")).unwrap(), before);
    // Without --resume it is a run already there, not a file to create through the link.
    refused(&["experiment", s(&spec), "--out", s(&dir), "--quiet"]);
    assert!(!tmp.path().join("nowhere").exists());
}

/// Case 5: a records file whose lines end in CR is refused (exit 2) by `--resume`,
/// `merge` and `stats`, not read as one half-written line and recomputed; bytes after
/// the last line that cannot be the start of a line are refused too.
#[test]
fn only_the_last_line_can_be_torn() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, six) = small_run(tmp.path(), "six", 6);
    let text = std::fs::read_to_string(six.join("records.csv")).unwrap();
    for (name, body, needle) in [
        ("cr", text.replace('\n', "\r"), "end in CR, not LF"),
        ("junk", "not a records file".to_string(), "records header"),
    ] {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        std::fs::copy(six.join("run.json"), dir.join("run.json")).unwrap();
        std::fs::write(dir.join("records.csv"), &body).unwrap();
        let merged = tmp.path().join(format!("{name}-merged"));
        for args in readers(&spec, &dir, &merged) {
            let err = refused(&args);
            assert!(
                err.contains(needle) && err.contains("records.csv"),
                "{args:?}: {err}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(dir.join("records.csv")).unwrap(),
            body
        );
    }
    // A torn last line is still cut off and its trial run again.
    let dir = tmp.path().join("torn");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(six.join("run.json"), dir.join("run.json")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(
        dir.join("records.csv"),
        lines[..30].join("\n") + "\n" + &lines[30][..20],
    )
    .unwrap();
    run(&spec, &dir, &["--resume"]);
    assert_eq!(assert_recorded_once(&dir), 80);
}

/// Make a FIFO at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// Case 6: a FIFO, a device or a folder where the experiment layer reads a file is
/// refused at once (exit 2, naming what it is) instead of hanging: `records.csv` under
/// `--resume`, `merge`, `stats` and `plot`, `run.json`, and the spec. (Each run is
/// killed after a minute, a hang detector.)
#[cfg(target_os = "linux")]
#[test]
fn inputs_that_are_not_regular_files_are_refused_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let (spec, six) = small_run(tmp.path(), "six", 6);
    let fifo_spec = tmp.path().join("spec.fifo");
    mkfifo(&fifo_spec);
    let err = refused_limited(&["experiment", s(&fifo_spec), "--quiet"], &[]);
    assert!(err.contains("is a FIFO, not a regular file"), "{err}");
    let err = refused_limited(&["experiment", "/dev/null", "--quiet"], &[]);
    assert!(
        err.contains("is a character device, not a regular file"),
        "{err}"
    );
    for (name, file, make) in [
        ("records-fifo", "records.csv", "fifo"),
        ("records-dir", "records.csv", "dir"),
        ("records-dev", "records.csv", "dev"),
        ("run-fifo", "run.json", "fifo"),
    ] {
        let dir = tmp.path().join(name);
        std::fs::create_dir(&dir).unwrap();
        for f in ["run.json", "records.csv"] {
            if f != file {
                std::fs::copy(six.join(f), dir.join(f)).unwrap();
            }
        }
        let path = dir.join(file);
        let words = match make {
            "fifo" => {
                mkfifo(&path);
                "is a FIFO, not a regular file"
            }
            "dir" => {
                std::fs::create_dir(&path).unwrap();
                "is a directory, not a regular file"
            }
            _ => {
                std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
                "is a character device, not a regular file"
            }
        };
        let merged = tmp.path().join(format!("{name}-merged"));
        let figs = tmp.path().join(format!("{name}-figs"));
        let mut runs = readers(&spec, &dir, &merged).to_vec();
        if file == "records.csv" {
            runs.push(vec!["plot", s(&dir), "--out", s(&figs)]);
        }
        for args in runs {
            let err = refused_limited(&args, &[]);
            assert!(
                err.contains(words) && err.contains(&path.display().to_string()),
                "{args:?}: {err}"
            );
        }
        assert!(!merged.exists());
    }
}

/// Case 7: a spec value holding a newline or another control character is shown escaped
/// on the one line of the error (it was folded into '; ' or split the line before), and
/// labels may not hold control characters.
#[test]
fn spec_values_in_errors_stay_on_one_line() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    for (name, text, needle) in [
        (
            "label",
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\nlabel = \"a\\nb\"\n",
            "label = \"a\\nb\"",
        ),
        (
            "label-cr",
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\nlabel = \"a\\rb\"\n",
            "label = \"a\\rb\"",
        ),
        (
            "name",
            "name = \"x\\ny\"\ntrials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\n",
            "name = \"x\\ny\"",
        ),
        (
            "solver",
            "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"warns\\ndorff\"\n",
            "warns\\ndorff",
        ),
        (
            "board",
            "trials = 1\nboards = [\"q\\n6x6\"]\n[[solver]]\nsolver = \"warnsdorff\"\n",
            "q\\n6x6",
        ),
    ] {
        let p = write(tmp.path(), &format!("{name}.toml"), text);
        let err = refused(&["experiment", s(&p), "--out", s(&out), "--quiet"]);
        assert!(err.contains(needle), "{name}: '{err}' lacks '{needle}'");
        assert!(!err.contains('\r'), "{name}: {err:?}");
    }
    assert!(!out.exists());
}

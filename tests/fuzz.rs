//! The bad-input contract, fuzzed. Generated bad values go to every flag of every
//! subcommand (read from the binary's own `--help`, so a new flag is covered the day it is
//! added), and generated malformed text goes to every file parser (spec, records, trace,
//! tour). Each run is a child process in a scratch folder with a time limit and an
//! address-space limit, and must keep the promise: exit 0, 1 or 2 (never a signal, a
//! panic or exit 101), nothing on stdout when refused, one line on stderr when it fails,
//! and no hang. Values that no parser can accept (symbols, numbers past 64 bits, empty
//! text) must be refused with exit 2 by a message that names the flag.
//!
//! The number of generated cases is `FUZZ_CASES` per subcommand (for each flag
//! generator) and per file parser (defaults: 12 per subcommand, 40 per parser; about 15
//! seconds for the whole file on two cores); each test writes the number it ran, per
//! subcommand or parser, to stderr (uncaptured, so CI logs show it).
//! A longer soak, twenty times the cases: `cargo test --release --test fuzz by_hand_soak -- --ignored`.
//!
//! The environment generators (`fuzz/environment.rs`) add what a flag cannot reach:
//! FIFOs, devices, folders and links where a file is read or written; address-space
//! limits below what a board needs; SIGINT and SIGTERM while a file is written; two
//! processes on one results folder.
//!
//! Failures that belong to open cases elsewhere are listed in [`KNOWN_OPEN`], each
//! relaxing one check for one generator and command; delete an entry once its fix is in.

mod common;
#[cfg(unix)]
#[path = "fuzz/environment.rs"]
mod environment;

use std::collections::BTreeMap;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// How long one run may take before it counts as a hang.
const RUN_LIMIT: Duration = Duration::from_secs(30);
/// Address space a run may reserve (a run past it aborts, which the contract forbids).
const MEMORY_LIMIT: u64 = 4 << 30;

/// Open cases in other areas that this suite finds, each as (generator, target, what is
/// wrong), the target a subcommand or `subcommand --flag`: for that generator and
/// target only, the check the description starts with is relaxed ("exit 1": exit 1 is
/// let pass; "hang": the case is not run, as it would only wait out the time limit).
/// Delete an entry once the fix is merged; the suite then holds it again.
const KNOWN_OPEN: &[(&str, &str, &str)] = &[];

/// Whether `check` is relaxed for `generator` and `sub` by an entry of [`KNOWN_OPEN`].
fn known_open(generator: &str, sub: &str, check: &str) -> bool {
    KNOWN_OPEN
        .iter()
        .any(|(g, s, what)| *g == generator && *s == sub && what.starts_with(check))
}

/// Count one generated case of `test` under `key` (a subcommand or a parser).
fn count(test: &str, key: &str) {
    static COUNTS: Mutex<BTreeMap<(String, String), u32>> = Mutex::new(BTreeMap::new());
    let mut counts = COUNTS.lock().unwrap_or_else(|e| e.into_inner());
    *counts.entry((test.into(), key.into())).or_default() += 1;
    if key == "-report-" {
        let line: Vec<String> = counts
            .iter()
            .filter(|((t, k), _)| t == test && k != "-report-")
            .map(|((_, k), n)| format!("{k} {n}"))
            .collect();
        let total: u32 = counts
            .iter()
            .filter(|((t, k), _)| t == test && k != "-report-")
            .map(|(_, n)| n)
            .sum();
        // Straight to the process's stderr: the test harness captures only print macros.
        let _ = writeln!(
            std::io::stderr(),
            "fuzz cases: {test}: {total} ({})",
            line.join(", ")
        );
    }
}

/// Write the case counts of `test` to stderr.
fn report(test: &str) {
    count(test, "-report-");
}

/// What one child run did.
#[derive(Debug)]
struct Run {
    args: Vec<String>,
    code: Option<i32>,
    stdout: String,
    stderr: String,
    timed_out: bool,
}

/// Run the binary in `dir` with stdin closed, output to files (so a large output cannot
/// block the child), the memory limit, and the time limit.
fn run_in(dir: &Path, args: &[String]) -> Run {
    spawn_in(dir, args, MEMORY_LIMIT).finish()
}

/// A child started by [`spawn_in`], with the files its stdout and stderr go to.
struct Started {
    child: std::process::Child,
    args: Vec<String>,
    out: PathBuf,
    err: PathBuf,
}

/// Start the binary in `dir` as [`run_in`] does, under an address-space limit of
/// `memory` bytes; [`Started::finish`] waits for it. Each start has its own output
/// files, so two runs at once in one folder keep theirs apart.
fn spawn_in(dir: &Path, args: &[String], memory: u64) -> Started {
    static STARTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = STARTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out = dir.join(format!(".fuzz-stdout-{n}"));
    let err = dir.join(format!(".fuzz-stderr-{n}"));
    #[cfg(target_os = "linux")]
    let mut cmd = common::limited_command(&[(libc::RLIMIT_AS, memory)]);
    #[cfg(not(target_os = "linux"))]
    let mut cmd = {
        let _ = memory;
        std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
    };
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out).unwrap())
        .stderr(fs::File::create(&err).unwrap());
    Started {
        child: cmd.spawn().expect("binary starts"),
        args: args.to_vec(),
        out,
        err,
    }
}

impl Started {
    /// Wait for the child (killing it past [`RUN_LIMIT`]) and collect what it did; its
    /// output files are removed.
    fn finish(mut self) -> Run {
        let start = Instant::now();
        let mut timed_out = false;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > RUN_LIMIT {
                timed_out = true;
                let _ = self.child.kill();
                break self.child.wait().unwrap();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let read = |p: &Path| {
            let text = String::from_utf8_lossy(&fs::read(p).unwrap()).into_owned();
            let _ = fs::remove_file(p);
            text
        };
        Run {
            args: self.args,
            code: status.code(),
            stdout: read(&self.out),
            stderr: read(&self.err),
            timed_out,
        }
    }
}

/// The contract every run keeps, whatever it was given.
fn keeps_contract(r: &Run) -> Result<(), TestCaseError> {
    let what = || format!("{:?}: exit {:?}, stderr {:?}", r.args, r.code, r.stderr);
    prop_assert!(!r.timed_out, "no answer within {RUN_LIMIT:?}: {}", what());
    prop_assert!(
        matches!(r.code, Some(0..=2)),
        "exit must be 0, 1 or 2 (a signal or 101 is an abort or a panic): {}",
        what()
    );
    prop_assert!(!r.stderr.contains("panicked"), "panic: {}", what());
    if r.code == Some(1) && r.args.first().map(String::as_str) == Some("check") {
        // `check`'s "not a tour" answer: exit 1, the verdict on stdout, stderr empty.
        prop_assert!(
            r.stderr.is_empty() && r.stdout.contains("not a knight's tour"),
            "check exit 1 is the 'not a tour' answer only: {} / stdout {:?}",
            what(),
            r.stdout
        );
        return Ok(());
    }
    if r.code == Some(1) && r.args.first().map(String::as_str) == Some("exists") {
        // `exists`'s "no": exit 1, the answer on stdout, stderr empty.
        prop_assert!(
            r.stderr.is_empty()
                && (r.stdout.starts_with("no: ") || r.stdout.contains("\"exists\": false")),
            "exists exit 1 is the answer 'no' only: {} / stdout {:?}",
            what(),
            r.stdout
        );
        return Ok(());
    }
    if r.code != Some(0) {
        // Warnings about what was read ("warning: ...") may come first; the failure
        // itself is one line.
        prop_assert_eq!(
            r.stderr
                .trim_end()
                .lines()
                .filter(|l| !l.starts_with("warning: "))
                .count(),
            1,
            "a failure says one line: {}",
            what()
        );
    }
    if r.code == Some(2) {
        prop_assert!(
            r.stdout.is_empty(),
            "refused, yet wrote to stdout: {}",
            what()
        );
    }
    Ok(())
}

/// A flag of a subcommand, as its `--help` shows it.
#[derive(Debug, Clone)]
struct Flag {
    sub: String,
    long: String,
    /// The value's name (`BOARD`, `N`, `FILE`...); `None` for a switch.
    value: Option<String>,
}

impl Flag {
    /// Whether any text could be a valid value (a path to write, a name to give).
    fn free_text(&self) -> bool {
        let v = self.value.as_deref().unwrap_or("");
        ["FILE", "DIR", "OUT", "PATH", "NAME"]
            .iter()
            .any(|k| v.contains(k))
    }
}

/// Every subcommand's flags that take a value, read from `--help`.
fn flags() -> &'static [Flag] {
    static FLAGS: OnceLock<Vec<Flag>> = OnceLock::new();
    FLAGS.get_or_init(|| {
        let subs = common::subcommands();
        assert!(subs.len() >= 10, "subcommands read from --help: {subs:?}");
        let mut flags = Vec::new();
        for sub in subs {
            for line in common::stdout_of(&[&sub, "--help"]).lines() {
                let line = line.trim_start();
                let line = line.strip_prefix("-q, ").unwrap_or(line);
                let Some(rest) = line.strip_prefix("--") else {
                    continue;
                };
                let mut words = rest.split_whitespace();
                let long = words.next().unwrap().to_string();
                if long == "help" {
                    continue;
                }
                let value = words
                    .next()
                    .filter(|w| w.starts_with('<'))
                    .map(|w| w.trim_matches(['<', '>']).to_string());
                flags.push(Flag {
                    sub: sub.clone(),
                    long,
                    value,
                });
            }
        }
        flags
    })
}

fn valued_flags() -> Vec<Flag> {
    flags()
        .iter()
        .filter(|f| f.value.is_some())
        .cloned()
        .collect()
}

/// Text that no flag can parse, whatever its type (number, board, square, name, list):
/// it starts with a symbol or is empty. (A number past 64 bits is a valid float, as
/// `growth --budget` takes: those are in [`edge`].)
fn garbage() -> impl Strategy<Value = String> {
    prop_oneof![
        "[#@%&!?^~*][a-zA-Z0-9#@%&.,:;!?~^* ]{0,12}",
        Just(String::new()),
        "[+]{2}[0-9]{1,5}",
    ]
}

/// Values that are the right shape but may be out of range: zeros, negatives, the edges
/// of the integer types, odd board shapes, non-finite floats. Each may be refused or
/// served; either way the contract holds and the run is quick.
fn edge() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-1",
            "-0",
            "1",
            "nan",
            "inf",
            "-inf",
            "1e400",
            "0x0",
            "0x8",
            "8x0",
            "1x1",
            "8x8x8",
            "x8",
            "8x",
            "a9",
            "z1",
            "0,0",
            "99,99",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775809",
            "100000x100000",
            "4294967296x4294967296",
            "1/0",
            "0/0",
            "5/18446744073709551615",
            "none",
            ",",
            ",,",
            "random",
        ])
        .prop_map(String::from),
        (0u64..3, 0u64..3).prop_map(|(a, b)| format!("{a}x{b}")),
        "-?[1-9][0-9]{20,40}",
    ]
}

/// A scratch folder for one run.
fn scratch() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The arguments a subcommand needs besides the fuzzed flag to reach its value parsing
/// (a required output or board, a small workload, a snapshot so `play` does not want a
/// terminal), less the fuzzed flag itself.
fn base_args(sub: &str, fuzzed: &str) -> Vec<String> {
    let pairs: &[(&str, &str)] = match sub {
        "animate" => &[("--out", "a.png"), ("--max-attempts", "3")],
        "play" => &[("--snapshot", "")],
        "plot" => &[("", "missing-results")],
        "convergence" => &[("--out", "c.png"), ("--runs", "2")],
        "exists" | "count" => &[("--board", "5x5")],
        "check" => &[("", "missing-tour.txt")],
        "growth" => &[
            ("--solvers", "warnsdorff"),
            ("--sizes", "8,16"),
            ("--trials", "1"),
        ],
        "merge" => &[("", "missing-shard"), ("--out", "merged")],
        // The small spec written beside the run (not the built-in quickstart).
        "experiment" => &[("", "s.toml"), ("-q", "")],
        _ => &[],
    };
    let mut args = Vec::new();
    for (flag, value) in pairs {
        if flag.strip_prefix("--") == Some(fuzzed) {
            continue;
        }
        for word in [flag, value] {
            if !word.is_empty() {
                args.push(word.to_string());
            }
        }
    }
    args
}

/// `n` generated cases for each subcommand: a flag of it that takes a value, and a value
/// from `strategy`.
fn fuzz_flags(test: &str, strategy: BoxedStrategy<String>, must_refuse: bool, n: u32) {
    let flags = valued_flags();
    assert!(flags.len() > 40, "flags read from --help: {}", flags.len());
    let mut subs: Vec<&str> = flags.iter().map(|f| f.sub.as_str()).collect();
    subs.dedup();
    for sub in subs {
        let of_sub: Vec<Flag> = flags.iter().filter(|f| f.sub == sub).cloned().collect();
        let mut runner = TestRunner::new(Config {
            cases: n,
            failure_persistence: None,
            ..Config::default()
        });
        runner
            .run(
                &(prop::sample::select(of_sub), strategy.clone()),
                |(flag, value)| {
                    if known_open(test, &format!("{} --{}", flag.sub, flag.long), "hang") {
                        count(test, &format!("{} (skipped, KNOWN_OPEN)", flag.sub));
                        return Ok(());
                    }
                    count(test, &flag.sub);
                    let dir = scratch();
                    if flag.sub == "experiment" {
                        fs::write(dir.path().join("s.toml"), SPEC).unwrap();
                    }
                    let mut args = vec![flag.sub.clone()];
                    args.extend(base_args(&flag.sub, &flag.long));
                    args.push(format!("--{}={value}", flag.long));
                    let r = run_in(dir.path(), &args);
                    keeps_contract(&r)?;
                    if must_refuse && !flag.free_text() {
                        prop_assert_eq!(r.code, Some(2), "{:?} accepted: {}", r.args, r.stderr);
                        prop_assert!(
                            r.stderr.contains(&format!("--{}", flag.long)),
                            "{:?}: the error does not name the flag: {}",
                            r.args,
                            r.stderr
                        );
                    }
                    Ok(())
                },
            )
            .unwrap();
    }
    report(test);
}

/// Default cases per subcommand (for each flag generator) and per file parser.
const FLAG_CASES: u32 = 12;
const FILE_CASES: u32 = 40;
/// The soak runs this many times the default cases.
const SOAK: u32 = 20;

fn garbage_flags(n: u32) {
    fuzz_flags("flags-garbage", garbage().boxed(), true, n);
}

fn edge_flags(n: u32) {
    fuzz_flags("flags-edge", edge().boxed(), false, n);
}

#[test]
fn every_flag_refuses_garbage_naming_the_flag() {
    garbage_flags(cases(FLAG_CASES));
}

#[test]
fn every_flag_keeps_the_contract_at_the_edges() {
    edge_flags(cases(FLAG_CASES));
}

/// Each flag once with garbage, once without its value (a switch: once with a value), so
/// none is left out by chance; every failing flag is listed, not just the first.
#[test]
fn each_flag_once() {
    let mut failures = Vec::new();
    let mut runs = 0;
    for flag in flags() {
        // A value flag: a garbage value, and no value at all (the flag last). A switch:
        // given a value. Each is a usage error naming the flag, exit 2.
        let tries: Vec<(String, bool)> = match flag.value {
            Some(_) => vec![
                (format!("--{}=@bad", flag.long), !flag.free_text()),
                (format!("--{}", flag.long), true),
            ],
            None => vec![(format!("--{}=@bad", flag.long), true)],
        };
        for (word, must_refuse) in tries {
            runs += 1;
            let dir = scratch();
            if flag.sub == "experiment" {
                fs::write(dir.path().join("s.toml"), SPEC).unwrap();
            }
            let mut args = vec![flag.sub.clone()];
            args.extend(base_args(&flag.sub, &flag.long));
            args.push(word);
            let r = run_in(dir.path(), &args);
            if let Err(e) = keeps_contract(&r) {
                failures.push(e.to_string());
            } else if must_refuse
                && (r.code != Some(2) || !r.stderr.contains(&format!("--{}", flag.long)))
            {
                failures.push(format!(
                    "{:?}: exit {:?}, the error must name --{}: {}",
                    r.args,
                    r.code,
                    flag.long,
                    r.stderr.trim_end()
                ));
            }
        }
    }
    let _ = writeln!(std::io::stderr(), "fuzz cases: each flag once: {runs}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Values refused after parsing, by code that does not know the flag, still name it;
/// a message of several lines (a TOML parser's) is folded onto one.
#[test]
fn value_errors_name_the_flag_on_one_line() {
    // A malformed value names its flag ("--board: board '@bad'", not just "board '@bad'
    // is malformed"), and a spec's TOML error is one line.
    common::assert_refused(&["solve", "--board", "@bad"], "--board: board '@bad'");
    common::assert_refused(&["solve", "--board=9y9"], "--board: board '9y9'");
    common::assert_refused(&["compare", "--solvers", "warnsdorff,bogus"], "--solvers");
    common::assert_refused(&["play", "--snapshot", "--moves", "a1 zz"], "--moves");
    common::assert_refused(&["queens", "--size", "@"], "--size");
    common::assert_refused(&["play", "--snapshot", "--watch", "? A "], "--watch");
    common::assert_refused(&["compare", "--solvers=? .,"], "--solvers");
    let dir = scratch();
    let spec = dir.path().join("s.toml");
    fs::write(&spec, "name = \"a\"\nname = \"b\"\n").unwrap();
    common::assert_refused(&["experiment", spec.to_str().unwrap()], "duplicate key");
}

// ---- malformed files ----------------------------------------------------------------

/// A small valid spec: two cells, a few trials, so a mutation that stays valid is quick.
const SPEC: &str = r#"name = "fuzz"
seed = 3
trials = 4
boards = ["6x6"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "warnsdorff:roth"
start = "random"
"#;

/// Ways to damage a text: cut it, delete a stretch, insert symbols or raw bytes,
/// duplicate or swap a line. Inserted text has no digits, so a mutation cannot turn a
/// small number into a large one.
#[derive(Debug, Clone)]
enum Damage {
    Truncate(prop::sample::Index),
    Delete(prop::sample::Index, usize),
    Insert(prop::sample::Index, Vec<u8>),
    DuplicateLine(prop::sample::Index),
    SwapLines(prop::sample::Index, prop::sample::Index),
    Replace(prop::sample::Index, u8),
}

fn damage() -> impl Strategy<Value = Damage> {
    let noise = prop::collection::vec(
        prop_oneof![
            prop::sample::select(b"\"',=[]{}:x\n\r\t -#.\\/aZ".to_vec()),
            any::<u8>().prop_filter("no digits", |b| !b.is_ascii_digit()),
        ],
        1..8,
    );
    prop_oneof![
        any::<prop::sample::Index>().prop_map(Damage::Truncate),
        (any::<prop::sample::Index>(), 1usize..20).prop_map(|(i, n)| Damage::Delete(i, n)),
        (any::<prop::sample::Index>(), noise).prop_map(|(i, b)| Damage::Insert(i, b)),
        any::<prop::sample::Index>().prop_map(Damage::DuplicateLine),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(a, b)| Damage::SwapLines(a, b)),
        (
            any::<prop::sample::Index>(),
            any::<u8>().prop_filter("no digits", |b| !b.is_ascii_digit())
        )
            .prop_map(|(i, b)| Damage::Replace(i, b)),
    ]
}

fn apply(text: &[u8], damages: &[Damage]) -> Vec<u8> {
    let mut t = text.to_vec();
    for d in damages {
        if t.is_empty() {
            break;
        }
        match d {
            Damage::Truncate(i) => t.truncate(i.index(t.len())),
            Damage::Delete(i, n) => {
                let a = i.index(t.len());
                let b = (a + n).min(t.len());
                t.drain(a..b);
            }
            Damage::Insert(i, bytes) => {
                let a = i.index(t.len() + 1);
                t.splice(a..a, bytes.iter().copied());
            }
            Damage::Replace(i, b) => {
                let a = i.index(t.len());
                t[a] = *b;
            }
            Damage::DuplicateLine(i) | Damage::SwapLines(i, _) => {
                let mut lines: Vec<Vec<u8>> =
                    t.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
                let a = i.index(lines.len());
                if let Damage::SwapLines(_, j) = d {
                    let b = j.index(lines.len());
                    lines.swap(a, b);
                } else {
                    let line = lines[a].clone();
                    lines.insert(a, line);
                }
                t = lines.join(&b'\n');
            }
        }
    }
    t
}

fn damaged(text: &'static [u8]) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(damage(), 1..4).prop_map(move |d| apply(text, &d))
}

/// The contract for a damaged input file read by `generator`'s parser: the user can
/// mend it, so a refusal is exit 2 (exit 1 is for the environment, which is fine here),
/// and a run that still succeeds is quick.
fn refused_or_served(generator: &str, r: &Run) -> Result<(), TestCaseError> {
    keeps_contract(r)?;
    let sub = r.args.first().map(String::as_str).unwrap_or("");
    if sub == "check" || known_open(generator, sub, "exit 1") {
        return Ok(());
    }
    prop_assert!(
        r.code != Some(1),
        "a damaged file is bad input (exit 2), not exit 1: {:?}: {}",
        r.args,
        r.stderr
    );
    Ok(())
}

fn file_runner(n: u32) -> TestRunner {
    TestRunner::new(Config {
        cases: n,
        failure_persistence: None,
        ..Config::default()
    })
}

fn damaged_specs(n: u32) {
    file_runner(n)
        .run(&damaged(SPEC.as_bytes()), |bytes| {
            count("spec", "experiment");
            let dir = scratch();
            fs::write(dir.path().join("s.toml"), &bytes).unwrap();
            let args: Vec<String> = ["experiment", "s.toml", "--out", "r", "-q", "--threads", "1"]
                .map(String::from)
                .to_vec();
            refused_or_served("spec", &run_in(dir.path(), &args))
        })
        .unwrap();
    report("spec");
}

#[test]
fn damaged_specs_keep_the_contract() {
    damaged_specs(cases(FILE_CASES));
}

/// A results folder made once from [`SPEC`] (records.csv, run.json, summary).
fn results() -> &'static (PathBuf, Vec<u8>) {
    static RESULTS: OnceLock<(PathBuf, Vec<u8>)> = OnceLock::new();
    RESULTS.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap().keep();
        fs::write(dir.join("s.toml"), SPEC).unwrap();
        let args: Vec<String> = ["experiment", "s.toml", "--out", "r", "-q", "--threads", "1"]
            .map(String::from)
            .to_vec();
        let r = run_in(&dir, &args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let records = fs::read(dir.join("r/records.csv")).unwrap();
        (dir, records)
    })
}

/// Copy the folder made by [`results`] into `dir/r` with `records` as its records.csv.
fn results_with(dir: &Path, records: &[u8]) {
    let (src, _) = results();
    fs::copy(src.join("s.toml"), dir.join("s.toml")).unwrap();
    fs::create_dir(dir.join("r")).unwrap();
    for entry in fs::read_dir(src.join("r")).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            fs::copy(entry.path(), dir.join("r").join(entry.file_name())).unwrap();
        }
    }
    fs::write(dir.join("r/records.csv"), records).unwrap();
}

fn damaged_records(n: u32) {
    let (_, records) = results();
    let records: &'static [u8] = Box::leak(records.clone().into_boxed_slice());
    file_runner(n)
        .run(&(damaged(records), 0usize..3), |(bytes, command)| {
            let dir = scratch();
            results_with(dir.path(), &bytes);
            let args: Vec<String> = match command {
                0 => vec!["experiment", "s.toml", "--out", "r", "--resume", "-q"],
                1 => vec!["plot", "r", "--out", "figs"],
                _ => vec!["merge", "r", "--out", "m", "-q"],
            }
            .into_iter()
            .map(String::from)
            .collect();
            count("records", &args[0]);
            refused_or_served("records", &run_in(dir.path(), &args))
        })
        .unwrap();
    report("records");
}

#[test]
fn damaged_records_keep_the_contract() {
    damaged_records(cases(FILE_CASES));
}

/// A trace of a small solve, made once.
fn trace() -> &'static [u8] {
    static TRACE: OnceLock<Vec<u8>> = OnceLock::new();
    TRACE.get_or_init(|| {
        let dir = scratch();
        let args: Vec<String> = [
            "solve", "--board", "6x6", "--seed", "2", "--trace", "t.json",
        ]
        .map(String::from)
        .to_vec();
        let r = run_in(dir.path(), &args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        fs::read(dir.path().join("t.json")).unwrap()
    })
}

fn damaged_traces(n: u32) {
    file_runner(n)
        .run(&(damaged(trace()), 0usize..3), |(bytes, command)| {
            let dir = scratch();
            fs::write(dir.path().join("t.json"), &bytes).unwrap();
            let (sub, out) = match command {
                0 => ("animate", "a.gif"),
                1 => ("animate", "a.png"),
                _ => ("convergence", "c.svg"),
            };
            count("trace", sub);
            let args: Vec<String> = [sub, "--trace", "t.json", "--out", out]
                .map(String::from)
                .to_vec();
            refused_or_served("trace", &run_in(dir.path(), &args))
        })
        .unwrap();
    report("trace");
}

#[test]
fn damaged_traces_keep_the_contract() {
    damaged_traces(cases(FILE_CASES));
}

/// A tour as `play --moves` reads it: a start square and each move, in algebraic form.
const MOVES: &[u8] = b"a1 b3 c5 a4 b6 d5 f6 e4 f2 d1 c3 b1 a3 b5 d6 f5 e3 f1 d2 b1";

/// A tour as `solve --format json` writes it, made once.
fn solved() -> &'static [u8] {
    static SOLVED: OnceLock<Vec<u8>> = OnceLock::new();
    SOLVED.get_or_init(|| {
        let dir = scratch();
        let args: Vec<String> = [
            "solve",
            "--board",
            "5x6",
            "--solver",
            "warnsdorff",
            "--format",
            "json",
        ]
        .map(String::from)
        .to_vec();
        let r = run_in(dir.path(), &args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout.into_bytes()
    })
}

/// The same tour as `solve --stream` lines would list it: `ROW,COL` per line.
fn solved_lines() -> &'static [u8] {
    static LINES: OnceLock<Vec<u8>> = OnceLock::new();
    LINES.get_or_init(|| {
        let v: serde_json::Value = serde_json::from_slice(solved()).unwrap();
        let mut text = String::new();
        for sq in v["tour"].as_array().expect("solve's JSON has a tour") {
            text.push_str(&format!("{},{}\n", sq[0], sq[1]));
        }
        text.into_bytes()
    })
}

fn damaged_tours(n: u32) {
    let forms = prop_oneof![
        damaged(MOVES).prop_map(|b| (0usize, b)),
        damaged(solved()).prop_map(|b| (1usize, b)),
        damaged(solved_lines()).prop_map(|b| (2usize, b)),
    ];
    file_runner(n)
        .run(&forms, |(form, bytes)| {
            let dir = scratch();
            let args: Vec<String> = if form == 0 {
                count("tour", "play --moves");
                let moves = String::from_utf8_lossy(&bytes).replace('\0', " ");
                vec![
                    "play".to_string(),
                    "--board".into(),
                    "6x6".into(),
                    "--snapshot".into(),
                    format!("--moves={moves}"),
                ]
            } else {
                count(
                    "tour",
                    if form == 1 {
                        "check json"
                    } else {
                        "check lines"
                    },
                );
                fs::write(dir.path().join("t.txt"), &bytes).unwrap();
                let mut args = vec!["check".to_string(), "t.txt".into()];
                if form == 2 {
                    args.extend(["--board".to_string(), "5x6".into()]);
                }
                args
            };
            refused_or_served("tour", &run_in(dir.path(), &args))
        })
        .unwrap();
    report("tour");
}

#[test]
fn damaged_tours_keep_the_contract() {
    damaged_tours(cases(FILE_CASES));
}

/// Every generator with twenty times the default cases (minutes, not seconds).
#[test]
#[ignore = "by hand: the soak, minutes"]
fn by_hand_soak() {
    let n = |base: u32| cases(base) * SOAK;
    garbage_flags(n(FLAG_CASES));
    edge_flags(n(FLAG_CASES));
    damaged_specs(n(FILE_CASES));
    damaged_records(n(FILE_CASES));
    damaged_traces(n(FILE_CASES));
    damaged_tours(n(FILE_CASES));
    #[cfg(unix)]
    environment::soak(n);
}

//! Resource bounds of the solving commands: memory follows the work done (not a cap the
//! user typed, nor an output format that would hold the whole tour), and thread counts
//! are bounded. Runs that must stay small run under an address-space limit, so a
//! reservation sized by a cap fails the test instead of the machine.

use crate::common;

use std::process::Output;

use crate::common::{knightnet, knightnet_limited};

/// Address space given to a child that must stay small: 1 GiB.
const SMALL: u64 = 1 << 30;

fn assert_ok(out: &Output, args: &[&str]) {
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--max-attempts` bounds the attempts; the batched engine (12x12 up) reserved memory
/// for every possible one (5.5 GB for 1e8, an abort for 2^32 - 1).
#[test]
fn solve_memory_does_not_follow_max_attempts() {
    for cap in ["100000000", "4294967295"] {
        for variant in ["parberry", "brant"] {
            let args = [
                "solve",
                "--board",
                "12x12",
                "--variant",
                variant,
                "--max-attempts",
                cap,
            ];
            let out = knightnet_limited(SMALL, &args);
            assert_ok(&out, &args);
            // The same tour as under a small cap that suffices.
            let small = knightnet(&["solve", "--board", "12x12", "--variant", variant]);
            assert_ok(&small, &args);
            let text = String::from_utf8_lossy(&out.stdout);
            let board_of = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
            assert_eq!(
                board_of(&text),
                board_of(&String::from_utf8_lossy(&small.stdout))
            );
        }
    }
}

/// The same for network+merge (whole board and tiles) and compare's throughput mode.
#[test]
fn merge_and_compare_memory_does_not_follow_max_attempts() {
    let cases: [&[&str]; 3] = [
        &[
            "solve",
            "--board",
            "12x12",
            "--solver",
            "network+merge",
            "--tile",
            "none",
            "--max-attempts",
            "4294967295",
        ],
        &[
            "solve",
            "--board",
            "24x24",
            "--solver",
            "network+merge",
            "--tile",
            "8",
            "--max-attempts",
            "4294967295",
        ],
        &[
            "solve",
            "--board",
            "16x16",
            "--solver",
            "network",
            "--max-attempts",
            "4294967295",
            "--format",
            "json",
        ],
    ];
    for args in cases {
        let out = knightnet_limited(SMALL, args);
        assert_ok(&out, args);
    }
}

/// A run refused for want of memory (the environment's failure): exit 1, nothing on
/// stdout, one line on stderr naming what needed how much and the limit, no abort.
fn assert_out_of_memory(out: &Output, args: &[&str], source: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(err.contains("out of memory"), "{args:?}: {err}");
    assert!(err.contains(source), "{args:?}: '{err}' lacks '{source}'");
    err
}

/// The memory guard compares estimates with the process's real limit (its address-space
/// limit included), not a fixed size: a board that does not fit is refused before any
/// work, never aborted (SIGABRT, exit 134) while allocating.
#[cfg(target_os = "linux")]
#[test]
fn solves_beyond_the_address_space_limit_are_refused_before_work() {
    for solver in ["divide-conquer", "warnsdorff"] {
        let args = [
            "solve",
            "--board",
            "30000x30000",
            "--solver",
            solver,
            "--summary",
        ];
        let out = knightnet_limited(4 << 30, &args);
        let err = assert_out_of_memory(&out, &args, "address-space limit");
        assert!(err.contains("30000x30000") && err.contains("GiB"), "{err}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let png = tmp.path().join("a.png");
    let gif = tmp.path().join("a.gif");
    let png = png.to_str().unwrap();
    let gif = gif.to_str().unwrap();
    let cases: [&[&str]; 4] = [
        &["solve", "--board", "3000x3000"],
        &["animate", "--board", "3000x3000", "--out", gif],
        &[
            "convergence",
            "--board",
            "3000x3000",
            "--runs",
            "2",
            "--out",
            png,
        ],
        &["compare", "--board", "3000x3000", "--trials", "2"],
    ];
    for args in cases {
        let out = knightnet_limited(SMALL, args);
        let err = assert_out_of_memory(&out, args, "address-space limit");
        assert!(err.contains("3000x3000"), "{err}");
    }
    assert!(!std::path::Path::new(png).exists() && !std::path::Path::new(gif).exists());
}

/// The same for an experiment whose spec holds a board beyond the memory: exit 1 (not a
/// spec error), one line, before any trial.
#[cfg(target_os = "linux")]
#[test]
fn an_experiment_beyond_the_memory_is_refused_before_work() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("big.toml");
    std::fs::write(
        &spec,
        "trials = 2\nboards = [\"3000x3000\"]\n[[solver]]\nsolver = \"network:parberry\"\n",
    )
    .unwrap();
    let out_dir = tmp.path().join("out");
    let args = [
        "experiment",
        spec.to_str().unwrap(),
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ];
    let out = knightnet_limited(SMALL, &args);
    assert_out_of_memory(&out, &args, "address-space limit");
    assert!(!out_dir.join("records.csv").exists());
}

/// `--max-memory` trusted the number typed: `count --board 8x8 --closed --max-memory 64`
/// under 400 MiB worked 90 s and then aborted. The real limit caps it: a count whose
/// estimate is beyond it is refused at once (exit 1, naming the limit), while one beyond
/// the typed bound stays the input's fault (exit 2).
#[cfg(target_os = "linux")]
#[test]
fn max_memory_is_capped_by_the_real_limit() {
    let args = ["count", "--board", "8x8", "--closed", "--max-memory", "64"];
    let out = knightnet_limited(400 << 20, &args);
    let err = assert_out_of_memory(&out, &args, "address-space limit");
    assert!(err.contains("8x8"), "{err}");
    // Beyond the typed bound (and within the real one): the input's fault, exit 2.
    common::assert_refused(
        &["count", "--board", "8x8", "--closed", "--max-memory", "1"],
        "--max-memory",
    );
    // A count that fits runs under the same limit.
    let args = ["count", "--board", "6x6", "--closed", "--max-memory", "64"];
    let out = knightnet_limited(400 << 20, &args);
    assert_ok(&out, &args);
    assert!(String::from_utf8_lossy(&out.stdout).contains("9862"));
}

/// `count --board 8x8 --closed` was refused for a default bound of 4 GiB (and with
/// `--max-memory 16` stopped at the default `--max-steps` after 12.75 min). Without
/// `--max-memory` the bound is the memory the process may really use: under a small
/// limit the count is refused at once (exit 1) naming the estimate and the limit; a
/// count within it runs on the defaults.
#[cfg(target_os = "linux")]
#[test]
fn the_default_memory_bound_is_the_memory_the_process_has() {
    let args = ["count", "--board", "8x8", "--closed"];
    let out = common::limited_command(&[
        (libc::RLIMIT_AS, 1 << 30),
        (libc::RLIMIT_CPU, BEFORE_WORK_CPU_SECONDS),
    ])
    .args(args)
    .output()
    .unwrap();
    let err = assert_out_of_memory(&out, &args, "address-space limit");
    assert!(err.contains("needs about 10.7 GiB"), "{err}");
    assert!(err.contains("of 1.0 GiB"), "{err}");
    let args = ["count", "--board", "6x7", "--closed"];
    let out = knightnet_limited(SMALL, &args);
    assert_ok(&out, &args);
    // OEIS A001230 does not list 6x7; A175881 does: 1,067,638.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("undirected 1067638"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// CPU seconds a run refused "before any work" may take: the refusals take
/// milliseconds, the work they replace took 15 to 27 s. A resource bound like the
/// address-space ones (SIGXCPU kills a run past it), not a timing.
#[cfg(target_os = "linux")]
const BEFORE_WORK_CPU_SECONDS: u64 = 5;

/// `count --board 4x100000` worked 15 s, printed ~140 progress lines into a pipe, then
/// said the count overflows 128 bits. It is refused before any work, in one line. (The
/// longest boards make "before any work" show under the CPU bound: before the fix
/// `4x1000000` and `1000000x3` were killed by it, the others took 2 to 4 s.)
#[cfg(target_os = "linux")]
#[test]
fn counts_beyond_128_bits_are_refused_before_work() {
    for args in [
        ["count", "--board", "4x100000"].as_slice(),
        &["count", "--board", "4x1000000"],
        &["count", "--board", "1000000x3"],
        &["count", "--board", "4x100000", "--method", "frontier"],
        &["count", "--board", "3x100000", "--closed"],
    ] {
        let out = common::limited_command(&[(libc::RLIMIT_CPU, BEFORE_WORK_CPU_SECONDS)])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("128 bits"), "{args:?}: {err}");
    }
}

/// `solve --board 60000x60000 --merge --stream` checked every tile (27 s) before its
/// memory check refused it; the memory is checked first now, against the real limit.
#[cfg(target_os = "linux")]
#[test]
fn a_tiled_merge_beyond_the_memory_is_refused_before_the_tiles() {
    let args = ["solve", "--board", "60000x60000", "--merge", "--stream"];
    let out = common::limited_command(&[
        (libc::RLIMIT_AS, 4 << 30),
        (libc::RLIMIT_CPU, BEFORE_WORK_CPU_SECONDS),
    ])
    .args(args)
    .output()
    .unwrap();
    let err = assert_out_of_memory(&out, &args, "address-space limit");
    assert!(err.contains("network+merge"), "{err}");
}

/// `--threads 1024`: an experiment under a small address-space limit exited 1 with the
/// system's message twice, and compare said "cannot start 1024 threads" with exit 2 and
/// failed even at 2 GiB. Threads that cannot start are one line, exit 1; a thread count
/// the memory allows works (each worker reserves a small stack, and the malloc arenas
/// are capped under an address-space limit).
#[cfg(target_os = "linux")]
#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn thread_counts_follow_the_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = tmp.path().join("many.toml");
    std::fs::write(
        &spec,
        "trials = 1024\nboards = [\"5x5\"]\n[[solver]]\nsolver = \"warnsdorff:roth\"\nstart = \"corner\"\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let out_dir = tmp.path().join("out");
    let out_dir = out_dir.to_str().unwrap();
    let compare = [
        "compare",
        "--board",
        "5x5",
        "--solvers",
        "warnsdorff:roth",
        "--trials",
        "1024",
        "--threads",
        "1024",
    ];
    let experiment = [
        "experiment",
        spec,
        "--threads",
        "1024",
        "--quiet",
        "--out",
        out_dir,
    ];
    for args in [compare.as_slice(), &experiment] {
        let out = knightnet_limited(256 << 20, args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("cannot start 1024 threads"), "{err}");
        assert!(err.contains("address-space limit"), "{err}");
    }
    std::fs::remove_dir_all(out_dir).ok();
    for args in [compare.as_slice(), &experiment] {
        let out = knightnet_limited(2 << 30, args);
        assert_ok(&out, args);
    }
}

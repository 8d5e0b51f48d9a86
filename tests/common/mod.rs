//! What the CLI test files share: running the binary, reading its JSON, and the
//! bad-input contract (exit 2, nothing on stdout, one line on stderr, no panic).

// Each test file uses a subset.
#![allow(dead_code)]

pub mod engines;

use std::process::{Command, Output};

use knightnet::board::Board;
use serde_json::Value;

/// The standard output of a run that must succeed.
pub fn stdout_of(args: &[&str]) -> String {
    let out = knightnet(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands `knightnet --help` lists (without `help`).
pub fn subcommands() -> Vec<String> {
    stdout_of(&["--help"])
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|s| *s != "help")
        .map(String::from)
        .collect()
}

/// Run the built `knightnet` binary with `args`.
pub fn knightnet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// The board and the tour of a `solve --format json` document, the tour's `[row, col]`
/// pairs as square numbers.
pub fn tour_of(doc: &Value) -> (Board, Vec<u32>) {
    let dim = |k: &str| doc["board"][k].as_u64().unwrap() as usize;
    let b = Board::new(dim("rows"), dim("cols")).unwrap();
    let squares = doc["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rc| {
            b.index(
                rc[0].as_u64().unwrap() as usize,
                rc[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    (b, squares)
}

/// The move numbers of a board printed by `solve` (the lines after its summary line),
/// sorted: 1..=n for a tour of n squares.
pub fn move_numbers(board_lines: &[&str]) -> Vec<u32> {
    let mut numbers: Vec<u32> = board_lines
        .iter()
        .flat_map(|l| l.split_whitespace())
        .map(|n| n.parse().unwrap())
        .collect();
    numbers.sort_unstable();
    numbers
}

/// The `row,col` lines `solve --stream` writes, as the `[row, col]` pairs of the tour in
/// `solve --format json`.
pub fn stream_rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| {
            let (r, c) = l.split_once(',').expect("row,col");
            serde_json::json!([r.parse::<u64>().unwrap(), c.parse::<u64>().unwrap()])
        })
        .collect()
}

/// Run a command that must succeed and print one JSON value; return it.
pub fn json_of(args: &[&str]) -> Value {
    let out = knightnet(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON value")
}

/// The rows of a report command's JSON document (`compare`, `growth`), after checking
/// its envelope (docs/json.md): the command's name, the engine version, the seed, trials
/// and threads.
pub fn report_rows(args: &[&str]) -> Value {
    let mut doc = json_of(args);
    assert_eq!(doc["command"], args[0]);
    assert_eq!(
        doc["knightnet"]["engine_version"],
        knightnet::ENGINE_VERSION
    );
    for key in ["seed", "trials", "threads"] {
        assert!(doc[key].is_u64(), "{key}: {doc}");
    }
    doc["rows"].take()
}

/// Run a command that must be refused as bad input: exit code 2, nothing on stdout,
/// exactly one line on stderr, no panic. Returns the stderr line.
pub fn refused(args: &[&str]) -> String {
    let out = knightnet(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err
}

/// [`refused`], and the message mentions `needle`.
pub fn assert_refused(args: &[&str], needle: &str) -> String {
    let err = refused(args);
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    err
}

/// A command for the built binary whose child process runs under `limits`
/// (`setrlimit` between fork and exec): (resource, bytes) pairs such as
/// `(libc::RLIMIT_AS, 1 << 30)`. A run past an address-space limit aborts, which the
/// memory tests and the fuzz suite count as a failure.
#[cfg(target_os = "linux")]
pub fn limited_command(limits: &[(libc::__rlimit_resource_t, u64)]) -> Command {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_knightnet"));
    let limits = limits.to_vec();
    // SAFETY: the closure runs in the forked child before exec and calls only setrlimit,
    // which is async-signal-safe; it reads only its own copy of `limits`.
    unsafe {
        cmd.pre_exec(move || {
            for &(resource, bytes) in &limits {
                let lim = libc::rlimit {
                    rlim_cur: bytes as libc::rlim_t,
                    rlim_max: bytes as libc::rlim_t,
                };
                if libc::setrlimit(resource, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    cmd
}

/// Run the binary with `args` under an address-space limit of `bytes`.
#[cfg(target_os = "linux")]
pub fn knightnet_limited(bytes: u64, args: &[&str]) -> Output {
    limited_command(&[(libc::RLIMIT_AS, bytes)])
        .args(args)
        .output()
        .expect("the binary starts")
}

/// Wait for `child`, killing it (and failing the test) after `limit`: a hang detector,
/// not a timing.
pub fn wait_at_most(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> std::process::ExitStatus {
    let t0 = std::time::Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child did not finish within {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

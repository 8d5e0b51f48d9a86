//! `--max-steps` bounds the time of `forward-check:connectivity`: its connectivity
//! checks (a breadth-first search of the unvisited squares after every move) count
//! against the budget. Before, only squares placed counted, and 31x33, 100x101 and
//! 200x200 ran for minutes under budgets that plain forward checking spends in
//! seconds. The child process gets a generous wall-time bound to detect a hang; no
//! speed is asserted.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Run the binary, killing it after `limit`; `None` if it had to be killed.
fn run_bounded(args: &[&str], limit: Duration) -> Option<std::process::Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        if started.elapsed() > limit {
            child.kill().ok();
            child.wait().ok();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn connectivity_work_counts_against_the_budget() {
    // The default budget (10^8), under which 31x33 and 100x101 ran past 150 s before.
    let budget: u64 = 100_000_000;
    for board in ["31x33", "100x101"] {
        let args = [
            "solve",
            "--board",
            board,
            "--solver",
            "forward-check:connectivity",
            "--format",
            "json",
        ];
        let out = run_bounded(&args, Duration::from_secs(120)).unwrap_or_else(|| {
            panic!("{board}: still running after 120 s under the default budget")
        });
        let v: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{board}: {e}: {}", String::from_utf8_lossy(&out.stderr)));
        let steps = v["steps"].as_u64().expect("steps");
        let scanned = v["connectivity_squares"]
            .as_u64()
            .expect("connectivity_squares");
        let (r, c) = board.split_once('x').unwrap();
        let squares: u64 = r.parse::<u64>().unwrap() * c.parse::<u64>().unwrap();
        // The budget is checked before each placement; one check scans at most the board.
        assert!(
            steps + scanned <= budget + squares + 1,
            "{board}: {steps} steps + {scanned} scanned exceed the budget {budget}"
        );
        if v["outcome"] == "gave-up" {
            assert!(steps + scanned >= budget, "{board}: gave up early: {v}");
        }
    }
}

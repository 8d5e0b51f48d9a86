//! `knightnet compare`: the JSON contract, replayable trials, and bad input.

use crate::common::{assert_refused, knightnet, report_rows};

use serde_json::Value;

#[test]
fn json_rows_hold_the_contract_fields() {
    let rows: Vec<Value> = serde_json::from_value(report_rows(&[
        "compare",
        "--board",
        "6x6",
        "--trials",
        "4",
        "--threads",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(rows.len(), 6);
    for r in &rows {
        for key in [
            "solver",
            "board",
            "tours",
            "attempts",
            "seconds",
            "seconds_per_tour",
        ] {
            assert!(r.get(key).is_some(), "missing {key} in {r}");
        }
        assert_eq!(r["board"], serde_json::json!({"rows": 6, "cols": 6}));
        // The tour rate per trial, inside its Wilson interval.
        let rate = r["p_tour"]["value"].as_f64().unwrap();
        assert_eq!(rate, r["tours"].as_f64().unwrap() / 4.0, "{r}");
        assert!(r["p_tour"]["low"].as_f64().unwrap() <= rate, "{r}");
        assert!(r["p_tour"]["high"].as_f64().unwrap() >= rate, "{r}");
        assert!(r["tours"].as_u64().unwrap() <= 4);
        // Time to solution: R99 from the tour rate per attempt, inside its interval, and
        // TTS99 = R99 x seconds per attempt.
        let (tours, attempts) = (
            r["tours"].as_f64().unwrap(),
            r["attempts"].as_f64().unwrap(),
        );
        if tours > 0.0 {
            let r99 = r["r99"]["value"].as_f64().unwrap();
            let p = tours / attempts;
            let expect = if p >= 1.0 {
                1.0
            } else {
                (0.01f64.ln() / (1.0 - p).ln()).ceil()
            };
            assert_eq!(r99, expect, "{r}");
            assert!(r["r99"]["low"].as_f64().unwrap() <= r99, "{r}");
            assert!(r["r99"]["high"].as_f64().is_none_or(|h| h >= r99), "{r}");
            let tts = r["tts99_seconds"]["value"].as_f64().unwrap();
            let per_attempt = r["seconds"].as_f64().unwrap() / attempts;
            assert!(
                (tts - r99 * per_attempt).abs() <= 1e-9 * tts.max(1.0),
                "{r}"
            );
            let [lo, hi] = ["low", "high"].map(|end| r["seconds_per_tour"][end].as_f64());
            let per_tour = r["seconds_per_tour"]["value"].as_f64().unwrap();
            assert!(
                lo.unwrap() <= per_tour && hi.is_none_or(|h| h >= per_tour),
                "{r}"
            );
        } else {
            assert!(r["r99"]["value"].is_null(), "{r}");
            assert!(r["seconds_per_tour"]["value"].is_null(), "{r}");
        }
    }
    let fastest = rows
        .iter()
        .filter_map(|r| r["ratio_to_fastest"].as_f64())
        .fold(f64::INFINITY, f64::min);
    assert!((fastest - 1.0).abs() < 1e-12);
}

#[test]
fn variety_separates_constructions_from_the_network() {
    let out = knightnet(&[
        "compare",
        "--board",
        "8x8",
        "--trials",
        "6",
        "--format",
        "json",
        "--solvers",
        "network:parberry,divide-conquer",
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    let net = rows[0]["shared_moves"].as_f64().unwrap();
    let dc = rows[1]["shared_moves"].as_f64().unwrap();
    // divide-conquer builds one tour whatever the seed; network tours differ.
    assert_eq!(dc, 1.0);
    assert!(net < 0.8, "network tours share {net} of their moves");
}

#[test]
fn shared_moves_counts_common_moves() {
    use knightnet::compare::shared_moves;
    let a = vec![(0, 1), (1, 2), (2, 3), (3, 4)];
    let b = vec![(0, 1), (1, 2), (5, 6), (7, 8)];
    assert_eq!(shared_moves(&[a.clone(), a.clone()]), Some(1.0));
    assert_eq!(shared_moves(&[a.clone(), b]), Some(0.5));
    assert_eq!(shared_moves(&[a]), None);
}

#[test]
fn a_listed_trial_replays_with_its_seed() {
    // Every row lists its trials with their seeds; `solve --seed THAT` makes the same
    // attempts and ends the same way.
    let out = knightnet(&[
        "compare",
        "--board",
        "6x6",
        "--solvers",
        "network:parberry",
        "--trials",
        "3",
        "--seed",
        "41",
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    let listed = rows[0]["per_trial"].as_array().unwrap();
    assert_eq!(listed.len(), 3);
    let attempts: u64 = listed.iter().map(|t| t["attempts"].as_u64().unwrap()).sum();
    assert_eq!(rows[0]["attempts"], attempts);
    for t in listed {
        let seed = t["seed"].to_string();
        let solve = knightnet(&[
            "solve", "--board", "6x6", "--seed", &seed, "--format", "json",
        ]);
        let v: Value = serde_json::from_slice(&solve.stdout).unwrap();
        for key in ["attempts", "iterations", "outcome"] {
            assert_eq!(t[key], v[key], "{key}: {t}");
        }
    }
}

#[test]
fn thread_count_changes_no_result() {
    // Threads take trials from one queue, and a thread's solves share the network's
    // lanes; the tours and attempts must not depend on which thread ran which trial.
    // More trials than two threads' lanes, so lanes are refilled from the queue.
    let run = |threads: &str| {
        let out = knightnet(&[
            "compare",
            "--board",
            "6x6",
            "--solvers",
            "network:parberry,warnsdorff:random",
            "--trials",
            "101",
            "--threads",
            threads,
            "--format",
            "json",
        ]);
        let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rows = doc["rows"].as_array().unwrap();
        rows.iter()
            .map(|r| {
                (
                    r["tours"].clone(),
                    r["attempts"].clone(),
                    r["shared_moves"].clone(),
                    r["per_trial"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run("1"), run("2"));
    assert_eq!(run("1"), run("3"));
}

#[test]
fn bad_input_is_refused() {
    for (args, needle) in [
        (vec!["compare", "--board", "7x7"], "network"),
        (vec!["compare", "--solvers", "oracle"], "unknown solver"),
        (vec!["compare", "--trials", "0"], "--trials"),
        (vec!["compare", "--threads", "0"], "--threads"),
    ] {
        assert_refused(&args, needle);
    }
}

/// `--threads` is bounded (1..=1024, checked before any work; 100000 used to spawn
/// threads at full CPU for minutes) and the pool never has more threads than trials.
#[test]
fn threads_are_bounded_and_never_exceed_the_trials() {
    for t in ["1025", "100000", "18446744073709551615"] {
        let err = assert_refused(&["compare", "--threads", t, "--trials", "2"], "--threads");
        assert!(err.contains("1024"), "{err}");
    }
    let out = knightnet(&[
        "compare",
        "--threads",
        "1024",
        "--trials",
        "2",
        "--solvers",
        "warnsdorff:roth",
    ]);
    assert!(out.status.success());
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    assert!(first.ends_with(", 2 threads"), "{first}");
}

/// `benches/pairs.sh`, which PERFORMANCE.md's two-core figures come from: every figure
/// as ordered minimum, median and maximum over the pairs, the ratio taken pair by pair
/// (a command against a much slower one is well under 1, the slower one's wall time
/// at least its sleep), and bad usage refused.
#[test]
fn pairs_script_times_alternating_runs() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/pairs.sh");
    let fast = format!("{} --version", env!("CARGO_BIN_EXE_knightnet"));
    let out = std::process::Command::new("bash")
        .args([script, "-n", "3", &fast, "sleep 0.2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let figure = |name: &str| -> [f64; 3] {
        let line = text
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {text}"));
        let v: Vec<f64> = line[name.len()..]
            .split_whitespace()
            .map(|x| x.parse().unwrap())
            .collect();
        [v[0], v[1], v[2]]
    };
    for name in [
        "A wall s", "A cpu s", "B wall s", "B cpu s", "A/B wall", "A/B cpu",
    ] {
        let [lo, mid, hi] = figure(name);
        assert!(0.0 <= lo && lo <= mid && mid <= hi, "{name}: {text}");
    }
    assert!(figure("B wall s")[0] >= 0.2, "{text}");
    assert!(figure("A/B wall")[2] < 1.0, "{text}");
    for bad in [vec!["-n", "0", "a", "b"], vec!["only-one"]] {
        let out = std::process::Command::new("bash")
            .arg(script)
            .args(&bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("usage: "));
    }
}

//! One seeding rule everywhere: trial `i` of `compare`, `growth` and `convergence` with
//! `--seed S` is trial `i` of an experiment with `seed = S` and the same solver's cell on
//! the same board, every listed trial carries its seed, and `solve --seed THAT` replays
//! it (`--max-attempts 1` for a network trial that is one attempt).

use std::collections::HashMap;
use std::path::Path;

use crate::common::{knightnet, report_rows};
use knightnet::seeds::trial_seed;
use serde_json::Value;

/// A seed above 2^63, which spreadsheets and R's doubles would round.
const HIGH_SEED: &str = "18446744073709551557";

/// Run an experiment of `entries` (`[[solver]]` bodies) on `board` with `seed` and
/// `trials`; its records as one map of column to text per row.
fn experiment_records(
    dir: &Path,
    seed: &str,
    trials: u64,
    board: &str,
    entries: &[&str],
) -> Vec<HashMap<String, String>> {
    let spec = dir.join("spec.toml");
    let mut text =
        format!("name = \"seeding\"\nseed = {seed}\ntrials = {trials}\nboards = [\"{board}\"]\n");
    for e in entries {
        text += &format!("[[solver]]\n{e}\n");
    }
    std::fs::write(&spec, text).unwrap();
    let out = dir.join("out");
    let run = knightnet(&[
        "experiment",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    read_csv(&out.join("records.csv"))
}

/// Every row of a CSV file as a map of column to text.
fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|row| {
            let row = row.unwrap();
            header
                .iter()
                .cloned()
                .zip(row.iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The records of the cell labelled `label`, in trial order.
fn cell<'a>(
    records: &'a [HashMap<String, String>],
    label: &str,
) -> Vec<&'a HashMap<String, String>> {
    let mut rows: Vec<_> = records.iter().filter(|r| r["label"] == label).collect();
    rows.sort_by_key(|r| r["trial"].parse::<u64>().unwrap());
    rows
}

/// `solve` of `solver` on `board` with `seed` (and more flags), as JSON (printed also
/// when no tour was found, which exits 1).
fn solve(solver: &str, board: &str, seed: &str, more: &[&str]) -> Value {
    let mut args = vec![
        "solve", "--solver", solver, "--board", board, "--seed", seed, "--format", "json",
    ];
    args.extend_from_slice(more);
    let out = knightnet(&args);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON value")
}

#[test]
fn compare_trials_are_the_experiment_trials() {
    let (board, trials) = ("6x6", 6u64);
    for seed in ["3", HIGH_SEED] {
        let tmp = tempfile::tempdir().unwrap();
        let records = experiment_records(
            tmp.path(),
            seed,
            trials,
            board,
            &[
                "solver = \"network:parberry\"",
                "solver = \"network+merge:parberry\"",
                "solver = \"warnsdorff:random\"",
                "solver = \"divide-conquer\"",
            ],
        );
        let rows = report_rows(&[
            "compare",
            "--board",
            board,
            "--trials",
            &trials.to_string(),
            "--seed",
            seed,
            "--solvers",
            "network:parberry,network+merge:parberry,warnsdorff:random,divide-conquer",
            "--threads",
            "2",
            "--format",
            "json",
        ]);
        // The default labels of the spec's entries name the same cells.
        for (row, label) in rows.as_array().unwrap().iter().zip([
            "parberry",
            "merge-parberry",
            "warnsdorff:random",
            "divide-conquer",
        ]) {
            let listed = row["per_trial"].as_array().unwrap();
            let recorded = cell(&records, label);
            assert_eq!(listed.len() as u64, trials, "{row}");
            assert_eq!(recorded.len() as u64, trials, "{label}");
            for (i, (t, r)) in listed.iter().zip(&recorded).enumerate() {
                assert_eq!(t["trial"], i as u64);
                assert_eq!(t["seed"].to_string(), r["seed"], "{label} trial {i}");
                let (outcome, iterations) = (t["outcome"].as_str().unwrap(), &t["iterations"]);
                if label == "parberry" {
                    // The experiment's trial is one attempt, compare's restarts until a
                    // tour: its first attempt is the experiment's.
                    if r["outcome"] == "tour" {
                        assert_eq!(t["attempts"], 1, "{label} trial {i}: {t}");
                        assert_eq!(outcome, "tour");
                        assert_eq!(iterations.to_string(), r["iterations"]);
                    } else {
                        assert!(t["attempts"].as_u64().unwrap() >= 2, "{t}");
                        let first: u64 = r["iterations"].parse().unwrap();
                        assert!(iterations.as_u64().unwrap() > first, "{t}");
                    }
                } else {
                    assert_eq!(outcome, r["outcome"], "{label} trial {i}");
                    assert_eq!(iterations.to_string(), r["iterations"], "{label} trial {i}");
                }
            }
            // The tours counted are the listed tours.
            let tours = listed.iter().filter(|t| t["outcome"] == "tour").count();
            assert_eq!(row["tours"], tours as u64);
        }
        // A network record replays with `solve --seed SEED --max-attempts 1`, and a
        // listed compare trial with `solve --seed SEED`.
        let net = cell(&records, "parberry");
        let listed = rows[0]["per_trial"].as_array().unwrap();
        for i in 0..2 {
            let r = net[i];
            let one = solve(
                "network:parberry",
                board,
                &r["seed"],
                &["--max-attempts", "1"],
            );
            assert_eq!(one["outcome"], r["outcome"].as_str());
            assert_eq!(one["iterations"].to_string(), r["iterations"]);
            let t = &listed[i];
            let whole = solve("network:parberry", board, &t["seed"].to_string(), &[]);
            for key in ["outcome", "attempts", "iterations"] {
                assert_eq!(whole[key], t[key], "{key}: {t}");
            }
        }
    }
}

#[test]
fn growth_points_list_the_experiment_seeds() {
    let rows = report_rows(&[
        "growth",
        "--solvers",
        "network:parberry,warnsdorff:random",
        "--sizes",
        "6,8",
        "--trials",
        "3",
        "--seed",
        HIGH_SEED,
        "--format",
        "json",
    ]);
    let base: u64 = HIGH_SEED.parse().unwrap();
    for (row, label) in rows
        .as_array()
        .unwrap()
        .iter()
        .zip(["parberry", "warnsdorff:random"])
    {
        for p in row["points"].as_array().unwrap() {
            let side = p["side"].as_u64().unwrap();
            let board = format!("{side}x{side}");
            let seeds: Vec<u64> = p["seeds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_u64().unwrap())
                .collect();
            let expected: Vec<u64> = (0..3)
                .map(|i| trial_seed(base, &format!("{label}/{board}"), i))
                .collect();
            assert_eq!(seeds, expected, "{label} on {board}");
            // Replaying the listed seeds finds the point's tours.
            let tours = seeds
                .iter()
                .filter(|s| {
                    solve(row["solver"].as_str().unwrap(), &board, &s.to_string(), &[])["outcome"]
                        == "tour"
                })
                .count();
            assert_eq!(p["tours"], tours as u64, "{label} on {board}");
        }
    }
}

#[test]
fn convergence_runs_are_the_experiment_trials() {
    let tmp = tempfile::tempdir().unwrap();
    let (board, runs) = ("6x6", 5u64);
    let seed = HIGH_SEED;
    let records = experiment_records(
        tmp.path(),
        seed,
        runs,
        board,
        &[
            "solver = \"network:parberry\"",
            "solver = \"network:numpy\"",
        ],
    );
    let fig = tmp.path().join("c.png");
    let out = knightnet(&[
        "convergence",
        "--board",
        board,
        "--runs",
        &runs.to_string(),
        "--seed",
        seed,
        "--overlay",
        "numpy",
        "--out",
        fig.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = read_csv(&tmp.path().join("c-runs.csv"));
    for label in ["parberry", "numpy"] {
        let mine: Vec<_> = listed
            .iter()
            .filter(|r| r["configuration"] == label)
            .collect();
        let recorded = cell(&records, label);
        assert_eq!(mine.len() as u64, runs);
        for (i, (m, r)) in mine.iter().zip(&recorded).enumerate() {
            assert_eq!(m["run"], i.to_string());
            assert_eq!(m["seed"], r["seed"], "{label} run {i}");
            assert_eq!(m["attempt"], "1");
            assert_eq!(m["outcome"], r["outcome"], "{label} run {i}");
            assert_eq!(m["iterations"], r["iterations"], "{label} run {i}");
        }
        // `solve --seed SEED --max-attempts 1` replays a run.
        let m = mine[runs as usize - 1];
        let one = solve(
            &format!("network:{label}"),
            board,
            &m["seed"],
            &["--max-attempts", "1"],
        );
        assert_eq!(one["outcome"], m["outcome"].as_str());
        assert_eq!(one["iterations"].to_string(), m["iterations"]);
    }
}

#[test]
fn default_labels_are_the_spec_labels() {
    use knightnet::experiment::spec::Spec;
    use knightnet::solvers::SolverKind;
    for name in SolverKind::names() {
        let kind: SolverKind = name.parse().unwrap();
        let text = format!("trials = 1\nboards = [\"8x8\"]\n[[solver]]\nsolver = \"{name}\"\n");
        let spec = Spec::parse(&text, "labels", "test").unwrap();
        assert_eq!(spec.cells[0].label, kind.default_label(), "{name}");
    }
}

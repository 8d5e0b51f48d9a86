//! Parameter sweeps in experiment specs: list-valued network keys expand into labelled
//! cells seeded by label, so adding a value changes no other cell's trials; swept
//! records replay through `solve`; the cell bound holds before expansion; and
//! `knightnet stats` recomputes the summary's comparisons and time to solution.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{assert_refused, json_of, knightnet};
use knightnet::experiment::records::{self, Record};
use knightnet::solvers::Outcome;

/// Run `spec` (TOML text) into `dir/out` with the CLI; return its records by
/// (label, board, trial), timing and cell index cleared.
fn run(dir: &Path, name: &str, spec: &str) -> BTreeMap<(String, String, u64), Record> {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, spec).unwrap();
    let out = dir.join(name);
    let o = knightnet(&[
        "experiment",
        path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    records::read(&out.join("records.csv"))
        .unwrap()
        .records
        .into_iter()
        .map(|r| {
            let r = Record {
                cell: 0,
                spec: String::new(),
                ..r.without_timing()
            };
            ((r.label.clone(), r.board.to_string(), r.trial), r)
        })
        .collect()
}

const HEAD: &str = "seed = 11\ntrials = 40\nboards = [\"6x6\", \"8x8\"]\n";

#[test]
fn adding_a_value_changes_no_other_cells_trials() {
    let dir = tempfile::tempdir().unwrap();
    let small = run(
        dir.path(),
        "small",
        &format!("{HEAD}[[solver]]\nsolver = \"network:parberry\"\nc = [4, 5]\ns = [2]\n"),
    );
    let large = run(
        dir.path(),
        "large",
        &format!("{HEAD}[[solver]]\nsolver = \"network:parberry\"\nc = [3, 4, 5]\ns = [2, 1]\n"),
    );
    assert_eq!(small.len(), 2 * 2 * 40);
    assert_eq!(large.len(), 6 * 2 * 40);
    for (key, r) in &small {
        assert_eq!(
            large.get(key),
            Some(r),
            "{key:?} differs once values are added"
        );
    }
    // The (4, 2) cell found tours, so the comparison is not between empty records.
    assert!(
        small
            .values()
            .any(|r| r.label == "parberry c=4 s=2" && r.outcome == Outcome::Tour)
    );
    // A hand-written cell with the swept cell's label and values runs the same trials.
    let hand = run(
        dir.path(),
        "hand",
        &format!(
            "{HEAD}[[solver]]\nsolver = \"network:parberry\"\nlabel = \"parberry c=5 s=2\"\nc = 5\ns = 2\n"
        ),
    );
    assert_eq!(hand.len(), 80);
    for (key, r) in &hand {
        assert_eq!(small.get(key), Some(r), "{key:?}");
    }
}

#[test]
fn a_swept_record_replays_with_solve() {
    let dir = tempfile::tempdir().unwrap();
    let recs = run(
        dir.path(),
        "replay",
        "seed = 3\ntrials = 30\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\nc = [4, 5]\norder = [\"sequential\", \"square-sweep\"]\n",
    );
    let mut seen = BTreeMap::new();
    for r in recs.values() {
        // A few records of every cell, tours and failures alike.
        let n = seen.entry((r.label.clone(), r.outcome)).or_insert(0);
        if *n >= 2 {
            continue;
        }
        *n += 1;
        let seed = r.seed.to_string();
        let board = r.board.to_string();
        let mut args = vec!["solve", "--board", &board, "--variant"];
        args.extend(r.variant.split_whitespace());
        args.extend(["--seed", &seed, "--max-attempts", "1", "--format", "json"]);
        let o = knightnet(&args);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&o.stderr)));
        assert_eq!(v["outcome"], r.outcome.name(), "{args:?}");
        assert_eq!(v["iterations"], r.iterations, "{args:?}");
    }
    // Every cell was replayed, and some replays were tours.
    assert_eq!(
        seen.keys()
            .map(|k| k.0.clone())
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        4
    );
    assert!(seen.keys().any(|k| k.1 == Outcome::Tour));
}

#[test]
fn a_sweep_too_large_is_refused_before_expansion() {
    let dir = tempfile::tempdir().unwrap();
    let list: Vec<String> = (1..=1000).map(|i| i.to_string()).collect();
    let spec = format!(
        "trials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nc = [{0}]\ns = [{0}]\nupper = [{0}]\n",
        list.join(", ")
    );
    let path = dir.path().join("huge.toml");
    std::fs::write(&path, spec).unwrap();
    let out = dir.path().join("out");
    let started = std::time::Instant::now();
    let err = assert_refused(
        &[
            "experiment",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "cells",
    );
    assert!(
        err.contains("1000000000 cells") && err.contains("10000"),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 10);
    assert!(!out.exists());
}

#[test]
fn stats_recomputes_the_comparisons_and_time_to_solution() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "seed = 5\ntrials = 60\nboards = [\"6x6\", \"8x8\"]\nreference = \"parberry c=4 s=2\"\n[[solver]]\nsolver = \"network:parberry\"\nc = [4]\ns = [2, 1]\n[[solver]]\nsolver = \"network:brant\"\n";
    run(dir.path(), "st", spec);
    let folder = dir.path().join("st");
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(folder.join("summary.json")).unwrap())
            .unwrap();
    let dir_s = folder.to_str().unwrap();
    let stats = json_of(&["stats", dir_s, "--format", "json"]);
    assert_eq!(stats["reference"], "parberry c=4 s=2");
    // The summary's comparisons, in the shape of every JSON document: the board as
    // {rows, cols}, the difference with its interval as {value, low, high}.
    let comps = stats["comparisons"].as_array().unwrap();
    let written = summary["comparisons"].as_array().unwrap();
    assert_eq!(comps.len(), written.len());
    for (c, w) in comps.iter().zip(written) {
        for key in [
            "cell",
            "label",
            "reference_cell",
            "z",
            "p",
            "p_holm",
            "attempts_ratio",
        ] {
            assert_eq!(c[key], w[key], "{key}: {c} {w}");
        }
        let board: knightnet::board::Board = w["board"].as_str().unwrap().parse().unwrap();
        assert_eq!(c["board"], serde_json::to_value(board).unwrap());
        assert_eq!(c["difference"]["value"], w["difference"]);
        assert_eq!(c["difference"]["low"], w["difference_low"]);
        assert_eq!(c["difference"]["high"], w["difference_high"]);
    }
    // 3 labels x 2 boards, every non-reference cell compared: 4 comparisons.
    assert_eq!(comps.len(), 4);
    for (cell, s) in stats["cells"]
        .as_array()
        .unwrap()
        .iter()
        .zip(summary["cells"].as_array().unwrap())
    {
        assert_eq!(cell["r99"]["value"], s["r99"]);
        assert_eq!(cell["r99"]["low"], s["r99_low"]);
        assert_eq!(cell["r99"]["high"], s["r99_high"]);
        // Durations in seconds, the summary's in nanoseconds.
        let ns = s["tts99_ns"].as_f64();
        let secs = cell["tts99_seconds"]["value"].as_f64();
        assert_eq!(secs.is_some(), ns.is_some(), "{cell}");
        if let (Some(secs), Some(ns)) = (secs, ns) {
            assert!((secs * 1e9 - ns).abs() <= 1e-9 * ns, "{cell}");
        }
        // R99 from the definition, from the cell's counts.
        let (k, n) = (
            cell["tours"].as_f64().unwrap(),
            cell["trials"].as_f64().unwrap(),
        );
        if k > 0.0 && k < n {
            let r = (0.01f64.ln() / (1.0 - k / n).ln()).ceil();
            assert_eq!(cell["r99"]["value"].as_f64().unwrap(), r);
        }
    }
    // The (4, 1) cells never settle, so each comparison with them is a drop in tours.
    for c in comps.iter().filter(|c| c["label"] == "parberry c=4 s=1") {
        assert!(c["difference"]["value"].as_f64().unwrap() < 0.0, "{c}");
        assert!(c["p_holm"].as_f64().unwrap() >= c["p"].as_f64().unwrap());
    }
    // Another reference recomputes against it.
    let other = json_of(&["stats", dir_s, "--reference", "brant", "--format", "json"]);
    assert_eq!(other["reference"], "brant");
    assert!(
        other["comparisons"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["label"] != "brant")
    );
    let md = knightnet(&["stats", dir_s, "--format", "markdown"]);
    assert!(String::from_utf8_lossy(&md.stdout).contains("## Comparisons with `parberry c=4 s=2`"));
    assert_refused(&["stats", dir_s, "--reference", "nope"], "--reference");
    assert_refused(&["stats", dir.path().to_str().unwrap()], "run.json");
}

#[test]
fn plot_draws_the_phase_diagram_of_a_two_key_sweep() {
    let dir = tempfile::tempdir().unwrap();
    run(
        dir.path(),
        "ph",
        "seed = 2\ntrials = 20\nboards = [\"6x6\", \"8x8\"]\n[[solver]]\nsolver = \"network:parberry\"\nc = [4, 5]\ns = [1, 2, 3]\n",
    );
    let folder = dir.path().join("ph");
    let figs = dir.path().join("figs");
    let o = knightnet(&[
        "plot",
        folder.to_str().unwrap(),
        "--out",
        figs.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(figs.join("phase.png").is_file());
    // One row per (board, c, s), with the cell's counts from its records.
    let recs = records::read(&folder.join("records.csv")).unwrap().records;
    let mut rd = csv::Reader::from_path(figs.join("phase.csv")).unwrap();
    let rows: Vec<csv::StringRecord> = rd.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 2 * 2 * 3);
    for row in &rows {
        let (board, c, s, label) = (&row[0], &row[1], &row[2], &row[3]);
        assert_eq!(label, format!("parberry c={c} s={s}"));
        let tours = recs
            .iter()
            .filter(|r| {
                r.label == label && r.board.to_string() == board && r.outcome == Outcome::Tour
            })
            .count();
        assert_eq!(row[5].parse::<usize>().unwrap(), tours, "{row:?}");
        assert_eq!(&row[4], "20");
    }
}

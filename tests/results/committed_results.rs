//! The committed results are current: every folder under `experiments/results/` was made
//! by this engine version from a clean tree, and rerunning the quickstart spec gives the
//! committed records again, row for row (timing columns aside). The last check is the
//! value pin of the whole stack: a change to the update rule, a solver's walk or the
//! seeding changes a record and fails it, which says to bump `ENGINE_VERSION` and
//! regenerate the results.

use crate::common;

use std::path::{Path, PathBuf};

fn results_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/results")
}

fn folders() -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(results_root())
        .expect("experiments/results exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("run.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn every_committed_results_folder_is_from_this_engine_and_a_clean_tree() {
    let dirs = folders();
    assert!(dirs.len() >= 6, "results folders found: {dirs:?}");
    let mut stale = Vec::new();
    for dir in &dirs {
        let text = std::fs::read_to_string(dir.join("run.json")).unwrap();
        let run: serde_json::Value = serde_json::from_str(&text).unwrap();
        let engine = run["engine_version"].as_u64().unwrap_or(0);
        if engine != u64::from(knightnet::ENGINE_VERSION) {
            stale.push(format!(
                "{}: engine version {engine}, current {}",
                dir.display(),
                knightnet::ENGINE_VERSION
            ));
        }
        if run["git_dirty"] != serde_json::Value::Bool(false) {
            stale.push(format!(
                "{}: git_dirty is {} (results must come from a committed tree)",
                dir.display(),
                run["git_dirty"]
            ));
        }
        if run["complete"] != serde_json::Value::Bool(true) {
            stale.push(format!("{}: the run is not complete", dir.display()));
        }
    }
    assert!(
        stale.is_empty(),
        "stale committed results (rerun them: docs/experiments.md, 'Regenerating the committed results'):\n{}",
        stale.join("\n")
    );
}

/// The records of `path` without the columns whose name ends in `_ns` (timings).
fn records_without_timings(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<bool> = header.iter().map(|h| !h.ends_with("_ns")).collect();
    let strip = |line: &str| {
        line.split(',')
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(f, _)| f)
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut rows: Vec<String> = lines.map(strip).collect();
    // Rows are written as trials finish; the pin is on the set of records.
    rows.sort();
    rows.insert(0, strip(&header.join(",")));
    rows
}

#[test]
fn the_quickstart_rerun_gives_the_committed_records() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("q");
    let run = common::knightnet(&[
        "experiment",
        "--out",
        out.to_str().unwrap(),
        "--threads",
        "2",
        "--quiet",
    ]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let fresh = records_without_timings(&out.join("records.csv"));
    let committed = records_without_timings(&results_root().join("quickstart/records.csv"));
    assert_eq!(fresh.len(), committed.len(), "number of records");
    for (i, (a, b)) in fresh.iter().zip(&committed).enumerate() {
        assert_eq!(
            a, b,
            "record {i} (sorted) differs from the committed quickstart: the engine's results changed; bump ENGINE_VERSION and regenerate experiments/results"
        );
    }
}

/// Every committed folder passes the row-by-row check its own spec makes on resume (seed
/// recomputed, squares parsed, outcomes known): resumed into a copy, no trial is run and
/// the records come back byte for byte. A record the check cannot read back (such as a
/// start square printed in a form the parser refused) fails here.
#[test]
fn every_committed_folder_resumes_with_no_trial_to_run() {
    let spec_root = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
    for dir in folders() {
        let name = dir.file_name().unwrap().to_str().unwrap().to_string();
        let tmp = tempfile::tempdir().unwrap();
        let copy = tmp.path().join(&name);
        std::fs::create_dir(&copy).unwrap();
        for file in ["run.json", "records.csv"] {
            std::fs::copy(dir.join(file), copy.join(file)).unwrap();
        }
        let spec = spec_root.join(format!("{name}.toml"));
        let mut args = vec!["experiment".to_string()];
        if name != "quickstart" {
            args.push(spec.to_str().unwrap().to_string());
        }
        args.extend(["--resume", "--out", copy.to_str().unwrap()].map(String::from));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = common::knightnet(&args);
        let text = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(text.contains("0 trials run"), "{name}: {text}");
        assert_eq!(
            std::fs::read(dir.join("records.csv")).unwrap(),
            std::fs::read(copy.join("records.csv")).unwrap(),
            "{name}: resuming changed the records"
        );
        // The summary is a function of the spec and the records: the same bytes again.
        for file in ["summary.json", "summary.md"] {
            assert_eq!(
                std::fs::read_to_string(dir.join(file)).unwrap(),
                std::fs::read_to_string(copy.join(file)).unwrap(),
                "{name}: resuming changed {file}"
            );
        }
        // The resolved spec in run.json is written back exactly as it was read.
        let spec_text = |d: &Path| {
            let run: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(d.join("run.json")).unwrap())
                    .unwrap();
            serde_json::to_string_pretty(&run["spec"]).unwrap()
        };
        assert_eq!(
            spec_text(&dir),
            spec_text(&copy),
            "{name}: resuming rewrote the spec in run.json"
        );
    }
}

/// Every committed `run.json` reads into the library's typed `RunInfo` and writes back
/// byte for byte: the typed cells (boards, solvers, start rules, tile modes) print the
/// very strings they were read from.
#[test]
fn every_committed_run_json_reads_back_to_the_same_bytes() {
    for dir in folders() {
        let text = std::fs::read_to_string(dir.join("run.json")).unwrap();
        let info: knightnet::experiment::RunInfo =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let again = serde_json::to_string_pretty(&info).unwrap() + "\n";
        assert!(
            again == text,
            "{}: run.json does not read back to the same bytes",
            dir.display()
        );
    }
}

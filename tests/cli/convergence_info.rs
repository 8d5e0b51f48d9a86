//! `convergence` writes `FIG.convergence.json` beside its figure: the knightnet version
//! and git revision, the board and graph, runs and base seed, and every configuration
//! with its preset and resolved parameters; with `--trace`, the trace file, its seed
//! and attempt, and the parameters the trace records. It never writes over the trace.

use serde_json::Value;

use crate::common::{assert_refused, stdout_of};

fn read(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The parameters `solve --variant PRESET --trace` records for a preset.
fn preset_params(dir: &std::path::Path, preset: &str) -> Value {
    let trace = dir.join(format!("{preset}-trace.json"));
    stdout_of(&[
        "solve",
        "--board",
        "6x6",
        "--variant",
        preset,
        "--trace",
        trace.to_str().unwrap(),
    ]);
    read(&trace)["params"].clone()
}

#[test]
fn convergence_writes_what_ran_beside_its_figure() {
    let tmp = tempfile::tempdir().unwrap();
    let fig = tmp.path().join("c.svg");
    let out = stdout_of(&[
        "convergence",
        "--board",
        "6x5",
        "--runs",
        "3",
        "--seed",
        "7",
        "--c",
        "3",
        "--overlay",
        "numpy",
        "--out",
        fig.to_str().unwrap(),
    ]);
    let meta_path = tmp.path().join("c.convergence.json");
    assert!(out.contains("c.convergence.json"), "{out}");
    let meta = read(&meta_path);
    assert_eq!(meta["format"], "knightnet-convergence");
    assert_eq!(meta["knightnet_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(meta["engine_version"], knightnet::ENGINE_VERSION);
    // Built from a git clone, the revision is that of its HEAD.
    let head = std::process::Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if let Some(head) = head {
        assert_eq!(meta["git_revision"], head.as_str());
        assert!(meta["git_dirty"].is_boolean());
    }
    assert_eq!(meta["mode"], "runs");
    assert_eq!(meta["board"], serde_json::json!({"rows": 6, "cols": 5}));
    assert_eq!(meta["graph"], "knight");
    assert_eq!(meta["seed"], 7);
    assert_eq!(meta["runs"], 3);
    let configs = meta["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 2);
    // The first configuration: parberry with C overridden, its parameters resolved.
    let mut want = preset_params(tmp.path(), "parberry");
    want["c"] = 3.into();
    assert_eq!(configs[0]["variant"], "parberry --c 3");
    assert_eq!(configs[0]["preset"], "parberry");
    assert_eq!(configs[0]["params"], want);
    assert_eq!(configs[0]["unit"], "sweep");
    assert_eq!(configs[1]["variant"], "numpy");
    assert_eq!(configs[1]["params"], preset_params(tmp.path(), "numpy"));
    assert_eq!(configs[1]["unit"], "step");
    // Runs and tours per configuration agree with the runs CSV.
    let runs = std::fs::read_to_string(tmp.path().join("c-runs.csv")).unwrap();
    for c in configs {
        let variant = c["variant"].as_str().unwrap();
        let mine: Vec<&str> = runs
            .lines()
            .filter(|l| l.split(',').next() == Some(variant))
            .collect();
        assert_eq!(c["runs"], mine.len(), "{variant}");
        let tours = mine
            .iter()
            .filter(|l| l.split(',').nth(4) == Some("tour"))
            .count();
        assert_eq!(c["tours"], tours, "{variant}");
        assert!(c["attempt"].is_null());
    }

    // The open graph from a start square.
    let open = tmp.path().join("open.png");
    stdout_of(&[
        "convergence",
        "--board",
        "5x5",
        "--open",
        "--start",
        "a1",
        "--runs",
        "2",
        "--out",
        open.to_str().unwrap(),
    ]);
    let meta = read(&tmp.path().join("open.convergence.json"));
    assert_eq!(meta["graph"], "open");
    assert_eq!(meta["start"], "a1");
}

#[test]
fn convergence_of_a_trace_names_the_trace_and_never_writes_over_it() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("run.json");
    let t = trace.to_str().unwrap();
    stdout_of(&[
        "solve",
        "--board",
        "6x6",
        "--seed",
        "3",
        "--variant",
        "brant",
        "--trace",
        t,
    ]);
    let doc = read(&trace);
    let fig = tmp.path().join("run-figure.png");
    stdout_of(&["convergence", "--trace", t, "--out", fig.to_str().unwrap()]);
    let meta = read(&tmp.path().join("run-figure.convergence.json"));
    assert_eq!(meta["mode"], "trace");
    assert_eq!(meta["trace_file"], t);
    assert_eq!(meta["seed"], 3);
    assert_eq!(meta["runs"], 1);
    assert_eq!(meta["board"], serde_json::json!({"rows": 6, "cols": 6}));
    let c = &meta["configurations"][0];
    assert_eq!(c["variant"], doc["variant"]);
    assert_eq!(c["preset"], "brant");
    assert_eq!(c["params"], doc["params"]);
    assert_eq!(c["attempt"], doc["attempt"]);
    assert_eq!(c["tours"], u64::from(doc["outcome"] == "tour"));

    // A figure whose metadata would be the trace itself is refused, the trace intact.
    let named = tmp.path().join("x.convergence.json");
    std::fs::copy(&trace, &named).unwrap();
    let before = std::fs::read(&named).unwrap();
    let out = tmp.path().join("x.png");
    assert_refused(
        &[
            "convergence",
            "--trace",
            named.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        "over the trace",
    );
    assert_eq!(std::fs::read(&named).unwrap(), before);
    assert!(!out.exists());
}

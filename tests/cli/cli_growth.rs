//! `knightnet growth`: the fit recovers known exponents, the JSON contract on tiny
//! sizes, and bad input.

use crate::common::{assert_refused, knightnet, report_rows};

use knightnet::growth::fit_power_law;
use serde_json::Value;

#[test]
fn fit_recovers_a_known_exponent() {
    // Exact power laws: the exponent and coefficient come back, with zero error.
    let squares: Vec<f64> = [8.0f64, 16.0, 32.0, 64.0, 128.0]
        .iter()
        .map(|s| s * s)
        .collect();
    for k in [0.5, 1.0, 1.5, 2.0] {
        let secs: Vec<f64> = squares.iter().map(|n| 3e-7 * n.powf(k)).collect();
        let f = fit_power_law(&squares, &secs).unwrap();
        assert!((f.exponent - k).abs() < 1e-9, "{k}: {f:?}");
        assert!((f.coefficient / 3e-7 - 1.0).abs() < 1e-6);
        assert!(f.stderr.unwrap() < 1e-9);
        assert!((f.r2 - 1.0).abs() < 1e-12);
        assert_eq!(f.points, 5);
    }
    // Multiplicative noise of +-10% alternating: the exponent stays near 1.2 and the
    // confidence interval covers it.
    let secs: Vec<f64> = squares
        .iter()
        .enumerate()
        .map(|(i, n)| n.powf(1.2) * if i % 2 == 0 { 1.1 } else { 0.9 })
        .collect();
    let f = fit_power_law(&squares, &secs).unwrap();
    assert!((f.exponent - 1.2).abs() < 0.05, "{f:?}");
    let [lo, hi] = f.ci95.unwrap();
    assert!(lo < 1.2 && 1.2 < hi && f.stderr.unwrap() > 0.0, "{f:?}");
    // Two points: a slope but no error estimate; fewer, or bad values: no fit.
    let two = fit_power_law(&[64.0, 256.0], &[1.0, 4.0]).unwrap();
    assert!((two.exponent - 1.0).abs() < 1e-12 && two.stderr.is_none());
    assert!(fit_power_law(&[64.0], &[1.0]).is_none());
    assert!(fit_power_law(&[64.0, 64.0], &[1.0, 2.0]).is_none());
    assert!(fit_power_law(&[64.0, 256.0], &[0.0, 2.0]).is_none());
}

#[test]
fn tiny_sizes_give_well_formed_json() {
    let rows: Vec<Value> = serde_json::from_value(report_rows(&[
        "growth",
        "--solvers",
        "warnsdorff:squirrel-cull,divide-conquer",
        "--sizes",
        "8,10,12",
        "--trials",
        "3",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["solver"], "warnsdorff:squirrel-cull");
    assert_eq!(rows[1]["solver"], "divide-conquer");
    for r in &rows {
        let sizes: Vec<u64> = r["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(sizes, vec![8, 10, 12], "{r}");
        let secs = r["seconds"].as_array().unwrap();
        assert_eq!(secs.len(), 3);
        assert!(secs.iter().all(|v| v.as_f64().unwrap() > 0.0));
        for p in r["points"].as_array().unwrap() {
            assert_eq!(p["trials"], 3);
            assert_eq!(p["tours"], 3, "{p}");
            assert_eq!(
                p["squares"].as_u64().unwrap(),
                p["side"].as_u64().unwrap().pow(2)
            );
        }
        let k = r["exponent"]["value"].as_f64().unwrap();
        assert!(k.is_finite());
        // Three sides: a 95% interval around the exponent.
        let [lo, hi] = ["low", "high"].map(|end| r["exponent"][end].as_f64().unwrap());
        assert!(lo < k && k < hi, "{r}");
        assert!(r["stderr"].as_f64().is_some());
        assert_eq!(r["fit_from"], 8);
        assert_eq!(r["fit_to"], 12);
        assert_eq!(r["skipped"].as_array().unwrap().len(), 0);
    }
}

#[test]
fn unservable_sides_are_skipped_with_a_reason() {
    // network+merge builds closed tours only: the odd side is skipped, the even ones run.
    let rows: Vec<Value> = serde_json::from_value(report_rows(&[
        "growth",
        "--solvers",
        "network+merge",
        "--sizes",
        "6,7,8",
        "--trials",
        "1",
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(rows[0]["sizes"], serde_json::json!([6, 8]));
    let skipped = rows[0]["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 1);
    assert_eq!(skipped[0]["side"], 7);
    assert!(skipped[0]["reason"].as_str().unwrap().contains("closed"));
}

#[test]
fn text_output_names_the_exponent() {
    let out = knightnet(&[
        "growth",
        "--solvers",
        "warnsdorff",
        "--sizes",
        "8,16",
        "--trials",
        "1",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("exponent k"), "{text}");
    assert!(text.contains("warnsdorff:roth"), "{text}");
}

#[test]
fn bad_input_is_a_clear_error() {
    for (args, needle) in [
        (&["--sizes", "0,8"][..], "0"),
        (&["--sizes", "8,abc"], "malformed"),
        (&["--sizes", "8"], "at least two"),
        (
            &["--sizes", "9,11", "--solvers", "network:parberry"],
            "network:parberry",
        ),
        (
            &["--solvers", "warnsdorff,nosuch", "--sizes", "8,16"],
            "unknown solver",
        ),
        (&["--budget", "0", "--sizes", "8,16"], "--budget"),
        (&["--trials", "0", "--sizes", "8,16"], "--trials"),
        (&["--threads", "0", "--sizes", "8,16"], "--threads"),
        (&["--threads", "1025", "--sizes", "8,16"], "1024"),
        (&["--threads", "100000", "--sizes", "8,16"], "--threads"),
    ] {
        let mut all = vec!["growth"];
        all.extend_from_slice(args);
        let err = assert_refused(&all, needle);
        assert!(err.starts_with("error:"), "{args:?}: {err}");
    }
}

/// The pool never has more threads than a solve can use: solvers without tiles run
/// one solve at a time on one thread, whatever `--threads` says.
#[test]
fn threads_never_exceed_the_parallel_work() {
    let out = knightnet(&[
        "growth",
        "--threads",
        "1024",
        "--sizes",
        "8,16",
        "--trials",
        "1",
        "--solvers",
        "warnsdorff:roth",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let first = String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    assert!(first.ends_with(", 1 thread"), "{first}");
}

/// Beyond the knight: `--surface` and `--leaper` time the solvers that run on any
/// graph, each trial with the seed `compare` gives the same cell (so both run the same
/// solves); a solver that runs only on the knight's plane board, and a leaper with no
/// tour on any side, are refused in one line.
#[test]
fn growth_on_a_torus_takes_compares_seeds() {
    let args = |solver: &str| {
        vec![
            "growth".to_string(),
            "--surface".into(),
            "torus".into(),
            "--leaper".into(),
            "zebra".into(),
            "--solvers".into(),
            solver.into(),
            "--sizes".into(),
            "6,8".into(),
            "--trials".into(),
            "2".into(),
            "--seed".into(),
            "7".into(),
            "--format".into(),
            "json".into(),
        ]
    };
    let a = args("network:parberry");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let out = knightnet(&a);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["surface"], "torus");
    assert_eq!(doc["leaper"], "2,3");
    let row = &doc["rows"][0];
    assert_eq!(row["sizes"], serde_json::json!([6, 8]));
    for (i, side) in ["6x6", "8x8"].into_iter().enumerate() {
        let point = &row["points"][i];
        let compare = knightnet(&[
            "compare",
            "--board",
            side,
            "--surface",
            "torus",
            "--leaper",
            "zebra",
            "--solvers",
            "network:parberry",
            "--trials",
            "2",
            "--seed",
            "7",
            "--format",
            "json",
        ]);
        assert!(compare.status.success());
        let c: Value = serde_json::from_slice(&compare.stdout).unwrap();
        let seeds: Vec<&Value> = c["rows"][0]["per_trial"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| &t["seed"])
            .collect();
        let tours = c["rows"][0]["per_trial"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["outcome"] == "tour")
            .count();
        assert_eq!(
            point["seeds"]
                .as_array()
                .unwrap()
                .iter()
                .collect::<Vec<_>>(),
            seeds
        );
        assert_eq!(point["tours"], tours, "{side}");
    }
    let a = args("divide-conquer");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    assert_refused(&a, "divide-conquer");
    assert_refused(
        &[
            "growth",
            "--leaper",
            "camel",
            "--solvers",
            "warnsdorff",
            "--sizes",
            "6,8",
        ],
        "disconnected",
    );
    assert_refused(&["growth", "--surface", "sphere"], "sphere");
}

#[test]
fn the_networks_time_splits_into_sweeps_and_time_per_sweep() {
    let rows: Vec<Value> = serde_json::from_value(report_rows(&[
        "growth",
        "--solvers",
        "network:parberry,warnsdorff",
        "--sizes",
        "6,8,10",
        "--trials",
        "3",
        "--format",
        "json",
    ]))
    .unwrap();
    let (network, walk) = (&rows[0], &rows[1]);
    let mut squares = Vec::new();
    let mut sweeps = Vec::new();
    for p in network["points"].as_array().unwrap() {
        // The mean sweeps per solve are the replayed solves' own iterations.
        let side = p["side"].as_u64().unwrap();
        let board = format!("{side}x{side}");
        let replayed: Vec<(f64, f64)> = p["seeds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|seed| {
                let seed = seed.to_string();
                let out = knightnet(&[
                    "solve", "--board", &board, "--seed", &seed, "--format", "json",
                ]);
                let v: Value = serde_json::from_slice(&out.stdout).unwrap();
                (
                    v["attempts"].as_f64().unwrap(),
                    v["iterations"].as_f64().unwrap(),
                )
            })
            .collect();
        let n = replayed.len() as f64;
        let attempts = replayed.iter().map(|r| r.0).sum::<f64>() / n;
        let mean = replayed.iter().map(|r| r.1).sum::<f64>() / n;
        assert!(
            (p["mean_attempts"].as_f64().unwrap() - attempts).abs() < 1e-9,
            "{p}"
        );
        assert!(
            (p["mean_sweeps"].as_f64().unwrap() - mean).abs() < 1e-9,
            "{p}"
        );
        assert!(p["seconds_per_sweep"].as_f64().unwrap() > 0.0);
        squares.push((side * side) as f64);
        sweeps.push(mean);
    }
    let a = network["sweeps_exponent"]["value"].as_f64().unwrap();
    let fit = fit_power_law(&squares, &sweeps).unwrap();
    assert!((a - fit.exponent).abs() < 1e-9);
    assert!(
        network["sweep_seconds_exponent"]["value"]
            .as_f64()
            .is_some()
    );
    assert!(network["attempts_exponent"]["value"].as_f64().is_some());
    // Warnsdorff does not iterate: nothing to split.
    assert!(walk["sweeps_exponent"].is_null() && walk["sweep_seconds_exponent"].is_null());
    assert!(walk["attempts_exponent"].is_null());
    for p in walk["points"].as_array().unwrap() {
        assert!(
            p["mean_sweeps"].is_null() && p["seconds_per_sweep"].is_null(),
            "{p}"
        );
        assert!(p["mean_attempts"].is_null(), "{p}");
    }
}

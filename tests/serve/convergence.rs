//! The Results view's convergence data against a live server: the committed figures'
//! data in plots/ listed and served as `convergence` wrote it (its runs replayed in the
//! Watch view to the recorded ending), runs the Watch view cannot replay said so, and
//! malformed, foreign and escaping files ignored or refused with the reason.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::server::{Server, start};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn json(s: &Server, path: &str) -> Value {
    let (status, body) = s.request("GET", path, &[], "");
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
}

/// A CSV file's rows (header first), as text fields.
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

/// The last frame of the watch stream `query` run to its end.
fn last_frame(s: &Server, query: &str) -> Value {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET /api/watch?token={}&{query}&from=20000 HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        s.token, s.port
    )
    .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "{query}: no frame"
        );
        if let Some(data) = line.strip_prefix("data:") {
            return serde_json::from_str(data.trim()).unwrap();
        }
    }
}

/// `knightnet ARGS` in `dir`, which must succeed.
fn knightnet(dir: &Path, args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_committed_convergence_data_is_listed_with_its_curves_and_runs_replayed() {
    let plots = repo().join("plots");
    let s = start(&[&plots]);
    let listing = json(&s, "/api/convergence");
    let entries = listing["entries"].as_array().unwrap();
    let paths: Vec<&str> = entries
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    for stem in [
        "convergence-8x8",
        "convergence-8x8-takefuji-lee",
        "convergence-6x6-numpy",
        "convergence-8x8-presets",
    ] {
        assert!(
            paths.contains(&format!("{stem}.convergence.json").as_str()),
            "{stem} not in {paths:?}"
        );
    }
    assert_eq!(listing["ignored"], serde_json::json!([]));
    let presets = entries
        .iter()
        .find(|e| e["path"] == "convergence-8x8-presets.convergence.json")
        .unwrap();
    assert_eq!(
        presets["configurations"],
        serde_json::json!(["parberry", "wikipedia", "numpy"])
    );
    assert_eq!(presets["board"], "8x8");
    assert_eq!(presets["runs"], 50);

    let d = json(
        &s,
        "/api/convergence/0?path=convergence-8x8-presets.convergence.json",
    );
    // The curves are the CSV's rows, one series per configuration.
    let rows = csv_rows(&plots.join("convergence-8x8-presets.csv"));
    assert_eq!(d["data"]["header"], serde_json::to_value(&rows[0]).unwrap());
    assert_eq!(d["data"]["rows"], serde_json::to_value(&rows[1..]).unwrap());
    assert_eq!(d["data"]["total_rows"], rows.len() - 1);
    assert_eq!(d["log_x"], true, "parberry runs reach the 1000-sweep cap");
    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(plots.join("convergence-8x8-presets.convergence.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(d["info"]["revision"], meta["git_revision"]);
    assert_eq!(d["info"]["version"], meta["knightnet_version"]);
    assert_eq!(d["info"]["seed"], "1");
    for (c, m) in d["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .zip(meta["configurations"].as_array().unwrap())
    {
        assert_eq!(c["params"], m["params"]);
        assert_eq!(c["variant"], m["variant"]);
        assert!(c["watch"].is_string(), "{c}");
    }
    // Both CSVs are served as written.
    for (which, file) in [
        ("data", "convergence-8x8-presets.csv"),
        ("runs", "convergence-8x8-presets-runs.csv"),
    ] {
        let (status, body) = s.request(
            "GET",
            &format!(
                "/api/convergence/0/csv/{which}?path=convergence-8x8-presets.convergence.json"
            ),
            &[],
            "",
        );
        assert_eq!(status, 200, "{which}: {body}");
        assert_eq!(body, std::fs::read_to_string(plots.join(file)).unwrap());
    }

    // Every run is listed with its seed; the first two of each configuration, replayed
    // in the Watch view, end as the runs CSV says after as many iterations.
    let runs = csv_rows(&plots.join("convergence-8x8-presets-runs.csv"));
    let listed = d["runs"].as_array().unwrap();
    assert_eq!(listed.len(), runs.len() - 1);
    assert_eq!(d["total_runs"], runs.len() - 1);
    let mut replayed = 0;
    for (r, want) in listed.iter().zip(&runs[1..]) {
        assert_eq!(r["configuration"], want[0].as_str());
        assert_eq!(r["seed"], want[2].as_str());
        assert_eq!(r["outcome"], want[4].as_str());
        assert_eq!(r["iterations"], want[5].as_str());
        if want[1] == "0" || want[1] == "1" {
            let watch = r["watch"].as_str().unwrap();
            assert!(watch.contains(&format!("seed={}", want[2])), "{watch}");
            assert!(watch.contains("attempts=1"), "{watch}");
            let f = last_frame(&s, watch);
            assert_eq!(f["running"], false, "{watch}: {f}");
            assert_eq!(f["outcome"], want[4].as_str(), "{watch}");
            assert_eq!(f["step"].to_string(), want[5], "{watch}");
            assert_eq!(f["attempt"], 1, "{watch}");
            replayed += 1;
        }
    }
    assert_eq!(replayed, 6);
    let (status, _) = s.request(
        "GET",
        "/api/convergence/0/csv/other?path=convergence-8x8.convergence.json",
        &[],
        "",
    );
    assert_eq!(status, 404);
}

#[test]
fn runs_the_watch_view_cannot_replay_have_no_link_and_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    knightnet(
        d,
        &[
            "convergence",
            "--board",
            "5x5",
            "--open",
            "--runs",
            "2",
            "--out",
            "open.png",
        ],
    );
    knightnet(
        d,
        &[
            "convergence",
            "--board",
            "6x6",
            "--runs",
            "2",
            "--c",
            "3",
            "--overlay",
            "brant",
            "--out",
            "c3.png",
        ],
    );
    // A traced run that was the solve's fifth attempt.
    knightnet(
        d,
        &[
            "solve", "--board", "6x6", "--seed", "3", "--trace", "t.json",
        ],
    );
    knightnet(
        d,
        &["convergence", "--trace", "t.json", "--out", "traced.png"],
    );
    let s = start(&[d]);
    let open = json(&s, "/api/convergence/0?path=open.convergence.json");
    assert_eq!(open["info"]["graph"], "open");
    let c = &open["configurations"][0];
    assert!(c["watch"].is_null(), "{c}");
    assert!(c["replay_note"].as_str().unwrap().contains("open graph"));
    assert!(
        open["runs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["watch"].is_null())
    );

    let c3 = json(&s, "/api/convergence/0?path=c3.convergence.json");
    let configs = c3["configurations"].as_array().unwrap();
    assert_eq!(configs[0]["params"]["c"], 3);
    assert!(configs[0]["watch"].is_null(), "{}", configs[0]);
    assert!(
        configs[0]["replay_note"]
            .as_str()
            .unwrap()
            .contains("overrides"),
        "{}",
        configs[0]
    );
    assert_eq!(configs[1]["variant"], "brant");
    assert!(configs[1]["watch"].is_string(), "{}", configs[1]);

    let traced = json(&s, "/api/convergence/0?path=traced.convergence.json");
    assert_eq!(traced["info"]["mode"], "trace");
    assert_eq!(traced["info"]["trace_file"], "t.json");
    let trace: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("t.json")).unwrap()).unwrap();
    let attempt = trace["attempt"].as_u64().unwrap();
    let run = &traced["runs"][0];
    let watch = run["watch"].as_str().unwrap();
    assert!(watch.contains(&format!("attempts={attempt}")), "{watch}");
    let f = last_frame(&s, watch);
    assert_eq!(f["attempt"], attempt, "{watch}");
    assert_eq!(f["outcome"], trace["outcome"], "{watch}");
    if attempt > 1 {
        assert!(
            traced["configurations"][0]["replay_note"]
                .as_str()
                .unwrap()
                .contains(&format!("attempt {attempt}"))
        );
    }
}

#[test]
fn malformed_foreign_and_escaping_convergence_files_are_ignored_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("named");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(named.join("sub")).unwrap();
    std::fs::create_dir(&outside).unwrap();
    let plots = repo().join("plots");
    let copy = |to: &Path, stem: &str| {
        for (from, suffix) in [
            (
                "convergence-6x6-numpy.convergence.json",
                ".convergence.json",
            ),
            ("convergence-6x6-numpy.csv", ".csv"),
            ("convergence-6x6-numpy-runs.csv", "-runs.csv"),
        ] {
            std::fs::copy(plots.join(from), to.join(format!("{stem}{suffix}"))).unwrap();
        }
    };
    copy(&named.join("sub"), "good");
    copy(&outside, "away");
    // Malformed, foreign and incomplete ones beside their CSVs.
    for stem in ["broken", "foreign", "partial", "lonely"] {
        copy(&named, stem);
    }
    std::fs::write(named.join("broken.convergence.json"), "{\"format\": ").unwrap();
    std::fs::write(
        named.join("foreign.convergence.json"),
        "{\"format\": \"something-else\", \"runs\": 3}",
    )
    .unwrap();
    std::fs::write(
        named.join("partial.convergence.json"),
        "{\"format\": \"knightnet-convergence\", \"runs\": 3}",
    )
    .unwrap();
    std::fs::remove_file(named.join("lonely-runs.csv")).unwrap();
    // A link out of the folder, with CSVs of its own beside it.
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(
            outside.join("away.convergence.json"),
            named.join("link.convergence.json"),
        )
        .unwrap();
        std::fs::copy(outside.join("away.csv"), named.join("link.csv")).unwrap();
        std::fs::copy(outside.join("away-runs.csv"), named.join("link-runs.csv")).unwrap();
    }
    let s = start(&[&named]);
    let listing = json(&s, "/api/convergence");
    let entries = listing["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{listing}");
    assert_eq!(entries[0]["path"], "sub/good.convergence.json");
    let ignored: Vec<(String, String)> = listing["ignored"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["path"].as_str().unwrap().to_string(),
                i["why"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let why = |path: &str| {
        ignored
            .iter()
            .find(|(p, _)| p == path)
            .map(|(_, w)| w.clone())
            .unwrap_or_else(|| panic!("{path} not ignored: {ignored:?}"))
    };
    assert!(why("broken.convergence.json").contains("not JSON"));
    assert!(why("foreign.convergence.json").contains("format"));
    assert!(why("partial.convergence.json").contains("malformed"));
    assert!(why("lonely.convergence.json").contains("lonely-runs.csv"));
    #[cfg(unix)]
    assert!(why("link.convergence.json").contains("leaves the folder"));

    let good = json(&s, "/api/convergence/0?path=sub/good.convergence.json");
    assert_eq!(good["configurations"][0]["variant"], "numpy");
    for (path, want) in [
        ("/api/convergence/0?path=link.convergence.json", 400),
        (
            "/api/convergence/0?path=..%2Foutside%2Faway.convergence.json",
            400,
        ),
        (
            "/api/convergence/0?path=%2e%2e/outside/away.convergence.json",
            400,
        ),
        ("/api/convergence/0?path=%2Ftmp%2Fx.convergence.json", 400),
        ("/api/convergence/0?path=sub/./good.convergence.json", 400),
        (
            "/api/convergence/0/csv/data?path=link.convergence.json",
            400,
        ),
        ("/api/convergence/0?path=missing.convergence.json", 404),
        ("/api/convergence/0?path=sub/good.csv", 404),
        ("/api/convergence/0?path=foreign.convergence.json", 422),
        ("/api/convergence/0?path=lonely.convergence.json", 422),
        ("/api/convergence/1?path=sub/good.convergence.json", 404),
        ("/api/convergence/0", 400),
    ] {
        let (status, body) = s.request("GET", path, &[], "");
        assert_eq!(status, want, "{path}: {body}");
        assert!(!body.contains("numpy"), "{path}: {body}");
    }
    let long = format!(
        "/api/convergence/0?path={}x.convergence.json",
        "a/".repeat(600)
    );
    assert_eq!(s.request("GET", &long, &[], "").0, 400);

    // CSVs whose columns are not convergence's are refused when read, with the reason.
    std::fs::write(named.join("sub/good.csv"), "a,b\n1,2\n").unwrap();
    let (status, body) = s.request(
        "GET",
        "/api/convergence/0?path=sub/good.convergence.json",
        &[],
        "",
    );
    assert_eq!(status, 422, "{body}");
    assert!(body.contains("columns"), "{body}");
}

//! The Results view's data against a live server on the committed results: the folders
//! listed, a folder's spec, cells and figures (each figure's CSV the bytes `plot` wrote
//! into plots/), the refusals, and the replay of records in the Watch view.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::PathBuf;

use knightnet::experiment::Record;
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

#[test]
fn results_folders_are_listed_with_spec_cells_and_plot_s_figures() {
    let s = start(&[&repo().join("experiments/results")]);
    let list = json(&s, "/api/results");
    let paths: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    for name in ["quickstart", "parberry-1996", "sweep-cs"] {
        assert!(paths.contains(&name), "{name} not in {paths:?}");
    }
    assert!(list.as_array().unwrap().iter().all(|f| f["folder"] == 0));

    let d = json(&s, "/api/results/0?path=quickstart");
    let dir = repo().join("experiments/results/quickstart");
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    assert_eq!(d["run"]["name"], run["spec"]["name"]);
    assert_eq!(d["run"]["description"], run["spec"]["description"]);
    assert_eq!(d["run"]["seed"], run["spec"]["seed"].to_string().as_str());
    assert_eq!(d["run"]["version"], run["knightnet_version"]);
    assert_eq!(d["run"]["revision"], run["git_revision"]);
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(
        d["summary"]["cells"], summary["cells"],
        "the cells are summary.json's"
    );

    // Every figure `plot` drew into plots/quickstart is served with the same data.
    let figures = d["figures"].as_array().unwrap();
    let mut compared = 0;
    for f in figures {
        let stem = f["stem"].as_str().unwrap();
        let committed = repo().join(format!("plots/quickstart/{stem}.csv"));
        let (status, body) = s.request(
            "GET",
            &format!("/api/results/0/csv/{stem}?path=quickstart"),
            &[],
            "",
        );
        if let Ok(want) = std::fs::read_to_string(&committed) {
            assert_eq!(status, 200, "{stem}: {body}");
            assert_eq!(body, want, "{stem}.csv differs from plot's");
            let rows = body.lines().count() - 1;
            assert_eq!(f["total_rows"], rows, "{stem}");
            compared += 1;
        } else {
            assert!(
                f["skipped"].is_string(),
                "{stem} is drawn here but not by plot"
            );
            assert_eq!(status, 404, "{stem}: {body}");
        }
    }
    assert!(compared >= 5, "only {compared} figures compared");
    let stems: Vec<&str> = figures
        .iter()
        .filter(|f| f["skipped"].is_null())
        .map(|f| f["stem"].as_str().unwrap())
        .collect();
    for stem in ["tour-rate", "run-length", "failures"] {
        assert!(stems.contains(&stem), "{stem} not in {stems:?}");
    }

    // A sweep has its phase diagram.
    let sweep = json(&s, "/api/results/0?path=sweep-cs");
    assert!(
        sweep["figures"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["stem"] == "phase"
                && f["skipped"].is_null()
                && f["total_rows"].as_u64() > Some(0)),
        "sweep-cs has no phase diagram"
    );
}

#[test]
fn results_requests_outside_the_named_folders_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let named = dir.path().join("named");
    std::fs::create_dir_all(named.join("plain")).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    for f in ["run.json", "summary.json", "records.csv"] {
        std::fs::copy(
            repo().join("experiments/results/quickstart").join(f),
            outside.join(f),
        )
        .unwrap();
    }
    #[cfg(unix)]
    std::os::unix::fs::symlink(&outside, named.join("link")).unwrap();
    let s = start(&[&named]);
    // The walk does not follow the link out, and finds no results folder.
    assert_eq!(json(&s, "/api/results"), serde_json::json!([]));
    for (path, want) in [
        ("/api/results/1", 404),
        ("/api/results/1?path=quickstart", 404),
        ("/api/results/0?path=..%2Foutside", 400),
        ("/api/results/0?path=%2e%2e/outside", 400),
        ("/api/results/0?path=%2Ftmp", 400),
        ("/api/results/0?path=.", 400),
        ("/api/results/0?path=link", 400),
        ("/api/results/0?path=plain", 404),
        ("/api/results/0?path=missing", 404),
        ("/api/results/0?nothing=1", 400),
        ("/api/results/0/csv/tour-rate?path=..%2Foutside", 400),
        ("/api/results/0/csv/tour-rate?path=link", 400),
        ("/api/results/1/csv/tour-rate", 404),
    ] {
        let (status, body) = s.request("GET", path, &[], "");
        assert_eq!(status, want, "{path}: {body}");
        assert!(!body.contains("quickstart"), "{path}: {body}");
    }
    let long = format!("/api/results/0?path={}", "a/".repeat(600));
    assert_eq!(s.request("GET", &long, &[], "").0, 400);

    let s = start(&[&repo().join("experiments/results/quickstart")]);
    let (status, body) = s.request("GET", "/api/results/0/csv/no-such-figure", &[], "");
    assert_eq!(status, 404, "{body}");
    let (status, body) = s.request("GET", "/api/results/0/csv/phase", &[], "");
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("swept"), "the refusal says why: {body}");
}

/// The first frame of the watch stream `query` (its other frames are not read).
fn first_frame(s: &Server, query: &str) -> Value {
    let mut stream = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    write!(
        stream,
        "GET {query} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
        s.port
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

/// The record of `trial` of cell `cell` in `records`.
fn record(records: &[Record], cell: usize, trial: u64) -> &Record {
    records
        .iter()
        .find(|r| r.cell == cell && r.trial == trial)
        .unwrap_or_else(|| panic!("no record of cell {cell} trial {trial}"))
}

#[test]
fn a_record_s_replay_in_the_watch_view_is_the_recorded_run() {
    let dir = repo().join("experiments/results/quickstart");
    let s = start(&[&dir]);
    let d = json(&s, "/api/results/0");
    let records = knightnet::plot::data::load(&dir.join("records.csv")).unwrap();
    let run: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("run.json")).unwrap()).unwrap();
    let cells = run["spec"]["cells"].as_array().unwrap();
    let replays = d["replays"].as_array().unwrap();
    let network = |c: &Value| c["solver"].as_str().unwrap().starts_with("network");
    let (mut tours, mut several, mut classical) = (0, 0, 0);
    for rep in replays {
        let cell = rep["cell"].as_u64().unwrap() as usize;
        let trial = rep["trial"].as_u64().unwrap();
        let r = record(&records.rows, cell, trial);
        // The link carries the record's seed, which is the trial's by the experiment's rule.
        let key = format!(
            "{}/{}",
            cells[cell]["label"].as_str().unwrap(),
            cells[cell]["board"].as_str().unwrap()
        );
        assert_eq!(
            r.seed,
            knightnet::seeds::trial_seed(1, &key, trial),
            "{key} {trial}"
        );
        let watch = rep["watch"].as_str().unwrap();
        assert!(watch.contains(&format!("seed={}", r.seed)), "{watch}");
        assert_eq!(rep["seed"], r.seed.to_string().as_str());
        // Replayed to its end, the Watch view's run ends as the record says.
        let f = first_frame(
            &s,
            &format!("/api/watch?token={}&{watch}&from=20000", s.token),
        );
        assert_eq!(f["running"], false, "{key} trial {trial}: {f}");
        assert_eq!(
            f["outcome"],
            r.outcome.to_string().as_str(),
            "{key} trial {trial}"
        );
        if !network(&cells[cell]) {
            // A classical trial with a random start: the walk from the square the record
            // names, as many moves as it placed.
            let path = f["path"].as_array().unwrap();
            let first = path[0].as_u64().unwrap() as u32;
            assert_eq!(
                Some(r.board.square_name(first)),
                r.start,
                "{key} trial {trial}: start"
            );
            assert_eq!(f["step"], r.steps.unwrap(), "{key} trial {trial}: steps");
            assert!(watch.contains("random_start=true"), "{watch}");
            classical += 1;
            if r.outcome.to_string() == "tour" {
                tours += 1;
            }
            continue;
        }
        assert_eq!(f["step"], r.iterations, "{key} trial {trial}: iterations");
        assert_eq!(f["attempt"], 1, "{key} trial {trial}");
        if let Some(cycles) = r.cycles {
            let drawn = f["cycles"].as_array().unwrap();
            assert_eq!(drawn.len() as u64, cycles, "{key} trial {trial}: cycles");
            let largest = drawn.iter().map(|c| c.as_array().unwrap().len()).max();
            assert_eq!(
                largest.map(|l| l as u64),
                r.largest_cycle,
                "{key} trial {trial}"
            );
            if cycles > 1 {
                several += 1;
                // The preset's own attempts would go on to a second attempt: the link's
                // `attempts=1` is what makes it the recorded run.
                let preset = watch.replace("&attempts=1", "");
                let g = first_frame(
                    &s,
                    &format!("/api/watch?token={}&{preset}&from=20000", s.token),
                );
                assert_ne!(g["counters"], f["counters"], "{key} trial {trial}");
            }
        }
        if r.outcome.to_string() == "tour" {
            tours += 1;
        }
    }
    // Every cell offers its first three trials: the network's (one attempt each) and
    // the Warnsdorff cells' (their start drawn first from the trial's stream).
    assert_eq!(replays.len(), 3 * cells.len());
    assert_eq!(classical, 3 * cells.iter().filter(|c| !network(c)).count());
    assert!(classical > 0);
    assert!(
        tours >= 1 && several >= 1,
        "tours {tours}, several cycles {several}"
    );
    // The attempts a network's preset allows bound the query.
    let (status, body) = s.request(
        "GET",
        &format!(
            "/api/watch?token={}&solver=network:parberry&rows=8&cols=8&seed=1&attempts=0",
            s.token
        ),
        &[],
        "",
    );
    assert_eq!(status, 400, "{body}");
    let (status, body) = s.request(
        "GET",
        &format!(
            "/api/watch?token={}&solver=backtrack&rows=5&cols=5&seed=1&attempts=1",
            s.token
        ),
        &[],
        "",
    );
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("network"), "{body}");
}

#[test]
fn a_folder_is_read_again_once_its_records_change() {
    let dir = tempfile::tempdir().unwrap();
    let quickstart = repo().join("experiments/results/quickstart");
    for f in ["run.json", "summary.json", "records.csv"] {
        std::fs::copy(quickstart.join(f), dir.path().join(f)).unwrap();
    }
    let s = start(&[dir.path()]);
    let series = |d: &Value| {
        let f = d["figures"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["stem"] == "tour-rate")
            .unwrap()
            .clone();
        f["total_rows"].as_u64().unwrap()
    };
    assert_eq!(
        series(&json(&s, "/api/results/0")),
        10,
        "5 presets on 2 boards"
    );
    // Only cell 0's and cell 1's records (parberry on 6x6 and 8x8) are kept.
    let all = std::fs::read_to_string(quickstart.join("records.csv")).unwrap();
    let kept: String = all
        .lines()
        .filter(|l| {
            let cell = l.split(',').nth(1).unwrap();
            cell == "cell" || cell == "0" || cell == "1"
        })
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.path().join("records.csv"), kept).unwrap();
    assert_eq!(
        series(&json(&s, "/api/results/0")),
        2,
        "parberry on 2 boards"
    );
}

#[test]
fn any_trial_is_replayed_by_its_number_with_its_recorded_seed() {
    let dir = repo().join("experiments/results/quickstart");
    let s = start(&[&dir]);
    let records = knightnet::plot::data::load(&dir.join("records.csv")).unwrap();
    let cells = json(&s, "/api/results/0")["summary"]["cells"].clone();
    let cells = cells.as_array().unwrap();
    // The last trial of every cell, and one in the middle: far from the three offered.
    let mut replayed = 0;
    for (i, c) in cells.iter().enumerate() {
        let trials = c["trials"].as_u64().unwrap();
        for trial in [trials / 2, trials - 1] {
            let t = json(&s, &format!("/api/results/0/replay?cell={i}&trial={trial}"));
            let r = record(&records.rows, i, trial);
            assert_eq!(
                t["seed"],
                r.seed.to_string().as_str(),
                "cell {i} trial {trial}"
            );
            let watch = t["watch"].as_str().unwrap();
            let f = first_frame(
                &s,
                &format!("/api/watch?token={}&{watch}&from=20000", s.token),
            );
            assert_eq!(f["running"], false, "cell {i} trial {trial}: {f}");
            assert_eq!(
                f["outcome"],
                r.outcome.to_string().as_str(),
                "cell {i} trial {trial}"
            );
            replayed += 1;
        }
    }
    assert_eq!(replayed, 2 * cells.len());
    for (query, status) in [
        ("cell=0&trial=2000", 404),
        ("cell=99&trial=0", 404),
        ("cell=0", 400),
        ("cell=0&trial=0&seed=3", 400),
        ("cell=0&trial=0&path=..", 400),
    ] {
        let (got, body) = s.request("GET", &format!("/api/results/0/replay?{query}"), &[], "");
        assert_eq!(got, status, "{query}: {body}");
    }
    let (got, _) = s.request("GET", "/api/results/5/replay?cell=0&trial=0", &[], "");
    assert_eq!(got, 404);
    // The Watch stream refuses a start given with a drawn one.
    let (got, body) = s.request(
        "GET",
        &format!(
            "/api/watch?token={}&solver=warnsdorff:random&rows=8&cols=8&seed=1&start=3&random_start=true",
            s.token
        ),
        &[],
        "",
    );
    assert_eq!(got, 400, "{body}");
    assert!(body.contains("contradict"), "{body}");
}

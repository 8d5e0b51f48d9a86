//! Experiments are reproducible: thread count, sharding + merge, interruption + resume
//! never change a record (apart from `_ns` columns); bad specs fail naming the key.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use knightnet::experiment::{self, Options, Progress, Record, Replay, Shard, Spec, records};
use knightnet::solvers::{Outcome, SolverKind};
use serde_json::Value;

const TINY: &str = r#"
name = "tiny"
seed = 11
trials = 24
boards = ["6x6"]

[[solver]]
solver = "network:parberry"
boards = ["6x6", "8x8"]

[[solver]]
solver = "network:numpy"
trials = 10

[[solver]]
label = "brant-short"
solver = "network:brant"
max_iterations = 30
trials = 13
"#;

fn write_spec(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("spec.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// Runs the `knightnet` binary; its exit code (its stderr is shown with a failing test's
/// output).
fn cli(args: &[&str]) -> i32 {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .output()
        .expect("knightnet runs");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    out.status.code().expect("knightnet exits")
}

fn run_cli(spec: &Path, out: &Path, extra: &[&str]) {
    let mut args = vec![
        "experiment",
        spec.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    assert_eq!(cli(&args), 0, "experiment {args:?} failed");
}

/// Records sorted by (cell, trial) with timings zeroed.
fn records_of(dir: &Path) -> Vec<Record> {
    let c = records::read(&dir.join("records.csv")).unwrap();
    assert_eq!(c.truncated, 0);
    let mut v: Vec<Record> = c.records.iter().map(Record::without_timing).collect();
    records::sort(&mut v);
    v
}

/// A JSON value with every key ending in `_ns` removed.
fn strip_ns(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| !k.ends_with("_ns"))
                .map(|(k, x)| (k.clone(), strip_ns(x)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip_ns).collect()),
        x => x.clone(),
    }
}

fn json_of(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn summary_of(dir: &Path) -> Value {
    strip_ns(&json_of(&dir.join("summary.json")))
}

#[test]
fn thread_count_never_changes_a_record() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), TINY);
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    run_cli(&spec, &one, &["--threads", "1"]);
    run_cli(&spec, &two, &["--threads", "2"]);
    let r1 = records_of(&one);
    assert_eq!(r1.len(), 24 * 2 + 10 + 13);
    assert_eq!(r1, records_of(&two));
    assert_eq!(summary_of(&one), summary_of(&two));
    // Every trial has its own seed, and outcomes vary.
    let mut seeds: Vec<u64> = r1.iter().map(|r| r.seed).collect();
    seeds.sort();
    seeds.dedup();
    assert_eq!(seeds.len(), r1.len());
    assert!(r1.iter().any(|r| r.outcome == Outcome::Tour));
    assert!(r1.iter().any(|r| r.outcome != Outcome::Tour));
    let info = json_of(&one.join("run.json"));
    assert_eq!(info["spec"]["name"], "tiny");
    assert_eq!(info["complete"], true);
    assert_eq!(info["sessions"][0]["threads"], 1);
    assert!(info["sessions"][0]["machine"]["cores"].as_u64().unwrap() >= 1);
}

#[test]
fn sharded_then_merged_equals_unsharded() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), TINY);
    let whole = tmp.path().join("whole");
    run_cli(&spec, &whole, &["--threads", "2"]);
    let mut shards = Vec::new();
    for i in 0..3 {
        let d = tmp.path().join(format!("shard-{i}"));
        run_cli(&spec, &d, &["--threads", "1", "--shard", &format!("{i}/3")]);
        shards.push(d);
    }
    // A missing shard is named.
    let merged = tmp.path().join("merged");
    let err =
        experiment::merge(&shards[..2], &merged, false, Replay::default(), vec![]).unwrap_err();
    assert!(err.to_string().contains("missing shards: 2/3"), "{err}");
    // Overlapping folders are refused.
    let dup = [shards[0].clone(), shards[0].clone()];
    let err = experiment::merge(
        &dup,
        &tmp.path().join("dup"),
        true,
        Replay::default(),
        vec![],
    )
    .unwrap_err();
    assert!(err.to_string().contains("more than one folder"), "{err}");

    // A folder that is not a run is named.
    let nowhere = tmp.path().join("nowhere");
    let err = experiment::merge(
        &[nowhere],
        &tmp.path().join("x"),
        true,
        Replay::default(),
        vec![],
    )
    .unwrap_err();
    assert!(err.to_string().contains("nowhere"), "{err}");
    // Merging into one of the inputs is refused.
    let err = experiment::merge(&shards, &shards[0], false, Replay::default(), vec![]).unwrap_err();
    assert!(err.to_string().contains("one of the folders"), "{err}");

    let mut args = vec!["merge"];
    args.extend(shards.iter().map(|d| d.to_str().unwrap()));
    args.extend(["--out", merged.to_str().unwrap(), "--quiet"]);
    assert_eq!(cli(&args), 0);
    assert_eq!(records_of(&merged), records_of(&whole));
    assert_eq!(summary_of(&merged), summary_of(&whole));
    // The merged file is already sorted by (cell, trial).
    let raw = records::read(&merged.join("records.csv")).unwrap().records;
    let mut sorted = raw.clone();
    records::sort(&mut sorted);
    assert_eq!(raw, sorted);
    let (a, b) = (
        json_of(&merged.join("run.json")),
        json_of(&whole.join("run.json")),
    );
    for key in ["spec", "shard", "trials_planned", "trials_done", "complete"] {
        assert_eq!(a[key], b[key], "run.json key {key}");
    }
    assert_eq!(a["merged_from"].as_array().unwrap().len(), 3);
}

#[test]
fn resume_after_a_truncated_line_equals_uninterrupted() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), TINY);
    let whole = tmp.path().join("whole");
    run_cli(&spec, &whole, &["--threads", "2"]);
    // Simulate a kill: keep the header, 20 rows and half of the next row.
    let cut = tmp.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(whole.join("run.json"), cut.join("run.json")).unwrap();
    let text = std::fs::read_to_string(whole.join("records.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut partial = lines[..21].join("\n");
    partial.push('\n');
    partial.push_str(&lines[21][..lines[21].len() / 2]);
    std::fs::write(cut.join("records.csv"), &partial).unwrap();

    let c = records::read(&cut.join("records.csv")).unwrap();
    assert_eq!(c.records.len(), 20);
    assert!(c.truncated > 0);
    // Without --resume the folder is refused.
    let args = [
        "experiment",
        spec.to_str().unwrap(),
        "--out",
        cut.to_str().unwrap(),
        "--quiet",
    ];
    assert_eq!(cli(&args), 2);
    run_cli(&spec, &cut, &["--threads", "2", "--resume"]);
    assert_eq!(records_of(&cut), records_of(&whole));
    assert_eq!(summary_of(&cut), summary_of(&whole));
    let info = json_of(&cut.join("run.json"));
    assert_eq!(info["sessions"].as_array().unwrap().len(), 2);
    assert_eq!(info["sessions"][1]["trials_run"], 71 - 20);
    // Resuming a complete run runs nothing and changes nothing.
    run_cli(&spec, &cut, &["--resume"]);
    assert_eq!(records_of(&cut), records_of(&whole));
    // Resuming with another spec is refused.
    let other = write_spec(
        &tmp.path().join("cut"),
        &TINY.replace("seed = 11", "seed = 12"),
    );
    let args = [
        "experiment",
        other.to_str().unwrap(),
        "--out",
        cut.to_str().unwrap(),
        "--resume",
        "--quiet",
    ];
    assert_eq!(cli(&args), 2);
}

/// Sets the stop flag after a few records, as Ctrl-C does.
struct StopAfter<'a> {
    n: usize,
    seen: AtomicUsize,
    stop: &'a AtomicBool,
}

impl Progress for StopAfter<'_> {
    fn record(&self, _: &Record) {
        if self.seen.fetch_add(1, Ordering::SeqCst) + 1 >= self.n {
            self.stop.store(true, Ordering::SeqCst);
        }
    }
}

#[test]
fn interrupted_run_leaves_valid_results_and_resumes() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = Spec::parse(TINY, "tiny", "tiny.toml").unwrap();
    let opts = |out: PathBuf, resume| Options {
        out,
        threads: 2,
        shard: Shard::ALL,
        resume,
        spec_source: "tiny.toml".into(),
        command: vec![],
        replay: Replay::default(),
    };
    let whole = tmp.path().join("whole");
    let never = AtomicBool::new(false);
    let full = experiment::run(
        &spec,
        &opts(whole.clone(), false),
        &never,
        &experiment::Quiet,
    )
    .unwrap();
    assert!(!full.interrupted && full.summary.complete);

    let part = tmp.path().join("part");
    let stop = AtomicBool::new(false);
    let hook = StopAfter {
        n: 9,
        seen: AtomicUsize::new(0),
        stop: &stop,
    };
    let rep = experiment::run(&spec, &opts(part.clone(), false), &stop, &hook).unwrap();
    assert!(rep.interrupted);
    // Trials in flight finish: at least 9; network trials run in the lanes of a batch,
    // so up to LANES per thread can be in flight when the flag is set.
    let in_flight = 2 * knightnet::network::batch::LANES as u64;
    assert!((9..9 + in_flight).contains(&rep.ran), "{}", rep.ran);
    assert!(rep.ran < spec.total_trials(), "{}", rep.ran);
    let recs = records_of(&part);
    assert_eq!(recs.len() as u64, rep.ran);
    let summary = json_of(&part.join("summary.json"));
    assert_eq!(summary["complete"], false);
    assert_eq!(summary["trials_done"], rep.ran);
    assert_eq!(
        json_of(&part.join("run.json"))["sessions"][0]["interrupted"],
        true
    );

    let rep =
        experiment::run(&spec, &opts(part.clone(), true), &never, &experiment::Quiet).unwrap();
    assert!(!rep.interrupted);
    assert_eq!(records_of(&part), records_of(&whole));
    assert_eq!(summary_of(&part), summary_of(&whole));
}

/// A network+merge trial records what the solver reports for its seed: outcome,
/// whether the tour came from a merge, the swaps, and both timings.
#[test]
fn a_network_merge_trial_records_the_solvers_merge_facts() {
    use knightnet::rng_from_seed;
    use knightnet::solvers::{Request, SolverKind};
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(
        tmp.path(),
        "name = \"m\"\nseed = 4\ntrials = 12\nboards = [\"6x6\"]\n\n[[solver]]\nsolver = \"network+merge:parberry\"\n",
    );
    let out = tmp.path().join("out");
    run_cli(&spec, &out, &["--threads", "2"]);
    let recs = records::read(&out.join("records.csv")).unwrap().records;
    assert_eq!(recs.len(), 12);
    let solver: SolverKind = "network+merge:parberry".parse().unwrap();
    let solver = solver.build();
    let mut merged = 0;
    for r in &recs {
        let board = r.board;
        let sol = solver
            .solve(&Request::new(board), &mut rng_from_seed(r.seed))
            .unwrap();
        let facts = sol.merge().expect("network+merge reports its merge");
        assert_eq!(r.outcome, sol.outcome(), "trial {}", r.trial);
        assert_eq!(r.merged, Some(facts.merged), "trial {}", r.trial);
        assert_eq!(r.swaps, facts.report.as_ref().map(|m| u64::from(m.swaps)));
        assert!(r.network_ns.is_some() && r.merge_ns.is_some());
        merged += usize::from(facts.merged);
    }
    // On 6x6 most settled covers have several cycles: some tours are merges.
    assert!(merged > 0);
}

#[test]
fn a_network_trial_replays_from_its_seed() {
    use knightnet::network::{Network, Termination};
    use knightnet::{graph::KnightGraph, rng_from_seed};
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), TINY);
    let out = tmp.path().join("out");
    run_cli(&spec, &out, &["--threads", "2"]);
    let spec = Spec::from_file(&spec).unwrap();
    // Every record, although the network cells ran in the lanes of batches.
    for r in records_of(&out).iter() {
        let cell = &spec.cells[r.cell];
        let board = r.board;
        let graph = KnightGraph::new(board);
        assert_eq!(cell.board, board);
        let net = Network::new(&graph, cell.params().unwrap()).unwrap();
        let run = net.solve(&mut rng_from_seed(r.seed));
        assert_eq!(run.attempts, 1);
        assert_eq!(Outcome::from(&run.last.termination), r.outcome);
        assert_eq!(run.last.iterations as u64, r.iterations);
        let (cycles, largest) = match &run.last.termination {
            Termination::Tour => (Some(1), Some(board.squares() as u64)),
            Termination::MultipleCycles { lengths } => {
                (Some(lengths.len() as u64), Some(lengths[0] as u64))
            }
            _ => (None, None),
        };
        assert_eq!((cycles, largest), (r.cycles, r.largest_cycle));
    }
}

#[test]
fn malformed_specs_name_the_key_and_line() {
    let cases: &[(&str, &[&str])] = &[
        (
            "trials = 3\nboards = [\"6x6\"]\ncolour = \"red\"\n[[solver]]\nsolver = \"network\"\n",
            &["colour", "line 3"],
        ),
        (
            "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nmax_iteration = 5\n",
            &["max_iteration", "line 5"],
        ),
        (
            "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nstop = \"never\"\n",
            &["never", "line 5"],
        ),
        (
            "trials = \"many\"\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n",
            &["trials", "line 1"],
        ),
        (
            "trials = 3\nboards = [\"6x6\", \"8by8\"]\n[[solver]]\nsolver = \"network\"\n",
            &["8by8", "line 2"],
        ),
        (
            "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"hopfield\"\n",
            &["hopfield", "line 4", "accepted"],
        ),
        (
            "trials = 3\nboards = [\"7x7\"]\n[[solver]]\nsolver = \"network\"\n",
            &["7x7", "line 2", "closed"],
        ),
        (
            "trials = 3\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\nclamp = 2\n",
            &["clamp", "line 4"],
        ),
        ("trials = 3\nboards = [\"6x6\"]\n", &["[[solver]]"]),
        (
            "boards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n",
            &["trials"],
        ),
        (
            "name = \"a b\"\ntrials = 1\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network\"\n",
            &["name", "line 1"],
        ),
    ];
    let tmp = tempfile::tempdir().unwrap();
    for (text, needles) in cases {
        let path = write_spec(tmp.path(), text);
        let msg = Spec::from_file(&path).unwrap_err().to_string();
        assert!(msg.contains("spec.toml"), "{msg}");
        assert!(!msg.contains('\n'), "one line: {msg}");
        for n in *needles {
            assert!(msg.contains(n), "message for {text:?} lacks {n:?}: {msg}");
        }
        let out = tmp.path().join("never");
        let args = [
            "experiment",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
        ];
        assert_eq!(cli(&args), 2);
        assert!(
            !out.exists(),
            "a bad spec must not create the results folder"
        );
    }
    assert_eq!(cli(&["experiment", "--shard", "3/3", "--quiet"]), 2);
}

#[test]
fn bad_records_files_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let p = tmp.path().join("records.csv");
    std::fs::write(&p, "a,b,c\n1,2,3\n").unwrap();
    let msg = records::read(&p).unwrap_err().to_string();
    assert!(msg.contains("header"), "{msg}");
    // An empty file and a file holding only half a header are empty, not errors.
    std::fs::write(&p, "").unwrap();
    assert!(records::read(&p).unwrap().records.is_empty());
    std::fs::write(&p, "spec,cell,lab").unwrap();
    let c = records::read(&p).unwrap();
    assert!(c.records.is_empty() && c.truncated == 13);
    // A bad row before the last line is an error naming the line.
    let good = records::COLUMNS.join(",");
    std::fs::write(&p, format!("{good}\nx,notanumber\nmore\n")).unwrap();
    let msg = records::read(&p).unwrap_err().to_string();
    assert!(msg.contains("line 2"), "{msg}");
}

#[test]
fn the_quickstart_is_built_in() {
    let s = Spec::quickstart();
    assert_eq!(s.name, "quickstart");
    let on_disk = Spec::from_file(Path::new("experiments/quickstart.toml")).unwrap();
    assert_eq!(s, on_disk);
    for f in [
        "takefuji-lee-1992",
        "parberry-1996",
        "variants-8x8",
        "network-vs-classical",
        "merge",
    ] {
        let p = PathBuf::from(format!("experiments/{f}.toml"));
        let spec = Spec::from_file(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(spec.name, f);
    }
}

/// `experiment quickstart` runs the built-in spec from a folder with no `experiments/`,
/// records where its spec came from, and equals the run with no spec; a misspelt name is
/// refused (exit 2) with the accepted names and nothing written; `./NAME` is a file.
#[test]
fn a_built_in_spec_runs_by_name_from_any_folder() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args(args)
            .current_dir(tmp.path())
            .output()
            .expect("knightnet runs")
    };
    let by_name = run(&["experiment", "quickstart", "--out", "named", "--quiet"]);
    assert!(
        by_name.status.success(),
        "{}",
        String::from_utf8_lossy(&by_name.stderr)
    );
    let by_default = run(&["experiment", "--out", "default", "--quiet"]);
    assert!(by_default.status.success());
    assert_eq!(
        records_of(&tmp.path().join("named")),
        records_of(&tmp.path().join("default"))
    );
    let run_json = json_of(&tmp.path().join("named/run.json"));
    assert_eq!(
        run_json["spec_source"].as_str(),
        json_of(&tmp.path().join("default/run.json"))["spec_source"].as_str()
    );

    let typo = run(&["experiment", "quickstrat", "--out", "typo", "--quiet"]);
    assert_eq!(typo.status.code(), Some(2));
    let err = String::from_utf8_lossy(&typo.stderr);
    assert!(err.contains("unknown built-in spec 'quickstrat'"), "{err}");
    assert!(err.contains("did you mean 'quickstart'?"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!tmp.path().join("typo").exists());

    let as_file = run(&["experiment", "./quickstart", "--out", "file", "--quiet"]);
    assert_eq!(as_file.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&as_file.stderr).contains("does not exist"));
}

#[test]
fn the_readme_spec_example_parses() {
    let readme = std::fs::read_to_string("docs/experiments.md").unwrap();
    let start = readme.find("```toml\n").expect("a toml example") + "```toml\n".len();
    let end = start + readme[start..].find("```").unwrap();
    let spec = Spec::parse(&readme[start..end], "readme", "docs/experiments.md").unwrap();
    assert_eq!(spec.name, "my-sweep");
    // network:parberry and the merge, Warnsdorff and forward-check entries on two boards
    // each, parberry-c5 on one, and parberry on the zebra's torus on two.
    assert_eq!(spec.cells.len(), 11);
    assert_eq!(spec.cells[2].key(), "parberry-c5/8x8");
    assert_eq!(spec.cells[2].params().unwrap().c, 5);
    assert!(matches!(
        spec.cells[3].solver,
        SolverKind::NetworkMerge { .. }
    ));
    assert!(spec.cells[5].solver.is_classical());
    assert!(matches!(
        spec.cells[8].solver,
        SolverKind::ForwardCheck {
            max_steps: 1_000_000,
            ..
        }
    ));
    for cell in &spec.cells[9..] {
        let geometry = cell.target.as_ref().and_then(|t| t.geometry()).unwrap();
        assert_eq!(geometry.surface().name(), "torus");
        assert_eq!((geometry.leaper().r(), geometry.leaper().s()), (2, 3));
    }
}

/// `experiment --resume` on a finished run printed the whole summary again and rewrote
/// run.json and the summaries. It checks the rows, says in one line that the run is
/// complete (N of N trials) and where its summary is, exits 0 and writes nothing.
#[test]
fn resuming_a_complete_run_says_so_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let spec = write_spec(tmp.path(), TINY);
    let out = tmp.path().join("done");
    run_cli(&spec, &out, &["--threads", "2"]);
    let files = ["records.csv", "run.json", "summary.json", "summary.md"];
    let state = || {
        files.map(|f| {
            let path = out.join(f);
            let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
            (std::fs::read(&path).unwrap(), modified)
        })
    };
    let before = state();
    let planned = json_of(&out.join("run.json"))["trials_planned"]
        .as_u64()
        .unwrap();
    // Without --quiet too: the summary table is not printed again.
    for extra in [&[][..], &["--quiet"]] {
        let mut args = vec![
            "experiment",
            spec.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--resume",
        ];
        args.extend_from_slice(extra);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args(&args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(
            o.stdout.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stdout)
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("is complete ({planned} of {planned} trials")),
            "{err}"
        );
        assert!(
            err.contains(&out.join("summary.md").display().to_string()),
            "{err}"
        );
        assert!(state() == before, "{args:?} rewrote a file");
    }
    // A complete run whose summary is gone gets it back (and a session saying so).
    std::fs::remove_file(out.join("summary.md")).unwrap();
    run_cli(&spec, &out, &["--resume"]);
    assert_eq!(
        std::fs::read(out.join("summary.md")).unwrap(),
        before[3].0,
        "the summary rewritten from the records"
    );
}

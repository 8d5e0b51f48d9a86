//! Experiments and `compare` beyond the knight on a whole plane board: the spec keys
//! `leaper`, `surface`, `shape` and `graph` run their cells on that graph, records and
//! summaries carry the geometry, seeds stay apart from the knight's, bad values are
//! refused in one line, and `compare` takes the same flags as `solve`.

use std::path::{Path, PathBuf};

use crate::common::{assert_refused, knightnet, report_rows};

use knightnet::experiment::records::{self, Record};
use knightnet::graph_file::FileGraph;
use knightnet::rng_from_seed;
use knightnet::seeds::trial_seed;
use knightnet::solvers::Outcome;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolver};
use knightnet::target::Target;

fn graph_file(name: &str) -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "experiments", "graphs", name]
        .iter()
        .collect()
}

/// Write `spec` as `dir/NAME.toml` (with the dodecahedron beside it in `dir/graphs/`),
/// run it with `threads` threads into `dir/OUT`, and return the folder.
fn run(dir: &Path, spec: &str, out: &str, threads: &str) -> PathBuf {
    std::fs::create_dir_all(dir.join("graphs")).unwrap();
    std::fs::copy(
        graph_file("dodecahedron.hcp"),
        dir.join("graphs/dodecahedron.hcp"),
    )
    .unwrap();
    let path = dir.join("beyond.toml");
    std::fs::write(&path, spec).unwrap();
    let folder = dir.join(out);
    let o = knightnet(&[
        "experiment",
        path.to_str().unwrap(),
        "--out",
        folder.to_str().unwrap(),
        "--threads",
        threads,
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    folder
}

const SPEC: &str = r#"
seed = 5
trials = 12
boards = ["6x6"]

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "network:parberry"
surface = "torus"

[[solver]]
solver = "warnsdorff"
start = "random"
leaper = [2, 3]
boards = ["10x10"]

[[solver]]
solver = "forward-check"
closed = false
shape = """
    .....
    .....
    ..#..
    .....
    .....
"""

[[solver]]
solver = "network:parberry"
graph = "graphs/dodecahedron.hcp"
"#;

/// The records of cell `cell`, in trial order.
fn rows_of(folder: &Path, cell: usize) -> Vec<Record> {
    let mut v: Vec<Record> = records::read(&folder.join("records.csv"))
        .unwrap()
        .records
        .into_iter()
        .filter(|r| r.cell == cell)
        .collect();
    records::sort(&mut v);
    v
}

#[test]
fn a_spec_with_each_geometry_key_runs_on_its_graph_and_its_records_carry_it() {
    let dir = tempfile::tempdir().unwrap();
    let folder = run(dir.path(), SPEC, "one", "1");
    let text = std::fs::read_to_string(folder.join("records.csv")).unwrap();
    assert!(
        text.lines()
            .next()
            .unwrap()
            .ends_with(",merge_ns,leaper,surface,shape,graph"),
        "{}",
        text.lines().next().unwrap()
    );
    let col = |r: &Record| {
        (
            r.leaper.text().map(str::to_string),
            r.surface.text().map(str::to_string),
            r.shape.text().map(str::to_string),
            r.graph.text().map(str::to_string),
        )
    };
    let s = |x: &str| Some(x.to_string());
    let want = [
        (s("1,2"), s("plane"), None, None),
        (s("1,2"), s("torus"), None, None),
        (s("2,3"), s("plane"), None, None),
        (
            s("1,2"),
            s("plane"),
            s("...../...../..#../...../....."),
            None,
        ),
        (None, None, None, s("dodecahedron")),
    ];
    for (cell, want) in want.iter().enumerate() {
        let rows = rows_of(&folder, cell);
        assert_eq!(rows.len(), 12, "cell {cell}");
        for r in &rows {
            assert_eq!(&col(r), want, "cell {cell}");
        }
    }
    // The knight's cell keeps the seeds it has always had; the torus cell of the same
    // label and board has others.
    let knight = rows_of(&folder, 0);
    let torus = rows_of(&folder, 1);
    for (k, t) in knight.iter().zip(&torus) {
        assert_eq!(k.seed, trial_seed(5, "parberry/6x6", k.trial));
        assert_ne!(k.seed, t.seed);
    }
    // Boards: the geometry's rectangle; a graph file's vertices in a row.
    assert_eq!(torus[0].board.to_string(), "6x6");
    assert_eq!(rows_of(&folder, 4)[0].board.to_string(), "1x20");
    // Random starts are vertices of the graph, numbered from 1.
    for r in rows_of(&folder, 2) {
        let v: u64 = r.start.as_deref().unwrap().parse().unwrap();
        assert!((1..=100).contains(&v), "{v}");
    }
    // The summary names where each cell ran and carries the geometry keys.
    let md = std::fs::read_to_string(folder.join("summary.md")).unwrap();
    for place in [
        "| 6x6 torus |",
        "| 10x10 (2,3)-leaper |",
        "| 5x5 with 1 hole |",
        "| graph dodecahedron |",
    ] {
        assert!(md.contains(place), "{place} not in {md}");
    }
    let summary: serde_json::Value =
        serde_json::from_slice(&std::fs::read(folder.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["cells"][1]["surface"], "torus");
    assert_eq!(summary["cells"][2]["leaper"], "2,3");
    assert_eq!(
        summary["cells"][3]["shape"],
        "...../...../..#../...../....."
    );
    assert_eq!(summary["cells"][4]["graph"], "dodecahedron");
    assert!(summary["cells"][0].get("leaper").is_none());
    // The folder reads back as any other: `stats` recomputes from its records, and a
    // resume checks every row against the spec (a sample replayed) and runs nothing.
    let o = knightnet(&["stats", folder.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = knightnet(&[
        "experiment",
        dir.path().join("beyond.toml").to_str().unwrap(),
        "--out",
        folder.to_str().unwrap(),
        "--resume",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read_to_string(folder.join("records.csv")).unwrap(),
        text
    );
}

#[test]
fn a_seed_gives_the_same_records_whatever_the_threads_and_the_network_trial_is_on_graphs_attempt() {
    let dir = tempfile::tempdir().unwrap();
    let one = run(dir.path(), SPEC, "one", "1");
    let two = run(dir.path(), SPEC, "two", "2");
    let strip = |f: &Path| -> Vec<Record> {
        let mut v: Vec<Record> = records::read(&f.join("records.csv"))
            .unwrap()
            .records
            .iter()
            .map(Record::without_timing)
            .collect();
        records::sort(&mut v);
        v
    };
    assert_eq!(strip(&one), strip(&two));
    // A network trial on a target is the one attempt `on_graph::solve` makes with the
    // trial's seed, and a Warnsdorff trial its walk from the trial's first draw.
    let graph = Target::File {
        path: graph_file("dodecahedron.hcp"),
        graph: FileGraph::read(&graph_file("dodecahedron.hcp")).unwrap(),
    }
    .graph()
    .unwrap();
    let mut params = knightnet::network::Preset::Parberry.params();
    params.max_attempts = 1;
    let network = GraphSolver::Network(params);
    let req = GraphRequest {
        closed: true,
        start: None,
    };
    let rows = rows_of(&one, 4);
    for r in &rows {
        let sol = on_graph::solve(&graph, &network, &req, &mut rng_from_seed(r.seed)).unwrap();
        assert_eq!(sol.outcome, r.outcome, "trial {}", r.trial);
        assert_eq!(sol.iterations, r.iterations, "trial {}", r.trial);
    }
    // A tour of the dodecahedron is one cycle through its 20 vertices.
    for r in rows.iter().filter(|r| r.outcome == Outcome::Tour) {
        assert_eq!((r.cycles, r.largest_cycle), (Some(1), Some(20)));
    }
}

/// Run `spec` (with the top `HEAD`) and return its one-line refusal.
fn refusal(spec: &str, needle: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, format!("trials = 2\nboards = [\"6x6\"]\n{spec}")).unwrap();
    let out = dir.path().join("out");
    assert_refused(
        &[
            "experiment",
            path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        needle,
    )
}

#[test]
fn bad_geometry_values_and_combinations_that_cannot_run_are_refused_in_one_line() {
    let entry = |extra: &str| format!("[[solver]]\nsolver = \"network\"\n{extra}\n");
    refusal(&entry("surface = \"sphere\""), "sphere");
    refusal(&entry("leaper = [3, 1]"), "leaper");
    refusal(&entry("leaper = true"), "leaper");
    refusal(&entry("leaper = \"1,3\""), "disconnected");
    refusal(&entry("shape = \"..x\""), "'x'");
    refusal(&entry("graph = \"no-such.hcp\""), "no-such.hcp");
    refusal(
        &entry("graph = \"no-such.hcp\"\nsurface = \"torus\""),
        "does not apply with graph",
    );
    refusal(
        &entry("shape = \"...\\n...\\n...\\n...\"\nboards = [\"4x3\"]"),
        "boards does not apply with shape",
    );
    refusal(&entry("surface = \"torus\"\nopen = true"), "open = true");
    refusal(
        "[[solver]]\nsolver = \"divide-conquer\"\nsurface = \"torus\"\n",
        "divide-conquer",
    );
    refusal(
        "[[solver]]\nsolver = \"network+merge\"\nleaper = \"2,3\"\ntile = 5\nboards = [\"10x10\"]\n",
        "tile",
    );
    refusal(
        "[[solver]]\nsolver = \"warnsdorff\"\nsurface = \"cylinder\"\nstart = \"corner\"\n",
        "start = \"corner\"",
    );
    // Line numbers point at the key.
    let e = refusal(&entry("surface = \"sphere\""), "sphere");
    assert!(e.contains("line 5"), "{e}");
}

#[test]
fn compare_runs_the_graph_solvers_on_leapers_surfaces_and_graph_files() {
    let rows = report_rows(&[
        "compare",
        "--board",
        "6x6",
        "--surface",
        "torus",
        "--solvers",
        "network:parberry,warnsdorff,forward-check",
        "--trials",
        "4",
        "--format",
        "json",
    ]);
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["target"], "6x6 torus", "{r}");
        assert_eq!(r["trials"], 4);
    }
    // Its trials are an experiment's: the seeds of the `parberry` cell on that torus.
    let dir = tempfile::tempdir().unwrap();
    let spec = "seed = 1\ntrials = 4\nboards = [\"6x6\"]\n[[solver]]\nsolver = \"network:parberry\"\nsurface = \"torus\"\n";
    let folder = run(dir.path(), spec, "torus", "1");
    let seeds: Vec<u64> = rows_of(&folder, 0).iter().map(|r| r.seed).collect();
    let listed: Vec<u64> = rows[0]["per_trial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(listed, seeds);
    // The network never reports a tour of the Petersen graph, which has none.
    let petersen = graph_file("petersen.dimacs");
    let rows = report_rows(&[
        "compare",
        "--graph",
        petersen.to_str().unwrap(),
        "--solvers",
        "network:parberry",
        "--trials",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(rows[0]["target"], "graph petersen");
    assert_eq!(rows[0]["tours"], 0);
    let rows = report_rows(&[
        "compare",
        "--board",
        "10x10",
        "--leaper",
        "2,3",
        "--solvers",
        "warnsdorff",
        "--trials",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(rows[0]["target"], "10x10 (2,3)-leaper");
    // The knight's board keeps its rows as they were: no target.
    let rows = report_rows(&[
        "compare",
        "--board",
        "6x6",
        "--solvers",
        "warnsdorff",
        "--trials",
        "2",
        "--format",
        "json",
    ]);
    assert!(rows[0].get("target").is_none());
    assert_refused(
        &[
            "compare",
            "--surface",
            "torus",
            "--solvers",
            "divide-conquer",
            "--trials",
            "2",
        ],
        "divide-conquer",
    );
    assert_refused(
        &[
            "compare",
            "--leaper",
            "1,3",
            "--solvers",
            "warnsdorff",
            "--trials",
            "2",
        ],
        "disconnected",
    );
}

#[test]
fn network_merge_cells_run_beyond_the_knight_one_solve_a_trial() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "seed = 3\ntrials = 6\n\n[[solver]]\nsolver = \"network+merge\"\nleaper = \"2,3\"\nboards = [\"10x10\"]\n\n[[solver]]\nsolver = \"network+merge\"\ngraph = \"graphs/dodecahedron.hcp\"\n";
    let folder = run(dir.path(), spec, "out", "2");
    for cell in [0, 1] {
        let rows = rows_of(&folder, cell);
        assert_eq!(rows.len(), 6, "cell {cell}");
        // Every trial is a solve that merges until one cycle is left: a tour, checked.
        assert!(
            rows.iter().all(|r| r.outcome == Outcome::Tour),
            "cell {cell}: {:?}",
            rows.iter().map(|r| &r.outcome).collect::<Vec<_>>()
        );
    }
}

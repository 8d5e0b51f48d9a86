//! The library side of experiments beyond the knight: spec keys resolved into typed
//! targets (an entry's value over the top's), cell keys and seeds apart from the
//! knight's, `run.json` and `records.csv` reading back byte for byte with the geometry.

use std::path::PathBuf;

use knightnet::experiment::Spec;
use knightnet::experiment::records::{self, COLUMNS, Column, GEOMETRY_COLUMNS, Record};
use knightnet::geometry::{Leaper, Surface};
use knightnet::target::Target;

fn dodecahedron() -> PathBuf {
    [
        env!("CARGO_MANIFEST_DIR"),
        "experiments",
        "graphs",
        "dodecahedron.hcp",
    ]
    .iter()
    .collect()
}

/// `text` parsed as the spec file `dir/spec.toml` (graph paths relative to `dir`).
fn parse(dir: &std::path::Path, text: &str) -> Spec {
    std::fs::create_dir_all(dir.join("graphs")).unwrap();
    std::fs::copy(dodecahedron(), dir.join("graphs/dodecahedron.hcp")).unwrap();
    let origin = dir.join("spec.toml");
    Spec::parse(text, "spec", origin.to_str().unwrap()).unwrap()
}

const SPEC: &str = r#"
trials = 3
boards = ["6x6"]
surface = "torus"

[[solver]]
solver = "network:parberry"

[[solver]]
solver = "network:parberry"
label = "plane"
surface = "plane"

[[solver]]
solver = "backtrack"
leaper = "zebra"
boards = ["8x8"]

[[solver]]
solver = "warnsdorff"
graph = "graphs/dodecahedron.hcp"
"#;

#[test]
fn an_entrys_keys_override_the_tops_and_the_plain_knight_is_the_knights_cell() {
    let dir = tempfile::tempdir().unwrap();
    let spec = parse(dir.path(), SPEC);
    let c = &spec.cells;
    assert_eq!(c.len(), 4);
    // The top's torus.
    let Some(Target::Geometry(g)) = &c[0].target else {
        panic!("{:?}", c[0].target)
    };
    assert_eq!((g.surface(), g.leaper()), (Surface::Torus, Leaper::KNIGHT));
    // `surface = "plane"` in the entry: the knight on a whole plane board, its key the
    // knight's.
    assert!(c[1].target.is_none());
    assert_eq!(c[1].key(), "plane/6x6");
    // The entry's leaper with the top's surface.
    let Some(Target::Geometry(g)) = &c[2].target else {
        panic!("{:?}", c[2].target)
    };
    assert_eq!((g.surface(), g.leaper()), (Surface::Torus, Leaper::ZEBRA));
    assert_eq!(c[2].board.to_string(), "8x8");
    // The entry's graph replaces the top's surface.
    let Some(Target::File { graph, .. }) = &c[3].target else {
        panic!("{:?}", c[3].target)
    };
    assert_eq!((graph.vertices(), graph.edges().len()), (20, 30));
    assert_eq!(c[3].board.to_string(), "1x20");
    assert_eq!(c[3].vertices(), 20);
    // Keys: the label and the geometry, never a bare board.
    assert_eq!(c[0].place(), "6x6 torus");
    assert_eq!(c[2].place(), "8x8 torus (2,3)-leaper");
    assert_eq!(c[3].place(), "graph dodecahedron");
    for cell in [&c[0], &c[2], &c[3]] {
        assert_ne!(cell.key(), format!("{}/{}", cell.label, cell.board));
    }
    assert!(spec.has_targets());
}

#[test]
fn run_json_holds_the_geometry_and_the_graph_and_reads_back_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let spec = parse(dir.path(), SPEC);
    let json = serde_json::to_value(&spec).unwrap();
    assert_eq!(json["cells"][0]["surface"], "torus");
    assert_eq!(json["cells"][2]["leaper"], "2,3");
    assert_eq!(json["cells"][3]["graph"]["name"], "dodecahedron");
    assert_eq!(
        json["cells"][3]["graph"]["edges"].as_array().unwrap().len(),
        30
    );
    assert!(json["cells"][1].get("surface").is_none());
    // Read back with the graph file gone: the same cells, the same bytes.
    drop(dir);
    let back: Spec = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(serde_json::to_value(&back).unwrap(), json);
    assert_eq!(
        back.cells.iter().map(|c| c.key()).collect::<Vec<_>>(),
        spec.cells.iter().map(|c| c.key()).collect::<Vec<_>>()
    );
    // A stored graph whose edges are not a simple graph is refused, naming the cell.
    let mut bad = json;
    bad["cells"][3]["graph"]["edges"][0] = serde_json::json!([1, 1]);
    let e = serde_json::from_value::<Spec>(bad).unwrap_err().to_string();
    assert!(e.contains("cell 3") && e.contains("itself"), "{e}");
}

fn record(cell: usize, geometry: [Column; 4]) -> Record {
    let [leaper, surface, shape, graph] = geometry;
    Record {
        spec: "s".into(),
        cell,
        label: "parberry".into(),
        board: "6x6".parse().unwrap(),
        solver: "network:parberry".parse().unwrap(),
        variant: "parberry".into(),
        trial: 0,
        seed: 1,
        start: None,
        outcome: knightnet::solvers::Outcome::Tour,
        iterations: 3,
        restarts: 0,
        cycles: Some(1),
        largest_cycle: Some(36),
        steps: None,
        merged: None,
        swaps: None,
        time_ns: 5,
        network_ns: None,
        merge_ns: None,
        leaper,
        surface,
        shape,
        graph,
    }
}

#[test]
fn records_with_the_geometry_columns_read_and_write_back_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: &str| Column::Text(s.into());
    let rows = vec![
        record(0, [t("1,2"), t("plane"), Column::Empty, Column::Empty]),
        record(1, [t("2,3"), t("torus"), t("..#/.../..."), Column::Empty]),
        record(
            2,
            [Column::Empty, Column::Empty, Column::Empty, t("petersen")],
        ),
    ];
    let path = dir.path().join("records.csv");
    records::write_all(&path, &rows).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    assert_eq!(header, records::columns(true));
    assert_eq!(header[COLUMNS.len()..], GEOMETRY_COLUMNS);
    let back = records::read(&path).unwrap().records;
    assert_eq!(back, rows);
    let again = dir.path().join("again.csv");
    records::write_all(&again, &back).unwrap();
    assert_eq!(std::fs::read_to_string(&again).unwrap(), text);
    assert_eq!(records::read_lenient(&path).unwrap().records, rows);
    // Without the geometry, the header and rows are those of every older file.
    let plain = vec![record(0, Default::default())];
    records::write_all(&path, &plain).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().next().unwrap(), COLUMNS.join(","));
    assert_eq!(records::read(&path).unwrap().records, plain);
    // The lenient reader takes the columns by name.
    assert_eq!(records::read_lenient(&path).unwrap().records, plain);
}

//! `knightnet solve` on other leapers, surfaces, shapes and graph files: each flag end to
//! end (the printed tour re-checked here against the geometry's or the file's own
//! edges), and each refusal as one line with exit 2.

use std::path::PathBuf;

use crate::common::{assert_refused, json_of, knightnet, stdout_of};

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::graph_file::FileGraph;
use serde_json::Value;

fn dodecahedron() -> String {
    let p: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "experiments",
        "graphs",
        "dodecahedron.hcp",
    ]
    .iter()
    .collect();
    p.display().to_string()
}

/// The tour a JSON document gives on `geometry`, as square indices, checked to visit
/// every square that is not a hole once, each step one of the geometry's moves, and
/// (if the document says closed) back to the start.
fn check_geometry_tour(doc: &Value, geometry: &Geometry) -> Vec<u32> {
    assert_eq!(doc["numbering"], "square-index", "{doc}");
    let moves = geometry.moves().unwrap();
    let squares: Vec<u32> = doc["vertices"]
        .as_array()
        .expect("a tour")
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let vertices: Vec<u32> = squares
        .iter()
        .map(|&s| moves.vertex(s).expect("a square of the shape"))
        .collect();
    let mut sorted = vertices.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..moves.vertices() as u32).collect::<Vec<_>>());
    let joined = |a: u32, b: u32| moves.neighbours(a).contains(&b);
    assert!(
        vertices.windows(2).all(|w| joined(w[0], w[1])),
        "{squares:?}"
    );
    if doc["closed"] == true {
        assert!(joined(*vertices.last().unwrap(), vertices[0]));
    }
    let board = geometry.board();
    let coords: Vec<Value> = squares
        .iter()
        .map(|&s| {
            let (r, c) = board.coords(s);
            serde_json::json!([r, c])
        })
        .collect();
    assert_eq!(doc["tour"], Value::Array(coords));
    squares
}

#[test]
fn a_torus_tour_is_printed_as_a_board_and_checked() {
    let text = stdout_of(&["solve", "--board", "6x6", "--surface", "torus"]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("network on the (1,2) leaper on the 6x6 torus, seed 1: closed tour"),
        "{}",
        lines[0]
    );
    assert_eq!(
        crate::common::move_numbers(&lines[1..]),
        (1..=36).collect::<Vec<_>>()
    );
    let doc = json_of(&[
        "solve",
        "--board",
        "6x6",
        "--surface",
        "torus",
        "--format",
        "json",
    ]);
    assert_eq!(doc["target"]["surface"], "torus");
    assert_eq!(doc["target"]["leaper"], "1,2");
    assert_eq!(
        doc["target"]["edge_count"], 144,
        "8 moves from each of 36 squares"
    );
    let torus = Geometry::new(
        Shape::full(Board::new(6, 6).unwrap()),
        Leaper::KNIGHT,
        Surface::Torus,
    );
    check_geometry_tour(&doc, &torus);
}

#[test]
fn leapers_and_cylinders_run_every_solver_that_runs_there() {
    let cases: [(&str, &str, &str, &[&str]); 4] = [
        ("5x5", "2,3", "torus", &["--solver", "network"]),
        (
            "6x6",
            "1,2",
            "cylinder",
            &["--solver", "forward-check", "--closed"],
        ),
        (
            "5x5",
            "1,2",
            "plane",
            &["--solver", "backtrack", "--start", "c3"],
        ),
        ("8x8", "1,2", "torus", &["--solver", "warnsdorff"]),
    ];
    for (board, leaper, surface, rest) in cases {
        let mut args = vec![
            "solve",
            "--board",
            board,
            "--leaper",
            leaper,
            "--surface",
            surface,
        ];
        args.extend_from_slice(rest);
        args.extend(["--format", "json"]);
        let doc = json_of(&args);
        assert_eq!(doc["outcome"], "tour", "{args:?}: {doc}");
        let geometry = Geometry::new(
            Shape::full(board.parse().unwrap()),
            leaper.parse().unwrap(),
            surface.parse().unwrap(),
        );
        if geometry.is_plain_knight() {
            // The knight on a whole plane board is today's solve, byte for byte.
            assert!(doc["target"].is_null() && doc["board"].is_object(), "{doc}");
            continue;
        }
        let squares = check_geometry_tour(&doc, &geometry);
        if rest.contains(&"--start") {
            assert_eq!(doc["start_name"], "c3");
            assert_eq!(squares[0], geometry.board().parse_square("c3").unwrap());
        }
    }
}

#[test]
fn the_plain_knight_named_by_the_new_flags_is_todays_solve_byte_for_byte() {
    let plain = knightnet(&["solve", "--board", "6x6", "--format", "json"]);
    let named = knightnet(&[
        "solve",
        "--board",
        "6x6",
        "--leaper",
        "knight",
        "--surface",
        "plane",
        "--format",
        "json",
    ]);
    assert!(plain.status.success());
    assert_eq!(plain.stdout, named.stdout);
    let tmp = tempfile::tempdir().unwrap();
    let shape = tmp.path().join("full.txt");
    std::fs::write(&shape, "......\n......\n......\n......\n......\n......\n").unwrap();
    let from_shape = knightnet(&[
        "solve",
        "--shape",
        shape.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(plain.stdout, from_shape.stdout);
}

#[test]
fn a_shape_with_holes_shows_them_and_tours_around_them() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("ring.txt");
    let picture = "......\n.#..#.\n......\n......\n.#..#.\n......\n";
    std::fs::write(&path, picture).unwrap();
    let p = path.to_str().unwrap();
    let text = stdout_of(&["solve", "--shape", p, "--solver", "backtrack"]);
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 6, "{text}");
    for (r, line) in picture.lines().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            assert_eq!(rows[r][c] == "#", ch == '#', "row {r} col {c}:\n{text}");
        }
    }
    let doc = json_of(&[
        "solve",
        "--shape",
        p,
        "--solver",
        "backtrack",
        "--format",
        "json",
    ]);
    assert_eq!(doc["target"]["holes"].as_array().unwrap().len(), 4);
    assert_eq!(doc["target"]["vertex_count"], 32);
    let geometry = Geometry::new(picture.parse().unwrap(), Leaper::KNIGHT, Surface::Plane);
    check_geometry_tour(&doc, &geometry);
    assert_refused(
        &[
            "solve",
            "--shape",
            p,
            "--solver",
            "backtrack",
            "--start",
            "1,1",
        ],
        "hole",
    );
}

#[test]
fn a_graph_file_tour_is_named_by_the_files_vertex_numbers() {
    let file = dodecahedron();
    let graph = FileGraph::read(file.as_ref()).unwrap();
    let text = stdout_of(&["solve", "--graph", &file]);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(
            "network on the graph dodecahedron (20 vertices, 30 edges), seed 1: closed tour from"
        ),
        "{}",
        lines[0]
    );
    let doc = json_of(&[
        "solve", "--graph", &file, "--format", "json", "--start", "7",
    ]);
    assert_eq!(doc["numbering"], "file");
    assert_eq!(doc["target"]["kind"], "file");
    let numbers: Vec<u64> = doc["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(numbers[0], 7);
    let printed: Vec<u64> = lines[1].split(' ').map(|n| n.parse().unwrap()).collect();
    let mut sorted = numbers.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=20).collect::<Vec<_>>());
    let mut sorted = printed;
    sorted.sort_unstable();
    assert_eq!(sorted, (1..=20).collect::<Vec<_>>());
    let edge = |a: u64, b: u64| {
        let (a, b) = (graph.vertex(a).unwrap(), graph.vertex(b).unwrap());
        graph.edges().contains(&(a.min(b), a.max(b)))
    };
    assert!(numbers.windows(2).all(|w| edge(w[0], w[1])), "{numbers:?}");
    assert!(edge(numbers[19], numbers[0]));
    for solver in ["backtrack", "forward-check", "network+merge"] {
        let doc = json_of(&[
            "solve", "--graph", &file, "--solver", solver, "--closed", "--format", "json",
        ]);
        assert_eq!(doc["outcome"], "tour", "{solver}: {doc}");
    }
}

#[test]
fn network_merge_runs_on_leapers_surfaces_and_graph_files() {
    for (board, leaper, surface) in [("10x10", "2,3", "plane"), ("6x6", "1,2", "torus")] {
        let doc = json_of(&[
            "solve",
            "--board",
            board,
            "--leaper",
            leaper,
            "--surface",
            surface,
            "--merge",
            "--format",
            "json",
        ]);
        assert_eq!(doc["outcome"], "tour", "{board} {leaper} {surface}: {doc}");
        assert_eq!(doc["solver"], "network+merge", "{doc}");
        let geometry = Geometry::new(
            Shape::full(board.parse().unwrap()),
            leaper.parse().unwrap(),
            surface.parse().unwrap(),
        );
        check_geometry_tour(&doc, &geometry);
    }
    let first = stdout_of(&["solve", "--graph", &dodecahedron(), "--merge", "--summary"]);
    assert!(
        first.starts_with("network+merge on the graph dodecahedron (20 vertices, 30 edges)"),
        "{first}"
    );
}

#[test]
fn each_refusal_is_one_line_with_exit_2() {
    let file = dodecahedron();
    assert_refused(
        &["solve", "--board", "8x8", "--leaper", "1,3"],
        "r + s = 4 is even",
    );
    assert_refused(
        &[
            "solve",
            "--board",
            "8x8",
            "--leaper",
            "camel",
            "--solver",
            "warnsdorff",
        ],
        "disconnected",
    );
    assert_refused(
        &[
            "solve",
            "--board",
            "8x8",
            "--surface",
            "torus",
            "--solver",
            "divide-conquer",
        ],
        "divide-conquer joins knight's tours",
    );
    assert_refused(
        &[
            "solve",
            "--board",
            "8x8",
            "--surface",
            "torus",
            "--solver",
            "warnsdorff-backtrack",
        ],
        "runs only on the knight on a whole plane board",
    );
    assert_refused(
        &["solve", "--graph", &file, "--board", "8x8"],
        "cannot be used with",
    );
    assert_refused(
        &["solve", "--graph", &file, "--surface", "torus"],
        "cannot be used with",
    );
    assert_refused(
        &["solve", "--graph", &file, "--merge", "--tile", "4"],
        "network+merge on tiles cuts the board into rectangular tiles",
    );
    assert_refused(
        &["solve", "--graph", &file, "--merge", "--open"],
        "closed tours",
    );
    assert_refused(&["solve", "--graph", &file, "--open"], "closed tours");
    assert_refused(&["solve", "--graph", &file, "--start", "21"], "1 to 20");
    assert_refused(
        &["solve", "--board", "6x6", "--surface", "sphere"],
        "surface",
    );
    assert_refused(&["solve", "--board", "6x6", "--leaper", "1,x"], "leaper");
    // The (0,1)-leaper's graph on 5x5 is bipartite with 13 squares of one colour and 12
    // of the other: no closed tour, by theory.
    assert_refused(
        &["solve", "--board", "5x5", "--leaper", "0,1"],
        "13 squares of one colour",
    );
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.dimacs");
    std::fs::write(&bad, "p edge 3 2\ne 1 2\ne 1 x\n").unwrap();
    assert_refused(&["solve", "--graph", bad.to_str().unwrap()], "line 3");
    let shape = tmp.path().join("bad.txt");
    std::fs::write(&shape, "...\n.x.\n").unwrap();
    assert_refused(&["solve", "--shape", shape.to_str().unwrap()], "line 2");
}

#[test]
fn a_disconnected_shape_or_graph_file_is_refused_before_any_search() {
    let tmp = tempfile::tempdir().unwrap();
    // Two 5x5 boards joined by a wall of holes two columns wide, which no knight move
    // crosses; every square keeps two moves or more, and the colours are equal, so only
    // the search for components refuses it.
    let shape = tmp.path().join("wall.txt");
    std::fs::write(&shape, ".....##.....\n".repeat(5)).unwrap();
    let s = shape.to_str().unwrap();
    for solver in ["warnsdorff", "backtrack", "network"] {
        assert_refused(
            &["solve", "--shape", s, "--solver", solver, "--closed"],
            "disconnected: 2 components; square a5 is in one, h5 in another",
        );
    }
    assert_refused(
        &["solve", "--shape", s, "--solver", "backtrack"],
        "2 components",
    );
    let triangles = tmp.path().join("triangles.txt");
    std::fs::write(&triangles, "1 2\n2 3\n3 1\n4 5\n5 6\n6 4\n").unwrap();
    let t = triangles.to_str().unwrap();
    assert_refused(
        &["solve", "--graph", t],
        "disconnected: 2 components; vertex 1 is in one, 4 in another",
    );
    assert_refused(
        &["solve", "--graph", t, "--solver", "backtrack"],
        "2 components",
    );
}

#[test]
fn png_and_svg_draw_a_geometrys_tour_with_its_holes_and_wrapped_moves() {
    let tmp = tempfile::tempdir().unwrap();
    // A 6x7 board with holes at (1,2) and (3,3): an open tour exists (exhaustive search).
    let shape = tmp.path().join("shape.txt");
    std::fs::write(
        &shape,
        ".......\n..#....\n.......\n...#...\n.......\n.......\n",
    )
    .unwrap();
    let png = tmp.path().join("shape.png");
    let svg = tmp.path().join("shape.svg");
    let out = stdout_of(&[
        "solve",
        "--shape",
        shape.to_str().unwrap(),
        "--solver",
        "forward-check",
        "--png",
        png.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
        "--summary",
    ]);
    assert!(out.contains("open tour"), "{out}");
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("Open (1,2)-leaper tour on 6x7 plane, 2 holes"));
    // The CSV beside the figure lists the 40 squares of the path and the two holes.
    let csv = std::fs::read_to_string(tmp.path().join("shape.csv")).unwrap();
    assert_eq!(csv.lines().filter(|l| l.starts_with("path,")).count(), 40);
    let holes: Vec<&str> = csv.lines().filter(|l| l.starts_with("hole,")).collect();
    assert_eq!(holes, ["hole,0,0,1,2", "hole,0,1,3,3"]);
    // On a torus, a wrapped move is drawn as two halves, each ending just outside the
    // board, and the legend says the moves wrap.
    let svg = tmp.path().join("torus.svg");
    stdout_of(&[
        "solve",
        "--board",
        "6x6",
        "--surface",
        "torus",
        "--solver",
        "warnsdorff",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .contains("moves wrap round the edges")
    );
    let file = dodecahedron();
    assert_refused(
        &["solve", "--graph", &file, "--png", "x.png"],
        "has no squares to draw",
    );
}

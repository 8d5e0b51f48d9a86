//! `knightnet exists` beyond the knight on a whole plane board: the answer, what it
//! rests on, and the exit status (0 yes, 1 no, 3 unknown), end to end.

use std::path::PathBuf;

use crate::common::{assert_refused, json_of, knightnet};

fn graph(file: &str) -> String {
    let p: PathBuf = [env!("CARGO_MANIFEST_DIR"), "experiments", "graphs", file]
        .iter()
        .collect();
    p.display().to_string()
}

/// The exit code and stdout of `exists` with `args`.
fn answer(args: &[&str]) -> (i32, String) {
    let mut all = vec!["exists"];
    all.extend_from_slice(args);
    let out = knightnet(&all);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn each_answer_says_yes_no_or_unknown_what_it_rests_on_and_exits_accordingly() {
    let (code, text) = answer(&["--board", "6x6", "--leaper", "1,3"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.starts_with("no: ") && text.contains("Knuth"), "{text}");
    assert!(text.ends_with("(open tour; theorem)\n"), "{text}");
    let (code, text) = answer(&["--board", "5x5", "--surface", "torus", "--closed"]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("Watkins 1997"), "{text}");
    let (code, text) = answer(&["--graph", &graph("dodecahedron.hcp"), "--closed"]);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.ends_with("(closed tour; exhaustive search)\n"),
        "{text}"
    );
    let (code, text) = answer(&["--graph", &graph("petersen.dimacs"), "--closed"]);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("found none"), "{text}");
    let tutte = graph("tutte.hcp");
    let (code, text) = answer(&["--graph", &tutte, "--closed", "--max-steps", "10"]);
    assert_eq!(code, 3, "{text}");
    assert!(text.starts_with("unknown: "), "{text}");
    let (code, json) = answer(&[
        "--graph",
        &tutte,
        "--closed",
        "--max-steps",
        "10",
        "--format",
        "json",
    ]);
    assert_eq!(code, 3);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(doc["exists"], serde_json::Value::Null, "{doc}");
    assert_eq!(doc["basis"], "budget", "{doc}");
    let doc = json_of(&[
        "exists",
        "--graph",
        &graph("heawood.hcp"),
        "--closed",
        "--format",
        "json",
    ]);
    assert_eq!(doc["exists"], true, "{doc}");
    assert_eq!(doc["basis"], "search", "{doc}");
}

#[test]
fn the_knights_own_answers_are_unchanged_and_start_is_refused_beyond_it() {
    let (code, text) = answer(&["--board", "5x5", "--closed"]);
    assert_eq!(code, 1);
    assert!(
        text.starts_with("no: the 5x5 board has no closed knight's tour"),
        "{text}"
    );
    // The knight named by the new flags is the knight's board.
    let (_, same) = answer(&[
        "--board",
        "5x5",
        "--closed",
        "--leaper",
        "1,2",
        "--surface",
        "plane",
    ]);
    assert_eq!(same, text);
    assert_refused(
        &[
            "exists",
            "--board",
            "6x6",
            "--surface",
            "torus",
            "--start",
            "a1",
        ],
        "--start",
    );
    assert_refused(&["exists", "--closed"], "--board");
}

#[test]
fn count_beyond_the_knight_is_an_exhaustive_search_and_refuses_the_knights_methods() {
    let out = knightnet(&["count", "--graph", &graph("dodecahedron.hcp"), "--closed"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("directed 60, undirected 30"), "{text}");
    assert!(text.contains("exhaustive search"), "{text}");
    let doc = json_of(&[
        "count",
        "--graph",
        &graph("petersen.dimacs"),
        "--closed",
        "--format",
        "json",
    ]);
    assert_eq!(doc["undirected"], 0, "{doc}");
    // The knight named by the new flags is the knight's own count, output unchanged.
    let plain = knightnet(&["count", "--board", "3x4"]);
    let named = knightnet(&[
        "count",
        "--board",
        "3x4",
        "--leaper",
        "1,2",
        "--surface",
        "plane",
    ]);
    assert!(plain.status.success());
    assert_eq!(plain.stdout, named.stdout);
    assert_refused(
        &[
            "count",
            "--board",
            "6x6",
            "--surface",
            "torus",
            "--method",
            "frontier",
        ],
        "exhaustive search",
    );
    assert_refused(
        &[
            "count",
            "--graph",
            &graph("tutte.hcp"),
            "--closed",
            "--max-steps",
            "100",
        ],
        "--max-steps 100",
    );
}

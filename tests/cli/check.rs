//! `knightnet check`: a tour from a file, whatever wrote it, put to the one oracle.
//! Exit 0 for a tour, 1 for a square list that is not one, 2 for a file that is not a
//! square list.

use crate::common::{assert_refused, knightnet};

fn check(args: &[&str]) -> (Option<i32>, String, String) {
    let out = knightnet(args);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn solve_output_checks_in_every_form_and_a_broken_tour_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let out = knightnet(&[
        "solve",
        "--board",
        "5x6",
        "--solver",
        "warnsdorff",
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let json = dir.path().join("t.json");
    std::fs::write(&json, &out.stdout).unwrap();
    let (code, text, err) = check(&["check", json.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("a valid") && text.contains("5x6"), "{text}");

    // The same squares as lines, then with two squares swapped.
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut squares: Vec<String> = v["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{},{}", s[0], s[1]))
        .collect();
    let lines = dir.path().join("t.txt");
    std::fs::write(&lines, squares.join("\n")).unwrap();
    let path = lines.to_str().unwrap();
    let (code, _, err) = check(&["check", path, "--board", "5x6"]);
    assert_eq!(code, Some(0), "{err}");
    squares.swap(3, 17);
    std::fs::write(&lines, squares.join("\n")).unwrap();
    let (code, text, err) = check(&["check", path, "--board", "5x6"]);
    assert_eq!(code, Some(1));
    assert!(err.is_empty(), "{err}");
    assert!(text.contains("not a knight's tour"), "{text}");

    // Not a square list: bad input, one line naming the file and what is accepted.
    assert_refused(&["check", path], "--board");
    assert_refused(&["check", path, "--board", "6x6x"], "--board");
    assert_refused(&["check", path, "--board", "4x4"], "off the 4x4 board");
}

/// `solve --format json` on `flags`, written to `dir/name`.
fn solved(dir: &std::path::Path, name: &str, flags: &[&str]) -> (String, serde_json::Value) {
    let mut args = vec!["solve", "--format", "json"];
    args.extend_from_slice(flags);
    let out = knightnet(&args);
    assert!(out.status.success(), "{args:?}");
    let path = dir.join(name);
    std::fs::write(&path, &out.stdout).unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap();
    (path.to_str().unwrap().to_string(), v)
}

#[test]
fn tours_beyond_the_knight_check_on_the_graph_the_flags_name() {
    let dir = tempfile::tempdir().unwrap();
    let graphs = concat!(env!("CARGO_MANIFEST_DIR"), "/experiments/graphs");
    let dodecahedron = format!("{graphs}/dodecahedron.hcp");
    let torus = ["--board", "6x6", "--surface", "torus"];
    let (json, v) = solved(
        dir.path(),
        "t.json",
        &[&torus[..], &["--solver", "warnsdorff"]].concat(),
    );
    let mut args = vec!["check", json.as_str()];
    args.extend_from_slice(&torus);
    let (code, text, err) = check(&args);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("a valid") && text.contains("6x6 torus"),
        "{text}"
    );

    // The same squares as text; then two swapped: a torus move that is not one.
    let mut squares: Vec<String> = v["tour"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{},{}", s[0], s[1]))
        .collect();
    let lines = dir.path().join("t.txt");
    let path = lines.to_str().unwrap();
    std::fs::write(&lines, squares.join(" ")).unwrap();
    let mut args = vec!["check", path];
    args.extend_from_slice(&torus);
    assert_eq!(check(&args).0, Some(0));
    squares.swap(0, 1);
    std::fs::write(&lines, squares.join(" ")).unwrap();
    let (code, text, _) = check(&args);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("not a tour of"), "{text}");

    // The file's graph must be the one named; the knight's check refuses it.
    assert_refused(
        &["check", &json, "--board", "6x6", "--surface", "cylinder"],
        "is not the (1,2) leaper on the 6x6 cylinder",
    );
    assert_refused(&["check", &json], "a tour beyond the knight's board");

    // A graph file: solve's JSON, its printed line of vertex numbers, and numbers that
    // are no vertex.
    let (json, v) = solved(dir.path(), "d.json", &["--graph", &dodecahedron]);
    let (code, text, err) = check(&["check", &json, "--graph", &dodecahedron, "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["target"], v["target"]);
    assert_eq!(
        (doc["valid"].as_bool(), doc["closed"].as_bool()),
        (Some(true), Some(true))
    );
    let numbers: Vec<String> = v["vertices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect();
    let lines = dir.path().join("d.txt");
    std::fs::write(&lines, numbers.join(" ")).unwrap();
    let path = lines.to_str().unwrap();
    assert_eq!(
        check(&["check", path, "--graph", &dodecahedron, "--closed"]).0,
        Some(0)
    );
    std::fs::write(&lines, format!("{} 21", numbers[..19].join(" "))).unwrap();
    assert_refused(
        &["check", path, "--graph", &dodecahedron],
        "numbered 1 to 20",
    );
}

#[test]
fn a_shapes_holes_are_no_squares_of_a_tour() {
    let dir = tempfile::tempdir().unwrap();
    let picture = dir.path().join("s.txt");
    std::fs::write(
        &picture,
        "........\n........\n........\n...##...\n...##...\n........\n........\n........\n",
    )
    .unwrap();
    let shape = picture.to_str().unwrap();
    let (json, v) = solved(
        dir.path(),
        "s.json",
        &["--shape", shape, "--solver", "warnsdorff"],
    );
    let (code, text, err) = check(&["check", &json, "--shape", shape]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("4 holes"), "{text}");
    // The tour with a hole in place of its last square.
    let mut pairs: Vec<[u64; 2]> = serde_json::from_value(v["tour"].clone()).unwrap();
    *pairs.last_mut().unwrap() = [3, 3];
    let list = dir.path().join("l.json");
    std::fs::write(&list, serde_json::to_string(&pairs).unwrap()).unwrap();
    assert_refused(
        &["check", list.to_str().unwrap(), "--shape", shape],
        "d5, is a hole of the shape",
    );
}

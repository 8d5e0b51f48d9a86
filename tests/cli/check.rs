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

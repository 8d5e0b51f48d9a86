//! The classical side of the command line: `solve` with classical solvers, `exists`
//! and `count`; bad input gives one line on stderr and exit code 2, never a panic.

use std::process::Output;

use crate::common;

use crate::common::{assert_refused, knightnet, stream_rows, tour_of};

use knightnet::tour::validate;
use serde_json::Value;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn solve_json(args: &[&str]) -> Value {
    let mut all = vec!["solve", "--format", "json"];
    all.extend_from_slice(args);
    let o = knightnet(&all);
    assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn solve_json_contract_for_classical_solvers() {
    for (solver, variant) in [
        ("warnsdorff", Some("roth")),
        ("warnsdorff:pohl", Some("pohl")),
        ("forward-check", None),
        ("warnsdorff-backtrack:ties", Some("ties")),
        ("divide-conquer", None),
        ("circuit", None),
    ] {
        let v = solve_json(&["--solver", solver, "--board", "8x8", "--start", "c3"]);
        let name = solver.split(':').next().unwrap();
        assert_eq!(v["solver"], name);
        assert_eq!(v["variant"].as_str(), variant, "{solver}");
        assert_eq!(v["outcome"], "tour");
        assert_eq!(v["start_name"], "c3");
        let (b, sq) = tour_of(&v);
        let (r, c) = b.coords(b.parse_square("c3").unwrap());
        assert_eq!(v["start"], serde_json::json!([r, c]), "{solver}");
        assert_eq!(validate(b, &sq, v["closed"].as_bool().unwrap()), Ok(()));
        assert_eq!(sq[0], b.parse_square("c3").unwrap());
        let search = ["forward-check", "warnsdorff-backtrack", "warnsdorff"].contains(&name);
        assert_eq!(v.get("steps").is_some(), search, "{solver}");
    }
    // --tie-break selects the variant; closed requests give closed tours.
    let v = solve_json(&[
        "--solver",
        "warnsdorff",
        "--tie-break",
        "squirrel-cull",
        "--board",
        "20x20",
    ]);
    assert_eq!(v["variant"], "squirrel-cull");
    let v = solve_json(&[
        "--solver",
        "divide-conquer",
        "--board",
        "10x12",
        "--closed",
        "--start",
        "4,5",
        "--reverse",
    ]);
    assert_eq!(v["closed"], true);
    let (b, sq) = tour_of(&v);
    assert_eq!(validate(b, &sq, true), Ok(()));
}

#[test]
fn failures_print_the_outcome_and_exit_1() {
    let o = knightnet(&[
        "solve",
        "--solver",
        "backtrack",
        "--max-steps",
        "100",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["outcome"], "gave-up");
    assert_eq!(v["steps"], 100);
    assert!(v["tour"].is_null());
    let o = knightnet(&["solve", "--solver", "warnsdorff:first", "--start", "5,4"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("no tour"), "{}", stdout(&o));
}

#[test]
fn bad_requests_are_refused_in_one_line() {
    assert_refused(
        &[
            "solve",
            "--solver",
            "warnsdorff",
            "--board",
            "7x7",
            "--closed",
        ],
        "Schwenk",
    );
    assert_refused(
        &["solve", "--solver", "divide-conquer", "--board", "4x4"],
        "no knight's tour",
    );
    assert_refused(
        &[
            "solve",
            "--solver",
            "forward-check",
            "--board",
            "5x5",
            "--start",
            "0,1",
        ],
        "colour",
    );
    assert_refused(
        &["solve", "--solver", "backtrack", "--start", "9,9"],
        "off the 8x8 board",
    );
    assert_refused(
        &["solve", "--solver", "backtrack", "--board", "3000x3000"],
        "too large",
    );
    // A board beyond the memory the process may use: the environment's failure (exit 1,
    // one line), measured against the process's limit, not a fixed size; under an
    // address-space limit so that the answer does not depend on the machine.
    #[cfg(target_os = "linux")]
    {
        let out = common::limited_command(&[(libc::RLIMIT_AS, 4 << 30)])
            .args([
                "solve",
                "--solver",
                "divide-conquer",
                "--board",
                "100000x40000",
            ])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("out of memory"), "{err}");
    }
    assert_refused(
        &["solve", "--solver", "circuit", "--board", "5x5"],
        "closed",
    );
    assert_refused(
        &["solve", "--solver", "warnsdorff", "--restarts", "3"],
        "random",
    );
    assert_refused(
        &["solve", "--solver", "circuit", "--max-steps", "3"],
        "--max-steps",
    );
    assert_refused(
        &["solve", "--solver", "backtrack", "--tie-break", "pohl"],
        "--tie-break",
    );
    assert_refused(
        &["solve", "--solver", "warnsdorff", "--tie-break", "best"],
        "unknown tie-break",
    );
    assert_refused(
        &["solve", "--solver", "divide-conquer", "--variant", "brant"],
        "network flags",
    );
    assert_refused(&["solve", "--solver", "nope"], "unknown solver");
    assert_refused(
        &["solve", "--solver", "warnsdorff", "--reverse"],
        "--reverse",
    );
    assert_refused(&["count", "--board", "3000x3000"], "too large");
    assert_refused(&["exists", "--board", "0x3"], "zero side");
}

#[test]
fn exists_answers_from_the_theorems() {
    // The answer is the exit status too (as `test`): 1 for no, 0 for yes.
    let o = knightnet(&["exists", "--board", "7x7", "--closed"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("no: "), "{}", stdout(&o));
    assert!(stdout(&o).contains("Schwenk"));
    let o = knightnet(&["exists", "--board", "3x10", "--closed", "--format", "json"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["exists"], true);
    assert_eq!(o.status.code(), Some(0));
    let o = knightnet(&["exists", "--board", "4x5"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("yes: "));
    let o = knightnet(&["exists", "--board", "5x5", "--start", "b5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("no: "));
}

#[test]
fn count_reports_published_values() {
    let o = knightnet(&["count", "--board", "5x5", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    // Counts are decimal strings (docs/json.md): they pass 2^53 and 2^64.
    assert_eq!(v["directed"], "1728");
    assert_eq!(v["undirected"], "864");
    assert_eq!(v["complete"], true);
    let o = knightnet(&["count", "--board", "5x5", "--start", "0,0"]);
    assert!(stdout(&o).contains("directed 304"), "{}", stdout(&o));
    let o = knightnet(&["count", "--board", "3x4"]);
    assert!(
        stdout(&o).contains("directed 16, undirected 8"),
        "{}",
        stdout(&o)
    );
    let o = knightnet(&["count", "--board", "3x10", "--closed"]);
    assert!(stdout(&o).contains("undirected 16"), "{}", stdout(&o));
    let o = knightnet(&[
        "count",
        "--board",
        "6x6",
        "--closed",
        "--method",
        "search",
        "--max-steps",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("incomplete"));
    assert!(stderr(&o).contains("gave up after 500 steps"));
}

/// `count --board 4x30 --format json` failed with "number out of range": a count above
/// 2^64 is printed exactly, as a decimal string, the same digits as the text output and
/// as the other dynamic program's, twice the undirected count.
#[test]
fn counts_beyond_2_to_the_64_print_exactly_in_json() {
    for board in [&["--board", "4x30"][..], &["--board", "3x60", "--closed"]] {
        let mut by_method = Vec::new();
        for method in ["split", "frontier"] {
            let mut args = vec!["count"];
            args.extend_from_slice(board);
            args.extend_from_slice(&["--method", method]);
            let text = knightnet(&args);
            assert_eq!(text.status.code(), Some(0), "{args:?}: {}", stderr(&text));
            args.extend_from_slice(&["--format", "json"]);
            let o = knightnet(&args);
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
            let count = |key: &str| -> u128 {
                v[key]
                    .as_str()
                    .unwrap_or_else(|| panic!("{args:?}: {key} is not a string: {v}"))
                    .parse()
                    .unwrap()
            };
            let (directed, undirected) = (count("directed"), count("undirected"));
            assert!(undirected > u128::from(u64::MAX), "{args:?}: {undirected}");
            assert_eq!(directed, 2 * undirected, "{args:?}");
            assert!(
                stdout(&text).contains(&format!("directed {directed}, undirected {undirected}")),
                "{args:?}: {}",
                stdout(&text)
            );
            by_method.push(directed);
        }
        assert_eq!(by_method[0], by_method[1], "{board:?}");
    }
    // The search's per-start counts follow the same rule.
    let o = knightnet(&[
        "count", "--board", "3x4", "--method", "search", "--format", "json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let rows = v["per_start"].as_array().unwrap();
    assert_eq!(rows.len(), 12, "{v}");
    let sum: u128 = rows
        .iter()
        .map(|r| r[2].as_str().unwrap().parse::<u128>().unwrap())
        .sum();
    assert_eq!(sum.to_string(), v["directed"].as_str().unwrap());
}

/// `count --two-factors` printed `H/F = 2.721603e-1`: a plain decimal in the text (as the
/// README's tables show it), a number in JSON.
#[test]
fn the_two_factor_ratio_is_a_plain_decimal() {
    let o = knightnet(&["count", "--board", "6x6", "--two-factors"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("H = 9862, 2-factors F = 36236, H/F = 0.2722\n"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("e-"), "{}", stdout(&o));
    let o = knightnet(&["count", "--board", "3x40", "--two-factors"]);
    let text = stdout(&o);
    let ratio = text
        .split("H/F = ")
        .nth(1)
        .and_then(|r| r.lines().next())
        .unwrap_or_else(|| panic!("{text}"));
    // Four significant digits after the zeros.
    assert_eq!(ratio, "0.01344", "{text}");
    let o = knightnet(&[
        "count",
        "--board",
        "6x6",
        "--two-factors",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    let ratio = v["ratio"].as_f64().unwrap();
    assert!((ratio - 9862.0 / 36236.0).abs() < 1e-12, "{v}");
}

#[test]
fn stream_writes_the_solved_tour_as_row_col_lines() {
    let cases: [&[&str]; 4] = [
        &["--board", "9x11", "--start", "4,6"],
        &["--board", "8x10", "--start", "c3", "--reverse"],
        &["--board", "13x6"],
        &["--board", "7x7"],
    ];
    for args in cases {
        let mut base = vec!["--solver", "divide-conquer"];
        base.extend_from_slice(args);
        let v = solve_json(&base);
        let mut all = vec!["solve"];
        all.extend_from_slice(&base);
        all.push("--stream");
        let o = knightnet(&all);
        assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
        let lines = stream_rows(&stdout(&o));
        assert_eq!(&lines, v["tour"].as_array().unwrap(), "{all:?}");
    }
}

#[test]
fn stream_refuses_what_it_cannot_write() {
    assert_refused(
        &["solve", "--solver", "warnsdorff", "--stream"],
        "only --solver divide-conquer",
    );
    assert_refused(
        &[
            "solve",
            "--solver",
            "divide-conquer",
            "--stream",
            "--format",
            "json",
        ],
        "--format json",
    );
    assert_refused(
        &[
            "solve",
            "--solver",
            "divide-conquer",
            "--board",
            "3x10",
            "--stream",
        ],
        "both sides at least 5",
    );
    assert_refused(
        &[
            "solve",
            "--solver",
            "divide-conquer",
            "--board",
            "11x11",
            "--start",
            "5,5",
            "--stream",
        ],
        "does not cover",
    );
}

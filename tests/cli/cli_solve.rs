//! `knightnet solve` from the outside: output contract, determinism, and a clear
//! one-line error with exit code 2 (and nothing on stdout) for every kind of bad input.

use crate::common::{assert_refused, json_of, knightnet, stream_rows, tour_of};

use knightnet::board::Board;
use knightnet::tour::validate;
use serde_json::Value;

#[test]
fn default_solve_prints_a_numbered_board() {
    let out = knightnet(&["solve"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].contains("network (parberry) on 8x8, seed 1: closed tour"),
        "{}",
        lines[0]
    );
    assert_eq!(lines.len(), 9);
    assert_eq!(
        crate::common::move_numbers(&lines[1..]),
        (1..=64).collect::<Vec<_>>()
    );
}

#[test]
fn json_contract_and_start_square() {
    let v = json_of(&[
        "solve",
        "--board",
        "6x6",
        "--variant",
        "parberry",
        "--seed",
        "7",
        "--format",
        "json",
    ]);
    for key in [
        "board",
        "solver",
        "variant",
        "seed",
        "closed",
        "tour",
        "outcome",
        "iterations",
        "restarts",
    ] {
        assert!(v.get(key).is_some(), "missing {key}");
    }
    assert_eq!(v["board"]["rows"], 6);
    assert_eq!(v["solver"], "network");
    assert_eq!(v["variant"], "parberry");
    assert_eq!(v["seed"], 7);
    assert_eq!(v["closed"], true);
    assert_eq!(v["outcome"], "tour");
    assert_eq!(
        v["restarts"].as_u64().unwrap() + 1,
        v["attempts"].as_u64().unwrap()
    );
    let board = Board::new(6, 6).unwrap();
    assert_eq!(tour_of(&v).0, board);
    validate(board, &tour_of(&v).1, true).unwrap();

    for (start, reverse) in [("c3", false), ("2,5", true)] {
        let mut args = vec![
            "solve", "--board", "6x6", "--seed", "7", "--format", "json", "--start", start,
        ];
        if reverse {
            args.push("--reverse");
        }
        let w = json_of(&args);
        let t = tour_of(&w).1;
        validate(board, &t, true).unwrap();
        assert_eq!(t[0], board.parse_square(start).unwrap());
    }
    // Reversing walks the same cycle the other way.
    let fwd = tour_of(&json_of(&[
        "solve", "--board", "6x6", "--seed", "7", "--format", "json", "--start", "0,0",
    ]))
    .1;
    let rev = tour_of(&json_of(&[
        "solve",
        "--board",
        "6x6",
        "--seed",
        "7",
        "--format",
        "json",
        "--start",
        "0,0",
        "--reverse",
    ]))
    .1;
    assert_eq!(fwd[1], rev[35]);
    assert_eq!(fwd[35], rev[1]);
}

/// A misspelt name gets the closest accepted one as a suggestion, under its flag.
#[test]
fn misspelt_names_suggest_the_closest() {
    for (args, expected) in [
        (
            &["solve", "--solver", "warnsdorf"][..],
            "--solver: unknown solver 'warnsdorf'; did you mean 'warnsdorff'?",
        ),
        (
            &["solve", "--variant", "parbery"][..],
            "--variant: unknown variant 'parbery'; did you mean 'parberry'?",
        ),
        (
            &["solve", "--solver", "warnsdorff:rot"][..],
            "unknown tie-break 'rot'; did you mean 'roth'?",
        ),
    ] {
        assert_refused(args, expected);
    }
    let err = assert_refused(&["solve", "--solver", "oracle"], "unknown solver 'oracle'");
    assert!(!err.contains("did you mean"), "{err}");
}

#[test]
fn same_seed_same_bytes() {
    for variant in ["parberry", "brant", "takefuji-lee", "numpy"] {
        let args = [
            "solve",
            "--board",
            "6x6",
            "--variant",
            variant,
            "--seed",
            "3",
            "--format",
            "json",
        ];
        let a = knightnet(&args);
        let b = knightnet(&args);
        assert_eq!(a.stdout, b.stdout, "{variant}");
        assert_eq!(a.status.code(), b.status.code());
    }
}

#[test]
fn trace_has_one_output_string_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.json");
    let out = knightnet(&[
        "solve",
        "--board",
        "10x12",
        "--seed",
        "3",
        "--trace",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let t: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let neurons = t["neurons"].as_array().unwrap();
    assert_eq!(neurons.len(), 4 * 120 - 6 * 22 + 8);
    assert_eq!(neurons[0], serde_json::json!([0, 14]));
    let outputs = t["outputs"].as_array().unwrap();
    assert_eq!(outputs.len(), t["steps"].as_array().unwrap().len() + 1);
    assert!(
        outputs
            .iter()
            .all(|o| o.as_str().unwrap().len() == neurons.len())
    );
    // The last output is the tour printed on stdout: 120 active moves.
    assert_eq!(
        outputs
            .last()
            .unwrap()
            .as_str()
            .unwrap()
            .matches('1')
            .count(),
        120
    );
    assert_eq!(t["outcome"], "tour");
}

#[test]
fn bad_input_is_one_line_exit_2_and_no_stdout() {
    let cases: &[(&[&str], &str)] = &[
        (&["solve", "--board", "0x8"], "zero side"),
        (&["solve", "--board", "-3x8"], "negative"),
        (&["solve", "--board", "8y8"], "malformed"),
        (&["solve", "--board", "8x"], "malformed"),
        (&["solve", "--board", "99999999999999999999x8"], "too large"),
        (&["solve", "--board", "100000x100000"], "too large"),
        (&["solve", "--board", "60000x60000"], "GiB"),
        (&["solve", "--start", "9,0"], "off the 8x8 board"),
        (&["solve", "--start", "i1"], "off the 8x8 board"),
        (&["solve", "--start", "q"], "malformed"),
        (&["solve", "--start", "-1,0"], "off the 8x8 board"),
        (&["solve", "--variant", "hopfield"], "unknown variant"),
        (&["solve", "--solver", "oracle"], "unknown solver"),
        (&["solve", "--order", "diagonal"], "unknown update order"),
        (&["solve", "--clamp", "2"], "clamp"),
        (&["solve", "--clamp", "ten"], "clamp"),
        (&["solve", "--upper", "-1"], "upper"),
        (&["solve", "--max-attempts", "0"], "max-attempts"),
        (&["solve", "--board", "7x7"], "both sides are odd"),
        (&["solve", "--board", "4x10"], "side of 1, 2 or 4"),
        (&["solve", "--board", "3x8"], "3x8"),
        (&["solve", "--board", "1x1"], "no knight move"),
    ];
    for (args, needle) in cases {
        assert_refused(args, needle);
    }
}

#[test]
fn giving_up_is_reported_not_hidden() {
    // One sweep per attempt cannot settle an 8x8 network from a random state.
    let out = knightnet(&[
        "solve",
        "--max-iterations",
        "1",
        "--max-attempts",
        "3",
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tour"], Value::Null);
    assert_eq!(v["attempts"], 3);
    assert_eq!(v["outcome"], "iteration-cap");
    assert!(String::from_utf8_lossy(&out.stderr).contains("no tour found after 3 attempts"));
}

/// A preset or tie-break given twice, in `--solver NAME:X` and by its flag, must agree
/// (the flag used to win silently); the same value twice is fine.
#[test]
fn contradictory_presets_and_tie_breaks_are_refused() {
    for (args, flag) in [
        (
            vec![
                "solve",
                "--solver",
                "network:brant",
                "--variant",
                "parberry",
            ],
            "--variant",
        ),
        (
            vec![
                "solve",
                "--solver",
                "network+merge:parberry",
                "--variant",
                "brant",
            ],
            "--variant",
        ),
        (
            vec![
                "solve",
                "--solver",
                "warnsdorff:roth",
                "--tie-break",
                "pohl",
            ],
            "--tie-break",
        ),
    ] {
        let err = assert_refused(&args, flag);
        assert!(err.contains(args[2]), "{err}");
    }
    let v = json_of(&[
        "solve",
        "--solver",
        "warnsdorff:pohl",
        "--tie-break",
        "pohl",
        "--format",
        "json",
    ]);
    assert_eq!(v["variant"], "pohl");
}

/// A closed-only solver on a board with no closed tour but open ones names a solver
/// that finds an open tour, and that suggestion works.
#[test]
fn no_closed_tour_suggests_an_open_tour_solver() {
    for solver in ["network", "network+merge"] {
        let err = assert_refused(
            &["solve", "--board", "5x5", "--solver", solver],
            "--solver divide-conquer",
        );
        assert!(err.contains("open tour"), "{err}");
    }
    let v = json_of(&[
        "solve",
        "--board",
        "5x5",
        "--solver",
        "divide-conquer",
        "--format",
        "json",
    ]);
    assert!(v["tour"].is_array());
    // No open tour either: no suggestion.
    let err = assert_refused(&["solve", "--board", "3x3"], "no closed");
    assert!(!err.contains("divide-conquer"), "{err}");
}

/// `solve --merge --format json` writes, byte for byte, the documents the merge wrote
/// before it kept the cover as neighbour pairs and cycle labels (files in
/// `tests/data/network-merge`, made by that version): whole-board covers whose merge
/// needs many local moves (6x6 seed 10: 72), a tiled board, odd tiles on a rectangle,
/// a start and the reverse direction. Only the crate version is brought up to date.
#[test]
fn network_merge_json_is_unchanged_by_the_compact_merge() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "6x6-10-none",
            &["--board", "6x6", "--seed", "10", "--tile", "none"],
        ),
        (
            "8x8-5-none-start",
            &[
                "--board",
                "8x8",
                "--seed",
                "5",
                "--tile",
                "none",
                "--start",
                "2,3",
                "--reverse",
            ],
        ),
        ("30x30-1-auto", &["--board", "30x30", "--seed", "1"]),
        (
            "64x40-3-8-start",
            &[
                "--board",
                "64x40",
                "--seed",
                "3",
                "--tile",
                "8",
                "--start",
                "2,3",
                "--reverse",
            ],
        ),
    ];
    for (file, args) in cases {
        let path = format!(
            "{}/tests/data/network-merge/{file}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let expected = std::fs::read_to_string(&path).unwrap().replace(
            "\"version\": \"0.1.0\"",
            &format!("\"version\": \"{}\"", env!("CARGO_PKG_VERSION")),
        );
        let mut all = vec!["solve", "--merge", "--format", "json"];
        all.extend_from_slice(args);
        let out = knightnet(&all);
        assert_eq!(out.status.code(), Some(0), "{all:?}");
        assert!(
            String::from_utf8(out.stdout).unwrap() == expected,
            "{all:?} differs from {path}"
        );
        if file == "6x6-10-none" {
            let v: Value = serde_json::from_str(&expected).unwrap();
            assert!(v["merge"]["local_moves"].as_u64().unwrap() > 0);
        }
    }
}

/// `solve --merge --stream` writes the tour of `solve --merge --format json` as `row,col`
/// lines, tiled or whole-board, from any start and in either direction.
#[test]
fn network_merge_stream_is_the_json_tour() {
    let cases: [&[&str]; 4] = [
        &["--board", "6x6", "--seed", "10", "--tile", "none"],
        &[
            "--board",
            "8x8",
            "--seed",
            "5",
            "--tile",
            "none",
            "--start",
            "c3",
            "--reverse",
        ],
        &["--board", "30x30", "--seed", "2", "--start", "4,6"],
        &[
            "--board",
            "42x24",
            "--seed",
            "3",
            "--tile",
            "6",
            "--reverse",
        ],
    ];
    for args in cases {
        let mut json = vec!["solve", "--merge", "--format", "json"];
        json.extend_from_slice(args);
        let v = json_of(&json);
        let mut all = vec!["solve", "--merge", "--stream"];
        all.extend_from_slice(args);
        let out = knightnet(&all);
        assert_eq!(out.status.code(), Some(0), "{all:?}");
        let lines = stream_rows(&String::from_utf8(out.stdout).unwrap());
        assert_eq!(&lines, v["tour"].as_array().unwrap(), "{all:?}");
    }
}

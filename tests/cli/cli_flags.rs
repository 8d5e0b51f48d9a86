//! The command line's flags as a user meets them: every subcommand's `--help` shows an
//! example, a bad value is reported with the flag that carried it (and no other),
//! `queens` takes `solve`'s solver names, `--screen` is ROWSxCOLS like `--board`, and
//! `solve --summary` prints the summary line alone.

use crate::common::{assert_refused, knightnet, stdout_of, subcommands};

#[test]
fn every_subcommand_help_has_an_example() {
    let subs = subcommands();
    assert!(subs.len() >= 15, "subcommands read from --help: {subs:?}");
    let missing: Vec<&String> = subs
        .iter()
        .filter(|sub| {
            let help = stdout_of(&[sub.as_str(), "--help"]);
            // An example is a line that runs knightnet after the word "Example".
            let after = help.split_once("Example").map(|x| x.1).unwrap_or("");
            !after.contains(&format!("knightnet {sub}"))
        })
        .collect();
    assert!(missing.is_empty(), "no example in --help of {missing:?}");
}

#[test]
fn exists_help_states_the_exit_status_of_no() {
    let help = stdout_of(&["exists", "--help"]);
    assert!(help.contains("1 when none does"), "{help}");
    // And the binary keeps it: "no" is exit 1 with the answer on stdout.
    let out = knightnet(&["exists", "--board", "5x5", "--closed"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("no: "));
    assert!(out.stderr.is_empty());
}

#[test]
fn compare_help_explains_the_shared_moves_column() {
    let help = stdout_of(&["compare", "--help"]);
    assert!(help.contains("moves shared by"), "{help}");
    assert!(help.contains("first 20 tours"), "{help}");
}

#[test]
fn a_square_error_names_its_own_flag_only() {
    // The flag is known from the parse, not found by matching the quoted value against
    // the command line: a square spelled like the board names one flag, not "--board,
    // --start: ...".
    let err = assert_refused(
        &["solve", "--board", "8x8", "--start", "8x8"],
        "error: --start: square '8x8' is malformed",
    );
    assert!(!err.contains("--board"), "{err}");
    assert_refused(
        &["exists", "--board", "6x6", "--start", "9,9"],
        "error: --start: square '9,9' is off the 6x6 board",
    );
    assert_refused(
        &["queens", "--size", "8", "--lock", "a1", "--lock", "i1"],
        "error: --lock: square 'i1' is off the 8x8 board",
    );
    // A value clap parses through the library's type reads the same way.
    assert_refused(
        &["solve", "--board", "9y9"],
        "error: --board: board '9y9' is malformed",
    );
    assert_refused(
        &["solve", "--order", "sideways"],
        "error: --order: unknown update order 'sideways'",
    );
    assert_refused(
        &["queens", "--solver", "neural:bogus"],
        "error: --solver: unknown queens network preset 'bogus'",
    );
    // A message that names its flag already is not prefixed again.
    let err = assert_refused(&["experiment", "--shard", "3/2"], "error: --shard '3/2'");
    assert!(!err.contains("--shard: "), "{err}");
}

#[test]
fn contradictions_are_compared_as_types() {
    assert_refused(
        &[
            "solve",
            "--solver",
            "network:brant",
            "--variant",
            "parberry",
        ],
        "--solver network:brant and --variant parberry contradict each other",
    );
    assert_refused(
        &[
            "solve",
            "--solver",
            "warnsdorff:roth",
            "--tie-break",
            "pohl",
        ],
        "--solver warnsdorff:roth and --tie-break pohl contradict each other",
    );
    // The same preset twice, spelled with spaces, agrees.
    let a = stdout_of(&["solve", "--board", "6x6", "--solver", "network:brant"]);
    let b = stdout_of(&[
        "solve",
        "--board",
        "6x6",
        "--solver",
        "network:brant",
        "--variant",
        " brant",
    ]);
    assert_eq!(a, b);
}

#[test]
fn queens_takes_the_solve_names_as_aliases() {
    for (alias, name) in [
        ("forward-check", "forward-checking"),
        ("backtrack", "backtracking"),
        ("network", "neural"),
        ("network:takefuji", "neural:takefuji"),
    ] {
        let args = |s: &str| {
            [
                "queens", "--size", "8", "--lock", "c3", "--solver", s, "--seed", "4",
            ]
            .map(String::from)
        };
        let run = |s: &str| {
            let a = args(s);
            stdout_of(&a.iter().map(String::as_str).collect::<Vec<_>>())
        };
        assert_eq!(run(alias), run(name), "{alias} vs {name}");
    }
}

#[test]
fn screen_is_rows_by_columns_like_board() {
    let lines = |screen: &str| {
        let text = stdout_of(&["play", "--snapshot", "--screen", screen]);
        let widths: Vec<usize> = text.lines().map(|l| l.chars().count()).collect();
        (widths.len(), widths.into_iter().max().unwrap_or(0))
    };
    assert_eq!(lines("24x80"), (24, 80));
    assert_eq!(lines("30x100"), (30, 100));
    // The default is an 80-column, 24-line terminal.
    assert_eq!(
        stdout_of(&["play", "--snapshot"]),
        stdout_of(&["play", "--snapshot", "--screen", "24x80"])
    );
}

#[test]
fn summary_prints_the_first_line_of_the_text_output() {
    let args = ["solve", "--board", "30x30", "--solver", "warnsdorff"];
    let full = stdout_of(&args);
    let mut short_args = args.to_vec();
    short_args.push("--summary");
    let short = stdout_of(&short_args);
    assert_eq!(short.lines().count(), 1, "{short}");
    assert_eq!(full.lines().next().unwrap(), short.trim_end());
    assert!(full.lines().count() > 30);
    assert_refused(&["solve", "--summary", "--format", "json"], "--summary");
}

/// `--board 8` is the 8x8 board: every `--board` help says so (one text for every
/// subcommand), and a single number gives the same board as NxN.
#[test]
fn a_single_number_board_is_square_and_the_help_says_so() {
    let mut with_board = 0;
    for sub in subcommands() {
        let help = stdout_of(&[sub.as_str(), "--help"]);
        if help.contains("--board <BOARD>") {
            with_board += 1;
            assert!(
                help.contains("a single number N is the square board NxN (8 is 8x8)"),
                "{sub} --help: {help}"
            );
        }
    }
    assert!(with_board >= 7, "{with_board} subcommands take --board");
    // Small boards only: an 8x8 count runs for minutes.
    for (one, two) in [("5", "5x5"), ("4", "4x4"), ("1", "1x1")] {
        let doc = |b: &str| stdout_of(&["count", "--board", b, "--format", "json"]);
        assert_eq!(doc(one), doc(two), "--board {one}");
    }
    let exists = |b: &str| stdout_of(&["exists", "--board", b, "--closed", "--format", "json"]);
    assert_eq!(exists("8"), exists("8x8"));
    let solve = |b: &str| {
        stdout_of(&[
            "solve",
            "--board",
            b,
            "--solver",
            "warnsdorff",
            "--format",
            "json",
        ])
    };
    assert_eq!(solve("6"), solve("6x6"));
}

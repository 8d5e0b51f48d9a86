//! `experiments/hf-counts.csv` holds H (closed tours) and F (2-factors) for the H/F
//! figure and claims (issue 18), each with the command that made it. These tests recompute
//! every row knightnet made with the frontier counter (the quick rows always, all of them
//! by hand, `cargo test --release --test library by_hand_every_row -- --ignored`: 6x8 to 6x10 take seconds to a minute, 8x8's H about eight minutes by
//! the split and its F a minute and a half) and check that each row's command is the
//! `count --two-factors` of its board, so the figure and the claims never rest on a
//! number typed by hand. No H is cited any more: 8x8's was, until the split counted it.

use std::path::Path;

use knightnet::count::frontier::{self, FrontierRequest, Quantity};
use knightnet::plot::hf::{self, CountRow};

fn rows() -> Vec<(CountRow, f64)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/hf-counts.csv");
    let counts = hf::load(&path).unwrap_or_else(|e| panic!("{e}"));
    // The seconds each row took, to pick the quick ones.
    let mut rd = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(&path)
        .unwrap();
    let seconds: Vec<f64> = rd
        .deserialize::<std::collections::HashMap<String, String>>()
        .map(|r| r.unwrap()["seconds"].parse().unwrap())
        .collect();
    assert_eq!(seconds.len(), counts.rows.len());
    counts.rows.into_iter().zip(seconds).collect()
}

fn count(row: &CountRow, quantity: Quantity) -> u128 {
    let req = FrontierRequest {
        board: row.board,
        quantity,
        start: None,
        max_transitions: u64::MAX,
        max_memory: 40 << 30,
        rows_limit: None,
    };
    // H by the split where it applies, as `count --two-factors` counts it.
    let run = if quantity == Quantity::Cycles && knightnet::count::split::fits(row.board) {
        knightnet::count::split::run(&req, |_| {}).unwrap()
    } else {
        frontier::run(&req, |_| {}).unwrap()
    };
    assert!(run.complete, "{}", row.board);
    run.count.unwrap()
}

fn check(row: &CountRow) {
    let b = row.board.to_string();
    assert!(
        row.command
            .starts_with(&format!("knightnet count --board {b} --two-factors")),
        "{b}: command '{}'",
        row.command
    );
    assert_eq!(
        count(row, Quantity::TwoFactors),
        row.two_factors,
        "F of {b}"
    );
    if row.cited() {
        assert!(row.closed_tours_source.contains("literature"), "{b}");
    } else {
        assert_eq!(row.closed_tours_source, hf::KNIGHTNET);
        assert_eq!(count(row, Quantity::Cycles), row.closed_tours, "H of {b}");
    }
}

/// The rows that took from `from` to under `to` seconds (the CSV's `seconds`).
fn rows_taking(from: f64, to: f64) -> Vec<CountRow> {
    rows()
        .into_iter()
        .filter(|r| (from..to).contains(&r.1))
        .map(|r| r.0)
        .collect()
}

#[test]
fn the_quick_rows_are_what_the_counter_gives() {
    let quick = rows_taking(0.0, 0.5);
    assert!(quick.len() >= 8, "{} quick rows", quick.len());
    for row in &quick {
        check(row);
    }
    let rows = rows();
    // Every H is knightnet's own (8x8's by the split since it was added).
    let cited: Vec<String> = rows
        .iter()
        .filter(|r| r.0.cited())
        .map(|r| r.0.board.to_string())
        .collect();
    assert!(cited.is_empty(), "cited: {cited:?}");
}

/// 6x9 and 6x10: a second or two each by the CSV's `seconds`.
#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn the_rows_of_seconds_are_what_the_counter_gives() {
    let rows = rows_taking(0.5, 5.0);
    assert!(rows.len() >= 2, "{} rows", rows.len());
    for row in &rows {
        check(row);
    }
}

#[test]
#[ignore = "by hand: about twelve minutes: 6x8 to 6x10, 8x8's H (split) and F"]
fn by_hand_every_row_is_what_the_counter_gives() {
    for (row, _) in rows() {
        check(&row);
    }
}

/// A row of `experiments/hf-counts-beyond.csv`: H and F of a leaper on a cylinder or a
/// torus, with the command that made them and its seconds.
#[derive(serde::Deserialize)]
struct BeyondRow {
    board: String,
    surface: String,
    leaper: String,
    closed_tours: u128,
    two_factors: u128,
    command: String,
    seconds: f64,
}

fn beyond_rows() -> Vec<BeyondRow> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments/hf-counts-beyond.csv");
    csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_path(&path)
        .unwrap()
        .deserialize()
        .map(|r| r.unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// The row's command is the `count --two-factors` of its geometry, and the frontier
/// program on that geometry counts its H and F.
fn check_beyond(row: &BeyondRow) {
    use knightnet::count::geometry::{self, Layout};
    use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
    let board: knightnet::board::Board = row.board.parse().unwrap();
    let leaper: Leaper = row.leaper.parse().unwrap();
    let surface: Surface = row.surface.parse().unwrap();
    let mut command = format!("knightnet count --board {board} --surface {surface}");
    if leaper != Leaper::default() {
        command += &format!(" --leaper {leaper}");
    }
    command += " --two-factors";
    assert_eq!(row.command, command);
    let moves = Geometry::new(Shape::full(board), leaper, surface)
        .moves()
        .unwrap();
    let layout = Layout::of(&moves);
    let count = |q| {
        let run = geometry::run(&moves, &layout, q, u64::MAX, 40 << 30, &mut |_| {}).unwrap();
        run.count.unwrap()
    };
    assert_eq!(count(Quantity::Cycles), row.closed_tours, "H of {command}");
    assert_eq!(
        count(Quantity::TwoFactors),
        row.two_factors,
        "F of {command}"
    );
}

#[test]
fn the_quick_rows_beyond_the_plane_are_what_the_counter_gives() {
    let rows = beyond_rows();
    let quick: Vec<&BeyondRow> = rows.iter().filter(|r| r.seconds < 1.0).collect();
    assert!(quick.len() >= 4, "{} quick rows", quick.len());
    for row in quick {
        check_beyond(row);
    }
}

#[test]
#[ignore = "by hand: about three minutes: the cylinders to 6x6 and the 4x5 torus"]
fn by_hand_every_row_beyond_the_plane_is_what_the_counter_gives() {
    for row in beyond_rows() {
        check_beyond(&row);
    }
}

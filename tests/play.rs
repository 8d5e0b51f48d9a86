//! `knightnet play` through ratatui's `TestBackend`: keys go into the app, the screen is
//! rendered off-screen and asserted, at the 80×24 size of an SSH session.

mod common;

use common::knightnet;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use knightnet::board::Board;
use knightnet::tui::{buffer_text, render, App};

fn key(app: &mut App, c: KeyCode) {
    app.key(KeyEvent::new(c, KeyModifiers::NONE));
}

fn typed(app: &mut App, text: &str) {
    for ch in text.chars() {
        key(app, KeyCode::Char(ch));
    }
    key(app, KeyCode::Enter);
}

fn screen(app: &App) -> String {
    buffer_text(&render(app, 80, 24))
}

/// The board row of rank `rank` (text between the borders).
fn rank_row(text: &str, rank: usize) -> String {
    text.lines()
        .find(|l| l.starts_with(&format!("│{rank} ")) || l.starts_with(&format!("│ {rank} ")))
        .unwrap_or_else(|| panic!("no rank {rank} in\n{text}"))
        .to_string()
}

#[test]
fn fresh_board_fits_80x24() {
    let app = App::new(Board::new(8, 8).unwrap(), 1);
    let text = screen(&app);
    assert_eq!(text.lines().count(), 24);
    assert!(text.contains("knightnet play"), "{text}");
    assert!(text.contains("8x8 board · move 0 of 64 · play"), "{text}");
    assert!(text.contains("pick a start square"), "{text}");
    // The cursor starts on a8 (row 0, column 0), drawn in brackets.
    assert!(
        rank_row(&text, 8).starts_with("│8 [ .]  .   .   ."),
        "{text}"
    );
    assert!(text.contains("a   b   c   d   e   f   g   h"), "{text}");
}

#[test]
fn moves_show_numbers_and_legal_targets() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    typed(&mut app, "a1");
    typed(&mut app, "b3");
    let text = screen(&app);
    let r1 = rank_row(&text, 1);
    assert!(r1.starts_with("│1   1 "), "{r1}");
    let r3 = rank_row(&text, 3);
    assert!(r3.contains("[ 2]"), "the knight (and cursor) on b3: {r3}");
    // Legal moves from b3 (a5, c5, d4, d2, c1) are marked '+'.
    let r5 = rank_row(&text, 5);
    assert!(r5.starts_with("│5   +   .   +"), "{r5}");
    assert!(text.contains("move 2 of 64"), "{text}");
    assert!(text.contains("Knight b3, 5 legal moves"), "{text}");
}

#[test]
fn illegal_moves_are_refused_on_screen() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    typed(&mut app, "a1");
    typed(&mut app, "a3");
    let text = screen(&app);
    assert!(
        text.contains("illegal: a3 is not a knight move from a1"),
        "{text}"
    );
    assert!(text.contains("move 1 of 64"));
    typed(&mut app, "a1");
    assert!(screen(&app).contains("illegal: a1 was already visited (move 1)"));
}

#[test]
fn undo_and_redo_update_the_board() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    for sq in ["a1", "b3", "c1"] {
        typed(&mut app, sq);
    }
    key(&mut app, KeyCode::Char('U'));
    key(&mut app, KeyCode::Char('U'));
    let text = screen(&app);
    assert!(text.contains("move 1 of 64"), "{text}");
    assert!(text.contains("redo 2"), "{text}");
    assert!(!rank_row(&text, 3).contains(" 2 "), "{text}");
    key(&mut app, KeyCode::Char('R'));
    let text = screen(&app);
    assert!(rank_row(&text, 3).contains("[ 2]"), "{text}");
}

#[test]
fn dead_position_warning_names_the_square() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    for sq in ["b3", "d2", "c4", "e3", "c2", "e1"] {
        typed(&mut app, sq);
    }
    let text = screen(&app);
    assert!(
        text.contains("warning: dead: a1 is stranded"),
        "message line: {text}"
    );
    // a1 is marked '!' on the board.
    assert!(rank_row(&text, 1).starts_with("│1   !"), "{text}");
}

#[test]
fn hint_and_give_up() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    typed(&mut app, "a1");
    key(&mut app, KeyCode::Char('H'));
    assert!(screen(&app).contains("hint (Warnsdorff: fewest onward moves): b3"));
    key(&mut app, KeyCode::Char('G'));
    let text = screen(&app);
    assert!(text.contains("move 64 of 64"), "{text}");
    assert!(text.contains("tour complete"), "{text}");
}

#[test]
fn watch_mode_shows_steps_and_network_lines() {
    let mut app = App::new(Board::new(6, 6).unwrap(), 1);
    key(&mut app, KeyCode::Char('W'));
    for _ in 0..7 {
        key(&mut app, KeyCode::Char('s'));
    }
    let text = screen(&app);
    assert!(text.contains("watch backtracking"), "{text}");
    assert!(text.contains("Step 7"), "{text}");
    assert!(text.contains("Speed normal, paused"), "{text}");
    // Tab through the search solvers to the first network preset.
    for _ in 0..3 {
        key(&mut app, KeyCode::Tab);
    }
    key(&mut app, KeyCode::Char('s'));
    let text = screen(&app);
    assert!(text.contains("network:takefuji-lee"), "{text}");
    assert!(text.contains("Squares with degree ≠ 2:"), "{text}");
    // Lines are drawn with braille dots.
    assert!(
        text.chars().any(|c| ('\u{2801}'..='\u{28FF}').contains(&c)),
        "{text}"
    );
    key(&mut app, KeyCode::Esc);
    assert!(screen(&app).contains("back to the game"));
}

#[test]
fn small_terminal_gets_a_message_not_a_garbled_board() {
    let app = App::new(Board::new(16, 16).unwrap(), 1);
    let text = screen(&app);
    assert!(text.contains("needs a terminal of at least"), "{text}");
    let fits = App::new(Board::new(10, 10).unwrap(), 1);
    assert!(screen(&fits).contains("move 0 of 100"), "{}", screen(&fits));
    let wide = App::new(Board::new(8, 12).unwrap(), 1);
    assert!(screen(&wide).contains("move 0 of 96"), "{}", screen(&wide));
}

// ---- the command line ----

#[test]
fn cli_snapshot_and_errors() {
    let out = knightnet(&["play", "--snapshot", "--moves", "a1 b3 c1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 24);
    assert!(text.contains("move 3 of 64"), "{text}");
    let out = knightnet(&["play", "--snapshot", "--moves", "a1 a2"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("move 2 (a2) is illegal"), "{err}");
    // Not a terminal (the test's stdout is a pipe): a clear error, exit 2.
    let out = knightnet(&["play"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--snapshot"));
    let out = knightnet(&[
        "play",
        "--measure-dead",
        "--board",
        "5x5",
        "--samples",
        "40",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("misses / total = "), "{text}");
}

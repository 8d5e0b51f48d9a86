//! The terminal game through ratatui's `TestBackend`: keys go into the app, the screen is
//! rendered off-screen and asserted, at the 80×24 size of an SSH session. (`play` as a
//! process, with its signals and terminal, is tested in tests/cli/play.rs.)

use std::time::Duration;

use crate::tui::app::MAX_INPUT;
use crate::tui::{App, EVENTS_PER_FRAME, EventSource, buffer_text, event_loop, render};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use knightnet::board::Board;
use knightnet::puzzle::watch::WatchKind;

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
    // The hint is the next move of a tour the solvers' search finds from here.
    let hint = app.hint.expect("a hint");
    let text = screen(&app);
    let name = app.board().square_name(hint);
    assert!(
        text.contains(&format!("hint: {name} (a tour continues from there)")),
        "{text}"
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.game.path().last(), Some(&hint));
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
    assert!(text.contains("watch backtrack"), "{text}");
    assert!(text.contains("Step 7"), "{text}");
    assert!(text.contains("placed 7, backtracks 0"), "{text}");
    assert!(text.contains("Speed normal, paused"), "{text}");
    // Tab through the search solvers and Warnsdorff's tie-breaks to the first network
    // preset.
    let to_network = WatchKind::all()
        .iter()
        .position(|k| k.to_string().starts_with("network"))
        .unwrap();
    for _ in 0..to_network {
        key(&mut app, KeyCode::Tab);
    }
    key(&mut app, KeyCode::Char('s'));
    let text = screen(&app);
    assert!(text.contains("network:parberry"), "{text}");
    assert!(text.contains("Squares with degree ≠ 2:"), "{text}");
    // Lines are drawn with braille dots.
    assert!(
        text.chars().any(|c| ('\u{2801}'..='\u{28FF}').contains(&c)),
        "{text}"
    );
    key(&mut app, KeyCode::Esc);
    assert!(screen(&app).contains("back to the game"));
}

/// The help names the square a ROW,COL entry reaches on this board (2,3 is row 2 from the
/// top, column 3: d6 on 8x8, not c3), and typing it goes there.
#[test]
fn the_help_says_what_row_col_means() {
    for (m, n) in [(8, 8), (5, 5), (3, 4), (6, 8)] {
        let board = Board::new(m, n).unwrap();
        let mut app = App::new(board, 1);
        let text = screen(&app);
        assert!(text.contains("from 0 at the top left"), "{text}");
        let line = text
            .lines()
            .find(|l| l.contains(": row "))
            .unwrap_or_else(|| panic!("no ROW,COL line in\n{text}"));
        // "│2,3 Enter d6: row 2, column 3,"
        let at = line.find(" Enter ").expect("a key");
        let rc = line[..at].rsplit(['│', ' ']).next().unwrap();
        let name = line[at + 7..].split(':').next().unwrap().trim();
        let named = text
            .lines()
            .any(|l| l.contains(&format!("{name} Enter  move to {name}")));
        assert!(named, "{board}: no '{name} Enter' line in\n{text}");
        typed(&mut app, rc);
        let at = app.game.path()[0];
        assert_eq!(board.square_name(at), name, "{board}: {rc}");
        let (r, c) = board.coords(at);
        assert_eq!(format!("{r},{c}"), rc, "{board}");
    }
    let text = screen(&App::new(Board::new(8, 8).unwrap(), 1));
    assert!(text.contains("2,3 Enter d6: row 2, column 3,"), "{text}");
    assert!(text.contains("lowercase u r w n q too"), "{text}");
}

/// The ranks and files frame the network's lines as they frame the path board, and the
/// title ("active moves · degree ≠ 2 shown") fits every board watch mode can show, 6x6
/// included.
#[test]
fn the_network_board_keeps_its_labels_and_title() {
    for (m, n) in [(5, 6), (6, 6), (8, 8), (6, 10), (10, 10)] {
        let board = Board::new(m, n).unwrap();
        let mut app = App::new(board, 1);
        app.watch("network:parberry".parse().unwrap());
        app.watch_steps(3);
        let text = screen(&app);
        assert!(text.contains("┌ network ─"), "{board}: {text}");
        let gap = " ".repeat(board.squares().to_string().len() + 1);
        let files: Vec<String> = (0..n)
            .map(|c| ((b'a' + c as u8) as char).to_string())
            .collect();
        assert!(
            text.contains(&files.join(&gap)),
            "{board}: no file labels in\n{text}"
        );
        for rank in 1..=m {
            rank_row(&text, rank);
        }
        assert!(text.contains("digits: degree ≠ 2"), "{board}: {text}");
    }
}

/// The network presets a user meets first with Tab settle (not `wikipedia`, whose
/// attempts never settle, nor `takefuji-lee`, most of whose attempts run to the cap): on
/// 8x8, from the seeds `solve` uses, each of the first choices' attempts ends before the
/// iteration cap in most attempts, and every preset that settles that way comes before
/// every one that does not.
#[test]
fn the_first_network_choices_settle() {
    use knightnet::graph::KnightGraph;
    use knightnet::network::{Network, Termination, attempt_rng};
    let graph = KnightGraph::new(Board::new(8, 8).unwrap());
    let settles: Vec<(String, bool)> = WatchKind::all()
        .iter()
        .filter_map(|k| match k.kind() {
            knightnet::solvers::SolverKind::Network(p) => Some((k.to_string(), *p)),
            _ => None,
        })
        .map(|(name, params)| {
            let net = Network::new(&graph, params).unwrap();
            let settled = (0..20)
                .filter(|&i| {
                    let a = net.attempt(&mut attempt_rng(1, i), None);
                    a.termination != Termination::IterationCap
                })
                .count();
            (name, settled >= 10)
        })
        .collect();
    assert_eq!(settles.len(), knightnet::network::Preset::ALL.len());
    assert!(settles[0].1 && settles[1].1, "{settles:?}");
    let first_unsettled = settles.iter().position(|(_, s)| !s).unwrap();
    assert!(
        settles[first_unsettled..].iter().all(|(_, s)| !s),
        "{settles:?}"
    );
    // From `--watch network` (parberry), Tab reaches a preset that settles.
    let parberry: WatchKind = "network".parse().unwrap();
    let next = parberry.next().to_string();
    assert!(
        settles.iter().any(|(n, s)| *n == next && *s),
        "{next}: {settles:?}"
    );
}

/// Watch mode steps one run of the network, one sweep per step: it does not run an
/// attempt to its end first to learn where it ends (with an attempt that never settles
/// and a cap of 50 million sweeps on 20x20, 7 * 10^10 neuron updates, a first step would
/// cost minutes).
#[test]
fn watching_the_network_steps_it_once() {
    use knightnet::network::Preset;
    use knightnet::solvers::SolverKind;
    let params = knightnet::network::NetworkParams {
        max_iterations: 50_000_000,
        ..Preset::Wikipedia.params()
    };
    let watch = WatchKind::new(SolverKind::Network(params)).unwrap();
    let board = Board::new(20, 20).unwrap();
    let began = std::time::Instant::now();
    let mut w = watch.build(board, &[], 0, 1).unwrap();
    for _ in 0..3 {
        w.step();
    }
    assert_eq!(w.steps(), 3);
    assert!(
        w.counters().contains("attempt 1, iteration 3"),
        "{}",
        w.counters()
    );
    let took = began.elapsed();
    assert!(took < Duration::from_secs(10), "three steps took {took:?}");
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

// ---- bounded input ----

/// Events from a script, as a terminal would queue them.
struct Script(std::collections::VecDeque<Event>);

impl EventSource for Script {
    fn poll(&mut self, _timeout: Duration) -> std::io::Result<bool> {
        Ok(!self.0.is_empty())
    }
    fn read(&mut self) -> std::io::Result<Event> {
        Ok(self.0.pop_front().expect("poll said an event is ready"))
    }
}

fn press(c: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent::new(c, modifiers))
}

#[test]
fn a_40000_character_paste_is_a_few_redraws() {
    // Queued keys share one redraw: 40,000 pasted characters (sent as keys by a terminal
    // without bracketed paste) must not cost one redraw each (about two minutes).
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    let mut events: std::collections::VecDeque<Event> = "a1b3c5"
        .chars()
        .cycle()
        .take(40_000)
        .map(|ch| press(KeyCode::Char(ch), KeyModifiers::NONE))
        .collect();
    events.push_back(press(KeyCode::Char('c'), KeyModifiers::CONTROL));
    let mut draws = 0;
    let mut longest = 0;
    event_loop(
        &mut app,
        &mut Script(events),
        |app| {
            draws += 1;
            longest = longest.max(app.input.len());
            Ok(())
        },
        || false,
    )
    .unwrap();
    assert!(app.quit);
    assert!(
        draws <= 40_001 / EVENTS_PER_FRAME + 2,
        "{draws} redraws for 40,001 keys"
    );
    assert!(app.input.len() <= MAX_INPUT && longest <= MAX_INPUT);
}

#[test]
fn a_bracketed_paste_fills_the_field_and_runs_no_command() {
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    // Capital letters are commands when typed (G: the solver finishes the tour); in a
    // paste they are text, and the field keeps at most MAX_INPUT characters.
    app.paste(&"GNWQ".repeat(10_000));
    assert!(app.game.path().is_empty() && !app.quit);
    app.paste(&"c3".repeat(20_000));
    assert_eq!(app.input.len(), MAX_INPUT);
    assert!(app.message.contains("paste cut"), "{}", app.message);
    let mut short = App::new(Board::new(8, 8).unwrap(), 1);
    short.paste("c3");
    key(&mut short, KeyCode::Enter);
    assert_eq!(short.game.path().len(), 1);
}

#[test]
fn ctrl_c_quits_and_other_ctrl_letters_do_nothing() {
    // Ctrl with a letter is not the letter: Ctrl+a types nothing, Ctrl+Shift+U undoes nothing.
    let mut app = App::new(Board::new(8, 8).unwrap(), 1);
    typed(&mut app, "a1");
    for ch in ('a'..='z').filter(|&c| c != 'c' && c != 'd') {
        app.key(KeyEvent::new(KeyCode::Char(ch), KeyModifiers::CONTROL));
        app.key(KeyEvent::new(
            KeyCode::Char(ch.to_ascii_uppercase()),
            KeyModifiers::CONTROL | KeyModifiers::SHIFT,
        ));
    }
    assert!(app.input.is_empty(), "typed: {:?}", app.input);
    assert_eq!(app.game.path().len(), 1);
    assert!(!app.quit);
    app.key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit);
}

/// A shaped torus: holes drawn `#` and refused, wrapped moves marked `+`, the title
/// names the surface and counts only the squares.
#[test]
fn holes_and_wrapped_moves_are_drawn() {
    use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
    use knightnet::puzzle::Field;
    let shape: Shape = "......\n.#....\n......\n......\n......\n......\n"
        .parse()
        .unwrap();
    let field = Field::new(Geometry::new(shape, Leaper::KNIGHT, Surface::Torus)).unwrap();
    let mut app = App::on(field, 1);
    typed(&mut app, "b5");
    assert!(app.message.contains("b5 is a hole"), "{}", app.message);
    assert!(app.game.path().is_empty());
    typed(&mut app, "a1");
    let text = screen(&app);
    assert!(text.contains("6x6 board · torus · move 1 of 35"), "{text}");
    // From a1 (row 5) the knight wraps off the bottom edge: one row down is row 0
    // (rank 6), two columns either way c6 and e6 (0 - 2 wraps to column 4); two rows
    // down is rank 5, where b5 is a hole and f5 (0 - 1 wraps to column 5) a move.
    let r6 = rank_row(&text, 6);
    assert!(r6.starts_with("│6   .   .   +   .   +   . "), "{r6}");
    assert!(
        rank_row(&text, 5).starts_with("│5   .   #   .   .   .   + "),
        "{text}"
    );
    typed(&mut app, "e6");
    assert_eq!(app.game.path().len(), 2, "{}", app.message);
}

/// Watch mode on a shaped torus: the network's board shows the hole `#` and no degree
/// there; Warnsdorff's walk numbers the squares around the hole; a solver built on the
/// knight's board is refused in the panel, naming what runs there; Tab reaches it and
/// goes on.
#[test]
fn watch_mode_runs_on_a_shaped_torus() {
    use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
    use knightnet::puzzle::Field;
    let shape: Shape = "......\n.#....\n......\n......\n......\n..#...\n"
        .parse()
        .unwrap();
    let field = Field::new(Geometry::new(shape, Leaper::KNIGHT, Surface::Torus)).unwrap();
    let mut app = App::on(field, 1);
    app.watch("network".parse().unwrap());
    app.watch_steps(2);
    let text = screen(&app);
    assert!(text.contains("watch network:parberry"), "{text}");
    assert!(text.contains("Step 2"), "{text}");
    // b5 (row 1, column 1) is a hole: `#` in its cell of the canvas, no digit.
    let r5 = rank_row(&text, 5);
    assert!(r5.contains('#'), "{text}");
    key(&mut app, KeyCode::Char('w'));
    typed(&mut app, "a6");
    app.watch("warnsdorff".parse().unwrap());
    app.watch_steps(1000);
    let text = screen(&app);
    assert!(text.contains("solved: tour found"), "{text}");
    assert!(text.contains("Path 34 of 34 squares"), "{text}");
    assert!(rank_row(&text, 5).starts_with("│5 "), "{text}");
    assert!(rank_row(&text, 5).contains("   #  "), "{text}");
    app.watch("warnsdorff:first".parse().unwrap());
    assert!(
        app.message
            .contains("runs only on the knight on a whole plane board")
            && app
                .message
                .contains("watch runs network[:PRESET], warnsdorff"),
        "{}",
        app.message
    );
    assert!(screen(&app).contains("warnsdorff:first runs only"));
    key(&mut app, KeyCode::Tab);
    let crate::tui::app::Mode::Watch(w) = &app.mode else {
        panic!("left watch mode")
    };
    assert_eq!(w.kind.to_string(), "warnsdorff:random");
}

//! `knightnet play` through ratatui's `TestBackend`: keys go into the app, the screen is
//! rendered off-screen and asserted, at the 80×24 size of an SSH session.

mod common;

use common::knightnet;

use std::time::Duration;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use knightnet::board::Board;
use knightnet::puzzle::watch::WatchKind;
use knightnet::tui::app::MAX_INPUT;
use knightnet::tui::{buffer_text, event_loop, render, App, EventSource, EVENTS_PER_FRAME};

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

/// Before: the help said "c3 Enter: move to c3 (or 2,3)", but 2,3 is row 2 from the top,
/// column 3: d6 on 8x8. The help now names the square ROW,COL reaches on this board, and
/// typing it goes there.
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

/// Before: the network's board had no file labels and its title ("active moves ·
/// degree ≠ 2 shown") was cut on 6x6. Now the ranks and files frame the lines as they
/// frame the path board, and the title fits every board watch mode can show.
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

/// Before: Tab from `network:parberry` went to `wikipedia`, whose attempts never settle,
/// and the first network Tab reached was `takefuji-lee`, most of whose attempts run to
/// the cap. The network presets a user meets first settle: on 8x8, from the seeds
/// `solve` uses, each of the first choices' attempts ends before the iteration cap in
/// most attempts, and every preset that settles that way comes before every one that
/// does not.
#[test]
fn the_first_network_choices_settle() {
    use knightnet::graph::KnightGraph;
    use knightnet::network::{attempt_rng, Network, Termination};
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

/// Before: watch mode ran each network attempt to its end as soon as it began (to learn
/// where it ends), then stepped the dynamics again to show it: a first step cost a whole
/// attempt. With an attempt that never settles and a cap of 50 million sweeps on 20x20
/// (7 * 10^10 neuron updates, minutes of work), three steps took that long; now each
/// step is one sweep of the one run.
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
    // An empty list is a mistake (an unset variable, say), not "no moves".
    common::assert_refused(&["play", "--snapshot", "--moves", ""], "--moves");
    common::assert_refused(&["play", "--snapshot", "--moves", "a1 zz"], "--moves");
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

/// `--watch` takes `solve`'s solver names (the old watch names are aliases); other
/// solvers are refused with one line naming what is accepted.
#[test]
fn cli_watch_takes_solve_names() {
    for (name, shown) in [
        ("backtrack", "watch backtrack"),
        ("backtracking", "watch backtrack"),
        (
            "forward-check:connectivity",
            "watch forward-check:connectivity",
        ),
        (
            "warnsdorff-backtrack:ties",
            "watch warnsdorff-backtrack:ties",
        ),
        ("warnsdorff", "watch warnsdorff:roth"),
        ("warnsdorff:first", "watch warnsdorff:first"),
        ("network:brant", "watch network:brant"),
    ] {
        let out = knightnet(&[
            "play",
            "--snapshot",
            "--board",
            "6x6",
            "--watch",
            name,
            "--steps",
            "9",
        ]);
        assert!(out.status.success(), "{name}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(shown), "{name}: {text}");
        assert!(text.contains("Step 9"), "{name}: {text}");
    }
    for bad in [
        "circuit",
        "divide-conquer",
        "network+merge",
        "dfs",
        "warnsdorff:best",
    ] {
        common::assert_refused(
            &["play", "--snapshot", "--watch", bad],
            "accepted: backtrack, forward-check[:connectivity]",
        );
    }
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
    // Before: one redraw per character, so 40,000 pasted characters (sent as keys by a
    // terminal without bracketed paste) froze the game for about two minutes.
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
    // Before: Ctrl+a typed 'a' into the square field, Ctrl+Shift+U undid a move.
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

// ---- signals ----

/// `play --board 5x5` in a new session on a pseudo-terminal (its controlling terminal
/// when `controlling`), and the terminal's master side.
#[cfg(target_os = "linux")]
fn play_in_pty(controlling: bool) -> (std::process::Child, std::os::fd::OwnedFd) {
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;
    use std::process::{Command, Stdio};

    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: 40,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty writes two descriptors into the given integers; the name and
    // termios pointers may be null, and `size` outlives the call.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: fcntl on a descriptor just opened: the child must not inherit the master
    // side, or closing it here would not close the terminal.
    assert_eq!(
        unsafe { libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC) },
        0
    );
    // SAFETY: both descriptors were just opened and are owned here only.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_knightnet"));
    cmd.args(["play", "--board", "5x5"])
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    // SAFETY: runs in the forked child before exec and calls only setsid and ioctl
    // (async-signal-safe): a new session, whose controlling terminal is the pty if asked.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setsid() < 0 || (controlling && libc::ioctl(0, libc::TIOCSCTTY, 0) < 0) {
                return Err(std::io::Error::last_os_error());
            }
            // No core file when SIGQUIT ends the game as its default action would.
            let none = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &none);
            Ok(())
        });
    }
    let child = cmd.spawn().expect("play starts");
    drop(cmd); // the parent's copies of the slave side
    (child, master)
}

/// Everything the master side of a pty reads, gathered by a thread until EIO.
#[cfg(target_os = "linux")]
fn gather(
    master: std::os::fd::OwnedFd,
) -> (
    std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    std::thread::JoinHandle<()>,
) {
    use std::io::Read;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let reader = {
        let seen = std::sync::Arc::clone(&seen);
        let mut master = std::fs::File::from(master);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            // Ends with EIO once the child (the last holder of the slave side) is gone.
            while let Ok(n @ 1..) = master.read(&mut buf) {
                seen.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        })
    };
    (seen, reader)
}

/// `play` in a pseudo-terminal, sent `sig` once it has drawn: the restore sequence
/// (alternate screen left, cursor shown) must follow, and the process must end by the
/// signal. Before: the default action killed it mid-game, the terminal left on the
/// alternate screen with the cursor hidden.
#[cfg(target_os = "linux")]
fn restores_after(sig: i32) {
    use std::os::unix::process::ExitStatusExt;
    use std::time::Instant;

    let (mut child, master) = play_in_pty(true);
    let (seen, reader) = gather(master);
    let contains = |needle: &[u8]| {
        seen.lock()
            .unwrap()
            .windows(needle.len())
            .any(|w| w == needle)
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !(contains(b"\x1b[?1049h") && contains(b"knightnet play")) {
        assert!(
            Instant::now() < deadline,
            "play did not draw: {}",
            String::from_utf8_lossy(&seen.lock().unwrap())
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: kill has no memory effects; the pid is our child's, not yet reaped.
    assert_eq!(unsafe { libc::kill(child.id() as i32, sig) }, 0);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("play did not end on signal {sig}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    reader.join().unwrap();
    let out = seen.lock().unwrap().clone();
    let entered = out
        .windows(8)
        .position(|w| w == b"\x1b[?1049h")
        .expect("entered the alternate screen");
    let after = &out[entered..];
    let has = |needle: &[u8]| after.windows(needle.len()).any(|w| w == needle);
    assert!(
        has(b"\x1b[?1049l"),
        "signal {sig}: the alternate screen was not left"
    );
    assert!(has(b"\x1b[?25h"), "signal {sig}: the cursor was not shown");
    assert_eq!(status.signal(), Some(sig), "{status:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn play_restores_the_terminal_on_sigterm() {
    restores_after(libc::SIGTERM);
}

#[cfg(target_os = "linux")]
#[test]
fn play_restores_the_terminal_on_sigint() {
    restores_after(libc::SIGINT);
}

#[cfg(target_os = "linux")]
#[test]
fn play_restores_the_terminal_on_sighup() {
    restores_after(libc::SIGHUP);
}

/// Before (issue #26): SIGQUIT left the terminal raw, on the alternate screen, the cursor
/// hidden (6 of 6 tries).
#[cfg(target_os = "linux")]
#[test]
fn play_restores_the_terminal_on_sigquit() {
    restores_after(libc::SIGQUIT);
}

/// The state letter of process `pid` in /proc (`T`: stopped).
#[cfg(target_os = "linux")]
fn process_state(pid: u32) -> char {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The state follows the command name, which is in parentheses.
    let after = &stat[stat.rfind(')').unwrap() + 1..];
    after.trim_start().chars().next().unwrap()
}

/// SIGTSTP: the terminal is restored (alternate screen left, cursor shown) and the game
/// stops; SIGCONT: it enters the alternate screen again and redraws the whole screen.
/// Before (issue #26): SIGTSTP stopped it with the terminal raw and on the alternate
/// screen, and nothing was redrawn on SIGCONT.
#[cfg(target_os = "linux")]
#[test]
fn play_suspends_on_sigtstp_and_redraws_on_sigcont() {
    use std::time::Instant;

    let (mut child, master) = play_in_pty(true);
    let (seen, reader) = gather(master);
    let len = || seen.lock().unwrap().len();
    let since = |from: usize, needle: &[u8]| {
        seen.lock().unwrap()[from..]
            .windows(needle.len())
            .any(|w| w == needle)
    };
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(30);
    let wait_for = |what: &str, done: &dyn Fn() -> bool| {
        while !done() {
            let seen = seen.lock().unwrap();
            assert!(
                Instant::now() < deadline,
                "{what}; the terminal's last bytes: {}",
                String::from_utf8_lossy(&seen[seen.len().saturating_sub(400)..])
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    wait_for("play did not draw", &|| {
        since(0, b"\x1b[?1049h") && since(0, b"knightnet play")
    });
    let before_stop = len();
    // SAFETY: kill has no memory effects; the pid is our child's, not yet reaped.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTSTP) }, 0);
    wait_for("not stopped on SIGTSTP", &|| process_state(pid) == 'T');
    wait_for("the alternate screen was not left", &|| {
        since(before_stop, b"\x1b[?1049l")
    });
    assert!(since(before_stop, b"\x1b[?25h"), "the cursor was not shown");
    let before_cont = len();
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGCONT) }, 0);
    wait_for("no alternate screen after SIGCONT", &|| {
        since(before_cont, b"\x1b[?1049h")
    });
    wait_for("no redraw after SIGCONT", &|| {
        since(before_cont, b"knightnet play")
    });
    assert_ne!(process_state(pid), 'T');
    // It still ends cleanly.
    // SAFETY: as above.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGTERM) }, 0);
    let status = common::wait_at_most(&mut child, Duration::from_secs(30));
    reader.join().unwrap();
    assert!(since(before_cont, b"\x1b[?1049l"));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGTERM), "{status:?}");
}

/// A terminal that goes away without a hang-up signal (its master side closed while it
/// is not the game's controlling terminal, as when a multiplexer's pane is destroyed):
/// the game must end, as a hang-up would end it, not spin. Before: the terminal
/// library's reader read end-of-file in a busy loop at 70% of a core, for good (found
/// after an hour of a stray `play`).
#[cfg(target_os = "linux")]
#[test]
fn play_ends_when_its_terminal_goes_away_without_a_signal() {
    use std::time::Instant;

    use std::io::Read;

    let (mut child, master) = play_in_pty(false);
    let mut master = std::fs::File::from(master);
    let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
    while !seen.windows(14).any(|w| w == b"knightnet play") {
        match master.read(&mut buf) {
            Ok(n @ 1..) => seen.extend_from_slice(&buf[..n]),
            _ => panic!("play did not draw: {}", String::from_utf8_lossy(&seen)),
        }
    }
    // The terminal goes away: its master side is closed, and no signal is sent.
    drop(master);
    let end = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if Instant::now() > end {
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    assert!(
        status.is_some(),
        "play still runs 10 s after its terminal went away"
    );
}

//! `knightnet play` as a process: its flags and errors, and its terminal restored on every
//! signal (the game itself is tested through ratatui's `TestBackend` in src/tui/tests.rs).

use crate::common;

use crate::common::knightnet;

use std::time::Duration;

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
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("--snapshot")
    );
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
    // The child must not inherit the master side, or closing it here would not close
    // the terminal.
    // SAFETY: fcntl on a descriptor just opened.
    let rc = unsafe { libc::fcntl(master, libc::F_SETFD, libc::FD_CLOEXEC) };
    assert_eq!(rc, 0);
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
/// signal, rather than being killed mid-game by the default action (which would leave the
/// terminal on the alternate screen with the cursor hidden).
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
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
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
/// the game must end, as a hang-up would end it, not spin (the terminal library's reader
/// would otherwise read end-of-file in a busy loop at 70% of a core, for good).
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

// ---- beyond the knight ----

/// `--surface`, `--leaper` and `--shape` as `solve` takes them: a wrapped move is
/// legal on the torus only, holes are drawn `#` and refused as moves, the title names
/// the leaper and surface; a graph file (no board picture), a watch solver built on the
/// knight's board and the dead-position measurement are refused with one line, exit 2.
#[test]
fn cli_plays_leapers_surfaces_and_shapes() {
    let out = knightnet(&[
        "play",
        "--snapshot",
        "--board",
        "6x6",
        "--surface",
        "torus",
        "--moves",
        "a1 e6",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("6x6 board · torus · move 2 of 36"), "{text}");
    common::assert_refused(
        &["play", "--snapshot", "--board", "6x6", "--moves", "a1 e6"],
        "e6 is not a knight move from a1",
    );
    common::assert_refused(
        &[
            "play",
            "--snapshot",
            "--board",
            "6x6",
            "--leaper",
            "zebra",
            "--moves",
            "a1 b2",
        ],
        "b2 is not a zebra move from a1",
    );
    let dir = tempfile::tempdir().unwrap();
    let shape = dir.path().join("ring.txt");
    std::fs::write(&shape, "....\n.##.\n....\n").unwrap();
    let shape = shape.to_str().unwrap();
    let out = knightnet(&["play", "--snapshot", "--shape", shape, "--moves", "a1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("3x4 board · move 1 of 10"), "{text}");
    let row2 = text.lines().find(|l| l.starts_with("│2 ")).unwrap();
    assert!(row2.contains("   #   #   "), "{row2}");
    common::assert_refused(
        &["play", "--snapshot", "--shape", shape, "--moves", "b2"],
        "b2 is a hole",
    );
    for (extra, needle) in [
        (&["--graph", shape][..], "--graph"),
        (
            &["--surface", "torus", "--watch", "warnsdorff:first"][..],
            "network[:PRESET], warnsdorff, backtrack and forward-check",
        ),
        (
            &["--surface", "torus", "--measure-dead"][..],
            "--measure-dead",
        ),
    ] {
        let mut args = vec!["play", "--snapshot"];
        args.extend_from_slice(extra);
        let err = common::assert_refused(&args, needle);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

/// The cells of the board drawn in a snapshot (or printed by `solve`): one row of
/// whitespace-separated cells per board row, the rank labels and borders left out.
fn board_cells(text: &str, rows: usize, snapshot: bool) -> Vec<Vec<String>> {
    let lines: Vec<&str> = if snapshot {
        text.lines().skip(2).take(rows).collect()
    } else {
        text.lines().skip(1).take(rows).collect()
    };
    lines
        .iter()
        .map(|l| {
            let l = if snapshot {
                // `│6   1  32 ... │…`: the board panel, its rank label dropped.
                let inner = l.split('│').nth(1).unwrap();
                inner
                    .split_whitespace()
                    .skip(1)
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                l.to_string()
            };
            l.split_whitespace().map(str::to_string).collect()
        })
        .collect()
}

/// `play --watch` on a torus, a cylinder with another leaper and a shape with holes: the
/// walk and the searches end in the tour `solve` prints with the same geometry, start
/// and seed (each square's move number), holes drawn `#`; the network's run ends as
/// `solve`'s (the outcome and the attempts).
#[test]
fn cli_watches_beyond_the_knight() {
    let dir = tempfile::tempdir().unwrap();
    let shape = dir.path().join("holes.txt");
    std::fs::write(&shape, "#.....\n......\n......\n......\n......\n....#.\n").unwrap();
    let shape = shape.to_str().unwrap();
    let cases: [(&[&str], &str, usize); 4] = [
        (&["--board", "6x6", "--surface", "torus"], "warnsdorff", 6),
        (
            &["--board", "5x6", "--surface", "cylinder"],
            "forward-check",
            5,
        ),
        (&["--shape", shape], "backtrack", 6),
        (&["--shape", shape, "--surface", "torus"], "warnsdorff", 6),
    ];
    for (geometry, solver, rows) in cases {
        let mut solve = vec!["solve", "--solver", solver, "--seed", "3", "--start", "b2"];
        solve.extend_from_slice(geometry);
        let out = knightnet(&solve);
        assert!(
            out.status.success(),
            "{solve:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let solved = String::from_utf8(out.stdout).unwrap();
        let mut play = vec![
            "play",
            "--snapshot",
            "--watch",
            solver,
            "--seed",
            "3",
            "--moves",
            "b2",
            "--steps",
            "1000000",
        ];
        play.extend_from_slice(geometry);
        let out = knightnet(&play);
        assert!(
            out.status.success(),
            "{play:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shown = String::from_utf8(out.stdout).unwrap();
        assert!(shown.contains("solved: tour found"), "{play:?}\n{shown}");
        assert_eq!(
            board_cells(&shown, rows, true),
            board_cells(&solved, rows, false),
            "{play:?}\n{shown}\n{solved}"
        );
    }
    // The network on the torus: the run `solve` makes with the same seed.
    for seed in ["1", "2"] {
        let out = knightnet(&[
            "solve",
            "--board",
            "6x6",
            "--surface",
            "torus",
            "--seed",
            seed,
            "--summary",
        ]);
        let solved = String::from_utf8(out.stdout).unwrap();
        let out = knightnet(&[
            "play",
            "--snapshot",
            "--board",
            "6x6",
            "--surface",
            "torus",
            "--watch",
            "network",
            "--seed",
            seed,
            "--steps",
            "1000000",
            "--screen",
            "30x100",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shown = String::from_utf8(out.stdout).unwrap();
        let attempts = shown
            .lines()
            .find_map(|l| l.split("attempt ").nth(1))
            .and_then(|t| t.split(',').next())
            .unwrap()
            .to_string();
        if solved.contains("tour") && !solved.contains("no tour") {
            assert!(shown.contains("solved: tour found"), "{shown}");
            assert!(
                solved.contains(&format!("after {attempts} attempt")),
                "{solved}\n{shown}"
            );
        } else {
            assert!(shown.contains("failed:"), "{shown}");
        }
    }
}

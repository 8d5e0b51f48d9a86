//! Issue #26, files that are not files and signals during a write: outputs through
//! symbolic links, outputs that are FIFOs or devices, the modes of written files, inputs
//! that are FIFOs, non-UTF-8 arguments, `ulimit -f`, SIGINT and SIGTERM while a figure is
//! written, and no printed result before a failed output. Each test names what happened
//! before the fix.

#![cfg(target_os = "linux")]

use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{knightnet, limited_command, wait_at_most};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The names of the hidden (temporary) files in `dir`.
fn hidden(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect()
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// A character device node like /dev/full (1, 7), made in a test folder so that a
/// failing run replaces a copy, never the real one. Needs root; `None` otherwise.
fn char_device(path: &Path) -> Option<()> {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
    let rc = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 7)) };
    (rc == 0).then_some(())
}

/// A bad-input refusal: exit 2, nothing on stdout, one line on stderr.
fn assert_input_error(o: &Output, args: &str, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{args}: {err}");
    assert!(o.stdout.is_empty(), "{args} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args}: {err}");
    assert!(err.contains(needle), "{args}: '{err}' lacks '{needle}'");
}

/// An environment failure: exit 1, nothing on stdout, one line on stderr.
fn assert_environment_error(o: &Output, args: &str, needle: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{args}: {err} ({:?})", o.status);
    assert!(o.stdout.is_empty(), "{args} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args}: {err}");
    assert!(err.contains(needle), "{args}: '{err}' lacks '{needle}'");
}

const TINY: &str = r#"
name = "tiny"
seed = 3
trials = 4
boards = ["6x6"]

[[solver]]
solver = "warnsdorff:roth"
start = "random"
"#;

/// Case 1. `solve --trace link.json` writes the file the symbolic link points at; it
/// does not replace the link by a regular file. The same for figures.
#[test]
fn outputs_write_through_symbolic_links() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::create_dir(dir.join("real")).unwrap();
    for (flag, name) in [
        ("--trace", "t.json"),
        ("--png", "t.png"),
        ("--svg", "t.svg"),
    ] {
        let target = dir.join("real").join(name);
        std::fs::write(&target, "old").unwrap();
        let link = dir.join(format!("link-{name}"));
        std::os::unix::fs::symlink(Path::new("real").join(name), &link).unwrap();
        let o = knightnet(&["solve", "--board", "6x6", flag, s(&link), "--summary"]);
        assert!(
            o.status.success(),
            "{flag}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{flag}: the link was replaced"
        );
        let written = std::fs::read(&target).unwrap();
        assert_ne!(written, b"old", "{flag}: the link's target was not written");
        assert!(hidden(dir).is_empty() && hidden(&dir.join("real")).is_empty());
    }
    // A dangling link: its target is created.
    let link = dir.join("dangling.json");
    std::os::unix::fs::symlink("real/new.json", &link).unwrap();
    let o = knightnet(&["solve", "--board", "6x6", "--trace", s(&link), "--summary"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(dir.join("real/new.json").is_file());
}

/// Case 1. A FIFO, a socket or (as root) a device node given as an output is refused,
/// not replaced by a regular file.
#[test]
fn outputs_that_are_not_regular_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let device = dir.join("full");
    let mut targets = vec![(fifo.clone(), "is a FIFO, not a regular file")];
    targets.push((socket.clone(), "is a socket, not a regular file"));
    if char_device(&device).is_some() {
        targets.push((device.clone(), "is a character device, not a regular file"));
    }
    for (path, words) in &targets {
        for flag in ["--trace", "--png", "--svg"] {
            // Figures need an image extension: a link named so, to the special file.
            let given = if flag == "--trace" {
                path.clone()
            } else {
                let name = path.file_name().unwrap().to_string_lossy();
                let link = dir.join(format!("to-{name}.{}", &flag[2..]));
                std::os::unix::fs::symlink(path, &link).unwrap();
                link
            };
            let o = knightnet(&["solve", "--board", "6x6", flag, s(&given)]);
            assert_input_error(&o, &format!("{flag} {}", path.display()), words);
            let kind = std::fs::symlink_metadata(path).unwrap().file_type();
            assert!(
                kind.is_fifo() || kind.is_socket() || kind.is_char_device(),
                "{flag} {}: replaced",
                path.display()
            );
        }
    }
    assert!(hidden(dir).is_empty(), "{:?}", hidden(dir));
}

/// The mode of a file, without the file-type bits.
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// A command for the binary whose child runs with `umask`.
fn with_umask(umask: libc::mode_t) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_knightnet"));
    // SAFETY: runs in the forked child before exec; umask is async-signal-safe.
    unsafe {
        cmd.pre_exec(move || {
            libc::umask(umask);
            Ok(())
        });
    }
    cmd
}

/// Case 2. run.json, summary.json, a merged records.csv and every atomically written
/// file follow the umask, as a run's records.csv does (not 0600 whatever the umask).
#[test]
fn written_files_keep_the_umask_and_replaced_files_keep_their_mode() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let spec = dir.join("tiny.toml");
    std::fs::write(&spec, TINY).unwrap();
    for (umask, want) in [(0o022, 0o644), (0o027, 0o640)] {
        let out = dir.join(format!("out-{umask:o}"));
        let o = with_umask(umask)
            .args(["experiment", s(&spec), "--out", s(&out), "--quiet"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        for name in ["run.json", "summary.json", "records.csv"] {
            assert_eq!(mode(&out.join(name)), want, "{name} under umask {umask:o}");
        }
        let trace = dir.join(format!("t-{umask:o}.json"));
        let png = dir.join(format!("t-{umask:o}.png"));
        let o = with_umask(umask)
            .args([
                "solve",
                "--board",
                "6x6",
                "--trace",
                s(&trace),
                "--png",
                s(&png),
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(mode(&trace), want);
        assert_eq!(mode(&png), want);
        assert_eq!(mode(&png.with_extension("csv")), want);
    }
    // A replaced file keeps its mode.
    let trace = dir.join("t-22.json");
    std::fs::set_permissions(&trace, std::fs::Permissions::from_mode(0o604)).unwrap();
    let o = with_umask(0o077)
        .args(["solve", "--board", "6x6", "--trace", s(&trace)])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert_eq!(mode(&trace), 0o604);
}

/// Run `args`, killing it (and failing) if it does not end within a minute: a FIFO
/// input with no writer used to block for good.
fn run_unblocked(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_at_most(&mut child, Duration::from_secs(60));
    child.wait_with_output().unwrap()
}

/// Case 3. None of these waits for good on a FIFO with no writer.
#[test]
fn inputs_that_are_fifos_or_folders_are_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let spec = dir.join("tiny.toml");
    std::fs::write(&spec, TINY).unwrap();
    let results = dir.join("results");
    let o = knightnet(&["experiment", s(&spec), "--out", s(&results), "--quiet"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = dir.join("fig");
    for (input, words) in [
        (&fifo, "is a FIFO, not a regular file"),
        (&dir.to_path_buf(), "is a directory, not a regular file"),
    ] {
        let x = s(input);
        let fig = dir.join("f.png");
        for args in [
            vec!["check", x],
            vec!["animate", "--trace", x, "--out", s(&fig)],
            vec!["convergence", "--trace", x, "--out", s(&fig)],
            vec!["plot", s(&results), "--out", s(&out), "--hf", x],
            vec!["plot", s(&results), "--out", s(&out), "--published", x],
        ] {
            let o = run_unblocked(&args);
            assert_input_error(&o, &args.join(" "), words);
        }
    }
}

/// Case 4. A path that is not UTF-8 (`experiment SPEC --out $'\xff'`) must not panic
/// while the command line is read (`env::args()` would: exit 101). Every path-taking
/// flag of every subcommand is given a non-UTF-8 value: no panic, exit 0, 1 or 2, at
/// most one line on stderr.
#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn non_utf8_paths_never_panic() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let spec = dir.join("tiny.toml");
    std::fs::write(&spec, TINY).unwrap();
    let results = dir.join("results");
    let o = knightnet(&["experiment", s(&spec), "--out", s(&results), "--quiet"]);
    assert!(o.status.success());
    let trace = dir.join("t.json");
    let o = knightnet(&["solve", "--board", "6x6", "--trace", s(&trace), "--summary"]);
    assert!(o.status.success());
    let bad = |ext: &str| {
        let mut b = b"\xff\xfe-".to_vec();
        b.extend_from_slice(ext.as_bytes());
        OsString::from_vec(b)
    };
    let o = |text: &str| OsString::from(text);
    let (spec, results, trace) = (o(s(&spec)), o(s(&results)), o(s(&trace)));
    let cases: Vec<Vec<OsString>> = vec![
        vec![
            o("experiment"),
            spec.clone(),
            o("--out"),
            bad(""),
            o("--quiet"),
        ],
        vec![o("experiment"), bad(".toml"), o("--quiet")],
        vec![o("merge"), results.clone(), o("--out"), bad("")],
        vec![o("merge"), bad(""), o("--out"), bad("m")],
        vec![o("stats"), bad("")],
        vec![o("plot"), bad("")],
        vec![o("plot"), results.clone(), o("--out"), bad("plots")],
        vec![
            o("plot"),
            results.clone(),
            o("--out"),
            o("p"),
            o("--hf"),
            bad(".csv"),
        ],
        vec![
            o("plot"),
            results.clone(),
            o("--out"),
            o("p"),
            o("--published"),
            bad(".csv"),
        ],
        vec![
            o("solve"),
            o("--board"),
            o("6x6"),
            o("--trace"),
            bad(".json"),
        ],
        vec![o("solve"), o("--board"), o("6x6"), o("--png"), bad(".png")],
        vec![o("solve"), o("--board"), o("6x6"), o("--svg"), bad(".svg")],
        vec![
            o("animate"),
            o("--board"),
            o("6x6"),
            o("--out"),
            bad(".gif"),
        ],
        vec![
            o("animate"),
            o("--trace"),
            bad(".json"),
            o("--out"),
            o("a.gif"),
        ],
        vec![
            o("animate"),
            o("--trace"),
            trace.clone(),
            o("--out"),
            o("a.gif"),
            o("--final"),
            bad(".png"),
        ],
        vec![
            o("convergence"),
            o("--board"),
            o("6x6"),
            o("--runs"),
            o("2"),
            o("--out"),
            bad(".png"),
        ],
        vec![
            o("convergence"),
            o("--trace"),
            bad(".json"),
            o("--out"),
            o("c.png"),
        ],
        vec![o("check"), bad(".txt")],
        vec![o("manpage"), o("--out"), bad("")],
    ];
    for args in &cases {
        let out = Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let shown: Vec<_> = args.iter().map(|a| a.to_string_lossy()).collect();
        assert!(
            matches!(out.status.code(), Some(0..=2)),
            "{shown:?}: {:?} {err}",
            out.status
        );
        assert!(!err.contains("panicked"), "{shown:?}: {err}");
        assert!(err.trim_end().lines().count() <= 1, "{shown:?}: {err}");
    }
    // The experiment with a non-UTF-8 folder ran into it.
    assert!(dir.join(PathBuf::from(bad(""))).join("run.json").is_file());
}

/// Case 5. A write past `ulimit -f` is reported like a full disk: not a kill by SIGXFSZ
/// (exit 153, no message), and no `.big.tmpNNN.svg` or `.run.json.XXXX.tmp` left.
#[test]
fn a_file_size_limit_is_an_environment_error_and_leaves_no_temporary_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let limit = 50 * 1024;
    for flag in ["--svg", "--png", "--trace"] {
        let path = dir.join(match flag {
            "--svg" => "big.svg",
            "--png" => "big.png",
            _ => "big.json",
        });
        let args = [
            "solve",
            "--board",
            if flag == "--trace" { "12x12" } else { "60x60" },
            "--solver",
            if flag == "--trace" {
                "network"
            } else {
                "warnsdorff"
            },
            flag,
            s(&path),
            "--summary",
        ];
        let o = limited_command(&[(libc::RLIMIT_FSIZE, limit)])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.signal(), None, "{flag}: killed by a signal");
        assert_environment_error(&o, flag, "File too large");
        assert!(!path.exists(), "{flag}");
        assert!(hidden(dir).is_empty(), "{flag}: {:?}", hidden(dir));
    }
    // An experiment whose summary cannot be written whole.
    let spec = dir.join("tiny.toml");
    std::fs::write(&spec, TINY.replace("trials = 4", "trials = 400")).unwrap();
    let out = dir.join("out");
    let o = limited_command(&[(libc::RLIMIT_FSIZE, 4096)])
        .args(["experiment", s(&spec), "--out", s(&out), "--quiet"])
        .output()
        .unwrap();
    assert_eq!(o.status.signal(), None, "killed by a signal");
    assert_environment_error(&o, "experiment", "File too large");
    assert!(hidden(&out).is_empty(), "{:?}", hidden(&out));
}

/// Start `args` in `dir`, wait for a temporary file to appear there, wait `after`, send
/// `sig`; returns the exit status and the hidden files left.
fn interrupt_while_writing(
    dir: &Path,
    args: &[&str],
    sig: i32,
    after: Duration,
) -> (std::process::ExitStatus, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while hidden(dir).is_empty() {
        if let Some(st) = child.try_wait().unwrap() {
            panic!("{args:?} ended ({st:?}) before a temporary file was seen");
        }
        assert!(Instant::now() < deadline, "{args:?}: no temporary file");
        std::thread::sleep(Duration::from_millis(2));
    }
    std::thread::sleep(after);
    // SAFETY: kill has no memory effects; the pid is our child's, not yet reaped.
    unsafe { libc::kill(child.id() as i32, sig) };
    let st = wait_at_most(&mut child, Duration::from_secs(60));
    (st, hidden(dir))
}

/// Case 6. SIGINT or SIGTERM while a figure is written leaves no hidden temporary file
/// and ends the process with the signal's exit code.
#[test]
fn sigint_and_sigterm_during_a_figure_write_leave_no_temporary_file() {
    let big: &[&str] = &[
        "solve",
        "--board",
        "600x600",
        "--solver",
        "warnsdorff",
        "--summary",
    ];
    for (i, (out, sig)) in [
        ("s.svg", libc::SIGTERM),
        ("s.svg", libc::SIGINT),
        ("s.png", libc::SIGINT),
        ("s.png", libc::SIGTERM),
        ("s.pdf", libc::SIGTERM),
    ]
    .into_iter()
    // A PDF is written only by a build with the `pdf` feature (CI tests both).
    .filter(|(out, _)| cfg!(feature = "pdf") || !out.ends_with(".pdf"))
    .enumerate()
    {
        let mut interrupted = 0;
        for after in [0, 50, 300] {
            let tmp = tempfile::tempdir().unwrap();
            let flag = if out.ends_with(".png") {
                "--png"
            } else {
                "--svg"
            };
            let mut args = big.to_vec();
            if out.ends_with(".pdf") {
                // A PDF figure: convergence draws one.
                args = vec![
                    "convergence",
                    "--board",
                    "30x30",
                    "--runs",
                    "6",
                    "--out",
                    out,
                ];
            } else {
                args.extend([flag, out]);
            }
            let (st, left) =
                interrupt_while_writing(tmp.path(), &args, sig, Duration::from_millis(after));
            assert!(left.is_empty(), "case {i}, {after} ms: left {left:?}");
            if !tmp.path().join(out).exists() {
                assert_eq!(st.code(), Some(128 + sig), "case {i}, {after} ms: {st:?}");
                interrupted += 1;
            }
        }
        // The drawing of a 600x600 tour outlasts the first delay: the signal came
        // while the temporary file was there.
        if !out.ends_with(".pdf") {
            assert!(interrupted > 0, "case {i}: never interrupted");
        }
    }
}

/// Case 8. An output that cannot be written follows no printed result (`solve --png
/// /proc/x.png` prints no tour), and a missing folder gets one exit code whichever
/// flag names it (`--trace` or `--png`).
#[test]
fn a_failed_output_follows_no_printed_result_and_exits_by_one_rule() {
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no-such-folder");
    for (flag, path) in [
        ("--png", "/proc/knightnet-x.png".to_string()),
        ("--svg", "/proc/knightnet-x.svg".to_string()),
        ("--trace", "/proc/knightnet-x.json".to_string()),
        ("--trace", missing.join("t.json").display().to_string()),
    ] {
        let solver = if flag == "--trace" {
            "network"
        } else {
            "warnsdorff"
        };
        let o = knightnet(&["solve", "--board", "6x6", "--solver", solver, flag, &path]);
        assert_input_error(&o, &format!("{flag} {path}"), "No such file or directory");
    }
    assert!(!missing.exists());
}

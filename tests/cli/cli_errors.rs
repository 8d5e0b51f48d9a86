//! The binary's one error path: usage errors are one line that names the flag (exit 2),
//! and a closed or full stdout or stderr never turns into a panic.

use std::fs::File;
use std::process::{Command, Stdio};

use crate::common::assert_refused;

fn knightnet() -> Command {
    Command::new(env!("CARGO_BIN_EXE_knightnet"))
}

#[test]
fn full_stderr_is_not_a_panic() {
    // A failed write of the error itself must not panic (`eprintln!` would: exit 101).
    let status = knightnet()
        .args(["solve", "--board", "0x0"])
        .stdout(Stdio::null())
        .stderr(File::create("/dev/full").unwrap())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn full_stdout_is_an_environment_failure_named_once() {
    let out = knightnet()
        .args(["solve", "--board", "6x6"])
        .stdout(File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn both_streams_full_still_exit_with_the_code() {
    let status = knightnet()
        .args(["count", "--board", "5x5", "--max-steps", "0"])
        .stdout(File::create("/dev/full").unwrap())
        .stderr(File::create("/dev/full").unwrap())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(2));
}

#[test]
fn help_to_a_full_stdout_is_not_success() {
    let status = knightnet()
        .arg("--help")
        .stdout(File::create("/dev/full").unwrap())
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn usage_errors_are_one_line_naming_the_flag() {
    // A negative number names its flag (not "unexpected argument '-1'"), and a usage
    // error is one line, not clap's several-line usage block.
    let err = assert_refused(&["solve", "--seed", "-1"], "--seed");
    assert!(err.contains("knightnet solve --help"), "{err}");
    assert_refused(
        &["count", "--board", "5x5", "--max-steps", "-5"],
        "--max-steps",
    );
    assert_refused(&["experiment", "--threads", "abc"], "--threads");
    assert_refused(&["solve", "--bogus"], "--bogus");
    assert_refused(&["solve", "--seed"], "--seed");
    assert_refused(&["plot", "--format", "jpg"], "--format");
    assert_refused(&["solv"], "solv");
}

#[test]
fn bare_command_shows_the_help() {
    let out = knightnet().output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Usage: knightnet"));
}

//! What the CLI test files share: running the binary, reading its JSON, and the
//! bad-input contract (exit 2, nothing on stdout, one line on stderr, no panic).

// Each test file uses a subset.
#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// Run the built `knightnet` binary with `args`.
pub fn knightnet(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_knightnet"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Run a command that must succeed and print one JSON value; return it.
pub fn json_of(args: &[&str]) -> Value {
    let out = knightnet(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is one JSON value")
}

/// Run a command that must be refused as bad input: exit code 2, nothing on stdout,
/// exactly one line on stderr, no panic. Returns the stderr line.
pub fn refused(args: &[&str]) -> String {
    let out = knightnet(args);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} wrote to stdout");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    err
}

/// [`refused`], and the message mentions `needle`.
pub fn assert_refused(args: &[&str], needle: &str) -> String {
    let err = refused(args);
    assert!(err.contains(needle), "{args:?}: '{err}' lacks '{needle}'");
    err
}

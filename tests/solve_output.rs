//! `solve`'s output written square by square: memory that does not grow with the
//! output's size, and a full stdout reported in one line. (That the streamed bytes are
//! the whole value's is a unit test in src/cli/solve_output.rs.)

mod common;

use std::process::Command;

/// Run `solve` under an address-space limit of `bytes`, stdout to /dev/null.
fn solve_limited(bytes: u64, args: &[&str]) -> std::process::Output {
    common::limited_command(&[(libc::RLIMIT_AS, bytes)])
        .arg("solve")
        .args(args)
        .stdout(std::process::Stdio::null())
        .output()
        .expect("the binary starts")
}

/// JSON of a 2000x2000 tour took 595 MB (the whole value, then the whole string); now
/// the output holds nothing but a buffer, so 256 MiB of address space is plenty.
#[test]
fn large_json_and_text_output_fit_in_little_memory() {
    for format in ["json", "text"] {
        let args = [
            "--board",
            "2000x2000",
            "--solver",
            "divide-conquer",
            "--format",
            format,
        ];
        let out = solve_limited(256 << 20, &args);
        assert!(
            out.status.success(),
            "{args:?}: exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The memory check counts what the output holds: text keeps a move number per square
/// on top of the tour, so it is refused on a board where JSON is accepted. The check is
/// against the memory the process may use (here a 1 GiB address-space limit): beyond
/// it is the environment's failure, exit 1, with one line naming the text output.
#[cfg(target_os = "linux")]
#[test]
fn the_memory_check_covers_the_output() {
    let limit: u64 = 1 << 30;
    // A square board whose text output alone (a move number of 8 bytes per square, on
    // top of the tour) is over the limit.
    let side = ((limit / 8) as f64).sqrt() as usize + 8;
    let board = format!("{side}x{side}");
    let out = common::limited_command(&[(libc::RLIMIT_AS, limit)])
        .args(["solve", "--board", &board, "--solver", "divide-conquer"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(out.stdout.is_empty());
    assert!(err.contains("out of memory"), "{err}");
    assert!(err.contains("text output"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// A full stdout in the middle of a streamed output is one line and exit 1.
#[test]
fn a_full_stdout_while_streaming_exits_1_with_one_line() {
    for format in ["json", "text"] {
        let out = Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args([
                "solve",
                "--board",
                "300x300",
                "--solver",
                "divide-conquer",
                "--format",
                format,
            ])
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

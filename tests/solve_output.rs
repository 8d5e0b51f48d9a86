//! `solve`'s output written square by square: the same bytes as the whole JSON value
//! and the tour's own board text, and memory that does not grow with the output's size.

mod common;

use std::process::Command;

use knightnet::board::Board;
use knightnet::cli::solve::{solution_json, solution_text};
use knightnet::cli::solve_output::{write_json, write_text};
use knightnet::rng_from_seed;
use knightnet::solvers::{Request, SolverKind};

/// The written JSON is the pretty-printed value, byte for byte, and parses back to it;
/// the text is the summary line and the tour's `Display` (the output before streaming).
#[test]
fn streamed_output_has_the_bytes_of_the_whole_value() {
    let cases = [
        ("network", 8, 8, true),
        ("network+merge", 10, 10, true),
        ("network:wikipedia", 6, 6, true),
        ("warnsdorff:random", 9, 9, false),
        ("divide-conquer", 12, 17, true),
        ("backtrack", 5, 5, false),
        ("circuit", 8, 8, true),
    ];
    for (name, rows, cols, closed) in cases {
        let kind: SolverKind = name.parse().unwrap();
        let board = Board::new(rows, cols).unwrap();
        let mut req = Request::new(board);
        req.closed = Some(closed);
        for seed in 1..4 {
            let sol = kind.build().solve(&req, &mut rng_from_seed(seed)).unwrap();
            let whole =
                serde_json::to_string_pretty(&solution_json(&sol, board, seed)).unwrap() + "\n";
            let mut streamed = Vec::new();
            write_json(&sol, board, seed, &mut streamed).unwrap();
            assert_eq!(
                String::from_utf8(streamed.clone()).unwrap(),
                whole,
                "{name} seed {seed}"
            );
            let parsed: serde_json::Value = serde_json::from_slice(&streamed).unwrap();
            assert_eq!(parsed, solution_json(&sol, board, seed));
            if let Some(t) = &sol.tour {
                assert_eq!(parsed["tour"].as_array().unwrap().len(), rows * cols);
                assert_eq!(parsed["tour"][1][0], t.coords()[1][0]);
            }
            let mut text = Vec::new();
            write_text(&sol, board, seed, &mut text).unwrap();
            let text = String::from_utf8(text).unwrap();
            assert_eq!(text, solution_text(&sol, board, seed));
            let (first, rest) = text.split_once('\n').unwrap();
            assert!(first.starts_with(sol.solver.as_str()), "{first}");
            match &sol.tour {
                Some(t) => assert_eq!(rest, t.to_string(), "{name} seed {seed}"),
                None => assert_eq!(rest, ""),
            }
        }
    }
}

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
    use knightnet::cli::solve::Format;
    use knightnet::cli::solve_output::held_bytes_per_square;
    assert!(held_bytes_per_square(Format::Text) > held_bytes_per_square(Format::Json));
    let limit: u64 = 1 << 30;
    // A square board whose text output alone is over the limit.
    let side = ((limit / held_bytes_per_square(Format::Text)) as f64).sqrt() as usize + 8;
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

//! Resource bounds of the solving commands: memory follows the work done (not a cap the
//! user typed, nor an output format that would hold the whole tour), and thread counts
//! are bounded. Runs that must stay small run under an address-space limit, so a
//! reservation sized by a cap fails the test instead of the machine.

mod common;

use std::process::Output;

use common::{knightnet, knightnet_limited};

/// Address space given to a child that must stay small: 1 GiB.
const SMALL: u64 = 1 << 30;

fn assert_ok(out: &Output, args: &[&str]) {
    assert!(
        out.status.success(),
        "{args:?}: exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--max-attempts` bounds the attempts; the batched engine (12x12 up) reserved memory
/// for every possible one (5.5 GB for 1e8, an abort for 2^32 - 1).
#[test]
fn solve_memory_does_not_follow_max_attempts() {
    for cap in ["100000000", "4294967295"] {
        for variant in ["parberry", "brant"] {
            let args = [
                "solve",
                "--board",
                "12x12",
                "--variant",
                variant,
                "--max-attempts",
                cap,
            ];
            let out = knightnet_limited(SMALL, &args);
            assert_ok(&out, &args);
            // The same tour as under a small cap that suffices.
            let small = knightnet(&["solve", "--board", "12x12", "--variant", variant]);
            assert_ok(&small, &args);
            let text = String::from_utf8_lossy(&out.stdout);
            let board_of = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
            assert_eq!(
                board_of(&text),
                board_of(&String::from_utf8_lossy(&small.stdout))
            );
        }
    }
}

/// The same for network+merge (whole board and tiles) and compare's throughput mode.
#[test]
fn merge_and_compare_memory_does_not_follow_max_attempts() {
    let cases: [&[&str]; 3] = [
        &[
            "solve",
            "--board",
            "12x12",
            "--solver",
            "network+merge",
            "--tile",
            "none",
            "--max-attempts",
            "4294967295",
        ],
        &[
            "solve",
            "--board",
            "24x24",
            "--solver",
            "network+merge",
            "--tile",
            "8",
            "--max-attempts",
            "4294967295",
        ],
        &[
            "solve",
            "--board",
            "16x16",
            "--solver",
            "network",
            "--max-attempts",
            "4294967295",
            "--format",
            "json",
        ],
    ];
    for args in cases {
        let out = knightnet_limited(SMALL, args);
        assert_ok(&out, args);
    }
}

//! Tests of Warnsdorff's rule: every engine against the original implementation on every
//! start of small boards and from the corners of large ones, the padded degrees, the
//! published Squirrel–Cull record, and refusal of a start off the board.

use super::frame::{PAD, VISITED, padded_degrees};
use super::*;
use crate::rng_from_seed;
use crate::solvers::{Request, Solver};

/// Every engine gives the reference's path and tie count.
fn same_as_reference(b: Board, start: u32, tie: TieBreak, seed: u64) {
    let slow = reference::run(b, start, tie, &mut rng_from_seed(seed));
    for &engine in Engine::ALL {
        let fast = run_on(engine, b, start, tie, &mut rng_from_seed(seed));
        let e = engine.name();
        assert_eq!(
            (fast.ties, fast.path.len()),
            (slow.ties, slow.path.len()),
            "{e}: {tie} on {b} from {start}"
        );
        assert!(
            fast.path == slow.path,
            "{e}: {tie} on {b} from {start}: paths differ"
        );
    }
}

#[test]
fn padded_degrees_match_the_move_count() {
    for (m, n) in [(1, 1), (1, 7), (2, 2), (3, 4), (5, 5), (8, 8), (7, 12)] {
        let b = Board::new(m, n).unwrap();
        let deg = padded_degrees(m, n).unwrap();
        let w = n + 2 * PAD;
        for s in 0..b.squares() as u32 {
            let (r, c) = b.coords(s);
            let d = deg[(r + PAD) * w + c + PAD];
            assert_eq!(d as usize, b.knight_moves(s).count(), "{b} {r},{c}");
        }
        assert_eq!(deg.iter().filter(|&&d| d != VISITED).count(), b.squares());
    }
}

#[test]
fn fast_path_matches_reference_on_every_start_of_small_boards() {
    // Every tie-break, every start square, square and oblong boards up to 16 a side
    // (including boards with no tour, where both get stuck at the same square).
    for m in 1..=16 {
        for n in [m, m + 1, m + 3] {
            let b = Board::new(m, n).unwrap();
            for start in 0..b.squares() as u32 {
                for tie in TieBreak::ALL {
                    same_as_reference(b, start, tie, u64::from(start));
                }
            }
        }
    }
}

#[test]
fn fast_path_matches_reference_from_corners_of_large_boards() {
    // Squirrel–Cull from all four corners (the reflected frames), the others from
    // the corner and the middle; sizes cover every residue mod 8 and 16.
    for m in (17..=140).chain([200, 251, 333, 500]) {
        let b = Board::new(m, m).unwrap();
        let corners = [0, m - 1, m * (m - 1), m * m - 1].map(|s| s as u32);
        for &s in &corners {
            same_as_reference(b, s, TieBreak::SquirrelCull, 0);
        }
        for tie in [
            TieBreak::Roth,
            TieBreak::Pohl,
            TieBreak::First,
            TieBreak::Random,
        ] {
            same_as_reference(b, 0, tie, m as u64);
            same_as_reference(b, b.index(m / 2, m / 3), tie, 7);
        }
    }
    let wide = Board::new(40, 300).unwrap();
    for tie in TieBreak::ALL {
        same_as_reference(wide, 0, tie, 3);
        same_as_reference(wide, wide.index(39, 299), tie, 3);
    }
}

#[test]
fn squirrel_cull_numbering_matches_the_published_record() {
    // Ganzfried 2004: the table gives a tour from the corner for all 5 <= m < 112
    // except m = 74. A wrong move numbering fails on many sizes.
    let mut rng = rng_from_seed(1);
    let mut failures = Vec::new();
    for m in 5..=120 {
        let b = Board::new(m, m).unwrap();
        if !run(b, 0, TieBreak::SquirrelCull, &mut rng).complete(b) {
            failures.push(m);
        }
    }
    assert_eq!(failures, vec![74]);
}

#[test]
fn the_default_engine_is_the_portable_one_unless_asm_is_on() {
    let asm = cfg!(all(feature = "asm", target_arch = "x86_64"));
    assert_eq!(Engine::DEFAULT.name(), if asm { "asm" } else { "portable" });
    assert_eq!(Engine::ALL.len(), if asm { 3 } else { 2 });
}

#[test]
fn a_start_off_the_board_panics_before_any_walk() {
    // A start off the board must not start a walk outside the padded degree array
    // (a write through a wild pointer: a segmentation fault on 5x5 from square 3e9):
    // every engine refuses it before touching memory.
    let b = Board::new(5, 5).unwrap();
    for &engine in Engine::ALL {
        for tie in TieBreak::ALL {
            for start in [25, 26, 3_000_000_000, u32::MAX] {
                let r = std::panic::catch_unwind(|| {
                    run_on(engine, b, start, tie, &mut rng_from_seed(1))
                });
                let msg = r.expect_err("an off-board start must panic");
                let msg = msg
                    .downcast_ref::<String>()
                    .expect("a formatted panic message");
                assert!(
                    msg.contains(&format!("start square {start} is not on the 5x5 board")),
                    "{}: {tie} from {start}: {msg}",
                    engine.name()
                );
            }
        }
    }
}

#[test]
fn the_solver_refuses_a_start_off_the_board_with_an_error() {
    let board = Board::new(6, 6).unwrap();
    for tie in TieBreak::ALL {
        let req = Request {
            start: Some(36),
            ..Request::new(board)
        };
        let err = WarnsdorffSolver::new(tie)
            .solve(&req, &mut rng_from_seed(1))
            .expect_err("start 36 is off a 6x6 board");
        let msg = err.to_string();
        assert!(
            msg.contains("start square 36 is not on the 6x6 board"),
            "{msg}"
        );
    }
}

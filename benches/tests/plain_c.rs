//! The plain C program (`plain-c/takefuji_lee.c`) runs knightnet's `parberry` rule: on
//! the same initial states, every attempt ends after the same sweeps with the same outcome
//! as in knightnet's scalar and batched engines. Compiled here with `$CC` (`cc` by
//! default), as the measurement compiles it.

use std::path::PathBuf;
use std::process::Command;

use knightnet::board::Board;
use knightnet::network::Termination;
use plain_c::{Attempts, batched, compile_c, run_c, scalar};

/// A directory of this test's own under cargo's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_c_program_runs_knightnets_rule_attempt_by_attempt() {
    let dir = scratch("plain-c-rule");
    let bin = compile_c(&dir).unwrap();
    let mut outcomes = [0usize; 4];
    for (board, base) in [("6x6", 1u64), ("8x8", 2), ("6x8", 3)] {
        let attempts = Attempts::new(board.parse::<Board>().unwrap(), 40, base);
        let file = dir.join(format!("{board}.txt"));
        attempts
            .write(std::fs::File::create(&file).unwrap())
            .unwrap();
        let c = run_c(&bin, &file).unwrap();
        let s = scalar(&attempts);
        let b = batched(&attempts);
        assert_eq!(c.ended.len(), 40, "{board}");
        for (i, ((c, s), b)) in c.ended.iter().zip(&s.ended).zip(&b.ended).enumerate() {
            assert_eq!(
                c, s,
                "{board}, attempt {i}: the C program against the scalar engine"
            );
            assert_eq!(
                c, b,
                "{board}, attempt {i}: the C program against the batched engine"
            );
            outcomes[c.outcome] += 1;
        }
    }
    // The comparison covers tours, covers of several cycles and attempts cut off at the
    // cap... or at least the first two, which every board here produces in 40 attempts.
    assert!(outcomes[Termination::Tour.index()] > 0, "{outcomes:?}");
    let cycles = Termination::MultipleCycles { lengths: vec![] }.index();
    assert!(outcomes[cycles] > 0, "{outcomes:?}");
}

#[test]
fn the_c_program_refuses_states_of_another_board() {
    let dir = scratch("plain-c-refuses");
    let bin = compile_c(&dir).unwrap();
    let file = dir.join("wrong.txt");
    let attempts = Attempts::new(Board::new(6, 6).unwrap(), 2, 0);
    let mut text = Vec::new();
    attempts.write(&mut text).unwrap();
    // The 6x6 states announced as 8x8's: the neuron count no longer fits the board.
    let text = String::from_utf8(text)
        .unwrap()
        .replacen("\n6 6\n", "\n8 8\n", 1);
    std::fs::write(&file, text).unwrap();
    let out = Command::new(&bin).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("neuron count"), "{err}");
}

//! One run of Warnsdorff's rule on a chosen engine, for instruction counts that do not
//! depend on the machine's load (release build):
//!
//! ```text
//! cargo build --release [--features asm] --example warnsdorff_engine
//! valgrind --tool=callgrind --toggle-collect='*warnsdorff*run_on*' \
//!     target/release/examples/warnsdorff_engine ENGINE TIE N
//! ```
//!
//! `ENGINE` is one of this build's engines (`scalar`, `portable`, and `asm` with the
//! feature), `TIE` a tie-break, `N` the side of the square board; the run starts at the
//! corner. Prints the squares visited and the tie count.

use std::process::ExitCode;

use knightnet::board::Board;
use knightnet::rng_from_seed;
use knightnet::solvers::warnsdorff::{Engine, TieBreak, run_on};

fn main() -> ExitCode {
    match parse(std::env::args().skip(1).collect()) {
        Ok((engine, tie, board)) => {
            let r = run_on(engine, board, 0, tie, &mut rng_from_seed(1));
            println!(
                "{} {tie} {board}: {} squares visited, {} ties",
                engine.name(),
                r.path.len(),
                r.ties
            );
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("warnsdorff_engine: {msg}");
            ExitCode::from(2)
        }
    }
}

fn parse(args: Vec<String>) -> Result<(Engine, TieBreak, Board), String> {
    let names = || Engine::ALL.iter().map(|e| e.name()).collect::<Vec<_>>();
    let [engine, tie, n] = args.as_slice() else {
        return Err(format!(
            "expected ENGINE TIE N (engines: {})",
            names().join(", ")
        ));
    };
    let engine = *Engine::ALL
        .iter()
        .find(|e| e.name() == engine)
        .ok_or_else(|| {
            format!(
                "unknown engine '{engine}'; accepted: {}",
                names().join(", ")
            )
        })?;
    let tie: TieBreak = tie.parse().map_err(|e| format!("{e}"))?;
    let n: usize = n
        .parse()
        .map_err(|_| format!("N '{n}' is not a board side (a whole number >= 1)"))?;
    let board = Board::new(n, n).map_err(|e| format!("{e}"))?;
    Ok((engine, tie, board))
}

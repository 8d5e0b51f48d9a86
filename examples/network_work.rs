//! The work of one `tour` benchmark sample, run once, for instruction counts under
//! valgrind (deterministic, unlike wall time on a shared machine):
//!
//! ```text
//! cargo build --release --example network_work
//! valgrind --tool=callgrind target/release/examples/network_work scalar 12 parberry
//! ```
//!
//! Arguments: `scalar|batch`, the side of a square board, `parberry|brant`. Solves seeds
//! 0..20 as `benches/network.rs` does and prints the total attempts (the same on every
//! build that runs the same rule).

use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::network::{Network, Preset, batch};
use knightnet::rng_from_seed;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: network_work scalar|batch SIDE parberry|brant";
    let [engine, side, preset] = args.as_slice() else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let (Ok(n), Ok(preset)) = (side.parse::<usize>(), preset.parse::<Preset>()) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let Ok(board) = Board::new(n, n) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let graph = KnightGraph::new(board);
    let p = preset.params();
    let attempts: u32 = match engine.as_str() {
        "scalar" => {
            let net = Network::new(&graph, p).expect("a preset is valid");
            (0..20)
                .map(|s| net.solve(&mut rng_from_seed(s)).attempts)
                .sum()
        }
        "batch" => (0..20)
            .map(|s| {
                batch::solve(&graph, p, &mut rng_from_seed(s))
                    .expect("a preset fits the batched engine")
                    .attempts
            })
            .sum(),
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    };
    println!("{attempts}");
}

//! The rules of `src/network/rules/` against `parberry`, all in the scalar engine (issue
//! 16, new rules): `compare` runs `parberry` in the lanes of the batched engine, which has
//! no hooks for another rule, so its times mix the rule with the engine. Here every
//! variant runs the same `Network::attempt` loop, so time per tour compares the rules.
//!
//! ```text
//! cargo run --release --example rules_same_engine -- N BOARD...   # e.g. 1000 6x6 8x8
//! ```
//!
//! Attempt `i` of every variant starts from `first_attempt_rng(i)` (the first attempt of
//! `solve --seed i`), so the variants start from the same initial states. Prints a
//! Markdown row per board and variant: tours per attempt with its 95% Wilson interval,
//! mean sweeps per attempt, sweeps per tour, and time per tour (total time / tours, its
//! 95% interval from the rate's).

use std::time::Instant;

use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::network::{Network, Preset, Termination, first_attempt_rng};
use knightnet::report::human_ns;
use knightnet::stats::{Z95, wilson};

fn main() {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .map(|a| a.parse().expect("N is a count of attempts"))
        .unwrap_or(400);
    let boards: Vec<Board> = args.map(|b| b.parse().expect("a board")).collect();
    println!(
        "| board | variant | tours / attempts [95%] | sweeps per attempt | sweeps per tour | time per tour [95%] |"
    );
    println!("|---|---|---:|---:|---:|---:|");
    for board in boards {
        let graph = KnightGraph::new(board);
        for preset in [Preset::Parberry, Preset::Noisy, Preset::LocalRestart] {
            let net = Network::new(&graph, preset.params()).expect("preset fits");
            let (mut tours, mut sweeps) = (0u64, 0u64);
            let t0 = Instant::now();
            for i in 0..n {
                let a = net.attempt(&mut first_attempt_rng(i), None);
                tours += (a.termination == Termination::Tour) as u64;
                sweeps += a.iterations as u64;
            }
            let ns = t0.elapsed().as_nanos() as f64;
            let (lo, hi) = wilson(tours, n, Z95);
            let per_attempt = ns / n as f64;
            let time = |rate: f64| {
                if rate > 0.0 {
                    human_ns(per_attempt / rate)
                } else {
                    "∞".to_string()
                }
            };
            let per_tour = |x: u64| {
                if tours > 0 {
                    format!("{:.0}", x as f64 / tours as f64)
                } else {
                    "–".to_string()
                }
            };
            println!(
                "| {board} | {} | {tours} / {n} = {:.1}% [{:.1}, {:.1}] | {:.0} | {} | {} [{}, {}] |",
                preset.name(),
                100.0 * tours as f64 / n as f64,
                100.0 * lo,
                100.0 * hi,
                sweeps as f64 / n as f64,
                per_tour(sweeps),
                time(tours as f64 / n as f64),
                time(hi),
                time(lo),
            );
        }
    }
}

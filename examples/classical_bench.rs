//! Measurements of the classical solvers for the project report (release build):
//!
//! ```text
//! cargo run --release --example classical_bench -- starts        # 8x8 tie-breaks over 64 starts
//! cargo run --release --example classical_bench -- steps [BUDGET] [SOLVER] # steps on 8x8
//! cargo run --release --example classical_bench -- time SOLVER N # wall time of one N x N solve
//! ```

use std::time::Instant;

use knightnet::board::Board;
use knightnet::rng_from_seed;
use knightnet::solvers::{Request, SolverKind};

fn req(n: usize, start: Option<u32>, closed: bool) -> Request {
    Request {
        board: Board::new(n, n).unwrap(),
        closed: Some(closed).into(),
        start,
        reverse: false,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("starts") => {
            for tie in ["first", "roth", "pohl", "squirrel-cull"] {
                let s = SolverKind::Warnsdorff {
                    tie: tie.parse().unwrap(),
                    restarts: 0,
                }
                .build();
                let mut ok = 0;
                let mut failed = Vec::new();
                for start in 0..64 {
                    let sol = s
                        .solve(&req(8, Some(start), false), &mut rng_from_seed(1))
                        .unwrap();
                    if sol.tour().is_some() {
                        ok += 1;
                    } else {
                        failed.push(Board::new(8, 8).unwrap().square_name(start));
                    }
                }
                println!("warnsdorff:{tie}: {ok}/64 starts; failed from {failed:?}");
            }
            let s: SolverKind = "warnsdorff:random".parse().unwrap();
            let s = s.build();
            let mut ok = 0;
            for start in 0..64 {
                for seed in 0..100 {
                    let sol = s
                        .solve(&req(8, Some(start), false), &mut rng_from_seed(seed))
                        .unwrap();
                    ok += sol.tour().is_some() as u32;
                }
            }
            println!("warnsdorff:random: {ok}/6400 runs (64 starts x seeds 0..100)");
        }
        Some("steps") => {
            let budget: u64 = args
                .get(1)
                .map(|s| s.parse().unwrap())
                .unwrap_or(100_000_000);
            let only = args.get(2);
            for closed in [false, true] {
                for name in [
                    "backtrack",
                    "forward-check",
                    "forward-check:connectivity",
                    "warnsdorff-backtrack",
                    "warnsdorff-backtrack:ties",
                ] {
                    if only.is_some_and(|o| o != name) {
                        continue;
                    }
                    let mut k: SolverKind = name.parse().unwrap();
                    k.apply_classical_flags(None, Some(budget), None).unwrap();
                    let s = k.build();
                    let mut worst = (0u64, 0u32, String::new());
                    let mut worst_ok = (0u64, 0u32);
                    let mut corner = String::new();
                    let mut found = 0;
                    let mut total_secs = 0.0;
                    for start in 0..64u32 {
                        let t = Instant::now();
                        let sol = s
                            .solve(&req(8, Some(start), closed), &mut rng_from_seed(1))
                            .unwrap();
                        total_secs += t.elapsed().as_secs_f64();
                        let steps = sol.steps.unwrap();
                        found += sol.tour().is_some() as u32;
                        if start == 0 {
                            corner = format!("{} steps ({})", steps, sol.outcome());
                        }
                        if sol.tour().is_some() && steps >= worst_ok.0 {
                            worst_ok = (steps, start);
                        }
                        if steps >= worst.0 {
                            worst = (steps, start, sol.outcome().to_string());
                        }
                    }
                    println!(
                        "{} {name}: corner a8 {corner}; worst start {} {} steps ({}); worst successful start {} {} steps; tours from {found}/64 starts; {:.2} s for all 64",
                        if closed { "closed" } else { "open" },
                        Board::new(8, 8).unwrap().square_name(worst.1),
                        worst.0,
                        worst.2,
                        Board::new(8, 8).unwrap().square_name(worst_ok.1),
                        worst_ok.0,
                        total_secs
                    );
                }
            }
        }
        Some("time") => {
            let name = &args[1];
            let n: usize = args[2].parse().unwrap();
            let closed = args.get(3).map(|s| s == "closed").unwrap_or(false);
            let s: SolverKind = name.parse().unwrap();
            let t = Instant::now();
            let sol = s
                .build()
                .solve(&req(n, None, closed), &mut rng_from_seed(1))
                .unwrap();
            println!(
                "{name} {n}x{n} {}: outcome {} closed {} in {:.3} s (solve + oracle)",
                if closed { "closed" } else { "open" },
                sol.outcome(),
                sol.closed(),
                t.elapsed().as_secs_f64()
            );
        }
        _ => eprintln!("usage: classical_bench starts | steps [BUDGET] | time SOLVER N [closed]"),
    }
}

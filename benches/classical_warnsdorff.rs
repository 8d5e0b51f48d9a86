//! Warnsdorff benchmarks: one run of the rule per tie-break and engine on 100x100 and
//! 1000x1000 from the corner (no oracle; ids `warnsdorff/TIE/ENGINE/NxN`), the whole
//! solve on the default engine (rule + oracle), and the oracle alone.
//!
//! Run: `cargo bench -p knightnet-bench --bench classical_warnsdorff` (engines `scalar` and `portable`), or
//! `cargo bench -p knightnet-bench --features asm --bench classical_warnsdorff` to add `asm` (one core).

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use knightnet::board::Board;
use knightnet::rng_from_seed;
use knightnet::solvers::warnsdorff::{Engine, TieBreak, run, run_on};
use knightnet::solvers::{Request, SolverKind};
use knightnet::tour::validate;

fn rule(c: &mut Criterion) {
    let mut g = c.benchmark_group("warnsdorff");
    g.sample_size(10);
    for n in [100usize, 1000] {
        let board = Board::new(n, n).unwrap();
        g.throughput(Throughput::Elements(board.squares() as u64));
        for tie in [
            TieBreak::SquirrelCull,
            TieBreak::Roth,
            TieBreak::Pohl,
            TieBreak::First,
        ] {
            for &engine in Engine::ALL {
                // `pohl` always walks the scalar loop, and so does `roth` on `portable`.
                let same_as_scalar = engine != Engine::Scalar
                    && (tie == TieBreak::Pohl
                        || (tie == TieBreak::Roth && engine == Engine::Portable));
                if same_as_scalar {
                    continue;
                }
                let id = format!("{tie}/{}/{n}x{n}", engine.name());
                g.bench_function(id, |b| {
                    b.iter(|| {
                        run_on(engine, board, 0, tie, &mut rng_from_seed(1))
                            .path
                            .len()
                    })
                });
            }
        }
    }
    g.finish();
}

fn solve_and_oracle(c: &mut Criterion) {
    let mut g = c.benchmark_group("warnsdorff-solve");
    g.sample_size(10);
    let board = Board::new(1000, 1000).unwrap();
    g.throughput(Throughput::Elements(board.squares() as u64));
    for name in ["warnsdorff:squirrel-cull", "warnsdorff:roth"] {
        let solver = name.parse::<SolverKind>().unwrap().build();
        let req = Request::new(board);
        g.bench_function(format!("{name}/1000x1000"), |b| {
            b.iter(|| {
                let sol = solver.solve(&req, &mut rng_from_seed(1)).unwrap();
                sol.tour().is_some()
            })
        });
    }
    let path = run(board, 0, TieBreak::SquirrelCull, &mut rng_from_seed(1)).path;
    g.bench_function("oracle/1000x1000", |b| {
        b.iter(|| validate(board, &path, false).is_ok())
    });
    g.finish();
}

criterion_group!(benches, rule, solve_and_oracle);
criterion_main!(benches);

//! Classical solver benchmarks: wall time of one solve (construction, walk and the
//! oracle) on large boards, and the streamed walk, which holds no tour.
//!
//! Run: `cargo bench -p knightnet-bench --bench classical` (one core; names carry the parameters:
//! solver/kind/board). The solvers here are deterministic; the seed (1) is fixed anyway.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use knightnet::board::Board;
use knightnet::rng_from_seed;
use knightnet::solvers::divide_conquer::DivideConquerSolver;
use knightnet::solvers::{Request, Solver};

const SEED: u64 = 1;

fn request(rows: usize, cols: usize, closed: bool) -> Request {
    Request {
        board: Board::new(rows, cols).unwrap(),
        closed: Some(closed).into(),
        start: None,
        reverse: false,
    }
}

fn divide_conquer(c: &mut Criterion) {
    let mut g = c.benchmark_group("divide-conquer");
    g.sample_size(10);
    // (kind, rows, cols): closed tours where Schwenk allows, the open path on odd x odd.
    let boards = [
        ("closed", 100, 100),
        ("closed", 1000, 1000),
        ("closed", 999, 1000),
        ("open", 999, 999),
        ("closed", 3000, 3000),
    ];
    for (kind, rows, cols) in boards {
        let req = request(rows, cols, kind == "closed");
        g.throughput(Throughput::Elements((rows * cols) as u64));
        g.bench_function(
            BenchmarkId::new(format!("{kind}/solve"), format!("{rows}x{cols}")),
            |b| {
                b.iter(|| {
                    let sol = DivideConquerSolver
                        .solve(&req, &mut rng_from_seed(SEED))
                        .unwrap();
                    black_box(sol.tour().map(|t| t.squares().len()))
                })
            },
        );
        g.bench_function(
            BenchmarkId::new(format!("{kind}/stream"), format!("{rows}x{cols}")),
            |b| {
                b.iter(|| {
                    let mut sum = 0usize;
                    let s = DivideConquerSolver
                        .stream(&req, |r, c| sum = sum.wrapping_add(r ^ c))
                        .unwrap();
                    black_box((s.squares, sum))
                })
            },
        );
    }
    g.finish();
}

criterion_group!(divide_conquer_benches, divide_conquer);
criterion_main!(divide_conquer_benches);

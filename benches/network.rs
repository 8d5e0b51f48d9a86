//! Network benchmarks: time per tour (scalar and batched engines, same rule, same seeds),
//! neuron-update throughput per core, and network+merge on large boards.
//!
//! Run: `cargo bench -p knightnet-bench --bench network` (one core per figure unless the name says so).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::network::{Network, NetworkParams, Preset, UpdateOrder, batch};
use knightnet::rng_from_seed;
use knightnet::solvers::neural_merge::{NeuralMergeSolver, TileMode};
use knightnet::solvers::{Request, Solver};

/// Tours per batch of the time-per-tour benchmarks: seeds 0..TOURS.
const TOURS: u64 = 20;

fn time_per_tour(c: &mut Criterion) {
    let mut g = c.benchmark_group("tour");
    g.sample_size(10);
    for n in [8usize, 12] {
        let graph = KnightGraph::new(Board::new(n, n).unwrap());
        for preset in [Preset::Parberry, Preset::Brant] {
            let p = preset.params();
            g.throughput(Throughput::Elements(TOURS));
            g.bench_function(
                BenchmarkId::new(format!("scalar/{preset}"), format!("{n}x{n}")),
                |b| {
                    let net = Network::new(&graph, p).unwrap();
                    b.iter(|| {
                        (0..TOURS)
                            .map(|s| net.solve(&mut rng_from_seed(s)).attempts)
                            .sum::<u32>()
                    })
                },
            );
            g.bench_function(
                BenchmarkId::new(format!("batch/{preset}"), format!("{n}x{n}")),
                |b| {
                    b.iter(|| {
                        (0..TOURS)
                            .map(|s| {
                                batch::solve(&graph, p, &mut rng_from_seed(s))
                                    .unwrap()
                                    .attempts
                            })
                            .sum::<u32>()
                    })
                },
            );
        }
    }
    g.finish();
}

/// Throughput mode, the "median time per tour": `SOLVES` independent solves
/// (seeds 0..SOLVES) sharing the lanes of one batch, the same runs as one `solve` each;
/// criterion's per-element time is the time per tour (every solve ends in a tour here).
fn tour_throughput(c: &mut Criterion) {
    let mut g = c.benchmark_group("tour-throughput");
    g.sample_size(10);
    for (n, solves) in [(8usize, 512u64), (12, 128), (20, 32)] {
        let graph = KnightGraph::new(Board::new(n, n).unwrap());
        for preset in [Preset::Parberry, Preset::Brant] {
            let p = preset.params();
            g.throughput(Throughput::Elements(solves));
            g.bench_function(
                BenchmarkId::new(
                    format!("batch/{preset}/solves={solves}"),
                    format!("{n}x{n}"),
                ),
                |b| {
                    b.iter(|| {
                        let mut rngs: Vec<_> = (0..solves).map(rng_from_seed).collect();
                        let runs = batch::solve_many(&graph, p, &mut rngs).unwrap();
                        assert!(runs.iter().all(|r| r.tour.is_some()));
                        runs.len()
                    })
                },
            );
        }
    }
    g.finish();
}

fn throughput(c: &mut Criterion) {
    let mut g = c.benchmark_group("updates");
    g.sample_size(10);
    for n in [8usize, 20] {
        let graph = KnightGraph::new(Board::new(n, n).unwrap());
        for order in [UpdateOrder::Sequential, UpdateOrder::Synchronous] {
            let p = NetworkParams {
                order,
                ..Preset::Parberry.params()
            };
            let attempts = 512u64;
            // Count the updates of this deterministic workload once, for the throughput.
            let mut probe = batch::Batch::new(&graph, p).unwrap();
            probe.run(3, |i| i < attempts, |_, _| {});
            g.throughput(Throughput::Elements(probe.updates));
            g.bench_function(
                BenchmarkId::new(format!("batch/{order}"), format!("{n}x{n}")),
                |b| {
                    b.iter(|| {
                        let mut batch = batch::Batch::new(&graph, p).unwrap();
                        batch.run(3, |i| i < attempts, |_, _| {});
                        batch.updates
                    })
                },
            );
        }
    }
    g.finish();
}

/// The sweep kernel alone: all lanes busy, no loading or classification (the upper bound
/// of the throughput above).
fn kernel(c: &mut Criterion) {
    let mut g = c.benchmark_group("kernel");
    g.sample_size(10);
    const SWEEPS: u64 = 500;
    for n in [8usize, 20] {
        let graph = KnightGraph::new(Board::new(n, n).unwrap());
        for order in [UpdateOrder::Sequential, UpdateOrder::Synchronous] {
            let p = NetworkParams {
                order,
                ..Preset::Parberry.params()
            };
            for kernels in batch::Kernels::available() {
                let mut b0 = batch::Batch::new(&graph, p).unwrap().with_kernels(kernels);
                g.throughput(Throughput::Elements(
                    SWEEPS * (graph.edges() * batch::LANES) as u64,
                ));
                g.bench_function(
                    BenchmarkId::new(format!("{}/{order}", kernels.name()), format!("{n}x{n}")),
                    |b| {
                        b.iter(|| {
                            b0.fill(3);
                            (0..SWEEPS).map(|_| b0.sweep()[0] as u32).sum::<u32>()
                        })
                    },
                );
            }
        }
    }
    g.finish();
}

fn merge_large(c: &mut Criterion) {
    let mut g = c.benchmark_group("network+merge");
    g.sample_size(10);
    for (n, tile) in [(40usize, TileMode::Side(8)), (100, TileMode::Side(8))] {
        let solver = NeuralMergeSolver::new(Preset::Parberry.params(), tile);
        let req = Request::new(Board::new(n, n).unwrap());
        g.bench_function(
            BenchmarkId::new(format!("tile={tile}"), format!("{n}x{n}")),
            |b| b.iter(|| solver.solve(&req, &mut rng_from_seed(1)).unwrap().attempts),
        );
    }
    g.finish();
}

criterion_group!(
    benches,
    time_per_tour,
    tour_throughput,
    throughput,
    kernel,
    merge_large
);
criterion_main!(benches);

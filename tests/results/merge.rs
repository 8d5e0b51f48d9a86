//! Cycle merging: every merged result is a closed tour accepted by the oracle, covers of
//! several cycles are joined, and `network+merge` works end to end on boards the plain
//! network cannot settle.

use knightnet::board::Board;
use knightnet::graph::KnightGraph;
use knightnet::merge::merge_cycles;
use knightnet::network::{Network, Preset, Termination};
use knightnet::rng_from_seed;
use knightnet::solvers::neural_merge::{NeuralMergeSolver, TileMode};
use knightnet::solvers::{Facts, Request, Solver};
use knightnet::tour::validate;

#[test]
fn two_tours_side_by_side_merge_into_one() {
    let small = Board::new(6, 6).unwrap();
    let g = KnightGraph::new(small);
    let net = Network::new(&g, Preset::Parberry.params()).unwrap();
    let left = net.solve(&mut rng_from_seed(1)).tour.unwrap();
    let right = net.solve(&mut rng_from_seed(2)).tour.unwrap();
    let board = Board::new(6, 12).unwrap();
    let shift = |s: u32, dc: u32| (s / 6) * 12 + s % 6 + dc;
    let cycles = vec![
        left.squares()
            .iter()
            .map(|&s| shift(s, 0))
            .collect::<Vec<_>>(),
        right
            .squares()
            .iter()
            .map(|&s| shift(s, 6))
            .collect::<Vec<_>>(),
    ];
    let (tour, report) = merge_cycles(board, &cycles, &mut rng_from_seed(3), 0);
    let tour = tour.expect("two 6x6 tours side by side share many swap points");
    validate(board, tour.squares(), true).unwrap();
    assert_eq!(
        (report.cycles_before, report.cycles_after, report.swaps),
        (2, 1, 1)
    );
    // All but the two exchanged moves of each half survive.
    let within_half = |&&(a, b): &&(u32, u32)| (a % 12 < 6) == (b % 12 < 6);
    let kept = tour.moves().iter().filter(within_half).count();
    assert_eq!(kept, 72 - 2);
}

#[test]
fn settled_network_covers_merge_on_even_boards() {
    // Over seeded attempts on 6x6 .. 16x16, every settled cover of several cycles is
    // handed to the merge; count how many become tours (each checked by the oracle).
    let (mut covers, mut merged) = (0, 0);
    for n in [6, 8, 10, 12, 16] {
        let board = Board::new(n, n).unwrap();
        let g = KnightGraph::new(board);
        let net = Network::new(&g, Preset::Parberry.params()).unwrap();
        for seed in 0..30 {
            let mut rng = rng_from_seed(seed);
            let a = net.attempt(&mut rng, None);
            if let Termination::MultipleCycles { lengths } = &a.termination {
                covers += 1;
                let (tour, report) = merge_cycles(board, &a.cycles, &mut rng, 200);
                assert_eq!(report.cycles_before, lengths.len());
                if let Some(t) = tour {
                    validate(board, t.squares(), true).unwrap();
                    merged += 1;
                }
            }
        }
    }
    assert!(covers >= 100, "only {covers} several-cycle covers");
    // Measured: all but a few 6x6 covers merge; demand at least 95%.
    assert!(merged * 100 >= covers * 95, "{merged} of {covers} merged");
}

#[test]
fn tiled_network_merge_reaches_large_boards() {
    for (m, n, tile) in [
        (60, 60, TileMode::Auto),
        (30, 44, TileMode::Side(8)),
        (101, 60, TileMode::Side(10)),
    ] {
        let board = Board::new(m, n).unwrap();
        let solver = NeuralMergeSolver::new(Preset::Parberry.params(), tile);
        let sol = solver
            .solve(&Request::new(board), &mut rng_from_seed(9))
            .unwrap();
        let Facts::NetworkMerge(run) = &sol.facts else {
            panic!("network+merge reports its own facts")
        };
        assert!(run.tile.is_some());
        // Many tiles make many cycles: the tour is a merge, and the facts say so.
        let facts = sol
            .merge()
            .cloned()
            .expect("network+merge reports its merge");
        let report = facts.report.expect("a settled cover was merged");
        assert!(facts.merged, "{m}x{n}");
        assert!(
            report.cycles_before > 1 && report.cycles_after == 1,
            "{report:?}"
        );
        assert!(
            report.swaps as usize >= report.cycles_before - 1,
            "{report:?}"
        );
        let tour = sol.tour().expect("tiled network+merge finds a tour");
        validate(board, tour.squares(), true).unwrap();
    }
}

#[test]
fn tiled_results_do_not_depend_on_the_thread_count() {
    let board = Board::new(48, 48).unwrap();
    let solver = NeuralMergeSolver::new(Preset::Parberry.params(), TileMode::Side(8));
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                solver
                    .solve(&Request::new(board), &mut rng_from_seed(4))
                    .unwrap()
                    .into_tour()
                    .unwrap()
            })
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn batched_and_scalar_tiles_give_the_same_tour() {
    for (n, preset) in [(40, Preset::Parberry), (36, Preset::Brant)] {
        let board = Board::new(n, n).unwrap();
        let mut solver = NeuralMergeSolver::new(preset.params(), TileMode::Side(6));
        let fast = solver
            .solve(&Request::new(board), &mut rng_from_seed(21))
            .unwrap();
        solver.batched = false;
        let slow = solver
            .solve(&Request::new(board), &mut rng_from_seed(21))
            .unwrap();
        assert_eq!(fast.tour(), slow.tour());
        assert_eq!(
            (fast.attempts, fast.iterations),
            (slow.attempts, slow.iterations)
        );
        assert!(fast.tour().is_some());
    }
}

#[test]
fn tiles_that_cannot_be_covered_are_refused() {
    let board = Board::new(20, 20).unwrap();
    for (tile, needle) in [
        (TileMode::Side(4), "too small"),
        (TileMode::Side(7), "no degree-2 cover"),
    ] {
        let solver = NeuralMergeSolver::new(Preset::Parberry.params(), tile);
        let err = solver.check(&Request::new(board)).unwrap_err().to_string();
        assert!(err.contains(needle), "{err}");
    }
    let odd = NeuralMergeSolver::new(Preset::Parberry.params(), TileMode::Auto);
    assert!(odd.check(&Request::new(Board::new(9, 9).unwrap())).is_err());
}

/// The merged tour walked square by square ([`NeuralMergeSolver::stream`]) is the tour
/// `solve` returns, from the same start and in the same direction, with the same facts.
#[test]
fn streamed_network_merge_is_the_solved_tour() {
    let cases = [
        (6, 6, TileMode::Whole, 10, None, false),
        (8, 8, TileMode::Whole, 5, Some(19), true),
        (30, 30, TileMode::Auto, 1, None, true),
        (64, 40, TileMode::Side(8), 3, Some(1234), false),
    ];
    for (rows, cols, tile, seed, start, reverse) in cases {
        let board = Board::new(rows, cols).unwrap();
        let solver = NeuralMergeSolver::new(Preset::Parberry.params(), tile);
        let mut req = Request::new(board);
        req.start = start;
        req.reverse = reverse;
        let solved = solver.solve(&req, &mut rng_from_seed(seed)).unwrap();
        let mut walked = Vec::new();
        let streamed = solver
            .stream(&req, &mut rng_from_seed(seed), |r, c| {
                walked.push(board.index(r, c))
            })
            .unwrap();
        let tour = solved.tour().expect("network+merge finds these tours");
        assert_eq!(walked, tour.squares(), "{board} seed {seed}");
        assert_eq!(streamed.outcome, solved.outcome());
        assert_eq!(
            (streamed.attempts, streamed.iterations),
            (solved.attempts, solved.iterations)
        );
        assert_eq!(
            streamed.merge().unwrap().report,
            solved.merge().unwrap().report
        );
    }
}

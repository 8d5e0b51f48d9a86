//! The solvers on any graph ([`knightnet::solvers::on_graph`]): on every geometry of up
//! to 30 squares, a reported tour is a tour of the graph searched (checked here from the
//! geometry's own neighbour lists, not only by the library's oracle); exhaustive
//! backtracking and forward checking find a tour exactly when a brute-force dynamic
//! programme over subsets says one exists; the network never reports a tour on the
//! Petersen and Tutte graphs and finds one on the dodecahedron (network+merge too, and
//! on the 10-cube's 1,024 vertices); vertices of degree
//! above 8 work; and the oracle rejects each kind of bad walk.

use std::path::PathBuf;

use knightnet::board::Board;
use knightnet::error::InputError;
use knightnet::geometry::{Geometry, Leaper, MoveGraph, Shape, Surface};
use knightnet::graph::KnightGraph;
use knightnet::graph_file::FileGraph;
use knightnet::network::Preset;
use knightnet::rng_from_seed;
use knightnet::solvers::Outcome;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolver};
use knightnet::tour::{WalkError, check_on};

/// Every geometry with 3 to `max` squares: boards m x n (m <= n), the leapers (0,1),
/// (1,1), (1,2), (2,3), (1,3) and (1,4), each surface, the full board and, on boards of
/// six squares or more, the board with its top-left corner cut out and with one middle
/// square cut out.
pub(crate) fn geometries(max: usize) -> Vec<Geometry> {
    let leapers = [(0, 1), (1, 1), (1, 2), (2, 3), (1, 3), (1, 4)];
    let mut all = Vec::new();
    for m in 1..=max {
        for n in m..=max {
            if m * n > max || m * n < 3 {
                continue;
            }
            let board = Board::new(m, n).unwrap();
            let mut shapes = vec![Shape::full(board)];
            if m * n >= 6 {
                shapes.push(Shape::new(board, [0]).unwrap());
                shapes.push(Shape::new(board, [board.index(m / 2, n / 2)]).unwrap());
            }
            for shape in shapes {
                for &(r, s) in &leapers {
                    for surface in [Surface::Plane, Surface::Cylinder, Surface::Torus] {
                        let leaper = Leaper::new(r, s).unwrap();
                        all.push(Geometry::new(shape.clone(), leaper, surface));
                    }
                }
            }
        }
    }
    all
}

/// Whether `walk` visits every vertex of `moves` once, each step along an edge, and (if
/// `closed`) back from the last to the first: checked from the move graph's own lists.
fn is_tour(moves: &MoveGraph, walk: &[u32], closed: bool) -> bool {
    let n = moves.vertices();
    let mut seen = vec![false; n];
    for &v in walk {
        if v as usize >= n || std::mem::replace(&mut seen[v as usize], true) {
            return false;
        }
    }
    let joined = |a: u32, b: u32| moves.neighbours(a).contains(&b);
    walk.len() == n
        && walk.windows(2).all(|w| joined(w[0], w[1]))
        && (!closed || (n >= 3 && joined(walk[n - 1], walk[0])))
}

/// Brute force by dynamic programming over subsets (Bellman 1962; Held & Karp 1962):
/// whether a Hamiltonian path starts at vertex 0 (`closed` false) or a Hamiltonian cycle
/// exists (`closed` true). `reach[mask]` has bit `v` when a path from 0 visits exactly
/// `mask` and ends at `v`.
fn brute_force(adj: &[Vec<u32>], closed: bool) -> bool {
    let n = adj.len();
    assert!(n <= 20);
    let mut reach = vec![0u32; 1 << n];
    reach[1] = 1;
    for mask in 1..(1usize << n) {
        let ends = reach[mask];
        if ends == 0 {
            continue;
        }
        for (v, next) in adj.iter().enumerate() {
            if ends & (1 << v) == 0 {
                continue;
            }
            for &w in next {
                if mask & (1 << w) == 0 {
                    reach[mask | 1 << w] |= 1 << w;
                }
            }
        }
    }
    let full = reach[(1 << n) - 1];
    if !closed {
        return full != 0;
    }
    n >= 3 && adj[0].iter().any(|&w| full & (1 << w) != 0)
}

fn neighbour_lists(moves: &MoveGraph) -> Vec<Vec<u32>> {
    (0..moves.vertices() as u32)
        .map(|v| moves.neighbours(v).to_vec())
        .collect()
}

fn request(closed: bool) -> GraphRequest {
    GraphRequest {
        closed,
        start: None,
    }
}

/// A few short network attempts (the network runs closed tours only).
fn network(attempts: u32) -> GraphSolver {
    let mut p = Preset::Parberry.params();
    p.max_attempts = attempts;
    GraphSolver::Network(p)
}

/// The same attempts, their cycles merged ([`GraphSolver::NetworkMerge`]).
fn network_merge(attempts: u32) -> GraphSolver {
    let mut p = Preset::Parberry.params();
    p.max_attempts = attempts;
    GraphSolver::NetworkMerge(p)
}

#[test]
fn every_reported_tour_on_a_small_geometry_is_a_tour_of_its_graph() {
    let (mut tours, mut cases, mut refused) = (0, 0, 0);
    for geometry in geometries(30) {
        let moves = geometry.moves().unwrap();
        let graph = KnightGraph::from_moves(moves.clone()).unwrap();
        for closed in [true, false] {
            let mut solvers = vec![
                GraphSolver::Warnsdorff,
                GraphSolver::Backtrack { max_steps: 20_000 },
                GraphSolver::ForwardCheck { max_steps: 20_000 },
            ];
            if closed {
                solvers.push(network(3));
                solvers.push(network_merge(3));
            }
            for solver in solvers {
                let req = request(closed);
                let sol = match on_graph::solve(&graph, &solver, &req, &mut rng_from_seed(7)) {
                    Ok(sol) => sol,
                    Err(e) => {
                        // Refused: only by theory, and (where brute force is quick) rightly.
                        assert!(
                            matches!(e, InputError::Impossible(_)),
                            "{geometry:?}: refused without a theorem: {e}"
                        );
                        if moves.vertices() <= 16 {
                            let adj = neighbour_lists(&moves);
                            assert!(!brute_force(&adj, closed), "{geometry:?}: {e}");
                        }
                        refused += 1;
                        continue;
                    }
                };
                cases += 1;
                assert_eq!(sol.tour.is_some(), sol.outcome == Outcome::Tour);
                if let Some(t) = &sol.tour {
                    tours += 1;
                    assert!(
                        is_tour(&moves, t.vertices(), closed),
                        "{} on {geometry:?} reported a walk that is not a tour: {:?}",
                        solver.name(),
                        t.vertices()
                    );
                }
            }
        }
    }
    // The loop is not vacuous: most runs find a tour.
    assert!(
        cases > 1000 && tours > cases / 3 && refused > 100,
        "{tours} tours in {cases} runs, {refused} refused"
    );
}

#[test]
fn exhaustive_search_finds_a_tour_exactly_when_brute_force_does() {
    let (mut yes, mut no) = (0, 0);
    for geometry in geometries(16) {
        let moves = geometry.moves().unwrap();
        let adj = neighbour_lists(&moves);
        let graph = KnightGraph::from_moves(moves.clone()).unwrap();
        for closed in [true, false] {
            let exists = brute_force(&adj, closed);
            for solver in [
                GraphSolver::Backtrack {
                    max_steps: u64::MAX,
                },
                GraphSolver::ForwardCheck {
                    max_steps: u64::MAX,
                },
            ] {
                let found =
                    match on_graph::solve(&graph, &solver, &request(closed), &mut rng_from_seed(1))
                    {
                        Ok(sol) => {
                            assert_ne!(sol.outcome, Outcome::GaveUp);
                            sol.tour.is_some()
                        }
                        // A refusal says, by theory, that there is none.
                        Err(_) => false,
                    };
                assert_eq!(
                    found,
                    exists,
                    "{} on {geometry:?}, closed {closed}",
                    solver.name()
                );
            }
            if exists {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes > 100 && no > 100, "{yes} with a tour, {no} without");
}

fn named(file: &str) -> KnightGraph {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "experiments", "graphs", file]
        .iter()
        .collect();
    KnightGraph::from_file(FileGraph::read(&path).unwrap()).unwrap()
}

#[test]
fn the_network_never_reports_a_tour_where_there_is_none_and_finds_the_dodecahedrons() {
    for file in ["petersen.dimacs", "tutte.hcp"] {
        let graph = named(file);
        for seed in 0..200 {
            for solver in [network(1), network_merge(1)] {
                let sol =
                    on_graph::solve(&graph, &solver, &request(true), &mut rng_from_seed(seed))
                        .unwrap();
                let name = solver.name();
                assert!(
                    sol.tour.is_none(),
                    "{name}, {file}, seed {seed}: {:?}",
                    sol.tour
                );
                assert_ne!(sol.outcome, Outcome::Tour);
            }
        }
        let exhausted = on_graph::solve(
            &graph,
            &GraphSolver::ForwardCheck {
                max_steps: u64::MAX,
            },
            &request(true),
            &mut rng_from_seed(1),
        )
        .unwrap();
        assert_eq!(exhausted.outcome, Outcome::Exhausted, "{file}");
    }
    let graph = named("dodecahedron.hcp");
    for solver in [network(50), network_merge(50)] {
        let sol = on_graph::solve(&graph, &solver, &request(true), &mut rng_from_seed(1)).unwrap();
        let tour = sol
            .tour
            .expect("the dodecahedron has 30 Hamiltonian cycles");
        assert!(tour.is_closed());
        check_on(&graph, tour.vertices(), true).unwrap();
    }
}

#[test]
fn network_merge_tours_the_ten_cube_from_its_hcp_file() {
    // Q10: vertex v of the file is the ten-bit word v - 1 (experiments/graphs/make.py),
    // so a closed tour is a cyclic order of the 1,024 words where neighbours differ in
    // one bit: checked here from the words, not from the file's edges.
    let graph = named("hypercube-10.hcp");
    assert_eq!((graph.squares(), graph.edges()), (1024, 5120));
    let mut found = 0;
    for seed in 0..5 {
        let sol = on_graph::solve(
            &graph,
            &network_merge(20),
            &request(true),
            &mut rng_from_seed(seed),
        )
        .unwrap();
        let Some(tour) = sol.tour else { continue };
        found += 1;
        let words = tour.vertices();
        assert_eq!(words.len(), 1024);
        let mut seen = vec![false; 1024];
        for (i, &w) in words.iter().enumerate() {
            assert!(
                !std::mem::replace(&mut seen[w as usize], true),
                "seed {seed}: {w} twice"
            );
            let next = words[(i + 1) % words.len()];
            assert_eq!((w ^ next).count_ones(), 1, "seed {seed}: {w} to {next}");
        }
    }
    // The claim is that it finds tours here, not that every seed does.
    assert!(found >= 1, "no tour of Q10 in 5 runs of 20 attempts");
}

/// The complete graph K_n from a list of edges, as a file graph.
fn complete(n: u32) -> KnightGraph {
    let edges = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
    KnightGraph::from_file(FileGraph::new(n, edges).unwrap()).unwrap()
}

#[test]
fn vertices_of_degree_above_eight_are_served() {
    for n in [10, 20, 40] {
        let graph = complete(n);
        assert_eq!(graph.max_degree(), n as usize - 1);
        for solver in [
            network(20),
            GraphSolver::Warnsdorff,
            GraphSolver::Backtrack { max_steps: 1000 },
            GraphSolver::ForwardCheck { max_steps: 1000 },
        ] {
            let sol =
                on_graph::solve(&graph, &solver, &request(true), &mut rng_from_seed(3)).unwrap();
            let tour = sol
                .tour
                .unwrap_or_else(|| panic!("{} on K_{n}: {}", solver.name(), sol.outcome));
            check_on(&graph, tour.vertices(), true).unwrap();
        }
    }
    // The knight on a torus has 8 moves from every square, the giraffe (1,4) too.
    for leaper in [Leaper::KNIGHT, Leaper::new(1, 4).unwrap()] {
        let g = Geometry::new(
            Shape::full(Board::new(10, 10).unwrap()),
            leaper,
            Surface::Torus,
        );
        assert_eq!(
            KnightGraph::from_moves(g.moves().unwrap())
                .unwrap()
                .max_degree(),
            8
        );
    }
}

#[test]
fn the_oracle_names_each_defect_on_a_file_graph() {
    let graph = complete(4);
    // K_4 minus nothing: 1-2-3-4 is a cycle; now a path graph to test non-edges.
    let path =
        KnightGraph::from_file(FileGraph::new(4, [(0, 1), (1, 2), (2, 3)]).unwrap()).unwrap();
    assert!(check_on(&path, &[0, 1, 2, 3], false).is_ok());
    let err = check_on(&path, &[0, 1, 2, 3], true).unwrap_err();
    assert!(matches!(err, WalkError::NotClosed { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        "the tour is marked closed but no edge joins its last vertex 4 to its first vertex 1"
    );
    let err = check_on(&path, &[0, 2, 1, 3], false).unwrap_err();
    assert_eq!(
        err.to_string(),
        "step 1 from 1 to 3 is not an edge of the graph"
    );
    let err = check_on(&graph, &[0, 1, 1, 3], false).unwrap_err();
    assert!(
        matches!(
            err,
            WalkError::Repeated {
                first: 1,
                second: 2,
                ..
            }
        ),
        "{err}"
    );
    let err = check_on(&graph, &[0, 1, 2], false).unwrap_err();
    assert!(
        matches!(
            err,
            WalkError::WrongLength {
                expected: 4,
                found: 3,
                ..
            }
        ),
        "{err}"
    );
    let err = check_on(&graph, &[0, 1, 2, 9], false).unwrap_err();
    assert!(
        matches!(err, WalkError::NotVertex { vertex: 9, .. }),
        "{err}"
    );
    // On a knight's board the knight's oracle speaks.
    let knight = KnightGraph::new(Board::new(3, 4).unwrap());
    let err = check_on(&knight, &[0, 1], false).unwrap_err();
    assert!(matches!(err, WalkError::Knight(_)), "{err}");
}

#[test]
fn a_camel_is_refused_with_knuths_reason_and_a_knight_only_solver_by_name() {
    let camel = Geometry::new(
        Shape::full(Board::new(8, 8).unwrap()),
        Leaper::new(1, 3).unwrap(),
        Surface::Plane,
    );
    let graph = KnightGraph::from_moves(camel.moves().unwrap()).unwrap();
    for closed in [true, false] {
        let err = on_graph::solve(
            &graph,
            &GraphSolver::Warnsdorff,
            &request(closed),
            &mut rng_from_seed(1),
        )
        .unwrap_err();
        assert!(err.to_string().contains("r + s = 4 is even"), "{err}");
    }
    let err = GraphSolver::from_kind(&"divide-conquer".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("runs only on the knight"), "{err}");
}

/// `circuit` beyond the knight: a closed tour exactly when brute force finds a
/// Hamiltonian cycle, started at every start asked for, closed even when an open tour
/// is asked.
#[test]
fn circuit_starts_a_closed_tour_anywhere_exactly_when_one_exists() {
    let (mut toured, mut none) = (0, 0);
    for geometry in geometries(16) {
        let moves = geometry.moves().unwrap();
        let graph = KnightGraph::from_moves(moves.clone()).unwrap();
        let exists = brute_force(&neighbour_lists(&moves), true);
        for start in 0..moves.vertices() as u32 {
            for closed in [true, false] {
                let req = GraphRequest {
                    closed,
                    start: Some(start),
                };
                let found = match on_graph::solve(
                    &graph,
                    &GraphSolver::Circuit,
                    &req,
                    &mut rng_from_seed(1),
                ) {
                    Ok(sol) => {
                        assert!(sol.closed, "{geometry:?}: circuit's tours are closed");
                        sol.tour.map(|t| t.vertices().to_vec())
                    }
                    Err(_) => None,
                };
                assert_eq!(found.is_some(), exists, "{geometry:?} from {start}");
                if let Some(t) = found {
                    assert_eq!(t[0], start, "{geometry:?}");
                    assert!(is_tour(&moves, &t, true), "{geometry:?}: {t:?}");
                    toured += 1;
                } else {
                    none += 1;
                }
            }
        }
    }
    assert!(toured > 100 && none > 100, "{toured} tours, {none} without");
}

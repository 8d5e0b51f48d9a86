//! Watch mode beyond the knight on a whole plane board (`play --watch`, the browser's
//! Watch view): on a cylinder, a torus, another leaper or a board with holes, stepping a
//! watcher to its end gives what `solve --leaper .. --surface .. --shape ..` gives with
//! the same seed and start ([`on_graph::solve`] on the move graph), one vertex placed or
//! taken back per search step; the network's states are those its engine records
//! (`solve --trace` is refused beyond the knight, so its library call,
//! [`Network::solve_traced`], on the same move graph); the solvers that run only on the
//! knight's board are refused in one line naming those that run.

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, MoveGraph, Shape, Surface};
use knightnet::graph::{KnightGraph, Source};
use knightnet::network::{Network, Preset, Trace};
use knightnet::puzzle::Field;
use knightnet::puzzle::watch::{Status, Stepper, View, WatchKind};
use knightnet::rng_from_seed;
use knightnet::solvers::on_graph::{self, GraphRequest, GraphSolver};
use knightnet::solvers::{Outcome, SolverKind};

fn geometry(rows: usize, cols: usize, holes: &[u32], leaper: Leaper, surface: Surface) -> Geometry {
    let shape = Shape::new(Board::new(rows, cols).unwrap(), holes.iter().copied()).unwrap();
    Geometry::new(shape, leaper, surface)
}

/// The geometries watched: tori and cylinders, a zebra, boards with holes.
fn geometries() -> Vec<Geometry> {
    let zebra: Leaper = "zebra".parse().unwrap();
    vec![
        geometry(6, 6, &[], Leaper::KNIGHT, Surface::Torus),
        geometry(5, 6, &[], Leaper::KNIGHT, Surface::Cylinder),
        geometry(5, 5, &[12], Leaper::KNIGHT, Surface::Torus),
        geometry(6, 6, &[0, 35], Leaper::KNIGHT, Surface::Plane),
        geometry(8, 8, &[], zebra, Surface::Torus),
    ]
}

fn graph_of(g: &Geometry) -> KnightGraph {
    KnightGraph::from_moves(g.moves().unwrap()).unwrap()
}

fn moves_of(graph: &KnightGraph) -> &MoveGraph {
    match graph.source() {
        Source::Geometry(m) => m,
        _ => unreachable!("a geometry's graph"),
    }
}

/// The watcher's result once stepped to its end, checking on the way that a path view
/// gains or loses exactly one square per step and never shows a hole.
fn watch_to_end(w: &mut dyn Stepper, field: &Field) -> Status {
    let mut last = match w.view() {
        View::Path(p) => p.len(),
        View::Edges { .. } => 0,
    };
    while w.status().is_running() {
        w.step();
        if let View::Path(p) = w.view() {
            let d = p.len() as i64 - last as i64;
            assert!(
                d.abs() == 1 || (d == 0 && !w.status().is_running()),
                "one step moved {d}"
            );
            assert!(p.iter().all(|&s| !field.is_hole(s)), "a hole on the path");
            last = p.len();
        }
    }
    w.status().clone()
}

/// Every watchable solver that runs beyond the knight, from two starts and two seeds, on
/// each geometry: the watcher's end is `on_graph::solve`'s with the same request and
/// seed (the same tour or outcome, attempts, iterations and steps), and a finished
/// path view is the tour's squares.
#[test]
fn watching_beyond_the_knight_is_solving_there() {
    let mut outcomes = std::collections::BTreeSet::new();
    let mut compared = 0;
    for g in geometries() {
        let field = Field::new(g.clone()).unwrap();
        let graph = graph_of(&g);
        let m = moves_of(&graph);
        let kinds = [
            SolverKind::Network(knightnet::network::NetworkParams {
                max_attempts: 20,
                ..Preset::Parberry.params()
            }),
            "warnsdorff".parse().unwrap(),
            SolverKind::Backtrack { max_steps: 20_000 },
            SolverKind::ForwardCheck {
                connectivity: false,
                max_steps: 20_000,
            },
        ];
        let squares: Vec<u32> = (0..g.board().squares() as u32)
            .filter(|&s| !field.is_hole(s))
            .collect();
        for kind in kinds {
            let solver = GraphSolver::from_kind(&kind).unwrap();
            let network = matches!(solver, GraphSolver::Network(_));
            let watch = WatchKind::new(kind).unwrap();
            for start in [squares[0], squares[squares.len() / 2 + 1]] {
                for seed in [1, 7] {
                    let what = format!(
                        "{watch} on {}, start {start}, seed {seed}",
                        graph.describe()
                    );
                    let req = GraphRequest {
                        closed: network,
                        start: (!network).then(|| m.vertex(start).unwrap()),
                    };
                    let solved = on_graph::solve(&graph, &solver, &req, &mut rng_from_seed(seed));
                    let built = watch.build(field.clone(), &[], start, seed);
                    let mut w = match (built, &solved) {
                        (Err(e), Err(s)) => {
                            assert_eq!(e.to_string(), s.to_string(), "{what}");
                            continue;
                        }
                        (Ok(w), Ok(_)) => w,
                        (b, s) => panic!("{what}: built {:?}, solved {s:?}", b.err()),
                    };
                    let Status::DoneOnGraph(Ok(watched)) = watch_to_end(w.as_mut(), &field) else {
                        panic!("{what}: not a run on the move graph")
                    };
                    let solved = solved.unwrap();
                    assert_eq!(watched, solved, "{what}");
                    if let (View::Path(p), Some(t)) = (w.view(), &solved.tour) {
                        let tour: Vec<u32> = t.vertices().iter().map(|&v| m.square(v)).collect();
                        assert_eq!(p, &tour[..], "{what}");
                    }
                    outcomes.insert(solved.outcome.to_string());
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 60, "{compared}");
    // Tours and failures were compared.
    assert!(
        outcomes.contains(&Outcome::Tour.to_string()),
        "{outcomes:?}"
    );
    assert!(outcomes.len() >= 2, "{outcomes:?}");
}

/// The network watched on a torus and on a board with holes shows, over the run's last
/// attempt, the active moves its engine records after every step (what `solve --trace`
/// writes on the knight's board), in squares; its degrees are counted on the squares
/// (0 on the holes) and its cycles, once every square has two active moves, are those
/// of the recorded final state.
#[test]
fn the_watched_network_beyond_the_knight_is_the_traced_one() {
    for g in [
        geometry(6, 6, &[], Leaper::KNIGHT, Surface::Torus),
        geometry(6, 6, &[14, 15], Leaper::KNIGHT, Surface::Torus),
    ] {
        let field = Field::new(g.clone()).unwrap();
        let graph = graph_of(&g);
        let m = moves_of(&graph);
        for preset in [Preset::Parberry, Preset::Brant] {
            for seed in 1..=3 {
                let mut trace = Trace::default();
                let run = Network::new(&graph, preset.params())
                    .unwrap()
                    .solve_traced(&mut rng_from_seed(seed), Some(&mut trace));
                let kind: WatchKind = format!("network:{}", preset.name()).parse().unwrap();
                let mut watched = kind.build(field.clone(), &[], 0, seed).unwrap();
                let (mut compared, mut iteration, mut attempt) = (0, 0, 0);
                loop {
                    let running = watched.step().is_running();
                    let View::Edges {
                        edges,
                        degree,
                        attempt: a,
                        off_two,
                        cycles,
                        ..
                    } = watched.view()
                    else {
                        panic!("the network's view")
                    };
                    iteration = if a == attempt { iteration + 1 } else { 1 };
                    attempt = a;
                    let mut count = vec![0u8; g.board().squares()];
                    for &(x, y) in &edges {
                        assert!(field.is_move(x, y), "({x}, {y}) is no move");
                        count[x as usize] += 1;
                        count[y as usize] += 1;
                    }
                    assert_eq!(degree, count);
                    let off = (0..g.board().squares() as u32)
                        .filter(|&s| !field.is_hole(s) && count[s as usize] != 2)
                        .count();
                    assert_eq!(off_two as usize, off);
                    assert_eq!(cycles.is_some(), off == 0);
                    if a == run.attempts {
                        let mut recorded: Vec<(u32, u32)> = trace.outputs[iteration]
                            .active()
                            .map(|e| {
                                let (x, y) = graph.endpoints(e);
                                (m.square(x), m.square(y))
                            })
                            .collect();
                        let mut shown = edges.clone();
                        recorded.sort_unstable();
                        shown.sort_unstable();
                        assert_eq!(shown, recorded, "{preset:?}, seed {seed}, step {iteration}");
                        compared += 1;
                    }
                    if !running {
                        if !run.last.cycles.is_empty() {
                            let squares: Vec<Vec<u32>> = run
                                .last
                                .cycles
                                .iter()
                                .map(|c| c.iter().map(|&v| m.square(v)).collect())
                                .collect();
                            let mut shown = cycles.clone().unwrap();
                            let mut squares = squares;
                            shown.sort();
                            squares.sort();
                            // The same cycles (each may start elsewhere on the squares).
                            let norm = |c: &Vec<u32>| {
                                let mut c = c.clone();
                                c.sort_unstable();
                                c
                            };
                            let a: Vec<Vec<u32>> = shown.iter().map(norm).collect();
                            let b: Vec<Vec<u32>> = squares.iter().map(norm).collect();
                            assert_eq!(a.len(), b.len());
                            for c in &a {
                                assert!(b.contains(c), "{preset:?}, seed {seed}");
                            }
                        }
                        break;
                    }
                }
                assert_eq!(compared, trace.outputs.len() - 1, "{preset:?}, seed {seed}");
            }
        }
    }
}

/// The solvers built on the knight's board are refused beyond it in one line naming
/// what watch runs there; a request theory rules out is refused as `solve` refuses it.
#[test]
fn watch_refuses_what_does_not_run_beyond_the_knight() {
    let torus = Field::new(geometry(6, 6, &[], Leaper::KNIGHT, Surface::Torus)).unwrap();
    for name in [
        "warnsdorff:first",
        "warnsdorff-backtrack",
        "forward-check:connectivity",
    ] {
        let kind: WatchKind = name.parse().unwrap();
        let e = kind
            .build(torus.clone(), &[], 0, 1)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains(name), "{e}");
        assert!(
            e.contains("network[:PRESET], warnsdorff, backtrack and forward-check"),
            "{e}"
        );
        assert!(!e.contains('\n'), "{e}");
    }
    // The camel's graph is disconnected: no tour, as `solve` says.
    let camel = geometry(6, 6, &[], "camel".parse().unwrap(), Surface::Plane);
    let graph = graph_of(&camel);
    for name in ["network", "warnsdorff", "backtrack"] {
        let kind: WatchKind = name.parse().unwrap();
        let solver = GraphSolver::from_kind(kind.kind()).unwrap();
        let network = matches!(solver, GraphSolver::Network(_));
        let req = GraphRequest {
            closed: network,
            start: (!network).then_some(0),
        };
        let solved = on_graph::solve(&graph, &solver, &req, &mut rng_from_seed(1)).unwrap_err();
        let e = kind
            .build(Field::new(camel.clone()).unwrap(), &[], 0, 1)
            .err()
            .unwrap();
        assert_eq!(e.to_string(), solved.to_string());
    }
    // A start on a hole is refused, naming it; the network, which looks for a closed
    // tour from no start, ignores it.
    let holed = Field::new(geometry(6, 6, &[0, 1], Leaper::KNIGHT, Surface::Torus)).unwrap();
    let e = "warnsdorff"
        .parse::<WatchKind>()
        .unwrap()
        .build(holed.clone(), &[], 0, 1)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("hole"), "{e}");
    assert!(
        "network"
            .parse::<WatchKind>()
            .unwrap()
            .build(holed, &[], 0, 1)
            .is_ok()
    );
}

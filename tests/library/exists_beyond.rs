//! `exists` beyond the knight on a whole plane board
//! ([`knightnet::existence::tour_on_graph`]): every answer on every small geometry
//! against a brute force written here, the torus theorem against a search written
//! here, and the named graphs' known answers.

use std::path::PathBuf;

use knightnet::board::Board;
use knightnet::existence::{Basis, tour_on_graph};
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::graph::KnightGraph;
use knightnet::graph_file::FileGraph;

use crate::on_graph::geometries;

/// Brute force by dynamic programming over subsets (Bellman 1962; Held & Karp 1962),
/// from every start: `reach[mask]` has bit `v` when a path visiting exactly `mask`
/// ends at `v` (closed: paths from vertex 0 only, then an edge back to 0).
fn hamiltonian(adj: &[Vec<u32>], closed: bool) -> bool {
    let n = adj.len();
    assert!(n <= 20);
    let mut reach = vec![0u32; 1 << n];
    if closed {
        reach[1] = 1;
    } else {
        for v in 0..n {
            reach[1 << v] = 1 << v;
        }
    }
    for mask in 1..(1usize << n) {
        let ends = reach[mask];
        if ends == 0 {
            continue;
        }
        let mut left = ends;
        while left != 0 {
            let v = left.trailing_zeros() as usize;
            left &= left - 1;
            for &w in &adj[v] {
                if mask & (1 << w) == 0 {
                    reach[mask | 1 << w] |= 1 << w;
                }
            }
        }
    }
    let full = reach[(1 << n) - 1];
    if closed {
        n >= 3 && adj[0].iter().any(|&w| full & (1 << w) != 0)
    } else {
        full != 0
    }
}

/// The neighbour lists of `graph`, from its incidence lists.
fn adjacency(graph: &KnightGraph) -> Vec<Vec<u32>> {
    (0..graph.squares() as u32)
        .map(|v| {
            graph
                .incident(v)
                .iter()
                .map(|&e| graph.other(e as usize, v))
                .collect()
        })
        .collect()
}

/// The largest geometries checked (squares, holes included).
const MAX_SQUARES: usize = 16;

#[test]
fn every_answer_on_small_geometries_equals_brute_force() {
    let (mut theorem, mut search) = (0, 0);
    let (mut yes, mut no) = (0, 0);
    for geometry in geometries(MAX_SQUARES) {
        let graph = KnightGraph::from_moves(geometry.moves().unwrap()).unwrap();
        let adj = adjacency(&graph);
        for closed in [true, false] {
            let truth = hamiltonian(&adj, closed);
            let ex = tour_on_graph(&graph, closed, u64::MAX);
            assert_eq!(
                ex.exists,
                Some(truth),
                "{geometry:?}, closed {closed}: {}",
                ex.reason
            );
            match ex.basis {
                Basis::Theorem => theorem += 1,
                Basis::Search => search += 1,
                Basis::Budget => unreachable!("no budget"),
            }
            if truth {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(
        theorem > 300 && search > 300,
        "{theorem} by theorem, {search} by search"
    );
    assert!(yes > 300 && no > 300, "{yes} yes, {no} no");
}

/// Depth-first search for a tour, no pruning: for a closed tour from vertex 0, for an
/// open one from every vertex; whether it finds one within `budget` vertices placed
/// (`None`: the budget ran out).
fn tour_by_dfs(adj: &[Vec<u32>], closed: bool, mut budget: u64) -> Option<bool> {
    fn go(
        adj: &[Vec<u32>],
        closed: bool,
        path: &mut Vec<u32>,
        used: &mut [bool],
        budget: &mut u64,
    ) -> Option<bool> {
        let n = adj.len();
        let last = *path.last().unwrap() as usize;
        if path.len() == n {
            return Some(!closed || (n >= 3 && adj[last].contains(&path[0])));
        }
        for &w in &adj[last] {
            if used[w as usize] {
                continue;
            }
            *budget = budget.checked_sub(1)?;
            used[w as usize] = true;
            path.push(w);
            if go(adj, closed, path, used, budget)? {
                return Some(true);
            }
            path.pop();
            used[w as usize] = false;
        }
        Some(false)
    }
    let starts = if closed { 1 } else { adj.len() as u32 };
    for s in 0..starts {
        let mut used = vec![false; adj.len()];
        used[s as usize] = true;
        if go(adj, closed, &mut vec![s], &mut used, &mut budget)? {
            return Some(true);
        }
    }
    Some(false)
}

#[test]
fn answers_on_full_boards_of_17_to_30_squares_agree_with_a_plain_search() {
    let (mut agreed, mut unsettled, mut unknown) = (0, 0, Vec::new());
    for m in 1..=30usize {
        for n in m..=30usize {
            if m * n < 17 || m * n > 30 {
                continue;
            }
            let board = Board::new(m, n).unwrap();
            for (r, s) in [(1, 2), (2, 3), (1, 4), (1, 3), (0, 1)] {
                for surface in [Surface::Plane, Surface::Cylinder, Surface::Torus] {
                    let g = Geometry::new(Shape::full(board), Leaper::new(r, s).unwrap(), surface);
                    if g.is_plain_knight() {
                        continue;
                    }
                    let graph = KnightGraph::from_moves(g.moves().unwrap()).unwrap();
                    let adj = adjacency(&graph);
                    for closed in [true, false] {
                        let ex = tour_on_graph(&graph, closed, 10_000_000);
                        if ex.exists.is_none() {
                            assert_eq!(ex.basis, Basis::Budget);
                            unknown.push(format!("{g:?} closed {closed}"));
                        }
                        match tour_by_dfs(&adj, closed, 2_000_000) {
                            Some(truth) if ex.exists.is_some() => {
                                assert_eq!(
                                    ex.exists,
                                    Some(truth),
                                    "{g:?}, closed {closed}: {}",
                                    ex.reason
                                );
                                agreed += 1;
                            }
                            _ => unsettled += 1,
                        }
                    }
                }
            }
        }
    }
    // The plain search runs out on a few cases that the theorems or the pruned search
    // settle, and the pruned search's budget on a few others (unknown, not a guess).
    assert!(
        agreed > 4 * unsettled && agreed > 100,
        "{agreed} agreed, {unsettled} unsettled"
    );
    assert!(unknown.len() <= 5, "unknown: {unknown:#?}");
}

#[test]
fn the_knight_on_every_torus_of_3_to_30_squares_has_a_closed_tour_as_watkins_says() {
    for m in 1..=30usize {
        for n in 1..=30usize {
            if m * n < 3 || m * n > 30 {
                continue;
            }
            let board = Board::new(m, n).unwrap();
            let g = Geometry::new(Shape::full(board), Leaper::KNIGHT, Surface::Torus);
            let graph = KnightGraph::from_moves(g.moves().unwrap()).unwrap();
            let ex = tour_on_graph(&graph, true, u64::MAX);
            assert_eq!(ex.exists, Some(true), "{board}: {}", ex.reason);
            assert_eq!(
                tour_by_dfs(&adjacency(&graph), true, 50_000_000),
                Some(true),
                "{board} torus"
            );
            assert_eq!(tour_on_graph(&graph, false, u64::MAX).exists, Some(true));
        }
    }
}

fn named(file: &str) -> KnightGraph {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "experiments", "graphs", file]
        .iter()
        .collect();
    KnightGraph::from_file(FileGraph::read(&path).unwrap()).unwrap()
}

fn parsed(text: &str) -> KnightGraph {
    KnightGraph::from_file(FileGraph::parse(text, "test").unwrap()).unwrap()
}

#[test]
fn named_graphs_get_their_known_answers_and_say_why() {
    let petersen = named("petersen.dimacs");
    let ex = tour_on_graph(&petersen, true, u64::MAX);
    assert_eq!(
        (ex.exists, ex.basis),
        (Some(false), Basis::Search),
        "{}",
        ex.reason
    );
    assert_eq!(tour_on_graph(&petersen, false, u64::MAX).exists, Some(true));
    let ex = tour_on_graph(&named("dodecahedron.hcp"), true, u64::MAX);
    assert_eq!(
        (ex.exists, ex.basis),
        (Some(true), Basis::Search),
        "{}",
        ex.reason
    );
    assert_eq!(
        tour_on_graph(&named("heawood.hcp"), true, u64::MAX).exists,
        Some(true)
    );
    let tutte = named("tutte.hcp");
    let ex = tour_on_graph(&tutte, true, 10_000_000);
    assert_eq!(ex.exists, Some(false), "{}", ex.reason);
    // A budget too small to finish says unknown, never a guess.
    let ex = tour_on_graph(&tutte, true, 10);
    assert_eq!(
        (ex.exists, ex.basis),
        (None, Basis::Budget),
        "{}",
        ex.reason
    );
    assert!(ex.reason.contains("unknown"), "{}", ex.reason);
    // Two triangles: disconnected, neither tour.
    let two = parsed("1 2\n2 3\n3 1\n4 5\n5 6\n6 4\n");
    for closed in [true, false] {
        let ex = tour_on_graph(&two, closed, u64::MAX);
        assert_eq!((ex.exists, ex.basis), (Some(false), Basis::Theorem));
        assert!(ex.reason.contains("2 components"), "{}", ex.reason);
    }
    // A star of three leaves: three ends, no open tour; K(2,3): sides 2 and 3, no
    // closed tour but an open one.
    let ex = tour_on_graph(&parsed("1 2\n1 3\n1 4\n"), false, u64::MAX);
    assert_eq!((ex.exists, ex.basis), (Some(false), Basis::Theorem));
    assert!(ex.reason.contains("two ends"), "{}", ex.reason);
    let k23 = parsed("1 3\n1 4\n1 5\n2 3\n2 4\n2 5\n");
    let ex = tour_on_graph(&k23, true, u64::MAX);
    assert_eq!((ex.exists, ex.basis), (Some(false), Basis::Theorem));
    assert!(ex.reason.contains("(2 and 3)"), "{}", ex.reason);
    assert_eq!(tour_on_graph(&k23, false, u64::MAX).exists, Some(true));
}

#[test]
fn a_camel_and_a_walled_shape_are_answered_by_theorem() {
    let board = Board::new(6, 6).unwrap();
    let camel = Geometry::new(
        Shape::full(board),
        Leaper::new(1, 3).unwrap(),
        Surface::Plane,
    );
    let ex = tour_on_graph(
        &KnightGraph::from_moves(camel.moves().unwrap()).unwrap(),
        false,
        1,
    );
    assert_eq!((ex.exists, ex.basis), (Some(false), Basis::Theorem));
    assert!(ex.reason.contains("Knuth"), "{}", ex.reason);
    let wall: Shape = ".....##.....\n".repeat(5).parse().unwrap();
    let g = Geometry::new(wall, Leaper::KNIGHT, Surface::Plane);
    let ex = tour_on_graph(
        &KnightGraph::from_moves(g.moves().unwrap()).unwrap(),
        true,
        1,
    );
    assert_eq!((ex.exists, ex.basis), (Some(false), Basis::Theorem));
    assert!(ex.reason.contains("2 components"), "{}", ex.reason);
}

/// The number of Hamiltonian cycles (closed) or paths (open) counted by a plain
/// depth-first search written here, each once (a cycle from vertex 0 in both
/// directions, a path from both ends, halved).
fn count_by_dfs(adj: &[Vec<u32>], closed: bool) -> u64 {
    fn go(adj: &[Vec<u32>], closed: bool, path: &mut Vec<u32>, used: &mut [bool]) -> u64 {
        let n = adj.len();
        let last = *path.last().unwrap() as usize;
        if path.len() == n {
            return u64::from(!closed || (n >= 3 && adj[last].contains(&path[0])));
        }
        let mut found = 0;
        for &w in &adj[last] {
            if !used[w as usize] {
                used[w as usize] = true;
                path.push(w);
                found += go(adj, closed, path, used);
                path.pop();
                used[w as usize] = false;
            }
        }
        found
    }
    let n = adj.len();
    let starts = if closed { n.min(1) } else { n };
    let mut directed = 0;
    for s in 0..starts {
        let mut used = vec![false; n];
        used[s] = true;
        directed += go(adj, closed, &mut vec![s as u32], &mut used);
    }
    if n == 1 && !closed { 1 } else { directed / 2 }
}

#[test]
fn counts_on_small_geometries_and_named_graphs_equal_a_plain_enumeration() {
    use knightnet::solvers::on_graph::count;
    let mut nonzero = 0;
    for geometry in geometries(12) {
        let graph = KnightGraph::from_moves(geometry.moves().unwrap()).unwrap();
        let adj = adjacency(&graph);
        for closed in [true, false] {
            let c = count(&graph, closed, u64::MAX).unwrap();
            let truth = count_by_dfs(&adj, closed);
            assert_eq!(c.undirected, truth, "{geometry:?}, closed {closed}");
            nonzero += usize::from(truth > 0);
        }
    }
    assert!(nonzero > 200, "{nonzero} cases with tours");
    for (file, cycles) in [
        ("dodecahedron.hcp", 30),
        ("petersen.dimacs", 0),
        ("heawood.hcp", 24),
    ] {
        let graph = named(file);
        assert_eq!(count_by_dfs(&adjacency(&graph), true), cycles, "{file}");
        let c = count(&graph, true, u64::MAX).unwrap();
        assert_eq!((c.undirected, c.directed), (cycles, 2 * cycles), "{file}");
    }
    // The 3x4 knight's open tours, counted on the geometry's graph (the leaper named
    // explicitly on a full plane board is the knight's own graph): the knight's count
    // of 3x4 gives the same.
    let board = Board::new(3, 4).unwrap();
    let knight = knightnet::count::search::count(
        &knightnet::count::CountSpec {
            board,
            closed: false,
            start: None,
            max_steps: u64::MAX,
            method: knightnet::count::Method::Search,
        },
        |_, _| {},
    )
    .unwrap();
    let g = Geometry::new(Shape::full(board), Leaper::KNIGHT, Surface::Plane);
    let c = count(
        &KnightGraph::from_moves(g.moves().unwrap()).unwrap(),
        false,
        u64::MAX,
    )
    .unwrap();
    assert_eq!(u128::from(c.directed), knight.directed);
    assert!(c.directed > 0);
    // A budget too small is no count.
    assert_eq!(count(&named("tutte.hcp"), true, 100), None);
}

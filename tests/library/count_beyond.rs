//! The frontier program beyond the knight's rectangle (`count::geometry`) against
//! exhaustive search: closed tours, open tours and 2-factors of every leaper, surface and
//! shape of the small boards, and of larger ones up to 30 squares, equal what the
//! forward-checking search of `solvers::on_graph` counts (tours) and what a plain
//! enumeration written here counts (2-factors; the search counts tours only).

use knightnet::board::Board;
use knightnet::count::frontier::{MAX_WINDOW, Quantity};
use knightnet::count::geometry::{self, Layout};
use knightnet::geometry::{Geometry, Leaper, MoveGraph, Shape, Surface};
use knightnet::graph::KnightGraph;
use knightnet::solvers::on_graph;

use crate::on_graph::geometries;

/// The frontier's count of `quantity` on `moves` (undirected), with no budget.
fn by_frontier(moves: &MoveGraph, quantity: Quantity) -> u128 {
    let layout = Layout::of(moves);
    let run = geometry::run(moves, &layout, quantity, u64::MAX, 8 << 30, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(run.complete);
    run.count.unwrap()
}

/// The undirected tours (closed or open) of `moves` by exhaustive search.
fn by_search(moves: &MoveGraph, closed: bool) -> u128 {
    let graph = KnightGraph::from_moves(moves.clone()).unwrap();
    let c = on_graph::count(&graph, closed, 2_000_000_000).expect("the search finishes");
    u128::from(c.undirected)
}

/// The 2-factors of `moves` (spanning subgraphs with every vertex of degree 2), by a
/// plain enumeration: the lowest vertex not yet finished takes the edges it still needs
/// among its neighbours not finished (each subset once), and is finished.
fn two_factors_by_enumeration(moves: &MoveGraph) -> u128 {
    fn go(moves: &MoveGraph, deg: &mut [u8], done: &mut [bool]) -> u128 {
        let Some(v) = done.iter().position(|&d| !d) else {
            return 1;
        };
        let need = 2 - deg[v] as usize;
        let open: Vec<u32> = moves
            .neighbours(v as u32)
            .iter()
            .copied()
            .filter(|&u| !done[u as usize] && u as usize != v && deg[u as usize] < 2)
            .collect();
        done[v] = true;
        let mut found = 0;
        for mask in 0u32..1 << open.len() {
            if mask.count_ones() as usize != need {
                continue;
            }
            let chosen: Vec<usize> = (0..open.len())
                .filter(|i| mask >> i & 1 == 1)
                .map(|i| open[i] as usize)
                .collect();
            for &u in &chosen {
                deg[u] += 1;
            }
            found += go(moves, deg, done);
            for &u in &chosen {
                deg[u] -= 1;
            }
        }
        done[v] = false;
        found
    }
    let n = moves.vertices();
    go(moves, &mut vec![0; n], &mut vec![false; n])
}

/// Every count the frontier makes on `moves` equals the oracles' (2-factors only on
/// graphs of at most `max_two_factor` vertices, where the enumeration is quick).
/// Returns whether any count was not zero.
fn agree(moves: &MoveGraph, max_two_factor: usize) -> bool {
    let what = format!("{:?}", moves.geometry());
    let closed = by_frontier(moves, Quantity::Cycles);
    assert_eq!(closed, by_search(moves, true), "closed tours of {what}");
    let open = by_frontier(moves, Quantity::Paths);
    assert_eq!(open, by_search(moves, false), "open tours of {what}");
    let mut nonzero = closed + open > 0;
    if moves.vertices() <= max_two_factor {
        let f = by_frontier(moves, Quantity::TwoFactors);
        assert_eq!(f, two_factors_by_enumeration(moves), "2-factors of {what}");
        assert!(f >= closed, "{what}: every closed tour is a 2-factor");
        nonzero |= f > 0;
    }
    nonzero
}

/// A geometry as the tests list it: rows, columns, holes, leaper, surface.
type Case = (usize, usize, &'static [u32], (u32, u32), Surface);

fn moves(
    rows: usize,
    cols: usize,
    holes: &[u32],
    leaper: (u32, u32),
    surface: Surface,
) -> MoveGraph {
    let board = Board::new(rows, cols).unwrap();
    let shape = Shape::new(board, holes.iter().copied()).unwrap();
    let leaper = Leaper::new(leaper.0, leaper.1).unwrap();
    Geometry::new(shape, leaper, surface).moves().unwrap()
}

/// Every leaper, surface and shape of up to 12 squares (`on_graph::geometries`) whose
/// order fits: closed, open and 2-factors equal the oracles.
#[test]
fn every_geometry_of_twelve_squares_counts_as_the_oracles_do() {
    let (mut fitted, mut nonzero) = (0, 0);
    for g in geometries(12) {
        let moves = g.moves().unwrap();
        if !Layout::of(&moves).fits() {
            continue;
        }
        fitted += 1;
        nonzero += usize::from(agree(&moves, 12));
    }
    // Every graph of at most 12 squares spans at most 11: all fit.
    assert_eq!(fitted, geometries(12).len());
    assert!(
        nonzero > 100,
        "{nonzero} geometries with a tour or a 2-factor"
    );
}

/// Larger boards, up to 30 squares: leapers (0,1), (1,2), (2,3), (1,4) on the plane and
/// the cylinder, small tori, and shapes with holes.
#[test]
fn leapers_cylinders_tori_and_shapes_up_to_thirty_squares_count_as_the_oracles_do() {
    use Surface::{Cylinder, Plane, Torus};
    let cases: &[Case] = &[
        (4, 5, &[], (1, 2), Plane),
        (5, 5, &[], (1, 2), Plane),
        (4, 6, &[], (1, 2), Plane),
        (4, 4, &[], (1, 2), Cylinder),
        (5, 4, &[], (1, 2), Cylinder),
        (3, 6, &[], (1, 2), Cylinder),
        (3, 4, &[], (1, 2), Torus),
        (4, 4, &[], (1, 2), Torus),
        (4, 4, &[], (0, 1), Plane),
        (4, 5, &[], (0, 1), Cylinder),
        (5, 6, &[], (0, 1), Plane),
        (3, 4, &[], (0, 1), Torus),
        (5, 5, &[], (2, 3), Plane),
        (5, 6, &[], (2, 3), Cylinder),
        (6, 5, &[], (2, 3), Plane),
        (5, 5, &[], (1, 4), Plane),
        (5, 6, &[], (1, 4), Plane),
        (4, 6, &[], (1, 4), Cylinder),
        (5, 5, &[12], (1, 2), Plane),
        (5, 5, &[0, 24], (1, 2), Plane),
        (4, 6, &[7, 10], (1, 2), Cylinder),
        (5, 5, &[0, 4, 20, 24], (0, 1), Plane),
        (4, 6, &[3], (2, 3), Plane),
    ];
    let mut nonzero = 0;
    for &(rows, cols, holes, leaper, surface) in cases {
        let moves = moves(rows, cols, holes, leaper, surface);
        assert!(
            Layout::of(&moves).fits(),
            "{rows}x{cols} {leaper:?} {surface}"
        );
        nonzero += usize::from(agree(&moves, 20));
    }
    assert!(nonzero >= 15, "{nonzero} cases with a tour or a 2-factor");
}

/// The knight's boards of 20 to 30 squares whose open tours take the search seconds:
/// 5x6 whole and without two corners, the 4x5 and 3x7 cylinders.
#[test]
#[ignore = "full suite (long): cargo test --release --lib --bins --tests -- --include-ignored --skip by_hand_"]
fn the_knights_larger_geometries_count_as_the_oracles_do() {
    use Surface::{Cylinder, Plane};
    for (rows, cols, holes, surface) in [
        (5, 6, &[][..], Plane),
        (5, 6, &[0, 29][..], Plane),
        (4, 5, &[][..], Cylinder),
        (3, 7, &[][..], Cylinder),
    ] {
        assert!(agree(&moves(rows, cols, holes, (1, 2), surface), 20));
    }
}

/// The window is the geometry's, not the knight's `2w + 1`: the knight's plane board
/// takes its narrow side (`2w + 1`), the cylinder runs row by row (a move round the seam
/// from the first column to the last two rows down spans `3c - 1`), a wider leaper's
/// window grows with `s`, holes only shorten it, and the torus fits only when small.
#[test]
fn the_window_comes_from_the_geometry() {
    let plane = Layout::of(&moves(9, 5, &[], (1, 2), Surface::Plane));
    assert_eq!(plane.window, 2 * 5 + 1);
    let turned = Layout::of(&moves(5, 9, &[], (1, 2), Surface::Plane));
    assert_eq!((turned.window, turned.by_columns), (2 * 5 + 1, true));
    for cols in [5, 6, 8] {
        let cylinder = Layout::of(&moves(8, cols, &[], (1, 2), Surface::Cylinder));
        assert_eq!(cylinder.window, 3 * cols - 1, "{cols} columns");
        assert!(!cylinder.by_columns);
    }
    // Long and narrow: the cylinder still runs along its wrapped rows.
    let narrow = Layout::of(&moves(3, 10, &[], (1, 2), Surface::Cylinder));
    assert!(!narrow.by_columns);
    let giraffe = Layout::of(&moves(9, 6, &[], (1, 4), Surface::Plane));
    assert_eq!(giraffe.window, 4 * 6 + 1);
    let holed = Layout::of(&moves(9, 5, &[20, 21, 22, 23, 24], (1, 2), Surface::Plane));
    assert!(holed.window <= plane.window);
    assert!(Layout::of(&moves(4, 5, &[], (1, 2), Surface::Torus)).fits());
    let torus = Layout::of(&moves(6, 6, &[], (1, 2), Surface::Torus));
    assert!(torus.window > MAX_WINDOW && !torus.fits());
    let refused = geometry::run(
        &moves(6, 6, &[], (1, 2), Surface::Torus),
        &torus,
        Quantity::Cycles,
        u64::MAX,
        u64::MAX,
        &mut |_| {},
    )
    .unwrap_err()
    .to_string();
    assert!(refused.contains("exhaustive search"), "{refused}");
}

/// The wazir's (the (0,1)-leaper's) closed tours on the 2n x 2n plane board are the
/// Hamiltonian cycles of the grid graph: 1, 6, 1072, 4638576 for n = 1..4 (OEIS
/// A003763).
#[test]
fn the_wazirs_closed_tours_are_the_published_grid_cycle_counts() {
    for (side, cycles) in [(2, 1), (4, 6), (6, 1072), (8, 4_638_576)] {
        let m = moves(side, side, &[], (0, 1), Surface::Plane);
        assert_eq!(by_frontier(&m, Quantity::Cycles), cycles, "{side}x{side}");
    }
}

/// The knight named as a geometry counts on its plane board what the knight's own
/// frontier program counts.
#[test]
fn the_knight_as_a_geometry_counts_what_the_knights_program_does() {
    use knightnet::count::frontier::{FrontierRequest, run};
    for (rows, cols) in [(3, 8), (5, 5), (4, 6), (6, 5)] {
        let m = moves(rows, cols, &[], (1, 2), Surface::Plane);
        for q in [Quantity::Cycles, Quantity::Paths, Quantity::TwoFactors] {
            let req = FrontierRequest {
                board: Board::new(rows, cols).unwrap(),
                quantity: q,
                start: None,
                max_transitions: u64::MAX,
                max_memory: u64::MAX,
                rows_limit: None,
            };
            let knight = run(&req, |_| {}).unwrap().count.unwrap();
            assert_eq!(by_frontier(&m, q), knight, "{rows}x{cols} {q:?}");
        }
    }
}

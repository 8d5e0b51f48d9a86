//! A geometry's vertices back to its squares (`MoveGraph::squares_of`): the one mapping
//! the figures of `solve --png`, the network's states and Python's `Run.save_figure`
//! draw a cycle found on a move graph with.

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, MoveGraph, Shape, Surface};

fn moves(board: Board, holes: &[u32], surface: Surface) -> MoveGraph {
    let shape = Shape::new(board, holes.iter().copied()).unwrap();
    Geometry::new(shape, Leaper::new(1, 2).unwrap(), surface)
        .moves()
        .unwrap()
}

/// Whether every move of the closed walk `vertices` is an edge of `g`.
fn is_cycle_of(g: &MoveGraph, vertices: &[u32]) -> bool {
    (0..vertices.len()).all(|i| {
        let (a, b) = (vertices[i], vertices[(i + 1) % vertices.len()]);
        g.neighbours(a).contains(&b)
    })
}

#[test]
fn a_torus_cycle_with_wrapped_moves_maps_back_to_its_squares() {
    // The knight stepping one row down and two columns right on the 5x5 torus comes
    // back after five moves, two of them running off an edge. A hole on a square the
    // walk misses makes the vertex numbers differ from the squares.
    let board = Board::new(5, 5).unwrap();
    let g = moves(board, &[1], Surface::Torus);
    let walk: Vec<u32> = (0..5u32).map(|i| i * 5 + (2 * i) % 5).collect();
    let vertices: Vec<u32> = walk.iter().map(|&s| g.vertex(s).unwrap()).collect();
    assert_ne!(vertices, walk, "the hole shifts the vertex numbers");
    assert!(is_cycle_of(&g, &vertices));
    let wrapped = (0..walk.len())
        .filter(|&i| !board.is_knight_move(walk[i], walk[(i + 1) % walk.len()]))
        .count();
    assert_eq!(wrapped, 2, "{walk:?}");
    assert_eq!(g.squares_of(&vertices), walk);
    assert!(g.squares_of(&[]).is_empty());
}

#[test]
fn a_cycle_round_a_hole_maps_to_the_squares_around_it() {
    // On 3x3 with its centre cut out, the knight's moves join the eight other squares
    // in one cycle: vertices 4 to 7 are squares 5 to 8.
    let board = Board::new(3, 3).unwrap();
    let g = moves(board, &[4], Surface::Plane);
    assert_eq!(g.vertices(), 8);
    let mut cycle = vec![0u32, g.neighbours(0)[0]];
    while cycle.len() < 8 {
        let (before, here) = (cycle[cycle.len() - 2], cycle[cycle.len() - 1]);
        let next = g.neighbours(here).iter().find(|&&w| w != before).unwrap();
        cycle.push(*next);
    }
    assert!(is_cycle_of(&g, &cycle));
    let squares = g.squares_of(&cycle);
    for (v, s) in cycle.iter().zip(&squares) {
        assert_eq!(*s, if *v < 4 { *v } else { v + 1 });
    }
    let mut sorted = squares.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2, 3, 5, 6, 7, 8]);
    for i in 0..squares.len() {
        let (a, b) = (squares[i], squares[(i + 1) % squares.len()]);
        assert!(board.is_knight_move(a, b), "{a} -> {b}");
    }
}

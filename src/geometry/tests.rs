//! Tests of the geometry module: parsing, the move graph against an independent
//! definition of adjacency, and every theoretical claim against breadth-first search
//! and an exhaustive Hamiltonian-cycle search on every small case.

use std::collections::VecDeque;

use super::*;
use crate::board::KNIGHT_OFFSETS;
use crate::graph::KnightGraph;
use proptest::prelude::*;

/// Every leaper with `s <= 4`.
fn small_leapers() -> Vec<Leaper> {
    let mut out = Vec::new();
    for s in 1..=4 {
        for r in 0..=s {
            out.push(Leaper::new(r, s).unwrap());
        }
    }
    out
}

/// Every board of at most `max` squares.
fn boards_up_to(max: usize) -> Vec<Board> {
    let mut out = Vec::new();
    for rows in 1..=max {
        for cols in 1..=max / rows {
            out.push(Board::new(rows, cols).unwrap());
        }
    }
    out
}

fn graph(shape: Shape, leaper: Leaper, surface: Surface) -> MoveGraph {
    Geometry::new(shape, leaper, surface).moves().unwrap()
}

/// Adjacency by definition, independently of [`Geometry::moves`]: two distinct squares
/// are joined when their difference equals one of the leaper's moves, modulo each
/// wrapped side.
fn joined_by_definition(g: &Geometry, x: u32, y: u32) -> bool {
    let b = g.board();
    let (xr, xc) = b.coords(x);
    let (yr, yc) = b.coords(y);
    let (dr, dc) = (yr as i64 - xr as i64, yc as i64 - xc as i64);
    let same = |d: i64, o: i64, n: usize, wraps: bool| {
        if wraps {
            (d - o).rem_euclid(n as i64) == 0
        } else {
            d == o
        }
    };
    x != y
        && g.leaper().offsets().into_iter().any(|(or, oc)| {
            same(dr, or, b.rows(), g.surface().wraps_rows())
                && same(dc, oc, b.cols(), g.surface().wraps_cols())
        })
}

fn bfs_connected(graph: &MoveGraph) -> bool {
    let n = graph.vertices();
    let mut seen = vec![false; n];
    let mut queue = VecDeque::from([0u32]);
    seen[0] = true;
    let mut count = 1;
    while let Some(v) = queue.pop_front() {
        for &w in graph.neighbours(v) {
            if !seen[w as usize] {
                seen[w as usize] = true;
                count += 1;
                queue.push_back(w);
            }
        }
    }
    count == n
}

/// A proper 2-colouring by breadth-first search, if the graph has one.
fn two_colouring(graph: &MoveGraph) -> Option<Vec<u8>> {
    let n = graph.vertices();
    let mut colour = vec![u8::MAX; n];
    for start in 0..n {
        if colour[start] != u8::MAX {
            continue;
        }
        colour[start] = 0;
        let mut queue = VecDeque::from([start as u32]);
        while let Some(v) = queue.pop_front() {
            for &w in graph.neighbours(v) {
                if colour[w as usize] == u8::MAX {
                    colour[w as usize] = 1 - colour[v as usize];
                    queue.push_back(w);
                } else if colour[w as usize] == colour[v as usize] {
                    return None;
                }
            }
        }
    }
    Some(colour)
}

/// Exhaustive search for a Hamiltonian cycle (graphs of at most 64 vertices): extend a
/// path from vertex 0, pruning when an unvisited vertex has fewer than two possible
/// neighbours left or the unvisited vertices are no longer all reachable from the
/// path's end.
fn has_hamiltonian_cycle(graph: &MoveGraph) -> bool {
    let n = graph.vertices();
    assert!(n <= 64);
    if n < 3 {
        return false;
    }
    let adj: Vec<u64> = (0..n as u32)
        .map(|v| graph.neighbours(v).iter().fold(0u64, |m, &w| m | 1 << w))
        .collect();
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    fn search(adj: &[u64], all: u64, visited: u64, end: usize) -> bool {
        let free = all & !visited;
        if free == 0 {
            return adj[end] & 1 != 0;
        }
        if adj[0] & free == 0 {
            return false;
        }
        let ends = 1u64 << end | 1;
        let mut f = free;
        while f != 0 {
            let u = f.trailing_zeros() as usize;
            f &= f - 1;
            if (adj[u] & (free | ends)).count_ones() < 2 {
                return false;
            }
        }
        // Every free vertex reachable from the end through free vertices.
        let mut reached = adj[end] & free;
        loop {
            let mut next = reached;
            let mut f = reached;
            while f != 0 {
                let u = f.trailing_zeros() as usize;
                f &= f - 1;
                next |= adj[u] & free;
            }
            if next == reached {
                break;
            }
            reached = next;
        }
        if reached != free {
            return false;
        }
        let mut options: Vec<usize> = Vec::new();
        let mut c = adj[end] & free;
        while c != 0 {
            options.push(c.trailing_zeros() as usize);
            c &= c - 1;
        }
        options.sort_by_key(|&w| (adj[w] & free).count_ones());
        options
            .into_iter()
            .any(|w| search(adj, all, visited | 1 << w, w))
    }
    search(&adj, all, 1, 0)
}

#[test]
fn leaper_offsets() {
    let knight: Vec<(i64, i64)> = KNIGHT_OFFSETS
        .iter()
        .map(|&(r, c)| (r as i64, c as i64))
        .collect();
    assert_eq!(Leaper::KNIGHT.offsets(), knight);
    for l in small_leapers() {
        let o = l.offsets();
        let expected = if l.r() == 0 || l.r() == l.s() { 4 } else { 8 };
        assert_eq!(o.len(), expected, "{l}");
        for &(dr, dc) in &o {
            assert!(o.contains(&(-dr, -dc)), "{l}: moves not symmetric");
            let (a, b) = (
                dr.unsigned_abs().min(dc.unsigned_abs()),
                dr.unsigned_abs().max(dc.unsigned_abs()),
            );
            assert_eq!((a, b), (l.r() as u64, l.s() as u64));
        }
    }
}

#[test]
fn leapers_parse_and_print() {
    for (text, l) in [
        ("1,2", Leaper::KNIGHT),
        (" (2, 3) ", Leaper::ZEBRA),
        ("Knight", Leaper::KNIGHT),
        ("CAMEL", Leaper::CAMEL),
        ("giraffe", Leaper::GIRAFFE),
        ("0,1", Leaper::new(0, 1).unwrap()),
        ("4,4", Leaper::new(4, 4).unwrap()),
    ] {
        assert_eq!(text.parse::<Leaper>().unwrap(), l, "{text}");
        assert_eq!(l.to_string().parse::<Leaper>().unwrap(), l);
    }
    assert_eq!(Leaper::ZEBRA.name(), Some("zebra"));
    assert_eq!(Leaper::new(2, 5).unwrap().name(), None);
    assert_eq!(Leaper::default(), Leaper::KNIGHT);
    let json = serde_json::to_string(&Leaper::GIRAFFE).unwrap();
    assert_eq!(json, "\"1,4\"");
    assert_eq!(
        serde_json::from_str::<Leaper>(&json).unwrap(),
        Leaper::GIRAFFE
    );
    assert!(serde_json::from_str::<Leaper>("\"2,1\"").is_err());
    for (bad, says) in [
        ("2,1", "write the smaller number first: 1,2"),
        ("0,0", "never moves"),
        ("zebr", "did you mean 'zebra'?"),
        ("", "unknown leaper ''"),
        ("1,", "expected R,S with whole numbers 0 <= R <= S"),
        (",2", "expected R,S"),
        ("1,2,3", "expected R,S"),
        ("-1,2", "expected R,S"),
        ("1.5,2", "expected R,S"),
        ("1,99999999999", "leaps up to 1000000"),
        ("1,1000001", "leaps up to 1000000"),
    ] {
        let e = bad.parse::<Leaper>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    assert!(Leaper::new(3, 2).is_err());
    assert!(Leaper::new(0, MAX_LEAP).is_ok());
}

#[test]
fn surfaces_parse_and_print() {
    for s in Surface::ALL {
        assert_eq!(s.to_string().parse::<Surface>().unwrap(), s);
        assert_eq!(s.name().to_uppercase().parse::<Surface>().unwrap(), s);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, format!("\"{}\"", s.name()));
    }
    assert!(!Surface::Plane.wraps_cols() && !Surface::Plane.wraps_rows());
    assert!(Surface::Cylinder.wraps_cols() && !Surface::Cylinder.wraps_rows());
    assert!(Surface::Torus.wraps_cols() && Surface::Torus.wraps_rows());
    let e = "tours".parse::<Surface>().unwrap_err().to_string();
    assert_eq!(
        e,
        "unknown surface 'tours'; did you mean 'torus'? accepted: plane, cylinder, torus"
    );
}

#[test]
fn shapes_parse_with_comments_blanks_and_indentation() {
    let text = "; a ring\n\n   ...   ; top\n\t.#.\n...\r\n\n  ; the end\n";
    let s: Shape = text.parse().unwrap();
    assert_eq!(s.board(), Board::new(3, 3).unwrap());
    assert_eq!(s.holes(), &[4]);
    assert_eq!(s.squares(), 8);
    assert_eq!(s.to_string(), "...\n.#.\n...\n");
    let full: Shape = "....\n....".parse().unwrap();
    assert!(full.is_full());
    assert_eq!(full, Shape::full(Board::new(2, 4).unwrap()));
    assert_eq!(
        Shape::new(Board::new(2, 2).unwrap(), [3, 0, 3])
            .unwrap()
            .holes(),
        &[0, 3]
    );
    for (bad, says) in [
        ("", "shape is empty"),
        ("; only a comment\n\n", "shape is empty"),
        (
            "...\n.x.\n...",
            "shape, line 2: column 2: 'x' is neither '.' (a square) nor '#'",
        ),
        ("  . .", "shape, line 1: column 4: ' ' is neither"),
        (
            "...\n..\n",
            "shape, line 2: the row is 2 long and the first row (line 1) 3",
        ),
        ("\n...\n\n...\n", "shape, line 3: a blank line between rows"),
        ("##\n##", "has no square"),
        ("..\u{7}", "column 3: '\\u{7}'"),
    ] {
        let e = bad.parse::<Shape>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?}: {e}");
        assert!(!e.contains('\n'), "{bad:?}: {e}");
    }
    let board = Board::new(2, 2).unwrap();
    assert!(
        Shape::new(board, [4])
            .unwrap_err()
            .to_string()
            .contains("off the 2x2 board")
    );
    assert!(Shape::new(board, [0, 1, 2, 3]).is_err());
}

/// The knight on a full plane board gives exactly the knight's graph, edge for edge in
/// the same order, on every board up to 8x8.
#[test]
fn the_plane_knight_is_the_knights_graph() {
    for rows in 1..=8 {
        for cols in 1..=8 {
            let board = Board::new(rows, cols).unwrap();
            let g = Geometry::knight(board).moves().unwrap();
            assert!(g.geometry().is_plain_knight());
            let k = KnightGraph::new(board);
            let expected: Vec<(u32, u32)> = (0..k.edges()).map(|e| k.endpoints(e)).collect();
            assert_eq!(g.edge_list(), expected.as_slice(), "{board}");
            assert_eq!((g.merged_moves(), g.dropped_loops()), (0, 0), "{board}");
            for v in 0..g.vertices() as u32 {
                assert_eq!(g.square(v), v);
                assert_eq!(g.degree(v), k.degree(v));
            }
        }
    }
}

/// Parallel moves are merged and moves onto their own square dropped, counted as
/// documented, on hand-checked cases.
#[test]
fn small_wraps_merge_moves_and_drop_loops() {
    // 3x3 torus: +-2 is -+1 modulo 3, so the knight's eight moves reach the four
    // diagonal neighbours twice each.
    let g = graph(
        Shape::full(Board::new(3, 3).unwrap()),
        Leaper::KNIGHT,
        Surface::Torus,
    );
    assert_eq!((g.vertices(), g.edges()), (9, 18));
    assert!((0..9).all(|v| g.degree(v) == 4));
    assert_eq!((g.merged_moves(), g.dropped_loops()), (36, 0));
    // (0,3)-leaper on a 4x3 cylinder: (0, +-3) lands on its own square (2 loops per
    // square); (+-3, 0) joins row 0 to row 3 only.
    let g = graph(
        Shape::full(Board::new(4, 3).unwrap()),
        Leaper::new(0, 3).unwrap(),
        Surface::Cylinder,
    );
    assert_eq!(g.dropped_loops(), 24);
    assert_eq!(g.merged_moves(), 0);
    assert_eq!(g.edge_list(), &[(0, 9), (1, 10), (2, 11)]);
    // 1x2 torus: the knight's (+-2, +-1) moves join the two squares (4 moves from each,
    // 3 merged), and (+-1, +-2) land on their own square.
    let g = graph(
        Shape::full(Board::new(1, 2).unwrap()),
        Leaper::KNIGHT,
        Surface::Torus,
    );
    assert_eq!(g.edge_list(), &[(0, 1)]);
    assert_eq!((g.merged_moves(), g.dropped_loops()), (6, 8));
    // A hole is not a vertex; vertices are numbered compactly in square order.
    let ring: Shape = "...\n.#.\n...".parse().unwrap();
    let g = graph(ring, Leaper::new(0, 1).unwrap(), Surface::Plane);
    assert_eq!(g.vertices(), 8);
    assert_eq!(g.vertex(4), None);
    assert_eq!(g.vertex(5), Some(4));
    assert_eq!(g.square(4), 5);
    assert_eq!(g.vertex(9), None);
    assert_eq!(g.edges(), 8);
}

/// Holes shapes used beside the full boards: a ring, corners cut, a plus, a frame.
fn some_shapes() -> Vec<Shape> {
    [
        "....\n.##.\n....\n....",
        "#....#\n......\n......\n......\n#....#",
        "#..#\n....\n....\n#..#",
        ".....\n.###.\n.....\n.....\n.....",
        "##.##\n#...#\n.....\n#...#\n##.##",
        "......\n..##..\n......\n......",
    ]
    .iter()
    .map(|p| p.parse().unwrap())
    .collect()
}

/// Every shape of at most `max` squares: the full boards, and every placement of
/// holes on the boards of at most 9 squares.
fn small_shapes(max: usize) -> Vec<Shape> {
    let mut out: Vec<Shape> = boards_up_to(max).into_iter().map(Shape::full).collect();
    for board in boards_up_to(9) {
        let n = board.squares();
        for mask in 1u32..(1 << n) - 1 {
            let holes = (0..n as u32).filter(|&s| mask >> s & 1 == 1);
            out.push(Shape::new(board, holes).unwrap());
        }
    }
    out.extend(some_shapes());
    out
}

/// Every claim of [`disconnected`] and [`no_closed_tour`] against breadth-first search
/// and exhaustive Hamiltonian-cycle search, and the move graph against the definition
/// of adjacency, over every leaper with s <= 4, every surface and every small shape.
#[test]
fn every_claim_holds_on_every_small_case() {
    let mut searched = 0;
    for shape in small_shapes(30) {
        for leaper in small_leapers() {
            for surface in Surface::ALL {
                let geometry = Geometry::new(shape.clone(), leaper, surface);
                let g = geometry.moves().unwrap();
                let case = format!("{leaper} on {surface} {}:\n{shape}", shape.board());
                // The graph by definition.
                let mut expected = Vec::new();
                for a in 0..g.vertices() as u32 {
                    for b in a + 1..g.vertices() as u32 {
                        if joined_by_definition(&geometry, g.square(a), g.square(b)) {
                            expected.push((a, b));
                        }
                    }
                }
                assert_eq!(g.edge_list(), expected.as_slice(), "{case}");
                let connected = bfs_connected(&g);
                let d = disconnected(&g);
                if let Some(d) = &d {
                    assert!(!connected, "{case} claimed {d:?}");
                    assert!(d.describe(&geometry).contains("disconnected"));
                }
                if surface == Surface::Plane && shape.is_full() {
                    assert_eq!(d.is_none(), connected, "{case}: Knuth's theorem");
                }
                if two_colouring(&g).is_none() {
                    assert!(!geometry.parity_colouring_is_proper(), "{case}");
                }
                if geometry.parity_colouring_is_proper() {
                    let b = geometry.board();
                    for &(x, y) in g.edge_list() {
                        let (xr, xc) = b.coords(g.square(x));
                        let (yr, yc) = b.coords(g.square(y));
                        assert_ne!((xr + xc) % 2, (yr + yc) % 2, "{case}");
                    }
                }
                let no = no_closed_tour(&g);
                let tour = connected && g.vertices() >= 3 && {
                    searched += 1;
                    has_hamiltonian_cycle(&g)
                };
                if let Some(no) = &no {
                    assert!(!tour, "{case} claimed {no:?}");
                    assert!(!no.describe(&geometry).is_empty());
                }
            }
        }
    }
    // The exhaustive search ran on the connected cases, not on a handful.
    assert!(searched > 1000, "{searched}");
}

/// Knuth's theorem on full plane boards, beyond 30 squares: every board up to 12x12.
#[test]
fn knuths_theorem_on_rectangles_up_to_12x12() {
    for rows in 1..=12 {
        for cols in 1..=12 {
            let shape = Shape::full(Board::new(rows, cols).unwrap());
            for leaper in small_leapers() {
                let g = graph(shape.clone(), leaper, Surface::Plane);
                assert_eq!(
                    disconnected(&g).is_none(),
                    bfs_connected(&g),
                    "{leaper} on {rows}x{cols}"
                );
            }
        }
    }
}

/// Named leapers: the camel never leaves its colour; the zebra and the giraffe are
/// connected on large enough boards.
#[test]
fn named_leapers_on_8x8_and_10x10() {
    let b8 = Shape::full(Board::new(8, 8).unwrap());
    let camel = graph(b8.clone(), Leaper::CAMEL, Surface::Plane);
    assert_eq!(disconnected(&camel), Some(Disconnection::Colour));
    assert!(matches!(
        no_closed_tour(&camel),
        Some(NoClosedTour::Disconnected(Disconnection::Colour))
    ));
    let text = NoClosedTour::Disconnected(Disconnection::Colour).describe(camel.geometry());
    assert!(
        text.contains("r + s = 4 is even") && text.contains("Knuth 1994"),
        "{text}"
    );
    let zebra = graph(b8.clone(), Leaper::ZEBRA, Surface::Plane);
    assert_eq!(disconnected(&zebra), None);
    let giraffe = graph(b8, Leaper::GIRAFFE, Surface::Plane);
    assert_eq!(disconnected(&giraffe), None);
    // (2,4) on 10x10: gcd 2, four classes of (row mod 2, col mod 2).
    let g = graph(
        Shape::full(Board::new(10, 10).unwrap()),
        Leaper::new(2, 4).unwrap(),
        Surface::Plane,
    );
    assert_eq!(
        disconnected(&g),
        Some(Disconnection::Gcd { g: 2, classes: 4 })
    );
    // The same on a 5x5 torus: odd wraps undo the gcd and the colour; the (2,4)
    // leaper's graph there is connected.
    let g = graph(
        Shape::full(Board::new(5, 5).unwrap()),
        Leaper::new(2, 4).unwrap(),
        Surface::Torus,
    );
    assert_eq!(disconnected(&g), None);
    assert!(bfs_connected(&g));
    // r = 0 and r = s: the wazir is connected, (0, 2) and (2, 2) are gcd-bound, the
    // (1, 1)-leaper colour-bound on the plane and connected on the 3x3 torus.
    let b6 = Shape::full(Board::new(6, 6).unwrap());
    let reason = |l: (u32, u32), shape: &Shape, surface| {
        disconnected(&graph(
            shape.clone(),
            Leaper::new(l.0, l.1).unwrap(),
            surface,
        ))
    };
    assert_eq!(reason((0, 1), &b6, Surface::Plane), None);
    assert_eq!(
        reason((0, 2), &b6, Surface::Plane),
        Some(Disconnection::Gcd { g: 2, classes: 4 })
    );
    assert_eq!(
        reason((2, 2), &b6, Surface::Plane),
        Some(Disconnection::Gcd { g: 2, classes: 4 })
    );
    assert_eq!(
        reason((1, 1), &b6, Surface::Plane),
        Some(Disconnection::Colour)
    );
    let b3 = Shape::full(Board::new(3, 3).unwrap());
    assert_eq!(reason((1, 1), &b3, Surface::Torus), None);
    assert!(bfs_connected(&graph(
        b3,
        Leaper::new(1, 1).unwrap(),
        Surface::Torus
    )));
}

/// Watkins and Hoenigman (1997): every torus has a closed knight's tour; with parallel
/// moves merged, every torus of at least three squares, checked up to 30 squares.
#[test]
fn every_knights_torus_of_three_squares_or_more_has_a_closed_tour() {
    for board in boards_up_to(30) {
        let g = graph(Shape::full(board), Leaper::KNIGHT, Surface::Torus);
        assert_eq!(
            has_hamiltonian_cycle(&g),
            board.squares() >= 3,
            "{board} torus"
        );
    }
}

/// Bipartite only when the wrapped sides are even: with `r + s` odd and
/// `gcd(r, s) = 1`, a wrapped odd side gives an odd cycle whenever both sides are at
/// least `2s` (checked on every board up to 12x12). Narrower boards can stay bipartite
/// (the knight on a 2x5 cylinder moves only between its two rows), and the parity
/// colouring is proper exactly when every wrapped side is even.
#[test]
fn an_odd_wrap_breaks_bipartiteness() {
    let mut checked = 0;
    for leaper in small_leapers() {
        let odd = (leaper.r() + leaper.s()) % 2 == 1;
        let coprime = gcd(u64::from(leaper.r()), u64::from(leaper.s())) == 1;
        for rows in 1..=12 {
            for cols in 1..=12 {
                let board = Board::new(rows, cols).unwrap();
                for surface in Surface::ALL {
                    let geometry = Geometry::new(Shape::full(board), leaper, surface);
                    let even_wraps = (!surface.wraps_rows() || rows % 2 == 0)
                        && (!surface.wraps_cols() || cols % 2 == 0);
                    assert_eq!(geometry.parity_colouring_is_proper(), odd && even_wraps);
                    let wide = rows.min(cols) >= 2 * leaper.s() as usize;
                    if odd && coprime && !even_wraps && wide {
                        let g = geometry.moves().unwrap();
                        assert!(two_colouring(&g).is_none(), "{leaper} on {surface} {board}");
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn huge_graphs_are_refused_before_building() {
    let board = Board::new(100_000, 20_000).unwrap();
    let e = Geometry::knight(board).moves().unwrap_err();
    assert!(e.to_string().contains("32-bit"), "{e}");
}

/// A shape from a grid of booleans, `true` a hole (at least one square).
fn arbitrary_shape() -> impl Strategy<Value = Shape> {
    (1usize..9, 1usize..9)
        .prop_flat_map(|(rows, cols)| {
            (
                Just((rows, cols)),
                proptest::collection::vec(any::<bool>(), rows * cols),
            )
        })
        .prop_filter_map("every square a hole", |((rows, cols), holes)| {
            let board = Board::new(rows, cols).unwrap();
            let holes = holes
                .iter()
                .enumerate()
                .filter(|&(_, &h)| h)
                .map(|(s, _)| s as u32);
            Shape::new(board, holes).ok()
        })
}

proptest! {
    /// Parsing never panics on any text; what parses prints back to what parses the same.
    #[test]
    fn parsing_never_panics(text in "\\PC{0,40}", picture in "[.#; \t\r\nx]{0,60}") {
        for t in [&text, &picture] {
            if let Ok(l) = t.parse::<Leaper>() {
                prop_assert_eq!(l.to_string().parse::<Leaper>().unwrap(), l);
            }
            if let Ok(s) = t.parse::<Surface>() {
                prop_assert_eq!(s.to_string().parse::<Surface>().unwrap(), s);
            }
            if let Ok(shape) = t.parse::<Shape>() {
                prop_assert_eq!(shape.to_string().parse::<Shape>().unwrap(), shape);
            }
        }
    }

    /// A shape written as a picture parses back to itself.
    #[test]
    fn shapes_round_trip(shape in arbitrary_shape()) {
        let text = shape.to_string();
        prop_assert_eq!(text.parse::<Shape>().unwrap(), shape);
    }

    /// Leapers written as `R,S` parse back to themselves.
    #[test]
    fn leapers_round_trip(r in 0u32..=MAX_LEAP, s in 1u32..=MAX_LEAP) {
        let (r, s) = (r.min(s), r.max(s));
        let l = Leaper::new(r, s).unwrap();
        prop_assert_eq!(l.to_string().parse::<Leaper>().unwrap(), l);
    }
}

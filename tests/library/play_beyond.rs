//! The game of `knightnet play` beyond the knight on a whole plane board: any leaper, a
//! cylinder or a torus, a board with holes. Its moves are checked against the moves
//! computed here from the definitions (a leap, wrapped modulo the sides); its
//! dead-position warning, completion and hint against a plain exhaustive search of the
//! played positions' completions on small boards.

use std::collections::BTreeSet;

use knightnet::board::Board;
use knightnet::geometry::{Geometry, Leaper, Shape, Surface};
use knightnet::puzzle::complete::{Completion, Hint, complete_on, hint_on};
use knightnet::puzzle::{Field, Game, MoveError, Verdict, check_on};
use rand::Rng as _;
use rand::seq::IndexedRandom;

fn field(rows: usize, cols: usize, holes: &[u32], leaper: Leaper, surface: Surface) -> Field {
    let shape = Shape::new(Board::new(rows, cols).unwrap(), holes.iter().copied()).unwrap();
    Field::new(Geometry::new(shape, leaper, surface)).unwrap()
}

/// The leaper's moves from `square`, from the definition: `(±r, ±s)` and `(±s, ±r)`,
/// wrapped on the surface's sides, holes and the square itself left out.
fn moves_by_definition(f: &Field, square: u32) -> BTreeSet<u32> {
    let g = f.geometry();
    let b = g.board();
    let (r, s) = (g.leaper().r() as i64, g.leaper().s() as i64);
    let (row, col) = b.coords(square);
    let mut out = BTreeSet::new();
    for (dr, dc) in [(r, s), (s, r)] {
        for (sr, sc) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (mut y, mut x) = (row as i64 + sr * dr, col as i64 + sc * dc);
            let (h, w) = (b.rows() as i64, b.cols() as i64);
            if g.surface().wraps_rows() {
                y = y.rem_euclid(h);
            }
            if g.surface().wraps_cols() {
                x = x.rem_euclid(w);
            }
            if (0..h).contains(&y) && (0..w).contains(&x) {
                let t = b.index(y as usize, x as usize);
                if t != square && !f.is_hole(t) {
                    out.insert(t);
                }
            }
        }
    }
    out
}

/// Whether some completion of `game`'s path visits every remaining square: plain
/// depth-first search, no pruning (the oracle of the checks below), at most `budget`
/// moves tried (`None` when they run out).
fn completable_within(game: &mut Game, budget: &mut u64) -> Option<bool> {
    if game.is_complete() {
        return Some(true);
    }
    for s in game.legal_moves() {
        *budget = budget.checked_sub(1)?;
        game.play(s).unwrap();
        let ok = completable_within(game, budget);
        game.undo();
        if ok != Some(false) {
            return ok;
        }
    }
    Some(false)
}

fn completable(game: &mut Game) -> Option<bool> {
    completable_within(game, &mut 20_000_000)
}

/// Small geometries of every kind: wrapped moves, leapers other than the knight, holes.
fn small_fields() -> Vec<Field> {
    vec![
        field(4, 4, &[], Leaper::KNIGHT, Surface::Torus),
        field(3, 5, &[], Leaper::KNIGHT, Surface::Torus),
        field(4, 5, &[], Leaper::KNIGHT, Surface::Cylinder),
        field(4, 5, &[], Leaper::ZEBRA, Surface::Torus),
        field(4, 5, &[], Leaper::GIRAFFE, Surface::Cylinder),
        field(4, 5, &[6, 13], Leaper::KNIGHT, Surface::Plane),
        field(5, 5, &[12], Leaper::KNIGHT, Surface::Plane),
        field(4, 4, &[5], Leaper::new(1, 1).unwrap(), Surface::Torus),
        field(3, 6, &[0, 17], Leaper::KNIGHT, Surface::Cylinder),
    ]
}

#[test]
fn moves_wrap_and_holes_are_never_squares() {
    for f in small_fields() {
        let b = f.board();
        let mut g = Game::on(f.clone());
        let starts = g.legal_moves();
        assert_eq!(starts.len(), f.squares(), "every square but the holes");
        for s in 0..b.squares() as u32 {
            if f.is_hole(s) {
                assert!(!starts.contains(&s));
                assert!(matches!(g.play(s), Err(MoveError::Hole { .. })));
                continue;
            }
            let mut h = Game::on(f.clone());
            h.play(s).unwrap();
            let legal: BTreeSet<u32> = h.legal_moves().into_iter().collect();
            assert_eq!(
                legal,
                moves_by_definition(&f, s),
                "{:?} from {s}",
                f.geometry()
            );
            for t in 0..b.squares() as u32 {
                assert_eq!(h.is_legal(t), legal.contains(&t), "{s} -> {t}");
            }
        }
        let first = starts[0];
        g.play(first).unwrap();
    }
    // The knight from a1 to e6 on 6x6: a move only on the torus (one row down off the
    // bottom edge, two columns left off the left edge, both wrapped).
    let b = Board::new(6, 6).unwrap();
    let (a1, e6) = (b.parse_square("a1").unwrap(), b.parse_square("e6").unwrap());
    let mut torus = Game::on(field(6, 6, &[], Leaper::KNIGHT, Surface::Torus));
    torus.play(a1).unwrap();
    torus.play(e6).unwrap();
    let mut plane = Game::new(b);
    plane.play(a1).unwrap();
    assert!(matches!(
        plane.play(e6),
        Err(MoveError::NotKnightMove { .. })
    ));
    let mut zebra = Game::on(field(6, 6, &[], Leaper::ZEBRA, Surface::Plane));
    zebra.play(a1).unwrap();
    let err = zebra.play(e6).unwrap_err();
    assert_eq!(err.to_string(), "e6 is not a zebra move from a1");
}

/// The knight named through a geometry is the knight's game, move for move.
#[test]
fn the_plain_knight_is_the_knights_game() {
    let b = Board::new(6, 6).unwrap();
    let f = Field::new(Geometry::knight(b)).unwrap();
    assert_eq!(f, Field::knight(b));
    let mut g = Game::on(f);
    let mut k = Game::new(b);
    for s in ["a1", "b3", "c1"] {
        let s = b.parse_square(s).unwrap();
        g.play(s).unwrap();
        k.play(s).unwrap();
        assert_eq!(g.legal_moves(), k.legal_moves());
        assert_eq!(g.verdict(), k.verdict());
    }
    assert_eq!(g, k);
}

/// On sampled positions of small geometries: a dead verdict is never wrong (the plain
/// search finds no completion), the completion is exact (found exactly when one exists,
/// and it plays legally to a complete game), and a hint that claims to complete does.
/// Dead verdicts and live positions both occur.
#[test]
fn dead_check_completion_and_hint_agree_with_exhaustive_search() {
    let mut rng = knightnet::rng_from_seed(29);
    let (mut dead, mut alive, mut impossible, mut undecided) = (0, 0, 0, 0);
    for f in small_fields() {
        for _ in 0..60 {
            let mut g = Game::on(f.clone());
            let starts = g.legal_moves();
            g.play(*starts.choose(&mut rng).unwrap()).unwrap();
            let k = rng.random_range(0..f.squares());
            for _ in 0..k {
                let Some(&s) = g.legal_moves().choose(&mut rng) else {
                    break;
                };
                g.play(s).unwrap();
            }
            let Some(exists) = completable(&mut g.clone()) else {
                undecided += 1;
                continue;
            };
            let verdict = check_on(&f, g.path());
            if verdict.is_dead() {
                dead += 1;
                assert!(!exists, "{:?} {:?}: {verdict:?}", f.geometry(), g.path());
            } else if verdict == Verdict::Alive {
                alive += 1;
            }
            if g.is_complete() {
                continue;
            }
            let attempt = complete_on(&f, g.path(), 10_000_000);
            match attempt.completion {
                Completion::Found(rest) => {
                    assert!(exists);
                    let mut done = g.clone();
                    done.extend(&rest).unwrap();
                    assert!(done.is_complete());
                }
                Completion::Impossible => {
                    impossible += 1;
                    assert!(!exists, "{:?} {:?}", f.geometry(), g.path());
                }
                Completion::Budget => panic!("a small board within the budget"),
            }
            match hint_on(&f, g.path(), 10_000_000) {
                Hint::Completes(s) => {
                    let mut next = g.clone();
                    next.play(s).unwrap();
                    assert_eq!(completable(&mut next), Some(true));
                }
                Hint::None => assert!(!exists),
                Hint::Warnsdorff(_) => panic!("a small board within the budget"),
            }
        }
    }
    assert!(
        dead > 20 && alive > 20 && impossible > dead && undecided < 20,
        "{dead} {alive} {impossible} {undecided}"
    );
}

/// A complete game on a shaped torus: every square but the holes, in legal moves, and
/// its ending told from the leaper's moves (wrapped ones included).
#[test]
fn a_completed_game_skips_the_holes_and_tells_its_ending() {
    let f = field(5, 6, &[7, 22], Leaper::KNIGHT, Surface::Torus);
    let mut g = Game::on(f.clone());
    g.play(0).unwrap();
    let Completion::Found(rest) = complete_on(&f, g.path(), 10_000_000).completion else {
        panic!("a tour of the 5x6 torus with two holes")
    };
    g.extend(&rest).unwrap();
    assert!(g.is_complete());
    assert_eq!(g.path().len(), 28);
    assert_eq!(g.verdict(), Verdict::Complete);
    let (first, last) = (g.path()[0], *g.path().last().unwrap());
    let closes = moves_by_definition(&f, last).contains(&first);
    assert_eq!(
        g.ending().map(|e| e.name()),
        Some(if closes { "closed" } else { "open" })
    );
    // A disconnected leaper: no tour, said before the start.
    let camel = Field::new(Geometry::new(
        Shape::full(Board::new(4, 4).unwrap()),
        Leaper::CAMEL,
        Surface::Plane,
    ))
    .unwrap();
    let v = Game::on(camel.clone()).verdict();
    assert!(matches!(v, Verdict::NoTour { .. }), "{v:?}");
    assert!(v.message(camel.board()).contains("colour"), "{v:?}");
}

//! Classical solvers: every tour they return passes the oracle, on every board from 1x1
//! to 8x8 where a tour of the requested kind exists, and on larger boards; refusals
//! follow the theorems; deterministic solvers repeat themselves; seeded ones reproduce.

use knightnet::board::Board;
use knightnet::existence;
use knightnet::rng_from_seed;
use knightnet::solvers::{Closure, Facts, Outcome, Request, Solution, SolverKind};
use knightnet::tour::validate;

fn request(m: usize, n: usize, closed: bool, start: Option<u32>) -> Request {
    Request {
        board: Board::new(m, n).unwrap(),
        closed: Some(closed).into(),
        start,
        reverse: false,
    }
}

fn solve(kind: &str, req: &Request, seed: u64) -> Solution {
    solve_budget(kind, req, seed, None)
}

fn solve_budget(kind: &str, req: &Request, seed: u64, max_steps: Option<u64>) -> Solution {
    let mut kind: SolverKind = kind.parse().unwrap();
    kind.apply_classical_flags(None, max_steps, None).unwrap();
    let solver = kind.build();
    solver.check(req).unwrap();
    solver.solve(req, &mut rng_from_seed(seed)).unwrap()
}

/// Re-check a returned tour independently of the solver's own call to the oracle.
fn assert_valid(sol: &Solution, req: &Request) {
    let tour = sol.tour().expect("a tour");
    let closed = req.closed == Closure::Closed;
    assert_eq!(validate(req.board, tour.squares(), closed), Ok(()));
    assert_eq!(sol.closed(), tour.is_closed());
    assert!(sol.merge().is_none(), "only network+merge reports a merge");
    if let Some(s) = req.start {
        assert_eq!(tour.start(), s);
    }
}

const ALL: [&str; 13] = [
    "warnsdorff",
    "warnsdorff:roth",
    "warnsdorff:squirrel-cull",
    "warnsdorff:pohl",
    "warnsdorff:first",
    "warnsdorff:random",
    "backtrack",
    "forward-check",
    "forward-check:connectivity",
    "warnsdorff-backtrack",
    "warnsdorff-backtrack:ties",
    "circuit",
    "divide-conquer",
];

#[test]
fn names_round_trip_and_are_listed() {
    let names = SolverKind::names();
    for n in ALL {
        let k: SolverKind = n.parse().unwrap();
        let shown = k.to_string();
        assert!(names.contains(&shown), "{shown} not in names()");
        assert_eq!(shown.parse::<SolverKind>().unwrap(), k);
    }
    for n in &names {
        assert!(
            n.parse::<SolverKind>().is_ok(),
            "{n} listed but not accepted"
        );
    }
    assert_eq!(
        "warnsdorff".parse::<SolverKind>().unwrap().to_string(),
        "warnsdorff:roth"
    );
    for bad in ["warnsdorff:best", "backtrack:x", "circuits", "divide"] {
        assert!(bad.parse::<SolverKind>().is_err(), "{bad} accepted");
    }
}

#[test]
fn complete_solvers_find_every_possible_tour_kind_up_to_8x8() {
    // Complete solvers (search) and constructions: whenever a theorem says a tour of the
    // kind exists, they return one from the corner, and it passes the oracle.
    for m in 1..=8 {
        for n in 1..=8 {
            for closed in [false, true] {
                let req = request(m, n, closed, None);
                let exists = existence::tour_exists(req.board, closed).exists;
                for kind in [
                    "forward-check",
                    "warnsdorff-backtrack",
                    "divide-conquer",
                    "circuit",
                ] {
                    let solver = kind.parse::<SolverKind>().unwrap().build();
                    let checked = solver.check(&req);
                    if !exists {
                        assert!(
                            checked.is_err(),
                            "{kind} accepted impossible {m}x{n} {closed}"
                        );
                        continue;
                    }
                    if kind == "circuit" && !existence::closed_tour(req.board).exists {
                        assert!(checked.is_err());
                        continue;
                    }
                    checked.unwrap();
                    // Clockwise forward checking needs more than 10^8 steps from the
                    // corner of 8x6 (measured); give it a small budget here.
                    let budget = (kind == "forward-check").then_some(2_000_000);
                    let sol = solve_budget(kind, &req, 1, budget);
                    if sol.outcome() == Outcome::GaveUp {
                        assert_eq!(kind, "forward-check");
                        continue;
                    }
                    // A corner start may have no open tour on thin boards (3xn):
                    // search reports exhaustion honestly, which is also correct.
                    if sol.tour().is_none() {
                        assert_eq!(
                            sol.outcome(),
                            Outcome::Exhausted,
                            "{kind} {m}x{n} closed={closed}"
                        );
                        assert!(m.min(n) <= 4, "{kind} failed on {m}x{n}");
                        continue;
                    }
                    assert_valid(&sol, &req);
                }
            }
        }
    }
}

#[test]
fn every_solver_tour_passes_the_oracle_on_small_boards() {
    for m in 1..=8 {
        for n in 1..=8 {
            let board = Board::new(m, n).unwrap();
            if !existence::open_tour(board).exists {
                continue;
            }
            for kind in ALL {
                if kind == "circuit" && !existence::closed_tour(board).exists {
                    continue;
                }
                let req = request(m, n, false, None);
                let search =
                    ["backtrack", "forward-check"].contains(&kind.split(':').next().unwrap());
                let sol = solve_budget(kind, &req, 7, search.then_some(2_000_000));
                match &sol.tour() {
                    Some(_) => assert_valid(&sol, &req),
                    None => assert!(
                        [
                            Outcome::Stuck,
                            Outcome::Exhausted,
                            Outcome::ExhaustedTies,
                            Outcome::GaveUp
                        ]
                        .contains(&sol.outcome()),
                        "{kind} {m}x{n}: {}",
                        sol.outcome()
                    ),
                }
            }
        }
    }
}

#[test]
fn solvers_succeed_from_every_start_on_8x8_where_complete() {
    for s in 0..64 {
        for kind in [
            "warnsdorff:roth",
            "warnsdorff-backtrack",
            "divide-conquer",
            "circuit",
        ] {
            let req = request(8, 8, false, Some(s));
            let sol = solve(kind, &req, 1);
            assert_valid(&sol, &req);
        }
        let req = request(8, 8, true, Some(s));
        for kind in ["divide-conquer", "circuit", "warnsdorff-backtrack"] {
            let sol = solve(kind, &req, 1);
            assert_valid(&sol, &req);
            assert!(sol.closed(), "{kind}");
        }
    }
}

#[test]
fn larger_boards() {
    for (m, n) in [(10, 10), (12, 15), (50, 50), (9, 31), (33, 17)] {
        for kind in [
            "warnsdorff",
            "warnsdorff:squirrel-cull",
            "warnsdorff-backtrack",
            "divide-conquer",
        ] {
            let req = request(m, n, false, None);
            let sol = solve(kind, &req, 3);
            if kind == "warnsdorff:squirrel-cull" && m != n {
                continue; // outside the table's design domain
            }
            assert_valid(&sol, &req);
        }
        if existence::closed_tour(Board::new(m, n).unwrap()).exists {
            for kind in ["divide-conquer", "circuit"] {
                let req = request(m, n, true, Some((m * n / 2) as u32));
                let sol = solve(kind, &req, 3);
                assert_valid(&sol, &req);
            }
        }
    }
}

#[test]
fn divide_conquer_covers_every_board_shape() {
    // Every pair of band sizes meets somewhere in 3..=40; each board is checked for
    // closed tours where Schwenk allows, open tours otherwise, from the corner and
    // from a middle square.
    for m in 3..=40 {
        for n in 3..=40 {
            let board = Board::new(m, n).unwrap();
            let closed = existence::closed_tour(board).exists;
            if !existence::open_tour(board).exists {
                continue;
            }
            let mid = board.index(
                m / 2,
                n / 2 - (m / 2 + n / 2) % 2 * usize::from(m * n % 2 == 1),
            );
            // Thin boards: a middle start may have no tour, and proving that takes
            // the fallback search's whole budget; keep those to short boards.
            // (On 4 x n the middle is an inner line, refused by the outer-line rule.)
            let starts = if m.min(n) == 4 || (m.min(n) == 3 && m.max(n) > 10) {
                vec![None]
            } else {
                vec![None, Some(mid)]
            };
            for start in starts {
                let req = request(m, n, closed, start);
                if let Some(s) = start
                    && !existence::tour_exists_from(board, s, closed).exists
                {
                    // Refused up front (the thin-board start rules), not searched.
                    let kind: SolverKind = "divide-conquer".parse().unwrap();
                    assert!(kind.build().check(&req).is_err(), "{m}x{n} {start:?}");
                    continue;
                }
                let sol = solve("divide-conquer", &req, 1);
                if m.min(n) <= 4 && !closed && sol.tour().is_none() {
                    // Thin boards: some start squares have no open tour at all.
                    assert_eq!(sol.outcome(), Outcome::Exhausted, "{m}x{n} {start:?}");
                    continue;
                }
                if start.is_none() || m.min(n) >= 5 {
                    assert!(sol.tour().is_some(), "{m}x{n} {start:?}: {}", sol.outcome());
                }
                assert_valid(&sol, &req);
            }
        }
    }
}

#[test]
fn divide_conquer_builds_huge_boards() {
    for n in [100, 101, 1000] {
        let req = request(n, n, n % 2 == 0, None);
        let sol = solve("divide-conquer", &req, 1);
        assert_valid(&sol, &req);
    }
}

#[test]
fn deterministic_solvers_repeat_and_random_reproduces_from_seed() {
    let req = request(8, 8, false, Some(27));
    for kind in ALL {
        let search = ["backtrack", "forward-check"].contains(&kind.split(':').next().unwrap());
        let budget = search.then_some(1_000_000);
        let a = solve_budget(kind, &req, 5, budget);
        let b = solve_budget(kind, &req, 5, budget);
        assert_eq!(a.tour(), b.tour(), "{kind}");
        assert_eq!(a.steps, b.steps, "{kind}");
    }
    // Different seeds give different random tours (value stability of the stream).
    let tours: std::collections::HashSet<Vec<u32>> = (0..10)
        .filter_map(|seed| solve("warnsdorff:random", &req, seed).into_tour())
        .map(|t| t.into_squares())
        .collect();
    assert!(tours.len() > 5);
}

#[test]
fn failures_are_outcomes() {
    // Warnsdorff with clockwise ties fails from e3 on 8x8 (anchors sec. 1c).
    let req = request(8, 8, false, Some(Board::new(8, 8).unwrap().index(5, 4)));
    let sol = solve("warnsdorff:first", &req, 1);
    assert!(sol.tour().is_none());
    assert_eq!(sol.outcome(), Outcome::Stuck);
    let Facts::Warnsdorff(facts) = sol.facts else {
        panic!("warnsdorff reports its walk")
    };
    assert!(facts.visited < 64);
    // Squirrel–Cull from the corner of 74x74 gets stuck (Ganzfried 2004).
    let sol = solve("warnsdorff:squirrel-cull", &request(74, 74, false, None), 1);
    assert_eq!(sol.outcome(), Outcome::Stuck);
    // A tiny step budget gives up with the count of steps.
    let mut kind: SolverKind = "backtrack".parse().unwrap();
    kind.apply_classical_flags(None, Some(1000), None).unwrap();
    let sol = kind
        .build()
        .solve(&request(8, 8, false, None), &mut rng_from_seed(1))
        .unwrap();
    assert_eq!(sol.outcome(), Outcome::GaveUp);
    assert_eq!(sol.steps, Some(1000));
    // The tie-point search is incomplete: it can exhaust where tours exist.
    let sol = solve("warnsdorff-backtrack", &request(3, 4, false, None), 1);
    assert!(sol.tour().is_some());
    // No open tour of 3x4 starts from square 1 (exhaustive search says so): refused
    // before any search, naming the square.
    let kind: SolverKind = "forward-check".parse().unwrap();
    let err = kind
        .build()
        .check(&request(3, 4, false, Some(1)))
        .unwrap_err();
    assert!(err.to_string().contains("b3"), "{err}");
}

#[test]
fn impossible_and_oversized_requests_are_refused_before_work() {
    let refuse = |kind: &str, req: Request| {
        let k: SolverKind = kind.parse().unwrap();
        k.build().check(&req).unwrap_err().to_string()
    };
    let e = refuse("warnsdorff", request(7, 7, true, None));
    assert!(e.contains("Schwenk"), "{e}");
    let e = refuse("divide-conquer", request(4, 4, false, None));
    assert!(e.contains("no knight's tour"), "{e}");
    let e = refuse("forward-check", request(5, 5, false, Some(1)));
    assert!(e.contains("colour"), "{e}");
    let e = refuse("backtrack", request(3000, 3000, false, None));
    assert!(e.contains("too large"), "{e}");
    let e = refuse("circuit", request(5, 5, false, None));
    assert!(e.contains("closed"), "{e}");
    let mut k: SolverKind = "warnsdorff:roth".parse().unwrap();
    k.apply_classical_flags(None, None, Some(3)).unwrap();
    assert!(k.build().check(&request(8, 8, false, None)).is_err());
    let mut k: SolverKind = "circuit".parse().unwrap();
    assert!(k.apply_classical_flags(None, Some(5), None).is_err());
    assert!(
        k.apply_classical_flags(
            Some(knightnet::solvers::warnsdorff::TieBreak::Pohl),
            None,
            None
        )
        .is_err()
    );
}

#[test]
fn reverse_and_rotation_of_closed_tours() {
    let mut req = request(6, 6, true, Some(14));
    let fwd = solve("circuit", &req, 1);
    req.reverse = true;
    let back = solve("circuit", &req, 1);
    assert_valid(&back, &req);
    let (f, b) = (fwd.tour().unwrap(), back.tour().unwrap());
    assert_eq!(f.squares()[1], *b.squares().last().unwrap());
}

#[test]
fn random_restarts_find_closed_tours_by_rejection() {
    let mut kind: SolverKind = "warnsdorff:random".parse().unwrap();
    kind.apply_classical_flags(None, None, Some(200)).unwrap();
    let req = request(8, 8, true, None);
    let sol = kind.build().solve(&req, &mut rng_from_seed(2)).unwrap();
    assert_valid(&sol, &req);
    assert!(sol.attempts >= 1);
}

/// The streamed divide-conquer walk, collected.
fn streamed(req: &Request) -> (Vec<u32>, bool) {
    let cols = req.board.cols();
    let mut squares = Vec::new();
    let s = knightnet::solvers::divide_conquer::DivideConquerSolver
        .stream(req, |r, c| squares.push((r * cols + c) as u32))
        .unwrap();
    assert_eq!(s.squares, squares.len());
    (squares, s.closed)
}

#[test]
fn divide_conquer_stream_is_the_solved_tour() {
    // Square, rectangular, odd x even, odd x odd (open tours only), from corners,
    // middle squares and with --reverse.
    type Case = (usize, usize, Option<(usize, usize)>, bool);
    let cases: &[Case] = &[
        (8, 8, None, false),
        (6, 6, Some((2, 3)), false),
        (10, 10, Some((4, 7)), true),
        (6, 9, None, false),
        (9, 6, Some((8, 5)), true),
        (5, 5, None, false),
        (7, 7, Some((2, 4)), false),
        (9, 11, Some((4, 6)), false),
        (12, 7, None, true),
        (50, 51, Some((25, 30)), false),
        (101, 101, None, false),
        (101, 99, Some((50, 50)), false),
        (64, 200, Some((63, 199)), true),
    ];
    for &(m, n, start, reverse) in cases {
        let board = Board::new(m, n).unwrap();
        let closed = existence::closed_tour(board).exists;
        let req = Request {
            board,
            closed: Some(closed).into(),
            start: start.map(|(r, c)| board.index(r, c)),
            reverse,
        };
        let sol = solve("divide-conquer", &req, 1);
        let (stream, stream_closed) = streamed(&req);
        let tour = sol.tour().expect("a tour");
        assert_eq!(
            stream,
            tour.squares(),
            "{m}x{n} {start:?} reverse {reverse}"
        );
        assert_eq!(stream_closed, tour.is_closed());
        assert_eq!(validate(board, &stream, closed), Ok(()));
    }
}

#[test]
fn divide_conquer_stream_refuses_what_it_does_not_build() {
    use knightnet::error::Error;
    let stream = |req: &Request| {
        knightnet::solvers::divide_conquer::DivideConquerSolver.stream(req, |_, _| {})
    };
    let refused = |req: &Request, needle: &str| {
        let e = stream(req).unwrap_err();
        assert!(matches!(e, Error::Input(_)), "{e}");
        assert!(e.to_string().contains(needle), "{e}");
    };
    // Thin boards: no block construction.
    refused(&request(3, 10, true, None), "both sides at least 5");
    refused(&request(4, 9, false, None), "both sides at least 5");
    // 11x11 from the centre: the odd block cannot be placed around it.
    refused(&request(11, 11, false, Some(60)), "does not cover");
    // Impossible requests are refused by the theorems first.
    refused(&request(7, 7, true, None), "closed");
    // The open 7x7 path cannot be reversed to start at its first square.
    let mut req = request(7, 7, false, Some(0));
    req.reverse = true;
    refused(&req, "cannot be started");
}

// ---- watch mode runs what solve runs ----

use knightnet::puzzle::watch::{Status, Stepper, View, WatchKind};

/// Step a watcher to the end, checking that every step of a path view places or takes
/// back exactly one knight (a network step is one iteration). Returns the result, the
/// number of steps and the squares placed.
fn watch_to_end(w: &mut dyn Stepper) -> (Result<Solution, knightnet::error::InputError>, u64) {
    let mut placed = 0u64;
    let mut last = match w.view() {
        View::Path(p) => p.len(),
        View::Edges { .. } => 0,
    };
    let mut steps = 0u64;
    while w.status().is_running() {
        w.step();
        steps += 1;
        if let View::Path(p) = w.view() {
            match p.len() as i64 - last as i64 {
                1 => placed += 1,
                -1 => {}
                0 => assert!(!w.status().is_running(), "a step that moved no knight"),
                d => panic!("one step moved {d} knights"),
            }
            last = p.len();
        }
    }
    assert!(w.steps() <= steps && w.steps() + 1 >= steps);
    let Status::Done(result) = w.status().clone() else {
        unreachable!()
    };
    if let (Ok(sol), View::Path(_)) = (&result, w.view()) {
        // Each square placed is one step of the solver's own count.
        if sol.solver().family().name() != "warnsdorff" || sol.tour().is_some() {
            assert_eq!(Some(placed), sol.steps, "{}", sol.solver());
        }
    }
    (result, w.steps())
}

/// For every solver watch mode offers, on 5x5, 6x6, 8x8, 3x10 and 12x12, from two starts and
/// two seeds: stepping the watcher to the end gives what `solve` gives with the same
/// board, start and seed (the same tour or the same failure, the same step and
/// iteration counts), and a request `solve` refuses is refused with the same message.
#[test]
fn watching_a_solver_is_solving_with_it() {
    let mut compared = 0;
    let mut outcomes = std::collections::BTreeSet::new();
    // 12x12: `solve` runs the network in the batched engine there.
    for (m, n) in [(5, 5), (6, 6), (8, 8), (3, 10), (12, 12)] {
        let board = Board::new(m, n).unwrap();
        for watch in WatchKind::all() {
            let mut kind = watch.kind().clone();
            let search = matches!(
                kind,
                SolverKind::Backtrack { .. }
                    | SolverKind::ForwardCheck { .. }
                    | SolverKind::WarnsdorffBacktrack { .. }
            );
            let network = matches!(kind, SolverKind::Network(_));
            if search {
                // Small enough to finish quickly, large enough that some runs succeed.
                kind.apply_classical_flags(None, Some(300_000), None)
                    .unwrap();
            }
            if let SolverKind::Network(p) = &mut kind {
                // Enough for tours and failures, few enough to be quick.
                p.max_attempts = 40;
            }
            let watch = WatchKind::new(kind.clone()).unwrap();
            let starts: &[u32] = if network {
                &[0]
            } else {
                &[0, board.index(1, 2)]
            };
            for &start in starts {
                for seed in [1, 2] {
                    let req = Request {
                        board,
                        closed: Closure::SolverDefault,
                        start: (!network).then_some(start),
                        reverse: false,
                    };
                    let solver = kind.build();
                    let solved = solver
                        .check(&req)
                        .and_then(|()| solver.solve(&req, &mut rng_from_seed(seed)));
                    let watched = watch
                        .build(board, &[], start, seed)
                        .map(|mut w| watch_to_end(w.as_mut()));
                    let what = format!("{kind} on {board} from {start}, seed {seed}");
                    match (solved, watched) {
                        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{what}"),
                        (Ok(s), Ok((Ok(w), steps))) => {
                            assert_eq!(s.outcome(), w.outcome(), "{what}");
                            assert_eq!(
                                s.tour().map(|t| t.squares().to_vec()),
                                w.tour().map(|t| t.squares().to_vec()),
                                "{what}"
                            );
                            assert_eq!(s.steps, w.steps, "{what}");
                            assert_eq!(s.iterations, w.iterations, "{what}");
                            assert_eq!(s.attempts, w.attempts, "{what}");
                            assert_eq!(s.closed(), w.closed(), "{what}");
                            assert_eq!(s.solver(), w.solver(), "{what}");
                            if network {
                                assert_eq!(steps, s.iterations, "{what}");
                            }
                            outcomes.insert(s.outcome().to_string());
                            compared += 1;
                        }
                        (s, w) => panic!("{what}: solve {s:?}, watch {w:?}"),
                    }
                }
            }
        }
    }
    println!("{compared} runs compared, outcomes {outcomes:?}");
    // Tours, search failures (budget, exhaustion) and network failures all occurred.
    assert!(compared > 100, "{compared}");
    for o in ["tour", "gave-up", "stuck"] {
        assert!(outcomes.contains(o), "{o} never seen: {outcomes:?}");
    }
}

// ---- one Warnsdorff–Roth order ----

/// The search of `warnsdorff-backtrack` and the `roth` walk share one definition of
/// Warnsdorff–Roth's order (`solvers::warnsdorff::roth`). On every start of the boards
/// 5x5..12x12 and 5x6..12x13, the search's first descent is the walk, move for move,
/// until the walk steps into a square with no onward move before the last square (the
/// search skips such a move: the one place where they differ, and not in the order); a
/// walk that completes is the search's tour with no backtrack.
#[test]
fn the_search_descends_as_the_roth_walk() {
    use knightnet::solvers::search::{Search, Step};
    use knightnet::solvers::warnsdorff::{self, TieBreak};
    use knightnet::solvers::warnsdorff_backtrack::WarnsdorffBacktrackSolver;
    let (mut complete, mut dead_ends, mut compared) = (0, 0, 0u64);
    for n in 5..=12 {
        for (m, cols) in [(n, n), (n, n + 1)] {
            for start in 0..(m * cols) as u32 {
                let req = request(m, cols, false, Some(start));
                let board = req.board;
                let walk =
                    warnsdorff::run(board, start, TieBreak::Roth, &mut rng_from_seed(1)).path;
                let cfg = WarnsdorffBacktrackSolver::new(false).config(&req);
                let mut search = Search::owned(board, &[start], cfg);
                let mut visited = vec![false; board.squares()];
                visited[start as usize] = true;
                for (i, &t) in walk.iter().enumerate().skip(1) {
                    let onward = board
                        .knight_moves(t)
                        .filter(|&u| !visited[u as usize])
                        .count();
                    if onward == 0 && i + 1 < board.squares() {
                        dead_ends += 1;
                        break;
                    }
                    let step = search.step();
                    assert!(
                        step == Step::Placed(t) || step == Step::Tour(t),
                        "{board} from {start}, move {i}: walk {t}, search {step:?}"
                    );
                    visited[t as usize] = true;
                    compared += 1;
                }
                if walk.len() == board.squares() {
                    complete += 1;
                    assert_eq!(search.path(), &walk[..]);
                    assert_eq!(search.backtracks, 0);
                }
            }
        }
    }
    println!("{compared} moves compared, {complete} complete walks, {dead_ends} dead ends");
    assert!(complete > 1000 && dead_ends > 0, "{complete} {dead_ends}");
}

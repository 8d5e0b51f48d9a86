//! Open tours by the network: the open graph (the knight's graph plus an apex joined to
//! every square) and its tours. The fast engines agree with the dense oracle on it, the
//! batched engine with the scalar one, every tour passes the open-tour oracle, a held
//! start square is where the tour starts, and closed runs are what they were.

mod common;

use common::engines::{any_order, fast_matches_dense, lanes_match_scalar};
use common::{assert_refused, json_of, knightnet, tour_of};
use knightnet::board::Board;
use knightnet::existence;
use knightnet::graph::{KnightGraph, Tours};
use knightnet::network::{
    batch, Dynamics, Init, Network, NetworkParams, Preset, State, UpdateOrder,
};
use knightnet::rng_from_seed;
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::{Request, Solution, Solver};
use knightnet::tour::validate;
use proptest::prelude::*;

fn board(s: &str) -> Board {
    s.parse().unwrap()
}

fn open_request(b: Board, start: Option<u32>) -> Request {
    Request {
        closed: Some(false),
        start,
        ..Request::new(b)
    }
}

/// The parberry preset with room for many attempts: per-attempt open-tour rates on the
/// boards below are at least a few percent (experiments/open-tours.toml), so a failure
/// within this many attempts would mean the network stopped finding open tours.
fn patient() -> NetworkSolver {
    NetworkSolver::new(NetworkParams {
        max_attempts: 3000,
        ..Preset::Parberry.params()
    })
}

/// The open tour of a solution, checked by the oracle as an open tour of `b`.
fn checked_open_tour(sol: &Solution, b: Board) -> Vec<u32> {
    assert!(!sol.closed, "an open run reports an open tour");
    assert_eq!(sol.extra["graph"], "open");
    let tour = sol.tour.as_ref().expect("a tour within the attempt cap");
    assert!(!tour.is_closed());
    assert_eq!(validate(b, tour.squares(), false), Ok(()));
    tour.squares().to_vec()
}

#[test]
fn open_graph_is_the_knight_graph_plus_an_apex() {
    for b in ["1x1", "3x4", "5x5", "4x7", "8x8"].map(board) {
        let knight = KnightGraph::new(b);
        let n = b.squares();
        for start in [None, Some(n as u32 - 1)] {
            let g = KnightGraph::open(b, start);
            assert_eq!(g.tours(), Tours::Open { start });
            assert_eq!(g.vertices(), n + 1);
            assert_eq!(g.apex(), Some(n as u32));
            assert_eq!(g.edges(), knight.edges() + n);
            // The knight moves keep their neurons' numbers; square s's apex edge follows.
            for e in 0..knight.edges() {
                assert_eq!(g.endpoints(e), knight.endpoints(e));
            }
            for s in 0..n as u32 {
                assert_eq!(g.endpoints(knight.edges() + s as usize), (s, n as u32));
                assert_eq!(g.degree(s), knight.degree(s) + 1);
                assert_eq!(
                    g.edge_between(s, n as u32),
                    Some(knight.edges() + s as usize)
                );
            }
            assert_eq!(g.degree(n as u32), n);
            let held: Vec<u32> = start
                .map(|s| (knight.edges() + s as usize) as u32)
                .into_iter()
                .collect();
            assert_eq!(g.held(), &held[..]);
        }
    }
}

#[test]
fn a_cycle_through_the_apex_is_cut_into_the_open_tour() {
    // An open tour of 3x4 (row-major squares), from square 0 to square 4.
    let b = board("3x4");
    let path = vec![0u32, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4];
    let apex = 12;
    for start in [None, Some(0), Some(4)] {
        let g = KnightGraph::open(b, start);
        // The cycle as classification lists it: rotated and in either direction.
        let mut cycle = vec![apex];
        cycle.extend(&path);
        for turn in 0..cycle.len() {
            for reversed in [false, true] {
                let mut c = cycle.clone();
                c.rotate_left(turn);
                if reversed {
                    c.reverse();
                }
                let tour = g.tour_from_cycle(c).unwrap();
                assert!(!tour.is_closed());
                let expected_start = start.unwrap_or(tour.squares()[0]);
                assert_eq!(tour.start(), expected_start);
                let mut ends = [tour.squares()[0], tour.squares()[11]];
                ends.sort();
                assert_eq!(ends, [0, 4], "the apex's neighbours are the ends");
            }
        }
    }
    // A cycle that is not a tour is refused by the oracle.
    let g = KnightGraph::open(b, None);
    assert!(g.tour_from_cycle(vec![apex, 0, 6, 8]).is_err());
}

#[test]
fn the_network_finds_open_tours_on_odd_even_and_thin_boards() {
    for b in [
        "5x5", "7x7", "6x6", "8x8", "5x8", "3x4", "3x10", "4x5", "4x11",
    ]
    .map(board)
    {
        for seed in 0..3 {
            let sol = patient()
                .solve(&open_request(b, None), &mut rng_from_seed(seed))
                .unwrap();
            checked_open_tour(&sol, b);
        }
    }
}

#[test]
fn a_held_start_square_is_where_the_tour_starts() {
    for b in ["5x5", "7x7", "6x6", "3x10", "4x7"].map(board) {
        let n = b.squares() as u32;
        // Squares spread over the board, those an open tour can start on.
        let starts = (0..n)
            .step_by(5)
            .filter(|&s| existence::tour_exists_from(b, s, false).exists);
        for (k, start) in starts.enumerate() {
            let sol = patient()
                .solve(&open_request(b, Some(start)), &mut rng_from_seed(k as u64))
                .unwrap();
            let squares = checked_open_tour(&sol, b);
            assert_eq!(squares[0], start, "{b} from {}", b.square_name(start));
        }
    }
}

#[test]
fn the_held_neuron_stays_on_and_is_never_updated() {
    let b = board("6x6");
    let g = KnightGraph::open(b, Some(14));
    let held = g.held()[0] as usize;
    for preset in [Preset::Parberry, Preset::Brant, Preset::TakefujiLee] {
        let params = preset.params();
        for seed in 0..10 {
            let state = State::random(&g, &params, &mut rng_from_seed(seed));
            let u0 = state.u[held];
            let mut d = Dynamics::new(&g, params, state);
            for _ in 0..50 {
                d.step();
                assert_eq!(d.state.v[held], 1);
                assert_eq!(d.state.u[held], u0);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On the open graph, with or without a held start, the O(E) update and the dense
    /// E×E mask give identical U and V after every step, for every order and rule.
    #[test]
    fn open_graph_engine_matches_dense_oracle(
        rows in 3usize..8, cols in 3usize..8, seed in any::<u64>(),
        order in any_order(),
        init in prop_oneof![Just(Init::RandomOutputs), Just(Init::NegativeStates)],
        c in 1i32..6, s in 0i32..4, clamp in prop::option::of(4i32..12),
        start in prop::option::of(any::<u32>()),
    ) {
        let b = Board::new(rows, cols).unwrap();
        let graph = KnightGraph::open(b, start.map(|x| x % b.squares() as u32));
        let params = NetworkParams { c, s, order, init, clamp, ..Preset::Parberry.params() };
        let state = State::random(&graph, &params, &mut rng_from_seed(seed));
        fast_matches_dense(&graph, params, state, 40)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every open-graph attempt run in a lane equals the same attempt run alone, with
    /// every kernel set this CPU has, when the batched engine supports the parameters.
    #[test]
    fn open_lanes_reproduce_scalar_attempts(
        rows in 3usize..9, cols in 3usize..9, base in any::<u64>(),
        order in prop_oneof![Just(UpdateOrder::Synchronous), Just(UpdateOrder::Sequential), Just(UpdateOrder::SquareSweep)],
        preset in prop_oneof![Just(Preset::Parberry), Just(Preset::Brant), Just(Preset::Numpy), Just(Preset::Wikipedia)],
        cap in 1u32..60, start in prop::option::of(any::<u32>()),
    ) {
        let b = Board::new(rows, cols).unwrap();
        let graph = KnightGraph::open(b, start.map(|x| x % b.squares() as u32));
        let params = NetworkParams { order, max_iterations: cap, ..preset.params() };
        prop_assert!(batch::supports(&graph, &params), "caps below 60 fit 16 bits on these boards");
        lanes_match_scalar(&graph, params, base, 40)?;
    }
}

#[test]
fn batched_open_solve_equals_scalar_open_solve() {
    for (b, start) in [
        ("6x6", None),
        ("5x5", Some(0)),
        ("4x9", Some(9)),
        ("8x8", None),
    ] {
        let b = board(b);
        let graph = KnightGraph::open(b, start);
        let p = NetworkParams {
            max_iterations: 80,
            ..Preset::Parberry.params()
        };
        assert!(batch::supports(&graph, &p));
        for seed in 0..4 {
            let scalar = Network::new(&graph, p)
                .unwrap()
                .solve(&mut rng_from_seed(seed));
            let batched = batch::solve(&graph, p, &mut rng_from_seed(seed)).unwrap();
            assert_eq!(scalar.tour, batched.tour, "{b} seed {seed}");
            assert_eq!(scalar.attempts, batched.attempts);
            assert_eq!(scalar.total_iterations, batched.total_iterations);
            assert_eq!(scalar.last, batched.last);
            if let Some(t) = &scalar.tour {
                assert_eq!(validate(b, t.squares(), false), Ok(()));
                assert!(start.is_none_or(|s| t.start() == s));
            }
        }
    }
}

#[test]
fn the_solver_says_which_engine_ran_an_open_board() {
    // 12x12 is where single solves use the batched engine. The presets' 1000-iteration
    // cap with the apex's 144 edges cannot be bounded in 16 bits: the scalar engine runs.
    let b = board("12x12");
    let graph = KnightGraph::open(b, None);
    assert!(!batch::supports(&graph, &Preset::Parberry.params()));
    assert!(batch::supports(
        &KnightGraph::new(b),
        &Preset::Parberry.params()
    ));
    let short = NetworkParams {
        max_iterations: 100,
        ..Preset::Parberry.params()
    };
    assert!(batch::supports(&graph, &short));
    for (params, engine) in [(Preset::Parberry.params(), "scalar"), (short, "batched")] {
        let solver = NetworkSolver::new(NetworkParams {
            max_attempts: 500,
            ..params
        });
        let sol = solver
            .solve(&open_request(b, None), &mut rng_from_seed(3))
            .unwrap();
        assert_eq!(sol.extra["engine"], engine);
        checked_open_tour(&sol, b);
    }
}

#[test]
fn closed_runs_are_unchanged() {
    for b in ["6x6", "8x8", "6x7"].map(board) {
        let g = KnightGraph::new(b);
        let same = KnightGraph::for_tours(b, Tours::Closed);
        assert_eq!((&g.a, &g.b), (&same.a, &same.b));
        assert_eq!(g.incident_all(), same.incident_all());
        assert!(g.held().is_empty() && g.apex().is_none());
        assert_eq!(g.vertices(), b.squares());
        let solver = NetworkSolver::new(Preset::Parberry.params());
        for seed in 0..3 {
            // No closedness asked (the network's default) and closed asked: one run.
            let default = solver
                .solve(&Request::new(b), &mut rng_from_seed(seed))
                .unwrap();
            let closed = solver
                .solve(
                    &Request {
                        closed: Some(true),
                        ..Request::new(b)
                    },
                    &mut rng_from_seed(seed),
                )
                .unwrap();
            assert_eq!(default.tour, closed.tour);
            assert_eq!(default.extra, closed.extra);
            assert!(default.closed && !default.extra.contains_key("graph"));
            let tour = default.tour.unwrap();
            assert_eq!(validate(b, tour.squares(), true), Ok(()));
            // The scalar run on the knight's graph is the solver's run.
            let run = Network::new(&g, Preset::Parberry.params())
                .unwrap()
                .solve(&mut rng_from_seed(seed));
            assert_eq!(run.attempts as u64, default.attempts);
        }
    }
}

#[test]
fn cli_prints_a_verified_open_tour_of_7x7() {
    let out = knightnet(&["solve", "--solver", "network", "--board", "7x7", "--open"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("open tour"), "{text}");
    for (name, extra) in [
        ("7x7", vec![]),
        ("5x5", vec!["--start", "a1"]),
        ("3x10", vec![]),
        ("4x11", vec!["--start", "c1"]),
    ] {
        let mut args = vec![
            "solve", "--solver", "network", "--board", name, "--open", "--format", "json",
        ];
        args.extend(extra.iter().copied());
        let doc = json_of(&args);
        assert_eq!(doc["closed"], false);
        assert_eq!(doc["graph"], "open");
        let (b, squares) = tour_of(&doc);
        assert_eq!(b, board(name));
        assert_eq!(validate(b, &squares, false), Ok(()));
        if let Some(s) = extra.get(1) {
            assert_eq!(squares[0], b.parse_square(s).unwrap());
        }
    }
}

#[test]
fn cli_refuses_bad_open_requests_in_one_line() {
    let net = ["solve", "--solver", "network"];
    let with = |more: &[&'static str]| [&net[..], more].concat();
    assert_refused(&with(&["--board", "4x4", "--open"]), "no knight's tour");
    assert_refused(&with(&["--board", "1x1", "--open"]), "single square");
    assert_refused(
        &with(&["--board", "5x5", "--open", "--start", "b1"]),
        "colour",
    );
    assert_refused(
        &with(&["--board", "5x5", "--open", "--start", "a1", "--reverse"]),
        "--reverse",
    );
    assert_refused(&with(&["--board", "7x7"]), "--open");
}

#[test]
fn an_open_trace_is_written_and_the_drawing_commands_refuse_it_by_name() {
    let path =
        std::env::temp_dir().join(format!("knightnet-open-trace-{}.json", std::process::id()));
    let p = path.to_str().unwrap();
    let out = knightnet(&["solve", "--board", "5x5", "--open", "--trace", p]);
    assert!(out.status.success());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["graph"], "open");
    assert_eq!(doc["apex"], 25);
    assert_eq!(doc["neurons"].as_array().unwrap().len(), 48 + 25);
    assert_refused(&["animate", "--trace", p, "--out", "x.gif"], "open graph");
    assert_refused(
        &["convergence", "--trace", p, "--out", "x.png"],
        "open graph",
    );
    std::fs::remove_file(&path).unwrap();
}

fn spec(entry: &str) -> Result<knightnet::experiment::spec::Spec, String> {
    let text = format!("trials = 20\nboards = [\"7x7\", \"3x10\"]\n[[solver]]\n{entry}\n");
    knightnet::experiment::spec::Spec::parse(&text, "t", "t.toml").map_err(|e| e.to_string())
}

#[test]
fn specs_take_open_and_a_held_start_for_network_entries_only() {
    let s = spec("solver = \"network:parberry\"\nopen = true\nstart = \"corner\"").unwrap();
    for cell in &s.cells {
        assert!(cell.open);
        assert_eq!(cell.tours(), Tours::Open { start: Some(0) });
        // ROW,COL, so one entry's cells share a variant (figures group by it).
        assert_eq!(cell.variant(), "parberry --open --start 0,0");
    }
    let free = spec("solver = \"network:parberry\"\nopen = true").unwrap();
    assert_eq!(free.cells[0].tours(), Tours::Open { start: None });
    // Without open = true, 7x7 has no closed tour for the network.
    assert!(spec("solver = \"network:parberry\"")
        .unwrap_err()
        .contains("no closed"));
    for (entry, needle) in [
        (
            "solver = \"network:parberry\"\nstart = \"corner\"",
            "open = true",
        ),
        (
            "solver = \"network:parberry\"\nopen = true\nstart = \"random\"",
            "random",
        ),
        ("solver = \"warnsdorff\"\nopen = true", "open"),
        ("solver = \"network+merge\"\nopen = true", "open"),
        (
            "solver = \"network:parberry\"\nopen = true\nstart = \"b1\"",
            "colour",
        ),
    ] {
        let e = spec(entry).unwrap_err();
        assert!(e.contains(needle) && e.contains("line"), "{entry}: {e}");
    }
}

#[test]
fn an_open_experiment_records_verified_open_tours() {
    let dir = std::env::temp_dir().join(format!("knightnet-open-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let spec_path = dir.join("open.toml");
    std::fs::write(
        &spec_path,
        "name = \"open-smoke\"\ntrials = 60\nboards = [\"5x5\", \"4x7\"]\n\
         [[solver]]\nsolver = \"network:parberry\"\nopen = true\nlabel = \"free\"\n\
         [[solver]]\nsolver = \"network:parberry\"\nopen = true\nstart = \"corner\"\nlabel = \"corner\"\n",
    )
    .unwrap();
    let out = dir.join("results");
    let run = knightnet(&[
        "experiment",
        spec_path.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--quiet",
        "--threads",
        "1",
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let records = std::fs::read_to_string(out.join("records.csv")).unwrap();
    let tours = records.lines().filter(|l| l.contains(",tour,")).count();
    assert!(tours > 0, "no open tour in 240 attempts");
    assert!(!records.contains("invalid-tour"));
    // A trial replays as `solve --board BOARD --variant VARIANT --seed SEED
    // --max-attempts 1`, the variant pasted unquoted (it carries --open and --start).
    for line in records.lines().skip(1).take(30) {
        let f: Vec<&str> = line.split(',').collect();
        let (board, variant, seed, outcome) = (f[3], f[5], f[7], f[9]);
        assert!(variant.starts_with("parberry --open"), "{line}");
        let mut args = vec![
            "solve",
            "--board",
            board,
            "--seed",
            seed,
            "--max-attempts",
            "1",
        ];
        args.push("--variant");
        args.extend(variant.split(' '));
        let replay = knightnet(&args);
        assert_eq!(replay.status.success(), outcome == "tour", "{line}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

//! Open tours by the network: the open graph (the knight's graph plus an apex joined to
//! every square) and its tours. The fast engines agree with the dense oracle on it, the
//! batched engine with the scalar one, every tour passes the open-tour oracle, a held
//! start square is where the tour starts, and closed runs are what they were. Open
//! runs and traces are drawn (`animate`, `convergence`: the apex not drawn, squares off
//! degree 2 counted over squares) and compared (`compare --open`).

use crate::common::engines::{any_order, fast_matches_dense, lanes_match_scalar};
use crate::common::{assert_refused, json_of, knightnet, stdout_of, stream_rows, tour_of};
use knightnet::board::Board;
use knightnet::existence;
use knightnet::graph::{KnightGraph, Tours};
use knightnet::network::OutputState;
use knightnet::network::{
    Dynamics, Init, Network, NetworkParams, Preset, State, Termination, UpdateOrder, batch,
};
use knightnet::rng_from_seed;
use knightnet::solvers::network::NetworkSolver;
use knightnet::solvers::{Closure, Request, Solution, Solver};
use knightnet::tour::validate;
use knightnet::trace_file::IterationUnit;
use proptest::prelude::*;

fn board(s: &str) -> Board {
    s.parse().unwrap()
}

fn open_request(b: Board, start: Option<u32>) -> Request {
    Request {
        closed: Closure::Open,
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
    assert!(!sol.closed(), "an open run reports an open tour");
    assert_eq!(serde_json::to_value(&sol.facts).unwrap()["graph"], "open");
    let tour = sol.tour().expect("a tour within the attempt cap");
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
            let u0 = state.u()[held];
            let mut d = Dynamics::new(&g, params, state);
            for _ in 0..50 {
                d.step();
                assert_eq!(d.state().v()[held], 1);
                assert_eq!(d.state().u()[held], u0);
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
        assert_eq!(serde_json::to_value(&sol.facts).unwrap()["engine"], engine);
        checked_open_tour(&sol, b);
    }
}

#[test]
fn closed_runs_are_unchanged() {
    for b in ["6x6", "8x8", "6x7"].map(board) {
        let g = KnightGraph::new(b);
        let same = KnightGraph::for_tours(b, Tours::Closed);
        assert_eq!(
            (g.lower_ends(), g.higher_ends()),
            (same.lower_ends(), same.higher_ends())
        );
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
                        closed: Closure::Closed,
                        ..Request::new(b)
                    },
                    &mut rng_from_seed(seed),
                )
                .unwrap();
            assert_eq!(default.tour(), closed.tour());
            assert_eq!(default.facts, closed.facts);
            let facts = serde_json::to_value(&default.facts).unwrap();
            assert!(default.closed() && facts.get("graph").is_none());
            let tour = default.tour().unwrap();
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

/// A fresh temporary folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("knightnet-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Rows of a figure's CSV (header skipped), split at commas.
fn csv_rows(path: &std::path::Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

/// The squares of a board figure's CSV of kind `kind` (and path `number`), in order.
fn figure_squares(rows: &[Vec<String>], b: Board, kind: &str, number: &str) -> Vec<u32> {
    rows.iter()
        .filter(|r| r[0] == kind && r[1] == number)
        .map(|r| (r[3].parse::<u32>().unwrap()) * b.cols() as u32 + r[4].parse::<u32>().unwrap())
        .collect()
}

/// Squares without exactly two active neurons in `outputs` on `g`, apex excluded,
/// computed from the neurons' endpoints.
fn squares_off(g: &KnightGraph, outputs: &OutputState) -> u32 {
    let mut degree = vec![0; g.vertices()];
    for (e, &on) in outputs.outputs().iter().enumerate() {
        if on {
            let (a, b) = g.endpoints(e);
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
    }
    (0..g.squares()).filter(|&s| degree[s] != 2).count() as u32
}

#[test]
fn an_open_trace_is_drawn_by_animate_and_convergence() {
    let dir = scratch("open-trace");
    let path = dir.join("t.json");
    let p = path.to_str().unwrap();
    let b = board("5x5");
    let a1 = b.parse_square("a1").unwrap();
    let out = knightnet(&[
        "solve", "--board", "5x5", "--open", "--start", "a1", "--trace", p,
    ]);
    assert!(out.status.success());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(doc["graph"], "open");
    assert_eq!(doc["apex"], 25);
    assert_eq!(doc["start"], a1);
    assert_eq!(doc["neurons"].as_array().unwrap().len(), 48 + 25);

    // Read once, typed: the graph, the unit and the ending.
    let t = knightnet::plot::trace::SavedTrace::load(&path).unwrap();
    assert_eq!(t.graph.tours(), Tours::Open { start: Some(a1) });
    assert_eq!(t.termination, Termination::Tour);
    assert_eq!(t.unit, IterationUnit::of(Preset::Parberry.params().order));
    // Squares off degree 2 exclude the apex, which the network's own count includes.
    let raw: Vec<u64> = doc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["off_two"].as_u64().unwrap())
        .collect();
    let mut apex_counted = 0;
    for (i, s) in t.steps.iter().enumerate() {
        assert_eq!(
            s.off_two,
            squares_off(&t.graph, &t.outputs[i + 1]),
            "step {i}"
        );
        let apex_off = raw[i] - s.off_two as u64;
        assert!(apex_off <= 1);
        apex_counted += apex_off;
    }
    assert!(
        apex_counted > 0,
        "the apex starts off degree 2 in a random state"
    );

    // The last frame draws the tour as the open path from the held start; the apex is
    // not drawn.
    let png = dir.join("last.png");
    let text = String::from_utf8_lossy(
        &knightnet(&["animate", "--trace", p, "--out", png.to_str().unwrap()]).stdout,
    )
    .into_owned();
    assert!(text.contains("(tour"), "{text}");
    let rows = csv_rows(&png.with_extension("csv"));
    let path_squares = figure_squares(&rows, b, "path", "0");
    assert_eq!(path_squares[0], a1);
    assert_eq!(validate(b, &path_squares, false), Ok(()));
    assert!(rows.iter().all(|r| r[0] == "path"));

    // An early frame: the squares whose apex neuron is on are listed, and each ringed
    // square is one without two moves, its apex move included.
    let early = dir.join("early.png");
    let ok = knightnet(&[
        "animate",
        "--trace",
        p,
        "--frame",
        "1",
        "--out",
        early.to_str().unwrap(),
    ]);
    assert!(ok.status.success());
    let rows = csv_rows(&early.with_extension("csv"));
    let state = &t.outputs[1];
    let first_apex = t.graph.edges() - 25;
    let joined: Vec<u32> = (0..25u32)
        .filter(|&s| state.outputs()[first_apex + s as usize])
        .collect();
    let mut drawn = figure_squares(&rows, b, "apex-move", "0");
    drawn.sort();
    assert_eq!(drawn, joined);
    assert_eq!(
        figure_squares(&rows, b, "flagged", "0").len() as u32,
        squares_off(&t.graph, state)
    );

    let conv = dir.join("conv.png");
    let ok = knightnet(&["convergence", "--trace", p, "--out", conv.to_str().unwrap()]);
    assert!(ok.status.success());
    let runs = csv_rows(&dir.join("conv-runs.csv"));
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0][4], "tour");
    assert_eq!(runs[0][5], t.steps.len().to_string());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trace_whose_ending_is_not_its_last_state_is_refused() {
    let dir = scratch("open-trace-bad");
    let path = dir.join("t.json");
    let p = path.to_str().unwrap();
    assert!(
        knightnet(&["solve", "--board", "6x6", "--open", "--trace", p])
            .status
            .success()
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let png = dir.join("a.png");
    let g = png.to_str().unwrap();
    for (key, value, needle) in [
        (
            "outcome",
            serde_json::json!("multiple-cycles"),
            "last state shows (tour)",
        ),
        ("outcome", serde_json::json!("stuck"), "not an ending"),
        ("outcome", serde_json::Value::Null, "no 'outcome'"),
        ("apex", serde_json::json!(35), "apex"),
        ("start", serde_json::json!(36), "'start'"),
    ] {
        let mut bad = doc.clone();
        if value.is_null() {
            bad.as_object_mut().unwrap().remove(key);
        } else {
            bad[key] = value;
        }
        let broken = dir.join("broken.json");
        std::fs::write(&broken, bad.to_string()).unwrap();
        let b = broken.to_str().unwrap();
        for cmd in ["animate", "convergence"] {
            let err = assert_refused(&[cmd, "--trace", b, "--out", g], needle);
            assert!(err.contains("broken.json"), "{err}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn animate_draws_an_open_attempt_as_a_path_and_its_cycles() {
    let dir = scratch("open-animate");
    let b = board("7x7");
    let a1 = b.parse_square("a1").unwrap();
    let png = dir.join("mc.png");
    let out = knightnet(&[
        "animate",
        "--board",
        "7x7",
        "--open",
        "--start",
        "a1",
        "--attempt",
        "multiple-cycles",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = csv_rows(&png.with_extension("csv"));
    // The apex's cycle is the open path from a1; with the other cycles it covers every
    // square once, and each cycle closes with a knight move.
    let path = figure_squares(&rows, b, "path", "0");
    assert_eq!(path[0], a1);
    let mut all = path.clone();
    let mut number = 1;
    loop {
        let cycle = figure_squares(&rows, b, "path", &number.to_string());
        if cycle.is_empty() {
            break;
        }
        assert!(b.is_knight_move(cycle[0], *cycle.last().unwrap()));
        all.extend(cycle);
        number += 1;
    }
    assert!(
        number >= 2,
        "a multiple-cycles attempt has a cycle besides the path"
    );
    for w in path.windows(2) {
        assert!(b.is_knight_move(w[0], w[1]));
    }
    all.sort();
    assert_eq!(all, (0..49).collect::<Vec<u32>>());

    assert_refused(
        &[
            "animate",
            "--board",
            "7x7",
            "--start",
            "a1",
            "--out",
            png.to_str().unwrap(),
        ],
        "--open",
    );
    assert_refused(
        &[
            "animate",
            "--board",
            "5x5",
            "--open",
            "--start",
            "b1",
            "--out",
            png.to_str().unwrap(),
        ],
        "colour",
    );
    assert_refused(
        &[
            "animate",
            "--board",
            "4x4",
            "--open",
            "--out",
            png.to_str().unwrap(),
        ],
        "no knight's tour",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn convergence_runs_are_solve_open_attempts() {
    let dir = scratch("open-convergence");
    let conv = dir.join("c.png");
    let out = knightnet(&[
        "convergence",
        "--board",
        "7x7",
        "--open",
        "--runs",
        "12",
        "--out",
        conv.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let runs = csv_rows(&dir.join("c-runs.csv"));
    assert_eq!(runs.len(), 12);
    let trace = dir.join("t.json");
    for run in runs.iter().take(3) {
        let (seed, outcome, iterations) = (&run[2], &run[4], &run[5]);
        // Run i is the first attempt of solve --open with its seed.
        knightnet(&[
            "solve",
            "--board",
            "7x7",
            "--open",
            "--seed",
            seed,
            "--max-attempts",
            "1",
            "--trace",
            trace.to_str().unwrap(),
        ]);
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
        assert_eq!(&doc["outcome"], outcome.as_str());
        assert_eq!(
            doc["steps"].as_array().unwrap().len().to_string(),
            *iterations
        );
    }
    // The squares-off panel counts squares: never more than the 49.
    let header = std::fs::read_to_string(conv.with_extension("csv")).unwrap();
    let col = header
        .lines()
        .next()
        .unwrap()
        .split(',')
        .position(|h| h == "off_two_p90")
        .unwrap();
    for row in csv_rows(&conv.with_extension("csv")) {
        assert!(row[col].parse::<f64>().unwrap() <= 49.0);
    }
    assert_refused(
        &[
            "convergence",
            "--board",
            "7x7",
            "--out",
            conv.to_str().unwrap(),
        ],
        "--open",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn compare_open_races_open_tour_solvers() {
    let doc = json_of(&[
        "compare",
        "--board",
        "7x7",
        "--open",
        "--trials",
        "4",
        "--threads",
        "1",
        "--solvers",
        "network:parberry,warnsdorff:roth,divide-conquer,network+merge:parberry",
        "--format",
        "json",
    ]);
    assert_eq!(doc["open"], true);
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[3]["solver"], "network+merge:parberry");
    assert_eq!(rows[3]["tours"], 4);
    let network = &rows[0];
    assert_eq!(network["solver"], "network:parberry");
    assert_eq!(network["tours"], 4);
    // Each trial replays as solve --open with its seed: the same attempts, an open tour.
    for trial in network["per_trial"].as_array().unwrap().iter().take(2) {
        let seed = trial["seed"].to_string();
        let solved = json_of(&[
            "solve",
            "--solver",
            "network:parberry",
            "--board",
            "7x7",
            "--open",
            "--seed",
            &seed,
            "--format",
            "json",
        ]);
        assert_eq!(solved["attempts"], trial["attempts"]);
        assert_eq!(solved["closed"], false);
        let (b, squares) = tour_of(&solved);
        assert_eq!(validate(b, &squares, false), Ok(()));
    }
    // Without --open the network looks for closed tours, which 7x7 has none of.
    assert_refused(
        &[
            "compare",
            "--board",
            "7x7",
            "--trials",
            "2",
            "--solvers",
            "network",
        ],
        "--open",
    );
    // circuit builds closed tours only.
    let err = assert_refused(
        &[
            "compare",
            "--board",
            "6x6",
            "--open",
            "--trials",
            "2",
            "--solvers",
            "circuit",
        ],
        "closed tours only",
    );
    assert!(err.contains("circuit"), "{err}");
    assert_refused(
        &[
            "compare",
            "--board",
            "4x4",
            "--open",
            "--trials",
            "2",
            "--solvers",
            "network",
        ],
        "no knight's tour",
    );
    // The default solvers with --open: all of them find open tours.
    let doc = json_of(&[
        "compare", "--board", "5x5", "--open", "--trials", "1", "--format", "json",
    ]);
    let names: Vec<&str> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["solver"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"network:parberry") && names.contains(&"divide-conquer"));
    assert!(names.contains(&"network+merge:parberry"), "{names:?}");
    for row in doc["rows"].as_array().unwrap() {
        assert_eq!(row["tours"], 1, "{row}");
    }
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
    assert!(
        spec("solver = \"network:parberry\"")
            .unwrap_err()
            .contains("no closed")
    );
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

/// `network+merge --open` on boards without a closed tour (odd x odd, 3 x n, 4 x n) and
/// with one: the network on the open graph, the other cycles merged into the apex's
/// path, an open tour the oracle accepts, from the start square when one is asked for;
/// the same seed gives the same tour, and the stream walks that tour.
#[test]
fn network_merge_finds_open_tours_from_the_open_graph() {
    for (board, start) in [
        ("7x7", None),
        ("9x9", Some("a1")),
        ("3x10", None),
        ("4x9", Some("a1")),
        ("8x8", Some("d4")),
        ("11x13", None),
    ] {
        for seed in ["1", "2", "3"] {
            let args = [
                "solve",
                "--solver",
                "network+merge",
                "--board",
                board,
                "--open",
                "--seed",
                seed,
            ];
            assert_open_merge_tour(&args, start);
        }
    }
}

/// `args` (a `solve --solver network+merge --open` command) with `--start start` when
/// given: an open tour of the open graph that the oracle accepts, from the start when
/// given, the same for the same seed, and streamed as solved.
fn assert_open_merge_tour(args: &[&str], start: Option<&str>) {
    let mut args = args.to_vec();
    if let Some(s) = start {
        args.extend(["--start", s]);
    }
    let mut json_args = args.clone();
    json_args.extend(["--format", "json"]);
    let v = json_of(&json_args);
    assert_eq!(v["closed"], false, "{args:?}");
    assert_eq!(v["graph"], "open", "{args:?}");
    let (b, squares) = tour_of(&v);
    assert_eq!(validate(b, &squares, false), Ok(()), "{args:?}");
    if let Some(s) = start {
        assert_eq!(squares[0], b.parse_square(s).unwrap(), "{args:?}");
    }
    assert_eq!(json_of(&json_args)["tour"], v["tour"], "{args:?}");
    args.push("--stream");
    let streamed = stream_rows(&stdout_of(&args));
    assert_eq!(&streamed, v["tour"].as_array().unwrap(), "{args:?}");
}

/// Tiled `network+merge --open`: on an odd x odd board the one tile with two odd sides
/// (placed to hold the start) runs on its open graph and the closed tiles' cycles merge
/// into its path; on a board with a closed tour the tiles' closed tour is cut at the
/// start. Every tour passes the oracle as an open tour, starts where asked, repeats with
/// its seed and streams as solved; tilings that cannot work are refused in one line.
#[test]
fn tiled_network_merge_finds_open_tours_on_large_boards() {
    for (board, start) in [
        ("41x41", None),
        ("41x43", Some("4,4")),
        ("45x41", Some("22,30")),
        ("40x40", Some("2,3")),
        ("40x41", None),
    ] {
        let args = [
            "solve",
            "--solver",
            "network+merge",
            "--board",
            board,
            "--open",
            "--tile",
            "10",
        ];
        assert_open_merge_tour(&args, start);
    }
    // An odd tile side would leave several tiles with two odd sides.
    assert_refused(
        &[
            "solve",
            "--solver",
            "network+merge",
            "--board",
            "41x41",
            "--open",
            "--tile",
            "7",
        ],
        "even tile side",
    );
    // 4 x n tiles have no closed cover.
    assert_refused(
        &[
            "solve",
            "--solver",
            "network+merge",
            "--board",
            "4x120",
            "--open",
            "--tile",
            "10",
        ],
        "--tile none",
    );
}

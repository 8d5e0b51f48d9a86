//! The update rule as an extension point (src/network/rules/): the literature's presets
//! run the plain rule exactly as the engine's own loop does, and the two rules of this
//! crate (`noisy`, `local-restart`) run through every front end, are determined by their
//! seed whatever the thread count, and do what their files say.

use crate::common;

use knightnet::board::Board;
use knightnet::compare::Comparison;
use knightnet::experiment::{Record, Spec, records};
use knightnet::graph::KnightGraph;
use knightnet::network::rules::Rule;
use knightnet::network::rules::local_restart::{LocalRestart, near_smaller_cycles};
use knightnet::network::rules::noisy::Noisy;
use knightnet::network::{
    AttemptSteps, Dynamics, Network, NetworkParams, Preset, RuleKind, RunSteps, State, Termination,
    batch, first_attempt_rng,
};
use knightnet::rng_from_seed;
use knightnet::solvers::{Outcome, Request, SolverKind};
use ndarray::Array1;

fn params_of(rule: RuleKind) -> NetworkParams {
    NetworkParams {
        rule,
        ..Preset::Parberry.params()
    }
}

fn board(n: usize) -> Board {
    Board::new(n, n).unwrap()
}

#[test]
fn the_literature_presets_run_the_plain_rule_and_serialise_as_before() {
    for p in Preset::ALL {
        assert!(p.params().rule.is_plain(), "{p}");
        let json = serde_json::to_value(p.params()).unwrap();
        assert!(json.get("rule").is_none(), "{p}: {json}");
    }
    for p in Preset::RULES {
        let params = p.params();
        assert!(!params.rule.is_plain());
        assert_eq!(params.rule.name(), p.name());
        assert_eq!(params.variant(), p.name());
        assert_eq!(p.name().parse::<Preset>().unwrap(), p);
        let json = serde_json::to_value(params).unwrap();
        assert_eq!(json["rule"]["name"], p.name());
        // Every other parameter is parberry's.
        assert_eq!(
            NetworkParams {
                rule: RuleKind::TakefujiLee,
                preset: Some(Preset::Parberry),
                ..params
            },
            Preset::Parberry.params()
        );
        // The lanes have no hooks: the batched engine refuses, the solvers fall back.
        let graph = KnightGraph::new(board(12));
        assert!(!batch::supports(&graph, &params));
        assert!(!batch::fits_i16(&params, 12));
        assert!(batch::Batch::new(&graph, params).is_err());
    }
    assert!(batch::supports(
        &KnightGraph::new(board(12)),
        &Preset::Parberry.params()
    ));
}

/// A rule whose hooks do nothing leaves every run as the plain rule makes it: the
/// scalar engine's hooks cost nothing in what is computed.
#[test]
fn a_rule_with_nothing_to_do_makes_the_plain_runs() {
    let silent = [
        RuleKind::Noisy(Noisy {
            amplitude: 0,
            anneal: 50,
        }),
        RuleKind::LocalRestart(LocalRestart { max_restarts: 0 }),
    ];
    for n in [6, 8] {
        let graph = KnightGraph::new(board(n));
        let plain = Network::new(&graph, Preset::Parberry.params()).unwrap();
        for rule in silent {
            let net = Network::new(&graph, params_of(rule)).unwrap();
            for seed in 0..6 {
                let a = plain.solve(&mut rng_from_seed(seed));
                let mut b = net.solve(&mut rng_from_seed(seed));
                // `noisy` with amplitude 0 still counts no noisy step; local-restart none.
                assert_eq!(b.last.rule_events, 0, "{rule:?}");
                b.last.rule_events = 0;
                assert_eq!(a, b, "{n}x{n} {rule:?} seed {seed}");
            }
        }
    }
}

#[test]
fn each_rule_solves_through_the_solver_interface_and_the_cli() {
    for name in [
        "network:noisy",
        "network:local-restart",
        "network+merge:local-restart",
    ] {
        let kind: SolverKind = name.parse().unwrap();
        assert!(SolverKind::names().iter().any(|n| n == name));
        let solver = kind.build();
        for seed in 0..3 {
            let s = solver
                .solve(&Request::new(board(6)), &mut rng_from_seed(seed))
                .unwrap();
            assert_eq!(s.outcome(), Outcome::Tour, "{name} seed {seed}");
            assert_eq!(s.tour().unwrap().squares().len(), 36);
        }
    }
    for (flags, rule) in [
        (vec!["--solver", "network", "--variant", "noisy"], "noisy"),
        (vec!["--solver", "network:local-restart"], "local-restart"),
    ] {
        let mut args = vec!["solve", "--board", "8x8", "--seed", "4", "--format", "json"];
        args.extend(flags);
        let doc = common::json_of(&args);
        assert_eq!(doc["outcome"], "tour", "{doc}");
        assert_eq!(doc["variant"], rule);
        assert!(doc.get("rule").is_none(), "the rule is in params: {doc}");
        assert_eq!(doc["engine"], "scalar");
        assert!(doc["engine_note"].as_str().unwrap().contains("scalar"));
        assert!(doc["rule_events"].is_u64());
        assert_eq!(doc["params"]["rule"]["name"], rule);
        // The tour passes the oracle as every tour does.
        let (b, squares) = common::tour_of(&doc);
        knightnet::tour::Tour::new(b, squares, true).unwrap();
    }
    // A plain run's JSON has no engine key for closed tours.
    let doc = common::json_of(&["solve", "--board", "8x8", "--format", "json"]);
    assert!(doc.get("engine").is_none() && doc.get("rule").is_none());
    let e = common::assert_refused(&["solve", "--variant", "noisey"], "noisy");
    assert!(e.contains("local-restart") && e.contains("parberry"), "{e}");
}

/// A compare trial as (trial, seed, outcome, attempts, iterations).
type TrialFacts = (u64, u64, Outcome, u64, u64);

#[test]
fn a_rule_run_is_traced_and_drawn_like_a_preset() {
    let tmp = tempfile::tempdir().unwrap();
    for rule in ["noisy", "local-restart"] {
        let trace = tmp.path().join(format!("{rule}.json"));
        let t = trace.to_str().unwrap();
        common::stdout_of(&[
            "solve",
            "--board",
            "6x6",
            "--variant",
            rule,
            "--seed",
            "3",
            "--trace",
            t,
        ]);
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
        assert_eq!(doc["params"]["rule"]["name"], rule, "{doc}");
        let fig = tmp.path().join(format!("{rule}.svg"));
        common::stdout_of(&["convergence", "--trace", t, "--out", fig.to_str().unwrap()]);
        let many = tmp.path().join(format!("{rule}-runs.svg"));
        let out = common::stdout_of(&[
            "convergence",
            "--board",
            "6x6",
            "--runs",
            "6",
            "--variant",
            rule,
            "--overlay",
            "parberry",
            "--out",
            many.to_str().unwrap(),
        ]);
        assert!(out.contains(rule), "{out}");
        assert!(fig.exists() && many.exists());
    }
}

fn trials_of(rows: &[knightnet::compare::CompareRow]) -> Vec<Vec<TrialFacts>> {
    rows.iter()
        .map(|r| {
            r.per_trial
                .iter()
                .map(|t| (t.trial, t.seed, t.outcome, t.attempts, t.iterations))
                .collect()
        })
        .collect()
}

#[test]
fn compare_runs_each_rule_the_same_whatever_the_threads() {
    let kinds: Vec<SolverKind> = ["network:noisy", "network:local-restart"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let comparison = Comparison::new(board(6), kinds.clone()).trials(6).seed(9);
    let one = comparison.clone().threads(1).run().unwrap();
    let two = comparison.threads(2).run().unwrap();
    assert_eq!(trials_of(&one), trials_of(&two));
    assert!(one.iter().all(|r| r.tours == 6));
    // Each trial replays with `solve --seed`.
    for (kind, row) in kinds.iter().zip(&one) {
        for t in &row.per_trial {
            let s = kind
                .build()
                .solve(&Request::new(board(6)), &mut rng_from_seed(t.seed))
                .unwrap();
            assert_eq!((s.attempts, s.iterations), (t.attempts, t.iterations));
        }
    }
}

fn sorted_records(dir: &std::path::Path) -> Vec<Record> {
    let mut v: Vec<Record> = records::read(&dir.join("records.csv"))
        .unwrap()
        .records
        .iter()
        .map(Record::without_timing)
        .collect();
    v.sort_by_key(|r| (r.cell, r.trial));
    v
}

#[test]
fn each_rule_runs_in_an_experiment_the_same_whatever_the_threads() {
    let tmp = tempfile::tempdir().unwrap();
    let spec_path = tmp.path().join("rules.toml");
    std::fs::write(
        &spec_path,
        "name = \"rules\"\nseed = 5\ntrials = 16\nboards = [\"6x6\"]\n\
         [[solver]]\nsolver = \"network:noisy\"\n\
         [[solver]]\nsolver = \"network:local-restart\"\nmax_iterations = [60, 1000]\n\
         [[solver]]\nsolver = \"network:parberry\"\n",
    )
    .unwrap();
    let mut dirs = Vec::new();
    for threads in ["1", "2"] {
        let out = tmp.path().join(threads);
        let args = [
            "experiment",
            spec_path.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--quiet",
            "--threads",
            threads,
        ];
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_knightnet"))
            .args(args)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "experiment {args:?}: {status}");
        dirs.push(out);
    }
    let recs = sorted_records(&dirs[0]);
    // A sweep of another key applies to a rule like to any preset: two cells.
    assert_eq!(recs.len(), 64);
    assert_eq!(recs, sorted_records(&dirs[1]));
    // Each record is the first attempt of `solve --seed SEED` under its cell's rule.
    let spec = Spec::from_file(&spec_path).unwrap();
    let graph = KnightGraph::new(board(6));
    for r in &recs {
        let cell = &spec.cells[r.cell];
        let net = Network::new(&graph, cell.params().unwrap()).unwrap();
        let run = net.solve(&mut rng_from_seed(r.seed));
        assert_eq!(run.attempts, 1);
        assert_eq!(Outcome::from(&run.last.termination), r.outcome);
        assert_eq!(run.last.iterations as u64, r.iterations);
        assert_eq!(r.variant, cell.variant());
        assert!(r.iterations <= cell.params().unwrap().max_iterations as u64);
    }
    for v in [
        "noisy",
        "local-restart",
        "local-restart --max-iterations 60",
    ] {
        assert!(recs.iter().any(|r| r.variant == v), "{v}");
    }
}

#[test]
fn a_seed_determines_a_rule_run_and_the_step_loop_replays_it() {
    for p in Preset::RULES {
        let graph = KnightGraph::new(board(8));
        let net = Network::new(&graph, p.params()).unwrap();
        let runs: Vec<_> = (0..4)
            .map(|seed| net.solve(&mut rng_from_seed(seed)))
            .collect();
        for (seed, run) in runs.iter().enumerate() {
            assert_eq!(run, &net.solve(&mut rng_from_seed(seed as u64)), "{p}");
            let mut steps =
                RunSteps::new(&graph, p.params(), &mut rng_from_seed(seed as u64)).unwrap();
            while steps.step().is_some() {}
            assert_eq!(steps.result().as_ref(), Some(run), "{p}");
        }
        assert!(
            runs.windows(2).any(|w| w[0] != w[1]),
            "{p}: different seeds, different runs"
        );
        // The rule's stream is drawn from the attempt's own stream: the same first
        // attempt as `solve --seed S --max-attempts 1`.
        let one = NetworkParams {
            max_attempts: 1,
            ..p.params()
        };
        let single = Network::new(&graph, one).unwrap();
        for seed in 0..4 {
            let a = single.solve(&mut rng_from_seed(seed)).last;
            let b = net.attempt(&mut first_attempt_rng(seed), None);
            assert_eq!(a, b, "{p} seed {seed}");
        }
    }
}

#[test]
fn the_noise_schedule_falls_to_zero_and_then_the_step_is_plain() {
    let rule = Noisy {
        amplitude: 3,
        anneal: 40,
    };
    assert_eq!(rule.amplitude_at(0), 3);
    let amps: Vec<i32> = (0..60).map(|t| rule.amplitude_at(t)).collect();
    assert!(amps.windows(2).all(|w| w[0] >= w[1]), "{amps:?}");
    assert!(amps[..40].iter().all(|&a| a > 0));
    assert!(amps[40..].iter().all(|&a| a == 0));
    assert_eq!(rule.amplitude_at(u32::MAX), 0);

    let graph = KnightGraph::new(board(8));
    let params = params_of(RuleKind::Noisy(rule));
    let plain = Preset::Parberry.params();
    let state = State::random(&graph, &params, &mut rng_from_seed(2));
    let mut noisy = Dynamics::with_rule(&graph, params, state.clone(), params.rule.start(17));
    let mut reference = Dynamics::new(&graph, plain, state);
    // While the amplitude is positive the noise changes the run ...
    noisy.step();
    reference.step();
    assert_ne!(noisy.state().u(), reference.state().u());
    for _ in 1..40 {
        noisy.step();
    }
    assert_eq!(noisy.rule_events(), 40);
    // ... and from then on a step is the plain rule's, step for step.
    let mut reference = Dynamics::new(&graph, plain, noisy.state().clone());
    for _ in 0..30 {
        assert_eq!(noisy.step(), reference.step());
        assert_eq!(noisy.state(), reference.state());
    }
    assert_eq!(noisy.rule_events(), 40);

    // An attempt records the steps it took with noise on.
    let net = Network::new(&graph, params).unwrap();
    for seed in 0..5 {
        let a = net.attempt(&mut first_attempt_rng(seed), None);
        assert_eq!(a.rule_events, a.iterations.min(40), "seed {seed}");
    }
    assert!(
        Network::new(
            &graph,
            params_of(RuleKind::Noisy(Noisy {
                amplitude: 1000,
                anneal: 5
            }))
        )
        .is_err()
    );
}

/// A degree-2 cover of several cycles that the plain rule settles into on 8×8.
fn a_settled_cover(graph: &KnightGraph) -> Vec<Vec<u32>> {
    let net = Network::new(graph, Preset::Parberry.params()).unwrap();
    (0..)
        .map(|seed| net.attempt(&mut first_attempt_rng(seed), None))
        .find(|a| a.cycles.len() >= 3)
        .unwrap()
        .cycles
}

fn state_from_cover(graph: &KnightGraph, cycles: &[Vec<u32>]) -> State {
    let mut v = Array1::zeros(graph.edges());
    for c in cycles {
        for i in 0..c.len() {
            v[graph.edge_between(c[i], c[(i + 1) % c.len()]).unwrap()] = 1;
        }
    }
    State::new(Array1::zeros(graph.edges()), v, None).unwrap()
}

/// The neurons at the squares of every cycle but the longest, found from the squares.
fn expected_near(graph: &KnightGraph, cycles: &[Vec<u32>]) -> Vec<usize> {
    let longest = cycles.iter().map(Vec::len).max().unwrap();
    let keep = cycles.iter().position(|c| c.len() == longest).unwrap();
    let mut small = vec![false; graph.squares()];
    for (i, c) in cycles.iter().enumerate() {
        if i != keep {
            c.iter().for_each(|&s| small[s as usize] = true);
        }
    }
    (0..graph.edges())
        .filter(|&e| {
            let (a, b) = graph.endpoints(e);
            small[a as usize] || small[b as usize]
        })
        .collect()
}

#[test]
fn a_local_restart_redraws_only_the_neurons_at_the_smaller_cycles() {
    let graph = KnightGraph::new(board(8));
    let cycles = a_settled_cover(&graph);
    let near = expected_near(&graph, &cycles);
    let rule = LocalRestart::default();
    let params = params_of(RuleKind::LocalRestart(rule));
    let before = state_from_cover(&graph, &cycles);

    // The rule's hook, called directly.
    let mut d = Dynamics::with_rule(&graph, params, before.clone(), params.rule.start(3));
    assert_eq!(
        near_smaller_cycles(&d, &cycles)
            .iter()
            .map(|&e| e as usize)
            .collect::<Vec<_>>(),
        near
    );
    let mut attempt = rule.start(3);
    assert!(rule.on_cycles(&mut attempt, &mut d, &cycles));
    assert_eq!(rule.events(&attempt), 1);
    let changed: Vec<usize> = (0..graph.edges())
        .filter(|&e| d.state().v()[e] != before.v()[e] || d.state().u()[e] != before.u()[e])
        .collect();
    assert!(!changed.is_empty());
    assert!(changed.iter().all(|e| near.binary_search(e).is_ok()));
    // The degrees and counters were kept in step with the new outputs.
    let recounted = Dynamics::new(&graph, params, d.state().clone());
    assert_eq!(recounted.deg(), d.deg());
    assert_eq!(
        (recounted.off_two(), recounted.active()),
        (d.off_two(), d.active())
    );

    // Through the engine: the cover is stable, so the first step settles, the rule acts
    // and the attempt goes on; only neurons at the smaller cycles differ.
    let net = Network::new(&graph, params).unwrap();
    let mut steps = AttemptSteps::with_rule(&net, before.clone(), params.rule.start(3));
    steps.step();
    assert!(steps.end().is_none(), "the attempt goes on after a restart");
    assert_eq!(steps.dynamics().rule_events(), 1);
    let after = &steps.dynamics().state();
    assert!(
        (0..graph.edges())
            .filter(|&e| after.v()[e] != before.v()[e] || after.u()[e] != before.u()[e])
            .all(|e| near.binary_search(&e).is_ok())
    );

    // With no restarts allowed, the cover ends the attempt as the plain rule ends it.
    let none = params_of(RuleKind::LocalRestart(LocalRestart { max_restarts: 0 }));
    let a = Network::new(&graph, none)
        .unwrap()
        .attempt_from(before, None);
    assert!(matches!(a.termination, Termination::MultipleCycles { .. }));
    assert_eq!(a.iterations, 1);
}

#[test]
fn local_restart_ends_within_its_caps() {
    let graph = KnightGraph::new(board(8));
    let rule = LocalRestart { max_restarts: 2 };
    let net = Network::new(&graph, params_of(RuleKind::LocalRestart(rule))).unwrap();
    for seed in 0..30 {
        let a = net.attempt(&mut first_attempt_rng(seed), None);
        assert!(a.rule_events <= 2);
        assert!(a.iterations <= 1000);
        if matches!(a.termination, Termination::MultipleCycles { .. }) {
            // A cover ends the attempt only once restarts run out (or at the cap).
            assert!(a.rule_events == 2 || a.iterations == 1000, "{a:?}");
        }
    }
}

//! knightnet as a library, in the four steps a researcher starts with: solve a board with
//! a named solver, step the Takefuji–Lee network by hand, run a small seeded experiment,
//! and (with the `figure` feature) draw the tour. Everything here is knightnet's public
//! API; the crate depends on it with `default-features = false`.

use std::sync::atomic::AtomicBool;

use knightnet::board::Board;
use knightnet::experiment::{self, Options, Quiet, Spec};
use knightnet::graph::KnightGraph;
use knightnet::network::{Dynamics, Preset, State};
use knightnet::rng_from_seed;
use knightnet::solvers::{Request, SolverKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let board = Board::new(8, 8)?;

    // 1. Solve: every solver is a `SolverKind`, parsed from the names the command line
    //    takes, and draws its randomness only from the generator it is given.
    let kind: SolverKind = "network:parberry".parse()?;
    let solution = kind
        .build()
        .solve(&Request::new(board), &mut rng_from_seed(1))?;
    let tour = solution
        .tour()
        .ok_or("the network found no tour within its attempts")?;
    println!(
        "1. {kind} on {board}: a {} tour of {} squares after {} attempts",
        if tour.is_closed() { "closed" } else { "open" },
        tour.squares().len(),
        solution.attempts
    );

    // 2. Step the network: one attempt from a seeded random state, one update of every
    //    neuron per step, until the preset's stop rule says it has settled.
    let graph = KnightGraph::new(Board::new(6, 6)?);
    let params = Preset::Parberry.params();
    let state = State::random(&graph, &params, &mut rng_from_seed(7));
    let mut net = Dynamics::new(&graph, params, state);
    let mut steps = 0;
    while steps < params.max_iterations {
        let stats = net.step();
        steps += 1;
        if params.stop.settled(&stats) {
            break;
        }
    }
    println!(
        "2. one attempt on 6x6 stopped after {steps} steps, {} squares off degree 2",
        net.off_two()
    );

    // 3. A small experiment: a spec (the same TOML as `knightnet experiment` reads), run
    //    into a results folder, summarised with Wilson intervals.
    let spec = Spec::parse(
        r#"
        name = "library-tour"
        seed = 3
        trials = 20
        boards = ["6x6"]
        [[solver]]
        solver = "network:parberry"
        [[solver]]
        solver = "warnsdorff:roth"
        "#,
        "library-tour",
        "library-tour (inline)",
    )?;
    let folder = tempfile::tempdir()?;
    let options = Options::new(folder.path().join("results"));
    let report = experiment::run(&spec, &options, &AtomicBool::new(false), &Quiet)?;
    for cell in &report.summary.cells {
        println!(
            "3. {} on {}: {} tours in {} trials",
            cell.label, cell.board, cell.tours, cell.trials
        );
    }

    // 4. A figure of the tour (feature `figure`, which turns on knightnet's `plot`).
    #[cfg(feature = "figure")]
    {
        use knightnet::plot::board::BoardFigure;
        let path = folder.path().join("tour.png");
        let figure = BoardFigure::tour(tour, "A network tour of 8x8", "network:parberry, seed 1");
        figure.save(&path, BoardFigure::default_width(board))?;
        println!(
            "4. drew {} ({} bytes)",
            path.display(),
            std::fs::metadata(&path)?.len()
        );
    }
    Ok(())
}

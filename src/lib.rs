//! knightnet: knight's tours with the Takefuji–Lee neural network, measured honestly
//! against classical solvers.
//!
//! Data flow: a [`board::Board`] becomes a [`graph::KnightGraph`] (squares are vertices,
//! legal knight moves are edges and the network's neurons); a solver — the [`network`]
//! or one of the classical [`solvers`] — returns a [`tour::Tour`] that has passed the one
//! validity oracle in [`tour`].
//!
//! # Where to start
//! `examples/library-tour/` in the repository is a whole program outside this crate
//! (`default-features = false`) that does the four things below; each leads to a part:
//! - **Solve a board** (below): [`solvers`] ([`solvers::SolverKind`],
//!   [`solvers::Request`], [`solvers::Solution`]); [`existence`] says when a tour exists.
//! - **Step the network** (below): [`network`] (presets and parameters, [`network::State`],
//!   [`network::Dynamics`], the rules in [`network::rules`], the batched engine in
//!   [`network::batch`]).
//! - **Run an experiment**: [`experiment`] ([`experiment::Spec`] from the TOML that
//!   `knightnet experiment` reads, [`experiment::run`] into a results folder,
//!   [`experiment::Record`] rows, [`experiment::Summary`] with intervals from [`stats`]);
//!   [`compare`] and [`growth`] measure solvers side by side and against board size.
//! - **Count and play**: [`count`] counts tours and 2-factors; [`puzzle`] holds the
//!   game's rules; [`queens`] the Queen's Challenge.
//! - **Draw**: `plot` (feature `plot`) draws every figure from saved data.
//!
//! Errors are typed: [`error::InputError`] says what the input must change, with its
//! fields, and [`error::Error`] adds the environment's failures.
//!
//! # Install
//! The command-line program: `cargo install --locked --path .` from a clone (into
//! `~/.cargo/bin`). The library: `knightnet = { version = "0.1", default-features = false }`
//! (add `features = ["plot"]` for figures), or a `path` dependency on a clone until the
//! first release.
//!
//! # Features
//! - `cli` (default): the `knightnet` binary's crates (clap, ratatui, crossterm,
//!   indicatif). The command line and the terminal game are the binary's own code, built
//!   on this public API like any other program. Turns on `plot`.
//! - `plot`: figures (plotters, usvg, svg2pdf and a bundled font).
//!
//! A crate that depends on knightnet with `default-features = false` gets neither.
//! `docs/ARCHITECTURE.md` draws the layers and says where a new solver or rule goes.
//!
//! # Solve a board
//! Every solver is named by a [`solvers::SolverKind`], parsed from the same names the
//! command line takes, and draws its randomness only from the [`Rng`] it is given:
//! ```
//! use knightnet::{board::Board, rng_from_seed, solvers::{Request, SolverKind}};
//!
//! let board = Board::new(8, 8).unwrap();
//! for name in ["network:parberry", "warnsdorff:roth", "divide-conquer"] {
//!     let kind: SolverKind = name.parse().unwrap();
//!     let solution = kind.build().solve(&Request::new(board), &mut rng_from_seed(1)).unwrap();
//!     let tour = solution.tour().expect("a tour on 8x8");
//!     assert_eq!(tour.squares().len(), 64);
//! }
//! ```
//!
//! # Step the network
//! One attempt of the network, one step at a time: each step updates every neuron's
//! state U and output V once (sequentially or synchronously, as the preset says) and
//! reports how many outputs changed and how many squares are not at degree 2.
//! ```
//! use knightnet::{board::Board, graph::KnightGraph, rng_from_seed};
//! use knightnet::network::{Dynamics, Preset, State};
//!
//! let graph = KnightGraph::new(Board::new(6, 6).unwrap());
//! let params = Preset::Parberry.params();
//! let state = State::random(&graph, &params, &mut rng_from_seed(7));
//! let mut net = Dynamics::new(&graph, params, state);
//! for _ in 0..params.max_iterations {
//!     let stats = net.step();
//!     if stats.changed == 0 {
//!         break; // settled: a tour, several cycles, or a state off degree 2
//!     }
//! }
//! println!("{} squares off degree 2", net.off_two());
//! ```
//! [`network::Network::solve`] runs whole attempts until a tour, as `knightnet solve`
//! does; [`network::batch`] runs many attempts in the lanes of SIMD vectors.

pub mod board;
pub mod compare;
pub mod count;
pub mod cover;
pub mod error;
pub mod existence;
pub mod experiment;
pub mod geometry;
pub mod graph;
pub mod graph_file;
pub mod growth;
pub mod io;
pub mod json;
pub mod memory;
pub mod merge;
pub mod network;
#[cfg(feature = "plot")]
pub mod plot;
pub mod puzzle;
pub mod queens;
pub mod report;
pub mod seeds;
pub mod solvers;
pub mod stats;
pub mod target;
pub mod tour;
pub mod tour_file;
pub mod trace_file;

/// The random number generator used everywhere: ChaCha with 8 rounds, a named and
/// portable stream (the same seed gives the same numbers on every machine).
pub type Rng = rand_chacha::ChaCha8Rng;

/// The version of what a seeded run computes: bumped whenever a change to the network, a
/// solver or the seeding alters any record of a seeded experiment (the `_ns` timings
/// aside). Every `run.json` records it, and a test refuses committed results made by
/// another engine version, so stale results are caught rather than remembered.
/// Version 1 named an overridden network cell's variant by its short label
/// (`parberry*`); version 2 by the name that replays it (`parberry --order square-sweep`).
pub const ENGINE_VERSION: u32 = 2;

/// Most worker threads any command or run may ask for (`--threads` 1..=this). A pool
/// never gets more threads than it has work items either; this bound is for the flag.
pub const MAX_THREADS: usize = 1024;

/// Check a thread count ([`error::Param::Threads`]): 1 to [`MAX_THREADS`].
pub fn check_threads(threads: usize) -> Result<usize, error::InputError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(threads)
    } else {
        Err(error::InputError::OutOfRange {
            param: error::Param::Threads,
            value: threads.to_string(),
            accepted: error::Accepted::Range {
                min: 1,
                max: MAX_THREADS as u64,
            },
        })
    }
}

/// The thread count when none is given: the cores available, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
}

/// Stack size of a worker thread. The solvers and counts keep their work on the heap
/// (the searches use explicit stacks), so a worker needs little stack; the default
/// 2 MiB would reserve 2 GiB of address space for 1024 threads.
pub(crate) const THREAD_STACK_BYTES: usize = 512 << 10;

/// A pool of `threads` workers (`--threads`, checked by [`check_threads`]) named
/// `name-K`. Refused before any thread starts when their stacks would not fit in the
/// memory the process may use ([`memory::limit`]); a thread the system will not start
/// is the same error with the system's message, once.
pub(crate) fn thread_pool(
    threads: usize,
    name: &'static str,
) -> Result<rayon::ThreadPool, error::InputError> {
    let threads = check_threads(threads)?;
    memory::limit_arenas();
    let stacks = threads as u64 * (THREAD_STACK_BYTES as u64 + 4096);
    let fail = |reason: String| error::ThreadsError { threads, reason };
    let l = memory::limit();
    if stacks > l.bytes {
        return Err(fail(format!(
            "their stacks need {}, and this process has {l}",
            memory::human(stacks)
        ))
        .into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(THREAD_STACK_BYTES)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
        .map_err(|e| {
            // The build error's text already holds the system's message; its source
            // would repeat it.
            fail(e.to_string()).into()
        })
}

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// A [`Rng`] from a 64-bit seed (`ChaCha8Rng::seed_from_u64`).
pub fn rng_from_seed(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}

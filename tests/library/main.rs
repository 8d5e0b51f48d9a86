//! The library against its oracles: the network's engines and rules, the classical solvers, seeding, counting, the existence theorems, graph files, a geometry's cycles as squares and watch mode beyond the knight.
//!
//! One test binary for these files (each is a module), so that a change links the
//! library into a few test programs, not one per file. Run one file's tests with
//! `cargo test --release --test library MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod count;
mod count_beyond;
mod existence;
mod exists_beyond;
mod graph_file;
mod hf_counts;
mod move_squares;
mod network;
mod on_graph;
mod open;
mod play_beyond;
mod rules;
mod seeding;
mod solvers;
mod spec_geometry;
mod sweeps;
mod watch_beyond;

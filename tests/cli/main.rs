//! The command line as a user runs it: every subcommand's flags, output, errors and limits, driven through the `knightnet` binary.
//!
//! One test binary for these files (each is a module), so that a change links the
//! library into a few test programs, not one per file. Run one file's tests with
//! `cargo test --release --test cli MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod book;
mod check;
mod cli_classical;
mod cli_compare;
mod cli_errors;
mod cli_flags;
mod cli_growth;
mod cli_limits;
mod cli_solve;
mod convergence_info;
mod exists_beyond;
mod experiment_beyond;
mod hardening_files;
mod json_contract;
mod json_keys;
mod manuals;
mod play;
mod queens;
mod search_budget;
mod solve_geometry;
mod solve_output;

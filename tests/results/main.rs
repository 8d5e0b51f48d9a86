//! Experiments and what they produce: results folders (threads, shards, resume, hardening), merge, the committed results and figures, and the claims' statistics.
//!
//! One test binary for these files (each is a module), so that a change links the
//! library into a few test programs, not one per file. Run one file's tests with
//! `cargo test --release --test results MODULE::`.

#[path = "../common/mod.rs"]
mod common;

mod claims;
mod committed_results;
mod experiment;
mod experiment_hardening;
mod merge;
mod plot;
mod release;

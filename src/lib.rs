//! knightnet: knight's tours with the Takefuji–Lee neural network, measured honestly
//! against classical solvers.
//!
//! Data flow: [`board::Board`] → [`graph::KnightGraph`] → a solver ([`network`] or
//! [`solvers`]) → a [`tour::Tour`] checked by the one oracle in [`tour`].

pub mod board;
pub mod count;
pub mod error;
pub mod existence;
pub mod experiment;
pub mod graph;
pub mod merge;
pub mod network;
pub mod plot;
pub mod puzzle;
pub mod queens;
pub mod solvers;
pub mod tour;
pub mod tui;

/// The random number generator used everywhere: ChaCha with 8 rounds, a named and
/// portable stream (the same seed gives the same numbers on every machine).
pub type Rng = rand_chacha::ChaCha8Rng;

/// The seed used when none is given.
pub const DEFAULT_SEED: u64 = 1;

/// A [`Rng`] from a 64-bit seed (`ChaCha8Rng::seed_from_u64`).
pub fn rng_from_seed(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}
pub mod cli;

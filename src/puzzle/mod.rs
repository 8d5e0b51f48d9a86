//! The knight's-tour game behind `knightnet play`, free of any terminal code: the game
//! state with unlimited undo and redo ([`game`]), the dead-position check ([`dead`]),
//! the Warnsdorff hint and the completion search used by "give up" ([`complete`]), the
//! step-by-step solvers shown in watch mode ([`watch`]), and the measurement of how often
//! the cheap check misses a dead position ([`measure`]).
//!
//! The game is an open tour: the knight must visit every square once; it need not return
//! to its start.

pub mod complete;
pub mod dead;
pub mod game;
pub mod measure;
pub mod watch;

pub use dead::{check, Verdict};
pub use game::{Game, MoveError};

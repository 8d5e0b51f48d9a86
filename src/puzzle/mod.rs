//! The knight's-tour game behind `knightnet play`, free of any terminal code: the game
//! state with unlimited undo and redo ([`game`]), the dead-position check ([`dead`]), the
//! hint and the completion behind "give up" ([`complete`]), the solvers stepped one move
//! at a time in watch mode ([`watch`]), and the measurement of how often the cheap check
//! misses a dead position ([`measure`]).
//!
//! The game has no search of its own: the check, the hint, the completion and the
//! search solvers in watch mode are the solvers' depth-first search
//! ([`crate::solvers::search`]); watch mode's Warnsdorff and network are the `solve`
//! solvers' own runs.
//!
//! The game is an open tour: the knight must visit every square once; it need not return
//! to its start. It is played on a [`Field`]: the knight on a whole plane board, or any
//! leaper, surface and shape ([`crate::geometry::Geometry`]), whose check, hint and
//! completion are those of the solvers that run on any graph
//! ([`crate::solvers::on_graph`]: Warnsdorff's walk, then the forward-checking search)
//! and the same search's first-position check (see [`dead`]). Watch mode and
//! [`measure`] are the knight's.

pub mod complete;
pub mod dead;
pub mod field;
pub mod game;
pub mod measure;
pub mod watch;

pub use dead::{Verdict, check, check_on};
pub use field::Field;
pub use game::{Ending, Game, MoveError};

use crate::solvers::search::{Config, Order};

/// The search the game asks for hints, completions (with `budget` steps) and, with
/// `connectivity`, the dead-position check: open tours, Warnsdorff's order (as
/// `warnsdorff-backtrack`), pruned by forward checking (as `forward-check`). Without
/// connectivity each step is O(1), so a budget of steps bounds the time.
pub(crate) fn search_config(budget: u64, connectivity: bool) -> Config {
    Config {
        order: Order::Warnsdorff,
        ties_only: false,
        forward_check: true,
        connectivity,
        closed: false,
        max_steps: budget,
    }
}

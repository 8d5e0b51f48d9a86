//! Warnsdorff's rule (1823): from the current square, move to the unvisited neighbour
//! with the fewest unvisited neighbours of its own. The rule leaves ties open; the tie
//! break is the whole difference between the variants here:
//!
//! - `first`: the first tied move in the fixed clockwise order of
//!   [`crate::board::KNIGHT_OFFSETS`].
//! - `random`: a uniformly random tied move (Warnsdorff's "indifferently"), drawn from
//!   the seeded stream. Ganzfried 2004 reports >= 98% success from the corner on m x m
//!   for m <= 25 except m = 7, decaying for large boards (Squirrel & Cull 1996: no
//!   success for m > 325).
//! - `pohl`: Pohl's second-level rule (Pohl, CACM 10 (1967) 446-449): among the tied
//!   moves, the one whose own unvisited neighbours have the smallest sum of onward
//!   counts; remaining ties clockwise-first.
//! - `squirrel-cull`: the fixed move orderings with switch squares of Squirrel & Cull
//!   1996 (table as printed in Ganzfried 2004, Table 1): start at the top-left corner of
//!   an m x m board, break ties by the first ordering until the knight stands on the
//!   listed square, then by the next ordering, and so on. Squirrel & Cull number the
//!   moves 1..8 as (row, col) offsets (-2,1), (-1,2), (1,2), (2,1), (2,-1), (1,-2),
//!   (-1,-2), (-2,-1): exactly our clockwise order, so digit `d` is
//!   `KNIGHT_OFFSETS[d - 1]` (verified: with this numbering it succeeds from the corner
//!   on every m in 5..=200 except 74, as Ganzfried reports; see the tests). Starts at
//!   the other three corners of a square board run the table in the reflected frame.
//!   Outside its design domain (non-square boards, non-corner starts) it is simply a
//!   Warnsdorff run with those orderings and switch squares, with no guarantee.
//! - `roth` (the default): the tied move farthest (Euclidean) from the board centre
//!   (Roth, "The Problem of the Knight", MathSource 909, as cited by Ganzfried 2004);
//!   the secondary tie, which Roth leaves unspecified, is clockwise-first. Measured
//!   here: 64/64 start squares on 8x8.
//!
//! Arguments: the board, the start square (default the corner `(0,0)`), open or closed.
//! Returns the tour or the honest failure `stuck` (with the number of squares visited)
//! or `not-closed`. `restarts` re-runs only the `random` tie-break (the others would
//! repeat themselves exactly).
//!
//! Complexity: O(mn) time, one byte per square plus the tour (4 bytes per square); no
//! knight graph is built, so 10000 x 10000 boards fit in about 1 GB. The degrees live in
//! a padded array (no bounds checks, see `frame`). Three engines walk ([`Engine`]), all
//! giving the same tours move for move: the scalar loop (`scalar`, every tie-break);
//! the portable default, which walks `first` and `squirrel-cull` with 64-bit keys that
//! carry each move's offset, so a compare/conditional-move tree yields the next square
//! directly (`min_keys`); and, with the cargo feature `asm` on x86-64, that step in
//! inline assembly (`asm`) and `roth` by one SSE4.1 `PHMINPOSUW` per move (`sse`). The
//! original implementation is kept in the tests as the oracle every engine must match
//! move for move.
//!
//! Files: `tie_break` (the names), `roth` (Roth's order, shared with the search of
//! `warnsdorff-backtrack`), `squirrel_cull` (the table), `frame` (the padded
//! degrees and the start state whose invariants the walks' unchecked accesses rely on),
//! `scalar`, `min_keys`, `asm` and `sse` (the walks), `solver` (the [`Solver`](crate::solvers::Solver)).

mod frame;
mod min_keys;
pub mod roth;
mod scalar;
mod solver;
mod squirrel_cull;
mod tie_break;

#[cfg(all(feature = "asm", target_arch = "x86_64"))]
mod asm;
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
mod sse;

#[cfg(test)]
mod reference;
#[cfg(test)]
mod tests;

pub use solver::WarnsdorffSolver;
pub use tie_break::TieBreak;

use crate::Rng;
use crate::board::Board;
use crate::memory::MemoryError;
use frame::Frame;

/// The result of one Warnsdorff run.
#[derive(Debug, Clone)]
pub struct Run {
    /// Squares in visiting order (all of them when the run succeeded).
    pub path: Vec<u32>,
    /// Number of steps at which the rule had a tie to break.
    pub ties: u64,
}

impl Run {
    /// Whether the walk visited every square of `board`.
    pub fn complete(&self, board: Board) -> bool {
        self.path.len() == board.squares()
    }
}

/// Which implementation walks. All give the same path and tie count for every board,
/// start and tie-break (tested against the original implementation); they differ only in
/// speed. `random` and `pohl` always take the scalar loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Engine {
    /// One loop for every tie-break (see `scalar`).
    Scalar,
    /// The default without the `asm` feature: the min-key walk with its portable step for
    /// `first` and `squirrel-cull` (see `min_keys`), the scalar loop for the others.
    Portable,
    /// The default with the `asm` feature on x86-64: the min-key step in inline assembly
    /// for `first` and `squirrel-cull`, `roth` with SSE4.1 when the CPU has it (else the
    /// scalar loop), the scalar loop for the others.
    #[cfg(all(feature = "asm", target_arch = "x86_64"))]
    Asm,
}

impl Engine {
    /// Every engine this build has.
    pub const ALL: &'static [Engine] = &[
        Engine::Scalar,
        Engine::Portable,
        #[cfg(all(feature = "asm", target_arch = "x86_64"))]
        Engine::Asm,
    ];

    /// The engine [`run`] uses: `Asm` when the `asm` feature is on (x86-64 only), else
    /// `Portable`.
    #[cfg(all(feature = "asm", target_arch = "x86_64"))]
    pub(crate) const DEFAULT: Engine = Engine::Asm;
    /// The engine [`run`] uses: `Asm` when the `asm` feature is on (x86-64 only), else
    /// `Portable`.
    #[cfg(not(all(feature = "asm", target_arch = "x86_64")))]
    pub(crate) const DEFAULT: Engine = Engine::Portable;

    /// The engine's name (`scalar`, `portable`, `asm`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Scalar => "scalar",
            Engine::Portable => "portable",
            #[cfg(all(feature = "asm", target_arch = "x86_64"))]
            Engine::Asm => "asm",
        }
    }
}

/// One run of Warnsdorff's rule from `start` with the given tie-break, on the default
/// [`Engine`]. `rng` is used only by [`TieBreak::Random`]. Works on any board size the
/// caller can afford.
///
/// # Panics
/// If `start` is not a square of `board`.
pub fn run(board: Board, start: u32, tie: TieBreak, rng: &mut Rng) -> Run {
    run_on(Engine::DEFAULT, board, start, tie, rng)
}

/// [`run`] on the given engine (for tests and benchmarks; the result is the same).
///
/// # Panics
/// If `start` is not a square of `board`, or the board's arrays cannot be allocated
/// (`try_run_on` returns that as an error).
pub fn run_on(engine: Engine, board: Board, start: u32, tie: TieBreak, rng: &mut Rng) -> Run {
    try_run_on(engine, board, start, tie, rng).unwrap_or_else(|e| panic!("{e}"))
}

/// [`run_on`], with a [`MemoryError`] when the board's degree array or path cannot be
/// allocated (the solver's way in: out of memory is one line, never an abort).
///
/// # Panics
/// If `start` is not a square of `board`.
pub(crate) fn try_run_on(
    engine: Engine,
    board: Board,
    start: u32,
    tie: TieBreak,
    rng: &mut Rng,
) -> Result<Run, MemoryError> {
    let frame = Frame::new(board, start, tie)?;
    let keyed = matches!(tie, TieBreak::First | TieBreak::SquirrelCull);
    Ok(match engine {
        Engine::Portable if keyed => min_keys::walk::<min_keys::Portable>(frame),
        #[cfg(all(feature = "asm", target_arch = "x86_64"))]
        Engine::Asm if keyed => min_keys::walk::<asm::Asm>(frame),
        #[cfg(all(feature = "asm", target_arch = "x86_64"))]
        Engine::Asm if tie == TieBreak::Roth => match sse::Sse41::detect() {
            Some(cpu) => sse::walk_roth(frame, cpu),
            None => scalar::walk(frame, tie, rng),
        },
        _ => scalar::walk(frame, tie, rng),
    })
}

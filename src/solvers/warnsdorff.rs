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
//! a padded array (no bounds checks). `first` and `squirrel-cull` walk with 64-bit keys
//! that carry each move's offset, so a compare/conditional-move tree yields the next
//! square directly (the step in assembly on x86-64, about 105 instructions but a short
//! dependency chain); `roth` picks each move with one SSE4.1 `PHMINPOSUW` over eight
//! 16-bit keys. The original implementation is kept in the tests as the oracle these
//! paths (and the scalar loop) must match move for move.

use std::fmt;
use std::str::FromStr;

use rand::Rng as _;
use serde_json::json;

use super::classical::{self, Report};
use super::{Request, Solution, Solver};
use crate::board::{Board, KNIGHT_OFFSETS};
use crate::error::InputError;
use crate::Rng;

/// How ties between equally constrained moves are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TieBreak {
    First,
    Random,
    Pohl,
    SquirrelCull,
    Roth,
}

impl TieBreak {
    pub const ALL: [TieBreak; 5] = [
        TieBreak::Roth,
        TieBreak::SquirrelCull,
        TieBreak::Pohl,
        TieBreak::First,
        TieBreak::Random,
    ];

    pub fn name(self) -> &'static str {
        match self {
            TieBreak::First => "first",
            TieBreak::Random => "random",
            TieBreak::Pohl => "pohl",
            TieBreak::SquirrelCull => "squirrel-cull",
            TieBreak::Roth => "roth",
        }
    }

    /// Whether a run depends on the random stream.
    pub fn is_random(self) -> bool {
        self == TieBreak::Random
    }
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TieBreak {
    type Err = InputError;

    fn from_str(s: &str) -> Result<TieBreak, InputError> {
        let t = s.trim();
        TieBreak::ALL
            .into_iter()
            .find(|tb| tb.name() == t)
            .ok_or_else(|| {
                InputError::param(format!(
                    "unknown tie-break '{t}'; accepted: {}",
                    TieBreak::ALL.map(|t| t.name()).join(", ")
                ))
            })
    }
}

/// One Squirrel–Cull ordering: `rank[k]` is the position of move `k` (our index) in the
/// ordering; lower ranks win ties. `until` is the switch square `(row, col)`, 0-based.
#[derive(Debug, Clone, Copy)]
struct Ordering {
    rank: [u8; 8],
    until: Option<(usize, usize)>,
}

fn ordering(digits: &str, until: Option<(i64, i64)>, m: usize) -> Ordering {
    let mut rank = [0u8; 8];
    for (pos, d) in digits.bytes().enumerate() {
        rank[(d - b'1') as usize] = pos as u8;
    }
    // The table gives 1-based (row, col); squares off an m x m board never trigger.
    let until = until.and_then(|(r, c)| {
        (r >= 1 && c >= 1 && r as usize <= m && c as usize <= m)
            .then(|| (r as usize - 1, c as usize - 1))
    });
    Ordering { rank, until }
}

/// The Squirrel & Cull 1996 switching table for an m x m board (Ganzfried 2004,
/// Table 1), keyed by m mod 8.
fn squirrel_cull_table(m: usize) -> Vec<Ordering> {
    let i = m as i64;
    let rows: Vec<(&str, Option<(i64, i64)>)> = match m % 8 {
        0 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51867342", Some((i - 8, 1))),
            ("51342678", Some((7, i - 3))),
            ("21435678", None),
        ],
        1 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51324678", Some((i - 6, (i + 9) / 2))),
            ("32481765", None),
        ],
        2 => vec![
            ("34261578", Some((6, 1))),
            ("87642135", Some((3, 1))),
            ("54132678", Some((i - 15, 4))),
            ("52431678", Some((10, i - 2))),
            ("85647123", Some((5, (i - 6) / 2))),
            ("15746823", None),
        ],
        3 => vec![
            ("34625718", Some((i - 1, i - 2))),
            ("42681357", Some((i - 6, i))),
            ("86512347", Some((2, 5))),
            ("51867342", Some((i - 10, 3))),
            ("61825437", Some(((i + 1) / 2, i - 2))),
            ("71642538", None),
        ],
        4 => vec![
            ("34261578", Some((i - 1, i - 2))),
            ("87642135", Some((2, 2))),
            ("51867342", Some((i - 8, 1))),
            ("51342678", Some((10, i - 5))),
            ("86753421", Some((13, (i + 2) / 2))),
            ("78563421", None),
        ],
        5 => {
            let col = if m % 16 == 5 {
                (i - 5) / 2
            } else {
                (i - 13) / 2
            };
            vec![
                ("34261578", Some((i - 1, i - 2))),
                ("87642135", Some((2, 2))),
                ("51324678", Some((i - 2, col))),
                ("15234678", None),
            ]
        }
        6 => vec![
            ("34261578", Some((6, 1))),
            ("87642135", Some((3, 1))),
            ("54132678", Some((i - 10, 1))),
            ("52431678", Some((10, i - 2))),
            ("85647123", Some((3, (i + 8) / 2))),
            ("12453678", None),
        ],
        _ => vec![
            ("34625718", Some((i - 1, i - 2))),
            ("42681357", Some((i - 6, i))),
            ("86512347", Some((2, 5))),
            ("51867342", Some((i - 6, 3))),
            ("61825437", Some(((i + 1) / 2, i - 2))),
            ("61357284", None),
        ],
    };
    rows.into_iter().map(|(d, u)| ordering(d, u, m)).collect()
}

/// The result of one Warnsdorff run.
#[derive(Debug, Clone)]
pub struct Run {
    /// Squares in visiting order (all of them when the run succeeded).
    pub path: Vec<u32>,
    /// Number of steps at which the rule had a tie to break.
    pub ties: u64,
}

impl Run {
    pub fn complete(&self, board: Board) -> bool {
        self.path.len() == board.squares()
    }
}

const VISITED: u8 = u8::MAX;

/// Width of the border of always-"visited" squares around the board in the degree
/// array: a knight moves at most two squares, so its eight targets never need a
/// bounds check.
const PAD: usize = 2;

/// One run of Warnsdorff's rule from `start` with the given tie-break. `rng` is used
/// only by [`TieBreak::Random`]. Works on any board size the caller can afford.
pub fn run(board: Board, start: u32, tie: TieBreak, rng: &mut Rng) -> Run {
    run_with(board, start, tie, rng, true)
}

/// [`run`], optionally without the SSE4.1 path (the tests run both).
fn run_with(board: Board, start: u32, tie: TieBreak, rng: &mut Rng, simd: bool) -> Run {
    let (sr, sc) = board.coords(start);
    let flip = reflection(board, (sr, sc), tie);
    let frame_start = (
        if flip.0 { board.rows() - 1 - sr } else { sr },
        if flip.1 { board.cols() - 1 - sc } else { sc },
    );
    run_frame(board, frame_start, flip, tie, rng, simd)
}

/// Squirrel–Cull is defined from the top-left corner of a square board; runs from the
/// other corners happen in the reflected frame (`(flip rows, flip columns)`) and their
/// squares are mapped back as they are written.
fn reflection(board: Board, (sr, sc): (usize, usize), tie: TieBreak) -> (bool, bool) {
    let (rows, cols) = (board.rows(), board.cols());
    if tie == TieBreak::SquirrelCull
        && rows == cols
        && (sr == 0 || sr == rows - 1)
        && (sc == 0 || sc == cols - 1)
    {
        (sr != 0, sc != 0)
    } else {
        (false, false)
    }
}

/// The degrees of a `rows x cols` board in a padded array of width `cols + 2 PAD`, the
/// border marked [`VISITED`]. A square's degree is the number of offsets that stay on
/// the board in both its row and its column: `popcount(row_mask & col_mask)`.
fn padded_degrees(rows: usize, cols: usize) -> Vec<u8> {
    let w = cols + 2 * PAD;
    let mask = |x: usize, len: usize, pick: fn((i32, i32)) -> i32| -> u8 {
        let mut m = 0u8;
        for (k, &off) in KNIGHT_OFFSETS.iter().enumerate() {
            let y = x as i64 + pick(off) as i64;
            if y >= 0 && (y as usize) < len {
                m |= 1 << k;
            }
        }
        m
    };
    let col_mask: Vec<u8> = (0..cols).map(|c| mask(c, cols, |o| o.1)).collect();
    let mut deg = vec![VISITED; w * (rows + 2 * PAD)];
    for r in 0..rows {
        let rm = mask(r, rows, |o| o.0);
        let base = (r + PAD) * w + PAD;
        for (d, &cm) in deg[base..base + cols].iter_mut().zip(&col_mask) {
            *d = (rm & cm).count_ones() as u8;
        }
    }
    deg
}

/// Bit positions of a move's key: `degree << DEG_SHIFT | secondary << 8 | rank << 3 | k`.
/// The smallest key is Warnsdorff's move: fewest onward moves, then the secondary key
/// (Roth's distance; 0 for the others), then the rank in the current ordering (the
/// clockwise order, or Squirrel–Cull's), and the low bits name the move itself.
const DEG_SHIFT: u32 = 40;
/// Added to Roth's secondary key so it is positive: the key is `ROTH_BIAS - (dr A + dc B)`
/// with `|dr A + dc B| <= 8 * MAX_SIDE < 2^23`.
const ROTH_BIAS: i64 = 1 << 31;
/// In the walk's degree array, bytes at or above this are visited or off-board squares.
/// They start at [`VISITED`] and, like every square, are decremented once per visited
/// neighbour (at most eight times), so they never fall below `VISITED - 8`; a real
/// degree is at most 8. Decrementing unconditionally saves a test per move.
const GONE: u8 = 0x80;

/// How a walk breaks the ties its keys leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// The keys decide: `first`, `squirrel-cull`.
    Keys,
    /// The keys, with Roth's distance in them.
    Roth,
    /// Ties go to `random` or `pohl`.
    LookFurther,
}

/// The run proper, in the (possibly reflected) frame where `start` lives. `flip` says
/// how frame squares map back to board squares in the returned path.
fn run_frame(
    board: Board,
    start: (usize, usize),
    flip: (bool, bool),
    tie: TieBreak,
    rng: &mut Rng,
    simd: bool,
) -> Run {
    match tie {
        TieBreak::First | TieBreak::SquirrelCull => {
            walk::<{ Mode::Keys as u8 }>(board, start, flip, tie, rng, simd)
        }
        TieBreak::Roth => walk::<{ Mode::Roth as u8 }>(board, start, flip, tie, rng, simd),
        TieBreak::Random | TieBreak::Pohl => {
            walk::<{ Mode::LookFurther as u8 }>(board, start, flip, tie, rng, false)
        }
    }
}

/// Each step costs eight byte loads and stores in the padded degree array (decrement
/// the neighbours, form the eight keys) and a minimum over the keys, with no bounds
/// checks and, for `first`, `squirrel-cull` and `roth`, no branch that depends on the
/// board. Only when two moves share the smallest degree do `random` and `pohl` look
/// further. Roth's distance enters the keys cheaply: for the target `(r + dr, c + dc)`
/// and the doubled offset of the knight from the centre `(A, B) = (2r - (rows - 1),
/// 2c - (cols - 1))`, the squared doubled distance is `A² + B² + 4 (dr A + dc B) + 20`,
/// so the farthest target has the largest `dr A + dc B`.
fn walk<const MODE: u8>(
    board: Board,
    start: (usize, usize),
    flip: (bool, bool),
    tie: TieBreak,
    rng: &mut Rng,
    simd: bool,
) -> Run {
    let roth = MODE == Mode::Roth as u8;
    let look_further = MODE == Mode::LookFurther as u8;
    let (rows, cols) = (board.rows(), board.cols());
    let w = cols + 2 * PAD;
    let mut deg = padded_degrees(rows, cols);
    // Per move: the step in the padded array and in the output numbering.
    let mut step = [0isize; 8];
    let mut out_step = [0isize; 8];
    for (k, &(dr, dc)) in KNIGHT_OFFSETS.iter().enumerate() {
        let (dr, dc) = (dr as isize, dc as isize);
        step[k] = dr * w as isize + dc;
        let (or, oc) = (if flip.0 { -dr } else { dr }, if flip.1 { -dc } else { dc });
        out_step[k] = or * cols as isize + oc;
    }
    let padded = |(r, c): (usize, usize)| (r + PAD) * w + c + PAD;

    // Squirrel–Cull: the current ordering and the square where the next one starts.
    let table: Vec<([u8; 8], usize)> = if tie == TieBreak::SquirrelCull {
        squirrel_cull_table(rows)
            .into_iter()
            .map(|o| (o.rank, o.until.map_or(usize::MAX, padded)))
            .collect()
    } else {
        vec![([0, 1, 2, 3, 4, 5, 6, 7], usize::MAX)]
    };
    let mut rule = 0usize;
    let (mut rank, mut switch_at) = table[0];
    let mut low = low_bits(rank);

    // Roth: doubled offset of the knight from the centre.
    let (mut ra, mut rb) = (
        2 * start.0 as i64 - (rows as i64 - 1),
        2 * start.1 as i64 - (cols as i64 - 1),
    );

    let mut path = Vec::with_capacity(board.squares());
    let mut p = padded(start);
    let mut o = (if flip.0 { rows - 1 - start.0 } else { start.0 }) * cols
        + if flip.1 { cols - 1 - start.1 } else { start.1 };
    let mut ties = 0u64;
    if !look_further && !roth && simd {
        let args: MinKeysArgs = (
            &mut deg[..],
            p,
            o,
            w,
            &step,
            &out_step,
            &table[..],
            &mut path,
        );
        #[cfg(test)]
        if tests::PORTABLE.with(|c| c.get()) {
            let ties = walk_min_keys::<false>(args);
            return Run { path, ties };
        }
        let ties = walk_min_keys::<true>(args);
        return Run { path, ties };
    }
    #[cfg(target_arch = "x86_64")]
    if !look_further && simd && std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: SSE4.1 is present; `p` is a square of the board inside the border
        // of the padded array `deg`, as `sse::walk_keys` requires.
        let ties = unsafe {
            if roth {
                sse::walk_keys::<true>(
                    &mut deg,
                    p,
                    o,
                    (ra, rb),
                    &step,
                    &out_step,
                    &table,
                    &mut path,
                )
            } else {
                sse::walk_keys::<false>(
                    &mut deg,
                    p,
                    o,
                    (ra, rb),
                    &step,
                    &out_step,
                    &table,
                    &mut path,
                )
            }
        };
        return Run { path, ties };
    }
    let _ = simd;
    let deg_ptr = deg.as_mut_ptr();
    loop {
        path.push(o as u32);
        // SAFETY (every access through `deg_ptr` below): `p` is always a square of the
        // board inside the PAD-wide border (the start is, and the knight only moves to
        // squares whose degree byte is below GONE, which border bytes never are), so
        // `p + step[k]` is within the padded array for every k; `deg` is not touched
        // through any other path while the pointer is in use.
        unsafe { *deg_ptr.add(p) = VISITED };
        // The knight stands on the switch square: the next ordering decides from here.
        if p == switch_at {
            rule += 1;
            (rank, switch_at) = table[rule];
            low = low_bits(rank);
        }
        let mut keys = [0u64; 8];
        for k in 0..8 {
            let q = p.wrapping_add_signed(step[k]);
            debug_assert!(q < deg.len());
            // SAFETY: see above.
            let d = unsafe { *deg_ptr.add(q) }.wrapping_sub(1);
            unsafe { *deg_ptr.add(q) = d };
            let mut key = (u64::from(d) << DEG_SHIFT) | low[k];
            if roth {
                let (dr, dc) = KNIGHT_OFFSETS[k];
                let along = i64::from(dr) * ra + i64::from(dc) * rb;
                key |= ((ROTH_BIAS - along) as u64) << 8;
            }
            keys[k] = key;
        }
        let best = min_tree(&keys);
        if best >= u64::from(GONE) << DEG_SHIFT {
            break;
        }
        let above = ((best >> DEG_SHIFT) + 1) << DEG_SHIFT;
        let nt: u64 = keys.iter().map(|&x| u64::from(x < above)).sum();
        ties += u64::from(nt > 1);
        let mut k = (best & 7) as usize;
        if look_further && nt > 1 {
            let mut tied = (0..8).filter(|&j| keys[j] < above);
            if tie == TieBreak::Random {
                k = tied.nth(rng.random_range(0..nt as usize)).unwrap();
            } else {
                // Pohl: the smallest sum of the target's unvisited neighbours' degrees.
                k = tied
                    .min_by_key(|&j| {
                        let t = p.wrapping_add_signed(step[j]);
                        let sum: u32 = step
                            .iter()
                            // SAFETY: `t` is an unvisited square of the board, so its
                            // neighbours are within the padded array, as above.
                            .map(|&s| unsafe { *deg_ptr.add(t.wrapping_add_signed(s)) })
                            .filter(|&d| d < GONE)
                            .map(u32::from)
                            .sum();
                        (sum, j)
                    })
                    .unwrap();
            }
        }
        if roth {
            let (dr, dc) = KNIGHT_OFFSETS[k];
            ra += 2 * i64::from(dr);
            rb += 2 * i64::from(dc);
        }
        p = p.wrapping_add_signed(step[k]);
        o = o.wrapping_add_signed(out_step[k]);
    }
    Run { path, ties }
}

/// Bit position of the degree byte in a [`walk_min_keys`] key `degree << 40 | rank << 35
/// | k << 32 | step`, the step of move `k` in the padded array (at most `2 (MAX_SIDE + 2
/// PAD) + 1` in size) in the low 32 bits as a two's-complement `i32`.
const MK_DEG: u32 = 40;

/// The constant part of each move's key in [`walk_min_keys`] for one ordering.
fn min_key_consts(rank: [u8; 8], step: &[isize; 8]) -> [u64; 8] {
    std::array::from_fn(|k| {
        let s = i32::try_from(step[k]).expect("a knight step fits in 32 bits");
        (u64::from(rank[k]) << 35) | ((k as u64) << 32) | u64::from(s as u32)
    })
}

/// One step of [`walk_min_keys`] at the square `sq` points to: decrements the eight neighbours'
/// degree bytes and returns the smallest key and whether another key has its degree.
/// The second smallest key is the smallest of the keys that lost a comparison in the
/// tree (every key but the winner loses exactly once), so a tie is "the second smallest
/// key has the winner's degree".
///
/// # Safety
/// `sq + step[k]` is within the degree array `sq` points into, for every `k`.
#[inline(always)]
unsafe fn min_key_step<const ASM: bool>(
    sq: *mut u8,
    w: usize,
    step: &[isize; 8],
    consts: &[u64; 8],
) -> (u64, bool) {
    #[cfg(target_arch = "x86_64")]
    if ASM {
        debug_assert!(step[0] == -2 * (w as isize) + 1 && step[5] == w as isize - 2);
        let (best, second): (u64, u64);
        // SAFETY: the eight addresses are `sq + step[k]` (the clockwise knight offsets
        // in a row-major array of width `w`), within the array by the caller's promise;
        // `consts` is eight u64.
        unsafe {
            std::arch::asm!(
                "movzx {k0:e}, byte ptr [{p} + 2*{nw} + 1]",
                "lea {t:e}, [{k0} - 1]", "mov byte ptr [{p} + 2*{nw} + 1], {t:l}",
                "movzx {k1:e}, byte ptr [{p} + {nw} + 2]",
                "lea {t:e}, [{k1} - 1]", "mov byte ptr [{p} + {nw} + 2], {t:l}",
                "movzx {k2:e}, byte ptr [{p} + {w} + 2]",
                "lea {t:e}, [{k2} - 1]", "mov byte ptr [{p} + {w} + 2], {t:l}",
                "movzx {k3:e}, byte ptr [{p} + 2*{w} + 1]",
                "lea {t:e}, [{k3} - 1]", "mov byte ptr [{p} + 2*{w} + 1], {t:l}",
                "movzx {k4:e}, byte ptr [{p} + 2*{w} - 1]",
                "lea {t:e}, [{k4} - 1]", "mov byte ptr [{p} + 2*{w} - 1], {t:l}",
                "movzx {k5:e}, byte ptr [{p} + {w} - 2]",
                "lea {t:e}, [{k5} - 1]", "mov byte ptr [{p} + {w} - 2], {t:l}",
                "movzx {k6:e}, byte ptr [{p} + {nw} - 2]",
                "lea {t:e}, [{k6} - 1]", "mov byte ptr [{p} + {nw} - 2], {t:l}",
                "movzx {k7:e}, byte ptr [{p} + 2*{nw} - 1]",
                "lea {t:e}, [{k7} - 1]", "mov byte ptr [{p} + 2*{nw} - 1], {t:l}",
                "shl {k0}, 40",
                "shl {k1}, 40",
                "shl {k2}, 40",
                "shl {k3}, 40",
                "shl {k4}, 40",
                "shl {k5}, 40",
                "shl {k6}, 40",
                "shl {k7}, 40",
                "or {k0}, qword ptr [{c}]",
                "or {k1}, qword ptr [{c} + 8]",
                "or {k2}, qword ptr [{c} + 16]",
                "or {k3}, qword ptr [{c} + 24]",
                "or {k4}, qword ptr [{c} + 32]",
                "or {k5}, qword ptr [{c} + 40]",
                "or {k6}, qword ptr [{c} + 48]",
                "or {k7}, qword ptr [{c} + 56]",
                // Each node: the smaller key to the left register, the larger (the
                // loser) to the right one.
                "mov {t}, {k0}", "cmp {k1}, {k0}", "cmovb {k0}, {k1}", "cmovb {k1}, {t}",
                "mov {t}, {k2}", "cmp {k3}, {k2}", "cmovb {k2}, {k3}", "cmovb {k3}, {t}",
                "mov {t}, {k4}", "cmp {k5}, {k4}", "cmovb {k4}, {k5}", "cmovb {k5}, {t}",
                "mov {t}, {k6}", "cmp {k7}, {k6}", "cmovb {k6}, {k7}", "cmovb {k7}, {t}",
                "mov {t}, {k0}", "cmp {k2}, {k0}", "cmovb {k0}, {k2}", "cmovb {k2}, {t}",
                "mov {t}, {k4}", "cmp {k6}, {k4}", "cmovb {k4}, {k6}", "cmovb {k6}, {t}",
                "mov {t}, {k0}", "cmp {k4}, {k0}", "cmovb {k0}, {k4}", "cmovb {k4}, {t}",
                // The smallest loser.
                "cmp {k3}, {k1}", "cmovb {k1}, {k3}",
                "cmp {k7}, {k5}", "cmovb {k5}, {k7}",
                "cmp {k6}, {k2}", "cmovb {k2}, {k6}",
                "cmp {k5}, {k1}", "cmovb {k1}, {k5}",
                "cmp {k4}, {k2}", "cmovb {k2}, {k4}",
                "cmp {k2}, {k1}", "cmovb {k1}, {k2}",
                p = in(reg) sq,
                w = in(reg) w,
                nw = in(reg) w.wrapping_neg(),
                c = in(reg) consts.as_ptr(),
                k0 = out(reg) best,
                k1 = out(reg) second,
                k2 = out(reg) _,
                k3 = out(reg) _,
                k4 = out(reg) _,
                k5 = out(reg) _,
                k6 = out(reg) _,
                k7 = out(reg) _,
                t = out(reg) _,
                options(nostack),
            );
        }
        return (best, (best ^ second) >> MK_DEG == 0);
    }
    let _ = w;
    let mut keys = [0u64; 8];
    for k in 0..8 {
        // SAFETY: the caller's promise.
        unsafe {
            let q = sq.offset(step[k]);
            let x = *q;
            *q = x.wrapping_sub(1);
            keys[k] = (u64::from(x) << MK_DEG) | consts[k];
        }
    }
    let best = min_tree(&keys);
    let above = (best | ((1 << MK_DEG) - 1)) + 1;
    let nt: u32 = keys.iter().map(|&x| u32::from(x < above)).sum();
    (best, nt > 1)
}

/// The `first` and `squirrel-cull` walk. Each step's critical path is as short as we
/// could make it: the eight degree bytes are loaded (their decrements stored beside, off
/// the path), each forms a 64-bit key `degree, rank, move, step` by one shift and one
/// OR with a per-ordering constant, and a three-level tree of compare and conditional
/// move gives the key of the chosen move, whose low 32 bits are the step to the next
/// square: no table look-up or index extraction stands between one step's loads and the
/// next. The raw byte (one more than the decremented degree for an unvisited square)
/// orders the moves like the degree. On x86-64 the step is written in assembly
/// (`ASM`), as the compiler's version spilled registers and doubled the instruction
/// count. The moves and tie counts are those of the scalar walk (tested).
type MinKeysArgs<'a> = (
    &'a mut [u8],
    usize,
    usize,
    usize,
    &'a [isize; 8],
    &'a [isize; 8],
    &'a [([u8; 8], usize)],
    &'a mut Vec<u32>,
);

/// Arguments: the padded degrees, the start (padded square, output square), the padded
/// width, the steps in the padded array and in the output, the orderings with their
/// switch squares, and the path (with room for every square) to write to.
fn walk_min_keys<const ASM: bool>(
    (deg, p, mut o, w, step, out_step, table, path): MinKeysArgs<'_>,
) -> u64 {
    assert!(deg.len() < isize::MAX as usize && w < isize::MAX as usize && p < deg.len());
    let ptr = deg.as_mut_ptr();
    // The knight's square, as a pointer into `deg` (one add per step, no index).
    let mut sq = ptr.wrapping_add(p);
    let cap = path.capacity() - path.len();
    let out = path.spare_capacity_mut().as_mut_ptr();
    let mut n = 0usize;
    let mut rule = 0usize;
    let (rank, mut switch_at) = table[0];
    let mut consts = min_key_consts(rank, step);
    let mut ties = 0u64;
    loop {
        // Every square is written at most once, and `cap` covers the whole board.
        assert!(n < cap);
        // SAFETY: `n < cap`, within the spare capacity.
        unsafe { (*out.add(n)).write(o as u32) };
        n += 1;
        // SAFETY (every access through `sq`): `sq` always points to a square of the
        // board inside the PAD-wide border of `deg` (the start does, and the knight only
        // moves to squares whose byte is below GONE, which border bytes never are), so
        // `sq + step[k]` is within `deg` for every k.
        unsafe { *sq = VISITED };
        if sq as usize == (ptr as usize).wrapping_add(switch_at) {
            rule += 1;
            let (rank, next) = table[rule];
            switch_at = next;
            consts = min_key_consts(rank, step);
        }
        // SAFETY: see above.
        let (best, tie) = unsafe { min_key_step::<ASM>(sq, w, step, &consts) };
        if (best >> MK_DEG) as u8 > GONE {
            break;
        }
        ties += u64::from(tie);
        let k = ((best >> 32) & 7) as usize;
        sq = sq.wrapping_offset(best as u32 as i32 as isize);
        o = o.wrapping_add_signed(out_step[k]);
    }
    // SAFETY: the first `n` spare slots were written above.
    unsafe { path.set_len(path.len() + n) };
    ties
}

/// The `first`, `squirrel-cull` and `roth` walk with SSE4.1: the eight decremented
/// degrees are gathered into one 64-bit word, interleaved with the ordering's ranks into
/// eight 16-bit keys `degree << 8 | rank`, and `PHMINPOSUW` returns the smallest key and
/// its lane (the move) in one instruction; a byte compare against the smallest degree
/// finds the tied moves. `roth` (clockwise ranks) then takes, among the tied moves only,
/// the largest `dr A + dc B`, the first in clockwise order among equals. The moves
/// chosen are those of the scalar walk (tested).
#[cfg(target_arch = "x86_64")]
mod sse {
    use std::arch::x86_64::*;

    use super::{GONE, VISITED};
    use crate::board::KNIGHT_OFFSETS;

    /// Walk from padded square `p` (output square `o`) until stuck, pushing output
    /// squares onto `path`; returns the number of steps that had a tie.
    ///
    /// # Safety
    /// The CPU has SSE4.1, and `p` is a square of the board inside the PAD-wide border
    /// of the padded degree array `deg` (border bytes [`VISITED`]), so every square the
    /// knight reaches is too and `q + step[k]` stays inside `deg`.
    #[target_feature(enable = "sse4.1")]
    #[allow(clippy::too_many_arguments)]
    pub(super) unsafe fn walk_keys<const ROTH: bool>(
        deg: &mut [u8],
        mut p: usize,
        mut o: usize,
        (mut ra, mut rb): (i64, i64),
        step: &[isize; 8],
        out_step: &[isize; 8],
        table: &[([u8; 8], usize)],
        path: &mut Vec<u32>,
    ) -> u64 {
        let ptr = deg.as_mut_ptr();
        let mut rule = 0usize;
        let (rank, mut switch_at) = table[0];
        let mut rank_v = _mm_cvtsi64_si128(i64::from_le_bytes(rank));
        let mut ties = 0u64;
        loop {
            path.push(o as u32);
            // SAFETY: `p` and its knight moves are inside `deg` (see above).
            unsafe { *ptr.add(p) = VISITED };
            if p == switch_at {
                rule += 1;
                let (rank, next) = table[rule];
                switch_at = next;
                rank_v = _mm_cvtsi64_si128(i64::from_le_bytes(rank));
            }
            let mut d = 0u64;
            for (k, &s) in step.iter().enumerate() {
                // SAFETY: as above.
                unsafe {
                    let q = ptr.add(p.wrapping_add_signed(s));
                    let x = (*q).wrapping_sub(1);
                    *q = x;
                    d |= u64::from(x) << (8 * k);
                }
            }
            let dv = _mm_cvtsi64_si128(d as i64);
            // Lane k: rank (low byte) and degree (high byte).
            let keys = _mm_unpacklo_epi8(rank_v, dv);
            let m = _mm_cvtsi128_si32(_mm_minpos_epu16(keys)) as u32;
            let min_deg = (m >> 8) & 0xFF;
            if min_deg >= u32::from(GONE) {
                break;
            }
            let tied = _mm_movemask_epi8(_mm_cmpeq_epi8(dv, _mm_set1_epi8(min_deg as i8))) & 0xFF;
            let is_tie = tied & (tied - 1) != 0;
            ties += u64::from(is_tie);
            let mut k = ((m >> 16) & 7) as usize;
            if ROTH {
                if is_tie {
                    let mut best = i64::MIN;
                    let mut rest = tied;
                    while rest != 0 {
                        let j = rest.trailing_zeros() as usize;
                        rest &= rest - 1;
                        let (dr, dc) = KNIGHT_OFFSETS[j];
                        let along = i64::from(dr) * ra + i64::from(dc) * rb;
                        if along > best {
                            (best, k) = (along, j);
                        }
                    }
                }
                let (dr, dc) = KNIGHT_OFFSETS[k];
                ra += 2 * i64::from(dr);
                rb += 2 * i64::from(dc);
            }
            p = p.wrapping_add_signed(step[k]);
            o = o.wrapping_add_signed(out_step[k]);
        }
        ties
    }
}

/// The low key bits of each move for an ordering: `rank << 3 | k`.
fn low_bits(rank: [u8; 8]) -> [u64; 8] {
    std::array::from_fn(|k| (u64::from(rank[k]) << 3) | k as u64)
}

/// Smallest of eight keys as a tree, so the step's critical path has three levels.
#[inline(always)]
fn min_tree(x: &[u64; 8]) -> u64 {
    let a = x[0].min(x[1]).min(x[2].min(x[3]));
    let b = x[4].min(x[5]).min(x[6].min(x[7]));
    a.min(b)
}

/// Warnsdorff's rule as a [`Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WarnsdorffSolver {
    pub tie: TieBreak,
    /// Extra attempts after a failure (random tie-break only).
    pub restarts: u32,
}

impl WarnsdorffSolver {
    pub fn new(tie: TieBreak) -> WarnsdorffSolver {
        WarnsdorffSolver { tie, restarts: 0 }
    }
}

/// Bytes per square a Warnsdorff run plans: degree byte, tour (u32) and the oracle's
/// position table (u32).
const BYTES_PER_SQUARE: u64 = 9;

impl Solver for WarnsdorffSolver {
    fn name(&self) -> String {
        "warnsdorff".into()
    }

    fn variant(&self) -> Option<String> {
        Some(self.tie.name().into())
    }

    fn check(&self, req: &Request) -> Result<(), InputError> {
        if self.restarts > 0 && !self.tie.is_random() {
            return Err(InputError::param(format!(
                "--restarts applies to the random tie-break only: warnsdorff:{} is deterministic and would repeat the same run",
                self.tie
            )));
        }
        classical::check_possible(req, classical::wants_closed(req))?;
        classical::check_reverse(req, "warnsdorff")?;
        let bytes = req.board.squares() as u64 * BYTES_PER_SQUARE;
        crate::graph::check_bytes(req.board, bytes, "warnsdorff")
    }

    fn solve(&self, req: &Request, rng: &mut Rng) -> Result<Solution, InputError> {
        self.check(req)?;
        let board = req.board;
        let closed = classical::wants_closed(req);
        let start = classical::start_square(req);
        let mut attempts = 0u64;
        let mut last;
        loop {
            attempts += 1;
            last = run(board, start, self.tie, rng);
            let complete = last.complete(board);
            let ok = complete
                && (!closed
                    || (board.squares() > 2
                        && board.is_knight_move(*last.path.last().unwrap(), start)));
            if ok || attempts > self.restarts as u64 {
                break;
            }
        }
        let complete = last.complete(board);
        let mut extra = serde_json::Map::new();
        extra.insert("visited".into(), json!(last.path.len()));
        extra.insert("ties".into(), json!(last.ties));
        let outcome = if complete {
            "tour".to_string()
        } else {
            "stuck".to_string()
        };
        let steps = Some(last.path.len() as u64 - 1);
        let squares = complete.then_some(last.path);
        classical::finish(
            "warnsdorff",
            Some(self.tie.name().into()),
            req,
            squares,
            Report {
                outcome,
                attempts,
                steps,
                extra,
            },
        )
    }
}

/// The first implementation (bounds checks on every move, keys computed on the fly),
/// kept as the oracle that the fast path above must reproduce move for move.
#[cfg(test)]
mod reference {
    use rand::Rng as _;

    use super::{squirrel_cull_table, Run, TieBreak, VISITED};
    use crate::board::{Board, KNIGHT_OFFSETS};
    use crate::Rng;

    /// One run of Warnsdorff's rule from `start` with the given tie-break. `rng` is used
    /// only by [`TieBreak::Random`]. Works on any board size the caller can afford.
    pub(super) fn run(board: Board, start: u32, tie: TieBreak, rng: &mut Rng) -> Run {
        // Squirrel–Cull is defined from the top-left corner of a square board; the other
        // corners run in the reflected frame and map back.
        let (rows, cols) = (board.rows(), board.cols());
        let (sr, sc) = board.coords(start);
        let (flip_r, flip_c) = if tie == TieBreak::SquirrelCull
            && rows == cols
            && (sr == 0 || sr == rows - 1)
            && (sc == 0 || sc == cols - 1)
        {
            (sr != 0, sc != 0)
        } else {
            (false, false)
        };
        let map = |r: usize, c: usize| {
            (
                if flip_r { rows - 1 - r } else { r },
                if flip_c { cols - 1 - c } else { c },
            )
        };
        let (vr, vc) = map(sr, sc);
        let mut out = run_frame(board, (vr, vc), tie, rng);
        if flip_r || flip_c {
            for s in out.path.iter_mut() {
                let (r, c) = board.coords(*s);
                let (r, c) = map(r, c);
                *s = board.index(r, c);
            }
        }
        out
    }

    fn run_frame(board: Board, start: (usize, usize), tie: TieBreak, rng: &mut Rng) -> Run {
        let (rows, cols) = (board.rows(), board.cols());
        let n = board.squares();
        let offs: Vec<(i64, i64, i64)> = KNIGHT_OFFSETS
            .iter()
            .map(|&(dr, dc)| (dr as i64, dc as i64, dr as i64 * cols as i64 + dc as i64))
            .collect();
        let on = |r: usize, c: usize, k: usize| -> bool {
            let (nr, nc) = (r as i64 + offs[k].0, c as i64 + offs[k].1);
            nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols
        };
        // deg[s] = number of unvisited neighbours of s, or VISITED.
        let mut deg = vec![0u8; n];
        for r in 0..rows {
            for c in 0..cols {
                deg[r * cols + c] = (0..8).filter(|&k| on(r, c, k)).count() as u8;
            }
        }
        let table = if tie == TieBreak::SquirrelCull {
            squirrel_cull_table(rows)
        } else {
            Vec::new()
        };
        let mut rule = 0usize;
        // Doubled coordinates of the centre, for Roth's distance.
        let (cr2, cc2) = (rows as i64 - 1, cols as i64 - 1);
        let dist2 = |r: usize, c: usize| {
            let (a, b) = (2 * r as i64 - cr2, 2 * c as i64 - cc2);
            a * a + b * b
        };

        let mut path = Vec::with_capacity(n);
        let (mut r, mut c) = start;
        let mut ties = 0u64;
        loop {
            let s = r * cols + c;
            path.push(s as u32);
            deg[s] = VISITED;
            // Candidates: unvisited neighbours, after removing s from their counts.
            let mut cand = [(0usize, 0u8); 8];
            let mut nc = 0;
            for (k, off) in offs.iter().enumerate() {
                if on(r, c, k) {
                    let t = (s as i64 + off.2) as usize;
                    if deg[t] != VISITED {
                        deg[t] -= 1;
                        cand[nc] = (k, deg[t]);
                        nc += 1;
                    }
                }
            }
            if nc == 0 {
                break;
            }
            if let Some(ord) = table.get(rule) {
                if ord.until == Some((r, c)) && rule + 1 < table.len() {
                    rule += 1;
                }
            }
            let min = cand[..nc].iter().map(|x| x.1).min().unwrap();
            let mut tied = [0usize; 8];
            let mut nt = 0;
            for &(k, d) in &cand[..nc] {
                if d == min {
                    tied[nt] = k;
                    nt += 1;
                }
            }
            let target = |k: usize| (r as i64 + offs[k].0, c as i64 + offs[k].1);
            let k = if nt == 1 {
                tied[0]
            } else {
                ties += 1;
                match tie {
                    TieBreak::First => tied[0],
                    TieBreak::Random => tied[rng.random_range(0..nt)],
                    TieBreak::Roth => *tied[..nt]
                        .iter()
                        .max_by_key(|&&k| {
                            let (tr, tc) = target(k);
                            // Largest distance; among equals the first in clockwise order.
                            (dist2(tr as usize, tc as usize), std::cmp::Reverse(k))
                        })
                        .unwrap(),
                    TieBreak::Pohl => *tied[..nt]
                        .iter()
                        .min_by_key(|&&k| {
                            let (tr, tc) = target(k);
                            let (tr, tc) = (tr as usize, tc as usize);
                            let t = tr * cols + tc;
                            let sum: u32 = (0..8)
                                .filter(|&j| on(tr, tc, j))
                                .map(|j| deg[(t as i64 + offs[j].2) as usize])
                                .filter(|&d| d != VISITED)
                                .map(u32::from)
                                .sum();
                            (sum, k)
                        })
                        .unwrap(),
                    TieBreak::SquirrelCull => {
                        let ord = &table[rule];
                        *tied[..nt].iter().min_by_key(|&&k| ord.rank[k]).unwrap()
                    }
                }
            };
            let (nr, ncol) = target(k);
            r = nr as usize;
            c = ncol as usize;
        }
        Run { path, ties }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng_from_seed;
    use std::cell::Cell;

    thread_local! {
        /// Runs `first` and `squirrel-cull` with the portable step of the min-key walk
        /// instead of the assembly one.
        pub(super) static PORTABLE: Cell<bool> = const { Cell::new(false) };
    }

    /// The fast path and the reference give the same path and tie count.
    fn same_as_reference(b: Board, start: u32, tie: TieBreak, seed: u64) {
        let fast = run(b, start, tie, &mut rng_from_seed(seed));
        let slow = reference::run(b, start, tie, &mut rng_from_seed(seed));
        assert_eq!(
            (fast.ties, fast.path.len()),
            (slow.ties, slow.path.len()),
            "{tie} on {b} from {start}"
        );
        assert!(
            fast.path == slow.path,
            "{tie} on {b} from {start}: paths differ"
        );
        if matches!(tie, TieBreak::First | TieBreak::SquirrelCull) {
            PORTABLE.with(|c| c.set(true));
            let portable = run(b, start, tie, &mut rng_from_seed(seed));
            PORTABLE.with(|c| c.set(false));
            assert_eq!(portable.ties, slow.ties, "{tie} on {b} from {start}");
            assert!(portable.path == slow.path, "{tie} on {b} from {start}");
        }
        let scalar = run_with(b, start, tie, &mut rng_from_seed(seed), false);
        assert_eq!(scalar.ties, slow.ties, "{tie} on {b} from {start}");
        assert!(scalar.path == slow.path, "{tie} on {b} from {start}");
    }

    #[test]
    fn padded_degrees_match_the_move_count() {
        for (m, n) in [(1, 1), (1, 7), (2, 2), (3, 4), (5, 5), (8, 8), (7, 12)] {
            let b = Board::new(m, n).unwrap();
            let deg = padded_degrees(m, n);
            let w = n + 2 * PAD;
            for s in 0..b.squares() as u32 {
                let (r, c) = b.coords(s);
                let d = deg[(r + PAD) * w + c + PAD];
                assert_eq!(d as usize, b.knight_moves(s).count(), "{b} {r},{c}");
            }
            assert_eq!(deg.iter().filter(|&&d| d != VISITED).count(), b.squares());
        }
    }

    #[test]
    fn fast_path_matches_reference_on_every_start_of_small_boards() {
        // Every tie-break, every start square, square and oblong boards up to 16 a side
        // (including boards with no tour, where both get stuck at the same square).
        for m in 1..=16 {
            for n in [m, m + 1, m + 3] {
                let b = Board::new(m, n).unwrap();
                for start in 0..b.squares() as u32 {
                    for tie in TieBreak::ALL {
                        same_as_reference(b, start, tie, u64::from(start));
                    }
                }
            }
        }
    }

    #[test]
    fn fast_path_matches_reference_from_corners_of_large_boards() {
        // Squirrel–Cull from all four corners (the reflected frames), the others from
        // the corner and the middle; sizes cover every residue mod 8 and 16.
        for m in (17..=140).chain([200, 251, 333, 500]) {
            let b = Board::new(m, m).unwrap();
            let corners = [0, m - 1, m * (m - 1), m * m - 1].map(|s| s as u32);
            for &s in &corners {
                same_as_reference(b, s, TieBreak::SquirrelCull, 0);
            }
            for tie in [
                TieBreak::Roth,
                TieBreak::Pohl,
                TieBreak::First,
                TieBreak::Random,
            ] {
                same_as_reference(b, 0, tie, m as u64);
                same_as_reference(b, b.index(m / 2, m / 3), tie, 7);
            }
        }
        let wide = Board::new(40, 300).unwrap();
        for tie in TieBreak::ALL {
            same_as_reference(wide, 0, tie, 3);
            same_as_reference(wide, wide.index(39, 299), tie, 3);
        }
    }

    #[test]
    fn squirrel_cull_numbering_matches_the_published_record() {
        // Ganzfried 2004: the table gives a tour from the corner for all 5 <= m < 112
        // except m = 74. A wrong move numbering fails on many sizes.
        let mut rng = rng_from_seed(1);
        let mut failures = Vec::new();
        for m in 5..=120 {
            let b = Board::new(m, m).unwrap();
            if !run(b, 0, TieBreak::SquirrelCull, &mut rng).complete(b) {
                failures.push(m);
            }
        }
        assert_eq!(failures, vec![74]);
    }
}

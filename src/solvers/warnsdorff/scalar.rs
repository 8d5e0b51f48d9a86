//! The scalar Warnsdorff walk: one loop for every tie-break. It forms a 64-bit key per
//! move and takes the smallest; only when two moves share the smallest degree do `random`
//! and `pohl` look further. The only walk for `random` and `pohl`, and the reference the
//! faster walks of `first`, `squirrel-cull` and `roth` are tested against (besides the
//! original implementation kept in the tests).

use rand::Rng as _;

use super::frame::{Frame, GONE, VISITED};
use super::{Run, TieBreak};
use crate::Rng;

// A move's key is `degree << DEG_SHIFT | rank << 3 | k`, or for `roth` its `roth::key`
// (Roth's distance between the degree and the move). The smallest key is Warnsdorff's
// move: fewest onward moves, then Roth's distance, then the rank in the current ordering
// (the clockwise order, or Squirrel–Cull's); the low bits name the move itself.
use super::roth::{self, DEG_SHIFT};

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

/// Walk from the frame's start until stuck with tie-break `tie` (`rng` is drawn from by
/// `random` only).
pub(super) fn walk(frame: Frame, tie: TieBreak, rng: &mut Rng) -> Run {
    match tie {
        TieBreak::First | TieBreak::SquirrelCull => {
            walk_mode::<{ Mode::Keys as u8 }>(frame, tie, rng)
        }
        TieBreak::Roth => walk_mode::<{ Mode::Roth as u8 }>(frame, tie, rng),
        TieBreak::Random | TieBreak::Pohl => {
            walk_mode::<{ Mode::LookFurther as u8 }>(frame, tie, rng)
        }
    }
}

/// Each step costs eight byte loads and stores in the padded degree array (decrement
/// the neighbours, form the eight keys) and a minimum over the keys, with no bounds
/// checks and, for `first`, `squirrel-cull` and `roth`, no branch that depends on the
/// board. Roth's distance enters the keys cheaply (see [`roth`]).
fn walk_mode<const MODE: u8>(frame: Frame, tie: TieBreak, rng: &mut Rng) -> Run {
    let roth = MODE == Mode::Roth as u8;
    let look_further = MODE == Mode::LookFurther as u8;
    let Frame {
        mut deg,
        step,
        out_step,
        start: mut p,
        out_start: mut o,
        mut centre,
        orderings,
        mut path,
        ..
    } = frame;
    let mut rule = 0usize;
    let mut switch_at = orderings[0].at;
    let mut low = low_bits(orderings[0].rank);
    let mut ties = 0u64;
    let deg_ptr = deg.as_mut_ptr();
    loop {
        path.push(o as u32);
        // SAFETY: every access through `deg_ptr` below is sound: by the invariants of `Frame`,
        // which this loop keeps (it writes VISITED at the current square, decrements its
        // eight targets, and moves only to a target whose byte is below GONE), `p` is a
        // board square and `p + step[k]` an index of `deg` for every k. `deg` is owned
        // here and not accessed otherwise while the pointer is in use.
        unsafe { *deg_ptr.add(p) = VISITED };
        // The knight stands on the switch square: the next ordering decides from here.
        // (The last ordering's switch square is never reached, so `rule + 1` exists.)
        if p == switch_at {
            rule += 1;
            switch_at = orderings[rule].at;
            low = low_bits(orderings[rule].rank);
        }
        let mut keys = [0u64; 8];
        for k in 0..8 {
            let q = p.wrapping_add_signed(step[k]);
            debug_assert!(q < deg.len());
            // SAFETY: `q = p + step[k]`, in `deg` (see above).
            let d = unsafe {
                let d = (*deg_ptr.add(q)).wrapping_sub(1);
                *deg_ptr.add(q) = d;
                d
            };
            keys[k] = if roth {
                roth::key(d, k, centre)
            } else {
                (u64::from(d) << DEG_SHIFT) | low[k]
            };
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
                            // SAFETY: `t` is a target with a byte below GONE, so an
                            // unvisited board square (see above), and `t + s` is in
                            // `deg` for each of its steps `s`.
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
            centre = roth::moved(k, centre);
        }
        p = p.wrapping_add_signed(step[k]);
        o = o.wrapping_add_signed(out_step[k]);
    }
    Run { path, ties }
}

/// The low key bits of each move for an ordering: `rank << 3 | k`.
fn low_bits(rank: [u8; 8]) -> [u64; 8] {
    std::array::from_fn(|k| (u64::from(rank[k]) << 3) | k as u64)
}

/// Smallest of eight keys as a tree, so the step's critical path has three levels.
#[inline(always)]
pub(super) fn min_tree(x: &[u64; 8]) -> u64 {
    let a = x[0].min(x[1]).min(x[2].min(x[3]));
    let b = x[4].min(x[5]).min(x[6].min(x[7]));
    a.min(b)
}

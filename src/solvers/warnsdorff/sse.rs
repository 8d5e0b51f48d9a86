//! The `roth` walk with SSE4.1 (feature `asm`, x86-64): the eight decremented degrees are
//! gathered into one 64-bit word, interleaved with the clockwise ranks into eight 16-bit
//! keys `degree << 8 | rank`, and `PHMINPOSUW` returns the smallest key and its lane (the
//! move) in one instruction; a byte compare against the smallest degree finds the tied
//! moves, and among those only the largest [`roth::along`] (the farthest target from the
//! centre) wins, the first in clockwise order among equals: Roth's order (`super::roth`). The
//! moves chosen are those of the scalar walk (tested).

use std::arch::x86_64::*;

use super::frame::{Frame, GONE, VISITED};
use super::{Run, roth};

/// Proof that this CPU has SSE4.1: made only by [`Sse41::detect`], so [`walk_roth`],
/// which takes one, never runs SSE4.1 code on a CPU without it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sse41(());

impl Sse41 {
    /// `Some` when the CPU has SSE4.1.
    pub(super) fn detect() -> Option<Sse41> {
        std::arch::is_x86_feature_detected!("sse4.1").then_some(Sse41(()))
    }
}

/// Walk `roth` from the frame's start until stuck.
pub(super) fn walk_roth(frame: Frame, _cpu: Sse41) -> Run {
    // SAFETY: the token proves the CPU has SSE4.1, all that `walk` enables.
    unsafe { walk(frame) }
}

/// # Safety
/// The CPU has SSE4.1.
#[target_feature(enable = "sse4.1")]
unsafe fn walk(frame: Frame) -> Run {
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
    let ptr = deg.as_mut_ptr();
    // `roth` has the one clockwise ordering, whose switch square is never reached.
    let rank_v = _mm_cvtsi64_si128(i64::from_le_bytes(orderings[0].rank));
    let mut ties = 0u64;
    loop {
        path.push(o as u32);
        // SAFETY: every access through `ptr` is sound: by the invariants of `Frame`, which this
        // loop keeps (it writes VISITED at the current square, decrements its eight
        // targets, and moves only to a target whose byte, the minimum's, is below GONE),
        // `p` is a board square and `p + step[k]` an index of `deg` for every k. `deg` is
        // owned here and not accessed otherwise while the pointer is in use.
        unsafe { *ptr.add(p) = VISITED };
        let mut d = 0u64;
        for (k, &s) in step.iter().enumerate() {
            // SAFETY: `p + s` is in `deg` (see above).
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
        if is_tie {
            let mut best = i64::MIN;
            let mut rest = tied;
            while rest != 0 {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let along = roth::along(j, centre);
                if along > best {
                    (best, k) = (along, j);
                }
            }
        }
        centre = roth::moved(k, centre);
        p = p.wrapping_add_signed(step[k]);
        o = o.wrapping_add_signed(out_step[k]);
    }
    Run { path, ties }
}

//! The min-key walk for `first` and `squirrel-cull`, and its portable step. Each step's
//! critical path is as short as we could make it: the eight degree bytes are loaded
//! (their decrements stored beside, off the path), each forms a 64-bit key `degree, rank,
//! move, step` by one shift and one OR with a per-ordering constant, and a three-level
//! tree of compare and conditional move gives the key of the chosen move, whose low 32
//! bits are the step to the next square: no table look-up or index extraction stands
//! between one step's loads and the next. The raw byte (one more than the decremented
//! degree for an unvisited square) orders the moves like the degree. The step itself is
//! a [`KeyStep`]: [`Portable`] here, or the x86-64 assembly of `super::asm` (feature
//! `asm`). The moves and tie counts are those of the scalar walk (tested).

use super::Run;
use super::frame::{Frame, GONE, VISITED};

/// Bit position of the degree byte in a key `degree << 40 | rank << 35 | k << 32 | step`,
/// the step of move `k` in the padded array (at most `2 (MAX_SIDE + 2 PAD) + 1` in size)
/// in the low 32 bits as a two's-complement `i32`.
pub(super) const MK_DEG: u32 = 40;

/// One step of the min-key walk at the square `sq` points to: decrements the eight
/// neighbours' degree bytes and returns the smallest key and whether another key has its
/// degree. The second smallest key is the smallest of the keys that lost a comparison in
/// the tree (every key but the winner loses exactly once), so a tie is "the second
/// smallest key has the winner's degree".
pub(super) trait KeyStep {
    /// # Safety
    /// `sq` points to a board square of a [`Frame`]'s degree array whose width is `w` and
    /// whose knight steps are `step` (so every `sq + step[k]` is in the array), and the
    /// array is not accessed otherwise during the call. Implementations access only the
    /// eight bytes `sq + step[k]` and the eight words of `consts`.
    unsafe fn step(sq: *mut u8, w: usize, step: &[isize; 8], consts: &[u64; 8]) -> (u64, bool);
}

/// The step in plain Rust, for every target: the assembly step's algorithm (`super::asm`)
/// written so the compiler can keep it in registers. The eight addresses are `sq + dr w +
/// dc` with the offsets as constants, which x86-64 forms as `[p ± 2w ± 1]` and `[p ± w ±
/// 2]` from `w` and `−w` (no step table to load), and the tie is found from the smallest
/// loser of the tree, not by counting keys.
pub(super) struct Portable;

/// One node of the tree: `(smaller, larger)`.
#[inline(always)]
fn node(a: u64, b: u64) -> (u64, u64) {
    if b < a { (b, a) } else { (a, b) }
}

impl KeyStep for Portable {
    #[inline(always)]
    unsafe fn step(sq: *mut u8, w: usize, step: &[isize; 8], consts: &[u64; 8]) -> (u64, bool) {
        // The addresses below are `sq + step[k]` for the frame's steps.
        debug_assert!(
            *step
                == crate::board::KNIGHT_OFFSETS
                    .map(|(dr, dc)| dr as isize * w as isize + dc as isize)
        );
        let w = w as isize;
        let key = |k: usize| {
            let (dr, dc) = crate::board::KNIGHT_OFFSETS[k];
            // SAFETY: `sq + dr w + dc` is `sq + step[k]` (above), in the degree array by
            // the caller's promise.
            unsafe {
                let q = sq.offset(dr as isize * w + dc as isize);
                let x = *q;
                *q = x.wrapping_sub(1);
                (u64::from(x) << MK_DEG) | consts[k]
            }
        };
        let (k0, k1, k2, k3) = (key(0), key(1), key(2), key(3));
        let (k4, k5, k6, k7) = (key(4), key(5), key(6), key(7));
        let (a01, l01) = node(k0, k1);
        let (a23, l23) = node(k2, k3);
        let (a45, l45) = node(k4, k5);
        let (a67, l67) = node(k6, k7);
        let (a03, l03) = node(a01, a23);
        let (a47, l47) = node(a45, a67);
        let (best, l07) = node(a03, a47);
        // Every key but the winner loses exactly once: the second smallest key is the
        // smallest loser.
        let second = l01.min(l23).min(l45.min(l67)).min(l03.min(l47).min(l07));
        (best, (best ^ second) >> MK_DEG == 0)
    }
}

/// The constant part of each move's key for one ordering.
fn min_key_consts(rank: [u8; 8], step: &[isize; 8]) -> [u64; 8] {
    std::array::from_fn(|k| {
        let s = i32::try_from(step[k]).expect("a knight step fits in 32 bits");
        (u64::from(rank[k]) << 35) | ((k as u64) << 32) | u64::from(s as u32)
    })
}

/// Walk from the frame's start until stuck, with step `S`.
pub(super) fn walk<S: KeyStep>(frame: Frame) -> Run {
    let Frame {
        mut deg,
        w,
        step,
        out_step,
        start,
        out_start: mut o,
        orderings,
        squares,
        mut path,
        ..
    } = frame;
    let ptr = deg.as_mut_ptr();
    // The knight's square, as a pointer into `deg` (one add per step, no index).
    let mut sq = ptr.wrapping_add(start);
    let out = path.spare_capacity_mut().as_mut_ptr();
    let mut n = 0usize;
    let mut rule = 0usize;
    let mut switch_at = orderings[0].at;
    let mut consts = min_key_consts(orderings[0].rank, &step);
    let mut ties = 0u64;
    loop {
        // Every square is written at most once, and the capacity covers the board; the
        // check costs a predictable branch and keeps the writes below in bounds whatever
        // happens.
        assert!(n < squares);
        // SAFETY: `n < squares <= path.capacity()`, a slot of the spare capacity.
        unsafe { (*out.add(n)).write(o as u32) };
        n += 1;
        // SAFETY: every access through `sq` is sound: by the invariants of `Frame`, which this
        // loop keeps (it writes VISITED at the current square, the step decrements its
        // eight targets, and it moves only to a target whose byte is below GONE), `sq`
        // points to a board square of `deg` and `sq + step[k]` into `deg` for every k.
        // `deg` is owned here and not accessed otherwise while the pointer is in use.
        unsafe { *sq = VISITED };
        if sq as usize == (ptr as usize).wrapping_add(switch_at) {
            rule += 1;
            switch_at = orderings[rule].at;
            consts = min_key_consts(orderings[rule].rank, &step);
        }
        // SAFETY: see above; `w` and `step` are the frame's.
        let (best, tie) = unsafe { S::step(sq, w, &step, &consts) };
        // The raw byte of the chosen target: above GONE means visited or off the board,
        // so every target is and the knight is stuck.
        if (best >> MK_DEG) as u8 > GONE {
            break;
        }
        ties += u64::from(tie);
        let k = ((best >> 32) & 7) as usize;
        // The key's low 32 bits are `step[k]` (see `min_key_consts`).
        sq = sq.wrapping_offset(best as u32 as i32 as isize);
        o = o.wrapping_add_signed(out_step[k]);
    }
    // SAFETY: the first `n` slots of the spare capacity were written above.
    unsafe { path.set_len(n) };
    Run { path, ties }
}

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

use super::frame::{Frame, GONE, VISITED};
use super::scalar::min_tree;
use super::Run;

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

/// The step in plain Rust, for every target.
pub(super) struct Portable;

impl KeyStep for Portable {
    #[inline(always)]
    unsafe fn step(sq: *mut u8, _w: usize, step: &[isize; 8], consts: &[u64; 8]) -> (u64, bool) {
        let mut keys = [0u64; 8];
        for k in 0..8 {
            // SAFETY: `sq + step[k]` is in the degree array, by the caller's promise.
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
        ..
    } = frame;
    let mut path: Vec<u32> = Vec::with_capacity(squares);
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
        // SAFETY (every access through `sq`): by the invariants of `Frame`, which this
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
        // The constants are read from memory by each step: held in registers, they
        // crowd out the step's own values, which then spill (13% more instructions per
        // step in one build of unchanged source; PERFORMANCE.md).
        let consts_in_memory = std::hint::black_box(&consts);
        let (best, tie) = unsafe { S::step(sq, w, &step, consts_in_memory) };
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

//! The min-key step in x86-64 inline assembly (feature `asm`): the same step as
//! [`super::min_keys::Portable`], written by hand because the compiler's version spills
//! registers (a 300×300 `squirrel-cull` walk executes about 132 instructions per square
//! with the portable step against 113 with this one; PERFORMANCE.md). It uses the addressing
//! modes `[p ± 2w ± 1]` and `[p ± w ± 2]` directly, so the eight loads need no step table,
//! and only baseline x86-64 instructions (`movzx`, `lea`, `mov`, `shl`, `or`, `cmp`,
//! `cmovb`), which every x86-64 CPU has: nothing to detect at run time.

use super::min_keys::{KeyStep, MK_DEG};

/// The assembly step.
pub(super) struct Asm;

impl KeyStep for Asm {
    #[inline(always)]
    unsafe fn step(sq: *mut u8, w: usize, step: &[isize; 8], consts: &[u64; 8]) -> (u64, bool) {
        // The addresses below are the clockwise knight offsets of a row-major array of
        // width `w`: exactly `sq + step[k]` for the frame's steps.
        debug_assert!(
            *step
                == crate::board::KNIGHT_OFFSETS
                    .map(|(dr, dc)| dr as isize * w as isize + dc as isize)
        );
        let (best, second): (u64, u64);
        // SAFETY: the eight bytes read and written are `sq + step[k]` (see the assertion
        // above: `{p} + 2*{nw} + 1` is `sq - 2w + 1 = sq + step[0]`, and so on clockwise),
        // inside the degree array by the caller's promise, which also guarantees nothing
        // else accesses it meanwhile; `{c}` reads the eight u64 of `consts`, a live
        // reference. The block touches no other memory and no stack (`nostack`), and every
        // register it writes is declared as an output.
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
        (best, (best ^ second) >> MK_DEG == 0)
    }
}

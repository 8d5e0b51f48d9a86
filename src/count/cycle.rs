//! The split's test for closed tours: whether the paths of the upper part and those of
//! the lower part, alternating at their shared ends, close into one cycle.
//!
//! Each part's paths pair up the `E` path ends of the two rows (an even number, at most
//! 16): a **matching**, kept as 16 bytes, byte `e` the end that end `e`'s path joins it
//! to, and the bytes from `E` on their own index ([`IDENTITY`]). For an upper matching
//! `a` and a lower matching `z`, the alternating walk `e → z[a[e]]` moves two ends along
//! each closed cycle, so every cycle of `2L` ends splits into two orbits of `L` ends
//! under it. The parts close one cycle exactly when the walk has two orbits on the `E`
//! ends.
//!
//! [`Closer::sum`] adds the numbers of the lower states that close one cycle with one
//! upper state. The portable form walks from end 0 (at most 8 steps of two byte reads).
//! With AVX2 (x86-64, detected at run time) the walk is byte shuffles over all 16 ends
//! at once, for two lower states per register: `p = z ∘ a` in one `VPSHUFB`, and three
//! doubling rounds `m = min(m, m ∘ p)`, `p = p ∘ p` give each end the smallest end of
//! its orbit; the orbits are the ends with `m[e] = e`. Both forms give the same answer
//! (tested on random matchings). On 7x10 closed (3.5·10^9 pairs) the count takes 0.568
//! of its time before the shuffles (PERFORMANCE.md, "Counting: the join by byte
//! shuffles").

/// The matching of no path ends: every byte its own index.
pub(super) const IDENTITY: u128 =
    u128::from_le_bytes([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);

/// Matching `m` with ends `e` and `f` joined (`e`, `f` below 16).
#[cfg(test)]
fn join(m: u128, e: u32, f: u32) -> u128 {
    let clear = !(0xFFu128 << (8 * e) | 0xFFu128 << (8 * f));
    m & clear | u128::from(f) << (8 * e) | u128::from(e) << (8 * f)
}

/// Whether matchings `a` and `z` on `ends` path ends (even, 2 to 16) close one cycle:
/// the walk from end 0 comes back to it first after `ends / 2` steps. It always takes
/// that many steps, so that its one branch, the loop's, goes the same way for every
/// pair of a group.
#[inline]
fn one_cycle(a: u128, z: u128, ends: u32) -> bool {
    let (a, z) = (a.to_le_bytes(), z.to_le_bytes());
    let step = |e: u8| z[usize::from(a[usize::from(e & 15)] & 15)];
    let mut e = 0u8;
    let mut early = false;
    for _ in 1..ends / 2 {
        e = step(e);
        early |= e == 0;
    }
    !early && step(e) == 0
}

/// How [`Closer::sum`] tests the pairs; every choice gives the same sums.
#[derive(Debug, Clone, Copy)]
pub(super) struct Closer(Isa);

#[derive(Debug, Clone, Copy)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Closer {
    /// Every form this CPU runs, the portable walk first (for tests that compare them).
    #[cfg(test)]
    pub(super) fn available() -> Vec<Closer> {
        #[allow(unused_mut)]
        let mut all = vec![Closer(Isa::Portable)];
        #[cfg(target_arch = "x86_64")]
        {
            if is_x86_feature_detected!("avx2") {
                all.push(Closer(Isa::Avx2));
            }
        }
        all
    }

    /// The fastest form this CPU runs; `KNIGHTNET_SIMD=portable` keeps the portable walk
    /// (for comparisons).
    pub(super) fn detect() -> Closer {
        #[cfg(target_arch = "x86_64")]
        if std::env::var("KNIGHTNET_SIMD").as_deref() != Ok("portable")
            && is_x86_feature_detected!("avx2")
        {
            return Closer(Isa::Avx2);
        }
        Closer(Isa::Portable)
    }

    /// The sum of the numbers of the lower states `zs` (matching and number, read by
    /// `get`) that close one cycle with the upper matching `a` on `ends` path ends;
    /// `None` on overflow.
    #[inline]
    pub(super) fn sum<T>(
        self,
        a: u128,
        ends: u32,
        zs: &[T],
        get: impl Fn(&T) -> (u128, u128),
    ) -> Option<u128> {
        if ends == 0 {
            return Some(0);
        }
        match self.0 {
            Isa::Portable => zs.iter().try_fold(0u128, |fit, y| {
                let (z, count) = get(y);
                fit.checked_add(keep(count, one_cycle(a, z, ends)))
            }),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Isa::Avx2` is made only after finding AVX2 (`detect`, `available`).
            Isa::Avx2 => unsafe { avx2::sum(a, ends, zs, get) },
        }
    }
}

/// `count` if `fits`, else 0, without a branch: whether a pair fits is as good as
/// random, and adding under a branch took 7x10 closed 37–42 s against 32–37 s
/// (PERFORMANCE.md). `black_box` keeps the compiler from turning the mask back into a
/// branch.
#[inline]
pub(super) fn keep(count: u128, fits: bool) -> u128 {
    count & u128::from(std::hint::black_box(fits)).wrapping_neg()
}

/// Whether `orbits` has exactly two bits set (the pair closes one cycle), without a
/// population count (not in the AVX2 feature set) and without a branch.
#[cfg(target_arch = "x86_64")]
#[inline]
fn two(orbits: u32) -> bool {
    let rest = orbits & orbits.wrapping_sub(1);
    (rest != 0) & (rest & rest.wrapping_sub(1) == 0)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    use super::{IDENTITY, keep, two};

    /// Two matchings in one register: `lo` in the low 16 bytes, `hi` in the high.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn vectors(lo: u128, hi: u128) -> __m256i {
        _mm256_set_epi64x((hi >> 64) as i64, hi as i64, (lo >> 64) as i64, lo as i64)
    }

    /// For each half, bit `e` (of 16) set when end `e` is the smallest of its orbit under
    /// `e → z[a[e]]`; the shuffles stay within each half.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn orbits(a: __m256i, z: __m256i) -> u32 {
        let identity = vectors(IDENTITY, IDENTITY);
        // p[e] = z[a[e]]: one step of the walk from every end at once.
        let p = _mm256_shuffle_epi8(z, a);
        // After round r, m[e] is the smallest end of e's first 2^r steps; orbits have
        // at most 8 ends.
        let m = _mm256_min_epu8(identity, p);
        let p2 = _mm256_shuffle_epi8(p, p);
        let m = _mm256_min_epu8(m, _mm256_shuffle_epi8(m, p2));
        let p4 = _mm256_shuffle_epi8(p2, p2);
        let m = _mm256_min_epu8(m, _mm256_shuffle_epi8(m, p4));
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(m, identity)) as u32
    }

    /// [`super::Closer::sum`] with byte shuffles, two lower states at a time.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn sum<T>(
        a: u128,
        ends: u32,
        zs: &[T],
        get: impl Fn(&T) -> (u128, u128),
    ) -> Option<u128> {
        let av = vectors(a, a);
        let mask = (1u32 << ends) - 1;
        let mut fit = 0u128;
        let mut two_at_once = zs.chunks_exact(2);
        for y in &mut two_at_once {
            let ((z0, c0), (z1, c1)) = (get(&y[0]), get(&y[1]));
            let least = orbits(av, vectors(z0, z1));
            fit = fit.checked_add(keep(c0, two(least & mask)))?;
            fit = fit.checked_add(keep(c1, two((least >> 16) & mask)))?;
        }
        if let [y] = two_at_once.remainder() {
            let (z, c) = get(y);
            let least = orbits(av, vectors(z, IDENTITY));
            fit = fit.checked_add(keep(c, two(least & mask)))?;
        }
        Some(fit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A matching from a list of each end's partner.
    fn matching(partners: &[u32]) -> u128 {
        partners
            .iter()
            .enumerate()
            .filter(|&(e, &f)| (e as u32) < f)
            .fold(IDENTITY, |m, (e, &f)| join(m, e as u32, f))
    }

    /// Two parts whose paths join ends (0,1),(2,3) on one side and (1,2),(3,0) on the
    /// other close one cycle; (0,1),(2,3) on both close two.
    #[test]
    fn the_walk_tells_one_cycle_from_several() {
        let a = matching(&[1, 0, 3, 2]);
        assert!(one_cycle(a, matching(&[3, 2, 1, 0]), 4));
        assert!(!one_cycle(a, a, 4));
        assert!(one_cycle(matching(&[1, 0]), matching(&[1, 0]), 2));
        // Six ends: (0,1)(2,3)(4,5) against (1,2)(3,4)(5,0) is one cycle; against
        // (1,2)(3,0)(4,5) it leaves (4,5) apart.
        let a = matching(&[1, 0, 3, 2, 5, 4]);
        assert!(one_cycle(a, matching(&[5, 2, 1, 4, 3, 0]), 6));
        assert!(!one_cycle(a, matching(&[3, 2, 1, 0, 5, 4]), 6));
    }

    /// A random matching of `ends` ends from a shuffle of them: consecutive ends of the
    /// shuffle are joined.
    fn from_order(order: &[u32]) -> u128 {
        order
            .chunks_exact(2)
            .fold(IDENTITY, |m, pair| join(m, pair[0], pair[1]))
    }

    /// Whether `a` and `z` close one cycle, by following the cycle from end 0 edge by
    /// edge and counting the ends it meets.
    fn closes_by_following(a: u128, z: u128, ends: u32) -> bool {
        let (a, z) = (a.to_le_bytes(), z.to_le_bytes());
        let (mut e, mut met, mut upper) = (0u8, 0, true);
        loop {
            e = if upper { a } else { z }[usize::from(e)];
            upper = !upper;
            met += 1;
            if e == 0 && upper {
                return met == ends;
            }
        }
    }

    fn shuffled(ends: u32, seed: Vec<u32>) -> Vec<u32> {
        let mut order: Vec<u32> = (0..ends).collect();
        for (i, s) in seed.into_iter().enumerate().take(ends as usize) {
            order.swap(i, i + s as usize % (ends as usize - i));
        }
        order
    }

    proptest! {
        /// The walk and the shuffles agree with following the cycle, on random pairs of
        /// matchings of every even number of ends, summed over lists of pairs.
        #[test]
        fn every_form_agrees_with_following_the_cycle(
            half in 1u32..=8,
            a_seed in proptest::collection::vec(any::<u32>(), 16),
            zs in proptest::collection::vec((proptest::collection::vec(any::<u32>(), 16), 1u128..1000), 0..40),
        ) {
            let ends = 2 * half;
            let a = from_order(&shuffled(ends, a_seed));
            let zs: Vec<(u128, u128)> = zs
                .into_iter()
                .map(|(seed, count)| (from_order(&shuffled(ends, seed)), count))
                .collect();
            let expected: u128 = zs
                .iter()
                .filter(|&&(z, _)| closes_by_following(a, z, ends))
                .map(|&(_, c)| c)
                .sum();
            for &(z, _) in &zs {
                prop_assert_eq!(one_cycle(a, z, ends), closes_by_following(a, z, ends));
            }
            for closer in Closer::available() {
                prop_assert_eq!(closer.sum(a, ends, &zs, |&p| p), Some(expected), "{:?}", closer);
            }
        }
    }
}

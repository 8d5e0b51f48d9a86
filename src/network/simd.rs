//! The batched engine's sweep kernels, written once over a small vector trait and compiled
//! for three instruction sets: AVX-512BW (one 32-lane register per row), AVX2 (two 16-lane
//! registers per row) and a portable fallback (plain arrays the compiler vectorises as it
//! can). [`Kernels::detect`] picks the widest one the CPU has at run time; the integer
//! arithmetic is identical in all three, so every choice gives bit-identical runs (tests
//! run all of them against each other and against the scalar engine).
//!
//! Layout: every per-neuron or per-square quantity is a [`Row`] of [`LANES`] `i16`, one
//! lane per attempt, 64-byte aligned (one cache line). V is kept as a lane mask (0 or −1)
//! so the hysteresis is two compares and two logic operations.
//!
//! One visit of neuron `e = {a, b}` (see [`super::dynamics`]):
//!
//! ```text
//! ΔU = C + (V & (2 − S)) − deg[b] − deg[a]      (V is a mask, so V & w is w or 0)
//! U' = clamp(U + ΔU)                            (only when the parameters clamp)
//! V' = (U' > upper) | ((U' > lower − 1) & V)
//! deg[a] += V − V';  deg[b] += V − V'           (mask difference = change of the 0/1 output)
//! changed |= ΔU                                  (nonzero in a lane iff some ΔU was)
//! ```
//!
//! In a sequential sweep the only dependency between visits is through `deg`, so the
//! critical path per visit is the few operations from `deg[a]` to its new value; the
//! rest overlaps. Indices are checked once when the visit list is built ([`Visits::new`]),
//! so the loops run without bounds checks.

// Lane loops index several rows in lockstep: the form the auto-vectoriser handles best.
#![allow(clippy::needless_range_loop)]

/// Attempts per batch (the innermost axis): one 64-byte cache line of `i16`.
pub const LANES: usize = 32;

/// One lane row: a quantity of one neuron or square across all lanes.
#[repr(C, align(64))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row(pub [i16; LANES]);

impl Row {
    /// Zero in every lane.
    pub const ZERO: Row = Row([0; LANES]);
}

impl std::ops::Deref for Row {
    type Target = [i16; LANES];
    fn deref(&self) -> &[i16; LANES] {
        &self.0
    }
}

impl std::ops::DerefMut for Row {
    fn deref_mut(&mut self) -> &mut [i16; LANES] {
        &mut self.0
    }
}

/// The rule's constants in 16 bits (the caller has checked they fit, see `fits_i16`).
#[derive(Debug, Clone, Copy)]
pub struct Consts {
    /// The bias C.
    pub c: i16,
    /// 2 − S.
    pub self_w: i16,
    /// V turns on when U > upper.
    pub upper: i16,
    /// lower − 1 (so "U ≥ lower" is one greater-than compare).
    pub lower_m1: i16,
    /// Clamp bounds, when the parameters clamp.
    pub clamp: Option<(i16, i16)>,
}

/// The visits of one sweep, bounds-checked once, in runs that share a square: run `r`
/// visits neurons `e` between square `pivot` and squares `other`, so the kernels keep the
/// pivot's degree row in registers for the whole run (in row-major order a run is the up
/// to four moves from one square to later ones).
#[derive(Debug, Clone)]
pub struct Visits {
    /// `[pivot, first, end]`: visits `first..end` of `list` all touch `pivot`.
    runs: Vec<[u32; 3]>,
    /// `[e, other]` per visit.
    list: Vec<[u32; 2]>,
    /// Both endpoints of every neuron (canonical order).
    ea: Vec<u32>,
    eb: Vec<u32>,
    neurons: usize,
    squares: usize,
}

impl Visits {
    /// Visits `order` (neuron indices) of a graph with endpoint arrays `ea`, `eb` over
    /// `squares` squares. Panics on an out-of-range index: that is a bug in the caller,
    /// and checking here is what lets the kernels skip bounds checks.
    pub fn new(order: &[u32], ea: &[u32], eb: &[u32], squares: usize) -> Visits {
        assert_eq!(ea.len(), eb.len(), "endpoint arrays differ in length");
        // Run bounds are stored as u32 positions in the visit list.
        assert!(
            u32::try_from(order.len()).is_ok(),
            "more than 2^32 - 1 visits in one sweep"
        );
        let ends = |e: u32| {
            let (a, b) = (ea[e as usize], eb[e as usize]);
            assert!(
                (a as usize) < squares && (b as usize) < squares && a != b,
                "bad move {e}: squares {a}, {b} of {squares}"
            );
            (a, b)
        };
        let mut runs = Vec::new();
        let mut list = Vec::with_capacity(order.len());
        let mut i = 0;
        while i < order.len() {
            let (a, b) = ends(order[i]);
            // The pivot is the square this visit shares with the next one, if any.
            let pivot = match order.get(i + 1).map(|&f| ends(f)) {
                Some((c, d)) if b == c || b == d => b,
                _ => a,
            };
            let first = list.len() as u32;
            while i < order.len() {
                let (x, y) = ends(order[i]);
                let other = match (x == pivot, y == pivot) {
                    (true, _) => y,
                    (_, true) => x,
                    _ => break,
                };
                list.push([order[i], other]);
                i += 1;
            }
            runs.push([pivot, first, list.len() as u32]);
        }
        Visits {
            runs,
            list,
            ea: ea.to_vec(),
            eb: eb.to_vec(),
            neurons: ea.len(),
            squares,
        }
    }

    /// Both endpoints of every neuron, checked to be squares of the board.
    pub fn endpoints(&self) -> (&[u32], &[u32]) {
        (&self.ea, &self.eb)
    }

    /// Number of neurons.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no neurons.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// The vector operations the kernels need, on `WIDTH` lanes of `i16`.
///
/// # Safety
/// Every method may use instructions of the type's instruction set, so it may be called
/// only from code compiled for that set (a `#[target_feature]` function the CPU was found
/// to run). `load` and `store` also need `p` valid for `WIDTH` `i16` and aligned to the
/// register's size (`WIDTH * 2` bytes).
trait Simd: Copy {
    const WIDTH: usize;
    unsafe fn load(p: *const i16) -> Self;
    unsafe fn store(self, p: *mut i16);
    unsafe fn splat(x: i16) -> Self;
    unsafe fn add(self, o: Self) -> Self;
    unsafe fn sub(self, o: Self) -> Self;
    unsafe fn and(self, o: Self) -> Self;
    unsafe fn or(self, o: Self) -> Self;
    unsafe fn clamp(self, lo: Self, hi: Self) -> Self;
    /// `(self > upper) | ((self > lower_m1) & v)`, as a lane mask.
    unsafe fn fire(self, upper: Self, lower_m1: Self, v: Self) -> Self;
    /// Hysteresis and degree update in one: with `self` = U', returns the new output mask
    /// V' and `d + [V' on]` for each of `ds` (the caller passes degrees with the old
    /// output already removed, so a flip costs one operation after the compare).
    #[inline(always)]
    unsafe fn fire_and_count(
        self,
        upper: Self,
        lower_m1: Self,
        v: Self,
        ds: [Self; 2],
    ) -> (Self, [Self; 2]) {
        // SAFETY: the caller upholds this function's `# Safety` contract.
        unsafe {
            let nv = self.fire(upper, lower_m1, v);
            (nv, [ds[0].sub(nv), ds[1].sub(nv)])
        }
    }
}

/// The portable fallback: 16 lanes as a plain array.
#[derive(Clone, Copy)]
struct Plain([i16; 16]);

impl Plain {
    #[inline(always)]
    fn zip(self, o: Plain, f: impl Fn(i16, i16) -> i16) -> Plain {
        let mut r = [0; 16];
        for k in 0..16 {
            r[k] = f(self.0[k], o.0[k]);
        }
        Plain(r)
    }
}

impl Simd for Plain {
    const WIDTH: usize = 16;
    #[inline(always)]
    unsafe fn load(p: *const i16) -> Plain {
        // SAFETY: the caller upholds this function's `# Safety` contract.
        unsafe { Plain(*(p as *const [i16; 16])) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut i16) {
        // SAFETY: the caller upholds this function's `# Safety` contract.
        unsafe {
            *(p as *mut [i16; 16]) = self.0;
        }
    }
    #[inline(always)]
    unsafe fn splat(x: i16) -> Plain {
        Plain([x; 16])
    }
    #[inline(always)]
    unsafe fn add(self, o: Plain) -> Plain {
        self.zip(o, i16::wrapping_add)
    }
    #[inline(always)]
    unsafe fn sub(self, o: Plain) -> Plain {
        self.zip(o, i16::wrapping_sub)
    }
    #[inline(always)]
    unsafe fn and(self, o: Plain) -> Plain {
        self.zip(o, |x, y| x & y)
    }
    #[inline(always)]
    unsafe fn or(self, o: Plain) -> Plain {
        self.zip(o, |x, y| x | y)
    }
    #[inline(always)]
    unsafe fn clamp(self, lo: Plain, hi: Plain) -> Plain {
        self.zip(lo, i16::max).zip(hi, i16::min)
    }
    #[inline(always)]
    unsafe fn fire(self, upper: Plain, lower_m1: Plain, v: Plain) -> Plain {
        let mut r = [0; 16];
        for k in 0..16 {
            let on = (self.0[k] > upper.0[k]) | ((self.0[k] > lower_m1.0[k]) & (v.0[k] != 0));
            r[k] = -(on as i16);
        }
        Plain(r)
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Simd;
    use std::arch::x86_64::*;

    /// The methods every x86 vector type implements the same way, by its intrinsics:
    /// (type, register, width, load, store, splat, add, sub, and, or, min, max).
    macro_rules! common {
        ($t:ident, $reg:ty, $width:expr, $load:ident, $store:ident, $splat:ident, $add:ident,
         $sub:ident, $and:ident, $or:ident, $min:ident, $max:ident) => {
            const WIDTH: usize = $width;
            #[inline(always)]
            unsafe fn load(p: *const i16) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($load(p as *const $reg)) }
            }
            #[inline(always)]
            unsafe fn store(self, p: *mut i16) {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $store(p as *mut $reg, self.0) }
            }
            #[inline(always)]
            unsafe fn splat(x: i16) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($splat(x)) }
            }
            #[inline(always)]
            unsafe fn add(self, o: $t) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($add(self.0, o.0)) }
            }
            #[inline(always)]
            unsafe fn sub(self, o: $t) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($sub(self.0, o.0)) }
            }
            #[inline(always)]
            unsafe fn and(self, o: $t) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($and(self.0, o.0)) }
            }
            #[inline(always)]
            unsafe fn or(self, o: $t) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($or(self.0, o.0)) }
            }
            #[inline(always)]
            unsafe fn clamp(self, lo: $t, hi: $t) -> $t {
                // SAFETY: the caller upholds this function's `# Safety` contract.
                unsafe { $t($min($max(self.0, lo.0), hi.0)) }
            }
        };
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(__m256i);

    impl Simd for Avx2 {
        common!(
            Avx2,
            __m256i,
            16,
            _mm256_load_si256,
            _mm256_store_si256,
            _mm256_set1_epi16,
            _mm256_add_epi16,
            _mm256_sub_epi16,
            _mm256_and_si256,
            _mm256_or_si256,
            _mm256_min_epi16,
            _mm256_max_epi16
        );
        #[inline(always)]
        unsafe fn fire(self, upper: Avx2, lower_m1: Avx2, v: Avx2) -> Avx2 {
            // SAFETY: the caller upholds this function's `# Safety` contract.
            unsafe {
                let hi = _mm256_cmpgt_epi16(self.0, upper.0);
                let ge = _mm256_cmpgt_epi16(self.0, lower_m1.0);
                Avx2(_mm256_or_si256(hi, _mm256_and_si256(ge, v.0)))
            }
        }
    }

    #[derive(Clone, Copy)]
    pub struct Avx512(__m512i);

    impl Simd for Avx512 {
        common!(
            Avx512,
            __m512i,
            32,
            _mm512_load_si512,
            _mm512_store_si512,
            _mm512_set1_epi16,
            _mm512_add_epi16,
            _mm512_sub_epi16,
            _mm512_and_si512,
            _mm512_or_si512,
            _mm512_min_epi16,
            _mm512_max_epi16
        );
        #[inline(always)]
        unsafe fn fire(self, upper: Avx512, lower_m1: Avx512, v: Avx512) -> Avx512 {
            // SAFETY: the caller upholds this function's `# Safety` contract.
            unsafe {
                let held = _mm512_movepi16_mask(v.0);
                let on = _mm512_cmpgt_epi16_mask(self.0, upper.0)
                    | _mm512_mask_cmpgt_epi16_mask(held, self.0, lower_m1.0);
                Avx512(_mm512_movm_epi16(on))
            }
        }
        #[inline(always)]
        unsafe fn fire_and_count(
            self,
            upper: Avx512,
            lower_m1: Avx512,
            v: Avx512,
            ds: [Avx512; 2],
        ) -> (Avx512, [Avx512; 2]) {
            // SAFETY: the caller upholds this function's `# Safety` contract.
            unsafe {
                let held = _mm512_movepi16_mask(v.0);
                let on = _mm512_cmpgt_epi16_mask(self.0, upper.0)
                    | _mm512_mask_cmpgt_epi16_mask(held, self.0, lower_m1.0);
                let one = _mm512_set1_epi16(1);
                (
                    Avx512(_mm512_movm_epi16(on)),
                    [
                        Avx512(_mm512_mask_add_epi16(ds[0].0, on, ds[0].0, one)),
                        Avx512(_mm512_mask_add_epi16(ds[1].0, on, ds[1].0, one)),
                    ],
                )
            }
        }
    }
}

/// Broadcast constants of one kernel call.
#[derive(Clone, Copy)]
struct Splat<S> {
    c: S,
    w: S,
    upper: S,
    lower_m1: S,
    lo: S,
    hi: S,
}

impl<S: Simd> Splat<S> {
    #[inline(always)]
    unsafe fn new(k: &Consts) -> Splat<S> {
        // SAFETY: the caller upholds this function's `# Safety` contract.
        unsafe {
            let (lo, hi) = k.clamp.unwrap_or((i16::MIN, i16::MAX));
            Splat {
                c: S::splat(k.c),
                w: S::splat(k.self_w),
                upper: S::splat(k.upper),
                lower_m1: S::splat(k.lower_m1),
                lo: S::splat(lo),
                hi: S::splat(hi),
            }
        }
    }

    /// One neuron in `WIDTH` lanes, from U, V and the degrees of its squares `dp` (the
    /// pivot, on the critical path of a sequential sweep) and `dq`: returns
    /// (ΔU, U', V', [dp', dq']). Written so that only two operations and the compare
    /// stand between `dp` and `dp'`.
    #[inline(always)]
    unsafe fn visit<const CLAMP: bool>(&self, u: S, v: S, dp: S, dq: S) -> (S, S, S, [S; 2]) {
        // SAFETY: the caller upholds this function's `# Safety` contract.
        unsafe {
            let part = self.c.add(v.and(self.w)).sub(dq);
            let du = part.sub(dp);
            let mut nu = u.add(part).sub(dp);
            if CLAMP {
                nu = nu.clamp(self.lo, self.hi);
            }
            let (nv, ds) = nu.fire_and_count(self.upper, self.lower_m1, v, [dp.add(v), dq.add(v)]);
            (du, nu, nv, ds)
        }
    }
}

/// Halves per row for a vector type (1 or 2), so per-half accumulators stay in registers.
const MAX_PARTS: usize = 2;

/// One sequential sweep with vector type `S` (see [`Kernels::sequential`]).
///
/// # Safety
/// The CPU runs `S`'s instructions (see [`Simd`]); `u` and `v` have `visits.neurons` rows
/// and `deg` has `visits.squares` rows, so every index in `visits` addresses a row.
#[inline(always)]
unsafe fn sequential<S: Simd, const CLAMP: bool>(
    visits: &Visits,
    u: &mut [Row],
    v: &mut [Row],
    deg: &mut [Row],
    k: &Consts,
) -> Row {
    // SAFETY: the caller upholds this function's `# Safety` contract.
    unsafe {
        let parts = LANES / S::WIDTH;
        let s = Splat::<S>::new(k);
        let mut changed = [S::splat(0); MAX_PARTS];
        let (pu, pv, pd) = (
            u.as_mut_ptr() as *mut i16,
            v.as_mut_ptr() as *mut i16,
            deg.as_mut_ptr() as *mut i16,
        );
        for &[pivot, first, end] in &visits.runs {
            let po = pivot as usize * LANES;
            for h in 0..parts {
                let o = h * S::WIDTH;
                let pp = pd.add(po + o);
                let mut dp = S::load(pp);
                for &[e, other] in visits.list.get_unchecked(first as usize..end as usize) {
                    let (eo, qo) = (e as usize * LANES + o, other as usize * LANES + o);
                    let (ue, ve, pq) = (pu.add(eo), pv.add(eo), pd.add(qo));
                    let vv = S::load(ve);
                    let (du, nu, nv, [np, nq]) = s.visit::<CLAMP>(S::load(ue), vv, dp, S::load(pq));
                    changed[h] = changed[h].or(du);
                    nu.store(ue);
                    nv.store(ve);
                    nq.store(pq);
                    dp = np;
                }
                dp.store(pp);
            }
        }
        let mut out = Row::ZERO;
        for h in 0..parts {
            changed[h].store(out.0.as_mut_ptr().add(h * S::WIDTH));
        }
        out
    }
}

/// One synchronous step with vector type `S` (see [`Kernels::synchronous`]).
///
/// # Safety
/// As for [`sequential`], and `deg_next` has as many rows as `deg`.
#[inline(always)]
unsafe fn synchronous<S: Simd, const CLAMP: bool>(
    visits: &Visits,
    u: &mut [Row],
    v: &mut [Row],
    deg: &[Row],
    deg_next: &mut [Row],
    k: &Consts,
) -> Row {
    // SAFETY: the caller upholds this function's `# Safety` contract.
    unsafe {
        let parts = LANES / S::WIDTH;
        let s = Splat::<S>::new(k);
        let mut changed = [S::splat(0); MAX_PARTS];
        deg_next.copy_from_slice(deg);
        let (pu, pv, pd, pn) = (
            u.as_mut_ptr() as *mut i16,
            v.as_mut_ptr() as *mut i16,
            deg.as_ptr() as *const i16,
            deg_next.as_mut_ptr() as *mut i16,
        );
        for &[pivot, first, end] in &visits.runs {
            let po = pivot as usize * LANES;
            for &[e, other] in visits.list.get_unchecked(first as usize..end as usize) {
                let (eo, qo) = (e as usize * LANES, other as usize * LANES);
                for h in 0..parts {
                    let o = h * S::WIDTH;
                    let (ue, ve) = (pu.add(eo + o), pv.add(eo + o));
                    let vv = S::load(ve);
                    let (dp, dq) = (S::load(pd.add(po + o)), S::load(pd.add(qo + o)));
                    let (du, nu, nv, _) = s.visit::<CLAMP>(S::load(ue), vv, dp, dq);
                    changed[h] = changed[h].or(du);
                    let dv = vv.sub(nv);
                    nu.store(ue);
                    nv.store(ve);
                    let (np, nq) = (pn.add(po + o), pn.add(qo + o));
                    S::load(np).add(dv).store(np);
                    S::load(nq).add(dv).store(nq);
                }
            }
        }
        let mut out = Row::ZERO;
        for h in 0..parts {
            changed[h].store(out.0.as_mut_ptr().add(h * S::WIDTH));
        }
        out
    }
}

/// Which kernel set to run. Only sets this CPU can run exist: the field is private and
/// every constructor ([`Kernels::detect`], [`Kernels::available`], `Kernels::PORTABLE`)
/// checks the CPU first, so the safe sweep methods below never reach an instruction the
/// CPU lacks, whatever value they are called on.
///
/// ```
/// use knightnet::network::simd::Kernels;
/// assert!(Kernels::available().contains(&Kernels::detect()));
/// ```
///
/// A kernel set the CPU may lack cannot be named by hand:
///
/// ```compile_fail
/// use knightnet::network::simd::Kernels;
/// let _ = Kernels::Avx512;
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kernels(Isa);

/// The instruction set of a [`Kernels`] value; a value other than `Portable` is made only
/// after the CPU was found to have the feature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

/// Whether this CPU runs the AVX2 kernels (everything `seq_avx2`/`sync_avx2` enable).
#[cfg(target_arch = "x86_64")]
fn has_avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

/// Whether this CPU runs the AVX-512 kernels (everything `seq_avx512`/`sync_avx512`
/// enable: AVX-512F and AVX-512BW).
#[cfg(target_arch = "x86_64")]
fn has_avx512() -> bool {
    is_x86_feature_detected!("avx512f") && is_x86_feature_detected!("avx512bw")
}

impl Kernels {
    /// The portable kernels, which every CPU runs.
    pub(crate) const PORTABLE: Kernels = Kernels(Isa::Portable);

    /// The widest kernel set this CPU runs. `KNIGHTNET_SIMD=portable|avx2` caps the choice
    /// (for comparisons; the results are the same).
    pub fn detect() -> Kernels {
        let cap = std::env::var("KNIGHTNET_SIMD").unwrap_or_default();
        #[cfg(target_arch = "x86_64")]
        {
            if cap != "portable" && cap != "avx2" && has_avx512() {
                return Kernels(Isa::Avx512);
            }
            if cap != "portable" && has_avx2() {
                return Kernels(Isa::Avx2);
            }
        }
        let _ = cap;
        Kernels::PORTABLE
    }

    /// Every kernel set this CPU runs (for tests that compare them).
    pub fn available() -> Vec<Kernels> {
        #[allow(unused_mut)]
        let mut all = vec![Kernels::PORTABLE];
        #[cfg(target_arch = "x86_64")]
        {
            if has_avx2() {
                all.push(Kernels(Isa::Avx2));
            }
            if has_avx512() {
                all.push(Kernels(Isa::Avx512));
            }
        }
        all
    }

    /// `portable`, `avx2` or `avx512`: the instruction set the kernels use.
    pub fn name(self) -> &'static str {
        match self.0 {
            Isa::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => "avx512",
        }
    }

    fn check(visits: &Visits, u: &[Row], v: &[Row], deg: &[Row]) {
        assert!(
            u.len() == visits.neurons && v.len() == visits.neurons && deg.len() == visits.squares,
            "state arrays do not match the visit list"
        );
    }

    /// One sequential sweep (visits in list order, each reading the current degrees).
    /// Returns per lane the OR of all ΔU (nonzero iff some U changed).
    pub fn sequential(
        self,
        visits: &Visits,
        u: &mut [Row],
        v: &mut [Row],
        deg: &mut [Row],
        k: &Consts,
    ) -> Row {
        Self::check(visits, u, v, deg);
        // SAFETY: `Visits::new` checked every index in `visits` (neurons below
        // `visits.neurons`, squares below `visits.squares`) and `check` just matched those
        // counts to the lengths of `u`, `v` and `deg`, so every row the kernels address
        // exists; rows are 64-byte aligned (`Row`), as the aligned loads need. An `Avx2` or
        // `Avx512` value exists only if `has_avx2`/`has_avx512` found every feature the
        // called function enables (see `Kernels`).
        unsafe {
            match (self.0, k.clamp.is_some()) {
                (Isa::Portable, false) => sequential::<Plain, false>(visits, u, v, deg, k),
                (Isa::Portable, true) => sequential::<Plain, true>(visits, u, v, deg, k),
                #[cfg(target_arch = "x86_64")]
                (Isa::Avx2, clamp) => seq_avx2(clamp, visits, u, v, deg, k),
                #[cfg(target_arch = "x86_64")]
                (Isa::Avx512, clamp) => seq_avx512(clamp, visits, u, v, deg, k),
            }
        }
    }

    /// One synchronous step (every visit reads the degrees of the previous step).
    pub fn synchronous(
        self,
        visits: &Visits,
        u: &mut [Row],
        v: &mut [Row],
        deg: &mut Vec<Row>,
        deg_next: &mut Vec<Row>,
        k: &Consts,
    ) -> Row {
        Self::check(visits, u, v, deg);
        deg_next.resize(deg.len(), Row::ZERO);
        // SAFETY: as in `sequential`; `deg_next` was just resized to the length of `deg`.
        let changed = unsafe {
            match (self.0, k.clamp.is_some()) {
                (Isa::Portable, false) => {
                    synchronous::<Plain, false>(visits, u, v, deg, deg_next, k)
                }
                (Isa::Portable, true) => synchronous::<Plain, true>(visits, u, v, deg, deg_next, k),
                #[cfg(target_arch = "x86_64")]
                (Isa::Avx2, clamp) => sync_avx2(clamp, visits, u, v, deg, deg_next, k),
                #[cfg(target_arch = "x86_64")]
                (Isa::Avx512, clamp) => sync_avx512(clamp, visits, u, v, deg, deg_next, k),
            }
        };
        std::mem::swap(deg, deg_next);
        changed
    }
}

/// The entry points compiled for one instruction set: a sequential and a synchronous
/// sweep over vector type `$t`, each in a clamping and a non-clamping version. Their
/// safety contract is that of [`sequential`] and [`synchronous`], with the CPU running
/// `$feature`.
macro_rules! entries {
    ($feature:literal, $t:ty, $seq:ident, $sync:ident) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $seq(
            clamp: bool,
            visits: &Visits,
            u: &mut [Row],
            v: &mut [Row],
            deg: &mut [Row],
            k: &Consts,
        ) -> Row {
            // SAFETY: the caller upholds this function's `# Safety` contract.
            unsafe {
                if clamp {
                    sequential::<$t, true>(visits, u, v, deg, k)
                } else {
                    sequential::<$t, false>(visits, u, v, deg, k)
                }
            }
        }

        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $feature)]
        unsafe fn $sync(
            clamp: bool,
            visits: &Visits,
            u: &mut [Row],
            v: &mut [Row],
            deg: &[Row],
            deg_next: &mut [Row],
            k: &Consts,
        ) -> Row {
            // SAFETY: the caller upholds this function's `# Safety` contract.
            unsafe {
                if clamp {
                    synchronous::<$t, true>(visits, u, v, deg, deg_next, k)
                } else {
                    synchronous::<$t, false>(visits, u, v, deg, deg_next, k)
                }
            }
        }
    };
}

entries!("avx2", x86::Avx2, seq_avx2, sync_avx2);
entries!("avx512f,avx512bw", x86::Avx512, seq_avx512, sync_avx512);

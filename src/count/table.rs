//! The frontier method's state table: packed keys, the smallest count type that holds
//! the numbers, and hash maps split into shards.
//!
//! - **Keys.** A state is built as a `u128` (see [`super::frontier`]) and stored in 64
//!   bits whenever it fits: as it is for widths up to 7 (`4P + 3 <= 63` bits), and for
//!   width 8 by packing two squares' codes in 7 bits (a window of 17 squares holds at
//!   most 8 path labels, so a code is one of 11 values and a pair one of 121 < 128):
//!   8 pairs, one single code, the terminal count and the flag make 63 bits.
//! - **Counts** are `u64` with every addition checked; the caller reruns with `u128`
//!   when one overflows.
//! - **Shards.** The states are held in `SHARDS` hash maps chosen by key hash. The
//!   states after a square are filled in parallel (one lock per shard, so two workers
//!   rarely meet), and the states before it are expanded shard by shard, each shard freed
//!   as soon as it is expanded: the peak is the states of two consecutive squares, with
//!   no vector copies beside the maps.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;

use foldhash::fast::FixedState;

/// Number of hash maps the states are split into.
pub(crate) const SHARDS: usize = 256;

/// A state's stored key: `u64` or `u128`, converted from and to the `u128` the
/// dynamic program builds.
pub trait Key: Copy + Eq + Hash + Send + Sync + 'static {
    /// Whether keys of a window of `p` squares fit this type.
    fn fits(p: usize) -> bool;
    /// The stored key of the state `k` of a window of `p` squares (`p` must fit).
    fn pack(k: u128, p: usize) -> Self;
    /// The state [`Key::pack`] stored: `K::pack(k, p).unpack(p) == k`.
    fn unpack(self, p: usize) -> u128;
    /// The shard of this key.
    fn shard(self) -> usize;
}

/// The window size packed in pairs (width 8).
const PAIRED: usize = 17;

impl Key for u64 {
    fn fits(p: usize) -> bool {
        4 * p + 3 <= 64 || p == PAIRED
    }

    fn pack(k: u128, p: usize) -> u64 {
        if p != PAIRED {
            debug_assert!(k >> 64 == 0);
            return k as u64;
        }
        // Codes of squares 0..16 (4 bits each), then 2 bits of terminals and the flag.
        let code = |i: usize| ((k >> (4 * i)) & 15) as u64;
        let mut out = 0u64;
        for pair in 0..8 {
            let (a, b) = (code(2 * pair), code(2 * pair + 1));
            debug_assert!(a < 11 && b < 11, "a width-8 window holds at most 8 labels");
            out |= (a * 11 + b) << (7 * pair);
        }
        out |= code(16) << 56;
        out |= ((k >> (4 * PAIRED)) as u64 & 7) << 60;
        out
    }

    fn unpack(self, p: usize) -> u128 {
        if p != PAIRED {
            return u128::from(self);
        }
        let mut k = 0u128;
        for pair in 0..8 {
            let v = (self >> (7 * pair)) & 127;
            k |= u128::from(v / 11) << (8 * pair);
            k |= u128::from(v % 11) << (8 * pair + 4);
        }
        k |= u128::from((self >> 56) & 15) << 64;
        k |= u128::from((self >> 60) & 7) << (4 * PAIRED);
        k
    }

    fn shard(self) -> usize {
        (self.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
    }
}

impl Key for u128 {
    fn fits(_: usize) -> bool {
        true
    }

    fn pack(k: u128, _: usize) -> u128 {
        k
    }

    fn unpack(self, _: usize) -> u128 {
        self
    }

    fn shard(self) -> usize {
        ((self as u64) ^ (self >> 64) as u64).shard()
    }
}

/// A state's count: `u64` or `u128`, added with overflow checked.
pub(crate) trait Tally: Copy + Send + Sync + Default + Into<u128> + 'static {
    fn one() -> Self;
    fn checked_add(self, other: Self) -> Option<Self>;
}

impl Tally for u64 {
    fn one() -> u64 {
        1
    }

    fn checked_add(self, other: u64) -> Option<u64> {
        u64::checked_add(self, other)
    }
}

impl Tally for u128 {
    fn one() -> u128 {
        1
    }

    fn checked_add(self, other: u128) -> Option<u128> {
        u128::checked_add(self, other)
    }
}

/// 8-bit counts, so that tests can make a small count overflow.
#[cfg(test)]
impl Tally for u8 {
    fn one() -> u8 {
        1
    }

    fn checked_add(self, other: u8) -> Option<u8> {
        u8::checked_add(self, other)
    }
}

/// What [`Filling::add`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Added {
    /// The count was added.
    Yes,
    /// The sum overflowed `C`: the state holds a wrong number and the run must be redone
    /// with a wider count.
    Overflowed,
    /// The map could not grow: out of memory.
    NoMemory,
}

/// One shard's map.
pub type Shard<K, C> = HashMap<K, C, FixedState>;

/// The states being filled for the next square: [`SHARDS`] locked maps.
pub(crate) struct Filling<K, C> {
    shards: Vec<Mutex<Shard<K, C>>>,
}

impl<K: Key, C: Tally> Default for Filling<K, C> {
    fn default() -> Self {
        Filling {
            shards: (0..SHARDS).map(|_| Mutex::new(Shard::default())).collect(),
        }
    }
}

impl<K: Key, C: Tally> Filling<K, C> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Add `count` to the state `key`. The map grows fallibly: when it cannot, nothing
    /// is added and the run must stop.
    pub fn add(&self, key: K, count: C) -> Added {
        let mut shard = self.shards[key.shard()]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if shard.try_reserve(1).is_err() {
            return Added::NoMemory;
        }
        let e = shard.entry(key).or_default();
        match e.checked_add(count) {
            Some(s) => {
                *e = s;
                Added::Yes
            }
            None => Added::Overflowed,
        }
    }

    /// The filled maps, unlocked.
    pub fn finish(self) -> Vec<Shard<K, C>> {
        self.shards
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    }
}

/// Number of states held in `shards`.
pub fn len<K, C>(shards: &[Shard<K, C>]) -> usize {
    shards.iter().map(HashMap::len).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Width-8 keys pack into 64 bits and back unchanged, for every code the
        /// window can hold (0..=10), terminal count and flag.
        #[test]
        fn width_8_keys_round_trip(codes in proptest::collection::vec(0u8..11, PAIRED), t in 0u8..3, flag: bool) {
            let mut k = 0u128;
            for (i, &c) in codes.iter().enumerate() {
                k |= u128::from(c) << (4 * i);
            }
            k |= u128::from(t) << (4 * PAIRED);
            k |= u128::from(flag) << (4 * PAIRED + 2);
            let packed = u64::pack(k, PAIRED);
            prop_assert_eq!(packed.unpack(PAIRED), k);
        }
    }

    #[test]
    fn narrow_keys_are_stored_as_they_are() {
        for p in [5, 7, 9, 11, 13, 15] {
            assert!(u64::fits(p));
            let k = (1u128 << (4 * p + 2)) | 0x1234;
            assert_eq!(u64::pack(k, p).unpack(p), k);
        }
        assert!(u64::fits(PAIRED));
        assert!(!u64::fits(19));
    }

    #[test]
    fn an_overflowing_addition_is_reported() {
        let t: Filling<u64, u64> = Filling::new();
        assert_eq!(t.add(7, u64::MAX), Added::Yes);
        assert_eq!(t.add(7, 1), Added::Overflowed);
        let w: Filling<u64, u128> = Filling::new();
        assert_eq!(w.add(7, u128::from(u64::MAX)), Added::Yes);
        assert_eq!(w.add(7, 1), Added::Yes);
        assert_eq!(len(&w.finish()), 1);
    }
}

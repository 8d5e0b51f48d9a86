//! The frontier method's state table: packed keys, the smallest count type that holds
//! the numbers, and the merge of equal states by partitions.
//!
//! - **Keys.** A state is built as a `u128` (see [`super::frontier`]) and stored in 64
//!   bits whenever it fits: as it is for widths up to 7 (`4P + 3 <= 63` bits), and for
//!   width 8 by packing two squares' codes in 7 bits (a window of 17 squares holds at
//!   most 8 path labels, so a code is one of 11 values and a pair one of 121 < 128):
//!   8 pairs, one single code, the terminal count and the flag make 63 bits.
//! - **Counts** are `u64` with every addition checked; the caller reruns with `u128`
//!   when one overflows.
//! - **Partitions.** The states after a square are held as partitions: lists of
//!   distinct keys with their counts, in blocks of [`BLOCK`] entries, a key's partition
//!   chosen by its hash. Expanding the states before a square, each worker appends the
//!   successors it makes to its own list per partition ([`Emitted`]), without locks or
//!   lookups, [`STAGE`] at a time through a small area per partition (all side by side,
//!   so that a successor's write seldom reaches a page the processor has not mapped
//!   lately); then each partition is merged on its own ([`merge`]): its successors from
//!   every worker are added up in a hash map small enough to stay in a core's cache
//!   (about [`PER_PARTITION`] states), and the sums are written back into the
//!   partition's blocks. Adding each successor into one hash map of every state, which
//!   at 10^8 states misses the cache on nearly every addition, is what this replaces.
//! - **Memory.** A state takes 16 bytes (key and count). At the largest square the
//!   successors (about twice the states after it) are held before they are merged,
//!   beside what is left of the states before it: each worker frees a block of states
//!   as soon as it has expanded it. Every list is made of blocks of one size, so a
//!   list wastes at most one block, and the blocks one square frees hold the next
//!   square's successors.

use std::collections::HashMap;
use std::hash::Hash;

use foldhash::fast::FixedState;
use rayon::prelude::*;

/// About how many states a partition holds: its hash map while it is merged (16-byte
/// entries at a load of 7/16 to 7/8) stays within a core's 2 MiB second-level cache.
pub(crate) const PER_PARTITION: usize = 1 << 15;

/// Most partitions a square's states are split into.
const MAX_PARTITIONS: usize = 1 << 14;

/// A state's stored key: `u64` or `u128`, converted from and to the `u128` the
/// dynamic program builds.
pub trait Key: Copy + Default + Eq + Hash + Send + Sync + 'static {
    /// Whether keys of a window of `p` squares fit this type.
    fn fits(p: usize) -> bool;
    /// The stored key of the state `k` of a window of `p` squares (`p` must fit).
    fn pack(k: u128, p: usize) -> Self;
    /// The state [`Key::pack`] stored: `K::pack(k, p).unpack(p) == k`.
    fn unpack(self, p: usize) -> u128;
    /// A hash of the key; its top bits choose the key's partition.
    fn hash64(self) -> u64;
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

    fn hash64(self) -> u64 {
        self.wrapping_mul(0x9E37_79B9_7F4A_7C15)
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

    fn hash64(self) -> u64 {
        ((self as u64) ^ (self >> 64) as u64).hash64()
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

/// Why [`merge`] (or [`Emitted::push`]) stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failed {
    /// A sum overflowed `C`: the run must be redone with a wider count.
    Overflowed,
    /// A list or map could not grow: out of memory.
    NoMemory,
}

/// One partition of a square's states: distinct keys and their counts, in no order, in
/// blocks of at most [`BLOCK`] (the blocks its successors were kept in, see [`merge`]).
pub type Shard<K, C> = Vec<Block<K, C>>;

/// Number of states in one partition.
pub fn states_in<K, C>(shard: &Shard<K, C>) -> usize {
    shard.iter().map(Vec::len).sum()
}

/// How a square's states are split into partitions: `1 << bits` of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Partitions {
    bits: u32,
}

impl Partitions {
    /// Partitions for about `states` states: [`PER_PARTITION`] each, at least 2 and at
    /// most [`MAX_PARTITIONS`].
    pub fn for_states(states: usize) -> Partitions {
        let n = (states / PER_PARTITION).clamp(2, MAX_PARTITIONS);
        Partitions {
            bits: n.next_power_of_two().trailing_zeros(),
        }
    }

    /// Number of partitions.
    pub fn len(self) -> usize {
        1 << self.bits
    }

    /// The partition of `key`.
    #[inline]
    pub fn of<K: Key>(self, key: K) -> usize {
        (key.hash64() >> (64 - self.bits)) as usize
    }
}

/// Entries a block of a list holds: a list wastes at most one block's room (lists that
/// grow by doubling waste a third of theirs on average, gigabytes at 10^8 states).
const BLOCK: usize = 256;

/// Part of a list: at most [`BLOCK`] entries, allocated at once.
pub type Block<K, C> = Vec<(K, C)>;

/// Successors a worker stages per partition before it appends them to the partition's
/// list: the staging areas of every partition lie side by side (at 16,384 partitions
/// and 16-byte entries, 2 MiB), so most successors are written where the last ones
/// went, and a partition's list (on a page of its own, which a successor of a random
/// partition would reach through a miss of the translation cache) is written once per
/// `STAGE` successors, in one copy.
const STAGE: usize = 8;

/// The successors one worker made, one list (of blocks) per partition, equal keys not
/// yet added.
pub(crate) struct Emitted<K, C> {
    parts: Partitions,
    /// `STAGE` slots per partition, the first `fill[j]` of partition `j` in use.
    staged: Vec<(K, C)>,
    fill: Vec<u8>,
    lists: Vec<Vec<Block<K, C>>>,
    failed: Option<Failed>,
}

impl<K: Key, C: Tally> Emitted<K, C> {
    /// Empty lists for `parts`, allocated fallibly: when they cannot be, nothing is kept
    /// and [`merge`] reports [`Failed::NoMemory`] (each worker holds one while it
    /// expands, so their number follows the threads).
    pub fn new(parts: Partitions) -> Self {
        let n = parts.len();
        let mut e = Emitted {
            parts,
            staged: Vec::new(),
            fill: Vec::new(),
            lists: Vec::new(),
            failed: None,
        };
        if e.staged.try_reserve_exact(n * STAGE).is_err()
            || e.fill.try_reserve_exact(n).is_err()
            || e.lists.try_reserve_exact(n).is_err()
        {
            e.failed = Some(Failed::NoMemory);
            return e;
        }
        e.staged.resize(n * STAGE, (K::default(), C::default()));
        e.fill.resize(n, 0);
        e.lists.resize_with(n, Vec::new);
        e
    }

    /// Keep `count` for the state `key`. A list grows fallibly: when it cannot, nothing
    /// is kept and [`merge`] reports [`Failed::NoMemory`].
    #[inline]
    pub fn push(&mut self, key: K, count: C) {
        if self.failed.is_some() {
            return;
        }
        let j = self.parts.of(key);
        let f = usize::from(self.fill[j]);
        self.staged[j * STAGE + f] = (key, count);
        if f + 1 < STAGE {
            self.fill[j] = (f + 1) as u8;
        } else {
            self.fill[j] = 0;
            self.flush(j, STAGE);
        }
    }

    /// Append the first `n` staged successors of partition `j` to its list.
    #[cold]
    fn flush(&mut self, j: usize, n: usize) {
        let mut staged = &self.staged[j * STAGE..j * STAGE + n];
        let list = &mut self.lists[j];
        while !staged.is_empty() {
            let room = list.last().map_or(0, |b| BLOCK - b.len());
            if room == 0 {
                let mut block = Vec::new();
                if block.try_reserve_exact(BLOCK).is_err() || list.try_reserve(1).is_err() {
                    self.failed = Some(Failed::NoMemory);
                    return;
                }
                list.push(block);
                continue;
            }
            let (now, rest) = staged.split_at(room.min(staged.len()));
            list.last_mut()
                .expect("a block with room")
                .extend_from_slice(now);
            staged = rest;
        }
    }

    /// Every partition's list, the staged successors appended.
    fn into_lists(mut self) -> Result<Vec<Vec<Block<K, C>>>, Failed> {
        if let Some(f) = self.failed {
            return Err(f);
        }
        for j in 0..self.parts.len() {
            self.flush(j, usize::from(self.fill[j]));
        }
        match self.failed {
            Some(f) => Err(f),
            None => Ok(self.lists),
        }
    }
}

/// The states made by every worker, merged: partition `j` holds each key of the
/// workers' lists `j` once, with the sum of its counts. The partitions are merged in
/// parallel, each on its own and in its own blocks ([`merge_partition`]).
pub(crate) fn merge<K: Key, C: Tally>(
    emitted: Vec<Emitted<K, C>>,
) -> Result<Vec<Shard<K, C>>, Failed> {
    let Some(parts) = emitted.first().map(|e| e.parts) else {
        return Ok(Vec::new());
    };
    let mut columns: Vec<Vec<Block<K, C>>> = (0..parts.len()).map(|_| Vec::new()).collect();
    for e in emitted {
        for (column, list) in columns.iter_mut().zip(e.into_lists()?) {
            if column.try_reserve(list.len()).is_err() {
                return Err(Failed::NoMemory);
            }
            column.extend(list);
        }
    }
    columns
        .into_par_iter()
        .map_init(HashMap::default, merge_partition)
        .collect()
}

/// One partition's blocks, equal keys added in `sums` (a worker's map, emptied and used
/// again for each partition it merges, so that its memory is allocated once). The sums
/// are written back into the same blocks, which hold at least as many entries as there
/// are distinct keys, and the blocks left over are freed: merging allocates nothing, and
/// the freed blocks, all of one size, hold the next square's successors.
fn merge_partition<K: Key, C: Tally>(
    sums: &mut HashMap<K, C, FixedState>,
    mut blocks: Vec<Block<K, C>>,
) -> Result<Shard<K, C>, Failed> {
    let total = states_in(&blocks);
    sums.clear();
    sums.try_reserve(total).map_err(|_| Failed::NoMemory)?;
    for &(k, v) in blocks.iter().flatten() {
        let e = sums.entry(k).or_default();
        *e = e.checked_add(v).ok_or(Failed::Overflowed)?;
    }
    let mut filled = 0;
    let mut sums = sums.drain();
    for block in &mut blocks {
        block.clear();
        block.extend(sums.by_ref().take(block.capacity()));
        if block.is_empty() {
            break;
        }
        filled += 1;
    }
    debug_assert!(sums.next().is_none(), "the blocks hold every distinct key");
    blocks.truncate(filled);
    Ok(blocks)
}

/// Number of states held in `shards`.
pub fn len<K, C>(shards: &[Shard<K, C>]) -> usize {
    shards.iter().map(states_in).sum()
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

        /// Merging the lists of several workers gives each key once, in its partition,
        /// with the sum of its counts, however many partitions and whichever worker
        /// kept which count.
        #[test]
        fn merging_gives_the_sum_of_every_key(
            pushes in proptest::collection::vec((0u64..700, 1u64..1000, 0usize..3), 0..3000),
            states in 0usize..20_000_000,
        ) {
            let parts = Partitions::for_states(states);
            let mut workers: Vec<Emitted<u64, u64>> = (0..3).map(|_| Emitted::new(parts)).collect();
            let mut want = std::collections::BTreeMap::new();
            for &(k, v, w) in &pushes {
                workers[w].push(k, v);
                *want.entry(k).or_insert(0) += v;
            }
            let merged = merge(workers).unwrap();
            prop_assert_eq!(merged.len(), parts.len());
            let mut got = std::collections::BTreeMap::new();
            for (j, shard) in merged.iter().enumerate() {
                for &(k, v) in shard.iter().flatten() {
                    prop_assert_eq!(parts.of(k), j);
                    prop_assert!(got.insert(k, v).is_none(), "key {} twice", k);
                }
            }
            prop_assert_eq!(got, want);
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

    /// Equal keys from different workers and partitions are added once each; an
    /// overflowing sum is reported, not wrapped.
    #[test]
    fn merging_adds_equal_keys_and_reports_an_overflow() {
        let parts = Partitions::for_states(0);
        assert_eq!(parts.len(), 2);
        let mut a: Emitted<u64, u64> = Emitted::new(parts);
        let mut b: Emitted<u64, u64> = Emitted::new(parts);
        for k in 0..1000u64 {
            a.push(k, 1);
            b.push(k % 10, 2);
        }
        let merged = merge(vec![a, b]).unwrap();
        assert_eq!(len(&merged), 1000);
        for (j, shard) in merged.iter().enumerate() {
            for &(k, v) in shard.iter().flatten() {
                assert_eq!(parts.of(k), j, "key {k} in partition {j}");
                assert_eq!(v, if k < 10 { 1 + 200 } else { 1 }, "key {k}");
            }
        }
        let mut c: Emitted<u64, u64> = Emitted::new(parts);
        c.push(7, u64::MAX);
        let mut d: Emitted<u64, u64> = Emitted::new(parts);
        d.push(7, 1);
        assert_eq!(merge(vec![c, d]).unwrap_err(), Failed::Overflowed);
        let mut w: Emitted<u64, u128> = Emitted::new(parts);
        w.push(7, u128::from(u64::MAX));
        w.push(7, 1);
        let merged = merge(vec![w]).unwrap();
        assert_eq!(len(&merged), 1);
    }

    #[test]
    fn partitions_grow_with_the_states() {
        assert_eq!(Partitions::for_states(1).len(), 2);
        assert_eq!(Partitions::for_states(PER_PARTITION * 100).len(), 128);
        assert_eq!(Partitions::for_states(usize::MAX).len(), MAX_PARTITIONS);
    }
}

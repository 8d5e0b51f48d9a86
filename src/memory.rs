//! The memory this process may really use, and fallible allocation of large buffers.
//!
//! [`limit`] reads, each time it is called (every source can change while the process
//! runs), the bounds that apply to this process and keeps the lowest:
//!
//! - the address-space limit `RLIMIT_AS` (`ulimit -v`, `prlimit --as`) less the address
//!   space in use (`VmSize` of `/proc/self/status`);
//! - the data-segment limit `RLIMIT_DATA` less the data in use (`VmData`);
//! - the cgroup v2 limit `memory.max` of the process's cgroup (from `/proc/self/cgroup`)
//!   less its `memory.current`;
//! - the memory the kernel says is available (`MemAvailable` of `/proc/meminfo`).
//!
//! A source that is absent or unlimited is skipped; when none is known (other systems)
//! the limit is the fixed `FALLBACK_BYTES`. The [`Limit`] names the source that set
//! it, so that a refusal says where the bound comes from.
//!
//! A request beyond this limit is the environment's failure, not the input's: a
//! [`MemoryError`] (exit code 1 on the command line), whether it is refused from an
//! estimate before any work ([`check`]; requests up to [`UNCHECKED_BYTES`] pass without
//! reading the limit) or met when a large buffer cannot be allocated (`try_vec`,
//! `try_with_capacity`, `try_reserve`).

use std::fmt;

use thiserror::Error;

/// The limit used when no source is known (systems without `/proc` and rlimits).
pub(crate) const FALLBACK_BYTES: u64 = 12 << 30;

/// Where the memory limit comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `RLIMIT_AS`, the address-space limit, of this many bytes.
    AddressSpace {
        /// The limit, in bytes.
        limit: u64,
    },
    /// `RLIMIT_DATA`, the data-segment limit, of this many bytes.
    Data {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The cgroup v2 `memory.max` of the cgroup at this path.
    Cgroup {
        /// The cgroup's folder (under `/sys/fs/cgroup`).
        path: String,
        /// Its `memory.max`, in bytes.
        limit: u64,
    },
    /// `MemAvailable` of `/proc/meminfo`.
    Available,
    /// No source known: `FALLBACK_BYTES`.
    Fallback,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::AddressSpace { limit } => {
                write!(
                    f,
                    "the address-space limit (ulimit -v) of {}",
                    human(*limit)
                )
            }
            Source::Data { limit } => {
                write!(f, "the data-segment limit (ulimit -d) of {}", human(*limit))
            }
            Source::Cgroup { path, limit } => {
                write!(f, "the cgroup memory.max of {} ({path})", human(*limit))
            }
            Source::Available => f.write_str("the memory available (MemAvailable)"),
            Source::Fallback => f.write_str("the built-in limit (no system limit known)"),
        }
    }
}

/// The memory this process may still allocate, and where that bound comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    /// Bytes the process may still allocate.
    pub bytes: u64,
    /// The source that set the bound (the lowest of them).
    pub source: Source,
}

impl Limit {
    /// Refuse `what` when it would need more than this limit: `needed` bytes beyond those
    /// the process held when the limit was read.
    pub fn check(&self, what: impl FnOnce() -> String, needed: u64) -> Result<(), MemoryError> {
        if needed > self.bytes {
            return Err(MemoryError {
                what: what(),
                needed,
                limit: Some(self.clone()),
            });
        }
        Ok(())
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} free under {}", human(self.bytes), self.source)
    }
}

/// A request for more memory than the process may use: estimated beyond [`limit`]
/// before any work, or refused by the allocator.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("out of memory: {what} needs about {}, {}", human(*.needed), self.why())]
pub struct MemoryError {
    /// What needed the memory (`"the network on board 3000x3000"`).
    pub what: String,
    /// Bytes needed (an estimate, or the allocation that failed).
    pub needed: u64,
    /// The limit it was checked against, when it was refused before any work; `None`
    /// when the allocator refused it.
    pub limit: Option<Limit>,
}

impl MemoryError {
    fn why(&self) -> String {
        match &self.limit {
            Some(l) => format!("and this process has {l}"),
            None => "which the system refused to allocate".to_string(),
        }
    }
}

/// Bytes in a short human form (KiB / MiB / GiB).
pub(crate) fn human(bytes: u64) -> String {
    let b = bytes as f64;
    if bytes >= 1 << 30 {
        format!("{:.1} GiB", b / (1u64 << 30) as f64)
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", b / (1u64 << 20) as f64)
    } else {
        format!("{:.1} KiB", b / 1024.0)
    }
}

/// The lowest of the bounds in the module documentation, read now.
pub fn limit() -> Limit {
    let mut best = Limit {
        bytes: u64::MAX,
        source: Source::Fallback,
    };
    for l in sources() {
        if l.bytes < best.bytes {
            best = l;
        }
    }
    if best.source == Source::Fallback {
        best.bytes = FALLBACK_BYTES;
    }
    best
}

/// Requests of at most this many bytes pass [`check`] without reading the limit. The
/// process allocates as much in its ordinary work without any check, so refusing such a
/// request would protect nothing; and reading the limit (four files and two system calls,
/// tens of microseconds) costs more than the work such a request stands for: an 8×8
/// Warnsdorff walk takes a few microseconds, and `compare` and experiments check every
/// trial.
pub const UNCHECKED_BYTES: u64 = 1 << 20;

/// Refuse `what` when it would need more than [`limit`]: `needed` bytes beyond those the
/// process holds now (requests up to [`UNCHECKED_BYTES`] always pass).
pub fn check(what: impl FnOnce() -> String, needed: u64) -> Result<(), MemoryError> {
    check_against(limit, what, needed)
}

/// [`check`] against the limit `read` gives, read only for a request above
/// [`UNCHECKED_BYTES`].
fn check_against(
    read: impl FnOnce() -> Limit,
    what: impl FnOnce() -> String,
    needed: u64,
) -> Result<(), MemoryError> {
    if needed <= UNCHECKED_BYTES {
        return Ok(());
    }
    read().check(what, needed)
}

/// A vector of `n` copies of `value`, or a [`MemoryError`] naming `what` if it cannot be
/// allocated.
pub(crate) fn try_vec<T: Clone>(n: usize, value: T, what: &str) -> Result<Vec<T>, MemoryError> {
    let mut v = try_with_capacity(n, what)?;
    v.resize(n, value);
    Ok(v)
}

/// An empty vector with room for exactly `n` items, or a [`MemoryError`] naming `what`.
pub(crate) fn try_with_capacity<T>(n: usize, what: &str) -> Result<Vec<T>, MemoryError> {
    let mut v = Vec::new();
    try_reserve(&mut v, n, what)?;
    Ok(v)
}

/// Room for `additional` more items in `v` (exactly), or a [`MemoryError`] naming
/// `what`.
pub(crate) fn try_reserve<T>(
    v: &mut Vec<T>,
    additional: usize,
    what: &str,
) -> Result<(), MemoryError> {
    v.try_reserve_exact(additional).map_err(|_| MemoryError {
        what: what.to_string(),
        needed: (additional as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        limit: None,
    })
}

/// Address space glibc reserves for each malloc arena (`HEAP_MAX_SIZE` on 64-bit).
pub(crate) const ARENA_BYTES: u64 = 64 << 20;

/// Under an address-space limit, cap glibc's malloc arenas (`M_ARENA_MAX`) so that
/// they reserve at most a quarter of it: by default each thread that allocates may get
/// an arena of its own, up to 8 per core, each reserving [`ARENA_BYTES`] of address
/// space, which a limit counts even though little of it is used. Without such a limit
/// (or outside glibc) nothing changes. Called before starting worker threads.
pub(crate) fn limit_arenas() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            if let Some(limit) = rlimit(libc::RLIMIT_AS) {
                let arenas = (limit / 4 / ARENA_BYTES).clamp(1, 64) as libc::c_int;
                // SAFETY: mallopt only sets a malloc parameter.
                unsafe { libc::mallopt(libc::M_ARENA_MAX, arenas) };
            }
        });
    }
}

/// Hand the memory the allocator holds free back to the system. glibc keeps what a
/// program frees for its next allocations; after a count's largest square, gigabytes of
/// freed blocks would stay resident beside what comes next. Outside glibc nothing
/// happens.
pub(crate) fn release_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the heap to the system.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(target_os = "linux")]
fn sources() -> Vec<Limit> {
    let mut out = Vec::new();
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for (resource, field, make) in [
        (
            libc::RLIMIT_AS,
            "VmSize:",
            (|limit| Source::AddressSpace { limit }) as fn(u64) -> Source,
        ),
        (libc::RLIMIT_DATA, "VmData:", |limit| Source::Data { limit }),
    ] {
        let Some(limit) = rlimit(resource) else {
            continue;
        };
        let used = kib_field(&status, field).unwrap_or(0);
        out.push(Limit {
            bytes: limit.saturating_sub(used),
            source: make(limit),
        });
    }
    if let Some(l) = cgroup() {
        out.push(l);
    }
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    if let Some(avail) = kib_field(&meminfo, "MemAvailable:") {
        out.push(Limit {
            bytes: avail,
            source: Source::Available,
        });
    }
    out
}

#[cfg(not(target_os = "linux"))]
fn sources() -> Vec<Limit> {
    Vec::new()
}

/// The soft limit of `resource`, if it is finite.
#[cfg(target_os = "linux")]
fn rlimit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes one rlimit into the struct it is given.
    if unsafe { libc::getrlimit(resource, &mut lim) } != 0 || lim.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    Some(lim.rlim_cur)
}

/// The value in bytes of a `Name:   123 kB` line of a `/proc` file.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let rest = text.lines().find_map(|l| l.strip_prefix(name))?;
    let kib: u64 = rest.split_whitespace().next()?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The cgroup v2 `memory.max` less `memory.current` of this process's cgroup, if it
/// has a finite one.
#[cfg(target_os = "linux")]
fn cgroup() -> Option<Limit> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    // cgroup v2: the line `0::/path`.
    let rel = text.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(rel.trim_start_matches('/'));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?; // "max": unlimited
    let current: u64 = read("memory.current")
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    Some(Limit {
        bytes: max.saturating_sub(current),
        source: Source::Cgroup {
            path: dir.display().to_string(),
            limit: max,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_fields_are_read_in_bytes() {
        let text = "Name:\tx\nVmSize:\t  123 kB\nVmData:\t7 kB\n";
        assert_eq!(kib_field(text, "VmSize:"), Some(123 * 1024));
        assert_eq!(kib_field(text, "VmData:"), Some(7 * 1024));
        assert_eq!(kib_field(text, "VmRSS:"), None);
    }

    #[test]
    fn the_limit_is_finite_and_refuses_beyond_it() {
        let l = limit();
        assert!(l.bytes > 0 && l.bytes < u64::MAX, "{l:?}");
        let e = check(|| "a test buffer".into(), u64::MAX).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("out of memory: a test buffer needs")
        );
        assert!(check(|| "nothing".into(), 0).is_ok());
    }

    #[test]
    fn small_requests_pass_without_reading_the_limit() {
        let none = || Limit {
            bytes: 0,
            source: Source::Available,
        };
        assert!(check_against(|| unreachable!("read"), || "x".into(), 0).is_ok());
        assert!(check_against(|| unreachable!("read"), || "x".into(), UNCHECKED_BYTES).is_ok());
        let e = check_against(none, || "a buffer".into(), UNCHECKED_BYTES + 1).unwrap_err();
        assert_eq!(e.needed, UNCHECKED_BYTES + 1);
    }

    #[test]
    fn a_failed_allocation_is_an_error_not_an_abort() {
        let e = try_with_capacity::<u64>(usize::MAX / 8, "a huge buffer").unwrap_err();
        assert!(e.to_string().contains("a huge buffer"), "{e}");
        assert_eq!(try_vec(3, 7u8, "three bytes").unwrap(), vec![7, 7, 7]);
    }
}

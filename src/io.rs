//! File writing that never leaves a half-written or foreign file behind: atomic
//! whole-file writes, a line appender that flushes every line, and the reader side of
//! append-only files (the length of the complete lines, and cutting off a torn last line).
//!
//! Every error names the file the caller asked for, never a temporary one, and a failed
//! atomic write removes its temporary file on every path (write, flush, sync or rename).

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use anyhow::{Context, Result};

/// Write `bytes` to `path` atomically: a uniquely named temporary file beside it
/// (`.NAME.XXXXXX.tmp`), synced, then renamed over `path`. On any failure the temporary
/// file is removed and the error names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, &mut |w: &mut dyn Write| Ok(w.write_all(bytes)?))
}

/// [`write_atomic`] of what `fill` writes, streamed to the temporary file (through a
/// buffer) rather than held in memory. An error from `fill` also removes the temporary
/// file; it is reported with the name of `path`.
pub fn write_atomic_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let cannot = || format!("cannot write {}", path.display());
    // The temporary file is deleted when `tmp` drops, which every early return does.
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .with_context(cannot)?;
    {
        let mut w = std::io::BufWriter::new(&mut tmp);
        fill(&mut w).with_context(cannot)?;
        w.flush().with_context(cannot)?;
    }
    tmp.as_file().sync_all().with_context(cannot)?;
    // `persist` hands the temporary file back (and it is then dropped, so removed) when
    // the rename fails.
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(cannot)?;
    Ok(())
}

/// Open `path` for reading, refusing anything but a regular file without blocking on it:
/// a FIFO, a device, a socket or a directory is an [`std::io::ErrorKind::InvalidInput`]
/// error whose message says what the path is ("is a FIFO, not a regular file"). Symbolic
/// links are followed. The file is opened non-blocking (so opening a FIFO with no writer
/// returns at once) and checked with `fstat` on the open descriptor, so what is checked is
/// what is read.
pub fn open_input(path: &Path) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        #[cfg(unix)]
        clear_nonblocking(&file)?;
        return Ok(file);
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("is {}, not a regular file", file_kind(&kind)),
    ))
}

/// Clear `O_NONBLOCK` on a regular file opened by [`open_input`] (reads of a regular file
/// ignore it on Linux, but not every system promises that).
#[cfg(unix)]
fn clear_nonblocking(file: &File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is a descriptor `file` owns and keeps open for the duration of both
    // calls; F_GETFL and F_SETFL only read and set its status flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// What a file type is, in words: "a directory", "a FIFO", "a character device", ...
pub fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Whether an error from [`open_input`] (or any open) is the caller's input to change
/// rather than the environment: the path does not exist, or is not a regular file.
pub fn is_input_problem(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound
            | std::io::ErrorKind::InvalidInput
            | std::io::ErrorKind::IsADirectory
            | std::io::ErrorKind::NotADirectory
    )
}

/// Appends lines to a file, flushing each one to the operating system as it is written,
/// so a crash loses at most the line being written (which [`complete_len`] then skips).
pub struct Appender {
    file: File,
    path: std::path::PathBuf,
}

impl Appender {
    /// Open `path` for appending, creating it when missing. Returns the appender and the
    /// file's length before anything is appended.
    pub fn open(path: &Path) -> Result<(Appender, u64)> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        let len = file
            .metadata()
            .with_context(|| format!("cannot read {}", path.display()))?
            .len();
        Ok((
            Appender {
                file,
                path: path.to_path_buf(),
            },
            len,
        ))
    }

    /// Append `bytes` (one or more whole lines) in one write call and flush them.
    pub fn append(&mut self, bytes: &[u8]) -> Result<()> {
        self.file
            .write_all(bytes)
            .and_then(|()| self.file.flush())
            .with_context(|| format!("cannot write {}", self.path.display()))
    }
}

/// The length of the complete lines of `file` (up to and including its last `\n`) and
/// the file's total length; the difference is a torn last line. Reads backwards from the
/// end in blocks, so a large file is not read whole.
pub fn complete_len(file: &mut File) -> std::io::Result<(u64, u64)> {
    let total = file.seek(SeekFrom::End(0))?;
    let mut end = total;
    let mut block = vec![0u8; 64 * 1024];
    while end > 0 {
        let start = end.saturating_sub(block.len() as u64);
        let buf = &mut block[..(end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(buf)?;
        if let Some(i) = buf.iter().rposition(|&b| b == b'\n') {
            file.seek(SeekFrom::Start(0))?;
            return Ok((start + i as u64 + 1, total));
        }
        end = start;
    }
    file.seek(SeekFrom::Start(0))?;
    Ok((0, total))
}

/// Cut `path` to its first `len` bytes (dropping a torn last line before appending).
pub fn cut_to(path: &Path, len: u64) -> Result<()> {
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    f.set_len(len)
        .and_then(|()| f.sync_all())
        .with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp") || n.contains(".tmp"))
            .collect()
    }

    #[cfg(unix)]
    #[test]
    fn open_input_refuses_what_is_not_a_regular_file_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for (path, words) in [
            (fifo.as_path(), "is a FIFO, not a regular file"),
            (dir.path(), "is a directory, not a regular file"),
            (
                Path::new("/dev/null"),
                "is a character device, not a regular file",
            ),
        ] {
            let e = open_input(path).unwrap_err();
            assert!(is_input_problem(&e), "{path:?}: {e}");
            assert_eq!(e.to_string(), words);
        }
        let file = dir.path().join("a.txt");
        std::fs::write(&file, b"abc").unwrap();
        let mut text = String::new();
        open_input(&file)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "abc");
        assert!(is_input_problem(
            &open_input(&dir.path().join("none")).unwrap_err()
        ));
    }

    #[test]
    fn atomic_write_replaces_and_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_failed_rename_removes_the_temporary_file_and_names_the_target() {
        let dir = tempfile::tempdir().unwrap();
        // A non-empty directory where the file should go: the rename fails.
        let p = dir.path().join("summary.json");
        std::fs::create_dir(&p).unwrap();
        std::fs::write(p.join("x"), b"x").unwrap();
        let e = format!("{:#}", write_atomic(&p, b"data").unwrap_err());
        assert!(
            e.starts_with(&format!("cannot write {}", p.display())),
            "{e}"
        );
        assert!(!e.contains(".summary.json."), "{e}");
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_full_device_is_reported_by_name() {
        let (mut a, _) = Appender::open(Path::new("/dev/full")).unwrap();
        let e = format!("{:#}", a.append(b"line\n").unwrap_err());
        assert!(e.contains("/dev/full"), "{e}");
    }

    #[test]
    fn complete_len_finds_the_torn_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.csv");
        for (text, want) in [
            (&b""[..], 0),
            (b"abc", 0),
            (b"a\n", 2),
            (b"a\nbc", 2),
            (b"a\nb\n", 4),
        ] {
            std::fs::write(&p, text).unwrap();
            let mut f = File::open(&p).unwrap();
            assert_eq!(complete_len(&mut f).unwrap(), (want, text.len() as u64));
        }
        // Longer than one block, newline far from the end.
        let mut big = vec![b'x'; 10];
        big.push(b'\n');
        big.extend(vec![b'y'; 200_000]);
        std::fs::write(&p, &big).unwrap();
        let mut f = File::open(&p).unwrap();
        assert_eq!(complete_len(&mut f).unwrap(), (11, big.len() as u64));
        cut_to(&p, 11).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"xxxxxxxxxx\n");
    }
}

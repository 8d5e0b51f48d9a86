//! File writing that never leaves a half-written or foreign file behind: atomic
//! whole-file writes, a line appender that flushes every line, and the reader side of
//! append-only files (the length of the complete lines, and cutting off a torn last line).
//!
//! Every error names the file the caller asked for, never a temporary one, and a failed
//! atomic write removes its temporary file on every path (write, flush, sync or rename).
//!
//! An atomic write goes through the symbolic links at its path (the link's final target
//! is replaced, and a dangling link's target is created) and refuses a target that is not
//! a regular file (a FIFO, a device, a socket, a directory). A new file gets the mode a
//! plain `open` would give it (0666 less the umask: the mode is handed to the kernel,
//! which applies the umask, so the umask is never read or changed); a replaced file keeps
//! its mode.
//!
//! Every temporary file is registered while it lives, created and registered (and renamed
//! and unregistered) under one lock, so [`remove_temporary_files_and_exit`] (called by the
//! binary on SIGINT and SIGTERM) finds every one there is.
//!
//! One rule sorts failed reads and writes (`is_input_problem`): a path that does not
//! exist, whose folder does not exist, or that is not a regular file is the caller's input
//! (exit 2); anything else (permissions, a full disk, a file too large, a read-only file
//! system) is the environment (exit 1). `write_failure` applies it.

use std::collections::BTreeSet;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{Error, InputError};

/// A result whose error is the library's [`Error`].
type Result<T, E = Error> = std::result::Result<T, E>;

/// The temporary files alive in this process.
static LIVE: Mutex<BTreeSet<PathBuf>> = Mutex::new(BTreeSet::new());

fn live() -> MutexGuard<'static, BTreeSet<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every temporary file this process holds, then end the process with `code`.
/// The registry stays locked until the end, so no temporary file is created or renamed
/// into place meanwhile. Called by the binary when SIGINT or SIGTERM arrives.
pub fn remove_temporary_files_and_exit(code: i32) -> ! {
    let files = live();
    for path in files.iter() {
        let _ = std::fs::remove_file(path);
    }
    std::process::exit(code)
}
#[cfg(test)]
/// The temporary files this process holds now (for tests and diagnostics).
pub(crate) fn temporary_files() -> Vec<PathBuf> {
    live().iter().cloned().collect()
}

/// A registered temporary file beside its target: removed (and unregistered) when
/// dropped, unless renamed into place by [`Temporary::persist`].
struct Temporary {
    file: Option<tempfile::NamedTempFile>,
}

impl Temporary {
    /// Create `.{name}.XXXXXX{suffix}` in `dir`, with mode `mode` if given (a replaced
    /// file's) or else 0666 less the umask.
    fn create(
        dir: &Path,
        name: &str,
        suffix: &str,
        mode: Option<u32>,
    ) -> std::io::Result<Temporary> {
        let prefix = format!(".{name}.");
        let mut files = live();
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(suffix);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let file = builder.tempfile_in(dir)?;
        #[cfg(unix)]
        if let Some(mode) = mode {
            use std::os::unix::fs::PermissionsExt;
            // On failure `file` drops here, removing the temporary file.
            file.as_file()
                .set_permissions(std::fs::Permissions::from_mode(mode))?;
        }
        #[cfg(not(unix))]
        let _ = mode;
        files.insert(file.path().to_path_buf());
        Ok(Temporary { file: Some(file) })
    }

    fn path(&self) -> &Path {
        self.file.as_ref().expect("a live temporary file").path()
    }

    fn as_file_mut(&mut self) -> &mut File {
        self.file
            .as_mut()
            .expect("a live temporary file")
            .as_file_mut()
    }

    /// Sync the file and rename it over `target`. On failure it is removed.
    fn persist(mut self, target: &Path) -> std::io::Result<()> {
        let file = self.file.take().expect("a live temporary file");
        file.as_file().sync_all()?;
        let mut files = live();
        let path = file.path().to_path_buf();
        // `persist` hands the file back on failure; it drops (is removed) here.
        let renamed = file.persist(target).map(drop).map_err(|e| e.error);
        files.remove(&path);
        renamed
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if let Some(file) = self.file.take() {
            let mut files = live();
            let path = file.path().to_path_buf();
            drop(file);
            files.remove(&path);
        }
    }
}

/// The file a write of `path` replaces: `path` with the symbolic links at its end
/// followed (a dangling link gives its target), and that file's mode if it exists. A
/// target that exists but is not a regular file is an
/// [`std::io::ErrorKind::InvalidInput`] error saying what it is.
fn write_target(path: &Path) -> std::io::Result<(PathBuf, Option<u32>)> {
    let mut target = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let to = std::fs::read_link(&target)?;
                target = match target.parent() {
                    Some(dir) if to.is_relative() => dir.join(to),
                    _ => to,
                };
            }
            Ok(m) if m.file_type().is_file() => {
                #[cfg(unix)]
                let mode = {
                    use std::os::unix::fs::PermissionsExt;
                    Some(m.permissions().mode() & 0o7777)
                };
                #[cfg(not(unix))]
                let mode = None;
                return Ok((target, mode));
            }
            Ok(m) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("is {}, not a regular file", file_kind(&m.file_type())),
                ));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((target, None)),
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "is a chain of more than 40 symbolic links",
    ))
}

/// A failed write of `path`, as one line naming it and the OS reason: an
/// [`InputError::File`] (exit 2) when [`is_input_problem`] says the path is the
/// caller's to change, else [`Error::Io`] (exit 1).
pub(crate) fn write_failure(path: &Path, e: std::io::Error) -> Error {
    io_failure("write", path, e)
}

/// `write_failure` for another action (`"create folder"`, `"read"`, ...): `cannot
/// {action} PATH: REASON`, an [`InputError::File`] when the error says the path is the
/// caller's to change (it or its folder does not exist, a folder in it is a file, the
/// name is too long, it is not a regular file), else [`Error::Io`].
pub fn io_failure(action: &'static str, path: &Path, e: std::io::Error) -> Error {
    if is_input_problem(&e) {
        let msg = format!("cannot {action} {}: {}", path.display(), os_reason(&e));
        InputError::File(msg).into()
    } else {
        environment(action, path, e)
    }
}

/// The environment's failure to `action` `path` ([`Error::Io`]), whatever the error's
/// kind.
pub(crate) fn environment(action: &'static str, path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        action,
        path: path.to_path_buf(),
        source: e,
    }
}

/// An I/O error's text without the trailing " (os error N)".
pub(crate) fn os_reason(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Write `bytes` to `path` atomically: a uniquely named temporary file beside it
/// (`.NAME.XXXXXX.tmp`), synced, then renamed over `path` (over the final target of a
/// symbolic link). On any failure the temporary file is removed and the error names
/// `path` (`write_failure` sorts it into input or environment).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, &mut |w: &mut dyn Write| w.write_all(bytes))
}

/// [`write_atomic`] of what `fill` writes, streamed to the temporary file (through a
/// buffer) rather than held in memory. An error from `fill` also removes the temporary
/// file; it is reported with the name of `path` (`cannot write PATH: REASON`, sorted by
/// `write_failure`: a failure that is not the file's, such as a drawing's, is
/// [`std::io::Error::other`] with what it says).
pub(crate) fn write_atomic_with(
    path: &Path,
    fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let (mut tmp, target) = temporary_for(path, ".tmp")?;
    {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        fill(&mut w).map_err(|e| write_failure(path, e))?;
        w.flush().map_err(|e| write_failure(path, e))?;
    }
    tmp.persist(&target).map_err(|e| write_failure(path, e))
}

/// [`write_atomic`] for a writer that needs a path rather than a stream (an image
/// encoder that opens the file itself and picks its format by the extension): `fill`
/// writes the file at the path it is given, a registered temporary file beside `path`
/// whose name ends in `.tmp.EXT` (EXT being `path`'s extension), renamed over `path` when
/// `fill` succeeds and removed otherwise. Errors from `fill` are reported as
/// [`write_atomic`] reports a failed write.
pub fn write_atomic_at(
    path: &Path,
    fill: &mut dyn FnMut(&Path) -> std::io::Result<()>,
) -> Result<()> {
    let suffix = match path.extension() {
        Some(ext) => format!(".tmp.{}", ext.to_string_lossy()),
        None => ".tmp".to_string(),
    };
    let (tmp, target) = temporary_for(path, &suffix)?;
    fill(tmp.path()).map_err(|e| write_failure(path, e))?;
    tmp.persist(&target).map_err(|e| write_failure(path, e))
}

/// Refuse `path` if it exists and is not a regular file (after following symbolic links),
/// as [`write_atomic`] would: for checking an output before any work.
pub fn check_writable(path: &Path) -> Result<()> {
    write_target(path)
        .map(drop)
        .map_err(|e| write_failure(path, e))
}

/// A registered temporary file for writing `path`, beside the file it will replace
/// (resolved once, here), and that file.
fn temporary_for(path: &Path, suffix: &str) -> Result<(Temporary, PathBuf)> {
    let (target, mode) = write_target(path).map_err(|e| write_failure(path, e))?;
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = Temporary::create(dir, &name, suffix, mode).map_err(|e| write_failure(path, e))?;
    Ok((tmp, target))
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
pub(crate) fn file_kind(kind: &std::fs::FileType) -> &'static str {
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

/// Whether an error from [`open_input`] (or any open, read or write) is the caller's
/// input to change rather than the environment: the path or its folder does not exist,
/// a folder in it is a file, the name is too long, or the path is not a regular file.
pub(crate) fn is_input_problem(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound
            | std::io::ErrorKind::InvalidInput
            | std::io::ErrorKind::IsADirectory
            | std::io::ErrorKind::NotADirectory
            | std::io::ErrorKind::InvalidFilename
    )
}

/// Read the whole of `path` as UTF-8 text through [`open_input`] (so a FIFO or a device
/// is refused at once rather than waited on).
pub(crate) fn read_input_to_string(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    open_input(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// Appends lines to a file, flushing each one to the operating system as it is written,
/// so a crash loses at most the line being written (which [`complete_len`] then skips).
pub(crate) struct Appender {
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
            .map_err(|e| environment("open", path, e))?;
        let len = file
            .metadata()
            .map_err(|e| environment("read", path, e))?
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
            .map_err(|e| environment("write", &self.path, e))
    }
}

/// The length of the complete lines of `file` (up to and including its last `\n`) and
/// the file's total length; the difference is a torn last line. Reads backwards from the
/// end in blocks, so a large file is not read whole.
pub(crate) fn complete_len(file: &mut File) -> std::io::Result<(u64, u64)> {
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
pub(crate) fn cut_to(path: &Path, len: u64) -> Result<()> {
    let f = OpenOptions::new()
        .write(true)
        .open(path)
        .map_err(|e| environment("open", path, e))?;
    f.set_len(len)
        .and_then(|()| f.sync_all())
        .map_err(|e| environment("write", path, e))
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

    #[cfg(unix)]
    #[test]
    fn atomic_writes_go_through_links_keep_modes_and_refuse_special_files() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        std::fs::write(&real, b"old").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link.json");
        std::os::unix::fs::symlink("real.json", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&real).unwrap(), b"new");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        // A dangling link: its target is created.
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("made.json", &dangling).unwrap();
        write_atomic(&dangling, b"x").unwrap();
        assert_eq!(std::fs::read(dir.path().join("made.json")).unwrap(), b"x");
        // A FIFO is refused (input), and left as it is.
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let e = write_atomic(&fifo, b"x").unwrap_err();
        assert!(matches!(e, Error::Input(InputError::File(_))), "{e}");
        assert_eq!(
            e.to_string(),
            format!(
                "cannot write {}: is a FIFO, not a regular file",
                fifo.display()
            )
        );
        assert!(leftovers(dir.path()).is_empty());
    }

    #[test]
    fn a_missing_folder_is_input_and_a_failed_fill_removes_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("none").join("a.json");
        let e = write_atomic(&p, b"x").unwrap_err();
        assert!(matches!(e, Error::Input(InputError::File(_))), "{e}");
        let p = dir.path().join("a.png");
        let e = write_atomic_at(&p, &mut |tmp: &Path| {
            assert!(tmp.to_string_lossy().ends_with(".tmp.png"), "{tmp:?}");
            assert!(temporary_files().contains(&tmp.to_path_buf()));
            Err(std::io::Error::from(std::io::ErrorKind::StorageFull))
        })
        .unwrap_err();
        assert!(matches!(e, Error::Io { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with(&format!("cannot write {}: ", p.display()))
        );
        assert!(leftovers(dir.path()).is_empty());
        assert!(!temporary_files().iter().any(|t| t.starts_with(dir.path())));
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

//! A results folder is written by one process at a time: `experiment` (also with
//! `--resume`) and `merge --out` hold an advisory lock on the folder for as long as they
//! write it, so a second process started on the same folder stops at once instead of
//! recording every trial twice.
//!
//! The lock is `flock` on the file [`LOCK`] inside the folder (std's [`File::try_lock`]),
//! which holds the holder's PID for the message the second process prints. The operating
//! system releases the lock when its holder exits, however it exits, so a lock file left
//! behind by a killed process never blocks anyone: only a lock actually held does. The
//! holder removes the file when it is done (while still holding the lock; a process that
//! opened the old file meanwhile notices, after locking it, that it is no longer the one
//! at the path and takes the new one instead).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::Result;
use crate::error::Error;
use crate::io::environment;

/// The lock file's name inside a results folder.
pub const LOCK: &str = ".lock";

/// How many times [`FolderLock::take`] retries when the lock file it locked was removed
/// by its previous holder in between (each retry means another process finished).
const RETRIES: usize = 100;

/// The lock of one results folder, held until dropped.
#[derive(Debug)]
pub(crate) struct FolderLock {
    file: File,
    path: PathBuf,
    /// The folder, when taking the lock created it (removed again on drop if still empty).
    created: Option<PathBuf>,
}

impl FolderLock {
    /// Take the lock of `dir`, creating the folder when it is missing. A folder another
    /// process holds is an error (an environment failure, not bad input) naming the folder
    /// and the holder's PID.
    pub fn take(dir: &Path) -> Result<FolderLock> {
        let created = std::fs::symlink_metadata(dir).is_err();
        let path = dir.join(LOCK);
        for _ in 0..RETRIES {
            std::fs::create_dir_all(dir).map_err(|e| environment("create", dir, e))?;
            let mut file = match OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
            {
                Ok(f) => f,
                // The folder was removed in between by a holder that had created it.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(environment("open", &path, e)),
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    return Err(Error::InUse {
                        folder: dir.to_path_buf(),
                        lock: path,
                        holder: read_pid(&mut file),
                    });
                }
                Err(TryLockError::Error(e)) => return Err(environment("lock", &path, e)),
            }
            if !is_at(&file, &path) {
                // Its holder removed it after we opened it: lock the file now at the path.
                continue;
            }
            let pid = format!("{}\n", std::process::id());
            file.seek(SeekFrom::Start(0))
                .and_then(|_| file.write_all(pid.as_bytes()))
                .and_then(|()| file.set_len(pid.len() as u64))
                .map_err(|e| environment("write", &path, e))?;
            return Ok(FolderLock {
                file,
                path,
                created: created.then(|| dir.to_path_buf()),
            });
        }
        Err(environment(
            "lock",
            dir,
            std::io::Error::other("other processes keep taking and releasing it"),
        ))
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        // Removed while still locked; the lock goes with the descriptor just after.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.unlock();
        if let Some(dir) = &self.created {
            // Only succeeds when nothing was written into it (a refused run).
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The PID a lock file holds, if it holds one.
fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Whether `file` is still the file at `path` (its holder may have removed it).
fn is_at(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_folder_is_refused_with_the_holders_pid_and_released_on_drop() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("out");
        let lock = FolderLock::take(&dir).unwrap();
        let text = std::fs::read_to_string(dir.join(LOCK)).unwrap();
        assert_eq!(text, format!("{}\n", std::process::id()));
        // flock locks belong to open files: a second open in this process is refused too.
        let e = FolderLock::take(&dir).unwrap_err().to_string();
        assert!(
            e.contains(&format!("process {}", std::process::id())) && e.contains("in use"),
            "{e}"
        );
        drop(lock);
        // The folder was created for the lock and is empty again: removed.
        assert!(!dir.exists());
        // A leftover lock file whose holder is gone does not block.
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join(LOCK), "999999999\n").unwrap();
        let lock = FolderLock::take(&dir).unwrap();
        drop(lock);
        assert!(dir.exists() && !dir.join(LOCK).exists());
    }
}

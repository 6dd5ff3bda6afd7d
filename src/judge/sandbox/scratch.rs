//! The one thing a sandboxed run keeps on the host: an empty folder its root file system is
//! mounted on (inside the run's own mount namespace). Its name is unpredictable and its mode
//! 0700, so that no other user can make it in advance nor look into it; the program's `/tmp`
//! and `/dev/shm` are tmpfs mounts of the run's namespace, on no disk, gone with it.
//!
//! The folder is removed when the run ends, made writable first should anything in it not be;
//! those a judge killed with SIGKILL left behind (named after the judge's process, as the
//! cgroups are) are removed by the next judge of the same user.

use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The prefix of every run's folder in the system's temporary folder.
pub const PREFIX: &str = "chess-puzzles-box-";

/// One run's folder, removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A fresh folder, `PREFIX` + the judge's pid + a random part, mode 0700 (the folders of
    /// judges that are gone are removed the first time).
    pub fn create() -> io::Result<Scratch> {
        static SWEPT: Once = Once::new();
        let base = std::env::temp_dir();
        SWEPT.call_once(|| sweep(&base));
        let path = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .permissions(std::fs::Permissions::from_mode(0o700))
            .tempdir_in(&base)?
            .keep();
        Ok(Scratch { path })
    }

    /// The empty folder the run's root is mounted on.
    pub fn root(&self) -> PathBuf {
        self.path.clone()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = remove(&self.path);
    }
}

/// Removes the folder `path` and everything in it, making each folder in it writable first
/// where it is not (a program may leave a folder of mode 0555).
pub fn remove(path: &Path) -> io::Result<()> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            open_up(path);
            std::fs::remove_dir_all(path)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        other => other,
    }
}

/// Makes `dir` and every folder below it writable and searchable by its owner (no link is
/// followed).
fn open_up(dir: &Path) {
    let Ok(meta) = std::fs::symlink_metadata(dir) else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let _ = std::fs::set_permissions(
        dir,
        std::fs::Permissions::from_mode(meta.mode() & 0o7777 | 0o700),
    );
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            open_up(&entry.path());
        }
    }
}

/// Removes the run folders of judges of this user that no longer run.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<libc::pid_t>().ok())
            .filter(|&pid| pid > 0)
        else {
            continue;
        };
        // Another user's folder is not this judge's to remove.
        if entry
            .path()
            .symlink_metadata()
            .map_or(true, |m| m.uid() != me || !m.is_dir())
        {
            continue;
        }
        // Safety: signal 0 only checks that the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = remove(&entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_folder_is_private_unpredictable_and_removed() {
        let a = Scratch::create().unwrap();
        let b = Scratch::create().unwrap();
        assert_ne!(a.root(), b.root());
        let meta = std::fs::metadata(a.root()).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o700);
        let name = a.root().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(&format!("{PREFIX}{}-", std::process::id())));
        let path = a.root();
        drop(a);
        assert!(!path.exists());
    }

    #[test]
    fn a_tree_with_read_only_folders_is_removed() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().join("t");
        std::fs::create_dir_all(top.join("a/b")).unwrap();
        std::fs::write(top.join("a/b/f"), "x").unwrap();
        for d in ["a/b", "a"] {
            std::fs::set_permissions(top.join(d), std::fs::Permissions::from_mode(0o555)).unwrap();
        }
        remove(&top).unwrap();
        assert!(!top.exists());
    }
}

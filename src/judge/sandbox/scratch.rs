//! The folder of one sandboxed run: `root`, the empty folder its root file system is mounted
//! on, and `tmp`, the scratch folder the program may write (its `/tmp`). Removed with
//! everything in it when the run ends; those a judge killed with SIGKILL left behind are
//! removed by the next judge (named after the judge's process, as the cgroups are).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};

/// The prefix of every run's folder in the system's temporary folder.
const PREFIX: &str = "chess-puzzles-box-";

/// One run's folder, removed when dropped.
#[derive(Debug)]
pub struct Scratch {
    path: PathBuf,
}

impl Scratch {
    /// A fresh folder with `root` and `tmp` in it (the folders of judges that are gone are
    /// removed the first time).
    pub fn create() -> io::Result<Scratch> {
        static SWEPT: Once = Once::new();
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        SWEPT.call_once(|| sweep(&base));
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!("{PREFIX}{}-{n}", std::process::id()));
        std::fs::create_dir(&path)?;
        let scratch = Scratch { path };
        std::fs::create_dir(scratch.root())?;
        std::fs::create_dir(scratch.tmp())?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(scratch.tmp(), std::fs::Permissions::from_mode(0o1777))?;
        Ok(scratch)
    }

    /// The empty folder the run's root is mounted on.
    pub fn root(&self) -> PathBuf {
        self.path.join("root")
    }

    /// The program's scratch folder.
    pub fn tmp(&self) -> PathBuf {
        self.path.join("tmp")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Removes the run folders of judges that no longer run.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
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
        // Safety: signal 0 only checks that the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

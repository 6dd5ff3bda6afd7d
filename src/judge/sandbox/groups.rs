//! Process and memory limits through a cgroup v1 controller (`pids`, `memory`), for a judge
//! that may make one (root, on a system whose cgroup v2 does not have these controllers): a
//! group per run beside the judge's own, which the keeper joins before the program starts.
//! Where the run's cgroup v2 has the controller, that one is used instead (see `run`).

use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// One run's group under a v1 controller. Removed when dropped.
#[derive(Debug)]
pub struct Group {
    path: PathBuf,
}

/// The folder of the judge's own group under the v1 `controller`, when it is mounted.
fn own(controller: &str) -> Option<PathBuf> {
    let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let relative = cgroups.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, names, path) = (parts.next()?, parts.next()?, parts.next()?);
        names
            .split(',')
            .any(|n| n == controller)
            .then(|| path.to_string())
    })?;
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let mount = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        let mut right = right.split_whitespace();
        if right.next()? != "cgroup" {
            return None;
        }
        let options = right.nth(1)?;
        if !options.split(',').any(|o| o == controller) {
            return None;
        }
        // The mount's root in the hierarchy must be the hierarchy's root.
        let mut left = left.split_whitespace();
        (left.nth(3)? == "/").then(|| left.next().map(str::to_string))?
    })?;
    Some(PathBuf::from(mount).join(relative.trim_start_matches('/')))
}

impl Group {
    /// A fresh group under the v1 `controller` with `settings` written (file, value), and its
    /// `cgroup.procs` open for the keeper to join; `None` when none can be made here.
    pub fn create(controller: &str, settings: &[(&str, String)]) -> Option<(Group, OwnedFd)> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        static SWEPT: Mutex<Vec<String>> = Mutex::new(Vec::new());
        let base = own(controller)?;
        if let Ok(mut swept) = SWEPT.lock()
            && !swept.iter().any(|c| c == controller)
        {
            swept.push(controller.to_string());
            sweep(&base);
        }
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!("chess-puzzles-{}-{n}", std::process::id()));
        std::fs::create_dir(&path).ok()?;
        let group = Group { path };
        for (file, value) in settings {
            std::fs::write(group.path.join(file), value).ok()?;
        }
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(group.path.join("cgroup.procs"))
            .ok()?;
        Some((group, procs.into()))
    }

    /// A number the controller keeps (`memory.max_usage_in_bytes`).
    pub fn read(&self, file: &str) -> Option<u64> {
        let mut text = String::new();
        std::fs::File::open(self.path.join(file))
            .ok()?
            .take(64)
            .read_to_string(&mut text)
            .ok()?;
        text.trim().parse().ok()
    }

    /// The text of the controller's file `file` (at most 4 KiB): `memory.oom_control`.
    pub fn read_text(&self, file: &str) -> Option<String> {
        let mut text = String::new();
        std::fs::File::open(self.path.join(file))
            .ok()?
            .take(4096)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }

    /// The group's folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Removes the cgroups inside the cgroup folder `path` (its subfolders: a cgroup's files are
/// files), each with `remove`, which removes theirs first.
pub fn remove_children(path: &Path, mut remove: impl FnMut(&Path) -> io::Result<()>) {
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = remove(&entry.path());
        }
    }
}

/// Removes the v1 group folder `path` and the groups made inside it, deepest first.
fn remove_tree(path: &Path) -> io::Result<()> {
    remove_children(path, remove_tree);
    std::fs::remove_dir(path)
}

impl Drop for Group {
    fn drop(&mut self) {
        // Its processes are gone or going (they are the run's, killed with it).
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            match remove_tree(&self.path) {
                Ok(()) => return,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return,
                Err(_) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => return,
            }
        }
    }
}

/// Removes the groups in `base` that judges killed with SIGKILL left behind: named after a
/// process that no longer runs (and empty: the kernel removes no group that holds processes).
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("chess-puzzles-"))
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
            let _ = remove_tree(&entry.path());
        }
    }
}

//! A control group (cgroup v2) per run, where one can be made: a folder beside the judge's own
//! cgroup that the run's first process joins before the program starts, so that every process
//! of the run is in it whatever it does (a new session, a double fork). It gives the run's
//! CPU time summed over all its processes (`cpu.stat`), its peak memory when the memory
//! controller is there (`memory.peak`), and a way to kill them all at once (`cgroup.kill`).

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The folder under which the runs' cgroups are made: the judge's own cgroup, when it can
/// hold a new cgroup that the judge can move a process into; found once.
fn base() -> Option<&'static Path> {
    static BASE: OnceLock<Option<PathBuf>> = OnceLock::new();
    BASE.get_or_init(find_base).as_deref()
}

fn find_base() -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let relative = own.lines().find_map(|l| l.strip_prefix("0::"))?.to_string();
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    // mountinfo: id parent major:minor root mount-point options ... - fstype source options
    let mount = mounts.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        if right.split_whitespace().next()? != "cgroup2" {
            return None;
        }
        left.split_whitespace().nth(4).map(str::to_string)
    })?;
    let base = PathBuf::from(mount).join(relative.trim_start_matches('/'));
    // A trial: make one, move nothing, remove it.
    let trial = base.join(format!("chess-puzzles-{}-probe", std::process::id()));
    std::fs::create_dir(&trial).ok()?;
    let usable = trial.join("cgroup.procs").exists() && trial.join("cpu.stat").exists();
    let _ = std::fs::remove_dir(&trial);
    if usable {
        sweep(&base);
    }
    usable.then_some(base)
}

/// Removes the cgroups that judges killed with SIGKILL left behind in `base`: those named
/// after a process that no longer runs, and empty (the kernel refuses to remove a cgroup that
/// holds processes). (A cgroup's folder has no reliable age to go by: the kernel gives it the
/// time its inode was last loaded.) A judge in another PID namespace sharing `base`, whose
/// number means nothing here, could lose a cgroup it has just made and not yet joined: its run
/// then fails with an error, it does not go unwatched.
fn sweep(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(owner) else {
            continue;
        };
        if !alive(pid) {
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

/// The process a run's cgroup is named after (`chess-puzzles-PID-N`, or `-probe`).
fn owner(name: &str) -> Option<libc::pid_t> {
    let (pid, n) = name.strip_prefix("chess-puzzles-")?.split_once('-')?;
    if n != "probe" && n.parse::<u64>().is_err() {
        return None;
    }
    pid.parse().ok().filter(|&pid| pid > 0)
}

/// Whether process `pid` runs (or may: it exists and is not ours to signal).
fn alive(pid: libc::pid_t) -> bool {
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let signalled = unsafe { libc::kill(pid, 0) } == 0;
    signalled || io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

/// True when a cgroup can be made for each run.
pub fn available() -> bool {
    base().is_some()
}

/// True when the runs' cgroups have the controller `name` (`pids`, `memory`): enabled for
/// the children of the judge's cgroup.
pub fn enabled(name: &str) -> bool {
    base()
        .and_then(|b| read_small(&b.join("cgroup.subtree_control")))
        .is_some_and(|c| c.split_whitespace().any(|n| n == name))
}

/// One run's cgroup. Removed when dropped (once its processes are gone).
#[derive(Debug)]
pub struct Cgroup {
    path: PathBuf,
}

impl Cgroup {
    /// Makes a fresh cgroup and opens its `cgroup.procs` for the run's first process to write
    /// itself into (`0`) before the program starts.
    pub fn create() -> io::Result<(Cgroup, OwnedFd)> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = base().ok_or_else(|| io::Error::other("no cgroup v2 can be made here"))?;
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!("chess-puzzles-{}-{n}", std::process::id()));
        std::fs::create_dir(&path)?;
        let cgroup = Cgroup { path };
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(cgroup.path.join("cgroup.procs"))?;
        Ok((cgroup, procs.into()))
    }

    /// The cgroup's folder.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The CPU time of every process that is or was in the cgroup.
    pub fn cpu(&self) -> Option<Duration> {
        let text = read_small(&self.path.join("cpu.stat"))?;
        let usec = text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))?
            .trim()
            .parse()
            .ok()?;
        Some(Duration::from_micros(usec))
    }

    /// The time during which a process of the cgroup was ready to run but waited for a core
    /// (`cpu.pressure`, "some"), where the kernel tells it.
    pub fn waiting(&self) -> Option<Duration> {
        let text = read_small(&self.path.join("cpu.pressure"))?;
        let some = text.lines().find(|l| l.starts_with("some "))?;
        let usec = some
            .split_whitespace()
            .find_map(|f| f.strip_prefix("total="))?
            .parse()
            .ok()?;
        Some(Duration::from_micros(usec))
    }

    /// The peak memory of the cgroup, when the memory controller gives it.
    pub fn peak_memory(&self) -> Option<u64> {
        read_small(&self.path.join("memory.peak"))?
            .trim()
            .parse()
            .ok()
    }

    /// Writes `value` into the cgroup's `file` (a limit); false when it cannot.
    pub fn set(&self, file: &str, value: &str) -> bool {
        std::fs::write(self.path.join(file), value).is_ok()
    }

    /// The processes in the cgroup now.
    pub fn processes(&self) -> Vec<libc::pid_t> {
        read_small(&self.path.join("cgroup.procs"))
            .unwrap_or_default()
            .split_whitespace()
            .filter_map(|p| p.parse().ok())
            .collect()
    }

    /// Kills every process in the cgroup (`cgroup.kill`, or each process named in
    /// `cgroup.procs` where the kernel has no `cgroup.kill`).
    pub fn kill(&self) {
        let killed = std::fs::OpenOptions::new()
            .write(true)
            .open(self.path.join("cgroup.kill"))
            .and_then(|mut f| f.write_all(b"1"));
        if killed.is_err() {
            for pid in self.processes() {
                // Safety: kill only sends a signal, to a process of this run's cgroup.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }

    /// True while a process is in the cgroup.
    pub fn populated(&self) -> bool {
        !self.processes().is_empty()
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // The processes are gone or going: a killed process leaves the cgroup when it is
        // reaped. Try for a moment, then leave the empty folder behind.
        let until = Instant::now() + Duration::from_secs(2);
        loop {
            if self.populated() {
                self.kill();
            }
            match std::fs::remove_dir(&self.path) {
                Ok(()) => return,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return,
                Err(_) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => return,
            }
        }
    }
}

/// A small file of the kernel's, read whole (at most 64 KiB).
fn read_small(path: &Path) -> Option<String> {
    let mut text = String::new();
    File::open(path)
        .ok()?
        .take(64 << 10)
        .read_to_string(&mut text)
        .ok()?;
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_cgroup_is_known_by_its_judges_process() {
        assert_eq!(owner("chess-puzzles-4242-0"), Some(4242));
        assert_eq!(owner("chess-puzzles-4242-17"), Some(4242));
        assert_eq!(owner("chess-puzzles-4242-probe"), Some(4242));
        for other in [
            "chess-puzzles-4242",
            "chess-puzzles-4242-x",
            "chess-puzzles--0",
            "chess-puzzles-0-0",
            "chess-puzzles-x-0",
            "system.slice",
            "chess-puzzles-4242-0-1",
        ] {
            assert_eq!(owner(other), None, "{other}");
        }
    }

    #[test]
    fn a_process_that_ended_is_not_alive() {
        assert!(alive(std::process::id() as libc::pid_t));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        assert!(!alive(child.id() as libc::pid_t));
    }
}

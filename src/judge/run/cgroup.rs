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

/// A cgroup v2 hierarchy's folder under which the runs' cgroups are made, and how its
/// folders are made and removed: by the kernel (cgroupfs fills a new folder with its files
/// and removes a folder whose processes are gone), or, in the tests, in a folder laid out like
/// one.
#[derive(Debug)]
pub struct Root {
    base: PathBuf,
    fs: Fs,
}

#[derive(Debug, Clone, Copy)]
enum Fs {
    /// The kernel's cgroupfs.
    Kernel,
    /// A folder laid out like a cgroupfs (tests): a new folder gets the files of
    /// [`laid::FILES`], and one is removed with its files, unless its `cgroup.procs` names a
    /// process (the kernel's refusal).
    #[cfg(test)]
    Laid,
}

impl Fs {
    /// Makes the cgroup folder `path`.
    fn make(self, path: &Path) -> io::Result<()> {
        std::fs::create_dir(path)?;
        match self {
            Fs::Kernel => Ok(()),
            #[cfg(test)]
            Fs::Laid => laid::fill(path),
        }
    }

    /// Removes the cgroup folder `path` (refused while a process is in it), the cgroups a
    /// program made inside it first, deepest first.
    fn remove(self, path: &Path) -> io::Result<()> {
        crate::judge::sandbox::groups::remove_children(path, |child| self.remove(child));
        match self {
            Fs::Kernel => std::fs::remove_dir(path),
            #[cfg(test)]
            Fs::Laid => laid::remove(path),
        }
    }
}

/// The judge's own cgroup, when it can hold a new cgroup that the judge can move a process
/// into; found once.
fn root() -> Option<&'static Root> {
    static ROOT: OnceLock<Option<Root>> = OnceLock::new();
    ROOT.get_or_init(|| {
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        Root::usable(base_of(&own, &mounts)?, Fs::Kernel)
    })
    .as_ref()
}

/// The folder of the judge's cgroup v2: its path in the unified hierarchy (`0::PATH` of
/// `/proc/self/cgroup`) under the hierarchy's mount point (the `cgroup2` line of
/// `/proc/self/mountinfo`).
fn base_of(own: &str, mountinfo: &str) -> Option<PathBuf> {
    let relative = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    // mountinfo: id parent major:minor root mount-point options ... - fstype source options
    let mount = mountinfo.lines().find_map(|line| {
        let (left, right) = line.split_once(" - ")?;
        if right.split_whitespace().next()? != "cgroup2" {
            return None;
        }
        left.split_whitespace().nth(4).map(str::to_string)
    })?;
    Some(PathBuf::from(mount).join(relative.trim_start_matches('/')))
}

impl Root {
    /// The root at `base` when a cgroup can be made there (a trial: make one, move nothing,
    /// remove it); what judges that are gone left there is removed first.
    fn usable(base: PathBuf, fs: Fs) -> Option<Root> {
        let root = Root { base, fs };
        let trial = root
            .base
            .join(format!("chess-puzzles-{}-probe", std::process::id()));
        root.fs.make(&trial).ok()?;
        let usable = trial.join("cgroup.procs").exists() && trial.join("cpu.stat").exists();
        let _ = root.fs.remove(&trial);
        if usable {
            root.sweep();
        }
        usable.then_some(root)
    }

    /// A folder laid out like a cgroupfs (tests).
    #[cfg(test)]
    fn laid_out(base: &Path) -> Option<Root> {
        Root::usable(base.to_path_buf(), Fs::Laid)
    }

    /// Removes the cgroups that judges killed with SIGKILL left behind: those named after a
    /// process that no longer runs, and empty (the kernel refuses to remove a cgroup that
    /// holds processes). (A cgroup's folder has no reliable age to go by: the kernel gives it
    /// the time its inode was last loaded.) A judge in another PID namespace sharing the
    /// folder, whose number means nothing here, could lose a cgroup it has just made and not
    /// yet joined: its run then fails with an error, it does not go unwatched.
    fn sweep(&self) {
        let Ok(entries) = std::fs::read_dir(&self.base) else {
            return;
        };
        for entry in entries.flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(owner) else {
                continue;
            };
            if !alive(pid) {
                let _ = self.fs.remove(&entry.path());
            }
        }
    }

    /// True when the runs' cgroups have the controller `name` (`pids`, `memory`): enabled
    /// for the children of this cgroup.
    fn enabled(&self, name: &str) -> bool {
        read_small(&self.base.join("cgroup.subtree_control"))
            .is_some_and(|c| c.split_whitespace().any(|n| n == name))
    }

    /// A fresh cgroup with the limits asked for where the controller is enabled: at most
    /// `processes` processes and threads (`pids.max`), `memory` bytes of memory used
    /// (`memory.max`, no swap); and its `cgroup.procs` open for the run's first process to
    /// write itself into (`0`) before the program starts.
    fn create(&self, processes: Option<&str>, memory: Option<&str>) -> io::Result<Created> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = self
            .base
            .join(format!("chess-puzzles-{}-{n}", std::process::id()));
        self.fs.make(&path)?;
        let cgroup = Cgroup { path, fs: self.fs };
        let pids = processes.is_some_and(|p| self.enabled("pids") && cgroup.set("pids.max", p));
        let memory = memory.is_some_and(|m| {
            self.enabled("memory") && cgroup.set("memory.max", m) && {
                // Without swap where the kernel has it (no file without swap accounting).
                let _ = cgroup.set("memory.swap.max", "0");
                true
            }
        });
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(cgroup.path.join("cgroup.procs"))?;
        Ok(Created {
            cgroup,
            procs: procs.into(),
            pids,
            memory,
        })
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
    root().is_some()
}

/// True when the runs' cgroups have the controller `name` (`pids`, `memory`): enabled for
/// the children of the judge's cgroup.
pub fn enabled(name: &str) -> bool {
    root().is_some_and(|r| r.enabled(name))
}

/// One run's cgroup. Removed when dropped (once its processes are gone).
#[derive(Debug)]
pub struct Cgroup {
    path: PathBuf,
    fs: Fs,
}

/// A run's new cgroup, its `cgroup.procs` open, and which limits were set in it.
pub struct Created {
    pub cgroup: Cgroup,
    pub procs: OwnedFd,
    /// `pids.max` holds the process limit.
    pub pids: bool,
    /// `memory.max` holds the memory limit.
    pub memory: bool,
}

impl Cgroup {
    /// Makes a fresh cgroup under the judge's own with the limits asked for that its
    /// controllers allow (see [`Root::create`]).
    pub fn create(processes: Option<&str>, memory: Option<&str>) -> io::Result<Created> {
        root()
            .ok_or_else(|| io::Error::other("no cgroup v2 can be made here"))?
            .create(processes, memory)
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

    /// How many of the cgroup's processes the kernel killed for passing its memory limit
    /// (`oom_kill` of `memory.events`).
    pub fn oom_kills(&self) -> Option<u64> {
        keyed(&read_small(&self.path.join("memory.events"))?, "oom_kill")
    }

    /// How many times a process or thread was refused the cgroup for its `pids.max` (`max`
    /// of `pids.events`).
    pub fn pids_refused(&self) -> u64 {
        read_small(&self.path.join("pids.events"))
            .and_then(|t| keyed(&t, "max"))
            .unwrap_or(0)
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
            match self.fs.remove(&self.path) {
                Ok(()) => return,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return,
                Err(_) if Instant::now() < until => std::thread::sleep(Duration::from_millis(2)),
                Err(_) => return,
            }
        }
    }
}

/// The number after `key` in a file of `key value` lines.
pub fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
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

/// A folder laid out like a cgroupfs, for the tests: what the kernel does when a cgroup
/// folder is made or removed, done by hand.
#[cfg(test)]
mod laid {
    use std::io;
    use std::path::Path;

    /// The files a new cgroup folder gets, with their first contents.
    pub const FILES: &[(&str, &str)] = &[
        ("cgroup.controllers", "cpu memory pids\n"),
        ("cgroup.subtree_control", ""),
        ("cgroup.procs", ""),
        ("cgroup.kill", ""),
        ("cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n"),
        (
            "cpu.pressure",
            "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
        ),
        ("memory.max", "max\n"),
        ("memory.swap.max", "max\n"),
        ("memory.peak", "0\n"),
        ("pids.max", "max\n"),
    ];

    pub fn fill(path: &Path) -> io::Result<()> {
        for (file, text) in FILES {
            std::fs::write(path.join(file), text)?;
        }
        Ok(())
    }

    pub fn remove(path: &Path) -> io::Result<()> {
        let procs = std::fs::read_to_string(path.join("cgroup.procs"))?;
        if !procs.trim().is_empty() {
            return Err(io::Error::from_raw_os_error(libc::EBUSY));
        }
        for (file, _) in FILES {
            std::fs::remove_file(path.join(file))?;
        }
        // A file the kernel would not have there is left, and the folder with it.
        std::fs::remove_dir(path)
    }
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

    /// A laid-out root: the judge's cgroup with `subtree` enabled for its children.
    fn laid_root(subtree: &str) -> (tempfile::TempDir, Root) {
        let dir = tempfile::tempdir().unwrap();
        laid::fill(dir.path()).unwrap();
        std::fs::write(dir.path().join("cgroup.subtree_control"), subtree).unwrap();
        let root = Root::laid_out(dir.path()).expect("a laid-out root is usable");
        (dir, root)
    }

    fn text(cgroup: &Cgroup, file: &str) -> String {
        std::fs::read_to_string(cgroup.path().join(file)).unwrap()
    }

    #[test]
    fn the_judges_cgroup_is_found_under_the_unified_mount() {
        let mountinfo = "24 1 0:22 / /sys rw - sysfs sysfs rw\n\
            30 24 0:26 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro\n\
            31 30 0:27 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n\
            32 30 0:28 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids\n";
        // A hybrid hierarchy: v1 controllers, an empty v2 at /sys/fs/cgroup/unified.
        let own = "12:pids:/user.slice\n1:name=systemd:/user.slice/session-3.scope\n\
            0::/user.slice/session-3.scope\n";
        assert_eq!(
            base_of(own, mountinfo),
            Some(PathBuf::from(
                "/sys/fs/cgroup/unified/user.slice/session-3.scope"
            ))
        );
        let v2 = "29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
        assert_eq!(base_of("0::/\n", v2), Some(PathBuf::from("/sys/fs/cgroup")));
        // No unified line, or no cgroup2 mount: none.
        assert_eq!(base_of("12:pids:/\n", v2), None);
        assert_eq!(
            base_of("0::/\n", "32 30 0:28 / /x rw - cgroup cgroup rw,pids\n"),
            None
        );
    }

    #[test]
    fn the_limits_are_written_where_their_controllers_are_enabled() {
        let (dir, root) = laid_root("cpu memory pids\n");
        let created = root.create(Some("40"), Some("33554432")).unwrap();
        assert!(created.pids && created.memory);
        let cgroup = &created.cgroup;
        assert_eq!(cgroup.path().parent(), Some(dir.path()));
        assert_eq!(text(cgroup, "pids.max"), "40");
        assert_eq!(text(cgroup, "memory.max"), "33554432");
        assert_eq!(text(cgroup, "memory.swap.max"), "0");
        // `cgroup.procs` is open for writing: the keeper writes `0` into it.
        use std::os::fd::AsRawFd;
        // Safety: writes one byte from a constant to a descriptor this test owns.
        let wrote = unsafe { libc::write(created.procs.as_raw_fd(), b"0".as_ptr().cast(), 1) };
        assert_eq!(wrote, 1);
        assert_eq!(text(cgroup, "cgroup.procs"), "0");

        // Only `pids` enabled: no memory limit, and the report says so.
        let (_dir, root) = laid_root("pids\n");
        let created = root.create(Some("40"), Some("33554432")).unwrap();
        assert!(created.pids && !created.memory);
        assert_eq!(text(&created.cgroup, "memory.max"), "max\n");
        // Nothing asked: nothing written.
        let (_dir, root) = laid_root("memory pids\n");
        let created = root.create(None, None).unwrap();
        assert!(!created.pids && !created.memory);
        assert_eq!(text(&created.cgroup, "pids.max"), "max\n");
    }

    #[test]
    fn time_memory_and_processes_are_read_from_the_cgroup() {
        let (_dir, root) = laid_root("memory pids\n");
        let created = root.create(None, None).unwrap();
        let cgroup = created.cgroup;
        let write = |file: &str, text: &str| {
            std::fs::write(cgroup.path().join(file), text).unwrap();
        };
        write(
            "cpu.stat",
            "usage_usec 1250000\nuser_usec 1000000\nsystem_usec 250000\n",
        );
        write(
            "cpu.pressure",
            "some avg10=1.00 avg60=0.50 avg300=0.10 total=300000\n\
             full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n",
        );
        write("memory.peak", "52428800\n");
        assert_eq!(cgroup.cpu(), Some(Duration::from_micros(1_250_000)));
        assert_eq!(cgroup.waiting(), Some(Duration::from_micros(300_000)));
        assert_eq!(cgroup.peak_memory(), Some(52_428_800));
        assert!(!cgroup.populated());
        write("cgroup.procs", "4242\n4243\n");
        assert_eq!(cgroup.processes(), vec![4242, 4243]);
        assert!(cgroup.populated());
        // A file the kernel does not have (no memory controller): nothing, not zero.
        std::fs::remove_file(cgroup.path().join("memory.peak")).unwrap();
        assert_eq!(cgroup.peak_memory(), None);
        std::fs::write(cgroup.path().join("memory.peak"), "0\n").unwrap();
        std::fs::write(cgroup.path().join("cgroup.procs"), "").unwrap();
    }

    #[test]
    fn a_cgroup_is_killed_and_removed_when_dropped_and_left_while_populated() {
        let (dir, root) = laid_root("pids\n");
        let empty = root.create(Some("8"), None).unwrap();
        let path = empty.cgroup.path().to_path_buf();
        drop(empty);
        assert!(!path.exists(), "an empty cgroup is removed");
        // A cgroup that still holds a process (one the kernel would not let go): every
        // process is killed through `cgroup.kill`, and the folder stays (for a later judge).
        let held = root.create(Some("8"), None).unwrap();
        let path = held.cgroup.path().to_path_buf();
        std::fs::write(path.join("cgroup.procs"), "4242\n").unwrap();
        let start = Instant::now();
        drop(held);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(
            std::fs::read_to_string(path.join("cgroup.kill")).unwrap(),
            "1"
        );
        assert!(path.exists());
        // Only the trial's folder came and went; the held one is the only one left.
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.path())
            .collect();
        assert_eq!(left, vec![path]);
    }

    #[test]
    fn what_a_judge_that_is_gone_left_is_swept_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        laid::fill(dir.path()).unwrap();
        // A process that has ended: its pid is (for now) no one's.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        let gone = dir.path().join(format!("chess-puzzles-{}-3", child.id()));
        let ours = dir
            .path()
            .join(format!("chess-puzzles-{}-9", std::process::id()));
        let other = dir.path().join("system.slice");
        for path in [&gone, &ours, &other] {
            Fs::Laid.make(path).unwrap();
        }
        // Made usable: its trial cgroup comes and goes, then the sweep.
        let _root = Root::laid_out(dir.path()).unwrap();
        assert!(!gone.exists());
        assert!(ours.exists() && other.exists());
        assert!(
            !dir.path()
                .join(format!("chess-puzzles-{}-probe", std::process::id()))
                .exists()
        );
    }

    #[test]
    fn a_process_that_ended_is_not_alive() {
        assert!(alive(std::process::id() as libc::pid_t));
        let mut child = std::process::Command::new("true").spawn().unwrap();
        child.wait().unwrap();
        assert!(!alive(child.id() as libc::pid_t));
    }
}

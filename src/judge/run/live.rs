//! The runs in progress and the ending of their processes: every run registered so that
//! [`kill_all`] can end them from another thread; a program, a subreaper's children, the
//! other processes of a run at the program's exit.

use super::*;

/// The runs in progress, so that [`kill_all`] can end them from another thread.
static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

#[derive(Clone)]
struct Live {
    id: u64,
    keeper: libc::pid_t,
    program: libc::pid_t,
    namespace: bool,
    cgroup: Option<std::path::PathBuf>,
}

/// Kills every process of every run in progress, at once: for a program that must exit now
/// (a second Ctrl-C) and must leave nothing behind. The runs themselves then end as killed.
pub fn kill_all() {
    let live: Vec<Live> = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
    for run in &live {
        if let Some(path) = &run.cgroup {
            let _ = std::fs::write(path.join("cgroup.kill"), b"1");
        }
        kill_program(run.program);
        if run.namespace {
            // Safety: kill sends a signal to this run's keeper, the namespace's init.
            unsafe {
                libc::kill(run.keeper, libc::SIGKILL);
            }
        }
    }
    for run in &live {
        if !run.namespace {
            sweep(run.keeper, Duration::from_secs(1));
        }
    }
}

/// Kills the program and its process group.
pub(super) fn kill_program(pid: libc::pid_t) {
    if pid > 0 {
        // Safety: kill only sends signals, to the program's group and to the program.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// Kills every child of the (subreaper) keeper until it has none, for at most `patience`.
pub(super) fn sweep(keeper: libc::pid_t, patience: Duration) {
    #[cfg(target_os = "linux")]
    {
        let until = Instant::now() + patience;
        loop {
            let children = procfs::children(keeper);
            if children.is_empty() || Instant::now() >= until {
                return;
            }
            for child in children {
                // Safety: kill sends a signal to a child of this run's keeper.
                unsafe {
                    libc::kill(child, libc::SIGKILL);
                }
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (keeper, patience);
}

/// Kills every process of a run but its keeper and its program, outside a namespace, while
/// the program is stopped at its exit: the cgroup's processes, or the program's descendants
/// and the keeper's other children with theirs. Passes until one finds none not yet killed (a
/// process with SIGKILL pending cannot fork).
#[cfg(target_os = "linux")]
pub(super) fn kill_others(child: &spawn::Child, program: libc::pid_t) {
    let mut killed: Vec<libc::pid_t> = Vec::new();
    for _ in 0..64 {
        let found: Vec<libc::pid_t> = match &child.cgroup {
            Some(cgroup) => cgroup.processes(),
            None => {
                let mut found = procfs::descendants(program);
                for other in procfs::children(child.keeper) {
                    if other != program {
                        found.push(other);
                        found.extend(procfs::descendants(other));
                    }
                }
                found
            }
        };
        let new: Vec<libc::pid_t> = found
            .into_iter()
            .filter(|p| *p != child.keeper && *p != program && !killed.contains(p))
            .collect();
        if new.is_empty() {
            return;
        }
        for pid in &new {
            // Safety: kill sends a signal to a process of this run.
            unsafe {
                libc::kill(*pid, libc::SIGKILL);
            }
        }
        killed.extend(new);
    }
}

/// The registration of a run in [`LIVE`], removed when dropped.
pub(super) struct Registered(u64);

impl Registered {
    pub(super) fn new(
        keeper: libc::pid_t,
        namespace: bool,
        cgroup: Option<std::path::PathBuf>,
    ) -> Registered {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut live) = LIVE.lock() {
            live.push(Live {
                id,
                keeper,
                program: 0,
                namespace,
                cgroup,
            });
        }
        Registered(id)
    }

    pub(super) fn set_program(&self, pid: libc::pid_t) {
        if let Ok(mut live) = LIVE.lock()
            && let Some(run) = live.iter_mut().find(|r| r.id == self.0)
        {
            run.program = pid;
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut live) = LIVE.lock() {
            live.retain(|r| r.id != self.0);
        }
    }
}

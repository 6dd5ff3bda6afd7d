//! What holds a run's processes: the containment asked for ([`Containment`]), what is in
//! force on this machine ([`Layers`], with the sandbox's parts), probed once.

use super::*;

/// How the runs are held, as asked for.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Containment {
    /// Everything this machine allows: a PID namespace where one can be made (else a child
    /// subreaper with a cgroup v2), and a cgroup v2 where one can be made; refused where
    /// there is neither.
    #[default]
    Auto,
    /// A PID namespace alone (refused where none can be made).
    Namespace,
    /// A child subreaper and a cgroup v2 (refused where no cgroup can be made).
    Cgroup,
    /// A child subreaper alone: what every Linux allows, but a program that kills its keeper
    /// (a daemon that double-forks first) can leave processes running after its run: never
    /// taken unless asked for, with a warning.
    Subreaper,
}

/// What holds the processes of a run, as in force.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub struct Layers {
    /// The keeper is the first process of a new PID namespace: when it exits, the kernel
    /// kills every process of the run.
    pub pid_namespace: bool,
    /// The PID namespace is inside a new user namespace (made without privileges).
    pub user_namespace: bool,
    /// The keeper is a child subreaper: orphans of the run become its children, where the
    /// judge finds and kills them.
    pub subreaper: bool,
    /// The run has a cgroup v2 of its own: every process of the run is in it; its CPU time is
    /// summed over them all, and they are killed together.
    pub cgroup: bool,
    /// The parts of the sandbox in force (see [`Layers::sandboxed`]).
    pub sandbox: Parts,
    /// The most processes and threads a run may have at once (without `--sandbox off`).
    pub processes: u32,
}

impl Layers {
    /// The layers' names, for programs: `pid-namespace`, `user-namespace`, `subreaper`,
    /// `cgroup`, or `process-group` when there is none.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.pid_namespace {
            names.push("pid-namespace");
        }
        if self.user_namespace {
            names.push("user-namespace");
        }
        if self.subreaper {
            names.push("subreaper");
        }
        if self.cgroup {
            names.push("cgroup");
        }
        if names.is_empty() {
            names.push("process-group");
        }
        names.extend(self.sandbox.names());
        names
    }

    /// These layers with the sandbox `options` asks for, as much of it as this system allows
    /// (probed the first time); in strict mode, an error naming what it does not allow. A
    /// sandbox needs a PID namespace: with `--containment subreaper` or `cgroup` there is none
    /// but its process limit.
    pub fn sandboxed(mut self, options: &SandboxOptions) -> Result<Layers, SandboxError> {
        self.processes = options.processes.max(1);
        let mut parts = Parts {
            network_opened: options.network,
            ..Parts::default()
        };
        #[cfg(target_os = "linux")]
        if options.mode != SandboxMode::Off && self.pid_namespace {
            let bits = sandbox_here(self.user_namespace);
            parts.ipc = bits & spawn::PROBE_IPC != 0;
            parts.network = !options.network && bits & spawn::PROBE_NETWORK != 0;
            parts.files = bits & spawn::PROBE_FILES != 0;
            parts.proc = parts.files && bits & spawn::PROBE_PROC != 0;
            parts.nproc = parts.proc && self.user_namespace && bits & spawn::PROBE_NPROC != 0;
            parts.pids_cgroup =
                !parts.nproc && ((self.cgroup && cgroup::enabled("pids")) || v1_group_here("pids"));
            parts.memory_cgroup =
                (self.cgroup && cgroup::enabled("memory")) || v1_group_here("memory");
            // An ordinary user's program is that user; a root judge's runs as nobody in a
            // user namespace of its own, whose maps the keeper writes through the run's own
            // /proc.
            parts.user = self.user_namespace || (parts.proc && program_user_here());
            parts.seccomp = parts.files && seccomp_here();
            parts.landlock = parts.files && sandbox::landlock::available();
            parts.unix_sockets_opened = options.unix_sockets;
            // Root with no pids cgroup: RLIMIT_NPROC binds the unprivileged user in its own
            // namespace.
            if !self.user_namespace && parts.user && !parts.pids_cgroup {
                parts.nproc = true;
            }
        }
        // Without a PID namespace there is no sandbox, but a process limit still: a fork bomb
        // must not outrun the judge that kills the run's processes one by one.
        #[cfg(target_os = "linux")]
        if options.mode != SandboxMode::Off && !self.pid_namespace {
            parts.pids_cgroup = (self.cgroup && cgroup::enabled("pids")) || v1_group_here("pids");
            // RLIMIT_NPROC does not bind root (nor a user namespace mapped to root).
            let root = rustix::process::geteuid().is_root();
            parts.nproc = !parts.pids_cgroup && !root && own_user_namespace_here();
        }
        self.sandbox = parts;
        for dir in &options.read_only {
            if !dir.is_dir() {
                return Err(SandboxError::NoFolder(dir.clone()));
            }
        }
        let missing = parts.missing();
        if options.mode == SandboxMode::Strict && !missing.is_empty() {
            return Err(SandboxError::Missing(missing));
        }
        Ok(self)
    }
}

/// Whether the program may have a user namespace of its own (for `RLIMIT_NPROC`), probed
/// once.
#[cfg(target_os = "linux")]
fn own_user_namespace_here() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(spawn::probe_own_user_namespace)
}

/// Whether a seccomp filter can be had here.
#[cfg(target_os = "linux")]
fn seccomp_here() -> bool {
    #[cfg(target_pointer_width = "64")]
    return sandbox::seccomp::available();
    #[cfg(not(target_pointer_width = "64"))]
    return false;
}

/// Whether a root judge's program may run as `nobody` in a user namespace of its own,
/// probed once.
#[cfg(target_os = "linux")]
fn program_user_here() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(spawn::probe_program_user)
}

/// The sandbox's parts this system allows, probed once (bits of `spawn::probe_sandbox`).
#[cfg(target_os = "linux")]
fn sandbox_here(user: bool) -> i32 {
    use std::os::unix::ffi::OsStrExt;
    static FOUND: OnceLock<i32> = OnceLock::new();
    *FOUND.get_or_init(|| {
        // An unpredictable name: a folder another user made in advance must not turn the
        // sandbox off.
        let Ok(scratch) = sandbox::scratch::Scratch::create() else {
            return 0;
        };
        let dir = scratch.root();
        let c = |p: &std::path::Path| {
            std::ffi::CString::new(p.as_os_str().as_bytes()).unwrap_or_default()
        };
        spawn::probe_sandbox(user, &c(&dir), &c(&dir.join("proc")))
    })
}

/// Whether a group of the cgroup v1 `controller` can be made here (probed once each).
#[cfg(target_os = "linux")]
fn v1_group_here(controller: &'static str) -> bool {
    static FOUND: Mutex<Vec<(&'static str, bool)>> = Mutex::new(Vec::new());
    let Ok(mut found) = FOUND.lock() else {
        return false;
    };
    if let Some(&(_, here)) = found.iter().find(|(c, _)| *c == controller) {
        return here;
    }
    let here = sandbox::groups::Group::create(controller, &[]).is_some();
    found.push((controller, here));
    here
}

impl fmt::Display for Layers {
    /// In words: `a PID namespace (in a user namespace) and a cgroup v2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = if self.pid_namespace && self.user_namespace {
            "a PID namespace (in a user namespace)"
        } else if self.pid_namespace {
            "a PID namespace"
        } else if self.subreaper {
            "a child subreaper"
        } else {
            "a process group"
        };
        f.write_str(first)?;
        if self.cgroup {
            f.write_str(" and a cgroup v2")?;
        }
        Ok(())
    }
}

/// A containment that this machine does not allow.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ContainmentError {
    /// No PID namespace can be made (the kernel refuses user namespaces, or a container does).
    #[error("no PID namespace can be made here (user namespaces are not allowed)")]
    NoNamespace,
    /// No cgroup v2 can be made beside the judge's own.
    #[error(
        "no cgroup v2 can be made here (none is mounted, or the judge's own cgroup is not writable)"
    )]
    NoCgroup,
    /// Neither a PID namespace nor a cgroup v2 can be made: only a child subreaper, which
    /// must be asked for by name.
    #[error(
        "neither a PID namespace nor a cgroup v2 can be made here; --containment subreaper runs \
         without them, but a program that kills its keeper can leave processes running after \
         its run: ask for it by name to accept that"
    )]
    SubreaperOnly,
    /// Not Linux: a process group is all there is.
    #[error("only a process group is available on this system")]
    NotLinux,
}

/// Which namespaces can be made here, probed once: `Some(user)` when a PID namespace can
/// (`user`: inside a new user namespace), `None` when none can.
fn namespace_here() -> Option<bool> {
    static FOUND: OnceLock<Option<bool>> = OnceLock::new();
    *FOUND.get_or_init(|| {
        if !cfg!(target_os = "linux") {
            return None;
        }
        // A privileged judge makes a PID namespace alone and keeps its own powers; others need
        // a user namespace around it.
        let root = rustix::process::geteuid().is_root();
        if root && spawn::namespace_works(false) {
            Some(false)
        } else if spawn::namespace_works(true) {
            Some(true)
        } else {
            None
        }
    })
}

impl Containment {
    /// The layers this containment gives on this machine (probed the first time), or why it
    /// cannot be had.
    pub fn layers(self) -> Result<Layers, ContainmentError> {
        if !cfg!(target_os = "linux") {
            return match self {
                Containment::Auto => Ok(Layers::default()),
                _ => Err(ContainmentError::NotLinux),
            };
        }
        let namespace = namespace_here();
        let cgroup = cgroup::available();
        match self {
            // A child subreaper alone cannot hold a program that kills its keeper: it is
            // never taken unasked.
            Containment::Auto if namespace.is_none() && !cgroup => {
                Err(ContainmentError::SubreaperOnly)
            }
            Containment::Auto => Ok(Layers {
                pid_namespace: namespace.is_some(),
                user_namespace: namespace == Some(true),
                subreaper: namespace.is_none(),
                cgroup,
                ..Layers::default()
            }),
            Containment::Namespace => match namespace {
                Some(user) => Ok(Layers {
                    pid_namespace: true,
                    user_namespace: user,
                    ..Layers::default()
                }),
                None => Err(ContainmentError::NoNamespace),
            },
            Containment::Cgroup if cgroup => Ok(Layers {
                subreaper: true,
                cgroup: true,
                ..Layers::default()
            }),
            Containment::Cgroup => Err(ContainmentError::NoCgroup),
            Containment::Subreaper => Ok(Layers {
                subreaper: true,
                ..Layers::default()
            }),
        }
    }
}

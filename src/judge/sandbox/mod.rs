//! The sandbox a judged program runs in, on Linux, where the system allows it: namespaces of
//! its own for mounts, the network and System V IPC (beside the PID namespace of
//! [`crate::judge::run`]), inside a user namespace when the judge is not root; a root file
//! system of read-only system folders, its own folders read-only, a scratch `/tmp` removed
//! after the run and nothing of the tests ([`mounts`]); a `/proc` of its own; a loopback
//! network alone ([`network`]); a process limit (a cgroup's `pids.max`, or `RLIMIT_NPROC` in
//! a user namespace of the program's own); a limit on the memory it uses (a cgroup's
//! `memory.max` or `memory.limit_in_bytes`) rather than the address space it reserves.
//!
//! What the system refuses is reported ([`Parts::missing`]); [`SandboxMode::Strict`] refuses
//! to run without all of it, [`SandboxMode::Off`] runs without any.

pub mod groups;
pub mod mounts;
pub mod network;
pub mod scratch;

use std::path::{Path, PathBuf};

/// How much sandbox is asked for.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum SandboxMode {
    /// Everything this system allows, what it refuses reported.
    #[default]
    Auto,
    /// Everything, or no run at all.
    Strict,
    /// None: the program sees the judge's files, network and terminal-less session.
    Off,
}

/// What a user opens to the program, and the sandbox asked for.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct SandboxOptions {
    /// The mode.
    pub mode: SandboxMode,
    /// The program keeps the system's network.
    pub network: bool,
    /// Folders the program may read besides its own.
    pub read_only: Vec<PathBuf>,
    /// The most processes (and threads) a run may have at once.
    pub processes: u32,
}

/// The parts of the sandbox in force.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub struct Parts {
    /// A mount namespace and a root file system of its own.
    pub files: bool,
    /// A `/proc` of its own.
    pub proc: bool,
    /// A network namespace with a loopback alone.
    pub network: bool,
    /// An IPC namespace.
    pub ipc: bool,
    /// A process limit: `RLIMIT_NPROC` in a user namespace of the program's own.
    pub nproc: bool,
    /// A process limit: a cgroup's `pids.max` (v2 or v1).
    pub pids_cgroup: bool,
    /// A limit on used memory: a cgroup's `memory.max` (v2) or `memory.limit_in_bytes` (v1).
    pub memory_cgroup: bool,
    /// The network was left open by the user.
    pub network_opened: bool,
}

impl Parts {
    /// The names of the parts in force, for programs.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        for (on, name) in [
            (self.files, "mount-namespace"),
            (self.proc, "own-proc"),
            (self.network, "network-namespace"),
            (self.ipc, "ipc-namespace"),
            (self.nproc, "process-limit-rlimit"),
            (self.pids_cgroup, "process-limit-cgroup"),
            (self.memory_cgroup, "memory-limit-cgroup"),
        ] {
            if on {
                names.push(name);
            }
        }
        names
    }

    /// The parts missing, in words for people and programs alike.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing = Vec::new();
        if !self.files {
            missing.push("file-system");
        }
        if !self.proc {
            missing.push("own-proc");
        }
        if !self.network && !self.network_opened {
            missing.push("network-namespace");
        }
        if !self.ipc {
            missing.push("ipc-namespace");
        }
        if !self.nproc && !self.pids_cgroup {
            missing.push("process-limit");
        }
        if !self.memory_cgroup {
            missing.push("memory-limit-on-used-memory");
        }
        missing
    }
}

/// Why a sandbox cannot be had.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SandboxError {
    /// Strict mode, and a part is missing here.
    #[error("--sandbox strict: this system does not allow {}", .0.join(", "))]
    Missing(Vec<&'static str>),
    /// A folder to open is not there.
    #[error("--read-only {0}: no such folder")]
    NoFolder(PathBuf),
    /// The program or its interpreter lies where the sandbox does not show it.
    #[error(
        "cannot run the program in the sandbox: it needs {0}, which the sandbox does not show (open its folder with --read-only, or run with --sandbox off)"
    )]
    Unseen(PathBuf),
}

/// The system folders shown read-only to every program (those that exist).
pub const SYSTEM: [&str; 10] = [
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/nix",
];

/// The folders shown to the program: the system's, the folder it is started from (unless it
/// is `/`), its file's folder (and the hidden folder of a home it is installed in), the
/// folders of arguments that name files, and those opened.
pub fn shown_folders(
    file: &Path,
    args: &[PathBuf],
    opened: &[PathBuf],
    cwd: Option<&Path>,
) -> Vec<(PathBuf, String)> {
    let mut shown: Vec<(PathBuf, String)> = Vec::new();
    let mut add = |path: PathBuf, why: String| {
        if path != Path::new("/")
            && !SYSTEM.iter().any(|s| path.starts_with(s))
            && !shown.iter().any(|(p, _)| path.starts_with(p))
        {
            shown.retain(|(p, _)| !p.starts_with(&path));
            shown.push((path, why));
        }
    };
    if let Some(cwd) = cwd {
        add(
            cwd.to_path_buf(),
            "the folder it is started from".to_string(),
        );
    }
    if let Some(dir) = file
        .canonicalize()
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf))
    {
        add(dir, "the program's folder".to_string());
    }
    // A program installed in a hidden folder of a home (pyenv's shims, nvm, cargo): that
    // installation whole, whose other files the program runs (`~/.pyenv/shims/python3` runs
    // `~/.pyenv/libexec/pyenv`, then a Python of `~/.pyenv/versions`).
    if let Some(installation) = file
        .ancestors()
        .find(|a| {
            a.file_name()
                .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
        })
        .and_then(|a| a.canonicalize().ok())
    {
        add(
            installation,
            "the installation the program lies in".to_string(),
        );
    }
    for arg in args {
        if let Some(dir) = arg
            .canonicalize()
            .ok()
            .filter(|a| a.is_file())
            .and_then(|a| a.parent().map(Path::to_path_buf))
        {
            add(dir, format!("the folder of its argument {}", arg.display()));
        }
    }
    for dir in opened {
        add(dir.clone(), "--read-only".to_string());
    }
    shown
}

/// True when `path` is visible to a program shown `folders` and the system's, and hidden
/// none of `hidden`.
pub fn visible(path: &Path, folders: &[(PathBuf, String)], hidden: &[PathBuf]) -> bool {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    (SYSTEM.iter().any(|s| path.starts_with(s)) || folders.iter().any(|(f, _)| path.starts_with(f)))
        && !hidden.iter().any(|h| path.starts_with(h))
}

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
#[cfg(target_os = "linux")]
pub mod landlock;
pub mod mounts;
pub mod network;
pub mod scratch;
// seccompiler knows 64-bit architectures alone (x86-64, AArch64, RISC-V).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
pub mod seccomp;

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
    /// The program may make unix sockets (and so reach a socket file of a folder it is
    /// shown).
    pub unix_sockets: bool,
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
    /// The program runs as an unprivileged user of the host: a root judge's in a user
    /// namespace of its own, mapped to `nobody` (an ordinary user's program is that user).
    pub user: bool,
    /// A seccomp filter refuses the system calls no contest program needs.
    pub seccomp: bool,
    /// Landlock restricts, a second time, where the program may write, bind or connect and
    /// whom it may signal.
    pub landlock: bool,
    /// The network was left open by the user.
    pub network_opened: bool,
    /// Unix sockets were left open by the user.
    pub unix_sockets_opened: bool,
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
            (self.user, "unprivileged-user"),
            (self.seccomp, "seccomp"),
            (self.landlock, "landlock"),
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
            missing.push("mount-namespace");
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
            missing.push("memory-limit-cgroup");
        }
        if !self.user {
            missing.push("unprivileged-user");
        }
        if !self.seccomp {
            missing.push("seccomp");
        }
        if !self.landlock {
            missing.push("landlock");
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
    /// A file the program needs is closed to other users, and a root judge's program runs
    /// as one.
    #[error(
        "cannot run the program in the sandbox: {0} is closed to other users, and a root judge runs the program as the unprivileged user nobody (chmod o+rX it and the folders it lies in, or run the judge as an ordinary user)"
    )]
    Closed(PathBuf),
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
/// is `/` or the temporary folder), its file's folder (and the hidden folder of a home it is
/// installed in), the folder of the interpreter `#!/usr/bin/env` finds, the folders its
/// arguments name and the folders of arguments that name files (a file in `/` or the
/// temporary folder alone), and those opened.
pub fn shown_folders(
    file: &Path,
    interpreter: Option<&Path>,
    args: &[PathBuf],
    opened: &[PathBuf],
    cwd: Option<&Path>,
) -> Vec<(PathBuf, String)> {
    let mut shown: Vec<(PathBuf, String)> = Vec::new();
    // The temporary folder is the run's own, never the host's: a file kept there is shown
    // alone.
    let temp = std::env::temp_dir()
        .canonicalize()
        .unwrap_or_else(|_| std::env::temp_dir());
    let whole = |dir: &Path| dir != Path::new("/") && dir != temp && dir != Path::new("/tmp");
    let mut add = |path: PathBuf, why: String| {
        if path != Path::new("/")
            && path != temp
            && path != Path::new("/tmp")
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
    if let Ok(file) = file.canonicalize()
        && let Some(dir) = file.parent()
    {
        if whole(dir) {
            add(dir.to_path_buf(), "the program's folder".to_string());
        } else {
            add(file.clone(), "the program".to_string());
        }
    }
    // A program installed in a hidden folder of a home (pyenv's shims, nvm, cargo): that
    // installation whole, whose other files the program runs (`~/.pyenv/shims/python3` runs
    // `~/.pyenv/libexec/pyenv`, then a Python of `~/.pyenv/versions`).
    let installation = |file: &Path| {
        file.ancestors()
            .find(|a| {
                a.file_name()
                    .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
            })
            .and_then(|a| a.canonicalize().ok())
    };
    if let Some(installation) = installation(file) {
        add(
            installation,
            "the installation the program lies in".to_string(),
        );
    }
    // The interpreter `#!/usr/bin/env NAME` finds on the judge's PATH, so that the same one
    // runs inside (its installation, or the folder above a `bin` it lies in: a virtual
    // environment whole).
    if let Some(interpreter) = interpreter
        && !SYSTEM.iter().any(|s| interpreter.starts_with(s))
    {
        let why = format!("the interpreter {}", interpreter.display());
        if let Some(installation) = installation(interpreter) {
            add(installation, why);
        } else if let Some(dir) = interpreter.parent() {
            let dir = match dir.file_name() {
                Some(name) if name == "bin" => dir.parent().unwrap_or(dir),
                _ => dir,
            };
            if let Ok(dir) = dir.canonicalize() {
                add(dir, why);
            }
        }
    }
    // Each argument, and each part of a path list (`java -cp classes:lib Main`), that names a
    // folder: that folder.
    for part in args
        .iter()
        .flat_map(|a| std::env::split_paths(a.as_os_str()))
    {
        if let Ok(dir) = part.canonicalize()
            && dir.is_dir()
            && whole(&dir)
        {
            add(dir, format!("its argument {}", part.display()));
        }
    }
    for arg in args {
        if let Some(file) = arg.canonicalize().ok().filter(|a| a.is_file())
            && let Some(dir) = file.parent()
        {
            if whole(dir) {
                add(
                    dir.to_path_buf(),
                    format!("the folder of its argument {}", arg.display()),
                );
            } else {
                add(file.clone(), format!("its argument {}", arg.display()));
            }
        }
    }
    for dir in opened {
        add(dir.clone(), "--read-only".to_string());
    }
    shown
}

/// The first of `file` and the folders from the folder of `shown` it lies in down to it that
/// other users cannot read (a file) or enter (a folder), if any: what a program running as
/// another user than the file's owner cannot reach through the sandbox.
pub fn closed_to_others(file: &Path, shown: &[(PathBuf, String)]) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let file = file.canonicalize().ok()?;
    let (top, _) = shown.iter().find(|(f, _)| file.starts_with(f))?;
    let mode = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode()).ok();
    let mut folders: Vec<&Path> = file
        .ancestors()
        .skip(1)
        .take_while(|a| a.starts_with(top))
        .collect();
    folders.reverse();
    if let Some(closed) = folders
        .into_iter()
        .find(|d| mode(d).is_some_and(|m| m & 0o001 == 0))
    {
        return Some(closed.to_path_buf());
    }
    mode(&file).is_some_and(|m| m & 0o004 == 0).then_some(file)
}

/// True when `path` is visible to a program shown `folders` and the system's, and hidden
/// none of `hidden`.
pub fn visible(path: &Path, folders: &[(PathBuf, String)], hidden: &[PathBuf]) -> bool {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    (SYSTEM.iter().any(|s| path.starts_with(s)) || folders.iter().any(|(f, _)| path.starts_with(f)))
        && !hidden.iter().any(|h| path.starts_with(h))
}

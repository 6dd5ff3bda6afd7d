//! Landlock, where the kernel has it: a second wall inside the run's own file system, built
//! with the `landlock` crate and entered by the program just before its `execve` (after
//! `no_new_privs`, beside the seccomp filter), so that it binds everything the program starts.
//!
//! The mount namespace already shows the program nothing but read-only system folders and its
//! own tmpfs; Landlock makes the same promise a second time, in the kernel's access checks
//! rather than in the mounts:
//!
//! - files anywhere may be read and run, written only under `/tmp` and `/dev/shm` (the run's
//!   tmpfs) and, of the devices, written only (`/dev/null`);
//! - no TCP port may be bound or connected to unless the network is left open;
//! - no signal reaches a process outside the run, no abstract unix socket outside it
//!   (Landlock's scopes);
//! - where the kernel has it, no unix socket file may be connected to outside `/tmp` unless
//!   unix sockets are opened.
//!
//! Each of these is asked for at the ABI that brought it; a kernel that lacks one enforces
//! the rest (the crate's best effort), and a kernel without Landlock runs the sandbox without
//! it (the part `landlock` is then missing from the report).

use std::sync::OnceLock;

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, PathBeneath, PathFd, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope,
};

/// The newest ABI whose rights are asked for (older kernels enforce what they know).
const WANTED: ABI = ABI::V9;

/// What the program is let do besides reading its files.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Opened {
    /// The network is left open: TCP ports are not restricted.
    pub network: bool,
    /// Unix sockets are opened: socket files may be connected to anywhere the program is
    /// shown.
    pub unix_sockets: bool,
}

/// Whether this kernel enforces Landlock, probed once: a short-lived thread of the judge
/// restricts itself (Landlock binds the calling thread alone) and reports.
pub fn available() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        std::thread::spawn(|| {
            Ruleset::default()
                .handle_access(AccessFs::Execute)
                .and_then(|r| r.create())
                .and_then(|r| r.restrict_self())
                .is_ok_and(|status| status.ruleset != RulesetStatus::NotEnforced)
        })
        .join()
        .unwrap_or(false)
    })
}

/// Restricts the calling process (and everything it will start) as the module says: to be
/// called in the program's process, inside its own file system, after `no_new_privs`.
/// Whether the restriction is in force (false on a kernel without Landlock).
///
/// It opens the few folders its rules name and builds the ruleset on the heap: in the child
/// of a fork, as between this judge's `clone` and the program's `execve`, that relies on the
/// C library's allocator working after a fork, as glibc's and musl's do.
pub fn restrict(opened: Opened) -> Result<bool, landlock::RulesetError> {
    let read = AccessFs::from_read(WANTED);
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(WANTED))?
        .scope(Scope::from_all(WANTED))?;
    if !opened.network {
        ruleset = ruleset.handle_access(AccessNet::from_all(WANTED))?;
    }
    let everywhere = if opened.unix_sockets {
        read | AccessFs::ResolveUnix
    } else {
        read
    };
    let rules: [(&str, BitFlags<AccessFs>); 4] = [
        ("/", everywhere),
        ("/dev", read | AccessFs::WriteFile),
        ("/tmp", AccessFs::from_all(WANTED)),
        ("/dev/shm", AccessFs::from_all(WANTED)),
    ];
    let mut created = ruleset.create()?;
    for (path, access) in rules {
        // A folder the run's file system lacks (no /dev/shm) is no rule.
        if let Ok(fd) = PathFd::new(path) {
            created = created.add_rule(PathBeneath::new(fd, access))?;
        }
    }
    let status = created.restrict_self()?;
    Ok(status.ruleset != RulesetStatus::NotEnforced)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A thread of the tests restricted as a program is: it reads, writes only in the places
    /// its rules name, and cannot write a file elsewhere that its user could.
    #[test]
    fn a_restricted_thread_writes_only_where_its_rules_say() {
        if !available() {
            eprintln!("skipped: no Landlock in this kernel");
            return;
        }
        let outside = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let file = outside.path().join("f");
        let target = file.clone();
        let (written, read, devnull) = std::thread::spawn(move || {
            assert!(restrict(Opened::default()).unwrap());
            (
                std::fs::write(&target, b"x").is_ok(),
                std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).is_ok(),
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/null")
                    .is_ok(),
            )
        })
        .join()
        .unwrap();
        assert!(!written, "wrote outside its rules");
        assert!(read && devnull);
        assert!(!file.exists());
        // The test's own thread was not restricted.
        std::fs::write(&file, b"x").unwrap();
    }
}

//! The system calls a judged program is refused: those no contest program needs and through
//! which a program could reach past its sandbox (mounting, new namespaces, the kernel's
//! keyrings, tracing, BPF, performance counters, kernel modules, the clock, the host's name,
//! `io_uring`, unix sockets of the host). A seccomp filter built once with `seccompiler` and
//! installed in the program just before its `execve` (after `no_new_privs`), so that it
//! binds the program and everything it starts.
//!
//! A refused call fails with `EPERM` (`clone3` with `ENOSYS`, so that the C library falls
//! back to `clone`, whose flags the filter can read); the program goes on.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The calls refused outright (each with `EPERM`).
const REFUSED: &[(libc::c_long, &str)] = &[
    (libc::SYS_mount, "mount"),
    (libc::SYS_umount2, "umount2"),
    (libc::SYS_pivot_root, "pivot_root"),
    (libc::SYS_chroot, "chroot"),
    (libc::SYS_unshare, "unshare"),
    (libc::SYS_setns, "setns"),
    (libc::SYS_open_tree, "open_tree"),
    (libc::SYS_move_mount, "move_mount"),
    (libc::SYS_fsopen, "fsopen"),
    (libc::SYS_fsconfig, "fsconfig"),
    (libc::SYS_fsmount, "fsmount"),
    (libc::SYS_fspick, "fspick"),
    (libc::SYS_mount_setattr, "mount_setattr"),
    (libc::SYS_keyctl, "keyctl"),
    (libc::SYS_add_key, "add_key"),
    (libc::SYS_request_key, "request_key"),
    (libc::SYS_ptrace, "ptrace"),
    (libc::SYS_process_vm_readv, "process_vm_readv"),
    (libc::SYS_process_vm_writev, "process_vm_writev"),
    (libc::SYS_pidfd_getfd, "pidfd_getfd"),
    (libc::SYS_bpf, "bpf"),
    (libc::SYS_perf_event_open, "perf_event_open"),
    (libc::SYS_userfaultfd, "userfaultfd"),
    (libc::SYS_init_module, "init_module"),
    (libc::SYS_finit_module, "finit_module"),
    (libc::SYS_delete_module, "delete_module"),
    (libc::SYS_kexec_load, "kexec_load"),
    (libc::SYS_kexec_file_load, "kexec_file_load"),
    (libc::SYS_reboot, "reboot"),
    (libc::SYS_swapon, "swapon"),
    (libc::SYS_swapoff, "swapoff"),
    (libc::SYS_acct, "acct"),
    (libc::SYS_settimeofday, "settimeofday"),
    (libc::SYS_clock_settime, "clock_settime"),
    (libc::SYS_clock_adjtime, "clock_adjtime"),
    (libc::SYS_adjtimex, "adjtimex"),
    (libc::SYS_sethostname, "sethostname"),
    (libc::SYS_setdomainname, "setdomainname"),
    (libc::SYS_quotactl, "quotactl"),
    (libc::SYS_open_by_handle_at, "open_by_handle_at"),
    (libc::SYS_name_to_handle_at, "name_to_handle_at"),
    (libc::SYS_syslog, "syslog"),
    (libc::SYS_vhangup, "vhangup"),
    (libc::SYS_fanotify_init, "fanotify_init"),
    (libc::SYS_io_uring_setup, "io_uring_setup"),
    (libc::SYS_io_uring_enter, "io_uring_enter"),
    (libc::SYS_io_uring_register, "io_uring_register"),
    // Memory the kernel takes out of the direct map: no limit but a memory cgroup sees it.
    (libc::SYS_memfd_secret, "memfd_secret"),
    #[cfg(target_arch = "x86_64")]
    (libc::SYS_iopl, "iopl"),
    #[cfg(target_arch = "x86_64")]
    (libc::SYS_ioperm, "ioperm"),
];

/// The calls refused where no memory cgroup counts what they hold in the kernel: the resident
/// memory the judge watches does not show it (found by attacking the sandbox as an ordinary
/// user: hundreds of MiB each in a 64 MiB run).
const UNCOUNTED: &[(libc::c_long, &str)] = &[
    (libc::SYS_memfd_create, "memfd_create"),
    (libc::SYS_socketpair, "socketpair"),
    // System V shared memory, message queues and semaphores.
    (libc::SYS_shmget, "shmget"),
    (libc::SYS_msgget, "msgget"),
    (libc::SYS_semget, "semget"),
    // inotify's event queues.
    #[cfg(target_arch = "x86_64")]
    (libc::SYS_inotify_init, "inotify_init"),
    (libc::SYS_inotify_init1, "inotify_init1"),
    // Extended attributes, which a tmpfs holds beside its size limit.
    (libc::SYS_setxattr, "setxattr"),
    (libc::SYS_lsetxattr, "lsetxattr"),
    (libc::SYS_fsetxattr, "fsetxattr"),
    (463, "setxattrat"),
];

/// The flags of `clone` a program may not pass: new namespaces, and `CLONE_UNTRACED`, which
/// would make a process its keeper does not trace (and whose CPU time it could not count when
/// the kernel reaps it).
const REFUSED_CLONE_FLAGS: [libc::c_int; 9] = [
    libc::CLONE_UNTRACED,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
    0x80, // CLONE_NEWTIME
];

/// What a run's filter refuses beside the calls it always refuses.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Choices {
    /// Unix sockets are refused (`socket(AF_UNIX, ...)`, datagram socket pairs; stream
    /// socket pairs stay where memory is counted): no socket file of the host is reachable.
    pub unix_sockets: bool,
    /// Internet and netlink sockets are refused: a run whose network is its own loopback has
    /// no use for them, and the kernel's buffers of a loopback connection hold memory that a
    /// v1 memory cgroup does not count (hundreds of MiB over a 32 MiB limit, measured).
    pub inet_sockets: bool,
    /// Memory no limit would count is refused: `memfd_create`, socket pairs (whose buffers
    /// hold up to megabytes each in the kernel), System V IPC, inotify and extended
    /// attributes, where no memory cgroup counts them.
    pub uncounted_memory: bool,
}

/// The architecture this judge was built for, where `seccompiler` knows it.
fn arch() -> Option<TargetArch> {
    TargetArch::try_from(std::env::consts::ARCH).ok()
}

/// Whether a filter can be had here (an architecture `seccompiler` knows).
pub fn available() -> bool {
    arch().is_some()
}

/// The filters to install, in order, for `choices` (built once each); `None` on an
/// architecture `seccompiler` does not know.
pub fn filters(choices: Choices) -> Option<&'static [BpfProgram]> {
    static BUILT: [OnceLock<Option<Vec<BpfProgram>>>; 8] = [const { OnceLock::new() }; 8];
    let slot = usize::from(choices.unix_sockets)
        | usize::from(choices.inet_sockets) << 1
        | usize::from(choices.uncounted_memory) << 2;
    BUILT[slot].get_or_init(|| build(choices)).as_deref()
}

fn build(choices: Choices) -> Option<Vec<BpfProgram>> {
    let arch = arch()?;
    let condition = |arg, len, op, value| SeccompCondition::new(arg, len, op, value).ok();
    let mut refused: BTreeMap<i64, Vec<SeccompRule>> = REFUSED
        .iter()
        .map(|&(call, _)| (call, Vec::new()))
        .collect();
    if choices.uncounted_memory {
        for &(call, _) in UNCOUNTED {
            refused.insert(call, Vec::new());
        }
    }
    // Another process's limits (the keeper's, pid 1 of the run, is the same user's where
    // the judge is not root): a process sets its own alone (`prlimit64(0, ...)`, which is
    // what `setrlimit` calls).
    refused.insert(
        libc::SYS_prlimit64,
        vec![
            SeccompRule::new(vec![condition(
                0,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Ne,
                0,
            )?])
            .ok()?,
        ],
    );
    let mut clone_rules = Vec::new();
    for flag in REFUSED_CLONE_FLAGS {
        let flag = flag as u64;
        clone_rules.push(
            SeccompRule::new(vec![condition(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag),
                flag,
            )?])
            .ok()?,
        );
    }
    refused.insert(libc::SYS_clone, clone_rules);
    // Sockets of the families asked for: internet and netlink ones where the network is
    // left open, unix ones where opened; any other family (vsock, which reaches past the
    // namespace; packet; ...) is refused, and a socket of no family allowed at all.
    let mut families = Vec::new();
    if !choices.inet_sockets {
        families.extend([libc::AF_INET, libc::AF_INET6, libc::AF_NETLINK]);
    }
    if !choices.unix_sockets {
        families.push(libc::AF_UNIX);
    }
    let not = |family: libc::c_int| {
        condition(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, family as u64)
    };
    let socket_rules = if families.is_empty() {
        Vec::new()
    } else {
        vec![SeccompRule::new(families.into_iter().map(not).collect::<Option<_>>()?).ok()?]
    };
    refused.insert(libc::SYS_socket, socket_rules);
    // A socket pair is a pipe both ways; a datagram one could also send to a socket file
    // (sendto with an address): where unix sockets are refused, stream pairs alone (where
    // socket pairs are not refused outright).
    if choices.unix_sockets && !choices.uncounted_memory {
        let pair = |kind: libc::c_int| {
            SeccompRule::new(vec![
                condition(
                    0,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::Eq,
                    libc::AF_UNIX as u64,
                )?,
                condition(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq(0xf),
                    kind as u64,
                )?,
            ])
            .ok()
        };
        refused.insert(
            libc::SYS_socketpair,
            vec![pair(libc::SOCK_DGRAM)?, pair(libc::SOCK_SEQPACKET)?],
        );
    }
    let eperm = SeccompAction::Errno(libc::EPERM as u32);
    let main = SeccompFilter::new(refused, SeccompAction::Allow, eperm, arch).ok()?;
    let clone3: BTreeMap<i64, Vec<SeccompRule>> =
        [(libc::SYS_clone3, Vec::new())].into_iter().collect();
    let enosys = SeccompAction::Errno(libc::ENOSYS as u32);
    let clone3 = SeccompFilter::new(clone3, SeccompAction::Allow, enosys, arch).ok()?;
    Some(vec![
        BpfProgram::try_from(main).ok()?,
        BpfProgram::try_from(clone3).ok()?,
    ])
}

/// Installs `filters` in the calling process (and so in everything it starts).
///
/// # Safety
///
/// Only system calls (`prctl`, `seccomp`) on prepared filters: callable between a fork and an
/// exec.
pub unsafe fn install(filters: &[BpfProgram]) -> bool {
    filters
        .iter()
        .all(|filter| seccompiler::apply_filter(filter).is_ok())
}

/// The names of the calls refused, for the docs and the tests.
pub fn refused_names() -> impl Iterator<Item = &'static str> {
    REFUSED.iter().map(|&(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_choice_builds_a_filter_here() {
        if !available() {
            return;
        }
        for slot in 0..8 {
            let built = filters(Choices {
                unix_sockets: slot & 1 != 0,
                inet_sockets: slot & 2 != 0,
                uncounted_memory: slot & 4 != 0,
            })
            .unwrap();
            assert_eq!(built.len(), 2);
            assert!(built.iter().all(|f| !f.is_empty()));
        }
        assert!(refused_names().any(|n| n == "keyctl"));
    }
}

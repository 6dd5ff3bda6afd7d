//! The program's side of the keeper's fork, up to its `execve`: a session of its own, a user
//! namespace of its own (a root judge's program, or for `RLIMIT_NPROC`), traced by the
//! keeper, its capabilities dropped and `no_new_privs`, its resource limits, Landlock, its
//! seccomp filter.
//!
//! Runs in the child of a fork of the keeper: only system calls on the prepared plan,
//! nothing allocates but Landlock's ruleset (see [`crate::judge::sandbox::landlock`]). rustix makes the calls it has directly (namespaces, ids, limits,
//! prctl); the C library's are kept for `ptrace`, raw descriptor numbers and `execve`.

use rustix::process::{Resource, Rlimit};

#[cfg(target_os = "linux")]
use super::message::CAPABILITIES_STEP;
use super::message::{EXEC_FAILED, NPROC_STEP, USER_STEP, errno, send, setup_failed};
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
use super::message::{SECCOMP_STEP, SETUP_FAILED};
use super::userns::{become_root_of_namespace, unshare_user, write_file};
use super::{Plan, UNLIMITED, exit_child};

/// A limit of `soft` and `hard` ([`UNLIMITED`]: none).
fn rlimit(soft: u64, hard: u64) -> Rlimit {
    let limit = |value: u64| (value != UNLIMITED).then_some(value);
    Rlimit {
        current: limit(soft),
        maximum: limit(hard),
    }
}

/// Reports that setting the program up failed at `step` with `error`, and ends the child.
///
/// # Safety
///
/// Only system calls: callable between a fork and an exec.
unsafe fn failed(error: rustix::io::Errno, step: i64) -> ! {
    // Safety: a write on the report pipe, then _exit.
    unsafe {
        send(&setup_failed(error, step));
        exit_child(127)
    }
}

/// The program: a session of its own (so no controlling terminal), traced by the keeper where
/// the system allows, its limits, then `execve`.
///
/// # Safety
///
/// Runs in the child of a fork: async-signal-safe calls only.
pub(super) unsafe fn program(plan: &Plan<'_>) -> ! {
    // Safety: system calls on prepared data, then execve or _exit.
    unsafe {
        let _ = rustix::process::setsid();
        // The first the kernel's OOM killer picks, in the run's memory cgroup as on the host:
        // never the keeper (which holds a copy of the judge's memory, often the largest
        // resident set of the run) while a process of the program is left. (Raising it needs
        // no privilege; the program may lower it back to the default, no further.)
        let _ = write_file(c"/proc/self/oom_score_adj", b"1000");
        // A root judge's program: a user namespace of its own, whose maps the keeper writes
        // at the stop below.
        if plan.program_user.is_some()
            && let Err(error) = unshare_user()
        {
            failed(error, USER_STEP);
        }
        #[cfg(target_os = "linux")]
        if libc::ptrace(libc::PTRACE_TRACEME, 0, 0usize, 0usize) == 0 {
            // The keeper sets the tracing up at this stop.
            let _ = rustix::process::kill_process(
                rustix::process::getpid(),
                rustix::process::Signal::STOP,
            );
        }
        libc::close(4);
        if plan.program_user.is_some() {
            // Root of its namespace, the unprivileged user outside, and no group of the
            // judge's.
            if let Err(error) = become_root_of_namespace() {
                failed(error, USER_STEP);
            }
            if let Some((processes, _)) = plan.nproc
                && let Err(error) =
                    rustix::process::setrlimit(Resource::Nproc, rlimit(processes, processes))
            {
                failed(error, NPROC_STEP);
            }
        }
        if let Some((processes, maps)) = plan.nproc.filter(|_| plan.program_user.is_none()) {
            // Dumpable again to write its maps (its memory is the program's from its execve).
            let _ =
                rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::Dumpable);
            // A user namespace of the program's own: RLIMIT_NPROC then counts the processes
            // of this run alone, not every process of the user.
            if let Err(error) = unshare_user().and_then(|()| maps.write()).and_then(|()| {
                rustix::process::setrlimit(Resource::Nproc, rlimit(processes, processes))
            }) {
                failed(error, NPROC_STEP);
            }
        }
        #[cfg(target_os = "linux")]
        if plan.no_capabilities {
            // Every capability out of the bounding set, so that not even a root program has
            // one after its execve, and none to be gained through a setuid file. All 64 bits,
            // not only those rustix names: the kernel refuses the ones it does not have.
            for cap in 0..64 {
                let one = rustix::thread::CapabilitySet::from_bits_retain(1u64 << cap);
                if let Err(error) = rustix::thread::remove_capability_from_bounding_set(one)
                    && error != rustix::io::Errno::INVAL
                {
                    failed(error, CAPABILITIES_STEP);
                }
            }
            let _ = rustix::thread::set_no_new_privs(true);
        }
        for (i, (resource, soft, hard)) in plan.rlimits.iter().enumerate() {
            if let Err(error) = rustix::process::setrlimit(*resource, rlimit(*soft, *hard)) {
                failed(error, 10 + i as i64);
            }
        }
        #[cfg(target_os = "linux")]
        if let Some(opened) = plan.landlock
            && crate::judge::sandbox::landlock::restrict(opened).is_err()
        {
            // The crate's error carries no errno: EPERM stands for it.
            failed(rustix::io::Errno::PERM, super::message::LANDLOCK_STEP);
        }
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        if let Some(filters) = plan.seccomp
            && !crate::judge::sandbox::seccomp::install(filters)
        {
            send(&[SETUP_FAILED, errno(), SECCOMP_STEP, 0, 0, 0]);
            libc::_exit(127);
        }
        libc::fcntl(3, libc::F_SETFD, libc::FD_CLOEXEC);
        libc::execve(plan.file.as_ptr(), plan.argv.as_ptr(), plan.envp.as_ptr());
        send(&[EXEC_FAILED, errno(), 0, 0, 0, 0]);
        exit_child(127)
    }
}

//! What this system lets a run have, found by trial children that set themselves up as a
//! keeper would and exit with the answer: a PID namespace (in a user namespace or not), each
//! part of the sandbox (IPC, network, a tmpfs, a `/proc`, a nested user namespace), a user
//! namespace of the judge's user, and a root judge's unprivileged program user.

#[cfg(target_os = "linux")]
use std::ffi::CString;

#[cfg(target_os = "linux")]
use rustix::fs::Mode;
#[cfg(target_os = "linux")]
use rustix::mount::{MountFlags, MountPropagationFlags};
use rustix::process::{Pid, WaitOptions};

use super::userns::UserMaps;
#[cfg(target_os = "linux")]
use super::userns::{ProgramUser, become_root_of_namespace, unshare_user};
use super::{exit_child, namespace_flags, raw_fork};
#[cfg(target_os = "linux")]
use crate::judge::sandbox::network;

/// The exit code of the child `pid`, once it has exited (`None` when it was killed or could
/// not be waited for).
fn exit_code(pid: libc::pid_t) -> Option<i32> {
    let pid = Pid::from_raw(pid)?;
    match rustix::process::waitpid(Some(pid), WaitOptions::empty()) {
        Ok(Some((reaped, status))) if reaped == pid => status.exit_status(),
        _ => None,
    }
}

/// Whether a PID namespace (with `user`, in a new user namespace too) can be made here: a
/// trial keeper that only sets itself up and exits.
pub(in crate::judge::run) fn namespace_works(user: bool) -> bool {
    let maps = UserMaps::own();
    let flags = namespace_flags(true, user);
    // Safety: the child makes only system calls (the maps' files) and exits.
    let pid = unsafe { raw_fork(flags) };
    if pid == 0 {
        let ok = !user || maps.write().is_ok();
        exit_child(if ok { 0 } else { 1 })
    }
    if pid < 0 {
        return false;
    }
    exit_code(pid) == Some(0)
}

/// What a sandbox may have here, as bits of [`probe_sandbox`]'s answer.
pub(in crate::judge::run) const PROBE_IPC: i32 = 1;
/// A network namespace whose loopback comes up.
pub(in crate::judge::run) const PROBE_NETWORK: i32 = 2;
/// A mount namespace with a tmpfs.
pub(in crate::judge::run) const PROBE_FILES: i32 = 4;
/// A `/proc` of the PID namespace's own.
pub(in crate::judge::run) const PROBE_PROC: i32 = 8;
/// A nested user namespace (for `RLIMIT_NPROC`).
pub(in crate::judge::run) const PROBE_NPROC: i32 = 16;

/// What a sandbox may have here: a trial keeper in new PID, mount, network and IPC
/// namespaces (in a new user namespace with `user`) tries each part on the empty folder
/// `dir` and answers with bits.
#[cfg(target_os = "linux")]
pub(in crate::judge::run) fn probe_sandbox(user: bool, dir: &CString, proc: &CString) -> i32 {
    let maps = UserMaps::own();
    let flags = namespace_flags(true, user)
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    // Safety: the child makes only system calls on prepared data and exits.
    let pid = unsafe { raw_fork(flags) };
    if pid == 0 {
        let mut bits = 0;
        if !user || maps.write().is_ok() {
            bits |= PROBE_IPC;
            // Safety: socket, ioctl and close on the child's own descriptor.
            if unsafe { network::loopback_up() } {
                bits |= PROBE_NETWORK;
            }
            let (dir, proc) = (dir.as_c_str(), proc.as_c_str());
            let tmpfs = c"tmpfs";
            if rustix::mount::mount_change(
                c"/",
                MountPropagationFlags::REC | MountPropagationFlags::PRIVATE,
            )
            .is_ok()
                && rustix::mount::mount(tmpfs, dir, tmpfs, MountFlags::empty(), None).is_ok()
            {
                bits |= PROBE_FILES;
                if rustix::fs::mkdir(proc, Mode::from_raw_mode(0o755)).is_ok()
                    && rustix::mount::mount(c"proc", proc, c"proc", MountFlags::empty(), None)
                        .is_ok()
                {
                    bits |= PROBE_PROC;
                    if user && unshare_user().is_ok() && maps.write().is_ok() {
                        bits |= PROBE_NPROC;
                    }
                }
            }
        }
        exit_child(bits)
    }
    if pid < 0 {
        return 0;
    }
    exit_code(pid).unwrap_or(0)
}

/// Whether a process of the judge's user may make a user namespace of its own and map its
/// user in it (where `RLIMIT_NPROC` counts its processes alone): a trial child tries.
#[cfg(target_os = "linux")]
pub(in crate::judge::run) fn probe_own_user_namespace() -> bool {
    let maps = UserMaps::own();
    // Safety: the child makes only system calls on prepared data and exits.
    let pid = unsafe { raw_fork(0) };
    if pid == 0 {
        let ok = unshare_user().is_ok() && maps.write().is_ok();
        exit_child(if ok { 0 } else { 1 })
    }
    if pid < 0 {
        return false;
    }
    exit_code(pid) == Some(0)
}

/// Whether a child may make a user namespace of its own whose maps this (root) process
/// writes, and become the unprivileged [`ProgramUser`] there: a trial child tries.
#[cfg(target_os = "linux")]
pub(in crate::judge::run) fn probe_program_user() -> bool {
    let user = ProgramUser::new(super::super::PROGRAM_USER, super::super::PROGRAM_USER);
    let Ok((ready_r, ready_w)) = super::pipe() else {
        return false;
    };
    let Ok((go_r, go_w)) = super::pipe() else {
        return false;
    };
    // Safety: the child makes only system calls and exits.
    let pid = unsafe { raw_fork(0) };
    if pid == 0 {
        let mut byte = [0u8];
        let ok = unshare_user().is_ok()
            && rustix::io::write(&ready_w, b"r") == Ok(1)
            && rustix::io::read(&go_r, &mut byte[..]) == Ok(1)
            && become_root_of_namespace().is_ok()
            && rustix::process::geteuid().is_root();
        exit_child(if ok { 0 } else { 1 })
    }
    if pid < 0 {
        return false;
    }
    drop((ready_w, go_r));
    let mut byte = [0u8];
    let ready = rustix::io::read(&ready_r, &mut byte[..]) == Ok(1);
    if ready && user.write_for(pid).is_ok() {
        let _ = rustix::io::write(&go_w, b"g");
    }
    drop(go_w);
    exit_code(pid) == Some(0)
}

//! User namespaces: the id maps a keeper writes for itself (the judge's user mapped to
//! itself) or for a root judge's program (an unprivileged user of the host), and the program
//! becoming root of its namespace.
//!
//! Everything called after the clone is a direct system call on bytes prepared before it:
//! the maps are files under `/proc`, written with rustix's `open` and `write` on paths built
//! on the stack; the ids are set per thread by rustix's raw `setgroups`, `setresgid` and
//! `setresuid` (not the C library's wrappers, which signal every thread of the process).

use std::ffi::CStr;

use rustix::fs::{Mode, OFlags};
use rustix::io::Errno;
use rustix::process::{Gid, Uid};
use rustix::thread::UnshareFlags;

/// The unprivileged user of the host a root judge's program runs as: root of a user
/// namespace of its own, mapped to `uid` and `gid` outside, so that it owns nothing of the
/// host's and may change none of its settings.
#[derive(Clone, Debug)]
pub(in crate::judge::run) struct ProgramUser {
    uid: u32,
    gid: u32,
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

impl ProgramUser {
    /// The user `uid`, group `gid` of the host.
    pub(in crate::judge::run) fn new(uid: u32, gid: u32) -> ProgramUser {
        ProgramUser {
            uid,
            gid,
            uid_map: format!("0 {uid} 1\n").into_bytes(),
            gid_map: format!("0 {gid} 1\n").into_bytes(),
        }
    }

    /// Gives the user the pipe of `fd`: a pipe is its maker's, mode 0600, and the program
    /// reopens its standard input or output by name (`/dev/stdin`, `/proc/self/fd/1`) as
    /// contest programs do, which the judge's pipes would refuse to another user.
    pub(in crate::judge::run) fn own(
        &self,
        fd: std::os::fd::BorrowedFd<'_>,
    ) -> std::io::Result<()> {
        rustix::fs::fchown(
            fd,
            Some(Uid::from_raw(self.uid)),
            Some(Gid::from_raw(self.gid)),
        )?;
        Ok(())
    }

    /// Writes the maps of the process `pid` (as this process's `/proc` names it). Only
    /// system calls on prepared bytes: callable between a fork and an exec.
    pub(super) fn write_for(&self, pid: libc::pid_t) -> rustix::io::Result<()> {
        write_file(proc_path(pid, b"uid_map", &mut [0; 64]), &self.uid_map)?;
        write_file(proc_path(pid, b"gid_map", &mut [0; 64]), &self.gid_map)
    }
}

/// Drops the supplementary groups and becomes root of the calling process's user namespace
/// (the unprivileged user outside), by raw system calls for this thread alone: the C
/// library's wrappers would signal the other threads of the judge this process was forked
/// from, which it does not have, and wait for them for ever. Callable between a fork and an
/// exec.
pub(super) fn become_root_of_namespace() -> rustix::io::Result<()> {
    rustix::thread::set_thread_groups(&[])?;
    rustix::thread::set_thread_res_gid(Gid::ROOT, Gid::ROOT, Gid::ROOT)?;
    rustix::thread::set_thread_res_uid(Uid::ROOT, Uid::ROOT, Uid::ROOT)
}

/// A user namespace of the calling process's own (`unshare(CLONE_NEWUSER)`), whose maps are
/// still to be written. Callable between a fork and an exec.
pub(super) fn unshare_user() -> rustix::io::Result<()> {
    // Safety: rustix's unshare is unsafe for `CLONE_FILES`, which leaves other threads with
    // descriptors this one no longer has; a user namespace shares nothing of the kind (and
    // the kernel refuses it to a process with more than one thread).
    unsafe { rustix::thread::unshare_unsafe(UnshareFlags::NEWUSER) }
}

/// `/proc/PID/NAME` as a C string in `buffer` (no allocation).
pub(super) fn proc_path<'b>(pid: libc::pid_t, name: &[u8], buffer: &'b mut [u8; 64]) -> &'b CStr {
    let mut n = 0;
    let mut put = |b: u8| {
        if n < buffer.len() - 1 {
            buffer[n] = b;
            n += 1;
        }
    };
    b"/proc/".iter().for_each(|&b| put(b));
    let mut digits = [0u8; 12];
    let mut d = 0;
    let mut value = pid.max(0) as u32;
    loop {
        digits[d] = b'0' + (value % 10) as u8;
        d += 1;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    while d > 0 {
        d -= 1;
        put(digits[d]);
    }
    put(b'/');
    name.iter().for_each(|&b| put(b));
    buffer[n] = 0;
    CStr::from_bytes_until_nul(&buffer[..]).unwrap_or(c"")
}

/// The user and group maps a keeper in a new user namespace writes: the judge's own ids,
/// mapped to themselves.
pub(in crate::judge::run) struct UserMaps {
    uid: Vec<u8>,
    gid: Vec<u8>,
}

impl UserMaps {
    /// The maps of the calling user.
    pub(in crate::judge::run) fn own() -> UserMaps {
        let uid = rustix::process::geteuid().as_raw();
        let gid = rustix::process::getegid().as_raw();
        UserMaps {
            uid: format!("{uid} {uid} 1\n").into_bytes(),
            gid: format!("{gid} {gid} 1\n").into_bytes(),
        }
    }

    /// Writes the maps of the calling process (in the child: only system calls on prepared
    /// bytes). An error when the kernel refused them.
    pub(super) fn write(&self) -> rustix::io::Result<()> {
        // Refused where the kernel has no such file or it is set already: the maps say.
        let _ = write_file(c"/proc/self/setgroups", b"deny");
        write_file(c"/proc/self/uid_map", &self.uid)?;
        write_file(c"/proc/self/gid_map", &self.gid)
    }
}

/// Writes `bytes` to the file `path` in one `write` (a short write is an `EIO`). Only system
/// calls (`open`, `write`, `close`): callable between a fork and an exec.
pub(super) fn write_file(path: &CStr, bytes: &[u8]) -> rustix::io::Result<()> {
    let fd = rustix::fs::open(path, OFlags::WRONLY | OFlags::CLOEXEC, Mode::empty())?;
    if rustix::io::write(&fd, bytes)? == bytes.len() {
        Ok(())
    } else {
        Err(Errno::IO)
    }
}

//! The keeper's reports to the judge: fixed-size messages on a pipe (the run's fd 3 until the
//! program's `execve` closes it), what each kind means, and the step numbers a failed setup
//! names.

use std::io;

/// A message of the keeper: `[kind, a, b, user µs, system µs, peak KiB]`.
pub(in crate::judge::run) type Message = [i64; 6];
/// The size of a message in bytes (well below `PIPE_BUF`: each write is atomic).
pub(in crate::judge::run) const MESSAGE_BYTES: usize = std::mem::size_of::<Message>();

/// The program started: `a` its pid as the keeper sees it.
pub(in crate::judge::run) const STARTED: i64 = 1;
/// The program's `execve` failed: `a` the `errno`.
pub(in crate::judge::run) const EXEC_FAILED: i64 = 2;
/// Setting the run up failed: `a` the `errno`, `b` the step (from [`SANDBOX_STEP`] on: that
/// step of the file system's).
pub(in crate::judge::run) const SETUP_FAILED: i64 = 3;
/// The program was reaped: `a` its wait status, `b` the run's CPU time counted at each task's
/// end ([`COUNTED`], microseconds; 0 where not counted); the times are its own and those of every
/// process of the run reaped before it, the peak memory that of those other processes alone
/// (the program's own resident peak counts what it held before `execve`, a copy of the
/// judge's memory: the judge measures the program at its exit instead).
pub(in crate::judge::run) const EXITED: i64 = 4;
/// The program is traced by the keeper: it stops at its exit, before its children are
/// reparented, and the judge hears of the signals it receives.
pub(in crate::judge::run) const TRACED: i64 = 5;
/// The program is exiting and stopped there (its memory still whole): `a` its wait status.
/// The keeper then waits for one byte (or the end) on its fd 4 before it lets it go.
pub(in crate::judge::run) const EXITING: i64 = 6;
/// A signal reached the program: `a` the signal, `b` its `si_code` (positive: sent by the
/// kernel; zero or less: sent by a process, the program itself included).
pub(in crate::judge::run) const SIGNALLED: i64 = 7;

/// The program executed (it is traced): from now on its memory is its own.
pub(in crate::judge::run) const EXECUTED: i64 = 8;

/// The CPU time of the run's tasks that ended so far, each counted as the keeper reaped it:
/// `a` in microseconds (see `reaped`). In [`EXITED`], `b` is that figure at the end.
pub(in crate::judge::run) const COUNTED: i64 = 9;

/// The first step number of the sandbox's file system in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const SANDBOX_STEP: i64 = 1000;
/// The step number of the loopback in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const LOOPBACK_STEP: i64 = 20;
/// The step number of the program's own user namespace in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const NPROC_STEP: i64 = 21;
/// The step number of dropping the program's capabilities in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const CAPABILITIES_STEP: i64 = 22;
/// The step number of the program's unprivileged user in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const USER_STEP: i64 = 23;
/// The step number of the program's seccomp filter in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const SECCOMP_STEP: i64 = 24;
/// The step number of the program's Landlock ruleset in a [`SETUP_FAILED`] report.
pub(in crate::judge::run) const LANDLOCK_STEP: i64 = 25;

/// Sends a message on the report pipe (fd 3).
///
/// # Safety
///
/// Only a system call: callable between a fork and an exec.
pub(super) unsafe fn send(message: &Message) {
    // Safety: write reads the message, which lives on this stack. (A raw descriptor number:
    // the pipe was moved to fd 3 by the keeper, and rustix writes to owned or borrowed ones.)
    unsafe {
        libc::write(3, message.as_ptr().cast(), MESSAGE_BYTES);
    }
}

/// The `errno` of the last call of the C library that failed (for rustix's calls, their
/// `Errno` is reported instead: rustix does not set `errno`).
pub(super) fn errno() -> i64 {
    i64::from(io::Error::last_os_error().raw_os_error().unwrap_or(0))
}

/// A failed setup's report from the `Errno` of a rustix call: `[SETUP_FAILED, errno, step]`.
pub(super) fn setup_failed(error: rustix::io::Errno, step: i64) -> Message {
    [SETUP_FAILED, i64::from(error.raw_os_error()), step, 0, 0, 0]
}

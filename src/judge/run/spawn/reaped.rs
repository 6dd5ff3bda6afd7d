//! The run's CPU time counted at each process's death, by the keeper (Linux).
//!
//! Without a CPU cgroup the run's CPU time is what `wait4` reports as the keeper reaps: the
//! program's and its children's, each added to its parent's once the parent waits for it. A
//! child whose parent ignores `SIGCHLD` (or sets `SA_NOCLDWAIT`) is reaped by the kernel
//! itself, and its time is added to nobody's: a program that ran its work in short children
//! so reaped used seconds of CPU that no count showed.
//!
//! So the keeper traces every process of the run (`PTRACE_O_TRACEFORK`, `TRACEVFORK`,
//! `TRACECLONE`: each thread and process the program makes, and theirs). A traced process that
//! ends is a zombie that only its tracer may reap first, whatever its parent's `SIGCHLD`: the
//! keeper looks at it before reaping it (`waitid` with `WNOWAIT`), reads the CPU time its
//! threads ran, those that ended before it included (its process CPU clock, in nanoseconds:
//! a thread that an `execve` of another thread replaced counts there too), and adds it up.
//! Every process of the run passes there once: the sum is the run's CPU time, however its
//! processes were reaped. (A thread's own end adds nothing: it is in its process's clock.)
//! What `wait4` reports is still counted, for the keeper's own children only (the others'
//! times reach it through their parents): the run's time is the larger of the two.
//!
//! Everything here runs in the keeper (a child of a fork of a multithreaded judge): system
//! calls on buffers on its stack, no allocation.

use std::ffi::CStr;

use super::message::{COUNTED, send};
use super::userns::proc_path;

/// How much more counted CPU time, in nanoseconds, is told to the judge while the run goes on.
const TELL_EVERY_NS: u64 = 20_000_000;

/// The CPU time of the run's ended tasks, and how the keeper finds them.
pub(super) struct Reaped {
    /// Every process of the run is traced, and the keeper's `/proc` is of its PID namespace:
    /// ended tasks are counted here.
    pub(super) on: bool,
    /// The keeper's pid (in its namespace).
    own: libc::pid_t,
    /// The CPU time of every task counted, in nanoseconds.
    pub(super) ns: u64,
    /// What was last told to the judge.
    told: u64,
}

/// An ended task, seen before it is reaped.
pub(super) struct Ended {
    /// The CPU time it ran, in nanoseconds (`None`: not read).
    pub(super) ran: Option<u64>,
    /// Its parent is the keeper: what `wait4` reports for it is counted nowhere else.
    pub(super) keepers_own: bool,
}

impl Reaped {
    pub(super) const fn new() -> Reaped {
        Reaped {
            on: false,
            own: 0,
            ns: 0,
            told: 0,
        }
    }

    /// Whether ended processes can be counted here: the keeper's `/proc` shows its own PID
    /// namespace (`/proc/self` is its own pid; a process's parent is read there) and a
    /// process's CPU clock can be read. Sets [`Reaped::on`] to the answer.
    pub(super) fn start(&mut self) -> bool {
        let own = rustix::process::getpid().as_raw_nonzero().get();
        let mut buffer = [0u8; 32];
        // Safety: readlink writes at most the buffer's length into it (rustix's readlink
        // allocates, which the keeper may not).
        let n = unsafe {
            libc::readlink(
                c"/proc/self".as_ptr(),
                buffer.as_mut_ptr().cast(),
                buffer.len(),
            )
        };
        let link = usize::try_from(n)
            .ok()
            .map(|n| &buffer[..n.min(buffer.len())]);
        let ours = link.and_then(parse_number) == Some(own as u64);
        self.own = own;
        self.on = ours && process_runtime(own).is_some_and(|ns| ns > 0);
        self.on
    }

    /// Task `pid` ended (a zombie, not yet reaped): what the keeper knows of it.
    pub(super) fn ended(&self, pid: libc::pid_t) -> Ended {
        let (parent, tracer) = parent_and_tracer(pid).unzip();
        Ended {
            // Counted while the keeper traces it: a process it reaped as its tracer, whose
            // parent then ended before reaping it, comes back to the keeper (its new parent)
            // untraced, and is not counted twice.
            ran: if tracer == Some(self.own) {
                process_runtime(pid)
            } else {
                None
            },
            keepers_own: parent.is_none_or(|p| p == self.own),
        }
    }

    /// Adds a task's CPU time, and tells the judge when the sum has grown enough since.
    ///
    /// # Safety
    ///
    /// Only system calls: callable between a fork and an exec.
    pub(super) unsafe fn add(&mut self, ns: u64) {
        self.ns = self.ns.saturating_add(ns);
        if self.ns - self.told >= TELL_EVERY_NS {
            self.told = self.ns;
            // Safety: a write of a message on this stack.
            unsafe { send(&[COUNTED, self.micros(), 0, 0, 0, 0]) };
        }
    }

    /// The counted CPU time in microseconds.
    pub(super) fn micros(&self) -> i64 {
        (self.ns / 1_000).min(i64::MAX as u64) as i64
    }
}

/// The keeper's next event, looked at but left to `wait4`.
pub(super) enum Next {
    /// A signal came first: look again.
    Again,
    /// The keeper has no child or tracee left.
    None,
    /// This task stopped (a trace stop).
    Stopped(libc::pid_t),
    /// This task ended: a zombie until it is reaped.
    Ended(libc::pid_t),
}

/// Waits for the keeper's next event without taking it (`waitid` with `WNOWAIT`).
///
/// # Safety
///
/// Only a system call: callable between a fork and an exec.
pub(super) unsafe fn next() -> Next {
    // Safety: waitid writes a siginfo_t into the one on this stack; si_pid reads the field
    // the kernel sets for every child's event.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WSTOPPED | libc::WNOWAIT | libc::__WALL;
        if libc::waitid(libc::P_ALL, 0, &mut info, flags) < 0 {
            return if std::io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                Next::Again
            } else {
                Next::None
            };
        }
        let pid = info.si_pid();
        match info.si_code {
            libc::CLD_EXITED | libc::CLD_KILLED | libc::CLD_DUMPED => Next::Ended(pid),
            _ => Next::Stopped(pid),
        }
    }
}

/// Whether task `tid` is in `execve` (or `execveat`) now: the first field of
/// `/proc/TID/syscall`. An `execve` ends every other thread of its process, each of which
/// stops at its exit like a thread that ends the program.
pub(super) fn in_execve(tid: libc::pid_t) -> bool {
    let mut buffer = [0u8; 256];
    read_proc(tid, b"syscall", &mut buffer)
        .and_then(parse_number)
        .is_some_and(|nr| nr == libc::SYS_execve as u64 || nr == libc::SYS_execveat as u64)
}

/// Reads `/proc/PID/NAME` into `buffer`: the bytes read.
fn read_proc<'b>(pid: libc::pid_t, name: &[u8], buffer: &'b mut [u8]) -> Option<&'b [u8]> {
    let mut path = [0u8; 64];
    let path: &CStr = proc_path(pid, name, &mut path);
    let fd = rustix::fs::open(
        path,
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .ok()?;
    let n = rustix::io::read(&fd, &mut *buffer).ok()?;
    Some(&buffer[..n])
}

/// The CPU time process `pid` ran, in nanoseconds: all its threads', those that ended
/// included (its process CPU clock, which the kernel lets any process read). `None` for a
/// thread that is not the first of its process, or a pid that is gone.
fn process_runtime(pid: libc::pid_t) -> Option<u64> {
    // Safety: clock_getcpuclockid and clock_gettime write a clock id and a timespec into
    // the ones on this stack (system calls only).
    unsafe {
        let mut clock: libc::clockid_t = 0;
        if libc::clock_getcpuclockid(pid, &mut clock) != 0 {
            return None;
        }
        let mut time: libc::timespec = std::mem::zeroed();
        if libc::clock_gettime(clock, &mut time) != 0 {
            return None;
        }
        Some(time.tv_sec as u64 * 1_000_000_000 + time.tv_nsec as u64)
    }
}

/// The parent and the tracer (0 for none) of task `pid`, from `/proc/PID/status`.
fn parent_and_tracer(pid: libc::pid_t) -> Option<(libc::pid_t, libc::pid_t)> {
    let mut buffer = [0u8; 2048];
    ids_in_status(read_proc(pid, b"status", &mut buffer)?)
}

/// The `PPid:` and `TracerPid:` of the text of a `/proc/PID/status`.
fn ids_in_status(text: &[u8]) -> Option<(libc::pid_t, libc::pid_t)> {
    let field = |name: &[u8]| {
        text.split(|&b| b == b'\n')
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| {
                let start = rest.iter().position(|b| b.is_ascii_digit())?;
                parse_number(&rest[start..])
            })
            .and_then(|n| libc::pid_t::try_from(n).ok())
    };
    Some((field(b"PPid:")?, field(b"TracerPid:")?))
}

/// A decimal number, its end at the first byte that is not a digit (a newline).
fn parse_number(text: &[u8]) -> Option<u64> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit());
    let mut value: u64 = 0;
    let mut any = false;
    for &b in digits {
        value = value.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
        any = true;
    }
    any.then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_and_the_tracer_are_read_from_the_status() {
        let status = b"Name:\tsh\nState:\tZ (zombie)\nPid:\t42\nPPid:\t7\nTracerPid:\t1\n";
        assert_eq!(ids_in_status(status), Some((7, 1)));
        assert_eq!(ids_in_status(b"PPid:\t7\n"), None);
        assert_eq!(ids_in_status(b"PPid:\t7\nTracerPid:\t0\n"), Some((7, 0)));
    }

    #[test]
    fn numbers_end_at_the_first_non_digit() {
        assert_eq!(parse_number(b"364194308 3218700 68\n"), Some(364_194_308));
        assert_eq!(parse_number(b"17\n"), Some(17));
        assert_eq!(parse_number(b"x"), None);
        assert_eq!(parse_number(b"99999999999999999999999"), None);
    }

    #[test]
    fn a_process_reads_its_cpu_clock_and_its_parent() {
        let me = std::process::id() as libc::pid_t;
        // This test's thread, not the process's first: a thread has no process clock.
        let tid = rustix::thread::gettid().as_raw_nonzero().get();
        if tid != me {
            assert_eq!(process_runtime(tid), None);
        }
        let before = process_runtime(me).expect("the process's CPU clock");
        // Spins until the clock shows 10 ms more (on a busy machine that takes longer than
        // 10 ms of wall time), for at most 10 s.
        let start = std::time::Instant::now();
        let mut spin = 0u64;
        let mut after = before;
        while after < before + 10_000_000 && start.elapsed() < std::time::Duration::from_secs(10) {
            for _ in 0..100_000 {
                spin = std::hint::black_box(spin.wrapping_add(1));
            }
            after = process_runtime(me).expect("the process's CPU clock");
        }
        assert!(
            after >= before + 10_000_000,
            "{before} then {after} ns in 10 s"
        );
        let (parent, tracer) = parent_and_tracer(me).expect("the ids of this test process");
        assert_eq!(parent as u32, std::os::unix::process::parent_id());
        assert_eq!(tracer, 0);
    }
}

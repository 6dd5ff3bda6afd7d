//! The program's threads as its keeper traces them (Linux): every thread is traced
//! (`PTRACE_O_TRACECLONE`) and stops at its exit (`PTRACE_O_TRACEEXIT`), so that the program
//! is held at its end whichever thread ends it. A thread's exit stop is the program's end
//! when the thread ends the whole process (`exit_group`, a fatal signal) or is the last one
//! left; a thread that merely ends itself (`exit`, as `pthread_exit` does) is let go.
//!
//! Everything here runs in the keeper, a child of a fork of a multithreaded judge: no
//! allocation, a table of fixed size on the keeper's stack.

/// The most threads whose deaths the keeper tells apart from other processes' (their
/// resource usage, reported for the whole process, is not counted again). Past it a thread
/// is counted as a process of its own: the run's CPU time can only grow.
const MAX_THREADS: usize = 4096;

/// The program's threads other than its first (which has the program's pid).
pub(super) struct Threads {
    /// Their ids (as the keeper sees them), negative once the thread has ended itself (it
    /// is reaped later).
    tids: [libc::pid_t; MAX_THREADS],
    len: usize,
    /// The first thread has not ended itself.
    leader: bool,
    /// The program's end was met (at a thread's exit stop).
    pub(super) ended: bool,
}

impl Threads {
    pub(super) const fn new() -> Threads {
        Threads {
            tids: [0; MAX_THREADS],
            len: 0,
            leader: true,
            ended: false,
        }
    }

    /// A thread was made (`PTRACE_EVENT_CLONE`).
    pub(super) fn add(&mut self, tid: libc::pid_t) {
        if self.len < MAX_THREADS && tid > 0 {
            self.tids[self.len] = tid;
            self.len += 1;
        }
    }

    /// The program's threads (its first, `pid`, included) other than `tid`, living or not
    /// yet reaped.
    pub(super) fn others(
        &self,
        pid: libc::pid_t,
        tid: libc::pid_t,
    ) -> impl Iterator<Item = libc::pid_t> + '_ {
        std::iter::once(pid)
            .chain(self.tids[..self.len].iter().map(|t| t.abs()))
            .filter(move |&t| t != tid && t > 0)
    }

    /// Whether `tid` is one of the program's threads (its first, `pid`, included).
    pub(super) fn contains(&self, pid: libc::pid_t, tid: libc::pid_t) -> bool {
        tid == pid || self.tids[..self.len].iter().any(|&t| t == tid || t == -tid)
    }

    /// The program executed: `execve` ended every other thread, and the one that called it
    /// has the program's pid.
    pub(super) fn executed(&mut self) {
        self.len = 0;
        self.leader = true;
    }

    /// Whether `tid` (not the program's pid) is one of the program's threads; a reaped one is
    /// forgotten.
    pub(super) fn reaped(&mut self, tid: libc::pid_t) -> bool {
        let Some(i) = self.tids[..self.len]
            .iter()
            .position(|&t| t == tid || t == -tid)
        else {
            return false;
        };
        self.len -= 1;
        self.tids[i] = self.tids[self.len];
        true
    }

    /// Thread `tid` of the program `pid` stopped at its exit, in system call `syscall` (when
    /// known): whether this is the program's end. If not, the thread is marked as ended.
    pub(super) fn exit_ends_program(
        &mut self,
        pid: libc::pid_t,
        tid: libc::pid_t,
        syscall: Option<libc::c_long>,
    ) -> bool {
        let others_live = self.tids[..self.len]
            .iter()
            .filter(|&&t| t > 0 && t != tid)
            .count()
            + usize::from(self.leader && tid != pid);
        let ends = match syscall {
            // `exit` ends one thread; the last one's ends the program.
            Some(nr) if nr == libc::SYS_exit => others_live == 0,
            // `exit_group`, or a fatal signal (met in any other system call, or none).
            Some(_) => true,
            // Without the registers: as if every thread but the first ended itself.
            None => tid == pid || others_live == 0,
        };
        if !ends {
            if tid == pid {
                self.leader = false;
            } else if let Some(t) = self.tids[..self.len].iter_mut().find(|t| **t == tid) {
                *t = -tid;
            }
        }
        ends
    }
}

/// The system call thread `tid` (stopped, traced by this process) is in, when the
/// architecture's registers say it: on x86-64 `orig_rax` (-1 outside a system call).
///
/// # Safety
///
/// Only a system call: callable between a fork and an exec.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
pub(super) unsafe fn syscall_of(tid: libc::pid_t) -> Option<libc::c_long> {
    // Safety: PTRACE_GETREGS writes a user_regs_struct into the one on this stack.
    unsafe {
        let mut regs: libc::user_regs_struct = std::mem::zeroed();
        let ok = libc::ptrace(
            libc::PTRACE_GETREGS,
            tid,
            0usize,
            &mut regs as *mut libc::user_regs_struct,
        ) == 0;
        ok.then_some(regs.orig_rax as libc::c_long)
    }
}

/// The system call a stopped thread is in: not read on this architecture.
///
/// # Safety
///
/// Does nothing.
#[cfg(not(all(target_os = "linux", target_arch = "x86_64")))]
pub(super) unsafe fn syscall_of(_tid: libc::pid_t) -> Option<libc::c_long> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXIT: Option<libc::c_long> = Some(libc::SYS_exit);
    const EXIT_GROUP: Option<libc::c_long> = Some(libc::SYS_exit_group);

    #[test]
    fn a_thread_that_ends_itself_does_not_end_the_program() {
        let mut threads = Threads::new();
        threads.add(11);
        threads.add(12);
        assert!(!threads.exit_ends_program(10, 11, EXIT));
        assert!(!threads.exit_ends_program(10, 12, EXIT));
        // The first thread is the last one left.
        assert!(threads.exit_ends_program(10, 10, EXIT));
    }

    #[test]
    fn exit_group_or_a_signal_from_any_thread_ends_it() {
        let mut threads = Threads::new();
        threads.add(11);
        assert!(threads.exit_ends_program(10, 11, EXIT_GROUP));
        let mut threads = Threads::new();
        threads.add(11);
        // A fatal signal met in `futex` (202 on x86-64) or outside any call (-1).
        assert!(threads.exit_ends_program(10, 11, Some(-1)));
        assert!(threads.exit_ends_program(10, 10, Some(202)));
    }

    #[test]
    fn the_first_thread_may_end_before_the_others() {
        let mut threads = Threads::new();
        threads.add(11);
        assert!(!threads.exit_ends_program(10, 10, EXIT));
        // The last thread left ends the program, whichever it is.
        assert!(threads.exit_ends_program(10, 11, EXIT));
    }

    #[test]
    fn reaped_threads_are_told_from_other_processes_and_forgotten() {
        let mut threads = Threads::new();
        threads.add(11);
        threads.add(12);
        assert!(!threads.exit_ends_program(10, 11, EXIT));
        assert!(threads.reaped(11));
        assert!(!threads.reaped(11));
        assert!(!threads.reaped(13));
        assert!(threads.reaped(12));
        threads.add(14);
        threads.executed();
        assert!(!threads.reaped(14));
        assert!(threads.exit_ends_program(10, 10, EXIT));
    }

    #[test]
    fn without_the_registers_the_first_thread_ends_it() {
        let mut threads = Threads::new();
        threads.add(11);
        assert!(!threads.exit_ends_program(10, 11, None));
        assert!(threads.exit_ends_program(10, 10, None));
    }
}

//! The keeper: the process the judge clones for a run. It sets the run up (its user maps,
//! its cgroups, the program's descriptors, the IPC limits, the file system's steps, signals
//! back to their defaults), starts the program as its child, traces it (Linux), reaps every
//! process that comes to it, and reports to the judge on fd 3.
//!
//! It never executes: everything here runs in the child of a fork of a multithreaded judge,
//! so only system calls on data prepared before the clone, nothing allocates, nothing locks.
//! rustix makes its calls directly where it has them (prctl, process groups, the cgroups'
//! writes); the C library's are kept for what rustix does not cover: moving raw descriptor
//! numbers, `close_range`, signal dispositions, `wait4` with its resource use, `ptrace`.

use std::io;
use std::os::fd::BorrowedFd;

#[cfg(target_os = "linux")]
use rustix::process::{Pid, Signal};

#[cfg(target_os = "linux")]
use super::message::{EXECUTED, EXITING, SIGNALLED, TRACED};
use super::message::{
    EXITED, LOOPBACK_STEP, SANDBOX_STEP, SETUP_FAILED, STARTED, errno, send, setup_failed,
};
#[cfg(target_os = "linux")]
use super::reaped::{self, Next, Reaped};
use super::userns::write_file;
use super::{Plan, exec, exit_child, raw_fork};
#[cfg(target_os = "linux")]
use crate::judge::run::threads;
use crate::judge::sandbox::network;

/// Writes `0` (the writer itself) to a cgroup's `cgroup.procs`: the keeper joins it.
fn join(procs: BorrowedFd<'_>) -> rustix::io::Result<()> {
    match rustix::io::write(procs, b"0") {
        Ok(1) => Ok(()),
        Ok(_) => Err(rustix::io::Errno::IO),
        Err(error) => Err(error),
    }
}

/// Every process of the PID namespace but its init, killed (`kill(-1, SIGKILL)`): in one pass
/// under the kernel's task list lock.
#[cfg(target_os = "linux")]
fn kill_all_but_init() {
    // rustix's kill of the process group of pid 1 is kill(-1): every process it may signal.
    let _ = rustix::process::kill_process_group(Pid::INIT, Signal::KILL);
}

/// The keeper: sets the run up, starts the program, reaps every process that comes to it, and
/// reports the program's end.
///
/// # Safety
///
/// Runs in the child of a fork: async-signal-safe calls only.
pub(super) unsafe fn keeper(plan: &Plan<'_>) -> ! {
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
    let _ = rustix::process::setpgid(None, None);
    if let Some(maps) = plan.maps {
        let _ = maps.write();
    }
    // The keeper holds a copy of the judge's memory (the expected answers among it): not
    // dumpable, it cannot be read through /proc/PID/mem nor traced by a program without
    // CAP_SYS_PTRACE in the judge's user namespace. (After the maps: a process that is
    // not dumpable cannot write its own.)
    #[cfg(target_os = "linux")]
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    let mut failed = None;
    if let Some(fd) = plan.cgroup_procs
        && let Err(error) = join(fd)
    {
        failed = Some(setup_failed(error, 1));
    }
    for fd in plan.group_procs.iter().flatten() {
        if let Err(error) = join(*fd) {
            failed = Some(setup_failed(error, 2));
        }
    }
    // Safety: every call below is a system call on prepared data; the function ends with
    // _exit.
    unsafe {
        // The five descriptors to 0..=4, each moved above 4 first so that none overwrites
        // another.
        let mut high = [0; 5];
        for (i, fd) in plan.fds.iter().enumerate() {
            high[i] = libc::fcntl(*fd, libc::F_DUPFD, 5);
            if high[i] < 0 {
                exit_child(126);
            }
        }
        for (i, fd) in high.iter().enumerate() {
            if libc::dup2(*fd, i as libc::c_int) < 0 {
                exit_child(126);
            }
        }
        close_from(5, plan.max_fd);
        if let Some(report) = &failed {
            send(report);
            exit_child(126);
        }
        if plan.loopback && !network::loopback_up() {
            send(&[SETUP_FAILED, errno(), LOOPBACK_STEP, 0, 0, 0]);
            exit_child(126);
        }
        // The run's own IPC namespace: its shared memory and message queues, which no
        // process's resident memory shows, held to the memory limit (best effort: the
        // settings are this namespace's, never the host's).
        // Only in a UTS namespace of its own (the host's name otherwise).
        if plan.own_uts {
            let _ = rustix::system::sethostname(b"sandbox");
            let _ = rustix::system::setdomainname(b"(none)");
        }
        if let Some([shmmax, shmall, msgmni]) = &plan.ipc_limits {
            let _ = write_file(c"/proc/sys/kernel/shmmax", shmmax);
            let _ = write_file(c"/proc/sys/kernel/shmall", shmall);
            let _ = write_file(c"/proc/sys/kernel/msgmni", msgmni);
        }
        if let Some(steps) = plan.steps
            && let Err((step, error)) = steps.apply()
        {
            send(&[
                SETUP_FAILED,
                i64::from(error),
                SANDBOX_STEP + step as i64,
                0,
                0,
                0,
            ]);
            exit_child(126);
        }
        // Every signal back to its default and none blocked: the judge's handlers are not the
        // program's business.
        for signal in 1..65 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        // (The pid is not read: the kernel only asks whether it is set.)
        #[cfg(target_os = "linux")]
        if plan.subreaper {
            let _ = rustix::process::set_child_subreaper(Some(Pid::INIT));
        }
        let pid = raw_fork(0);
        if pid == 0 {
            exec::program(plan);
        }
        if pid < 0 {
            send(&[SETUP_FAILED, errno(), 2, 0, 0, 0]);
            exit_child(126);
        }
        send(&[STARTED, i64::from(pid), 0, 0, 0, 0]);
        // The program's pipes are its own: the keeper holds none of them open.
        libc::close(0);
        libc::close(1);
        libc::close(2);
        let mut used = [0i64; 3];
        let mut program_done = false;
        let mut status_of_program = 0;
        let mut traced = false;
        #[cfg(target_os = "linux")]
        let mut threads = threads::Threads::new();
        #[cfg(target_os = "linux")]
        let mut reaped = Reaped::new();
        #[cfg(not(target_os = "linux"))]
        let reaped = ();
        loop {
            let mut status = 0;
            let mut usage: libc::rusage = std::mem::zeroed();
            // With every process of the run traced, each event is looked at before it is
            // taken: an ended task's CPU time is read while it is a zombie.
            #[cfg(target_os = "linux")]
            let (target, ended) = if reaped.on {
                match reaped::next() {
                    Next::Again => continue,
                    Next::None => break,
                    Next::Stopped(p) => (p, None),
                    Next::Ended(p) => (p, Some(reaped.ended(p))),
                }
            } else {
                (-1, None)
            };
            #[cfg(not(target_os = "linux"))]
            let target = -1;
            // (A stop the look saw is taken, a traced task's or not.)
            #[cfg(target_os = "linux")]
            let stops = if reaped.on { libc::WUNTRACED } else { 0 };
            #[cfg(not(target_os = "linux"))]
            let stops = 0;
            let r = libc::wait4(target, &mut status, libc::__WALL | stops, &mut usage);
            if r < 0 {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                break;
            }
            if libc::WIFSTOPPED(status) {
                // Every stop is a traced task's (the program's threads, and with `reaped`
                // every process of the run).
                #[cfg(target_os = "linux")]
                {
                    traced = traced_stop(pid, r, status, traced, plan, &mut threads, &mut reaped);
                }
                continue;
            }
            // In a namespace every process of the run is counted, those the program left
            // behind included (killed at its end, reaped here); outside one, those reaped
            // before the program.
            let counting = !program_done || plan.namespace;
            // A task the keeper traces but did not make (the program's child, or its
            // child's) is counted in its parent's times when its parent waits for it: only
            // its own CPU time is counted here, not `wait4`'s report.
            #[cfg(target_os = "linux")]
            let keepers_own = match ended {
                Some(ended) => {
                    if counting {
                        reaped.add(ended.ran.unwrap_or(0));
                    }
                    ended.keepers_own
                }
                None => true,
            };
            #[cfg(not(target_os = "linux"))]
            let keepers_own = true;
            // A thread's usage is its whole process's, counted when the program is reaped.
            #[cfg(target_os = "linux")]
            if r != pid && threads.reaped(r) {
                continue;
            }
            if counting {
                if keepers_own {
                    used[0] +=
                        usage.ru_utime.tv_sec as i64 * 1_000_000 + usage.ru_utime.tv_usec as i64;
                    used[1] +=
                        usage.ru_stime.tv_sec as i64 * 1_000_000 + usage.ru_stime.tv_usec as i64;
                }
                // The program's own peak counts the judge's memory it was forked with: the
                // judge measures it at its exit stop.
                if r != pid || !traced {
                    used[2] = used[2].max(usage.ru_maxrss as i64);
                }
            }
            if r == pid {
                program_done = true;
                status_of_program = status;
                if plan.namespace {
                    // Every process left in the namespace goes now (not when the keeper
                    // exits), so that it is reaped here and its time counted.
                    #[cfg(target_os = "linux")]
                    kill_all_but_init();
                } else {
                    send(&[
                        EXITED,
                        i64::from(status),
                        counted(&reaped),
                        used[0],
                        used[1],
                        used[2],
                    ]);
                }
            }
        }
        if plan.namespace && program_done {
            send(&[
                EXITED,
                i64::from(status_of_program),
                counted(&reaped),
                used[0],
                used[1],
                used[2],
            ]);
        }
        exit_child(0)
    }
}

/// The CPU time counted at each task's end, in microseconds (0 where not counted).
#[cfg(target_os = "linux")]
fn counted(reaped: &Reaped) -> i64 {
    reaped.micros()
}

/// Nothing is counted at each task's end but on Linux.
#[cfg(not(target_os = "linux"))]
fn counted(_: &()) -> i64 {
    0
}

/// What the keeper does when thread `tid` of the traced program `pid` stops (Linux): the
/// first stop (the program's own `SIGSTOP`, before `execve`) sets the tracing up, of every
/// thread it will make too; the exit stop of the thread that ends the program tells the judge,
/// waits for its word, and in a namespace kills every other process of the run before the
/// program's children can be reparented (a thread that ends itself alone is let go); a signal
/// is passed on (told to the judge), a stop signal dropped. Returns whether the program is
/// traced.
///
/// # Safety
///
/// Only system calls: callable between a fork and an exec.
#[cfg(target_os = "linux")]
unsafe fn traced_stop(
    pid: libc::pid_t,
    tid: libc::pid_t,
    status: libc::c_int,
    traced: bool,
    plan: &Plan<'_>,
    threads: &mut threads::Threads,
    reaped: &mut Reaped,
) -> bool {
    let namespace = plan.namespace;
    // Safety: ptrace, read and write on this keeper's own tracees and descriptors (rustix
    // has no ptrace).
    unsafe {
        let signal = libc::WSTOPSIG(status);
        let event = (status >> 16) & 0xff;
        let cont = |signal: libc::c_int| {
            libc::ptrace(libc::PTRACE_CONT, tid, 0usize, signal as usize);
        };
        if !traced && tid == pid {
            // The program is in a user namespace of its own: its maps, which only a process
            // of the parent namespace with the power to map other ids may write (it checks
            // them when it goes on).
            if let Some(user) = plan.program_user {
                let _ = user.write_for(pid);
            }
            let mut options = libc::PTRACE_O_TRACEEXIT
                | libc::PTRACE_O_TRACEEXEC
                | libc::PTRACE_O_TRACECLONE
                | libc::PTRACE_O_EXITKILL;
            // Every process of the run traced too, where its ended tasks can be counted.
            if reaped.start() {
                options |= libc::PTRACE_O_TRACEFORK | libc::PTRACE_O_TRACEVFORK;
            }
            let ok = libc::ptrace(libc::PTRACE_SETOPTIONS, pid, 0usize, options as usize) == 0;
            reaped.on &= ok;
            if ok {
                send(&[TRACED, 0, 0, 0, 0, 0]);
            }
            cont(0);
            return ok;
        }
        // The program's own threads, or another process of the run's.
        let program = threads.contains(pid, tid);
        if event == libc::PTRACE_EVENT_CLONE && program {
            let mut new: libc::c_ulong = 0;
            if libc::ptrace(
                libc::PTRACE_GETEVENTMSG,
                tid,
                0usize,
                &mut new as *mut libc::c_ulong,
            ) == 0
            {
                threads.add(new as libc::pid_t);
            }
            cont(0);
            return traced;
        }
        if event == libc::PTRACE_EVENT_EXIT {
            // After the program's end, the threads it took with it stop too: let them go.
            // A thread ended by another's `execve` (the program goes on as the new image):
            // let go, as one that ends itself.
            let replaced = program
                && reaped.on
                && threads.others(pid, tid).any(reaped::in_execve)
                && !threads.exit_ends_program(pid, tid, Some(libc::SYS_exit));
            if !program
                || threads.ended
                || replaced
                || !threads.exit_ends_program(pid, tid, threads::syscall_of(tid))
            {
                cont(0);
                return traced;
            }
            threads.ended = true;
            let mut message: libc::c_ulong = 0;
            libc::ptrace(
                libc::PTRACE_GETEVENTMSG,
                tid,
                0usize,
                &mut message as *mut libc::c_ulong,
            );
            send(&[EXITING, message as i64, 0, 0, 0, 0]);
            let mut byte = 0u8;
            while libc::read(4, (&mut byte as *mut u8).cast(), 1) < 0
                && io::Error::last_os_error().raw_os_error() == Some(libc::EINTR)
            {}
            if namespace {
                // Every process of the namespace but its init: in one pass under the kernel's
                // task list lock, so none is reparented (and told) before it has its SIGKILL.
                kill_all_but_init();
            }
            cont(0);
            return traced;
        }
        // (After `execve` its thread has the pid of its process.)
        if event == libc::PTRACE_EVENT_EXEC && tid == pid {
            threads.executed();
            send(&[EXECUTED, 0, 0, 0, 0, 0]);
        }
        if event != 0 {
            cont(0);
            return traced;
        }
        let stopping = [libc::SIGSTOP, libc::SIGTSTP, libc::SIGTTIN, libc::SIGTTOU];
        if stopping.contains(&signal) {
            // Dropped, and not told: a new thread's first stop is a SIGSTOP too.
            cont(0);
            return traced;
        }
        let mut info: libc::siginfo_t = std::mem::zeroed();
        if libc::ptrace(
            libc::PTRACE_GETSIGINFO,
            tid,
            0usize,
            &mut info as *mut libc::siginfo_t,
        ) != 0
        {
            // A group stop: carry on.
            cont(0);
            return traced;
        }
        if !program {
            // Another process's signal: passed on, not the program's.
            cont(signal);
            return traced;
        }
        send(&[
            SIGNALLED,
            i64::from(signal),
            i64::from(info.si_code),
            0,
            0,
            0,
        ]);
        cont(signal);
        traced
    }
}

/// Closes every descriptor from `first` on (`close_range`, which rustix does not have; one
/// by one where the kernel lacks it).
///
/// # Safety
///
/// Only system calls: callable between a fork and an exec.
unsafe fn close_from(first: libc::c_int, max_fd: libc::c_int) {
    // Safety: closing descriptors of this (child) process.
    unsafe {
        #[cfg(target_os = "linux")]
        if libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            0,
        ) == 0
        {
            return;
        }
        for fd in first..max_fd {
            libc::close(fd);
        }
    }
}

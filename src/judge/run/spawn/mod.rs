//! Starting one run: a keeper process, then the program as the keeper's child.
//!
//! The keeper is started with a raw `clone` (a `fork`, in a new PID namespace when the run
//! has one), so between the clone and the program's `execve` only async-signal-safe system
//! calls run, on data prepared before the clone: nothing allocates, nothing locks.
//!
//! - In a PID namespace the keeper is the namespace's first process (its `init`): every
//!   process of the run, whatever it does, is in the namespace, and when the keeper exits the
//!   kernel kills them all. The keeper also dies with the thread that started it
//!   (`PR_SET_PDEATHSIG`), so the judge killed takes the namespace with it.
//! - Otherwise the keeper is a child subreaper (`PR_SET_CHILD_SUBREAPER`, Linux): a process
//!   of the run whose parent ends becomes the keeper's child rather than `init`'s, so that the
//!   judge finds each one as a child of the keeper (see `sweep`) and kills it.
//! - With a cgroup, the keeper joins it before the program starts.
//!
//! The keeper reports to the judge on a pipe (the run's fd 3 until the program's `execve`
//! closes it): the program's pid, a failed `execve`, and, once it has reaped the program, its
//! wait status and resource use.
//!
//! This module prepares a run and clones its keeper; the rest, each in a file of its own:
//! - `message`: the keeper's reports to the judge, and the setup steps they name;
//! - `keeper`: the keeper itself, from the clone until it has reaped the run;
//! - `exec`: the program's side of the keeper's fork, until its `execve`;
//! - `userns`: user namespaces, their id maps and the program's unprivileged user;
//! - `probe`: trial children that find what this system lets a run have.
//!
//! The system calls made after the clone are rustix's where it has them (namespaces, mounts,
//! ids, limits, prctl): direct system calls, never the C library's wrappers, some of which
//! (the `set*id` family) signal every thread of the process and would wait for ever in a
//! child forked from a multithreaded judge. The C library's are kept for what rustix does not
//! cover: `clone` with namespace flags, `ptrace`, `wait4` with resource use, signal
//! dispositions, raw descriptor numbers, `execve`.

mod exec;
mod keeper;
mod message;
mod probe;
#[cfg(target_os = "linux")]
mod reaped;
mod userns;

use std::ffi::CString;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};

pub(super) use message::*;
pub(super) use probe::*;
pub(super) use rustix::process::Resource;
pub(super) use userns::{ProgramUser, UserMaps};

use super::Layers;
use super::cgroup::Cgroup;
use super::program::Resolved;
use crate::judge::sandbox::mounts::Steps;

/// The sandbox of one run, prepared by the judge.
#[derive(Default)]
pub(super) struct Setup<'a> {
    /// The file system's steps, in a mount namespace of the run's own.
    pub steps: Option<&'a Steps>,
    /// A network namespace with its loopback up.
    pub network: bool,
    /// An IPC namespace.
    pub ipc: bool,
    /// The `cgroup.procs` of v1 groups (pids, memory) the keeper joins.
    pub groups: Vec<OwnedFd>,
    /// A process limit set in a user namespace of the program's own.
    pub nproc: Option<u64>,
    /// The program runs without any capability and cannot gain one (`no_new_privs`).
    pub no_capabilities: bool,
    /// A root judge's program runs in a user namespace of its own as this unprivileged user
    /// of the host (its maps written by the keeper).
    pub program_user: Option<ProgramUser>,
    /// Variables added to the program's environment for this run.
    pub env: &'a [CString],
    /// The memory limit in bytes: System V shared memory and message queues of the run's own
    /// IPC namespace are held to it.
    pub ipc_memory: Option<u64>,
    /// The seccomp filters installed in the program just before its `execve`.
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    pub seccomp: Option<&'static [seccompiler::BpfProgram]>,
    /// Landlock, entered by the program just before its seccomp filter, with what is opened.
    #[cfg(target_os = "linux")]
    pub landlock: Option<crate::judge::sandbox::landlock::Opened>,
}

/// The resource limits set in the program before it executes: `(resource, soft, hard)`,
/// [`UNLIMITED`] for none.
pub(super) type Rlimits = [(Resource, u64, u64); 4];

/// No limit: the kernel's `RLIM_INFINITY`.
pub(super) const UNLIMITED: u64 = u64::MAX;

/// A started run, seen from the judge.
pub(super) struct Child {
    /// The keeper's pid.
    pub keeper: libc::pid_t,
    /// The write end of the program's standard input.
    pub stdin: Option<OwnedFd>,
    /// The read end of its standard output.
    pub stdout: OwnedFd,
    /// The read end of its standard error.
    pub stderr: OwnedFd,
    /// The read end of the keeper's reports.
    pub status: OwnedFd,
    /// The write end of the judge's answers to the keeper: one byte lets an exiting program go.
    pub go: Option<OwnedFd>,
    /// The run's cgroup, when it has one.
    pub cgroup: Option<Cgroup>,
}

/// A pipe, both ends closed on `execve`: `(read, write)`.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    #[cfg(target_os = "linux")]
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    #[cfg(not(target_os = "linux"))]
    let (read, write) = rustix::pipe::pipe()?;
    #[cfg(not(target_os = "linux"))]
    for fd in [&read, &write] {
        rustix::io::fcntl_setfd(fd, rustix::io::FdFlags::CLOEXEC)?;
    }
    Ok((read, write))
}

/// Makes `fd` non-blocking.
pub(super) fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(fd)?;
    rustix::fs::fcntl_setfl(fd, flags | rustix::fs::OFlags::NONBLOCK)?;
    Ok(())
}

/// `fork`, or on Linux a `clone` with the namespace flags `flags`, as a raw system call (no
/// handler of the C library runs in the child). Returns 0 in the child.
///
/// # Safety
///
/// The child may only make async-signal-safe calls until it executes or exits.
unsafe fn raw_fork(flags: libc::c_int) -> libc::pid_t {
    #[cfg(target_os = "linux")]
    // Safety: a clone without CLONE_VM is a fork; the child runs on a copy of this stack.
    unsafe {
        libc::syscall(
            libc::SYS_clone,
            libc::c_long::from(flags | libc::SIGCHLD),
            0usize,
            0usize,
            0usize,
            0usize,
        ) as libc::pid_t
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = flags;
        // Safety: the caller keeps to async-signal-safe calls in the child.
        unsafe { libc::fork() }
    }
}

/// Ends the calling child at once: `_exit`, so that no handler and no destructor of the
/// judge's runs in it.
fn exit_child(code: libc::c_int) -> ! {
    // Safety: _exit only ends the process.
    unsafe { libc::_exit(code) }
}

/// `clone`'s flags for a new PID namespace and a new user namespace (the C library's: rustix
/// makes no `clone`).
fn namespace_flags(pid_namespace: bool, user_namespace: bool) -> libc::c_int {
    #[cfg(target_os = "linux")]
    {
        let mut flags = 0;
        if pid_namespace {
            flags |= libc::CLONE_NEWPID;
        }
        if user_namespace {
            flags |= libc::CLONE_NEWUSER;
        }
        flags
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid_namespace, user_namespace);
        0
    }
}

/// Everything the keeper and the program need, prepared before the clone.
struct Plan<'a> {
    file: &'a CString,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    /// The program's standard input, output and error, the report pipe and the judge's
    /// answers.
    fds: [RawFd; 5],
    cgroup_procs: Option<BorrowedFd<'a>>,
    group_procs: [Option<BorrowedFd<'a>>; 2],
    steps: Option<&'a Steps>,
    loopback: bool,
    nproc: Option<(u64, &'a UserMaps)>,
    no_capabilities: bool,
    program_user: Option<&'a ProgramUser>,
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    seccomp: Option<&'static [seccompiler::BpfProgram]>,
    #[cfg(target_os = "linux")]
    landlock: Option<crate::judge::sandbox::landlock::Opened>,
    maps: Option<&'a UserMaps>,
    namespace: bool,
    /// `kernel.shmmax`, `kernel.shmall` and `kernel.msgmni` of the run's IPC namespace.
    ipc_limits: Option<[Vec<u8>; 3]>,
    /// The keeper has a UTS namespace of its own (with the IPC one): it names the host
    /// `sandbox` there, so that the program cannot read the host's name.
    own_uts: bool,
    subreaper: bool,
    rlimits: &'a Rlimits,
    /// The highest descriptor to close when `close_range` is missing.
    max_fd: libc::c_int,
}

/// Starts a run of `program` with the limits `rlimits` and the containment `layers`.
pub(super) fn spawn(
    program: &Resolved,
    rlimits: &Rlimits,
    layers: &Layers,
    setup: &Setup<'_>,
    cgroup: Option<(Cgroup, OwnedFd)>,
) -> io::Result<Child> {
    let (stdin_r, stdin_w) = pipe()?;
    let (stdout_r, stdout_w) = pipe()?;
    let (stderr_r, stderr_w) = pipe()?;
    if let Some(user) = &setup.program_user {
        for fd in [&stdin_r, &stdout_w, &stderr_w] {
            user.own(fd.as_fd())?;
        }
    }
    let (status_r, status_w) = pipe()?;
    let (go_r, go_w) = pipe()?;
    let (cgroup, procs) = match cgroup {
        Some((c, p)) => (Some(c), Some(p)),
        None => (None, None),
    };
    let argv: Vec<*const libc::c_char> = program
        .argv
        .iter()
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let envp: Vec<*const libc::c_char> = program
        .env
        .iter()
        .chain(setup.env)
        .map(|a| a.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect();
    let maps = layers.user_namespace.then(UserMaps::own);
    let own_maps = UserMaps::own();
    let nofile = rustix::process::getrlimit(Resource::Nofile).current;
    let max_fd = nofile.unwrap_or(UNLIMITED).min(1 << 20) as libc::c_int;
    let plan = Plan {
        file: &program.file,
        argv: &argv,
        envp: &envp,
        fds: [
            stdin_r.as_raw_fd(),
            stdout_w.as_raw_fd(),
            stderr_w.as_raw_fd(),
            status_w.as_raw_fd(),
            go_r.as_raw_fd(),
        ],
        cgroup_procs: procs.as_ref().map(AsFd::as_fd),
        group_procs: [
            setup.groups.first().map(AsFd::as_fd),
            setup.groups.get(1).map(AsFd::as_fd),
        ],
        steps: setup.steps,
        loopback: setup.network,
        nproc: setup.nproc.map(|n| (n, &own_maps)),
        no_capabilities: setup.no_capabilities,
        program_user: setup.program_user.as_ref(),
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        seccomp: setup.seccomp,
        #[cfg(target_os = "linux")]
        landlock: setup.landlock,
        maps: maps.as_ref(),
        namespace: layers.pid_namespace,
        own_uts: cfg!(target_os = "linux") && setup.ipc,
        ipc_limits: setup.ipc_memory.filter(|_| setup.ipc).map(|bytes| {
            [
                bytes.to_string().into_bytes(),
                (bytes / 4096).max(1).to_string().into_bytes(),
                b"16".to_vec(),
            ]
        }),
        subreaper: layers.subreaper,
        rlimits,
        max_fd,
    };
    let mut flags = namespace_flags(layers.pid_namespace, layers.user_namespace);
    #[cfg(target_os = "linux")]
    {
        if setup.steps.is_some() {
            flags |= libc::CLONE_NEWNS;
        }
        if setup.network {
            flags |= libc::CLONE_NEWNET;
        }
        if setup.ipc {
            // With a host name of its own too: nothing it could set is the host's.
            flags |= libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
        }
    }
    // Safety: the child runs `keeper`, which makes only async-signal-safe calls on the
    // prepared plan and never returns.
    let pid = unsafe { raw_fork(flags) };
    if pid == 0 {
        // Safety: see above.
        unsafe { keeper::keeper(&plan) }
    }
    if pid < 0 {
        return Err(io::Error::last_os_error());
    }
    drop((stdin_r, stdout_w, stderr_w, status_w, go_r, procs));
    for fd in [&stdin_w, &stdout_r, &stderr_r, &status_r] {
        set_nonblocking(fd)?;
    }
    Ok(Child {
        keeper: pid,
        stdin: Some(stdin_w),
        stdout: stdout_r,
        stderr: stderr_r,
        status: status_r,
        go: Some(go_w),
        cgroup,
    })
}

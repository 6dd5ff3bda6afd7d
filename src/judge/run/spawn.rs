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

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use super::Layers;
use super::cgroup::Cgroup;
use super::program::Resolved;
#[cfg(target_os = "linux")]
use super::threads;
use crate::judge::sandbox::mounts::Steps;
use crate::judge::sandbox::network;

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
    pub nproc: Option<libc::rlim_t>,
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
}

/// The unprivileged user of the host a root judge's program runs as: root of a user
/// namespace of its own, mapped to `uid` and `gid` outside, so that it owns nothing of the
/// host's and may change none of its settings.
#[derive(Clone, Debug)]
pub(super) struct ProgramUser {
    uid_map: Vec<u8>,
    gid_map: Vec<u8>,
}

impl ProgramUser {
    /// The user `uid`, group `gid` of the host.
    pub(super) fn new(uid: u32, gid: u32) -> ProgramUser {
        ProgramUser {
            uid_map: format!("0 {uid} 1\n").into_bytes(),
            gid_map: format!("0 {gid} 1\n").into_bytes(),
        }
    }

    /// Writes the maps of the process `pid` (as this process's `/proc` names it).
    ///
    /// # Safety
    ///
    /// Only system calls on prepared bytes: callable between a fork and an exec.
    unsafe fn write_for(&self, pid: libc::pid_t) -> bool {
        // Safety: open, write and close on paths made on this stack.
        unsafe {
            write_file(proc_path(pid, b"uid_map", &mut [0; 64]), &self.uid_map)
                && write_file(proc_path(pid, b"gid_map", &mut [0; 64]), &self.gid_map)
        }
    }
}

/// Drops the supplementary groups and becomes root of the calling process's user namespace
/// (the unprivileged user outside), by raw system calls: the C library's wrappers would
/// signal the other threads of the judge this process was forked from, which it does not
/// have, and wait for them for ever.
///
/// # Safety
///
/// Only system calls: callable between a fork and an exec.
unsafe fn become_root_of_namespace() -> bool {
    // Safety: setgroups with no groups, setresgid and setresuid with constant ids.
    unsafe {
        libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) == 0
            && libc::syscall(libc::SYS_setresgid, 0u32, 0u32, 0u32) == 0
            && libc::syscall(libc::SYS_setresuid, 0u32, 0u32, 0u32) == 0
    }
}

/// `/proc/PID/NAME` as a C string in `buffer` (no allocation).
fn proc_path<'b>(pid: libc::pid_t, name: &[u8], buffer: &'b mut [u8; 64]) -> &'b std::ffi::CStr {
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
    std::ffi::CStr::from_bytes_until_nul(&buffer[..]).unwrap_or(c"")
}

/// A message of the keeper: `[kind, a, b, user µs, system µs, peak KiB]`.
pub(super) type Message = [i64; 6];
/// The size of a message in bytes (well below `PIPE_BUF`: each write is atomic).
pub(super) const MESSAGE_BYTES: usize = std::mem::size_of::<Message>();

/// The program started: `a` its pid as the keeper sees it.
pub(super) const STARTED: i64 = 1;
/// The program's `execve` failed: `a` the `errno`.
pub(super) const EXEC_FAILED: i64 = 2;
/// Setting the run up failed: `a` the `errno`, `b` the step (from [`SANDBOX_STEP`] on: that
/// step of the file system's).
pub(super) const SETUP_FAILED: i64 = 3;
/// The program was reaped: `a` its wait status; the times are its own and those of every
/// process of the run reaped before it, the peak memory that of those other processes alone
/// (the program's own resident peak counts what it held before `execve`, a copy of the
/// judge's memory: the judge measures the program at its exit instead).
pub(super) const EXITED: i64 = 4;
/// The program is traced by the keeper: it stops at its exit, before its children are
/// reparented, and the judge hears of the signals it receives.
pub(super) const TRACED: i64 = 5;
/// The program is exiting and stopped there (its memory still whole): `a` its wait status.
/// The keeper then waits for one byte (or the end) on its fd 4 before it lets it go.
pub(super) const EXITING: i64 = 6;
/// A signal reached the program: `a` the signal, `b` its `si_code` (positive: sent by the
/// kernel; zero or less: sent by a process, the program itself included).
pub(super) const SIGNALLED: i64 = 7;

/// The program executed (it is traced): from now on its memory is its own.
pub(super) const EXECUTED: i64 = 8;

/// The first step number of the sandbox's file system in a [`SETUP_FAILED`] report.
pub(super) const SANDBOX_STEP: i64 = 1000;
/// The step number of the loopback in a [`SETUP_FAILED`] report.
pub(super) const LOOPBACK_STEP: i64 = 20;
/// The step number of the program's own user namespace in a [`SETUP_FAILED`] report.
pub(super) const NPROC_STEP: i64 = 21;
/// The step number of dropping the program's capabilities in a [`SETUP_FAILED`] report.
pub(super) const CAPABILITIES_STEP: i64 = 22;
/// The step number of the program's unprivileged user in a [`SETUP_FAILED`] report.
pub(super) const USER_STEP: i64 = 23;
/// The step number of the program's seccomp filter in a [`SETUP_FAILED`] report.
pub(super) const SECCOMP_STEP: i64 = 24;

/// The resource limits set in the program before it executes: `(resource, soft, hard)`.
pub(super) type Rlimits = [(Resource, libc::rlim_t, libc::rlim_t); 4];

/// The type of the resource names of `setrlimit`, which differs between C libraries.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub(super) type Resource = libc::__rlimit_resource_t;
/// The type of the resource names of `setrlimit`, which differs between C libraries.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub(super) type Resource = libc::c_int;

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
    let mut fds = [0 as RawFd; 2];
    #[cfg(target_os = "linux")]
    // Safety: pipe2 writes two descriptors into the array it is given.
    let r = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    #[cfg(not(target_os = "linux"))]
    // Safety: pipe writes two descriptors into the array it is given.
    let r = unsafe { libc::pipe(fds.as_mut_ptr()) };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // Safety: both descriptors were just made and belong to nobody else.
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    #[cfg(not(target_os = "linux"))]
    for fd in [&read, &write] {
        // Safety: fcntl sets a flag of a descriptor this function owns.
        unsafe {
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok((read, write))
}

/// Makes `fd` non-blocking.
pub(super) fn set_nonblocking(fd: &OwnedFd) -> io::Result<()> {
    // Safety: fcntl reads and sets the flags of a descriptor the caller owns.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
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

/// The user and group maps a keeper in a new user namespace writes: the judge's own ids,
/// mapped to themselves.
pub(super) struct UserMaps {
    uid: Vec<u8>,
    gid: Vec<u8>,
}

impl UserMaps {
    /// The maps of the calling user.
    pub(super) fn own() -> UserMaps {
        // Safety: getuid and getgid cannot fail.
        let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        UserMaps {
            uid: format!("{uid} {uid} 1\n").into_bytes(),
            gid: format!("{gid} {gid} 1\n").into_bytes(),
        }
    }

    /// Writes the maps of the calling process (in the child: async-signal-safe). False when
    /// the kernel refused them.
    ///
    /// # Safety
    ///
    /// Only system calls: callable between a fork and an exec.
    unsafe fn write(&self) -> bool {
        // Safety: only open, write and close on constant paths and prepared bytes.
        unsafe {
            write_file(c"/proc/self/setgroups", b"deny");
            write_file(c"/proc/self/uid_map", &self.uid)
                && write_file(c"/proc/self/gid_map", &self.gid)
        }
    }
}

/// Writes `bytes` to the file `path` in one `write`.
///
/// # Safety
///
/// Only system calls: callable between a fork and an exec.
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> bool {
    // Safety: open, write and close on a constant path and a slice that outlives the calls.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return false;
        }
        let ok = libc::write(fd, bytes.as_ptr().cast(), bytes.len()) == bytes.len() as isize;
        libc::close(fd);
        ok
    }
}

/// Whether a PID namespace (with `user`, in a new user namespace too) can be made here: a
/// trial keeper that only sets itself up and exits.
pub(super) fn namespace_works(user: bool) -> bool {
    let maps = UserMaps::own();
    let flags = namespace_flags(true, user);
    // Safety: the child makes only system calls (write_file) and exits.
    let pid = unsafe { raw_fork(flags) };
    if pid == 0 {
        // Safety: async-signal-safe calls only, then _exit.
        unsafe {
            let ok = !user || maps.write();
            libc::_exit(if ok { 0 } else { 1 });
        }
    }
    if pid < 0 {
        return false;
    }
    let mut status = 0;
    // Safety: waitpid writes the status of the child just made.
    let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
    reaped == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

/// What a sandbox may have here, as bits of [`probe_sandbox`]'s answer.
pub(super) const PROBE_IPC: i32 = 1;
/// A network namespace whose loopback comes up.
pub(super) const PROBE_NETWORK: i32 = 2;
/// A mount namespace with a tmpfs.
pub(super) const PROBE_FILES: i32 = 4;
/// A `/proc` of the PID namespace's own.
pub(super) const PROBE_PROC: i32 = 8;
/// A nested user namespace (for `RLIMIT_NPROC`).
pub(super) const PROBE_NPROC: i32 = 16;

/// What a sandbox may have here: a trial keeper in new PID, mount, network and IPC
/// namespaces (in a new user namespace with `user`) tries each part on the empty folder
/// `dir` and answers with bits.
#[cfg(target_os = "linux")]
pub(super) fn probe_sandbox(user: bool, dir: &CString, proc: &CString) -> i32 {
    let maps = UserMaps::own();
    let flags = namespace_flags(true, user)
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    // Safety: the child makes only system calls on prepared data and exits.
    let pid = unsafe { raw_fork(flags) };
    if pid == 0 {
        // Safety: async-signal-safe calls only, then _exit.
        unsafe {
            let null = std::ptr::null::<libc::c_char>();
            if user && !maps.write() {
                libc::_exit(0);
            }
            let mut bits = PROBE_IPC;
            if network::loopback_up() {
                bits |= PROBE_NETWORK;
            }
            if libc::mount(
                null,
                c"/".as_ptr(),
                null,
                libc::MS_REC | libc::MS_PRIVATE,
                null.cast(),
            ) == 0
                && libc::mount(
                    c"tmpfs".as_ptr(),
                    dir.as_ptr(),
                    c"tmpfs".as_ptr(),
                    0,
                    null.cast(),
                ) == 0
            {
                bits |= PROBE_FILES;
                if libc::mkdir(proc.as_ptr(), 0o755) == 0
                    && libc::mount(
                        c"proc".as_ptr(),
                        proc.as_ptr(),
                        c"proc".as_ptr(),
                        0,
                        null.cast(),
                    ) == 0
                {
                    bits |= PROBE_PROC;
                    if user && libc::unshare(libc::CLONE_NEWUSER) == 0 && maps.write() {
                        bits |= PROBE_NPROC;
                    }
                }
            }
            libc::_exit(bits);
        }
    }
    if pid < 0 {
        return 0;
    }
    let mut status = 0;
    // Safety: waitpid writes the status of the child just made.
    let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
    if reaped == pid && libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        0
    }
}

/// Whether a process of the judge's user may make a user namespace of its own and map its
/// user in it (where `RLIMIT_NPROC` counts its processes alone): a trial child tries.
#[cfg(target_os = "linux")]
pub(super) fn probe_own_user_namespace() -> bool {
    let maps = UserMaps::own();
    // Safety: the child makes only system calls on prepared data and exits.
    let pid = unsafe { raw_fork(0) };
    if pid == 0 {
        // Safety: async-signal-safe calls only, then _exit.
        unsafe {
            let ok = libc::unshare(libc::CLONE_NEWUSER) == 0 && maps.write();
            libc::_exit(if ok { 0 } else { 1 });
        }
    }
    if pid < 0 {
        return false;
    }
    let mut status = 0;
    // Safety: waitpid writes the status of the child just made.
    let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
    reaped == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

/// Whether a child may make a user namespace of its own whose maps this (root) process
/// writes, and become the unprivileged [`ProgramUser`] there: a trial child tries.
#[cfg(target_os = "linux")]
pub(super) fn probe_program_user() -> bool {
    let user = ProgramUser::new(super::PROGRAM_USER, super::PROGRAM_USER);
    let Ok((ready_r, ready_w)) = pipe() else {
        return false;
    };
    let Ok((go_r, go_w)) = pipe() else {
        return false;
    };
    // Safety: the child makes only system calls and exits.
    let pid = unsafe { raw_fork(0) };
    if pid == 0 {
        // Safety: async-signal-safe calls only, then _exit.
        unsafe {
            let mut byte = 0u8;
            let ok = libc::unshare(libc::CLONE_NEWUSER) == 0
                && libc::write(ready_w.as_raw_fd(), b"r".as_ptr().cast(), 1) == 1
                && libc::read(go_r.as_raw_fd(), (&mut byte as *mut u8).cast(), 1) == 1
                && become_root_of_namespace()
                && libc::geteuid() == 0;
            libc::_exit(if ok { 0 } else { 1 });
        }
    }
    if pid < 0 {
        return false;
    }
    drop((ready_w, go_r));
    let mut byte = 0u8;
    // Safety: read writes one byte into a local; write reads one from a constant.
    let ready = unsafe { libc::read(ready_r.as_raw_fd(), (&mut byte as *mut u8).cast(), 1) } == 1;
    // Safety: see ProgramUser::write_for.
    if ready && unsafe { user.write_for(pid) } {
        // Safety: write reads one byte from a constant.
        unsafe {
            libc::write(go_w.as_raw_fd(), b"g".as_ptr().cast(), 1);
        }
    }
    drop(go_w);
    let mut status = 0;
    // Safety: waitpid writes the status of the child just made.
    let reaped = unsafe { libc::waitpid(pid, &mut status, 0) };
    reaped == pid && libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
}

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
    cgroup_procs: Option<RawFd>,
    group_procs: [Option<RawFd>; 2],
    steps: Option<&'a Steps>,
    loopback: bool,
    nproc: Option<(libc::rlim_t, &'a UserMaps)>,
    no_capabilities: bool,
    program_user: Option<&'a ProgramUser>,
    #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
    seccomp: Option<&'static [seccompiler::BpfProgram]>,
    maps: Option<&'a UserMaps>,
    namespace: bool,
    /// `kernel.shmmax`, `kernel.shmall` and `kernel.msgmni` of the run's IPC namespace.
    ipc_limits: Option<[Vec<u8>; 3]>,
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
    let mut nofile = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // Safety: getrlimit writes into the struct it is given.
    let max_fd = if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut nofile) } == 0 {
        nofile.rlim_cur.min(1 << 20) as libc::c_int
    } else {
        1 << 16
    };
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
        cgroup_procs: procs.as_ref().map(AsRawFd::as_raw_fd),
        group_procs: [
            setup.groups.first().map(AsRawFd::as_raw_fd),
            setup.groups.get(1).map(AsRawFd::as_raw_fd),
        ],
        steps: setup.steps,
        loopback: setup.network,
        nproc: setup.nproc.map(|n| (n, &own_maps)),
        no_capabilities: setup.no_capabilities,
        program_user: setup.program_user.as_ref(),
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        seccomp: setup.seccomp,
        maps: maps.as_ref(),
        namespace: layers.pid_namespace,
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
        unsafe { keeper(&plan) }
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

/// Sends a message on the report pipe (fd 3).
///
/// # Safety
///
/// Only a system call: callable between a fork and an exec.
unsafe fn send(message: &Message) {
    // Safety: write reads the message, which lives on this stack.
    unsafe {
        libc::write(3, message.as_ptr().cast(), MESSAGE_BYTES);
    }
}

fn errno() -> i64 {
    i64::from(io::Error::last_os_error().raw_os_error().unwrap_or(0))
}

/// The keeper: sets the run up, starts the program, reaps every process that comes to it, and
/// reports the program's end.
///
/// # Safety
///
/// Runs in the child of a fork: async-signal-safe calls only.
unsafe fn keeper(plan: &Plan<'_>) -> ! {
    // Safety: every call below is a system call on prepared data; the function ends with
    // _exit.
    unsafe {
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
        libc::setpgid(0, 0);
        if let Some(maps) = plan.maps {
            maps.write();
        }
        // The keeper holds a copy of the judge's memory (the expected answers among it): not
        // dumpable, it cannot be read through /proc/PID/mem nor traced by a program without
        // CAP_SYS_PTRACE in the judge's user namespace. (After the maps: a process that is
        // not dumpable cannot write its own.)
        #[cfg(target_os = "linux")]
        libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
        let mut failed_step = 0;
        if let Some(fd) = plan.cgroup_procs
            && libc::write(fd, b"0".as_ptr().cast(), 1) != 1
        {
            failed_step = 1;
        }
        for fd in plan.group_procs.iter().flatten() {
            if libc::write(*fd, b"0".as_ptr().cast(), 1) != 1 {
                failed_step = 2;
            }
        }
        // The five descriptors to 0..=4, each moved above 4 first so that none overwrites
        // another.
        let mut high = [0; 5];
        for (i, fd) in plan.fds.iter().enumerate() {
            high[i] = libc::fcntl(*fd, libc::F_DUPFD, 5);
            if high[i] < 0 {
                libc::_exit(126);
            }
        }
        for (i, fd) in high.iter().enumerate() {
            if libc::dup2(*fd, i as libc::c_int) < 0 {
                libc::_exit(126);
            }
        }
        close_from(5, plan.max_fd);
        if failed_step != 0 {
            send(&[SETUP_FAILED, errno(), failed_step, 0, 0, 0]);
            libc::_exit(126);
        }
        if plan.loopback && !network::loopback_up() {
            send(&[SETUP_FAILED, errno(), LOOPBACK_STEP, 0, 0, 0]);
            libc::_exit(126);
        }
        // The run's own IPC namespace: its shared memory and message queues, which no
        // process's resident memory shows, held to the memory limit (best effort: the
        // settings are this namespace's, never the host's).
        if let Some([shmmax, shmall, msgmni]) = &plan.ipc_limits {
            write_file(c"/proc/sys/kernel/shmmax", shmmax);
            write_file(c"/proc/sys/kernel/shmall", shmall);
            write_file(c"/proc/sys/kernel/msgmni", msgmni);
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
            libc::_exit(126);
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
        #[cfg(target_os = "linux")]
        if plan.subreaper {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong);
        }
        let pid = raw_fork(0);
        if pid == 0 {
            program(plan);
        }
        if pid < 0 {
            send(&[SETUP_FAILED, errno(), 2, 0, 0, 0]);
            libc::_exit(126);
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
        loop {
            let mut status = 0;
            let mut usage: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(-1, &mut status, libc::__WALL, &mut usage);
            if r < 0 {
                if io::Error::last_os_error().raw_os_error() == Some(libc::EINTR) {
                    continue;
                }
                break;
            }
            if libc::WIFSTOPPED(status) {
                // Only the program's threads are traced: a stop is one of theirs.
                #[cfg(target_os = "linux")]
                {
                    traced = traced_stop(pid, r, status, traced, plan, &mut threads);
                }
                continue;
            }
            // A thread's usage is its whole process's, counted when the program is reaped.
            #[cfg(target_os = "linux")]
            if r != pid && threads.reaped(r) {
                continue;
            }
            // In a namespace every process of the run is counted, those the program left
            // behind included (killed at its end, reaped here); outside one, those reaped
            // before the program.
            if !program_done || plan.namespace {
                used[0] += usage.ru_utime.tv_sec as i64 * 1_000_000 + usage.ru_utime.tv_usec as i64;
                used[1] += usage.ru_stime.tv_sec as i64 * 1_000_000 + usage.ru_stime.tv_usec as i64;
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
                    libc::kill(-1, libc::SIGKILL);
                } else {
                    send(&[EXITED, i64::from(status), 0, used[0], used[1], used[2]]);
                }
            }
        }
        if plan.namespace && program_done {
            send(&[
                EXITED,
                i64::from(status_of_program),
                0,
                used[0],
                used[1],
                used[2],
            ]);
        }
        libc::_exit(0)
    }
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
) -> bool {
    let namespace = plan.namespace;
    // Safety: ptrace, read, kill and write on this keeper's own tracees and descriptors.
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
                user.write_for(pid);
            }
            let options = libc::PTRACE_O_TRACEEXIT
                | libc::PTRACE_O_TRACEEXEC
                | libc::PTRACE_O_TRACECLONE
                | libc::PTRACE_O_EXITKILL;
            let ok = libc::ptrace(libc::PTRACE_SETOPTIONS, pid, 0usize, options as usize) == 0;
            if ok {
                send(&[TRACED, 0, 0, 0, 0, 0]);
            }
            cont(0);
            return ok;
        }
        if event == libc::PTRACE_EVENT_CLONE {
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
            if threads.ended || !threads.exit_ends_program(pid, tid, threads::syscall_of(tid)) {
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
                libc::kill(-1, libc::SIGKILL);
            }
            cont(0);
            return traced;
        }
        if event == libc::PTRACE_EVENT_EXEC {
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

/// The program: a session of its own (so no controlling terminal), traced by the keeper where
/// the system allows, its limits, then `execve`.
///
/// # Safety
///
/// Runs in the child of a fork: async-signal-safe calls only.
unsafe fn program(plan: &Plan<'_>) -> ! {
    // Safety: system calls on prepared data, then execve or _exit.
    unsafe {
        libc::setsid();
        // A root judge's program: a user namespace of its own, whose maps the keeper writes
        // at the stop below.
        if plan.program_user.is_some() && libc::unshare(libc::CLONE_NEWUSER) != 0 {
            send(&[SETUP_FAILED, errno(), USER_STEP, 0, 0, 0]);
            libc::_exit(127);
        }
        #[cfg(target_os = "linux")]
        if libc::ptrace(libc::PTRACE_TRACEME, 0, 0usize, 0usize) == 0 {
            // The keeper sets the tracing up at this stop.
            libc::kill(libc::getpid(), libc::SIGSTOP);
        }
        libc::close(4);
        if plan.program_user.is_some() {
            // Root of its namespace, the unprivileged user outside, and no group of the
            // judge's.
            if !become_root_of_namespace() {
                send(&[SETUP_FAILED, errno(), USER_STEP, 0, 0, 0]);
                libc::_exit(127);
            }
            if let Some((processes, _)) = plan.nproc {
                let limit = libc::rlimit {
                    rlim_cur: processes,
                    rlim_max: processes,
                };
                if libc::setrlimit(libc::RLIMIT_NPROC, &limit) != 0 {
                    send(&[SETUP_FAILED, errno(), NPROC_STEP, 0, 0, 0]);
                    libc::_exit(127);
                }
            }
        }
        if let Some((processes, maps)) = plan.nproc.filter(|_| plan.program_user.is_none()) {
            // Dumpable again to write its maps (its memory is the program's from its execve).
            libc::prctl(libc::PR_SET_DUMPABLE, 1 as libc::c_ulong);
            // A user namespace of the program's own: RLIMIT_NPROC then counts the processes
            // of this run alone, not every process of the user.
            let limit = libc::rlimit {
                rlim_cur: processes,
                rlim_max: processes,
            };
            if libc::unshare(libc::CLONE_NEWUSER) != 0
                || !maps.write()
                || libc::setrlimit(libc::RLIMIT_NPROC, &limit) != 0
            {
                send(&[SETUP_FAILED, errno(), NPROC_STEP, 0, 0, 0]);
                libc::_exit(127);
            }
        }
        #[cfg(target_os = "linux")]
        if plan.no_capabilities {
            // Every capability out of the bounding set, so that not even a root program has
            // one after its execve, and none to be gained through a setuid file.
            for cap in 0..64 {
                if libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong) != 0
                    && io::Error::last_os_error().raw_os_error() != Some(libc::EINVAL)
                {
                    send(&[SETUP_FAILED, errno(), CAPABILITIES_STEP, 0, 0, 0]);
                    libc::_exit(127);
                }
            }
            libc::prctl(
                libc::PR_SET_NO_NEW_PRIVS,
                1 as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
                0 as libc::c_ulong,
            );
        }
        for (i, (resource, soft, hard)) in plan.rlimits.iter().enumerate() {
            let limit = libc::rlimit {
                rlim_cur: *soft,
                rlim_max: *hard,
            };
            if libc::setrlimit(*resource, &limit) != 0 {
                send(&[SETUP_FAILED, errno(), 10 + i as i64, 0, 0, 0]);
                libc::_exit(127);
            }
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
        libc::_exit(127)
    }
}

/// Closes every descriptor from `first` on.
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

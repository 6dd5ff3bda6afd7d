//! Running a contestant's program on one input under a judge's limits, and naming what
//! happened as a judge does ([`Verdict`]).
//!
//! Every process a run starts ends with the run, whatever it does (a new session or process
//! group, a double fork, signals ignored): [`run`] starts a keeper process that holds the run
//! in a PID namespace where the kernel allows one without privileges (a user namespace), or
//! is a child subreaper that every orphan of the run comes back to, and puts it in a cgroup v2
//! of its own where one can be made ([`Layers`], [`Containment`]). The program is the
//! keeper's child, with its limits set before it executes (`setrlimit`: CPU time, address
//! space, file size).
//!
//! One thread per run does everything, with `poll`: it feeds the input, reads standard
//! output and standard error, and learns from the keeper when the program has exited and been
//! reaped. The verdict is made from what the program wrote before it exited: a process it
//! left behind that holds its standard output open is killed with the rest, and cannot turn a
//! right answer into a wrong one nor make the run wait. No thread and no descriptor outlives
//! the run.
//!
//! Limits: the CPU time decides the time limit (`TLE`), watched while the program runs, so
//! that a program under its limit is never stopped because other runs share the cores. The
//! wall clock only stops a program that waits or sleeps: past [`Limits::wall`], a run that
//! was running or ready to run (waiting for a core) less than a quarter of the last second
//! is stopped, "idle too long" (`ILE`). Time spent waiting for a core counts as activity, so
//! the load of the machine cannot make a computing program idle.
//!
//! The keeper traces the program (where the system allows it) and stops it at its exit,
//! before its children are reparented: its own peak memory is measured then, and every other
//! process of the run is killed before it is let go, so that nothing written after the exit
//! counts. With a PID namespace the run may also be sandboxed ([`Layers::sandboxed`], the
//! parts in [`crate::judge::sandbox`]). Unix only; the namespace, the subreaper and the cgroup
//! are Linux's, elsewhere a process group.
//!
//! ```no_run
//! use chess_puzzles::judge::run::{run, Containment, Limits, Program};
//!
//! let program = Program::new("cat", Vec::<String>::new()).resolve().unwrap();
//! let layers = Containment::Auto.layers().unwrap();
//! let outcome = run(&program, b"1\n1 1\n", &Limits::default(), &layers, None).unwrap();
//! assert_eq!(outcome.stdout, b"1\n1 1\n");
//! assert!(outcome.limit_verdict(&Limits::default()).is_none());
//! ```

mod cgroup;
mod layers;
mod live;
#[cfg(target_os = "linux")]
mod procfs;
mod program;
mod spawn;
mod stderr;
#[cfg(target_os = "linux")]
mod threads;
mod verdict;

use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

pub use program::{Program, Resolved, StartError, View};

use crate::judge::sandbox::{self, Parts, SandboxError, SandboxMode, SandboxOptions};
pub use layers::{Containment, ContainmentError, Layers};
pub use live::kill_all;
use live::*;
pub use stderr::error_line;
pub use verdict::{Exit, Killed, Outcome, Verdict};

/// The user and group of the host a root judge's program runs as (in a user namespace of
/// its own): the overflow id, `nobody`, which owns no file of the host's.
pub const PROGRAM_USER: u32 = 65534;

/// How often a running program is looked at for its limits and a request to stop.
const POLL: Duration = Duration::from_millis(10);

/// How much of standard error is kept: its first and its last half of this.
pub const STDERR_KEPT: usize = 64 * 1024;

/// The share of the time, running or ready to run, below which a run past its wall-clock limit
/// counts as idle.
const BUSY_SHARE: f64 = 0.25;

/// A judge's limits on one run.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Limits {
    /// CPU time (user and system) of the program and the processes it started: over it, the
    /// run is stopped and judged time limit exceeded. The kernel also stops each process at
    /// the next whole second above it (`RLIMIT_CPU`).
    pub cpu: Duration,
    /// The idle limit: past this much wall-clock time, a run that is not computing (neither
    /// running nor waiting for a core most of the time) is stopped (idleness limit exceeded).
    /// A run that computes goes on until its CPU time runs out, whatever the load of the
    /// machine.
    pub wall: Duration,
    /// Memory in bytes, or none: the memory the run's processes use together (a memory
    /// cgroup's limit where one can be made; otherwise each process's data, `RLIMIT_DATA`,
    /// and the run's resident memory, watched).
    pub memory: Option<u64>,
    /// Bytes of standard output (and of any file written, `RLIMIT_FSIZE`).
    pub output: u64,
}

impl Limits {
    /// The usual limits for a CPU time `cpu`: the wall-clock (idle) limit twice the CPU time,
    /// the memory and output limits in MiB.
    pub fn new(cpu: Duration, memory_mib: Option<u64>, output_mib: u64) -> Limits {
        Limits {
            cpu,
            wall: cpu.saturating_mul(2),
            memory: memory_mib.map(|m| m.saturating_mul(1 << 20)),
            output: output_mib.saturating_mul(1 << 20),
        }
    }

    /// The wall-clock time after which a run is stopped even while it computes: ten times
    /// the longer of the two limits, and 10 s more.
    pub fn hard_wall(&self) -> Duration {
        self.cpu
            .max(self.wall)
            .saturating_mul(10)
            .saturating_add(Duration::from_secs(10))
    }
}

impl Default for Limits {
    /// 2 s of CPU time (4 s of wall-clock time), 256 MiB of memory, 64 MiB of output.
    fn default() -> Limits {
        Limits::new(Duration::from_secs(2), Some(256), 64)
    }
}

/// Reads what `fd` holds now (non-blocking) into `sink`, at most `budget` bytes in this call.
/// Returns false once the pipe is closed (end of file or an error).
fn read_now(fd: &OwnedFd, budget: usize, mut sink: impl FnMut(&[u8])) -> bool {
    let mut buffer = [0u8; 1 << 16];
    let mut taken = 0;
    while taken < budget {
        // Safety: read writes at most the buffer's length into the buffer.
        let n = unsafe { libc::read(fd.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
        if n > 0 {
            sink(&buffer[..n as usize]);
            taken += n as usize;
            continue;
        }
        if n == 0 {
            return false;
        }
        return match io::Error::last_os_error().kind() {
            io::ErrorKind::Interrupted => continue,
            io::ErrorKind::WouldBlock => true,
            _ => false,
        };
    }
    true
}

/// Runs `program` on `input` under `limits`, held by `layers` (see [`Containment::layers`]),
/// and returns what it did. `stop`, when raised (Ctrl-C), kills the run at once
/// ([`Killed::Stopped`]).
///
/// Fails only when the program cannot be started (its `execve` fails, the system refuses a
/// pipe or a process); whatever the program does is an [`Outcome`].
pub fn run(
    program: &Resolved,
    input: &[u8],
    limits: &Limits,
    layers: &Layers,
    stop: Option<&AtomicBool>,
) -> Result<Outcome, StartError> {
    let name = || program.program.path.to_string_lossy().into_owned();
    let io_error = |error: io::Error| StartError::Io {
        program: name(),
        error,
    };
    // With a cgroup's limit on the memory used, the memory of each process is the cgroup's
    // business.
    let rlimits = if layers.sandbox.memory_cgroup {
        rlimits(&Limits {
            memory: None,
            ..*limits
        })
    } else {
        rlimits(limits)
    };
    let prepared = prepare(program, layers, limits).map_err(io_error)?;
    let env = runtime_env(program, limits);
    let setup = spawn::Setup {
        env: &env,
        steps: prepared.steps.as_ref(),
        network: layers.sandbox.network,
        ipc: layers.sandbox.ipc,
        groups: prepared.group_procs,
        nproc: layers
            .sandbox
            .nproc
            .then_some(libc::rlim_t::from(layers.processes)),
        no_capabilities: layers.sandbox.files,
        // A root judge's program (an ordinary user's is that user already).
        program_user: (layers.sandbox.user && !layers.user_namespace)
            .then(|| spawn::ProgramUser::new(PROGRAM_USER, PROGRAM_USER)),
        #[cfg(all(target_os = "linux", target_pointer_width = "64"))]
        seccomp: layers
            .sandbox
            .seccomp
            .then(|| {
                sandbox::seccomp::filters(sandbox::seccomp::Choices {
                    unix_sockets: !layers.sandbox.unix_sockets_opened,
                    memfd: !layers.sandbox.memory_cgroup,
                })
            })
            .flatten(),
    };
    let started = Instant::now();
    let mut child =
        spawn::spawn(program, &rlimits, layers, &setup, prepared.cgroup).map_err(io_error)?;
    drop(setup);
    let registered = Registered::new(
        child.keeper,
        layers.pid_namespace,
        child.cgroup.as_ref().map(|c| c.path().to_path_buf()),
    );
    let mut state = State {
        out: Vec::new(),
        err: stderr::Kept::new(STDERR_KEPT),
        stdout_open: true,
        stderr_open: true,
        status_open: true,
        report: Vec::new(),
        inner_pid: None,
        program_pid: 0,
        exec_error: None,
        setup_step: None,
        exited: None,
        killed: None,
        killed_at: None,
        samples: vec![(started, Duration::ZERO)],
        last_cpu: None,
        exiting: false,
        executed: false,
        program_peak: 0,
        run_peak: 0,
        signal_code: None,
        seen: Vec::new(),
    };
    let mut written = 0usize;
    if input.is_empty() {
        child.stdin = None;
    }
    let mut next_sample = started;
    while state.status_open && state.exited.is_none() {
        let mut fds = Vec::with_capacity(4);
        let mut push = |fd: &OwnedFd, events: libc::c_short| {
            fds.push(libc::pollfd {
                fd: fd.as_raw_fd(),
                events,
                revents: 0,
            })
        };
        push(&child.status, libc::POLLIN);
        if state.stdout_open {
            push(&child.stdout, libc::POLLIN);
        }
        if state.stderr_open {
            push(&child.stderr, libc::POLLIN);
        }
        if let Some(stdin) = &child.stdin {
            push(stdin, libc::POLLOUT);
        }
        // Safety: poll reads and writes the array of pollfd it is given, of the length given.
        let ready = unsafe {
            libc::poll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                POLL.as_millis() as libc::c_int,
            )
        };
        if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return Err(io_error(io::Error::last_os_error()));
        }
        if state.stdout_open {
            state.read_stdout(&child.stdout, limits.output, 4 << 20);
            if state.killed == Some(Killed::Output) {
                kill_program(state.program_pid);
                if state.program_pid == 0 {
                    kill_keeper(&child, layers);
                }
            }
        }
        if state.stderr_open {
            state.stderr_open = read_now(&child.stderr, 1 << 20, |b| state.err.push(b));
        }
        if let Some(stdin) = &child.stdin {
            match feed(stdin, &input[written..]) {
                Some(n) => {
                    written += n;
                    if written == input.len() {
                        child.stdin = None;
                    }
                }
                None => child.stdin = None,
            }
        }
        state.read_reports(&child.status);
        if state.exiting {
            state.at_exit(&mut child, layers, &registered);
        }
        if state.exited.is_some() {
            break;
        }
        if state.program_pid == 0 {
            state.find_program(child.keeper, layers, &registered);
        }
        let now = Instant::now();
        if state.killed.is_none() {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                state.kill(Killed::Stopped, &child, layers);
            } else if now >= next_sample {
                next_sample = now + Duration::from_millis(20);
                state.watch(now, started, limits, &child, layers);
            }
        } else if state
            .killed_at
            .is_some_and(|t| now.duration_since(t) > Duration::from_secs(2))
        {
            // The program does not die (it is stuck in the kernel, or was not found): end the
            // keeper, and with it the run.
            kill_keeper(&child, layers);
        }
    }
    let wall = started.elapsed();
    if state.exited.is_none() && state.killed.is_none() && state.exec_error.is_none() {
        // The keeper is gone without a word: killed. The program dies with it (it is traced
        // with PTRACE_O_EXITKILL, or in its namespace); what it started outside a namespace
        // and a cgroup is ended by the pids last seen.
        state.killed = Some(Killed::KeeperLost);
        kill_program(state.program_pid);
        for pid in &state.seen {
            kill_program(*pid);
        }
    }
    // Everything the program left behind goes now, before its pipes are drained: what they
    // hold then is what it wrote.
    if let Some(cgroup) = &child.cgroup {
        cgroup.kill();
    }
    reap_keeper(&child, layers);
    drop(registered);
    if state.stdout_open {
        state.read_stdout(&child.stdout, limits.output, usize::MAX);
    }
    if state.stderr_open {
        read_now(&child.stderr, usize::MAX, |b| state.err.push(b));
    }
    state.read_reports(&child.status);
    if let Some(errno) = state.exec_error {
        let error = io::Error::from_raw_os_error(errno);
        let step = match state.setup_step {
            Some(step) if step >= spawn::SANDBOX_STEP => prepared
                .steps
                .as_ref()
                .map(|s| s.describe((step - spawn::SANDBOX_STEP) as usize)),
            Some(spawn::LOOPBACK_STEP) => Some("bringing its loopback network up".to_string()),
            Some(spawn::NPROC_STEP) => {
                Some("setting its process limit in a user namespace".to_string())
            }
            Some(1 | 2) => Some("joining the run's cgroup".to_string()),
            Some(spawn::CAPABILITIES_STEP) => Some("dropping its capabilities".to_string()),
            Some(spawn::USER_STEP) => Some(format!(
                "running it as the unprivileged user {PROGRAM_USER} in a user namespace"
            )),
            Some(spawn::SECCOMP_STEP) => Some("installing its seccomp filter".to_string()),
            _ => None,
        };
        return Err(match step {
            Some(step) => StartError::Sandbox {
                program: name(),
                step,
                error,
            },
            None => io_error(error),
        });
    }
    // A process of the run the kernel killed for passing the memory limit: the run passed it
    // (the program may still have answered).
    let oom_killed = child
        .cgroup
        .as_ref()
        .and_then(|c| c.oom_kills())
        .unwrap_or(0)
        > 0
        || prepared.groups.iter().any(|g| {
            g.read_text("memory.oom_control")
                .and_then(|t| cgroup::keyed(&t, "oom_kill"))
                .unwrap_or(0)
                > 0
        });
    if oom_killed && state.killed.is_none() {
        state.killed = Some(Killed::Memory);
    }
    let stderr = std::mem::replace(&mut state.err, stderr::Kept::new(0)).into_bytes();
    // The process limit reached: the pids cgroup counts refusals; under RLIMIT_NPROC the
    // runtime's words say it.
    let refusals = |text: Option<String>| text.and_then(|t| cgroup::keyed(&t, "max")).unwrap_or(0);
    let limit_reached = child.cgroup.as_ref().is_some_and(|c| c.pids_refused() > 0)
        || prepared
            .groups
            .iter()
            .any(|g| refusals(g.read_text("pids.events")) > 0)
        || (layers.sandbox.nproc && {
            let said = String::from_utf8_lossy(&stderr);
            verdict::NO_MORE_PROCESSES.iter().any(|m| said.contains(m))
        });
    let process_limit_reached = limit_reached.then_some(layers.processes);
    let cpu_tree = child.cgroup.as_ref().and_then(|c| c.cpu());
    let peak_tree = child
        .cgroup
        .as_ref()
        .and_then(|c| c.peak_memory())
        .or_else(|| {
            prepared
                .groups
                .iter()
                .find_map(|g| g.read("memory.max_usage_in_bytes"))
        });
    drop(child);
    let (exit, used) = match state.exited {
        Some((status, used)) => (decode(status), used),
        // The keeper was killed before it could report (Ctrl-C, a second limit).
        None => (Exit::Signal(libc::SIGKILL), [0; 3]),
    };
    let reaped = Duration::from_micros((used[0].max(0) + used[1].max(0)) as u64);
    let cpu = [Some(reaped), cpu_tree, state.last_cpu]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or_default();
    let peak =
        (used[2].max(0) as u64).saturating_mul(if cfg!(target_os = "macos") { 1 } else { 1024 });
    let peak = peak.max(state.program_peak).max(state.run_peak);
    Ok(Outcome {
        exit,
        killed: state.killed,
        cpu,
        wall,
        peak_memory: peak.max(peak_tree.unwrap_or(0)),
        stdout: state.out,
        stderr,
        signal_code: match exit {
            Exit::Signal(_) => state.signal_code,
            Exit::Code(_) => None,
        },
        process_limit_reached,
    })
}

/// What one run's sandbox needs made before it starts: its cgroup (with its process and
/// memory limits where the cgroup v2 has those controllers), cgroup v1 groups otherwise, its
/// folder and the steps of its file system. Whatever is made goes when this is dropped.
#[derive(Default)]
struct Prepared {
    cgroup: Option<(cgroup::Cgroup, OwnedFd)>,
    groups: Vec<sandbox::groups::Group>,
    group_procs: Vec<OwnedFd>,
    steps: Option<sandbox::mounts::Steps>,
    scratch: Option<sandbox::scratch::Scratch>,
}

fn prepare(program: &Resolved, layers: &Layers, limits: &Limits) -> io::Result<Prepared> {
    use std::path::Path;
    let parts = layers.sandbox;
    let mut prepared = Prepared::default();
    let processes = layers.processes.to_string();
    let memory = limits.memory.map(|m| m.to_string());
    let mut v2_pids = false;
    let mut v2_memory = false;
    if layers.cgroup {
        let created = cgroup::Cgroup::create(
            parts.pids_cgroup.then_some(processes.as_str()),
            memory.as_deref().filter(|_| parts.memory_cgroup),
        )?;
        v2_pids = created.pids;
        v2_memory = created.memory;
        prepared.cgroup = Some((created.cgroup, created.procs));
    }
    let mut v1 = |controller: &str, settings: &[(&str, String)]| -> io::Result<()> {
        let (group, procs) = sandbox::groups::Group::create(controller, settings)
            .ok_or_else(|| io::Error::other(format!("no {controller} cgroup can be made")))?;
        prepared.groups.push(group);
        prepared.group_procs.push(procs);
        Ok(())
    };
    if parts.pids_cgroup && !v2_pids {
        v1("pids", &[("pids.max", processes.clone())])?;
    }
    if parts.memory_cgroup
        && !v2_memory
        && let Some(memory) = &memory
    {
        v1("memory", &[("memory.limit_in_bytes", memory.clone())])?;
    }
    if parts.files {
        let scratch = sandbox::scratch::Scratch::create()?;
        let mut steps = sandbox::mounts::Steps::new(&scratch.root());
        // The scratch first: the folders shown may lie under /tmp, over it. Its files are
        // memory: as much as the memory limit (counted in the run's memory cgroup where it
        // has one), half the machine's without a limit.
        let size = limits
            .memory
            .map_or("50%".to_string(), |m| m.max(1 << 20).to_string());
        steps.scratch(Path::new("/tmp"), &size);
        for dir in sandbox::SYSTEM {
            if std::fs::symlink_metadata(dir).is_ok() {
                steps.bind(Path::new(dir), false);
            }
        }
        let view = program.view();
        for (dir, _) in &view.shown {
            steps.bind(dir, false);
        }
        steps.devices();
        steps.scratch(Path::new("/dev/shm"), &size);
        for hidden in &view.hidden {
            if sandbox::visible(hidden, &view.shown, &[]) {
                steps.hide(hidden);
            }
        }
        if parts.proc {
            steps.proc();
        }
        steps.enter(view.cwd.as_deref().unwrap_or(Path::new("/tmp")));
        prepared.steps = Some(steps);
        prepared.scratch = Some(scratch);
    }
    Ok(prepared)
}

/// What the program's runtime is told of its limits, as it would be in a container of that
/// size: a JVM sizes its heap from the memory it is given (`-XX:MaxRAM`; three quarters of
/// it for the heap at most, as a judge's `-Xmx` would) rather than from the machine's,
/// unless the program's environment already says (`--env JAVA_TOOL_OPTIONS=...`).
fn runtime_env(program: &Resolved, limits: &Limits) -> Vec<std::ffi::CString> {
    let Some(memory) = limits.memory else {
        return Vec::new();
    };
    if program.env_var("JAVA_TOOL_OPTIONS").is_some() {
        return Vec::new();
    }
    std::ffi::CString::new(format!(
        "JAVA_TOOL_OPTIONS=-XX:MaxRAM={memory} -XX:MaxRAMPercentage=75"
    ))
    .into_iter()
    .collect()
}

/// The limits set in the program: CPU time (the next whole second above the limit, and one
/// more for the hard limit, which kills), its data (the private memory it may write: what
/// it uses, not the address space it reserves, which a JVM or V8 reserve by gigabytes),
/// file size; none above the judge's own hard limits.
fn rlimits(limits: &Limits) -> spawn::Rlimits {
    let hard = |resource: spawn::Resource| {
        let mut l = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // Safety: getrlimit writes into the struct it is given.
        if unsafe { libc::getrlimit(resource, &mut l) } == 0 {
            l.rlim_max
        } else {
            libc::RLIM_INFINITY
        }
    };
    let clamp = |resource, soft: libc::rlim_t, hard_wanted: libc::rlim_t| {
        let max = hard(resource);
        (resource, soft.min(max), hard_wanted.min(max))
    };
    // A second above the judge's own limit, which the run's CPU time reaches first however
    // many threads spend it: the kernel's SIGXCPU is a last resort.
    let cpu_seconds = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0) + 1;
    let cpu_seconds = cpu_seconds as libc::rlim_t;
    let memory = limits
        .memory
        .map_or(libc::RLIM_INFINITY, |m| m as libc::rlim_t);
    let file_size = limits.output.saturating_add(1) as libc::rlim_t;
    [
        clamp(libc::RLIMIT_CPU, cpu_seconds, cpu_seconds.saturating_add(1)),
        clamp(libc::RLIMIT_DATA, memory, memory),
        clamp(libc::RLIMIT_FSIZE, file_size, file_size),
    ]
}

/// Writes what `stdin` takes now of `rest`: the bytes written, or `None` once the program
/// closed its standard input.
fn feed(stdin: &OwnedFd, rest: &[u8]) -> Option<usize> {
    if rest.is_empty() {
        return Some(0);
    }
    let chunk = &rest[..rest.len().min(1 << 16)];
    // Safety: write reads at most the chunk's length from the chunk.
    let n = unsafe { libc::write(stdin.as_raw_fd(), chunk.as_ptr().cast(), chunk.len()) };
    if n >= 0 {
        return Some(n as usize);
    }
    match io::Error::last_os_error().kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Some(0),
        _ => None,
    }
}

fn decode(status: i64) -> Exit {
    let status = status as libc::c_int;
    if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

/// Kills the keeper itself (and, in a namespace, the whole run with it).
fn kill_keeper(child: &spawn::Child, layers: &Layers) {
    if let Some(cgroup) = &child.cgroup {
        cgroup.kill();
    }
    if !layers.pid_namespace {
        sweep(child.keeper, Duration::from_millis(200));
    }
    // Safety: kill sends a signal to this run's keeper.
    unsafe {
        libc::kill(child.keeper, libc::SIGKILL);
    }
}

/// Ends the keeper once the program is gone: in a namespace the keeper exits by itself and the
/// kernel kills the rest; otherwise every child of the keeper is killed until it has none and
/// exits. Then the keeper is reaped.
fn reap_keeper(child: &spawn::Child, layers: &Layers) {
    let reaped = |blocking: bool| {
        let mut status = 0;
        loop {
            let flags = if blocking { 0 } else { libc::WNOHANG };
            // Safety: waitpid writes the status of this run's keeper.
            let r = unsafe { libc::waitpid(child.keeper, &mut status, flags) };
            if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return r != 0;
        }
    };
    if layers.pid_namespace {
        reaped(true);
        return;
    }
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        if reaped(false) {
            return;
        }
        if Instant::now() >= until {
            // Safety: kill sends a signal to this run's keeper.
            unsafe {
                libc::kill(child.keeper, libc::SIGKILL);
            }
            reaped(true);
            return;
        }
        sweep(child.keeper, Duration::from_millis(50));
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Where a run stands, for its loop.
struct State {
    out: Vec<u8>,
    err: stderr::Kept,
    stdout_open: bool,
    stderr_open: bool,
    status_open: bool,
    /// Bytes of the keeper's reports not yet whole.
    report: Vec<u8>,
    inner_pid: Option<libc::pid_t>,
    /// The program's pid as the judge sees it (0: not known yet).
    program_pid: libc::pid_t,
    exec_error: Option<i32>,
    /// The step of the run's setup that failed, when one did.
    setup_step: Option<i64>,
    exited: Option<(i64, [i64; 3])>,
    killed: Option<Killed>,
    killed_at: Option<Instant>,
    /// `(time, activity)` of the run, sampled while it runs, the last second of them: the
    /// activity is the CPU time and the time spent waiting for a core.
    samples: Vec<(Instant, Duration)>,
    last_cpu: Option<Duration>,
    /// The program stopped at its exit and waits for the judge's word.
    exiting: bool,
    /// The program has executed (it is traced): its resident peak is its own from then on,
    /// before it a copy of the judge's.
    executed: bool,
    /// The program's own peak resident memory, measured while it ran and at its exit.
    program_peak: u64,
    /// The most memory the run's processes used together, sampled while it ran (where no
    /// memory cgroup measures it).
    run_peak: u64,
    /// The `si_code` of the last signal that reached the program.
    signal_code: Option<i32>,
    /// The program's processes last seen (outside a namespace), to end them should the
    /// keeper be killed.
    seen: Vec<libc::pid_t>,
}

impl State {
    fn read_stdout(&mut self, fd: &OwnedFd, limit: u64, budget: usize) {
        let limit = usize::try_from(limit).unwrap_or(usize::MAX);
        let mut over = false;
        self.stdout_open = read_now(fd, budget, |bytes| {
            let room = limit.saturating_sub(self.out.len());
            self.out.extend_from_slice(&bytes[..bytes.len().min(room)]);
            over |= bytes.len() > room;
        });
        if over {
            self.stdout_open = false;
            if self.killed.is_none() {
                self.killed = Some(Killed::Output);
                self.killed_at = Some(Instant::now());
            }
        }
    }

    fn read_reports(&mut self, fd: &OwnedFd) {
        if !self.status_open {
            return;
        }
        let report = &mut self.report;
        self.status_open = read_now(fd, usize::MAX, |b| report.extend_from_slice(b));
        while self.report.len() >= spawn::MESSAGE_BYTES {
            let mut message = [0i64; 6];
            for (i, word) in message.iter_mut().enumerate() {
                let mut bytes = [0u8; 8];
                bytes.copy_from_slice(&self.report[i * 8..i * 8 + 8]);
                *word = i64::from_ne_bytes(bytes);
            }
            self.report.drain(..spawn::MESSAGE_BYTES);
            match message[0] {
                spawn::STARTED => self.inner_pid = Some(message[1] as libc::pid_t),
                spawn::EXEC_FAILED => self.exec_error = Some(message[1] as i32),
                spawn::SETUP_FAILED => {
                    self.exec_error = Some(message[1] as i32);
                    self.setup_step = Some(message[2]);
                }
                spawn::EXITED => {
                    self.exited = Some((message[1], [message[3], message[4], message[5]]));
                }
                spawn::TRACED => {}
                spawn::EXITING => self.exiting = true,
                spawn::SIGNALLED => self.signal_code = Some(message[2] as i32),
                spawn::EXECUTED => self.executed = true,
                _ => {}
            }
        }
    }

    /// Finds the program's pid as the judge sees it: the keeper's report outside a namespace,
    /// the keeper's child with that pid inside one otherwise.
    fn find_program(&mut self, keeper: libc::pid_t, layers: &Layers, registered: &Registered) {
        let Some(inner) = self.inner_pid else {
            return;
        };
        #[cfg(target_os = "linux")]
        let found = if layers.pid_namespace {
            procfs::outer_pid(keeper, inner)
        } else {
            Some(inner)
        };
        #[cfg(not(target_os = "linux"))]
        let found = {
            let _ = (keeper, layers);
            Some(inner)
        };
        if let Some(pid) = found {
            self.program_pid = pid;
            registered.set_program(pid);
        }
    }

    /// The program stopped at its exit, before its children are reparented: its memory is
    /// measured, every other process of the run is killed (in a namespace, by the keeper when
    /// let go), and it is let go. Nothing the run writes from now on is the program's output.
    fn at_exit(&mut self, child: &mut spawn::Child, layers: &Layers, registered: &Registered) {
        self.exiting = false;
        if self.program_pid == 0 {
            self.find_program(child.keeper, layers, registered);
        }
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            if self.executed
                && let Some(peak) = procfs::peak_resident(self.program_pid)
            {
                self.program_peak = self.program_peak.max(peak);
            }
            if !layers.pid_namespace {
                kill_others(child, self.program_pid);
            }
        }
        if let Some(go) = child.go.take() {
            // Safety: write reads one byte from a constant.
            unsafe {
                libc::write(go.as_raw_fd(), b"g".as_ptr().cast(), 1);
            }
        }
    }

    fn kill(&mut self, why: Killed, child: &spawn::Child, layers: &Layers) {
        self.killed = Some(why);
        self.killed_at = Some(Instant::now());
        if self.program_pid > 0 {
            kill_program(self.program_pid);
        } else {
            kill_keeper(child, layers);
        }
    }

    /// The run's CPU time now, and its activity (the CPU time and the time spent waiting for
    /// a core): the cgroup's, or the program's process tree's.
    fn cpu_now(&self, child: &spawn::Child, layers: &Layers) -> Option<(Duration, Duration)> {
        if let Some(cgroup) = &child.cgroup
            && let Some(cpu) = cgroup.cpu()
        {
            return Some((cpu, cpu + cgroup.waiting().unwrap_or_default()));
        }
        // In a namespace, every process of the run is below the keeper (those the program
        // left to it too, and what the keeper reaped); otherwise the program's tree.
        #[cfg(target_os = "linux")]
        if layers.pid_namespace && self.executed {
            let cpu = procfs::tree_cpu(child.keeper, false)?;
            return Some((cpu, cpu + procfs::tree_waiting(child.keeper)));
        }
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            let cpu = procfs::tree_cpu(self.program_pid, true)?;
            return Some((cpu, cpu + procfs::tree_waiting(self.program_pid)));
        }
        None
    }

    /// The memory the run uses now, where no memory cgroup limits it: every process below
    /// the keeper in a namespace, the program's tree otherwise (after the program executed:
    /// before, its memory is a copy of the judge's).
    #[cfg(target_os = "linux")]
    fn memory_now(&self, child: &spawn::Child, layers: &Layers) -> Option<u64> {
        if layers.sandbox.memory_cgroup || !self.executed || self.program_pid <= 0 {
            return None;
        }
        Some(if layers.pid_namespace {
            procfs::tree_memory(child.keeper, false)
        } else {
            procfs::tree_memory(self.program_pid, true)
        })
    }

    /// The limits, looked at while the program runs.
    fn watch(
        &mut self,
        now: Instant,
        started: Instant,
        limits: &Limits,
        child: &spawn::Child,
        layers: &Layers,
    ) {
        let measured = self.cpu_now(child, layers);
        #[cfg(target_os = "linux")]
        if let Some(used) = self.memory_now(child, layers) {
            self.run_peak = self.run_peak.max(used);
            if limits.memory.is_some_and(|m| used > m) {
                self.kill(Killed::Memory, child, layers);
                return;
            }
        }
        let activity = measured.map(|m| m.1);
        #[cfg(target_os = "linux")]
        if self.program_pid > 0 {
            if self.executed
                && let Some(peak) = procfs::peak_resident(self.program_pid)
            {
                self.program_peak = self.program_peak.max(peak);
            }
            if !layers.pid_namespace && child.cgroup.is_none() {
                self.seen = procfs::descendants(self.program_pid);
                self.seen.push(self.program_pid);
            }
        }
        if let Some((cpu, activity)) = measured {
            self.last_cpu = Some(cpu);
            self.samples.push((now, activity));
            let keep_from = now.checked_sub(Duration::from_secs(1)).unwrap_or(started);
            let first_kept = self
                .samples
                .iter()
                .position(|&(t, _)| t >= keep_from)
                .unwrap_or(0);
            // Keep one sample at least a second old, to measure the last second against.
            self.samples.drain(..first_kept.saturating_sub(1));
            if cpu > limits.cpu {
                self.kill(Killed::CpuTime, child, layers);
                return;
            }
        }
        let elapsed = now.duration_since(started);
        if elapsed >= limits.hard_wall() {
            self.kill(Killed::Idle, child, layers);
            return;
        }
        if elapsed < limits.wall {
            return;
        }
        // The share of the last second (or of the run so far) it was running or ready to run.
        let busy = match (self.samples.first(), activity) {
            (Some(&(then, active_then)), Some(active)) if now > then => {
                let share = (active.saturating_sub(active_then)).as_secs_f64()
                    / now.duration_since(then).as_secs_f64();
                share >= BUSY_SHARE
            }
            // Its CPU time cannot be measured here: the wall-clock limit decides alone.
            _ => false,
        };
        if !busy {
            self.kill(Killed::Idle, child, layers);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Resolved {
        Program::new("sh", vec!["-c", script]).resolve().unwrap()
    }

    fn limits() -> Limits {
        Limits::new(Duration::from_millis(500), Some(256), 1)
    }

    /// Every containment this machine allows.
    fn every_layers() -> Vec<Layers> {
        [
            Containment::Auto,
            Containment::Namespace,
            Containment::Cgroup,
            Containment::Subreaper,
        ]
        .into_iter()
        .filter_map(|c| c.layers().ok())
        .collect()
    }

    fn go(script: &str, input: &[u8], limits: &Limits, layers: &Layers) -> Outcome {
        run(&sh(script), input, limits, layers, None).unwrap()
    }

    #[test]
    fn output_comes_back_and_a_clean_exit_has_no_limit_verdict() {
        for layers in every_layers() {
            let o = go("cat; echo done", b"abc\n", &limits(), &layers);
            assert_eq!(o.stdout, b"abc\ndone\n", "{layers}");
            assert_eq!(o.exit, Exit::Code(0));
            assert_eq!(o.limit_verdict(&limits()), None);
        }
    }

    #[test]
    fn exit_codes_and_signals_are_runtime_errors() {
        for layers in every_layers() {
            let o = go("exit 3", b"", &limits(), &layers);
            assert_eq!(o.exit, Exit::Code(3));
            assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
            let o = go("kill -SEGV $$", b"", &limits(), &layers);
            assert_eq!(o.exit, Exit::Signal(libc::SIGSEGV), "{layers}");
            assert_eq!(o.exit_text(), "signal 11 (SIGSEGV)");
            assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
        }
    }

    #[test]
    fn a_sleeper_is_idle_too_long_and_killed_with_its_children() {
        for layers in every_layers() {
            let started = Instant::now();
            let o = go("sleep 30 & sleep 30", b"", &limits(), &layers);
            assert!(started.elapsed() < Duration::from_secs(3), "{layers}");
            assert_eq!(o.killed, Some(Killed::Idle));
            assert_eq!(o.limit_verdict(&limits()), Some(Verdict::IdleLimit));
        }
    }

    #[test]
    fn a_busy_loop_is_a_time_limit_by_cpu_time() {
        for layers in every_layers() {
            let o = go("while :; do :; done", b"", &limits(), &layers);
            assert_eq!(o.killed, Some(Killed::CpuTime), "{layers}");
            assert!(o.cpu >= Duration::from_millis(500), "{:?}", o.cpu);
            assert!(o.wall < Duration::from_secs(3), "{:?}", o.wall);
            assert_eq!(o.limit_verdict(&limits()), Some(Verdict::TimeLimit));
        }
    }

    #[test]
    fn a_detached_child_holding_stdout_neither_stalls_nor_spoils_the_output() {
        for layers in every_layers() {
            let started = Instant::now();
            let o = go(
                "echo answer; setsid sh -c 'sleep 30' & echo more",
                b"",
                &limits(),
                &layers,
            );
            assert!(
                started.elapsed() < Duration::from_millis(900),
                "{layers}: {:?}",
                started.elapsed()
            );
            assert_eq!(o.stdout, b"answer\nmore\n", "{layers}");
            assert_eq!(o.limit_verdict(&limits()), None);
        }
    }

    #[test]
    fn a_flood_of_output_is_cut_at_the_limit() {
        for layers in every_layers() {
            let o = go("yes", b"", &limits(), &layers);
            assert_eq!(o.stdout.len(), 1 << 20);
            assert_eq!(o.killed, Some(Killed::Output), "{layers}");
            assert_eq!(o.limit_verdict(&limits()), Some(Verdict::OutputLimit));
        }
    }

    #[test]
    fn a_program_that_never_reads_a_large_input_does_not_block_the_run() {
        let input = vec![b'x'; 4 << 20];
        for layers in every_layers() {
            let o = go("echo ok", &input, &limits(), &layers);
            assert_eq!(o.stdout, b"ok\n");
            assert_eq!(o.limit_verdict(&limits()), None);
            let o = go("wc -c", &input, &limits(), &layers);
            assert_eq!(o.stdout, b"4194304\n", "{layers}");
        }
    }

    #[test]
    fn a_program_that_cannot_execute_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone");
        std::fs::write(&path, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let resolved = Program::new(&path, Vec::<String>::new()).resolve().unwrap();
        std::fs::remove_file(&path).unwrap();
        let layers = Containment::Auto.layers().unwrap();
        let e = run(&resolved, b"", &limits(), &layers, None).unwrap_err();
        assert!(
            matches!(&e, StartError::Io { error, .. } if error.kind() == io::ErrorKind::NotFound),
            "{e}"
        );
    }

    #[test]
    fn a_raised_stop_kills_the_program() {
        let stop = AtomicBool::new(true);
        for layers in every_layers() {
            let o = run(&sh("sleep 30"), b"", &limits(), &layers, Some(&stop)).unwrap();
            assert_eq!(o.killed, Some(Killed::Stopped));
        }
    }

    #[test]
    fn the_subreaper_is_always_there_on_linux() {
        if cfg!(target_os = "linux") {
            let layers = Containment::Subreaper.layers().unwrap();
            assert!(layers.subreaper && !layers.pid_namespace && !layers.cgroup);
            assert_eq!(layers.to_string(), "a child subreaper");
        }
    }
}

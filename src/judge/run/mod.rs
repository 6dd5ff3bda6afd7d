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
mod setup;
mod spawn;
mod state;
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
use setup::{prepare, rlimits, runtime_env};
use state::State;

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
        ipc_memory: limits.memory,
        steps: prepared.steps.as_ref(),
        network: layers.sandbox.network,
        ipc: layers.sandbox.ipc,
        groups: prepared.group_procs,
        nproc: layers.sandbox.nproc.then_some(u64::from(layers.processes)),
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
                    inet_sockets: !layers.sandbox.network_opened,
                    uncounted_memory: !layers.sandbox.memory_cgroup,
                })
            })
            .flatten(),
        #[cfg(target_os = "linux")]
        landlock: layers
            .sandbox
            .landlock
            .then_some(sandbox::landlock::Opened {
                network: layers.sandbox.network_opened,
                unix_sockets: layers.sandbox.unix_sockets_opened,
            }),
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
        counted: Duration::ZERO,
        activity: state::Activity::default(),
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
            Some(spawn::LANDLOCK_STEP) => Some("entering its Landlock ruleset".to_string()),
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
    // It passed the memory limit before it was idle or out of time: a program whose worker
    // the kernel killed and that then waits for it forever is MLE, not ILE.
    if oom_killed && matches!(state.killed, None | Some(Killed::Idle | Killed::CpuTime)) {
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
    let cpu = [Some(reaped), Some(state.counted), cpu_tree, state.last_cpu]
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

#[cfg(test)]
mod tests;

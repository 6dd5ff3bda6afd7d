//! Running a contestant's program on one input under a judge's limits, and naming what
//! happened as a judge does ([`Verdict`]).
//!
//! [`run`] starts the program in a process group of its own with its limits set in the child
//! before it executes (`setrlimit`: CPU time, address space, file size), feeds the input on
//! standard input and drains standard output and standard error on threads of their own (so a
//! program that never reads, or writes more than a pipe holds, cannot dead-lock the run),
//! counts the output bytes against the output limit, kills the whole group at the wall-clock
//! limit, at the output limit or when asked to stop (Ctrl-C), and reaps the program with
//! `wait4`, which gives its CPU time and peak memory. Nothing is left behind: no zombie, no
//! process of the group.
//!
//! It is the user's own program: these limits are all the protection there is, no sandbox.
//! Unix only.
//!
//! ```no_run
//! use chess_puzzles::judge::run::{run, Limits, Program};
//!
//! let program = Program::new("cat", Vec::<String>::new());
//! let outcome = run(&program, b"1\n1 1\n", &Limits::default(), None).unwrap();
//! assert_eq!(outcome.stdout, b"1\n1 1\n");
//! assert!(outcome.limit_verdict(&Limits::default()).is_none());
//! ```

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// How often a running program is looked at for the wall-clock limit and a request to stop.
const POLL: Duration = Duration::from_millis(10);

/// The type of the resource names of `setrlimit`, which differs between C libraries.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
type Resource = libc::c_int;

/// Sets a resource limit (in the child, before it executes the program).
fn set_limit(resource: Resource, soft: libc::rlim_t, hard: libc::rlim_t) -> io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // Safety: setrlimit reads the struct it is given, which lives on this stack.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// How much of standard error is kept (the rest is read and dropped).
pub const STDERR_KEPT: usize = 64 * 1024;

/// The program to judge: a path or a name looked up on `PATH`, and its arguments.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Program {
    /// The program.
    pub path: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

impl Program {
    /// The program `path` with the arguments `args`.
    pub fn new<S: Into<OsString>>(path: impl Into<OsString>, args: Vec<S>) -> Program {
        Program {
            path: path.into(),
            args: args.into_iter().map(Into::into).collect(),
        }
    }
}

impl fmt::Display for Program {
    /// The command line, words separated by spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.to_string_lossy())?;
        for a in &self.args {
            write!(f, " {}", a.to_string_lossy())?;
        }
        Ok(())
    }
}

/// A judge's limits on one run.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Limits {
    /// CPU time (user and system). The kernel stops the program at the next whole second
    /// above it (`RLIMIT_CPU`); a run that used more than this is over the limit either way.
    pub cpu: Duration,
    /// Wall-clock time: the program's process group is killed when it runs out.
    pub wall: Duration,
    /// Address space in bytes (`RLIMIT_AS`), or none.
    pub memory: Option<u64>,
    /// Bytes of standard output (and of any file written, `RLIMIT_FSIZE`).
    pub output: u64,
}

impl Limits {
    /// The usual limits for a CPU time `cpu`: the wall-clock limit twice the CPU time, the
    /// memory and output limits in MiB.
    pub fn new(cpu: Duration, memory_mib: Option<u64>, output_mib: u64) -> Limits {
        Limits {
            cpu,
            wall: cpu.saturating_mul(2),
            memory: memory_mib.map(|m| m.saturating_mul(1 << 20)),
            output: output_mib.saturating_mul(1 << 20),
        }
    }
}

impl Default for Limits {
    /// 2 s of CPU time (4 s of wall-clock time), 256 MiB of memory, 64 MiB of output.
    fn default() -> Limits {
        Limits::new(Duration::from_secs(2), Some(256), 64)
    }
}

/// How the program ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Exit {
    /// It exited with this code.
    Code(i32),
    /// A signal ended it.
    Signal(i32),
}

/// Why a run was ended from outside.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Killed {
    /// The wall-clock limit ran out.
    WallTime,
    /// It wrote more than the output limit.
    Output,
    /// The caller asked to stop (Ctrl-C).
    Stopped,
}

/// What one run of a program did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// Why it was killed, when it was.
    pub killed: Option<Killed>,
    /// CPU time, user and system, of the program and the children it waited for.
    pub cpu: Duration,
    /// Wall-clock time from start to end.
    pub wall: Duration,
    /// Peak resident memory in bytes, as the kernel measured it.
    pub peak_memory: u64,
    /// Its standard output, cut at the output limit.
    pub stdout: Vec<u8>,
    /// The first [`STDERR_KEPT`] bytes of its standard error.
    pub stderr: Vec<u8>,
}

/// A judge's verdict on one run.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Verdict {
    /// Accepted.
    Accepted,
    /// Wrong answer.
    WrongAnswer,
    /// Presentation error: the right words, laid out wrong.
    PresentationError,
    /// Time limit exceeded.
    TimeLimit,
    /// Memory limit exceeded.
    MemoryLimit,
    /// Output limit exceeded.
    OutputLimit,
    /// Runtime error: a non-zero exit code or a signal.
    RuntimeError,
}

impl Verdict {
    /// The judges' short name: `AC`, `WA`, `PE`, `TLE`, `MLE`, `OLE`, `RE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
        }
    }

    /// Every verdict, in the order above.
    pub const ALL: [Verdict; 7] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::OutputLimit,
        Verdict::RuntimeError,
    ];
}

impl fmt::Display for Verdict {
    /// The verdict in words: `accepted`, `wrong answer`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong answer",
            Verdict::PresentationError => "presentation error",
            Verdict::TimeLimit => "time limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
        })
    }
}

/// What runtimes write when an allocation is refused: a program that dies saying one of these
/// ran out of memory.
const OUT_OF_MEMORY: [&str; 6] = [
    "MemoryError",
    "std::bad_alloc",
    "memory allocation of",
    "out of memory",
    "Cannot allocate memory",
    "OutOfMemoryError",
];

impl Outcome {
    /// The verdict the limits and the way the program ended give, before its output is
    /// looked at: `None` when it exited with code 0 within every limit (then its output is
    /// judged), otherwise, in this order: output limit (`OLE`); time limit (`TLE`: killed at
    /// the wall-clock limit, or over the CPU time, or stopped by `SIGXCPU`); memory limit
    /// (`MLE`: a peak above the limit, or a failed run that used at least half of it or that
    /// says an allocation was refused); runtime error (`RE`: any other non-zero exit code or
    /// signal).
    pub fn limit_verdict(&self, limits: &Limits) -> Option<Verdict> {
        let failed = self.exit != Exit::Code(0);
        if self.killed == Some(Killed::Output) || self.exit == Exit::Signal(libc::SIGXFSZ) {
            return Some(Verdict::OutputLimit);
        }
        if self.killed == Some(Killed::WallTime)
            || self.cpu > limits.cpu
            || self.exit == Exit::Signal(libc::SIGXCPU)
        {
            return Some(Verdict::TimeLimit);
        }
        if let Some(memory) = limits.memory {
            let said = String::from_utf8_lossy(&self.stderr);
            let refused = OUT_OF_MEMORY.iter().any(|m| said.contains(m));
            if self.peak_memory > memory || (failed && (self.peak_memory >= memory / 2 || refused))
            {
                return Some(Verdict::MemoryLimit);
            }
        }
        failed.then_some(Verdict::RuntimeError)
    }

    /// The way it ended in words: `exit code 3`, `signal 11 (SIGSEGV)`.
    pub fn exit_text(&self) -> String {
        match self.exit {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => match signal_name(s) {
                Some(name) => format!("signal {s} ({name})"),
                None => format!("signal {s}"),
            },
        }
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return None,
    })
}

/// Runs `program` on `input` under `limits` and returns what it did. `stop`, when raised
/// (Ctrl-C), kills the program at once ([`Killed::Stopped`]).
///
/// Fails only when the program cannot be started (it does not exist, is not executable) or
/// the system refuses a pipe or a thread; whatever the program does is an [`Outcome`].
pub fn run(
    program: &Program,
    input: &[u8],
    limits: &Limits,
    stop: Option<&AtomicBool>,
) -> io::Result<Outcome> {
    let mut command = Command::new(&program.path);
    command
        .args(&program.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let cpu_seconds = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0);
    let cpu_seconds = cpu_seconds.max(1) as libc::rlim_t;
    let memory = limits.memory.map(|m| m as libc::rlim_t);
    let file_size = limits.output.saturating_add(1) as libc::rlim_t;
    // Safety: the hook runs in the child between fork and exec and calls only setpgid and
    // setrlimit, which are async-signal-safe, on values computed before the fork.
    unsafe {
        command.pre_exec(move || {
            if libc::setpgid(0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            set_limit(libc::RLIMIT_CPU, cpu_seconds, cpu_seconds + 1)?;
            if let Some(m) = memory {
                set_limit(libc::RLIMIT_AS, m, m)?;
            }
            set_limit(libc::RLIMIT_FSIZE, file_size, file_size)
        });
    }
    let started = Instant::now();
    let mut child = command.spawn()?;
    let pid = child.id() as libc::pid_t;
    let group = Group(pid);

    let (mut stdin, stdout, stderr) =
        match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
            (Some(i), Some(o), Some(e)) => (i, o, e),
            _ => {
                group.kill();
                let _ = reap(pid);
                return Err(io::Error::other("the program's pipes could not be opened"));
            }
        };
    let data = input.to_vec();
    // The feeder may stay blocked while the program does not read; it ends when the program
    // does (its end of the pipe closes). A closed pipe is the program's business.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let over_output = Arc::new(AtomicBool::new(false));
    let (out_tx, out_rx) = mpsc::channel();
    {
        let over = Arc::clone(&over_output);
        let limit = limits.output;
        std::thread::spawn(move || {
            let _ = out_tx.send(drain(stdout, limit, true, || {
                over.store(true, Ordering::SeqCst);
                group.kill();
            }));
        });
    }
    let (err_tx, err_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = err_tx.send(drain(stderr, STDERR_KEPT as u64, false, || {}));
    });
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = done_tx.send(reap(pid));
    });

    let mut killed = None;
    let reaped = loop {
        match done_rx.recv_timeout(POLL) {
            Ok(reaped) => break reaped,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err(io::Error::other("the program's waiter ended"));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if killed.is_none() {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                killed = Some(Killed::Stopped);
                group.kill();
            } else if started.elapsed() >= limits.wall {
                killed = Some(Killed::WallTime);
                group.kill();
            }
        }
    };
    let wall = started.elapsed();
    // What the program started and left running in its group goes with it, so that the pipes
    // close.
    group.kill();
    let (status, usage) = reaped?;
    // A process that escaped the group may hold the pipes open: wait a little, not for ever.
    let grace = Duration::from_secs(1);
    let stdout = out_rx.recv_timeout(grace).unwrap_or_default();
    let stderr = err_rx.recv_timeout(grace).unwrap_or_default();
    if killed.is_none() && over_output.load(Ordering::SeqCst) {
        killed = Some(Killed::Output);
    }
    let exit = if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    // ru_maxrss is in KiB on Linux and the BSDs, in bytes on macOS.
    let scale = if cfg!(target_os = "macos") { 1 } else { 1024 };
    Ok(Outcome {
        exit,
        killed,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
        wall,
        peak_memory: (usage.ru_maxrss.max(0) as u64).saturating_mul(scale),
        stdout,
        stderr,
    })
}

/// The program's process group (its id is the program's).
#[derive(Copy, Clone)]
struct Group(libc::pid_t);

impl Group {
    /// Kills every process of the group (nothing when none is left).
    fn kill(self) {
        // Safety: killpg only sends a signal; the group was made for the program alone.
        unsafe {
            libc::killpg(self.0, libc::SIGKILL);
        }
    }
}

/// Waits for the program and reaps it: its wait status and resource usage.
fn reap(pid: libc::pid_t) -> io::Result<(libc::c_int, libc::rusage)> {
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    loop {
        // Safety: wait4 writes the status and a `rusage` into the pointers it is given, which
        // point to values on this stack.
        let r = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
        if r == pid {
            // Safety: wait4 succeeded, so it filled the whole struct (zeroed before anyway).
            return Ok((status, unsafe { usage.assume_init() }));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// Reads `pipe` to its end, keeping the first `limit` bytes; when more comes, calls `over` once
/// and, when `stop_when_over`, stops reading (closing the pipe).
fn drain(mut pipe: impl Read, limit: u64, stop_when_over: bool, mut over: impl FnMut()) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 1 << 16];
    let mut over_called = false;
    loop {
        let n = match pipe.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let room = (limit as usize).saturating_sub(kept.len());
        kept.extend_from_slice(&buffer[..n.min(room)]);
        if n > room && !over_called {
            over_called = true;
            over();
            if stop_when_over {
                break;
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Program {
        Program::new("sh", vec!["-c", script])
    }

    fn limits() -> Limits {
        Limits::new(Duration::from_millis(500), Some(256), 1)
    }

    #[test]
    fn output_comes_back_and_a_clean_exit_has_no_limit_verdict() {
        let o = run(&sh("cat; echo done"), b"abc\n", &limits(), None).unwrap();
        assert_eq!(o.stdout, b"abc\ndone\n");
        assert_eq!(o.exit, Exit::Code(0));
        assert_eq!(o.limit_verdict(&limits()), None);
    }

    #[test]
    fn exit_codes_and_signals_are_runtime_errors() {
        let o = run(&sh("exit 3"), b"", &limits(), None).unwrap();
        assert_eq!(o.exit, Exit::Code(3));
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
        let o = run(&sh("kill -SEGV $$"), b"", &limits(), None).unwrap();
        assert_eq!(o.exit, Exit::Signal(libc::SIGSEGV));
        assert_eq!(o.exit_text(), "signal 11 (SIGSEGV)");
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::RuntimeError));
    }

    #[test]
    fn a_sleeper_is_killed_at_the_wall_limit_with_its_children() {
        let started = Instant::now();
        let o = run(&sh("sleep 30 & sleep 30"), b"", &limits(), None).unwrap();
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!(o.killed, Some(Killed::WallTime));
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::TimeLimit));
    }

    #[test]
    fn a_flood_of_output_is_cut_at_the_limit() {
        let o = run(&sh("yes"), b"", &limits(), None).unwrap();
        assert_eq!(o.stdout.len(), 1 << 20);
        assert_eq!(o.killed, Some(Killed::Output));
        assert_eq!(o.limit_verdict(&limits()), Some(Verdict::OutputLimit));
    }

    #[test]
    fn a_program_that_never_reads_a_large_input_does_not_block_the_run() {
        let input = vec![b'x'; 4 << 20];
        let o = run(&sh("echo ok"), &input, &limits(), None).unwrap();
        assert_eq!(o.stdout, b"ok\n");
        assert_eq!(o.limit_verdict(&limits()), None);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let missing = Program::new("/nonexistent/program", Vec::<String>::new());
        let e = run(&missing, b"", &limits(), None).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn a_raised_stop_kills_the_program() {
        let stop = AtomicBool::new(true);
        let o = run(&sh("sleep 30"), b"", &limits(), Some(&stop)).unwrap();
        assert_eq!(o.killed, Some(Killed::Stopped));
    }
}

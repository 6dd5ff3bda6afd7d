//! What a run did ([`Outcome`]: how it ended, why it was killed, its time, memory and
//! output) and the verdict its limits give ([`Verdict`]).

use super::*;

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
#[non_exhaustive]
pub enum Killed {
    /// Its CPU time ran out.
    CpuTime,
    /// It was idle past the wall-clock limit (or still running at [`Limits::hard_wall`]).
    Idle,
    /// It wrote more than the output limit.
    Output,
    /// The caller asked to stop (Ctrl-C).
    Stopped,
    /// The keeper that held the run was killed, by the program or from outside: the run
    /// was ended with it.
    KeeperLost,
    /// The memory its processes used together passed the memory limit (watched where no
    /// memory cgroup limits it).
    Memory,
}

/// What one run of a program did.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// How it ended.
    pub exit: Exit,
    /// Why it was killed, when it was.
    pub killed: Option<Killed>,
    /// CPU time, user and system, of the program and the processes it started (all of them
    /// with a cgroup; otherwise those reaped before it ended).
    pub cpu: Duration,
    /// Wall-clock time from start to end.
    pub wall: Duration,
    /// Peak memory in bytes, as the kernel measured it: the program's own resident peak
    /// since its `execve` (nothing of the judge it was forked from), the largest of the
    /// other processes of the run reaped by the keeper, or the cgroup's peak where the
    /// memory controller gives it.
    pub peak_memory: u64,
    /// What it wrote on standard output before it ended, cut at the output limit.
    pub stdout: Vec<u8>,
    /// Its standard error: the first and the last [`STDERR_KEPT`]` / 2` bytes.
    pub stderr: Vec<u8>,
    /// How the signal that ended it was sent, when the keeper could see it: `si_code`,
    /// positive when the kernel sent it, zero or less when a process did (the program
    /// itself, with `raise` or `kill`).
    pub signal_code: Option<i32>,
    /// The run's process limit, when the run reached it (a process or thread refused):
    /// counted by a pids cgroup, or said on standard error where `RLIMIT_NPROC` holds it.
    pub process_limit_reached: Option<u32>,
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
    /// Time limit exceeded: CPU time.
    TimeLimit,
    /// Idleness limit exceeded: waiting or sleeping past the wall-clock limit.
    IdleLimit,
    /// Memory limit exceeded.
    MemoryLimit,
    /// Output limit exceeded.
    OutputLimit,
    /// Runtime error: a non-zero exit code or a signal.
    RuntimeError,
}

impl Verdict {
    /// The judges' short name: `AC`, `WA`, `PE`, `TLE`, `ILE`, `MLE`, `OLE`, `RE`.
    pub fn code(self) -> &'static str {
        match self {
            Verdict::Accepted => "AC",
            Verdict::WrongAnswer => "WA",
            Verdict::PresentationError => "PE",
            Verdict::TimeLimit => "TLE",
            Verdict::IdleLimit => "ILE",
            Verdict::MemoryLimit => "MLE",
            Verdict::OutputLimit => "OLE",
            Verdict::RuntimeError => "RE",
        }
    }

    /// Every verdict, in the order above.
    pub const ALL: [Verdict; 8] = [
        Verdict::Accepted,
        Verdict::WrongAnswer,
        Verdict::PresentationError,
        Verdict::TimeLimit,
        Verdict::IdleLimit,
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
            Verdict::IdleLimit => "idleness limit exceeded",
            Verdict::MemoryLimit => "memory limit exceeded",
            Verdict::OutputLimit => "output limit exceeded",
            Verdict::RuntimeError => "runtime error",
        })
    }
}

/// What runtimes write when an allocation is refused: a program that dies saying one of these
/// ran out of memory.
const OUT_OF_MEMORY: [&str; 8] = [
    "MemoryError",
    "std::bad_alloc",
    "memory allocation of",
    "out of memory",
    "Cannot allocate memory",
    "OutOfMemoryError",
    "Could not reserve enough space",
    "insufficient memory for the Java Runtime",
];

impl Outcome {
    /// The verdict the limits and the way the program ended give, before its output is
    /// looked at: `None` when it exited with code 0 within every limit (then its output is
    /// judged), otherwise, in this order: output limit (`OLE`); time limit (`TLE`: over the
    /// CPU time, or stopped by `SIGXCPU`); idleness (`ILE`: stopped at the wall-clock limit
    /// while not computing); memory limit (`MLE`: a peak above the limit, or a failed run
    /// that says an allocation was refused or used at least half of it, unless a `SIGKILL`
    /// not from a limit ended it); runtime error
    /// (`RE`: any other non-zero exit code or signal).
    pub fn limit_verdict(&self, limits: &Limits) -> Option<Verdict> {
        let failed = self.exit != Exit::Code(0);
        if self.killed == Some(Killed::Output)
            || (self.exit == Exit::Signal(libc::SIGXFSZ) && !self.raised_itself())
        {
            return Some(Verdict::OutputLimit);
        }
        // A CPU limit hit by any process of the run (a multithreaded child that the kernel
        // stopped with SIGXCPU, its parent then failing) is the time limit; a SIGXCPU with
        // the CPU time under the limit was sent by a process, not by the limit (the kernel's
        // limit lies a second above the judge's).
        if self.killed == Some(Killed::CpuTime) || self.cpu > limits.cpu {
            return Some(Verdict::TimeLimit);
        }
        if self.killed == Some(Killed::Idle) {
            return Some(Verdict::IdleLimit);
        }
        if let Some(memory) = limits.memory {
            let said = String::from_utf8_lossy(&self.stderr);
            // A JVM that cannot reserve its heap says so on standard output.
            let printed = if failed {
                String::from_utf8_lossy(&self.stdout[..self.stdout.len().min(STDERR_KEPT)])
            } else {
                Default::default()
            };
            let refused = OUT_OF_MEMORY
                .iter()
                .any(|m| said.contains(m) || printed.contains(m));
            // A SIGKILL is never how a refused allocation ends a program: the kernel's kill
            // for the memory limit is seen in the cgroup and the judge's own is `killed`.
            // One the program sent is its own runtime error, however much memory it held.
            let sent_kill = self.exit == Exit::Signal(libc::SIGKILL);
            if self.killed == Some(Killed::Memory)
                || self.peak_memory > memory
                || (failed && (refused || (self.peak_memory >= memory / 2 && !sent_kill)))
            {
                return Some(Verdict::MemoryLimit);
            }
        }
        failed.then_some(Verdict::RuntimeError)
    }

    /// True when the signal that ended it was sent by `raise`, `tgkill` or `sigqueue`: by
    /// a process, never by the kernel's limits.
    pub fn raised_itself(&self) -> bool {
        matches!(self.exit, Exit::Signal(_))
            && self
                .signal_code
                .is_some_and(|c| c == SI_TKILL || c == SI_QUEUE)
    }

    /// The way it ended in words: `exit code 3`, `signal 11 (SIGSEGV)`, `signal 24 (SIGXCPU)
    /// sent by a process, not by the CPU limit`.
    pub fn exit_text(&self) -> String {
        match self.exit {
            Exit::Code(c) => format!("exit code {c}"),
            Exit::Signal(s) => {
                let mut text = match signal_name(s) {
                    Some(name) => format!("signal {s} ({name})"),
                    None => format!("signal {s}"),
                };
                if s == libc::SIGXCPU || (s == libc::SIGXFSZ && self.raised_itself()) {
                    let limit = if s == libc::SIGXCPU {
                        "CPU"
                    } else {
                        "file size"
                    };
                    text.push_str(&format!(" sent by a process, not by the {limit} limit"));
                }
                text
            }
        }
    }
}

/// What runtimes write when a process or thread is refused them.
pub(super) const NO_MORE_PROCESSES: [&str; 6] = [
    "Resource temporarily unavailable",
    "unable to create native thread",
    "can't start new thread",
    "fork: retry",
    "pthread_create failed",
    "failed to spawn thread",
];

/// `si_code` of a signal sent by `tgkill` (`raise`).
const SI_TKILL: i32 = -6;
/// `si_code` of a signal sent by `sigqueue`.
const SI_QUEUE: i32 = -1;

pub(super) fn signal_name(signal: i32) -> Option<&'static str> {
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

//! The stress tester and the local judge: a contestant's program run on generated inputs (or
//! on a folder of tests), each run judged as an online judge would, and the first failing
//! generated input shrunk to a smallest one that still fails the same way.
//!
//! A puzzle says what it needs through [`Subject`] (its generator, its validator, our
//! answer, how an output is judged, its test cases and how to make them smaller); the
//! running is [`run`], the shrinking [`shrink`]. The runs of a
//! stress test are numbered from 1: run `i` uses the seed `seed + i - 1` and the generator
//! input `plan[(i - 1) % plan.len()]`, whatever `jobs` is, and the failure reported is the
//! first in that order, so the same seed gives the same report with one job or several.
//!
//! ```no_run
//! use chess_puzzles::judge::run::{Containment, Limits, Program};
//! use chess_puzzles::judge::stress::{self, StressEnd, StressOptions, Subject};
//! use chess_puzzles::sultan::stress::Sultan;
//!
//! let program = Program::new("python3", vec!["sol.py"]).resolve().unwrap();
//! let subject = Sultan::default();
//! let options = StressOptions {
//!     plan: subject.defaults(),
//!     layers: Containment::Auto.layers().unwrap(),
//!     ..StressOptions::default()
//! };
//! match stress::stress(&subject, &program, &options, &Default::default()).unwrap() {
//!     StressEnd::Accepted { runs } => println!("accepted: {runs} runs"),
//!     StressEnd::Failed { failing, .. } => println!("{} on run {}", failing.judged.verdict, failing.run),
//!     StressEnd::Interrupted { .. } => {}
//! }
//! ```

use std::collections::HashSet;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::compare::{self, Tolerance};
pub use super::folder::{FolderSummary, Skipped, Test, TestEnd, judge_folder, tests_in};
use super::run::{self, Killed, Layers, Limits, Outcome, Resolved, StartError, Verdict};
use super::shrink::{self, Trial};
use crate::error::plural;

/// What a checker says of an output.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Judged {
    /// Right.
    Accepted,
    /// Wrong, and where.
    Wrong(String),
    /// The right words laid out wrong, and where.
    Presentation(String),
}

/// The judging of the puzzles with one right answer: an exact comparison with the checker's
/// tolerance; a difference that only the layout of whitespace makes is a presentation error.
pub fn judge_exact(expected: &[u8], actual: &[u8], tolerance: Tolerance) -> Judged {
    match compare::compare(expected, actual, tolerance) {
        Ok(Ok(_)) => Judged::Accepted,
        Ok(Err(difference)) => {
            let words_agree = tolerance != Tolerance::Tokens
                && matches!(
                    compare::compare(expected, actual, Tolerance::Tokens),
                    Ok(Ok(_))
                );
            if words_agree {
                Judged::Presentation(difference.to_string())
            } else {
                Judged::Wrong(difference.to_string())
            }
        }
        Err(e) => Judged::Wrong(e.to_string()),
    }
}

/// One kind of generated input: the generator's options and the arguments of `<puzzle> gen`
/// that write it (with `--seed` added per run), for the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Planned<G> {
    /// The generator's options (their seed is replaced per run).
    pub options: G,
    /// The same as `<puzzle> gen` arguments: `--cases 2 --kind most`.
    pub args: String,
}

impl<G> Planned<G> {
    /// The generator options `options`, written as the arguments `args`.
    pub fn new(args: &str, options: G) -> Planned<G> {
        Planned {
            options,
            args: args.to_string(),
        }
    }
}

/// What the stress tester and the local judge need of a puzzle.
pub trait Subject: Sync {
    /// One test case of an input, parsed.
    type Case: Clone + Send + Sync;
    /// The generator's options.
    type Gen: Clone + Send + Sync;
    /// The puzzle's command (`queens`, `nqueens best`).
    fn name(&self) -> &'static str;
    /// What one test case is called (`case`, `board`, `scenario`, `test`).
    fn case_name(&self) -> &'static str;
    /// The generated inputs a stress test cycles through by default: from small inputs (quick
    /// failures, easy shrinking) up to the largest the statement allows.
    fn defaults(&self) -> Vec<Planned<Self::Gen>>;
    /// The input generated with `options` and the seed `seed` (at most [`MAX_INPUT_BYTES`]).
    fn generate(&self, options: &Self::Gen, seed: u64) -> Result<Vec<u8>, String>;
    /// True when `input` obeys the statement's limits (shrinking keeps a valid input valid).
    fn valid(&self, input: &[u8]) -> bool;
    /// Our answer to `input`, in the judge's format.
    fn reference(&self, input: &[u8]) -> Result<Vec<u8>, String>;
    /// Judges the program's output `actual` for `input`, `expected` being our answer (or the
    /// test's).
    fn judge(&self, input: &[u8], expected: &[u8], actual: &[u8]) -> Judged;
    /// The test cases of `input`.
    fn cases(&self, input: &[u8]) -> Result<Vec<Self::Case>, String>;
    /// An input made of `cases`.
    fn write_input(&self, cases: &[Self::Case]) -> Vec<u8>;
    /// Smaller instances of one case, each strictly smaller.
    fn smaller(&self, case: &Self::Case) -> Vec<Self::Case>;
    /// What makes `cases` large beyond their number and bytes (`2 knights, 3 pawns`), for the
    /// report of a shrinking; nothing by default.
    fn measure(&self, cases: &[Self::Case]) -> Option<String> {
        let _ = cases;
        None
    }
}

/// The largest input generated or read, in bytes: it is held in memory, with the program's
/// output and our answer.
pub const MAX_INPUT_BYTES: usize = 256 << 20;

/// The bytes `write` writes, refused once they pass [`MAX_INPUT_BYTES`]: for
/// [`Subject::generate`].
pub fn capped(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<Vec<u8>, String> {
    struct Capped(Vec<u8>);
    impl Write for Capped {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.0.len() + buf.len() > MAX_INPUT_BYTES {
                return Err(io::Error::other("too large"));
            }
            self.0.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut out = Capped(Vec::new());
    match write(&mut out) {
        Ok(()) => Ok(out.0),
        Err(_) if out.0.len() + (1 << 16) > MAX_INPUT_BYTES => Err(format!(
            "the generated input passes {} MiB (it is held in memory): ask the generator for \
             fewer or smaller cases",
            MAX_INPUT_BYTES >> 20
        )),
        Err(e) => Err(e.to_string()),
    }
}

/// Every case `reader` gives.
pub fn read_all<C: crate::input::CaseReader>(mut reader: C) -> Result<Vec<C::Case>, String> {
    let mut cases = Vec::new();
    while let Some(case) = reader.next_case().map_err(|e| e.to_string())? {
        cases.push(case);
    }
    Ok(cases)
}

/// Why a stress test or a judging could not go on.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StressError {
    /// The program cannot be started.
    #[error(transparent)]
    Start(#[from] StartError),
    /// The generator refused its options.
    #[error("the generator cannot write the input of `{args} --seed {seed}`: {message}")]
    Generate {
        /// The generator's arguments.
        args: String,
        /// The seed.
        seed: u64,
        /// Why.
        message: String,
    },
    /// Our own solver cannot answer an input.
    #[error("our own solver cannot answer {what}: {message}")]
    Reference {
        /// The input: `the input of ...`, a test's name.
        what: String,
        /// Why.
        message: String,
    },
    /// A test of the folder is larger than what is read.
    #[error("{}: larger than {what} ({} MiB)", path.display(), limit >> 20)]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit it passes, in words.
        what: &'static str,
        /// The limit in bytes.
        limit: u64,
    },
    /// The folder or one of its files cannot be read.
    #[error("{}: {error}", path.display())]
    Read {
        /// The folder or the file.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// A folder without any test.
    #[error("no test (NAME.in) in {}", .0.display())]
    NoTest(PathBuf),
}

/// One judged run.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// Why, for any verdict but `AC`: the checker's located reason, the limit, the exit code
    /// or signal with the line of standard error that names the error.
    pub reason: String,
    /// The right output (ours, or the test's).
    pub expected: Vec<u8>,
    /// What the run did.
    pub outcome: Outcome,
}

/// Runs `program` on `input` and judges its output against `expected`; `None` when `stop`
/// ended the run.
pub fn judge_run<S: Subject + ?Sized>(
    subject: &S,
    program: &Resolved,
    input: &[u8],
    expected: Vec<u8>,
    limits: &Limits,
    layers: &Layers,
    stop: Option<&AtomicBool>,
) -> Result<Option<Judgement>, StressError> {
    let outcome = run::run(program, input, limits, layers, stop)?;
    if outcome.killed == Some(Killed::Stopped) {
        return Ok(None);
    }
    let (verdict, reason) = match outcome.limit_verdict(limits) {
        Some(verdict) => (verdict, limit_reason(verdict, &outcome, limits)),
        None => match subject.judge(input, &expected, &outcome.stdout) {
            Judged::Accepted => (Verdict::Accepted, String::new()),
            Judged::Wrong(r) => (Verdict::WrongAnswer, r),
            Judged::Presentation(r) => (Verdict::PresentationError, r),
        },
    };
    Ok(Some(Judgement {
        verdict,
        reason,
        expected,
        outcome,
    }))
}

/// Bytes as MiB with one decimal: `9.1 MiB`.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// Why the limits gave `verdict`, in words; the line of standard error that names the error
/// is quoted, control bytes escaped.
pub fn limit_reason(verdict: Verdict, o: &Outcome, limits: &Limits) -> String {
    // The error line of standard error, or, for a failed run that wrote none there, an
    // error line it wrote on standard output (a JVM that cannot start says why there).
    let on_stdout = || {
        let head = &o.stdout[..o.stdout.len().min(run::STDERR_KEPT)];
        String::from_utf8_lossy(head)
            .lines()
            .find(|l| l.contains("Error") || l.contains("error"))
            .map(|l| format!("on standard output: {}", l.trim()))
    };
    let words = run::error_line(&o.stderr)
        .or_else(|| (o.exit != run::Exit::Code(0)).then(on_stdout).flatten())
        .map(|l| super::report::escape(l.as_bytes(), false));
    let with_words = |text: String| match &words {
        Some(words) => format!("{text}: {words}"),
        None => text,
    };
    match verdict {
        Verdict::OutputLimit if o.killed == Some(run::Killed::Output) => {
            format!("more than {} of output", mib(limits.output))
        }
        Verdict::OutputLimit => format!(
            "a file it wrote reached the file size limit of {} ({})",
            mib(limits.output),
            o.exit_text()
        ),
        Verdict::RuntimeError if o.killed == Some(run::Killed::KeeperLost) => format!(
            "the keeper holding the run was killed (by the program or from outside), and \
             the run ended with it ({})",
            o.exit_text()
        ),
        Verdict::TimeLimit => format!(
            "CPU time {:.2} s over the limit of {:.2} s{}",
            o.cpu.as_secs_f64(),
            limits.cpu.as_secs_f64(),
            if o.killed.is_some() {
                String::new()
            } else {
                format!(" ({})", o.exit_text())
            }
        ),
        Verdict::IdleLimit if o.wall >= limits.hard_wall() => format!(
            "still running after {:.2} s of wall-clock time (CPU time {:.2} s)",
            o.wall.as_secs_f64(),
            o.cpu.as_secs_f64()
        ),
        Verdict::IdleLimit => format!(
            "idle too long: {:.2} s of CPU time in {:.2} s of wall-clock time (waiting or \
             sleeping past the idle limit of {:.2} s)",
            o.cpu.as_secs_f64(),
            o.wall.as_secs_f64(),
            limits.wall.as_secs_f64()
        ),
        Verdict::MemoryLimit => {
            let limit = limits.memory.unwrap_or(0);
            with_words(if o.killed == Some(run::Killed::Memory) {
                format!(
                    "the memory its processes used together passed the limit of {} \
                     (stopped at {}; {})",
                    mib(limit),
                    mib(o.peak_memory),
                    o.exit_text()
                )
            } else if o.peak_memory > limit {
                format!(
                    "peak memory {}, over the limit of {} ({})",
                    mib(o.peak_memory),
                    mib(limit),
                    o.exit_text()
                )
            } else {
                format!(
                    "{} after the memory limit of {} refused it memory (peak {} in use)",
                    o.exit_text(),
                    mib(limit),
                    mib(o.peak_memory)
                )
            })
        }
        Verdict::RuntimeError if o.process_limit_reached.is_some() => with_words(format!(
            "{} after the run reached its process limit of {} processes and threads \
             (--process-limit)",
            o.exit_text(),
            o.process_limit_reached.unwrap_or(0)
        )),
        _ => with_words(o.exit_text()),
    }
}

/// How a stress test runs.
#[derive(Clone, Debug)]
pub struct StressOptions<G> {
    /// The generated inputs, cycled through: run `i` (from 1) uses `plan[(i - 1) % len]`.
    pub plan: Vec<Planned<G>>,
    /// How many runs at most.
    pub runs: u64,
    /// No run starts after this instant.
    pub deadline: Option<Instant>,
    /// The seed of run 1; run `i` uses `seed + i - 1`.
    pub seed: u64,
    /// Runs side by side (at least 1).
    pub jobs: usize,
    /// At most this many runs to shrink a failure.
    pub shrink_runs: usize,
    /// The limits of every run.
    pub limits: Limits,
    /// What holds the processes of every run.
    pub layers: Layers,
}

impl<G> Default for StressOptions<G> {
    /// 100 runs from seed 0, one job, 300 runs of shrinking, the default limits, a process
    /// group only (ask [`run::Containment::layers`] for more); no plan.
    fn default() -> StressOptions<G> {
        StressOptions {
            plan: Vec::new(),
            runs: 100,
            deadline: None,
            seed: 0,
            jobs: 1,
            shrink_runs: 300,
            limits: Limits::default(),
            layers: Layers::default(),
        }
    }
}

/// Where a stress test or a judging is, for a progress display, and its stop button.
#[derive(Debug, Default)]
pub struct Progress {
    /// Runs (tests) judged.
    pub runs: AtomicU64,
    /// Of which accepted.
    pub accepted: AtomicU64,
    /// Runs made to shrink the failure.
    pub shrink_tries: AtomicU64,
    /// True while shrinking.
    pub shrinking: AtomicBool,
    /// The size of the smallest failing input found so far while shrinking, in bytes.
    pub smallest: AtomicU64,
    /// Raised (Ctrl-C), it stops the work: the run in progress is killed, the shrinking
    /// keeps what it found.
    pub stop: AtomicBool,
}

/// A failure found by a stress test, shrunk.
#[derive(Clone, Debug)]
pub struct Failing {
    /// The failing run, from 1.
    pub run: u64,
    /// Its seed.
    pub seed: u64,
    /// Its generator arguments (without `--seed`).
    pub args: String,
    /// Its input.
    pub original: Vec<u8>,
    /// The number of test cases of that input (when it parses).
    pub original_cases: Option<usize>,
    /// The smallest input found that fails the same way.
    pub shrunk: Vec<u8>,
    /// Its number of test cases.
    pub shrunk_cases: Option<usize>,
    /// The runs made to shrink it.
    pub shrink_runs: usize,
    /// The run on the shrunk input.
    pub judged: Judgement,
    /// True when Ctrl-C stopped the shrinking early.
    pub interrupted: bool,
}

/// How a stress test ended.
#[derive(Clone, Debug)]
pub enum StressEnd {
    /// Every run was accepted.
    Accepted {
        /// How many.
        runs: u64,
    },
    /// A run failed.
    Failed {
        /// The runs up to and including the failing one.
        runs: u64,
        /// The failure, shrunk.
        failing: Box<Failing>,
    },
    /// Stopped before a failure was found.
    Interrupted {
        /// The runs made, all accepted.
        runs: u64,
    },
}

/// What one stress run found: nothing, or the failure.
struct Found {
    run: u64,
    seed: u64,
    args: String,
    input: Vec<u8>,
    judged: Judgement,
}

/// Runs `program` on generated inputs until one fails (then shrinks it), `options.runs` are
/// made, the deadline passes or `progress.stop` is raised.
pub fn stress<S: Subject>(
    subject: &S,
    program: &Resolved,
    options: &StressOptions<S::Gen>,
    progress: &Progress,
) -> Result<StressEnd, StressError> {
    if options.plan.is_empty() {
        return Ok(StressEnd::Accepted { runs: 0 });
    }
    let next = AtomicU64::new(1);
    // The first failure in run order found so far, and the first error.
    let first: Mutex<Option<Found>> = Mutex::new(None);
    let error: Mutex<Option<(u64, StressError)>> = Mutex::new(None);
    let interrupted = AtomicBool::new(false);
    let jobs = options.jobs.max(1);
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let beyond = |limit: Option<u64>| limit.is_some_and(|l| i > l);
                    let failed_before = first.lock().ok().and_then(|f| f.as_ref().map(|f| f.run));
                    let errored_before = error.lock().ok().and_then(|e| e.as_ref().map(|e| e.0));
                    if i > options.runs || beyond(failed_before) || beyond(errored_before) {
                        return;
                    }
                    if options.deadline.is_some_and(|d| Instant::now() >= d) {
                        return;
                    }
                    if progress.stop.load(Ordering::Relaxed) {
                        interrupted.store(true, Ordering::Relaxed);
                        return;
                    }
                    match one_run(subject, program, options, i, progress) {
                        Ok(Some(found)) => {
                            if let Ok(mut f) = first.lock()
                                && f.as_ref().is_none_or(|old| found.run < old.run)
                            {
                                *f = Some(found);
                            }
                        }
                        Ok(None) => {}
                        Err(None) => interrupted.store(true, Ordering::Relaxed),
                        Err(Some(e)) => {
                            if let Ok(mut old) = error.lock()
                                && old.as_ref().is_none_or(|(j, _)| i < *j)
                            {
                                *old = Some((i, e));
                            }
                        }
                    }
                }
            });
        }
    });
    let found = first.into_inner().ok().flatten();
    let error = error.into_inner().ok().flatten();
    // An error before the first failure ends everything (a program that can no longer start).
    if let Some((i, e)) = error
        && found.as_ref().is_none_or(|f| i < f.run)
    {
        return Err(e);
    }
    let Some(found) = found else {
        let runs = progress.runs.load(Ordering::Relaxed);
        return Ok(if interrupted.load(Ordering::Relaxed) {
            StressEnd::Interrupted { runs }
        } else {
            StressEnd::Accepted { runs }
        });
    };
    let runs = found.run;
    let failing = shrink_found(subject, program, options, found, progress)?;
    Ok(StressEnd::Failed {
        runs,
        failing: Box::new(failing),
    })
}

/// Run `i`: `Ok(Some)` when it failed, `Err(None)` when it was stopped.
fn one_run<S: Subject>(
    subject: &S,
    program: &Resolved,
    options: &StressOptions<S::Gen>,
    i: u64,
    progress: &Progress,
) -> Result<Option<Found>, Option<StressError>> {
    let planned = &options.plan[((i - 1) % options.plan.len() as u64) as usize];
    let seed = options.seed.wrapping_add(i - 1);
    let input = subject
        .generate(&planned.options, seed)
        .map_err(|message| StressError::Generate {
            args: planned.args.clone(),
            seed,
            message,
        })?;
    let expected = subject
        .reference(&input)
        .map_err(|message| StressError::Reference {
            what: format!(
                "the input of `{} gen {} --seed {seed}`",
                subject.name(),
                planned.args
            ),
            message,
        })?;
    let Some(judged) = judge_run(
        subject,
        program,
        &input,
        expected,
        &options.limits,
        &options.layers,
        Some(&progress.stop),
    )?
    else {
        return Err(None);
    };
    progress.runs.fetch_add(1, Ordering::Relaxed);
    if judged.verdict == Verdict::Accepted {
        progress.accepted.fetch_add(1, Ordering::Relaxed);
        return Ok(None);
    }
    Ok(Some(Found {
        run: i,
        seed,
        args: planned.args.clone(),
        input,
        judged,
    }))
}

/// Shrinks a failure: fewer cases, then smaller ones, while the same verdict comes back.
fn shrink_found<S: Subject>(
    subject: &S,
    program: &Resolved,
    options: &StressOptions<S::Gen>,
    found: Found,
    progress: &Progress,
) -> Result<Failing, StressError> {
    progress.shrinking.store(true, Ordering::Relaxed);
    progress
        .smallest
        .store(found.input.len() as u64, Ordering::Relaxed);
    let mut failing = Failing {
        run: found.run,
        seed: found.seed,
        args: found.args,
        original_cases: None,
        shrunk: Vec::new(),
        shrunk_cases: None,
        shrink_runs: 0,
        judged: found.judged,
        interrupted: false,
        original: found.input,
    };
    let Ok(cases) = subject.cases(&failing.original) else {
        failing.shrunk = failing.original.clone();
        return Ok(failing);
    };
    failing.original_cases = Some(cases.len());
    failing.shrunk_cases = Some(cases.len());
    let keep_valid = subject.valid(&failing.original);
    let verdict = failing.judged.verdict;
    let mut best: Option<(Vec<u8>, usize, Judgement)> = None;
    let mut tried = HashSet::new();
    tried.insert(failing.original.clone());
    let mut tries = 0u64;
    let fails = |candidate: &[S::Case]| -> Result<Trial, StressError> {
        if progress.stop.load(Ordering::Relaxed) {
            return Ok(Trial::Skipped);
        }
        let input = subject.write_input(candidate);
        // An input tried before (delta debugging meets some twice) is not run again.
        if !tried.insert(input.clone()) || (keep_valid && !subject.valid(&input)) {
            return Ok(Trial::Skipped);
        }
        let Ok(expected) = subject.reference(&input) else {
            return Ok(Trial::Skipped);
        };
        tries += 1;
        progress.shrink_tries.store(tries, Ordering::Relaxed);
        let Some(judged) = judge_run(
            subject,
            program,
            &input,
            expected,
            &options.limits,
            &options.layers,
            Some(&progress.stop),
        )?
        else {
            return Ok(Trial::Skipped);
        };
        if judged.verdict != verdict {
            return Ok(Trial::Passes);
        }
        progress
            .smallest
            .store(input.len() as u64, Ordering::Relaxed);
        best = Some((input, candidate.len(), judged));
        Ok(Trial::Fails)
    };
    let shrunk = shrink::shrink(cases, |c| subject.smaller(c), fails, options.shrink_runs)?;
    failing.shrink_runs = shrunk.tries;
    failing.interrupted = progress.stop.load(Ordering::Relaxed);
    match best {
        Some((input, cases, judged)) => {
            failing.shrunk = input;
            failing.shrunk_cases = Some(cases);
            failing.judged = judged;
        }
        None => failing.shrunk = failing.original.clone(),
    }
    Ok(failing)
}

/// `N tests` / `1 test`.
pub fn tests_word(n: u64) -> String {
    plural(n, "test")
}

/// The time since `t`, for reports.
pub fn seconds(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

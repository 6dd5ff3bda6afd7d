//! `<puzzle> stress -- PROGRAM` and `<puzzle> judge TESTS -- PROGRAM`: a contestant's program
//! run on generated inputs or on a folder of tests, judged as an online judge would, and the
//! first failing generated input shrunk to a smallest one that still fails.
//!
//! What a puzzle provides is a [`Subject`]; running the program under limits and shrinking are
//! the library's (`judge::run`, `judge::shrink`).

use std::ffi::OsString;
use std::fmt::Debug;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chess_puzzles::error::plural;
use chess_puzzles::input::CaseReader;
use chess_puzzles::judge::compare::{self, Tolerance};
use chess_puzzles::judge::run::{self, Limits, Outcome, Program, Verdict};
use chess_puzzles::judge::shrink::{self, Trial};
use serde_json::json;

use super::duration::TimeLimit;
use super::interrupt;
use super::io::{self, Failure, Output};
use super::progress;

/// What the stress tester and the local judge need of a puzzle.
pub trait Subject {
    /// One test case of an input, parsed.
    type Case: Clone;
    /// The puzzle's own judging options (a tolerance, a layout, a ratio).
    type Judging: clap::Args + Debug + Sync + Judges;
    /// The puzzle's command (`queens`, `nqueens best`).
    const NAME: &'static str;
    /// What one test case is called (`case`, `board`, `scenario`, `test`).
    const CASE: &'static str;
    /// The generator arguments that `stress` cycles through when `--gen-args` is not given:
    /// small inputs of every kind.
    const STRESS_GEN: &'static [&'static str];

    /// The generated input for the generator arguments `words` (without `--seed`) and `seed`.
    fn generate_input(words: &[String], seed: u64) -> Result<Vec<u8>, Failure>;
    /// True when `input` obeys the statement's limits (shrinking keeps a valid input valid).
    fn valid(input: &[u8]) -> bool;
    /// Our answer to `input`, in the judge's format.
    fn reference(input: &[u8], judging: &Self::Judging) -> Result<Vec<u8>, String>;
    /// The test cases of `input`.
    fn cases(input: &[u8]) -> Result<Vec<Self::Case>, String>;
    /// An input made of `cases`.
    fn write_input(cases: &[Self::Case]) -> Vec<u8>;
    /// Smaller instances of one case, each strictly smaller.
    fn smaller(case: &Self::Case) -> Vec<Self::Case>;
    /// What makes `cases` large beyond their number and bytes (`2 knights, 3 pawns`), for the
    /// report of a shrinking; nothing by default.
    fn measure(cases: &[Self::Case]) -> Option<String> {
        let _ = cases;
        None
    }
}

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

/// A puzzle's judging options, which judge a program's output.
pub trait Judges {
    /// Judges the program's output `actual` for `input`, `expected` being the right (or the
    /// reference) answer.
    fn judge(&self, input: &[u8], expected: &[u8], actual: &[u8]) -> Judged;
}

/// The judging options of the puzzles with one right answer.
#[derive(Debug, clap::Args)]
pub struct ExactJudging {
    /// Which differences the checker forgives (a difference in whitespace alone, that the
    /// tolerance does not forgive, is a presentation error).
    #[arg(long, value_enum, default_value_t)]
    pub tolerance: Tolerance,
}

impl Judges for ExactJudging {
    fn judge(&self, _: &[u8], expected: &[u8], actual: &[u8]) -> Judged {
        judge_exact(expected, actual, self.tolerance)
    }
}

/// Every case `reader` gives.
pub fn read_all<C: CaseReader>(mut reader: C) -> Result<Vec<C::Case>, String> {
    let mut cases = Vec::new();
    while let Some(case) = reader.next_case().map_err(|e| e.to_string())? {
        cases.push(case);
    }
    Ok(cases)
}

/// How `stress` and `judge` write their report.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, clap::ValueEnum)]
pub enum ReportFormat {
    /// Plain text for people.
    #[default]
    Text,
    /// JSON for programs.
    Json,
}

/// The largest `--output-limit`, in MiB.
const MAX_OUTPUT_MIB: u64 = 1024;

/// The most output the runs side by side may hold at once (`--jobs` times `--output-limit`),
/// in MiB: each run's output is kept in memory until it is judged.
const MAX_HELD_OUTPUT_MIB: u64 = 4096;

/// The limits of every run, how to report, and the program.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// CPU seconds per run; the wall-clock limit is twice as long. The program is killed
    /// (with every process it started) when either runs out: time limit exceeded.
    #[arg(long, value_name = "S", default_value = "2")]
    time_limit: TimeLimit,
    /// Memory per run in MiB (the address space, RLIMIT_AS; 0: no limit).
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(0..=1 << 30))]
    memory_limit: u64,
    /// Standard output per run in MiB (at most 1024): more is output limit exceeded. Every
    /// run's output is held in memory, so `--jobs` times this may be at most 4096 MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=MAX_OUTPUT_MIB))]
    output_limit: u64,
    /// Runs side by side.
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// How to write the report.
    #[arg(long, value_enum, default_value_t)]
    format: ReportFormat,
    /// The program to judge and its arguments, after `--`: it reads a judge input on standard
    /// input and writes its answer on standard output.
    #[arg(last = true, required = true, value_name = "PROGRAM")]
    program: Vec<OsString>,
}

impl RunArgs {
    fn limits(&self) -> Limits {
        let memory = (self.memory_limit > 0).then_some(self.memory_limit);
        Limits::new(self.time_limit.duration(), memory, self.output_limit)
    }

    fn program(&self) -> Result<Program, Failure> {
        let held = u64::from(self.jobs) * self.output_limit;
        if held > MAX_HELD_OUTPUT_MIB {
            return Err(Failure::Usage(format!(
                "--jobs {} times --output-limit {} is {held} MiB of output held at once; at \
                 most {MAX_HELD_OUTPUT_MIB} MiB (lower either)",
                self.jobs, self.output_limit
            )));
        }
        let Some((path, args)) = self.program.split_first() else {
            return Err(Failure::Usage(
                "expected the program to judge after `--`".to_string(),
            ));
        };
        Ok(Program::new(path.clone(), args.to_vec()))
    }
}

/// Arguments of `<puzzle> stress`.
#[derive(Debug, clap::Args)]
pub struct StressArgs<J: clap::Args> {
    /// How many runs (default: 100, or no bound with --time).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    cases: Option<u64>,
    /// Keep trying for this many seconds (with --cases: whichever ends first).
    #[arg(long, value_name = "S")]
    time: Option<TimeLimit>,
    /// The seed of the first run; run i uses seed + i.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Generator arguments for every run, as `<puzzle> gen` takes them (`--cases 3 --kind
    /// most`), instead of cycling through small inputs of every kind.
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    gen_args: Option<String>,
    /// At most this many runs to shrink a failing input.
    #[arg(long, value_name = "N", default_value_t = 300)]
    shrink_runs: usize,
    /// Save the failure in this directory (created if needed): original.in, shrunk.in,
    /// shrunk.out (the right answer, so that `judge DIR` replays it) and shrunk.actual.
    #[arg(long, value_name = "DIR")]
    save: Option<PathBuf>,
    #[command(flatten)]
    judging: J,
    #[command(flatten)]
    run: RunArgs,
}

/// Arguments of `<puzzle> judge`.
#[derive(Debug, clap::Args)]
pub struct JudgeArgs<J: clap::Args> {
    /// A directory of tests: each `NAME.in` with its answer `NAME.out` (our answer when there
    /// is none).
    tests: PathBuf,
    #[command(flatten)]
    judging: J,
    #[command(flatten)]
    run: RunArgs,
}

/// Why a stress run or a judging stopped before its end.
enum Stop {
    Failure(Failure),
    Interrupted,
}

impl From<Failure> for Stop {
    fn from(f: Failure) -> Stop {
        Stop::Failure(f)
    }
}

/// One judged run.
#[derive(Clone, Debug)]
struct Judgement {
    verdict: Verdict,
    reason: String,
    expected: Vec<u8>,
    outcome: Outcome,
}

fn cannot_run(program: &Program, e: std::io::Error) -> Failure {
    Failure::Usage(format!(
        "cannot run the program '{}': {e}",
        program.path.to_string_lossy()
    ))
}

/// Runs the program on `input` and judges its output against `expected`.
fn judge_run<S: Subject>(
    program: &Program,
    input: &[u8],
    expected: Vec<u8>,
    limits: &Limits,
    judging: &S::Judging,
    stop: &AtomicBool,
) -> Result<Judgement, Stop> {
    let resolved = program
        .resolve()
        .map_err(|e| Failure::Usage(e.to_string()))?;
    let layers = run::Containment::Auto.layers().unwrap_or_default();
    let outcome = run::run(&resolved, input, limits, &layers, Some(stop))
        .map_err(|e| cannot_run(program, std::io::Error::other(e.to_string())))?;
    if outcome.killed == Some(run::Killed::Stopped) {
        return Err(Stop::Interrupted);
    }
    let (verdict, reason) = match outcome.limit_verdict(limits) {
        Some(verdict) => (verdict, limit_reason(verdict, &outcome, limits)),
        None => match judging.judge(input, &expected, &outcome.stdout) {
            Judged::Accepted => (Verdict::Accepted, String::new()),
            Judged::Wrong(r) => (Verdict::WrongAnswer, r),
            Judged::Presentation(r) => (Verdict::PresentationError, r),
        },
    };
    Ok(Judgement {
        verdict,
        reason,
        expected,
        outcome,
    })
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// Why the limits gave `verdict`.
fn limit_reason(verdict: Verdict, o: &Outcome, limits: &Limits) -> String {
    let said = String::from_utf8_lossy(&o.stderr);
    let last_words = said.lines().rev().find(|l| !l.trim().is_empty());
    let with_words = |text: String| match last_words {
        Some(words) => format!("{text}: {}", words.trim()),
        None => text,
    };
    match verdict {
        Verdict::OutputLimit => format!("more than {} of output", mib(limits.output)),
        Verdict::TimeLimit if o.killed == Some(run::Killed::Idle) => format!(
            "killed after {:.2} s of wall-clock time (CPU time {:.2} s, limit {:.2} s)",
            o.wall.as_secs_f64(),
            o.cpu.as_secs_f64(),
            limits.cpu.as_secs_f64()
        ),
        Verdict::TimeLimit => format!(
            "CPU time {:.2} s, limit {:.2} s ({})",
            o.cpu.as_secs_f64(),
            limits.cpu.as_secs_f64(),
            o.exit_text()
        ),
        Verdict::MemoryLimit => with_words(format!(
            "{}, peak memory {} of {}",
            o.exit_text(),
            mib(o.peak_memory),
            mib(limits.memory.unwrap_or(0))
        )),
        _ => with_words(o.exit_text()),
    }
}

/// The generator arguments of run `i`.
fn gen_words<S: Subject>(gen_args: Option<&str>, i: u64) -> Vec<String> {
    let line = gen_args.unwrap_or_else(|| {
        let all = S::STRESS_GEN;
        all[(i % all.len() as u64) as usize]
    });
    line.split_whitespace().map(str::to_string).collect()
}

/// What a stress run found at its first failure.
struct Found {
    run: u64,
    seed: u64,
    gen_args: String,
    original: Vec<u8>,
    first: Judgement,
}

/// Where the stress tester is, for its progress display.
#[derive(Default)]
struct Status {
    runs: AtomicU64,
    accepted: AtomicU64,
    shrink_tries: AtomicU64,
    message: Mutex<String>,
}

/// `<puzzle> stress`.
pub fn stress<S: Subject>(
    args: StressArgs<S::Judging>,
    out: &mut Output,
) -> Result<io::Verdict, Failure> {
    let program = args.run.program()?;
    let limits = args.run.limits();
    let jobs = u64::from(args.run.jobs);
    let runs_wanted = args
        .cases
        .unwrap_or(if args.time.is_some() { u64::MAX } else { 100 });
    if let Some(words) = &args.gen_args {
        // Bad generator arguments are a usage error before anything runs.
        S::generate_input(&gen_words::<S>(Some(words), 0), args.seed)?;
    }
    let stop = interrupt::install();
    let started = Instant::now();
    let deadline = args.time.and_then(|t| t.deadline(started));
    let status = Status::default();
    let found = progress::with_bar(
        progress::QUIET_FOR,
        |bar| draw(bar, &status, runs_wanted),
        || -> Result<Option<Found>, Stop> {
            let mut next = 0u64;
            while next < runs_wanted {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                if stop.load(Ordering::Relaxed) {
                    return Err(Stop::Interrupted);
                }
                let batch: Vec<u64> = (next..runs_wanted.min(next.saturating_add(jobs))).collect();
                next += batch.len() as u64;
                let results: Vec<Result<Option<Found>, Stop>> = std::thread::scope(|scope| {
                    let handles: Vec<_> = batch
                        .iter()
                        .map(|&i| {
                            let (program, limits, args, status) =
                                (&program, &limits, &args, &status);
                            scope.spawn(move || {
                                one_stress_run::<S>(i, args, program, limits, stop, status)
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or(Err(Stop::Failure(Failure::Usage(
                                "internal error: a run's thread panicked".to_string(),
                            ))))
                        })
                        .collect()
                });
                for result in results {
                    if let Some(found) = result? {
                        return Ok(Some(found));
                    }
                }
            }
            Ok(None)
        },
    );
    let runs = status.runs.load(Ordering::Relaxed);
    let found = match found {
        Ok(found) => found,
        Err(Stop::Failure(f)) => return Err(f),
        Err(Stop::Interrupted) => {
            eprintln!(
                "interrupted after {}, every one accepted",
                plural(runs, "run")
            );
            return Ok(io::Verdict::Interrupted);
        }
    };
    let Some(found) = found else {
        let report = match args.run.format {
            ReportFormat::Text if runs == 0 => "no run made: the time ran out first\n".to_string(),
            ReportFormat::Text => format!(
                "accepted: {} (seeds {}..{})\n",
                plural(runs, "run"),
                args.seed,
                args.seed.wrapping_add(runs - 1)
            ),
            ReportFormat::Json => format!(
                "{}\n",
                json!({
                    "verdict": "AC", "runs": runs, "seed": args.seed, "input": null,
                    "original_bytes": null, "shrunk_bytes": null, "reason": null,
                    "expected": null, "actual": null,
                })
            ),
        };
        out.write_all(report.as_bytes()).map_err(Failure::Output)?;
        return Ok(io::Verdict::Done);
    };
    let shrunk = progress::with_bar(
        Duration::ZERO,
        |bar| {
            bar.set_length(args.shrink_runs.max(1) as u64);
            bar.set_position(status.shrink_tries.load(Ordering::Relaxed));
            if let Ok(m) = status.message.lock() {
                bar.set_message(m.clone());
            }
        },
        || shrink_found::<S>(&found, &args, &program, &limits, stop, &status),
    )?;
    let interrupted = interrupt::requested();
    report_failure::<S>(&found, &shrunk, runs, &args, out)?;
    if interrupted {
        eprintln!("interrupted: the shrinking stopped early; the input above still fails");
        return Ok(io::Verdict::Interrupted);
    }
    Ok(io::Verdict::Rejected)
}

fn draw(bar: &indicatif::ProgressBar, status: &Status, wanted: u64) {
    let runs = status.runs.load(Ordering::Relaxed);
    if wanted != u64::MAX {
        bar.set_length(wanted);
    }
    bar.set_position(runs);
    bar.set_message(format!(
        "{runs} runs, {} accepted",
        status.accepted.load(Ordering::Relaxed)
    ));
}

fn one_stress_run<S: Subject>(
    i: u64,
    args: &StressArgs<S::Judging>,
    program: &Program,
    limits: &Limits,
    stop: &AtomicBool,
    status: &Status,
) -> Result<Option<Found>, Stop> {
    let words = gen_words::<S>(args.gen_args.as_deref(), i);
    let seed = args.seed.wrapping_add(i);
    let input = S::generate_input(&words, seed)?;
    let expected = S::reference(&input, &args.judging).map_err(|e| {
        Failure::Usage(format!(
            "our own solver cannot answer the generated input (gen args '{}', seed {seed}): {e}",
            words.join(" ")
        ))
    })?;
    let judged = judge_run::<S>(program, &input, expected, limits, &args.judging, stop)?;
    status.runs.fetch_add(1, Ordering::Relaxed);
    if judged.verdict == Verdict::Accepted {
        status.accepted.fetch_add(1, Ordering::Relaxed);
        return Ok(None);
    }
    Ok(Some(Found {
        run: i,
        seed,
        gen_args: words.join(" "),
        original: input,
        first: judged,
    }))
}

/// The smallest failing input found.
struct ShrunkInput {
    input: Vec<u8>,
    cases: Option<usize>,
    original_cases: Option<usize>,
    judged: Judgement,
    tries: usize,
}

fn shrink_found<S: Subject>(
    found: &Found,
    args: &StressArgs<S::Judging>,
    program: &Program,
    limits: &Limits,
    stop: &AtomicBool,
    status: &Status,
) -> Result<ShrunkInput, Failure> {
    let mut best = ShrunkInput {
        input: found.original.clone(),
        cases: None,
        original_cases: None,
        judged: found.first.clone(),
        tries: 0,
    };
    let Ok(cases) = S::cases(&found.original) else {
        return Ok(best);
    };
    best.cases = Some(cases.len());
    best.original_cases = Some(cases.len());
    let keep_valid = S::valid(&found.original);
    let verdict = found.first.verdict;
    let mut tries = 0usize;
    let mut smallest = found.original.len();
    let mut tried = std::collections::HashSet::new();
    tried.insert(found.original.clone());
    let fails = |candidate: &[S::Case]| -> Result<Trial, Failure> {
        if stop.load(Ordering::Relaxed) {
            return Ok(Trial::Skipped);
        }
        let input = S::write_input(candidate);
        // An input tried before (delta debugging meets some twice) is not run again.
        if !tried.insert(input.clone()) || (keep_valid && !S::valid(&input)) {
            return Ok(Trial::Skipped);
        }
        let Ok(expected) = S::reference(&input, &args.judging) else {
            return Ok(Trial::Skipped);
        };
        tries += 1;
        status.shrink_tries.store(tries as u64, Ordering::Relaxed);
        if let Ok(mut m) = status.message.lock() {
            *m = format!(
                "shrinking the {} ({}): try {tries}, smallest {} so far",
                verdict,
                verdict.code(),
                plural(smallest as u64, "byte")
            );
        }
        let judged = match judge_run::<S>(program, &input, expected, limits, &args.judging, stop) {
            Ok(j) => j,
            Err(Stop::Interrupted) => return Ok(Trial::Skipped),
            Err(Stop::Failure(f)) => return Err(f),
        };
        if judged.verdict != verdict {
            return Ok(Trial::Passes);
        }
        smallest = input.len();
        best.input = input;
        best.cases = Some(candidate.len());
        best.judged = judged;
        Ok(Trial::Fails)
    };
    let shrunk = shrink::shrink(cases, S::smaller, fails, args.shrink_runs)?;
    best.tries = shrunk.tries;
    Ok(best)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn report_failure<S: Subject>(
    found: &Found,
    shrunk: &ShrunkInput,
    runs: u64,
    args: &StressArgs<S::Judging>,
    out: &mut Output,
) -> Result<(), Failure> {
    let judged = &shrunk.judged;
    if let Some(dir) = &args.save {
        let cannot = |e: std::io::Error| Failure::Input {
            name: dir.display().to_string(),
            error: chess_puzzles::error::InputError::Io(e),
        };
        std::fs::create_dir_all(dir).map_err(cannot)?;
        let files: [(&str, &[u8]); 4] = [
            ("original.in", &found.original),
            ("shrunk.in", &shrunk.input),
            ("shrunk.out", &judged.expected),
            ("shrunk.actual", &judged.outcome.stdout),
        ];
        for (name, bytes) in files {
            std::fs::write(dir.join(name), bytes).map_err(cannot)?;
        }
    }
    let report = match args.run.format {
        ReportFormat::Json => format!(
            "{}\n",
            json!({
                "verdict": judged.verdict.code(),
                "runs": runs,
                "seed": args.seed,
                "run": found.run,
                "run_seed": found.seed,
                "gen_args": found.gen_args,
                "input": text(&shrunk.input),
                "original_bytes": found.original.len(),
                "shrunk_bytes": shrunk.input.len(),
                "original_cases": shrunk.original_cases,
                "shrunk_cases": shrunk.cases,
                "shrink_runs": shrunk.tries,
                "reason": judged.reason,
                "expected": text(&judged.expected),
                "actual": text(&judged.outcome.stdout),
            })
        ),
        ReportFormat::Text => {
            let size = |input: &[u8], cases: Option<usize>| {
                let mut text = match cases {
                    Some(c) => format!(
                        "{}, {}",
                        plural(c as u64, S::CASE),
                        plural(input.len() as u64, "byte")
                    ),
                    None => plural(input.len() as u64, "byte"),
                };
                if let Some(measure) = S::cases(input).ok().and_then(|c| S::measure(&c)) {
                    text.push_str(&format!(" ({measure})"));
                }
                text
            };
            let mut r = format!(
                "{} on run {}, the input of `{} gen {} --seed {}`\n",
                judged.verdict,
                found.run + 1,
                S::NAME,
                found.gen_args,
                found.seed
            );
            let (before, after) = (
                size(&found.original, shrunk.original_cases),
                size(&shrunk.input, shrunk.cases),
            );
            if shrunk.input == found.original {
                r.push_str(&format!(
                    "not shrunk: no smaller input fails the same way ({} tried); {before}\n",
                    plural(shrunk.tries as u64, "run")
                ));
            } else {
                r.push_str(&format!(
                    "shrunk from {before} to {after} in {}\n",
                    plural(shrunk.tries as u64, "run")
                ));
            }
            if !judged.reason.is_empty() {
                r.push_str(&format!("reason: {}\n", judged.reason));
            }
            for (title, bytes) in [
                ("input", &shrunk.input),
                ("expected output", &judged.expected),
                ("actual output", &judged.outcome.stdout),
            ] {
                r.push_str(&format!("--- {title}\n"));
                let shown = text(bytes);
                r.push_str(&shown);
                if !shown.is_empty() && !shown.ends_with('\n') {
                    r.push_str("\n(no newline at the end)\n");
                }
            }
            r
        }
    };
    out.write_all(report.as_bytes()).map_err(Failure::Output)
}

/// One test of a folder: its name, the paths of its input and of its answer when it has one.
/// They are read when the test is judged, so that the folder is never in memory at once.
struct Test {
    name: String,
    input: PathBuf,
    answer: Option<PathBuf>,
}

/// The largest test input `judge` reads, in bytes (a judge's tests are megabytes).
const MAX_TEST_BYTES: u64 = 256 << 20;

fn cannot_read(path: &Path, e: std::io::Error) -> Failure {
    Failure::Input {
        name: path.display().to_string(),
        error: chess_puzzles::error::InputError::Io(e),
    }
}

/// The bytes of `path`, refused (a usage error naming `what`) past `limit` bytes.
fn read_at_most(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| cannot_read(path, e))?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| cannot_read(path, e))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::Usage(format!(
            "{}: larger than {what} ({} MiB)",
            path.display(),
            limit >> 20
        )));
    }
    Ok(bytes)
}

fn tests_in(dir: &Path) -> Result<Vec<Test>, Failure> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| cannot_read(dir, e))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "in") && p.is_file())
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(Failure::Usage(format!(
            "no test (NAME.in) in {}",
            dir.display()
        )));
    }
    Ok(names
        .into_iter()
        .map(|path| {
            let answer = path.with_extension("out");
            Test {
                name: path
                    .file_stem()
                    .map_or(String::new(), |s| s.to_string_lossy().into_owned()),
                answer: answer.exists().then_some(answer),
                input: path,
            }
        })
        .collect())
}

/// `<puzzle> judge`.
pub fn judge<S: Subject>(
    args: JudgeArgs<S::Judging>,
    out: &mut Output,
) -> Result<io::Verdict, Failure> {
    let program = args.run.program()?;
    let limits = args.run.limits();
    let tests = tests_in(&args.tests)?;
    let stop = interrupt::install();
    let width = tests.iter().map(|t| t.name.len()).max().unwrap_or(4).max(4);
    // The table's heading comes with its first line: a program that cannot run gets an error
    // alone.
    let mut heading = args.run.format == ReportFormat::Text;
    let done = AtomicU64::new(0);
    let accepted = AtomicU64::new(0);
    let mut first_failure: Option<(String, Verdict)> = None;
    let total = tests.len() as u64;
    let jobs = usize::from(args.run.jobs);
    let ended = progress::with_bar(
        progress::QUIET_FOR,
        |bar| {
            bar.set_length(total);
            let d = done.load(Ordering::Relaxed);
            bar.set_position(d);
            bar.set_message(format!(
                "{d}/{total} tests judged, {} accepted",
                accepted.load(Ordering::Relaxed)
            ));
        },
        || -> Result<Option<io::Verdict>, Failure> {
            for chunk in tests.chunks(jobs) {
                let results: Vec<Result<Judgement, Stop>> = std::thread::scope(|scope| {
                    let handles: Vec<_> = chunk
                        .iter()
                        .map(|test| {
                            let (program, limits, judging, done) =
                                (&program, &limits, &args.judging, &done);
                            scope.spawn(move || {
                                let input =
                                    read_at_most(&test.input, MAX_TEST_BYTES, "a test may be")?;
                                let expected = match &test.answer {
                                    // An answer longer than the output limit could never be
                                    // matched.
                                    Some(a) => read_at_most(
                                        a,
                                        limits.output,
                                        "the output limit (--output-limit)",
                                    )?,
                                    None => S::reference(&input, judging).map_err(|e| {
                                        Failure::Usage(format!(
                                            "{}.in: our own solver cannot answer it: {e}",
                                            test.name
                                        ))
                                    })?,
                                };
                                let j = judge_run::<S>(
                                    program, &input, expected, limits, judging, stop,
                                );
                                done.fetch_add(1, Ordering::Relaxed);
                                j
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| {
                            h.join().unwrap_or(Err(Stop::Failure(Failure::Usage(
                                "internal error: a run's thread panicked".to_string(),
                            ))))
                        })
                        .collect()
                });
                for (test, result) in chunk.iter().zip(results) {
                    let judged = match result {
                        Ok(j) => j,
                        Err(Stop::Failure(f)) => return Err(f),
                        Err(Stop::Interrupted) => {
                            out.flush().map_err(Failure::Output)?;
                            return Ok(Some(io::Verdict::Interrupted));
                        }
                    };
                    if judged.verdict == Verdict::Accepted {
                        accepted.fetch_add(1, Ordering::Relaxed);
                    } else if first_failure.is_none() {
                        first_failure = Some((test.name.clone(), judged.verdict));
                    }
                    let o = &judged.outcome;
                    let line = match args.run.format {
                        ReportFormat::Text => {
                            let mut line = format!(
                                "{:<width$}  {:<7}  {:<7}  {}",
                                test.name,
                                judged.verdict.code(),
                                format!("{:.2} s", o.cpu.as_secs_f64()),
                                mib(o.peak_memory)
                            );
                            if !judged.reason.is_empty() {
                                line.push_str(&format!("  {}", judged.reason));
                            }
                            line
                        }
                        ReportFormat::Json => json!({
                            "test": test.name,
                            "verdict": judged.verdict.code(),
                            "cpu_seconds": o.cpu.as_secs_f64(),
                            "wall_seconds": o.wall.as_secs_f64(),
                            "peak_memory_bytes": o.peak_memory,
                            "reason": judged.reason,
                        })
                        .to_string(),
                    };
                    if heading {
                        heading = false;
                        writeln!(out, "{:<width$}  verdict  time     memory", "test")
                            .map_err(Failure::Output)?;
                    }
                    writeln!(out, "{line}").map_err(Failure::Output)?;
                    out.flush().map_err(Failure::Output)?;
                }
            }
            Ok(None)
        },
    )?;
    if let Some(verdict) = ended {
        // The bar is gone: the message has a clean line.
        eprintln!(
            "interrupted: {} of {total} tests judged",
            done.load(Ordering::Relaxed)
        );
        return Ok(verdict);
    }
    let accepted = accepted.load(Ordering::Relaxed);
    let verdict = first_failure.as_ref().map_or(Verdict::Accepted, |f| f.1);
    match args.run.format {
        ReportFormat::Text => match &first_failure {
            None => writeln!(out, "accepted: {accepted} of {}", plural(total, "test")),
            Some((name, v)) => writeln!(
                out,
                "{v}: {accepted} of {} accepted; the first failure is {name}",
                plural(total, "test")
            ),
        },
        ReportFormat::Json => writeln!(
            out,
            "{}",
            json!({"verdict": verdict.code(), "tests": total, "accepted": accepted})
        ),
    }
    .map_err(Failure::Output)?;
    Ok(if first_failure.is_none() {
        io::Verdict::Done
    } else {
        io::Verdict::Rejected
    })
}

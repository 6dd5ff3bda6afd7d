//! `<puzzle> stress -- PROGRAM` and `<puzzle> judge TESTS -- PROGRAM`: the arguments parsed
//! into the library's options, and its results printed. The stress loop, the shrinking and the
//! folder judge are the library's (`judge::stress`), running and containing the program
//! `judge::run`.

use std::ffi::OsString;
use std::fmt::Debug;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use chess_puzzles::error::plural;
use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::judge::report::{self, Excerpt, escape};
use chess_puzzles::judge::run::{self, Containment, Layers, Limits, Program, Resolved, View};
use chess_puzzles::judge::sandbox::{self, SandboxMode, SandboxOptions};
use chess_puzzles::judge::stress::{
    self, Failing, FolderSummary, Judgement, Planned, Progress, StressEnd, StressError,
    StressOptions, Subject, TestEnd,
};
use serde_json::json;

use super::duration::TimeLimit;
use super::interrupt;
use super::io::{self, Failure, Output};
use super::progress;

/// What `stress` and `judge` need of a puzzle's command: its judging options, which make the
/// library's subject, and its generator arguments (`--gen-args`) as the generator's options.
pub trait Stressed {
    /// The puzzle's judging options on the command line (a tolerance, a layout, a ratio).
    type Judging: clap::Args + Debug;
    /// The library's subject.
    type Subject: Subject;
    /// The subject the judging options make.
    fn subject(judging: &Self::Judging) -> Self::Subject;
    /// The generator options of `--gen-args` (`<puzzle> gen` arguments, without `--seed`).
    fn gen_options(
        words: &[String],
        judging: &Self::Judging,
    ) -> Result<<Self::Subject as Subject>::Gen, Failure>;
}

/// The judging options of the puzzles with one right answer.
#[derive(Debug, clap::Args)]
pub struct ExactJudging {
    /// Which differences the checker forgives (a difference in whitespace alone, that the
    /// tolerance does not forgive, is a presentation error).
    #[arg(long, value_enum, default_value_t)]
    pub tolerance: Tolerance,
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
    /// CPU seconds per run (of the program and every process it starts): more is time limit
    /// exceeded (TLE), whatever the load of the machine.
    #[arg(long, value_name = "S", default_value = "2")]
    time_limit: TimeLimit,
    /// Wall-clock seconds after which a run that is not computing (waiting, sleeping) is
    /// stopped: idleness limit exceeded (ILE). Default: twice --time-limit.
    #[arg(long, value_name = "S")]
    idle_limit: Option<TimeLimit>,
    /// Memory per run in MiB, of the program and every process it starts (0: no limit): the
    /// memory they use, limited by a memory cgroup where one can be made, otherwise each
    /// process's data (RLIMIT_DATA) and the run's resident memory, watched.
    #[arg(long, value_name = "MIB", default_value_t = 256, value_parser = clap::value_parser!(u64).range(0..=1 << 30))]
    memory_limit: u64,
    /// Standard output per run in MiB (at most 1024): more is output limit exceeded. Every
    /// run's output is held in memory, so `--jobs` times this may be at most 4096 MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=MAX_OUTPUT_MIB))]
    output_limit: u64,
    /// Runs side by side (a warning when more than the cores: the runs then share them; the
    /// verdicts do not change, the time taken does).
    #[arg(long, value_name = "J", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// What holds every process of a run: auto (a PID namespace where the system allows one,
    /// else a child subreaper with a cgroup v2; a cgroup v2 where one can be made), or one
    /// of them alone (subreaper only when asked: it cannot hold a program that kills its
    /// keeper).
    #[arg(long, value_enum, default_value_t)]
    containment: Containment,
    /// The sandbox of every run: auto (everything this system allows: namespaces of its own
    /// for mounts, network and IPC, read-only system folders and its own, a scratch /tmp,
    /// nothing of the tests, its own /proc, process and memory limits; what is missing is
    /// reported), strict (all of it or no run), off.
    #[arg(long, value_enum, default_value_t)]
    sandbox: SandboxMode,
    /// Leave the program the system's network (otherwise it has a loopback of its own alone,
    /// and no internet or netlink socket).
    #[arg(long)]
    allow_network: bool,
    /// A folder the program may read (shown read-only at the same path); repeat for more.
    #[arg(long, value_name = "DIR")]
    read_only: Vec<PathBuf>,
    /// Let the program make unix sockets, and so reach a socket file of a folder it is shown
    /// (refused otherwise; socket pairs and pipes always work).
    #[arg(long)]
    allow_unix_sockets: bool,
    /// Pass the variable NAME of this environment to the program too, or set NAME=VALUE
    /// (repeatable). The program gets PATH, LANG, LANGUAGE, LC_*, TZ and HOME (its /tmp in
    /// the sandbox) otherwise, and JAVA_TOOL_OPTIONS telling a JVM the memory limit.
    #[arg(long, value_name = "NAME[=VALUE]")]
    env: Vec<OsString>,
    /// The most processes and threads a run may have at once (not with --sandbox off).
    #[arg(long, value_name = "N", default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    process_limit: u32,
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
        let mut limits = Limits::new(self.time_limit.duration(), memory, self.output_limit);
        if let Some(idle) = self.idle_limit {
            limits.wall = idle.duration();
        }
        limits
    }

    /// The program, resolved, and the containment in force; a warning when --jobs exceeds the
    /// cores.
    fn prepare(&self, hidden: Option<&std::path::Path>) -> Result<(Resolved, Layers), Failure> {
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
        let program = Program::new(path.clone(), args.to_vec())
            .resolve()
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let layers = self.containment.layers().map_err(|e| {
            Failure::Usage(format!("--containment {:?}: {e}", self.containment).to_lowercase())
        })?;
        if self.containment == Containment::Subreaper {
            eprintln!(
                "warning: --containment subreaper: a program that kills its keeper (a daemon \
                 that double-forks first) can leave processes running after its run; prefer \
                 namespace or cgroup where the system allows them"
            );
        }
        let mut program = program;
        for spec in &self.env {
            program = program
                .pass_env(spec)
                .map_err(|e| Failure::Usage(format!("--env: {e}")))?;
        }
        let read_only: Vec<PathBuf> = self
            .read_only
            .iter()
            .map(|d| d.canonicalize().unwrap_or_else(|_| d.clone()))
            .collect();
        let options = SandboxOptions {
            mode: self.sandbox,
            network: self.allow_network,
            read_only: read_only.clone(),
            processes: self.process_limit,
            unix_sockets: self.allow_unix_sockets,
        };
        let layers = layers
            .sandboxed(&options)
            .map_err(|e| Failure::Usage(e.to_string()))?;
        let program = if layers.sandbox.files {
            let cwd = std::env::current_dir()
                .ok()
                .and_then(|d| d.canonicalize().ok());
            let env_target = program.env_target();
            let shown = sandbox::shown_folders(
                &program.file(),
                env_target.as_deref(),
                &program.args(),
                &read_only,
                cwd.as_deref(),
            );
            let hidden: Vec<PathBuf> = hidden
                .and_then(|h| h.canonicalize().ok())
                .into_iter()
                .collect();
            for needed in std::iter::once(program.file())
                .chain(program.interpreter())
                .chain(env_target)
            {
                if !sandbox::visible(&needed, &shown, &hidden) {
                    return Err(Failure::Usage(
                        sandbox::SandboxError::Unseen(needed).to_string(),
                    ));
                }
            }
            // A root judge's program runs as nobody: what it must read must be readable by
            // other users (only the folders shown count; those above them are the sandbox's).
            // Safety: geteuid cannot fail.
            if layers.sandbox.user && unsafe { libc::geteuid() } == 0 {
                let files = std::iter::once(program.file())
                    .chain(program.args().into_iter().filter(|a| a.is_file()));
                for file in files {
                    if let Some(closed) = sandbox::closed_to_others(&file, &shown) {
                        return Err(Failure::Usage(
                            sandbox::SandboxError::Closed(closed).to_string(),
                        ));
                    }
                }
            }
            let cwd = cwd.filter(|d| sandbox::visible(d, &shown, &hidden));
            let opened: Vec<String> = shown
                .iter()
                .filter(|(_, why)| why == "--read-only")
                .map(|(d, _)| format!("{} (read-only)", d.display()))
                .chain(self.allow_network.then(|| "the network".to_string()))
                .collect();
            if !opened.is_empty() && self.format == ReportFormat::Text {
                eprintln!("sandbox: opened by the options: {}", opened.join(", "));
            }
            program.with_view(View { shown, hidden, cwd })
        } else {
            program
        };
        let missing = layers.sandbox.missing();
        if self.sandbox == SandboxMode::Auto
            && !missing.is_empty()
            && self.format == ReportFormat::Text
        {
            eprintln!(
                "sandbox: not available here: {} (--sandbox strict refuses to run without)",
                missing.join(", ")
            );
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if usize::from(self.jobs) > cores {
            eprintln!(
                "warning: --jobs {} is more than the {} of this machine: the runs share them \
                 (the verdicts stay the same, they take longer)",
                self.jobs,
                plural(cores as u64, "core")
            );
        }
        Ok((program, layers))
    }

    fn options<G>(&self, layers: Layers) -> StressOptions<G> {
        StressOptions {
            limits: self.limits(),
            layers,
            jobs: usize::from(self.jobs),
            ..StressOptions::default()
        }
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
    /// The seed of run 1; run i uses seed + i - 1.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Generator arguments for every run, as `<puzzle> gen` takes them (`--cases 3 --kind
    /// most`), instead of cycling from small inputs up to the statement's largest.
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    gen_args: Option<String>,
    /// At most this many runs to shrink a failing input.
    #[arg(long, value_name = "N", default_value_t = 300)]
    shrink_runs: usize,
    /// Save the failure in this directory (created if needed): original.in, shrunk.in,
    /// shrunk.out (the right answer, so that `judge DIR` replays it) and shrunk.actual (the
    /// program's whole output; the report shows the part around the first difference).
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
    /// is none). Only regular files are read: a test whose file is anything else is skipped.
    tests: PathBuf,
    #[command(flatten)]
    judging: J,
    #[command(flatten)]
    run: RunArgs,
}

/// The progress and stop button of the command, for the whole process: the signal handlers
/// raise its stop.
fn progress_for_runs() -> &'static Progress {
    let progress: &'static Progress = Box::leak(Box::default());
    interrupt::install_for_runs(&progress.stop, run::kill_all);
    progress
}

fn failure(e: StressError) -> Failure {
    Failure::Usage(e.to_string())
}

impl From<StressError> for Failure {
    fn from(e: StressError) -> Failure {
        failure(e)
    }
}

/// `<puzzle> stress`.
pub fn stress<P: Stressed>(
    args: StressArgs<P::Judging>,
    out: &mut Output,
) -> Result<io::Verdict, Failure> {
    let (program, layers) = args.run.prepare(None)?;
    let subject = P::subject(&args.judging);
    let plan: Vec<Planned<_>> = match &args.gen_args {
        Some(line) => {
            let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
            let options = P::gen_options(&words, &args.judging)?;
            // Bad generator arguments are a usage error before anything runs.
            subject
                .generate(&options, args.seed)
                .map_err(|e| Failure::Usage(format!("--gen-args '{line}': {e}")))?;
            vec![Planned::new(&words.join(" "), options)]
        }
        None => subject.defaults(),
    };
    let started = Instant::now();
    let options = StressOptions {
        plan,
        runs: args
            .cases
            .unwrap_or(if args.time.is_some() { u64::MAX } else { 100 }),
        deadline: args.time.and_then(|t| t.deadline(started)),
        seed: args.seed,
        shrink_runs: args.shrink_runs,
        ..args.run.options(layers)
    };
    let progress = progress_for_runs();
    let wanted = options.runs;
    let end = progress::with_bar(
        progress::QUIET_FOR,
        |bar| draw(bar, progress, wanted, args.shrink_runs),
        || stress::stress(&subject, &program, &options, progress),
    )
    .map_err(failure)?;
    match end {
        StressEnd::Interrupted { runs } => {
            if args.run.format == ReportFormat::Json {
                // A program reading the report learns that nothing failed before the stop.
                let report = json!({
                    "verdict": null, "interrupted": true, "runs": runs, "seed": args.seed,
                    "input": null, "reason": null, "containment": layers.names(), "containment_missing": layers.sandbox.missing(),
                });
                writeln!(out, "{report}").map_err(Failure::Output)?;
            }
            eprintln!(
                "interrupted after {}, every one accepted",
                plural(runs, "run")
            );
            Ok(io::Verdict::Interrupted)
        }
        StressEnd::Accepted { runs } => {
            let report = match args.run.format {
                ReportFormat::Text if runs == 0 => {
                    "no run made: the time ran out first\n".to_string()
                }
                ReportFormat::Text => format!(
                    "accepted: {} (seeds {}..{})\n",
                    plural(runs, "run"),
                    args.seed,
                    args.seed.wrapping_add(runs.saturating_sub(1))
                ),
                ReportFormat::Json => format!(
                    "{}\n",
                    json!({
                        "verdict": "AC", "interrupted": false, "runs": runs, "seed": args.seed,
                        "input": null,
                        "original_bytes": null, "shrunk_bytes": null, "reason": null,
                        "expected": null, "actual": null, "containment": layers.names(), "containment_missing": layers.sandbox.missing(),
                    })
                ),
            };
            out.write_all(report.as_bytes()).map_err(Failure::Output)?;
            Ok(io::Verdict::Done)
        }
        StressEnd::Failed { runs, failing } => {
            report_failure(&subject, &failing, runs, &args, &layers, out)?;
            if failing.interrupted {
                eprintln!("interrupted: the shrinking stopped early; the input above still fails");
                return Ok(io::Verdict::Interrupted);
            }
            Ok(io::Verdict::Rejected)
        }
    }
}

fn draw(bar: &indicatif::ProgressBar, progress: &Progress, wanted: u64, shrink_runs: usize) {
    if progress.shrinking.load(Ordering::Relaxed) {
        let tries = progress.shrink_tries.load(Ordering::Relaxed);
        bar.set_length(shrink_runs.max(1) as u64);
        bar.set_position(tries);
        bar.set_message(format!(
            "shrinking: try {tries}, smallest {} so far",
            plural(progress.smallest.load(Ordering::Relaxed), "byte")
        ));
        return;
    }
    let runs = progress.runs.load(Ordering::Relaxed);
    if wanted != u64::MAX {
        bar.set_length(wanted);
    }
    bar.set_position(runs);
    bar.set_message(format!(
        "{runs} runs, {} accepted",
        progress.accepted.load(Ordering::Relaxed)
    ));
}

/// An output as a JSON value: its text (lossy UTF-8) and sizes.
fn excerpt_json(e: &Excerpt) -> serde_json::Value {
    json!({"bytes": e.bytes, "lines": e.lines, "first_line": e.first_line, "whole": e.whole})
}

fn report_failure<S: Subject, J: clap::Args>(
    subject: &S,
    failing: &Failing,
    runs: u64,
    args: &StressArgs<J>,
    layers: &Layers,
    out: &mut Output,
) -> Result<(), Failure> {
    let judged: &Judgement = &failing.judged;
    if let Some(dir) = &args.save {
        let cannot = |e: std::io::Error| Failure::Input {
            name: dir.display().to_string(),
            error: chess_puzzles::error::InputError::Io(e),
        };
        std::fs::create_dir_all(dir).map_err(cannot)?;
        let files: [(&str, &[u8]); 4] = [
            ("original.in", &failing.original),
            ("shrunk.in", &failing.shrunk),
            ("shrunk.out", &judged.expected),
            ("shrunk.actual", &judged.outcome.stdout),
        ];
        for (name, bytes) in files {
            std::fs::write(dir.join(name), bytes).map_err(cannot)?;
        }
    }
    let (expected, actual) = report::excerpts(&judged.expected, &judged.outcome.stdout);
    let command = format!(
        "chess-puzzles {} gen {} --seed {}",
        subject.name(),
        failing.args,
        failing.seed
    );
    let text = match args.run.format {
        ReportFormat::Json => format!(
            "{}\n",
            json!({
                "verdict": judged.verdict.code(),
                "interrupted": failing.interrupted,
                "runs": runs,
                "seed": args.seed,
                "run": failing.run,
                "run_seed": failing.seed,
                "gen_args": failing.args,
                "command": command,
                "input": String::from_utf8_lossy(&failing.shrunk),
                "original_bytes": failing.original.len(),
                "shrunk_bytes": failing.shrunk.len(),
                "original_cases": failing.original_cases,
                "shrunk_cases": failing.shrunk_cases,
                "shrink_runs": failing.shrink_runs,
                "reason": judged.reason,
                "expected": expected.raw,
                "actual": actual.raw,
                "expected_output": excerpt_json(&expected),
                "actual_output": excerpt_json(&actual),
                "cpu_seconds": judged.outcome.cpu.as_secs_f64(),
                "wall_seconds": judged.outcome.wall.as_secs_f64(),
                "containment": layers.names(), "containment_missing": layers.sandbox.missing(),
            })
        ),
        ReportFormat::Text => {
            let size = |input: &[u8], cases: Option<usize>| {
                let mut text = match cases {
                    Some(c) => format!(
                        "{}, {}",
                        plural(c as u64, subject.case_name()),
                        plural(input.len() as u64, "byte")
                    ),
                    None => plural(input.len() as u64, "byte"),
                };
                if let Some(measure) = subject.cases(input).ok().and_then(|c| subject.measure(&c)) {
                    text.push_str(&format!(" ({measure})"));
                }
                text
            };
            let mut r = format!(
                "{} on run {}, the input of `{command}`\n",
                judged.verdict, failing.run
            );
            let (before, after) = (
                size(&failing.original, failing.original_cases),
                size(&failing.shrunk, failing.shrunk_cases),
            );
            if failing.shrunk == failing.original && failing.interrupted {
                r.push_str(&format!(
                    "not shrunk: interrupted after {}; {before}\n",
                    plural(failing.shrink_runs as u64, "shrinking run")
                ));
            } else if failing.shrunk == failing.original {
                r.push_str(&format!(
                    "not shrunk: no smaller input fails the same way ({} tried); {before}\n",
                    plural(failing.shrink_runs as u64, "run")
                ));
            } else {
                r.push_str(&format!(
                    "shrunk from {before} to {after} in {}\n",
                    plural(failing.shrink_runs as u64, "run")
                ));
            }
            if !judged.reason.is_empty() {
                r.push_str(&format!(
                    "reason: {}\n",
                    escape(judged.reason.as_bytes(), false)
                ));
            }
            let input = report::head(&failing.shrunk);
            let saved = if args.save.is_some() {
                "the whole of it is in --save's folder"
            } else {
                "--save DIR keeps the whole of it"
            };
            for (title, e) in [
                ("input", &input),
                ("expected output", &expected),
                ("actual output", &actual),
            ] {
                if e.whole {
                    r.push_str(&format!("--- {title}\n"));
                } else {
                    r.push_str(&format!(
                        "--- {title}: lines {}-{} of {} ({}; {saved})\n",
                        e.first_line,
                        e.first_line + e.text.lines().count().saturating_sub(1),
                        e.lines,
                        plural(e.bytes as u64, "byte"),
                    ));
                }
                r.push_str(&e.text);
            }
            r
        }
    };
    out.write_all(text.as_bytes()).map_err(Failure::Output)
}

/// `<puzzle> judge`.
pub fn judge<P: Stressed>(
    args: JudgeArgs<P::Judging>,
    out: &mut Output,
) -> Result<io::Verdict, Failure> {
    let (program, layers) = args.run.prepare(Some(&args.tests))?;
    let subject = P::subject(&args.judging);
    let options = args.run.options(layers);
    // Names of the folder's tests, for the width of the table (nothing is opened yet).
    let (tests, skipped) = stress::tests_in(&args.tests).map_err(failure)?;
    // Names as shown: escaped, so that no byte of a file name reaches the terminal raw.
    let shown = |name: &str| escape(name.as_bytes(), false);
    let width = tests
        .iter()
        .map(|t| shown(&t.name).chars().count())
        .chain(skipped.iter().map(|s| shown(&s.name).chars().count()))
        .max()
        .unwrap_or(4)
        .max(4);
    let total = (tests.len() + skipped.len()) as u64;
    let progress = progress_for_runs();
    let text = args.run.format == ReportFormat::Text;
    let mut heading = text;
    let summary: FolderSummary = progress::with_bar(
        progress::QUIET_FOR,
        |bar| {
            bar.set_length(total);
            let d = progress.runs.load(Ordering::Relaxed);
            bar.set_position(d);
            bar.set_message(format!(
                "{d}/{total} tests judged, {} accepted",
                progress.accepted.load(Ordering::Relaxed)
            ));
        },
        || {
            stress::judge_folder(
                &subject,
                &program,
                &args.tests,
                &options,
                progress,
                |name, end| {
                    let name_text = shown(name);
                    let line = match (args.run.format, end) {
                        (ReportFormat::Text, TestEnd::Judged(j)) => {
                            let o = &j.outcome;
                            let mut line = format!(
                                "{name_text:<width$}  {:<7}  {:<7}  {}",
                                j.verdict.code(),
                                format!("{:.2} s", o.cpu.as_secs_f64()),
                                stress::mib(o.peak_memory)
                            );
                            if !j.reason.is_empty() {
                                line.push_str(&format!("  {}", escape(j.reason.as_bytes(), false)));
                            }
                            line
                        }
                        (ReportFormat::Text, TestEnd::Skipped(reason)) => {
                            format!(
                                "{name_text:<width$}  skipped  {}",
                                escape(reason.as_bytes(), false)
                            )
                        }
                        (ReportFormat::Json, TestEnd::Judged(j)) => json!({
                            "test": name,
                            "verdict": j.verdict.code(),
                            "cpu_seconds": j.outcome.cpu.as_secs_f64(),
                            "wall_seconds": j.outcome.wall.as_secs_f64(),
                            "peak_memory_bytes": j.outcome.peak_memory,
                            "reason": j.reason,
                        })
                        .to_string(),
                        (ReportFormat::Json, TestEnd::Skipped(reason)) => {
                            json!({"test": name, "verdict": "skipped", "reason": reason})
                                .to_string()
                        }
                    };
                    if heading {
                        heading = false;
                        writeln!(out, "{:<width$}  verdict  time     memory", "test")
                            .map_err(Failure::Output)?;
                    }
                    writeln!(out, "{line}").map_err(Failure::Output)?;
                    out.flush().map_err(Failure::Output)
                },
            )
        },
    )?;
    let skipped = summary.skipped.len() as u64;
    if summary.interrupted {
        // The bar is gone: the message has a clean line.
        eprintln!(
            "interrupted: {} of {} judged",
            summary.judged,
            plural(total, "test")
        );
        return Ok(io::Verdict::Interrupted);
    }
    let skipped_text = if skipped == 0 {
        String::new()
    } else {
        let names: Vec<String> = summary
            .skipped
            .iter()
            .map(|s| {
                format!(
                    "{} ({})",
                    shown(&s.name),
                    escape(s.reason.as_bytes(), false)
                )
            })
            .collect();
        format!(
            "; {} skipped: {}",
            plural(skipped, "test"),
            names.join(", ")
        )
    };
    match args.run.format {
        ReportFormat::Text => match &summary.first_failure {
            None => writeln!(
                out,
                "accepted: {} of {}{skipped_text}",
                summary.accepted,
                plural(total, "test")
            ),
            Some((name, v)) => writeln!(
                out,
                "{v}: {} of {} accepted; the first failure is {}{skipped_text}",
                summary.accepted,
                plural(total, "test"),
                shown(name)
            ),
        },
        ReportFormat::Json => {
            let verdict = summary
                .first_failure
                .as_ref()
                .map_or(if skipped > 0 { "skipped" } else { "AC" }, |f| f.1.code());
            let skipped: Vec<_> = summary
                .skipped
                .iter()
                .map(|s| json!({"test": s.name, "reason": s.reason}))
                .collect();
            writeln!(
                out,
                "{}",
                json!({
                    "verdict": verdict, "tests": total, "accepted": summary.accepted,
                    "skipped": skipped, "containment": layers.names(), "containment_missing": layers.sandbox.missing(),
                })
            )
        }
    }
    .map_err(Failure::Output)?;
    Ok(if summary.first_failure.is_some() {
        io::Verdict::Rejected
    } else if skipped > 0 {
        io::Verdict::Incomplete
    } else {
        io::Verdict::Done
    })
}

/// The generator options of `--gen-args` for a puzzle whose `gen` arguments are `A`: parsed as
/// `<puzzle> gen` parses them, then made options by `make`.
pub fn parse_gen<A: clap::Args + clap::FromArgMatches, G>(
    words: &[String],
    make: impl FnOnce(A) -> Result<G, Failure>,
) -> Result<G, Failure> {
    let args: A = parse_gen_args(words, 0)?;
    make(args)
}

/// The generator arguments `words` and `--seed seed` parsed as `<puzzle> gen` parses them
/// (`--gen-args` of `stress`); refused arguments are a usage error.
fn parse_gen_args<A: clap::Args + clap::FromArgMatches>(
    words: &[String],
    seed: u64,
) -> Result<A, Failure> {
    let command = A::augment_args(clap::Command::new("gen").no_binary_name(true));
    let mut all = words.to_vec();
    all.extend(["--seed".to_string(), seed.to_string()]);
    let refused = |e: clap::Error| {
        let text = e.to_string();
        let first = text.lines().next().unwrap_or_default();
        Failure::Usage(format!(
            "--gen-args '{}': {}",
            words.join(" "),
            first.trim_start_matches("error: ")
        ))
    };
    let matches = command.try_get_matches_from(all).map_err(refused)?;
    A::from_arg_matches(&matches).map_err(refused)
}

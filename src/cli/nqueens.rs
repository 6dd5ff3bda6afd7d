//! `chess-puzzles nqueens list|count|best`.

use std::io::{self, IsTerminal, Write};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};

use chess_puzzles::nqueens::{self, BestRun, Control, Fix, ListOptions, Problem};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};
use chess_puzzles::output::OutputFormat;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Every placement containing the given queens, one per line, in lexicographic order: the
    /// row (1-based) of the queen of each column, left to right.
    #[command(after_help = super::help::NQUEENS_LIST)]
    List(ListArgs),
    /// The number of placements containing the given queens.
    ///
    /// Exit code 2 with a message, and no count, when --time-limit runs out.
    #[command(after_help = super::help::NQUEENS_COUNT)]
    Count(CountArgs),
    /// The largest sum of weights under n non-attacking queens, for each board of the input:
    /// k, then per board its side n (1 or 4..64) and n rows of n weights (0..4294967295).
    ///
    /// Exit code 2 with a message when --time-limit runs out (the boards answered so far are
    /// written).
    #[command(after_help = super::help::NQUEENS_BEST)]
    Best(BestArgs),
}

#[derive(Debug, clap::Args)]
struct BestArgs {
    #[command(flatten)]
    solve: SolveArgs,
    /// Give up after this many seconds (exit code 2).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
}

/// The board and its given queens.
#[derive(Debug, clap::Args)]
struct ProblemArgs {
    /// The board side, 1..64.
    n: u64,
    /// A queen every placement must contain, as ROW,COL (1-based; repeat for more queens).
    #[arg(long = "fix", value_name = "ROW,COL")]
    fixes: Vec<Fix>,
}

impl ProblemArgs {
    fn problem(&self) -> Result<Problem, Failure> {
        Problem::new(self.n, &self.fixes).map_err(|e| Failure::Usage(e.to_string()))
    }
}

#[derive(Debug, clap::Args)]
struct ListArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// Stop after this many placements.
    #[arg(long, value_name = "K")]
    limit: Option<u64>,
    /// How to write the placements (`judge`: plain text, one placement per line; there is no
    /// judge for nqueens).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

#[derive(Debug, clap::Args)]
struct CountArgs {
    #[command(flatten)]
    problem: ProblemArgs,
    /// Threads to count with (default: one per core).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Give up after this many seconds (exit code 2, no count).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// How to write the count (`judge`: the plain number; there is no judge for nqueens).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.command {
        Command::List(args) => list(args, out),
        Command::Count(args) => count(args, out),
        Command::Best(args) => best(args, out),
    }
}

/// The control of a run with an optional time limit in seconds, counted from `started`.
fn control(time_limit: Option<f64>, started: Instant) -> Result<Control, Failure> {
    let Some(seconds) = time_limit else {
        return Ok(Control::new());
    };
    if seconds.is_finite() && seconds > 1e18 {
        // Too far away to represent: no limit, as below.
        return Ok(Control::new());
    }
    let limit = Duration::try_from_secs_f64(seconds)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            Failure::Usage(format!(
                "--time-limit: expected a positive number of seconds, found {seconds}"
            ))
        })?;
    // A limit too far away to represent is no limit.
    Ok(started
        .checked_add(limit)
        .map_or_else(Control::new, Control::with_deadline))
}

fn best(args: BestArgs, out: &mut Output) -> Result<Verdict, Failure> {
    let started = Instant::now();
    let control = control(args.time_limit, started)?;
    let input = Input::open(args.solve.input.as_ref(), out)?;
    let format = args.solve.format;
    let mut writer = out.clone();
    let run = with_progress(&control, || {
        nqueens::run_best(input.reader, &mut writer, format, &control)
    })
    .map_err(|e| Failure::from_run(&input.name, e))?;
    match run {
        BestRun::Finished => Ok(Verdict::Done),
        BestRun::Stopped { answered } => Err(Failure::Usage(format!(
            "time limit reached after {:.1} s with {answered} board{} answered",
            started.elapsed().as_secs_f64(),
            if answered == 1 { "" } else { "s" }
        ))),
    }
}

fn list(args: ListArgs, out: &mut Output) -> Result<Verdict, Failure> {
    let problem = args.problem.problem()?;
    let options = ListOptions {
        format: args.format,
        limit: args.limit,
    };
    nqueens::list(&problem, out, &options).map_err(Failure::Output)?;
    Ok(Verdict::Done)
}

fn count(args: CountArgs, out: &mut Output) -> Result<Verdict, Failure> {
    let problem = args.problem.problem()?;
    let started = Instant::now();
    let control = control(args.time_limit, started)?;
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        pool = pool.num_threads(usize::from(t));
    }
    let pool = pool
        .build()
        .map_err(|e| Failure::Usage(format!("cannot start the counting threads: {e}")))?;
    let result = with_progress(&control, || {
        pool.install(|| nqueens::count(&problem, &control))
    });
    match result {
        Some(count) => {
            nqueens::write_count(out, &problem, count, args.format).map_err(Failure::Output)?;
            Ok(Verdict::Done)
        }
        None => {
            let (done, total) = control.progress();
            Err(Failure::Usage(format!(
                "time limit reached after {:.1} s with {done} of {total} parts of the search \
                 counted; no count written",
                started.elapsed().as_secs_f64()
            )))
        }
    }
}

/// Runs `work`; if it lasts over a second and standard error is a terminal, shows a progress
/// bar of `control`'s parts there meanwhile (cleared at the end).
fn with_progress<T>(control: &Control, work: impl FnOnce() -> T) -> T {
    if !io::stderr().is_terminal() {
        return work();
    }
    let (finished, wait) = mpsc::channel::<()>();
    thread::scope(|scope| {
        scope.spawn(move || {
            if wait.recv_timeout(Duration::from_secs(1)) != Err(RecvTimeoutError::Timeout) {
                return;
            }
            let bar = ProgressBar::new(control.progress().1);
            if let Ok(style) = ProgressStyle::with_template(
                "{elapsed_precise} [{wide_bar}] {pos}/{len} parts, about {eta} left",
            ) {
                bar.set_style(style);
            }
            loop {
                let (done, total) = control.progress();
                bar.set_length(total);
                bar.set_position(done);
                if wait.recv_timeout(Duration::from_millis(100)) != Err(RecvTimeoutError::Timeout) {
                    break;
                }
            }
            bar.finish_and_clear();
            let _ = io::stderr().flush();
        });
        let result = work();
        drop(finished);
        result
    })
}

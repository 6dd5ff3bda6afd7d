//! `chess-puzzles showdown`: solve, generate, validate, and `check` (the scoring judge).

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use chess_puzzles::output::OutputFormat;
use chess_puzzles::showdown::generator::{self, Costs, Densities, GenOptions, Kind, Sizes};
use chess_puzzles::showdown::judge::{self, Verdict as JudgeVerdict};
use chess_puzzles::showdown::{self, Options};
use indicatif::ProgressBar;

use super::duration::TimeLimit;
use super::interrupt;
use super::io::{Failure, Input, Output, Verdict};
use super::kit::{self, Puzzle, Seed, Validator};
use super::progress;
use super::solve::SolveArgs;

/// The arguments of `chess-puzzles showdown`.
pub type Args = kit::Args<Showdown>;

/// Chess Variants Showdown as a command.
#[derive(Debug)]
pub struct Showdown;

/// Solving: the input, the format, the optimiser's budget and the proof mode.
#[derive(Debug, clap::Args)]
pub struct Solve {
    #[command(flatten)]
    solve: SolveArgs,
    /// Seconds for the whole input, counted once it has been read, shared out among its tests;
    /// it bounds the whole run, whatever the other options (0: the quickest answers; inf: no
    /// limit, stop with Ctrl-C) [default: 8.5; with --prove, 60 per test]. It is a budget, not
    /// a cutoff: every test is answered within it, so the exit code is 0 (unless --steps
    /// were cut short: 124).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    time_limit: Option<TimeLimit>,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run exactly N local-search steps per test and thread instead of sharing the time out:
    /// the answers then depend only on the seed. The time limit still ends the run (then
    /// exit code 124, every test answered: the answers depend on the machine's speed).
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
    /// Say which pieces check each king: a list under each board with --format board, a
    /// "checks" array with --format json (the judge's format has no room for it).
    #[arg(long)]
    explain: bool,
    /// Threads to solve with (default: one per core; more than the cores are not used); with
    /// --prove, how many tests are proven side by side, one core each (fewer tests share
    /// the threads out).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
    /// Answer with the plain greedy only (cheapest price per newly checked king, no search):
    /// the baseline the optimiser is measured against.
    #[arg(long)]
    greedy: bool,
    /// Write how each answer was reached, as JSON Lines: the lower bound and what it counts,
    /// the first answer built piece by piece, the exact search's outcome, the local search's
    /// moves up to the answer kept (each with its cost and the kings it checks or leaves),
    /// then the answer as --format json writes it (docs/guide.md describes the lines).
    #[arg(long)]
    trace: bool,
    /// With --trace: at most this many steps in all (a test cut short then jumps to its
    /// answer, and its "end" line says so).
    #[arg(long, value_name = "STEPS", requires = "trace", default_value_t = showdown::trace::DEFAULT_STEPS)]
    trace_steps: u64,
    #[command(flatten)]
    prove: super::prove::ProveArgs,
}

/// Judges an answer file: verifies every test and prints its score (cost / n²) and the
/// total. Exit 0 all valid, 1 a wrong or malformed answer, 2 an INPUT that cannot be
/// read or parsed, or an OUTPUT that cannot be read.
#[derive(Debug, clap::Args)]
pub struct Check {
    /// The judge input (`-` for standard input).
    input: PathBuf,
    /// The answers to judge (`-` for standard input).
    output: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    seed: Seed,
    /// How many test cases (ignored by the kind `largest`; the statement allows at most 15, more
    /// test solvers beyond it and fail `validate`).
    #[arg(long, value_name = "N", alias = "tests", default_value_t = generator::STATEMENT_TESTS, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// Board sides: a side N or a range A-B of sides 2..256, A <= B (the program's limit; the
    /// statement's is 2..25: larger boards test solvers beyond it and fail `validate`).
    /// Ignored by the kinds `largest`, `smallest` and `expensive-small`.
    #[arg(long, value_name = "N|A-B", default_value_t = Sizes::default())]
    size: Sizes,
    /// The chance that a square holds a king: a density D or a range A-B within 0-1, A <= B,
    /// drawn per board. Ignored by the kinds `dense` and `sparse`.
    #[arg(long, value_name = "D|A-B", default_value_t = Densities::default())]
    density: Densities,
    /// How the eight prices are drawn (ignored by `one-cheap` and `expensive-small`).
    #[arg(long, value_enum, default_value_t)]
    costs: Costs,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

fn gen_options(g: GenArgs) -> GenOptions {
    GenOptions {
        seed: g.seed.seed,
        tests: g.cases,
        sizes: g.size,
        densities: g.density,
        costs: g.costs,
        kind: g.kind,
    }
}

impl Puzzle for Showdown {
    type Solve = Solve;
    type Gen = GenArgs;
    type Check = Check;
    type Validate = kit::ValidateArgs;

    const VALIDATOR: Validator = Validator {
        case: "test",
        validate: showdown::validate::validate,
    };

    fn solve(args: Solve, out: &mut Output) -> Result<Verdict, Failure> {
        solve(args, out)
    }

    fn generate(g: GenArgs, mut out: &mut dyn Write) -> Result<(), Failure> {
        generator::generate(gen_options(g), &mut out).map_err(Failure::Output)
    }

    fn validate(v: kit::ValidateArgs, out: &mut Output) -> Result<Verdict, Failure> {
        kit::validate(v, out, &Self::VALIDATOR)
    }

    fn check(c: Check, out: &mut Output) -> Result<Verdict, Failure> {
        check(&c.input, &c.output, out)
    }
}

fn solve(args: Solve, out: &mut Output) -> Result<Verdict, Failure> {
    if let Some(threads) = args.threads {
        // More threads than cores would only share them; the pool can be set once, here.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = usize::from(threads).min(cores);
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build_global();
    }
    let format = args.solve.output.format;
    if args.explain && matches!(format, OutputFormat::Judge | OutputFormat::Svg) {
        return Err(Failure::Usage(format!(
            "--explain needs --format board or --format json (the {} format has no room for \
             it)",
            if format == OutputFormat::Svg {
                "svg"
            } else {
                "judge's"
            }
        )));
    }
    super::solve::refuse_trace_format(args.trace, &args.solve.output)?;
    if args.trace && args.greedy {
        return Err(Failure::Usage(
            "--trace follows the optimiser; it cannot be used with --greedy".to_string(),
        ));
    }
    if args.trace && args.prove.prove {
        return Err(Failure::Usage(
            "--trace follows the optimiser; it cannot be used with --prove".to_string(),
        ));
    }
    if args.prove.prove && format == OutputFormat::Svg {
        return Err(Failure::Usage(
            "--prove writes judge, board or json; it cannot draw SVG (solve without --prove \
             for a drawing)"
                .to_string(),
        ));
    }
    let time_limit = args
        .time_limit
        .unwrap_or(TimeLimit::new(showdown::DEFAULT_TIME_LIMIT));
    let options = Options {
        format,
        explain: args.explain,
        time_limit: time_limit.duration(),
        seed: args.seed,
        steps: args.steps,
        greedy: args.greedy,
        stop: Some(interrupt::install()),
        cancel: None,
    };
    if args.prove.prove {
        let given = args.time_limit.is_some();
        return super::prove::run(&args.prove, options, given, args.solve.input.as_ref(), out);
    }
    let input = Input::open(args.solve.input.as_ref(), out)?;
    if args.trace {
        let ending = showdown::trace::trace(input.reader, out, &options, args.trace_steps)
            .map_err(|e| Failure::from_run(&input.name, e))?;
        return Ok(if ending.interrupted {
            Verdict::Interrupted
        } else if ending.steps_cut {
            Verdict::OutOfTime
        } else {
            Verdict::Done
        });
    }
    let watch = showdown::Progress::default();
    let ending = args.solve.output.write(out, "showdown", |out| {
        progress::with_bar(
            Duration::ZERO,
            |bar| draw(bar, &watch.snapshot()),
            || showdown::run_watched(input.reader, &mut &mut *out, &options, &watch),
        )
        .map_err(|e| Failure::from_run(&input.name, e))
    })?;
    let answered = watch.snapshot().answered;
    if ending.unread {
        eprintln!("interrupted while reading the input: no answer written");
        return Ok(Verdict::Interrupted);
    }
    if ending.interrupted || interrupt::requested() {
        eprintln!(
            "interrupted: showdown wrote the best answers it held for all {answered} tests \
             (valid, but not searched to the end)"
        );
        return Ok(Verdict::Interrupted);
    }
    if ending.steps_cut
        && let Some(steps) = args.steps
    {
        eprintln!(
            "time limit reached: the time limit ({} s) ran out before --steps {steps} were \
             made; every test is answered, but the answers depend on this machine's speed \
             (raise --time-limit)",
            time_limit
        );
        // The work asked for was left undone, as for every command.
        return Ok(Verdict::OutOfTime);
    }
    Ok(Verdict::Done)
}

/// The showdown bar: the time as a bar, elapsed and left, the tests answered, and the total
/// score of the best answers so far against the total lower bound.
fn draw(bar: &ProgressBar, now: &showdown::progress::Snapshot) {
    let (Some(start), Some(end)) = (now.start, now.end) else {
        bar.set_message("showdown: reading the input");
        return;
    };
    let total = end.saturating_duration_since(start);
    let elapsed = start.elapsed().min(total);
    bar.set_length(total.as_millis().max(1) as u64);
    bar.set_position(elapsed.as_millis() as u64);
    let mut message = format!(
        "{} elapsed, {} left; {}/{} tests answered",
        progress::human(elapsed),
        progress::human(total - elapsed),
        now.answered,
        now.tests
    );
    if now.prepared > 0 {
        let over = if now.bound > 0.0 {
            format!(", +{:.1}%", 100.0 * (now.score / now.bound - 1.0))
        } else {
            String::new()
        };
        message.push_str(&format!(
            "; score {:.2}, bound {:.2}{over}",
            now.score, now.bound
        ));
    }
    bar.set_message(message);
}

fn check(input: &PathBuf, output: &PathBuf, out: &mut Output) -> Result<Verdict, Failure> {
    let (input_file, output_file) = kit::open_check(input, output, out)?;
    let (input_name, output_name) = (input_file.name, output_file.name);
    let mut lines = String::new();
    let report = judge::check(input_file.reader, output_file.reader, |case, score| {
        lines.push_str(&format!("test {case}: {score:.6}\n"));
    })
    .map_err(|error| kit::check_failure(error, input_name, output_name.clone()))?;
    let verdict = match &report.verdict {
        JudgeVerdict::Accepted => {
            lines.push_str(&format!("total: {:.6}\n", report.total));
            Verdict::Done
        }
        wrong => {
            lines.push_str(&format!("{output_name}: {wrong}\n"));
            Verdict::Rejected
        }
    };
    out.write_all(lines.as_bytes()).map_err(Failure::Output)?;
    Ok(verdict)
}

/// Judging a program's answers to showdown: every answer must be valid; with `--ratio`, its
/// cost also at most R times ours.
#[cfg(unix)]
#[derive(Debug, clap::Args)]
pub struct Judging {
    /// Fail an answer whose cost is above R times our answer's (by default only invalid
    /// answers fail). Our answers are searched for a fixed number of steps, so they may be
    /// beaten.
    #[arg(long, value_name = "R", value_parser = ratio)]
    ratio: Option<f64>,
}

#[cfg(unix)]
fn ratio(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if r.is_finite() && r >= 1.0 => Ok(r),
        _ => Err(format!("expected a ratio of at least 1, found '{text}'")),
    }
}

#[cfg(unix)]
impl super::stress::Stressed for Showdown {
    type Judging = Judging;
    type Subject = showdown::stress::Showdown;

    fn subject(judging: &Judging) -> showdown::stress::Showdown {
        showdown::stress::Showdown {
            ratio: judging.ratio,
        }
    }

    fn gen_options(words: &[String], _: &Judging) -> Result<GenOptions, Failure> {
        super::stress::parse_gen(words, |g| Ok(gen_options(g)))
    }
}

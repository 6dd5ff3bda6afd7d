//! `chess-puzzles showdown`: solve, generate, validate, and `check` (the scoring judge).

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use chess_puzzles::error::InputError;
use chess_puzzles::showdown::generator::{self, Costs, Densities, GenOptions, Kind, Sizes};
use chess_puzzles::showdown::judge::{self, Verdict as JudgeVerdict};
use chess_puzzles::showdown::{self, Options};
use indicatif::{ProgressBar, ProgressStyle};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};
use super::kit::{self, ValidateArgs};
use super::progress::WriteProgress;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
    /// Seconds for the whole input, shared out among its tests [default: 8.5; with --prove,
    /// 60 per test].
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Run exactly N local-search steps per test and thread instead of using the time limit:
    /// the answers then depend only on the seed.
    #[arg(long, value_name = "N")]
    steps: Option<u64>,
    /// Answer with the plain greedy only (cheapest price per newly checked king, no search):
    /// the baseline the optimiser is measured against.
    #[arg(long)]
    greedy: bool,
    #[command(flatten)]
    prove: super::prove::ProveArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Write a valid random or edge-case input (the same for the same seed and options).
    Gen(GenArgs),
    /// Check strictly that an input obeys the statement's layout and limits.
    Validate(ValidateArgs),
    /// Judges an answer file: verifies every test and prints its score (cost / n²) and the
    /// total. Exit 0 all valid, 1 a wrong or malformed answer, 2 an unreadable INPUT.
    Check {
        /// The judge input.
        input: PathBuf,
        /// The answers to judge.
        output: PathBuf,
    },
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many test cases (ignored by the kind `largest`; the statement allows at most 15, more
    /// test solvers beyond it and fail `validate`).
    #[arg(long, value_name = "N", alias = "tests", default_value_t = generator::STATEMENT_TESTS, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// Board sides: a side N or a range A-B within 2-256, A <= B (the statement's limits are 2-25;
    /// larger boards test solvers beyond it and fail `validate`). Ignored by the kinds
    /// `largest`, `smallest` and `expensive-small`.
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

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.command {
        Some(Command::Check { input, output }) => return check(&input, &output, out),
        Some(Command::Gen(g)) => {
            let options = GenOptions {
                seed: g.seed,
                tests: g.cases,
                sizes: g.size,
                densities: g.density,
                costs: g.costs,
                kind: g.kind,
            };
            generator::generate(options, &mut WriteProgress::new(out)).map_err(Failure::Output)?;
            return Ok(Verdict::Done);
        }
        Some(Command::Validate(v)) => {
            return kit::validate(v, out, showdown::validate::validate, "test");
        }
        None => {}
    }
    let seconds = args
        .time_limit
        .unwrap_or(showdown::DEFAULT_TIME_LIMIT.as_secs_f64());
    let time_limit = Duration::try_from_secs_f64(seconds).map_err(|_| {
        Failure::Usage(format!(
            "--time-limit: expected a number of seconds >= 0, found {seconds}"
        ))
    })?;
    let options = Options {
        format: args.solve.format,
        time_limit,
        seed: args.seed,
        steps: args.steps,
        greedy: args.greedy,
    };
    if args.prove.prove {
        let given = args.time_limit.is_some();
        return super::prove::run(&args.prove, options, given, args.solve.input.as_ref(), out);
    }
    let input = Input::open(args.solve.input.as_ref(), out)?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new(0);
        if let Ok(style) =
            ProgressStyle::with_template("showdown {bar:30} {pos}/{len} tests {elapsed}")
        {
            bar.set_style(style);
        }
        bar
    });
    let result = showdown::run_with_progress(input.reader, out, &options, |done, total| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result.map_err(|e| Failure::from_run(&input.name, e))?;
    Ok(Verdict::Done)
}

fn check(input: &PathBuf, output: &PathBuf, out: &mut Output) -> Result<Verdict, Failure> {
    let open = |path: &PathBuf| {
        File::open(path).map_err(|e| Failure::Input {
            name: path.display().to_string(),
            error: InputError::Io(e),
        })
    };
    let input_file = open(input)?;
    let output_file = open(output)?;
    let mut lines = String::new();
    let report = judge::check(input_file, output_file, |case, score| {
        lines.push_str(&format!("test {case}: {score:.6}\n"));
    })
    .map_err(|error| Failure::Input {
        name: input.display().to_string(),
        error,
    })?;
    let verdict = match &report.verdict {
        JudgeVerdict::Accepted => {
            lines.push_str(&format!("total: {:.6}\n", report.total));
            Verdict::Done
        }
        wrong => {
            lines.push_str(&format!("{}: {wrong}\n", output.display()));
            Verdict::Rejected
        }
    };
    out.write_all(lines.as_bytes()).map_err(Failure::Output)?;
    Ok(verdict)
}

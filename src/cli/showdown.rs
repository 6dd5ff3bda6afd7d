//! `chess-puzzles showdown` and `chess-puzzles showdown check`.

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use chess_puzzles::error::InputError;
use chess_puzzles::showdown::judge::{self, Verdict as JudgeVerdict};
use chess_puzzles::showdown::{self, Options};
use indicatif::{ProgressBar, ProgressStyle};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
    /// Seconds for the whole input, shared out among its tests.
    #[arg(long, value_name = "SECONDS", default_value_t = showdown::DEFAULT_TIME_LIMIT.as_secs_f64())]
    time_limit: f64,
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
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Judges an answer file: verifies every test and prints its score (cost / n²) and the
    /// total. Exit 0 all valid, 1 a wrong or malformed answer, 2 an unreadable INPUT.
    Check {
        /// The judge input.
        input: PathBuf,
        /// The answers to judge.
        output: PathBuf,
    },
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    if let Some(Command::Check { input, output }) = args.command {
        return check(&input, &output, out);
    }
    let time_limit = Duration::try_from_secs_f64(args.time_limit).map_err(|_| {
        Failure::Usage(format!(
            "--time-limit: expected a number of seconds >= 0, found {}",
            args.time_limit
        ))
    })?;
    let options = Options {
        format: args.solve.format,
        time_limit,
        seed: args.seed,
        steps: args.steps,
        greedy: args.greedy,
    };
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

//! `chess-puzzles queens`: solve, generate, validate, check.

use clap::Subcommand;

use chess_puzzles::output::OutputFormat;
use chess_puzzles::queens::generator::{self, GenOptions, Kind};
use chess_puzzles::queens::{self, Options, Style};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};
use super::kit::{self, CheckArgs, ValidateArgs};
use super::progress::WriteProgress;

#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    action: Option<Action>,
    #[command(flatten)]
    solve: SolveArgs,
    /// Write the UVa 750 judge's layout: one empty line after the two heading lines (only with
    /// `--format judge`).
    #[arg(long)]
    uva: bool,
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Write a valid random or edge-case input (the same for the same seed and options).
    Gen(GenArgs),
    /// Check strictly that an input obeys the statement's layout and limits.
    Validate(ValidateArgs),
    /// Judge an output against the right answer for an input.
    Check {
        #[command(flatten)]
        args: CheckArgs,
        /// Judge in the UVa 750 layout (an empty line after the headings).
        #[arg(long)]
        uva: bool,
    },
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many test cases (ignored by the kinds `all` and `large`).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

fn style(uva: bool) -> Style {
    if uva { Style::Uva } else { Style::Statement }
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.action {
        Some(Action::Gen(g)) => {
            let options = GenOptions {
                seed: g.seed,
                cases: g.cases,
                kind: g.kind,
            };
            generator::generate(options, &mut WriteProgress::new(out)).map_err(Failure::Output)?;
            Ok(Verdict::Done)
        }
        Some(Action::Validate(v)) => kit::validate(v, out, queens::validate::validate, "case"),
        Some(Action::Check { args, uva }) => kit::check(
            args,
            out,
            Box::new(move |input, output, tolerance| {
                queens::check(input, output, style(uva), tolerance)
            }),
        ),
        None => {
            if args.uva && args.solve.format != OutputFormat::Judge {
                return Err(Failure::Usage(format!(
                    "--uva changes the judge's layout only; it cannot be used with --format {}",
                    args.solve.format
                )));
            }
            let input = Input::open(args.solve.input.as_ref(), out)?;
            let options = Options {
                format: args.solve.format,
                style: style(args.uva),
            };
            queens::run(input.reader, out, &options)
                .map_err(|e| Failure::from_run(&input.name, e))?;
            Ok(Verdict::Done)
        }
    }
}

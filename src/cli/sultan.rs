//! `chess-puzzles sultan`: solve, generate, validate, check.

use clap::Subcommand;

use chess_puzzles::sultan::generator::{self, GenOptions, Kind};
use chess_puzzles::sultan::{self, MAX_WEIGHT};

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
}

#[derive(Debug, Subcommand)]
enum Action {
    /// Write a valid random or edge-case input (the same for the same seed and options).
    Gen(GenArgs),
    /// Check strictly that an input obeys the statement's layout and limits.
    Validate(ValidateArgs),
    /// Judge an output against the right scores for an input.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many boards (ignored by the kind `large`).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    boards: u64,
    /// The smallest weight (the statement's limits are 1..99; larger ones test solvers beyond it).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=MAX_WEIGHT))]
    min_weight: u64,
    /// The largest weight.
    #[arg(long, default_value_t = 99, value_parser = clap::value_parser!(u64).range(0..=MAX_WEIGHT))]
    max_weight: u64,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.action {
        Some(Action::Gen(g)) => {
            let options = GenOptions {
                seed: g.seed,
                boards: g.boards,
                // Both are at most MAX_WEIGHT, which fits a u32.
                min_weight: g.min_weight as u32,
                max_weight: g.max_weight as u32,
                kind: g.kind,
            };
            generator::generate(options, &mut WriteProgress::new(out)).map_err(Failure::Output)?;
            Ok(Verdict::Done)
        }
        Some(Action::Validate(v)) => kit::validate(v, out, sultan::validate::validate, "board"),
        Some(Action::Check(c)) => kit::check(c, out, Box::new(sultan::check)),
        None => {
            let input = Input::open(args.solve.input.as_ref(), out)?;
            sultan::run(input.reader, out, args.solve.format)
                .map_err(|e| Failure::from_run(&input.name, e))?;
            Ok(Verdict::Done)
        }
    }
}

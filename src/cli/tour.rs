//! `chess-puzzles tour`: solve, generate, validate, check.

use clap::Subcommand;

use chess_puzzles::tour::generator::{self, GenOptions, Kind, Knights};
use chess_puzzles::tour::{self, Options};

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
    /// Judge an output against the right answers for an input.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct GenArgs {
    /// The seed of the random choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many test cases, here scenarios (ignored by the kind `large`).
    #[arg(long, value_name = "N", alias = "scenarios", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// Knights per scenario: a number K or a range A-B within 0-24, A <= B (the statement's
    /// limits are 2-14; more or fewer test solvers beyond it and fail `validate`). Ignored by
    /// the kinds `most`, `fewest` and `large`; `start-alone` takes at most 7.
    #[arg(long, value_name = "K|A-B", default_value_t = Knights::default())]
    knights: Knights,
    /// The chance, 0 to 1, that a square no other piece takes holds a pawn (ignored by `crowded`).
    #[arg(long, value_name = "D", default_value_t = 0.1, value_parser = density)]
    pawns: f64,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

fn density(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a density from 0 to 1, found '{text}'")),
    }
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.action {
        Some(Action::Gen(g)) => {
            let options = GenOptions {
                seed: g.seed,
                scenarios: g.cases,
                knights: g.knights,
                pawns: g.pawns,
                kind: g.kind,
            };
            generator::generate(options, &mut WriteProgress::new(out)).map_err(Failure::Output)?;
            Ok(Verdict::Done)
        }
        Some(Action::Validate(v)) => kit::validate(v, out, tour::validate::validate, "scenario"),
        Some(Action::Check(c)) => kit::check(c, out, Box::new(tour::check)),
        None => {
            let input = Input::open(args.solve.input.as_ref(), out)?;
            let options = Options {
                format: args.solve.format,
            };
            tour::run(input.reader, out, &options)
                .map_err(|e| Failure::from_run(&input.name, e))?;
            Ok(Verdict::Done)
        }
    }
}

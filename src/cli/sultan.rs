//! `chess-puzzles sultan`: solve, generate, validate, check.

use clap::Subcommand;

use chess_puzzles::judge::span;
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
    /// How many test cases, here boards (ignored by the kind `large`).
    #[arg(long, value_name = "N", alias = "boards", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// The weights: a weight W or a range A-B within 0-4294967295, A <= B (the statement's are
    /// 1-99; others test solvers beyond it and fail `validate`).
    #[arg(long, value_name = "W|A-B", default_value = "1-99", value_parser = weight_range)]
    weights: (u32, u32),
    /// The smallest weight (the same as the low end of --weights; kept for old scripts).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(0..=MAX_WEIGHT))]
    min_weight: Option<u64>,
    /// The largest weight (the same as the high end of --weights; kept for old scripts).
    #[arg(long, hide = true, value_parser = clap::value_parser!(u64).range(0..=MAX_WEIGHT))]
    max_weight: Option<u64>,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

/// A weight `W` or a range `A-B` of weights, `A <= B`, each within 0..=MAX_WEIGHT.
fn weight_range(text: &str) -> Result<(u32, u32), String> {
    let weight = |t: &str| -> Option<u32> {
        let plain = !t.is_empty() && t.len() <= 10 && t.bytes().all(|b| b.is_ascii_digit());
        plain.then(|| t.parse().ok()).flatten()
    };
    match span::parse(text, weight) {
        Some((a, b)) if a <= b => Ok((a, b)),
        _ => Err(format!(
            "expected a weight 0..{MAX_WEIGHT} or a range A-B with A <= B, found '{text}'"
        )),
    }
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    match args.action {
        Some(Action::Gen(g)) => {
            // Both old options are at most MAX_WEIGHT, which fits a u32.
            let min_weight = g.min_weight.map_or(g.weights.0, |w| w as u32);
            let max_weight = g.max_weight.map_or(g.weights.1, |w| w as u32);
            if min_weight > max_weight {
                return Err(Failure::Usage(format!(
                    "the weights range from {min_weight} to {max_weight}: expected the smallest \
                     weight at most the largest"
                )));
            }
            let options = GenOptions {
                seed: g.seed,
                boards: g.cases,
                min_weight,
                max_weight,
                kind: g.kind,
            };
            generator::generate(options, &mut WriteProgress::new(out)).map_err(Failure::Output)?;
            Ok(Verdict::Done)
        }
        Some(Action::Validate(v)) => kit::validate(v, out, sultan::validate::validate, "board"),
        Some(Action::Check(c)) => kit::check(c, out, Box::new(sultan::check)),
        None => {
            let input = Input::open(args.solve.input.as_ref(), out)?;
            let options = sultan::Options {
                format: args.solve.format,
            };
            sultan::run(input.reader, out, &options)
                .map_err(|e| Failure::from_run(&input.name, e))?;
            Ok(Verdict::Done)
        }
    }
}

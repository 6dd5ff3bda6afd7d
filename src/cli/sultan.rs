//! `chess-puzzles sultan`: solve, generate, validate, check.

use std::io::Write;

use chess_puzzles::judge::span;
use chess_puzzles::sultan::generator::{self, GenOptions, Kind};
use chess_puzzles::sultan::{self, MAX_WEIGHT, Options};

use super::io::{Failure, Output, Verdict};
use super::kit::{self, CheckArgs, Puzzle, Seed, ValidateArgs, Validator};
use super::solve::{SolveArgs, TraceArgs};

/// The arguments of `chess-puzzles sultan`.
pub type Args = kit::Args<Sultan>;

/// The Sultan's Successors as a command.
#[derive(Debug)]
pub struct Sultan;

/// Solving: the input, the format, and the trace of the search.
#[derive(Debug, clap::Args)]
pub struct Solve {
    #[command(flatten)]
    solve: SolveArgs,
    #[command(flatten)]
    trace: TraceArgs,
}

/// Judge an output against the right scores for an input.
#[derive(Debug, clap::Args)]
pub struct Check {
    #[command(flatten)]
    args: CheckArgs,
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    seed: Seed,
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

fn gen_options(g: GenArgs) -> Result<GenOptions, Failure> {
    // Both old options are at most MAX_WEIGHT, which fits a u32.
    let min_weight = g.min_weight.map_or(g.weights.0, |w| w as u32);
    let max_weight = g.max_weight.map_or(g.weights.1, |w| w as u32);
    if min_weight > max_weight {
        return Err(Failure::Usage(format!(
            "the weights range from {min_weight} to {max_weight}: expected the smallest \
             weight at most the largest"
        )));
    }
    Ok(GenOptions {
        seed: g.seed.seed,
        boards: g.cases,
        min_weight,
        max_weight,
        kind: g.kind,
    })
}

impl Puzzle for Sultan {
    type Solve = Solve;
    type Gen = GenArgs;
    type Check = Check;
    type Validate = ValidateArgs;

    const VALIDATOR: Validator = Validator {
        case: "board",
        validate: sultan::validate::validate,
    };

    fn solve(args: Solve, out: &mut Output) -> Result<Verdict, Failure> {
        args.trace.check(&args.solve.output)?;
        if args.trace.trace {
            let steps = args.trace.trace_steps;
            return args.solve.run(out, "sultan", |input, out, _| {
                sultan::trace::trace(input, &mut &mut *out, steps)
            });
        }
        args.solve.run(out, "sultan", |input, out, format| {
            sultan::run(input, &mut &mut *out, &Options { format })
        })
    }

    fn generate(g: GenArgs, mut out: &mut dyn Write) -> Result<(), Failure> {
        generator::generate(gen_options(g)?, &mut out).map_err(Failure::Output)
    }

    fn validate(v: ValidateArgs, out: &mut Output) -> Result<Verdict, Failure> {
        kit::validate(v, out, &Self::VALIDATOR)
    }

    fn check(c: Check, out: &mut Output) -> Result<Verdict, Failure> {
        kit::check(c.args, out, Box::new(sultan::check))
    }
}

#[cfg(unix)]
impl super::stress::Stressed for Sultan {
    type Judging = super::stress::ExactJudging;
    type Subject = sultan::stress::Sultan;

    fn subject(judging: &Self::Judging) -> sultan::stress::Sultan {
        sultan::stress::Sultan {
            tolerance: judging.tolerance,
        }
    }

    fn gen_options(words: &[String], _: &Self::Judging) -> Result<GenOptions, Failure> {
        super::stress::parse_gen(words, gen_options)
    }
}

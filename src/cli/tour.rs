//! `chess-puzzles tour`: solve, generate, validate, check.

use std::io::Write;

use chess_puzzles::tour::generator::{self, GenOptions, Kind, Knights};
use chess_puzzles::tour::{self, Options};

use super::io::{Failure, Output, Verdict};
use super::kit::{self, CheckArgs, Puzzle, Seed, ValidateArgs, Validator};
use super::solve::{self, SolveArgs};

/// The arguments of `chess-puzzles tour`.
pub type Args = kit::Args<Tour>;

/// Traveling Queen as a command.
#[derive(Debug)]
pub struct Tour;

/// Solving: the input, the format, and the trace of the search.
#[derive(Debug, clap::Args)]
pub struct Solve {
    #[command(flatten)]
    solve: SolveArgs,
    /// Write the search instead of the answers, as JSON Lines: for each scenario the layers
    /// of the breadth-first search (the squares first reached after 0, 1, 2, ... moves, and
    /// the knights visited on the way), then the shortest path move by move (docs/guide.md
    /// describes the lines).
    #[arg(long)]
    trace: bool,
}

/// Judge an output against the right answers for an input.
#[derive(Debug, clap::Args)]
pub struct Check {
    #[command(flatten)]
    args: CheckArgs,
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    seed: Seed,
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

fn gen_options(g: GenArgs) -> GenOptions {
    GenOptions {
        seed: g.seed.seed,
        scenarios: g.cases,
        knights: g.knights,
        pawns: g.pawns,
        kind: g.kind,
    }
}

impl Puzzle for Tour {
    type Solve = Solve;
    type Gen = GenArgs;
    type Check = Check;
    type Validate = ValidateArgs;

    const VALIDATOR: Validator = Validator {
        case: "scenario",
        validate: tour::validate::validate,
    };

    fn solve(args: Solve, out: &mut Output) -> Result<Verdict, Failure> {
        solve::refuse_trace_format(args.trace, &args.solve.output)?;
        if args.trace {
            return args.solve.run(out, "tour", |input, out, _| {
                tour::trace::trace(input, &mut &mut *out)
            });
        }
        args.solve.run(out, "tour", |input, out, format| {
            tour::run(input, &mut &mut *out, &Options { format })
        })
    }

    fn generate(g: GenArgs, mut out: &mut dyn Write) -> Result<(), Failure> {
        generator::generate(gen_options(g), &mut out).map_err(Failure::Output)
    }

    fn validate(v: ValidateArgs, out: &mut Output) -> Result<Verdict, Failure> {
        kit::validate(v, out, &Self::VALIDATOR)
    }

    fn check(c: Check, out: &mut Output) -> Result<Verdict, Failure> {
        kit::check(c.args, out, Box::new(tour::check))
    }
}

#[cfg(unix)]
impl super::stress::Stressed for Tour {
    type Judging = super::stress::ExactJudging;
    type Subject = tour::stress::Tour;

    fn subject(judging: &Self::Judging) -> tour::stress::Tour {
        tour::stress::Tour {
            tolerance: judging.tolerance,
        }
    }

    fn gen_options(words: &[String], _: &Self::Judging) -> Result<GenOptions, Failure> {
        super::stress::parse_gen(words, |g| Ok(gen_options(g)))
    }
}

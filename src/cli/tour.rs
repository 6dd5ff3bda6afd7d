//! `chess-puzzles tour`: solve, generate, validate, check.

use std::io::Write;

use chess_puzzles::error::plural;
use chess_puzzles::tour::generator::{self, GenOptions, Kind, Knights};
use chess_puzzles::tour::{self, Options};

use super::io::{Failure, Output, Verdict};
use super::kit::{self, CheckArgs, Puzzle, Seed, Validator};
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

impl Puzzle for Tour {
    type Solve = Solve;
    type Gen = GenArgs;
    type Check = Check;

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
        let options = GenOptions {
            seed: g.seed.seed,
            scenarios: g.cases,
            knights: g.knights,
            pawns: g.pawns,
            kind: g.kind,
        };
        generator::generate(options, &mut out).map_err(Failure::Output)
    }

    fn check(c: Check, out: &mut Output) -> Result<Verdict, Failure> {
        kit::check(c.args, out, Box::new(tour::check))
    }
}

#[cfg(unix)]
impl super::stress::Subject for Tour {
    type Case = tour::Scenario;
    type Judging = super::stress::ExactJudging;
    const NAME: &'static str = "tour";
    const CASE: &'static str = "scenario";
    const STRESS_GEN: &'static [&'static str] = &[
        "--cases 1 --knights 2-5",
        "--cases 2 --knights 2-5",
        "--cases 2 --kind fewest",
        "--cases 2 --kind impossible --knights 2-4",
        "--cases 2 --kind start-alone --knights 2-4",
        "--cases 1 --kind crowded --knights 2-4",
        "--cases 3 --knights 2-6 --pawns 0.2",
    ];

    fn generate_input(words: &[String], seed: u64) -> Result<Vec<u8>, Failure> {
        kit::generated::<Self>(words, seed)
    }

    fn valid(input: &[u8]) -> bool {
        kit::valid(&Self::VALIDATOR, input)
    }

    fn reference(input: &[u8], _: &Self::Judging) -> Result<Vec<u8>, String> {
        let mut out = Vec::new();
        tour::run(input, &mut out, &Options::default()).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn cases(input: &[u8]) -> Result<Vec<Self::Case>, String> {
        let scanner = chess_puzzles::input::Scanner::new(input);
        super::stress::read_all(tour::Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(cases: &[Self::Case]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    fn smaller(case: &Self::Case) -> Vec<Self::Case> {
        generator::smaller(case)
    }

    fn measure(cases: &[Self::Case]) -> Option<String> {
        let knights: usize = cases.iter().map(|s| s.knights().len()).sum();
        let pawns: usize = cases.iter().map(|s| s.pawns().iter().count()).sum();
        Some(format!(
            "{}, {}",
            plural(knights as u64, "knight"),
            plural(pawns as u64, "pawn")
        ))
    }
}

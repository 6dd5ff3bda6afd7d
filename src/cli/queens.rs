//! `chess-puzzles queens`: solve, generate, validate, check.

use std::io::Write;

use chess_puzzles::output::OutputFormat;
use chess_puzzles::queens::generator::{self, GenOptions, Kind};
use chess_puzzles::queens::{self, Options, Style};

use super::io::{Failure, Output, Verdict};
use super::kit::{self, CheckArgs, Puzzle, Seed, Validator};
use super::solve::{SolveArgs, TraceArgs};

/// The arguments of `chess-puzzles queens`.
pub type Args = kit::Args<Queens>;

/// 8 Queens Chess Problem as a command.
#[derive(Debug)]
pub struct Queens;

/// Solving: the input, the format, and the judge's layout.
#[derive(Debug, clap::Args)]
pub struct Solve {
    #[command(flatten)]
    solve: SolveArgs,
    /// Write the UVa 750 judge's layout: one empty line after the two heading lines (only with
    /// `--format judge`).
    #[arg(long)]
    uva: bool,
    #[command(flatten)]
    trace: TraceArgs,
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    seed: Seed,
    /// How many test cases (ignored by the kinds `all` and `large`).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    cases: u64,
    /// The family of input.
    #[arg(long, value_enum, default_value_t)]
    kind: Kind,
}

/// Judge an output against the right answer for an input.
#[derive(Debug, clap::Args)]
pub struct Check {
    #[command(flatten)]
    args: CheckArgs,
    /// Judge in the UVa 750 layout (an empty line after the headings).
    #[arg(long)]
    uva: bool,
}

fn style(uva: bool) -> Style {
    if uva { Style::Uva } else { Style::Statement }
}

impl Puzzle for Queens {
    type Solve = Solve;
    type Gen = GenArgs;
    type Check = Check;

    const VALIDATOR: Validator = Validator {
        case: "case",
        validate: queens::validate::validate,
    };

    fn solve(args: Solve, out: &mut Output) -> Result<Verdict, Failure> {
        if args.uva && args.solve.output.format != OutputFormat::Judge {
            return Err(Failure::Usage(format!(
                "--uva changes the judge's layout only; it cannot be used with --format {}",
                args.solve.output.format
            )));
        }
        args.trace.check(&args.solve.output)?;
        if args.trace.trace {
            if args.uva {
                return Err(Failure::Usage(
                    "--uva changes the judge's layout only; it cannot be used with --trace"
                        .to_string(),
                ));
            }
            let steps = args.trace.trace_steps;
            return args.solve.run(out, "queens", |input, out, _| {
                queens::trace::trace(input, &mut &mut *out, steps)
            });
        }
        let style = style(args.uva);
        args.solve.run(out, "queens", |input, out, format| {
            queens::run(input, &mut &mut *out, &Options { format, style })
        })
    }

    fn generate(g: GenArgs, mut out: &mut dyn Write) -> Result<(), Failure> {
        let options = GenOptions {
            seed: g.seed.seed,
            cases: g.cases,
            kind: g.kind,
        };
        generator::generate(options, &mut out).map_err(Failure::Output)
    }

    fn check(c: Check, out: &mut Output) -> Result<Verdict, Failure> {
        let style = style(c.uva);
        kit::check(
            c.args,
            out,
            Box::new(move |input, output, tolerance| {
                queens::check(input, output, style, tolerance)
            }),
        )
    }
}

/// Judging a program's answers to queens: the checker's tolerance and the layout.
#[cfg(unix)]
#[derive(Debug, clap::Args)]
pub struct Judging {
    #[command(flatten)]
    exact: super::stress::ExactJudging,
    /// Expect the UVa 750 judge's layout (an empty line after the headings).
    #[arg(long)]
    uva: bool,
}

#[cfg(unix)]
impl super::stress::Judges for Judging {
    fn judge(&self, input: &[u8], expected: &[u8], actual: &[u8]) -> super::stress::Judged {
        self.exact.judge(input, expected, actual)
    }
}

#[cfg(unix)]
impl super::stress::Subject for Queens {
    type Case = chess_puzzles::core::Square;
    type Judging = Judging;
    const NAME: &'static str = "queens";
    const CASE: &'static str = "case";
    const STRESS_GEN: &'static [&'static str] = &[
        "--cases 5",
        "--cases 1",
        "--cases 3 --kind fewest",
        "--cases 4 --kind most",
        "--cases 6",
    ];

    fn generate_input(words: &[String], seed: u64) -> Result<Vec<u8>, Failure> {
        kit::generated::<Self>(words, seed)
    }

    fn valid(input: &[u8]) -> bool {
        kit::valid(&Self::VALIDATOR, input)
    }

    fn reference(input: &[u8], judging: &Judging) -> Result<Vec<u8>, String> {
        let options = Options {
            format: OutputFormat::Judge,
            style: style(judging.uva),
        };
        let mut out = Vec::new();
        queens::run(input, &mut out, &options).map_err(|e| e.to_string())?;
        Ok(out)
    }

    fn cases(input: &[u8]) -> Result<Vec<Self::Case>, String> {
        let scanner = chess_puzzles::input::Scanner::new(input);
        super::stress::read_all(queens::Reader::new(scanner).map_err(|e| e.to_string())?)
    }

    fn write_input(cases: &[Self::Case]) -> Vec<u8> {
        generator::write_input(cases).into_bytes()
    }

    /// A query is one square: every one is as small as another.
    fn smaller(_: &Self::Case) -> Vec<Self::Case> {
        Vec::new()
    }
}

//! `chess-puzzles queens`: solve, generate, validate, check.

use std::io::Write;

use chess_puzzles::output::OutputFormat;
use chess_puzzles::queens::generator::{self, GenOptions, Kind};
use chess_puzzles::queens::{self, Options, Style};

use super::io::{Failure, Output, Verdict};
use super::kit::{self, CheckArgs, Puzzle, Seed, ValidateArgs, Validator};
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
    /// Write the UVa 750 layout: an empty line after the number of cases and before every
    /// case.
    #[arg(long)]
    uva: bool,
}

fn gen_options(g: GenArgs) -> GenOptions {
    GenOptions {
        seed: g.seed.seed,
        cases: g.cases,
        kind: g.kind,
        layout: style(g.uva),
    }
}

/// Check strictly that an input obeys the statement's layout and limits.
#[derive(Debug, clap::Args)]
pub struct Validate {
    #[command(flatten)]
    args: ValidateArgs,
    /// Check the UVa 750 layout: one empty line after the number of cases and one before
    /// every case, and nowhere else.
    #[arg(long)]
    uva: bool,
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
    type Validate = Validate;

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
        generator::generate(gen_options(g), &mut out).map_err(Failure::Output)
    }

    fn validate(v: Validate, out: &mut Output) -> Result<Verdict, Failure> {
        let validator = if v.uva {
            Validator {
                case: "case",
                validate: queens::validate::validate_uva,
            }
        } else {
            Self::VALIDATOR
        };
        kit::validate(v.args, out, &validator)
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
    /// The UVa 750 layout: inputs with its empty lines (after the number of cases and before
    /// every case), answers with an empty line after the headings.
    #[arg(long)]
    uva: bool,
}

#[cfg(unix)]
impl super::stress::Stressed for Queens {
    type Judging = Judging;
    type Subject = queens::stress::Queens;

    fn subject(judging: &Judging) -> queens::stress::Queens {
        queens::stress::Queens {
            tolerance: judging.exact.tolerance,
            layout: style(judging.uva),
        }
    }

    fn gen_options(words: &[String], judging: &Judging) -> Result<GenOptions, Failure> {
        super::stress::parse_gen(words, |g: GenArgs| {
            let uva = g.uva || judging.uva;
            Ok(GenOptions {
                layout: style(uva),
                ..gen_options(g)
            })
        })
    }
}

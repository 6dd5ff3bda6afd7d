//! A puzzle's command, defined once for every puzzle: solving its input, the judge kit's
//! subcommands `gen`, `validate` and `check` for problem setters, and `stress` and `judge`
//! for contestants (run in `super::stress`). Each puzzle's file says what differs (its
//! [`Puzzle`]): its options, its generator, validator and checker.

use std::fmt::Debug;
use std::io::{Read, Write};
use std::path::PathBuf;

use chess_puzzles::error::{InputError, plural};
use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::judge::{CheckError, Checked};

use super::io::{Failure, Input, Output, Verdict};
use super::progress::WriteProgress;

/// What `stress` and `judge` need of a puzzle (on Unix; elsewhere nothing).
#[cfg(unix)]
pub use super::stress::Stressed;
/// What `stress` and `judge` need of a puzzle (on Unix; elsewhere nothing).
#[cfg(not(unix))]
pub trait Stressed {}
#[cfg(not(unix))]
impl<T> Stressed for T {}

/// What a puzzle's command needs of the puzzle: its arguments and the work behind them.
pub trait Puzzle: Debug + Stressed {
    /// The arguments of solving (`chess-puzzles <puzzle> [INPUT]`).
    type Solve: clap::Args + Debug;
    /// The arguments of `<puzzle> gen`.
    type Gen: clap::Args + Debug;
    /// The arguments of `<puzzle> check`; its doc comment is the subcommand's help.
    type Check: clap::Args + Debug;
    /// The arguments of `<puzzle> validate` ([`ValidateArgs`], or more).
    type Validate: clap::Args + Debug;

    /// The strict validator of `<puzzle> validate`.
    const VALIDATOR: Validator;

    /// Solves the input.
    fn solve(args: Self::Solve, out: &mut Output) -> Result<Verdict, Failure>;

    /// Writes a generated input.
    fn generate(args: Self::Gen, out: &mut dyn Write) -> Result<(), Failure>;

    /// Judges an output and prints the verdict.
    fn check(args: Self::Check, out: &mut Output) -> Result<Verdict, Failure>;

    /// Validates an input and prints the verdict (the strict validator by default).
    fn validate(args: Self::Validate, out: &mut Output) -> Result<Verdict, Failure>;
}

/// `chess-puzzles <puzzle>`: its input solved, or one of the kit's subcommands.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args<P: Puzzle> {
    #[command(subcommand)]
    kit: Option<Kit<P>>,
    #[command(flatten)]
    solve: P::Solve,
}

/// The judge kit of a puzzle.
#[derive(Debug, clap::Subcommand)]
enum Kit<P: Puzzle> {
    /// Write a valid random or edge-case input (the same for the same seed and options).
    Gen(P::Gen),
    /// Check strictly that an input obeys the statement's layout and limits.
    Validate(P::Validate),
    // The help is the doc comment of `P::Check`, which says what the puzzle's check judges.
    Check(P::Check),
    /// Run your program on generated inputs, judge every run, shrink the first failing input.
    ///
    /// PROGRAM (after `--`) reads one judge input on standard input and writes its answer;
    /// each run is judged like an online judge: AC, WA, PE, TLE (CPU time), ILE (idle past the
    /// wall-clock limit), MLE, OLE or RE. The inputs go from small ones up to the statement's
    /// largest. At the first failure the input is shrunk (fewer test cases, then smaller ones)
    /// while the same verdict comes back, and the smallest is shown with the expected and the
    /// actual output. Exit 0 when every run was accepted, 1 when a failure was found, 2 for a
    /// usage error or a program that cannot be run. Every process the program starts ends
    /// with its run, and it runs in a sandbox where the system allows one (never as root:
    /// as you, or as nobody when you are root; no network, no files but its own, no host
    /// settings, kernel keyrings or mounts).
    #[cfg(unix)]
    #[command(after_help = super::help::STRESS)]
    Stress(super::stress::StressArgs<<P as Stressed>::Judging>),
    /// Judge your program on a folder of tests (NAME.in, with NAME.out or our answer).
    ///
    /// A table of test, verdict, CPU time and peak memory, then a summary. Only regular files
    /// are read: a test whose file is a FIFO, a device or a directory is skipped, and named.
    /// Exit 0 when every test was accepted, 1 when one failed, 2 for a usage error, a program
    /// that cannot be run, or skipped tests.
    #[cfg(unix)]
    #[command(after_help = super::help::JUDGE)]
    Judge(super::stress::JudgeArgs<<P as Stressed>::Judging>),
}

/// Runs a puzzle's command.
pub fn run<P: Puzzle>(args: Args<P>, out: &mut Output) -> Result<Verdict, Failure> {
    match args.kit {
        Some(Kit::Gen(g)) => {
            P::generate(g, &mut WriteProgress::new(out))?;
            Ok(Verdict::Done)
        }
        Some(Kit::Validate(v)) => P::validate(v, out),
        Some(Kit::Check(c)) => P::check(c, out),
        #[cfg(unix)]
        Some(Kit::Stress(s)) => super::stress::stress::<P>(s, out),
        #[cfg(unix)]
        Some(Kit::Judge(j)) => super::stress::judge::<P>(j, out),
        None => P::solve(args.solve, out),
    }
}

/// A puzzle's strict validator and what it counts.
pub struct Validator {
    /// What one test case of an input is called in the verdict (`case`, `board`, ...).
    pub case: &'static str,
    /// The validator: the number of test cases of a valid input.
    pub validate: fn(Box<dyn Read>) -> Result<u64, InputError>,
}

/// The generators' seed: `--seed`.
#[derive(Debug, clap::Args)]
pub struct Seed {
    /// The seed of the random choices.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Arguments of `<puzzle> validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The input to validate: a path, or standard input when absent or `-`.
    pub input: Option<PathBuf>,
}

/// Arguments of `<puzzle> check` for the puzzles with one right answer.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The test input (`-` for standard input).
    input: PathBuf,
    /// The output to judge (`-` for standard input).
    output: PathBuf,
    /// Which differences to forgive.
    #[arg(long, value_enum, default_value_t)]
    tolerance: Tolerance,
}

fn say(out: &mut Output, text: &str) -> Result<(), Failure> {
    writeln!(out, "{text}").map_err(Failure::Output)
}

/// Runs a validator and prints its verdict: `valid: ...` (exit 0) or `invalid: <place>: ...`
/// (exit 1).
pub fn validate(
    args: ValidateArgs,
    out: &mut Output,
    validator: &Validator,
) -> Result<Verdict, Failure> {
    let input = Input::open(args.input.as_ref(), out)?;
    match (validator.validate)(input.reader) {
        Ok(count) => {
            say(out, &format!("valid: {}", plural(count, validator.case)))?;
            Ok(Verdict::Done)
        }
        Err(InputError::Parse(e)) => {
            say(out, &format!("invalid: {}:{e}", input.name))?;
            Ok(Verdict::Rejected)
        }
        Err(error) => Err(Failure::Input {
            name: input.name,
            error,
        }),
    }
}

/// A puzzle's exact checker: the test input, the output to judge, the tolerance.
type Checker<'a> = Box<dyn FnOnce(Box<dyn Read>, Box<dyn Read>, Tolerance) -> Checked + 'a>;

/// Runs a checker and prints its verdict: `accepted` (exit 0) or `wrong answer: ...` (exit 1).
pub fn check(args: CheckArgs, out: &mut Output, checker: Checker<'_>) -> Result<Verdict, Failure> {
    let (input, output) = open_check(&args.input, &args.output, out)?;
    match checker(input.reader, output.reader, args.tolerance) {
        Ok(Ok(accepted)) => {
            say(
                out,
                &format!("accepted: {}", plural(accepted.lines, "line")),
            )?;
            Ok(Verdict::Done)
        }
        Ok(Err(difference)) => {
            say(out, &format!("wrong answer: {}:{difference}", output.name))?;
            Ok(Verdict::Rejected)
        }
        Err(error) => Err(check_failure(error, input.name, output.name)),
    }
}

/// The test input and the output to judge of a `check`, opened; they cannot both be standard
/// input.
pub fn open_check(
    input: &PathBuf,
    output: &PathBuf,
    out: &mut Output,
) -> Result<(Input, Input), Failure> {
    if input.as_os_str() == "-" && output.as_os_str() == "-" {
        return Err(Failure::Usage(
            "INPUT and OUTPUT cannot both be standard input".to_string(),
        ));
    }
    let input = Input::open(Some(input), out)?;
    let output = Input::open(Some(output), out)?;
    Ok((input, output))
}

/// Why a checker could not judge, named after the input (`input`) or the output (`output`) that
/// failed.
pub fn check_failure(error: CheckError, input: String, output: String) -> Failure {
    match error {
        CheckError::Input(error) => Failure::Input { name: input, error },
        CheckError::Output(e) => Failure::Input {
            name: output,
            error: InputError::Io(e),
        },
        other => Failure::Usage(other.to_string()),
    }
}

//! The judge kit's shared command-line pieces: `validate` and `check` arguments and verdicts.

use std::io::{Read, Write};
use std::path::PathBuf;

use chess_puzzles::error::{InputError, plural};
use chess_puzzles::judge::CheckError;
use chess_puzzles::judge::compare::{Accepted, Difference, Tolerance};

use super::io::{Failure, Input, Output, Verdict};

/// Arguments of `<puzzle> validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// The input to validate: a path, or standard input when absent or `-`.
    input: Option<PathBuf>,
}

/// Arguments of `<puzzle> check`.
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
/// (exit 1). `noun` names what the validator counts.
pub fn validate(
    args: ValidateArgs,
    out: &mut Output,
    validator: impl FnOnce(Box<dyn Read>) -> Result<u64, InputError>,
    noun: &str,
) -> Result<Verdict, Failure> {
    let input = Input::open(args.input.as_ref(), out)?;
    match validator(input.reader) {
        Ok(count) => {
            say(out, &format!("valid: {}", plural(count, noun)))?;
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
type Checker<'a> = Box<
    dyn FnOnce(
            Box<dyn Read>,
            Box<dyn Read>,
            Tolerance,
        ) -> Result<Result<Accepted, Difference>, CheckError>
        + 'a,
>;

/// Runs a checker and prints its verdict: `accepted` (exit 0) or `wrong answer: ...` (exit 1).
pub fn check(args: CheckArgs, out: &mut Output, checker: Checker<'_>) -> Result<Verdict, Failure> {
    if args.input.as_os_str() == "-" && args.output.as_os_str() == "-" {
        return Err(Failure::Usage(
            "INPUT and OUTPUT cannot both be standard input".to_string(),
        ));
    }
    let input = Input::open(Some(&args.input), out)?;
    let output = Input::open(Some(&args.output), out)?;
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
        Err(CheckError::Input(error)) => Err(Failure::Input {
            name: input.name,
            error,
        }),
        Err(CheckError::Output(e)) => Err(Failure::Input {
            name: output.name,
            error: InputError::Io(e),
        }),
        Err(other) => Err(Failure::Usage(other.to_string())),
    }
}

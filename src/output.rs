//! How answers are written: the judge's bytes, diagrams for people, or JSON for programs.
//!
//! Every puzzle's `writer.rs` says how one case's answer looks in each form (a
//! [`CaseAnswer`]); [`write_case`] writes it in the form asked for, the same way for every
//! puzzle, and [`write_cases`] answers a whole input case by case.

use std::fmt;
use std::io::{self, Write};

use serde::Serialize;

use crate::error::RunError;
use crate::input::CaseReader;

/// The form of a command's answers (a command-line value: `judge`, `board`, `json`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum OutputFormat {
    /// Exactly the judge's format, byte for byte (plain text where there is no judge).
    #[default]
    Judge,
    /// Boards drawn with Unicode pieces, for people.
    Board,
    /// One JSON object per test case, one per line (JSON Lines), for programs.
    Json,
}

impl std::str::FromStr for OutputFormat {
    type Err = UnknownFormat;

    /// The format of a name, in any case: `judge`, `board` or `json`.
    fn from_str(name: &str) -> Result<OutputFormat, UnknownFormat> {
        [OutputFormat::Judge, OutputFormat::Board, OutputFormat::Json]
            .into_iter()
            .find(|f| f.to_string().eq_ignore_ascii_case(name))
            .ok_or(UnknownFormat)
    }
}

/// A name that is none of [`OutputFormat`]'s.
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
#[error("expected judge, board or json")]
pub struct UnknownFormat;

impl fmt::Display for OutputFormat {
    /// The command-line name: `judge`, `board` or `json`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFormat::Judge => "judge",
            OutputFormat::Board => "board",
            OutputFormat::Json => "json",
        })
    }
}

/// One test case's answer in each [`OutputFormat`]: what a puzzle's `writer.rs` defines and
/// [`write_case`] writes.
pub trait CaseAnswer {
    /// The case for programs (one line of `--format json`).
    type Json: Serialize;

    /// Writes case `case` (from 1) in the judge's format, with whatever separates it from the
    /// case before.
    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, case: u64) -> io::Result<()>;

    /// Case `case` (from 1) drawn for people, without the empty line between cases.
    fn board(&self, case: u64) -> String;

    /// Case `case` (from 1) for programs.
    fn json(&self, case: u64) -> Self::Json;
}

/// Writes case `case` (from 1) in `format`: the judge's bytes; the drawing, after an empty
/// line from the second case on; or one line of JSON.
pub fn write_case<W: Write + ?Sized>(
    out: &mut W,
    format: OutputFormat,
    case: u64,
    answer: &impl CaseAnswer,
) -> io::Result<()> {
    match format {
        OutputFormat::Judge => answer.write_judge(out, case),
        OutputFormat::Board => {
            let separator = if case > 1 { "\n" } else { "" };
            write!(out, "{separator}{}", answer.board(case))
        }
        OutputFormat::Json => {
            serde_json::to_writer(&mut *out, &answer.json(case)).map_err(io::Error::from)?;
            out.write_all(b"\n")
        }
    }
}

/// Answers every case of `reader` on `out` in `format`, each as soon as it is read: `solve`
/// turns a case into its answer. Fails at the first case the reader refuses
/// ([`RunError::Input`], the answers before it written), or when `out` cannot be written
/// ([`RunError::Output`]).
pub fn write_cases<C: CaseReader, A: CaseAnswer>(
    mut reader: C,
    out: &mut impl Write,
    format: OutputFormat,
    mut solve: impl FnMut(C::Case) -> A,
) -> Result<(), RunError> {
    let mut case = 0u64;
    while let Some(read) = reader.next_case()? {
        case += 1;
        write_case(out, format, case, &solve(read)).map_err(RunError::Output)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_read_back_from_their_names_in_any_case() {
        for format in [OutputFormat::Judge, OutputFormat::Board, OutputFormat::Json] {
            assert_eq!(format.to_string().parse(), Ok(format));
            assert_eq!(format.to_string().to_uppercase().parse(), Ok(format));
        }
        assert_eq!("xml".parse::<OutputFormat>(), Err(UnknownFormat));
        assert_eq!("".parse::<OutputFormat>(), Err(UnknownFormat));
    }
}

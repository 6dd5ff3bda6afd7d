//! How answers are written: the judge's bytes, diagrams for people (as text or as SVG), or
//! JSON for programs.
//!
//! Every puzzle's `writer.rs` says how one case's answer looks in each form (a
//! [`CaseAnswer`]); [`write_case`] writes it in the form asked for, the same way for every
//! puzzle, and [`write_cases`] answers a whole input case by case. In SVG every case is a
//! document of its own; [`svg::Documents`] puts them in one document, or in one file each.

use std::fmt;
use std::io::{self, Write};

use serde::Serialize;

use crate::core::svg::Figure;
use crate::error::RunError;
use crate::input::CaseReader;

pub mod svg;

/// The form of a command's answers (a command-line value: `judge`, `board`, `json`, `svg`).
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
    /// Boards drawn as SVG (one document, or a file per case with `--svg-dir`), for worksheets.
    Svg,
}

impl OutputFormat {
    /// Every format, in the order of the command line's help.
    pub const ALL: [OutputFormat; 4] = [
        OutputFormat::Judge,
        OutputFormat::Board,
        OutputFormat::Json,
        OutputFormat::Svg,
    ];
}

impl std::str::FromStr for OutputFormat {
    type Err = UnknownFormat;

    /// The format of a name, in any case: `judge`, `board`, `json` or `svg`.
    fn from_str(name: &str) -> Result<OutputFormat, UnknownFormat> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.to_string().eq_ignore_ascii_case(name))
            .ok_or(UnknownFormat)
    }
}

/// A name that is none of [`OutputFormat`]'s.
#[derive(Clone, Copy, Debug, Eq, PartialEq, thiserror::Error)]
#[error("expected judge, board, json or svg")]
pub struct UnknownFormat;

impl fmt::Display for OutputFormat {
    /// The command-line name: `judge`, `board`, `json` or `svg`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OutputFormat::Judge => "judge",
            OutputFormat::Board => "board",
            OutputFormat::Json => "json",
            OutputFormat::Svg => "svg",
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

    /// Case `case` (from 1) drawn as an SVG figure: the same boards as [`CaseAnswer::board`].
    fn figure(&self, case: u64) -> Figure;
}

/// Writes `value` as one line of JSON and its line end, with a single write to `out`: the
/// line is made in a buffer first. Serialising straight into a `dyn Write` calls it once per
/// token, a call that costs more than the token in a browser's WebAssembly (a search's trace
/// writes millions of lines).
pub fn json_line(out: &mut (impl Write + ?Sized), value: &impl Serialize) -> io::Result<()> {
    thread_local! {
        static LINE: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    LINE.with(|line| {
        // A line written while another is made (a value that writes JSON lines itself) gets
        // a buffer of its own.
        let mut own = Vec::new();
        let mut borrowed = line.try_borrow_mut();
        let buffer = match borrowed.as_mut() {
            Ok(buffer) => &mut **buffer,
            Err(_) => &mut own,
        };
        buffer.clear();
        serde_json::to_writer(&mut *buffer, value).map_err(io::Error::from)?;
        buffer.push(b'\n');
        let written = out.write_all(buffer);
        if buffer.capacity() > 1 << 20 {
            *buffer = Vec::new();
        }
        written
    })
}

/// Writes case `case` (from 1) in `format`: the judge's bytes; the drawing, after an empty
/// line from the second case on; one line of JSON; or a standalone SVG document.
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
        OutputFormat::Json => json_line(out, &answer.json(case)),
        OutputFormat::Svg => out.write_all(answer.figure(case).to_document().as_bytes()),
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
        for format in OutputFormat::ALL {
            assert_eq!(format.to_string().parse(), Ok(format));
            assert_eq!(format.to_string().to_uppercase().parse(), Ok(format));
        }
        assert_eq!("xml".parse::<OutputFormat>(), Err(UnknownFormat));
        assert_eq!("".parse::<OutputFormat>(), Err(UnknownFormat));
    }
}

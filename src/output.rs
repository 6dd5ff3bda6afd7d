//! How answers are written: the judge's bytes, diagrams for people, or JSON for programs.

use std::fmt;

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

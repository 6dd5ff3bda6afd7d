//! How answers are written: the judge's bytes, diagrams for people, or JSON for programs.

use std::fmt;

/// The form of a command's answers (a command-line value: `judge`, `board`, `json`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default, clap::ValueEnum)]
pub enum OutputFormat {
    /// Exactly the judge's format, byte for byte (plain text where there is no judge).
    #[default]
    Judge,
    /// Boards drawn with Unicode pieces, for people.
    Board,
    /// One JSON object per test case, one per line (JSON Lines), for programs.
    Json,
}

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

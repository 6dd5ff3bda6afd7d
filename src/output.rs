//! How answers are written: the judge's bytes, diagrams for people, or JSON for programs.

/// The form of a command's answers (a command-line value: `judge`, `board`, `json`).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default, clap::ValueEnum)]
pub enum OutputFormat {
    /// Exactly the judge's format, byte for byte.
    #[default]
    Judge,
    /// Boards drawn with Unicode pieces, for people.
    Board,
    /// One JSON object per test case, one per line (JSON Lines), for programs.
    Json,
}

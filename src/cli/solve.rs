//! The input and output options every solving command shares, and how they open the input
//! and hand it to a puzzle's `run`.

use std::io::Read;
use std::path::PathBuf;

use clap::Args;

use chess_puzzles::error::RunError;
use chess_puzzles::output::OutputFormat;

use super::io::{self, Failure, Verdict};

/// The input and output options shared by the solving commands.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The input: a path, or standard input when absent or `-`.
    pub(super) input: Option<PathBuf>,
    /// How to write the answers (`judge`: the judge's bytes, plain text where there is no judge).
    #[arg(long, value_enum, default_value_t)]
    pub(super) format: OutputFormat,
}

impl SolveArgs {
    /// Opens the input and answers it in the format asked for with `run` (a puzzle's `run`).
    pub(super) fn run(
        &self,
        out: &mut io::Output,
        run: impl FnOnce(Box<dyn Read>, &mut io::Output, OutputFormat) -> Result<(), RunError>,
    ) -> Result<Verdict, Failure> {
        let input = io::Input::open(self.input.as_ref(), out)?;
        run(input.reader, out, self.format).map_err(|e| Failure::from_run(&input.name, e))?;
        Ok(Verdict::Done)
    }
}

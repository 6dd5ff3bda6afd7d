//! The input and output options every solving command shares, and how they open the input
//! and hand it to a puzzle's `run`: the format, SVG documents laid out in one document or
//! in one file per case, and the search traces.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::Args;

use chess_puzzles::error::RunError;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::output::svg::{Documents, Layout};

use super::io::{self, Failure, Verdict};

/// The input and output options shared by the solving commands.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The input: a path, or standard input when absent or `-`.
    pub(super) input: Option<PathBuf>,
    #[command(flatten)]
    pub(super) output: OutputArgs,
}

/// How the answers are written.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// How to write the answers (`judge`: the judge's bytes, plain text where there is no
    /// judge; `svg`: the boards drawn as one SVG document, written once every case is
    /// answered).
    #[arg(long, value_enum, default_value_t)]
    pub(super) format: OutputFormat,
    /// With --format svg: one SVG file per case, DIR/<command>-<case>.svg (DIR is created if
    /// needed), each written as soon as it is known, instead of one document on standard
    /// output.
    #[arg(long, value_name = "DIR")]
    pub(super) svg_dir: Option<PathBuf>,
}

impl OutputArgs {
    /// Runs `work` with the output it writes to: standard output, or with `--format svg` the
    /// documents laid out in one (written to standard output at the end) or in files named
    /// after `stem`.
    pub(super) fn write<T>(
        &self,
        out: &mut io::Output,
        stem: &str,
        work: impl FnOnce(&mut dyn Write) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        if self.format != OutputFormat::Svg {
            if self.svg_dir.is_some() {
                return Err(Failure::Usage(format!(
                    "--svg-dir writes the SVG files of --format svg; it cannot be used with \
                     --format {}",
                    self.format
                )));
            }
            return work(out);
        }
        let layout = match &self.svg_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| Failure::Input {
                    name: dir.display().to_string(),
                    error: chess_puzzles::error::InputError::Io(e),
                })?;
                Layout::Files {
                    dir: dir.clone(),
                    stem: stem.to_string(),
                }
            }
            None => Layout::One,
        };
        let mut documents = Documents::new(out.clone(), layout);
        let result = work(&mut documents);
        let files = documents.files().len();
        let written = documents.finish().map_err(Failure::Output);
        let value = result?;
        written?;
        if let Some(dir) = &self.svg_dir {
            eprintln!(
                "{files} SVG file{} written in {}",
                if files == 1 { "" } else { "s" },
                dir.display()
            );
        }
        Ok(value)
    }
}

impl SolveArgs {
    /// Opens the input and answers it in the format asked for with `run` (a puzzle's `run`);
    /// SVG documents are laid out as [`OutputArgs::write`] says, their files named after
    /// `stem`.
    pub(super) fn run(
        &self,
        out: &mut io::Output,
        stem: &str,
        run: impl FnOnce(Box<dyn Read>, &mut dyn Write, OutputFormat) -> Result<(), RunError>,
    ) -> Result<Verdict, Failure> {
        let input = io::Input::open(self.input.as_ref(), out)?;
        let format = self.output.format;
        self.output.write(out, stem, |w| {
            run(input.reader, w, format).map_err(|e| Failure::from_run(&input.name, e))
        })?;
        Ok(Verdict::Done)
    }
}

/// `--trace` and its limit, for the puzzles whose search can be watched.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// Write the search step by step instead of the answers, as JSON Lines: a queen placed,
    /// a square attacked (and by which queens), a queen removed, a placement found (docs/guide.md
    /// describes the lines).
    #[arg(long)]
    pub(super) trace: bool,
    /// With --trace: at most this many steps in all (the trace ends there, and its last line
    /// says so).
    #[arg(long, value_name = "STEPS", requires = "trace", default_value_t = chess_puzzles::nqueens::trace::DEFAULT_STEPS)]
    pub(super) trace_steps: u64,
}

impl TraceArgs {
    /// Refuses `--trace` with a format other than JSON (a trace is JSON Lines).
    pub(super) fn check(&self, output: &OutputArgs) -> Result<(), Failure> {
        refuse_trace_format(self.trace, output)
    }
}

/// Refuses `--trace` (when `trace` is set) with `--format board` or `svg`, or with
/// `--svg-dir`.
pub(super) fn refuse_trace_format(trace: bool, output: &OutputArgs) -> Result<(), Failure> {
    if trace && !matches!(output.format, OutputFormat::Judge | OutputFormat::Json) {
        return Err(Failure::Usage(format!(
            "--trace writes the search as JSON Lines; it cannot be used with --format {}",
            output.format
        )));
    }
    if trace && output.svg_dir.is_some() {
        return Err(Failure::Usage(
            "--trace writes the search as JSON Lines; it cannot be used with --svg-dir".to_string(),
        ));
    }
    Ok(())
}

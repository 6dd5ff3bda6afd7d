//! "8 Queens Chess Problem" (UVa 750): every placement of eight queens that contains a
//! given queen, listed in lexicographic order in the judge's format.
//!
//! The 92 placements are found once; each query then looks its square up among them
//! ([`lookup`]). [`Solver::judge_block`] keeps the finished output of each of the 64 squares,
//! so answering a query is one copy. [`trace`] tells the backtracking search for a query's
//! placements step by step, for people to watch.
//!
//! ```
//! use chess_puzzles::core::Square;
//! use chess_puzzles::queens::{Solver, Style};
//!
//! let solver = Solver::new();
//! let block = solver.judge_block(Square::new(0, 0), Style::Statement);
//! assert!(block.starts_with(b"SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n 1      1 5 8 6 3 7 2 4\n"));
//! ```

pub mod generator;
pub mod lookup;
pub mod reader;
#[cfg(unix)]
pub mod stress;
pub mod trace;
pub mod validate;
pub mod writer;

use std::io::{Read, Write};

use crate::core::placements::is_non_attacking;
use crate::core::{CLASSIC, Square};
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};
use crate::judge::compare::Tolerance;
use crate::judge::{self, Checked};
use crate::output::{self, OutputFormat};
use crate::sample::Sample;

pub use lookup::Solver;
pub use reader::Reader;
use writer::Solved;

/// The sample of the statement of 8 Queens Chess Problem (UVa 750).
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/queens/sample.in"),
    output: include_str!("../../tests/data/queens/sample.out"),
};

/// One placement: the row (0-based) of the queen in each column.
pub type Placement = [u8; CLASSIC];

/// The judge's layout of one case.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub enum Style {
    /// As the statement's sample: the two heading lines, then the solutions.
    #[default]
    Statement,
    /// As the UVa 750 judge: one empty line after the two heading lines.
    Uva,
}

/// How `chess-puzzles queens` writes its answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub struct Options {
    /// Judge bytes, diagrams or JSON.
    pub format: OutputFormat,
    /// The judge layout (statement or UVa), for [`OutputFormat::Judge`].
    pub style: Style,
}

/// Answers every case of `input` on `out`, each as soon as its query is read.
///
/// Fails with [`RunError::Input`] at the first malformed case (a located error: line,
/// column, what was expected and what was found), the answers before it written already, or
/// with [`RunError::Output`] when `out` cannot be written.
///
/// ```
/// use chess_puzzles::queens::{run, Options};
///
/// let mut out = Vec::new();
/// run("1\n1 1\n".as_bytes(), &mut out, &Options::default()).unwrap();
/// assert!(out.ends_with(b" 4      1 7 5 8 2 4 6 3\n"));
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError> {
    run_cases(Reader::new(Scanner::new(input))?, out, options)
}

/// [`run`] on given queens read already (or read as they come): the same answers.
pub fn run_cases<W: Write>(
    reader: impl CaseReader<Case = Square>,
    out: &mut W,
    options: &Options,
) -> Result<(), RunError> {
    let solver = Solver::new();
    output::write_cases(reader, out, options.format, |given| {
        Solved::new(&solver, given, options.style)
    })
}

/// Judges `output` against the right answer for `input` in the layout `style`.
///
/// ```
/// use chess_puzzles::judge::compare::Tolerance;
/// use chess_puzzles::queens::{check, Style, SAMPLE};
///
/// let verdict = check(SAMPLE.input.as_bytes(), SAMPLE.output.as_bytes(), Style::Statement,
///     Tolerance::Exact).unwrap();
/// assert!(verdict.is_ok());
/// ```
pub fn check(input: impl Read, output: impl Read, style: Style, tolerance: Tolerance) -> Checked {
    let reader = Reader::new(Scanner::new(input))?;
    let solver = Solver::new();
    judge::check(
        reader,
        |given| Solved::new(&solver, given, style),
        output,
        tolerance,
    )
}

/// True when `placement` is a valid answer for `given`: non-attacking, and the given queen is in it.
pub fn is_valid_solution(placement: &Placement, given: Square) -> bool {
    is_non_attacking(placement) && placement.get(usize::from(given.col)) == Some(&given.row)
}

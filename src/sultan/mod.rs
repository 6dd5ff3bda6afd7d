//! "The Sultan's Successors" (UVa 167): the largest sum of the weights under eight
//! non-attacking queens, for each of k weighted boards.
//!
//! The 92 placements are found once and every board is scored against all of them
//! ([`score`]); [`trace`] tells the backtracking search over the placements step by step.
//!
//! ```
//! use chess_puzzles::sultan::{Board, Solver};
//!
//! let mut weights = [[0u32; 8]; 8];
//! weights[0][0] = 50;
//! let best = Solver::new().best(&Board { weights });
//! assert_eq!(best.score, 50);
//! assert_eq!(best.placement[0], 0); // the queen of column 1 stands on row 1
//! ```

pub mod generator;
pub mod reader;
pub mod score;
#[cfg(unix)]
pub mod stress;
pub mod trace;
pub mod validate;
pub mod writer;

use std::io::{Read, Write};

use crate::core::CLASSIC;
use crate::core::placements::is_non_attacking;
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};
use crate::judge::compare::Tolerance;
use crate::judge::{self, Checked};
use crate::output::{self, OutputFormat};
use crate::sample::Sample;

pub use reader::Reader;
pub use score::{Scorer, Solver};
use writer::Solved;

/// The sample of the statement of The Sultan's Successors (UVa 167).
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/sultan/sample.in"),
    output: include_str!("../../tests/data/sultan/sample.out"),
};

/// The largest weight the solver accepts (the statement's weights are below 100).
pub const MAX_WEIGHT: u64 = u32::MAX as u64;

/// One placement: the row (0-based) of the queen in each column.
pub type Placement = [u8; CLASSIC];

/// A weighted board: `weights[row][col]`, rows from the top, 0-based.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Board {
    /// The number written on each square.
    pub weights: [[u32; CLASSIC]; CLASSIC],
}

/// The best placement of a board and its score.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Best {
    /// The largest sum of weights under eight non-attacking queens.
    pub score: u64,
    /// The lexicographically first placement that reaches it.
    pub placement: Placement,
}

/// How `chess-puzzles sultan` writes its answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub struct Options {
    /// Judge bytes, boards or JSON.
    pub format: OutputFormat,
}

/// Answers every board of `input` on `out`, each as soon as it is read.
///
/// Fails with [`RunError::Input`] at the first malformed board (a located error: line,
/// column, what was expected and what was found), the answers before it written already, or
/// with [`RunError::Output`] when `out` cannot be written.
///
/// ```
/// use chess_puzzles::sultan::{run, Options};
///
/// let input = format!("1\n{}", "1 ".repeat(64));
/// let mut out = Vec::new();
/// run(input.as_bytes(), &mut out, &Options::default()).unwrap();
/// assert_eq!(out, b"    8\n");
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError> {
    run_cases(Reader::new(Scanner::new(input))?, out, options)
}

/// [`run`] on boards read already (or read as they come): the same answers.
pub fn run_cases<W: Write>(
    reader: impl CaseReader<Case = Board>,
    out: &mut W,
    options: &Options,
) -> Result<(), RunError> {
    let solver = Solver::new();
    output::write_cases(reader, out, options.format, |board| {
        Solved::new(&solver, board)
    })
}

/// Judges `output` against the right scores for `input`.
///
/// ```
/// use chess_puzzles::judge::compare::Tolerance;
/// use chess_puzzles::sultan::{check, SAMPLE};
///
/// assert!(check(SAMPLE.input.as_bytes(), "  260\n".as_bytes(), Tolerance::Exact).unwrap().is_ok());
/// assert!(check(SAMPLE.input.as_bytes(), "260\n".as_bytes(), Tolerance::Lines).unwrap().is_err());
/// ```
pub fn check(input: impl Read, output: impl Read, tolerance: Tolerance) -> Checked {
    let reader = Reader::new(Scanner::new(input))?;
    let solver = Solver::new();
    judge::check(
        reader,
        |board| Solved::new(&solver, board),
        output,
        tolerance,
    )
}

/// True when `placement` is non-attacking and scores `score` on `board`.
pub fn is_valid_answer(board: &Board, placement: &Placement, score: u64) -> bool {
    is_non_attacking(placement) && Solver::score(board, placement) == score
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The statement's sample: 1..64 with 48 written twice and no 49.
    pub(crate) fn sample_board() -> Board {
        let mut weights = [[0u32; 8]; 8];
        for i in 0..64u32 {
            let v = if i + 1 == 49 { 48 } else { i + 1 };
            weights[(i / 8) as usize][(i % 8) as usize] = v;
        }
        Board { weights }
    }

    #[test]
    fn the_sample_scores_260() {
        let best = Solver::new().best(&sample_board());
        assert_eq!(best.score, 260);
        assert!(is_valid_answer(&sample_board(), &best.placement, 260));
        assert_eq!(writer::judge_line(best.score), "  260\n");
    }
}

//! "The Sultan's Successors" (UVa 167): the largest sum of the weights under eight
//! non-attacking queens, for each of k weighted boards.
//!
//! The 92 placements are found once and every board is scored against all of them.
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
mod score;
pub mod validate;

pub use score::Scorer;

use std::io::{self, Read, Write};

use serde::Serialize;

use crate::core::placements::{self, is_non_attacking};
use crate::core::{CLASSIC, diagram};
use crate::error::{InputError, RunError};
use crate::input::{Cases, Scanner};
use crate::judge::compare::{Accepted, Answers, Difference, Tolerance};
use crate::judge::{self, CheckError};
use crate::output::OutputFormat;
use crate::sample::Sample;

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

/// Reads the boards of an input: the count k, then k boards of 64 numbers, row by row.
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> Reader<R> {
    /// Reads the count of boards.
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of boards", "board")?;
        Ok(Reader { scanner, cases })
    }

    /// The next board, or `None` after the last one (which also checks that nothing follows).
    pub fn next_board(&mut self) -> Result<Option<Board>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let mut numbers = [0u64; CLASSIC * CLASSIC];
        self.scanner
            .read_u64s(&mut numbers, "a weight 0..4294967295", 0, MAX_WEIGHT)
            .map_err(|e| e.with_context(self.cases.context()))?;
        let mut weights = [[0u32; CLASSIC]; CLASSIC];
        for (i, &w) in numbers.iter().enumerate() {
            // `read_u64s` keeps every number within MAX_WEIGHT, which fits a u32.
            weights[i / CLASSIC][i % CLASSIC] = w as u32;
        }
        Ok(Some(Board { weights }))
    }
}

/// The 92 placements, ready to score boards.
pub struct Solver {
    scorer: Scorer,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Finds the 92 placements of eight queens.
    pub fn new() -> Solver {
        Solver {
            scorer: Scorer::new(placements::all_arrays::<CLASSIC>()),
        }
    }

    /// The score of one placement on a board.
    pub fn score(board: &Board, placement: &Placement) -> u64 {
        Scorer::score(board, placement)
    }

    /// The best score alone (the judge's answer), by the fastest way available.
    pub fn best_score(&self, board: &Board) -> u64 {
        self.scorer.best_score(board)
    }

    /// The best score and the first placement (in lexicographic order) that reaches it.
    pub fn best(&self, board: &Board) -> Best {
        let mut best: Option<Best> = None;
        for p in self.scorer.placements() {
            let score = Solver::score(board, p);
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Best {
                    score,
                    placement: *p,
                });
            }
        }
        best.unwrap_or(Best {
            score: 0,
            placement: [0; CLASSIC],
        })
    }
}

/// Answers every board of `input` on `out`, each as soon as it is read.
///
/// ```
/// use chess_puzzles::output::OutputFormat;
///
/// let input = format!("1\n{}", "1 ".repeat(64));
/// let mut out = Vec::new();
/// chess_puzzles::sultan::run(input.as_bytes(), &mut out, OutputFormat::Judge).unwrap();
/// assert_eq!(out, b"    8\n");
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, format: OutputFormat) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let solver = Solver::new();
    let mut case = 0u64;
    while let Some(board) = reader.next_board()? {
        case += 1;
        let written = match format {
            OutputFormat::Judge => writeln!(out, "{:5}", solver.best_score(&board)),
            OutputFormat::Board => {
                let best = solver.best(&board);
                let separator = if case > 1 { "\n" } else { "" };
                write!(out, "{separator}{}", render_case(case, &board, &best))
            }
            OutputFormat::Json => {
                serde_json::to_writer(&mut *out, &JsonCase::new(case, &solver.best(&board)))
                    .map_err(io::Error::from)
                    .and_then(|()| out.write_all(b"\n"))
            }
        };
        written.map_err(RunError::Output)?;
    }
    Ok(())
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
pub fn check(
    input: impl Read,
    output: impl Read,
    tolerance: Tolerance,
) -> Result<Result<Accepted, Difference>, CheckError> {
    let answers = JudgeAnswers {
        reader: Reader::new(Scanner::new(input))?,
        solver: Solver::new(),
    };
    judge::check(answers, output, tolerance)
}

/// The judge's answers to an input, board by board, for [`check`].
struct JudgeAnswers<R> {
    reader: Reader<R>,
    solver: Solver,
}

impl<R: Read> Answers for JudgeAnswers<R> {
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
        let Some(board) = self.reader.next_board()? else {
            return Ok(false);
        };
        out.extend_from_slice(judge_line(self.solver.best_score(&board)).as_bytes());
        Ok(true)
    }

    fn skip_rest(&mut self) -> Result<(), InputError> {
        while self.reader.next_board()?.is_some() {}
        Ok(())
    }
}

/// Writes a score as the judge wants it: right-justified in five columns, then a newline.
pub fn judge_line(score: u64) -> String {
    format!("{score:5}\n")
}

/// One board for programs (`--format json`): 1-based numbers.
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The board number, from 1.
    pub case: u64,
    /// The best score.
    pub score: u64,
    /// The first best placement: the rows (1-based) of the queens of columns 1..8 (called
    /// `rows`, as in every command's JSON).
    pub rows: [u32; CLASSIC],
}

impl JsonCase {
    /// The JSON form of a board's answer.
    pub fn new(case: u64, best: &Best) -> JsonCase {
        JsonCase {
            case,
            score: best.score,
            rows: best.placement.map(|r| u32::from(r) + 1),
        }
    }
}

/// The board drawn with its weights, the queens of the best placement in brackets (`[34]`),
/// and the sum spelled out.
pub fn render_case(case: u64, board: &Board, best: &Best) -> String {
    let weight = |r: usize, c: usize| u64::from(board.weights[r % CLASSIC][c % CLASSIC]);
    let (d, terms) = diagram::weighted_placement(CLASSIC, weight, &best.placement);
    format!(
        "Board {case}: best score {}\n{d}{}\n",
        diagram::sum_spelled_out(best.score, &terms),
        diagram::WEIGHTED_LEGEND
    )
}

/// True when `placement` is non-attacking and scores `score` on `board`.
pub fn is_valid_answer(board: &Board, placement: &Placement, score: u64) -> bool {
    is_non_attacking(placement) && Solver::score(board, placement) == score
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_board() -> Board {
        // The statement's sample: 1..64 with 48 written twice and no 49.
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
        assert_eq!(judge_line(best.score), "  260\n");
    }

    #[test]
    fn wide_scores_are_not_cut() {
        assert_eq!(judge_line(123456), "123456\n");
    }

    #[test]
    fn reader_names_the_short_board() {
        let mut reader = Reader::new(Scanner::new("1\n1 2 3".as_bytes())).unwrap();
        let err = reader.next_board().unwrap_err();
        assert!(err.to_string().contains("(board 1 of 1)"), "{err}");
    }

    #[test]
    fn rendering_shows_the_terms() {
        let board = sample_board();
        let best = Solver::new().best(&board);
        let text = render_case(1, &board, &best);
        assert!(text.starts_with("Board 1: best score 260 = "));
        let queens = text.split('[').skip(1);
        assert_eq!(
            queens
                .filter(|p| p.starts_with(|c: char| c.is_ascii_digit()))
                .count(),
            8
        );
    }
}

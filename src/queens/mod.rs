//! "8 Queens Chess Problem" (UVa 750): every placement of eight queens that contains a
//! given queen, listed in lexicographic order in the judge's format.
//!
//! The 92 placements are found once; each query then filters them. [`Solver::judge_block`]
//! keeps the finished output of each of the 64 squares, so answering a query is one copy.
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
pub mod validate;

use std::io::{self, Read, Write};
use std::sync::OnceLock;

use serde::Serialize;

use crate::core::placements::{self, is_non_attacking};
use crate::core::{CLASSIC, Diagram, Square, diagram};
use crate::error::{InputError, RunError};
use crate::input::{Cases, Scanner};
use crate::judge::compare::{Accepted, Answers, Difference, Tolerance};
use crate::judge::{self, CheckError};
use crate::output::OutputFormat;
use crate::sample::Sample;

/// The sample of the statement of 8 Queens Chess Problem (UVa 750).
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/queens/sample.in"),
    output: include_str!("../../tests/data/queens/sample.out"),
};

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
/// ```
/// use chess_puzzles::queens::{run, Options};
///
/// let mut out = Vec::new();
/// run("1\n1 1\n".as_bytes(), &mut out, Options::default()).unwrap();
/// assert!(out.ends_with(b" 4      1 7 5 8 2 4 6 3\n"));
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: Options) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let solver = Solver::new();
    let mut case = 0u64;
    while let Some(given) = reader.next_query()? {
        case += 1;
        let separator: &[u8] = if case > 1 { b"\n" } else { b"" };
        let written = match options.format {
            OutputFormat::Judge => out
                .write_all(separator)
                .and_then(|()| out.write_all(solver.judge_block(given, options.style))),
            OutputFormat::Board => {
                let solutions: Vec<&Placement> = solver.solutions(given).collect();
                out.write_all(separator)
                    .and_then(|()| out.write_all(render_case(case, given, &solutions).as_bytes()))
            }
            OutputFormat::Json => {
                let solutions: Vec<&Placement> = solver.solutions(given).collect();
                serde_json::to_writer(&mut *out, &JsonCase::new(case, given, &solutions))
                    .map_err(io::Error::from)
                    .and_then(|()| out.write_all(b"\n"))
            }
        };
        written.map_err(RunError::Output)?;
    }
    Ok(())
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
pub fn check(
    input: impl Read,
    output: impl Read,
    style: Style,
    tolerance: Tolerance,
) -> Result<Result<Accepted, Difference>, CheckError> {
    let answers = JudgeAnswers {
        reader: Reader::new(Scanner::new(input))?,
        solver: Solver::new(),
        style,
        case: 0,
    };
    judge::check(answers, output, tolerance)
}

/// The judge's answers to an input, case by case, for [`check`].
struct JudgeAnswers<R> {
    reader: Reader<R>,
    solver: Solver,
    style: Style,
    case: u64,
}

impl<R: Read> Answers for JudgeAnswers<R> {
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
        let Some(given) = self.reader.next_query()? else {
            return Ok(false);
        };
        self.case += 1;
        if self.case > 1 {
            out.push(b'\n');
        }
        out.extend_from_slice(self.solver.judge_block(given, self.style));
        Ok(true)
    }

    fn skip_rest(&mut self) -> Result<(), InputError> {
        while self.reader.next_query()?.is_some() {}
        Ok(())
    }
}

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

/// Reads the queries of an input: the count T, then T squares as `row column` (1-based).
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> Reader<R> {
    /// Reads the count of test cases.
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of test cases", "case")?;
        Ok(Reader { scanner, cases })
    }

    /// The square of the next case's given queen, or `None` after the last case (which also
    /// checks that nothing follows it).
    pub fn next_query(&mut self) -> Result<Option<Square>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let max = CLASSIC as u64;
        let read = |sc: &mut Scanner<R>, what| sc.next_u64(what, 1, max).map(|v| v as u8 - 1);
        let row = read(&mut self.scanner, "a row number 1..8")
            .map_err(|e| e.with_context(self.cases.context()))?;
        let col = read(&mut self.scanner, "a column number 1..8")
            .map_err(|e| e.with_context(self.cases.context()))?;
        Ok(Some(Square::new(row, col)))
    }
}

/// The 92 placements and the finished judge output of every square, built on first use.
pub struct Solver {
    placements: Vec<Placement>,
    blocks: [Vec<OnceLock<Vec<u8>>>; 2],
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Finds the 92 placements of eight queens.
    pub fn new() -> Solver {
        let placements = placements::all_arrays::<CLASSIC>();
        let squares = CLASSIC * CLASSIC;
        Solver {
            placements,
            blocks: [
                (0..squares).map(|_| OnceLock::new()).collect(),
                (0..squares).map(|_| OnceLock::new()).collect(),
            ],
        }
    }

    /// The placements with a queen on `given`, in lexicographic order.
    pub fn solutions(&self, given: Square) -> impl Iterator<Item = &Placement> {
        self.placements
            .iter()
            .filter(move |p| p.get(usize::from(given.col)) == Some(&given.row))
    }

    /// The judge's output for one case with the queen on `given`, without the empty line that
    /// separates cases.
    pub fn judge_block(&self, given: Square, style: Style) -> &[u8] {
        let table = &self.blocks[style as usize];
        let index = given.index(CLASSIC) % table.len();
        table[index].get_or_init(|| {
            let mut block = Vec::new();
            let solutions: Vec<&Placement> = self.solutions(given).collect();
            // Writing to a Vec cannot fail.
            let _ = write_judge_case(&mut block, &solutions, style);
            block
        })
    }
}

/// Writes one case in the judge's format: headings, then each placement numbered `%2d` and
/// followed by six spaces and the 1-based rows.
pub fn write_judge_case(
    out: &mut impl Write,
    solutions: &[&Placement],
    style: Style,
) -> io::Result<()> {
    out.write_all(b"SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n")?;
    if style == Style::Uva {
        out.write_all(b"\n")?;
    }
    for (i, p) in solutions.iter().enumerate() {
        write!(out, "{:2}      ", i + 1)?;
        for (c, &r) in p.iter().enumerate() {
            let sep = if c + 1 == p.len() { b'\n' } else { b' ' };
            out.write_all(&[b'1' + r, sep])?;
        }
    }
    Ok(())
}

/// One case for programs (`--format json`): 1-based numbers throughout.
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The case number, from 1.
    pub case: u64,
    /// The given queen as `[row, column]`.
    pub queen: [u32; 2],
    /// Each placement as the rows of columns 1..8.
    pub solutions: Vec<[u32; CLASSIC]>,
}

impl JsonCase {
    /// The JSON form of a case.
    pub fn new(case: u64, given: Square, solutions: &[&Placement]) -> JsonCase {
        JsonCase {
            case,
            queen: [u32::from(given.row) + 1, u32::from(given.col) + 1],
            solutions: solutions
                .iter()
                .map(|p| p.map(|r| u32::from(r) + 1))
                .collect(),
        }
    }
}

/// The symbol of the given queen in diagrams.
pub const GIVEN_QUEEN: &str = "♕";
/// The symbol of the other queens in diagrams.
pub const QUEEN: &str = "♛";

/// Draws one placement, the given queen marked with [`GIVEN_QUEEN`].
pub fn diagram(placement: &Placement, given: Option<Square>) -> Diagram {
    let mut d = Diagram::new(CLASSIC, CLASSIC);
    for (c, &r) in placement.iter().enumerate() {
        let sq = Square::new(r, c as u8);
        d.set(
            sq,
            if Some(sq) == given {
                GIVEN_QUEEN
            } else {
                QUEEN
            },
        );
    }
    d
}

/// Draws every solution of a case, four boards to a row, each titled with its number and rows.
pub fn render_case(case: u64, given: Square, solutions: &[&Placement]) -> String {
    let mut out = format!(
        "Case {case}: queen given on row {}, column {} ({GIVEN_QUEEN}); {} solutions\n",
        given.row + 1,
        given.col + 1,
        solutions.len()
    );
    for (chunk_index, chunk) in solutions.chunks(4).enumerate() {
        let blocks: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let number = chunk_index * 4 + i + 1;
                let rows: String = p.iter().map(|r| char::from(b'1' + r)).collect();
                format!("#{number:<2} {rows}\n{}", diagram(p, Some(given)))
            })
            .collect();
        out.push('\n');
        out.push_str(&diagram::side_by_side(&blocks, 3));
    }
    out
}

/// True when `placement` is a valid answer for `given`: non-attacking, and the given queen is in it.
pub fn is_valid_solution(placement: &Placement, given: Square) -> bool {
    is_non_attacking(placement) && placement.get(usize::from(given.col)) == Some(&given.row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_has_between_4_and_18_solutions() {
        let solver = Solver::new();
        assert_eq!(solver.placements.len(), 92);
        for i in 0..64 {
            let sq = Square::from_index(i, 8);
            let n = solver.solutions(sq).count();
            assert!((4..=18).contains(&n), "{sq}: {n}");
            assert!(solver.solutions(sq).all(|p| is_valid_solution(p, sq)));
        }
    }

    #[test]
    fn styles_differ_by_one_empty_line() {
        let solver = Solver::new();
        let sq = Square::new(3, 5);
        let plain = solver.judge_block(sq, Style::Statement);
        let uva = solver.judge_block(sq, Style::Uva);
        assert_eq!(uva.len(), plain.len() + 1);
        let heading_end = b"SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n".len();
        assert_eq!(&uva[heading_end..heading_end + 1], b"\n");
        assert_eq!(&uva[heading_end + 1..], &plain[heading_end..]);
    }

    #[test]
    fn reader_reports_the_short_case() {
        let mut reader = Reader::new(Scanner::new("3\n1 1\n2 2\n3".as_bytes())).unwrap();
        assert_eq!(reader.next_query().unwrap(), Some(Square::new(0, 0)));
        assert_eq!(reader.next_query().unwrap(), Some(Square::new(1, 1)));
        let err = reader.next_query().unwrap_err();
        assert_eq!(
            err.to_string(),
            "4:2: expected a column number 1..8 (case 3 of 3), found end of input"
        );
    }

    #[test]
    fn board_rendering_marks_the_given_queen() {
        let solver = Solver::new();
        let given = Square::new(0, 0);
        let solutions: Vec<_> = solver.solutions(given).collect();
        let text = render_case(1, given, &solutions);
        assert_eq!(text.matches(GIVEN_QUEEN).count(), solutions.len() + 1);
        assert_eq!(text.matches(QUEEN).count(), solutions.len() * 7);
        assert!(text.contains("#1  15863724"));
    }
}

//! Reading the judge input: the test count, then per test the side n, n rows of `#` (king)
//! and `_` (empty), and the eight prices.

use std::io::Read;

use crate::core::{Square, SquareSet};
use crate::error::{InputError, ParseError, ParseErrorKind, Position};
use crate::input::{CaseReader, Cases, Scanner, parse_digits};

use super::{Instance, InstanceError, MAX_COST, MAX_SIDE, MIN_SIDE, program_sides};

/// The characters of a board row: a king, an empty square.
pub(crate) const SQUARES: &[u8] = b"#_";

/// Reads the test cases of a judge input one at a time. See the [module docs](self).
///
/// ```
/// use chess_puzzles::input::{CaseReader, Scanner};
/// use chess_puzzles::showdown::Reader;
///
/// let text = "1\n2\n#_\n__\n1 2 3 4 5 6 7 8\n";
/// let mut reader = Reader::new(Scanner::new(text.as_bytes())).unwrap();
/// let instance = reader.next_case().unwrap().unwrap();
/// assert_eq!((instance.side(), instance.king_count()), (2, 1));
/// assert!(reader.next_case().unwrap().is_none());
/// ```
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
    board_start: Position,
    /// What the errors say was expected, made once rather than for every test (an input
    /// may hold millions of small tests): the side, the eight prices, and the rows of the
    /// side read last.
    expected_side: String,
    expected_costs: [String; 8],
    expected_rows: (usize, Vec<String>),
}

impl<R: Read> Reader<R> {
    /// Reads the number of test cases; fails with a located error when it is missing, not a
    /// number, or above [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT).
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of test cases t", "test")?;
        Ok(Reader {
            scanner,
            cases,
            board_start: Position::START,
            expected_side: format!("a board side n {}", program_sides()),
            expected_costs: std::array::from_fn(|i| {
                format!("cost {} of 8, a number 1..{MAX_COST}", i + 1)
            }),
            expected_rows: (0, Vec::new()),
        })
    }

    /// The announced number of test cases.
    pub fn total(&self) -> u64 {
        self.cases.total()
    }

    /// Where the board of the last test read starts (its first row), for errors about it.
    pub fn board_start(&self) -> Position {
        self.board_start
    }

    /// Where the reader is, for error messages: `test 3 of 5`.
    pub fn context(&self) -> String {
        self.cases.context()
    }

    fn read_case(&mut self) -> Result<Instance, InputError> {
        let expected_side = &self.expected_side;
        let first_test = self.cases.current() == 1;
        let total = self.cases.total();
        let token = self.scanner.expect_token(expected_side)?;
        let side = match parse_digits(token.bytes) {
            Some(v) if (MIN_SIDE as u64..=MAX_SIDE as u64).contains(&v) => v as usize,
            Some(_) => {
                return Err(ParseError::new(
                    token.position,
                    ParseErrorKind::OutOfRange,
                    expected_side.as_str(),
                    token.describe(),
                )
                .into());
            }
            None if first_test && token.bytes.iter().all(|b| SQUARES.contains(b)) => {
                // The statement's own sample starts with the side, without the test count.
                return Err(ParseError::new(
                    token.position,
                    ParseErrorKind::NotANumber,
                    expected_side.as_str(),
                    format!(
                        "a board row {}: the first number, {total}, was read as the number of \
                         tests t, so the input seems to lack it (the statement's sample leaves \
                         it out); add the number of tests as its first line, e.g. 1",
                        token.describe()
                    ),
                )
                .into());
            }
            None => {
                return Err(ParseError::new(
                    token.position,
                    ParseErrorKind::NotANumber,
                    expected_side.as_str(),
                    token.describe(),
                )
                .into());
            }
        };
        if self.expected_rows.0 != side {
            self.expected_rows = (
                side,
                (1..=side)
                    .map(|r| format!("row {r} of {side}: {side} characters '#' or '_'"))
                    .collect(),
            );
        }
        let mut kings = SquareSet::new(side);
        let mut row_starts = Vec::with_capacity(side);
        for r in 0..side {
            let expected = self.expected_rows.1.get(r).map_or("", String::as_str);
            let token = self.scanner.expect_token(expected)?;
            row_starts.push(token.position);
            if r == 0 {
                self.board_start = token.position;
            }
            for (c, &b) in token.bytes.iter().enumerate().take(side) {
                match b {
                    b'#' => {
                        kings.insert(Square::new(r as u8, c as u8));
                    }
                    b'_' => {}
                    _ => {
                        let shown = String::from_utf8_lossy(&token.bytes[c..])
                            .chars()
                            .next()
                            .unwrap_or('?');
                        return Err(ParseError::new(
                            token.position_at(c),
                            ParseErrorKind::BadCharacter,
                            format!("'#' (king) or '_' (empty) in row {}", r + 1),
                            format!("{:?}", shown),
                        )
                        .into());
                    }
                }
            }
            if token.bytes.len() != side {
                let at = token.position_at(token.bytes.len().min(side));
                return Err(ParseError::new(
                    at,
                    ParseErrorKind::BadLength,
                    format!("row {} of exactly {side} characters", r + 1),
                    format!(
                        "{} {}",
                        crate::error::plural(token.bytes.len() as u64, "character"),
                        token.describe()
                    ),
                )
                .into());
            }
        }
        let mut costs = [0u32; 8];
        let mut cost_positions = [Position::START; 8];
        for (i, cost) in costs.iter_mut().enumerate() {
            cost_positions[i] = self.scanner.position();
            *cost = self
                .scanner
                .next_u64(&self.expected_costs[i], 1, MAX_COST)? as u32;
        }
        Instance::new(side, kings, costs).map_err(|e| {
            let (position, found) = match &e {
                InstanceError::Uncheckable(sq) => {
                    let start = row_starts
                        .get(usize::from(sq.row))
                        .copied()
                        .unwrap_or(Position::START);
                    (
                        Position {
                            line: start.line,
                            column: start.column + u64::from(sq.col),
                        },
                        e.to_string(),
                    )
                }
                other => (Position::START, other.to_string()),
            };
            ParseError::new(
                position,
                ParseErrorKind::Invalid,
                "every king to have an empty neighbour or a square from which a piece checks it",
                found,
            )
            .into()
        })
    }
}

impl<R: Read> CaseReader for Reader<R> {
    type Case = Instance;

    fn next_case(&mut self) -> Result<Option<Instance>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        self.read_case()
            .map(Some)
            .map_err(|e| e.with_context(self.cases.context()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(text: &str) -> ParseError {
        let result = Reader::new(Scanner::new(text.as_bytes())).and_then(|mut r| {
            while r.next_case()?.is_some() {}
            Ok(())
        });
        match result {
            Err(InputError::Parse(e)) => e,
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn bad_inputs_are_located() {
        let cases: &[(&str, ParseErrorKind, u64, u64)] = &[
            (
                "1\n2\n#_\n_\n1 1 1 1 1 1 1 1\n",
                ParseErrorKind::BadLength,
                4,
                2,
            ),
            (
                "1\n2\n#_\n___\n1 1 1 1 1 1 1 1\n",
                ParseErrorKind::BadLength,
                4,
                3,
            ),
            (
                "1\n2\n#x\n__\n1 1 1 1 1 1 1 1\n",
                ParseErrorKind::BadCharacter,
                3,
                2,
            ),
            (
                "1\n2\n#_\n__\n1 1 1 1 1 1 1\n",
                ParseErrorKind::UnexpectedEnd,
                6,
                1,
            ),
            (
                "1\n2\n#_\n__\n1 1 1 0 1 1 1 1\n",
                ParseErrorKind::OutOfRange,
                5,
                7,
            ),
            (
                "1\n2\n#_\n__\n1 1 1 1000001 1 1 1 1\n",
                ParseErrorKind::OutOfRange,
                5,
                7,
            ),
            (
                "2\n2\n#_\n__\n1 1 1 1 1 1 1 1\n",
                ParseErrorKind::UnexpectedEnd,
                6,
                1,
            ),
            ("1\n0\n", ParseErrorKind::OutOfRange, 2, 1),
            ("1\n1\n", ParseErrorKind::OutOfRange, 2, 1),
            ("1\n257\n", ParseErrorKind::OutOfRange, 2, 1),
            ("1\n-2\n", ParseErrorKind::NotANumber, 2, 1),
            (
                "1\n2\n#_\n__\n1 1 1 1 1 1 1 1\n5\n",
                ParseErrorKind::TrailingInput,
                6,
                1,
            ),
            (
                "1\n2\n##\n##\n1 1 1 1 1 1 1 1\n",
                ParseErrorKind::Invalid,
                3,
                1,
            ),
            ("x\n", ParseErrorKind::NotANumber, 1, 1),
        ];
        for &(text, kind, line, column) in cases {
            let e = first_error(text);
            assert_eq!(e.kind, kind, "{text:?}: {e}");
            assert_eq!(
                (e.position.line, e.position.column),
                (line, column),
                "{text:?}: {e}"
            );
        }
    }

    #[test]
    fn the_statements_sample_without_the_count_is_explained() {
        // The statement prints its sample without t: 5 is read as t, the first row as a side.
        let e = first_error("5\n___##\n__#__\n##_#_\n_##__\n##___\n1 1 1 1 1 1 2 1\n");
        assert_eq!(e.kind, ParseErrorKind::NotANumber);
        assert_eq!((e.position.line, e.position.column), (2, 1));
        let text = e.to_string();
        assert!(text.contains("found a board row '___##'"), "{text}");
        assert!(
            text.contains("add the number of tests as its first line"),
            "{text}"
        );
        // Only for the first test: later, a row where a side should be is a plain error.
        let e = first_error("2\n2\n#_\n__\n1 1 1 1 1 1 1 1\n#_\n");
        assert_eq!(e.kind, ParseErrorKind::NotANumber);
        assert!(!e.to_string().contains("first line"), "{e}");
    }

    #[test]
    fn the_uncheckable_king_is_named() {
        let e = first_error("1\n4\n####\n####\n####\n###_\n1 1 1 1 1 1 1 1\n");
        assert_eq!(e.kind, ParseErrorKind::Invalid);
        assert!(e.to_string().contains("(1,1)"), "{e}");
        assert!(e.to_string().contains("(test 1 of 1)"), "{e}");
    }

    #[test]
    fn large_boards_are_read() {
        let n = 60;
        let row = "_".repeat(n);
        let text = format!("1\n{n}\n{}1 2 3 4 5 6 7 8\n", format!("{row}\n").repeat(n));
        let mut reader = Reader::new(Scanner::new(text.as_bytes())).unwrap();
        assert_eq!(reader.next_case().unwrap().unwrap().side(), n);
    }
}

//! Reading an input line by line, strictly, for validators.
//!
//! Unlike the solvers' [`Scanner`](crate::input::Scanner), which takes any whitespace, this reader
//! checks the exact layout of a statement: every line ends with `\n` (the last one included),
//! `\r` is not allowed, numbers have no sign and no leading zeros, and fields are separated as
//! the statement shows. Lines are streamed, and a line longer than [`MAX_LINE`] is refused, so
//! memory stays bounded.
//!
//! ```
//! use chess_puzzles::judge::strict::{Lines, Spacing};
//!
//! let mut lines = Lines::new("2\n1 8\n".as_bytes());
//! let first = lines.expect("the number of test cases").unwrap();
//! assert_eq!(first.numbers(1, 1, 100, "a count", Spacing::Single).unwrap(), [2]);
//! let second = lines.expect("a square").unwrap();
//! let err = second.numbers(2, 1, 7, "a row 1..7", Spacing::Single).unwrap_err();
//! assert_eq!(err.to_string(), "2:3: expected a row 1..7, found '8'");
//! ```

use std::io::{BufRead, BufReader, Read};

use crate::error::{InputError, ParseError, ParseErrorKind, Position, describe_token};

/// The longest line accepted, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// How the fields of a line are separated.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Spacing {
    /// Exactly one space between fields, none before the first or after the last.
    Single,
    /// Runs of spaces between fields and before the first (column-aligned numbers), none after
    /// the last.
    Aligned,
}

/// One line, without its `\n`.
#[derive(Clone, Debug)]
pub struct Line<'a> {
    /// The line number, from 1.
    pub number: u64,
    /// The bytes of the line.
    pub text: &'a [u8],
}

impl Line<'_> {
    /// The position of the line's byte `i` (0-based).
    pub fn position(&self, i: usize) -> Position {
        Position {
            line: self.number,
            column: i as u64 + 1,
        }
    }

    /// The error for byte `i`: `expected`, found the rest of its field (or the line end).
    pub fn error_at(&self, i: usize, kind: ParseErrorKind, expected: &str) -> ParseError {
        let found = match self.text.get(i) {
            None => "end of line".to_string(),
            Some(b' ') => "' '".to_string(),
            Some(_) => {
                let end = self.text[i..]
                    .iter()
                    .position(|&b| b == b' ')
                    .map_or(self.text.len(), |n| i + n);
                describe_token(&self.text[i..end])
            }
        };
        ParseError::new(self.position(i), kind, expected, found)
    }

    /// Splits the line into exactly `count` fields separated as `spacing` says; returns each
    /// field's start and bytes. `what` names a field in errors.
    pub fn fields(
        &self,
        count: usize,
        what: &str,
        spacing: Spacing,
    ) -> Result<Vec<(usize, &[u8])>, ParseError> {
        let text = self.text;
        let mut fields = Vec::with_capacity(count.min(64));
        let mut i = 0;
        for k in 0..count {
            let gap_start = i;
            while spacing == Spacing::Aligned && i < text.len() && text[i] == b' ' {
                i += 1;
            }
            if k > 0 && spacing == Spacing::Single {
                if text.get(i) != Some(&b' ') {
                    return Err(self.error_at(i, ParseErrorKind::BadLength, "a single space"));
                }
                i += 1;
            }
            if k > 0 && spacing == Spacing::Aligned && i == gap_start {
                return Err(self.error_at(i, ParseErrorKind::BadLength, "a space"));
            }
            let start = i;
            while i < text.len() && text[i] != b' ' {
                i += 1;
            }
            if start == i {
                return Err(self.error_at(start, ParseErrorKind::BadLength, what));
            }
            fields.push((start, &text[start..i]));
        }
        if i < text.len() {
            let expected = format!("the end of the line after {count} fields");
            return Err(self.error_at(i, ParseErrorKind::TrailingInput, &expected));
        }
        Ok(fields)
    }

    /// Reads a line of exactly `count` one-byte cells, each one of `allowed`, with nothing
    /// between or after them (a board row). `what` names the whole line in the error for a short
    /// one; a bad cell is located at its own column.
    ///
    /// ```
    /// use chess_puzzles::judge::strict::Lines;
    ///
    /// let mut lines = Lines::new("..x.\n".as_bytes());
    /// let line = lines.expect("a row").unwrap();
    /// let err = line.cells(4, b".Q", "a row of 4").unwrap_err();
    /// assert_eq!(err.to_string(), "1:3: expected one of '.' 'Q', found 'x'");
    /// ```
    pub fn cells(&self, count: usize, allowed: &[u8], what: &str) -> Result<&[u8], ParseError> {
        let text = self.text;
        for (i, &byte) in text.iter().take(count).enumerate() {
            if !allowed.contains(&byte) {
                let shown: Vec<String> = allowed.iter().map(|&b| describe_token(&[b])).collect();
                // Show the whole character when it is not ASCII.
                let end = (i + 4).min(text.len());
                let found = String::from_utf8_lossy(&text[i..end])
                    .chars()
                    .next()
                    .map_or_else(
                        || describe_token(&[byte]),
                        |c| describe_token(c.to_string().as_bytes()),
                    );
                return Err(ParseError::new(
                    self.position(i),
                    ParseErrorKind::BadCharacter,
                    format!("one of {}", shown.join(" ")),
                    found,
                ));
            }
        }
        if text.len() < count {
            return Err(ParseError::new(
                self.position(text.len()),
                ParseErrorKind::BadLength,
                what,
                format!("end of line after {} characters", text.len()),
            ));
        }
        if text.len() > count {
            return Err(ParseError::new(
                self.position(count),
                ParseErrorKind::TrailingInput,
                format!("the end of the line after {count} characters"),
                describe_token(&text[count..]),
            ));
        }
        Ok(text)
    }

    /// Succeeds when the line is empty; `what` names the empty line in the error.
    pub fn empty(&self, what: &str) -> Result<(), ParseError> {
        if self.text.is_empty() {
            return Ok(());
        }
        Err(ParseError::new(
            self.position(0),
            ParseErrorKind::BadLength,
            what,
            describe_token(self.text),
        ))
    }

    /// Reads exactly `count` numbers in `lo..=hi`, written plainly (digits, no leading zeros).
    pub fn numbers(
        &self,
        count: usize,
        lo: u64,
        hi: u64,
        what: &str,
        spacing: Spacing,
    ) -> Result<Vec<u64>, ParseError> {
        self.fields(count, what, spacing)?
            .into_iter()
            .map(|(start, field)| {
                let plain =
                    field.iter().all(u8::is_ascii_digit) && (field.len() == 1 || field[0] != b'0');
                let value = plain.then(|| crate::input::parse_digits(field)).flatten();
                match value {
                    Some(v) if (lo..=hi).contains(&v) => Ok(v),
                    Some(_) => Err(self.error_at(start, ParseErrorKind::OutOfRange, what)),
                    None => Err(self.error_at(start, ParseErrorKind::NotANumber, what)),
                }
            })
            .collect()
    }
}

/// A strict, streaming line reader. See the [module docs](self).
pub struct Lines<R> {
    reader: BufReader<R>,
    number: u64,
    buf: Vec<u8>,
}

impl<R: Read> Lines<R> {
    /// A reader at the first line of `source`.
    pub fn new(source: R) -> Lines<R> {
        Lines {
            reader: BufReader::with_capacity(1 << 16, source),
            number: 0,
            buf: Vec::new(),
        }
    }

    /// The number of the last line read (0 before the first).
    pub fn line_number(&self) -> u64 {
        self.number
    }

    /// The next line, or `None` at the end of input.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, InputError> {
        self.buf.clear();
        let limit = (MAX_LINE + 1) as u64;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let position = |column: usize| Position {
            line: self.number,
            column: column as u64 + 1,
        };
        if self.buf.last() != Some(&b'\n') {
            if self.buf.len() > MAX_LINE {
                return Err(ParseError::new(
                    position(MAX_LINE),
                    ParseErrorKind::TokenTooLong,
                    format!("a line of at most {MAX_LINE} bytes"),
                    "a longer line",
                )
                .into());
            }
            return Err(ParseError::new(
                position(self.buf.len()),
                ParseErrorKind::UnexpectedEnd,
                "a line end '\\n'",
                "end of input",
            )
            .into());
        }
        self.buf.pop();
        if let Some(i) = self.buf.iter().position(|&b| b == b'\r') {
            return Err(ParseError::new(
                position(i),
                ParseErrorKind::BadCharacter,
                "a line end '\\n' alone",
                "'\\r'",
            )
            .into());
        }
        Ok(Some(Line {
            number: self.number,
            text: &self.buf,
        }))
    }

    /// The next line, which must exist; `what` names it for the error at the end of input.
    pub fn expect(&mut self, what: &str) -> Result<Line<'_>, InputError> {
        let next = self.number + 1;
        match self.next_line()? {
            Some(line) => Ok(line),
            None => Err(ParseError::new(
                Position {
                    line: next,
                    column: 1,
                },
                ParseErrorKind::UnexpectedEnd,
                what,
                "end of input",
            )
            .into()),
        }
    }

    /// Succeeds only at the end of input.
    pub fn expect_end(&mut self, what: &str) -> Result<(), InputError> {
        match self.next_line()? {
            None => Ok(()),
            Some(line) => {
                let found = if line.text.is_empty() {
                    "an empty line".to_string()
                } else {
                    describe_token(line.text)
                };
                Err(
                    ParseError::new(line.position(0), ParseErrorKind::TrailingInput, what, found)
                        .into(),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind_of(input: &str, count: usize, spacing: Spacing) -> Option<ParseErrorKind> {
        let mut lines = Lines::new(input.as_bytes());
        match lines.next_line() {
            Err(e) => e.kind(),
            Ok(None) => None,
            Ok(Some(line)) => line
                .numbers(count, 1, 99, "n", spacing)
                .err()
                .map(|e| e.kind),
        }
    }

    #[test]
    fn single_spacing_is_exact() {
        assert_eq!(kind_of("1 2\n", 2, Spacing::Single), None);
        assert_eq!(
            kind_of("1  2\n", 2, Spacing::Single),
            Some(ParseErrorKind::BadLength)
        );
        assert_eq!(
            kind_of(" 1 2\n", 2, Spacing::Single),
            Some(ParseErrorKind::BadLength)
        );
        assert_eq!(
            kind_of("1 2 \n", 2, Spacing::Single),
            Some(ParseErrorKind::TrailingInput)
        );
        assert_eq!(
            kind_of("1 2 3\n", 2, Spacing::Single),
            Some(ParseErrorKind::TrailingInput)
        );
        assert_eq!(
            kind_of("1\n", 2, Spacing::Single),
            Some(ParseErrorKind::BadLength)
        );
        assert_eq!(
            kind_of("1 2", 2, Spacing::Single),
            Some(ParseErrorKind::UnexpectedEnd)
        );
        assert_eq!(
            kind_of("1 2\r\n", 2, Spacing::Single),
            Some(ParseErrorKind::BadCharacter)
        );
    }

    #[test]
    fn aligned_spacing_allows_runs_but_not_trailing() {
        assert_eq!(kind_of("  1 22  3\n", 3, Spacing::Aligned), None);
        assert_eq!(
            kind_of("1 2 3 \n", 3, Spacing::Aligned),
            Some(ParseErrorKind::TrailingInput)
        );
    }

    #[test]
    fn numbers_are_plain() {
        assert_eq!(
            kind_of("01\n", 1, Spacing::Single),
            Some(ParseErrorKind::NotANumber)
        );
        assert_eq!(
            kind_of("+1\n", 1, Spacing::Single),
            Some(ParseErrorKind::NotANumber)
        );
        assert_eq!(
            kind_of("100\n", 1, Spacing::Single),
            Some(ParseErrorKind::OutOfRange)
        );
        assert_eq!(
            kind_of("0\n", 1, Spacing::Single),
            Some(ParseErrorKind::OutOfRange)
        );
    }

    #[test]
    fn errors_are_located() {
        let mut lines = Lines::new("5\n1 1\n1 x\n".as_bytes());
        lines.next_line().unwrap();
        lines.next_line().unwrap();
        let line = lines.next_line().unwrap().unwrap();
        let err = line
            .numbers(2, 1, 8, "a column 1..8", Spacing::Single)
            .unwrap_err();
        assert_eq!(err.to_string(), "3:3: expected a column 1..8, found 'x'");
        let err = lines.expect("a square").unwrap_err();
        assert_eq!(
            err.to_string(),
            "4:1: expected a square, found end of input"
        );
    }

    fn cells_of(input: &str) -> Result<Vec<u8>, ParseError> {
        let mut lines = Lines::new(input.as_bytes());
        let line = lines.expect("a row").unwrap();
        line.cells(4, b".QN", "a row of 4").map(<[u8]>::to_vec)
    }

    #[test]
    fn cells_are_counted_and_checked_one_by_one() {
        assert_eq!(cells_of(".QN.\n").unwrap(), b".QN.");
        let e = cells_of(".Q\n").unwrap_err();
        assert_eq!((e.kind, e.position.column), (ParseErrorKind::BadLength, 3));
        assert_eq!(e.found, "end of line after 2 characters");
        let e = cells_of(".QN..\n").unwrap_err();
        assert_eq!(
            (e.kind, e.position.column),
            (ParseErrorKind::TrailingInput, 5)
        );
        let e = cells_of(".Q N\n").unwrap_err();
        assert_eq!(
            (e.kind, e.position.column),
            (ParseErrorKind::BadCharacter, 3)
        );
        assert_eq!(e.found, "' '");
        // A bad character is reported before the length, and shown whole.
        let e = cells_of("é\n").unwrap_err();
        assert_eq!(
            (e.kind, e.position.column),
            (ParseErrorKind::BadCharacter, 1)
        );
        assert_eq!(e.found, "'é'");
        let e = cells_of("..\t\n").unwrap_err();
        assert_eq!(e.found, "'\\t'");
    }

    #[test]
    fn empty_lines_are_empty() {
        let mut lines = Lines::new("\n \n".as_bytes());
        assert!(lines.expect("x").unwrap().empty("an empty line").is_ok());
        let e = lines
            .expect("x")
            .unwrap()
            .empty("an empty line")
            .unwrap_err();
        assert_eq!(e.to_string(), "2:1: expected an empty line, found ' '");
        assert_eq!(e.kind, ParseErrorKind::BadLength);
    }

    #[test]
    fn long_lines_are_refused() {
        let text = "1".repeat(MAX_LINE + 5) + "\n";
        let mut lines = Lines::new(text.as_bytes());
        assert_eq!(
            lines.next_line().unwrap_err().kind(),
            Some(ParseErrorKind::TokenTooLong)
        );
    }
}

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

use crate::error::{InputError, ParseError, ParseErrorKind, Position, describe_token, plural};
use crate::input::PLAUSIBLE_COUNT;

/// The longest line accepted, in bytes. Only its first `MAX_LINE` bytes are kept: the layout
/// of what they hold is checked first, so a line too long is reported at its first wrong
/// byte when it has one there (no statement's line comes near this length).
pub const MAX_LINE: usize = 1 << 20;

/// The UTF-8 byte-order mark, which some editors write at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// How the fields of a line are separated.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Spacing {
    /// Exactly one space between fields, none before the first or after the last.
    Single,
    /// Runs of spaces between fields and before the first (column-aligned numbers), none after
    /// the last.
    Aligned,
}

/// One number field of a line: what it is called in errors and its range.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Field<'a> {
    /// What the field holds, e.g. `a row 1..8`.
    pub what: &'a str,
    /// The smallest value allowed.
    pub lo: u64,
    /// The largest value allowed.
    pub hi: u64,
}

impl<'a> Field<'a> {
    /// A field called `what` in errors, holding `lo..=hi`.
    pub const fn new(what: &'a str, lo: u64, hi: u64) -> Field<'a> {
        Field { what, lo, hi }
    }
}

/// One line, without its `\n`.
#[derive(Clone, Debug)]
pub struct Line<'a> {
    /// The line number, from 1.
    pub number: u64,
    /// The bytes of the line (at most [`MAX_LINE`] of them).
    pub text: &'a [u8],
}

/// What is shown for the byte at `text[i..]` in an error: the whole character, quoted, and for
/// a `\r` before the line end a word on where it comes from.
fn describe_char(text: &[u8], i: usize) -> String {
    let Some(&byte) = text.get(i) else {
        return "end of line".to_string();
    };
    if byte == b'\r' {
        return if i + 1 == text.len() {
            "'\\r' (a Windows line end \\r\\n; lines must end with \\n alone)".to_string()
        } else {
            "'\\r'".to_string()
        };
    }
    let end = (i + 4).min(text.len());
    match String::from_utf8_lossy(&text[i..end]).chars().next() {
        Some(c) if c != char::REPLACEMENT_CHARACTER => describe_token(c.to_string().as_bytes()),
        _ => describe_token(&[byte]),
    }
}

impl Line<'_> {
    /// The position of the line's byte `i` (0-based).
    pub fn position(&self, i: usize) -> Position {
        Position {
            line: self.number,
            column: i as u64 + 1,
        }
    }

    /// The error for byte `i`: `expected`, found the rest of its field (up to the next space),
    /// or the line end.
    pub fn error_at(&self, i: usize, kind: ParseErrorKind, expected: &str) -> ParseError {
        let found = match self.text.get(i) {
            None => "end of line".to_string(),
            Some(b' ' | b'\t' | b'\r') => describe_char(self.text, i),
            Some(_) => {
                let end = self.text[i..]
                    .iter()
                    .position(|&b| b.is_ascii_whitespace())
                    .map_or(self.text.len(), |n| i + n);
                describe_token(&self.text[i..end])
            }
        };
        ParseError::new(self.position(i), kind, expected, found)
    }

    /// What was expected at byte `i`, which follows a number: `separator`, or, when the byte
    /// is glued to the number's digits, a digit too.
    fn after_digits(&self, i: usize, separator: &str) -> String {
        match self.text.get(i) {
            Some(b) if !b.is_ascii_whitespace() && i > 0 && self.text[i - 1].is_ascii_digit() => {
                format!("a digit or {separator}")
            }
            _ => separator.to_string(),
        }
    }

    /// The error for the single character at byte `i`, which is not what `expected` says.
    fn wrong_char(&self, i: usize, kind: ParseErrorKind, expected: &str) -> ParseError {
        ParseError::new(
            self.position(i),
            kind,
            expected,
            describe_char(self.text, i),
        )
    }

    /// Reads the number fields `fields`, separated as `spacing` says, and nothing else. Each
    /// field is checked as soon as it is read, so the first wrong byte is the one reported: a
    /// number out of its range at its first digit, a wrong separator (a tab, a second space) at
    /// its own column, something after the last field where it starts. Numbers are plain:
    /// digits only, no sign, no leading zero.
    ///
    /// ```
    /// use chess_puzzles::judge::strict::{Field, Lines, Spacing};
    ///
    /// let fields = [Field::new("a row 1..8", 1, 8), Field::new("a column 1..8", 1, 8)];
    /// let mut lines = Lines::new("1\t1\n11 1\n".as_bytes());
    /// let err = lines.expect("a square").unwrap().fields(&fields, Spacing::Single).unwrap_err();
    /// assert_eq!(err.to_string(), "1:2: expected a single space, found '\\t'");
    /// let err = lines.expect("a square").unwrap().fields(&fields, Spacing::Single).unwrap_err();
    /// assert_eq!(err.to_string(), "2:1: expected a row 1..8, found '11'");
    /// ```
    pub fn fields(&self, fields: &[Field<'_>], spacing: Spacing) -> Result<Vec<u64>, ParseError> {
        let text = self.text;
        let mut values = Vec::with_capacity(fields.len().min(64));
        let mut i = 0;
        for (k, field) in fields.iter().enumerate() {
            match spacing {
                Spacing::Single if k > 0 => {
                    if i == text.len() {
                        let expected = format!("a space and {}", field.what);
                        return Err(self.wrong_char(i, ParseErrorKind::BadLength, &expected));
                    }
                    if text[i] != b' ' {
                        let expected = self.after_digits(i, "a single space");
                        return Err(self.wrong_char(i, ParseErrorKind::BadLength, &expected));
                    }
                    i += 1;
                }
                Spacing::Single => {}
                Spacing::Aligned => {
                    let gap_start = i;
                    while text.get(i) == Some(&b' ') {
                        i += 1;
                    }
                    if k > 0 && i == gap_start {
                        let expected = self.after_digits(i, "a space");
                        return Err(self.wrong_char(i, ParseErrorKind::BadLength, &expected));
                    }
                }
            }
            let start = i;
            while text.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            let digits = &text[start..i];
            if digits.is_empty() {
                let kind = if text.get(start).is_none_or(u8::is_ascii_whitespace) {
                    ParseErrorKind::BadLength
                } else {
                    ParseErrorKind::NotANumber
                };
                return Err(self.error_at(start, kind, field.what));
            }
            let found = || describe_token(digits);
            if digits.len() > 1 && digits[0] == b'0' {
                return Err(ParseError::new(
                    self.position(start),
                    ParseErrorKind::NotANumber,
                    format!("{}, written without a leading zero", field.what),
                    found(),
                ));
            }
            match crate::input::parse_digits(digits) {
                Some(v) if (field.lo..=field.hi).contains(&v) => values.push(v),
                _ => {
                    return Err(ParseError::new(
                        self.position(start),
                        ParseErrorKind::OutOfRange,
                        field.what,
                        found(),
                    ));
                }
            }
        }
        if i < text.len() {
            let expected = match fields.len() {
                1 => "the end of the line after the number".to_string(),
                n => format!("the end of the line after {n} numbers"),
            };
            let kind = if text[i] == b' ' {
                ParseErrorKind::TrailingInput
            } else {
                ParseErrorKind::BadCharacter
            };
            let expected = self.after_digits(i, &expected);
            return Err(self.wrong_char(i, kind, &expected));
        }
        Ok(values)
    }

    /// Reads exactly `count` numbers in `lo..=hi`, each called `what` in errors: [`Line::fields`]
    /// with `count` equal fields.
    pub fn numbers(
        &self,
        count: usize,
        lo: u64,
        hi: u64,
        what: &str,
        spacing: Spacing,
    ) -> Result<Vec<u64>, ParseError> {
        let field = Field { what, lo, hi };
        self.fields(&vec![field; count], spacing)
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
                return Err(self.wrong_char(
                    i,
                    ParseErrorKind::BadCharacter,
                    &format!("one of {}", shown.join(" ")),
                ));
            }
        }
        if text.len() < count {
            let n = text.len();
            return Err(ParseError::new(
                self.position(n),
                ParseErrorKind::BadLength,
                what,
                format!("end of line after {}", plural(n as u64, "character")),
            ));
        }
        if text.len() > count {
            return Err(self.wrong_char(
                count,
                ParseErrorKind::TrailingInput,
                &format!(
                    "the end of the line after {}",
                    plural(count as u64, "character")
                ),
            ));
        }
        Ok(text)
    }

    /// Succeeds when the line is empty; `what` names the empty line in the error.
    pub fn empty(&self, what: &str) -> Result<(), ParseError> {
        if self.text.is_empty() {
            return Ok(());
        }
        let found = if self.text == b"\r" {
            describe_char(self.text, 0)
        } else {
            describe_token(self.text)
        };
        Err(ParseError::new(
            self.position(0),
            ParseErrorKind::BadLength,
            what,
            found,
        ))
    }
}

/// How the last line read ended.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Ending {
    /// With `\n`, as every line must.
    Newline,
    /// At the end of input, without `\n`; the line's length.
    Missing(usize),
    /// It went on past [`MAX_LINE`] bytes (the rest is skipped at the next read).
    TooLong,
}

/// A strict, streaming line reader. See the [module docs](self).
///
/// A line that does not end properly (no `\n` before the end of input, or longer than
/// [`MAX_LINE`]) is still handed out, so that the layout of what it holds is checked first;
/// the problem with its end is reported by the next read ([`Lines::expect`],
/// [`Lines::expect_end`]), which every validator makes.
pub struct Lines<R> {
    reader: BufReader<R>,
    number: u64,
    buf: Vec<u8>,
    ending: Ending,
}

impl<R: Read> Lines<R> {
    /// A reader at the first line of `source`.
    pub fn new(source: R) -> Lines<R> {
        Lines {
            reader: BufReader::with_capacity(1 << 16, source),
            number: 0,
            buf: Vec::new(),
            ending: Ending::Newline,
        }
    }

    /// The number of the last line read (0 before the first).
    pub fn line_number(&self) -> u64 {
        self.number
    }

    /// The error the previous line's end deserves, if any.
    fn ending_error(&self) -> Option<InputError> {
        let at = |column: usize| Position {
            line: self.number,
            column: column as u64 + 1,
        };
        match self.ending {
            Ending::Newline => None,
            Ending::Missing(len) => Some(
                ParseError::new(
                    at(len),
                    ParseErrorKind::UnexpectedEnd,
                    "a line end '\\n'",
                    "end of input",
                )
                .into(),
            ),
            Ending::TooLong => Some(
                ParseError::new(
                    at(MAX_LINE),
                    ParseErrorKind::TokenTooLong,
                    format!("a line of at most {MAX_LINE} bytes"),
                    "a longer line",
                )
                .into(),
            ),
        }
    }

    /// The next line, or `None` at the end of input. Fails when the previous line did not
    /// end with `\n` or was too long.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, InputError> {
        if let Some(error) = self.ending_error() {
            return Err(error);
        }
        self.buf.clear();
        let limit = (MAX_LINE + 1) as u64;
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.buf.last() == Some(&b'\n') {
            self.buf.pop();
            self.ending = Ending::Newline;
        } else if self.buf.len() > MAX_LINE {
            self.buf.truncate(MAX_LINE);
            self.ending = Ending::TooLong;
        } else {
            self.ending = Ending::Missing(self.buf.len());
        }
        Ok(Some(Line {
            number: self.number,
            text: &self.buf,
        }))
    }

    /// The first line, which must exist. A byte-order mark before it is a violation of its own
    /// (named as such): many judges' programs would read it as garbage.
    pub fn expect_first(&mut self, what: &str) -> Result<Line<'_>, InputError> {
        let line = self.expect(what)?;
        if line.text.starts_with(BYTE_ORDER_MARK) {
            return Err(ParseError::new(
                line.position(0),
                ParseErrorKind::BadCharacter,
                what,
                "a byte-order mark (U+FEFF): save the file without it",
            )
            .into());
        }
        Ok(line)
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

    /// The first line, holding the number of test cases alone, 1 to `most`; `what` names it
    /// (`the number of boards`). Errors give the range: `1..15`, or `1 or more` when `most` is
    /// [`PLAUSIBLE_COUNT`] (the statement sets no limit).
    pub fn expect_count(&mut self, what: &str, most: u64) -> Result<u64, InputError> {
        let expected = if most == PLAUSIBLE_COUNT {
            format!("{what} (1 or more)")
        } else {
            format!("{what}, 1..{most}")
        };
        let line = self.expect_first(what)?;
        Ok(line.numbers(1, 1, most, &expected, Spacing::Single)?[0])
    }

    /// [`Lines::expect_end`] after the last of `total` test cases, each called a `case`.
    pub fn expect_end_after(&mut self, total: u64, case: &str) -> Result<(), InputError> {
        self.expect_end(&format!("the end of input after {}", plural(total, case)))
    }

    /// Succeeds only at the end of input, after a last line that ended with `\n`.
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
        let content = match lines.next_line() {
            Err(e) => return e.kind(),
            Ok(None) => return None,
            Ok(Some(line)) => line.numbers(count, 1, 99, "n", spacing).err(),
        };
        match content {
            Some(e) => Some(e.kind),
            None => lines.expect_end("the end").err().and_then(|e| e.kind()),
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
    fn long_lines_are_refused_after_their_content_is_checked() {
        let text = "1".repeat(MAX_LINE + 5) + "\n";
        let mut lines = Lines::new(text.as_bytes());
        let line = lines.next_line().unwrap().unwrap();
        assert_eq!(line.text.len(), MAX_LINE);
        assert_eq!(
            lines.next_line().unwrap_err().kind(),
            Some(ParseErrorKind::TokenTooLong)
        );
        // A wrong byte inside the first MAX_LINE bytes is reported first.
        let text = format!("1 x{}\n", " ".repeat(MAX_LINE + 5));
        let mut lines = Lines::new(text.as_bytes());
        let line = lines.next_line().unwrap().unwrap();
        let err = line
            .numbers(2, 0, 9, "a digit", Spacing::Single)
            .unwrap_err();
        assert_eq!(err.to_string(), "1:3: expected a digit, found 'x'");
    }

    #[test]
    fn the_first_wrong_byte_is_reported() {
        let fields = [
            Field::new("a row 1..8", 1, 8),
            Field::new("a column 1..8", 1, 8),
        ];
        let first_error = |text: &str| -> String {
            let mut lines = Lines::new(text.as_bytes());
            let line = lines.expect("a square").unwrap();
            match line.fields(&fields, Spacing::Single) {
                Err(e) => e.to_string(),
                Ok(_) => lines.expect_end("the end").unwrap_err().to_string(),
            }
        };
        assert_eq!(
            first_error("1\t1\n"),
            "1:2: expected a single space, found '\\t'"
        );
        assert_eq!(first_error("11\n"), "1:1: expected a row 1..8, found '11'");
        assert_eq!(
            first_error("1 11\n"),
            "1:3: expected a column 1..8, found '11'"
        );
        assert_eq!(first_error("1 9"), "1:3: expected a column 1..8, found '9'");
        assert_eq!(
            first_error("1 8"),
            "1:4: expected a line end '\\n', found end of input"
        );
        assert_eq!(
            first_error("1\n"),
            "1:2: expected a space and a column 1..8, found end of line"
        );
        assert_eq!(
            first_error("1 1 \n"),
            "1:4: expected the end of the line after 2 numbers, found ' '"
        );
        assert!(first_error("1 1\r\n").starts_with(
            "1:4: expected the end of the line after 2 numbers, found '\\r' (a Windows line end"
        ));
        assert_eq!(
            first_error("01 1\n"),
            "1:1: expected a row 1..8, written without a leading zero, found '01'"
        );
        assert_eq!(
            first_error("-1 1\n"),
            "1:1: expected a row 1..8, found '-1'"
        );
        assert_eq!(
            first_error("1x 1\n"),
            "1:2: expected a digit or a single space, found 'x'"
        );
        assert_eq!(
            first_error("1 é\n"),
            "1:3: expected a column 1..8, found 'é'"
        );
    }

    #[test]
    fn a_byte_order_mark_is_named() {
        let mut lines = Lines::new("\u{feff}1\n".as_bytes());
        let err = lines.expect_first("the count").unwrap_err();
        assert_eq!(
            err.to_string(),
            "1:1: expected the count, found a byte-order mark (U+FEFF): save the file without it"
        );
    }
}

//! Comparing a contestant's output with the right one, as the judges do, case by case.
//!
//! [`Tolerance::Lines`] (the default of the `check` commands) forgives what the usual judges
//! forgive: spaces, tabs and `\r` at the end of a line, and missing or extra empty lines and a
//! missing final newline at the very end of the output. Everything else, a missing empty line
//! between cases or a number not padded to its width, is a wrong answer.
//! [`Tolerance::Exact`] compares bytes; [`Tolerance::Tokens`] only the whitespace-separated words.
//! Under `Lines` and `Tokens` a byte-order mark at the start of the output is skipped.
//!
//! The comparison is streamed on both sides: the right answer comes one case at a time from an
//! [`Answers`] source, and the output is read through a fixed buffer and compared as it is read,
//! so memory stays bounded whatever the sizes. Output lines and tokens may have any length: a
//! line of a gigabyte is read to its end and judged like any other (only its first
//! [`SHOWN`] bytes are kept, for the message).
//!
//! ```
//! use chess_puzzles::judge::compare::{compare, Tolerance};
//!
//! let verdict = compare(b"  260\n", "  260  \r\n\n".as_bytes(), Tolerance::Lines).unwrap();
//! assert!(verdict.is_ok());
//! let diff = compare(b"  260\n", "260\n".as_bytes(), Tolerance::Lines).unwrap().unwrap_err();
//! assert_eq!(diff.to_string(), "1:1: expected '  260', found '260'");
//! ```

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use super::{CheckError, Checked};
use crate::error::{InputError, Position, describe_token};

/// Which differences are forgiven (a command-line value). See the [module docs](self).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Tolerance {
    /// Every byte must match.
    Exact,
    /// Blanks and `\r` at line ends, and empty lines or a missing newline at the very end, are forgiven.
    #[default]
    Lines,
    /// Only the sequence of whitespace-separated words must match.
    Tokens,
}

/// An accepted output.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Accepted {
    /// How many lines the right answer has.
    pub lines: u64,
}

/// The first place where an output differs from the right one.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Difference {
    /// Where in the output: the line (from 1) and the column (bytes, from 1) of the first byte
    /// that differs, or of the token that differs, or where the output ends.
    pub position: Position,
    /// What the right answer has there, quoted, or `end of output`.
    pub expected: String,
    /// What the output has there, quoted, or `end of output`.
    pub found: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: expected {}, found {}",
            self.position, self.expected, self.found
        )
    }
}

/// The right answers of a judge input, one test case at a time: a puzzle solves its input
/// case by case as the comparison asks for them.
pub trait Answers {
    /// Appends the right answer of the next case to `out`, or returns `false` when no case is
    /// left (after checking that nothing follows the last one in the input).
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError>;

    /// Reads the rest of the input without answering it, so that a malformed input is reported
    /// even after the output was found wrong. By default the answers are made and dropped.
    fn skip_rest(&mut self) -> Result<(), InputError> {
        let mut scratch = Vec::new();
        while self.next_answer(&mut scratch)? {
            scratch.clear();
        }
        Ok(())
    }
}

/// A whole right answer held in memory, given in pieces of whole lines of about 64 KiB (a
/// longer line whole), so that comparing it holds no second copy of it.
impl Answers for &[u8] {
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
        if self.is_empty() {
            return Ok(false);
        }
        let end = match self[PIECE.min(self.len())..]
            .iter()
            .position(|&b| b == b'\n')
        {
            Some(n) => PIECE.min(self.len()) + n + 1,
            None => self.len(),
        };
        let (piece, rest) = self.split_at(end);
        out.extend_from_slice(piece);
        *self = rest;
        Ok(true)
    }
}

/// The size of the pieces a right answer held in memory is compared in.
const PIECE: usize = 64 << 10;

/// How many bytes of an output line are kept to be quoted in a message.
pub const SHOWN: usize = 120;

const END: &str = "end of output";

/// The UTF-8 byte-order mark.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

fn quote(bytes: &[u8], longer: bool) -> String {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let mut shown: String = text.escape_debug().collect();
    if longer || bytes.len() > SHOWN {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && (line[end - 1] == b'\n' || is_blank(line[end - 1])) {
        end -= 1;
    }
    &line[..end]
}

/// The right answer as a stream of lines, fetched case by case.
struct ExpectedLines<A> {
    answers: A,
    buf: Vec<u8>,
    /// The next line starts at `buf[pos]`.
    pos: usize,
    /// No case is left.
    ended: bool,
    /// Lines in all the cases fetched so far.
    lines: u64,
}

impl<A: Answers> ExpectedLines<A> {
    fn new(answers: A) -> Self {
        ExpectedLines {
            answers,
            buf: Vec::new(),
            pos: 0,
            ended: false,
            lines: 0,
        }
    }

    /// Fetches the next case behind what is left; false when there is none.
    fn fetch(&mut self) -> Result<bool, InputError> {
        if self.ended {
            return Ok(false);
        }
        self.buf.drain(..self.pos);
        self.pos = 0;
        let before = self.buf.len();
        if !self.answers.next_answer(&mut self.buf)? {
            self.ended = true;
            // A last line without its line end still counts.
            if self.buf.last().is_some_and(|&b| b != b'\n') {
                self.lines += 1;
            }
            return Ok(false);
        }
        let added = &self.buf[before..];
        self.lines += added.iter().filter(|&&b| b == b'\n').count() as u64;
        Ok(true)
    }

    /// The next line with its `\n` (if it has one), as a range of `buf`.
    fn next(&mut self) -> Result<Option<(usize, usize)>, InputError> {
        loop {
            if let Some(n) = self.buf[self.pos..].iter().position(|&b| b == b'\n') {
                let line = (self.pos, self.pos + n + 1);
                self.pos = line.1;
                return Ok(Some(line));
            }
            if !self.fetch()? {
                if self.pos < self.buf.len() {
                    let line = (self.pos, self.buf.len());
                    self.pos = line.1;
                    return Ok(Some(line));
                }
                return Ok(None);
            }
        }
    }

    /// True when every line left is blank (this reads the rest of the cases, so it is asked
    /// only on the way to a verdict).
    fn rest_is_blank(&mut self) -> Result<bool, InputError> {
        loop {
            if !trim_line(&self.buf[self.pos..])
                .iter()
                .all(|&b| b == b'\n' || is_blank(b))
            {
                return Ok(false);
            }
            self.pos = self.buf.len();
            if !self.fetch()? {
                return Ok(true);
            }
        }
    }

    /// Reads the rest of the input without answering it.
    fn skip_rest(&mut self) -> Result<(), InputError> {
        if !self.ended {
            self.ended = true;
            self.answers.skip_rest()?;
        }
        Ok(())
    }
}

/// The output, read through a fixed buffer, with the position of the next byte.
struct Found<R> {
    reader: BufReader<io::Chain<io::Cursor<Vec<u8>>, R>>,
    line: u64,
    column: u64,
}

/// How one output line compared with the line it should be.
enum LineMatch {
    /// Equal (as the tolerance sees it).
    Same,
    /// Different: the column of the first byte that differs, and the line's first bytes.
    Differs {
        column: u64,
        shown: Vec<u8>,
        longer: bool,
    },
}

impl<R: Read> Found<R> {
    /// The output `reader`, past a byte-order mark at its start when `skip_mark`.
    fn new(mut reader: R, skip_mark: bool) -> io::Result<Found<R>> {
        let mut start = Vec::new();
        if skip_mark {
            // Read up to the mark's length (a pipe may give fewer bytes per read).
            while start.len() < BYTE_ORDER_MARK.len() && BYTE_ORDER_MARK.starts_with(&start) {
                let mut byte = [0u8; 3];
                let want = BYTE_ORDER_MARK.len() - start.len();
                match reader.read(&mut byte[..want]) {
                    Ok(0) => break,
                    Ok(n) => start.extend_from_slice(&byte[..n]),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            if start == BYTE_ORDER_MARK {
                start.clear();
            }
        }
        Ok(Found {
            reader: BufReader::with_capacity(1 << 16, io::Cursor::new(start).chain(reader)),
            line: 1,
            column: 1,
        })
    }

    fn position(&self) -> Position {
        Position {
            line: self.line,
            column: self.column,
        }
    }

    /// True at the end of the output.
    fn at_end(&mut self) -> io::Result<bool> {
        Ok(self.reader.fill_buf()?.is_empty())
    }

    /// Reads one output line to its end (its `\n` included) and compares it with `want`:
    /// byte for byte when `exact`, else `want` (trimmed) followed by nothing but blanks.
    /// Returns `None` at the end of the output.
    fn compare_line(&mut self, want: &[u8], exact: bool) -> io::Result<Option<LineMatch>> {
        if self.at_end()? {
            return Ok(None);
        }
        let want = if exact { want } else { trim_line(want) };
        let mut matched = 0usize;
        let mut shown: Vec<u8> = Vec::new();
        let mut longer = false;
        let mut differs_at: Option<u64> = None;
        let mut read = 0u64;
        loop {
            let data = self.reader.fill_buf()?;
            if data.is_empty() {
                break;
            }
            let (segment, line_ends) = match data.iter().position(|&b| b == b'\n') {
                Some(n) => (&data[..=n], true),
                None => (data, false),
            };
            let body = if line_ends && !exact {
                &segment[..segment.len() - 1]
            } else {
                segment
            };
            let keep = SHOWN.saturating_sub(shown.len()).min(body.len());
            shown.extend_from_slice(&body[..keep]);
            longer |= keep < body.len() && body[keep..] != *b"\n";
            if differs_at.is_none() {
                let rest = &want[matched..];
                let common = rest.iter().zip(body).take_while(|(a, b)| a == b).count();
                matched += common;
                let tail = &body[common..];
                if !tail.is_empty() {
                    // The wanted line differs here, or is complete and only blanks may follow.
                    let extra = if matched < want.len() || exact {
                        Some(0)
                    } else {
                        tail.iter().position(|&b| !is_blank(b))
                    };
                    differs_at = extra.map(|i| read + (common + i) as u64);
                }
            }
            read += body.len() as u64;
            let n = segment.len();
            self.reader.consume(n);
            if line_ends {
                break;
            }
            if differs_at.is_some() && shown.len() >= SHOWN {
                // The verdict is known and the message has its bytes: the line's end is not
                // needed, since nothing after a difference is compared.
                longer = true;
                break;
            }
        }
        self.line += 1;
        self.column = 1;
        Ok(Some(match differs_at {
            None if matched == want.len() => LineMatch::Same,
            // The line ends before the wanted one does.
            None => LineMatch::Differs {
                column: read + 1,
                shown,
                longer,
            },
            Some(at) => LineMatch::Differs {
                column: at + 1,
                shown,
                longer,
            },
        }))
    }

    /// Skips whitespace; false at the end of the output.
    fn skip_space(&mut self) -> io::Result<bool> {
        loop {
            let data = self.reader.fill_buf()?;
            if data.is_empty() {
                return Ok(false);
            }
            let mut n = 0;
            for &b in data {
                if !b.is_ascii_whitespace() {
                    break;
                }
                if b == b'\n' {
                    self.line += 1;
                    self.column = 1;
                } else {
                    self.column += 1;
                }
                n += 1;
            }
            let all = n == data.len();
            self.reader.consume(n);
            if !all {
                return Ok(true);
            }
        }
    }

    /// Reads the next token (the output is not at its end or whitespace) and tells whether it
    /// equals `want`; keeps its first bytes in `shown` for the message.
    fn compare_token(&mut self, want: &[u8], shown: &mut Vec<u8>) -> io::Result<bool> {
        shown.clear();
        let mut same = true;
        let mut len = 0usize;
        loop {
            let data = self.reader.fill_buf()?;
            if data.is_empty() {
                break;
            }
            let n = data
                .iter()
                .position(u8::is_ascii_whitespace)
                .unwrap_or(data.len());
            let part = &data[..n];
            if same {
                let end = len + part.len();
                same = end <= want.len() && want[len..end] == *part;
                if !same {
                    // Until here the token was the wanted one: its first bytes are those.
                    shown.extend_from_slice(&want[..len.min(SHOWN + 1)]);
                }
            }
            if !same && shown.len() <= SHOWN {
                let keep = (SHOWN + 1 - shown.len()).min(part.len());
                shown.extend_from_slice(&part[..keep]);
            }
            len += part.len();
            self.column += part.len() as u64;
            let token_ends = n < data.len();
            self.reader.consume(n);
            if token_ends {
                break;
            }
        }
        if same && len != want.len() {
            shown.extend_from_slice(&want[..len.min(SHOWN + 1)]);
        }
        Ok(same && len == want.len())
    }
}

/// Compares `found` with the right answer `expected`, held in memory.
pub fn compare(expected: &[u8], found: impl Read, tolerance: Tolerance) -> Checked {
    compare_answers(expected, found, tolerance)
}

/// Compares `found` with the right answers that `answers` gives case by case, in bounded
/// memory. After a difference the rest of the input is still read (without answering it), so
/// that a malformed input is an error whatever the output holds.
pub fn compare_answers(answers: impl Answers, found: impl Read, tolerance: Tolerance) -> Checked {
    let mut expected = ExpectedLines::new(answers);
    let mut found = Found::new(found, tolerance != Tolerance::Exact).map_err(CheckError::Output)?;
    let verdict = match tolerance {
        Tolerance::Exact => compare_lines(&mut expected, &mut found, true),
        Tolerance::Lines => compare_lines(&mut expected, &mut found, false),
        Tolerance::Tokens => compare_tokens(&mut expected, &mut found),
    }?;
    if verdict.is_err() {
        expected.skip_rest()?;
    }
    Ok(verdict.map(|()| Accepted {
        lines: expected.lines,
    }))
}

/// Line by line: `exact` compares whole lines with their ends; otherwise lines are trimmed of
/// trailing blanks and empty lines at the very end are forgiven on both sides.
fn compare_lines<A: Answers, R: Read>(
    expected: &mut ExpectedLines<A>,
    found: &mut Found<R>,
    exact: bool,
) -> Result<Result<(), Difference>, CheckError> {
    let output = CheckError::Output;
    let mut wanted = Vec::new();
    loop {
        let at_line = found.position();
        let want = expected.next()?;
        wanted.clear();
        if let Some((a, b)) = want {
            let line = &expected.buf[a..b];
            wanted.extend_from_slice(if exact { line } else { trim_line(line) });
        }
        let got = found.compare_line(&wanted, exact).map_err(output)?;
        let blank_want = !exact && want.is_some() && wanted.is_empty();
        let difference = |expected_text: String, column: u64, found_text: String| Difference {
            position: Position {
                line: at_line.line,
                column,
            },
            expected: expected_text,
            found: found_text,
        };
        match (want, got) {
            (None, None) => return Ok(Ok(())),
            (Some(_), Some(LineMatch::Same)) => {}
            // Extra empty lines at the very end are forgiven.
            (None, Some(LineMatch::Same)) if !exact => {}
            (Some(_), None) if blank_want && expected.rest_is_blank()? => return Ok(Ok(())),
            (Some(_), None) => return Ok(Err(difference(quote(&wanted, false), 1, END.into()))),
            (
                Some(_),
                Some(LineMatch::Differs {
                    column,
                    shown,
                    longer,
                }),
            ) => {
                // A wanted empty line that only the right answer's end follows is that end.
                if blank_want && expected.rest_is_blank()? {
                    return Ok(Err(difference(END.into(), 1, quote(&shown, longer))));
                }
                return Ok(Err(difference(
                    quote(&wanted, false),
                    column,
                    quote(&shown, longer),
                )));
            }
            (None, Some(LineMatch::Differs { shown, longer, .. })) => {
                return Ok(Err(difference(END.into(), 1, quote(&shown, longer))));
            }
            // A whole line is never empty, so exact mode cannot match one against nothing.
            (None, Some(LineMatch::Same)) => {
                return Ok(Err(difference(END.into(), 1, quote(b"", false))));
            }
        }
    }
}

/// Token by token: only the sequence of whitespace-separated words counts.
fn compare_tokens<A: Answers, R: Read>(
    expected: &mut ExpectedLines<A>,
    found: &mut Found<R>,
) -> Result<Result<(), Difference>, CheckError> {
    let output = CheckError::Output;
    // The tokens of the current expected line, as ranges of its buffer.
    let mut tokens: Vec<(usize, usize)> = Vec::new();
    let mut next_want = 0;
    let mut shown = Vec::new();
    loop {
        if next_want == tokens.len() {
            tokens.clear();
            next_want = 0;
            while tokens.is_empty() {
                let Some((a, b)) = expected.next()? else {
                    break;
                };
                let mut i = a;
                while i < b {
                    let line = &expected.buf[i..b];
                    let start = line.iter().position(|c| !c.is_ascii_whitespace());
                    let Some(start) = start else { break };
                    let len = line[start..]
                        .iter()
                        .position(u8::is_ascii_whitespace)
                        .unwrap_or(line.len() - start);
                    tokens.push((i + start, i + start + len));
                    i += start + len;
                }
            }
        }
        let want = tokens.get(next_want).map(|&(a, b)| &expected.buf[a..b]);
        let more = found.skip_space().map_err(output)?;
        let at = found.position();
        match (want, more) {
            (None, false) => return Ok(Ok(())),
            (Some(w), false) => {
                return Ok(Err(Difference {
                    position: at,
                    expected: describe_token(w),
                    found: END.to_string(),
                }));
            }
            (want, true) => {
                let same = found
                    .compare_token(want.unwrap_or_default(), &mut shown)
                    .map_err(output)?;
                match want {
                    Some(_) if same => next_want += 1,
                    _ => {
                        return Ok(Err(Difference {
                            position: at,
                            expected: want.map_or_else(|| END.to_string(), describe_token),
                            found: describe_token(&shown),
                        }));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(expected: &str, found: &str, t: Tolerance) -> Result<Accepted, Difference> {
        compare(expected.as_bytes(), found.as_bytes(), t).unwrap()
    }

    #[test]
    fn exact_needs_every_byte() {
        assert!(verdict("a\n\nb\n", "a\n\nb\n", Tolerance::Exact).is_ok());
        let d = verdict("a\nb\n", "a\nb", Tolerance::Exact).unwrap_err();
        assert_eq!(d.to_string(), "2:2: expected 'b\\n', found 'b'");
        let d = verdict("a\n", "a\n\n", Tolerance::Exact).unwrap_err();
        assert_eq!((d.position.line, d.expected.as_str()), (2, END));
        let d = verdict("abc\n", "abd\n", Tolerance::Exact).unwrap_err();
        assert_eq!(d.position.column, 3);
    }

    #[test]
    fn lines_forgive_trailing_blanks_and_end_lines_only() {
        assert!(verdict("a b\n\nc\n", "a b \r\n\r\nc", Tolerance::Lines).is_ok());
        assert!(verdict("a\n", "a\n\n\n", Tolerance::Lines).is_ok());
        assert!(verdict("a\n\n", "a", Tolerance::Lines).is_ok());
        // A missing empty line between cases is not forgiven.
        let d = verdict("a\n\nb\n", "a\nb\n", Tolerance::Lines).unwrap_err();
        assert_eq!(d.to_string(), "2:1: expected '', found 'b'");
        // Nor leading spaces.
        assert!(verdict("  260\n", "260\n", Tolerance::Lines).is_err());
        let d = verdict("a\nb\n", "a\n", Tolerance::Lines).unwrap_err();
        assert_eq!((d.position.line, d.found.as_str()), (2, END));
        let d = verdict("a\n", "a\nx\n", Tolerance::Lines).unwrap_err();
        assert_eq!((d.position.line, d.expected.as_str()), (2, END));
        let d = verdict("a\n\n", "a\nx\n", Tolerance::Lines).unwrap_err();
        assert_eq!((d.position.line, d.expected.as_str()), (2, END));
        let d = verdict("ab c\n", "ab  c\n", Tolerance::Lines).unwrap_err();
        assert_eq!(d.to_string(), "1:4: expected 'ab c', found 'ab  c'");
        let d = verdict("ab\n", "ab x\n", Tolerance::Lines).unwrap_err();
        assert_eq!(d.position.column, 4);
        let d = verdict("abc\n", "ab\n", Tolerance::Lines).unwrap_err();
        assert_eq!(d.position.column, 3);
    }

    #[test]
    fn tokens_ignore_layout() {
        assert!(verdict("  260\n 12\n", "260 12", Tolerance::Tokens).is_ok());
        let d = verdict("1 2\n3\n", "1\n2 4\n", Tolerance::Tokens).unwrap_err();
        assert_eq!(d.to_string(), "2:3: expected '3', found '4'");
        let d = verdict("1 2\n", "1\n", Tolerance::Tokens).unwrap_err();
        assert_eq!((d.position.line, d.found.as_str()), (2, END));
        let d = verdict("1\n", "1 2\n", Tolerance::Tokens).unwrap_err();
        assert_eq!((d.expected.as_str(), d.found.as_str()), (END, "'2'"));
        let d = verdict("12\n", "123\n", Tolerance::Tokens).unwrap_err();
        assert_eq!(d.found, "'123'");
        let d = verdict("123\n", "12\n", Tolerance::Tokens).unwrap_err();
        assert_eq!(d.found, "'12'");
    }

    #[test]
    fn lines_and_tokens_of_any_length_are_judged() {
        let long = "x".repeat((1 << 20) + 10);
        for t in [Tolerance::Exact, Tolerance::Lines, Tolerance::Tokens] {
            let d = verdict("x\n", &long, t).unwrap_err();
            assert!(d.found.ends_with("...'"), "{t:?}: {}", d.found);
        }
        // A line of a right answer and two mebibytes of blanks is the right line.
        let padded = format!("x{}\n", " ".repeat(2 << 20));
        assert!(verdict("x\n", &padded, Tolerance::Lines).is_ok());
        assert!(verdict("x\n", &padded, Tolerance::Tokens).is_ok());
        // The long right answer itself.
        assert!(verdict(&long, &long, Tolerance::Lines).is_ok());
        assert!(verdict(&long, &long, Tolerance::Tokens).is_ok());
    }

    #[test]
    fn a_byte_order_mark_is_forgiven_except_by_exact() {
        assert!(verdict("1\n", "\u{feff}1\n", Tolerance::Lines).is_ok());
        assert!(verdict("1\n", "\u{feff}1\n", Tolerance::Tokens).is_ok());
        assert!(verdict("1\n", "\u{feff}1\n", Tolerance::Exact).is_err());
    }

    /// Answers made of several cases, given one at a time.
    struct Cases(Vec<&'static str>);

    impl Answers for Cases {
        fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
            if self.0.is_empty() {
                return Ok(false);
            }
            out.extend_from_slice(self.0.remove(0).as_bytes());
            Ok(true)
        }
    }

    #[test]
    fn an_answer_in_memory_is_compared_in_pieces_with_the_same_verdicts() {
        // 200,000 lines (about 1.4 MB, many pieces), one line longer than a piece, no final
        // line end.
        let mut answer: Vec<u8> = (0..200_000)
            .flat_map(|i| format!("{i:6}\n").into_bytes())
            .collect();
        answer.extend(std::iter::repeat_n(b'x', 3 * PIECE));
        let mut pieces = 0;
        let mut rest = answer.as_slice();
        let mut joined = Vec::new();
        while rest.next_answer(&mut joined).unwrap() {
            pieces += 1;
            assert!(joined.ends_with(b"\n") || rest.is_empty());
        }
        assert_eq!(joined, answer);
        assert!(pieces > 10, "{pieces}");
        for t in [Tolerance::Exact, Tolerance::Lines, Tolerance::Tokens] {
            let got = compare(&answer, answer.as_slice(), t).unwrap();
            assert_eq!(got, Ok(Accepted { lines: 200_001 }), "{t:?}");
        }
        // A difference far into the answer is placed on its line and column.
        let mut wrong = answer.clone();
        let at = 150_000 * 7 + 3;
        wrong[at] = b'#';
        let diff = compare(&answer, wrong.as_slice(), Tolerance::Lines)
            .unwrap()
            .unwrap_err();
        assert_eq!(diff.position.line, 150_001, "{diff}");
        assert_eq!(
            diff.to_string(),
            "150001:4: expected '150000', found '150#00'"
        );
        // The long last line, one byte short.
        let short = &answer[..answer.len() - 1];
        let diff = compare(&answer, short, Tolerance::Exact)
            .unwrap()
            .unwrap_err();
        assert_eq!(diff.position.line, 200_001, "{diff}");
    }

    #[test]
    fn answers_arrive_case_by_case() {
        let cases = || Cases(vec!["a\n", "\nb\nc", "d\n", "\n"]);
        let whole = "a\n\nb\ncd\n\n";
        for t in [Tolerance::Exact, Tolerance::Lines, Tolerance::Tokens] {
            let got = compare_answers(cases(), whole.as_bytes(), t).unwrap();
            assert_eq!(got, Ok(Accepted { lines: 5 }), "{t:?}");
            let bad = compare_answers(cases(), "a\n\nb\ncx\n\n".as_bytes(), t).unwrap();
            assert_eq!(bad.unwrap_err().position.line, 4, "{t:?}");
        }
        assert!(
            compare_answers(cases(), "a\n\nb\ncd".as_bytes(), Tolerance::Lines)
                .unwrap()
                .is_ok()
        );
    }
}

//! Comparing a contestant's output with the right one, as the judges do.
//!
//! [`Tolerance::Lines`] (the default of the `check` commands) forgives what the usual judges
//! forgive: spaces, tabs and `\r` at the end of a line, and missing or extra empty lines and a
//! missing final newline at the very end of the output. Everything else, a missing empty line
//! between cases or a number not padded to its width, is a wrong answer.
//! [`Tolerance::Exact`] compares bytes; [`Tolerance::Tokens`] only the whitespace-separated words.
//!
//! ```
//! use chess_puzzles::judge::compare::{compare, Tolerance};
//!
//! let verdict = compare(b"  260\n", "  260  \r\n\n".as_bytes(), Tolerance::Lines).unwrap();
//! assert!(verdict.is_ok());
//! let diff = compare(b"  260\n", "260\n".as_bytes(), Tolerance::Lines).unwrap().unwrap_err();
//! assert_eq!((diff.line, diff.expected.as_str(), diff.found.as_str()), (1, "'  260'", "'260'"));
//! ```

use std::fmt;
use std::io::{self, BufRead, BufReader, Read};

use crate::error::describe_token;

/// The longest output line read, in bytes; a longer one is a wrong answer.
pub const MAX_LINE: usize = 1 << 20;

/// Which differences are forgiven (a command-line value). See the [module docs](self).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default, clap::ValueEnum)]
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
    /// The line of the output (from 1) where they part.
    pub line: u64,
    /// What the right answer has there, quoted, or `end of output`.
    pub expected: String,
    /// What the output has there, quoted, or `end of output`.
    pub found: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: expected {}, found {}",
            self.line, self.expected, self.found
        )
    }
}

const END: &str = "end of output";

fn quote(bytes: &[u8]) -> String {
    const SHOWN: usize = 120;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let mut shown: String = text.escape_debug().collect();
    if bytes.len() > SHOWN {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

/// Reads `found` line by line (each with its `\n`, if any), refusing lines over [`MAX_LINE`].
struct FoundLines<R> {
    reader: BufReader<R>,
    buf: Vec<u8>,
}

impl<R: Read> FoundLines<R> {
    /// The next line with its line end; `Ok(None)` at the end; `Err(Ok(()))` for a line too long.
    fn next(&mut self) -> io::Result<Option<Result<&[u8], ()>>> {
        self.buf.clear();
        let n = (&mut self.reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        if self.buf.len() > MAX_LINE {
            return Ok(Some(Err(())));
        }
        Ok(Some(Ok(&self.buf)))
    }
}

fn trim_line(line: &[u8]) -> &[u8] {
    let mut end = line.len();
    while end > 0 && matches!(line[end - 1], b'\n' | b'\r' | b' ' | b'\t') {
        end -= 1;
    }
    &line[..end]
}

/// Compares `found` with the right answer `expected`. The outer error is a failure to read.
pub fn compare(
    expected: &[u8],
    found: impl Read,
    tolerance: Tolerance,
) -> io::Result<Result<Accepted, Difference>> {
    let mut found = FoundLines {
        reader: BufReader::with_capacity(1 << 16, found),
        buf: Vec::new(),
    };
    let expected_lines: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let accepted = Accepted {
        lines: expected_lines.len() as u64,
    };
    match tolerance {
        Tolerance::Exact => compare_lines(&expected_lines, &mut found, accepted, true),
        Tolerance::Lines => compare_lines(&expected_lines, &mut found, accepted, false),
        Tolerance::Tokens => compare_tokens(&expected_lines, &mut found, accepted),
    }
}

fn too_long(line: u64) -> Difference {
    Difference {
        line,
        expected: "a shorter line".to_string(),
        found: format!("a line of over {MAX_LINE} bytes"),
    }
}

/// A line as compared: whole, or trimmed of trailing blanks and its line end.
fn shape(line: &[u8], exact: bool) -> &[u8] {
    if exact { line } else { trim_line(line) }
}

/// Line by line: `exact` compares whole lines with their ends; otherwise lines are trimmed of
/// trailing blanks and empty lines at the very end are forgiven on both sides.
fn compare_lines<R: Read>(
    expected: &[&[u8]],
    found: &mut FoundLines<R>,
    accepted: Accepted,
    exact: bool,
) -> io::Result<Result<Accepted, Difference>> {
    let mut last = expected.len();
    while !exact && last > 0 && trim_line(expected[last - 1]).is_empty() {
        last -= 1;
    }
    let expected = &expected[..last];
    let mut number = 0u64;
    loop {
        number += 1;
        let want = expected.get(number as usize - 1).map(|l| shape(l, exact));
        let got = match found.next()? {
            Some(Err(())) => return Ok(Err(too_long(number))),
            Some(Ok(line)) => Some(shape(line, exact)),
            None => None,
        };
        let (expected, found) = match (want, got) {
            (None, None) => return Ok(Ok(accepted)),
            (Some(w), Some(g)) if w == g => continue,
            (None, Some(g)) if !exact && g.is_empty() => continue,
            (Some(w), Some(g)) => (quote(w), quote(g)),
            (Some(w), None) => (quote(w), END.to_string()),
            (None, Some(g)) => (END.to_string(), quote(g)),
        };
        return Ok(Err(Difference {
            line: number,
            expected,
            found,
        }));
    }
}

fn compare_tokens<R: Read>(
    expected: &[&[u8]],
    found: &mut FoundLines<R>,
    accepted: Accepted,
) -> io::Result<Result<Accepted, Difference>> {
    let mut want = expected
        .iter()
        .flat_map(|line| line.split(|b| b.is_ascii_whitespace()))
        .filter(|t| !t.is_empty());
    let mut number = 0u64;
    loop {
        let line = match found.next()? {
            None => break,
            Some(Err(())) => return Ok(Err(too_long(number + 1))),
            Some(Ok(line)) => line,
        };
        number += 1;
        for token in line
            .split(|b| b.is_ascii_whitespace())
            .filter(|t| !t.is_empty())
        {
            match want.next() {
                Some(w) if w == token => {}
                Some(w) => {
                    return Ok(Err(Difference {
                        line: number,
                        expected: describe_token(w),
                        found: describe_token(token),
                    }));
                }
                None => {
                    return Ok(Err(Difference {
                        line: number,
                        expected: END.to_string(),
                        found: describe_token(token),
                    }));
                }
            }
        }
    }
    match want.next() {
        None => Ok(Ok(accepted)),
        Some(w) => Ok(Err(Difference {
            line: number + 1,
            expected: describe_token(w),
            found: END.to_string(),
        })),
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
        assert_eq!((d.line, d.found.as_str()), (2, "'b'"));
        let d = verdict("a\n", "a\n\n", Tolerance::Exact).unwrap_err();
        assert_eq!((d.line, d.expected.as_str()), (2, END));
    }

    #[test]
    fn lines_forgive_trailing_blanks_and_end_lines_only() {
        assert!(verdict("a b\n\nc\n", "a b \r\n\r\nc", Tolerance::Lines).is_ok());
        assert!(verdict("a\n", "a\n\n\n", Tolerance::Lines).is_ok());
        assert!(verdict("a\n\n", "a", Tolerance::Lines).is_ok());
        // A missing empty line between cases is not forgiven.
        let d = verdict("a\n\nb\n", "a\nb\n", Tolerance::Lines).unwrap_err();
        assert_eq!(d.to_string(), "line 2: expected '', found 'b'");
        // Nor leading spaces.
        assert!(verdict("  260\n", "260\n", Tolerance::Lines).is_err());
        let d = verdict("a\nb\n", "a\n", Tolerance::Lines).unwrap_err();
        assert_eq!((d.line, d.found.as_str()), (2, END));
        let d = verdict("a\n", "a\nx\n", Tolerance::Lines).unwrap_err();
        assert_eq!((d.line, d.expected.as_str()), (2, END));
    }

    #[test]
    fn tokens_ignore_layout() {
        assert!(verdict("  260\n 12\n", "260 12", Tolerance::Tokens).is_ok());
        let d = verdict("1 2\n3\n", "1\n2 4\n", Tolerance::Tokens).unwrap_err();
        assert_eq!(d.to_string(), "line 2: expected '3', found '4'");
        let d = verdict("1 2\n", "1\n", Tolerance::Tokens).unwrap_err();
        assert_eq!((d.line, d.found.as_str()), (2, END));
        let d = verdict("1\n", "1 2\n", Tolerance::Tokens).unwrap_err();
        assert_eq!((d.expected.as_str(), d.found.as_str()), (END, "'2'"));
    }

    #[test]
    fn overlong_lines_are_wrong_not_fatal() {
        let long = "x".repeat(MAX_LINE + 10);
        for t in [Tolerance::Exact, Tolerance::Lines, Tolerance::Tokens] {
            assert!(verdict("x\n", &long, t).is_err());
        }
    }
}

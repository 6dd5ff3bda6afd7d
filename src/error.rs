//! Errors of reading an input: where it went wrong, what was expected, what was found.
//!
//! Every parser in the crate reports a [`ParseError`] that carries a 1-based line and column, a
//! [`ParseErrorKind`] that tests can match on, and a message of the form
//! `expected <what>, found <what>`. Reading failures of the operating system are kept apart as
//! [`InputError::Io`].

use std::fmt;
use std::io;

/// A place in an input: 1-based line and column (the column counts bytes).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// Line number, from 1.
    pub line: u64,
    /// Column number in bytes, from 1.
    pub column: u64,
}

impl Position {
    /// The position of the first byte of an input.
    pub const START: Position = Position { line: 1, column: 1 };
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What kind of mistake an input made. Tests match on this, not on the message text.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input ended where more was required (an empty file, a short test case).
    UnexpectedEnd,
    /// A token that should have been a number was not one.
    NotANumber,
    /// A number outside the range the input format allows.
    OutOfRange,
    /// A count so large that no real input could hold it.
    TooLarge,
    /// A character that the format does not allow at this place.
    BadCharacter,
    /// A row or token of the wrong length.
    BadLength,
    /// Something left over after the last test case.
    TrailingInput,
    /// A token longer than any the format could contain.
    TokenTooLong,
    /// Well-formed tokens that together describe something impossible
    /// (two queens on one board where one was expected, a king without an empty neighbour, ...).
    Invalid,
}

/// A located mistake in an input.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("{position}: expected {expected}{context}, found {found}")]
pub struct ParseError {
    /// Where the offending token starts (or where the input ended).
    pub position: Position,
    /// The class of mistake.
    pub kind: ParseErrorKind,
    /// What the format required here, e.g. `a row number 1..8`.
    pub expected: String,
    /// What stood there instead, e.g. `'9'` or `end of input`.
    pub found: String,
    /// Where in the input's structure this happened, e.g. ` (case 3 of 5)`; empty when not useful.
    pub context: String,
}

impl ParseError {
    /// A new error with no structural context.
    pub fn new(
        position: Position,
        kind: ParseErrorKind,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> ParseError {
        ParseError {
            position,
            kind,
            expected: expected.into(),
            found: found.into(),
            context: String::new(),
        }
    }

    /// Adds where in the input's structure the error happened (shown after the expectation).
    pub fn with_context(mut self, context: impl fmt::Display) -> ParseError {
        self.context = format!(" ({context})");
        self
    }
}

/// Why an input could not be turned into test cases.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// The input is malformed at a known place.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Reading the input failed.
    #[error("cannot read: {0}")]
    Io(#[from] io::Error),
}

impl InputError {
    /// Adds structural context to a parse error; I/O errors are returned unchanged.
    pub fn with_context(self, context: impl fmt::Display) -> InputError {
        match self {
            InputError::Parse(e) => InputError::Parse(e.with_context(context)),
            other => other,
        }
    }

    /// The parse error's kind, or `None` for an I/O error.
    pub fn kind(&self) -> Option<ParseErrorKind> {
        match self {
            InputError::Parse(e) => Some(e.kind),
            InputError::Io(_) => None,
        }
    }
}

/// Why answering an input stopped: the input was bad, or the answers could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The input could not be read or parsed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// Writing the answers failed (a closed pipe among others).
    #[error("cannot write the output: {0}")]
    Output(io::Error),
}

impl From<ParseError> for RunError {
    fn from(e: ParseError) -> RunError {
        RunError::Input(InputError::Parse(e))
    }
}

/// `1 case`, `2 cases`: a count and its noun, in the singular for one (every noun of the
/// crate's messages takes an `s` in the plural).
///
/// ```
/// use chess_puzzles::error::plural;
///
/// assert_eq!(plural(1, "piece"), "1 piece");
/// assert_eq!(plural(0, "piece"), "0 pieces");
/// ```
pub fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Shows a token as it should appear in an error message: quoted, escaped, and cut short if long.
pub fn describe_token(bytes: &[u8]) -> String {
    const SHOWN: usize = 24;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]);
    let mut shown: String = text.escape_debug().collect();
    if bytes.len() > SHOWN {
        shown.push_str("...");
    }
    format!("'{shown}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_shape() {
        let e = ParseError::new(
            Position {
                line: 12,
                column: 5,
            },
            ParseErrorKind::OutOfRange,
            "a row number 1..8",
            "'9'",
        )
        .with_context("case 3 of 5");
        assert_eq!(
            e.to_string(),
            "12:5: expected a row number 1..8 (case 3 of 5), found '9'"
        );
    }

    #[test]
    fn long_and_odd_tokens_are_cut_and_escaped() {
        assert_eq!(describe_token(b"x"), "'x'");
        assert_eq!(describe_token(b"a\tb"), "'a\\tb'");
        let long = vec![b'7'; 100];
        let shown = describe_token(&long);
        assert!(shown.ends_with("...'"));
        assert!(shown.len() < 40);
    }
}

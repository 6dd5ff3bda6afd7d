//! Reading judge inputs as whitespace-separated tokens, streamed, with their positions.
//!
//! [`Scanner`] reads any [`Read`] through a fixed buffer, so memory stays bounded whatever the
//! input announces, and answers can be written while later test cases are still arriving.
//! Every token knows its 1-based line and column; `\r\n` line ends are ordinary whitespace.
//!
//! ```
//! use chess_puzzles::input::Scanner;
//!
//! let mut sc = Scanner::new("2\r\n 1 8\n".as_bytes());
//! assert_eq!(sc.next_u64("a count", 0, 10).unwrap(), 2);
//! assert_eq!(sc.next_u64("a row 1..8", 1, 8).unwrap(), 1);
//! let err = sc.next_u64("a column 1..7", 1, 7).unwrap_err();
//! assert_eq!(err.to_string(), "2:4: expected a column 1..7, found '8'");
//! ```

use std::io::{self, Read};

use crate::error::{InputError, ParseError, ParseErrorKind, Position, describe_token, plural};

/// The largest count of test cases any input can really hold: a count above it is refused at
/// once, before anything is read or allocated for the cases.
pub const PLAUSIBLE_COUNT: u64 = 1_000_000_000_000;

/// The longest token the scanner accepts, in bytes (no judge input has a token near this
/// long; the buffer holds one byte more, to see where a token of exactly this length ends).
pub const MAX_TOKEN: usize = 1 << 16;

/// Bytes held at once.
const BUFFER_SIZE: usize = MAX_TOKEN + 1;

/// One whitespace-separated token and where it starts.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Token<'a> {
    /// The token's bytes (never empty, never containing whitespace).
    pub bytes: &'a [u8],
    /// Where its first byte is.
    pub position: Position,
}

impl Token<'_> {
    /// The position of the token's `i`-th byte (tokens never span lines).
    pub fn position_at(&self, i: usize) -> Position {
        Position {
            line: self.position.line,
            column: self.position.column + i as u64,
        }
    }

    /// The token quoted for an error message.
    pub fn describe(&self) -> String {
        describe_token(self.bytes)
    }
}

/// A streaming tokenizer over any reader. See the [module docs](self).
pub struct Scanner<R> {
    source: R,
    buf: Box<[u8]>,
    /// Unread data is `buf[start..end]`.
    start: usize,
    end: usize,
    /// Absolute offset in the input of `buf[0]`.
    base: u64,
    /// Line ends are counted lazily, only when a position is asked for: `line` is the line of
    /// `buf[counted]` and `line_start` the absolute offset where that line starts.
    counted: usize,
    line: u64,
    line_start: u64,
    eof: bool,
    /// Whether the start of the input was looked at for a byte-order mark.
    mark_checked: bool,
}

/// The UTF-8 byte-order mark, which some editors write at the start of a file: skipped.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

#[inline]
fn is_space(b: u8) -> bool {
    b <= b' ' && matches!(b, b' ' | b'\n' | b'\r' | b'\t' | 0x0b | 0x0c)
}

/// The line ends (`\n`) in `bytes`: every byte of an input is looked at once more here, to
/// locate errors.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn line_ends(bytes: &[u8]) -> usize {
    // Counted in chunks whose counts fit a byte, so that the comparison runs on whole vectors
    // (natively the compiler vectorises this loop).
    bytes
        .chunks(128)
        .map(|chunk| usize::from(chunk.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>()))
        .sum()
}

/// The line ends (`\n`) in `bytes`, sixteen bytes at a time in WebAssembly SIMD: the browser's
/// module is optimised for size, which leaves the plain loop a byte at a time, and then it
/// took an eighth of the time of the Sultan's answer.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn line_ends(bytes: &[u8]) -> usize {
    use std::arch::wasm32::*;
    // A byte counter per lane takes 255 blocks; then the counters are added up.
    let sum = |counts: v128| {
        let wide = u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(counts));
        (u32x4_extract_lane::<0>(wide) + u32x4_extract_lane::<1>(wide))
            + (u32x4_extract_lane::<2>(wide) + u32x4_extract_lane::<3>(wide))
    };
    let newline = u8x16_splat(b'\n');
    let mut blocks = bytes.chunks_exact(16);
    let (mut total, mut counts, mut held) = (0, u8x16_splat(0), 0);
    for block in blocks.by_ref() {
        let v = u128::from_le_bytes(block.try_into().expect("16 bytes"));
        // A lane equal to `\n` is all ones (-1): subtracting it adds one.
        counts = i8x16_sub(counts, i8x16_eq(u64x2(v as u64, (v >> 64) as u64), newline));
        held += 1;
        if held == 255 {
            total += sum(counts) as usize;
            (counts, held) = (u8x16_splat(0), 0);
        }
    }
    total + sum(counts) as usize + blocks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// Parses a token made only of ASCII digits into a `u64` (leading zeros allowed, any number of
/// them); `None` if it is not one or overflows.
#[inline]
pub fn parse_digits(bytes: &[u8]) -> Option<u64> {
    if bytes.is_empty() {
        return None;
    }
    let zeros = bytes.iter().take_while(|&&b| b == b'0').count();
    let bytes = if zeros == bytes.len() {
        &bytes[..1]
    } else {
        &bytes[zeros..]
    };
    if bytes.len() > 20 {
        return None;
    }
    let mut value: u64 = 0;
    for &b in bytes {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(u64::from(d))?;
    }
    Some(value)
}

/// True when the token looks like an integer (optional minus sign, then digits).
fn looks_like_integer(bytes: &[u8]) -> bool {
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

impl<R: Read> Scanner<R> {
    /// A scanner at the start of `source`.
    pub fn new(source: R) -> Scanner<R> {
        Scanner {
            source,
            buf: vec![0; BUFFER_SIZE].into_boxed_slice(),
            start: 0,
            end: 0,
            base: 0,
            counted: 0,
            line: 1,
            line_start: 0,
            eof: false,
            mark_checked: false,
        }
    }

    /// Counts the line ends between the last counted byte and the next unread one.
    fn count_lines(&mut self) {
        let seen = &self.buf[self.counted..self.start];
        let ends = line_ends(seen);
        if ends > 0 {
            self.line += ends as u64;
            if let Some(last) = seen.iter().rposition(|&b| b == b'\n') {
                self.line_start = self.base + (self.counted + last + 1) as u64;
            }
        }
        self.counted = self.start;
    }

    /// The position of the next unread byte.
    pub fn position(&mut self) -> Position {
        self.count_lines();
        Position {
            line: self.line,
            column: self.base + self.start as u64 - self.line_start + 1,
        }
    }

    /// Reads more input behind the unread data. Returns false at the end of input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Bytes before `start` are about to be dropped: count their line ends first.
        self.count_lines();
        self.counted = 0;
        if self.start == self.end {
            self.base += self.end as u64;
            self.start = 0;
            self.end = 0;
        } else if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.base += self.start as u64;
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // The buffer is full of one token: let the caller report it.
            return Ok(true);
        }
        loop {
            match self.source.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.end += n;
                    if !self.mark_checked {
                        self.skip_byte_order_mark()?;
                    }
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// At the start of the input (the buffer holds its first bytes): skips a byte-order mark,
    /// so that the first token after it is at column 1.
    #[cold]
    fn skip_byte_order_mark(&mut self) -> io::Result<()> {
        while self.end < BYTE_ORDER_MARK.len()
            && self.buf[..self.end] == BYTE_ORDER_MARK[..self.end]
        {
            match self.source.read(&mut self.buf[self.end..]) {
                Ok(0) => break,
                Ok(n) => self.end += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
        self.mark_checked = true;
        if self.buf[..self.end].starts_with(BYTE_ORDER_MARK) {
            self.start = BYTE_ORDER_MARK.len();
            self.counted = self.start;
            self.line_start = self.start as u64;
        }
        Ok(())
    }

    /// Skips whitespace; returns false at the end of input.
    fn skip_space(&mut self) -> io::Result<bool> {
        loop {
            while self.start < self.end {
                if !is_space(self.buf[self.start]) {
                    return Ok(true);
                }
                self.start += 1;
            }
            if !self.fill()? {
                return Ok(false);
            }
        }
    }

    /// The next token, or `None` at the end of input.
    pub fn next_token(&mut self) -> Result<Option<Token<'_>>, InputError> {
        if !self.skip_space()? {
            return Ok(None);
        }
        self.read_token().map(Some)
    }

    /// Reads the token that starts at the next unread byte, which is not whitespace.
    fn read_token(&mut self) -> Result<Token<'_>, InputError> {
        let position = self.position();
        let mut len = 0;
        loop {
            let data = &self.buf[self.start + len..self.end];
            match data.iter().position(|&b| is_space(b)) {
                Some(i) => {
                    len += i;
                    break;
                }
                None => {
                    len = self.end - self.start;
                    if len == self.buf.len() {
                        return Err(ParseError::new(
                            position,
                            ParseErrorKind::TokenTooLong,
                            format!("a token of at most {MAX_TOKEN} bytes"),
                            describe_token(&self.buf[self.start..self.end]),
                        )
                        .into());
                    }
                    if !self.fill()? {
                        break;
                    }
                }
            }
        }
        let from = self.start;
        self.start += len;
        Ok(Token {
            bytes: &self.buf[from..from + len],
            position,
        })
    }

    /// The next token, which must exist; `expected` names it for the error at the end of input.
    pub fn expect_token(&mut self, expected: &str) -> Result<Token<'_>, InputError> {
        if !self.skip_space()? {
            return Err(ParseError::new(
                self.position(),
                ParseErrorKind::UnexpectedEnd,
                expected,
                "end of input",
            )
            .into());
        }
        self.read_token()
    }

    /// Reads an integer in `lo..=hi`. `expected` describes it, e.g. `"a row number 1..8"`.
    pub fn next_u64(&mut self, expected: &str, lo: u64, hi: u64) -> Result<u64, InputError> {
        let mut value = [0];
        self.read_u64s(&mut value, expected, lo, hi)?;
        Ok(value[0])
    }

    /// Fills `out` with integers in `lo..=hi`, each described by `expected` in errors. The
    /// common case (short numbers between whitespace, inside the buffer) runs in one tight loop.
    pub fn read_u64s(
        &mut self,
        out: &mut [u64],
        expected: &str,
        lo: u64,
        hi: u64,
    ) -> Result<(), InputError> {
        let mut k = 0;
        while k < out.len() {
            let data = &self.buf[..self.end];
            let mut pos = self.start;
            while k < out.len() {
                while pos < data.len() && is_space(data[pos]) {
                    pos += 1;
                }
                let begin = pos;
                let mut value = 0u64;
                let stop = data.len().min(begin + 19);
                while pos < stop {
                    let d = data[pos].wrapping_sub(b'0');
                    if d > 9 {
                        break;
                    }
                    value = value * 10 + u64::from(d);
                    pos += 1;
                }
                let settled = pos > begin && pos < data.len() && is_space(data[pos]);
                if !settled || value < lo || value > hi {
                    pos = begin;
                    break;
                }
                out[k] = value;
                k += 1;
            }
            self.start = pos;
            if k < out.len() {
                out[k] = self.next_u64_slow(expected, lo, hi)?;
                k += 1;
            }
        }
        Ok(())
    }

    /// [`Scanner::next_u64`] for every case the fast path does not settle, errors included.
    #[cold]
    fn next_u64_slow(&mut self, expected: &str, lo: u64, hi: u64) -> Result<u64, InputError> {
        let token = self.expect_token(expected)?;
        match parse_digits(token.bytes) {
            Some(v) if (lo..=hi).contains(&v) => Ok(v),
            _ => {
                let kind = if looks_like_integer(token.bytes) {
                    ParseErrorKind::OutOfRange
                } else {
                    ParseErrorKind::NotANumber
                };
                Err(ParseError::new(token.position, kind, expected, token.describe()).into())
            }
        }
    }

    /// Reads a count of things to come. A count beyond `max` cannot be real and fails with
    /// [`ParseErrorKind::TooLarge`] before anything is allocated for it.
    pub fn next_count(&mut self, expected: &str, max: u64) -> Result<u64, InputError> {
        let token = self.expect_token(expected)?;
        match parse_digits(token.bytes) {
            Some(v) if v <= max => Ok(v),
            Some(_) => Err(ParseError::new(
                token.position,
                ParseErrorKind::TooLarge,
                format!("{expected} of at most {max}"),
                token.describe(),
            )
            .into()),
            None if looks_like_integer(token.bytes) => Err(ParseError::new(
                token.position,
                if token.bytes.starts_with(b"-") {
                    ParseErrorKind::OutOfRange
                } else {
                    ParseErrorKind::TooLarge
                },
                format!("{expected} of at most {max}"),
                token.describe(),
            )
            .into()),
            None => Err(ParseError::new(
                token.position,
                ParseErrorKind::NotANumber,
                expected,
                token.describe(),
            )
            .into()),
        }
    }

    /// Succeeds only when nothing but whitespace is left.
    pub fn expect_end(&mut self, expected: &str) -> Result<(), InputError> {
        match self.next_token()? {
            None => Ok(()),
            Some(token) => Err(ParseError::new(
                token.position,
                ParseErrorKind::TrailingInput,
                expected,
                token.describe(),
            )
            .into()),
        }
    }

    /// True when only whitespace is left (reads ahead as needed).
    pub fn at_end(&mut self) -> Result<bool, InputError> {
        Ok(!self.skip_space()?)
    }
}

/// The count of test cases that opens most judge inputs, and the progress through them.
///
/// ```
/// use chess_puzzles::input::{Cases, Scanner};
///
/// let mut sc = Scanner::new("2 a b".as_bytes());
/// let mut cases = Cases::read(&mut sc, "the number of test cases", "case").unwrap();
/// assert_eq!(cases.next(&mut sc).unwrap(), Some(1));
/// sc.next_token().unwrap();
/// assert_eq!(cases.context(), "case 1 of 2");
/// assert_eq!(cases.next(&mut sc).unwrap(), Some(2));
/// sc.next_token().unwrap();
/// assert_eq!(cases.next(&mut sc).unwrap(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Cases {
    total: u64,
    current: u64,
    noun: &'static str,
}

impl Cases {
    /// Reads the count, at most [`PLAUSIBLE_COUNT`]. `expected` names the count in errors and
    /// `noun` one case (`"case"`, `"board"`, ...).
    pub fn read<R: Read>(
        sc: &mut Scanner<R>,
        expected: &str,
        noun: &'static str,
    ) -> Result<Cases, InputError> {
        let total = sc.next_count(expected, PLAUSIBLE_COUNT)?;
        Ok(Cases {
            total,
            current: 0,
            noun,
        })
    }

    /// The announced number of cases.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Moves to the next case and returns its 1-based number; after the last case, checks
    /// that nothing but whitespace is left and returns `None`.
    pub fn next<R: Read>(&mut self, sc: &mut Scanner<R>) -> Result<Option<u64>, InputError> {
        if self.current == self.total {
            let expected = format!("the end of input after {}", plural(self.total, self.noun));
            sc.expect_end(&expected)?;
            return Ok(None);
        }
        self.current += 1;
        Ok(Some(self.current))
    }

    /// The number of the case being read, from 1 (0 before the first).
    pub fn current(&self) -> u64 {
        self.current
    }

    /// Where the reader is, for error messages: `case 3 of 5`.
    pub fn context(&self) -> String {
        format!("{} {} of {}", self.noun, self.current, self.total)
    }
}

/// The test cases of a judge input, read one at a time: what every puzzle's `Reader` is
/// (its `reader.rs`). [`output::write_cases`](crate::output::write_cases) answers them and
/// [`judge::check`](crate::judge::check) judges answers to them.
pub trait CaseReader {
    /// One test case as read.
    type Case;

    /// The next case, or `None` after the last one (which also checks that nothing follows
    /// it).
    fn next_case(&mut self) -> Result<Option<Self::Case>, InputError>;
}

/// Test cases read already, handed out again in their order: a [`CaseReader`] for answering
/// an input that was parsed whole first (the JSON API refuses a bad input before it answers).
pub struct Replay<C>(std::vec::IntoIter<C>);

impl<C> Replay<C> {
    /// Hands out `cases`, the first first.
    pub fn new(cases: Vec<C>) -> Replay<C> {
        Replay(cases.into_iter())
    }
}

impl<C> CaseReader for Replay<C> {
    type Case = C;

    fn next_case(&mut self) -> Result<Option<C>, InputError> {
        Ok(self.0.next())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out one byte per call, to exercise every refill path.
    struct Trickle<'a>(&'a [u8]);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() || out.is_empty() {
                return Ok(0);
            }
            out[0] = self.0[0];
            self.0 = &self.0[1..];
            Ok(1)
        }
    }

    fn tokens<R: Read>(mut sc: Scanner<R>) -> Vec<(String, u64, u64)> {
        let mut all = Vec::new();
        while let Some(t) = sc.next_token().unwrap() {
            all.push((
                String::from_utf8(t.bytes.to_vec()).unwrap(),
                t.position.line,
                t.position.column,
            ));
        }
        all
    }

    #[test]
    fn positions_across_line_ends() {
        let text = "12 ab\r\n\n  x\ty\n";
        let expected = vec![
            ("12".to_string(), 1, 1),
            ("ab".to_string(), 1, 4),
            ("x".to_string(), 3, 3),
            ("y".to_string(), 3, 5),
        ];
        assert_eq!(tokens(Scanner::new(text.as_bytes())), expected);
        assert_eq!(tokens(Scanner::new(Trickle(text.as_bytes()))), expected);
    }

    #[test]
    fn tokens_longer_than_a_read_are_joined() {
        let text = format!("{} {}", "9".repeat(5000), "abc");
        let got = tokens(Scanner::new(Trickle(text.as_bytes())));
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].0.len(), 5000);
        assert_eq!(got[1], ("abc".to_string(), 1, 5002));
    }

    #[test]
    fn a_token_longer_than_the_limit_is_an_error_and_one_of_the_limit_is_not() {
        for tail in ["", " ", "\n1"] {
            let text = format!("{}{tail}", "x".repeat(MAX_TOKEN));
            let mut sc = Scanner::new(Trickle(text.as_bytes()));
            assert_eq!(sc.next_token().unwrap().unwrap().bytes.len(), MAX_TOKEN);
            let text = format!("{}{tail}", "x".repeat(MAX_TOKEN + 1));
            let mut sc = Scanner::new(text.as_bytes());
            let err = sc.next_token().unwrap_err();
            assert_eq!(err.kind(), Some(ParseErrorKind::TokenTooLong));
            assert!(
                err.to_string().contains("a token of at most 65536 bytes"),
                "{err}"
            );
        }
        // After a few tokens, too (the buffer is not aligned on the token).
        let text = format!("1 2 3 {} 4", "7".repeat(MAX_TOKEN));
        let mut sc = Scanner::new(text.as_bytes());
        for _ in 0..3 {
            sc.next_token().unwrap();
        }
        assert_eq!(sc.next_token().unwrap().unwrap().bytes.len(), MAX_TOKEN);
    }

    #[test]
    fn number_errors_are_classified() {
        let mut sc = Scanner::new("x 9 -1 99999999999999999999999".as_bytes());
        let kinds: Vec<_> = (0..4)
            .map(|_| sc.next_u64("n", 1, 8).unwrap_err().kind())
            .collect();
        assert_eq!(
            kinds,
            vec![
                Some(ParseErrorKind::NotANumber),
                Some(ParseErrorKind::OutOfRange),
                Some(ParseErrorKind::OutOfRange),
                Some(ParseErrorKind::OutOfRange),
            ]
        );
        let err = sc.next_u64("n", 1, 8).unwrap_err();
        assert_eq!(err.kind(), Some(ParseErrorKind::UnexpectedEnd));
        assert_eq!(err.to_string(), "1:31: expected n, found end of input");
    }

    #[test]
    fn counts_too_large_to_be_real() {
        let mut sc = Scanner::new("1000001 123456789012345678901234567890 7".as_bytes());
        assert_eq!(
            sc.next_count("T", 1_000_000).unwrap_err().kind(),
            Some(ParseErrorKind::TooLarge)
        );
        assert_eq!(
            sc.next_count("T", u64::MAX).unwrap_err().kind(),
            Some(ParseErrorKind::TooLarge)
        );
        assert_eq!(sc.next_count("T", 7).unwrap(), 7);
        assert!(sc.at_end().unwrap());
        sc.expect_end("nothing").unwrap();
    }

    #[test]
    fn trailing_input_is_reported_where_it_starts() {
        let mut sc = Scanner::new("1\n\n  2".as_bytes());
        sc.next_u64("n", 0, 9).unwrap();
        let err = sc.expect_end("end of input").unwrap_err();
        assert_eq!(err.kind(), Some(ParseErrorKind::TrailingInput));
        assert_eq!(err.to_string(), "3:3: expected end of input, found '2'");
    }

    #[test]
    fn a_byte_order_mark_at_the_start_is_skipped() {
        let text = "\u{feff}12 x\n3";
        let expected = vec![
            ("12".to_string(), 1, 1),
            ("x".to_string(), 1, 4),
            ("3".to_string(), 2, 1),
        ];
        assert_eq!(tokens(Scanner::new(text.as_bytes())), expected);
        assert_eq!(tokens(Scanner::new(Trickle(text.as_bytes()))), expected);
        // Only at the start, and only a whole one.
        let got = tokens(Scanner::new("1 \u{feff}".as_bytes()));
        assert_eq!(got.len(), 2);
        let mut sc = Scanner::new(Trickle(b"\xEF\xBB"));
        assert_eq!(sc.next_token().unwrap().unwrap().bytes, b"\xEF\xBB");
        assert!(tokens(Scanner::new(Trickle("\u{feff}".as_bytes()))).is_empty());
    }

    #[test]
    fn parse_digits_edges() {
        assert_eq!(parse_digits(b"0"), Some(0));
        assert_eq!(parse_digits(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_digits(b"18446744073709551616"), None);
        assert_eq!(parse_digits(b""), None);
        assert_eq!(parse_digits(b"+1"), None);
        assert_eq!(parse_digits(b"1a"), None);
        assert_eq!(parse_digits(b"0000000000000000000001"), Some(1));
        assert_eq!(parse_digits(b"000000000000000000000"), Some(0));
        let padded = format!("{}18446744073709551615", "0".repeat(100));
        assert_eq!(parse_digits(padded.as_bytes()), Some(u64::MAX));
    }

    use proptest::prelude::*;

    proptest::proptest! {
        /// `read_u64s` (its loop over the buffer) reads what the tokens say, one at a time, on inputs of numbers with leading zeros, every kind of whitespace, signs and
        /// other bytes, and numbers out of range: the same numbers, or an error at the same
        /// token.
        #[test]
        fn read_u64s_reads_the_tokens(
            parts in proptest::collection::vec(
                (
                    proptest::sample::select(vec![" ", "  ", "\n", "\r\n", "\t", "\x0b\x0c", " \n "]),
                    proptest::prop_oneof![
                        8 => (0u64..100).prop_map(|v| v.to_string()),
                        4 => (0u64..10_000_000_000).prop_map(|v| v.to_string()),
                        1 => (0u64..1000).prop_map(|v| format!("000{v}")),
                        1 => proptest::sample::select(vec!["-1", "+2", "1a", "x", "99999999999999999999", "\u{1}"])
                            .prop_map(String::from),
                    ],
                ),
                1..200,
            ),
            hi in proptest::sample::select(vec![99u64, 1_000_000, u64::MAX]),
            trickle in proptest::bool::ANY,
        ) {
            let mut text = String::new();
            let mut starts = Vec::new(); // each token's line and column
            for (space, token) in &parts {
                text.push_str(space);
                let line_start = text.rfind('\n').map_or(0, |i| i + 1);
                starts.push((text.matches('\n').count() + 1, text.len() - line_start + 1));
                text.push_str(token);
            }
            text.push('\n');
            let expected: Result<Vec<u64>, usize> = parts
                .iter()
                .enumerate()
                .map(|(i, (_, t))| parse_digits(t.as_bytes()).filter(|&v| v <= hi).ok_or(i))
                .collect();
            let mut got = vec![0; parts.len()];
            let read = if trickle {
                Scanner::new(Trickle(text.as_bytes())).read_u64s(&mut got, "a number", 0, hi)
            } else {
                Scanner::new(text.as_bytes()).read_u64s(&mut got, "a number", 0, hi)
            };
            match expected {
                Ok(values) => {
                    prop_assert!(read.is_ok(), "{read:?}");
                    prop_assert_eq!(got, values);
                }
                Err(at) => {
                    let err = read.expect_err("a bad token");
                    let (line, column) = starts[at];
                    prop_assert_eq!(&got[..at], &expected_prefix(&parts[..at])[..]);
                    let located = format!("{line}:{column}: expected a number");
                    prop_assert!(err.to_string().starts_with(&located), "{err}, not at {located}");
                }
            }
        }
    }

    fn expected_prefix(parts: &[(&str, String)]) -> Vec<u64> {
        parts
            .iter()
            .map(|(_, t)| parse_digits(t.as_bytes()).unwrap())
            .collect()
    }
}

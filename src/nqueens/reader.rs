//! Reading the judge-style input of `nqueens best`: the count k, then per board its side n
//! and n rows of n weights.

use std::io::Read;

use crate::error::{InputError, ParseError, ParseErrorKind};
use crate::input::{CaseReader, Cases, Scanner, parse_digits};

use super::best::Weights;
use super::problem::{MAX_N, MAX_WEIGHT};

/// Reads the boards of `nqueens best`: the count k, then per board its side n and n rows of n
/// weights.
pub struct BestReader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> BestReader<R> {
    /// Reads the count of boards; fails with a located error when it is missing, not a
    /// number, or above [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT).
    pub fn new(mut scanner: Scanner<R>) -> Result<BestReader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of boards", "board")?;
        Ok(BestReader { scanner, cases })
    }

    /// The announced number of boards.
    pub fn total(&self) -> u64 {
        self.cases.total()
    }
}

impl<R: Read> CaseReader for BestReader<R> {
    type Case = Weights;

    fn next_case(&mut self) -> Result<Option<Weights>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let context = self.cases.context();
        let expected = format!("a board side 1..{MAX_N}");
        let token = self
            .scanner
            .expect_token(&expected)
            .map_err(|e| e.with_context(&context))?;
        let side_position = token.position;
        let n = match parse_digits(token.bytes) {
            Some(n) if (1..=MAX_N as u64).contains(&n) => n as usize,
            found => {
                let kind = if found.is_some() || token.bytes.iter().all(u8::is_ascii_digit) {
                    ParseErrorKind::OutOfRange
                } else {
                    ParseErrorKind::NotANumber
                };
                return Err(
                    ParseError::new(token.position, kind, expected, token.describe())
                        .with_context(&context)
                        .into(),
                );
            }
        };
        let mut weights = Vec::with_capacity(n * n);
        for row in 1..=n {
            for _ in 0..n {
                let w = self
                    .scanner
                    .next_u64("a weight 0..4294967295", 0, MAX_WEIGHT)
                    .map_err(|e| e.with_context(format!("{context}, row {row}")))?;
                weights.push(w as u32);
            }
        }
        // The side was checked above and the weights counted.
        Weights::new(n, weights).map(Some).map_err(|e| {
            ParseError::new(side_position, ParseErrorKind::Invalid, e.to_string(), "").into()
        })
    }
}

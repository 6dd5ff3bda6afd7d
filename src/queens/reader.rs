//! Reading the judge input: the count T, then T squares as `row column` (1-based).

use std::io::Read;

use crate::core::{CLASSIC, Square};
use crate::error::InputError;
use crate::input::{CaseReader, Cases, Scanner};

/// Reads the queries of an input: the count T, then T squares as `row column` (1-based).
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> Reader<R> {
    /// Reads the count of test cases; fails with a located error when it is missing, not a
    /// number, or above [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT).
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of test cases", "case")?;
        Ok(Reader { scanner, cases })
    }
}

impl<R: Read> CaseReader for Reader<R> {
    /// The square of the case's given queen.
    type Case = Square;

    fn next_case(&mut self) -> Result<Option<Square>, InputError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_reports_the_short_case() {
        let mut reader = Reader::new(Scanner::new("3\n1 1\n2 2\n3".as_bytes())).unwrap();
        assert_eq!(reader.next_case().unwrap(), Some(Square::new(0, 0)));
        assert_eq!(reader.next_case().unwrap(), Some(Square::new(1, 1)));
        let err = reader.next_case().unwrap_err();
        assert_eq!(
            err.to_string(),
            "4:2: expected a column number 1..8 (case 3 of 3), found end of input"
        );
    }
}

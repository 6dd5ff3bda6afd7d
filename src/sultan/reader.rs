//! Reading the judge input: the count k, then k boards of 64 weights, row by row.

use std::io::Read;

use crate::core::CLASSIC;
use crate::error::InputError;
use crate::input::{CaseReader, Cases, Scanner};

use super::{Board, MAX_WEIGHT};

/// Reads the boards of an input: the count k, then k boards of 64 numbers, row by row.
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> Reader<R> {
    /// Reads the count of boards; fails with a located error when it is missing, not a
    /// number, or above [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT).
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of boards", "board")?;
        Ok(Reader { scanner, cases })
    }
}

impl<R: Read> CaseReader for Reader<R> {
    type Case = Board;

    fn next_case(&mut self) -> Result<Option<Board>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let mut numbers = [0u64; CLASSIC * CLASSIC];
        self.scanner
            .read_u64s(&mut numbers, "a weight 0..4294967295", 0, MAX_WEIGHT)
            .map_err(|e| e.with_context(self.cases.context()))?;
        let mut weights = [[0u32; CLASSIC]; CLASSIC];
        for (i, &w) in numbers.iter().enumerate() {
            // `read_u64s` keeps every number within MAX_WEIGHT, which fits a u32.
            weights[i / CLASSIC][i % CLASSIC] = w as u32;
        }
        Ok(Some(Board { weights }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_names_the_short_board() {
        let mut reader = Reader::new(Scanner::new("1\n1 2 3".as_bytes())).unwrap();
        let err = reader.next_case().unwrap_err();
        assert!(err.to_string().contains("(board 1 of 1)"), "{err}");
    }
}

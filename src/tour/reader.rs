//! Reading the judge input: the number of scenarios, then each board as eight rows of eight
//! characters `. Q B P N`, rank 8 first, every error located.

use std::io::Read;

use crate::core::{Bitboard, CLASSIC, Square};
use crate::error::{InputError, ParseError, ParseErrorKind, Position, plural};
use crate::input::{CaseReader, Cases, Scanner, Token};

use super::{MAX_KNIGHTS, Piece, Scenario, square_name};

/// What each row of a board is expected to be, in errors.
pub(super) const ROW_EXPECTED: [&str; CLASSIC] = [
    "row 1 of 8 (rank 8): eight of . Q B P N",
    "row 2 of 8 (rank 7): eight of . Q B P N",
    "row 3 of 8 (rank 6): eight of . Q B P N",
    "row 4 of 8 (rank 5): eight of . Q B P N",
    "row 5 of 8 (rank 4): eight of . Q B P N",
    "row 6 of 8 (rank 3): eight of . Q B P N",
    "row 7 of 8 (rank 2): eight of . Q B P N",
    "row 8 of 8 (rank 1): eight of . Q B P N",
];

/// An error at `position`, with the reader's `context` when there is one.
fn located(
    position: Position,
    kind: ParseErrorKind,
    expected: impl Into<String>,
    found: impl Into<String>,
    context: &str,
) -> InputError {
    let e = ParseError::new(position, kind, expected, found);
    if context.is_empty() {
        e.into()
    } else {
        e.with_context(context).into()
    }
}

/// Reads one board of eight rows. `last_line` is the line of the token before it (0 for none):
/// the board starts on a later line and its rows are on consecutive lines.
pub(super) fn read_board<R: Read>(
    sc: &mut Scanner<R>,
    last_line: u64,
    context: &str,
) -> Result<Scenario, InputError> {
    let mut queen: Option<(Square, Position)> = None;
    let mut bishop: Option<(Square, Position)> = None;
    let mut knights = Vec::new();
    let mut pawns = Bitboard::EMPTY;
    let mut first_row = Position::START;
    let mut line = last_line;
    for (r, expected) in ROW_EXPECTED.iter().enumerate() {
        let token: Token<'_> = sc
            .expect_token(expected)
            .map_err(|e| e.with_context(context))?;
        let at = token.position;
        if at.line == line {
            return Err(located(
                at,
                ParseErrorKind::BadLength,
                format!("{expected}, on a line of its own"),
                format!("{} on the same line", token.describe()),
                context,
            ));
        }
        if r > 0 && at.line > line + 1 {
            let blank = Position {
                line: line + 1,
                column: 1,
            };
            return Err(located(
                blank,
                ParseErrorKind::UnexpectedEnd,
                *expected,
                format!("an empty line after {}", plural(r as u64, "row")),
                context,
            ));
        }
        if r == 0 {
            first_row = at;
        }
        line = at.line;
        if token.bytes.len() != CLASSIC {
            return Err(located(
                at,
                ParseErrorKind::BadLength,
                *expected,
                format!(
                    "{} ({})",
                    token.describe(),
                    plural(token.bytes.len() as u64, "character")
                ),
                context,
            ));
        }
        for (c, &byte) in token.bytes.iter().enumerate() {
            let sq = Square::new(r as u8, c as u8);
            let here = token.position_at(c);
            let piece = match Piece::from_char(byte) {
                Some(p) => p,
                None if byte == b'.' => continue,
                None => {
                    return Err(located(
                        here,
                        ParseErrorKind::BadCharacter,
                        "a square '.', 'Q', 'B', 'P' or 'N'",
                        crate::error::describe_token(&[byte]),
                        context,
                    ));
                }
            };
            match piece {
                Piece::Queen | Piece::Bishop => {
                    let slot = if piece == Piece::Queen {
                        &mut queen
                    } else {
                        &mut bishop
                    };
                    if let Some((first, _)) = slot {
                        return Err(located(
                            here,
                            ParseErrorKind::Invalid,
                            format!("one '{}' per board", piece.letter()),
                            format!("a second one (the first on {})", square_name(*first)),
                            context,
                        ));
                    }
                    *slot = Some((sq, here));
                }
                Piece::Knight => {
                    if knights.len() == MAX_KNIGHTS {
                        return Err(located(
                            here,
                            ParseErrorKind::TooLarge,
                            format!("at most {MAX_KNIGHTS} knights 'N' per board"),
                            format!("knight number {}", MAX_KNIGHTS + 1),
                            context,
                        ));
                    }
                    knights.push(sq);
                }
                Piece::Pawn => pawns.insert(sq),
            }
        }
    }
    let missing = |letter: char| {
        located(
            first_row,
            ParseErrorKind::Invalid,
            format!("a board with one '{letter}'"),
            "none on this board",
            context,
        )
    };
    let (queen, _) = queen.ok_or_else(|| missing('Q'))?;
    let (bishop, _) = bishop.ok_or_else(|| missing('B'))?;
    Scenario::new(queen, bishop, knights, pawns).map_err(|e| {
        // Every check of `new` was made above with a location; this cannot happen.
        located(
            first_row,
            ParseErrorKind::Invalid,
            "a valid board",
            e.to_string(),
            context,
        )
    })
}

/// Reads the scenarios of an input: their count, then each board of eight rows.
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
    last_line: u64,
}

impl<R: Read> Reader<R> {
    /// Reads the count of scenarios; fails with a located error when it is missing, not a
    /// number, or above [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT).
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of scenarios", "scenario")?;
        let last_line = scanner.position().line;
        Ok(Reader {
            scanner,
            cases,
            last_line,
        })
    }
}

impl<R: Read> CaseReader for Reader<R> {
    type Case = Scenario;

    fn next_case(&mut self) -> Result<Option<Scenario>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let context = self.cases.context();
        let scenario = read_board(&mut self.scanner, self.last_line, &context)?;
        self.last_line = self.scanner.position().line;
        Ok(Some(scenario))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reader_errors_are_located() {
        let bad = |text: &str| Scenario::parse(text).unwrap_err();
        let rows = ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n";
        let e = bad(&format!("{rows}......."));
        assert_eq!(e.kind(), Some(ParseErrorKind::BadLength));
        let e = bad(&format!("{rows}...x...."));
        assert_eq!(e.kind(), Some(ParseErrorKind::BadCharacter));
        assert!(e.to_string().starts_with("8:4:"), "{e}");
        let e = bad(&format!("{rows}\n........"));
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        assert!(e.to_string().starts_with("8:1:"), "{e}");
        let e = bad(&format!("{rows}......Q."));
        assert_eq!(e.kind(), Some(ParseErrorKind::Invalid));
        let e = bad(rows);
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        let e = bad(&rows.replace('B', "."));
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        let e = bad(&format!("{}........", rows.replace('B', ".")));
        assert_eq!(e.kind(), Some(ParseErrorKind::Invalid));
    }

    #[test]
    fn too_many_knights_are_refused_at_the_first_extra_one() {
        let mut grid = [[b'.'; 8]; 8];
        grid[0][0] = b'Q';
        grid[7][7] = b'B';
        let mut placed = 0;
        for (i, cell) in grid.iter_mut().flatten().enumerate() {
            if *cell == b'.' && i % 2 == 1 && placed <= MAX_KNIGHTS {
                *cell = b'N';
                placed += 1;
            }
        }
        let text: String = grid
            .iter()
            .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
            .collect();
        let e = Scenario::parse(&text).unwrap_err();
        assert_eq!(e.kind(), Some(ParseErrorKind::TooLarge));
    }
}

//! The strict validator of `tour` inputs: the statement's exact layout and limits.

use std::io::Read;

use super::generator::STATEMENT_KNIGHTS;
use super::reader::ROW_EXPECTED;
use crate::core::CLASSIC;
use crate::error::{InputError, ParseError, ParseErrorKind, Position};
use crate::input::PLAUSIBLE_COUNT;
use crate::judge::strict::Lines;

/// The characters of a board row.
const SQUARES: &[u8] = b".QBPN";

/// Checks that `input` is a first line holding the number of scenarios (1 or more), then for
/// each scenario exactly eight lines of exactly eight characters from `. Q B P N` (rank 8
/// first) followed by one empty line, and nothing else; every line ends with `\n` (no `\r`).
/// The empty line is required after every board, the last one included, as the statement says
/// ("each description is followed by an empty line") and its sample shows. Each board holds
/// exactly one `Q`, exactly one `B` and 2 to 14 `N`; pawns `P` are not limited.
/// Returns the number of scenarios. A [`InputError::Parse`] is a violation, located;
/// [`InputError::Io`] a failure to read.
///
/// ```
/// use chess_puzzles::tour::validate::validate;
/// use chess_puzzles::tour::SAMPLE;
///
/// assert_eq!(validate(SAMPLE.input.as_bytes()).unwrap(), 2);
/// let err = validate(SAMPLE.input.replacen("..B", "..b", 1).as_bytes()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "8:3: expected one of '.' 'Q' 'B' 'P' 'N' (scenario 1 of 2), found 'b'"
/// );
/// ```
pub fn validate(input: impl Read) -> Result<u64, InputError> {
    let mut lines = Lines::new(input);
    let total = lines.expect_count("the number of scenarios", PLAUSIBLE_COUNT)?;
    for scenario in 1..=total {
        let context = format!("scenario {scenario} of {total}");
        let first_row = Position {
            line: lines.line_number() + 1,
            column: 1,
        };
        let mut queen: Option<Position> = None;
        let mut bishop: Option<Position> = None;
        let mut knights = 0usize;
        for what in ROW_EXPECTED {
            let line = lines.expect(&format!("{what} ({context})"))?;
            let row = line
                .cells(CLASSIC, SQUARES, what)
                .map_err(|e| e.with_context(&context))?;
            for (c, &byte) in row.iter().enumerate() {
                let here = line.position(c);
                let violation = |expected: String, found: String| {
                    ParseError::new(here, ParseErrorKind::Invalid, expected, found)
                        .with_context(&context)
                };
                match byte {
                    b'Q' | b'B' => {
                        let slot = if byte == b'Q' {
                            &mut queen
                        } else {
                            &mut bishop
                        };
                        if let Some(first) = slot {
                            let letter = char::from(byte);
                            return Err(violation(
                                format!("one '{letter}' per board"),
                                format!("a second one (the first at {first})"),
                            )
                            .into());
                        }
                        *slot = Some(here);
                    }
                    b'N' => {
                        knights += 1;
                        if knights > STATEMENT_KNIGHTS.1 {
                            return Err(violation(
                                format!("at most {} knights 'N' per board", STATEMENT_KNIGHTS.1),
                                format!("knight number {knights}"),
                            )
                            .into());
                        }
                    }
                    _ => {}
                }
            }
        }
        let whole_board = |expected: String, found: String| -> InputError {
            ParseError::new(first_row, ParseErrorKind::Invalid, expected, found)
                .with_context(&context)
                .into()
        };
        for (piece, letter) in [(queen, 'Q'), (bishop, 'B')] {
            if piece.is_none() {
                return Err(whole_board(
                    format!("a board with one '{letter}'"),
                    "none in its eight rows".to_string(),
                ));
            }
        }
        if knights < STATEMENT_KNIGHTS.0 {
            return Err(whole_board(
                format!(
                    "a board with {} to {} knights 'N'",
                    STATEMENT_KNIGHTS.0, STATEMENT_KNIGHTS.1
                ),
                format!("{knights} in its eight rows"),
            ));
        }
        let what = format!("an empty line after the board ({context})");
        lines.expect(&what)?.empty(&what)?;
    }
    lines.expect_end_after(total, "scenario")?;
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::SAMPLE;

    #[test]
    fn the_sample_is_valid_and_its_variants_are_not() {
        assert_eq!(validate(SAMPLE.input.as_bytes()).unwrap(), 2);
        let without_last_empty = SAMPLE.input.strip_suffix('\n').unwrap_or_default();
        let two_empty = format!("{}\n", SAMPLE.input);
        for (input, kind) in [
            (without_last_empty, ParseErrorKind::UnexpectedEnd),
            (&two_empty, ParseErrorKind::TrailingInput),
            (&SAMPLE.input.replacen('N', "Q", 1), ParseErrorKind::Invalid),
        ] {
            let err = validate(input.as_bytes()).unwrap_err();
            assert_eq!(err.kind(), Some(kind), "{input}");
        }
    }
}

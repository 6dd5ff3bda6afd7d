//! The strict validator of `showdown` inputs: the statement's exact layout and limits.

use std::io::Read;

use super::generator::{STATEMENT_SIDES, STATEMENT_TESTS};
use super::{MAX_COST, statement_sides};
use crate::error::{InputError, ParseError, ParseErrorKind, Position};
use crate::judge::strict::{Lines, Spacing};

use super::reader::SQUARES;

/// Checks that `input` follows the statement's Input section exactly: a first line holding t,
/// 1 <= t <= 15; then per test a line holding n, 2 <= n <= 25, n lines of exactly n characters
/// `#` (king) or `_` (empty), and a line of exactly eight prices in 1..10^6 one space apart;
/// nothing else. Every line ends with `\n` (no `\r`); numbers are plain (no sign, no leading
/// zero). Every king must have an empty square among its eight neighbours: the board's rows are
/// checked first, then its kings row by row, and the first king without one is reported at its
/// own line and column. A board without kings is accepted (the statement does not forbid it).
///
/// The statement's sample lacks the line holding t; this validator follows the Input section.
/// Returns t. A [`InputError::Parse`] is a violation, located; [`InputError::Io`] a failure to
/// read.
///
/// ```
/// use chess_puzzles::showdown::validate::validate;
/// use chess_puzzles::showdown::SAMPLE;
///
/// assert_eq!(validate(SAMPLE.input.as_bytes()).unwrap(), 1);
/// assert_eq!(validate("1\n2\n##\n#_\n1 1 1 1 1 1 1 1\n".as_bytes()).unwrap(), 1);
/// let err = validate("1\n3\n#_#\n###\n###\n1 1 1 1 1 1 1 1\n".as_bytes()).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "5:1: expected an empty square among the 8 neighbours of every king (test 1 of 1), \
///      found the king on row 3, column 1 with none"
/// );
/// ```
pub fn validate(input: impl Read) -> Result<u64, InputError> {
    let (lo, hi) = STATEMENT_SIDES;
    let mut lines = Lines::new(input);
    let total = lines.expect_count("the number of tests t", STATEMENT_TESTS)?;
    for test in 1..=total {
        let context = format!("test {test} of {total}");
        let what = format!("a board side n {}", statement_sides());
        let line = lines.expect(&format!("{what} ({context})"))?;
        // The statement's own sample starts with the side, without the test count.
        let a_row =
            test == 1 && !line.text.is_empty() && line.text.iter().all(|b| SQUARES.contains(b));
        let side = line
            .numbers(1, lo as u64, hi as u64, &what, Spacing::Single)
            .map_err(|mut e| {
                if a_row {
                    e.found = format!(
                        "a board row: the first line, {total}, was read as the number of tests \
                         t, so the input seems to lack it (the statement's sample leaves it \
                         out); add the number of tests as its first line, e.g. 1"
                    );
                }
                e.with_context(&context)
            })?[0] as usize;
        let first_row = lines.line_number() + 1;
        let mut board: Vec<Vec<u8>> = Vec::with_capacity(side);
        for r in 1..=side {
            let what = format!("row {r} of {side}: {side} characters '#' or '_'");
            let line = lines.expect(&format!("{what} ({context})"))?;
            let row = line
                .cells(side, SQUARES, &what)
                .map_err(|e| e.with_context(&context))?;
            board.push(row.to_vec());
        }
        if let Some((r, c)) = king_without_empty_neighbour(&board) {
            return Err(ParseError::new(
                Position {
                    line: first_row + r as u64,
                    column: c as u64 + 1,
                },
                ParseErrorKind::Invalid,
                "an empty square among the 8 neighbours of every king",
                format!("the king on row {}, column {} with none", r + 1, c + 1),
            )
            .with_context(&context)
            .into());
        }
        let what = format!("a price 1..{MAX_COST}");
        lines
            .expect(&format!("the eight prices ({context})"))?
            .numbers(8, 1, MAX_COST, &what, Spacing::Single)
            .map_err(|e| e.with_context(&context))?;
    }
    lines.expect_end_after(total, "test")?;
    Ok(total)
}

/// The first king, row by row (0-based row and column), with no `_` among its neighbours.
fn king_without_empty_neighbour(board: &[Vec<u8>]) -> Option<(usize, usize)> {
    let at = |r: usize, c: usize| board.get(r).and_then(|row| row.get(c)).copied();
    for (r, row) in board.iter().enumerate() {
        for (c, &cell) in row.iter().enumerate() {
            if cell != b'#' {
                continue;
            }
            let free = (r.saturating_sub(1)..=r + 1)
                .flat_map(|rr| (c.saturating_sub(1)..=c + 1).map(move |cc| (rr, cc)))
                .any(|(rr, cc)| (rr, cc) != (r, c) && at(rr, cc) == Some(b'_'));
            if !free {
                return Some((r, c));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::SAMPLE;

    #[test]
    fn the_sample_is_valid_and_the_statements_form_of_it_is_not() {
        assert_eq!(validate(SAMPLE.input.as_bytes()).unwrap(), 1);
        // Without the leading t, the side 5 is read as t and the first row as n.
        let bare = SAMPLE.input.strip_prefix("1\n").unwrap_or_default();
        let err = validate(bare.as_bytes()).unwrap_err();
        assert_eq!(err.kind(), Some(ParseErrorKind::NotANumber));
        assert!(err.to_string().starts_with("2:1: "), "{err}");
        assert!(err.to_string().contains("add the number of tests"), "{err}");
    }

    #[test]
    fn corners_and_edges_look_only_inside_the_board() {
        assert_eq!(
            king_without_empty_neighbour(&[b"#_".to_vec(), b"##".to_vec()]),
            None
        );
        assert_eq!(
            king_without_empty_neighbour(&[b"#_#".to_vec(), b"###".to_vec(), b"###".to_vec()]),
            Some((2, 0))
        );
        assert_eq!(
            king_without_empty_neighbour(&[b"_##".to_vec(), b"###".to_vec(), b"###".to_vec()]),
            Some((0, 2))
        );
        let no_room = validate("1\n2\n##\n##\n1 1 1 1 1 1 1 1\n".as_bytes());
        assert_eq!(no_room.unwrap_err().kind(), Some(ParseErrorKind::Invalid));
        assert!(validate("1\n2\n__\n__\n1 1 1 1 1 1 1 1\n".as_bytes()).is_ok());
    }
}

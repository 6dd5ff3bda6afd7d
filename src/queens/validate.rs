//! The strict validator of `queens` inputs: the statement's exact layout and limits.

use std::io::Read;

use super::Style;
use crate::error::InputError;
use crate::input::PLAUSIBLE_COUNT;
use crate::judge::strict::{Field, Lines, Spacing};

/// Checks that `input` is a first line holding T (1 or more), then T lines of two numbers
/// `row column` in 1..8 separated by one space, and nothing else; every line ends with `\n`.
/// Returns T. A [`InputError::Parse`] is a violation, located; [`InputError::Io`] a failure to read.
///
/// ```
/// use chess_puzzles::queens::validate::validate;
///
/// assert_eq!(validate("2\n1 1\n8 8\n".as_bytes()).unwrap(), 2);
/// let err = validate("1\n1  1\n".as_bytes()).unwrap_err();
/// assert_eq!(err.to_string(), "2:3: expected a column 1..8 (case 1 of 1), found ' '");
/// let err = validate("1\n1\t1\n".as_bytes()).unwrap_err();
/// assert_eq!(err.to_string(), "2:2: expected a single space (case 1 of 1), found '\\t'");
/// ```
pub fn validate(input: impl Read) -> Result<u64, InputError> {
    validate_in(input, Style::Statement)
}

/// Checks `input` in UVa 750's layout: as [`validate`], with one empty line after the count
/// and one before every case, and no empty line anywhere else. Returns T.
///
/// ```
/// use chess_puzzles::queens::validate::validate_uva;
///
/// assert_eq!(validate_uva("2\n\n1 1\n\n8 8\n".as_bytes()).unwrap(), 2);
/// let err = validate_uva("2\n1 1\n\n8 8\n".as_bytes()).unwrap_err();
/// assert_eq!(err.to_string(), "2:1: expected an empty line before case 1 of 2 (the UVa layout), found '1 1'");
/// let err = validate_uva("1\n\n1 1\n\n".as_bytes()).unwrap_err();
/// assert_eq!(err.to_string(), "4:1: expected the end of input after 1 case, found an empty line");
/// ```
pub fn validate_uva(input: impl Read) -> Result<u64, InputError> {
    validate_in(input, Style::Uva)
}

fn validate_in(input: impl Read, layout: Style) -> Result<u64, InputError> {
    let mut lines = Lines::new(input);
    let total = lines.expect_count("the number of test cases", PLAUSIBLE_COUNT)?;
    let square = [
        Field::new("a row 1..8", 1, 8),
        Field::new("a column 1..8", 1, 8),
    ];
    for case in 1..=total {
        if layout == Style::Uva {
            lines
                .expect(&format!("an empty line before case {case} of {total}"))?
                .empty(&format!(
                    "an empty line before case {case} of {total} (the UVa layout)"
                ))?;
        }
        let what = format!("case {case} of {total}: a row and a column 1..8");
        lines
            .expect(&what)?
            .fields(&square, Spacing::Single)
            .map_err(|e| e.with_context(format!("case {case} of {total}")))?;
    }
    lines.expect_end_after(total, "case")?;
    Ok(total)
}

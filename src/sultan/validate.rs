//! The strict validator of `sultan` inputs: the statement's exact layout and limits.

use std::io::Read;

use crate::core::CLASSIC;
use crate::error::InputError;
use crate::input::PLAUSIBLE_COUNT;
use crate::judge::strict::{Lines, Spacing};

/// The statement's weights: positive and below 100.
pub const WEIGHTS: (u64, u64) = (1, 99);

/// Checks that `input` is a first line holding k (1 or more), then k boards of eight lines of
/// eight weights in 1..99, and nothing else. Weights may be padded with spaces into columns,
/// as the statement's sample is; no line may end with a space; every line ends with `\n`.
/// Returns k. A [`InputError::Parse`] is a violation, located; [`InputError::Io`] a failure to read.
///
/// ```
/// use chess_puzzles::sultan::validate::validate;
///
/// let board = " 1  2  3  4  5  6  7  8\n".repeat(8);
/// assert_eq!(validate(format!("1\n{board}").as_bytes()).unwrap(), 1);
/// let err = validate(format!("1\n{}", board.replace('8', "100")).as_bytes()).unwrap_err();
/// assert_eq!(err.to_string(), "2:23: expected a weight 1..99 (board 1 of 1), found '100'");
/// ```
pub fn validate(input: impl Read) -> Result<u64, InputError> {
    let mut lines = Lines::new(input);
    let total = lines.expect_count("the number of boards", PLAUSIBLE_COUNT)?;
    for board in 1..=total {
        for row in 1..=CLASSIC {
            let what = format!("row {row} of board {board} of {total}: eight weights");
            lines
                .expect(&what)?
                .numbers(
                    CLASSIC,
                    WEIGHTS.0,
                    WEIGHTS.1,
                    "a weight 1..99",
                    Spacing::Aligned,
                )
                .map_err(|e| e.with_context(format!("board {board} of {total}")))?;
        }
    }
    lines.expect_end_after(total, "board")?;
    Ok(total)
}

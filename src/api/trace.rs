//! `POST /api/queens/trace`, `/api/sultan/trace` and `/api/tour/trace`: a judge input answered
//! with the search's trace, exactly the JSON Lines of `chess-puzzles <puzzle> --trace` (with
//! `--trace-steps` for `steps`), through the same library functions. The web board plays
//! these lines. `GET /api/nqueens/trace` is with the other `nqueens` endpoints.
//!
//! Traces are bounded: `steps` (default [`DEFAULT_STEPS`]) is at most [`MAX_STEPS`]; a tour's
//! trace is bounded by its search. As every answer, a trace has the server's time limit.

use std::io::Write;

use super::error::ApiError;
use super::params::Params;
use super::parse_all;
use crate::input::{CaseReader, Scanner};
use crate::{queens, sultan, tour};

pub use crate::nqueens::trace::DEFAULT_STEPS;

/// The most steps a trace of the server holds (a trace of every 8-queens placement takes
/// 17,868).
pub const MAX_STEPS: u64 = 1_000_000;

/// `steps`: at most [`MAX_STEPS`], [`DEFAULT_STEPS`] when absent.
pub fn take_steps(params: &mut Params) -> Result<u64, ApiError> {
    match params.take::<u64>("steps", "a number of steps")? {
        None => Ok(DEFAULT_STEPS),
        Some(steps) if steps <= MAX_STEPS => Ok(steps),
        Some(steps) => Err(ApiError::bad(format!(
            "steps: expected at most {MAX_STEPS} (the server's limit on a trace), found {steps}"
        ))),
    }
}

/// Which judge puzzle's search a request traces.
#[derive(Copy, Clone, Debug)]
pub(super) enum Puzzle {
    Queens,
    Sultan,
    Tour,
}

/// `steps` of a trace (none for the tour's, which its search bounds).
pub(super) fn options(params: &mut Params, puzzle: Puzzle) -> Result<u64, ApiError> {
    match puzzle {
        Puzzle::Tour => Ok(0),
        Puzzle::Queens | Puzzle::Sultan => take_steps(params),
    }
}

/// Writes the trace of `input` (parsed whole first).
pub(super) fn write(
    puzzle: Puzzle,
    steps: u64,
    input: &[u8],
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let mut out = out;
    match puzzle {
        Puzzle::Queens => {
            parse_all(queens::Reader::new(Scanner::new(input)), |r| {
                r.next_case().map(|c| c.is_some())
            })?;
            queens::trace::trace(input, &mut out, steps)
        }
        Puzzle::Sultan => {
            parse_all(sultan::Reader::new(Scanner::new(input)), |r| {
                r.next_case().map(|c| c.is_some())
            })?;
            sultan::trace::trace(input, &mut out, steps)
        }
        Puzzle::Tour => {
            parse_all(tour::Reader::new(Scanner::new(input)), |r| {
                r.next_case().map(|c| c.is_some())
            })?;
            tour::trace::trace(input, &mut out)
        }
    }
    .map_err(ApiError::from_run)
}

//! `queens --trace`: for each case, the backtracking search for the placements that hold the
//! given queen, step by step, as JSON Lines (the steps and their lines are
//! [`core::trace`](crate::core::trace)'s, each line with its `case`). Its placements are the
//! case's answer, in the judge's order.
//!
//! ```
//! use chess_puzzles::queens::trace;
//!
//! let mut out = Vec::new();
//! trace::trace("1\n1 1\n".as_bytes(), &mut out, 100_000).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.lines().next(), Some(r#"{"case":1,"event":"start","n":8,"given":[[1,1]]}"#));
//! assert_eq!(text.matches(r#""event":"solution""#).count(), 4);
//! ```

use std::io::{Read, Write};
use std::ops::ControlFlow;

use crate::core::CLASSIC;
use crate::core::trace::{self, Line, Step, StoppedBy, Traced};
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};

use super::Reader;

/// Writes the trace of every case of `input` on `out`: per case a `start` line, its steps
/// (numbered from 1 in each case) and an `end` line. At most `max_steps` steps in all: the
/// case the limit cuts ends with `"stopped_by":"steps"`, and the cases after it are not read.
///
/// Fails as [`run`](super::run) does: at the first malformed case (located), or when `out`
/// cannot be written.
pub fn trace<R: Read, W: Write>(input: R, out: &mut W, max_steps: u64) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut used = 0u64;
    let mut case = 0u64;
    while let Some(given) = reader.next_case()? {
        case += 1;
        Line::start(Some(case), CLASSIC, &[given])
            .write(out)
            .map_err(RunError::Output)?;
        let mut failure = None;
        let mut found = 0;
        let traced = trace::trace(CLASSIC, &[given], max_steps - used, |number, step| {
            if let Step::Solution(_) = step {
                found += 1;
            }
            match trace::write_step(out, Some(case), number, &step, found, None, None) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        // A square the reader gave is on the board.
        let traced: Traced = traced.unwrap_or_default();
        if let Some(e) = failure {
            return Err(RunError::Output(e));
        }
        used += traced.steps;
        let stopped_by = traced.step_limit.then_some(StoppedBy::Steps);
        Line::end(Some(case), &traced, stopped_by)
            .write(out)
            .map_err(RunError::Output)?;
        if traced.step_limit {
            break;
        }
    }
    out.flush().map_err(RunError::Output)
}

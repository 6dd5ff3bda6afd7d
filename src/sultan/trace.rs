//! `sultan --trace`: for each board, the backtracking search over every placement of eight
//! queens, step by step, as JSON Lines (the steps and their lines are
//! [`core::trace`](crate::core::trace)'s, each line with its `case`), with the sum of the
//! weights under the queens after each step (`sum`) and, on each placement, the best sum so
//! far (`best`). The `end` line of a whole search carries the board's answer: `best`.
//!
//! ```
//! use chess_puzzles::sultan::trace;
//!
//! let board: String = (1..=64).map(|w| format!("{w} ")).collect();
//! let mut out = Vec::new();
//! trace::trace(format!("1\n{board}").as_bytes(), &mut out, 100_000).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.lines().last().unwrap().contains(r#""best":260"#));
//! ```

use std::io::{Read, Write};
use std::ops::ControlFlow;

use crate::core::CLASSIC;
use crate::core::trace::{self, Line, Step, StoppedBy, Traced};
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};

use super::Reader;

/// Writes the trace of every board of `input` on `out`: per board a `start` line, its steps
/// (numbered from 1 in each board) and an `end` line with the best sum found (`null` if the
/// trace was cut before the first placement). At most `max_steps` steps in all: the board
/// the limit cuts ends with `"stopped_by":"steps"`, and the boards after it are not read.
///
/// Fails as [`run`](super::run) does: at the first malformed board (located), or when `out`
/// cannot be written.
pub fn trace<R: Read, W: Write>(input: R, out: &mut W, max_steps: u64) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut used = 0u64;
    let mut case = 0u64;
    while let Some(board) = reader.next_case()? {
        case += 1;
        Line::start(Some(case), CLASSIC, &[])
            .write(out)
            .map_err(RunError::Output)?;
        let weight = |s: crate::core::Square| {
            u64::from(board.weights[usize::from(s.row)][usize::from(s.col)])
        };
        let mut failure = None;
        let (mut found, mut sum, mut best) = (0, 0u64, None::<u64>);
        let traced = trace::trace(CLASSIC, &[], max_steps - used, |number, step| {
            match step {
                Step::Place(s) => sum += weight(s),
                Step::Remove(s) => sum -= weight(s),
                Step::Solution(_) => {
                    found += 1;
                    best = Some(best.map_or(sum, |b| b.max(sum)));
                }
                Step::Attacked { .. } => {}
            }
            match trace::write_step(out, Some(case), number, &step, found, Some(sum), best) {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        // An empty 8x8 board is always a valid search.
        let traced: Traced = traced.unwrap_or_default();
        if let Some(e) = failure {
            return Err(RunError::Output(e));
        }
        used += traced.steps;
        let stopped_by = traced.step_limit.then_some(StoppedBy::Steps);
        let mut end = Line::end(Some(case), &traced, stopped_by);
        end.best = best;
        end.write(out).map_err(RunError::Output)?;
        if traced.step_limit {
            break;
        }
    }
    out.flush().map_err(RunError::Output)
}

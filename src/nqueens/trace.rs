//! `nqueens list --trace`: the backtracking search for the placements of a [`Problem`], step
//! by step, as JSON Lines (see [`core::trace`](crate::core::trace) for the steps and their
//! lines): a queen placed, a square attacked (and by which queens), a queen removed (a
//! backtrack), a placement found. The web board plays the same lines.
//!
//! ```
//! use chess_puzzles::nqueens::trace::{self, TraceOptions};
//! use chess_puzzles::nqueens::{Control, Problem};
//!
//! let problem = Problem::new(4, &[]).unwrap();
//! let options = TraceOptions { max_steps: 1000, solutions: Some(1) };
//! let mut out = Vec::new();
//! let ended = trace::trace(&problem, &mut out, &options, &Control::new()).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert_eq!(text.lines().next(), Some(r#"{"event":"start","n":4,"given":[]}"#));
//! assert_eq!(text.lines().nth(1), Some(r#"{"step":1,"event":"place","square":[1,1]}"#));
//! assert!(text.contains(r#"{"step":31,"event":"solution","index":1,"rows":[2,4,1,3]}"#));
//! assert_eq!((ended.traced.steps, ended.traced.complete), (31, false));
//! ```

use std::io::{self, Write};
use std::ops::ControlFlow;

use crate::core::trace::{self, Line, Step, StoppedBy, Traced};

use super::{Control, Problem};

/// The steps a trace writes when no limit is given.
pub const DEFAULT_STEPS: u64 = 100_000;

/// How many steps pass between two looks at the [`Control`].
const CHECK_EVERY: u64 = 1 << 10;

/// How [`trace()`] runs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct TraceOptions {
    /// The most steps written (the trace is cut there: the `end` line says so).
    pub max_steps: u64,
    /// Stop after this many placements.
    pub solutions: Option<u64>,
}

impl Default for TraceOptions {
    fn default() -> TraceOptions {
        TraceOptions {
            max_steps: DEFAULT_STEPS,
            solutions: None,
        }
    }
}

/// How a trace ended: its steps and placements, and what stopped it before the end of the
/// search (`None` when it ran to the end).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Ended {
    /// Steps and placements written.
    pub traced: Traced,
    /// The limit that stopped it, if any.
    pub stopped_by: Option<StoppedBy>,
}

/// Writes the trace of `problem`'s search on `out`: a `start` line, one line per step, and an
/// `end` line. Stops at `options.max_steps` steps, after `options.solutions` placements, or
/// within a few milliseconds of `control` saying stop (the lines written stay written, and
/// the `end` line says which stopped it).
pub fn trace<W: Write + ?Sized>(
    problem: &Problem,
    out: &mut W,
    options: &TraceOptions,
    control: &Control,
) -> io::Result<Ended> {
    Line::start(None, problem.n(), problem.given()).write(out)?;
    let mut failure = None;
    let mut stopped_by = None;
    let wanted = options.solutions.unwrap_or(u64::MAX);
    let mut found = 0u64;
    let mut traced = Traced::default();
    if wanted > 0 {
        let result = trace::trace(
            problem.n(),
            problem.given(),
            options.max_steps,
            |number, step| {
                if number % CHECK_EVERY == 0 && control.should_stop() {
                    stopped_by = Some(StoppedBy::Time);
                    return ControlFlow::Break(());
                }
                if let Step::Solution(_) = step {
                    found += 1;
                }
                if let Err(e) = trace::write_step(out, None, number, &step, found, None, None) {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
                if found >= wanted {
                    stopped_by = Some(StoppedBy::Solutions);
                    return ControlFlow::Break(());
                }
                ControlFlow::Continue(())
            },
        );
        // The problem's queens were checked when it was made.
        traced = result.unwrap_or_default();
        if let Some(e) = failure {
            return Err(e);
        }
        if traced.step_limit {
            stopped_by = Some(StoppedBy::Steps);
        }
        if stopped_by == Some(StoppedBy::Time) {
            // The step that saw the clock was not written.
            traced.steps -= 1;
        }
    } else {
        stopped_by = Some(StoppedBy::Solutions);
    }
    Line::end(None, &traced, stopped_by).write(out)?;
    out.flush()?;
    Ok(Ended { traced, stopped_by })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nqueens::Fix;

    fn traced_lines(problem: &Problem, options: &TraceOptions) -> (Vec<serde_json::Value>, Ended) {
        let mut out = Vec::new();
        let ended = trace(problem, &mut out, options, &Control::new()).unwrap();
        let lines = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (lines, ended)
    }

    #[test]
    fn the_solutions_are_the_listing_and_the_end_line_tells_why_it_stopped() {
        let problem = Problem::new(6, &[Fix { row: 2, col: 1 }]).unwrap();
        let mut listed = Vec::new();
        super::super::list(&problem, &mut listed, &Default::default()).unwrap();
        let listed: Vec<Vec<u64>> = String::from_utf8(listed)
            .unwrap()
            .lines()
            .map(|l| l.split(' ').map(|v| v.parse().unwrap()).collect())
            .collect();
        let (lines, ended) = traced_lines(&problem, &TraceOptions::default());
        let solutions: Vec<Vec<u64>> = lines
            .iter()
            .filter(|l| l["event"] == "solution")
            .map(|l| serde_json::from_value(l["rows"].clone()).unwrap())
            .collect();
        assert_eq!(solutions, listed);
        assert_eq!(lines[0]["given"], serde_json::json!([[2, 1]]));
        let end = lines.last().unwrap();
        assert_eq!(end["event"], "end");
        assert_eq!(end["complete"], true);
        assert_eq!(end["stopped_by"], serde_json::Value::Null);
        assert_eq!(end["steps"], ended.traced.steps);
        assert_eq!(lines.len() as u64, ended.traced.steps + 2);

        let (cut, ended) = traced_lines(
            &problem,
            &TraceOptions {
                max_steps: 5,
                solutions: None,
            },
        );
        assert_eq!(cut.len(), 7);
        assert_eq!(cut[6]["stopped_by"], "steps");
        assert_eq!(ended.stopped_by, Some(StoppedBy::Steps));

        let (one, _) = traced_lines(
            &problem,
            &TraceOptions {
                max_steps: 1000,
                solutions: Some(1),
            },
        );
        assert_eq!(one[one.len() - 2]["event"], "solution");
        assert_eq!(one.last().unwrap()["stopped_by"], "solutions");
        let (none, _) = traced_lines(
            &problem,
            &TraceOptions {
                max_steps: 1000,
                solutions: Some(0),
            },
        );
        assert_eq!(none.len(), 2);
    }

    #[test]
    fn a_stopped_control_stops_the_trace() {
        let problem = Problem::new(20, &[]).unwrap();
        let control = Control::new();
        control.stop();
        let mut out = Vec::new();
        let options = TraceOptions {
            max_steps: u64::MAX,
            solutions: None,
        };
        let ended = trace(&problem, &mut out, &options, &control).unwrap();
        assert_eq!(ended.stopped_by, Some(StoppedBy::Time));
        assert_eq!(ended.traced.steps, CHECK_EVERY - 1);
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count() as u64, ended.traced.steps + 2);
    }
}

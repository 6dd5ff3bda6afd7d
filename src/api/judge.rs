//! `POST /api/<puzzle>` for the four judge puzzles (`queens`, `sultan`, `tour`, `showdown`):
//! a judge input answered with exactly what `chess-puzzles <puzzle>` writes for it, in the
//! format of `format` (JSON Lines by default), through the same `run` functions. The whole
//! input is parsed before anything is solved, so that a mistake is a located 400.
//!
//! What differs between them (the query parameters beyond `format`, how long a solve may
//! take, how the input is read and answered) is each one's [`Judge`].

// The solvers' options are built with `..Default::default()` although every field is set
// today, so that a field the command line gains later keeps its default here.
#![allow(clippy::needless_update)]

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use super::error::ApiError;
use super::params::Params;
use super::{GRACE, Limits, Watch, drawn, parse_all};
use crate::error::{InputError, RunError};
use crate::input::{CaseReader, Replay, Scanner};
use crate::output::OutputFormat;
use crate::showdown::Progress;
use crate::{queens, showdown, sultan, tour};

/// The most local-search steps times squares (the sum of n² over the input's boards) that
/// `/api/showdown?steps=` accepts: 20,000 steps on 15 boards of 25x25, the statement's
/// largest input, which take 3.3 s (1.6 s of CPU) on the machine docs/benchmarks.md describes.
pub const MAX_STEP_SQUARES: u64 = 20_000 * 15 * 625;

/// A judge puzzle as its endpoint answers it: its options, read from the query, and the
/// command line's reader and `run` function.
pub trait Judge: Sized + Send + 'static {
    /// Takes the puzzle's own query parameters (those beyond `format`).
    fn options(
        params: &mut Params,
        format: OutputFormat,
        limits: &Limits,
    ) -> Result<Self, ApiError>;

    /// How long the answer may take once a solver is free: the server's time limit.
    fn allowed(&self, limits: &Limits) -> Duration {
        limits.max_time
    }

    /// What [`Judge::check`] keeps of the input for [`Judge::run`]: its cases, read once.
    type Checked: Send;

    /// Parses the whole input (and refuses what the options cannot do on it), before anything
    /// is written.
    fn check(&self, input: &[u8]) -> Result<Self::Checked, ApiError>;

    /// Answers the input as the command line does, from what [`Judge::check`] kept of it.
    fn run<W: Write>(
        self,
        input: &[u8],
        checked: Self::Checked,
        out: &mut W,
    ) -> Result<(), RunError>;
}

/// Every case of an input, read before anything is solved (a bad input is refused with its
/// position before any answer is sent) and kept, so that the answer does not read the input a
/// second time: reading is most of the time of some puzzles (the Sultan's 64 numbers a board).
fn read_cases<C: CaseReader>(reader: Result<C, InputError>) -> Result<Vec<C::Case>, ApiError> {
    let mut cases = Vec::new();
    parse_all(reader, |r| {
        Ok(r.next_case()?.map(|case| cases.push(case)).is_some())
    })?;
    Ok(cases)
}

/// `POST /api/queens`: `uva` answers in UVa 750's format.
pub struct Queens(queens::Options);

impl Judge for Queens {
    fn options(params: &mut Params, format: OutputFormat, _: &Limits) -> Result<Queens, ApiError> {
        let style = if params.flag("uva")? {
            queens::Style::Uva
        } else {
            queens::Style::Statement
        };
        Ok(Queens(queens::Options {
            format,
            style,
            ..queens::Options::default()
        }))
    }

    type Checked = Vec<crate::core::Square>;

    fn check(&self, input: &[u8]) -> Result<Self::Checked, ApiError> {
        read_cases(queens::Reader::new(Scanner::new(input)))
    }

    fn run<W: Write>(self, _: &[u8], cases: Self::Checked, out: &mut W) -> Result<(), RunError> {
        queens::run_cases(Replay::new(cases), out, &self.0)
    }
}

/// `POST /api/sultan`.
pub struct Sultan(sultan::Options);

impl Judge for Sultan {
    fn options(_: &mut Params, format: OutputFormat, _: &Limits) -> Result<Sultan, ApiError> {
        Ok(Sultan(sultan::Options {
            format,
            ..sultan::Options::default()
        }))
    }

    type Checked = Vec<sultan::Board>;

    fn check(&self, input: &[u8]) -> Result<Self::Checked, ApiError> {
        read_cases(sultan::Reader::new(Scanner::new(input)))
    }

    fn run<W: Write>(self, _: &[u8], cases: Self::Checked, out: &mut W) -> Result<(), RunError> {
        sultan::run_cases(Replay::new(cases), out, &self.0)
    }
}

/// `POST /api/tour`.
pub struct Tour(tour::Options);

impl Judge for Tour {
    fn options(_: &mut Params, format: OutputFormat, _: &Limits) -> Result<Tour, ApiError> {
        Ok(Tour(tour::Options {
            format,
            ..tour::Options::default()
        }))
    }

    type Checked = Vec<tour::Scenario>;

    fn check(&self, input: &[u8]) -> Result<Self::Checked, ApiError> {
        read_cases(tour::Reader::new(Scanner::new(input)))
    }

    fn run<W: Write>(self, _: &[u8], cases: Self::Checked, out: &mut W) -> Result<(), RunError> {
        tour::run_cases(Replay::new(cases), out, &self.0)
    }
}

/// `POST /api/showdown`: `time_limit` (the command's default, at most the server's limit),
/// `seed`, `steps` (at most [`MAX_STEP_SQUARES`] steps times squares) and `greedy`, as the
/// command takes them.
pub struct Showdown(showdown::Options, Option<fn(u64, u64)>, Option<Arc<Watch>>);

impl Showdown {
    /// Stopped by `watch`, and telling it the progress.
    pub(super) fn watched(mut self, watch: &Arc<Watch>) -> Showdown {
        self.0.cancel = Some(watch.flag());
        self.2 = Some(watch.clone());
        self
    }

    /// The progress of a run: told to the limits' `progress` and to the watch, if any.
    fn progress(&self) -> Progress {
        let (tell, watch) = (self.1, self.2.clone());
        Progress::observed(move |done, total| {
            if let Some(watch) = &watch {
                watch.tell(done, total);
            }
            if let Some(tell) = tell {
                tell(done, total);
            }
        })
    }
}

impl Judge for Showdown {
    fn options(
        params: &mut Params,
        format: OutputFormat,
        limits: &Limits,
    ) -> Result<Showdown, ApiError> {
        let time_limit =
            params.time_limit(limits.max_time, Some(showdown::DEFAULT_TIME_LIMIT), false)?;
        let seed = params.take::<u64>("seed", "a whole number")?.unwrap_or(0);
        let steps = params.take::<u64>("steps", "a number of local-search steps")?;
        let greedy = params.flag("greedy")?;
        Ok(Showdown(
            showdown::Options {
                format,
                time_limit,
                seed,
                steps,
                greedy,
                ..showdown::Options::default()
            },
            limits.progress,
            None,
        ))
    }

    /// The solve's own time limit, or the server's if longer, and a grace to write its last
    /// answers.
    fn allowed(&self, limits: &Limits) -> Duration {
        self.0.time_limit.max(limits.max_time) + GRACE
    }

    /// Nothing: the showdown's run reads the whole input itself before it solves (a small
    /// part of its time).
    type Checked = ();

    /// Every test read, and a step count refused that the input's squares make too long.
    fn check(&self, input: &[u8]) -> Result<(), ApiError> {
        let mut squares = 0u64;
        parse_all(showdown::Reader::new(Scanner::new(input)), |r| {
            let next = r.next_case()?;
            if let Some(instance) = &next {
                squares += (instance.side() * instance.side()) as u64;
            }
            Ok(next.is_some())
        })?;
        if let Some(steps) = self.0.steps {
            let most = MAX_STEP_SQUARES / squares.max(1);
            if steps > most {
                return Err(ApiError::bad(format!(
                    "steps: expected at most {most} for this input ({squares} squares; the server allows {MAX_STEP_SQUARES} steps times squares), found {steps}"
                )));
            }
        }
        Ok(())
    }

    /// Telling the limits' `progress` and the watch (see [`Showdown::progress`]).
    fn run<W: Write>(self, input: &[u8], _: (), out: &mut W) -> Result<(), RunError> {
        showdown::run_watched(input, out, &self.0, &self.progress()).map(|_| ())
    }
}

/// The most steps a showdown trace of the server holds: each of a test's searches keeps its
/// moves up to this many until its answer is written.
pub const MAX_SHOWDOWN_TRACE_STEPS: u64 = 100_000;

/// `POST /api/showdown/trace`: the run of `/api/showdown` (the same query but `format` and
/// `greedy`) told as `showdown --trace` writes it: per test the lower bound and why, the
/// construction piece by piece, the local search's moves, then the answer. `trace_steps`
/// (default [`showdown::trace::DEFAULT_STEPS`], at most [`MAX_SHOWDOWN_TRACE_STEPS`]) bounds
/// the steps, as `--trace-steps` does. Its options and steps, from the query.
pub(super) fn showdown_trace(
    params: &mut Params,
    limits: &Limits,
) -> Result<(Showdown, u64), ApiError> {
    let puzzle = Showdown::options(params, OutputFormat::Json, limits)?;
    if puzzle.0.greedy {
        return Err(ApiError::bad(
            "greedy: a trace follows the optimiser; it cannot be asked for with greedy",
        ));
    }
    let trace_steps = match params.take::<u64>("trace_steps", "a number of steps")? {
        None => showdown::trace::DEFAULT_STEPS,
        Some(steps) if steps <= MAX_SHOWDOWN_TRACE_STEPS => steps,
        Some(steps) => {
            return Err(ApiError::bad(format!(
                "trace_steps: expected at most {MAX_SHOWDOWN_TRACE_STEPS} (the server's limit on a showdown trace), found {steps}"
            )));
        }
    };
    Ok((puzzle, trace_steps))
}

/// Writes the answer of a judge puzzle: the whole input parsed first, then the command
/// line's answer in `format` (an SVG document of every case for `svg`).
pub(super) fn write<J: Judge>(
    puzzle: J,
    format: OutputFormat,
    input: &[u8],
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let checked = puzzle.check(input)?;
    drawn(out, format == OutputFormat::Svg, |mut out| {
        puzzle
            .run(input, checked, &mut out)
            .map_err(ApiError::from_run)
    })
}

/// Writes the trace of `/api/showdown/trace`.
pub(super) fn write_showdown_trace(
    puzzle: Showdown,
    trace_steps: u64,
    input: &[u8],
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    puzzle.check(input)?;
    let progress = puzzle.progress();
    showdown::trace::trace_watched(input, &mut &mut *out, &puzzle.0, trace_steps, &progress)
        .map(|_| ())
        .map_err(ApiError::from_run)
}

//! The `nqueens` endpoints: `best` answers a weighted-board input as `chess-puzzles nqueens best`
//! does (proven answers only); `count` and `list` take a board from the query (`n`, `fix`)
//! and answer as `nqueens count` and `nqueens list` do; `trace` writes the search of `list`
//! step by step, as `nqueens list --trace` does. Each search stops at its time limit, counted
//! from the moment it starts. (The server's `count/events`, a count's progress as server-sent
//! events, reads its query with [`take_problem`].)

// The solvers' options are built with `..Default::default()` although every field is set
// today, so that a field the command line gains later keeps its default here.
#![allow(clippy::needless_update)]

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use super::error::{ApiError, GATEWAY_TIMEOUT};
use super::params::Params;
use super::{Watch, drawn, parse_all};
use crate::clock::Instant;
use crate::input::{CaseReader, Scanner};
use crate::nqueens::{self, BestOptions, BestReader, BestRun, Control, Fix, ListOptions, Problem};
use crate::output::OutputFormat;

/// `n` and the repeated `fix=ROW,COL` of the counting and listing endpoints.
pub fn take_problem(params: &mut Params) -> Result<Problem, ApiError> {
    let n = params
        .take::<u64>("n", "a board side 1..64")?
        .ok_or_else(|| ApiError::bad("n: expected a board side 1..64, found nothing"))?;
    let fixes = params
        .take_all("fix")
        .iter()
        .map(|f| {
            f.parse::<Fix>()
                .map_err(|e| ApiError::bad(format!("fix: {e}")))
        })
        .collect::<Result<Vec<Fix>, ApiError>>()?;
    Problem::new(n, &fixes).map_err(|e| ApiError::bad(e.to_string()))
}

/// The refusal of a count stopped by its time limit, as the command line says it.
pub fn count_timed_out(control: &Control, started: Instant) -> ApiError {
    let (done, total) = control.progress();
    count_timed_out_after(started.elapsed().as_secs_f64(), done, total)
}

/// [`count_timed_out`] of a count that ran `seconds` and counted `done` of `total` parts (of
/// a count shared by several searches, each with its own [`Control`]: their sums).
pub fn count_timed_out_after(seconds: f64, done: u64, total: u64) -> ApiError {
    ApiError::new(
        GATEWAY_TIMEOUT,
        format!(
            "time limit reached after {seconds:.1} s with {done} of {total} parts of the search counted; no count written"
        ),
    )
}

/// The control of a search of at most `time_limit` from now, stopped also by `watch`.
pub(super) fn control(time_limit: Duration, watch: &Watch) -> Control {
    Control::with_deadline(Instant::now() + time_limit).with_cancel(watch.flag())
}

/// `POST /api/nqueens/best`: every board of the input proven, or a 504; `progress(boards
/// done, boards)` after each board, told to `progress` and to `watch`, if given.
pub(super) fn best(
    format: OutputFormat,
    mut control: Control,
    progress: Option<fn(u64, u64)>,
    watch: Option<&Arc<Watch>>,
    input: &[u8],
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let started = Instant::now();
    if progress.is_some() || watch.is_some() {
        let watch = watch.cloned();
        control = control.with_observer(move |done, total| {
            if let Some(progress) = progress {
                progress(done, total);
            }
            if let Some(watch) = &watch {
                watch.tell(done, total);
            }
        });
    }
    parse_all(BestReader::new(Scanner::new(input)), |r| {
        r.next_case().map(|b| b.is_some())
    })?;
    let options = BestOptions { format };
    let run = drawn(out, format == OutputFormat::Svg, |mut out| {
        nqueens::run_best_watched(input, &mut out, &options, &control).map_err(ApiError::from_run)
    });
    match run {
        Ok(BestRun { unproven: 0, .. }) => Ok(()),
        // The API answers proven bests only: a board the time limit cut short is a
        // time-out, as before the command line answered it with the best found.
        Ok(BestRun { unproven, .. }) => Err(ApiError::new(
            GATEWAY_TIMEOUT,
            format!(
                "time limit reached after {:.1} s with {unproven} board{} not proven",
                started.elapsed().as_secs_f64(),
                if unproven == 1 { "" } else { "s" }
            ),
        )),
        Err(e) => Err(e),
    }
}

/// `GET`/`POST /api/nqueens/count`: the count, or a 504.
pub(super) fn count(
    problem: &Problem,
    format: OutputFormat,
    control: Control,
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let started = Instant::now();
    match nqueens::count(problem, &control) {
        Some(count) => nqueens::write_count(&mut &mut *out, problem, count, format)
            .map_err(|e| ApiError::from_output(&e, "writing the count")),
        None => Err(count_timed_out(&control, started)),
    }
}

/// `GET`/`POST /api/nqueens/list`: the placements, or a 504 once the time limit cut them short.
pub(super) fn list(
    problem: &Problem,
    options: &ListOptions,
    control: Control,
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let listed = drawn(out, options.format == OutputFormat::Svg, |mut out| {
        nqueens::list_until(problem, &mut out, options, &control)
            .map_err(|e| ApiError::from_output(&e, "listing"))
    })?;
    if listed.stopped {
        return Err(ApiError::new(
            GATEWAY_TIMEOUT,
            format!(
                "time limit reached with {} placement{} listed",
                listed.written,
                if listed.written == 1 { "" } else { "s" }
            ),
        ));
    }
    Ok(())
}

/// The options of `/api/nqueens/list`.
pub(super) fn list_options(format: OutputFormat, limit: Option<u64>) -> ListOptions {
    ListOptions {
        format,
        limit,
        ..ListOptions::default()
    }
}

/// `GET`/`POST /api/nqueens/trace`: the search of `list` step by step (`limit` placements at
/// most, `steps` steps at most, see [`super::trace::take_steps`]), as `nqueens list --trace`
/// writes it, or a 504 once the time limit cut it short.
pub(super) fn trace(
    problem: &Problem,
    options: &nqueens::trace::TraceOptions,
    control: Control,
    out: &mut dyn Write,
) -> Result<(), ApiError> {
    let ended = nqueens::trace::trace(problem, out, options, &control)
        .map_err(|e| ApiError::from_output(&e, "tracing"))?;
    if ended.stopped_by == Some(crate::core::trace::StoppedBy::Time) {
        return Err(ApiError::new(
            GATEWAY_TIMEOUT,
            format!(
                "time limit reached with {} steps of the trace written",
                ended.traced.steps
            ),
        ));
    }
    Ok(())
}

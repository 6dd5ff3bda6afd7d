//! The `nqueens` endpoints: `best` answers a weighted-board input as `chess-puzzles nqueens best`
//! does (proven answers only); `count` and `list` take a board from the query (`n`, `fix`)
//! and answer as `nqueens count` and `nqueens list` do; `count/events` reports a count's
//! progress as server-sent events, then its result; `trace` writes the search of `list` step
//! by step, as `nqueens list --trace` does. Each search stops at its time limit.

// The solvers' options are built with `..Default::default()` although every field is set
// today, so that a field the command line gains later keeps its default here.
#![allow(clippy::needless_update)]

use std::io;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State as AxumState;
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::IntoResponse;
use serde::Serialize;
use tokio::sync::OwnedSemaphorePermit;

use super::error::{ApiError, ErrorBody};
use super::handler::{Answer, GRACE, Payload, Shared, State, parse_all};
use super::params::Params;
use super::stream::{drawn, respond};
use crate::input::{CaseReader, Scanner};
use crate::nqueens::{self, BestOptions, BestReader, BestRun, Control, Fix, ListOptions, Problem};
use crate::output::OutputFormat;

/// How often `/api/nqueens/count/events` reports progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// `n` and the repeated `fix=ROW,COL` of the counting and listing endpoints.
fn take_problem(params: &mut Params) -> Result<Problem, ApiError> {
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
fn count_timed_out(control: &Control, started: Instant) -> ApiError {
    let (done, total) = control.progress();
    ApiError::new(
        StatusCode::GATEWAY_TIMEOUT,
        format!(
            "time limit reached after {:.1} s with {done} of {total} parts of the search counted; no count written",
            started.elapsed().as_secs_f64()
        ),
    )
}

/// A solver's place for a search of at most `time_limit`, and the control that stops the
/// search at its limit (counted from the moment the place is free).
async fn solver(
    state: &State,
    time_limit: Duration,
) -> Result<(OwnedSemaphorePermit, Control), ApiError> {
    let permit = state.gate.enter().await?;
    Ok((permit, Control::with_deadline(Instant::now() + time_limit)))
}

/// `POST /api/nqueens/best`: every board of the input proven, or a 504.
pub async fn best(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let (format, content_type) = params.format()?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let started = Instant::now();
    let (permit, control) = solver(&state, time_limit).await?;
    Ok(
        respond(permit, time_limit + GRACE, content_type, move |out| {
            parse_all(BestReader::new(Scanner::new(&body[..])), |r| {
                r.next_case().map(|b| b.is_some())
            })?;
            let options = BestOptions { format };
            let run = drawn(out, format == OutputFormat::Svg, |mut out| {
                nqueens::run_best_watched(&body[..], &mut out, &options, &control)
                    .map_err(ApiError::from_run)
            });
            match run {
                Ok(BestRun { unproven: 0, .. }) => Ok(()),
                // The API answers proven bests only: a board the time limit cut short is a
                // time-out, as before the command line answered it with the best found.
                Ok(BestRun { unproven, .. }) => Err(ApiError::new(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!(
                        "time limit reached after {:.1} s with {unproven} board{} not proven",
                        started.elapsed().as_secs_f64(),
                        if unproven == 1 { "" } else { "s" }
                    ),
                )),
                Err(e) => Err(e),
            }
        })
        .await,
    )
}

/// `GET`/`POST /api/nqueens/count`: the count, or a 504.
pub async fn count(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let problem = take_problem(&mut params)?;
    let (format, content_type) = params.format()?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
    params.finish()?;
    // A body, if any, is not used: read it within the limits all the same.
    body.read(&state.limits).await?;
    let started = Instant::now();
    let (permit, control) = solver(&state, time_limit).await?;
    Ok(respond(
        permit,
        time_limit + GRACE,
        content_type,
        move |out| match nqueens::count(&problem, &control) {
            Some(count) => nqueens::write_count(out, &problem, count, format)
                .map_err(|e| ApiError::from_output(&e, "writing the count")),
            None => Err(count_timed_out(&control, started)),
        },
    )
    .await)
}

/// Stops a count when the request that started it is gone.
struct StopOnDrop(Arc<Control>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The data of a `progress` event: parts of the search done and known, and the seconds since
/// the request.
#[derive(Debug, Serialize)]
struct Progress {
    done: u64,
    total: u64,
    seconds: f64,
}

/// One server-sent event.
fn event(name: &str, data: &str) -> Bytes {
    Bytes::from(format!("event: {name}\ndata: {data}\n\n"))
}

/// `GET /api/nqueens/count/events`: `progress` events every [`PROGRESS_EVERY`], then a
/// `result` (the count's JSON line) or an `error`. A client that goes away stops the count.
pub async fn count_events(AxumState(state): Shared, mut params: Params) -> Answer {
    let problem = take_problem(&mut params)?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
    params.finish()?;
    let started = Instant::now();
    let (permit, control) = solver(&state, time_limit).await?;
    let control = Arc::new(control);
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let worker = {
        let control = control.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            nqueens::count(&problem, &control).map(|count| {
                let mut line = Vec::new();
                // Writing to a Vec cannot fail.
                let _ = nqueens::write_count(&mut line, &problem, count, OutputFormat::Json);
                String::from_utf8_lossy(&line).trim_end().to_string()
            })
        })
    };
    tokio::spawn(async move {
        let stop = StopOnDrop(control.clone());
        let mut worker = worker;
        loop {
            let (done, total) = control.progress();
            let progress = Progress {
                done,
                total,
                seconds: started.elapsed().as_secs_f64(),
            };
            let data = serde_json::to_string(&progress).unwrap_or_default();
            if tx.send(event("progress", &data)).await.is_err() {
                // The client went away: `stop` ends the count.
                return;
            }
            match tokio::time::timeout(PROGRESS_EVERY, &mut worker).await {
                Err(_) => continue,
                Ok(Ok(Some(line))) => {
                    let _ = tx.send(event("result", &line)).await;
                }
                Ok(Ok(None)) => {
                    let e = count_timed_out(&control, started);
                    let data = serde_json::to_string(&e.body).unwrap_or_default();
                    let _ = tx.send(event("error", &data)).await;
                }
                Ok(Err(e)) => {
                    let data = serde_json::to_string(&ErrorBody {
                        error: format!("the count failed: {e}"),
                        line: None,
                        column: None,
                    })
                    .unwrap_or_default();
                    let _ = tx.send(event("error", &data)).await;
                }
            }
            drop(stop);
            return;
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<Bytes, io::Error>(b), rx))
    });
    let mut response = Body::from_stream(stream).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}

/// `GET`/`POST /api/nqueens/list`: the placements, or a 504 once the time limit cut them short.
pub async fn list(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let problem = take_problem(&mut params)?;
    let (format, content_type) = params.format()?;
    let limit = params.take::<u64>("limit", "a number of placements")?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
    params.finish()?;
    body.read(&state.limits).await?;
    let (permit, control) = solver(&state, time_limit).await?;
    Ok(
        respond(permit, time_limit + GRACE, content_type, move |out| {
            let options = ListOptions {
                format,
                limit,
                ..ListOptions::default()
            };
            let listed = drawn(out, format == OutputFormat::Svg, |mut out| {
                nqueens::list_until(&problem, &mut out, &options, &control)
                    .map_err(|e| ApiError::from_output(&e, "listing"))
            })?;
            if listed.stopped {
                return Err(ApiError::new(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!(
                        "time limit reached with {} placement{} listed",
                        listed.written,
                        if listed.written == 1 { "" } else { "s" }
                    ),
                ));
            }
            Ok(())
        })
        .await,
    )
}

/// `GET`/`POST /api/nqueens/trace`: the search of `list` step by step (`limit` placements at
/// most, `steps` steps at most, see [`super::trace::take_steps`]), as `nqueens list --trace`
/// writes it, or a 504 once the time limit cut it short.
pub async fn trace(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let problem = take_problem(&mut params)?;
    let limit = params.take::<u64>("limit", "a number of placements")?;
    let steps = super::trace::take_steps(&mut params)?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
    params.finish()?;
    body.read(&state.limits).await?;
    let (permit, control) = solver(&state, time_limit).await?;
    Ok(respond(
        permit,
        time_limit + GRACE,
        super::stream::JSON_LINES,
        move |out| {
            let options = nqueens::trace::TraceOptions {
                max_steps: steps,
                solutions: limit,
            };
            let ended = nqueens::trace::trace(&problem, out, &options, &control)
                .map_err(|e| ApiError::from_output(&e, "tracing"))?;
            if ended.stopped_by == Some(crate::core::trace::StoppedBy::Time) {
                return Err(ApiError::new(
                    StatusCode::GATEWAY_TIMEOUT,
                    format!(
                        "time limit reached with {} steps of the trace written",
                        ended.traced.steps
                    ),
                ));
            }
            Ok(())
        },
    )
    .await)
}

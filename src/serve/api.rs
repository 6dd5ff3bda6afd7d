//! The JSON API: `POST /api/<puzzle>` with a judge input as the body answers with exactly
//! what `chess-puzzles <puzzle> --format json` writes for it (JSON Lines), through the same
//! `run` functions. `?format=judge` or `?format=board` give the command's other formats.
//!
//! | endpoint | body | query |
//! |---|---|---|
//! | `POST /api/queens` | judge input | `format`, `uva` |
//! | `POST /api/sultan` | judge input | `format` |
//! | `POST /api/tour` | judge input | `format` |
//! | `POST /api/tour/explain` | judge input | |
//! | `POST /api/showdown` | judge input | `format`, `time_limit`, `seed`, `steps`, `greedy` |
//! | `POST /api/showdown/checks` | `{"input": ..., "answers": [[[type, row, col], ...], ...]}` | |
//! | `POST /api/nqueens/best` | `nqueens best` input | `format`, `time_limit` |
//! | `GET`/`POST /api/nqueens/count` | | `n`, `fix` (repeated), `format`, `time_limit` |
//! | `GET /api/nqueens/count/events` | | `n`, `fix`, `time_limit`: progress as server-sent events |
//! | `GET`/`POST /api/nqueens/list` | | `n`, `fix`, `limit`, `format`, `time_limit` |
//!
//! A bad input answers 400 with `{"error": ..., "line": L, "column": C}`: the message, line
//! and column that the command line prints as `error: <path>:L:C: <message>`. Other refusals
//! carry `{"error": ...}` alone: 400 a bad query, 403 another site, 408 a body sent too
//! slowly, 413 a body too large, 503 every solver busy, 504 the server's time limit.

// The solvers' options are built with `..Default::default()` although every field is set
// today, so that a field the command line gains later keeps its default here.
#![allow(clippy::needless_update)]

use std::collections::HashMap;
use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{RawQuery, State as AxumState};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clap::ValueEnum;
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

use super::config::Limits;
use super::error::{ApiError, ErrorBody};
use super::gate::Gate;
use super::params::Params;
use super::stream::{ChunkWriter, respond};
use crate::core::Square;
use crate::core::pieces::attacks;
use crate::error::InputError;
use crate::input::Scanner;
use crate::nqueens::{self, BestReader, BestRun, Control, Fix, ListOptions, Problem};
use crate::output::OutputFormat;
use crate::showdown::{self, Placement, judge, piece_from_number};
use crate::{queens, sultan, tour};

/// The most local-search steps times squares (the sum of n² over the input's boards) that
/// `/api/showdown?steps=` accepts: 20,000 steps on 15 boards of 25x25, the statement's
/// largest input, which take 3.3 s (1.6 s of CPU) on the machine the README describes.
pub const MAX_STEP_SQUARES: u64 = 20_000 * 15 * 625;

/// The most pieces times board sides (over all tests) that `/api/showdown/checks` judges:
/// each piece's attacks cost up to four times the side. 15 answers of 625 pieces on 25x25
/// boards are 234,375.
const MAX_CHECK_WORK: u64 = 4_000_000;

/// How long a solve may go on writing its answer after its own time limit ran out (its
/// last answers, a slow client).
const GRACE: Duration = Duration::from_secs(2);

/// How often `/api/nqueens/count/events` reports progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// The content type of JSON Lines.
const JSON_LINES: &str = "application/x-ndjson";
/// The content type of the judge and board formats.
const TEXT: &str = "text/plain; charset=utf-8";

/// What every handler shares: the limits and the gate in front of the solvers.
#[derive(Debug)]
pub struct State {
    limits: Limits,
    gate: Gate,
}

impl State {
    /// The state of a server with these limits.
    pub fn new(limits: Limits) -> State {
        let gate = Gate::new(limits.solvers, limits.queue, limits.queue_wait);
        State { limits, gate }
    }
}

type Shared = AxumState<Arc<State>>;

/// The API's routes (to be nested under `/api`).
pub fn routes(state: Arc<State>) -> Router {
    Router::new()
        .route("/queens", post(queens_api))
        .route("/sultan", post(sultan_api))
        .route("/tour", post(tour_api))
        .route("/tour/explain", post(tour_explain))
        .route("/showdown", post(showdown_api))
        .route("/showdown/checks", post(showdown_checks))
        .route("/nqueens/best", post(best_api))
        .route("/nqueens/count", get(count_api).post(count_api))
        .route("/nqueens/count/events", get(count_events))
        .route("/nqueens/list", get(list_api).post(list_api))
        .fallback(|| async {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "no such endpoint (the README lists them)",
            )
        })
        .with_state(state)
}

/// Reads a request body of at most `limits.max_body` bytes within `limits.body_timeout`.
async fn read_body(limits: &Limits, headers: &HeaderMap, body: Body) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the body is larger than the server's limit of {} bytes",
                limits.max_body
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limits.max_body as u64) {
        return Err(too_large());
    }
    let read = async {
        let mut data = Vec::new();
        let mut stream = body.into_data_stream();
        while let Some(chunk) = stream.next().await {
            let chunk = chunk.map_err(|e| ApiError::bad(format!("cannot read the body: {e}")))?;
            if data.len() + chunk.len() > limits.max_body {
                return Err(too_large());
            }
            data.extend_from_slice(&chunk);
        }
        Ok(Bytes::from(data))
    };
    tokio::time::timeout(limits.body_timeout, read)
        .await
        .unwrap_or_else(|_| {
            Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body took longer than {} s to arrive",
                    limits.body_timeout.as_secs_f64()
                ),
            ))
        })
}

/// `format`: `json` (the default), `judge` or `board`, and the content type of its answer.
fn take_format(params: &mut Params) -> Result<(OutputFormat, &'static str), ApiError> {
    let format = match params.take::<String>("format", "json, judge or board")? {
        None => OutputFormat::Json,
        Some(name) => OutputFormat::from_str(&name, true).map_err(|_| {
            ApiError::bad(format!(
                "format: expected json, judge or board, found '{name}'"
            ))
        })?,
    };
    let content_type = if format == OutputFormat::Json {
        JSON_LINES
    } else {
        TEXT
    };
    Ok((format, content_type))
}

/// `time_limit` in seconds: at most the server's `max_time`, at least `min` (exclusive when
/// `positive`); the server's `max_time` when absent, or `default` when given.
fn take_time_limit(
    params: &mut Params,
    limits: &Limits,
    default: Option<Duration>,
    positive: bool,
) -> Result<Duration, ApiError> {
    let max = limits.max_time.as_secs_f64();
    let expected = if positive {
        format!("a number of seconds above 0 and at most {max}")
    } else {
        format!("a number of seconds from 0 to {max}")
    };
    match params.take::<f64>("time_limit", &expected)? {
        None => Ok(default.unwrap_or(limits.max_time).min(limits.max_time)),
        Some(s) if s.is_finite() && s <= max && (s > 0.0 || (!positive && s == 0.0)) => {
            Ok(Duration::from_secs_f64(s))
        }
        Some(s) => Err(ApiError::bad(format!(
            "time_limit: expected {expected} (the server's limit), found {s}"
        ))),
    }
}

/// Parses every case of an input before anything is solved, so that a bad input is refused
/// with its position before any answer is sent.
fn parse_all<R>(
    reader: Result<R, InputError>,
    mut next: impl FnMut(&mut R) -> Result<bool, InputError>,
) -> Result<(), ApiError> {
    let mut reader = reader.map_err(ApiError::from_input)?;
    while next(&mut reader).map_err(ApiError::from_input)? {}
    Ok(())
}

async fn queens_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let (format, content_type) = take_format(&mut params)?;
        let style = if params.flag("uva")? {
            queens::Style::Uva
        } else {
            queens::Style::Statement
        };
        params.finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let permit = state.gate.enter().await?;
        let deadline = state.limits.max_time;
        Ok(respond(permit, deadline, content_type, move |out| {
            parse_all(queens::Reader::new(Scanner::new(&body[..])), |r| {
                r.next_query().map(|q| q.is_some())
            })?;
            let options = queens::Options {
                format,
                style,
                ..queens::Options::default()
            };
            queens::run(&body[..], out, options).map_err(ApiError::from_run)
        })
        .await)
    };
    finish(run.await)
}

async fn sultan_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let (format, content_type) = take_format(&mut params)?;
        params.finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let permit = state.gate.enter().await?;
        let deadline = state.limits.max_time;
        Ok(respond(permit, deadline, content_type, move |out| {
            parse_all(sultan::Reader::new(Scanner::new(&body[..])), |r| {
                r.next_board().map(|b| b.is_some())
            })?;
            sultan::run(&body[..], out, format).map_err(ApiError::from_run)
        })
        .await)
    };
    finish(run.await)
}

async fn tour_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let (format, content_type) = take_format(&mut params)?;
        params.finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let permit = state.gate.enter().await?;
        let deadline = state.limits.max_time;
        Ok(respond(permit, deadline, content_type, move |out| {
            parse_all(tour::Reader::new(Scanner::new(&body[..])), |r| {
                r.next_scenario().map(|s| s.is_some())
            })?;
            let options = tour::Options {
                format,
                ..tour::Options::default()
            };
            tour::run(&body[..], out, options).map_err(ApiError::from_run)
        })
        .await)
    };
    finish(run.await)
}

/// One scenario's obstacle for `/api/tour/explain`.
#[derive(Debug, Serialize)]
struct Unreachable {
    /// `knight` or `bishop`.
    piece: &'static str,
    /// Its square, as the judge names it.
    square: String,
}

#[derive(Debug, Serialize)]
struct Explained {
    scenario: u64,
    unreachable: Option<Unreachable>,
}

async fn tour_explain(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        Params::parse(query.as_deref()).finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let permit = state.gate.enter().await?;
        let deadline = state.limits.max_time;
        Ok(respond(permit, deadline, JSON_LINES, move |out| {
            let mut reader =
                tour::Reader::new(Scanner::new(&body[..])).map_err(ApiError::from_input)?;
            let mut lines = Vec::new();
            let mut case = 0;
            while let Some(scenario) = reader.next_scenario().map_err(ApiError::from_input)? {
                case += 1;
                let unreachable = scenario.unreachable_piece().map(|(piece, sq)| Unreachable {
                    piece: if piece == tour::Piece::Knight {
                        "knight"
                    } else {
                        "bishop"
                    },
                    square: tour::square_name(sq),
                });
                serde_json::to_writer(
                    &mut lines,
                    &Explained {
                        scenario: case,
                        unreachable,
                    },
                )
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
                lines.push(b'\n');
            }
            write_all(out, &lines)
        })
        .await)
    };
    finish(run.await)
}

async fn showdown_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let (format, content_type) = take_format(&mut params)?;
        let time_limit = take_time_limit(
            &mut params,
            &state.limits,
            Some(showdown::DEFAULT_TIME_LIMIT),
            false,
        )?;
        let seed = params.take::<u64>("seed", "a whole number")?.unwrap_or(0);
        let steps = params.take::<u64>("steps", "a number of local-search steps")?;
        let greedy = params.flag("greedy")?;
        params.finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let deadline = time_limit.max(state.limits.max_time) + GRACE;
        let permit = state.gate.enter().await?;
        let options = showdown::Options {
            format,
            time_limit,
            seed,
            steps,
            greedy,
            ..showdown::Options::default()
        };
        Ok(respond(permit, deadline, content_type, move |out| {
            let mut squares = 0u64;
            parse_all(showdown::Reader::new(Scanner::new(&body[..])), |r| {
                let next = r.next_instance()?;
                if let Some(instance) = &next {
                    squares += (instance.side() * instance.side()) as u64;
                }
                Ok(next.is_some())
            })?;
            if let Some(steps) = steps {
                let most = MAX_STEP_SQUARES / squares.max(1);
                if steps > most {
                    return Err(ApiError::bad(format!(
                        "steps: expected at most {most} for this input ({squares} squares; the server allows {MAX_STEP_SQUARES} steps times squares), found {steps}"
                    )));
                }
            }
            showdown::run(&body[..], out, &options).map_err(ApiError::from_run)
        })
        .await)
    };
    finish(run.await)
}

/// The body of `/api/showdown/checks`: a judge input and an answer per test, each piece as
/// `[type, row, column]` (the statement's numbers, 1-based).
#[derive(Debug, Deserialize)]
struct ChecksRequest {
    input: String,
    answers: Vec<Vec<[u64; 3]>>,
}

/// One king and the pieces (indices into the answer) that check it.
#[derive(Debug, Serialize)]
struct CheckedKing {
    row: u32,
    col: u32,
    checked_by: Vec<usize>,
}

/// One test's answer judged: valid or why not, its cost, and every king's checkers.
#[derive(Debug, Serialize)]
struct Checked {
    case: u64,
    valid: bool,
    error: Option<String>,
    cost: Option<u64>,
    score: Option<f64>,
    kings: Vec<CheckedKing>,
}

async fn showdown_checks(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        Params::parse(query.as_deref()).finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let request: ChecksRequest = serde_json::from_slice(&body).map_err(|e| {
            ApiError::bad(format!(
                "expected {{\"input\": judge input, \"answers\": [[[type, row, col], ...], ...]}}: {e}"
            ))
        })?;
        let permit = state.gate.enter().await?;
        let deadline = state.limits.max_time;
        Ok(respond(permit, deadline, JSON_LINES, move |out| {
            let lines = judge_answers(&request)?;
            write_all(out, &lines)
        })
        .await)
    };
    finish(run.await)
}

/// Judges each answer of a `/api/showdown/checks` request with [`judge::verify`] and finds the
/// checkers of every king.
fn judge_answers(request: &ChecksRequest) -> Result<Vec<u8>, ApiError> {
    let mut reader = showdown::Reader::new(Scanner::new(request.input.as_bytes()))
        .map_err(ApiError::from_input)?;
    let mut lines = Vec::new();
    let mut case = 0usize;
    let mut work = 0u64;
    while let Some(instance) = reader.next_instance().map_err(ApiError::from_input)? {
        let answer = request.answers.get(case).map_or(&[][..], Vec::as_slice);
        case += 1;
        let n = instance.side() as u64;
        let mut pieces = Vec::with_capacity(answer.len());
        let mut error = None;
        for (i, &[number, row, col]) in answer.iter().enumerate() {
            let kind = piece_from_number(number);
            match kind {
                Some(kind) if (1..=n).contains(&row) && (1..=n).contains(&col) => {
                    pieces.push(Placement {
                        kind,
                        square: Square::new((row - 1) as u8, (col - 1) as u8),
                    });
                }
                _ => {
                    error = Some(format!(
                        "piece {} of {}: expected a type 1..8 on rows and columns 1..{n}, found [{number}, {row}, {col}]",
                        i + 1,
                        answer.len()
                    ));
                    break;
                }
            }
        }
        work += pieces.len() as u64 * n;
        if work > MAX_CHECK_WORK {
            return Err(ApiError::bad(format!(
                "answers: expected at most {MAX_CHECK_WORK} pieces times board sides in all, found more by test {case}"
            )));
        }
        let verdict = match &error {
            Some(_) => None,
            None => Some(judge::verify(&instance, &pieces)),
        };
        let mut occupied = instance.kings().clone();
        for p in &pieces {
            occupied.insert(p.square);
        }
        let mut kings: Vec<CheckedKing> = instance
            .kings()
            .iter()
            .map(|k| CheckedKing {
                row: u32::from(k.row) + 1,
                col: u32::from(k.col) + 1,
                checked_by: Vec::new(),
            })
            .collect();
        let order: HashMap<Square, usize> = instance
            .kings()
            .iter()
            .enumerate()
            .map(|(i, k)| (k, i))
            .collect();
        for (i, p) in pieces.iter().enumerate() {
            for k in attacks(p.kind, p.square, &occupied).iter() {
                if let Some(&king) = order.get(&k) {
                    kings[king].checked_by.push(i);
                }
            }
        }
        let (valid, cost) = match verdict {
            Some(Ok(cost)) => (true, Some(cost)),
            Some(Err(rejection)) => {
                error = Some(rejection.to_string());
                (false, None)
            }
            None => (false, None),
        };
        let checked = Checked {
            case: case as u64,
            valid,
            error,
            cost,
            score: cost.map(|c| showdown::score(c, instance.side())),
            kings,
        };
        serde_json::to_writer(&mut lines, &checked)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
        lines.push(b'\n');
    }
    if request.answers.len() > case {
        return Err(ApiError::bad(format!(
            "answers: expected one per test ({case}), found {}",
            request.answers.len()
        )));
    }
    Ok(lines)
}

async fn best_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let (format, content_type) = take_format(&mut params)?;
        let time_limit = take_time_limit(&mut params, &state.limits, None, true)?;
        params.finish()?;
        let body = read_body(&state.limits, &headers, body).await?;
        let started = Instant::now();
        let permit = state.gate.enter().await?;
        let control = Control::with_deadline(Instant::now() + time_limit);
        let deadline = time_limit + GRACE;
        Ok(respond(permit, deadline, content_type, move |out| {
            parse_all(BestReader::new(Scanner::new(&body[..])), |r| {
                r.next_board().map(|b| b.is_some())
            })?;
            match nqueens::run_best(&body[..], out, format, &control) {
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
                Err(e) => Err(ApiError::from_run(e)),
            }
        })
        .await)
    };
    finish(run.await)
}

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

async fn count_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let problem = take_problem(&mut params)?;
        let (format, content_type) = take_format(&mut params)?;
        let time_limit = take_time_limit(&mut params, &state.limits, None, true)?;
        params.finish()?;
        // A body, if any, is not used: read it within the limits all the same.
        read_body(&state.limits, &headers, body).await?;
        let started = Instant::now();
        let permit = state.gate.enter().await?;
        let control = Control::with_deadline(Instant::now() + time_limit);
        let deadline = time_limit + GRACE;
        Ok(respond(
            permit,
            deadline,
            content_type,
            move |out| match nqueens::count(&problem, &control) {
                Some(count) => nqueens::write_count(out, &problem, count, format)
                    .map_err(|e| ApiError::from_output(&e, "writing the count")),
                None => Err(count_timed_out(&control, started)),
            },
        )
        .await)
    };
    finish(run.await)
}

/// Stops a count when the request that started it is gone.
struct StopOnDrop(Arc<Control>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

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

async fn count_events(AxumState(state): Shared, RawQuery(query): RawQuery) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let problem = take_problem(&mut params)?;
        let time_limit = take_time_limit(&mut params, &state.limits, None, true)?;
        params.finish()?;
        let started = Instant::now();
        let permit = state.gate.enter().await?;
        let control = Arc::new(Control::with_deadline(Instant::now() + time_limit));
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
    };
    finish(run.await)
}

async fn list_api(
    AxumState(state): Shared,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let run = async {
        let mut params = Params::parse(query.as_deref());
        let problem = take_problem(&mut params)?;
        let (format, content_type) = take_format(&mut params)?;
        let limit = params.take::<u64>("limit", "a number of placements")?;
        let time_limit = take_time_limit(&mut params, &state.limits, None, true)?;
        params.finish()?;
        read_body(&state.limits, &headers, body).await?;
        let permit = state.gate.enter().await?;
        let control = Control::with_deadline(Instant::now() + time_limit);
        let deadline = time_limit + GRACE;
        Ok(respond(permit, deadline, content_type, move |out| {
            let options = ListOptions {
                format,
                limit,
                ..ListOptions::default()
            };
            let listed = nqueens::list_until(&problem, out, &options, &control)
                .map_err(|e| ApiError::from_output(&e, "listing"))?;
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
        .await)
    };
    finish(run.await)
}

fn write_all(out: &mut ChunkWriter, bytes: &[u8]) -> Result<(), ApiError> {
    out.write_all(bytes)
        .map_err(|e| ApiError::from_output(&e, "writing the answer"))
}

fn finish(result: Result<Response, ApiError>) -> Response {
    let mut response = result.unwrap_or_else(IntoResponse::into_response);
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

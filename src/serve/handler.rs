//! What every handler of the API is made of: the server's state (its limits and the gate in
//! front of the solvers), the request's body read within the limits, an input parsed whole
//! before it is solved, and answers made of JSON lines.
//!
//! A handler takes [`Shared`], the query's [`Params`](super::params::Params) and the body
//! ([`Payload`]), and gives an [`Answer`]: a response, or a refusal. Neither is ever cached:
//! [`respond`], [`ApiError`] and the progress events each say `Cache-Control: no-store`.

use std::convert::Infallible;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request, State as AxumState};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderMap};
use axum::response::Response;
use futures_util::StreamExt;
use serde::Serialize;

use super::config::Limits;
use super::error::ApiError;
use super::gate::Gate;
use super::stream::{JSON_LINES, respond};
use crate::error::InputError;

/// How long a solve may go on writing its answer after its own time limit ran out (its
/// last answers, a slow client).
pub const GRACE: Duration = Duration::from_secs(2);

/// What every handler shares: the limits and the gate in front of the solvers.
#[derive(Debug)]
pub struct State {
    /// The limits of every request.
    pub limits: Limits,
    /// The gate in front of the solvers.
    pub gate: Gate,
}

impl State {
    /// The state of a server with these limits.
    pub fn new(limits: Limits) -> State {
        let gate = Gate::new(limits.solvers, limits.queue, limits.queue_wait);
        State { limits, gate }
    }
}

/// The state as a handler takes it.
pub type Shared = AxumState<Arc<State>>;

/// What a handler gives: its response, or the refusal that takes its place.
pub type Answer = Result<Response, ApiError>;

/// A request's body, not read yet, and the headers that say how long it is.
#[derive(Debug)]
pub struct Payload {
    headers: HeaderMap,
    body: Body,
}

/// The body as it comes: it is read (or refused) only when the handler asks, after its
/// parameters.
impl<S: Send + Sync> FromRequest<S> for Payload {
    type Rejection = Infallible;

    async fn from_request(request: Request, _: &S) -> Result<Payload, Infallible> {
        let (parts, body) = request.into_parts();
        Ok(Payload {
            headers: parts.headers,
            body,
        })
    }
}

impl Payload {
    /// Reads the body: at most `limits.max_body` bytes within `limits.body_timeout`.
    pub async fn read(self, limits: &Limits) -> Result<Bytes, ApiError> {
        let too_large = || {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the body is larger than the server's limit of {} bytes",
                    limits.max_body
                ),
            )
        };
        let declared = self
            .headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > limits.max_body as u64) {
            return Err(too_large());
        }
        let read = async {
            let mut data = Vec::new();
            let mut stream = self.body.into_data_stream();
            while let Some(chunk) = stream.next().await {
                let chunk =
                    chunk.map_err(|e| ApiError::bad(format!("cannot read the body: {e}")))?;
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
}

/// Parses every case of an input before anything is solved, so that a bad input is refused
/// with its position before any answer is sent.
pub fn parse_all<R>(
    reader: Result<R, InputError>,
    mut next: impl FnMut(&mut R) -> Result<bool, InputError>,
) -> Result<(), ApiError> {
    let mut reader = reader.map_err(ApiError::from_input)?;
    while next(&mut reader).map_err(ApiError::from_input)? {}
    Ok(())
}

/// Appends `value` to `lines` as one line of JSON.
pub fn push_json_line(lines: &mut Vec<u8>, value: &impl Serialize) -> Result<(), ApiError> {
    serde_json::to_writer(&mut *lines, value)
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    lines.push(b'\n');
    Ok(())
}

/// Answers with the JSON lines that `lines` makes on a solver (within the server's time
/// limit), all of them or its refusal.
pub async fn json_lines(
    state: &State,
    lines: impl FnOnce() -> Result<Vec<u8>, ApiError> + Send + 'static,
) -> Answer {
    let permit = state.gate.enter().await?;
    let deadline = state.limits.max_time;
    Ok(respond(permit, deadline, JSON_LINES, move |out| {
        out.write_all(&lines()?)
            .map_err(|e| ApiError::from_output(&e, "writing the answer"))
    })
    .await)
}

//! What every handler of the API is made of: the server's state (its limits and the gate in
//! front of the solvers), the request's body read within the limits, and [`call`], which
//! answers every endpoint with the transport-free API ([`crate::api`]).
//!
//! A handler takes [`Shared`], the query and the body ([`Payload`]), and gives an [`Answer`]:
//! a response, or a refusal. Neither is ever cached: [`respond`], [`ApiError`] and the
//! progress events each say `Cache-Control: no-store`.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request, State as AxumState};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderMap};
use axum::response::Response;
use futures_util::StreamExt;

use super::config::Limits;
use super::error::{ApiError, refusal};
use super::gate::Gate;
use super::stream::respond;
use crate::api::{self, Endpoint};

/// What every handler shares: the limits and the gate in front of the solvers.
#[derive(Debug)]
pub struct State {
    /// The limits of every request.
    pub limits: Limits,
    /// The gate in front of the solvers.
    pub gate: Gate,
    /// What the API allows each request (from `limits`).
    pub api: api::Limits,
}

impl State {
    /// The state of a server with these limits.
    pub fn new(limits: Limits) -> State {
        let gate = Gate::new(limits.solvers, limits.queue, limits.queue_wait);
        let api = api::Limits {
            max_time: limits.max_time,
            ..api::Limits::default()
        };
        State { limits, gate, api }
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
            refusal(
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
                Err(refusal(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the body took longer than {} s to arrive",
                        limits.body_timeout.as_secs_f64()
                    ),
                ))
            })
    }
}

/// The handler of every endpoint of the API ([`crate::api`]): the query read, then the body
/// (within the limits), a solver, and the answer streamed as the API writes it.
pub async fn call(
    endpoint: Endpoint,
    AxumState(state): Shared,
    query: Option<String>,
    body: Payload,
) -> Answer {
    let call = endpoint.prepare(query.as_deref(), &state.api)?;
    let body = body.read(&state.limits).await?;
    let ready = call.with_body(body.into())?;
    let permit = state.gate.enter().await?;
    let (allowed, content_type) = (ready.allowed(), ready.content_type());
    let watch = Arc::new(api::Watch::default());
    let solving = watch.clone();
    Ok(respond(permit, allowed, content_type, watch, move |out| {
        ready.write_watched(out, &solving)
    })
    .await)
}

//! `POST /api/showdown/events`, `/api/showdown/trace/events` and `/api/nqueens/best/events`: an
//! optimiser's answer with its progress, as server-sent events. The request is the endpoint's
//! own (the same query and body, answered by the same API, [`crate::api`]); the answer comes as
//!
//! - `progress` events, every [`PROGRESS_EVERY`]: `{"done": D, "total": T, "seconds": S}`, the
//!   progress the API tells (`api::Limits::progress`: with `steps`, the showdown optimiser's
//!   local-search steps made out of those it will make; `0, 0` while nothing is known) and the
//!   seconds since the request;
//! - then `result`: the endpoint's answer, byte for byte, one `data:` line per line of it (a
//!   client joins them with newlines, as server-sent events say, which gives the answer back
//!   with its final newline), or `error`: the refusal's JSON with its `status` added.
//!
//! Each progress event is also how the server learns that its client went away: a write to a
//! closed connection fails, and the solve is stopped then ([`StopOnDrop`]), its solver free
//! again. (A plain request notices a closed connection only when its answer is written: a
//! client may half-close its connection and still wait for the answer, which the server
//! cannot tell from a client gone until it writes.)

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::State as AxumState;
use axum::http::header::{self, HeaderValue};
use axum::response::IntoResponse;
use serde::Serialize;

use super::handler::{Answer, Payload, Shared};
use super::stream::StopOnDrop;
use crate::api::{self, ApiError, Endpoint, Watch};
use crate::clock::Instant;

/// How often the events report progress.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How long after its time limit a solve's answer is still awaited.
const LATE: Duration = Duration::from_secs(1);

/// The endpoints answered with events too, at their route followed by `/events`.
pub const WITH_EVENTS: [Endpoint; 3] = [
    Endpoint::Showdown,
    Endpoint::ShowdownTrace,
    Endpoint::NqueensBest,
];

/// The data of a `progress` event.
#[derive(Debug, Serialize)]
struct Progress {
    done: u64,
    total: u64,
    seconds: f64,
}

/// The data of an `error` event: the refusal's JSON and its status.
#[derive(Debug, Serialize)]
struct Refusal<'a> {
    status: u16,
    #[serde(flatten)]
    body: &'a api::ErrorBody,
}

/// One server-sent event whose data is `data`, a `data:` line for each of its lines.
fn event(name: &str, data: &str) -> Bytes {
    let mut text = format!("event: {name}\n");
    for line in data.split('\n') {
        text.push_str("data: ");
        text.push_str(line);
        text.push('\n');
    }
    text.push('\n');
    Bytes::from(text)
}

fn refused(e: &ApiError) -> Bytes {
    let data = serde_json::to_string(&Refusal {
        status: e.status,
        body: &e.body,
    })
    .unwrap_or_default();
    event("error", &data)
}

/// `POST <route>/events` of `endpoint`: see the [module docs](self).
pub async fn answer(
    endpoint: Endpoint,
    AxumState(state): Shared,
    query: Option<String>,
    body: Payload,
) -> Answer {
    let call = endpoint.prepare(query.as_deref(), &state.api)?;
    let body = body.read(&state.limits).await?;
    let ready = call.with_body(body.into())?;
    let started = Instant::now();
    let permit = state.gate.enter().await?;
    let allowed = ready.allowed();
    let watch = Arc::new(Watch::default());
    let mut worker = {
        let watch = watch.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let mut out = Vec::new();
            ready.write_watched(&mut out, &watch).map(|()| out)
        })
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    tokio::spawn(async move {
        // Dropped when this task ends: the client gone, the answer sent or refused.
        let _stop = StopOnDrop(watch.clone());
        let solving = Instant::now();
        loop {
            let (done, total) = watch.progress();
            let progress = Progress {
                done,
                total,
                seconds: started.elapsed().as_secs_f64(),
            };
            let data = serde_json::to_string(&progress).unwrap_or_default();
            if tx.send(event("progress", &data)).await.is_err() {
                // The client went away: `_stop` ends the solve.
                return;
            }
            let last = match tokio::time::timeout(PROGRESS_EVERY, &mut worker).await {
                Err(_) if solving.elapsed() < allowed + LATE => continue,
                Err(_) => refused(&ApiError::new(
                    api::error::GATEWAY_TIMEOUT,
                    format!(
                        "no answer within the server's time limit of {:.1} s",
                        allowed.as_secs_f64()
                    ),
                )),
                Ok(Ok(Ok(answer))) => event("result", &String::from_utf8_lossy(&answer)),
                Ok(Ok(Err(e))) => refused(&e),
                Ok(Err(e)) => refused(&ApiError::new(
                    api::error::INTERNAL_SERVER_ERROR,
                    format!("the solve failed: {e}"),
                )),
            };
            let _ = tx.send(last).await;
            return;
        }
    });
    Ok(event_stream(rx))
}

/// The response of server-sent events: the events `rx` gives, sent as they come, never cached.
pub(super) fn event_stream(rx: tokio::sync::mpsc::Receiver<Bytes>) -> axum::response::Response {
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
    response
}

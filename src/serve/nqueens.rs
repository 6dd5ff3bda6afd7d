//! `GET /api/nqueens/count/events`: a count's progress as server-sent events, then its result.
//! The other `nqueens` endpoints are the API's ([`crate::api`]); this one streams, so it is
//! the server's own, with the API's parameters (`n`, `fix`, `time_limit`).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{RawQuery, State as AxumState};
use serde::Serialize;

use super::handler::{Answer, Shared};
use crate::api::ErrorBody;
use crate::api::{Params, count_timed_out, take_problem};
use crate::clock::Instant;
use crate::nqueens::{self, Control};
use crate::output::OutputFormat;

/// How often `/api/nqueens/count/events` reports progress.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

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
pub async fn count_events(AxumState(state): Shared, RawQuery(query): RawQuery) -> Answer {
    let mut params = Params::parse(query.as_deref());
    let problem = take_problem(&mut params)?;
    let time_limit = params.time_limit(state.limits.max_time, None, true)?;
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
    Ok(super::events::event_stream(rx))
}

//! Running a solve on the blocking pool and streaming what it writes.
//!
//! The solve writes into a [`ChunkWriter`], which hands chunks of [`CHUNK`] bytes to the
//! answer's body through a channel of two chunks: a client that reads slowly slows the solve
//! down instead of filling memory. The status is decided by the first message: an error
//! before any output becomes its own status and JSON body; output becomes a 200 whose body
//! streams. The handlers parse an input whole before they solve anything, so a bad input is
//! always a 400; only a time limit or an internal failure can meet an answer that has
//! started, and then the body is cut off (the client sees a broken transfer, never a short
//! answer that looks complete). No answer is cached.
//!
//! A client that goes away stops its solve: the wait for the first message and then the body
//! hold a [`StopOnDrop`] of the solve's [`Watch`], which raises its flag when the server drops
//! them (the connection closed), and every search looks at that flag as at its clock, so that
//! the solver's permit comes back at once rather than at the time limit.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use tokio::runtime::Handle;
use tokio::sync::{OwnedSemaphorePermit, mpsc};

use super::error::ApiError;
use crate::api::Watch;

/// The bytes a solve writes before they are sent on.
pub const CHUNK: usize = 256 * 1024;

/// How long after its deadline a solve's first message is still awaited.
const LATE: Duration = Duration::from_secs(1);

/// What a solve sends to its answer.
#[derive(Debug)]
pub enum Message {
    /// More of the body.
    Data(Bytes),
    /// The solve failed.
    Fail(ApiError),
}

/// A writer for a solve on the blocking pool: buffers [`CHUNK`] bytes, then sends them,
/// waiting for the client at most until the deadline. Every write after the deadline fails
/// with [`io::ErrorKind::TimedOut`], a client gone with [`io::ErrorKind::BrokenPipe`].
pub struct ChunkWriter {
    tx: mpsc::Sender<Message>,
    buffer: Vec<u8>,
    deadline: Instant,
    runtime: Handle,
}

impl ChunkWriter {
    fn new(tx: mpsc::Sender<Message>, deadline: Instant, runtime: Handle) -> ChunkWriter {
        ChunkWriter {
            tx,
            buffer: Vec::new(),
            deadline,
            runtime,
        }
    }

    /// Fails once the deadline has passed.
    pub fn check_time(&self) -> io::Result<()> {
        if Instant::now() >= self.deadline {
            Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the server's time limit was reached",
            ))
        } else {
            Ok(())
        }
    }

    fn send(&mut self) -> io::Result<()> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = Bytes::from(std::mem::take(&mut self.buffer));
        let left = self.deadline.saturating_duration_since(Instant::now());
        let tx = self.tx.clone();
        let sent = self.runtime.block_on(async move {
            tokio::time::timeout(left, tx.send(Message::Data(chunk))).await
        });
        match sent {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the client went away",
            )),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client did not read the answer within the server's time limit",
            )),
        }
    }
}

impl Write for ChunkWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.check_time()?;
        self.buffer.extend_from_slice(data);
        if self.buffer.len() >= CHUNK {
            self.send()?;
        }
        Ok(data.len())
    }

    /// Keeps the bytes: they are sent a chunk at a time or at the end, so that a failure
    /// before [`CHUNK`] bytes can still become a proper status.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Stops a solve ([`Watch::stop`]) when dropped: held by whatever waits for the solve's
/// answer on behalf of its client, which the server drops when the client goes away.
pub struct StopOnDrop(pub Arc<Watch>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Runs `work` on the blocking pool while `permit` is held, with writes allowed for `allowed`
/// from now, and answers with what it writes (as `content_type`, never to be cached) or with
/// its error. `watch` is stopped when the answer is no longer wanted: the client gone before
/// the first message or while the body streams, the first message late (a 504), or the body
/// sent whole.
pub async fn respond(
    permit: OwnedSemaphorePermit,
    allowed: Duration,
    content_type: &'static str,
    watch: Arc<Watch>,
    work: impl FnOnce(&mut ChunkWriter) -> Result<(), ApiError> + Send + 'static,
) -> Response {
    let stop = StopOnDrop(watch);
    let deadline = Instant::now() + allowed;
    let (tx, mut rx) = mpsc::channel::<Message>(2);
    let runtime = Handle::current();
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let mut writer = ChunkWriter::new(tx.clone(), deadline, runtime);
        let result = work(&mut writer).and_then(|()| {
            writer
                .send()
                .map_err(|e| ApiError::from_output(&e, "writing the answer"))
        });
        if let Err(e) = result {
            let _ = tx.blocking_send(Message::Fail(e));
        }
    });
    // A solve that overruns (showdown's steps are bounded by its own time limit) gets its
    // answer refused in time, and `stop` (dropped with this future) ends it.
    let first = match tokio::time::timeout(allowed + LATE, rx.recv()).await {
        Err(_) => {
            return super::error::refusal(
                StatusCode::GATEWAY_TIMEOUT,
                format!(
                    "no answer within the server's time limit of {:.1} s",
                    allowed.as_secs_f64()
                ),
            )
            .into_response();
        }
        Ok(first) => first,
    };
    let first = match first {
        None => Bytes::new(),
        Some(Message::Fail(e)) => return e.into_response(),
        Some(Message::Data(bytes)) => bytes,
    };
    // The body holds `stop`: dropped, it stops the solve.
    let rest = futures_util::stream::unfold((rx, stop), |(mut rx, stop)| async move {
        let item = match rx.recv().await? {
            Message::Data(bytes) => Ok(bytes),
            Message::Fail(e) => Err(io::Error::other(e.body.error)),
        };
        Some((item, (rx, stop)))
    });
    let body = futures_util::stream::once(async move { Ok::<Bytes, io::Error>(first) }).chain(rest);
    let mut response = Body::from_stream(body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

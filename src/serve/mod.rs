//! `chess-puzzles serve`: a local web board for every puzzle and the JSON API behind it.
//!
//! The page (HTML, CSS, plain ES modules drawing SVG boards) is embedded in the binary
//! ([`assets`]) and needs nothing from the network. The API (under `/api`, every route in
//! [`router`]) answers a judge input with exactly the JSON Lines that
//! `chess-puzzles <puzzle> --format json` writes for it, through the same `run` functions as
//! the command line.
//!
//! A server on a shared machine must not be a way to exhaust it, so every request passes
//! through the same limits ([`Limits`]): bodies are capped; solves run on tokio's blocking pool
//! behind a gate of one solver per core with a short bounded queue (the rest are answered
//! 503); every solve has a server-side time limit (504 past it); the page's origin is the only
//! one allowed to call the API, and only under the Host names the server was bound to
//! ([`guard`]).
//!
//! ```no_run
//! use chess_puzzles::serve::{self, Config};
//!
//! // Serves on 127.0.0.1:8080 (or the next free port) until Ctrl-C.
//! serve::run(Config::default(), |url| println!("{url}")).unwrap();
//! ```

pub mod assets;
mod config;
mod error;
mod events;
mod gate;
pub mod guard;
mod handler;
mod in_process;
mod nqueens;
mod routes;
mod stream;
/// The traces' limits, now the API's ([`crate::api::trace`]).
pub use crate::api::trace;

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;

pub use config::{Config, DEFAULT_PORT, Limits, PORTS_TRIED};
pub use in_process::{Answered, InProcess};
pub use routes::router;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// No port could be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The last address tried.
        address: SocketAddr,
        /// Why binding failed.
        source: io::Error,
    },
    /// Every port of the range was taken.
    #[error("ports {first} to {last} on {ip} are all taken")]
    NoFreePort {
        /// The address.
        ip: IpAddr,
        /// The first port tried.
        first: u16,
        /// The last port tried.
        last: u16,
    },
    /// The runtime could not be started, or serving failed.
    #[error("the server failed: {0}")]
    Io(#[from] io::Error),
}

/// Binds `ip:port`, or the next free port of the [`PORTS_TRIED`] that follow it when it is
/// taken (port 0: one the system chooses).
pub async fn bind(ip: IpAddr, port: u16) -> Result<TcpListener, ServeError> {
    let last = port.saturating_add(PORTS_TRIED - 1);
    let ports = if port == 0 { 0..=0 } else { port..=last };
    for p in ports {
        let address = SocketAddr::new(ip, p);
        match TcpListener::bind(address).await {
            Ok(listener) => return Ok(listener),
            Err(e) if e.kind() == io::ErrorKind::AddrInUse && port != 0 => continue,
            Err(source) => return Err(ServeError::Bind { address, source }),
        }
    }
    Err(ServeError::NoFreePort {
        ip,
        first: port,
        last,
    })
}

/// Serves on `listener` until `shutdown` completes, then lets the requests under way finish
/// (at most `limits.max_time` and a little more).
///
/// Each connection is served by hyper's HTTP/1 with the limits axum's own `serve` does not
/// set: the headers of a request must arrive within `limits.header_timeout` (also the
/// longest an idle kept-alive connection is kept), a client may half-close its connection
/// once its request is sent and still get the answer, and at most `limits.max_connections`
/// are open at once (the others wait in the listening socket's queue: file descriptors are
/// never exhausted).
pub async fn serve(
    listener: TcpListener,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::server::graceful::GracefulShutdown;
    use hyper_util::service::TowerToHyperService;

    let local = listener.local_addr()?;
    let grace = limits.max_time + Duration::from_secs(2);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .half_close(true)
        .keep_alive(true);
    let slots = Arc::new(tokio::sync::Semaphore::new(limits.max_connections.max(1)));
    let app = router(limits, local);
    let connections = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // A slot first: beyond the cap, connections are not accepted (they wait in the
        // listening socket's queue), so no file descriptor is taken for them.
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot,
            () = &mut shutdown => break,
        };
        let Ok(slot) = slot else { break };
        let stream = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let stream = match stream {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors or memory for a moment, or a connection reset
                // before it was accepted: try again shortly rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        let connection = connections.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            // A connection that fails (a timeout, a client gone) ends like one that closes.
            let _ = connection.await;
            drop(slot);
        });
    }
    // No more connections; those open finish their requests (idle ones close at once), for
    // `grace` at most: a client that never reads its answer must not keep the server up.
    drop(listener);
    let _ = tokio::time::timeout(grace, connections.shutdown()).await;
    Ok(())
}

/// Starts a runtime, binds `config`'s address (see [`bind`]), calls `ready` with the page's
/// URL, and serves until Ctrl-C.
pub fn run(config: Config, ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = bind(config.bind, config.port).await?;
        let local = listener.local_addr()?;
        ready(&url(local));
        let ctrl_c = async {
            // If the signal cannot be watched the server runs until it is killed.
            if tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        serve(listener, config.limits, ctrl_c).await?;
        Ok(())
    })
}

/// The page's address for a server listening on `local`.
pub fn url(local: SocketAddr) -> String {
    format!("http://{local}/")
}

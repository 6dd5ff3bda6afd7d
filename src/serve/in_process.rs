//! The whole application of [`router`] (guards, routes, limits, solvers) answering requests
//! in this process, without a socket: for tests and for the `serve` fuzz target
//! (`fuzz/harness.rs`), which sends it arbitrary query strings, headers and bodies.
//!
//! ```
//! use chess_puzzles::serve::{InProcess, Limits};
//!
//! let server = InProcess::new(Limits::default()).unwrap();
//! let host = server.host().to_string();
//! let headers = [(&b"host"[..], host.as_bytes())];
//! let answer = server.request(b"GET", b"/api/nqueens/count?n=8", &headers, Vec::new()).unwrap();
//! assert_eq!(answer.status, 200);
//! assert_eq!(answer.body, b"{\"n\":8,\"given\":[],\"count\":92}\n");
//! ```

use std::io;
use std::net::{Ipv4Addr, SocketAddr};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request, Uri};
use hyper::service::Service;
use hyper_util::service::TowerToHyperService;

use super::config::{DEFAULT_PORT, Limits};
use super::routes::router;

/// The application and a runtime of its own. See the module docs.
pub struct InProcess {
    runtime: tokio::runtime::Runtime,
    app: Router,
    host: String,
}

/// What [`InProcess::request`] answered.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Answered {
    /// The HTTP status.
    pub status: u16,
    /// The headers, names in lower case.
    pub headers: Vec<(String, Vec<u8>)>,
    /// The body, whole unless `cut`.
    pub body: Vec<u8>,
    /// The body's stream broke off (an answer streamed past its time limit is cut off, so
    /// that a client never takes a short answer for a whole one); `body` is then empty.
    pub cut: bool,
}

impl Answered {
    /// The value of header `name` (lower case), if any.
    pub fn header(&self, name: &str) -> Option<&[u8]> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

impl InProcess {
    /// The application of a server with `limits` listening on 127.0.0.1:8080 (the address
    /// decides which Host names it accepts: [`InProcess::host`]).
    pub fn new(limits: Limits) -> io::Result<InProcess> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let local = SocketAddr::new(Ipv4Addr::LOCALHOST.into(), DEFAULT_PORT);
        Ok(InProcess {
            runtime,
            app: router(limits, local),
            host: local.to_string(),
        })
    }

    /// A Host header value the application accepts.
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Answers one request: `method`, `target` (a path and query, as in a request line),
    /// `headers` and `body`. `None` when these do not make an HTTP request at all (a method,
    /// target or header that is not valid HTTP): a real server's HTTP parser refuses those
    /// before the application sees them.
    pub fn request(
        &self,
        method: &[u8],
        target: &[u8],
        headers: &[(&[u8], &[u8])],
        body: Vec<u8>,
    ) -> Option<Answered> {
        let mut request = Request::new(Body::from(body));
        *request.method_mut() = Method::from_bytes(method).ok()?;
        *request.uri_mut() = Uri::try_from(target).ok()?;
        for &(name, value) in headers {
            request.headers_mut().append(
                HeaderName::from_bytes(name).ok()?,
                HeaderValue::from_bytes(value).ok()?,
            );
        }
        let service = TowerToHyperService::new(self.app.clone());
        self.runtime.block_on(async move {
            let response = service.call(request).await.ok()?;
            let status = response.status().as_u16();
            let headers = response
                .headers()
                .iter()
                .map(|(n, v)| (n.as_str().to_string(), v.as_bytes().to_vec()))
                .collect();
            let body = axum::body::to_bytes(response.into_body(), usize::MAX).await;
            let cut = body.is_err();
            Some(Answered {
                status,
                headers,
                body: body.map(|b| b.to_vec()).unwrap_or_default(),
                cut,
            })
        })
    }
}

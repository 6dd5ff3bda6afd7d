//! What every request passes first, and what every answer carries.
//!
//! - The `Host` must name the server as bound: on a loopback address only `127.0.0.1`,
//!   `localhost` or `[::1]` with the server's port (a page elsewhere that points its own name
//!   at 127.0.0.1, DNS rebinding, is refused: 421).
//! - The API answers only its own page and programs that send no `Origin`: a request whose
//!   `Origin` is another site's, or that a browser marks as cross-site, is refused (403). No
//!   answer carries CORS headers, so other sites' pages cannot read anything either.
//! - Every answer carries a strict Content-Security-Policy (only the server's own scripts,
//!   styles and connections; no inline script, no frames, no forms elsewhere) and the usual
//!   headers against sniffing, framing and leaking the address.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{HeaderName, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The Content-Security-Policy of every answer.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// The Host names a server accepts, decided by the address it listens on.
#[derive(Clone, Debug)]
pub struct Guard {
    /// `None`: any Host (a server bound to a non-loopback address is reached by names we
    /// cannot know). Otherwise the accepted `host:port` values, lowercase.
    hosts: Option<Vec<String>>,
}

impl Guard {
    /// The guard of a server listening on `local`.
    pub fn new(local: SocketAddr) -> Guard {
        let port = local.port();
        let hosts = local.ip().is_loopback().then(|| {
            vec![
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
                local.to_string(),
            ]
        });
        Guard { hosts }
    }

    /// True when `host` (a `Host` header's value) names this server.
    pub fn accepts_host(&self, host: &str) -> bool {
        match &self.hosts {
            None => true,
            Some(hosts) => hosts.iter().any(|h| h.eq_ignore_ascii_case(host)),
        }
    }
}

/// The middleware: refuses foreign hosts and cross-origin API calls, and adds the security
/// headers to every answer.
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = header_text(headers, &header::HOST).unwrap_or_default();
    let mut response = if !guard.accepts_host(host) {
        super::error::refusal(
            StatusCode::MISDIRECTED_REQUEST,
            format!("this server answers only as localhost, not as '{host}'"),
        )
        .into_response()
    } else if request.uri().path().starts_with("/api/") && is_cross_site(headers, host) {
        super::error::refusal(
            StatusCode::FORBIDDEN,
            "the API answers only its own page, not other sites",
        )
        .into_response()
    } else {
        next.run(request).await
    };
    let out = response.headers_mut();
    let set = |out: &mut HeaderMap, name: HeaderName, value: &'static str| {
        out.insert(name, HeaderValue::from_static(value));
    };
    set(
        out,
        header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY,
    );
    set(out, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(out, header::X_FRAME_OPTIONS, "DENY");
    set(out, header::REFERRER_POLICY, "no-referrer");
    set(
        out,
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    set(
        out,
        HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    );
    response
}

fn header_text<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

/// True when a browser says the request comes from another site: an `Origin` other than
/// `http://<host>`, or `Sec-Fetch-Site` other than `same-origin` or `none`.
fn is_cross_site(headers: &HeaderMap, host: &str) -> bool {
    if let Some(origin) = headers.get(header::ORIGIN) {
        let own = format!("http://{host}");
        if !origin.to_str().is_ok_and(|o| o.eq_ignore_ascii_case(&own)) {
            return true;
        }
    }
    match header_text(headers, &HeaderName::from_static("sec-fetch-site")) {
        None | Some("same-origin") | Some("none") => false,
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_servers_accept_only_their_own_names() {
        let guard = Guard::new("127.0.0.1:8123".parse().unwrap());
        assert!(guard.accepts_host("127.0.0.1:8123"));
        assert!(guard.accepts_host("LOCALHOST:8123"));
        assert!(guard.accepts_host("[::1]:8123"));
        assert!(!guard.accepts_host("127.0.0.1:8124"));
        assert!(!guard.accepts_host("evil.example:8123"));
        assert!(!guard.accepts_host(""));
        let open = Guard::new("0.0.0.0:8123".parse().unwrap());
        assert!(open.accepts_host("board.lan:8123"));
    }

    #[test]
    fn cross_site_requests_are_recognised() {
        let with = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(HeaderName::from_static(k), HeaderValue::from_static(v));
            }
            h
        };
        let host = "127.0.0.1:8080";
        assert!(!is_cross_site(&with(&[]), host));
        assert!(!is_cross_site(
            &with(&[("origin", "http://127.0.0.1:8080")]),
            host
        ));
        assert!(is_cross_site(
            &with(&[("origin", "https://evil.example")]),
            host
        ));
        assert!(is_cross_site(&with(&[("origin", "null")]), host));
        assert!(!is_cross_site(
            &with(&[("sec-fetch-site", "same-origin")]),
            host
        ));
        assert!(is_cross_site(
            &with(&[("sec-fetch-site", "cross-site")]),
            host
        ));
        assert!(is_cross_site(
            &with(&[("sec-fetch-site", "same-site")]),
            host
        ));
    }
}

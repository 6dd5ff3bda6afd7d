//! The server's refusals are the API's ([`crate::api::ApiError`]: a status and a JSON body,
//! `{"error": ...}`, with the line and column of the mistake for a bad input), sent as HTTP
//! responses that are never cached. Everything in the server that refuses a request (the
//! guards, the gate, the body's limits, the API) says it with an [`ApiError`].

use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};

pub use crate::api::ApiError;

/// A refusal with an HTTP status.
pub fn refusal(status: StatusCode, error: impl Into<String>) -> ApiError {
    ApiError::new(status.as_u16(), error)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let mut response = (status, self.to_json()).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(crate::api::JSON),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

//! The server's refusals: an HTTP status and a JSON body, `{"error": ...}`, with the line and
//! column of the mistake for a bad input. Everything in the server that refuses a request
//! (the guards, the gate, the parameters, the handlers, a solve that fails) says it with an
//! [`ApiError`]; this module depends on nothing else of the server.

use std::io;

use axum::http::StatusCode;
use axum::http::header::{self, HeaderValue};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::{InputError, RunError};

/// The JSON body of every refusal.
#[derive(Clone, Debug, Serialize, Eq, PartialEq)]
pub struct ErrorBody {
    /// What went wrong, as the command line says it (without the path and position).
    pub error: String,
    /// For a bad input: the line of the mistake, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// For a bad input: the column (in bytes) of the mistake, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
}

/// A refusal: a status and its JSON body.
#[derive(Clone, Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The body.
    pub body: ErrorBody,
}

impl ApiError {
    /// A refusal without a position.
    pub fn new(status: StatusCode, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: error.into(),
                line: None,
                column: None,
            },
        }
    }

    /// A 400 without a position: a bad query or body.
    pub fn bad(error: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, error)
    }

    /// The refusal of a failed run: a located 400 for a bad input (the command line's message
    /// without its path and position), 504 for the server's time limit.
    pub fn from_run(error: RunError) -> ApiError {
        match error {
            RunError::Input(InputError::Parse(e)) => {
                let text = e.to_string();
                let prefix = format!("{}: ", e.position);
                let message = text.strip_prefix(&prefix).unwrap_or(&text).to_string();
                ApiError {
                    status: StatusCode::BAD_REQUEST,
                    body: ErrorBody {
                        error: message,
                        line: Some(e.position.line),
                        column: Some(e.position.column),
                    },
                }
            }
            RunError::Input(InputError::Io(e)) | RunError::Output(e) => {
                ApiError::from_output(&e, "answering")
            }
        }
    }

    /// The refusal of an input that does not parse: see [`ApiError::from_run`].
    pub fn from_input(error: InputError) -> ApiError {
        ApiError::from_run(error.into())
    }

    /// The refusal of a failed write: 504 when the time limit was reached, 400 for an answer
    /// the server will not make that large (an SVG document past its limit).
    pub fn from_output(error: &io::Error, doing: &str) -> ApiError {
        if error.kind() == io::ErrorKind::TimedOut {
            ApiError::new(StatusCode::GATEWAY_TIMEOUT, error.to_string())
        } else if error.kind() == io::ErrorKind::InvalidInput {
            ApiError::bad(error.to_string())
        } else {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("{doing} failed: {error}"),
            )
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut text = serde_json::to_vec(&self.body).unwrap_or_default();
        text.push(b'\n');
        let mut response = (self.status, text).into_response();
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}

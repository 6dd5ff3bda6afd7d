//! The API's refusals: a status (HTTP's numbers) and a JSON body, `{"error": ...}`, with the
//! line and column of the mistake for a bad input. Everything that refuses a request (the
//! parameters, a body that does not parse, a solve that fails or runs out of time, and in the
//! server its guards and its gate) says it with an [`ApiError`].

use std::io;

use serde::Serialize;

use crate::error::{InputError, RunError};

/// 400: a bad query, body or input.
pub const BAD_REQUEST: u16 = 400;
/// 404: no such endpoint.
pub const NOT_FOUND: u16 = 404;
/// 500: a failure of the answer itself.
pub const INTERNAL_SERVER_ERROR: u16 = 500;
/// 504: the time limit was reached.
pub const GATEWAY_TIMEOUT: u16 = 504;

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
    /// The status, as HTTP numbers it.
    pub status: u16,
    /// The body.
    pub body: ErrorBody,
}

impl ApiError {
    /// A refusal without a position.
    pub fn new(status: u16, error: impl Into<String>) -> ApiError {
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
        ApiError::new(BAD_REQUEST, error)
    }

    /// The refusal of a failed run: a located 400 for a bad input (the command line's message
    /// without its path and position), 504 for the time limit.
    pub fn from_run(error: RunError) -> ApiError {
        match error {
            RunError::Input(InputError::Parse(e)) => {
                let text = e.to_string();
                let prefix = format!("{}: ", e.position);
                let message = text.strip_prefix(&prefix).unwrap_or(&text).to_string();
                ApiError {
                    status: BAD_REQUEST,
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
    /// that would be larger than allowed (an SVG document past its limit).
    pub fn from_output(error: &io::Error, doing: &str) -> ApiError {
        if error.kind() == io::ErrorKind::TimedOut {
            ApiError::new(GATEWAY_TIMEOUT, error.to_string())
        } else if error.kind() == io::ErrorKind::InvalidInput {
            ApiError::bad(error.to_string())
        } else {
            ApiError::new(INTERNAL_SERVER_ERROR, format!("{doing} failed: {error}"))
        }
    }

    /// The body as it is sent: one line of JSON.
    pub fn to_json(&self) -> Vec<u8> {
        let mut text = serde_json::to_vec(&self.body).unwrap_or_default();
        text.push(b'\n');
        text
    }
}

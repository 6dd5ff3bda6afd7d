//! The web board's JSON API in a browser: [`chess_puzzles::api::answer`] exported to
//! JavaScript through wasm-bindgen, for a Web Worker to answer the page's requests with the
//! same bytes as `chess-puzzles serve`. Built by `web/build.sh OUT`.
//!
//! ```js
//! import init, { answer } from "./chess_puzzles_web.js";
//! await init();
//! const reply = answer("/api/nqueens/count", "n=8", new Uint8Array(), 10);
//! reply.status;       // 200
//! reply.content_type; // "application/x-ndjson"
//! new TextDecoder().decode(reply.body); // '{"n":8,"given":[],"count":92}\n'
//! ```

use std::time::Duration;

use chess_puzzles::api::{self, Limits};
use wasm_bindgen::prelude::*;

/// An answer: its status (200, or a refusal's), content type and bytes.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Reply {
    status: u16,
    content_type: String,
    body: Vec<u8>,
}

#[wasm_bindgen]
impl Reply {
    /// 200, or the refusal's status (HTTP's numbers).
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The content type of the body.
    #[wasm_bindgen(getter)]
    pub fn content_type(&self) -> String {
        self.content_type.clone()
    }

    /// The answer's bytes, or the refusal's line of JSON.
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> Vec<u8> {
        self.body.clone()
    }
}

/// Answers one request of the API: `path` (`/api/queens`, ...), `query` (without its `?`;
/// empty for none), `body`, and the longest a solve may take in seconds (the server's
/// `--max-time`; a value that is not a positive number of seconds means its default, 10).
#[wasm_bindgen]
pub fn answer(path: &str, query: &str, body: &[u8], max_time: f64) -> Reply {
    let mut limits = Limits::default();
    if let Ok(max) = Duration::try_from_secs_f64(max_time)
        && !max.is_zero()
    {
        limits.max_time = max;
    }
    let query = (!query.is_empty()).then_some(query);
    let reply = api::answer(path, query, body, &limits);
    Reply {
        status: reply.status,
        content_type: reply.content_type.to_string(),
        body: reply.body,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_the_library_s() {
        let reply = answer("/api/nqueens/count", "n=8", b"", 10.0);
        assert_eq!(reply.status, 200);
        assert_eq!(reply.content_type, "application/x-ndjson");
        assert_eq!(reply.body, b"{\"n\":8,\"given\":[],\"count\":92}\n");
        let reply = answer("/api/nqueens/count", "n=8&time_limit=20", b"", 0.0);
        assert_eq!(reply.status, 400, "the default limit is 10 s");
        let reply = answer("/api/nqueens/count", "n=8&time_limit=20", b"", 30.0);
        assert_eq!(reply.status, 200);
        assert_eq!(answer("/api/none", "", b"", f64::NAN).status, 404);
    }
}

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

use chess_puzzles::api::{self, ApiError, Limits, Params, count_timed_out, take_problem};
use chess_puzzles::clock::Instant;
use chess_puzzles::nqueens::{self, Control};
use chess_puzzles::output::OutputFormat;
use wasm_bindgen::prelude::*;

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen]
extern "C" {
    /// The worker's `globalThis.chessPuzzlesProgress(done, total)`: a count's parts done and
    /// parts known, each time parts finish.
    #[wasm_bindgen(js_namespace = globalThis, js_name = chessPuzzlesProgress)]
    fn progress(done: f64, total: f64);
}

/// Off the browser (the tests of this crate), progress goes nowhere.
#[cfg(not(target_arch = "wasm32"))]
fn progress(_done: f64, _total: f64) {}

fn report(done: u64, total: u64) {
    progress(done as f64, total as f64);
}

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
    let query = (!query.is_empty()).then_some(query);
    let reply = api::answer(path, query, body, &limits(max_time));
    Reply {
        status: reply.status,
        content_type: reply.content_type.to_string(),
        body: reply.body,
    }
}

/// The limits of `max_time` seconds (a value that is not a positive number: the default).
fn limits(max_time: f64) -> Limits {
    let mut limits = Limits::default();
    if let Ok(max) = Duration::try_from_secs_f64(max_time)
        && !max.is_zero()
    {
        limits.max_time = max;
    }
    limits
}

/// A count with its progress, as the server's `GET /api/nqueens/count/events` gives it: the
/// query's `n`, `fix` and `time_limit`; `globalThis.chessPuzzlesProgress(done, total)` called
/// each time parts of the count finish; then the count's JSON line (as `nqueens count
/// --format json` writes it), or the refusal of a bad query (400) or of the time limit (504,
/// with the parts counted), as the server's `error` event.
#[wasm_bindgen]
pub fn count_events(query: &str, max_time: f64) -> Reply {
    let counted = (|| {
        let limits = limits(max_time);
        let mut params = Params::parse((!query.is_empty()).then_some(query));
        let problem = take_problem(&mut params)?;
        let time_limit = params.time_limit(limits.max_time, None, true)?;
        params.finish()?;
        let started = Instant::now();
        let control = Control::with_deadline(started + time_limit).with_observer(report);
        let count =
            nqueens::count(&problem, &control).ok_or_else(|| count_timed_out(&control, started))?;
        let mut line = Vec::new();
        nqueens::write_count(&mut line, &problem, count, OutputFormat::Json)
            .map_err(|e| ApiError::from_output(&e, "writing the count"))?;
        Ok::<_, ApiError>(line)
    })();
    match counted {
        Ok(body) => Reply {
            status: 200,
            content_type: api::JSON_LINES.to_string(),
            body,
        },
        Err(e) => {
            let refusal = api::Reply::refusal(&e);
            Reply {
                status: refusal.status,
                content_type: refusal.content_type.to_string(),
                body: refusal.body,
            }
        }
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

    #[test]
    fn a_count_with_its_progress_is_the_count_s_answer() {
        for query in ["n=8", "n=9&fix=1,1&fix=2,3", "n=12&time_limit=5"] {
            let events = count_events(query, 10.0);
            let answered = answer("/api/nqueens/count", query, b"", 10.0);
            assert_eq!(events.status, 200, "{query}");
            assert_eq!(events.content_type, answered.content_type);
            assert_eq!(events.body, answered.body, "{query}");
        }
        for query in ["", "n=8&fix=9,9", "n=8&time_limit=20", "n=8&colour=red"] {
            let refused = count_events(query, 10.0);
            assert_eq!(refused.status, 400, "{query}");
            assert_eq!(refused.content_type, "application/json");
        }
    }
}

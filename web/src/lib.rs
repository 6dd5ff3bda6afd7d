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

use chess_puzzles::api::{
    self, ApiError, Limits, Params, count_timed_out, count_timed_out_after, take_problem,
};
use chess_puzzles::clock::Instant;
use chess_puzzles::nqueens::{self, Control, Problem, shard};
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

    /// The answer's bytes, or the refusal's line of JSON: copied once, straight into a
    /// JavaScript array (a `Vec` returned would be copied in the module first; a trace's
    /// answer is tens of megabytes).
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> js_sys::Uint8Array {
        js_sys::Uint8Array::from(&self.body[..])
    }
}

/// Answers one request of the API: `path` (`/api/queens`, ...), `query` (without its `?`;
/// empty for none), `body`, and the longest a solve may take in seconds (the server's
/// `--max-time`; a value that is not a positive number of seconds means its default, 10).
/// The optimisers (`/api/showdown`, `/api/showdown/trace`, `/api/nqueens/best`) call
/// `globalThis.chessPuzzlesProgress(done, total)` as they go (the showdown's local-search steps
/// with `steps`, else its tests; the boards proven), as a count does.
#[wasm_bindgen]
pub fn answer(path: &str, query: &str, body: &[u8], max_time: f64) -> Reply {
    let query = (!query.is_empty()).then_some(query);
    api::answer(path, query, body, &limits(max_time)).into()
}

impl From<api::Reply> for Reply {
    fn from(reply: api::Reply) -> Reply {
        Reply {
            status: reply.status,
            content_type: reply.content_type.to_string(),
            body: reply.body,
        }
    }
}

/// The limits of `max_time` seconds (a value that is not a positive number: the default),
/// reporting the optimisers' progress (`globalThis.chessPuzzlesProgress(done, total)`: with
/// `steps`, the showdown's local-search steps made out of those it will make, at least every
/// few thousand steps, else its tests answered; each `nqueens best` board proven).
fn limits(max_time: f64) -> Limits {
    let mut limits = Limits {
        progress: Some(report),
        ..Limits::default()
    };
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
        let (problem, started, control) = count_query(query, max_time)?;
        let count =
            nqueens::count(&problem, &control).ok_or_else(|| count_timed_out(&control, started))?;
        let mut line = Vec::new();
        nqueens::write_count(&mut line, &problem, count, OutputFormat::Json)
            .map_err(|e| ApiError::from_output(&e, "writing the count"))?;
        Ok::<_, ApiError>(line)
    })();
    reply(counted, api::JSON_LINES)
}

/// A count's query (`n`, `fix`, `time_limit` of at most `max_time` seconds): its board, when
/// it started, and the control of its time limit that reports its progress.
fn count_query(query: &str, max_time: f64) -> Result<(Problem, Instant, Control), ApiError> {
    let limits = limits(max_time);
    let mut params = Params::parse((!query.is_empty()).then_some(query));
    let problem = take_problem(&mut params)?;
    let time_limit = params.time_limit(limits.max_time, None, true)?;
    params.finish()?;
    let started = Instant::now();
    let control = Control::with_deadline(started + time_limit).with_observer(report);
    Ok((problem, started, control))
}

/// One shard of an empty board's count, for several workers that share a count (the
/// command line's `nqueens count N --shard I/K`): the query's `n` and `time_limit` (no `fix`),
/// progress as [`count_events`] reports it (this shard's parts), and the placements the
/// shard counted, in decimal (`text/plain`), or a refusal (400, 504). [`count_total`] writes
/// the sum of every shard's as the count's answer.
#[wasm_bindgen]
pub fn count_shard(query: &str, index: u32, shards: u32, max_time: f64) -> Reply {
    let counted = (|| {
        let (problem, started, control) = count_query(query, max_time)?;
        if !problem.given().is_empty() {
            return Err(ApiError::bad(
                "a count split into shards takes an empty board",
            ));
        }
        let spec = shard::Spec::new(index.into(), shards.into())
            .map_err(|e| ApiError::bad(format!("shard: {e}")))?;
        let counted = shard::count(problem.n(), spec, &control)
            .ok_or_else(|| count_timed_out(&control, started))?;
        Ok::<_, ApiError>(counted.tally.count.to_string().into_bytes())
    })();
    reply(counted, api::TEXT)
}

/// The answer of a count whose shards ([`count_shard`]) summed to `count` (decimal): the
/// count's JSON line for the query's board, as `nqueens count --format json` writes it.
#[wasm_bindgen]
pub fn count_total(query: &str, count: &str) -> Reply {
    let written = (|| {
        let mut params = Params::parse((!query.is_empty()).then_some(query));
        let problem = take_problem(&mut params)?;
        let count: u128 = count
            .parse()
            .map_err(|_| ApiError::bad(format!("count: expected a number, found {count:?}")))?;
        let mut line = Vec::new();
        nqueens::write_count(&mut line, &problem, count, OutputFormat::Json)
            .map_err(|e| ApiError::from_output(&e, "writing the count"))?;
        Ok::<_, ApiError>(line)
    })();
    reply(written, api::JSON_LINES)
}

/// The refusal of a count shared by workers that ran out of time after `seconds`, with `done`
/// of `total` parts counted by all of them (504, as the server's `error` event says it).
#[wasm_bindgen]
pub fn count_timed_out_shared(seconds: f64, done: f64, total: f64) -> Reply {
    reply(
        Err(count_timed_out_after(seconds, done as u64, total as u64)),
        api::JSON,
    )
}

/// The N-queens count's kernels ([`nqueens::band::kernel::check`]) checked in this module
/// against the definition on random lists drawn from `seed`: `"ok: Simd128, 1200 lists"`
/// (the kernel the count uses here, and the lists checked), or the first disagreement. For
/// the tests (`web/test.mjs`): the WebAssembly SIMD kernel is only compiled for the browser.
#[wasm_bindgen]
pub fn check_kernels(seed: u32) -> String {
    use nqueens::band::kernel::{Kernel, check};
    match check(seed.into()) {
        Ok(lists) => format!("ok: {:?}, {lists} lists", Kernel::detect()),
        Err(why) => why,
    }
}

/// The reply of `body` (of this content type) or of its refusal.
fn reply(answered: Result<Vec<u8>, ApiError>, content_type: &str) -> Reply {
    match answered {
        Ok(body) => Reply {
            status: 200,
            content_type: content_type.to_string(),
            body,
        },
        Err(e) => api::Reply::refusal(&e).into(),
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
    fn the_kernels_count_as_the_definition() {
        assert!(check_kernels(3).starts_with("ok: "), "{}", check_kernels(3));
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

    #[test]
    fn the_shards_of_a_count_sum_to_the_count() {
        for (query, shards) in [("n=6", 3), ("n=13", 1), ("n=13", 4), ("n=16", 7)] {
            let sum: u128 = (0..shards)
                .map(|i| {
                    let reply = count_shard(query, i, shards, 10.0);
                    assert_eq!(reply.status, 200, "{query} {i}/{shards}");
                    String::from_utf8(reply.body)
                        .unwrap()
                        .parse::<u128>()
                        .unwrap()
                })
                .sum();
            let total = count_total(query, &sum.to_string());
            assert_eq!(total.status, 200);
            assert_eq!(
                total.body,
                answer("/api/nqueens/count", query, b"", 10.0).body,
                "{query} in {shards} shards"
            );
        }
        assert_eq!(count_shard("n=8&fix=1,1", 0, 2, 10.0).status, 400);
        assert_eq!(count_shard("n=8", 2, 2, 10.0).status, 400);
        assert_eq!(count_total("n=8", "ninety-two").status, 400);
        let late = count_timed_out_shared(10.04, 7.0, 12.0);
        assert_eq!(late.status, 504);
        assert_eq!(
            late.body,
            b"{\"error\":\"time limit reached after 10.0 s with 7 of 12 parts of the search counted; no count written\"}\n"
        );
    }
}

//! The web board's JSON API without a transport: a request (its route, its query string and
//! its body) answered with a status, a content type and bytes. `chess-puzzles serve` answers
//! its `/api` routes with it (the server adds the network: its guards, body limits, a gate in
//! front of the solvers, streaming), and the same function runs in a browser (WebAssembly,
//! no feature needed), so that both give the same bytes for the same request.
//!
//! | route | body | query |
//! |---|---|---|
//! | `/api/queens` | judge input | `format`, `uva` |
//! | `/api/sultan` | judge input | `format` |
//! | `/api/tour` | judge input | `format` |
//! | `/api/tour/explain` | judge input | |
//! | `/api/tour/walk` | `{"input": judge input, "moves": [square, ...]}` | |
//! | `/api/showdown` | judge input | `format`, `time_limit`, `seed`, `steps`, `greedy` |
//! | `/api/showdown/trace` | judge input | as `/api/showdown` but `format` and `greedy`, and `trace_steps` |
//! | `/api/showdown/checks` | `{"input": ..., "answers": [[[type, row, col], ...], ...]}` | |
//! | `/api/nqueens/best` | `nqueens best` input | `format`, `time_limit` |
//! | `/api/nqueens/count` | | `n`, `fix` (repeated), `format`, `time_limit` |
//! | `/api/nqueens/list` | | `n`, `fix`, `limit`, `format`, `time_limit` |
//! | `/api/nqueens/trace` | | `n`, `fix`, `limit`, `steps`, `time_limit` |
//! | `/api/queens/trace`, `/api/sultan/trace` | judge input | `steps` |
//! | `/api/tour/trace` | judge input | |
//!
//! A request is answered in three steps, so that a server can put its own work between them:
//! [`Endpoint::prepare`] reads the query (a [`Call`]), [`Call::with_body`] takes the body and
//! reads what is cheap to read in it (a [`Ready`]), and [`Ready::write`] solves and writes the
//! answer. [`answer`] does the three at once. [`Ready::write_watched`] writes the same answer
//! while a [`Watch`] shared with another thread can stop the solve (a client gone) and reads
//! the optimisers' progress.
//!
//! ```
//! use chess_puzzles::api::{self, Limits};
//!
//! let reply = api::answer("/api/nqueens/count", Some("n=8"), b"", &Limits::default());
//! assert_eq!(reply.status, 200);
//! assert_eq!(reply.content_type, "application/x-ndjson");
//! assert_eq!(reply.body, b"{\"n\":8,\"given\":[],\"count\":92}\n");
//!
//! let reply = api::answer("/api/queens", None, b"1\n\n9 9\n", &Limits::default());
//! assert_eq!(reply.status, 400);
//! assert_eq!(reply.content_type, "application/json");
//! ```

pub mod error;
mod judge;
mod nqueens;
pub mod params;
mod showdown;
mod tour;
pub mod trace;

use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;

pub use error::{ApiError, ErrorBody};
pub use judge::{MAX_SHOWDOWN_TRACE_STEPS, MAX_STEP_SQUARES};
pub use nqueens::{count_timed_out, count_timed_out_after, take_problem};
pub use params::Params;
pub use tour::MAX_WALK;

use crate::clock::Instant;
use crate::core::Square;
use crate::error::InputError;
use crate::nqueens::Problem;
use crate::output::OutputFormat;
use judge::{Judge, Queens, Showdown, Sultan, Tour};

/// The content type of JSON Lines (every answer but the other formats').
pub const JSON_LINES: &str = "application/x-ndjson";
/// The content type of the judge and board formats.
pub const TEXT: &str = "text/plain; charset=utf-8";
/// The content type of the SVG format.
pub const SVG: &str = "image/svg+xml";
/// The content type of a refusal (one line of JSON).
pub const JSON: &str = "application/json";

/// The largest SVG document drawn (a larger one is refused with a 400).
pub const MAX_SVG: usize = 8 << 20;

/// How long a solve may go on writing its answer after its own time limit ran out (its
/// last answers, a slow client).
pub const GRACE: Duration = Duration::from_secs(2);

/// What the API allows each request.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest any solve may take: the cap of showdown's budget and of every count,
    /// listing and `nqueens best`, and the time limit of the other puzzles (504 past it).
    pub max_time: Duration,
    /// Told of the progress of the optimisers, `progress(done, total)` after each unit of
    /// work, on the solving thread: with `steps`, the showdown optimiser's local-search steps
    /// made out of those it will make (`/api/showdown` and `/api/showdown/trace`, at least
    /// every few thousand steps), else its tests answered; an `nqueens best` board proven.
    /// None by default; the browser's worker passes it on to the page.
    pub progress: Option<fn(u64, u64)>,
}

impl Default for Limits {
    /// 10 s, the server's default; no progress.
    fn default() -> Limits {
        Limits {
            max_time: Duration::from_secs(10),
            progress: None,
        }
    }
}

/// Shared by a request's solve and whoever waits for its answer on another thread (the
/// server): a flag that stops the solve when the answer is no longer wanted, and the progress
/// of the optimisers, as `Limits::progress` is told it.
///
/// Every search looks at the flag as often as at its clock: the counts, listings, traces and
/// `nqueens best` end within milliseconds, the showdown optimiser within a few thousand of its
/// steps (it then writes the answers it holds, which nobody reads). The other endpoints answer
/// too quickly to need it.
///
/// ```
/// use std::sync::Arc;
/// use chess_puzzles::api::{Endpoint, Limits, Watch};
///
/// let watch = Arc::new(Watch::default());
/// let call = Endpoint::NqueensCount.prepare(Some("n=20&time_limit=5"), &Limits::default()).unwrap();
/// let ready = call.with_body(Vec::new()).unwrap();
/// watch.stop();
/// let mut out = Vec::new();
/// let refused = ready.write_watched(&mut out, &watch).unwrap_err();
/// assert_eq!(refused.status, 504);
/// assert!(out.is_empty());
/// ```
#[derive(Debug, Default)]
pub struct Watch {
    stop: Arc<AtomicBool>,
    done: AtomicU64,
    total: AtomicU64,
}

impl Watch {
    /// Asks the solve to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once [`Watch::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The optimisers' progress last told, `(done, total)` as `Limits::progress` is told it
    /// (`(0, 0)` before anything was told).
    pub fn progress(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// The flag, for a search's control.
    fn flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// `done` never goes back: the searches on several threads tell it in any order.
    fn tell(&self, done: u64, total: u64) {
        self.total.store(total, Ordering::Relaxed);
        self.done.fetch_max(done, Ordering::Relaxed);
    }
}

/// Every endpoint of the API.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
#[non_exhaustive]
pub enum Endpoint {
    /// `/api/queens`.
    Queens,
    /// `/api/sultan`.
    Sultan,
    /// `/api/tour`.
    Tour,
    /// `/api/tour/explain`.
    TourExplain,
    /// `/api/tour/walk`.
    TourWalk,
    /// `/api/showdown`.
    Showdown,
    /// `/api/showdown/checks`.
    ShowdownChecks,
    /// `/api/showdown/trace`.
    ShowdownTrace,
    /// `/api/nqueens/best`.
    NqueensBest,
    /// `/api/nqueens/count`.
    NqueensCount,
    /// `/api/nqueens/list`.
    NqueensList,
    /// `/api/nqueens/trace`.
    NqueensTrace,
    /// `/api/queens/trace`.
    QueensTrace,
    /// `/api/sultan/trace`.
    SultanTrace,
    /// `/api/tour/trace`.
    TourTrace,
}

impl Endpoint {
    /// Every endpoint.
    pub const ALL: [Endpoint; 15] = [
        Endpoint::Queens,
        Endpoint::Sultan,
        Endpoint::Tour,
        Endpoint::TourExplain,
        Endpoint::TourWalk,
        Endpoint::Showdown,
        Endpoint::ShowdownChecks,
        Endpoint::ShowdownTrace,
        Endpoint::NqueensBest,
        Endpoint::NqueensCount,
        Endpoint::NqueensList,
        Endpoint::NqueensTrace,
        Endpoint::QueensTrace,
        Endpoint::SultanTrace,
        Endpoint::TourTrace,
    ];

    /// Its route under `/api` (`/queens`, `/tour/walk`, ...).
    pub fn route(self) -> &'static str {
        match self {
            Endpoint::Queens => "/queens",
            Endpoint::Sultan => "/sultan",
            Endpoint::Tour => "/tour",
            Endpoint::TourExplain => "/tour/explain",
            Endpoint::TourWalk => "/tour/walk",
            Endpoint::Showdown => "/showdown",
            Endpoint::ShowdownChecks => "/showdown/checks",
            Endpoint::ShowdownTrace => "/showdown/trace",
            Endpoint::NqueensBest => "/nqueens/best",
            Endpoint::NqueensCount => "/nqueens/count",
            Endpoint::NqueensList => "/nqueens/list",
            Endpoint::NqueensTrace => "/nqueens/trace",
            Endpoint::QueensTrace => "/queens/trace",
            Endpoint::SultanTrace => "/sultan/trace",
            Endpoint::TourTrace => "/tour/trace",
        }
    }

    /// True for the endpoints that take their problem from the query alone, which the
    /// server also answers on `GET` (the others are `POST` only).
    pub fn allows_get(self) -> bool {
        matches!(
            self,
            Endpoint::NqueensCount | Endpoint::NqueensList | Endpoint::NqueensTrace
        )
    }

    /// The endpoint of a path: `/api/queens`, or the route under `/api` (`/queens`).
    pub fn from_path(path: &str) -> Option<Endpoint> {
        let route = path.strip_prefix("/api").unwrap_or(path);
        Endpoint::ALL.into_iter().find(|e| e.route() == route)
    }

    /// Reads the query (`None`: no query) and refuses what it cannot do.
    pub fn prepare(self, query: Option<&str>, limits: &Limits) -> Result<Call, ApiError> {
        let mut params = Params::parse(query);
        let call = self.take(&mut params, limits)?;
        params.finish()?;
        Ok(call)
    }

    fn take(self, params: &mut Params, limits: &Limits) -> Result<Call, ApiError> {
        let max = limits.max_time;
        let (work, content_type, allowed) = match self {
            Endpoint::Queens | Endpoint::Sultan | Endpoint::Tour | Endpoint::Showdown => {
                let (format, content_type) = params.format()?;
                let puzzle = match self {
                    Endpoint::Queens => Puzzle::Queens(Queens::options(params, format, limits)?),
                    Endpoint::Sultan => Puzzle::Sultan(Sultan::options(params, format, limits)?),
                    Endpoint::Tour => Puzzle::Tour(Tour::options(params, format, limits)?),
                    _ => Puzzle::Showdown(Showdown::options(params, format, limits)?),
                };
                let allowed = puzzle.allowed(limits);
                (Work::Judge(puzzle, format), content_type, allowed)
            }
            Endpoint::ShowdownTrace => {
                let (puzzle, steps) = judge::showdown_trace(params, limits)?;
                let allowed = puzzle.allowed(limits);
                (Work::ShowdownTrace(puzzle, steps), JSON_LINES, allowed)
            }
            Endpoint::TourExplain => (Work::TourExplain, JSON_LINES, max),
            Endpoint::TourWalk => (Work::TourWalk, JSON_LINES, max),
            Endpoint::ShowdownChecks => (Work::ShowdownChecks, JSON_LINES, max),
            Endpoint::NqueensBest => {
                let (format, content_type) = params.format()?;
                let time_limit = params.time_limit(max, None, true)?;
                (
                    Work::NqueensBest(format, time_limit, limits.progress),
                    content_type,
                    time_limit + GRACE,
                )
            }
            Endpoint::NqueensCount => {
                let problem = take_problem(params)?;
                let (format, content_type) = params.format()?;
                let time_limit = params.time_limit(max, None, true)?;
                (
                    Work::NqueensCount(problem, format, time_limit),
                    content_type,
                    time_limit + GRACE,
                )
            }
            Endpoint::NqueensList => {
                let problem = take_problem(params)?;
                let (format, content_type) = params.format()?;
                let limit = params.take::<u64>("limit", "a number of placements")?;
                let time_limit = params.time_limit(max, None, true)?;
                let options = nqueens::list_options(format, limit);
                (
                    Work::NqueensList(problem, options, time_limit),
                    content_type,
                    time_limit + GRACE,
                )
            }
            Endpoint::NqueensTrace => {
                let problem = take_problem(params)?;
                let limit = params.take::<u64>("limit", "a number of placements")?;
                let steps = trace::take_steps(params)?;
                let time_limit = params.time_limit(max, None, true)?;
                let options = crate::nqueens::trace::TraceOptions {
                    max_steps: steps,
                    solutions: limit,
                };
                (
                    Work::NqueensTrace(problem, options, time_limit),
                    JSON_LINES,
                    time_limit + GRACE,
                )
            }
            Endpoint::QueensTrace | Endpoint::SultanTrace | Endpoint::TourTrace => {
                let puzzle = match self {
                    Endpoint::QueensTrace => trace::Puzzle::Queens,
                    Endpoint::SultanTrace => trace::Puzzle::Sultan,
                    _ => trace::Puzzle::Tour,
                };
                let steps = trace::options(params, puzzle)?;
                (Work::Trace(puzzle, steps), JSON_LINES, max)
            }
        };
        Ok(Call {
            work,
            content_type,
            allowed,
        })
    }
}

/// A judge puzzle and its options.
enum Puzzle {
    Queens(Queens),
    Sultan(Sultan),
    Tour(Tour),
    Showdown(Showdown),
}

impl Puzzle {
    fn allowed(&self, limits: &Limits) -> Duration {
        match self {
            Puzzle::Queens(p) => p.allowed(limits),
            Puzzle::Sultan(p) => p.allowed(limits),
            Puzzle::Tour(p) => p.allowed(limits),
            Puzzle::Showdown(p) => p.allowed(limits),
        }
    }
}

/// What a request asks for, its query read.
enum Work {
    Judge(Puzzle, OutputFormat),
    ShowdownTrace(Showdown, u64),
    TourExplain,
    TourWalk,
    ShowdownChecks,
    NqueensBest(OutputFormat, Duration, Option<fn(u64, u64)>),
    NqueensCount(Problem, OutputFormat, Duration),
    NqueensList(Problem, crate::nqueens::ListOptions, Duration),
    NqueensTrace(Problem, crate::nqueens::trace::TraceOptions, Duration),
    Trace(trace::Puzzle, u64),
}

/// A request whose query has been read ([`Endpoint::prepare`]): it waits for its body.
pub struct Call {
    work: Work,
    content_type: &'static str,
    allowed: Duration,
}

/// The body as [`Ready`] holds it: as it came, or read where that is cheap.
enum Body {
    Bytes(Vec<u8>),
    Walk(String, Vec<Square>),
    Checks(showdown::ChecksRequest),
}

/// A request with its body ([`Call::with_body`]): ready to be answered.
pub struct Ready {
    work: Work,
    body: Body,
    content_type: &'static str,
    allowed: Duration,
}

impl std::fmt::Debug for Call {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Call")
            .field("content_type", &self.content_type)
            .field("allowed", &self.allowed)
            .finish_non_exhaustive()
    }
}

impl std::fmt::Debug for Ready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ready")
            .field("content_type", &self.content_type)
            .field("allowed", &self.allowed)
            .finish_non_exhaustive()
    }
}

impl Call {
    /// The content type of the answer.
    pub fn content_type(&self) -> &'static str {
        self.content_type
    }

    /// How long writing the answer may take, from the moment it starts: the time limit
    /// (the query's or the limits'), and for a search with its own limit a grace to write
    /// its last answers.
    pub fn allowed(&self) -> Duration {
        self.allowed
    }

    /// Takes the body and reads the JSON bodies (`tour/walk`, `showdown/checks`): a body
    /// that is not what the endpoint takes is refused here, before anything is solved. A
    /// judge input is read whole by [`Ready::write`], before it writes anything.
    pub fn with_body(self, body: Vec<u8>) -> Result<Ready, ApiError> {
        let body = match self.work {
            Work::TourWalk => {
                let (input, moves) = tour::walk_request(&body)?;
                Body::Walk(input, moves)
            }
            Work::ShowdownChecks => Body::Checks(showdown::checks_request(&body)?),
            _ => Body::Bytes(body),
        };
        Ok(Ready {
            work: self.work,
            body,
            content_type: self.content_type,
            allowed: self.allowed,
        })
    }
}

impl Ready {
    /// The content type of the answer.
    pub fn content_type(&self) -> &'static str {
        self.content_type
    }

    /// How long writing the answer may take: see [`Call::allowed`].
    pub fn allowed(&self) -> Duration {
        self.allowed
    }

    /// Solves and writes the answer to `out`, or refuses. An input is parsed whole before
    /// anything is written, so that a bad input is refused (a located 400) before any
    /// answer; after that only a failed write (the time limit of `out`, a client gone) or a
    /// search's own time limit fails, and `out` then holds part of an answer.
    pub fn write(self, out: &mut dyn Write) -> Result<(), ApiError> {
        self.write_watched(out, &Arc::new(Watch::default()))
    }

    /// [`Ready::write`], stopped when `watch` is (a search then ends as at its time limit,
    /// the showdown optimiser writes the answers it holds), and telling `watch` the
    /// optimisers' progress. The same answer as [`Ready::write`] while `watch` is not stopped.
    pub fn write_watched(self, out: &mut dyn Write, watch: &Arc<Watch>) -> Result<(), ApiError> {
        let input: &[u8] = match &self.body {
            Body::Bytes(bytes) => bytes,
            Body::Walk(..) | Body::Checks(_) => &[],
        };
        match (self.work, &self.body) {
            (Work::Judge(puzzle, format), _) => match puzzle {
                Puzzle::Queens(p) => judge::write(p, format, input, out),
                Puzzle::Sultan(p) => judge::write(p, format, input, out),
                Puzzle::Tour(p) => judge::write(p, format, input, out),
                Puzzle::Showdown(p) => judge::write(p.watched(watch), format, input, out),
            },
            (Work::ShowdownTrace(puzzle, steps), _) => {
                judge::write_showdown_trace(puzzle.watched(watch), steps, input, out)
            }
            (Work::TourExplain, _) => lines(out, tour::explain_all(input)),
            (Work::TourWalk, Body::Walk(input, moves)) => {
                lines(out, tour::walk_first(input, moves))
            }
            (Work::ShowdownChecks, Body::Checks(request)) => {
                lines(out, showdown::judge_answers(request))
            }
            (Work::NqueensBest(format, time_limit, progress), _) => {
                let control = nqueens::control(time_limit, watch);
                nqueens::best(format, control, progress, Some(watch), input, out)
            }
            (Work::NqueensCount(problem, format, time_limit), _) => {
                nqueens::count(&problem, format, nqueens::control(time_limit, watch), out)
            }
            (Work::NqueensList(problem, options, time_limit), _) => {
                nqueens::list(&problem, &options, nqueens::control(time_limit, watch), out)
            }
            (Work::NqueensTrace(problem, options, time_limit), _) => {
                nqueens::trace(&problem, &options, nqueens::control(time_limit, watch), out)
            }
            (Work::Trace(puzzle, steps), _) => trace::write(puzzle, steps, input, out),
            // `with_body` reads the JSON bodies of these two: nothing else is made.
            (Work::TourWalk | Work::ShowdownChecks, _) => Err(ApiError::new(
                error::INTERNAL_SERVER_ERROR,
                "the body was not read",
            )),
        }
    }
}

/// Writes the lines an answer made whole.
fn lines(out: &mut dyn Write, lines: Result<Vec<u8>, ApiError>) -> Result<(), ApiError> {
    out.write_all(&lines?)
        .map_err(|e| ApiError::from_output(&e, "writing the answer"))
}

/// An answer: a status (HTTP's numbers: 200, or a refusal's), a content type and the bytes.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Reply {
    /// 200, or the refusal's status.
    pub status: u16,
    /// The content type of `body`: the answer's, or [`JSON`] for a refusal.
    pub content_type: &'static str,
    /// The answer, or the refusal's JSON line (`{"error": ...}`).
    pub body: Vec<u8>,
}

impl Reply {
    /// The reply of a refusal.
    pub fn refusal(error: &ApiError) -> Reply {
        Reply {
            status: error.status,
            content_type: JSON,
            body: error.to_json(),
        }
    }
}

/// The refusal of a path that is no endpoint.
pub fn not_found() -> ApiError {
    ApiError::new(
        error::NOT_FOUND,
        "no such endpoint (docs/web.md lists them)",
    )
}

/// Answers one request: `path` (`/api/queens`, or the route under `/api`), `query` (without
/// its `?`; `None`: none) and `body`. The same bytes as the server's for the same request
/// (and as the command line's for the same input and options), except that the server may
/// also refuse for its own reasons (a body too large or too slow, every solver busy) and
/// streams what this returns whole. Writing stops with a 504 at the time limit
/// ([`Call::allowed`]); an answer is never cut short without one.
pub fn answer(path: &str, query: Option<&str>, body: &[u8], limits: &Limits) -> Reply {
    let answered = Endpoint::from_path(path)
        .ok_or_else(not_found)
        .and_then(|endpoint| endpoint.prepare(query, limits))
        .and_then(|call| call.with_body(body.to_vec()))
        .and_then(|ready| {
            let content_type = ready.content_type();
            let mut out = Timed::new(Vec::new(), Instant::now() + ready.allowed());
            ready.write(&mut out)?;
            Ok((content_type, out.inner))
        });
    match answered {
        Ok((content_type, body)) => Reply {
            status: 200,
            content_type,
            body,
        },
        Err(e) => Reply::refusal(&e),
    }
}

/// A writer that fails every write after its deadline ([`io::ErrorKind::TimedOut`], which
/// refuses the answer with a 504). It reads the clock on the first write and then once every
/// [`CLOCK_WRITES`] writes or [`CLOCK_BYTES`] bytes, whichever comes first: in a browser the
/// clock is a call out of WebAssembly (`performance.now()`), dearer than most writes (a trace
/// writes a few bytes at a time, millions of times), and every long solve also reads it
/// through its own time limit.
#[derive(Debug)]
struct Timed<W> {
    inner: W,
    deadline: Instant,
    /// Writes and bytes since the clock was last read (a new writer reads it first).
    writes: u32,
    bytes: usize,
}

/// Writes between two readings of [`Timed`]'s clock, at most.
const CLOCK_WRITES: u32 = 256;
/// Bytes between two readings of [`Timed`]'s clock, at most.
const CLOCK_BYTES: usize = 16 * 1024;

impl<W> Timed<W> {
    fn new(inner: W, deadline: Instant) -> Timed<W> {
        Timed {
            inner,
            deadline,
            writes: CLOCK_WRITES,
            bytes: 0,
        }
    }
}

impl<W: Write> Write for Timed<W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        if self.writes >= CLOCK_WRITES || self.bytes >= CLOCK_BYTES {
            if Instant::now() >= self.deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the server's time limit was reached",
                ));
            }
            self.writes = 0;
            self.bytes = 0;
        }
        self.writes += 1;
        self.bytes += data.len();
        self.inner.write(data)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Runs `write` on `out`, through an SVG document ([`crate::output::svg::Documents`], at most
/// [`MAX_SVG`] bytes) when `svg`: the documents of every case laid out in one.
pub fn drawn<T>(
    out: &mut dyn Write,
    svg: bool,
    write: impl FnOnce(&mut dyn Write) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    use crate::output::svg::{Documents, Layout};
    if !svg {
        return write(out);
    }
    let mut documents = Documents::with_limit(&mut *out, Layout::One, MAX_SVG);
    let value = write(&mut documents)?;
    documents
        .finish()
        .map_err(|e| ApiError::from_output(&e, "drawing"))?;
    Ok(value)
}

/// Parses every case of an input before anything is solved, so that a bad input is refused
/// with its position before any answer is sent.
pub fn parse_all<R>(
    reader: Result<R, InputError>,
    mut next: impl FnMut(&mut R) -> Result<bool, InputError>,
) -> Result<(), ApiError> {
    let mut reader = reader.map_err(ApiError::from_input)?;
    while next(&mut reader).map_err(ApiError::from_input)? {}
    Ok(())
}

/// Appends `value` to `lines` as one line of JSON.
pub fn push_json_line(lines: &mut Vec<u8>, value: &impl Serialize) -> Result<(), ApiError> {
    serde_json::to_writer(&mut *lines, value)
        .map_err(|e| ApiError::new(error::INTERNAL_SERVER_ERROR, e.to_string()))?;
    lines.push(b'\n');
    Ok(())
}

#[cfg(test)]
mod tests;

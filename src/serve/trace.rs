//! `POST /api/queens/trace`, `/api/sultan/trace` and `/api/tour/trace`: a judge input answered
//! with the search's trace, exactly the JSON Lines of `chess-puzzles <puzzle> --trace` (with
//! `--trace-steps` for `steps`), through the same library functions. The web board plays
//! these lines. `GET /api/nqueens/trace` is with the other `nqueens` endpoints.
//!
//! Traces are bounded: `steps` (default [`DEFAULT_STEPS`]) is at most [`MAX_STEPS`]; a tour's
//! trace is bounded by its search. As every answer, a trace has the server's time limit.

use axum::extract::State as AxumState;

use super::error::ApiError;
use super::handler::{Answer, Payload, Shared, parse_all};
use super::params::Params;
use super::stream::{JSON_LINES, respond};
use crate::input::{CaseReader, Scanner};
use crate::{queens, sultan, tour};

pub use crate::nqueens::trace::DEFAULT_STEPS;

/// The most steps a trace of the server holds (a trace of every 8-queens placement takes
/// 17,868).
pub const MAX_STEPS: u64 = 1_000_000;

/// `steps`: at most [`MAX_STEPS`], [`DEFAULT_STEPS`] when absent.
pub fn take_steps(params: &mut Params) -> Result<u64, ApiError> {
    match params.take::<u64>("steps", "a number of steps")? {
        None => Ok(DEFAULT_STEPS),
        Some(steps) if steps <= MAX_STEPS => Ok(steps),
        Some(steps) => Err(ApiError::bad(format!(
            "steps: expected at most {MAX_STEPS} (the server's limit on a trace), found {steps}"
        ))),
    }
}

/// Which judge puzzle's search a request traces.
#[derive(Copy, Clone, Debug)]
enum Puzzle {
    Queens,
    Sultan,
    Tour,
}

/// `POST /api/queens/trace`.
pub async fn queens(state: Shared, params: Params, body: Payload) -> Answer {
    traced(state, params, body, Puzzle::Queens).await
}

/// `POST /api/sultan/trace`.
pub async fn sultan(state: Shared, params: Params, body: Payload) -> Answer {
    traced(state, params, body, Puzzle::Sultan).await
}

/// `POST /api/tour/trace`.
pub async fn tour(state: Shared, params: Params, body: Payload) -> Answer {
    traced(state, params, body, Puzzle::Tour).await
}

async fn traced(
    AxumState(state): Shared,
    mut params: Params,
    body: Payload,
    puzzle: Puzzle,
) -> Answer {
    let steps = match puzzle {
        Puzzle::Tour => 0,
        Puzzle::Queens | Puzzle::Sultan => take_steps(&mut params)?,
    };
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let permit = state.gate.enter().await?;
    let deadline = state.limits.max_time;
    Ok(respond(permit, deadline, JSON_LINES, move |out| {
        let input = &body[..];
        match puzzle {
            Puzzle::Queens => {
                parse_all(queens::Reader::new(Scanner::new(input)), |r| {
                    r.next_case().map(|c| c.is_some())
                })?;
                queens::trace::trace(input, out, steps)
            }
            Puzzle::Sultan => {
                parse_all(sultan::Reader::new(Scanner::new(input)), |r| {
                    r.next_case().map(|c| c.is_some())
                })?;
                sultan::trace::trace(input, out, steps)
            }
            Puzzle::Tour => {
                parse_all(tour::Reader::new(Scanner::new(input)), |r| {
                    r.next_case().map(|c| c.is_some())
                })?;
                tour::trace::trace(input, out)
            }
        }
        .map_err(ApiError::from_run)
    })
    .await)
}

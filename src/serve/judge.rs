//! `POST /api/<puzzle>` for the four judge puzzles (`queens`, `sultan`, `tour`, `showdown`):
//! a judge input answered with exactly what `chess-puzzles <puzzle>` writes for it, in the
//! format of `format` (JSON Lines by default), through the same `run` functions. The whole
//! input is parsed before anything is solved, so that a mistake is a located 400.

// The solvers' options are built with `..Default::default()` although every field is set
// today, so that a field the command line gains later keeps its default here.
#![allow(clippy::needless_update)]

use axum::extract::State as AxumState;

use super::error::ApiError;
use super::handler::{Answer, GRACE, Payload, Shared, parse_all};
use super::params::Params;
use super::stream::respond;
use crate::input::Scanner;
use crate::{queens, showdown, sultan, tour};

/// The most local-search steps times squares (the sum of n² over the input's boards) that
/// `/api/showdown?steps=` accepts: 20,000 steps on 15 boards of 25x25, the statement's
/// largest input, which take 3.3 s (1.6 s of CPU) on the machine the README describes.
pub const MAX_STEP_SQUARES: u64 = 20_000 * 15 * 625;

/// `POST /api/queens`: `uva` answers in UVa 750's format.
pub async fn queens_api(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let (format, content_type) = params.format()?;
    let style = if params.flag("uva")? {
        queens::Style::Uva
    } else {
        queens::Style::Statement
    };
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let permit = state.gate.enter().await?;
    let deadline = state.limits.max_time;
    Ok(respond(permit, deadline, content_type, move |out| {
        parse_all(queens::Reader::new(Scanner::new(&body[..])), |r| {
            r.next_query().map(|q| q.is_some())
        })?;
        let options = queens::Options {
            format,
            style,
            ..queens::Options::default()
        };
        queens::run(&body[..], out, options).map_err(ApiError::from_run)
    })
    .await)
}

/// `POST /api/sultan`.
pub async fn sultan_api(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let (format, content_type) = params.format()?;
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let permit = state.gate.enter().await?;
    let deadline = state.limits.max_time;
    Ok(respond(permit, deadline, content_type, move |out| {
        parse_all(sultan::Reader::new(Scanner::new(&body[..])), |r| {
            r.next_board().map(|b| b.is_some())
        })?;
        sultan::run(&body[..], out, format).map_err(ApiError::from_run)
    })
    .await)
}

/// `POST /api/tour`.
pub async fn tour_api(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let (format, content_type) = params.format()?;
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let permit = state.gate.enter().await?;
    let deadline = state.limits.max_time;
    Ok(respond(permit, deadline, content_type, move |out| {
        parse_all(tour::Reader::new(Scanner::new(&body[..])), |r| {
            r.next_scenario().map(|s| s.is_some())
        })?;
        let options = tour::Options {
            format,
            ..tour::Options::default()
        };
        tour::run(&body[..], out, options).map_err(ApiError::from_run)
    })
    .await)
}

/// `POST /api/showdown`: `time_limit` (the command's default, at most the server's), `seed`,
/// `steps` (at most [`MAX_STEP_SQUARES`] steps times squares) and `greedy`, as the command takes them.
pub async fn showdown_api(AxumState(state): Shared, mut params: Params, body: Payload) -> Answer {
    let (format, content_type) = params.format()?;
    let time_limit = params.time_limit(
        state.limits.max_time,
        Some(showdown::DEFAULT_TIME_LIMIT),
        false,
    )?;
    let seed = params.take::<u64>("seed", "a whole number")?.unwrap_or(0);
    let steps = params.take::<u64>("steps", "a number of local-search steps")?;
    let greedy = params.flag("greedy")?;
    params.finish()?;
    let body = body.read(&state.limits).await?;
    let deadline = time_limit.max(state.limits.max_time) + GRACE;
    let permit = state.gate.enter().await?;
    let options = showdown::Options {
        format,
        time_limit,
        seed,
        steps,
        greedy,
        ..showdown::Options::default()
    };
    Ok(respond(permit, deadline, content_type, move |out| {
        let mut squares = 0u64;
        parse_all(showdown::Reader::new(Scanner::new(&body[..])), |r| {
            let next = r.next_instance()?;
            if let Some(instance) = &next {
                squares += (instance.side() * instance.side()) as u64;
            }
            Ok(next.is_some())
        })?;
        if let Some(steps) = steps {
            let most = MAX_STEP_SQUARES / squares.max(1);
            if steps > most {
                return Err(ApiError::bad(format!(
                    "steps: expected at most {most} for this input ({squares} squares; the server allows {MAX_STEP_SQUARES} steps times squares), found {steps}"
                )));
            }
        }
        showdown::run(&body[..], out, &options).map_err(ApiError::from_run)
    })
    .await)
}

//! Every route of the server in one place: the page ([`assets`]), the JSON API under `/api`
//! (below), and the guards in front of both ([`guard`]). Every endpoint is answered by the
//! transport-free API ([`crate::api`]) through [`handler::call`], or with its progress as
//! server-sent events ([`events`]); a count's progress events ([`nqueens`]) are the server's own.
//!
//! The JSON API: `POST /api/<puzzle>` with a judge input as the body answers with exactly
//! what `chess-puzzles <puzzle> --format json` writes for it (JSON Lines), through the same
//! `run` functions. `?format=judge`, `?format=board` or `?format=svg` give the command's
//! other formats. The `trace` endpoints answer with the JSON Lines of `--trace`
//! ([`crate::api::trace`]).
//!
//! | endpoint | body | query |
//! |---|---|---|
//! | `POST /api/queens` | judge input | `format`, `uva` |
//! | `POST /api/sultan` | judge input | `format` |
//! | `POST /api/tour` | judge input | `format` |
//! | `POST /api/tour/explain` | judge input | |
//! | `POST /api/tour/walk` | `{"input": judge input, "moves": [square, ...]}` | |
//! | `POST /api/showdown` | judge input | `format`, `time_limit`, `seed`, `steps`, `greedy` |
//! | `POST /api/showdown/trace` | judge input | as `/api/showdown` but `format` and `greedy`, and `trace_steps`: the optimiser step by step, then the answers |
//! | `POST /api/showdown/checks` | `{"input": ..., "answers": [[[type, row, col], ...], ...]}` | |
//! | `POST /api/nqueens/best` | `nqueens best` input | `format`, `time_limit` |
//! | `GET`/`POST /api/nqueens/count` | | `n`, `fix` (repeated), `format`, `time_limit` |
//! | `GET /api/nqueens/count/events` | | `n`, `fix`, `time_limit`: progress as server-sent events |
//! | `POST /api/showdown/events`, `/api/showdown/trace/events`, `/api/nqueens/best/events` | as without `/events` | as without `/events`: the same answer after its progress, as server-sent events ([`events`]) |
//! | `GET`/`POST /api/nqueens/list` | | `n`, `fix`, `limit`, `format`, `time_limit` |
//! | `GET`/`POST /api/nqueens/trace` | | `n`, `fix`, `limit`, `steps`, `time_limit`: the search step by step |
//! | `POST /api/queens/trace`, `/api/sultan/trace` | judge input | `steps` |
//! | `POST /api/tour/trace` | judge input | |
//!
//! A bad input answers 400 with `{"error": ..., "line": L, "column": C}`: the message, line
//! and column that the command line prints as `error: <path>:L:C: <message>`. Other refusals
//! carry `{"error": ...}` alone: 400 a bad query, 403 another site, 408 a body sent too
//! slowly, 413 a body too large, 503 every solver busy, 504 the server's time limit.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::RawQuery;
use axum::routing::{MethodRouter, get, post};

use super::config::Limits;
use super::handler::{self, Payload, Shared, State};
use super::{assets, events, guard, nqueens};
use crate::api::{self, Endpoint};

/// The whole application: the page, the API and the guards, for a server listening on
/// `local` (whose address decides which Host names are accepted).
pub fn router(limits: Limits, local: SocketAddr) -> Router {
    let state = Arc::new(State::new(limits));
    Router::new()
        .merge(assets::routes())
        .nest("/api", api(state))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(guard::Guard::new(local)),
            guard::check,
        ))
}

/// The API's routes (nested under `/api`): every endpoint of [`crate::api`] (`POST`, and
/// `GET` too for those that take their problem from the query), and the progress events of
/// a count.
fn api(state: Arc<State>) -> Router {
    let mut router = Router::new();
    for endpoint in Endpoint::ALL {
        router = router.route(endpoint.route(), method_router(endpoint));
    }
    for endpoint in events::WITH_EVENTS {
        let handler = move |state: Shared, RawQuery(query): RawQuery, body: Payload| {
            events::answer(endpoint, state, query, body)
        };
        router = router.route(&format!("{}/events", endpoint.route()), post(handler));
    }
    router
        .route("/nqueens/count/events", get(nqueens::count_events))
        .fallback(|| async { api::not_found() })
        .with_state(state)
}

/// The methods of `endpoint`, each answered by [`handler::call`].
fn method_router(endpoint: Endpoint) -> MethodRouter<Arc<State>> {
    let handler = move |state: Shared, RawQuery(query): RawQuery, body: Payload| {
        handler::call(endpoint, state, query, body)
    };
    if endpoint.allows_get() {
        get(handler).post(handler)
    } else {
        post(handler)
    }
}

//! `POST /api/tour/explain`: for each case (scenario) of a judge input, the first piece that no
//! square the queen can stand on touches (the plain reason a scenario has no tour), if any. The
//! page names it on an impossible board. Its lines are numbered `case`, as every answer of the
//! API and of `--format json` is.

use axum::extract::State as AxumState;
use serde::Serialize;

use super::error::ApiError;
use super::handler::{Answer, Payload, Shared, json_lines, push_json_line};
use super::params::Params;
use crate::input::{CaseReader, Scanner};
use crate::tour;

/// One scenario's obstacle.
#[derive(Debug, Serialize)]
struct Unreachable {
    /// `knight` or `bishop`.
    piece: &'static str,
    /// Its square, as the judge names it.
    square: String,
}

/// One case (a scenario), numbered from 1, and its obstacle (`null` when there is none).
#[derive(Debug, Serialize)]
struct Explained {
    case: u64,
    unreachable: Option<Unreachable>,
}

/// The handler: a JSON line per scenario.
pub async fn explain(AxumState(state): Shared, params: Params, body: Payload) -> Answer {
    params.finish()?;
    let body = body.read(&state.limits).await?;
    json_lines(&state, move || explain_all(&body)).await
}

/// Every scenario of `input` explained, one line each.
fn explain_all(input: &[u8]) -> Result<Vec<u8>, ApiError> {
    let mut reader = tour::Reader::new(Scanner::new(input)).map_err(ApiError::from_input)?;
    let mut lines = Vec::new();
    let mut case = 0;
    while let Some(scenario) = reader.next_case().map_err(ApiError::from_input)? {
        case += 1;
        let unreachable = scenario.unreachable_piece().map(|(piece, sq)| Unreachable {
            piece: if piece == tour::Piece::Knight {
                "knight"
            } else {
                "bishop"
            },
            square: tour::square_name(sq),
        });
        let explained = Explained { case, unreachable };
        push_json_line(&mut lines, &explained)?;
    }
    Ok(lines)
}

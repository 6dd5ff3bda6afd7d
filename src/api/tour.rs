//! `POST /api/tour/explain`: for each case (scenario) of a judge input, the first piece that no
//! square the queen can stand on touches (the plain reason a scenario has no tour), if any. The
//! page names it on an impossible board. Its lines are numbered `case`, as every answer of the
//! API and of `--format json` is.
//!
//! `POST /api/tour/walk`: a learner's own moves on the input's first scenario, checked one by
//! one by the statement's rules, with the knights each stop visits and the search's shortest
//! tour (the page's "try it yourself").

use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::push_json_line;
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

/// Every scenario of `input` explained, one line each.
pub(super) fn explain_all(input: &[u8]) -> Result<Vec<u8>, ApiError> {
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

/// The most moves `/api/tour/walk` checks: a tour never needs more than one move per knight
/// and one to the bishop, and a learner's detours are allowed up to this.
pub const MAX_WALK: usize = 256;

/// The body of `/api/tour/walk`: a judge input (its first scenario is walked) and the squares
/// the queen's moves go to, as chess names.
#[derive(Debug, Deserialize)]
pub(super) struct WalkRequest {
    input: String,
    moves: Vec<String>,
}

/// One stop of a walk, and the knights it visits for the first time.
#[derive(Debug, Serialize)]
struct WalkStop {
    square: String,
    knights: Vec<String>,
}

/// The first illegal move: its number (from 1), its square and why.
#[derive(Debug, Serialize)]
struct WalkIllegal {
    index: usize,
    square: String,
    why: String,
}

/// The search's shortest tour.
#[derive(Debug, Serialize)]
struct Shortest {
    moves: usize,
    path: Vec<String>,
}

/// The answer of `/api/tour/walk`.
#[derive(Debug, Serialize)]
struct Walked {
    case: u64,
    stops: Vec<WalkStop>,
    illegal: Option<WalkIllegal>,
    visited: Vec<String>,
    unvisited: Vec<String>,
    next_to_bishop: bool,
    complete: bool,
    shortest: Option<Shortest>,
}

/// The body of `POST /api/tour/walk` read (before a solver is taken): the judge input and
/// the moves as squares.
pub(super) fn walk_request(body: &[u8]) -> Result<(String, Vec<crate::core::Square>), ApiError> {
    let request: WalkRequest = serde_json::from_slice(body).map_err(|e| {
        ApiError::bad(format!(
            "expected {{\"input\": judge input, \"moves\": [square, ...]}}: {e}"
        ))
    })?;
    if request.moves.len() > MAX_WALK {
        return Err(ApiError::bad(format!(
            "moves: expected at most {MAX_WALK}, found {}",
            request.moves.len()
        )));
    }
    let mut moves = Vec::with_capacity(request.moves.len());
    for (i, name) in request.moves.iter().enumerate() {
        let square = tour::parse_square_name(name).ok_or_else(|| {
            let shown: String = name.chars().take(20).collect();
            ApiError::bad(format!(
                "moves[{i}]: expected a square a1..h8, found '{shown}'"
            ))
        })?;
        moves.push(square);
    }
    Ok((request.input, moves))
}

/// `POST /api/tour/walk`: a learner's moves checked one by one by the statement's rules
/// ([`tour::walk::walk`]) on the first scenario of `input`, with the knights each stop
/// visits, and the search's shortest tour to compare with.
pub(super) fn walk_first(input: &str, moves: &[crate::core::Square]) -> Result<Vec<u8>, ApiError> {
    let mut reader =
        tour::Reader::new(Scanner::new(input.as_bytes())).map_err(ApiError::from_input)?;
    let scenario = reader
        .next_case()
        .map_err(ApiError::from_input)?
        .ok_or_else(|| ApiError::bad("input: expected a scenario, found none"))?;
    let walked = tour::walk::walk(&scenario, moves);
    let names = |squares: &[crate::core::Square]| -> Vec<String> {
        squares.iter().map(|&sq| tour::square_name(sq)).collect()
    };
    let shortest = tour::Solver::new().solve(&scenario).map(|path| Shortest {
        moves: path.len() - 1,
        path: names(&path),
    });
    let visited: Vec<String> = walked
        .stops
        .iter()
        .flat_map(|s| names(&s.knights))
        .collect();
    let answer = Walked {
        case: 1,
        stops: walked
            .stops
            .iter()
            .map(|s| WalkStop {
                square: tour::square_name(s.square),
                knights: names(&s.knights),
            })
            .collect(),
        illegal: walked.illegal.as_ref().map(|i| WalkIllegal {
            index: i.index,
            square: tour::square_name(i.square),
            why: i.why.clone(),
        }),
        visited,
        unvisited: names(&walked.unvisited),
        next_to_bishop: walked.next_to_bishop,
        complete: walked.complete(),
        shortest,
    };
    let mut lines = Vec::new();
    push_json_line(&mut lines, &answer)?;
    Ok(lines)
}

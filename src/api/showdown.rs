//! `POST /api/showdown/checks`: a judge input and an answer per test, each answer judged as
//! `showdown check` judges it, with the pieces that check every king (the page shows them on
//! the board).
//!
//! The body is `{"input": ..., "answers": [[[type, row, col], ...], ...]}`; the answer is a
//! JSON line per test.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::error::ApiError;
use super::push_json_line;
use crate::core::Square;
use crate::core::pieces::attacks;
use crate::input::{CaseReader, Scanner};
use crate::showdown::{self, Placement, judge, piece_from_number};

/// The most pieces times board sides (over all tests) that `/api/showdown/checks` judges:
/// each piece's attacks cost up to four times the side. 15 answers of 625 pieces on 25x25
/// boards are 234,375.
const MAX_CHECK_WORK: u64 = 4_000_000;

/// The body of `/api/showdown/checks`: a judge input and an answer per test, each piece as
/// `[type, row, column]` (the statement's numbers, 1-based).
#[derive(Debug, Deserialize)]
pub(super) struct ChecksRequest {
    input: String,
    answers: Vec<Vec<[u64; 3]>>,
}

/// One king and the pieces (indices into the answer) that check it.
#[derive(Debug, Serialize)]
struct CheckedKing {
    row: u32,
    col: u32,
    checked_by: Vec<usize>,
}

/// One test's answer judged: valid or why not, its cost, and every king's checkers.
#[derive(Debug, Serialize)]
struct Checked {
    case: u64,
    valid: bool,
    error: Option<String>,
    cost: Option<u64>,
    score: Option<f64>,
    kings: Vec<CheckedKing>,
}

/// The body of `POST /api/showdown/checks` read (before a solver is taken).
pub(super) fn checks_request(body: &[u8]) -> Result<ChecksRequest, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        ApiError::bad(format!(
            "expected {{\"input\": judge input, \"answers\": [[[type, row, col], ...], ...]}}: {e}"
        ))
    })
}

/// Judges each answer of a `/api/showdown/checks` request with [`judge::verify`] and finds the
/// checkers of every king.
pub(super) fn judge_answers(request: &ChecksRequest) -> Result<Vec<u8>, ApiError> {
    let mut reader = showdown::Reader::new(Scanner::new(request.input.as_bytes()))
        .map_err(ApiError::from_input)?;
    let mut lines = Vec::new();
    let mut case = 0usize;
    let mut work = 0u64;
    while let Some(instance) = reader.next_case().map_err(ApiError::from_input)? {
        let answer = request.answers.get(case).map_or(&[][..], Vec::as_slice);
        case += 1;
        let n = instance.side() as u64;
        let mut pieces = Vec::with_capacity(answer.len());
        let mut error = None;
        for (i, &[number, row, col]) in answer.iter().enumerate() {
            let kind = piece_from_number(number);
            match kind {
                Some(kind) if (1..=n).contains(&row) && (1..=n).contains(&col) => {
                    pieces.push(Placement {
                        kind,
                        square: Square::new((row - 1) as u8, (col - 1) as u8),
                    });
                }
                _ => {
                    error = Some(format!(
                        "piece {} of {}: expected a type 1..8 on rows and columns 1..{n}, found [{number}, {row}, {col}]",
                        i + 1,
                        answer.len()
                    ));
                    break;
                }
            }
        }
        work += pieces.len() as u64 * n;
        if work > MAX_CHECK_WORK {
            return Err(ApiError::bad(format!(
                "answers: expected at most {MAX_CHECK_WORK} pieces times board sides in all, found more by test {case}"
            )));
        }
        let verdict = match &error {
            Some(_) => None,
            None => Some(judge::verify(&instance, &pieces)),
        };
        let mut occupied = instance.kings().clone();
        for p in &pieces {
            occupied.insert(p.square);
        }
        let mut kings: Vec<CheckedKing> = instance
            .kings()
            .iter()
            .map(|k| CheckedKing {
                row: u32::from(k.row) + 1,
                col: u32::from(k.col) + 1,
                checked_by: Vec::new(),
            })
            .collect();
        let order: HashMap<Square, usize> = instance
            .kings()
            .iter()
            .enumerate()
            .map(|(i, k)| (k, i))
            .collect();
        for (i, p) in pieces.iter().enumerate() {
            for k in attacks(p.kind, p.square, &occupied).iter() {
                if let Some(&king) = order.get(&k) {
                    kings[king].checked_by.push(i);
                }
            }
        }
        let (valid, cost) = match verdict {
            Some(Ok(cost)) => (true, Some(cost)),
            Some(Err(rejection)) => {
                error = Some(rejection.to_string());
                (false, None)
            }
            None => (false, None),
        };
        let checked = Checked {
            case: case as u64,
            valid,
            error,
            cost,
            score: cost.map(|c| showdown::score(c, instance.side())),
            kings,
        };
        push_json_line(&mut lines, &checked)?;
    }
    if request.answers.len() > case {
        return Err(ApiError::bad(format!(
            "answers: expected one per test ({case}), found {}",
            request.answers.len()
        )));
    }
    Ok(lines)
}

//! `tour --trace`: for each scenario, the breadth-first search as JSON Lines, then the shortest
//! path move by move. The web board plays the same lines.
//!
//! The search's states are a square *and* the set of knights visited on the way, so one square
//! can be reached in several layers, each time with another set of knights. Layer `d` (a
//! `layer` line) holds the states first reached after `d` moves: `squares` are their squares,
//! split into `new` (squares in no earlier layer) and `again` (squares of an earlier layer,
//! reached now with another set of knights); `states` counts the states (at least as many as
//! the squares). The goal layer (the squares next to the bishop reached with every knight
//! visited) has `"goal":true`.
//!
//! ```text
//! {"case":1,"event":"start","queen":"h8","bishop":"c2","knights":["e6","c5"]}
//! {"case":1,"step":1,"event":"layer","moves":0,"squares":["h8"],"new":["h8"],"again":[],"states":1,"knights":[],"most_knights":0}
//! ...
//! {"case":1,"step":6,"event":"move","moves":0,"square":"h8","visited":[]}
//! {"case":1,"step":7,"event":"move","moves":1,"square":"h2","visited":[]}
//! ...
//! {"case":1,"event":"end","steps":10,"possible":true,"moves":4,"path":["h8","h2","e5","d4","b2"]}
//! ```
//!
//! When a knight or the bishop has no square next to it that the queen can ever reach, the
//! search over knights does not start: the trace shows instead where the queen can go at all,
//! one `reach` line per number of moves (`squares`: those first reached after `moves` moves,
//! until none is left), and the `end` line names the piece out of reach (`unreachable`).
//!
//! A trace is bounded by its search: one line per layer (at most 64 `reach` lines), at most one
//! per move of the path.
//!
//! ```
//! use chess_puzzles::tour::{trace, SAMPLE};
//!
//! let mut out = Vec::new();
//! trace::trace(SAMPLE.input.as_bytes(), &mut out).unwrap();
//! let text = String::from_utf8(out).unwrap();
//! assert!(text.contains(r#""event":"end","steps":10,"possible":true,"moves":4,"path":["h8","h2","e5","d4","b2"]"#));
//! ```

use std::io::{self, Read, Write};

use serde::Serialize;

use crate::core::{Bitboard, Square};
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};

use super::layered_bfs::Layer;
use super::{Piece, Reader, Scenario, Solver, square_name};

/// One line of a tour's trace; the fields that do not apply are left out.
#[derive(Debug, Default, Serialize)]
struct Line {
    case: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<u64>,
    event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    queen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bishop: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    possible: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Option<usize>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    square: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    squares: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    new: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    again: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    states: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    knights: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    most_knights: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visited: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Option<Vec<String>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unreachable: Option<Unreachable>,
}

/// The piece no square the queen can reach stands next to.
#[derive(Debug, Serialize)]
struct Unreachable {
    /// `knight` or `bishop`.
    piece: &'static str,
    /// Its square.
    square: String,
}

/// The names of a set's squares, in board order.
fn names(squares: Bitboard) -> Vec<String> {
    squares.iter().map(square_name).collect()
}

impl Line {
    fn write(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        crate::output::json_line(out, self)
    }
}

/// The knights of `mask` (one bit per knight of `scenario`), by name.
fn knights(scenario: &Scenario, mask: u32) -> Vec<String> {
    scenario
        .knights()
        .iter()
        .enumerate()
        .filter(|&(i, _)| mask >> i & 1 == 1)
        .map(|(_, &k)| square_name(k))
        .collect()
}

/// The knights a square of the path visits (stands next to).
fn touched(scenario: &Scenario, sq: Square) -> u32 {
    scenario
        .knights()
        .iter()
        .enumerate()
        .filter(|&(_, &k)| k.is_neighbour(sq))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Writes the trace of every scenario of `input` on `out`: per scenario a `start` line, one
/// `layer` line per layer of the search, one `move` line per square of the path (the start
/// first), and an `end` line with the answer (`--format json`'s `possible`, `moves` and
/// `path`).
///
/// Fails as [`run`](super::run) does: at the first malformed scenario (located), or when
/// `out` cannot be written.
pub fn trace<R: Read, W: Write>(input: R, out: &mut W) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut solver = Solver::new();
    let mut case = 0u64;
    while let Some(scenario) = reader.next_case()? {
        case += 1;
        write_scenario(&mut solver, &scenario, case, out).map_err(RunError::Output)?;
    }
    out.flush().map_err(RunError::Output)
}

fn write_scenario(
    solver: &mut Solver,
    scenario: &Scenario,
    case: u64,
    out: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    Line {
        case,
        event: "start",
        queen: Some(square_name(scenario.queen())),
        bishop: Some(square_name(scenario.bishop())),
        knights: Some(knights(scenario, u32::MAX)),
        ..Line::default()
    }
    .write(out)?;
    let (path, layers) = solver.solve_with_layers(scenario);
    let mut step = 0u64;
    let unreachable = scenario.unreachable_piece();
    if layers.is_empty() {
        // The search did not start: where the queen can go at all, move by move.
        let open = !scenario.blockers();
        let mut seen = Bitboard::from_square(scenario.queen());
        let mut front = seen;
        let mut moves = 0;
        while !front.is_empty() {
            step += 1;
            Line {
                case,
                step: Some(step),
                event: "reach",
                moves: Some(Some(moves)),
                squares: Some(names(front)),
                ..Line::default()
            }
            .write(out)?;
            front = front.queen_fill(open) - seen;
            seen |= front;
            moves += 1;
        }
    }
    let last = layers.len();
    let mut seen = Bitboard(0);
    for (
        i,
        Layer {
            moves,
            squares,
            states,
            knights: mask,
            most_knights,
        },
    ) in layers.into_iter().enumerate()
    {
        step += 1;
        let again = squares & seen;
        seen |= squares;
        Line {
            case,
            step: Some(step),
            event: "layer",
            moves: Some(Some(moves)),
            squares: Some(names(squares)),
            new: Some(names(squares - again)),
            again: Some(names(again)),
            goal: (path.is_some() && i + 1 == last).then_some(true),
            states: Some(states),
            knights: Some(knights(scenario, mask)),
            most_knights: Some(most_knights),
            ..Line::default()
        }
        .write(out)?;
    }
    let mut visited = 0u32;
    for (moves, &sq) in path.iter().flatten().enumerate() {
        step += 1;
        visited |= touched(scenario, sq);
        Line {
            case,
            step: Some(step),
            event: "move",
            moves: Some(Some(moves)),
            square: Some(square_name(sq)),
            visited: Some(knights(scenario, visited)),
            ..Line::default()
        }
        .write(out)?;
    }
    Line {
        case,
        event: "end",
        steps: Some(step),
        possible: Some(path.is_some()),
        moves: Some(path.as_ref().map(|p| p.len() - 1)),
        path: Some(
            path.as_ref()
                .map(|p| p.iter().map(|&sq| square_name(sq)).collect()),
        ),
        unreachable: unreachable.map(|(piece, sq)| Unreachable {
            piece: if piece == Piece::Knight {
                "knight"
            } else {
                "bishop"
            },
            square: square_name(sq),
        }),
        ..Line::default()
    }
    .write(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tour::SAMPLE;

    #[test]
    fn the_sample_is_traced_layer_by_layer_then_move_by_move() {
        let mut out = Vec::new();
        trace(SAMPLE.input.as_bytes(), &mut out).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let first: Vec<&serde_json::Value> = lines.iter().filter(|l| l["case"] == 1).collect();
        assert_eq!(first[0]["event"], "start");
        let layers: Vec<_> = first.iter().filter(|l| l["event"] == "layer").collect();
        let moves: Vec<_> = first.iter().filter(|l| l["event"] == "move").collect();
        assert_eq!(layers.len(), 5);
        assert_eq!(moves.len(), 5);
        let path: Vec<&str> = moves
            .iter()
            .map(|m| m["square"].as_str().unwrap())
            .collect();
        assert_eq!(path, ["h8", "h2", "e5", "d4", "b2"]);
        assert_eq!(moves[4]["visited"], serde_json::json!(["e6", "c5"]));
        let end = first.last().unwrap();
        assert_eq!(end["event"], "end");
        assert_eq!(end["path"], serde_json::json!(path));
        // The second scenario is impossible: no layer reaches the bishop, no move.
        let second: Vec<_> = lines.iter().filter(|l| l["case"] == 2).collect();
        let end = second.last().unwrap();
        assert_eq!(
            (end["possible"].clone(), end["path"].clone()),
            (false.into(), serde_json::Value::Null)
        );
        assert!(second.iter().all(|l| l["event"] != "move"));
    }

    fn names(v: &serde_json::Value) -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    }

    #[test]
    fn each_layer_splits_its_squares_into_new_and_reached_again() {
        let mut out = Vec::new();
        trace(SAMPLE.input.as_bytes(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let layers: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|l| l["case"] == 1 && l["event"] == "layer")
            .collect();
        let mut seen = std::collections::BTreeSet::new();
        for (i, layer) in layers.iter().enumerate() {
            let (squares, new, again) = (
                names(&layer["squares"]),
                names(&layer["new"]),
                names(&layer["again"]),
            );
            assert_eq!(new.len() + again.len(), squares.len());
            assert!(new.iter().all(|s| !seen.contains(s)));
            assert!(again.iter().all(|s| seen.contains(s)));
            assert!(layer["states"].as_u64().unwrap() >= squares.len() as u64);
            seen.extend(squares);
            assert_eq!(layer["goal"] == true, i + 1 == layers.len(), "layer {i}");
        }
        // Some square comes back with other knights: the layers hold more squares than the
        // board has reached.
        let total: usize = layers.iter().map(|l| names(&l["squares"]).len()).sum();
        assert!(total > seen.len());
    }

    #[test]
    fn a_search_that_cannot_start_shows_where_the_queen_can_go() {
        // The bishop on a8 behind pawns: no square next to it is ever reached.
        let input =
            "1\nBP.....N\nPP......\n........\n...Q....\n........\n........\n........\n.......N\n\n";
        let mut out = Vec::new();
        trace(input.as_bytes(), &mut out).unwrap();
        let lines: Vec<serde_json::Value> = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let reach: Vec<_> = lines.iter().filter(|l| l["event"] == "reach").collect();
        assert_eq!(names(&reach[0]["squares"]), ["d5"]);
        let all: usize = reach.iter().map(|l| names(&l["squares"]).len()).sum();
        // Every square but those of the six other pieces (the queen's own included).
        assert_eq!(all, 64 - 6);
        let end = lines.last().unwrap();
        assert_eq!(
            end["unreachable"],
            serde_json::json!({"piece": "bishop", "square": "a8"})
        );
        assert_eq!(end["steps"], reach.len());
    }
}

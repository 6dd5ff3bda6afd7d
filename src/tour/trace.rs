//! `tour --trace`: for each scenario, the breadth-first search as JSON Lines: its layers (the
//! squares first reached after 0, 1, 2, ... moves, with the knights visited on the way), then
//! the shortest path move by move. The web board plays the same lines.
//!
//! ```text
//! {"case":1,"event":"start","queen":"h8","bishop":"c2","knights":["e6","c5"]}
//! {"case":1,"step":1,"event":"layer","moves":0,"squares":["h8"],"states":1,"knights":[],"most_knights":0}
//! ...
//! {"case":1,"step":6,"event":"move","moves":0,"square":"h8","visited":[]}
//! {"case":1,"step":7,"event":"move","moves":1,"square":"h2","visited":[]}
//! ...
//! {"case":1,"event":"end","steps":10,"possible":true,"moves":4,"path":["h8","h2","e5","d4","b2"]}
//! ```
//!
//! A trace is bounded by its search: one line per layer, at most one per move of the path.
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

use crate::core::Square;
use crate::error::RunError;
use crate::input::{CaseReader, Scanner};

use super::layered_bfs::Layer;
use super::{Reader, Scenario, Solver, square_name};

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
    states: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    knights: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    most_knights: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visited: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<Option<Vec<String>>>,
}

impl Line {
    fn write(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self).map_err(io::Error::from)?;
        out.write_all(b"\n")
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
    for Layer {
        moves,
        squares,
        states,
        knights: mask,
        most_knights,
    } in layers
    {
        step += 1;
        Line {
            case,
            step: Some(step),
            event: "layer",
            moves: Some(Some(moves)),
            squares: Some(squares.iter().map(square_name).collect()),
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
}

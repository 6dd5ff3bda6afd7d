//! Writing answers: the judge's `Scenario #i:` and path, the board with the path drawn, and
//! JSON, one [`Solved`] per scenario.

use std::io::{self, Write};

use serde::Serialize;

use crate::core::svg::{self, Figure, Labels, Mark};
use crate::core::{CLASSIC, Diagram, Square};
use crate::output::CaseAnswer;

use super::{Piece, Scenario, Solver, square_name};

/// One scenario's answer: its first shortest path, if any (see
/// [`crate::output::write_case`]).
pub struct Solved {
    scenario: Scenario,
    path: Option<Vec<Square>>,
}

impl Solved {
    /// Solves `scenario`.
    pub fn new(solver: &mut Solver, scenario: Scenario) -> Solved {
        let path = solver.solve(&scenario);
        Solved { scenario, path }
    }
}

impl CaseAnswer for Solved {
    type Json = JsonCase;

    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, case: u64) -> io::Result<()> {
        write_judge_case(out, case, self.path.as_deref())
    }

    fn board(&self, case: u64) -> String {
        render_case(case, &self.scenario, self.path.as_deref())
    }

    fn json(&self, case: u64) -> JsonCase {
        JsonCase::new(case, self.path.as_deref())
    }

    fn figure(&self, case: u64) -> Figure {
        figure(case, &self.scenario, self.path.as_deref())
    }
}

/// Writes one scenario's answer in the judge's format: the heading, the path or `impossible`,
/// then an empty line.
pub fn write_judge_case<W: Write + ?Sized>(
    out: &mut W,
    case: u64,
    path: Option<&[Square]>,
) -> io::Result<()> {
    let mut text = format!("Scenario #{case}:\n");
    match path {
        Some(p) => {
            for &sq in p {
                text.push(char::from(b'a' + sq.col % 8));
                text.push(char::from(b'8' - sq.row % 8));
            }
        }
        None => text.push_str("impossible"),
    }
    text.push_str("\n\n");
    out.write_all(text.as_bytes())
}

/// One scenario for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The scenario number, from 1 (called `case` in every command's JSON).
    pub case: u64,
    /// Whether a path exists.
    pub possible: bool,
    /// The number of moves (the path's squares less one), or `null`.
    pub moves: Option<usize>,
    /// The squares the queen stands on, start first, as judge names (`"h8"`), or `null`.
    pub path: Option<Vec<String>>,
}

impl JsonCase {
    /// The JSON form of a scenario's answer.
    pub fn new(case: u64, path: Option<&[Square]>) -> JsonCase {
        JsonCase {
            case,
            possible: path.is_some(),
            moves: path.map(|p| p.len().saturating_sub(1)),
            path: path.map(|p| p.iter().map(|&sq| square_name(sq)).collect()),
        }
    }
}

/// Per square (by index), the numbers of the path's stops on it, the start being stop 0.
fn stops(path: &[Square]) -> Vec<Vec<usize>> {
    let mut stops: Vec<Vec<usize>> = vec![Vec::new(); CLASSIC * CLASSIC];
    for (i, &sq) in path.iter().enumerate() {
        if let Some(list) = stops.get_mut(sq.index(CLASSIC)) {
            list.push(i);
        }
    }
    stops
}

/// What a scenario's drawing says first: the moves and the path, or why it is impossible.
fn heading(scenario: &Scenario, path: Option<&[Square]>) -> String {
    match path {
        Some(p) => {
            let moves = p.len().saturating_sub(1);
            let plural = if moves == 1 { "" } else { "s" };
            let names: Vec<String> = p.iter().map(|&sq| square_name(sq)).collect();
            format!("{moves} move{plural}: {}", names.join(" "))
        }
        None => match scenario.unreachable_piece() {
            Some((piece, sq)) => format!(
                "impossible: the queen can reach no square next to the {} on {}",
                match piece {
                    Piece::Knight => "knight",
                    _ => "bishop",
                },
                square_name(sq)
            ),
            None => "impossible".to_string(),
        },
    }
}

/// The piece's name for people.
fn piece_name(piece: Piece) -> &'static str {
    match piece {
        Piece::Queen => "queen",
        Piece::Bishop => "bishop",
        Piece::Knight => "knight",
        Piece::Pawn => "pawn",
    }
}

/// The scenario in SVG, as [`render_case`] draws it: the pieces, the queen's moves as arrows,
/// each stop numbered on a marked square; on an impossible board the piece she can never
/// stand next to, marked and crossed.
pub fn figure(case: u64, scenario: &Scenario, path: Option<&[Square]>) -> Figure {
    let mut board = svg::Board::new(CLASSIC, CLASSIC, Labels::Chess);
    for r in 0..CLASSIC as u8 {
        for c in 0..CLASSIC as u8 {
            let sq = Square::new(r, c);
            if let Some(piece) = scenario.piece_at(sq) {
                board.piece(sq, svg::Piece::glyph(piece.symbol(), piece_name(piece)));
            }
        }
    }
    match path {
        Some(p) => {
            for (i, list) in stops(p).iter().enumerate() {
                if !list.is_empty() {
                    let sq = Square::from_index(i, CLASSIC);
                    board.mark(sq, Mark::Highlight);
                    let text: Vec<String> = list.iter().map(usize::to_string).collect();
                    board.stop(sq, &text.join(","));
                }
            }
            for w in p.windows(2) {
                board.arrow(w[0], w[1]);
            }
        }
        None => {
            if let Some((_, sq)) = scenario.unreachable_piece() {
                board.mark(sq, Mark::Bad);
            }
        }
    }
    let mut figure = Figure::new(&format!("Scenario {case}: {}", heading(scenario, path)));
    figure.panel(board, "");
    figure.note(if path.is_some() {
        "♛ the queen's start (stop 0), the numbers her stops in order; ♞ knight; ♝ bishop; ♟ pawn"
    } else {
        "♛ queen; ♞ knight; ♝ bishop; ♟ pawn; a crossed square: the piece she can never stand next to"
    });
    figure
}

/// The board with the path drawn: the queen (`♛`) on her start, each later stop numbered in
/// order (a square she stands on twice shows both, `♛,3`), the pieces shown by their symbols,
/// and a legend.
pub fn render_case(case: u64, scenario: &Scenario, path: Option<&[Square]>) -> String {
    let ranks: Vec<String> = (1..=CLASSIC).rev().map(|r| r.to_string()).collect();
    let files: Vec<String> = (b'a'..b'a' + CLASSIC as u8)
        .map(|f| char::from(f).to_string())
        .collect();
    let mut d = Diagram::new(CLASSIC, CLASSIC)
        .with_row_labels(ranks)
        .with_col_labels(files);
    for r in 0..CLASSIC as u8 {
        for c in 0..CLASSIC as u8 {
            let sq = Square::new(r, c);
            if let Some(piece) = scenario.piece_at(sq) {
                d.set(sq, piece.symbol());
            }
        }
    }
    if let Some(p) = path {
        for (i, list) in stops(p).iter().enumerate() {
            if !list.is_empty() {
                let text: Vec<String> = list
                    .iter()
                    .map(|&stop| match stop {
                        0 => Piece::Queen.symbol().to_string(),
                        _ => stop.to_string(),
                    })
                    .collect();
                d.set(Square::from_index(i, CLASSIC), text.join(","));
            }
        }
    }
    let heading = heading(scenario, path);
    let legend = if path.is_some() {
        "♛ the queen's start, numbers her stops in order"
    } else {
        "♛ queen"
    };
    format!(
        "Scenario {case}: {heading}\n{d}{legend}; ♞ knight; ♝ bishop; ♟ pawn\n",
        heading = heading
    )
}

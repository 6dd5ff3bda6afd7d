//! Writing answers: the judge's `f g` and piece lines (by hand, for speed), the board with its
//! pieces, prices and (with `--explain`) the checks, and JSON, one [`Solved`] per test.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::core::pieces::PieceKind;
use crate::core::svg::{self, Figure, Labels};
use crate::core::{Diagram, Square};
use crate::error::plural;
use crate::output::CaseAnswer;

use super::judge::checkers;
use super::{Instance, Placement, Solution, piece_number};

/// One test's answer: the pieces of a solution, written in every format (see
/// [`crate::output::write_case`]); with `explain`, which pieces check each king (in the board
/// and JSON forms; the judge's format has no room for it).
pub struct Solved<'a> {
    instance: &'a Instance,
    solution: &'a Solution,
    explain: bool,
}

impl<'a> Solved<'a> {
    /// The answer `solution` to `instance`, explained or not.
    pub fn new(instance: &'a Instance, solution: &'a Solution, explain: bool) -> Solved<'a> {
        Solved {
            instance,
            solution,
            explain,
        }
    }
}

impl CaseAnswer for Solved<'_> {
    type Json = JsonCase;

    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, _: u64) -> io::Result<()> {
        let answer = &self.solution.answer;
        write_answer_to(out, &answer.pieces, answer.cost)
    }

    fn board(&self, case: u64) -> String {
        let mut text = render_case(case, self.instance, self.solution);
        if self.explain {
            text.push_str(&render_checks(self.instance, self.solution));
        }
        text
    }

    fn json(&self, case: u64) -> JsonCase {
        let mut json = JsonCase::new(case, self.instance, self.solution);
        if self.explain {
            let pieces = &self.solution.answer.pieces;
            json.checks = Some(
                checkers(self.instance, pieces)
                    .into_iter()
                    .map(|(king, by)| JsonCheck {
                        king: one_based(king),
                        by: by
                            .into_iter()
                            .map(|i| one_based(pieces[i].square))
                            .collect(),
                    })
                    .collect(),
            );
        }
        json
    }

    fn figure(&self, case: u64) -> Figure {
        figure(case, self.instance, self.solution)
    }
}

/// `value` in decimal, written at the end of `buffer`; returns where it starts.
fn digits(mut value: u64, buffer: &mut [u8; 20]) -> usize {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return at;
        }
    }
}

/// Writes pieces in the judge's format: `f g`, then one `type row column` line per piece.
pub fn write_answer(pieces: &[Placement], cost: u64) -> String {
    let mut text = Vec::with_capacity(24 + pieces.len() * 10);
    // Writing to a vector cannot fail.
    let _ = write_answer_to(&mut text, pieces, cost);
    // Only ASCII digits, spaces and line ends were written.
    String::from_utf8(text).unwrap_or_default()
}

/// [`write_answer`] straight to `out`, a few kilobytes at a time: formatted by hand, not
/// through `format!`, with no allocation (an answer may hold tens of thousands of pieces,
/// and millions of answers may follow one another).
pub fn write_answer_to<W: Write + ?Sized>(
    out: &mut W,
    pieces: &[Placement],
    cost: u64,
) -> io::Result<()> {
    let mut number = [0u8; 20];
    let mut chunk = [0u8; 4096];
    let mut len = 0;
    let push = |chunk: &mut [u8; 4096], len: &mut usize, bytes: &[u8]| {
        chunk[*len..*len + bytes.len()].copy_from_slice(bytes);
        *len += bytes.len();
    };
    let at = digits(pieces.len() as u64, &mut number);
    push(&mut chunk, &mut len, &number[at..]);
    push(&mut chunk, &mut len, b" ");
    let at = digits(cost, &mut number);
    push(&mut chunk, &mut len, &number[at..]);
    push(&mut chunk, &mut len, b"\n");
    for p in pieces {
        // A line is at most 12 bytes: `8 256 256\n`.
        if len + 12 > chunk.len() {
            out.write_all(&chunk[..len])?;
            len = 0;
        }
        for (value, end) in [
            (piece_number(p.kind), b' '),
            (u32::from(p.square.row) + 1, b' '),
            (u32::from(p.square.col) + 1, b'\n'),
        ] {
            let at = digits(u64::from(value), &mut number);
            push(&mut chunk, &mut len, &number[at..]);
            push(&mut chunk, &mut len, &[end]);
        }
    }
    out.write_all(&chunk[..len])
}

/// A square as `[row, column]`, 1-based.
fn one_based(sq: Square) -> [u32; 2] {
    [u32::from(sq.row) + 1, u32::from(sq.col) + 1]
}

/// Which pieces check a king, for programs (`--explain --format json`).
#[derive(Debug, Serialize)]
pub struct JsonCheck {
    /// The king's square, `[row, column]` from 1.
    pub king: [u32; 2],
    /// The squares of the pieces that check it on the final board.
    pub by: Vec<[u32; 2]>,
}

/// One piece for programs: 1-based numbers.
#[derive(Debug, Serialize)]
pub struct JsonPiece {
    /// The statement's piece number, 1..8.
    #[serde(rename = "type")]
    pub number: u32,
    /// The piece's name.
    pub piece: &'static str,
    /// Row, from 1 at the top.
    pub row: u32,
    /// Column, from 1 at the left.
    pub col: u32,
}

/// One test's answer for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The test number, from 1.
    pub case: u64,
    /// The board's side.
    pub side: usize,
    /// How many kings.
    pub kings: usize,
    /// The total price of the pieces.
    pub cost: u64,
    /// cost / n².
    pub score: f64,
    /// A lower bound on the cost of any answer.
    pub lower_bound: u64,
    /// True when the cost is proven the least possible.
    pub optimal: bool,
    /// The pieces placed.
    pub pieces: Vec<JsonPiece>,
    /// With `--explain`: every king, row by row, and the pieces that check it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<JsonCheck>>,
}

impl JsonCase {
    /// The JSON form of a test's answer.
    pub fn new(case: u64, instance: &Instance, solution: &Solution) -> JsonCase {
        JsonCase {
            case,
            side: instance.side(),
            kings: instance.king_count(),
            cost: solution.answer.cost,
            score: solution.answer.score(instance),
            lower_bound: solution.lower_bound,
            optimal: solution.optimal(),
            pieces: solution
                .answer
                .pieces
                .iter()
                .map(|p| JsonPiece {
                    number: piece_number(p.kind),
                    piece: p.kind.name(),
                    row: u32::from(p.square.row) + 1,
                    col: u32::from(p.square.col) + 1,
                })
                .collect(),
            checks: None,
        }
    }
}

/// The symbol of a king in diagrams.
pub const KING_SYMBOL: &str = "♚";

/// The widest line of a legend or an explanation.
const WIDTH: usize = 80;

/// Words joined by spaces into lines of at most [`WIDTH`] columns (a word is never split),
/// the lines after the first indented by two spaces.
fn wrap(words: &[String]) -> String {
    let mut text = String::new();
    let mut column = 0;
    for word in words {
        let width = word.chars().count();
        if column > 0 && column + 1 + width > WIDTH {
            text.push_str("\n  ");
            column = 2;
        } else if column > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += width;
    }
    text.push('\n');
    text
}

/// The legend of a test's diagram: the symbols, and the price of each piece, grouped by
/// price (`prices: 1 each for B bishop, R rook, ...; 2 for F phoenix.`), within 80 columns.
pub fn legend(instance: &Instance) -> String {
    let mut groups: BTreeMap<u32, Vec<PieceKind>> = Default::default();
    for kind in PieceKind::ALL {
        groups.entry(instance.cost(kind)).or_default().push(kind);
    }
    let mut words: Vec<String> = format!("legend: {KING_SYMBOL} king, · empty square; prices:")
        .split(' ')
        .map(str::to_string)
        .collect();
    let count = groups.len();
    for (g, (price, kinds)) in groups.into_iter().enumerate() {
        words.push(price.to_string());
        if kinds.len() > 1 {
            words.push("each".to_string());
        }
        words.push("for".to_string());
        for (i, kind) in kinds.iter().enumerate() {
            let end = if i + 1 < kinds.len() {
                ","
            } else if g + 1 < count {
                ";"
            } else {
                "."
            };
            // A letter and its name stay on one line.
            words.push(format!("{} {}{end}", kind.letter(), kind.name()));
        }
    }
    wrap(&words)
}

/// Which pieces check each king, row by row, within 80 columns: `checks: (1,4) by R (1,1);
/// (3,1) by R (1,1) and H (4,1); ...`.
pub fn render_checks(instance: &Instance, solution: &Solution) -> String {
    let pieces = &solution.answer.pieces;
    let explained = checkers(instance, pieces);
    let mut words = vec!["checks:".to_string()];
    let count = explained.len();
    for (k, (king, by)) in explained.into_iter().enumerate() {
        words.push(king.to_string());
        words.push("by".to_string());
        for (i, &p) in by.iter().enumerate() {
            if i > 0 {
                words.push("and".to_string());
            }
            let end = if i + 1 < by.len() {
                ""
            } else if k + 1 < count {
                ";"
            } else {
                "."
            };
            words.push(format!(
                "{} {}{end}",
                pieces[p].kind.letter(),
                pieces[p].square
            ));
        }
    }
    wrap(&words)
}

/// The board with its kings (`♚`) and the pieces placed (one letter each), the cost, and a
/// [legend] with the prices.
pub fn render_case(case: u64, instance: &Instance, solution: &Solution) -> String {
    let n = instance.side();
    let mut d = Diagram::new(n, n);
    for sq in instance.kings().iter() {
        d.set(sq, KING_SYMBOL);
    }
    for p in &solution.answer.pieces {
        d.set(p.square, p.kind.letter().to_string());
    }
    let proof = if solution.optimal() {
        "optimal".to_string()
    } else {
        let cost = solution.answer.cost.max(1) as f64;
        let gap = 100.0 * solution.answer.cost.saturating_sub(solution.lower_bound) as f64 / cost;
        format!("lower bound {}, gap {gap:.2}%", solution.lower_bound)
    };
    format!(
        "Test {case}: {n}x{n}, {}; {}, cost {} (score {:.6}, {proof})\n{d}{}",
        plural(instance.king_count() as u64, "king"),
        plural(solution.answer.pieces.len() as u64, "piece"),
        solution.answer.cost,
        solution.answer.score(instance),
        legend(instance)
    )
}

/// The colour of each piece's disc, by its number 1..8 (the web board's colours; white
/// letters on each have a contrast of at least 4.5:1).
pub const PIECE_COLOURS: [&str; 8] = [
    "#6b4fa0", "#b3261e", "#2e7d32", "#8a6408", "#546e7a", "#8d4f2b", "#c2185b", "#1565c0",
];

/// The test in SVG, as [`render_case`] draws it: the kings, the pieces as lettered discs (the
/// letters of the board's legend), the cost in the title and the prices under the board.
pub fn figure(case: u64, instance: &Instance, solution: &Solution) -> Figure {
    let n = instance.side();
    let mut board = svg::Board::new(n, n, Labels::Numbers);
    for sq in instance.kings().iter() {
        board.piece(sq, svg::Piece::glyph(KING_SYMBOL, "king"));
    }
    for p in &solution.answer.pieces {
        let number = piece_number(p.kind) as usize;
        let colour = PIECE_COLOURS[(number + 7) % 8];
        board.piece(
            p.square,
            svg::Piece::disc(p.kind.letter(), colour, p.kind.name()),
        );
    }
    let text = render_case(case, instance, solution);
    let title = text.lines().next().unwrap_or_default();
    let mut figure = Figure::new(title);
    figure.panel(board, "");
    let legend = legend(instance);
    let prices = legend
        .split_once("prices:")
        .map_or("", |(_, p)| p)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    figure.note(&format!("{KING_SYMBOL} king; prices: {prices}"));
    figure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_written_as_format_would() {
        let pieces: Vec<Placement> = (0..=255u8)
            .flat_map(|row| {
                [0u8, 8, 9, 98, 99, 254, 255].map(|col| Placement {
                    kind: PieceKind::ALL[usize::from(row ^ col) % 8],
                    square: Square::new(row, col),
                })
            })
            .collect();
        let mut expected = format!("{} 12345\n", pieces.len());
        assert_eq!(write_answer(&[], u64::MAX), format!("0 {}\n", u64::MAX));
        assert_eq!(write_answer(&[], 0), "0 0\n");
        for p in &pieces {
            expected.push_str(&format!(
                "{} {} {}\n",
                piece_number(p.kind),
                u32::from(p.square.row) + 1,
                u32::from(p.square.col) + 1
            ));
        }
        assert_eq!(write_answer(&pieces, 12345), expected);
    }
}

//! Writing answers: a listing's placements, a count, and the boards of `nqueens best` (its
//! judge-style format, one [`Solved`] per board), each as plain text, boards drawn for people,
//! or JSON.

use std::io::{self, Write};

use serde::Serialize;

use crate::core::placements::MAX_N;
use crate::core::svg::{self, Figure, Labels, Mark};
use crate::core::{Diagram, Square, diagram};
use crate::output::{self, CaseAnswer, OutputFormat};

use super::best::{Best, Weights};
use super::problem::Problem;

/// One placement of a listing (see [`crate::output::write_case`], the placement's number for
/// the case's): the rows (1-based) of the queens of each column, the board drawn, or JSON.
pub struct Listing<'a> {
    problem: &'a Problem,
    rows: &'a [u8],
}

impl<'a> Listing<'a> {
    /// The placement `rows` (0-based rows of the queens of each column) of `problem`.
    pub fn new(problem: &'a Problem, rows: &'a [u8]) -> Listing<'a> {
        Listing { problem, rows }
    }
}

impl CaseAnswer for Listing<'_> {
    type Json = JsonPlacement;

    /// The rows from 1, one line, made in a buffer and written once (a listing is millions
    /// of lines: a write and a formatting call per number cost more than the search in the
    /// browser's module).
    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, _: u64) -> io::Result<()> {
        // Rows below 99: at most two digits and a space each.
        let mut line = [0u8; 3 * MAX_N + 1];
        if self.rows.len() > MAX_N || self.rows.iter().any(|&r| r >= 99) {
            for (c, &r) in self.rows.iter().enumerate() {
                if c > 0 {
                    out.write_all(b" ")?;
                }
                write!(out, "{}", u32::from(r) + 1)?;
            }
            return out.write_all(b"\n");
        }
        let mut len = 0;
        for (c, &r) in self.rows.iter().enumerate() {
            if c > 0 {
                line[len] = b' ';
                len += 1;
            }
            let row = r + 1;
            if row >= 10 {
                line[len] = b'0' + row / 10;
                len += 1;
            }
            line[len] = b'0' + row % 10;
            len += 1;
        }
        line[len] = b'\n';
        out.write_all(&line[..=len])
    }

    fn board(&self, number: u64) -> String {
        let numbers: Vec<String> = self
            .rows
            .iter()
            .map(|r| (u32::from(*r) + 1).to_string())
            .collect();
        format!(
            "Placement {number}: {}\n{}",
            numbers.join(" "),
            diagram(self.problem.n(), Some(self.rows), self.problem.given())
        )
    }

    fn json(&self, number: u64) -> JsonPlacement {
        JsonPlacement {
            n: self.problem.n(),
            index: number,
            rows: self.rows.iter().map(|&r| u32::from(r) + 1).collect(),
        }
    }

    fn figure(&self, number: u64) -> Figure {
        let numbers: Vec<String> = self
            .rows
            .iter()
            .map(|r| (u32::from(*r) + 1).to_string())
            .collect();
        let mut figure = Figure::new(&format!("Placement {number}: {}", numbers.join(" ")));
        figure.panel(svg_board(self.problem, Some(self.rows)), "");
        figure.note(legend(self.problem));
        figure
    }
}

/// One board's answer in `nqueens best`: its best placement, or `None` when it has none
/// (sides 2 and 3); see [`crate::output::write_case`].
pub struct Solved<'a> {
    board: &'a Weights,
    best: Option<&'a Best>,
}

impl<'a> Solved<'a> {
    /// The answer `best` to `board`.
    pub fn new(board: &'a Weights, best: Option<&'a Best>) -> Solved<'a> {
        Solved { board, best }
    }
}

impl CaseAnswer for Solved<'_> {
    type Json = JsonBest;

    /// The best sum alone on a line, or `impossible`.
    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, _: u64) -> io::Result<()> {
        match self.best {
            Some(best) => writeln!(out, "{}", best.score),
            None => writeln!(out, "impossible"),
        }
    }

    fn board(&self, case: u64) -> String {
        render_best(case, self.board, self.best)
    }

    fn json(&self, case: u64) -> JsonBest {
        JsonBest {
            case,
            n: self.board.n(),
            score: self.best.map(|b| b.score),
            rows: self
                .best
                .map(|b| b.placement.iter().map(|&r| u32::from(r) + 1).collect()),
            proven: self.best.is_none_or(|b| b.proven),
        }
    }

    fn figure(&self, case: u64) -> Figure {
        let n = self.board.n();
        let weight = |r: usize, c: usize| u64::from(self.board.get(r, c));
        let text = render_best(case, self.board, self.best);
        let mut figure = Figure::new(text.lines().next().unwrap_or_default());
        let placement = self.best.map_or(&[][..], |b| &b.placement[..]);
        figure.panel(svg::weighted_board(n, weight, placement), "");
        if self.best.is_some() {
            figure.note("♛ the queens of the best placement, on marked squares; every square shows its weight");
        }
        figure
    }
}

/// Writes the count of `problem` in the chosen format.
pub fn write_count<W: Write>(
    out: &mut W,
    problem: &Problem,
    count: u128,
    format: OutputFormat,
) -> io::Result<()> {
    output::write_case(out, format, 1, &Counted { problem, count })
}

/// The number of placements of a problem: the number alone, the heading with the given queens
/// drawn, or JSON.
struct Counted<'a> {
    problem: &'a Problem,
    count: u128,
}

impl CaseAnswer for Counted<'_> {
    type Json = JsonCount;

    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, _: u64) -> io::Result<()> {
        writeln!(out, "{}", self.count)
    }

    fn board(&self, _: u64) -> String {
        let (problem, count) = (self.problem, self.count);
        let what = format!("{count} placement{}", if count == 1 { "" } else { "s" });
        let mut text = format!("{}\n", heading(problem, &what));
        // A board is drawn only to show the given queens: an empty one says nothing.
        if !problem.given().is_empty() {
            text.push_str(&diagram(problem.n(), None, problem.given()).to_string());
        }
        text
    }

    fn figure(&self, _: u64) -> Figure {
        let (problem, count) = (self.problem, self.count);
        let what = format!("{count} placement{}", if count == 1 { "" } else { "s" });
        let mut figure = Figure::new(&heading(problem, &what));
        // A board is drawn only to show the given queens: an empty one says nothing.
        if !problem.given().is_empty() {
            figure.panel(svg_board(problem, None), "");
            figure.note(legend(problem));
        }
        figure
    }

    fn json(&self, _: u64) -> JsonCount {
        JsonCount {
            n: self.problem.n(),
            given: given_1_based(self.problem),
            count: self.count,
        }
    }
}

/// `8x8 board, queens given at (1,1) (3,5): <what>`.
pub(super) fn heading(problem: &Problem, what: &str) -> String {
    let n = problem.n();
    if problem.given().is_empty() {
        format!("{n}x{n} board, no queen given: {what}")
    } else {
        let given: Vec<String> = problem.given().iter().map(|s| s.to_string()).collect();
        format!(
            "{n}x{n} board, queens given at {} ({GIVEN_QUEEN}): {what}",
            given.join(" ")
        )
    }
}

fn given_1_based(problem: &Problem) -> Vec<[u32; 2]> {
    problem
        .given()
        .iter()
        .map(|s| [u32::from(s.row) + 1, u32::from(s.col) + 1])
        .collect()
}

/// The symbol of a given queen in diagrams.
pub const GIVEN_QUEEN: &str = "♕";
/// The symbol of the other queens in diagrams.
pub const QUEEN: &str = "♛";

/// An `n`x`n` diagram with the queens of `rows` (if any) and the `given` ones marked.
pub fn diagram(n: usize, rows: Option<&[u8]>, given: &[Square]) -> Diagram {
    let mut d = Diagram::new(n, n);
    for (c, &r) in rows.unwrap_or(&[]).iter().enumerate() {
        d.set(Square::new(r, c as u8), QUEEN);
    }
    for &s in given {
        d.set(s, GIVEN_QUEEN);
    }
    d
}

/// The SVG document of a listing without placement: the board with its given queens.
pub(super) fn no_placement(problem: &Problem) -> String {
    let mut figure = Figure::new(&heading(problem, "no placement"));
    figure.panel(svg_board(problem, None), "");
    figure.to_document()
}

/// What the SVG boards of `nqueens` show: the given queens only when there are some.
fn legend(problem: &Problem) -> &'static str {
    if problem.given().is_empty() {
        "♛ the queens; rows from the top, columns from the left"
    } else {
        "♕ a given queen (on a marked square), ♛ the others; rows from the top, columns from the left"
    }
}

/// An `n`x`n` SVG board with the queens of `rows` (if any), the given ones marked.
fn svg_board(problem: &Problem, rows: Option<&[u8]>) -> svg::Board {
    let n = problem.n();
    let mut board = svg::Board::new(n, n, Labels::Numbers);
    for &s in problem.given() {
        board.mark(s, Mark::Highlight);
        board.piece(s, svg::Piece::given(GIVEN_QUEEN, "given queen"));
    }
    for (c, &r) in rows.unwrap_or(&[]).iter().enumerate() {
        let s = Square::new(r, c as u8);
        if !problem.given().contains(&s) {
            board.piece(s, svg::Piece::glyph(QUEEN, "queen"));
        }
    }
    board
}

/// One listed placement for programs (`--format json`, one object per line).
#[derive(Debug, Serialize)]
pub struct JsonPlacement {
    /// The board side.
    pub n: usize,
    /// The placement's number in the listing, from 1.
    pub index: u64,
    /// The rows (1-based) of the queens of columns 1..n.
    pub rows: Vec<u32>,
}

/// A count for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCount {
    /// The board side.
    pub n: usize,
    /// The given queens as `[row, column]`, 1-based.
    pub given: Vec<[u32; 2]>,
    /// The number of placements.
    pub count: u128,
}

/// The board drawn with its weights, the queens of the best placement in brackets (`[34]`),
/// and the sum spelled out, as `sultan` draws its boards; a best placement not proven (the
/// search was stopped) says so; for a board without placement (`None`), the board and why.
pub fn render_best(case: u64, board: &Weights, best: Option<&Best>) -> String {
    let n = board.n();
    let weight = |r: usize, c: usize| u64::from(board.get(r, c));
    let Some(best) = best else {
        let (d, _) = diagram::weighted_placement(n, weight, &[]);
        return format!(
            "Board {case} ({n}x{n}): impossible: no {n} queens fit on a {n}x{n} board without \
             attacking each other\n{d}"
        );
    };
    let (d, terms) = diagram::weighted_placement(n, weight, &best.placement);
    let what = if best.proven {
        "best score"
    } else {
        "best score found (stopped before the search ended: not proven the best)"
    };
    format!(
        "Board {case} ({n}x{n}): {what} {}\n{d}{}\n",
        diagram::sum_spelled_out(best.score, &terms),
        diagram::WEIGHTED_LEGEND
    )
}

/// One board's answer for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonBest {
    /// The board's number, from 1 (called `case` in every command's JSON).
    pub case: u64,
    /// The board's side n (an n x n board).
    pub n: usize,
    /// The best sum; `null` when no placement exists (sides 2 and 3).
    pub score: Option<u64>,
    /// A best placement: the rows (1-based) of the queens of columns 1..n; `null` when none
    /// exists.
    pub rows: Option<Vec<u32>>,
    /// True when the score is proven the best (or the board proven impossible); false when
    /// the search was stopped first (time limit, Ctrl-C) and this is the best found.
    pub proven: bool,
}

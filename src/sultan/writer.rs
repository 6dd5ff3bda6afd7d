//! Writing answers: the judge's score line, the board drawn with its best placement, and
//! JSON, one [`Solved`] per board.

use std::io::{self, Write};

use serde::Serialize;

use crate::core::svg::{self, Figure};
use crate::core::{CLASSIC, diagram};
use crate::output::CaseAnswer;

use super::{Best, Board, Solver};

/// One board's answer: its best score, and for people and programs the first placement that
/// reaches it (see [`crate::output::write_case`]).
pub struct Solved<'a> {
    solver: &'a Solver,
    board: Board,
}

impl Solved<'_> {
    /// The answer to `board`.
    pub fn new(solver: &Solver, board: Board) -> Solved<'_> {
        Solved { solver, board }
    }
}

impl CaseAnswer for Solved<'_> {
    type Json = JsonCase;

    /// The best score alone, as [`judge_line`] writes it.
    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, _: u64) -> io::Result<()> {
        writeln!(out, "{:5}", self.solver.best_score(&self.board))
    }

    fn board(&self, case: u64) -> String {
        render_case(case, &self.board, &self.solver.best(&self.board))
    }

    fn json(&self, case: u64) -> JsonCase {
        JsonCase::new(case, &self.solver.best(&self.board))
    }

    fn figure(&self, case: u64) -> Figure {
        figure(case, &self.board, &self.solver.best(&self.board))
    }
}

/// Writes a score as the judge wants it: right-justified in five columns, then a newline.
pub fn judge_line(score: u64) -> String {
    format!("{score:5}\n")
}

/// One board for programs (`--format json`): 1-based numbers.
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The board number, from 1.
    pub case: u64,
    /// The best score.
    pub score: u64,
    /// The first best placement: the rows (1-based) of the queens of columns 1..8 (called
    /// `rows`, as in every command's JSON).
    pub rows: [u32; CLASSIC],
}

impl JsonCase {
    /// The JSON form of a board's answer.
    pub fn new(case: u64, best: &Best) -> JsonCase {
        JsonCase {
            case,
            score: best.score,
            rows: best.placement.map(|r| u32::from(r) + 1),
        }
    }
}

/// The board drawn with its weights, the queens of the best placement in brackets (`[34]`),
/// and the sum spelled out.
pub fn render_case(case: u64, board: &Board, best: &Best) -> String {
    let weight = |r: usize, c: usize| u64::from(board.weights[r % CLASSIC][c % CLASSIC]);
    let (d, terms) = diagram::weighted_placement(CLASSIC, weight, &best.placement);
    format!(
        "Board {case}: best score {}\n{d}{}\n",
        diagram::sum_spelled_out(best.score, &terms),
        diagram::WEIGHTED_LEGEND
    )
}

/// The board in SVG: every weight, the queens of the best placement on marked squares, the
/// sum spelled out under it.
pub fn figure(case: u64, board: &Board, best: &Best) -> Figure {
    let weight = |r: usize, c: usize| u64::from(board.weights[r % CLASSIC][c % CLASSIC]);
    let mut figure = Figure::new(&format!("Board {case}: best score {}", best.score));
    figure.panel(
        svg::weighted_board(CLASSIC, weight, &best.placement),
        &format!(
            "queens on rows {} of columns 1 to 8",
            best.placement
                .iter()
                .map(|r| (r + 1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
    );
    let (_, terms) = diagram::weighted_placement(CLASSIC, weight, &best.placement);
    figure.note(&format!(
        "best score {}",
        diagram::sum_spelled_out(best.score, &terms)
    ));
    figure
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sultan::tests::sample_board;

    #[test]
    fn wide_scores_are_not_cut() {
        assert_eq!(judge_line(123456), "123456\n");
    }

    #[test]
    fn rendering_shows_the_terms() {
        let board = sample_board();
        let best = Solver::new().best(&board);
        let text = render_case(1, &board, &best);
        assert!(text.starts_with("Board 1: best score 260 = "));
        let queens = text.split('[').skip(1);
        assert_eq!(
            queens
                .filter(|p| p.starts_with(|c: char| c.is_ascii_digit()))
                .count(),
            8
        );
    }
}

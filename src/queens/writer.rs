//! Writing answers: the judge's format (headings, then the placements numbered), the
//! solutions drawn as boards, and JSON, one [`Solved`] per case.

use std::io::{self, Write};

use serde::Serialize;

use crate::core::svg::{self, Figure, Labels, Mark};
use crate::core::{CLASSIC, Diagram, Square, diagram};
use crate::output::CaseAnswer;

use super::{Placement, Solver, Style};

/// One case's answer: the placements that hold the given queen, written in every format
/// (see [`crate::output::write_case`]).
pub struct Solved<'a> {
    solver: &'a Solver,
    given: Square,
    style: Style,
}

impl Solved<'_> {
    /// The answer to the queen on `given`, in the judge's layout `style`.
    pub fn new(solver: &Solver, given: Square, style: Style) -> Solved<'_> {
        Solved {
            solver,
            given,
            style,
        }
    }

    fn solutions(&self) -> Vec<&Placement> {
        self.solver.solutions(self.given).collect()
    }
}

impl CaseAnswer for Solved<'_> {
    type Json = JsonCase;

    /// The solver's finished block, after an empty line from the second case on.
    fn write_judge<W: Write + ?Sized>(&self, out: &mut W, case: u64) -> io::Result<()> {
        if case > 1 {
            out.write_all(b"\n")?;
        }
        out.write_all(self.solver.judge_block(self.given, self.style))
    }

    fn board(&self, case: u64) -> String {
        render_case(case, self.given, &self.solutions())
    }

    fn json(&self, case: u64) -> JsonCase {
        JsonCase::new(case, self.given, &self.solutions())
    }

    fn figure(&self, case: u64) -> Figure {
        figure(case, self.given, &self.solutions())
    }
}

/// Writes one case in the judge's format: headings, then each placement numbered `%2d` and
/// followed by six spaces and the 1-based rows.
pub fn write_judge_case(
    out: &mut impl Write,
    solutions: &[&Placement],
    style: Style,
) -> io::Result<()> {
    out.write_all(b"SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n")?;
    if style == Style::Uva {
        out.write_all(b"\n")?;
    }
    for (i, p) in solutions.iter().enumerate() {
        write!(out, "{:2}      ", i + 1)?;
        for (c, &r) in p.iter().enumerate() {
            let sep = if c + 1 == p.len() { b'\n' } else { b' ' };
            out.write_all(&[b'1' + r, sep])?;
        }
    }
    Ok(())
}

/// One case for programs (`--format json`): 1-based numbers throughout.
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The case number, from 1.
    pub case: u64,
    /// The given queen as `[row, column]`.
    pub queen: [u32; 2],
    /// Each placement as the rows of columns 1..8.
    pub solutions: Vec<[u32; CLASSIC]>,
}

impl JsonCase {
    /// The JSON form of a case.
    pub fn new(case: u64, given: Square, solutions: &[&Placement]) -> JsonCase {
        JsonCase {
            case,
            queen: [u32::from(given.row) + 1, u32::from(given.col) + 1],
            solutions: solutions
                .iter()
                .map(|p| p.map(|r| u32::from(r) + 1))
                .collect(),
        }
    }
}

/// The symbol of the given queen in diagrams.
pub const GIVEN_QUEEN: &str = "♕";
/// The symbol of the other queens in diagrams.
pub const QUEEN: &str = "♛";

/// Draws one placement, the given queen marked with [`GIVEN_QUEEN`].
pub fn diagram(placement: &Placement, given: Option<Square>) -> Diagram {
    let mut d = Diagram::new(CLASSIC, CLASSIC);
    for (c, &r) in placement.iter().enumerate() {
        let sq = Square::new(r, c as u8);
        d.set(
            sq,
            if Some(sq) == given {
                GIVEN_QUEEN
            } else {
                QUEEN
            },
        );
    }
    d
}

/// Draws every solution of a case, four boards to a row, each titled with its number and rows.
pub fn render_case(case: u64, given: Square, solutions: &[&Placement]) -> String {
    let mut out = format!(
        "Case {case}: queen given on row {}, column {} ({GIVEN_QUEEN}); {} solutions\n",
        given.row + 1,
        given.col + 1,
        solutions.len()
    );
    for (chunk_index, chunk) in solutions.chunks(4).enumerate() {
        let blocks: Vec<String> = chunk
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let number = chunk_index * 4 + i + 1;
                let rows: String = p.iter().map(|r| char::from(b'1' + r)).collect();
                format!("#{number:<2} {rows}\n{}", diagram(p, Some(given)))
            })
            .collect();
        out.push('\n');
        out.push_str(&diagram::side_by_side(&blocks, 3));
    }
    out
}

/// Every solution of a case drawn in SVG, four boards to a row, each captioned with its number
/// and rows, the given queen marked (as [`render_case`] draws them in text).
pub fn figure(case: u64, given: Square, solutions: &[&Placement]) -> Figure {
    let mut figure = Figure::new(&format!(
        "Case {case}: queen given on row {}, column {}; {} solutions",
        given.row + 1,
        given.col + 1,
        solutions.len()
    ));
    figure.columns(4);
    for (i, p) in solutions.iter().enumerate() {
        let mut board = svg::Board::new(CLASSIC, CLASSIC, Labels::Numbers).fit(200.0);
        board.mark(given, Mark::Highlight);
        for (c, &r) in p.iter().enumerate() {
            let sq = Square::new(r, c as u8);
            let piece = if sq == given {
                svg::Piece::given(GIVEN_QUEEN, "given queen")
            } else {
                svg::Piece::glyph(QUEEN, "queen")
            };
            board.piece(sq, piece);
        }
        let rows: Vec<String> = p.iter().map(|r| (r + 1).to_string()).collect();
        figure.panel(board, &format!("#{} {}", i + 1, rows.join(" ")));
    }
    figure.note(&format!(
        "{GIVEN_QUEEN} the given queen (on a marked square), {QUEEN} the others; rows from the top, columns from the left."
    ));
    figure
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_rendering_marks_the_given_queen() {
        let solver = Solver::new();
        let given = Square::new(0, 0);
        let solutions: Vec<_> = solver.solutions(given).collect();
        let text = render_case(1, given, &solutions);
        assert_eq!(text.matches(GIVEN_QUEEN).count(), solutions.len() + 1);
        assert_eq!(text.matches(QUEEN).count(), solutions.len() * 7);
        assert!(text.contains("#1  15863724"));
    }
}

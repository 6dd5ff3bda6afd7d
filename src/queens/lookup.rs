//! The search of 8 Queens: the 92 placements found once, and each query answered by looking
//! its square up among them, its judge output kept for the next query of the same square.

use std::sync::OnceLock;

use crate::core::placements;
use crate::core::{CLASSIC, Square};

use super::writer::write_judge_case;
use super::{Placement, Style};

/// The 92 placements and the finished judge output of every square, built on first use.
pub struct Solver {
    placements: Vec<Placement>,
    blocks: [Vec<OnceLock<Vec<u8>>>; 2],
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Finds the 92 placements of eight queens.
    pub fn new() -> Solver {
        let placements = placements::all_arrays::<CLASSIC>();
        let squares = CLASSIC * CLASSIC;
        Solver {
            placements,
            blocks: [
                (0..squares).map(|_| OnceLock::new()).collect(),
                (0..squares).map(|_| OnceLock::new()).collect(),
            ],
        }
    }

    /// The placements with a queen on `given`, in lexicographic order.
    pub fn solutions(&self, given: Square) -> impl Iterator<Item = &Placement> {
        self.placements
            .iter()
            .filter(move |p| p.get(usize::from(given.col)) == Some(&given.row))
    }

    /// The judge's output for one case with the queen on `given`, without the empty line that
    /// separates cases.
    pub fn judge_block(&self, given: Square, style: Style) -> &[u8] {
        let table = &self.blocks[style as usize];
        let index = given.index(CLASSIC) % table.len();
        table[index].get_or_init(|| {
            let mut block = Vec::new();
            let solutions: Vec<&Placement> = self.solutions(given).collect();
            // Writing to a Vec cannot fail.
            let _ = write_judge_case(&mut block, &solutions, style);
            block
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queens::is_valid_solution;

    #[test]
    fn every_square_has_between_4_and_18_solutions() {
        let solver = Solver::new();
        assert_eq!(solver.placements.len(), 92);
        for i in 0..64 {
            let sq = Square::from_index(i, 8);
            let n = solver.solutions(sq).count();
            assert!((4..=18).contains(&n), "{sq}: {n}");
            assert!(solver.solutions(sq).all(|p| is_valid_solution(p, sq)));
        }
    }

    #[test]
    fn styles_differ_by_one_empty_line() {
        let solver = Solver::new();
        let sq = Square::new(3, 5);
        let plain = solver.judge_block(sq, Style::Statement);
        let uva = solver.judge_block(sq, Style::Uva);
        assert_eq!(uva.len(), plain.len() + 1);
        let heading_end = b"SOLN       COLUMN\n #      1 2 3 4 5 6 7 8\n".len();
        assert_eq!(&uva[heading_end..heading_end + 1], b"\n");
        assert_eq!(&uva[heading_end + 1..], &plain[heading_end..]);
    }
}

//! Every way a king could be checked on some final board: for each king, a SUPERSET of the
//! (piece, square) pairs that check it in any answer.
//!
//! The kings never move, and our own pieces can only add obstacles, so:
//! - a leap or step checks the king from a fixed square, whatever else stands on the board;
//! - a slide checks it only from an empty square with no king strictly between (our pieces
//!   could block it further, never open it);
//! - a cannon needs exactly one piece between: with one king between, it must find nothing else
//!   between; with no king between, one of our own pieces must stand between as its screen;
//!   with two kings or more between it can never check.
//!
//! These sets make the covering relaxation behind the lower bounds valid, drive the
//! exhaustive search, and list the moves the local search tries for an unchecked king.

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::instance::Instance;

/// One way a king may be checked.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Candidate {
    /// The checking piece.
    pub kind: PieceKind,
    /// Where it stands.
    pub square: Square,
    /// The cannon needs one of our pieces strictly between it and the king as its screen.
    pub needs_screen: bool,
    /// Which of the piece's moves reaches the king: moves of one group never check two kings
    /// at once (a slide or hop direction is one group; every leap is a group of its own).
    pub group: u8,
}

/// The candidate sets of every king of an instance. Kings are numbered 0.. in row-major order.
#[derive(Clone, Debug)]
pub struct Candidates {
    side: usize,
    kings: Vec<Square>,
    by_king: Vec<Vec<Candidate>>,
}

impl Candidates {
    /// The candidate sets of every king of `instance`.
    pub fn new(instance: &Instance) -> Candidates {
        let side = instance.side();
        let kings: Vec<Square> = instance.kings().iter().collect();
        let by_king = kings
            .iter()
            .map(|&king| of_square(instance, king))
            .collect();
        Candidates {
            side,
            kings,
            by_king,
        }
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// How many kings there are.
    pub fn king_count(&self) -> usize {
        self.kings.len()
    }

    /// The square of king `k`.
    pub fn king_square(&self, k: usize) -> Square {
        self.kings[k]
    }

    /// The kings' squares, by number.
    pub fn king_squares(&self) -> &[Square] {
        &self.kings
    }

    /// Every way king `k` may be checked.
    pub fn of_king(&self, k: usize) -> &[Candidate] {
        &self.by_king[k]
    }
}

/// The candidates of the king on `king`.
fn of_square(instance: &Instance, king: Square) -> Vec<Candidate> {
    let n = instance.side();
    let empty = |sq: Square| !instance.is_king(sq);
    let mut out: Vec<Candidate> = Vec::new();
    for kind in PieceKind::ALL {
        let m = kind.movement();
        let mut group = 0u8;
        // A piece on `from` leaps by `(dr, dc)` onto the king: `from = king - offset`.
        for &(dr, dc) in m.leaps {
            if let Some(from) = king.offset(-i32::from(dr), -i32::from(dc), n)
                && empty(from)
            {
                out.push(Candidate {
                    kind,
                    square: from,
                    needs_screen: false,
                    group,
                });
            }
            group += 1;
        }
        for &(dr, dc) in m.slides {
            let mut at = king;
            while let Some(from) = at.offset(-i32::from(dr), -i32::from(dc), n) {
                if !empty(from) {
                    break;
                }
                out.push(Candidate {
                    kind,
                    square: from,
                    needs_screen: false,
                    group,
                });
                at = from;
            }
            group += 1;
        }
        for &(dr, dc) in m.hops {
            let mut at = king;
            let mut kings_between = 0;
            while let Some(from) = at.offset(-i32::from(dr), -i32::from(dc), n) {
                if !empty(from) {
                    kings_between += 1;
                    if kings_between == 2 {
                        break;
                    }
                } else {
                    // Right next to the king there is no room for a screen.
                    let adjacent = at == king;
                    if kings_between == 1 || !adjacent {
                        out.push(Candidate {
                            kind,
                            square: from,
                            needs_screen: kings_between == 0,
                            group,
                        });
                    }
                }
                at = from;
            }
            group += 1;
        }
    }
    // Grouped by square, so that what a square blocks is worked out once for all its pieces.
    out.sort_by_key(|c| (c.square, c.kind));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SquareSet;
    use crate::core::pieces::attacks;

    fn instance(rows: &[&str]) -> Instance {
        let n = rows.len();
        let mut kings = SquareSet::new(n);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    kings.insert(Square::new(r as u8, c as u8));
                }
            }
        }
        Instance::new(n, kings, [1; 8]).unwrap()
    }

    /// Every (piece, square) that checks a king on a board holding at most one more piece of
    /// ours (enough to exercise screens and blocks) is among that king's candidates.
    #[test]
    fn candidates_contain_every_check_on_boards_with_one_extra_piece() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        for _ in 0..60 {
            let n = 2 + (next() % 5) as usize;
            let mut kings = SquareSet::new(n);
            for sq in SquareSet::full(n).iter() {
                if next() % 3 == 0 {
                    kings.insert(sq);
                }
            }
            let Ok(inst) = Instance::new(n, kings.clone(), [1; 8]) else {
                continue;
            };
            let cands = Candidates::new(&inst);
            let empties: Vec<Square> = SquareSet::full(n)
                .iter()
                .filter(|&s| !kings.contains(s))
                .collect();
            for &extra in empties.iter().chain([Square::new(200, 200)].iter()) {
                let mut occupied = kings.clone();
                occupied.insert(extra);
                for &from in &empties {
                    if from == extra {
                        continue;
                    }
                    let mut with_piece = occupied.clone();
                    with_piece.insert(from);
                    for kind in PieceKind::ALL {
                        let hit = attacks(kind, from, &with_piece);
                        for k in 0..cands.king_count() {
                            if hit.contains(cands.king_square(k)) {
                                assert!(
                                    cands
                                        .of_king(k)
                                        .iter()
                                        .any(|c| c.kind == kind && c.square == from),
                                    "{kind:?} on {from} checks king {} (extra piece on {extra})",
                                    cands.king_square(k)
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn cannon_candidates_along_a_row() {
        // Row: _ _ # _ # _ #   (king 0 on column 3 of 7... the last one is checked from
        // the left over the king on column 5 with nothing else between, or over one of our
        // pieces between columns 5 and 7 - impossible here: they are adjacent).
        let inst = instance(&[
            "__#_#_#", "_______", "_______", "_______", "_______", "_______", "_______",
        ]);
        let cands = Candidates::new(&inst);
        let last = (0..cands.king_count())
            .find(|&k| cands.king_square(k) == Square::new(0, 6))
            .unwrap();
        let mut cannons: Vec<(u8, bool)> = cands
            .of_king(last)
            .iter()
            .filter(|c| c.kind == PieceKind::Cannon && c.square.row == 0)
            .map(|c| (c.square.col, c.needs_screen))
            .collect();
        cannons.sort();
        // Column 5 is adjacent (no room for a screen); column 3 jumps the king on column 4.
        assert_eq!(cannons, [(3, false)]);
    }
}

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
//! exhaustive search, and list the moves the local search tries for an unchecked king. They
//! depend on the kings' squares alone (not on the prices), so they are built from those: the
//! test case itself builds them to find a king no piece could check.

use rayon::prelude::*;

use crate::core::pieces::PieceKind;
use crate::core::{Square, SquareSet};

use super::deadline::Deadline;

/// Kings per part of the parallel construction of [`Candidates`].
const PART: usize = 2048;

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

/// The candidate sets of every king of a board. Kings are numbered 0.. in row-major order.
#[derive(Clone, Debug)]
pub struct Candidates {
    side: usize,
    kings: Vec<Square>,
    /// Every king's candidates, one after the other; king `k`'s are
    /// `all[starts[k]..starts[k + 1]]`.
    all: Vec<Candidate>,
    starts: Vec<usize>,
}

impl Candidates {
    /// The candidate sets of every king of the board whose kings stand on `kings` (a test
    /// case's kings).
    pub fn new(kings: &SquareSet) -> Candidates {
        // Without a deadline `until` always answers.
        Self::until(kings, Deadline::NEVER).unwrap_or_else(|| Candidates {
            side: kings.side(),
            kings: Vec::new(),
            all: Vec::new(),
            starts: vec![0],
        })
    }

    /// [`Candidates::new`], unless `deadline` passes first: `None` then. The deadline is looked
    /// at before each part of 2048 kings (tens of milliseconds on a 256x256 board).
    pub fn until(kings: &SquareSet, deadline: Deadline<'_>) -> Option<Candidates> {
        let side = kings.side();
        let squares: Vec<Square> = kings.iter().collect();
        // Large boards have tens of thousands of kings: their sets are built in parallel.
        let parts: Vec<(Vec<Candidate>, Vec<usize>)> = squares
            .par_chunks(PART)
            .map(|part| {
                if deadline.passed() {
                    return None;
                }
                let mut all = Vec::new();
                let mut ends = Vec::with_capacity(part.len());
                for &king in part {
                    of_square(kings, king, &mut all);
                    ends.push(all.len());
                }
                Some((all, ends))
            })
            .collect::<Option<_>>()?;
        let mut all = Vec::with_capacity(parts.iter().map(|(a, _)| a.len()).sum());
        let mut starts = Vec::with_capacity(squares.len() + 1);
        starts.push(0);
        for (part, ends) in parts {
            let base = all.len();
            all.extend(part);
            starts.extend(ends.into_iter().map(|e| base + e));
        }
        Some(Candidates {
            side,
            kings: squares,
            all,
            starts,
        })
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
        &self.all[self.starts[k]..self.starts[k + 1]]
    }
}

/// Appends the candidates of the king on `king` to `out`, the board's kings on `kings`.
fn of_square(kings: &SquareSet, king: Square, out: &mut Vec<Candidate>) {
    let first = out.len();
    let n = kings.side();
    let empty = |sq: Square| !kings.contains(sq);
    // The square `i` steps from the king against the direction `(dr, dc)`.
    let back = |(dr, dc): (i8, i8), i: i32| king.offset(-i32::from(dr) * i, -i32::from(dc) * i, n);
    // Per unit direction, walked once for every piece that slides or hops along it: the
    // empty squares behind the king before the first king or the edge, and whether a king
    // stands there, then the empty squares behind that king.
    let mut walks: [Option<(i32, bool, i32)>; 9] = [None; 9];
    let mut walk = |d: (i8, i8)| {
        let slot = &mut walks[((d.0 + 1) * 3 + d.1 + 1) as usize];
        *slot.get_or_insert_with(|| {
            let run = |from: i32| {
                (from..)
                    .take_while(|&i| back(d, i).is_some_and(empty))
                    .count() as i32
            };
            let first_run = run(1);
            let screen = back(d, first_run + 1).is_some();
            let second_run = if screen { run(first_run + 2) } else { 0 };
            (first_run, screen, second_run)
        })
    };
    for kind in PieceKind::ALL {
        let m = kind.movement();
        let mut group = 0u8;
        let mut push = |square: Square, needs_screen: bool, group: u8| {
            out.push(Candidate {
                kind,
                square,
                needs_screen,
                group,
            });
        };
        // A piece on `from` leaps by `(dr, dc)` onto the king: `from = king - offset`.
        for &d in m.leaps {
            if let Some(from) = back(d, 1).filter(|&sq| empty(sq)) {
                push(from, false, group);
            }
            group += 1;
        }
        // A slide reaches the king from every empty square before the first king.
        for &d in m.slides {
            let (run, _, _) = walk(d);
            for i in 1..=run {
                if let Some(from) = back(d, i) {
                    push(from, false, group);
                }
            }
            group += 1;
        }
        // A hop: with one of our pieces as the screen from the empty squares before the
        // first king (not right next to the king: no room for a screen), with that king as
        // the screen from the empty squares behind it.
        for &d in m.hops {
            let (run, screen, behind) = walk(d);
            for i in 2..=run {
                if let Some(from) = back(d, i) {
                    push(from, true, group);
                }
            }
            if screen {
                for i in run + 2..=run + 1 + behind {
                    if let Some(from) = back(d, i) {
                        push(from, false, group);
                    }
                }
            }
            group += 1;
        }
    }
    // Grouped by square, so that what a square blocks is worked out once for all its pieces.
    // A piece reaches the king from a square by one move only, so the keys are distinct and
    // the order is fully determined.
    out[first..].sort_unstable_by_key(|c| {
        (u32::from(c.square.row) << 16) | (u32::from(c.square.col) << 8) | c.kind.index() as u32
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::pieces::attacks;
    use crate::showdown::tests::kings_drawn;

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
            let cands = Candidates::new(&kings);
            // Only the boards a test case accepts: every king can be checked.
            if (0..cands.king_count()).any(|k| cands.of_king(k).is_empty()) {
                continue;
            }
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
        let kings = kings_drawn(&[
            "__#_#_#", "_______", "_______", "_______", "_______", "_______", "_______",
        ]);
        let cands = Candidates::new(&kings);
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

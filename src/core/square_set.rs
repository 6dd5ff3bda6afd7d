//! A set of squares of a square board of any side, one bit per square.
//!
//! Invariant: bit `row * n + col` of the words stands for the square at `row`, `col` (0-based) of
//! the board of side `n` the set was made for; no bit at or beyond `n * n` is ever set. Unlike
//! [`Bitboard`](super::Bitboard), which is one machine word for boards up to 8x8, a `SquareSet`
//! holds `ceil(n * n / 64)` words, so it serves any board a [`Square`] can address (side up to
//! [`MAX_SIDE`](super::square::MAX_SIDE)).
//!
//! ```
//! use chess_puzzles::core::{Square, SquareSet};
//!
//! let mut set = SquareSet::new(25);
//! set.insert(Square::new(24, 24));
//! set.insert(Square::new(0, 3));
//! assert!(set.contains(Square::new(24, 24)));
//! assert_eq!(set.iter().collect::<Vec<_>>(), [Square::new(0, 3), Square::new(24, 24)]);
//! ```

use std::fmt;

use super::square::{self, Square};

/// A set of squares of a board of side `n`. See the [module docs](self).
#[derive(Clone, Eq, PartialEq, Hash, Default)]
pub struct SquareSet {
    side: usize,
    words: Vec<u64>,
}

impl SquareSet {
    /// The empty set of a board of side `side`.
    pub fn new(side: usize) -> SquareSet {
        SquareSet {
            side,
            words: vec![0; (side * side).div_ceil(64)],
        }
    }

    /// Every square of the board of side `side`.
    pub fn full(side: usize) -> SquareSet {
        let mut set = SquareSet::new(side);
        for i in 0..side * side {
            set.words[i / 64] |= 1 << (i % 64);
        }
        set
    }

    /// The side of the board the set belongs to.
    pub fn side(&self) -> usize {
        self.side
    }

    /// True when `sq` lies on the board.
    pub fn on_board(&self, sq: Square) -> bool {
        usize::from(sq.row) < self.side && usize::from(sq.col) < self.side
    }

    /// True when `sq` is in the set (squares off the board never are).
    pub fn contains(&self, sq: Square) -> bool {
        self.on_board(sq) && {
            let i = sq.index(self.side);
            self.words[i / 64] >> (i % 64) & 1 == 1
        }
    }

    /// Adds `sq`; returns false (and changes nothing) when it lies off the board.
    pub fn insert(&mut self, sq: Square) -> bool {
        if !self.on_board(sq) {
            return false;
        }
        let i = sq.index(self.side);
        self.words[i / 64] |= 1 << (i % 64);
        true
    }

    /// Removes `sq` (nothing happens for a square that is not in the set).
    pub fn remove(&mut self, sq: Square) {
        if self.on_board(sq) {
            let i = sq.index(self.side);
            self.words[i / 64] &= !(1 << (i % 64));
        }
    }

    /// How many squares are in the set.
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// True when no square is in the set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The squares in row-major order, found a word of 64 squares at a time (the row followed
    /// as the index grows: no division per square).
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        let side = self.side;
        let (mut row, mut row_start) = (0, 0);
        self.words
            .iter()
            .enumerate()
            .flat_map(|(w, &word)| {
                let mut bits = word;
                std::iter::from_fn(move || {
                    if bits == 0 {
                        return None;
                    }
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    Some(i)
                })
            })
            .map(move |i| {
                while i >= row_start + side {
                    row += 1;
                    row_start += side;
                }
                Square::new(row as u8, (i - row_start) as u8)
            })
    }

    /// The first square (row by row) of this set that is not in `other` (a set of a board of
    /// the same side), found a word of 64 squares at a time.
    pub fn first_not_in(&self, other: &SquareSet) -> Option<Square> {
        let missing = |(w, (&a, &b)): (usize, (&u64, &u64))| {
            let left = a & !b;
            (left != 0)
                .then(|| Square::from_index(w * 64 + left.trailing_zeros() as usize, self.side))
        };
        let covered = other.words.iter().chain(std::iter::repeat(&0));
        self.words.iter().zip(covered).enumerate().find_map(missing)
    }

    /// The squares in both sets (the sets must belong to boards of the same side).
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        SquareSet {
            side: self.side,
            words: self
                .words
                .iter()
                .zip(&other.words)
                .map(|(a, b)| a & b)
                .collect(),
        }
    }
}

impl FromIterator<Square> for SquareSet {
    /// Collects squares into a set whose side is one more than the largest row or column seen;
    /// prefer [`SquareSet::new`] and [`SquareSet::insert`] when the board's side is known.
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let squares: Vec<Square> = iter.into_iter().collect();
        let side = squares
            .iter()
            .map(|s| usize::from(s.row.max(s.col)) + 1)
            .max()
            .unwrap_or(0);
        let mut set = SquareSet::new(side);
        for sq in squares {
            set.insert(sq);
        }
        set
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "SquareSet({}x{})", self.side, self.side)?;
        square::write_marks(f, self.side, |sq| self.contains(sq))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_of_every_side_round_trips() {
        for side in [1usize, 2, 7, 8, 9, 25, 64, 65] {
            let full = SquareSet::full(side);
            assert_eq!(full.count(), side * side);
            let squares: Vec<Square> = full.iter().collect();
            assert_eq!(squares.len(), side * side);
            for (i, sq) in squares.iter().enumerate() {
                assert_eq!(sq.index(side), i);
            }
            let mut set = SquareSet::new(side);
            for (i, &sq) in squares.iter().enumerate() {
                if i % 3 == 0 {
                    set.insert(sq);
                }
            }
            for (i, &sq) in squares.iter().enumerate() {
                assert_eq!(set.contains(sq), i % 3 == 0);
            }
            set.remove(squares[0]);
            assert!(!set.contains(squares[0]));
        }
    }

    /// Sparse sets, whose squares skip rows and words: the squares in row-major order, each
    /// where a plain walk of the board finds it.
    #[test]
    fn sparse_sets_list_their_squares_in_order() {
        for side in [1usize, 3, 8, 9, 31, 64, 100, 256] {
            for step in [1usize, 2, 5, 63, 64, 65, 257, 1000] {
                let all = side * side;
                let expected: Vec<Square> = (0..all)
                    .filter(|i| (i * 7 + side) % step == 0)
                    .map(|i| Square::from_index(i, side))
                    .collect();
                let set: SquareSet = {
                    let mut set = SquareSet::new(side);
                    expected.iter().for_each(|&sq| {
                        set.insert(sq);
                    });
                    set
                };
                assert_eq!(set.iter().collect::<Vec<_>>(), expected, "{side} {step}");
            }
        }
    }

    #[test]
    fn squares_off_the_board_are_refused() {
        let mut set = SquareSet::new(3);
        assert!(!set.insert(Square::new(3, 0)));
        assert!(!set.contains(Square::new(0, 3)));
        assert!(set.is_empty());
        set.remove(Square::new(5, 5));
        assert_eq!(set.count(), 0);
    }

    #[test]
    fn intersection_and_collect() {
        let a: SquareSet = [Square::new(0, 0), Square::new(2, 1)].into_iter().collect();
        let mut b = SquareSet::new(3);
        b.insert(Square::new(2, 1));
        b.insert(Square::new(1, 1));
        assert_eq!(a.side(), 3);
        assert_eq!(
            a.intersection(&b).iter().collect::<Vec<_>>(),
            [Square::new(2, 1)]
        );
        assert_eq!(a.first_not_in(&b), Some(Square::new(0, 0)));
        assert_eq!(b.first_not_in(&b), None);
    }

    #[test]
    fn the_first_square_not_in_another_set_is_the_first_of_the_difference() {
        for side in [1usize, 7, 8, 9, 64, 100] {
            let full = SquareSet::full(side);
            for skip in [0, side * side / 2, side * side - 1] {
                let mut most = full.clone();
                let gone = Square::from_index(skip, side);
                most.remove(gone);
                assert_eq!(full.first_not_in(&most), Some(gone));
                assert_eq!(most.first_not_in(&full), None);
            }
        }
    }
}

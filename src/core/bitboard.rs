//! A set of squares of a board of side at most 8, one bit per square.
//!
//! Invariant: bit `row * 8 + col` stands for the square at `row`, `col` (0-based), whatever the
//! board's side `n <= 8`; bits of squares outside an `n`-board are never set by this module's
//! constructors. Rows are numbered from the top, as the judges number them.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Sub};

use super::square::{self, Square};

/// The widest board a [`Bitboard`] covers.
pub const SIDE: usize = 8;

/// A set of squares of a board of side at most [`SIDE`]. See the [module docs](self).
#[derive(Copy, Clone, Eq, PartialEq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square of the 8x8 board.
    pub const FULL: Bitboard = Bitboard(u64::MAX);

    /// The bit of one square (`row` and `col` below 8).
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << (sq.row as u32 * 8 + sq.col as u32))
    }

    /// Every square of an `n`x`n` board in the top-left corner (`n <= 8`).
    pub const fn board(n: usize) -> Bitboard {
        let row: u64 = if n >= 8 { 0xff } else { (1u64 << n) - 1 };
        let mut bits = 0;
        let mut r = 0;
        while r < n {
            bits |= row << (8 * r);
            r += 1;
        }
        Bitboard(bits)
    }

    /// True when no square is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many squares are in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & Bitboard::from_square(sq).0 != 0
    }

    /// Adds `sq`.
    pub fn insert(&mut self, sq: Square) {
        self.0 |= Bitboard::from_square(sq).0;
    }

    /// Removes `sq`.
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !Bitboard::from_square(sq).0;
    }

    /// The first square in row-major order, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            Some(Square::new((i / 8) as u8, (i % 8) as u8))
        }
    }

    /// The squares in row-major order.
    pub fn iter(self) -> impl Iterator<Item = Square> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Square::new((i / 8) as u8, (i % 8) as u8))
        })
    }

    /// The up to eight neighbours of `sq` (a king's moves) on the 8x8 board.
    pub const fn neighbours(sq: Square) -> Bitboard {
        NEIGHBOURS[sq.row as usize * 8 + sq.col as usize]
    }

    /// The squares a queen on `sq` reaches on an 8x8 board where `occupied` squares block:
    /// it stops before the first occupied square in each of the eight directions.
    pub fn queen_moves(sq: Square, occupied: Bitboard) -> Bitboard {
        let mut moves = Bitboard::EMPTY;
        for (dr, dc) in DIRECTIONS {
            let mut at = sq;
            while let Some(next) = at.offset(dr, dc, SIDE) {
                if occupied.contains(next) {
                    break;
                }
                moves.insert(next);
                at = next;
            }
        }
        moves
    }
}

/// The eight directions of a queen (and a king), as (row, column) steps.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

const NEIGHBOURS: [Bitboard; 64] = {
    let mut table = [Bitboard::EMPTY; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = ((i / 8) as i32, (i % 8) as i32);
        let mut bits = 0u64;
        let mut d = 0;
        while d < 8 {
            let (nr, nc) = (r + DIRECTIONS[d].0, c + DIRECTIONS[d].1);
            if nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                bits |= 1 << (nr * 8 + nc);
            }
            d += 1;
        }
        table[i] = Bitboard(bits);
        i += 1;
    }
    table
};

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(0x{:016x})", self.0)?;
        square::write_marks(f, 8, |sq| self.contains(sq))
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Sub for Bitboard {
    type Output = Bitboard;
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for sq in iter {
            b.insert(sq);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_squares() -> impl Iterator<Item = Square> {
        (0..64).map(|i| Square::from_index(i, 8))
    }

    #[test]
    fn neighbours_match_square_is_neighbour() {
        for a in all_squares() {
            let expected: Bitboard = all_squares().filter(|&b| a.is_neighbour(b)).collect();
            assert_eq!(Bitboard::neighbours(a), expected, "{a}");
        }
    }

    #[test]
    fn iteration_is_row_major_and_complete() {
        let b: Bitboard = [Square::new(7, 0), Square::new(0, 3), Square::new(2, 2)]
            .into_iter()
            .collect();
        let got: Vec<_> = b.iter().collect();
        assert_eq!(
            got,
            vec![Square::new(0, 3), Square::new(2, 2), Square::new(7, 0)]
        );
        assert_eq!(b.count(), 3);
        assert_eq!(b.first(), Some(Square::new(0, 3)));
    }

    #[test]
    fn board_masks() {
        assert_eq!(Bitboard::board(8), Bitboard::FULL);
        assert_eq!(Bitboard::board(0), Bitboard::EMPTY);
        assert_eq!(Bitboard::board(2).count(), 4);
        assert!(Bitboard::board(3).contains(Square::new(2, 2)));
        assert!(!Bitboard::board(3).contains(Square::new(0, 3)));
    }

    #[test]
    fn queen_moves_stop_at_blockers() {
        let q = Square::new(3, 3);
        assert_eq!(Bitboard::queen_moves(q, Bitboard::EMPTY).count(), 27);
        let blockers: Bitboard = [Square::new(3, 5), Square::new(1, 1)].into_iter().collect();
        let moves = Bitboard::queen_moves(q, blockers);
        assert!(moves.contains(Square::new(3, 4)));
        assert!(!moves.contains(Square::new(3, 5)));
        assert!(!moves.contains(Square::new(3, 6)));
        assert!(moves.contains(Square::new(2, 2)));
        assert!(!moves.contains(Square::new(0, 0)));
        assert_eq!(moves.count(), 27 - 3 - 2);
    }
}

//! Sliding moves of whole sets of squares at once: Kogge-Stone parallel-prefix fills.
//!
//! A fill shifts a set of sources along one direction in three doubling steps (1, 2, 4 squares),
//! letting it pass only over "open" squares, so every square a slider reaches from any of the
//! sources is found in a constant number of word operations, whatever the number of sources.
//! The bit layout is the [`Bitboard`] one: bit `row * 8 + col`, row 0 at the top.
//!
//! ```
//! use chess_puzzles::core::{Bitboard, Square};
//!
//! let open = !Bitboard::from_square(Square::new(0, 3)); // one blocker on row 0
//! let sources = Bitboard::from_square(Square::new(0, 0));
//! let reach = sources.queen_fill(open);
//! assert!(reach.contains(Square::new(0, 2)));
//! assert!(!reach.contains(Square::new(0, 3)) && !reach.contains(Square::new(0, 4)));
//! assert_eq!(reach.count(), 2 + 7 + 7); // a row cut at b..c, a column and a diagonal
//! ```

use super::bitboard::Bitboard;

/// Every column but the leftmost (`col != 0`).
const NOT_LEFT: u64 = !0x0101_0101_0101_0101;
/// Every column but the rightmost (`col != 7`).
const NOT_RIGHT: u64 = !0x8080_8080_8080_8080;

/// One of the eight directions: a shift of the bit index and the squares a step may land on
/// (a step to the right must not wrap around to the left edge, and so on).
#[derive(Copy, Clone)]
struct Ray {
    /// Positive: towards higher bit indices (down or right); negative: towards lower ones.
    shift: i32,
    /// The squares a one-square step in this direction can land on.
    land: u64,
}

const RAYS: [Ray; 8] = [
    Ray {
        shift: 1,
        land: NOT_LEFT,
    }, // right
    Ray {
        shift: -1,
        land: NOT_RIGHT,
    }, // left
    Ray {
        shift: 8,
        land: u64::MAX,
    }, // down
    Ray {
        shift: -8,
        land: u64::MAX,
    }, // up
    Ray {
        shift: 9,
        land: NOT_LEFT,
    }, // down-right
    Ray {
        shift: 7,
        land: NOT_RIGHT,
    }, // down-left
    Ray {
        shift: -7,
        land: NOT_LEFT,
    }, // up-right
    Ray {
        shift: -9,
        land: NOT_RIGHT,
    }, // up-left
];

#[inline(always)]
fn shift(bits: u64, by: i32) -> u64 {
    if by >= 0 { bits << by } else { bits >> -by }
}

/// The squares a slider reaches from `sources` along one ray, passing over and landing on
/// `open` squares only.
#[inline(always)]
fn ray_fill(sources: u64, open: u64, ray: Ray) -> u64 {
    let s = ray.shift;
    let mut pass = open & ray.land;
    let mut reach = sources;
    reach |= pass & shift(reach, s);
    pass &= shift(pass, s);
    reach |= pass & shift(reach, 2 * s);
    pass &= shift(pass, 2 * s);
    reach |= pass & shift(reach, 4 * s);
    shift(reach, s) & ray.land & open
}

impl Bitboard {
    /// The squares a queen reaches in one move from any square of `self`, moving over and
    /// stopping on `open` squares only (on an 8x8 board).
    ///
    /// A source is in the result only when another source reaches it. Queen moves are
    /// symmetric, so the same fill also gives the squares from which a queen reaches `self`.
    #[inline]
    pub fn queen_fill(self, open: Bitboard) -> Bitboard {
        let (src, open) = (self.0, open.0);
        let mut reach = 0;
        for ray in RAYS {
            reach |= ray_fill(src, open, ray);
        }
        Bitboard(reach)
    }

    /// The squares one king step from any square of `self` (the set itself not included,
    /// unless one of its squares touches another).
    #[inline]
    pub fn king_fill(self) -> Bitboard {
        let src = self.0;
        let mut reach = 0;
        for ray in RAYS {
            reach |= shift(src, ray.shift) & ray.land;
        }
        Bitboard(reach)
    }

    /// The squares of `open` connected to `self` by king steps over `open` squares, `self`'s
    /// squares in `open` included: where a queen (or a king) on `self` can ever get to.
    pub fn flood(self, open: Bitboard) -> Bitboard {
        let mut region = self & open;
        loop {
            let grown = region | (region.king_fill() & open);
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    /// A small deterministic generator, so the tests need no random crate.
    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    fn squares(b: Bitboard) -> impl Iterator<Item = Square> {
        b.iter()
    }

    #[test]
    fn queen_fill_is_the_union_of_single_queen_moves() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..20_000 {
            let open = Bitboard(xorshift(&mut state) | xorshift(&mut state));
            let sources = Bitboard(xorshift(&mut state) & xorshift(&mut state) & open.0);
            let expected = squares(sources).fold(Bitboard::EMPTY, |acc, sq| {
                acc | (Bitboard::queen_moves(sq, !open) & open)
            });
            assert_eq!(sources.queen_fill(open), expected, "{sources:?}{open:?}");
        }
    }

    #[test]
    fn every_single_source_on_an_open_board() {
        for i in 0..64 {
            let sq = Square::from_index(i, 8);
            let b = Bitboard::from_square(sq);
            assert_eq!(
                b.queen_fill(Bitboard::FULL),
                Bitboard::queen_moves(sq, Bitboard::EMPTY)
            );
            assert_eq!(b.king_fill(), Bitboard::neighbours(sq));
        }
    }

    #[test]
    fn flood_follows_king_steps_only_over_open_squares() {
        // A wall on column 3 with a diagonal gap: rows 0..3 walled, row 4 open at (4,3).
        let mut wall = Bitboard::EMPTY;
        for r in 0..8 {
            if r != 4 {
                wall.insert(Square::new(r, 3));
            }
        }
        let left = Bitboard::from_square(Square::new(0, 0));
        assert_eq!(left.flood(!wall).count(), 64 - 7);
        wall.insert(Square::new(4, 3));
        assert_eq!(left.flood(!wall).count(), 24);
        assert_eq!(left.flood(Bitboard::EMPTY), Bitboard::EMPTY);
    }
}

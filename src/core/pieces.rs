//! How the pieces of chess, shogi, dai shogi and xiangqi capture, described as data.
//!
//! A [`Movement`] lists a piece's capturing moves in three kinds, each as (row, column) offsets
//! with rows counted downwards (row 0 is the top, so `-1` is one row up, "forward" for the shogi
//! generals, who move up the board):
//! - **leaps**: the piece captures on the square at that offset whatever stands between (a
//!   knight's jump, a phoenix's two-square diagonal jump, and every one-square step);
//! - **slides**: the piece moves any number of squares in that direction over empty squares and
//!   captures the first piece it meets (bishop, rook, the horse's diagonals);
//! - **hops**: the piece captures the first piece after exactly one other piece, the screen,
//!   in that direction, with any number of empty squares before and after it (the cannon).
//!
//! [`attacks`] turns the data into the squares a piece captures on, on a board of any side:
//!
//! ```
//! use chess_puzzles::core::pieces::{attacks, PieceKind};
//! use chess_puzzles::core::{Square, SquareSet};
//!
//! // A cannon on a1 of a 5x5 board, a screen on (1,3), targets on (1,4) and (1,5).
//! let mut occupied = SquareSet::new(5);
//! for col in [2, 3, 4] {
//!     occupied.insert(Square::new(0, col));
//! }
//! let hit = attacks(PieceKind::Cannon, Square::new(0, 0), &occupied);
//! assert!(hit.contains(Square::new(0, 3)));
//! assert!(!hit.contains(Square::new(0, 2))); // the screen
//! assert!(!hit.contains(Square::new(0, 4))); // behind a second piece
//! ```

use super::square::Square;
use super::square_set::SquareSet;

/// A (row, column) offset; rows grow downwards.
pub type Offset = (i8, i8);

/// A piece's capturing moves as data. See the [module docs](self).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Movement {
    /// Offsets captured whatever stands between (steps and jumps).
    pub leaps: &'static [Offset],
    /// Directions slid along; the first piece met is captured.
    pub slides: &'static [Offset],
    /// Directions hopped along; the first piece after exactly one screen is captured.
    pub hops: &'static [Offset],
}

/// The four orthogonal unit steps.
pub const ORTHOGONAL: [Offset; 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];
/// The four diagonal unit steps.
pub const DIAGONAL: [Offset; 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// The eight knight's jumps.
pub const KNIGHT_JUMPS: [Offset; 8] = [
    (-2, -1),
    (-2, 1),
    (-1, -2),
    (-1, 2),
    (1, -2),
    (1, 2),
    (2, -1),
    (2, 1),
];
/// The gold general's six steps: the three forward (up), the two sideways, straight back.
pub const GOLD_STEPS: [Offset; 6] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
/// The silver general's five steps: the three forward (up) and the two diagonally back.
pub const SILVER_STEPS: [Offset; 5] = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)];
/// The phoenix's eight moves: one orthogonal step, or a jump of two squares diagonally.
pub const PHOENIX_MOVES: [Offset; 8] = [
    (-1, 0),
    (0, -1),
    (0, 1),
    (1, 0),
    (-2, -2),
    (-2, 2),
    (2, -2),
    (2, 2),
];

/// The eight pieces of Chess Variants Showdown (SPOJ CHE), in the statement's order.
#[derive(Copy, Clone, Eq, PartialEq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// Chess bishop: slides diagonally.
    Bishop,
    /// Chess rook: slides orthogonally.
    Rook,
    /// Chess knight: the eight (1, 2) jumps.
    Knight,
    /// Shogi gold general: one step in any direction but diagonally backwards (down).
    GoldGeneral,
    /// Shogi silver general: one step in any direction but sideways or straight backwards (down).
    SilverGeneral,
    /// Shogi horse (ryūma, the promoted bishop): a bishop's slides plus one orthogonal step.
    Horse,
    /// Dai shogi phoenix: one orthogonal step, or a jump of exactly two squares diagonally.
    Phoenix,
    /// Xiangqi cannon: captures orthogonally by jumping exactly one piece.
    Cannon,
}

impl PieceKind {
    /// All eight, in the statement's order.
    pub const ALL: [PieceKind; 8] = [
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Knight,
        PieceKind::GoldGeneral,
        PieceKind::SilverGeneral,
        PieceKind::Horse,
        PieceKind::Phoenix,
        PieceKind::Cannon,
    ];

    /// The position in [`PieceKind::ALL`], from 0.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The capturing moves of the piece, as data.
    pub const fn movement(self) -> Movement {
        let (leaps, slides, hops): (&[Offset], &[Offset], &[Offset]) = match self {
            PieceKind::Bishop => (&[], &DIAGONAL, &[]),
            PieceKind::Rook => (&[], &ORTHOGONAL, &[]),
            PieceKind::Knight => (&KNIGHT_JUMPS, &[], &[]),
            PieceKind::GoldGeneral => (&GOLD_STEPS, &[], &[]),
            PieceKind::SilverGeneral => (&SILVER_STEPS, &[], &[]),
            PieceKind::Horse => (&ORTHOGONAL, &DIAGONAL, &[]),
            PieceKind::Phoenix => (&PHOENIX_MOVES, &[], &[]),
            PieceKind::Cannon => (&[], &[], &ORTHOGONAL),
        };
        Movement {
            leaps,
            slides,
            hops,
        }
    }

    /// The English name, lower case.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Knight => "knight",
            PieceKind::GoldGeneral => "gold general",
            PieceKind::SilverGeneral => "silver general",
            PieceKind::Horse => "horse",
            PieceKind::Phoenix => "phoenix",
            PieceKind::Cannon => "cannon",
        }
    }

    /// One capital letter per piece, for diagrams: `B R N G S H F C` (F for the phoenix, the
    /// fenghuang, so that nothing suggests a pawn).
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Knight => 'N',
            PieceKind::GoldGeneral => 'G',
            PieceKind::SilverGeneral => 'S',
            PieceKind::Horse => 'H',
            PieceKind::Phoenix => 'F',
            PieceKind::Cannon => 'C',
        }
    }

    /// True when what stands on the board can change what the piece captures (it slides or hops).
    pub const fn is_blockable(self) -> bool {
        let m = self.movement();
        !m.slides.is_empty() || !m.hops.is_empty()
    }
}

/// Calls `visit` with every square a piece of `kind` on `from` captures on, on a board of side
/// `n` where `occupied(sq)` tells which squares hold a piece (of either side). Squares
/// may be visited more than once only if the movement data repeats them (it does not).
///
/// A square is captured on when an enemy piece standing there could be taken: for a slide,
/// the empty squares along the line and the first occupied one; for a hop, the empty squares
/// after the screen and the first occupied square after it.
pub fn for_each_attack(
    kind: PieceKind,
    from: Square,
    n: usize,
    occupied: impl Fn(Square) -> bool,
    mut visit: impl FnMut(Square),
) {
    let m = kind.movement();
    for &(dr, dc) in m.leaps {
        if let Some(to) = from.offset(i32::from(dr), i32::from(dc), n) {
            visit(to);
        }
    }
    for &(dr, dc) in m.slides {
        let mut at = from;
        while let Some(to) = at.offset(i32::from(dr), i32::from(dc), n) {
            visit(to);
            if occupied(to) {
                break;
            }
            at = to;
        }
    }
    for &(dr, dc) in m.hops {
        let mut at = from;
        let mut screened = false;
        while let Some(to) = at.offset(i32::from(dr), i32::from(dc), n) {
            if screened {
                visit(to);
            }
            if occupied(to) {
                if screened {
                    break;
                }
                screened = true;
            }
            at = to;
        }
    }
}

/// The squares a piece of `kind` on `from` captures on, given the occupied squares (whose side
/// is the board's). See [`for_each_attack`].
pub fn attacks(kind: PieceKind, from: Square, occupied: &SquareSet) -> SquareSet {
    let n = occupied.side();
    let mut hit = SquareSet::new(n);
    for_each_attack(
        kind,
        from,
        n,
        |sq| occupied.contains(sq),
        |sq| {
            hit.insert(sq);
        },
    );
    hit
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny deterministic generator, so the core needs no random crate in its unit tests.
    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    /// The number of occupied squares strictly between two squares on one line.
    fn between(from: Square, to: Square, occupied: &SquareSet) -> usize {
        let (r0, c0) = (i32::from(from.row), i32::from(from.col));
        let (r1, c1) = (i32::from(to.row), i32::from(to.col));
        let steps = (r1 - r0).abs().max((c1 - c0).abs());
        let (sr, sc) = ((r1 - r0).signum(), (c1 - c0).signum());
        (1..steps)
            .filter(|&i| occupied.contains(Square::new((r0 + i * sr) as u8, (c0 + i * sc) as u8)))
            .count()
    }

    /// Each rule of the statement, written literally over the difference of the two squares.
    fn literal(kind: PieceKind, from: Square, to: Square, occupied: &SquareSet) -> bool {
        if from == to {
            return false;
        }
        // dr > 0: the target is further down the board (the generals' "backwards").
        let dr = i32::from(to.row) - i32::from(from.row);
        let dc = i32::from(to.col) - i32::from(from.col);
        let (ar, ac) = (dr.abs(), dc.abs());
        let neighbour = ar <= 1 && ac <= 1;
        let diagonal_line = ar == ac;
        let orthogonal_line = dr == 0 || dc == 0;
        let clear = || between(from, to, occupied) == 0;
        match kind {
            PieceKind::Bishop => diagonal_line && clear(),
            PieceKind::Rook => orthogonal_line && clear(),
            PieceKind::Knight => (ar == 1 && ac == 2) || (ar == 2 && ac == 1),
            // Any neighbour except diagonally backwards (down-left, down-right).
            PieceKind::GoldGeneral => neighbour && !(dr == 1 && ac == 1),
            // Any neighbour except directly left, directly right, directly backwards (down).
            PieceKind::SilverGeneral => neighbour && dr != 0 && !(dr == 1 && dc == 0),
            PieceKind::Horse => (diagonal_line && clear()) || ar + ac == 1,
            PieceKind::Phoenix => ar + ac == 1 || (ar == 2 && ac == 2),
            PieceKind::Cannon => orthogonal_line && between(from, to, occupied) == 1,
        }
    }

    #[test]
    fn data_matches_the_literal_rules_on_random_boards() {
        let mut rng = Lcg(2018);
        for trial in 0..400 {
            let n = 1 + (rng.next() % 12) as usize;
            let density = rng.next() % 100;
            let mut occupied = SquareSet::new(n);
            for sq in SquareSet::full(n).iter() {
                if rng.next() % 100 < density {
                    occupied.insert(sq);
                }
            }
            for from in SquareSet::full(n).iter() {
                for kind in PieceKind::ALL {
                    let hit = attacks(kind, from, &occupied);
                    for to in SquareSet::full(n).iter() {
                        // Only occupied targets matter for a capture, but the empty squares of
                        // a slide or behind a screen are capturable too if a piece stood there:
                        // check them against the rule with the target counted as occupied.
                        let mut with_target = occupied.clone();
                        with_target.insert(to);
                        assert_eq!(
                            hit.contains(to),
                            literal(kind, from, to, &with_target),
                            "trial {trial}: {kind:?} on {from} -> {to}, board {occupied:?}"
                        );
                    }
                }
            }
        }
    }

    /// Draws the squares a piece captures on a board given as rows of `.` (empty), `x` (a
    /// piece) and `*` (the piece itself): captured squares become `#` (occupied) or `o` (empty).
    fn draw(kind: PieceKind, rows: &[&str]) -> Vec<String> {
        let n = rows.len();
        let mut occupied = SquareSet::new(n);
        let mut from = Square::new(0, 0);
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let sq = Square::new(r as u8, c as u8);
                match ch {
                    'x' => {
                        occupied.insert(sq);
                    }
                    '*' => from = sq,
                    _ => {}
                }
            }
        }
        let hit = attacks(kind, from, &occupied);
        rows.iter()
            .enumerate()
            .map(|(r, row)| {
                row.chars()
                    .enumerate()
                    .map(
                        |(c, ch)| match (hit.contains(Square::new(r as u8, c as u8)), ch) {
                            (true, 'x') => '#',
                            (true, _) => 'o',
                            (false, ch) => ch,
                        },
                    )
                    .collect()
            })
            .collect()
    }

    /// Each piece on the `*` square of a small board: every row holds the board's row (`.`
    /// empty, `x` a piece) and, after two spaces, what [`draw`] must make of it.
    #[rustfmt::skip]
    const DIAGRAMS: &[(PieceKind, &[&str])] = &[
        (PieceKind::Bishop, &[
            "x....  #...o",
            ".....  .o.o.",
            "..*..  ..*..",
            ".x...  .#.o.",
            ".....  ....o",
        ]),
        (PieceKind::Rook, &[
            "..x..  ..#..",
            ".....  ..o..",
            "x.*.x  #o*o#",
            ".....  ..o..",
            "..x..  ..#..",
        ]),
        // The knight jumps over everything.
        (PieceKind::Knight, &[
            ".x...  .#.o.",
            "xxxx.  #xxxo",
            "xx*xx  xx*xx",
            ".xxx.  oxxxo",
            "x....  xo.o.",
        ]),
        // The generals' forward is up.
        (PieceKind::GoldGeneral, &[
            ".....  .....",
            ".....  .ooo.",
            "..*..  .o*o.",
            ".....  ..o..",
            ".....  .....",
        ]),
        (PieceKind::SilverGeneral, &[
            ".....  .....",
            ".....  .ooo.",
            "..*..  ..*..",
            ".....  .o.o.",
            ".....  .....",
        ]),
        // The horse is a bishop plus orthogonal steps.
        (PieceKind::Horse, &[
            ".....  ....o",
            ".x...  .#oo.",
            "..*x.  .o*#.",
            ".....  .ooo.",
            "x....  #...o",
        ]),
        // The phoenix leaps two squares diagonally.
        (PieceKind::Phoenix, &[
            "x....  #...o",
            ".x.x.  .xox.",
            "..*..  .o*o.",
            ".x.x.  .xox.",
            "x...x  #...#",
        ]),
        // The cannon needs exactly one screen. Up: screen on row 2, target on row 1. Left:
        // screen at column 1, nothing behind. Right: screen at column 5, then an empty square
        // and a target, both capturable. Down: screen on row 6, the empty square behind it
        // could be captured.
        (PieceKind::Cannon, &[
            "..x....  ..#....",
            "..x....  ..x....",
            ".......  .......",
            "x.*.x.x  x.*.xo#",
            ".......  .......",
            "..x....  ..x....",
            ".......  ..o....",
        ]),
    ];

    #[test]
    fn every_piece_captures_as_drawn() {
        for &(kind, rows) in DIAGRAMS {
            let (board, expected): (Vec<&str>, Vec<&str>) =
                rows.iter().filter_map(|row| row.split_once("  ")).unzip();
            assert_eq!(draw(kind, &board), expected, "{kind:?}");
        }
    }

    #[test]
    fn pieces_on_a_one_square_board_capture_nothing() {
        for kind in PieceKind::ALL {
            assert!(attacks(kind, Square::new(0, 0), &SquareSet::new(1)).is_empty());
        }
    }

    #[test]
    fn only_sliders_and_hoppers_are_blockable() {
        let blockable: Vec<_> = PieceKind::ALL
            .into_iter()
            .filter(|k| k.is_blockable())
            .collect();
        assert_eq!(
            blockable,
            [
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Horse,
                PieceKind::Cannon
            ]
        );
    }
}

//! Inputs for `nqueens best`: random weighted boards, or boards with a planted best placement
//! (large boards whose answer is proven at once), the same for the same seed, and the smaller
//! boards the stress tester shrinks a failing one to.

use std::io::{self, Write};

use rand::RngExt;

use super::best::Weights;
use crate::judge;

/// What to generate.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed and options give the same input.
    pub seed: u64,
    /// The number of boards.
    pub boards: u64,
    /// The smallest and the largest side, each drawn uniformly between them (1..=64).
    pub sides: (usize, usize),
    /// The largest weight; each weight is drawn uniformly from 0 to it (see `planted`).
    pub max_weight: u32,
    /// A best placement planted in each board: the squares of a placement (the closed-form
    /// one under a random symmetry of the board) weigh the largest weight, every other square
    /// at most a twentieth of it. No other placement comes near, so the answer is proven at
    /// once on any side up to 64, where random weights above side 24 or so take the solver
    /// minutes.
    pub planted: bool,
}

/// Writes one input: the count, then per board its side and its rows of weights.
///
/// ```
/// use chess_puzzles::nqueens::generator::{generate, GenOptions};
///
/// let options = GenOptions { seed: 3, boards: 2, sides: (4, 4), max_weight: 9, planted: false };
/// let mut out = Vec::new();
/// generate(options, &mut out).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert_eq!(text.lines().count(), 1 + 2 * (1 + 4));
/// assert!(text.split_whitespace().skip(1).all(|w| w.parse::<u32>().unwrap() <= 9));
/// ```
pub fn generate(options: GenOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = judge::rng(options.seed);
    let lo = options.sides.0.clamp(1, super::MAX_N);
    let hi = options.sides.1.clamp(lo, super::MAX_N);
    writeln!(out, "{}", options.boards)?;
    for _ in 0..options.boards {
        let n = rng.random_range(lo..=hi);
        let noise = if options.planted {
            options.max_weight / 20
        } else {
            options.max_weight
        };
        let mut weights: Vec<u32> = (0..n * n).map(|_| rng.random_range(0..=noise)).collect();
        if options.planted {
            let queens = super::best::closed_form(n);
            // One of the eight symmetries of the square, at random.
            let symmetry = rng.random_range(0..8u8);
            for (col, &row) in queens.iter().enumerate() {
                let (mut r, mut c) = (usize::from(row), col);
                if symmetry & 1 != 0 {
                    r = n - 1 - r;
                }
                if symmetry & 2 != 0 {
                    c = n - 1 - c;
                }
                if symmetry & 4 != 0 {
                    std::mem::swap(&mut r, &mut c);
                }
                if let Some(w) = weights.get_mut(r * n + c) {
                    *w = options.max_weight;
                }
            }
        }
        writeln!(out, "{n}")?;
        for row in weights.chunks(n) {
            let cells: Vec<String> = row.iter().map(u32::to_string).collect();
            writeln!(out, "{}", cells.join(" "))?;
        }
    }
    Ok(())
}

/// The input of `boards` (the stress tester writes shrunk inputs with it).
///
/// ```
/// use chess_puzzles::nqueens::best::Weights;
/// use chess_puzzles::nqueens::generator::write_input;
///
/// let board = Weights::new(2, vec![1, 2, 3, 4]).unwrap();
/// assert_eq!(write_input(&[board]), "1\n2\n1 2\n3 4\n");
/// ```
pub fn write_input(boards: &[Weights]) -> String {
    let mut text = format!("{}\n", boards.len());
    for board in boards {
        let n = board.n();
        text.push_str(&format!("{n}\n"));
        for r in 0..n {
            let cells: Vec<String> = (0..n).map(|c| board.get(r, c).to_string()).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
    }
    text
}

/// Smaller instances of `board` for the stress tester's shrinking: the board without its last
/// row and column, then every weight halved, then each row set to 0.
///
/// ```
/// use chess_puzzles::nqueens::best::Weights;
/// use chess_puzzles::nqueens::generator::smaller;
///
/// let board = Weights::new(2, vec![1, 2, 0, 0]).unwrap();
/// let sides: Vec<usize> = smaller(&board).iter().map(|b| b.n()).collect();
/// assert_eq!(sides, vec![1, 2, 2]);
/// ```
pub fn smaller(board: &Weights) -> Vec<Weights> {
    let n = board.n();
    let make = |side: usize, weight: &dyn Fn(usize, usize) -> u32| {
        let weights = (0..side * side)
            .map(|i| weight(i / side, i % side))
            .collect();
        Weights::new(side, weights).ok()
    };
    let mut candidates = Vec::new();
    let mut offer = |b: Option<Weights>| {
        if let Some(b) = b
            && b != *board
            && !candidates.contains(&b)
        {
            candidates.push(b);
        }
    };
    if n > 1 {
        offer(make(n - 1, &|r, c| board.get(r, c)));
    }
    offer(make(n, &|r, c| board.get(r, c) / 2));
    for row in 0..n {
        offer(make(n, &|r, c| if r == row { 0 } else { board.get(r, c) }));
    }
    candidates
}

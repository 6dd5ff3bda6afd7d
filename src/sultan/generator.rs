//! Test inputs for `sultan`: random or edge-case boards, the same for the same seed.

use std::io::{self, Write};

use rand::RngExt;

use super::Board;
use crate::core::CLASSIC;
use crate::judge;

/// The families of inputs the generator writes (a command-line value).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// Weights uniform in the range.
    #[default]
    Random,
    /// Every weight of a board equal: all 92 placements tie.
    Ties,
    /// Each board an arrangement of 1..64, all distinct (like the statement's sample).
    Distinct,
    /// Only the smallest and the largest weight of the range.
    Extreme,
    /// 100,000 random boards, the benchmark input (the board count is ignored).
    Large,
}

/// What to generate.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed and options give the same input.
    pub seed: u64,
    /// The number of boards, where the kind does not fix it.
    pub boards: u64,
    /// The smallest weight (the statement: 1).
    pub min_weight: u32,
    /// The largest weight (the statement: 99).
    pub max_weight: u32,
    /// The family.
    pub kind: Kind,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            seed: 0,
            boards: 10,
            min_weight: 1,
            max_weight: 99,
            kind: Kind::Random,
        }
    }
}

/// Writes one input in the statement's layout (each row of eight weights on a line,
/// right-aligned in columns as the sample is). An empty weight range is taken as its bounds
/// swapped.
///
/// ```
/// use chess_puzzles::sultan::generator::{generate, GenOptions};
///
/// let mut out = Vec::new();
/// generate(GenOptions { seed: 1, boards: 2, ..GenOptions::default() }, &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap().lines().count(), 1 + 2 * 8);
/// ```
pub fn generate(options: GenOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = judge::rng(options.seed);
    let lo = options.min_weight.min(options.max_weight);
    let hi = options.min_weight.max(options.max_weight);
    let boards = match options.kind {
        Kind::Large => 100_000,
        _ => options.boards,
    };
    let width = hi.max(64).to_string().len();
    writeln!(out, "{boards}")?;
    let mut weights = [0u32; CLASSIC * CLASSIC];
    for _ in 0..boards {
        match options.kind {
            Kind::Random | Kind::Large => {
                for w in weights.iter_mut() {
                    *w = rng.random_range(lo..=hi);
                }
            }
            Kind::Ties => weights.fill(rng.random_range(lo..=hi)),
            Kind::Distinct => {
                for (i, w) in weights.iter_mut().enumerate() {
                    *w = i as u32 + 1;
                }
                for i in (1..weights.len()).rev() {
                    let j = rng.random_range(0..=i);
                    weights.swap(i, j);
                }
            }
            Kind::Extreme => {
                for w in weights.iter_mut() {
                    *w = if rng.random_bool(0.5) { lo } else { hi };
                }
            }
        }
        for row in weights.chunks(CLASSIC) {
            let cells: Vec<String> = row.iter().map(|w| format!("{w:>width$}")).collect();
            writeln!(out, "{}", cells.join(" "))?;
        }
    }
    Ok(())
}

/// The input of `boards` in the statement's layout (the stress tester writes shrunk inputs
/// with it): the count, then each board's rows of eight weights.
///
/// ```
/// use chess_puzzles::sultan::Board;
/// use chess_puzzles::sultan::generator::write_input;
///
/// let text = write_input(&[Board { weights: [[1; 8]; 8] }]);
/// assert_eq!(text.lines().count(), 9);
/// assert_eq!(text.lines().nth(1), Some("1 1 1 1 1 1 1 1"));
/// ```
pub fn write_input(boards: &[Board]) -> String {
    let mut text = format!("{}\n", boards.len());
    for board in boards {
        for row in &board.weights {
            let cells: Vec<String> = row.iter().map(u32::to_string).collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
    }
    text
}

/// Smaller instances of `board` for the stress tester's shrinking, each with smaller weights
/// and none below 1 (the statement's least weight): every weight halved, then each row, then
/// each column set to 1.
///
/// ```
/// use chess_puzzles::sultan::Board;
/// use chess_puzzles::sultan::generator::smaller;
///
/// assert!(smaller(&Board { weights: [[1; 8]; 8] }).is_empty());
/// assert_eq!(smaller(&Board { weights: [[4; 8]; 8] })[0].weights[3][3], 2);
/// ```
pub fn smaller(board: &Board) -> Vec<Board> {
    let mut candidates = Vec::new();
    let mut offer = |b: Board| {
        if b != *board && !candidates.contains(&b) {
            candidates.push(b);
        }
    };
    let mut halved = board.clone();
    for w in halved.weights.iter_mut().flatten() {
        *w = (*w / 2).max(1).min(*w);
    }
    offer(halved);
    for r in 0..CLASSIC {
        let mut b = board.clone();
        for w in &mut b.weights[r] {
            *w = (*w).min(1);
        }
        offer(b);
    }
    for c in 0..CLASSIC {
        let mut b = board.clone();
        for row in &mut b.weights {
            row[c] = row[c].min(1);
        }
        offer(b);
    }
    candidates
}

//! Test inputs for `queens`: random or edge-case query lists, the same for the same seed.

use std::io::{self, Write};

use rand::RngExt;

use super::{Solver, Style};
use crate::core::{CLASSIC, Square};
use crate::judge;

/// The families of inputs the generator writes (a command-line value).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// Uniformly random squares.
    #[default]
    Random,
    /// Each of the 64 squares once, shuffled (the case count is ignored).
    All,
    /// Only squares in the fewest placements (4 each).
    Fewest,
    /// Only squares in the most placements (18 each).
    Most,
    /// 200,000 random squares, the benchmark input (the case count is ignored).
    Large,
}

/// What to generate.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed and options give the same input.
    pub seed: u64,
    /// The number of cases, where the kind does not fix it.
    pub cases: u64,
    /// The family.
    pub kind: Kind,
    /// The layout: the statement's, or UVa 750's (an empty line after the count and before
    /// every case).
    pub layout: Style,
}

/// Writes one input in the exact layout asked for.
///
/// ```
/// use chess_puzzles::queens::generator::{generate, GenOptions, Kind};
/// use chess_puzzles::queens::Style;
///
/// let options = GenOptions { seed: 7, cases: 3, ..GenOptions::default() };
/// let mut a = Vec::new();
/// generate(options, &mut a).unwrap();
/// let mut b = Vec::new();
/// generate(options, &mut b).unwrap();
/// assert_eq!(a, b);
/// assert_eq!(String::from_utf8(a).unwrap().lines().count(), 4);
/// let mut uva = Vec::new();
/// generate(GenOptions { layout: Style::Uva, ..options }, &mut uva).unwrap();
/// assert_eq!(String::from_utf8(uva).unwrap().lines().count(), 7);
/// ```
pub fn generate(options: GenOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = judge::rng(options.seed);
    let squares: Vec<Square> = (0..CLASSIC * CLASSIC)
        .map(|i| Square::from_index(i, CLASSIC))
        .collect();
    let solver = Solver::new();
    let counts: Vec<usize> = squares
        .iter()
        .map(|&s| solver.solutions(s).count())
        .collect();
    let fewest = counts.iter().copied().min().unwrap_or(0);
    let most = counts.iter().copied().max().unwrap_or(0);
    // The squares in exactly `wanted` placements.
    let in_placements = |wanted: usize| -> Vec<Square> {
        let matching = squares.iter().zip(&counts).filter(|&(_, &c)| c == wanted);
        matching.map(|(&s, _)| s).collect()
    };
    let pool: Vec<Square> = match options.kind {
        Kind::Fewest => in_placements(fewest),
        Kind::Most => in_placements(most),
        _ => squares.clone(),
    };
    let uva = options.layout == Style::Uva;
    let mut write = |count: u64, pick: &mut dyn FnMut(u64) -> Square| -> io::Result<()> {
        writeln!(out, "{count}")?;
        for i in 0..count {
            let sq = pick(i);
            if uva {
                writeln!(out)?;
            }
            writeln!(out, "{} {}", sq.row + 1, sq.col + 1)?;
        }
        Ok(())
    };
    match options.kind {
        Kind::All => {
            let mut order = squares;
            // Fisher-Yates with the seeded generator.
            for i in (1..order.len()).rev() {
                let j = rng.random_range(0..=i);
                order.swap(i, j);
            }
            write(order.len() as u64, &mut |i| order[i as usize])
        }
        Kind::Large => write(200_000, &mut |_| pool[rng.random_range(0..pool.len())]),
        _ => write(options.cases, &mut |_| {
            pool[rng.random_range(0..pool.len())]
        }),
    }
}

/// The input of the queries `squares` in the statement's layout (the stress tester writes
/// shrunk inputs with it).
///
/// ```
/// use chess_puzzles::core::Square;
/// use chess_puzzles::queens::generator::write_input;
///
/// assert_eq!(write_input(&[Square::new(0, 0), Square::new(7, 2)]), "2\n1 1\n8 3\n");
/// ```
pub fn write_input(squares: &[Square]) -> String {
    write_input_in(squares, Style::Statement)
}

/// The input of the queries `squares` in the layout `layout`: UVa 750's has an empty line
/// after the count and before every case.
///
/// ```
/// use chess_puzzles::core::Square;
/// use chess_puzzles::queens::generator::write_input_in;
/// use chess_puzzles::queens::Style;
///
/// let squares = [Square::new(0, 0), Square::new(7, 2)];
/// assert_eq!(write_input_in(&squares, Style::Uva), "2\n\n1 1\n\n8 3\n");
/// ```
pub fn write_input_in(squares: &[Square], layout: Style) -> String {
    let mut text = format!("{}\n", squares.len());
    for sq in squares {
        if layout == Style::Uva {
            text.push('\n');
        }
        text.push_str(&format!("{} {}\n", sq.row + 1, sq.col + 1));
    }
    text
}

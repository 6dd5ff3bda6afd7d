//! Test inputs for `showdown`: random or edge-case tests, the same for the same seed.
//!
//! Every board the generator writes keeps the statement's promise that every king has an empty
//! square among its eight neighbours, and every family is built to be what it names: a `dense`
//! board has so many kings that no empty square can take one more without leaving some king
//! with no empty neighbour; a `sparse` board has 1 to 3 kings; `one-cheap` prices one piece at
//! 1..10 and the others at 10^4..10^6; `expensive-small` boards are at most 5x5 with every
//! price in 900,000..10^6, the tests that weigh most in the score (cost / n²).

use std::io::{self, Write};

use rand::RngExt;
use rand::seq::SliceRandom;

use super::{Instance, MAX_COST, MAX_SIDE, MIN_SIDE, program_sides};
use crate::core::{Square, SquareSet};
use crate::judge::span::{self, Span};
use crate::judge::{self, Rng};

/// The families of inputs the generator writes (a command-line value).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// The statement's shape: each board's side drawn from the size range, each square a king
    /// with a density drawn from the density range, prices from the cost model.
    #[default]
    Random,
    /// 15 tests of 25x25, the statement's largest input (the test count and sizes are ignored).
    Largest,
    /// Boards of 2x2, the statement's smallest (the sizes are ignored).
    Smallest,
    /// Boards nearly full of kings: kings added wherever every king keeps an empty neighbour,
    /// until no more fit (the densities are ignored).
    Dense,
    /// 1 to 3 kings per board (the densities are ignored).
    Sparse,
    /// One piece far cheaper (1..10) than the others (10^4..10^6) (the cost model is ignored).
    OneCheap,
    /// Boards of 2x2 to 5x5 with every price in 900,000..10^6: the tests that weigh most in
    /// the score (the sizes and the cost model are ignored).
    ExpensiveSmall,
}

/// How the eight prices of a test are drawn (a command-line value).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Costs {
    /// All eight the same, drawn from 1..1000.
    Equal,
    /// Small and skewed: 1 + floor(9u³) for u uniform in [0, 1), so mostly 1s and 2s.
    Skewed,
    /// Each uniform in 1..10^6.
    Uniform,
    /// One piece drawn at random costs 1..10, the others 10^4..10^6.
    OneCheap,
    /// Each test one of the four models above, drawn at random.
    #[default]
    Random,
}

pub use super::{STATEMENT_SIDES, STATEMENT_TESTS};

/// The number of kings of a [`Kind::Sparse`] board, fewest and most.
pub const SPARSE_KINGS: (usize, usize) = (1, 3);

/// The board sides of [`Kind::ExpensiveSmall`], smallest and largest.
pub const EXPENSIVE_SIDES: (usize, usize) = (2, 5);

/// The lowest price of [`Kind::ExpensiveSmall`].
pub const EXPENSIVE_COST: u32 = 900_000;

/// The board sides a generated test may have: [`MIN_SIDE`]..=[`MAX_SIDE`] (2..256, the
/// program's limits), the statement's 2..25 by default.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct BoardSides;

impl span::Limits for BoardSides {
    type Value = usize;
    const ALLOWED: (usize, usize) = (MIN_SIDE, MAX_SIDE);
    const DEFAULT: (usize, usize) = STATEMENT_SIDES;

    fn value(text: &str) -> Option<usize> {
        span::whole_number(text)
    }

    fn expected() -> String {
        format!(
            "a board side {} or a range A-B of them with A <= B",
            program_sides()
        )
    }
}

/// A range of board sides, both ends included, within [`MIN_SIDE`]..=[`MAX_SIDE`] (2..256,
/// the program's limits; the statement's are 2..25). Written `N` or `A-B`
/// on the command line.
///
/// ```
/// use chess_puzzles::showdown::generator::Sizes;
///
/// let s: Sizes = "2-25".parse().unwrap();
/// assert_eq!((s.min(), s.max()), (2, 25));
/// assert_eq!("7".parse::<Sizes>().unwrap(), Sizes::new(7, 7).unwrap());
/// assert!("1".parse::<Sizes>().is_err());
/// assert!("9-3".parse::<Sizes>().is_err());
/// ```
pub type Sizes = Span<BoardSides>;

/// The king densities (the chance that a square holds a king) of generated boards: 0 to 1,
/// 5% to 85% by default, as the benchmark set (`experiments/showdown/make_set.py`).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct KingDensities;

impl span::Limits for KingDensities {
    type Value = f64;
    const ALLOWED: (f64, f64) = (0.0, 1.0);
    const DEFAULT: (f64, f64) = (0.05, 0.85);

    /// Plain decimals only: no sign, no exponent, no `inf` or `NaN`.
    fn value(t: &str) -> Option<f64> {
        let plain = t.bytes().any(|b| b.is_ascii_digit())
            && t.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && t.len() <= 20;
        if !plain {
            return None;
        }
        t.parse().ok()
    }

    fn expected() -> String {
        "a density from 0 to 1 or a range A-B with A <= B".to_string()
    }
}

/// A range of king densities (the chance that a square holds a king), both ends included,
/// within 0..=1. Written `D` or `A-B` on the command line.
///
/// ```
/// use chess_puzzles::showdown::generator::Densities;
///
/// let d: Densities = "0.05-0.85".parse().unwrap();
/// assert_eq!((d.min(), d.max()), (0.05, 0.85));
/// assert_eq!("1".parse::<Densities>().unwrap(), Densities::new(1.0, 1.0).unwrap());
/// assert!("1.5".parse::<Densities>().is_err());
/// assert!("0.9-0.1".parse::<Densities>().is_err());
/// ```
pub type Densities = Span<KingDensities>;

/// What to generate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed and options give the same input.
    pub seed: u64,
    /// The number of tests, where the kind does not fix it.
    pub tests: u64,
    /// The range each board's side is drawn from, where the kind does not fix it.
    pub sizes: Sizes,
    /// The range each board's king density is drawn from, where the kind uses it.
    pub densities: Densities,
    /// How the prices are drawn, where the kind does not fix them.
    pub costs: Costs,
    /// The family.
    pub kind: Kind,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            seed: 0,
            tests: STATEMENT_TESTS,
            sizes: Sizes::default(),
            densities: Densities::default(),
            costs: Costs::Random,
            kind: Kind::Random,
        }
    }
}

/// One generated test: a board of side `side` (`kings[row * side + col]`) and the eight prices
/// in the statement's order.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Test {
    /// The board's side n.
    pub side: usize,
    /// True where a king stands, row by row from the top.
    pub kings: Vec<bool>,
    /// The prices of the eight pieces.
    pub costs: [u32; 8],
}

impl Test {
    /// The test in the statement's layout: `n`, n rows of `#` (king) and `_` (empty), the
    /// eight prices one space apart; every line ends with `\n`.
    pub fn to_text(&self) -> String {
        let n = self.side;
        let mut text = String::with_capacity((n + 1) * (n + 1) + 64);
        text.push_str(&format!("{n}\n"));
        for row in self.kings.chunks(n.max(1)) {
            text.extend(row.iter().map(|&k| if k { '#' } else { '_' }));
            text.push('\n');
        }
        let costs: Vec<String> = self.costs.iter().map(u32::to_string).collect();
        text.push_str(&costs.join(" "));
        text.push('\n');
        text
    }
}

/// Writes one input in the statement's exact layout: the number of tests t, then each test
/// (see [`Test::to_text`]), each written as soon as it is made.
///
/// ```
/// use chess_puzzles::showdown::generator::{generate, GenOptions, Kind};
///
/// let options = GenOptions { seed: 7, tests: 3, kind: Kind::Smallest, ..GenOptions::default() };
/// let mut a = Vec::new();
/// generate(options, &mut a).unwrap();
/// let mut b = Vec::new();
/// generate(options, &mut b).unwrap();
/// assert_eq!(a, b);
/// // The count, then per test the side, two rows and the prices.
/// assert_eq!(String::from_utf8(a).unwrap().lines().count(), 1 + 3 * 4);
/// ```
pub fn generate(options: GenOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = judge::rng(options.seed);
    let count = match options.kind {
        Kind::Largest => STATEMENT_TESTS,
        _ => options.tests,
    };
    writeln!(out, "{count}")?;
    for _ in 0..count {
        out.write_all(test(&mut rng, &options).to_text().as_bytes())?;
    }
    Ok(())
}

/// One test of the family `options.kind`, drawn from `rng`.
pub fn test(rng: &mut Rng, options: &GenOptions) -> Test {
    let sides = match options.kind {
        Kind::Largest => (STATEMENT_SIDES.1, STATEMENT_SIDES.1),
        Kind::Smallest => (STATEMENT_SIDES.0, STATEMENT_SIDES.0),
        Kind::ExpensiveSmall => EXPENSIVE_SIDES,
        _ => (options.sizes.min(), options.sizes.max()),
    };
    let side = rng.random_range(sides.0..=sides.1).max(2);
    let density = rng.random_range(options.densities.min()..=options.densities.max());
    let kings = match options.kind {
        Kind::Dense => dense(rng, side),
        Kind::Sparse => sparse(rng, side),
        _ => random(rng, side, density),
    };
    let model = match options.kind {
        Kind::OneCheap => Costs::OneCheap,
        _ => options.costs,
    };
    let costs = if options.kind == Kind::ExpensiveSmall {
        std::array::from_fn(|_| rng.random_range(EXPENSIVE_COST..=MAX_COST as u32))
    } else {
        costs(rng, model)
    };
    Test { side, kings, costs }
}

/// Eight prices drawn by `model`.
fn costs(rng: &mut Rng, model: Costs) -> [u32; 8] {
    let model = match model {
        Costs::Random => {
            [Costs::Equal, Costs::Skewed, Costs::Uniform, Costs::OneCheap][rng.random_range(0..4)]
        }
        other => other,
    };
    match model {
        Costs::Equal => [rng.random_range(1..=1000); 8],
        Costs::Skewed => std::array::from_fn(|_| {
            let u: f64 = rng.random();
            // u < 1, so this is 1..=9.
            1 + (9.0 * u * u * u) as u32
        }),
        Costs::Uniform => std::array::from_fn(|_| rng.random_range(1..=MAX_COST as u32)),
        Costs::OneCheap | Costs::Random => {
            let cheap = rng.random_range(0..8);
            std::array::from_fn(|i| {
                if i == cheap {
                    rng.random_range(1..=10)
                } else {
                    rng.random_range(10_000..=MAX_COST as u32)
                }
            })
        }
    }
}

/// The squares around square `i` of a board of side `n` (3 in a corner, 5 on an edge, else 8).
fn neighbours(i: usize, n: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (i / n, i % n);
    (r.saturating_sub(1)..=(r + 1).min(n - 1))
        .flat_map(move |rr| (c.saturating_sub(1)..=(c + 1).min(n - 1)).map(move |cc| rr * n + cc))
        .filter(move |&j| j != i)
}

/// True when the square `i` has an empty neighbour.
fn has_empty_neighbour(kings: &[bool], i: usize, n: usize) -> bool {
    neighbours(i, n).any(|j| !kings[j])
}

/// Gives every king of `kings` an empty neighbour: visiting the squares in `order`, a king
/// with none has one of its neighbours, drawn at random, emptied. Emptying a square never takes
/// an empty neighbour away from a king, so each king keeps what it was given.
fn free_every_king(
    rng: &mut Rng,
    kings: &mut [bool],
    n: usize,
    order: impl Iterator<Item = usize>,
) {
    for i in order {
        if kings[i] && !has_empty_neighbour(kings, i, n) {
            let around: Vec<usize> = neighbours(i, n).collect();
            kings[around[rng.random_range(0..around.len())]] = false;
        }
    }
}

/// Each square a king with probability `density`; then any king without an empty neighbour
/// has one made (as `experiments/showdown/make_set.py` does).
fn random(rng: &mut Rng, n: usize, density: f64) -> Vec<bool> {
    let mut kings: Vec<bool> = (0..n * n).map(|_| rng.random_bool(density)).collect();
    free_every_king(rng, &mut kings, n, 0..n * n);
    kings
}

/// Kings everywhere, then empty squares made where a king lacks one (in random order), then
/// kings put back, in random order, on every empty square where the new king has an empty
/// neighbour and every king around it keeps one. A king added only makes further additions
/// harder, so after the one pass no empty square can take a king.
fn dense(rng: &mut Rng, n: usize) -> Vec<bool> {
    let mut kings = vec![true; n * n];
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    free_every_king(rng, &mut kings, n, order.iter().copied());
    order.shuffle(rng);
    for &i in &order {
        if !kings[i] && can_take_king(&kings, i, n) {
            kings[i] = true;
        }
    }
    kings
}

/// True when the empty square `i` can take a king with every king (the new one included)
/// keeping an empty neighbour.
fn can_take_king(kings: &[bool], i: usize, n: usize) -> bool {
    has_empty_neighbour(kings, i, n)
        && neighbours(i, n)
            .filter(|&j| kings[j])
            .all(|j| neighbours(j, n).any(|m| m != i && !kings[m]))
}

/// 1 to 3 kings on distinct random squares. On a board of side 2 or more every king keeps an
/// empty neighbour: a 2x2 board keeps one empty square, next to all three others, and any
/// square of a larger board has at least 3 neighbours, at most 2 of them kings.
fn sparse(rng: &mut Rng, n: usize) -> Vec<bool> {
    let count = rng.random_range(SPARSE_KINGS.0..=SPARSE_KINGS.1);
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut kings = vec![false; n * n];
    for &i in order.iter().take(count) {
        kings[i] = true;
    }
    kings
}

/// The test `instance` as generated tests are (see [`Test::to_text`]).
pub fn to_test(instance: &Instance) -> Test {
    let n = instance.side();
    let mut kings = vec![false; n * n];
    for sq in instance.kings().iter() {
        kings[usize::from(sq.row) * n + usize::from(sq.col)] = true;
    }
    Test {
        side: n,
        kings,
        costs: instance.costs(),
    }
}

/// The input of `instances` in the statement's layout (the stress tester writes shrunk inputs
/// with it): the count, then each test as [`Test::to_text`] writes it.
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::Instance;
/// use chess_puzzles::showdown::generator::write_input;
///
/// let mut kings = SquareSet::new(2);
/// kings.insert(Square::new(0, 1));
/// let instance = Instance::new(2, kings, [1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
/// assert_eq!(write_input(&[instance]), "1\n2\n_#\n__\n1 2 3 4 5 6 7 8\n");
/// ```
pub fn write_input(instances: &[Instance]) -> String {
    let mut text = format!("{}\n", instances.len());
    for instance in instances {
        text.push_str(&to_test(instance).to_text());
    }
    text
}

/// Smaller instances of `instance` for the stress tester's shrinking: the board without its
/// last row and column, then without its first row and column (from side 3 on; the kings
/// there go), then each king removed while more than one is left. Only valid instances are
/// offered (every king can still be checked).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::Instance;
/// use chess_puzzles::showdown::generator::smaller;
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(2, 2));
/// let fewer = smaller(&Instance::new(3, kings, [1; 8]).unwrap());
/// assert_eq!(fewer.iter().map(|i| (i.side(), i.king_count())).collect::<Vec<_>>(),
///     vec![(2, 1), (2, 1), (3, 1), (3, 1)]);
/// ```
pub fn smaller(instance: &Instance) -> Vec<Instance> {
    let n = instance.side();
    let mut candidates = Vec::new();
    if n > MIN_SIDE {
        for shift in [0u8, 1] {
            let mut kings = SquareSet::new(n - 1);
            for sq in instance.kings().iter() {
                if sq.row >= shift && sq.col >= shift {
                    let moved = Square::new(sq.row - shift, sq.col - shift);
                    if kings.on_board(moved) {
                        kings.insert(moved);
                    }
                }
            }
            candidates.extend(Instance::new(n - 1, kings, instance.costs()).ok());
        }
    }
    if instance.king_count() > 1 {
        for king in instance.kings().iter() {
            let mut kings = instance.kings().clone();
            kings.remove(king);
            candidates.extend(Instance::new(n, kings, instance.costs()).ok());
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tests_of(kind: Kind, seed: u64, count: usize) -> Vec<Test> {
        let options = GenOptions {
            seed,
            kind,
            ..GenOptions::default()
        };
        let mut rng = judge::rng(seed);
        (0..count).map(|_| test(&mut rng, &options)).collect()
    }

    #[test]
    fn ranges_parse_strictly() {
        for bad in [
            "", "-", "1", "0-5", "3-", "-3", "+3", " 3", "5-4", "257", "2-1000",
        ] {
            assert!(bad.parse::<Sizes>().is_err(), "{bad:?}");
        }
        assert_eq!("2-256".parse::<Sizes>().ok(), Sizes::new(2, 256));
        assert_eq!(Sizes::default().to_string(), "2-25");
        for bad in [
            "", ".", "-0.5", "1.01", "0.5-0.4", "1e-3", "inf", "NaN", "0.1-", "0,5",
        ] {
            assert!(bad.parse::<Densities>().is_err(), "{bad:?}");
        }
        assert_eq!("0-1".parse::<Densities>().ok(), Densities::new(0.0, 1.0));
        assert_eq!(".5".parse::<Densities>().ok(), Densities::new(0.5, 0.5));
        assert_eq!(Densities::default().to_string(), "0.05-0.85");
    }

    #[test]
    fn neighbours_are_the_eight_around_within_the_board() {
        let n = 4;
        let counts: Vec<usize> = (0..n * n).map(|i| neighbours(i, n).count()).collect();
        assert_eq!(counts, [3, 5, 5, 3, 5, 8, 8, 5, 5, 8, 8, 5, 3, 5, 5, 3]);
        let mut around: Vec<usize> = neighbours(5, n).collect();
        around.sort_unstable();
        assert_eq!(around, [0, 1, 2, 4, 6, 8, 9, 10]);
    }

    #[test]
    fn dense_boards_are_full() {
        for t in tests_of(Kind::Dense, 5, 60) {
            let n = t.side;
            for i in 0..n * n {
                if t.kings[i] {
                    assert!(has_empty_neighbour(&t.kings, i, n));
                } else {
                    assert!(!can_take_king(&t.kings, i, n), "{}", t.to_text());
                }
            }
        }
    }

    #[test]
    fn full_density_still_leaves_every_king_an_empty_neighbour() {
        let options = GenOptions {
            densities: Densities::new(1.0, 1.0).unwrap_or_default(),
            ..GenOptions::default()
        };
        let mut rng = judge::rng(3);
        for _ in 0..50 {
            let t = test(&mut rng, &options);
            let n = t.side;
            assert!((0..n * n).all(|i| !t.kings[i] || has_empty_neighbour(&t.kings, i, n)));
        }
    }
}

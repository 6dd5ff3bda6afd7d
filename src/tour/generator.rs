//! Test inputs for `tour`: random or edge-case boards, the same for the same seed.
//!
//! Every family builds its boards so that they are what it names: an `impossible` board has a
//! knight or the bishop that no square the queen can reach touches (which is exactly when no
//! path exists), a `start-alone` board has every knight and the bishop next to the queen's
//! start, a `crowded` board has as many pawns as the board can take while a path still exists.

use std::io::{self, Write};

use rand::RngExt;
use rand::seq::SliceRandom;

use super::{MAX_KNIGHTS, Scenario, ScenarioError};
use crate::core::{Bitboard, CLASSIC, Square};
use crate::judge::span::{self, Span};
use crate::judge::{self, Rng};

/// The families of inputs the generator writes (a command-line value).
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Kind {
    /// Pieces on random squares: the knight count drawn from the range, each other square a
    /// pawn with the given density.
    #[default]
    Random,
    /// No path exists: a knight sealed off by pawns, the bishop behind a wall of pawns across
    /// the board, or the queen boxed in where she cannot touch everything.
    Impossible,
    /// The queen's start already touches every knight and the bishop: every answer is the
    /// start square alone. At most 7 knights fit beside the bishop, so the knight range is cut
    /// to 7.
    StartAlone,
    /// 14 knights, the statement's most (the knight range is ignored).
    Most,
    /// 2 knights, the statement's fewest (the knight range is ignored).
    Fewest,
    /// Pawns added in random order wherever a path still exists, until no more fit: mazes
    /// with long paths (the pawn density is ignored).
    Crowded,
    /// 1,000 scenarios of 14 knights each (the scenario count and knight range are ignored).
    Large,
}

/// The number of scenarios of [`Kind::Large`].
pub const LARGE_SCENARIOS: u64 = 1000;

/// The most knights that can all touch the queen's start beside the bishop.
pub const START_ALONE_KNIGHTS: usize = 7;

/// The statement's fewest and most knights.
pub const STATEMENT_KNIGHTS: (usize, usize) = (2, 14);

/// The knight counts a generated scenario may have: 0 to [`MAX_KNIGHTS`], the statement's 2 to
/// 14 by default.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct KnightCounts;

impl span::Limits for KnightCounts {
    type Value = usize;
    const ALLOWED: (usize, usize) = (0, MAX_KNIGHTS);
    const DEFAULT: (usize, usize) = STATEMENT_KNIGHTS;

    fn value(text: &str) -> Option<usize> {
        span::whole_number(text)
    }

    fn expected() -> String {
        format!("a number of knights 0..{MAX_KNIGHTS} or a range A-B with A <= B")
    }
}

/// A range of knight counts, both ends included, within `0..=`[`MAX_KNIGHTS`]. Written `K` or
/// `A-B` on the command line.
///
/// ```
/// use chess_puzzles::tour::generator::Knights;
///
/// let k: Knights = "2-14".parse().unwrap();
/// assert_eq!((k.min(), k.max()), (2, 14));
/// assert_eq!("5".parse::<Knights>().unwrap(), Knights::new(5, 5).unwrap());
/// assert!("9-3".parse::<Knights>().is_err());
/// assert!("25".parse::<Knights>().is_err());
/// ```
pub type Knights = Span<KnightCounts>;

/// What to generate.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GenOptions {
    /// The seed: the same seed and options give the same input.
    pub seed: u64,
    /// The number of scenarios, where the kind does not fix it.
    pub scenarios: u64,
    /// The range the knight count of each scenario is drawn from, where the kind does not fix it.
    pub knights: Knights,
    /// The chance that a square no other piece takes holds a pawn, where the kind uses it;
    /// taken within 0..=1 (not a number counts as 0).
    pub pawns: f64,
    /// The family.
    pub kind: Kind,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            seed: 0,
            scenarios: 10,
            knights: Knights::default(),
            pawns: 0.1,
            kind: Kind::Random,
        }
    }
}

/// Writes one input in the statement's exact layout: the count, then each board as eight rows
/// (rank 8 first) followed by an empty line. Each board is written as soon as it is made.
///
/// ```
/// use chess_puzzles::tour::generator::{generate, GenOptions, Kind};
///
/// let options = GenOptions { seed: 7, scenarios: 3, ..GenOptions::default() };
/// let mut a = Vec::new();
/// generate(options, &mut a).unwrap();
/// let mut b = Vec::new();
/// generate(options, &mut b).unwrap();
/// assert_eq!(a, b);
/// assert_eq!(String::from_utf8(a).unwrap().lines().count(), 1 + 3 * 9);
/// ```
pub fn generate(options: GenOptions, out: &mut impl Write) -> io::Result<()> {
    let mut rng = judge::rng(options.seed);
    let count = match options.kind {
        Kind::Large => LARGE_SCENARIOS,
        _ => options.scenarios,
    };
    writeln!(out, "{count}")?;
    for _ in 0..count {
        let scenario = scenario(&mut rng, &options).map_err(io::Error::other)?;
        out.write_all(scenario.to_rows().as_bytes())?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// One board of the family `options.kind`, drawn from `rng`.
pub fn scenario(rng: &mut Rng, options: &GenOptions) -> Result<Scenario, ScenarioError> {
    let density = if options.pawns.is_nan() {
        0.0
    } else {
        options.pawns.clamp(0.0, 1.0)
    };
    let (mut lo, mut hi) = (options.knights.min(), options.knights.max());
    if options.kind == Kind::StartAlone {
        (lo, hi) = (lo.min(START_ALONE_KNIGHTS), hi.min(START_ALONE_KNIGHTS));
    }
    let knights = rng.random_range(lo..=hi);
    match options.kind {
        Kind::Random => random(rng, knights, density),
        Kind::Impossible => impossible(rng, knights, density),
        Kind::StartAlone => start_alone(rng, knights, density),
        Kind::Most | Kind::Large => random(rng, STATEMENT_KNIGHTS.1, density),
        Kind::Fewest => random(rng, STATEMENT_KNIGHTS.0, density),
        Kind::Crowded => crowded(rng, knights),
    }
}

/// Every square of the board in a random order.
fn shuffled(rng: &mut Rng) -> Vec<Square> {
    let mut all: Vec<Square> = (0..CLASSIC * CLASSIC)
        .map(|i| Square::from_index(i, CLASSIC))
        .collect();
    all.shuffle(rng);
    all
}

/// Each square not in `taken` a pawn with probability `density`.
fn sprinkle(rng: &mut Rng, taken: Bitboard, density: f64) -> Bitboard {
    (0..CLASSIC * CLASSIC)
        .map(|i| Square::from_index(i, CLASSIC))
        .filter(|&sq| !taken.contains(sq) && rng.random_bool(density))
        .collect()
}

/// The squares of `pieces`.
fn set(pieces: &[Square]) -> Bitboard {
    pieces.iter().copied().collect()
}

fn random(rng: &mut Rng, knights: usize, density: f64) -> Result<Scenario, ScenarioError> {
    let order = shuffled(rng);
    let (queen, bishop) = (order[0], order[1]);
    let knights = order[2..2 + knights].to_vec();
    let pawns = sprinkle(rng, set(&order[..2 + knights.len()]), density);
    Scenario::new(queen, bishop, knights, pawns)
}

fn impossible(rng: &mut Rng, knights: usize, density: f64) -> Result<Scenario, ScenarioError> {
    match rng.random_range(0..3) {
        0 if knights > 0 => {
            // A knight sealed off: every free neighbour of one knight the queen does not
            // already touch becomes a pawn.
            let base = random(rng, knights, density)?;
            let far: Vec<Square> = base
                .knights()
                .iter()
                .copied()
                .filter(|&k| !k.is_neighbour(base.queen()))
                .collect();
            if far.is_empty() {
                return walled_bishop(rng, knights, density);
            }
            let target = far[rng.random_range(0..far.len())];
            // The queen's start is not among the target's neighbours, so it stays free.
            let pawns = base.pawns() | (Bitboard::neighbours(target) & !base.blockers());
            Scenario::new(base.queen(), base.bishop(), base.knights().to_vec(), pawns)
        }
        2 => boxed_queen(rng, knights, density),
        _ => walled_bishop(rng, knights, density),
    }
}

/// A full rank or file of pawns with the queen on one side and the bishop on the other.
fn walled_bishop(rng: &mut Rng, knights: usize, density: f64) -> Result<Scenario, ScenarioError> {
    let line = rng.random_range(1..CLASSIC as u8 - 1);
    let across_ranks = rng.random_bool(0.5);
    // The coordinate that the wall cuts: the row for a wall along a rank, else the column.
    let cut = |sq: Square| if across_ranks { sq.row } else { sq.col };
    let order = shuffled(rng);
    let wall: Bitboard = order
        .iter()
        .copied()
        .filter(|&sq| cut(sq) == line)
        .collect();
    let queen_low = rng.random_bool(0.5);
    let side = |sq: Square, low: bool| cut(sq) != line && (cut(sq) < line) == low;
    // Both sides hold at least one line of eight squares, so these exist.
    let queen = order.iter().copied().find(|&sq| side(sq, queen_low));
    let bishop = order.iter().copied().find(|&sq| side(sq, !queen_low));
    let (Some(queen), Some(bishop)) = (queen, bishop) else {
        return Err(ScenarioError::TooManyPieces(CLASSIC * CLASSIC + 1));
    };
    let knights: Vec<Square> = order
        .iter()
        .copied()
        .filter(|&sq| !wall.contains(sq) && sq != queen && sq != bishop)
        .take(knights)
        .collect();
    let taken = wall | set(&knights) | set(&[queen, bishop]);
    let pawns = wall | sprinkle(rng, taken, density);
    Scenario::new(queen, bishop, knights, pawns)
}

/// The queen with every neighbour taken (knights beside her, pawns on the rest) and the
/// bishop out of her reach.
fn boxed_queen(rng: &mut Rng, knights: usize, density: f64) -> Result<Scenario, ScenarioError> {
    let order = shuffled(rng);
    let queen = order[0];
    let around = Bitboard::neighbours(queen);
    let bishop = order
        .iter()
        .copied()
        .find(|&sq| sq != queen && !around.contains(sq));
    let Some(bishop) = bishop else {
        return Err(ScenarioError::TooManyPieces(CLASSIC * CLASSIC + 1));
    };
    // Knights on random free squares, her neighbours included.
    let knights: Vec<Square> = order
        .iter()
        .copied()
        .filter(|&sq| sq != queen && sq != bishop)
        .take(knights)
        .collect();
    let taken = set(&knights) | set(&[queen, bishop]);
    let pawns = (around & !taken) | sprinkle(rng, taken | around, density);
    Scenario::new(queen, bishop, knights, pawns)
}

fn start_alone(rng: &mut Rng, knights: usize, density: f64) -> Result<Scenario, ScenarioError> {
    let order = shuffled(rng);
    // A start with room for the bishop and every knight around it (a corner has 3 neighbours,
    // an edge 5, any other square 8); there is always one, since knights <= 7.
    let queen = order
        .iter()
        .copied()
        .find(|&sq| Bitboard::neighbours(sq).count() as usize > knights);
    let Some(queen) = queen else {
        return Err(ScenarioError::TooManyPieces(knights + 2));
    };
    let mut around: Vec<Square> = Bitboard::neighbours(queen).iter().collect();
    around.shuffle(rng);
    let bishop = around[0];
    let knights = around[1..1 + knights].to_vec();
    let pawns = sprinkle(
        rng,
        set(&around[..1 + knights.len()]) | set(&[queen]),
        density,
    );
    Scenario::new(queen, bishop, knights, pawns)
}

/// How many boards `crowded` draws at most before it starts adding pawns to a board with no
/// path anyway (random boards without pawns almost always have one).
const CROWDED_ATTEMPTS: usize = 1000;

fn crowded(rng: &mut Rng, knights: usize) -> Result<Scenario, ScenarioError> {
    let mut base = random(rng, knights, 0.0)?;
    for _ in 1..CROWDED_ATTEMPTS {
        if base.unreachable_piece().is_none() {
            break;
        }
        base = random(rng, knights, 0.0)?;
    }
    // A pawn never makes a piece reachable again, so one pass in random order leaves no free
    // square where a further pawn would keep a path.
    let mut pawns = Bitboard::EMPTY;
    for sq in shuffled(rng) {
        if sq == base.queen() || base.blockers().contains(sq) {
            continue;
        }
        let mut more = pawns;
        more.insert(sq);
        let trial = Scenario::new(base.queen(), base.bishop(), base.knights().to_vec(), more)?;
        if trial.unreachable_piece().is_none() {
            pawns = more;
        }
    }
    Scenario::new(base.queen(), base.bishop(), base.knights().to_vec(), pawns)
}

/// The input of `scenarios` in the statement's layout (the stress tester writes shrunk
/// inputs with it): the count, then each board's eight rows and an empty line.
///
/// ```
/// use chess_puzzles::tour::Scenario;
/// use chess_puzzles::tour::generator::write_input;
///
/// let board = "Q.......\n........\n........\n........\n........\n........\n......N.\n......NB\n";
/// let text = write_input(&[Scenario::parse(board).unwrap()]);
/// assert_eq!(text, format!("1\n{board}\n"));
/// ```
pub fn write_input(scenarios: &[Scenario]) -> String {
    let mut text = format!("{}\n", scenarios.len());
    for scenario in scenarios {
        text.push_str(&scenario.to_rows());
        text.push('\n');
    }
    text
}

/// Smaller instances of `scenario` for the stress tester's shrinking: each knight removed
/// while more than [`STATEMENT_KNIGHTS`]`.0` are left, then each pawn removed.
///
/// ```
/// use chess_puzzles::tour::Scenario;
/// use chess_puzzles::tour::generator::smaller;
///
/// let board = "Q......P\n........\n........\n........\n........\n........\n......N.\n.....NNB\n";
/// let fewer = smaller(&Scenario::parse(board).unwrap());
/// assert_eq!(fewer.len(), 3 + 1);
/// assert_eq!(fewer[0].knights().len(), 2);
/// assert_eq!(fewer[3].pawns().iter().count(), 0);
/// ```
pub fn smaller(scenario: &Scenario) -> Vec<Scenario> {
    let mut candidates = Vec::new();
    let knights = scenario.knights();
    if knights.len() > STATEMENT_KNIGHTS.0 {
        for skip in 0..knights.len() {
            let fewer: Vec<Square> = knights
                .iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, &k)| k)
                .collect();
            let made = Scenario::new(scenario.queen(), scenario.bishop(), fewer, scenario.pawns());
            candidates.extend(made.ok());
        }
    }
    for pawn in scenario.pawns().iter() {
        let mut pawns = scenario.pawns();
        pawns.remove(pawn);
        let made = Scenario::new(scenario.queen(), scenario.bishop(), knights.to_vec(), pawns);
        candidates.extend(made.ok());
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards(kind: Kind, seed: u64, n: usize) -> Vec<Scenario> {
        let options = GenOptions {
            seed,
            kind,
            ..GenOptions::default()
        };
        let mut rng = judge::rng(seed);
        (0..n)
            .map(|_| scenario(&mut rng, &options).unwrap())
            .collect()
    }

    #[test]
    fn knight_ranges_parse_strictly() {
        for bad in [
            "", "-", "3-", "-3", "+3", " 3", "3 - 5", "25", "0-25", "5-4", "1000000",
        ] {
            assert!(bad.parse::<Knights>().is_err(), "{bad:?}");
        }
        assert_eq!("0-24".parse::<Knights>().ok(), Knights::new(0, 24));
        assert_eq!(Knights::default().to_string(), "2-14");
    }

    #[test]
    fn impossible_boards_have_an_unreachable_piece() {
        for seed in 0..20 {
            for s in boards(Kind::Impossible, seed, 30) {
                assert!(s.unreachable_piece().is_some(), "{s}");
            }
        }
    }

    #[test]
    fn start_alone_boards_touch_everything_from_the_start() {
        for s in boards(Kind::StartAlone, 3, 200) {
            assert!(s.bishop().is_neighbour(s.queen()), "{s}");
            assert!(s.knights().iter().all(|k| k.is_neighbour(s.queen())), "{s}");
            assert!((2..=START_ALONE_KNIGHTS).contains(&s.knights().len()));
        }
    }

    #[test]
    fn crowded_boards_are_possible_and_full() {
        for s in boards(Kind::Crowded, 4, 50) {
            assert!(s.unreachable_piece().is_none(), "{s}");
            for sq in (0..64).map(|i| Square::from_index(i, CLASSIC)) {
                if sq == s.queen() || s.blockers().contains(sq) {
                    continue;
                }
                let mut pawns = s.pawns();
                pawns.insert(sq);
                let more = Scenario::new(s.queen(), s.bishop(), s.knights().to_vec(), pawns);
                assert!(more.unwrap().unreachable_piece().is_some(), "{s}{sq}");
            }
        }
    }
}

//! "Chess Variants Showdown" (SPOJ CHE): the cheapest pieces that check every king.
//!
//! An optimisation problem: every test's answer is scored cost / n², lower is better. The
//! module holds the instance ([`Instance`]) and [`run`]; the judge format ([`reader`] and
//! [`writer`]); the judge ([`judge`]); and the optimiser ([`solver`]): a greedy construction
//! ([`construction`]), a weighted local search with exact incremental check counts
//! ([`local_search`] over [`board`]), a lower bound from the covering relaxation ([`bounds`])
//! and an exact search for small boards ([`exhaustive`]). Every answer printed has passed
//! [`judge::verify`].
//!
//! Around them: every (piece, square) that could check each king ([`candidates`]); when a
//! search must stop, a moment or a stop flag ([`deadline`]); what a run has reached, for a
//! display on another thread ([`progress`]); the problem as a mixed-integer linear program
//! ([`model`]), which the proof mode `prove` (cargo feature `milp`) solves with HiGHS; and the
//! kit's seeded [`generator`] and strict validator ([`validate`]).
//!
//! ```
//! use chess_puzzles::showdown::{run, Options};
//!
//! let input = "1\n3\n#__\n___\n__#\n5 5 1 5 5 5 5 5\n";
//! let mut out = Vec::new();
//! run(input.as_bytes(), &mut out, &Options::default()).unwrap();
//! // One knight cannot check both corners; two are the cheapest (price 1 each).
//! assert_eq!(String::from_utf8(out).unwrap().lines().next(), Some("2 2"));
//! ```

pub mod board;
pub mod bounds;
pub mod candidates;
pub mod construction;
pub mod deadline;
pub mod exhaustive;
pub mod generator;
pub mod journal;
pub mod judge;
pub mod local_search;
pub mod model;
pub mod progress;
#[cfg(feature = "milp")]
pub mod prove;
pub mod reader;
pub mod solver;
#[cfg(unix)]
pub mod stress;
pub mod trace;
pub mod validate;
pub mod writer;

use std::io::{Read, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::core::pieces::PieceKind;
use crate::core::{Square, SquareSet};
use crate::error::{ParseError, ParseErrorKind, RunError};
use crate::input::{CaseReader, Scanner};
use crate::output::{self, OutputFormat};
use crate::sample::Sample;

pub use progress::Progress;
pub use reader::Reader;
pub use solver::{Ending, Solution, SolveError};
use writer::Solved;

/// The sample of the statement of Chess Variants Showdown (SPOJ CHE). The statement prints it without the line holding the
/// number of tests; the file adds `1`. Any valid answer costing at most 4 is as good.
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/showdown/sample.in"),
    output: include_str!("../../tests/data/showdown/sample.out"),
};

/// The smallest board side this program accepts, the statement's too (a 1x1 board could hold
/// no king with an empty neighbour).
pub const MIN_SIDE: usize = 2;

/// The largest board side this program accepts (the statement's is [`STATEMENT_SIDES`]`.1`).
/// A [`Square`] addresses at most 256 rows and columns; the solver's memory grows with n²
/// (about 1.5 MB at n = 256).
pub const MAX_SIDE: usize = 256;

/// The board sides the statement allows, 2..25. The solver, the judge and the generator
/// accept [`MIN_SIDE`]..[`MAX_SIDE`] (2..256); `validate` holds an input to the statement's.
pub const STATEMENT_SIDES: (usize, usize) = (MIN_SIDE, 25);

/// The board sides this program accepts, as every message states them:
/// `2..256 (the program's limit; the statement's is 2..25)`.
pub fn program_sides() -> String {
    format!(
        "{MIN_SIDE}..{MAX_SIDE} (the program's limit; the statement's is {}..{})",
        STATEMENT_SIDES.0, STATEMENT_SIDES.1
    )
}

/// The board sides the statement allows, as every message states them:
/// `2..25 (the statement's limit; the program's is 2..256)`.
pub fn statement_sides() -> String {
    format!(
        "{}..{} (the statement's limit; the program's is {MIN_SIDE}..{MAX_SIDE})",
        STATEMENT_SIDES.0, STATEMENT_SIDES.1
    )
}

/// The most tests an input of the statement holds (the solver and the judge read any number
/// up to [`PLAUSIBLE_COUNT`](crate::input::PLAUSIBLE_COUNT); the generator writes up to 10^9).
pub const STATEMENT_TESTS: u64 = 15;

/// The dearest price of a piece the statement allows.
pub const MAX_COST: u64 = 1_000_000;

/// A validated test case: an `n`x`n` board, the squares holding kings, and the eight prices in
/// the statement's order ([`PieceKind::ALL`]).
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Instance {
    side: usize,
    kings: SquareSet,
    costs: [u32; 8],
}

/// Why a board and prices do not make an [`Instance`] (the reader turns these into located
/// errors).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InstanceError {
    /// The side is below [`MIN_SIDE`] or above [`MAX_SIDE`].
    #[error("a board side {MIN_SIDE}..{MAX_SIDE}, found {0}")]
    BadSide(usize),
    /// A price is 0 or above [`MAX_COST`].
    #[error("a cost 1..{MAX_COST}, found {0}")]
    BadCost(u64),
    /// A king has no empty neighbour and no piece could check it from anywhere.
    #[error(
        "the king on {0} can be checked by no piece: it has no empty neighbour and no knight, phoenix or cannon square"
    )]
    Uncheckable(Square),
}

impl Instance {
    /// A test case from its side, the kings' squares (a set of that side) and the eight prices.
    ///
    /// Refuses a king that no piece could check on any board (it then has no empty neighbour:
    /// only a knight, a phoenix's jump or a cannon over a neighbour can reach it).
    ///
    /// ```
    /// use chess_puzzles::core::{Square, SquareSet};
    /// use chess_puzzles::showdown::Instance;
    ///
    /// let mut kings = SquareSet::new(2);
    /// kings.insert(Square::new(0, 0));
    /// let instance = Instance::new(2, kings, [1; 8]).unwrap();
    /// assert_eq!(instance.king_count(), 1);
    /// ```
    pub fn new(side: usize, kings: SquareSet, costs: [u32; 8]) -> Result<Instance, InstanceError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&side) || kings.side() != side {
            return Err(InstanceError::BadSide(side));
        }
        if let Some(&bad) = costs.iter().find(|&&c| c == 0 || u64::from(c) > MAX_COST) {
            return Err(InstanceError::BadCost(u64::from(bad)));
        }
        let instance = Instance { side, kings, costs };
        if let Some(king) = instance.first_uncheckable_king() {
            return Err(InstanceError::Uncheckable(king));
        }
        Ok(instance)
    }

    /// The board's side n.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The kings' squares.
    pub fn kings(&self) -> &SquareSet {
        &self.kings
    }

    /// True when a king stands on `sq`.
    pub fn is_king(&self, sq: Square) -> bool {
        self.kings.contains(sq)
    }

    /// How many kings there are.
    pub fn king_count(&self) -> usize {
        self.kings.count()
    }

    /// The price of a piece.
    pub fn cost(&self, kind: PieceKind) -> u32 {
        self.costs[kind.index()]
    }

    /// The eight prices in the statement's order.
    pub fn costs(&self) -> [u32; 8] {
        self.costs
    }

    /// The greatest common divisor of the eight prices. Every answer costs a sum of prices,
    /// so a multiple of it.
    pub fn cost_unit(&self) -> u64 {
        self.costs.iter().fold(0, |g, &c| gcd(g, u64::from(c)))
    }

    /// `bound` rounded up to a multiple of [`Instance::cost_unit`]: still a lower bound on
    /// every answer when `bound` is one (no answer costs between the two).
    ///
    /// ```
    /// use chess_puzzles::core::{Square, SquareSet};
    /// use chess_puzzles::showdown::Instance;
    ///
    /// let mut kings = SquareSet::new(2);
    /// kings.insert(Square::new(0, 0));
    /// let equal = Instance::new(2, kings.clone(), [6; 8]).unwrap();
    /// assert_eq!(equal.least_cost_from(7), 12);
    /// assert_eq!(equal.least_cost_from(12), 12);
    /// let mixed = Instance::new(2, kings, [6, 6, 6, 6, 6, 6, 6, 9]).unwrap();
    /// assert_eq!(mixed.least_cost_from(7), 9); // a multiple of 3
    /// ```
    pub fn least_cost_from(&self, bound: u64) -> u64 {
        round_up_to(bound, self.cost_unit())
    }

    /// The first king (row-major) that no piece could check on any board, if any.
    pub fn first_uncheckable_king(&self) -> Option<Square> {
        // A king with an empty neighbour can be checked from there (by a horse, say): only
        // the others need their candidate sets.
        let n = self.side;
        let free = |king: Square| {
            (-1..=1).any(|dr| {
                (-1..=1).any(|dc| {
                    (dr, dc) != (0, 0)
                        && king
                            .offset(dr, dc, n)
                            .is_some_and(|sq| !self.kings.contains(sq))
                })
            })
        };
        if self.kings.iter().all(free) {
            return None;
        }
        let candidates = candidates::Candidates::new(&self.kings);
        (0..candidates.king_count())
            .find(|&k| candidates.of_king(k).is_empty())
            .map(|k| candidates.king_square(k))
    }
}

/// One piece of an answer.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// Which piece.
    pub kind: PieceKind,
    /// Where it stands (0-based).
    pub square: Square,
}

/// An answer to a test case: the pieces placed and their total price.
#[derive(Clone, Debug, Eq, PartialEq, Default)]
pub struct Answer {
    /// The pieces, in no particular order.
    pub pieces: Vec<Placement>,
    /// The sum of their prices.
    pub cost: u64,
}

impl Answer {
    /// An answer with its cost computed from the instance's prices.
    pub fn new(instance: &Instance, mut pieces: Vec<Placement>) -> Answer {
        pieces.sort_by_key(|p| (p.square, p.kind));
        let cost = pieces
            .iter()
            .map(|p| u64::from(instance.cost(p.kind)))
            .sum();
        Answer { pieces, cost }
    }

    /// The judge's score of the answer: cost / n².
    pub fn score(&self, instance: &Instance) -> f64 {
        score(self.cost, instance.side())
    }
}

/// The judge's score of a cost on a board of side `n`: cost / n².
pub fn score(cost: u64, side: usize) -> f64 {
    cost as f64 / (side * side) as f64
}

/// The 1-based number of a piece in the statement (1 bishop .. 8 cannon).
pub fn piece_number(kind: PieceKind) -> u32 {
    kind.index() as u32 + 1
}

/// The piece with the statement's 1-based number, if it is 1..8.
pub fn piece_from_number(number: u64) -> Option<PieceKind> {
    let i = usize::try_from(number.checked_sub(1)?).ok()?;
    PieceKind::ALL.get(i).copied()
}

/// `bound` rounded up to a multiple of `unit` (0 taken as 1).
pub(crate) fn round_up_to(bound: u64, unit: u64) -> u64 {
    let unit = unit.max(1);
    bound.div_ceil(unit).saturating_mul(unit)
}

/// The greatest common divisor (`gcd(0, b) = b`).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The default budget for a whole input: a file of 15 boards of 25x25 ends within 10 s.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_millis(8500);

/// How `chess-puzzles showdown` answers.
#[derive(Clone, Debug)]
pub struct Options {
    /// Judge bytes, diagrams or JSON.
    pub format: OutputFormat,
    /// The time for the whole input, counted from the moment it has been read and checked,
    /// shared out among its tests; it bounds every part of the run, whatever the other
    /// options (see [`solver::solve_input`]).
    pub time_limit: Duration,
    /// The seed of every random choice.
    pub seed: u64,
    /// When set, each search runs exactly this many local-search steps per thread instead of
    /// stopping at its share of the time: the same seed then gives the same answers on any
    /// machine whose rayon pool has as many threads, one or more than one (a test runs one
    /// search per thread, at most two), unless the time limit runs out first
    /// ([`Ending::steps_cut`]).
    pub steps: Option<u64>,
    /// Answer with the plain greedy only (the baseline of the measurements), no search.
    pub greedy: bool,
    /// Say which pieces check each king (in the board and JSON formats).
    pub explain: bool,
    /// Raised from outside (Ctrl-C): every test still open is then answered at once with the
    /// best answer it holds.
    pub stop: Option<&'static AtomicBool>,
    /// Raised when the answers are no longer wanted (a web client gone): the run then ends as
    /// with `stop` (looked at when `stop` is not set).
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            format: OutputFormat::Judge,
            time_limit: DEFAULT_TIME_LIMIT,
            seed: 0,
            steps: None,
            greedy: false,
            explain: false,
            stop: None,
            cancel: None,
        }
    }
}

/// Answers every test of `input` on `out`, each as soon as it is found, within
/// `options.time_limit` in all (see [`run_watched`]).
///
/// Fails with [`RunError::Input`] when the input is malformed (a located error; the whole
/// input is read and checked first, so nothing is written then) or a king can be checked from
/// nowhere, or with [`RunError::Output`] when `out` cannot be written.
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError> {
    run_watched(input, out, options, &Progress::default()).map(|_| ())
}

/// [`run`], calling `progress(done, total)` on the solving threads (see
/// [`Progress::observed`]): with `options.steps`, the local-search steps made out of those the
/// run will make, at least every few thousand steps; else the tests answered out of the tests.
/// The answers are the same as [`run`]'s.
pub fn run_with_progress<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
    progress: impl Fn(u64, u64) + Send + Sync + 'static,
) -> Result<(), RunError> {
    run_watched(input, out, options, &Progress::observed(progress)).map(|_| ())
}

/// [`run`], reporting the run's state to `progress` (read it from another thread for a
/// progress display) and telling how the run ended.
///
/// The whole input is read and checked first: a malformed input fails at once, before any
/// search, and nothing is written (the stop flag raised meanwhile ends the run with nothing
/// written either, [`Ending::unread`]). Then the clock starts, and each answer is written and
/// flushed as soon as it is final. Every answer has passed [`judge::verify`], also when the
/// stop flag cut the run short.
pub fn run_watched<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
    progress: &Progress,
) -> Result<Ending, RunError> {
    run_told(input, out, options, progress, None)
}

/// [`run_watched`], writing before each answer the story of its test (see [`trace`]) when
/// `told` is set: its lines, then the answer as `--format json` writes it, marked
/// `"event":"answer"` (whatever `options.format`).
pub(crate) fn run_told<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
    progress: &Progress,
    told: Option<&trace::Told>,
) -> Result<Ending, RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut instances = Vec::new();
    // Where each board starts, for an error about it (its "test i of t" is made then).
    let mut places = Vec::new();
    while let Some(instance) = reader.next_case()? {
        instances.push(instance);
        places.push(reader.board_start());
        // Ctrl-C while a long input is read: nothing to answer yet, stop at once.
        if options.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Ok(Ending {
                interrupted: true,
                unread: true,
                ..Ending::default()
            });
        }
    }
    let total = instances.len();
    let answer = |case: usize, solved: Result<Solution, SolveError>, more: bool| {
        let instance = &instances[case - 1];
        let solution = solved.map_err(|e| {
            ParseError::new(
                places[case - 1],
                ParseErrorKind::Invalid,
                "a board whose kings can all be checked at once",
                e.to_string(),
            )
            .with_context(format!("test {case} of {total}"))
        })?;
        let written = Solved::new(instance, &solution, options.explain);
        match told {
            Some(told) => {
                let mut line = Vec::new();
                output::write_case(&mut line, OutputFormat::Json, case as u64, &written)
                    .and_then(|()| told.write(out, case, instance, &solution, &line))
            }
            None => output::write_case(out, options.format, case as u64, &written),
        }
        // Flushed once for the answers that come together.
        .and_then(|()| if more { Ok(()) } else { out.flush() })
        .map_err(RunError::Output)?;
        Ok::<(), RunError>(())
    };
    let settings = solver::Settings {
        time_limit: options.time_limit,
        steps: options.steps,
        seed: options.seed,
        stop: options.stop.or(options.cancel.as_deref()),
        progress: Some(progress),
        trace: told.map(trace::Told::recorder),
    };
    if options.greedy {
        solver::greedy_input(&instances, &settings, answer)
    } else {
        solver::solve_input(&instances, &settings, answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kings of a board drawn as rows of `#` (a king) and `_` (an empty square).
    pub(crate) fn kings_drawn(rows: &[&str]) -> SquareSet {
        let mut kings = SquareSet::new(rows.len());
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '#' {
                    kings.insert(Square::new(r as u8, c as u8));
                }
            }
        }
        kings
    }

    #[test]
    fn piece_numbers_round_trip() {
        for kind in PieceKind::ALL {
            assert_eq!(piece_from_number(u64::from(piece_number(kind))), Some(kind));
        }
        assert_eq!(piece_from_number(0), None);
        assert_eq!(piece_from_number(9), None);
        assert_eq!(piece_from_number(u64::MAX), None);
        assert_eq!(piece_from_number(6), Some(PieceKind::Horse));
    }

    #[test]
    fn bad_sides_and_costs_are_refused() {
        let kings = SquareSet::new(3);
        assert_eq!(
            Instance::new(3, kings.clone(), [0; 8]),
            Err(InstanceError::BadCost(0))
        );
        assert_eq!(
            Instance::new(4, kings, [1; 8]),
            Err(InstanceError::BadSide(4))
        );
    }

    #[test]
    fn a_surrounded_king_is_kept_only_when_some_piece_reaches_it() {
        // 2x2 full of kings: nothing anywhere can check them.
        let full = SquareSet::full(2);
        assert_eq!(
            Instance::new(2, full, [1; 8]),
            Err(InstanceError::Uncheckable(Square::new(0, 0)))
        );
        // 3x3 with only the bottom-middle square empty: every king is reached, the top
        // corners by a knight there, the top middle by a cannon over the centre.
        let mut kings = SquareSet::full(3);
        kings.remove(Square::new(2, 1));
        assert!(Instance::new(3, kings, [1; 8]).is_ok());
        // 4x4 with only the bottom-right corner empty: the top-left king is out of reach.
        let mut kings = SquareSet::full(4);
        kings.remove(Square::new(3, 3));
        assert_eq!(
            Instance::new(4, kings, [1; 8]),
            Err(InstanceError::Uncheckable(Square::new(0, 0)))
        );
    }
}

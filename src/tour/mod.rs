//! "Traveling Queen" (POJ 2919, TUD contest 2006): the fewest queen moves that stop
//! next to every knight and end next to the bishop, and among those the lexicographically first
//! path.
//!
//! A scenario is an 8x8 board with one queen `Q`, one bishop `B`, pawns `P` and knights `N`.
//! The queen visits a piece by standing on one of its neighbours (the start square counts);
//! pawns, knights and the bishop block her and cannot be stood on; the start square is empty
//! once she leaves it. The answer is the list of squares she stands on, the start included, or
//! `None` when no path exists. The search is [`layered_bfs`] ([`trace`] writes its layers and
//! path for people to watch); [`random`] draws random
//! scenarios and writes them as a judge input (the benchmark's input).
//!
//! ```
//! use chess_puzzles::tour::{Scenario, Solver, path_string};
//!
//! let board = ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n";
//! let scenario = Scenario::parse(board).unwrap();
//! let path = Solver::new().solve(&scenario).unwrap();
//! assert_eq!(path_string(&path), "h8h2e5d4b2"); // 4 moves
//! ```

pub mod generator;
pub mod layered_bfs;
pub mod random;
pub mod reader;
#[cfg(unix)]
pub mod stress;
pub mod trace;
pub mod validate;
pub mod walk;
pub mod writer;

use std::fmt;
use std::io::{Read, Write};

use crate::core::{Bitboard, CLASSIC, Square};
use crate::error::{InputError, RunError};
use crate::input::{CaseReader, Scanner};
use crate::judge::compare::Tolerance;
use crate::judge::{self, Checked};
use crate::output::{self, OutputFormat};
use crate::sample::Sample;

pub use layered_bfs::Solver;
pub use reader::Reader;
use writer::Solved;

/// The sample of the statement of Traveling Queen (POJ 2919).
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/tour/sample.in"),
    output: include_str!("../../tests/data/tour/sample.out"),
};

/// The most knights a scenario may hold. The statement allows 2 to 14; the search keeps two
/// bitboards per set of visited knights, so its memory doubles with every knight: at this limit
/// they take 256 MiB, and the hardest 24-knight boards we found take about half a second and
/// under 300 MiB in all (25 knights would need 512 MiB for those arrays alone, 26 a GiB).
/// docs/guide.md gives the measurements.
pub const MAX_KNIGHTS: usize = 24;

/// What stands on a square of a scenario's board.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Piece {
    /// The queen, where she starts (`Q`).
    Queen,
    /// The bishop she ends next to (`B`).
    Bishop,
    /// A knight she must visit (`N`).
    Knight,
    /// A pawn that only blocks (`P`).
    Pawn,
}

impl Piece {
    /// The piece written as `c` in the judge's input, if any (`.` is an empty square).
    pub fn from_char(c: u8) -> Option<Piece> {
        match c {
            b'Q' => Some(Piece::Queen),
            b'B' => Some(Piece::Bishop),
            b'N' => Some(Piece::Knight),
            b'P' => Some(Piece::Pawn),
            _ => None,
        }
    }

    /// The letter of the judge's input.
    pub fn letter(self) -> char {
        match self {
            Piece::Queen => 'Q',
            Piece::Bishop => 'B',
            Piece::Knight => 'N',
            Piece::Pawn => 'P',
        }
    }

    /// The symbol drawn on boards.
    pub fn symbol(self) -> &'static str {
        match self {
            Piece::Queen => "♛",
            Piece::Bishop => "♝",
            Piece::Knight => "♞",
            Piece::Pawn => "♟",
        }
    }
}

/// Why pieces do not make a scenario.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ScenarioError {
    /// A square outside the 8x8 board.
    #[error("square {0} is not on the 8x8 board")]
    OffBoard(Square),
    /// Two pieces on one square.
    #[error("two pieces on {}", square_name(*.0))]
    Overlap(Square),
    /// More than [`MAX_KNIGHTS`] knights.
    #[error("at most {MAX_KNIGHTS} knights, found {0}")]
    TooManyKnights(usize),
    /// More pieces than squares.
    #[error("at most 64 pieces, found {0}")]
    TooManyPieces(usize),
}

/// One board of the puzzle, validated: the pieces are on distinct squares of the 8x8 board and
/// there are at most [`MAX_KNIGHTS`] knights.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Scenario {
    queen: Square,
    bishop: Square,
    knights: Vec<Square>,
    pawns: Bitboard,
}

impl Scenario {
    /// A scenario from its pieces. The knights are kept in board order (row by row from
    /// rank 8), so that equal boards are equal scenarios.
    pub fn new(
        queen: Square,
        bishop: Square,
        mut knights: Vec<Square>,
        pawns: Bitboard,
    ) -> Result<Scenario, ScenarioError> {
        knights.sort();
        if knights.len() > MAX_KNIGHTS {
            return Err(ScenarioError::TooManyKnights(knights.len()));
        }
        let mut taken = pawns;
        for &sq in [queen, bishop].iter().chain(&knights) {
            if usize::from(sq.row) >= CLASSIC || usize::from(sq.col) >= CLASSIC {
                return Err(ScenarioError::OffBoard(sq));
            }
            if taken.contains(sq) {
                return Err(ScenarioError::Overlap(sq));
            }
            taken.insert(sq);
        }
        Ok(Scenario {
            queen,
            bishop,
            knights,
            pawns,
        })
    }

    /// Reads one board written as in the judge's input: eight rows of eight characters
    /// `. Q B P N`, rank 8 first. Errors are located in `text`.
    pub fn parse(text: &str) -> Result<Scenario, InputError> {
        let mut sc = Scanner::new(text.as_bytes());
        let scenario = reader::read_board(&mut sc, 0, "")?;
        sc.expect_end("the end of the board")?;
        Ok(scenario)
    }

    /// Where the queen starts.
    pub fn queen(&self) -> Square {
        self.queen
    }

    /// Where the bishop stands.
    pub fn bishop(&self) -> Square {
        self.bishop
    }

    /// Where the knights stand, in board order.
    pub fn knights(&self) -> &[Square] {
        &self.knights
    }

    /// Where the pawns stand.
    pub fn pawns(&self) -> Bitboard {
        self.pawns
    }

    /// The squares the queen can neither cross nor stand on: pawns, knights and the bishop.
    pub fn blockers(&self) -> Bitboard {
        let mut b = self.pawns;
        b.insert(self.bishop);
        for &k in &self.knights {
            b.insert(k);
        }
        b
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        if sq == self.queen {
            Some(Piece::Queen)
        } else if sq == self.bishop {
            Some(Piece::Bishop)
        } else if self.knights.contains(&sq) {
            Some(Piece::Knight)
        } else if self.pawns.contains(sq) {
            Some(Piece::Pawn)
        } else {
            None
        }
    }

    /// The first piece (a knight in board order, then the bishop) that no square the queen can
    /// ever stand on touches: the reason a scenario is impossible, when there is one this simple.
    pub fn unreachable_piece(&self) -> Option<(Piece, Square)> {
        let region = Bitboard::from_square(self.queen).flood(!self.blockers());
        self.knights
            .iter()
            .map(|&k| (Piece::Knight, k))
            .chain([(Piece::Bishop, self.bishop)])
            .find(|&(_, sq)| (Bitboard::neighbours(sq) & region).is_empty())
    }

    /// The board in the judge's input format: eight lines, rank 8 first.
    pub fn to_rows(&self) -> String {
        let mut text = String::with_capacity(72);
        for r in 0..CLASSIC as u8 {
            for c in 0..CLASSIC as u8 {
                let piece = self.piece_at(Square::new(r, c));
                text.push(piece.map_or('.', Piece::letter));
            }
            text.push('\n');
        }
        text
    }
}

impl fmt::Display for Scenario {
    /// The judge's rows.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_rows())
    }
}

/// The name of a square as the judge writes it: file letter `a..h`, then rank digit `1..8`.
/// Row 0 (the top row of the input) is rank 8.
pub fn square_name(sq: Square) -> String {
    let file = char::from(b'a' + sq.col % 8);
    let rank = 8 - i32::from(sq.row);
    format!("{file}{rank}")
}

/// A path as the judge writes it: the square names run together.
pub fn path_string(path: &[Square]) -> String {
    path.iter().map(|&sq| square_name(sq)).collect()
}

/// The rank in the judge's lexicographic order of square names (file first, then rank digit):
/// a1 = 0, a2 = 1, ..., a8 = 7, b1 = 8, ..., h8 = 63.
pub fn lex_rank(sq: Square) -> u8 {
    sq.col * 8 + (7 - sq.row)
}

/// How `chess-puzzles tour` writes its answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub struct Options {
    /// Judge bytes, boards or JSON.
    pub format: OutputFormat,
}

/// Answers every scenario of `input` on `out`, each as soon as it is read.
///
/// Fails with [`RunError::Input`] at the first malformed scenario (a located error: line,
/// column, what was expected and what was found), the answers before it written already, or
/// with [`RunError::Output`] when `out` cannot be written.
///
/// ```
/// use chess_puzzles::tour::{run, Options, SAMPLE};
///
/// let mut out = Vec::new();
/// run(SAMPLE.input.as_bytes(), &mut out, &Options::default()).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), SAMPLE.output);
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError> {
    run_cases(Reader::new(Scanner::new(input))?, out, options)
}

/// [`run`] on boards read already (or read as they come): the same answers.
pub fn run_cases<W: Write>(
    reader: impl CaseReader<Case = Scenario>,
    out: &mut W,
    options: &Options,
) -> Result<(), RunError> {
    let mut solver = Solver::new();
    output::write_cases(reader, out, options.format, |scenario| {
        Solved::new(&mut solver, scenario)
    })
}

/// Judges `output` as the answer to `input` in the judge's format: solves `input` and compares
/// (see [`judge::compare`] for what each [`Tolerance`] forgives). The outer error says that the
/// input could not be read or parsed, or the output could not be read.
///
/// ```
/// use chess_puzzles::judge::compare::Tolerance;
/// use chess_puzzles::tour::{check, SAMPLE};
///
/// let verdict = check(SAMPLE.input.as_bytes(), SAMPLE.output.as_bytes(), Tolerance::Exact);
/// assert!(verdict.unwrap().is_ok());
/// let wrong = SAMPLE.output.replace("h8h2e5d4b2", "h8h2e5d4c3");
/// let diff = check(SAMPLE.input.as_bytes(), wrong.as_bytes(), Tolerance::Lines).unwrap().unwrap_err();
/// assert_eq!(diff.position.line, 2);
/// ```
pub fn check(input: impl Read, output: impl Read, tolerance: Tolerance) -> Checked {
    let reader = Reader::new(Scanner::new(input))?;
    let mut solver = Solver::new();
    let solve = |scenario| Solved::new(&mut solver, scenario);
    judge::check(reader, solve, output, tolerance)
}

/// Checks a path independently of the search: it starts on the queen's square, every move is a
/// queen line over empty squares onto an empty square, every knight has a stop next to it, and
/// the last stop is next to the bishop. Says what is wrong, if anything. (It does not say
/// whether the path is the shortest or the first.)
pub fn check_path(scenario: &Scenario, path: &[Square]) -> Result<(), String> {
    let Some((&first, _)) = path.split_first() else {
        return Err("the path is empty".to_string());
    };
    if first != scenario.queen() {
        return Err(format!(
            "it starts on {}, not on the queen",
            square_name(first)
        ));
    }
    for pair in path.windows(2) {
        check_move(scenario, pair[0], pair[1])?;
    }
    for &k in scenario.knights() {
        if !path.iter().any(|&sq| sq.is_neighbour(k)) {
            return Err(format!("the knight on {} is not visited", square_name(k)));
        }
    }
    let last = path.last().copied().unwrap_or(first);
    if !last.is_neighbour(scenario.bishop()) {
        return Err(format!(
            "it ends on {}, not next to the bishop on {}",
            square_name(last),
            square_name(scenario.bishop())
        ));
    }
    Ok(())
}

/// Checks one move of the queen by the statement's rules: from `from` to `to` along a queen
/// line (a rank, a file or a diagonal), over empty squares onto an empty square; the pawns,
/// the knights and the bishop block her (the queen's start is empty once she has left it).
/// Says what is wrong, if anything.
///
/// ```
/// use chess_puzzles::core::Square;
/// use chess_puzzles::tour::{Scenario, check_move, parse_square_name};
///
/// let board = ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n";
/// let scenario = Scenario::parse(board).unwrap();
/// let sq = |name| parse_square_name(name).unwrap();
/// assert_eq!(check_move(&scenario, sq("h8"), sq("h2")), Ok(()));
/// assert_eq!(
///     check_move(&scenario, sq("h8"), sq("b2")),
///     Err("h8 to b2 crosses or lands on the piece on f6".to_string())
/// );
/// ```
pub fn check_move(scenario: &Scenario, from: Square, to: Square) -> Result<(), String> {
    if usize::from(to.row) >= CLASSIC || usize::from(to.col) >= CLASSIC {
        return Err(format!("{to} is off the board"));
    }
    if from == to || !from.queen_aligned(to) {
        return Err(format!(
            "{} to {} is not a queen move",
            square_name(from),
            square_name(to)
        ));
    }
    let blockers = scenario.blockers();
    let (dr, dc) = (
        (i32::from(to.row) - i32::from(from.row)).signum(),
        (i32::from(to.col) - i32::from(from.col)).signum(),
    );
    let mut at = from;
    while at != to {
        at = at
            .offset(dr, dc, CLASSIC)
            .ok_or_else(|| "a move leaves the board".to_string())?;
        if blockers.contains(at) {
            return Err(format!(
                "{} to {} crosses or lands on the piece on {}",
                square_name(from),
                square_name(to),
                square_name(at)
            ));
        }
    }
    Ok(())
}

/// The square a chess name (`a1` to `h8`) names, if it names one.
///
/// ```
/// use chess_puzzles::core::Square;
/// use chess_puzzles::tour::{parse_square_name, square_name};
///
/// assert_eq!(parse_square_name("a8"), Some(Square::new(0, 0)));
/// assert_eq!(parse_square_name("h1").map(square_name).as_deref(), Some("h1"));
/// assert_eq!(parse_square_name("i9"), None);
/// ```
pub fn parse_square_name(name: &str) -> Option<Square> {
    match name.as_bytes() {
        &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => Some(Square::new(b'8' - rank, file - b'a')),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample_first() -> Scenario {
        Scenario::parse(
            ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n",
        )
        .unwrap()
    }

    #[test]
    fn names_and_order() {
        assert_eq!(square_name(Square::new(0, 7)), "h8");
        assert_eq!(square_name(Square::new(7, 0)), "a1");
        assert!(lex_rank(Square::new(7, 0)) < lex_rank(Square::new(0, 0)));
        assert!(lex_rank(Square::new(0, 0)) < lex_rank(Square::new(7, 1)));
        let mut all: Vec<Square> = (0..64).map(|i| Square::from_index(i, 8)).collect();
        all.sort_by_key(|&sq| square_name(sq));
        let ranks: Vec<u8> = all.iter().map(|&sq| lex_rank(sq)).collect();
        assert_eq!(ranks, (0..64).collect::<Vec<u8>>());
    }

    #[test]
    fn parse_and_print_round_trip() {
        let s = sample_first();
        assert_eq!(s.queen(), Square::new(0, 7));
        assert_eq!(s.bishop(), Square::new(6, 2));
        assert_eq!(s.knights().len(), 2);
        assert_eq!(Scenario::parse(&s.to_rows()).unwrap(), s);
    }

    #[test]
    fn validator_accepts_the_sample_answer_and_rejects_broken_ones() {
        let s = sample_first();
        let path = |text: &str| -> Vec<Square> {
            text.as_bytes()
                .chunks(2)
                .map(|p| Square::new(b'8' - p[1], p[0] - b'a'))
                .collect()
        };
        assert_eq!(check_path(&s, &path("h8h2e5d4b2")), Ok(()));
        assert!(check_path(&s, &path("h8h2e5d4")).is_err()); // not next to the bishop
        assert!(check_path(&s, &path("h8h2b2")).is_err()); // knights not visited
        assert!(check_path(&s, &path("h8a1")).is_err()); // not a queen line
        assert!(check_path(&s, &path("g7")).is_err()); // wrong start
        assert!(check_path(&s, &path("h8b2")).is_err()); // crosses the pawn on f6
    }

    #[test]
    fn unreachable_pieces_are_named() {
        let s = Scenario::parse(
            "Q.......\n........\n........\n........\n........\n......PP\n......PN\n......NB\n",
        )
        .unwrap();
        assert_eq!(
            s.unreachable_piece(),
            Some((Piece::Knight, Square::new(6, 7)))
        );
        assert_eq!(sample_first().unreachable_piece(), None);
    }
}

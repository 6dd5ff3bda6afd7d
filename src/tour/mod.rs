//! "Traveling Queen" (POJ 2919, TUD contest 2006): the fewest queen moves that stop
//! next to every knight and end next to the bishop, and among those the lexicographically first
//! path.
//!
//! A scenario is an 8x8 board with one queen `Q`, one bishop `B`, pawns `P` and knights `N`.
//! The queen visits a piece by standing on one of its neighbours (the start square counts);
//! pawns, knights and the bishop block her and cannot be stood on; the start square is empty
//! once she leaves it. The answer is the list of squares she stands on, the start included, or
//! `None` when no path exists. The search is [`layered_bfs`].
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
pub mod validate;

use std::fmt;
use std::io::{self, Read, Write};

use serde::Serialize;

use crate::core::{Bitboard, CLASSIC, Diagram, Square};
use crate::error::{InputError, ParseError, ParseErrorKind, Position, RunError, plural};
use crate::input::{Cases, Scanner, Token};
use crate::judge::compare::{Accepted, Answers, Difference, Tolerance};
use crate::judge::{self, CheckError};
use crate::output::OutputFormat;
use crate::sample::Sample;

pub use layered_bfs::Solver;

/// The sample of the statement of Traveling Queen (POJ 2919).
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/tour/sample.in"),
    output: include_str!("../../tests/data/tour/sample.out"),
};

/// The most knights a scenario may hold. The statement allows 2 to 14; the search keeps two
/// bitboards per set of visited knights, so its memory doubles with every knight: at this limit
/// they take 256 MiB, and the hardest 24-knight boards we found take about half a second and
/// under 300 MiB in all (25 knights would need 512 MiB for those arrays alone, 26 a GiB).
/// The README gives the measurements.
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
        let scenario = read_board(&mut sc, 0, "")?;
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

const ROW_EXPECTED: [&str; CLASSIC] = [
    "row 1 of 8 (rank 8): eight of . Q B P N",
    "row 2 of 8 (rank 7): eight of . Q B P N",
    "row 3 of 8 (rank 6): eight of . Q B P N",
    "row 4 of 8 (rank 5): eight of . Q B P N",
    "row 5 of 8 (rank 4): eight of . Q B P N",
    "row 6 of 8 (rank 3): eight of . Q B P N",
    "row 7 of 8 (rank 2): eight of . Q B P N",
    "row 8 of 8 (rank 1): eight of . Q B P N",
];

fn located(
    position: Position,
    kind: ParseErrorKind,
    expected: impl Into<String>,
    found: impl Into<String>,
    context: &str,
) -> InputError {
    let e = ParseError::new(position, kind, expected, found);
    if context.is_empty() {
        e.into()
    } else {
        e.with_context(context).into()
    }
}

/// Reads one board of eight rows. `last_line` is the line of the token before it (0 for none):
/// the board starts on a later line and its rows are on consecutive lines.
fn read_board<R: Read>(
    sc: &mut Scanner<R>,
    last_line: u64,
    context: &str,
) -> Result<Scenario, InputError> {
    let mut queen: Option<(Square, Position)> = None;
    let mut bishop: Option<(Square, Position)> = None;
    let mut knights = Vec::new();
    let mut pawns = Bitboard::EMPTY;
    let mut first_row = Position::START;
    let mut line = last_line;
    for (r, expected) in ROW_EXPECTED.iter().enumerate() {
        let token: Token<'_> = sc
            .expect_token(expected)
            .map_err(|e| e.with_context(context))?;
        let at = token.position;
        if at.line == line {
            return Err(located(
                at,
                ParseErrorKind::BadLength,
                format!("{expected}, on a line of its own"),
                format!("{} on the same line", token.describe()),
                context,
            ));
        }
        if r > 0 && at.line > line + 1 {
            let blank = Position {
                line: line + 1,
                column: 1,
            };
            return Err(located(
                blank,
                ParseErrorKind::UnexpectedEnd,
                *expected,
                format!("an empty line after {}", plural(r as u64, "row")),
                context,
            ));
        }
        if r == 0 {
            first_row = at;
        }
        line = at.line;
        if token.bytes.len() != CLASSIC {
            return Err(located(
                at,
                ParseErrorKind::BadLength,
                *expected,
                format!(
                    "{} ({})",
                    token.describe(),
                    plural(token.bytes.len() as u64, "character")
                ),
                context,
            ));
        }
        for (c, &byte) in token.bytes.iter().enumerate() {
            let sq = Square::new(r as u8, c as u8);
            let here = token.position_at(c);
            let piece = match Piece::from_char(byte) {
                Some(p) => p,
                None if byte == b'.' => continue,
                None => {
                    return Err(located(
                        here,
                        ParseErrorKind::BadCharacter,
                        "a square '.', 'Q', 'B', 'P' or 'N'",
                        crate::error::describe_token(&[byte]),
                        context,
                    ));
                }
            };
            match piece {
                Piece::Queen | Piece::Bishop => {
                    let slot = if piece == Piece::Queen {
                        &mut queen
                    } else {
                        &mut bishop
                    };
                    if let Some((first, _)) = slot {
                        return Err(located(
                            here,
                            ParseErrorKind::Invalid,
                            format!("one '{}' per board", piece.letter()),
                            format!("a second one (the first on {})", square_name(*first)),
                            context,
                        ));
                    }
                    *slot = Some((sq, here));
                }
                Piece::Knight => {
                    if knights.len() == MAX_KNIGHTS {
                        return Err(located(
                            here,
                            ParseErrorKind::TooLarge,
                            format!("at most {MAX_KNIGHTS} knights 'N' per board"),
                            format!("knight number {}", MAX_KNIGHTS + 1),
                            context,
                        ));
                    }
                    knights.push(sq);
                }
                Piece::Pawn => pawns.insert(sq),
            }
        }
    }
    let missing = |letter: char| {
        located(
            first_row,
            ParseErrorKind::Invalid,
            format!("a board with one '{letter}'"),
            "none on this board",
            context,
        )
    };
    let (queen, _) = queen.ok_or_else(|| missing('Q'))?;
    let (bishop, _) = bishop.ok_or_else(|| missing('B'))?;
    Scenario::new(queen, bishop, knights, pawns).map_err(|e| {
        // Every check of `new` was made above with a location; this cannot happen.
        located(
            first_row,
            ParseErrorKind::Invalid,
            "a valid board",
            e.to_string(),
            context,
        )
    })
}

/// Reads the scenarios of an input: their count, then each board of eight rows.
pub struct Reader<R> {
    scanner: Scanner<R>,
    cases: Cases,
    last_line: u64,
}

impl<R: Read> Reader<R> {
    /// Reads the count of scenarios.
    pub fn new(mut scanner: Scanner<R>) -> Result<Reader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of scenarios", "scenario")?;
        let last_line = scanner.position().line;
        Ok(Reader {
            scanner,
            cases,
            last_line,
        })
    }

    /// The next scenario, or `None` after the last one (which also checks that nothing follows).
    pub fn next_scenario(&mut self) -> Result<Option<Scenario>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let context = self.cases.context();
        let scenario = read_board(&mut self.scanner, self.last_line, &context)?;
        self.last_line = self.scanner.position().line;
        Ok(Some(scenario))
    }
}

/// Writes one scenario's answer in the judge's format: the heading, the path or `impossible`,
/// then an empty line.
pub fn write_judge_case<W: Write>(
    out: &mut W,
    case: u64,
    path: Option<&[Square]>,
) -> io::Result<()> {
    let mut text = format!("Scenario #{case}:\n");
    match path {
        Some(p) => {
            for &sq in p {
                text.push(char::from(b'a' + sq.col % 8));
                text.push(char::from(b'8' - sq.row % 8));
            }
        }
        None => text.push_str("impossible"),
    }
    text.push_str("\n\n");
    out.write_all(text.as_bytes())
}

/// One scenario for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The scenario number, from 1 (called `case` in every command's JSON).
    pub case: u64,
    /// Whether a path exists.
    pub possible: bool,
    /// The number of moves (the path's squares less one), or `null`.
    pub moves: Option<usize>,
    /// The squares the queen stands on, start first, as judge names (`"h8"`), or `null`.
    pub path: Option<Vec<String>>,
}

impl JsonCase {
    /// The JSON form of a scenario's answer.
    pub fn new(case: u64, path: Option<&[Square]>) -> JsonCase {
        JsonCase {
            case,
            possible: path.is_some(),
            moves: path.map(|p| p.len().saturating_sub(1)),
            path: path.map(|p| p.iter().map(|&sq| square_name(sq)).collect()),
        }
    }
}

/// The board with the path drawn: the queen (`♛`) on her start, each later stop numbered in
/// order (a square she stands on twice shows both, `♛,3`), the pieces shown by their symbols,
/// and a legend.
pub fn render_case(case: u64, scenario: &Scenario, path: Option<&[Square]>) -> String {
    let ranks: Vec<String> = (1..=CLASSIC).rev().map(|r| r.to_string()).collect();
    let files: Vec<String> = (b'a'..b'a' + CLASSIC as u8)
        .map(|f| char::from(f).to_string())
        .collect();
    let mut d = Diagram::new(CLASSIC, CLASSIC)
        .with_row_labels(ranks)
        .with_col_labels(files);
    for r in 0..CLASSIC as u8 {
        for c in 0..CLASSIC as u8 {
            let sq = Square::new(r, c);
            if let Some(piece) = scenario.piece_at(sq) {
                d.set(sq, piece.symbol());
            }
        }
    }
    let heading = match path {
        Some(p) => {
            let mut stops: Vec<Vec<usize>> = vec![Vec::new(); CLASSIC * CLASSIC];
            for (i, &sq) in p.iter().enumerate() {
                if let Some(list) = stops.get_mut(sq.index(CLASSIC)) {
                    list.push(i);
                }
            }
            for (i, list) in stops.iter().enumerate() {
                if !list.is_empty() {
                    let text: Vec<String> = list
                        .iter()
                        .map(|&stop| match stop {
                            0 => Piece::Queen.symbol().to_string(),
                            _ => stop.to_string(),
                        })
                        .collect();
                    d.set(Square::from_index(i, CLASSIC), text.join(","));
                }
            }
            let moves = p.len().saturating_sub(1);
            let plural = if moves == 1 { "" } else { "s" };
            let names: Vec<String> = p.iter().map(|&sq| square_name(sq)).collect();
            format!("{moves} move{plural}: {}", names.join(" "))
        }
        None => match scenario.unreachable_piece() {
            Some((piece, sq)) => format!(
                "impossible: the queen can reach no square next to the {} on {}",
                match piece {
                    Piece::Knight => "knight",
                    _ => "bishop",
                },
                square_name(sq)
            ),
            None => "impossible".to_string(),
        },
    };
    let legend = if path.is_some() {
        "♛ the queen's start, numbers her stops in order"
    } else {
        "♛ queen"
    };
    format!(
        "Scenario {case}: {heading}\n{d}{legend}; ♞ knight; ♝ bishop; ♟ pawn\n",
        heading = heading
    )
}

/// How `chess-puzzles tour` writes its answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub struct Options {
    /// Judge bytes, boards or JSON.
    pub format: OutputFormat,
}

/// Answers every scenario of `input` on `out`, each as soon as it is read.
///
/// ```
/// use chess_puzzles::tour::{run, Options, SAMPLE};
///
/// let mut out = Vec::new();
/// run(SAMPLE.input.as_bytes(), &mut out, Options::default()).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), SAMPLE.output);
/// ```
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: Options) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut solver = Solver::new();
    let mut case = 0u64;
    while let Some(scenario) = reader.next_scenario()? {
        case += 1;
        let path = solver.solve(&scenario);
        let path = path.as_deref();
        let written = match options.format {
            OutputFormat::Judge => write_judge_case(out, case, path),
            OutputFormat::Board => {
                let separator = if case > 1 { "\n" } else { "" };
                write!(out, "{separator}{}", render_case(case, &scenario, path))
            }
            OutputFormat::Json => serde_json::to_writer(&mut *out, &JsonCase::new(case, path))
                .map_err(io::Error::from)
                .and_then(|()| out.write_all(b"\n")),
        };
        written.map_err(RunError::Output)?;
    }
    Ok(())
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
pub fn check(
    input: impl Read,
    output: impl Read,
    tolerance: Tolerance,
) -> Result<Result<Accepted, Difference>, CheckError> {
    let answers = JudgeAnswers {
        reader: Reader::new(Scanner::new(input))?,
        solver: Solver::new(),
        case: 0,
    };
    judge::check(answers, output, tolerance)
}

/// The judge's answers to an input, scenario by scenario, for [`check`].
struct JudgeAnswers<R> {
    reader: Reader<R>,
    solver: Solver,
    case: u64,
}

impl<R: Read> Answers for JudgeAnswers<R> {
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
        let Some(scenario) = self.reader.next_scenario()? else {
            return Ok(false);
        };
        self.case += 1;
        let path = self.solver.solve(&scenario);
        // Writing to memory cannot fail.
        let _ = write_judge_case(out, self.case, path.as_deref());
        Ok(true)
    }

    fn skip_rest(&mut self) -> Result<(), InputError> {
        while self.reader.next_scenario()?.is_some() {}
        Ok(())
    }
}

/// Checks a path independently of the search: it starts on the queen's square, every move is a
/// queen line over empty squares onto an empty square, every knight has a stop next to it, and
/// the last stop is next to the bishop. Says what is wrong, if anything. (It does not say
/// whether the path is the shortest or the first.)
pub fn check_path(scenario: &Scenario, path: &[Square]) -> Result<(), String> {
    let blockers = scenario.blockers();
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
        let (from, to) = (pair[0], pair[1]);
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
    fn reader_errors_are_located() {
        let bad = |text: &str| Scenario::parse(text).unwrap_err();
        let rows = ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n";
        let e = bad(&format!("{rows}......."));
        assert_eq!(e.kind(), Some(ParseErrorKind::BadLength));
        let e = bad(&format!("{rows}...x...."));
        assert_eq!(e.kind(), Some(ParseErrorKind::BadCharacter));
        assert!(e.to_string().starts_with("8:4:"), "{e}");
        let e = bad(&format!("{rows}\n........"));
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        assert!(e.to_string().starts_with("8:1:"), "{e}");
        let e = bad(&format!("{rows}......Q."));
        assert_eq!(e.kind(), Some(ParseErrorKind::Invalid));
        let e = bad(rows);
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        let e = bad(&rows.replace('B', "."));
        assert_eq!(e.kind(), Some(ParseErrorKind::UnexpectedEnd));
        let e = bad(&format!("{}........", rows.replace('B', ".")));
        assert_eq!(e.kind(), Some(ParseErrorKind::Invalid));
    }

    #[test]
    fn too_many_knights_are_refused_at_the_first_extra_one() {
        let mut grid = [[b'.'; 8]; 8];
        grid[0][0] = b'Q';
        grid[7][7] = b'B';
        let mut placed = 0;
        for (i, cell) in grid.iter_mut().flatten().enumerate() {
            if *cell == b'.' && i % 2 == 1 && placed <= MAX_KNIGHTS {
                *cell = b'N';
                placed += 1;
            }
        }
        let text: String = grid
            .iter()
            .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
            .collect();
        let e = Scenario::parse(&text).unwrap_err();
        assert_eq!(e.kind(), Some(ParseErrorKind::TooLarge));
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

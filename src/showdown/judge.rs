//! The judge: is an answer valid, and what does it score.
//!
//! [`verify`] checks a list of pieces against an instance by the movement rules of the core,
//! on the final board; the solver runs every answer through it before printing. [`check`]
//! reads a whole judge input and a whole answer file, verifies each test and reports its
//! score (cost / n²).
//!
//! ```
//! use chess_puzzles::showdown::judge::{check, Verdict};
//!
//! let input = "1\n2\n#_\n__\n1 1 1 1 1 1 1 1\n";
//! let good = "1 1\n2 2 1\n"; // a rook below the king
//! let report = check(input.as_bytes(), good.as_bytes(), |_, _| {}).unwrap();
//! assert_eq!(report.verdict, Verdict::Accepted);
//! assert_eq!(report.total, 0.25);
//! let bad = "1 1\n3 2 2\n"; // a knight next to it
//! let report = check(input.as_bytes(), bad.as_bytes(), |_, _| {}).unwrap();
//! assert!(matches!(report.verdict, Verdict::Wrong { case: 1, .. }));
//! ```

use std::fmt;
use std::io::Read;

use crate::core::Square;
use crate::core::pieces::{PieceKind, for_each_attack};
use crate::error::{InputError, Position};
use crate::input::{Scanner, parse_digits};

use super::instance::{Instance, Placement, piece_from_number, piece_number, score};
use super::reader::Reader;

/// Why an answer to one test is wrong.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// The answer file does not have the shape of an answer here.
    #[error("{position}: expected {expected}, found {found}")]
    Malformed {
        /// Where in the answer file.
        position: Position,
        /// What the format wants here.
        expected: String,
        /// What stands there.
        found: String,
    },
    /// The number of pieces is outside 1..n².
    #[error("{position}: the number of pieces must be 1..{max}, found {found}")]
    BadCount {
        /// Where in the answer file.
        position: Position,
        /// n².
        max: u64,
        /// The stated number.
        found: u64,
    },
    /// A piece type outside 1..8.
    #[error("{position}: piece type must be 1..8, found {found}")]
    BadPieceType {
        /// Where in the answer file.
        position: Position,
        /// The number given.
        found: u64,
    },
    /// A row or column outside 1..n.
    #[error("{position}: square ({row},{col}) lies outside the {side}x{side} board")]
    OffBoard {
        /// Where in the answer file.
        position: Position,
        /// The row given (1-based).
        row: u64,
        /// The column given (1-based).
        col: u64,
        /// The board's side.
        side: usize,
    },
    /// A piece on a king's square.
    #[error("the {kind} on {square} stands on a king")]
    OnKing {
        /// The piece's name.
        kind: &'static str,
        /// Its square.
        square: Square,
    },
    /// Two pieces on one square.
    #[error("two pieces on {0}")]
    Repeated(Square),
    /// The stated total cost is not the sum of the pieces' prices.
    #[error("the stated cost is {stated} but the pieces cost {actual}")]
    WrongCost {
        /// The cost written in the answer.
        stated: u64,
        /// The sum of the prices of the pieces listed.
        actual: u64,
    },
    /// A king is not in check on the final board.
    #[error("the king on {0} is not in check")]
    NotInCheck(Square),
    /// The answer file ends before this test's answer is complete.
    #[error(
        "{position}: expected {expected}, found the end of the output (fewer pieces than stated?)"
    )]
    Truncated {
        /// Where the answer file ends.
        position: Position,
        /// What was still expected.
        expected: String,
    },
    /// Something follows the answer to the last test.
    #[error(
        "{position}: expected the end of the output after the last test, found {found} (more pieces than stated?)"
    )]
    Trailing {
        /// Where the extra text starts.
        position: Position,
        /// The extra token.
        found: String,
    },
}

/// The verdict on a whole answer file.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Every test's answer is valid.
    Accepted,
    /// The answer to test `case` (1-based) is wrong.
    Wrong {
        /// The test number.
        case: u64,
        /// Why.
        reason: Rejection,
    },
}

/// What [`check`] found: the verdict, the scores of the tests judged valid, and their total.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Accepted, or the first wrong test.
    pub verdict: Verdict,
    /// Score (cost / n²) of each valid test, in order.
    pub scores: Vec<f64>,
    /// The sum of `scores`.
    pub total: f64,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Accepted => write!(f, "accepted"),
            Verdict::Wrong { case, reason } => write!(f, "test {case}: wrong answer: {reason}"),
        }
    }
}

/// Verifies pieces against an instance: every square on the board and not a king's, at most one
/// piece per square, and every king in check on the final board. Returns the total price.
///
/// ```
/// use chess_puzzles::core::pieces::PieceKind;
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::judge::{verify, Rejection};
/// use chess_puzzles::showdown::{Instance, Placement};
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(0, 2));
/// let instance = Instance::new(3, kings, [1, 1, 1, 1, 1, 1, 1, 1]).unwrap();
/// let rook = Placement { kind: PieceKind::Rook, square: Square::new(0, 1) };
/// assert_eq!(verify(&instance, &[rook]), Ok(1));
/// // A cannon there checks nothing: no screen.
/// let cannon = Placement { kind: PieceKind::Cannon, square: Square::new(0, 1) };
/// assert_eq!(verify(&instance, &[cannon]), Err(Rejection::NotInCheck(Square::new(0, 0))));
/// ```
pub fn verify(instance: &Instance, pieces: &[Placement]) -> Result<u64, Rejection> {
    let n = instance.side();
    let mut board = Board::new(instance);
    for p in pieces {
        let (row, col) = (u64::from(p.square.row) + 1, u64::from(p.square.col) + 1);
        if row > n as u64 || col > n as u64 {
            return Err(Rejection::OffBoard {
                position: Position::START,
                row,
                col,
                side: n,
            });
        }
        let cell = board.cell(p.square);
        match board.cells[cell] {
            Board::KING => {
                return Err(Rejection::OnKing {
                    kind: p.kind.name(),
                    square: p.square,
                });
            }
            Board::PIECE => return Err(Rejection::Repeated(p.square)),
            _ => board.cells[cell] = Board::PIECE,
        }
    }
    let reach = PieceKind::ALL.map(|kind| board.reach(kind));
    for p in pieces {
        board.attack(board.cell(p.square), &reach[p.kind.index()]);
    }
    if let Some(king) = board.first_unchecked_king() {
        return Err(Rejection::NotInCheck(king));
    }
    Ok(pieces
        .iter()
        .map(|p| u64::from(instance.cost(p.kind)))
        .sum())
}

/// The board [`verify`] plays on: a byte per square, with a margin of [`Board::PAD`] squares of
/// wall all round, so that no leap needs a bounds check and every line ends on a wall (a
/// second wall past the first for a hop, which takes the first as its screen).
struct Board {
    n: usize,
    stride: usize,
    cells: Vec<u8>,
}

/// A piece's moves as cell offsets on a [`Board`].
struct Reach {
    leaps: Vec<isize>,
    slides: Vec<isize>,
    hops: Vec<isize>,
}

impl Board {
    /// The longest leap of any piece, in rows or columns.
    const PAD: usize = 2;
    const KING: u8 = 1;
    const PIECE: u8 = 2;
    const WALL: u8 = 3;
    /// Whether a square is taken (by a king, a piece or the wall).
    const TAKEN: u8 = 3;
    /// Set on a square some piece captures on.
    const ATTACKED: u8 = 4;

    fn new(instance: &Instance) -> Board {
        let n = instance.side();
        let stride = n + 2 * Board::PAD;
        let mut board = Board {
            n,
            stride,
            cells: vec![Board::WALL; stride * stride],
        };
        for r in 0..n {
            let row = board.cell(Square::new(r as u8, 0));
            board.cells[row..row + n].fill(0);
        }
        for king in instance.kings().iter() {
            let cell = board.cell(king);
            board.cells[cell] = Board::KING;
        }
        board
    }

    fn cell(&self, sq: Square) -> usize {
        (usize::from(sq.row) + Board::PAD) * self.stride + usize::from(sq.col) + Board::PAD
    }

    fn reach(&self, kind: PieceKind) -> Reach {
        let m = kind.movement();
        let offsets = |moves: &[(i8, i8)]| {
            moves
                .iter()
                .map(|&(dr, dc)| isize::from(dr) * self.stride as isize + isize::from(dc))
                .collect()
        };
        Reach {
            leaps: offsets(m.leaps),
            slides: offsets(m.slides),
            hops: offsets(m.hops),
        }
    }

    /// Marks the squares a piece on `from` captures on (see
    /// [`for_each_attack`](crate::core::pieces::for_each_attack)).
    fn attack(&mut self, from: usize, reach: &Reach) {
        let cells = &mut self.cells;
        for &o in &reach.leaps {
            cells[from.wrapping_add_signed(o)] |= Board::ATTACKED;
        }
        for &o in &reach.slides {
            let mut at = from;
            loop {
                at = at.wrapping_add_signed(o);
                cells[at] |= Board::ATTACKED;
                if cells[at] & Board::TAKEN != 0 {
                    break;
                }
            }
        }
        for &o in &reach.hops {
            let mut at = from;
            let mut screened = false;
            loop {
                at = at.wrapping_add_signed(o);
                if screened {
                    cells[at] |= Board::ATTACKED;
                }
                if cells[at] & Board::TAKEN != 0 {
                    if screened {
                        break;
                    }
                    screened = true;
                }
            }
        }
    }

    /// The first king (row by row) no piece captures on.
    fn first_unchecked_king(&self) -> Option<Square> {
        (0..self.n).find_map(|r| {
            let row = self.cell(Square::new(r as u8, 0));
            self.cells[row..row + self.n]
                .iter()
                .position(|&v| v == Board::KING)
                .map(|c| Square::new(r as u8, c as u8))
        })
    }
}

/// For every king, row by row, its square and the pieces (indices into `pieces`) that check
/// it on the final board: the explanation of a valid answer (a king of an invalid one may
/// have none).
///
/// ```
/// use chess_puzzles::core::pieces::PieceKind;
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::judge::checkers;
/// use chess_puzzles::showdown::{Instance, Placement};
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(0, 2));
/// let instance = Instance::new(3, kings, [1; 8]).unwrap();
/// let rook = Placement { kind: PieceKind::Rook, square: Square::new(0, 1) };
/// let knight = Placement { kind: PieceKind::Knight, square: Square::new(1, 2) };
/// let explained = checkers(&instance, &[rook, knight]);
/// assert_eq!(explained, vec![(Square::new(0, 0), vec![0, 1]), (Square::new(0, 2), vec![0])]);
/// ```
pub fn checkers(instance: &Instance, pieces: &[Placement]) -> Vec<(Square, Vec<usize>)> {
    let n = instance.side();
    let mut occupied = instance.kings().clone();
    for p in pieces {
        if usize::from(p.square.row) < n && usize::from(p.square.col) < n {
            occupied.insert(p.square);
        }
    }
    let mut by_king: Vec<(Square, Vec<usize>)> =
        instance.kings().iter().map(|k| (k, Vec::new())).collect();
    let index: std::collections::HashMap<Square, usize> = by_king
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (*k, i))
        .collect();
    for (i, p) in pieces.iter().enumerate() {
        for_each_attack(
            p.kind,
            p.square,
            n,
            |sq| occupied.contains(sq),
            |sq| {
                if let Some(&k) = index.get(&sq) {
                    by_king[k].1.push(i);
                }
            },
        );
    }
    by_king
}

/// Why [`check`] could not judge: the judge input cannot be read or parsed, or the output
/// cannot be read (a malformed output is a wrong answer, not an error).
pub use crate::judge::CheckError;

/// A reader of the output that keeps its first read error (the scanner turns errors into
/// messages; an unreadable output is an error of its own, not a wrong answer).
struct Latched<'a, R> {
    inner: R,
    failure: &'a std::cell::Cell<Option<std::io::Error>>,
}

impl<R: Read> Read for Latched<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.inner.read(buf).inspect_err(|e| {
            if e.kind() != std::io::ErrorKind::Interrupted {
                let first = self.failure.take();
                self.failure.set(Some(
                    first.unwrap_or_else(|| std::io::Error::new(e.kind(), e.to_string())),
                ));
            }
        })
    }
}

/// Reads the next number of an answer file, as a wrong answer when it is missing or malformed.
fn answer_number<R: Read>(
    sc: &mut Scanner<R>,
    expected: &str,
) -> Result<(u64, Position), Rejection> {
    match sc.next_token() {
        Ok(Some(token)) => match parse_digits(token.bytes) {
            Some(v) => Ok((v, token.position)),
            None => Err(Rejection::Malformed {
                position: token.position,
                expected: expected.to_string(),
                found: token.describe(),
            }),
        },
        Ok(None) => Err(Rejection::Truncated {
            position: sc.position(),
            expected: expected.to_string(),
        }),
        Err(InputError::Parse(e)) => Err(Rejection::Malformed {
            position: e.position,
            expected: expected.to_string(),
            found: e.found,
        }),
        Err(InputError::Io(e)) => Err(Rejection::Malformed {
            position: sc.position(),
            expected: expected.to_string(),
            found: format!("unreadable output ({e})"),
        }),
    }
}

/// Reads and verifies one test's answer.
fn judge_case<R: Read>(instance: &Instance, sc: &mut Scanner<R>) -> Result<u64, Rejection> {
    let n = instance.side() as u64;
    let (count, position) = answer_number(sc, "the number of pieces f")?;
    if count == 0 || count > n * n {
        return Err(Rejection::BadCount {
            position,
            max: n * n,
            found: count,
        });
    }
    let (stated, _) = answer_number(sc, "the total cost g")?;
    let mut pieces = Vec::new();
    for i in 1..=count {
        let (number, position) = answer_number(sc, &format!("the type of piece {i} of {count}"))?;
        let Some(kind) = piece_from_number(number) else {
            return Err(Rejection::BadPieceType {
                position,
                found: number,
            });
        };
        let (row, position) = answer_number(sc, &format!("the row of piece {i} of {count}"))?;
        let (col, _) = answer_number(sc, &format!("the column of piece {i} of {count}"))?;
        if !(1..=n).contains(&row) || !(1..=n).contains(&col) {
            return Err(Rejection::OffBoard {
                position,
                row,
                col,
                side: n as usize,
            });
        }
        pieces.push(Placement {
            kind,
            square: Square::new((row - 1) as u8, (col - 1) as u8),
        });
    }
    let actual = verify(instance, &pieces)?;
    if actual != stated {
        return Err(Rejection::WrongCost { stated, actual });
    }
    Ok(actual)
}

/// Judges an answer file against a judge input. `on_score(case, score)` is called for each
/// valid test as it is judged. Fails when the judge input cannot be read or parsed (read to
/// its end whatever the output holds), or the output cannot be read; a wrong or malformed
/// answer is a [`Verdict::Wrong`] in the report.
pub fn check<I: Read, O: Read>(
    input: I,
    output: O,
    mut on_score: impl FnMut(u64, f64),
) -> Result<Report, CheckError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let failure = std::cell::Cell::new(None);
    let mut answers = Scanner::new(Latched {
        inner: output,
        failure: &failure,
    });
    let mut scores = Vec::new();
    let mut verdict = Verdict::Accepted;
    let mut case = 0;
    while let Some(instance) = reader.next_instance()? {
        case += 1;
        if verdict != Verdict::Accepted {
            // The input must still be read to the end: an unreadable input is exit 2.
            continue;
        }
        match judge_case(&instance, &mut answers) {
            Ok(cost) => {
                let s = score(cost, instance.side());
                on_score(case, s);
                scores.push(s);
            }
            Err(reason) => verdict = Verdict::Wrong { case, reason },
        }
    }
    if let Some(e) = failure.take() {
        return Err(CheckError::Output(e));
    }
    if verdict == Verdict::Accepted {
        // Anything after the last answer makes the output wrong.
        let trailing = match answers.next_token() {
            Ok(None) => None,
            Ok(Some(token)) => Some((token.position, token.describe())),
            Err(InputError::Parse(e)) => Some((e.position, e.found)),
            Err(InputError::Io(e)) => {
                Some((answers.position(), format!("unreadable output ({e})")))
            }
        };
        if let Some(e) = failure.take() {
            return Err(CheckError::Output(e));
        }
        if let Some((position, found)) = trailing {
            verdict = Verdict::Wrong {
                case,
                reason: Rejection::Trailing { position, found },
            };
        }
    }
    let total = scores.iter().sum();
    Ok(Report {
        verdict,
        scores,
        total,
    })
}

/// `value` in decimal, written at the end of `buffer`; returns where it starts.
fn digits(mut value: u64, buffer: &mut [u8; 20]) -> usize {
    let mut at = buffer.len();
    loop {
        at -= 1;
        buffer[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return at;
        }
    }
}

/// Writes pieces in the judge's format: `f g`, then one `type row column` line per piece.
pub fn write_answer(pieces: &[Placement], cost: u64) -> String {
    let mut text = Vec::with_capacity(24 + pieces.len() * 10);
    // Writing to a vector cannot fail.
    let _ = write_answer_to(&mut text, pieces, cost);
    // Only ASCII digits, spaces and line ends were written.
    String::from_utf8(text).unwrap_or_default()
}

/// [`write_answer`] straight to `out`, a few kilobytes at a time: formatted by hand, not
/// through `format!`, with no allocation (an answer may hold tens of thousands of pieces,
/// and millions of answers may follow one another).
pub fn write_answer_to<W: std::io::Write + ?Sized>(
    out: &mut W,
    pieces: &[Placement],
    cost: u64,
) -> std::io::Result<()> {
    let mut number = [0u8; 20];
    let mut chunk = [0u8; 4096];
    let mut len = 0;
    let push = |chunk: &mut [u8; 4096], len: &mut usize, bytes: &[u8]| {
        chunk[*len..*len + bytes.len()].copy_from_slice(bytes);
        *len += bytes.len();
    };
    let at = digits(pieces.len() as u64, &mut number);
    push(&mut chunk, &mut len, &number[at..]);
    push(&mut chunk, &mut len, b" ");
    let at = digits(cost, &mut number);
    push(&mut chunk, &mut len, &number[at..]);
    push(&mut chunk, &mut len, b"\n");
    for p in pieces {
        // A line is at most 12 bytes: `8 256 256\n`.
        if len + 12 > chunk.len() {
            out.write_all(&chunk[..len])?;
            len = 0;
        }
        for (value, end) in [
            (piece_number(p.kind), b' '),
            (u32::from(p.square.row) + 1, b' '),
            (u32::from(p.square.col) + 1, b'\n'),
        ] {
            let at = digits(u64::from(value), &mut number);
            push(&mut chunk, &mut len, &number[at..]);
            push(&mut chunk, &mut len, &[end]);
        }
    }
    out.write_all(&chunk[..len])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SquareSet;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The rules read straight from the core's movement, square by square: what [`verify`]
    /// must agree with.
    fn reference(instance: &Instance, pieces: &[Placement]) -> Result<u64, Rejection> {
        let n = instance.side();
        let mut occupied = instance.kings().clone();
        for p in pieces {
            let (row, col) = (u64::from(p.square.row) + 1, u64::from(p.square.col) + 1);
            if row > n as u64 || col > n as u64 {
                return Err(Rejection::OffBoard {
                    position: Position::START,
                    row,
                    col,
                    side: n,
                });
            }
            if instance.is_king(p.square) {
                return Err(Rejection::OnKing {
                    kind: p.kind.name(),
                    square: p.square,
                });
            }
            if occupied.contains(p.square) {
                return Err(Rejection::Repeated(p.square));
            }
            occupied.insert(p.square);
        }
        let mut checked = SquareSet::new(n);
        for p in pieces {
            let on = |sq| occupied.contains(sq);
            for_each_attack(p.kind, p.square, n, on, |sq| {
                checked.insert(sq);
            });
        }
        match (0..n * n)
            .map(|i| Square::from_index(i, n))
            .find(|&sq| instance.is_king(sq) && !checked.contains(sq))
        {
            Some(king) => Err(Rejection::NotInCheck(king)),
            None => Ok(pieces
                .iter()
                .map(|p| u64::from(instance.cost(p.kind)))
                .sum()),
        }
    }

    /// The board's margin holds every move: leaps of at most two rows and columns, lines of
    /// single steps.
    #[test]
    fn the_margin_holds_every_move() {
        for kind in PieceKind::ALL {
            let m = kind.movement();
            let most = |moves: &[(i8, i8)]| {
                moves
                    .iter()
                    .map(|&(dr, dc)| dr.unsigned_abs().max(dc.unsigned_abs()))
                    .max()
                    .unwrap_or(0)
            };
            assert!(usize::from(most(m.leaps)) <= Board::PAD, "{kind:?}");
            assert!(most(m.slides) <= 1 && most(m.hops) <= 1, "{kind:?}");
        }
    }

    /// On random boards and random answers (pieces off the board, on kings, repeated, crowded
    /// lines with screens), [`verify`] gives the reference's verdict.
    #[test]
    fn verify_agrees_with_the_rules_square_by_square() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for round in 0..20_000 {
            let n = rng.random_range(1..=12usize);
            let mut kings = SquareSet::new(n);
            let density = rng.random_range(0..=100u32);
            for i in 0..n * n {
                if rng.random_range(0..100u32) < density {
                    kings.insert(Square::from_index(i, n));
                }
            }
            let costs = std::array::from_fn(|_| rng.random_range(1..=9u32));
            let Ok(instance) = Instance::new(n, kings, costs) else {
                continue;
            };
            let count = rng.random_range(0..=2 * n);
            let pieces: Vec<Placement> = (0..count)
                .map(|_| {
                    let reach = if rng.random_range(0..50u32) == 0 {
                        n + 2
                    } else {
                        n
                    };
                    Placement {
                        kind: PieceKind::ALL[rng.random_range(0..8usize)],
                        square: Square::new(
                            rng.random_range(0..reach) as u8,
                            rng.random_range(0..reach) as u8,
                        ),
                    }
                })
                .filter(|p| round % 3 == 0 || !instance.is_king(p.square))
                .collect();
            assert_eq!(
                verify(&instance, &pieces),
                reference(&instance, &pieces),
                "{n} {pieces:?}"
            );
        }
    }

    #[test]
    fn answers_are_written_as_format_would() {
        let pieces: Vec<Placement> = (0..=255u8)
            .flat_map(|row| {
                [0u8, 8, 9, 98, 99, 254, 255].map(|col| Placement {
                    kind: PieceKind::ALL[usize::from(row ^ col) % 8],
                    square: Square::new(row, col),
                })
            })
            .collect();
        let mut expected = format!("{} 12345\n", pieces.len());
        assert_eq!(write_answer(&[], u64::MAX), format!("0 {}\n", u64::MAX));
        assert_eq!(write_answer(&[], 0), "0 0\n");
        for p in &pieces {
            expected.push_str(&format!(
                "{} {} {}\n",
                piece_number(p.kind),
                u32::from(p.square.row) + 1,
                u32::from(p.square.col) + 1
            ));
        }
        assert_eq!(write_answer(&pieces, 12345), expected);
    }
}

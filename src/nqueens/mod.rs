//! General N-queens: any board up to 64x64, queens given in advance, listing, counting, and the
//! best weighted placement (8 Queens, UVa 750, and The Sultan's Successors, UVa 167,
//! generalised).
//!
//! - [`list`] writes every placement that contains the given queens, in lexicographic order,
//!   as it is found (the shared backtracker of [`core::placements`](crate::core::placements)).
//! - [`count`] counts them: [`count_all`] for an empty board (a band of middle columns fixed
//!   and its two sides joined by [`band`] for sides 12 to 27, else one placement in eight
//!   searched by symmetry), [`completion`] otherwise; the searches by forward checking with
//!   fewest-open-row branching; in parallel on rayon, stoppable via [`Control`]. An empty
//!   board's count can be split into shards ([`band::Plan`], [`shard`]) and merged back.
//! - [`best`] finds the largest sum of weights under n non-attacking queens by branch and bound.
//!
//! A placement is written as in UVa 750: the row (1-based) of the queen of each column, left
//! to right.
//!
//! ```
//! use chess_puzzles::nqueens::{self, Control, ListOptions, Problem};
//!
//! let problem = Problem::new(6, &[]).unwrap();
//! assert_eq!(nqueens::count(&problem, &Control::new()), Some(4));
//! let mut out = Vec::new();
//! nqueens::list(&problem, &mut out, &ListOptions::default()).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n5 3 1 6 4 2\n");
//! ```

pub mod backtrack;
pub mod band;
pub mod best;
pub mod completion;
pub mod count_all;
mod forward;
pub mod hungarian;
pub mod shard;

use std::fmt;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::core::placements::{self, Constraints, Event};
use crate::core::{Diagram, Square};
use crate::error::{InputError, ParseError, ParseErrorKind, RunError};
use crate::input::{Cases, Scanner, parse_digits};
use crate::output::OutputFormat;

use best::Weights;

/// The largest board side of every `nqueens` command.
pub const MAX_N: usize = placements::MAX_N;

/// A queen given on the command line: 1-based row and column, not yet checked against a board.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Fix {
    /// Row from the top, from 1.
    pub row: u64,
    /// Column from the left, from 1.
    pub col: u64,
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// Reads `ROW,COL` (1-based).
impl FromStr for Fix {
    type Err = String;

    fn from_str(s: &str) -> Result<Fix, String> {
        let bad = || format!("expected ROW,COL (two numbers from 1, e.g. 3,5), found '{s}'");
        let (row, col) = s.split_once(',').ok_or_else(bad)?;
        let number = |t: &str| {
            let t = t.trim();
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u64>().ok())
                .flatten()
        };
        match (number(row), number(col)) {
            (Some(row), Some(col)) => Ok(Fix { row, col }),
            _ => Err(bad()),
        }
    }
}

/// Why a board side and given queens make no problem.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The side is 0 or above [`MAX_N`].
    #[error("expected a board side 1..{MAX_N}, found {0}")]
    BadSide(u64),
    /// A given queen lies outside the board (rows and columns count from 1).
    #[error("queen {0} lies outside the {1}x{1} board (rows and columns 1..{1})")]
    Outside(Fix, u64),
    /// A square is given twice.
    #[error("queen {0} is given twice")]
    Repeated(Fix),
    /// Two given queens attack each other.
    #[error("queens {0} and {1} attack each other")]
    Attacking(Fix, Fix),
}

/// A board side and the queens every placement must contain, checked for consistency.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Problem {
    given: Vec<Square>,
    constraints: Constraints,
}

impl Problem {
    /// Checks the side and the given queens (1-based, in the order given).
    pub fn new(n: u64, fixes: &[Fix]) -> Result<Problem, ProblemError> {
        if n == 0 || n > MAX_N as u64 {
            return Err(ProblemError::BadSide(n));
        }
        let on_board = |v: u64| (1..=n).contains(&v);
        let mut given = Vec::with_capacity(fixes.len().min(MAX_N * MAX_N));
        for (i, &fix) in fixes.iter().enumerate() {
            if !on_board(fix.row) || !on_board(fix.col) {
                return Err(ProblemError::Outside(fix, n));
            }
            for &other in &fixes[..i] {
                if other == fix {
                    return Err(ProblemError::Repeated(fix));
                }
                let (dr, dc) = (other.row.abs_diff(fix.row), other.col.abs_diff(fix.col));
                if dr == 0 || dc == 0 || dr == dc {
                    return Err(ProblemError::Attacking(other, fix));
                }
            }
            // Both are at most MAX_N = 64 here.
            given.push(Square::new((fix.row - 1) as u8, (fix.col - 1) as u8));
        }
        let constraints = Constraints::new(n as usize, &given).map_err(|_| {
            // Every reason the core could have was checked above.
            ProblemError::BadSide(n)
        })?;
        Ok(Problem { given, constraints })
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.constraints.n()
    }

    /// The given queens (0-based), in the order given.
    pub fn given(&self) -> &[Square] {
        &self.given
    }

    /// The per-column masks of the shared backtracker.
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }
}

/// Shared between a long computation and whoever watches it: a stop request, an optional
/// deadline, and progress (parts done out of parts known).
#[derive(Debug, Default)]
pub struct Control {
    stop: AtomicBool,
    deadline: Option<Instant>,
    /// Raised from outside (Ctrl-C), looked at with the stop request.
    interrupt: Option<&'static AtomicBool>,
    done: AtomicU64,
    total: AtomicU64,
}

impl Control {
    /// No deadline, nothing done yet.
    pub fn new() -> Control {
        Control::default()
    }

    /// Stops by itself at `deadline`.
    pub fn with_deadline(deadline: Instant) -> Control {
        Control {
            deadline: Some(deadline),
            ..Control::default()
        }
    }

    /// Stops also as soon as `flag` is raised (by a Ctrl-C handler, say).
    ///
    /// ```
    /// use std::sync::atomic::{AtomicBool, Ordering};
    /// use chess_puzzles::nqueens::Control;
    ///
    /// static FLAG: AtomicBool = AtomicBool::new(false);
    /// let control = Control::new().with_interrupt(&FLAG);
    /// assert!(!control.should_stop());
    /// FLAG.store(true, Ordering::Relaxed);
    /// assert!(control.should_stop());
    /// ```
    pub fn with_interrupt(self, flag: &'static AtomicBool) -> Control {
        Control {
            interrupt: Some(flag),
            ..self
        }
    }

    /// True when the flag of [`Control::with_interrupt`] was raised.
    pub fn interrupted(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Asks the computation to stop as soon as it can.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once a stop was asked for or the deadline passed. The computation calls this often
    /// enough to stop within milliseconds.
    pub fn should_stop(&self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return true;
        }
        if self.interrupted() {
            self.stop();
            return true;
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop();
            return true;
        }
        false
    }

    /// Parts done and parts known so far.
    pub fn progress(&self) -> (u64, u64) {
        (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        )
    }

    /// Announces `parts` more parts of work.
    pub fn add_total(&self, parts: u64) {
        self.total.fetch_add(parts, Ordering::Relaxed);
    }

    /// Reports `parts` parts finished.
    pub fn add_done(&self, parts: u64) {
        self.done.fetch_add(parts, Ordering::Relaxed);
    }
}

/// The number of placements of `problem`, given queens included; `None` when `control` said
/// stop. Runs on the current rayon thread pool.
pub fn count(problem: &Problem, control: &Control) -> Option<u128> {
    if problem.given().is_empty() {
        count_all::count(problem.n(), control)
    } else {
        completion::count(problem, control)
    }
}

/// How [`list`] writes.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct ListOptions {
    /// One line of numbers per placement, a diagram, or a JSON object.
    pub format: OutputFormat,
    /// Stop after this many placements.
    pub limit: Option<u64>,
}

/// How long a written placement may wait in `out`'s buffer before [`list`] flushes it.
const FLUSH_AFTER: Duration = Duration::from_millis(50);

/// Writes every placement of `problem` in lexicographic order (at most `options.limit`), each
/// soon after it is found: `out` is flushed whenever what it holds is `FLUSH_AFTER` old.
/// Returns how many were written.
pub fn list<W: Write>(problem: &Problem, out: &mut W, options: &ListOptions) -> io::Result<u64> {
    list_until(problem, out, options, &Control::new()).map(|listed| listed.written)
}

/// How far [`list_until`] got.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Listed {
    /// Placements written.
    pub written: u64,
    /// True when `control` said stop before the listing (or its limit) was complete.
    pub stopped: bool,
}

/// [`list`], stopping within a few milliseconds when `control` says stop (a deadline or a stop
/// request): the placements written so far stay written.
pub fn list_until<W: Write>(
    problem: &Problem,
    out: &mut W,
    options: &ListOptions,
    control: &Control,
) -> io::Result<Listed> {
    let limit = options.limit.unwrap_or(u64::MAX);
    let mut written = 0u64;
    let mut stopped = false;
    let mut pending_since: Option<Instant> = None;
    let mut line = Vec::with_capacity(4 * MAX_N);
    let mut failure = None;
    if limit > 0 {
        let _ = problem.constraints().search(|event| {
            let result = match event {
                Event::Placement(rows) => {
                    written += 1;
                    line.clear();
                    write_placement(&mut line, problem, written, rows, options.format)
                        .and_then(|()| out.write_all(&line))
                }
                Event::Tick if control.should_stop() => {
                    stopped = true;
                    return ControlFlow::Break(());
                }
                Event::Tick => Ok(()),
            };
            let now = Instant::now();
            let result = result.and_then(|()| match (event, pending_since) {
                (Event::Placement(_), None) => {
                    pending_since = Some(now);
                    Ok(())
                }
                (_, Some(since)) if now.duration_since(since) >= FLUSH_AFTER => {
                    pending_since = None;
                    out.flush()
                }
                _ => Ok(()),
            });
            match result {
                Err(e) => {
                    failure = Some(e);
                    ControlFlow::Break(())
                }
                Ok(()) if written >= limit => ControlFlow::Break(()),
                Ok(()) => ControlFlow::Continue(()),
            }
        });
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if options.format == OutputFormat::Board && written == 0 && !stopped {
        writeln!(out, "{}", heading(problem, "no placement"))?;
    }
    out.flush()?;
    Ok(Listed { written, stopped })
}

/// One placement in the chosen format (`number` counts from 1).
fn write_placement(
    out: &mut Vec<u8>,
    problem: &Problem,
    number: u64,
    rows: &[u8],
    format: OutputFormat,
) -> io::Result<()> {
    match format {
        OutputFormat::Judge => {
            for (c, &r) in rows.iter().enumerate() {
                if c > 0 {
                    out.push(b' ');
                }
                write!(out, "{}", u32::from(r) + 1)?;
            }
            out.push(b'\n');
            Ok(())
        }
        OutputFormat::Board => {
            let separator = if number > 1 { "\n" } else { "" };
            let numbers: Vec<String> = rows
                .iter()
                .map(|r| (u32::from(*r) + 1).to_string())
                .collect();
            write!(
                out,
                "{separator}Placement {number}: {}\n{}",
                numbers.join(" "),
                diagram(problem.n(), Some(rows), problem.given())
            )
        }
        OutputFormat::Json => {
            let case = JsonPlacement {
                n: problem.n(),
                index: number,
                rows: rows.iter().map(|&r| u32::from(r) + 1).collect(),
            };
            serde_json::to_writer(&mut *out, &case).map_err(io::Error::from)?;
            out.push(b'\n');
            Ok(())
        }
    }
}

/// Writes the count of `problem` in the chosen format.
pub fn write_count<W: Write>(
    out: &mut W,
    problem: &Problem,
    count: u128,
    format: OutputFormat,
) -> io::Result<()> {
    match format {
        OutputFormat::Judge => writeln!(out, "{count}"),
        OutputFormat::Board => {
            let what = format!("{count} placement{}", if count == 1 { "" } else { "s" });
            writeln!(out, "{}", heading(problem, &what))?;
            // A board is drawn only to show the given queens: an empty one says nothing.
            if problem.given().is_empty() {
                Ok(())
            } else {
                write!(out, "{}", diagram(problem.n(), None, problem.given()))
            }
        }
        OutputFormat::Json => {
            let case = JsonCount {
                n: problem.n(),
                given: given_1_based(problem),
                count,
            };
            serde_json::to_writer(&mut *out, &case).map_err(io::Error::from)?;
            out.write_all(b"\n")
        }
    }
}

/// `8x8 board, queens given at (1,1) (3,5): <what>`.
fn heading(problem: &Problem, what: &str) -> String {
    let n = problem.n();
    if problem.given().is_empty() {
        format!("{n}x{n} board, no queen given: {what}")
    } else {
        let given: Vec<String> = problem.given().iter().map(|s| s.to_string()).collect();
        format!(
            "{n}x{n} board, queens given at {} ({GIVEN_QUEEN}): {what}",
            given.join(" ")
        )
    }
}

fn given_1_based(problem: &Problem) -> Vec<[u32; 2]> {
    problem
        .given()
        .iter()
        .map(|s| [u32::from(s.row) + 1, u32::from(s.col) + 1])
        .collect()
}

/// The symbol of a given queen in diagrams.
pub const GIVEN_QUEEN: &str = "♕";
/// The symbol of the other queens in diagrams.
pub const QUEEN: &str = "♛";

/// An `n`x`n` diagram with the queens of `rows` (if any) and the `given` ones marked.
pub fn diagram(n: usize, rows: Option<&[u8]>, given: &[Square]) -> Diagram {
    let mut d = Diagram::new(n, n);
    for (c, &r) in rows.unwrap_or(&[]).iter().enumerate() {
        d.set(Square::new(r, c as u8), QUEEN);
    }
    for &s in given {
        d.set(s, GIVEN_QUEEN);
    }
    d
}

/// One listed placement for programs (`--format json`, one object per line).
#[derive(Debug, Serialize)]
pub struct JsonPlacement {
    /// The board side.
    pub n: usize,
    /// The placement's number in the listing, from 1.
    pub index: u64,
    /// The rows (1-based) of the queens of columns 1..n.
    pub rows: Vec<u32>,
}

/// A count for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCount {
    /// The board side.
    pub n: usize,
    /// The given queens as `[row, column]`, 1-based.
    pub given: Vec<[u32; 2]>,
    /// The number of placements.
    pub count: u128,
}

/// The largest weight `nqueens best` reads.
pub const MAX_WEIGHT: u64 = u32::MAX as u64;

/// Reads the boards of `nqueens best`: the count k, then per board its side n and n rows of n
/// weights.
pub struct BestReader<R> {
    scanner: Scanner<R>,
    cases: Cases,
}

impl<R: Read> BestReader<R> {
    /// Reads the count of boards.
    pub fn new(mut scanner: Scanner<R>) -> Result<BestReader<R>, InputError> {
        let cases = Cases::read(&mut scanner, "the number of boards", "board")?;
        Ok(BestReader { scanner, cases })
    }

    /// The announced number of boards.
    pub fn total(&self) -> u64 {
        self.cases.total()
    }

    /// The next board, or `None` after the last one (which also checks that nothing follows).
    pub fn next_board(&mut self) -> Result<Option<Weights>, InputError> {
        if self.cases.next(&mut self.scanner)?.is_none() {
            return Ok(None);
        }
        let context = self.cases.context();
        let expected = format!("a board side 1..{MAX_N}");
        let token = self
            .scanner
            .expect_token(&expected)
            .map_err(|e| e.with_context(&context))?;
        let side_position = token.position;
        let n = match parse_digits(token.bytes) {
            Some(n) if (1..=MAX_N as u64).contains(&n) => n as usize,
            found => {
                let kind = if found.is_some() || token.bytes.iter().all(u8::is_ascii_digit) {
                    ParseErrorKind::OutOfRange
                } else {
                    ParseErrorKind::NotANumber
                };
                return Err(
                    ParseError::new(token.position, kind, expected, token.describe())
                        .with_context(&context)
                        .into(),
                );
            }
        };
        let mut weights = Vec::with_capacity(n * n);
        for row in 1..=n {
            for _ in 0..n {
                let w = self
                    .scanner
                    .next_u64("a weight 0..4294967295", 0, MAX_WEIGHT)
                    .map_err(|e| e.with_context(format!("{context}, row {row}")))?;
                weights.push(w as u32);
            }
        }
        // The side was checked above and the weights counted.
        Weights::new(n, weights).map(Some).map_err(|e| {
            ParseError::new(side_position, ParseErrorKind::Invalid, e.to_string(), "").into()
        })
    }
}

/// How [`run_best`] ended: every board was answered.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct BestRun {
    /// Boards answered.
    pub boards: u64,
    /// Boards answered with the best placement found when `control` said stop, not proven
    /// the best.
    pub unproven: u64,
    /// Boards with no placement at all (sides 2 and 3), answered `impossible`.
    pub impossible: u64,
}

/// Answers every board of `input` on `out`, each as soon as it is solved (and flushed): the
/// best sum alone on a line (`impossible` for sides 2 and 3, which have no placement), a
/// diagram, or a JSON object. Reports the boards to `control` as parts of the work.
///
/// When `control` says stop (a time limit, Ctrl-C), the board being solved is answered with
/// the best placement found so far, and every later board with the best of its first
/// placements, at once: all are valid placements, not proven the best (`"proven": false` in
/// JSON), and counted in [`BestRun::unproven`].
///
/// ```
/// use chess_puzzles::nqueens::{run_best, BestRun, Control};
/// use chess_puzzles::output::OutputFormat;
///
/// let board: String = (1..=64).map(|w| format!("{w} ")).collect();
/// let mut out = Vec::new();
/// let input = format!("3\n8 {board}\n1 7\n2 1 1 1 1");
/// let run = run_best(input.as_bytes(), &mut out, OutputFormat::Judge, &Control::new()).unwrap();
/// assert_eq!(run, BestRun { boards: 3, unproven: 0, impossible: 1 });
/// assert_eq!(out, b"260\n7\nimpossible\n");
/// ```
pub fn run_best<R: Read, W: Write>(
    input: R,
    out: &mut W,
    format: OutputFormat,
    control: &Control,
) -> Result<BestRun, RunError> {
    let mut reader = BestReader::new(Scanner::new(input))?;
    control.add_total(reader.total());
    let mut run = BestRun::default();
    while let Some(board) = reader.next_board()? {
        let best = best::solve(&board, control);
        run.boards += 1;
        control.add_done(1);
        match &best {
            None => run.impossible += 1,
            Some(b) if !b.proven => run.unproven += 1,
            Some(_) => {}
        }
        let case = run.boards;
        let written = match format {
            OutputFormat::Judge => match &best {
                Some(best) => writeln!(out, "{}", best.score),
                None => writeln!(out, "impossible"),
            },
            OutputFormat::Board => {
                let separator = if case > 1 { "\n" } else { "" };
                write!(
                    out,
                    "{separator}{}",
                    render_best(case, &board, best.as_ref())
                )
            }
            OutputFormat::Json => {
                let json = JsonBest {
                    case,
                    n: board.n(),
                    score: best.as_ref().map(|b| b.score),
                    rows: best
                        .as_ref()
                        .map(|b| b.placement.iter().map(|&r| u32::from(r) + 1).collect()),
                    proven: best.as_ref().is_none_or(|b| b.proven),
                };
                serde_json::to_writer(&mut *out, &json)
                    .map_err(io::Error::from)
                    .and_then(|()| out.write_all(b"\n"))
            }
        };
        written
            .and_then(|()| out.flush())
            .map_err(RunError::Output)?;
    }
    Ok(run)
}

/// The board drawn with its weights, the queens of the best placement in brackets (`[34]`),
/// and the sum spelled out, as `sultan` draws its boards; a best placement not proven (the
/// search was stopped) says so; for a board without placement (`None`), the board and why.
pub fn render_best(case: u64, board: &Weights, best: Option<&best::Best>) -> String {
    let n = board.n();
    let weight = |r: usize, c: usize| u64::from(board.get(r, c));
    let Some(best) = best else {
        let (d, _) = crate::core::diagram::weighted_placement(n, weight, &[]);
        return format!(
            "Board {case} ({n}x{n}): impossible: no {n} queens fit on a {n}x{n} board without \
             attacking each other\n{d}"
        );
    };
    let (d, terms) = crate::core::diagram::weighted_placement(n, weight, &best.placement);
    let what = if best.proven {
        "best score"
    } else {
        "best score found (stopped before the search ended: not proven the best)"
    };
    format!(
        "Board {case} ({n}x{n}): {what} {}\n{d}{}\n",
        crate::core::diagram::sum_spelled_out(best.score, &terms),
        crate::core::diagram::WEIGHTED_LEGEND
    )
}

/// One board's answer for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonBest {
    /// The board's number, from 1 (called `case` in every command's JSON).
    pub case: u64,
    /// Its side.
    pub n: usize,
    /// The best sum; `null` when no placement exists (sides 2 and 3).
    pub score: Option<u64>,
    /// A best placement: the rows (1-based) of the queens of columns 1..n; `null` when none
    /// exists.
    pub rows: Option<Vec<u32>>,
    /// True when the score is proven the best (or the board proven impossible); false when
    /// the search was stopped first (time limit, Ctrl-C) and this is the best found.
    pub proven: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_parse_and_refuse() {
        assert_eq!("3,5".parse::<Fix>(), Ok(Fix { row: 3, col: 5 }));
        assert_eq!(" 3 , 5".parse::<Fix>(), Ok(Fix { row: 3, col: 5 }));
        for bad in [
            "3",
            "3,",
            ",5",
            "a,b",
            "-1,2",
            "3,5,7",
            "99999999999999999999999,1",
        ] {
            assert!(bad.parse::<Fix>().is_err(), "{bad}");
        }
    }

    #[test]
    fn problems_name_the_bad_queens() {
        let f = |row, col| Fix { row, col };
        assert_eq!(Problem::new(0, &[]), Err(ProblemError::BadSide(0)));
        assert_eq!(Problem::new(65, &[]), Err(ProblemError::BadSide(65)));
        assert_eq!(
            Problem::new(8, &[f(1, 1), f(9, 2)]),
            Err(ProblemError::Outside(f(9, 2), 8))
        );
        assert_eq!(
            Problem::new(8, &[f(0, 2)]),
            Err(ProblemError::Outside(f(0, 2), 8))
        );
        assert_eq!(
            Problem::new(8, &[f(2, 2), f(2, 2)]),
            Err(ProblemError::Repeated(f(2, 2)))
        );
        assert_eq!(
            Problem::new(8, &[f(1, 1), f(5, 2), f(4, 4)]),
            Err(ProblemError::Attacking(f(1, 1), f(4, 4)))
        );
        assert_eq!(
            ProblemError::Attacking(f(1, 1), f(4, 4)).to_string(),
            "queens (1,1) and (4,4) attack each other"
        );
    }

    #[test]
    fn a_limit_stops_the_listing() {
        let problem = Problem::new(8, &[]).unwrap();
        let mut out = Vec::new();
        let options = ListOptions {
            limit: Some(3),
            ..ListOptions::default()
        };
        assert_eq!(list(&problem, &mut out, &options).unwrap(), 3);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n1 7 4 6 8 2 5 3\n"
        );
    }

    #[test]
    fn a_stopped_listing_says_so() {
        // A 48x48 board has far too many placements to list in 50 ms.
        let problem = Problem::new(48, &[Fix { row: 2, col: 1 }]).unwrap();
        let control = Control::with_deadline(Instant::now() + Duration::from_millis(50));
        let mut out = Vec::new();
        let started = Instant::now();
        let listed = list_until(&problem, &mut out, &ListOptions::default(), &control).unwrap();
        assert!(listed.stopped);
        assert!(started.elapsed() < Duration::from_secs(5));
        let all = Problem::new(6, &[]).unwrap();
        let listed = list_until(
            &all,
            &mut Vec::new(),
            &ListOptions::default(),
            &Control::new(),
        );
        assert_eq!(
            listed.unwrap(),
            Listed {
                written: 4,
                stopped: false
            }
        );
    }

    #[test]
    fn board_and_json_forms() {
        let problem = Problem::new(4, &[Fix { row: 2, col: 1 }]).unwrap();
        let mut out = Vec::new();
        let options = ListOptions {
            format: OutputFormat::Board,
            limit: None,
        };
        list(&problem, &mut out, &options).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("Placement 1: 2 4 1 3\n"), "{text}");
        assert_eq!(text.matches(GIVEN_QUEEN).count(), 1);
        assert_eq!(text.matches(QUEEN).count(), 3);

        let mut out = Vec::new();
        write_count(&mut out, &problem, 1, OutputFormat::Json).unwrap();
        assert_eq!(out, b"{\"n\":4,\"given\":[[2,1]],\"count\":1}\n");
    }

    #[test]
    fn a_deadline_in_the_past_stops_at_once() {
        let control = Control::with_deadline(Instant::now());
        assert!(control.should_stop());
        let problem = Problem::new(18, &[Fix { row: 1, col: 2 }]).unwrap();
        assert_eq!(count(&problem, &control), None);
    }
}

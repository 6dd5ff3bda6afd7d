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
//! - [`best`] finds the largest sum of weights under n non-attacking queens by branch and bound;
//!   [`run_best`] answers an input of weighted boards, as the puzzles' `run` do.
//! - [`trace`] writes the search of [`list`] step by step (`nqueens list --trace`), for people
//!   to watch.
//! - As in every puzzle module, [`reader`] reads that input and [`writer`] writes every answer
//!   (a listing, a count, the best boards) as plain text, boards or JSON.
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
mod control;
pub mod count_all;
pub mod first;
pub mod first_shard;
mod forward;
pub mod generator;
#[cfg(feature = "gpu")]
pub mod gpu;
pub mod hungarian;
mod problem;
pub mod reader;
pub mod shard;
#[cfg(unix)]
pub mod stress;
pub mod trace;
pub mod writer;

use crate::clock::Instant;
use std::io::{self, Read, Write};
use std::ops::ControlFlow;
use std::time::Duration;

use crate::error::RunError;
use crate::input::{CaseReader, Scanner};
use crate::output::{self, OutputFormat};

pub use control::Control;
pub use problem::{Fix, MAX_N, MAX_WEIGHT, Problem, ProblemError};
pub use reader::BestReader;
pub use writer::write_count;
use writer::{Listing, Solved};

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
    let mut line = Vec::with_capacity(4 * MAX_N);
    let mut last_flush = Instant::now();
    let n = problem.n();
    let mut search = first::First::new(n, problem.constraints().allowed(), control)
        .ok_or_else(|| io::Error::other("internal error: a board side outside 1..64"))?;
    let mut previous: Option<Vec<u8>> = None;
    while written < limit {
        let found = match search.plain_after(previous.as_deref(), PLAIN_BUDGET) {
            ControlFlow::Continue(Some(found)) => ControlFlow::Continue(found),
            ControlFlow::Continue(None) => {
                // The probes may take a while: what is written goes out first.
                out.flush()?;
                last_flush = Instant::now();
                match previous.as_deref() {
                    None => search.first(),
                    Some(rows) => search.next(rows),
                }
            }
            ControlFlow::Break(()) => ControlFlow::Break(()),
        };
        let rows = match found {
            ControlFlow::Break(()) => {
                stopped = true;
                break;
            }
            ControlFlow::Continue(None) => break,
            ControlFlow::Continue(Some(rows)) => rows,
        };
        check_placement(problem, &rows, previous.as_deref())?;
        written += 1;
        line.clear();
        let listing = Listing::new(problem, &rows);
        output::write_case(&mut line, options.format, written, &listing)?;
        out.write_all(&line)?;
        if last_flush.elapsed() >= FLUSH_AFTER {
            out.flush()?;
            last_flush = Instant::now();
        }
        previous = Some(rows);
    }
    if written == 0 && !stopped {
        match options.format {
            OutputFormat::Board => writeln!(out, "{}", writer::heading(problem, "no placement"))?,
            OutputFormat::Svg => out.write_all(writer::no_placement(problem).as_bytes())?,
            OutputFormat::Judge | OutputFormat::Json => {}
        }
    }
    out.flush()?;
    Ok(Listed { written, stopped })
}

/// How many nodes [`list_until`] lets the plain lexicographic backtracker spend on each
/// placement before the probes of [`first::First`] take over (the plain search wins where
/// placements are dense: small boards, or the next placement after one).
const PLAIN_BUDGET: u64 = 1 << 12;

/// The error of a placement that is not one (a bug: never written).
pub const INVALID_PLACEMENT: &str = "internal error: the search produced";

/// Checks a placement before it is written: `n` rows, no two queens attacking, the given
/// queens in place, after the previous one in lexicographic order.
fn check_placement(problem: &Problem, rows: &[u8], previous: Option<&[u8]>) -> io::Result<()> {
    let valid = rows.len() == problem.n()
        && crate::core::placements::is_non_attacking(rows)
        && problem
            .given()
            .iter()
            .all(|q| rows.get(usize::from(q.col)) == Some(&q.row))
        && previous.is_none_or(|p| p < rows);
    if valid {
        return Ok(());
    }
    let shown: Vec<String> = rows.iter().map(|r| (r + 1).to_string()).collect();
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{INVALID_PLACEMENT} {}, which is not a placement of the problem in order; \
             nothing of it was written",
            shown.join(" ")
        ),
    ))
}

/// How [`run_best_watched`] ended: every board was answered.
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

/// How `chess-puzzles nqueens best` writes its answers.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Default)]
pub struct BestOptions {
    /// The best sums alone (plain text; there is no judge for nqueens), diagrams or JSON.
    pub format: OutputFormat,
}

/// Answers every board of `input` on `out`, each as soon as it is solved (and flushed): the
/// best sum alone on a line (`impossible` for sides 2 and 3, which have no placement), a
/// diagram, or a JSON object.
///
/// ```
/// use chess_puzzles::nqueens::{run_best, BestOptions};
///
/// let board: String = (1..=64).map(|w| format!("{w} ")).collect();
/// let mut out = Vec::new();
/// let input = format!("3\n8 {board}\n1 7\n2 1 1 1 1");
/// run_best(input.as_bytes(), &mut out, &BestOptions::default()).unwrap();
/// assert_eq!(out, b"260\n7\nimpossible\n");
/// ```
pub fn run_best<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &BestOptions,
) -> Result<(), RunError> {
    run_best_watched(input, out, options, &Control::new()).map(|_| ())
}

/// [`run_best`], stopped by `control` (a time limit, Ctrl-C) and reporting the boards to it as
/// parts of the work (read them from another thread for a progress display), and telling how
/// the run ended.
///
/// When `control` says stop, the board being solved is answered with the best placement found
/// so far, and every later board with the best of its first placements, at once: all are valid
/// placements, not proven the best (`"proven": false` in JSON), and counted in
/// [`BestRun::unproven`].
///
/// ```
/// use chess_puzzles::nqueens::{run_best_watched, BestOptions, BestRun, Control};
///
/// let mut out = Vec::new();
/// let input = "2\n1 7\n2 1 1 1 1";
/// let run = run_best_watched(input.as_bytes(), &mut out, &BestOptions::default(), &Control::new());
/// assert_eq!(run.unwrap(), BestRun { boards: 2, unproven: 0, impossible: 1 });
/// ```
pub fn run_best_watched<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &BestOptions,
    control: &Control,
) -> Result<BestRun, RunError> {
    let mut reader = BestReader::new(Scanner::new(input))?;
    control.add_total(reader.total());
    let mut run = BestRun::default();
    while let Some(board) = reader.next_case()? {
        let best = best::solve(&board, control);
        run.boards += 1;
        control.add_done(1);
        match &best {
            None => run.impossible += 1,
            Some(b) if !b.proven => run.unproven += 1,
            Some(_) => {}
        }
        let solved = Solved::new(&board, best.as_ref());
        output::write_case(out, options.format, run.boards, &solved)
            .and_then(|()| out.flush())
            .map_err(RunError::Output)?;
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nqueens::writer::{GIVEN_QUEEN, QUEEN};

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

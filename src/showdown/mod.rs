//! "Chess Variants Showdown" (SPOJ CHE): the cheapest pieces that check every king.
//!
//! An optimisation problem: every test's answer is scored cost / n², lower is better. The
//! module holds the instance and its judge format ([`Reader`], [`judge::write_answer`]), the
//! judge ([`judge`]), and the optimiser ([`solver`]): a greedy construction
//! ([`construction`]), a weighted local search with exact incremental check counts
//! ([`local_search`] over [`board`]), a lower bound from the covering relaxation ([`bounds`])
//! and an exact search for small boards ([`exhaustive`]). Every answer printed has passed
//! [`judge::verify`].
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
mod instance;
pub mod judge;
pub mod local_search;
pub mod model;
pub mod progress;
#[cfg(feature = "milp")]
pub mod prove;
mod reader;
pub mod solver;
pub mod validate;

use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::core::Diagram;
use crate::core::pieces::PieceKind;
use crate::error::{ParseError, ParseErrorKind, RunError};
use crate::input::Scanner;
use crate::output::OutputFormat;
use crate::sample::Sample;

pub use instance::{
    Answer, Instance, InstanceError, MAX_COST, MAX_SIDE, MIN_SIDE, Placement, STATEMENT_SIDES,
    STATEMENT_TESTS, piece_from_number, piece_number, score,
};
pub use progress::Progress;
pub use reader::Reader;
pub use solver::{Ending, Solution, SolveError};

/// The sample of the statement of Chess Variants Showdown (SPOJ CHE). The statement prints it without the line holding the
/// number of tests; the file adds `1`. Any valid answer costing at most 4 is as good.
pub const SAMPLE: Sample = Sample {
    input: include_str!("../../tests/data/showdown/sample.in"),
    output: include_str!("../../tests/data/showdown/sample.out"),
};

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
    /// machine, unless the time limit runs out first ([`Ending::steps_cut`]).
    pub steps: Option<u64>,
    /// Answer with the plain greedy only (the baseline of the measurements), no search.
    pub greedy: bool,
    /// Say which pieces check each king (in the board and JSON formats).
    pub explain: bool,
    /// Raised from outside (Ctrl-C): every test still open is then answered at once with the
    /// best answer it holds.
    pub stop: Option<&'static AtomicBool>,
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
        }
    }
}

/// Answers every test of `input` on `out`, each as soon as it is found.
pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError> {
    run_watched(input, out, options, &Progress::default()).map(|_| ())
}

/// [`run`], calling `progress(tests_done, tests_total)` after each answer, or group of
/// answers written together.
pub fn run_with_progress<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
    progress: impl FnMut(u64, u64),
) -> Result<(), RunError> {
    let watch = Progress::default();
    let mut counting = Counting {
        out,
        watch: &watch,
        each: progress,
    };
    run_watched(input, &mut counting, options, &watch).map(|_| ())
}

/// A writer that reports the tests answered at every flush (one per answer, or per group of
/// answers known together).
struct Counting<'a, W, F> {
    out: &'a mut W,
    watch: &'a Progress,
    each: F,
}

impl<W: Write, F: FnMut(u64, u64)> Write for Counting<'_, W, F> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()?;
        let now = self.watch.snapshot();
        (self.each)(now.answered as u64, now.tests as u64);
        Ok(())
    }
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
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut instances = Vec::new();
    // Where each board starts, for an error about it (its "test i of t" is made then).
    let mut places = Vec::new();
    while let Some(instance) = reader.next_instance()? {
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
        write_explained(
            out,
            options.format,
            options.explain,
            case as u64,
            instance,
            &solution,
        )
        // Flushed once for the answers that come together.
        .and_then(|()| if more { Ok(()) } else { out.flush() })
        .map_err(RunError::Output)?;
        Ok::<(), RunError>(())
    };
    let settings = solver::Settings {
        time_limit: options.time_limit,
        steps: options.steps,
        seed: options.seed,
        stop: options.stop,
        progress: Some(progress),
    };
    if options.greedy {
        solver::greedy_input(&instances, &settings, answer)
    } else {
        solver::solve_input(&instances, &settings, answer)
    }
}

/// Writes one test's answer in the chosen format.
pub fn write_solution<W: Write>(
    out: &mut W,
    format: OutputFormat,
    case: u64,
    instance: &Instance,
    solution: &Solution,
) -> io::Result<()> {
    write_explained(out, format, false, case, instance, solution)
}

/// [`write_solution`], with `explain`: which pieces check each king (in `--format board`
/// and `--format json`; the judge's format has no room for it).
pub fn write_explained<W: Write>(
    out: &mut W,
    format: OutputFormat,
    explain: bool,
    case: u64,
    instance: &Instance,
    solution: &Solution,
) -> io::Result<()> {
    match format {
        OutputFormat::Judge => {
            judge::write_answer_to(out, &solution.answer.pieces, solution.answer.cost)
        }
        OutputFormat::Board => {
            let separator = if case > 1 { "\n" } else { "" };
            write!(out, "{separator}{}", render_case(case, instance, solution))?;
            if explain {
                out.write_all(render_checks(instance, solution).as_bytes())?;
            }
            Ok(())
        }
        OutputFormat::Json => {
            let mut json = JsonCase::new(case, instance, solution);
            if explain {
                json.checks = Some(
                    judge::checkers(instance, &solution.answer.pieces)
                        .into_iter()
                        .map(|(king, by)| JsonCheck {
                            king: one_based(king),
                            by: by
                                .into_iter()
                                .map(|i| one_based(solution.answer.pieces[i].square))
                                .collect(),
                        })
                        .collect(),
                );
            }
            serde_json::to_writer(&mut *out, &json).map_err(io::Error::from)?;
            out.write_all(b"\n")
        }
    }
}

/// A square as `[row, column]`, 1-based.
fn one_based(sq: crate::core::Square) -> [u32; 2] {
    [u32::from(sq.row) + 1, u32::from(sq.col) + 1]
}

/// Which pieces check a king, for programs (`--explain --format json`).
#[derive(Debug, Serialize)]
pub struct JsonCheck {
    /// The king's square, `[row, column]` from 1.
    pub king: [u32; 2],
    /// The squares of the pieces that check it on the final board.
    pub by: Vec<[u32; 2]>,
}

/// One piece for programs: 1-based numbers.
#[derive(Debug, Serialize)]
pub struct JsonPiece {
    /// The statement's piece number, 1..8.
    #[serde(rename = "type")]
    pub number: u32,
    /// The piece's name.
    pub piece: &'static str,
    /// Row, from 1 at the top.
    pub row: u32,
    /// Column, from 1 at the left.
    pub col: u32,
}

/// One test's answer for programs (`--format json`).
#[derive(Debug, Serialize)]
pub struct JsonCase {
    /// The test number, from 1.
    pub case: u64,
    /// The board's side.
    pub side: usize,
    /// How many kings.
    pub kings: usize,
    /// The total price of the pieces.
    pub cost: u64,
    /// cost / n².
    pub score: f64,
    /// A lower bound on the cost of any answer.
    pub lower_bound: u64,
    /// True when the cost is proven the least possible.
    pub optimal: bool,
    /// The pieces placed.
    pub pieces: Vec<JsonPiece>,
    /// With `--explain`: every king, row by row, and the pieces that check it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Vec<JsonCheck>>,
}

impl JsonCase {
    /// The JSON form of a test's answer.
    pub fn new(case: u64, instance: &Instance, solution: &Solution) -> JsonCase {
        JsonCase {
            case,
            side: instance.side(),
            kings: instance.king_count(),
            cost: solution.answer.cost,
            score: solution.answer.score(instance),
            lower_bound: solution.lower_bound,
            optimal: solution.optimal(),
            pieces: solution
                .answer
                .pieces
                .iter()
                .map(|p| JsonPiece {
                    number: piece_number(p.kind),
                    piece: p.kind.name(),
                    row: u32::from(p.square.row) + 1,
                    col: u32::from(p.square.col) + 1,
                })
                .collect(),
            checks: None,
        }
    }
}

/// The symbol of a king in diagrams.
pub const KING_SYMBOL: &str = "♚";

/// The widest line of a legend or an explanation.
const WIDTH: usize = 80;

/// Words joined by spaces into lines of at most [`WIDTH`] columns (a word is never split),
/// the lines after the first indented by two spaces.
fn wrap(words: &[String]) -> String {
    let mut text = String::new();
    let mut column = 0;
    for word in words {
        let width = word.chars().count();
        if column > 0 && column + 1 + width > WIDTH {
            text.push_str("\n  ");
            column = 2;
        } else if column > 0 {
            text.push(' ');
            column += 1;
        }
        text.push_str(word);
        column += width;
    }
    text.push('\n');
    text
}

/// The legend of a test's diagram: the symbols, and the price of each piece, grouped by
/// price (`prices: 1 each for B bishop, R rook, ...; 2 for F phoenix.`), within 80 columns.
pub fn legend(instance: &Instance) -> String {
    let mut groups: std::collections::BTreeMap<u32, Vec<PieceKind>> = Default::default();
    for kind in PieceKind::ALL {
        groups.entry(instance.cost(kind)).or_default().push(kind);
    }
    let mut words: Vec<String> = format!("legend: {KING_SYMBOL} king, · empty square; prices:")
        .split(' ')
        .map(str::to_string)
        .collect();
    let count = groups.len();
    for (g, (price, kinds)) in groups.into_iter().enumerate() {
        words.push(price.to_string());
        if kinds.len() > 1 {
            words.push("each".to_string());
        }
        words.push("for".to_string());
        for (i, kind) in kinds.iter().enumerate() {
            let end = if i + 1 < kinds.len() {
                ","
            } else if g + 1 < count {
                ";"
            } else {
                "."
            };
            // A letter and its name stay on one line.
            words.push(format!("{} {}{end}", kind.letter(), kind.name()));
        }
    }
    wrap(&words)
}

/// Which pieces check each king, row by row, within 80 columns: `checks: (1,4) by R (1,1);
/// (3,1) by R (1,1) and H (4,1); ...`.
pub fn render_checks(instance: &Instance, solution: &Solution) -> String {
    let pieces = &solution.answer.pieces;
    let explained = judge::checkers(instance, pieces);
    let mut words = vec!["checks:".to_string()];
    let count = explained.len();
    for (k, (king, by)) in explained.into_iter().enumerate() {
        words.push(king.to_string());
        words.push("by".to_string());
        for (i, &p) in by.iter().enumerate() {
            if i > 0 {
                words.push("and".to_string());
            }
            let end = if i + 1 < by.len() {
                ""
            } else if k + 1 < count {
                ";"
            } else {
                "."
            };
            words.push(format!(
                "{} {}{end}",
                pieces[p].kind.letter(),
                pieces[p].square
            ));
        }
    }
    wrap(&words)
}

/// The board with its kings (`♚`) and the pieces placed (one letter each), the cost, and a
/// [legend] with the prices.
pub fn render_case(case: u64, instance: &Instance, solution: &Solution) -> String {
    let n = instance.side();
    let mut d = Diagram::new(n, n);
    for sq in instance.kings().iter() {
        d.set(sq, KING_SYMBOL);
    }
    for p in &solution.answer.pieces {
        d.set(p.square, p.kind.letter().to_string());
    }
    let proof = if solution.optimal() {
        "optimal".to_string()
    } else {
        let cost = solution.answer.cost.max(1) as f64;
        let gap = 100.0 * solution.answer.cost.saturating_sub(solution.lower_bound) as f64 / cost;
        format!("lower bound {}, gap {gap:.2}%", solution.lower_bound)
    };
    format!(
        "Test {case}: {n}x{n}, {}; {}, cost {} (score {:.6}, {proof})\n{d}{}",
        crate::error::plural(instance.king_count() as u64, "king"),
        crate::error::plural(solution.answer.pieces.len() as u64, "piece"),
        solution.answer.cost,
        solution.answer.score(instance),
        legend(instance)
    )
}

//! Four classic chess-board puzzles, solved exactly as their judges expect, and generalised.
//!
//! The map:
//! - [`core`]: board geometry shared by every puzzle: [`core::Square`], [`core::Bitboard`],
//!   queen placements ([`core::placements`]) and their search told step by step
//!   ([`core::trace`]), diagrams as text ([`core::Diagram`]) and as SVG ([`core::svg`]).
//! - [`clock`]: the clock of every time limit (std's natively, `performance.now()` in a browser).
//! - [`input`] and [`error`]: streaming, located parsing of judge inputs; every puzzle's reader
//!   hands out its test cases through [`input::CaseReader`].
//! - [`output`]: the forms of an answer (the judge's bytes, boards for people as text or SVG,
//!   JSON for programs), written the same way for every puzzle by [`output::write_case`] from
//!   the puzzle's [`output::CaseAnswer`].
//! - [`judge`]: what problem setters and contestants need around every puzzle: strict line
//!   reading for validators, output comparison for checkers ([`judge::check`]), seeded random
//!   numbers and option ranges for generators, and (on Unix) a contestant's program run under
//!   a judge's limits with every process it starts contained (`judge::run`), a stress test
//!   and a folder judge (`judge::stress`, each puzzle's subject in its `stress` module) and a
//!   failing input shrunk ([`judge::shrink`]).
//! - One module per puzzle, each owning its input type, judge format and solver:
//!   [`queens`] (8 Queens Chess Problem, UVa 750), [`sultan`] (The Sultan's Successors,
//!   UVa 167), [`showdown`] (Chess Variants Showdown, SPOJ CHE, an optimiser), [`tour`]
//!   (Traveling Queen, POJ 2919).
//! - [`nqueens`]: UVa 750 and UVa 167 generalised: any board, given queens, counting, best
//!   weights.
//! - [`sample`]: the statements' samples, embedded.
//! - [`api`]: the web board's JSON API without a transport, `(route, query, body) -> (status,
//!   content type, bytes)`: what `chess-puzzles serve` answers, and what a browser runs
//!   (the library builds for `wasm32-unknown-unknown` without default features).
#![cfg_attr(
    feature = "serve",
    doc = "- [`serve`] (the default feature `serve`): a local web board for every puzzle and its JSON"
)]
#![cfg_attr(
    not(feature = "serve"),
    doc = "- `serve` (the default feature `serve`, off in this build): a local web board for every puzzle and its JSON"
)]
//!   API, answering with the same bytes as the command line.
//!
//! Cargo features: `cli` (default) builds the `chess-puzzles` program and is the only one that
//! needs clap, indicatif, ctrlc and the completion and man-page generators; `serve` (default)
//! the web board (axum on tokio); `milp` the proof mode (HiGHS). A program that uses the
//! library alone depends on it with `default-features = false` and gets none of them:
//! `cargo build --lib --no-default-features`.
//!
//! `examples/` in the repository holds complete programs that use the library alone: counting
//! N-queens placements with given queens (`nqueens_given`), solving showdown boards and judging
//! the answers (`showdown_judge`), and a tour input answered as JSON (`tour_json`); run one with
//! `cargo run --release --example NAME`.
//!
//! # One layout for every puzzle
//!
//! Every puzzle module has the same files, and [`nqueens`] has them for its judge-style
//! `best` input:
//! - `mod.rs`: the instance type (what one test case is: a given queen, a weighted
//!   [`sultan::Board`], a [`tour::Scenario`], a [`showdown::Instance`]), the puzzle's
//!   `Options`, which have at least the output `format`, and `run`, which answers a whole judge
//!   input, case by case:
//!   `pub fn run<R: Read, W: Write>(input: R, out: &mut W, options: &Options) -> Result<(), RunError>`.
//!   The puzzles with one right answer have their `check` beside it.
//! - `reader.rs`: the judge input, read one test case at a time (`Reader`, an
//!   [`input::CaseReader`]).
//! - `writer.rs`: the answers, one `Solved` per test case (an [`output::CaseAnswer`]): the
//!   judge's format, the board drawn for people, the JSON object.
//! - The search, in files named for what it does, its main type re-exported as `Solver`:
//!   [`queens::lookup`] (the 92 placements looked up), [`sultan::score`] (every placement
//!   scored), [`tour::layered_bfs`]; showdown's optimiser ([`showdown::solver`]) over its greedy
//!   [`showdown::construction`], [`showdown::local_search`], [`showdown::bounds`] and
//!   [`showdown::exhaustive`]; `nqueens`' branch and bound in [`nqueens::best`].
//! - `generator.rs`: random and edge-case inputs, the same for the same seed.
//! - `validate.rs`: the strict validator of the statement's layout and limits.
//!
//! Entry points beyond `run` are named after it: showdown's `run_with_progress` and
//! `run_watched`, nqueens' `run_best` and `run_best_watched` (`_watched`: with the state that
//! another thread watches or uses to stop the run, telling how the run ended).
//!
//! ```
//! use chess_puzzles::sultan::{self, Options};
//!
//! let board: String = (1..=64).map(|w| format!("{w} ")).collect();
//! let mut out = Vec::new();
//! sultan::run(format!("1\n{board}").as_bytes(), &mut out, &Options::default()).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "  260\n");
//! ```

#![warn(missing_docs)]

pub mod api;
pub mod clock;
pub mod core;
pub mod error;
pub mod input;
pub mod judge;
pub mod nqueens;
pub mod output;
pub mod queens;
pub mod sample;
#[cfg(feature = "serve")]
pub mod serve;
pub mod showdown;
pub mod sultan;
pub mod tour;

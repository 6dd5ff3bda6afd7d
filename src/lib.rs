//! Four classic chess-board puzzles, solved exactly as their judges expect, and generalised.
//!
//! The map:
//! - [`core`]: board geometry shared by every puzzle: [`core::Square`], [`core::Bitboard`],
//!   queen placements ([`core::placements`]) and text diagrams ([`core::Diagram`]).
//! - [`input`] and [`error`]: streaming, located parsing of judge inputs.
//! - [`judge`]: what problem setters need around every puzzle: strict line reading for
//!   validators, output comparison for checkers, seeded random numbers for generators.
//! - One module per puzzle, each owning its input type, judge format and solver:
//!   [`queens`] (8 Queens Chess Problem, UVa 750), [`sultan`] (The Sultan's Successors,
//!   UVa 167), [`showdown`] (Chess Variants Showdown, SPOJ CHE, an optimiser), [`tour`]
//!   (Traveling Queen, POJ 2919).
//! - [`nqueens`]: UVa 750 and UVa 167 generalised: any board, given queens, counting, best
//!   weights.
//! - `serve` (the default feature `serve`): a local web board for every puzzle and its JSON
//!   API, answering with the same bytes as the command line.
//!
//! Cargo features: `cli` (default) builds the `chess-puzzles` program and is the only one that
//! needs clap, indicatif, ctrlc and the completion and man-page generators; `serve` (default)
//! the web board (axum on tokio); `milp` the proof mode (HiGHS). A program that uses the
//! library alone depends on it with `default-features = false` and gets none of them:
//! `cargo build --lib --no-default-features`.
//!
//! Every puzzle module has a `run` function that answers a whole judge input:
//!
//! ```
//! use chess_puzzles::output::OutputFormat;
//!
//! let board: String = (1..=64).map(|w| format!("{w} ")).collect();
//! let mut out = Vec::new();
//! chess_puzzles::sultan::run(format!("1\n{board}").as_bytes(), &mut out, OutputFormat::Judge)
//!     .unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), "  260\n");
//! ```

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

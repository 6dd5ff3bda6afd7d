//! Command-line arguments and dispatch. The work is done by the library; this layer only turns
//! arguments into options, opens the input and writes to one buffered standard output.

mod demo;
mod help;
mod io;
mod kit;
mod nqueens;
mod progress;
mod queens;
mod showdown;
mod sultan;
mod tour;

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use chess_puzzles::output::OutputFormat;

pub use io::{Failure, Verdict};

/// Solves four classic chess-board puzzles exactly as their judges expect.
///
/// Exit codes: 0 success; 1 a check or validate verdict of wrong/invalid; 2 a usage error or an
/// input that cannot be read or parsed.
#[derive(Debug, Parser)]
#[command(name = "chess-puzzles", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// 8 Queens Chess Problem (UVa 750): every 8-queens placement containing a given queen.
    ///
    /// Input: the number of test cases T, then T squares `row column`, each number 1..8 (rows
    /// from the top, columns from the left), whitespace-separated in any layout.
    ///
    /// Output: per case the two heading lines, then every placement holding that queen in
    /// lexicographic order, numbered `%2d`, six spaces, the row of the queen of each column; one
    /// empty line between cases.
    #[command(after_help = help::QUEENS)]
    Queens(queens::Args),
    /// The Sultan's Successors (UVa 167): the best 8-queens sum on each weighted board.
    ///
    /// Input: the number of boards k, then per board 64 weights, row by row (0..4294967295;
    /// the statement's are 1..99), whitespace-separated in any layout.
    ///
    /// Output: the largest sum under eight non-attacking queens, `%5d`, one line per board.
    #[command(after_help = help::SULTAN)]
    Sultan(sultan::Args),
    /// Chess Variants Showdown (SPOJ CHE): the cheapest pieces that check every king (an optimiser).
    ///
    /// Input: the number of tests t, then per test the side n, n rows of n characters (`#` a
    /// king, `_` an empty square), and the eight prices of bishop, rook, knight, gold general,
    /// silver general, horse, phoenix and cannon.
    ///
    /// Output: per test `f g` (the number of pieces and their total price), then f lines
    /// `type row column` (type 1..8 in the order above, rows and columns from 1).
    #[command(after_help = help::SHOWDOWN)]
    Showdown(showdown::Args),
    /// Traveling Queen (POJ 2919): the shortest queen tour past every knight to the bishop.
    ///
    /// Input: the number of scenarios, then per scenario eight rows of eight characters, rank 8
    /// first: `.` empty, `Q` the queen, `B` the bishop, `N` a knight, `P` a pawn.
    ///
    /// Output: per scenario `Scenario #i:`, the squares the queen stands on run together
    /// (`h8h2e5d4b2`) or `impossible`, then an empty line.
    #[command(after_help = help::TOUR)]
    Tour(tour::Args),
    /// General N-queens: any board up to 64x64, given queens; list, count, best weighted sum.
    #[command(after_help = help::NQUEENS)]
    Nqueens(nqueens::Args),
    /// Solves every puzzle's sample (built in) and draws the answers.
    #[command(after_help = help::DEMO)]
    Demo,
}

/// The input and output options shared by the solving commands.
#[derive(Debug, Args)]
struct SolveArgs {
    /// The input: a path, or standard input when absent or `-`.
    input: Option<PathBuf>,
    /// How to write the answers (`judge`: the judge's bytes, plain text where there is no judge).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// Runs the command and flushes its output.
pub fn run(cli: Cli) -> Result<Verdict, Failure> {
    let mut out = io::Output::stdout();
    let verdict = match cli.command {
        Command::Queens(args) => queens::run(args, &mut out),
        Command::Sultan(args) => sultan::run(args, &mut out),
        Command::Showdown(args) => showdown::run(args, &mut out),
        Command::Tour(args) => tour::run(args, &mut out),
        Command::Nqueens(args) => nqueens::run(args, &mut out),
        Command::Demo => demo::run(&mut out),
    }?;
    out.flush().map_err(Failure::Output)?;
    Ok(verdict)
}

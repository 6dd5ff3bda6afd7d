//! Command-line arguments and dispatch. The work is done by the library; this layer only turns
//! arguments into options, opens the input and writes to one buffered standard output.

mod demo;
mod duration;
mod interrupt;
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
/// input that cannot be read or parsed; 124 the time limit ran out before every answer was
/// proven (the best found were written); 130 stopped by Ctrl-C (what was found was written).
#[derive(Debug, Parser)]
#[command(name = "chess-puzzles", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Seed 000: every 8-queens placement containing a given queen (UVa 750).
    Queens(queens::Args),
    /// Seed 001: the best 8-queens sum on each weighted board (UVa 167).
    Sultan(sultan::Args),
    /// Seed 002: the cheapest pieces that check every king (an optimiser), and its judge.
    Showdown(showdown::Args),
    /// Seed 003: the shortest queen tour past every knight to the bishop (POJ 2919).
    Tour(tour::Args),
    /// General N-queens: any board up to 64x64, given queens; list, count, best weighted sum.
    Nqueens(nqueens::Args),
    /// Solves every puzzle's sample (built in) and draws the answers.
    Demo,
}

/// The input and output options shared by the solving commands.
#[derive(Debug, Args)]
struct SolveArgs {
    /// The judge input: a path, or standard input when absent or `-`.
    input: Option<PathBuf>,
    /// How to write the answers.
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

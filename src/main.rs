//! The `chess-puzzles` command: parses the arguments, lets the library answer, sets the exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(verdict) => verdict.exit_code(),
        Err(failure) => failure.report(),
    }
}

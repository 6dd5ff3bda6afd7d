//! The `chess-puzzles` command: parses the arguments, lets the library answer, sets the exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(error) => return cli::usage(error),
    };
    let code = match cli::run(args) {
        Ok(verdict) => verdict.code(),
        Err(failure) => failure.report(),
    };
    cli::exit(code)
}

//! `chess-puzzles tour`.

use chess_puzzles::tour::{self, Options};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    solve: SolveArgs,
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    let input = Input::open(args.solve.input.as_ref(), out)?;
    let options = Options {
        format: args.solve.format,
    };
    tour::run(input.reader, out, options).map_err(|e| Failure::from_run(&input.name, e))?;
    Ok(Verdict::Done)
}

//! `chess-puzzles queens`.

use chess_puzzles::queens::{self, Options, Style};

use super::SolveArgs;
use super::io::{Failure, Input, Output, Verdict};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    solve: SolveArgs,
    /// Write the UVa 750 judge's layout: one empty line after the two heading lines.
    #[arg(long)]
    uva: bool,
}

pub fn run(args: Args, out: &mut Output) -> Result<Verdict, Failure> {
    let input = Input::open(args.solve.input.as_ref(), out)?;
    let options = Options {
        format: args.solve.format.into(),
        style: if args.uva {
            Style::Uva
        } else {
            Style::Statement
        },
    };
    queens::run(input.reader, out, options).map_err(|e| Failure::from_run(&input.name, e))?;
    Ok(Verdict::Done)
}

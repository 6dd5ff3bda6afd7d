//! Counting N-queens placements that contain queens given in advance, and listing a few.
//!
//! `nqueens::Problem` is a board side plus the queens every placement must contain, checked
//! once (on the board, no two attacking each other); `nqueens::count` and `nqueens::list`
//! then work on it. Rows and columns of the given queens count from 1, as on the command line
//! (`chess-puzzles nqueens count 8 --queen 1,1`).
//!
//! Run it with `cargo run --release --example nqueens_given`.

use std::io;
use std::process::ExitCode;

use chess_puzzles::nqueens::{self, Control, Fix, ListOptions, Problem, ProblemError};
use chess_puzzles::output::OutputFormat;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    // The classic board: 92 placements in all, 4 of them with a queen in the top-left corner.
    let empty = Problem::new(8, &[])?;
    let corner = Problem::new(8, &[Fix { row: 1, col: 1 }])?;
    // A `Control` can stop a count from another thread (a deadline, Ctrl-C); a fresh one never
    // does, so the count is always `Some`.
    let control = Control::new();
    println!("8x8, no queen given: {}", count(&empty, &control));
    println!("8x8, queen on (1,1): {}", count(&corner, &control));

    // A larger board with two queens given: the count runs in parallel on rayon's threads and
    // is exact (a u128), whatever the number of threads.
    let fixes = [Fix { row: 1, col: 2 }, Fix { row: 5, col: 7 }];
    let two = Problem::new(13, &fixes)?;
    println!(
        "13x13, queens on (1,2) and (5,7): {}",
        count(&two, &control)
    );

    // Listing writes placements in lexicographic order, each as the row (1-based) of the queen
    // in each column, left to right, like UVa 750. `limit` stops after the first few;
    // `format: OutputFormat::Board` would draw them, `Json` writes one object per line.
    println!("the first 3 placements of the 8x8 board with a queen on (1,1):");
    let options = ListOptions {
        format: OutputFormat::Judge,
        limit: Some(3),
    };
    let mut out = io::stdout().lock();
    let written = nqueens::list(&corner, &mut out, &options)?;
    println!("({written} written)");

    // A problem that cannot be set up is an error, not a panic: here two given queens share a
    // diagonal. Match the error's kind, not its message.
    match Problem::new(8, &[Fix { row: 1, col: 1 }, Fix { row: 3, col: 3 }]) {
        Err(e @ ProblemError::Attacking(..)) => println!("refused: {e}"),
        other => println!("unexpected: {other:?}"),
    }
    Ok(())
}

/// The count, which is `None` only when the control said stop.
fn count(problem: &Problem, control: &Control) -> u128 {
    nqueens::count(problem, control).expect("nothing stops this control")
}

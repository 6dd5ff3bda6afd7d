//! Reading a Traveling Queen (POJ 2919) input and writing every answer as JSON.
//!
//! The input is a file named on the command line, or the statement's sample embedded in the
//! library when none is. Each scenario's answer is one JSON object per line (JSON Lines), as
//! `chess-puzzles tour --format json` writes it: `{"case":1,"possible":true,"moves":4,
//! "path":["h8","h2",...]}`. Before it is written, each path is checked by the library's
//! independent checker of the rules.
//!
//! Run it with `cargo run --release --example tour_json [INPUT]`.

use std::fs::File;
use std::io::{self, Read, Write};
use std::process::ExitCode;

use chess_puzzles::input::{CaseReader, Scanner};
use chess_puzzles::tour::writer::JsonCase;
use chess_puzzles::tour::{self, Reader, Solver};

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
    let (name, input): (String, Box<dyn Read>) = match std::env::args_os().nth(1) {
        Some(path) => (
            path.to_string_lossy().into_owned(),
            Box::new(File::open(&path)?),
        ),
        None => (
            "the sample".to_string(),
            Box::new(tour::SAMPLE.input.as_bytes()),
        ),
    };
    // The reader streams the input one scenario at a time, so a large file is never held
    // whole. A malformed one fails with its line and column: `3:5: expected ..., found ...`.
    let mut reader = Reader::new(Scanner::new(input)).map_err(|e| format!("{name}: {e}"))?;
    // One solver serves every scenario: it keeps its search tables between them.
    let mut solver = Solver::new();
    let mut out = io::BufWriter::new(io::stdout().lock());
    let mut case = 0;
    while let Some(scenario) = reader.next_case().map_err(|e| format!("{name}: {e}"))? {
        case += 1;
        // The first of the shortest paths in the judge's order, or `None` (`impossible`).
        let path = solver.solve(&scenario);
        if let Some(path) = &path {
            tour::check_path(&scenario, path).map_err(|e| format!("scenario {case}: {e}"))?;
        }
        // `JsonCase` is the library's JSON form of an answer (a `serde::Serialize` type), the
        // same object the command line and the web board's API write.
        serde_json::to_writer(&mut out, &JsonCase::new(case, path.as_deref()))?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(())
}

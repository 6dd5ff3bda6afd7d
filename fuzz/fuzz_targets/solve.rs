//! Every solver's reader on arbitrary bytes: an answer or a located error, never a panic, and
//! within a bounded time (showdown with a small step budget, nqueens best with a deadline).
//! The first byte picks the solver and the output format.
#![no_main]

use std::time::{Duration, Instant};

use chess_puzzles::output::OutputFormat;
use chess_puzzles::{nqueens, queens, showdown, sultan, tour};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let format = match pick / 8 % 3 {
        0 => OutputFormat::Judge,
        1 => OutputFormat::Board,
        _ => OutputFormat::Json,
    };
    let mut out = Vec::new();
    match pick % 5 {
        0 => {
            let options = queens::Options {
                format,
                ..Default::default()
            };
            let _ = queens::run(input, &mut out, options);
        }
        1 => {
            let _ = sultan::run(input, &mut out, format);
        }
        2 => {
            let _ = tour::run(input, &mut out, tour::Options { format });
        }
        3 => {
            let options = showdown::Options {
                format,
                time_limit: Duration::from_millis(50),
                steps: Some(20),
                ..Default::default()
            };
            let _ = showdown::run(input, &mut out, &options);
        }
        _ => {
            let control = nqueens::Control::with_deadline(Instant::now() + Duration::from_millis(50));
            let _ = nqueens::run_best(input, &mut out, format, &control);
        }
    }
});

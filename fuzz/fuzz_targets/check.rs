//! Every checker judging arbitrary output for a fixed input (the statement's sample): a
//! verdict, never a panic. An output `check` accepts under `exact` is the right answer byte
//! for byte.
#![no_main]

use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::{queens, showdown, sultan, tour};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, output)) = data.split_first() else {
        return;
    };
    let tolerance = match pick / 4 % 3 {
        0 => Tolerance::Exact,
        1 => Tolerance::Lines,
        _ => Tolerance::Tokens,
    };
    let (right, verdict) = match pick % 4 {
        0 => {
            let style = queens::Style::Statement;
            let s = queens::SAMPLE;
            (s.output, queens::check(s.input.as_bytes(), output, style, tolerance))
        }
        1 => {
            let s = sultan::SAMPLE;
            (s.output, sultan::check(s.input.as_bytes(), output, tolerance))
        }
        2 => {
            let s = tour::SAMPLE;
            (s.output, tour::check(s.input.as_bytes(), output, tolerance))
        }
        _ => {
            let s = showdown::SAMPLE;
            let _ = showdown::judge::check(s.input.as_bytes(), output, |_, _| {});
            return;
        }
    };
    let accepted = verdict.expect("the sample input is readable").is_ok();
    if accepted && tolerance == Tolerance::Exact {
        assert_eq!(output, right.as_bytes(), "only the right answer is exact");
    }
});

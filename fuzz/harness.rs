//! What each fuzz target does with one input, shared by the targets (`fuzz_targets/`) and by
//! the regression test that replays every saved input (`tests/fuzz_regressions.rs`). Each
//! function panics only when the code under test breaks a promise.

use std::time::{Duration, Instant};

use chess_puzzles::judge::compare::Tolerance;
use chess_puzzles::output::OutputFormat;
use chess_puzzles::{nqueens, queens, showdown, sultan, tour};

/// The showdown options of the targets: a small step budget and time limit.
fn showdown_options(format: OutputFormat) -> showdown::Options {
    showdown::Options {
        format,
        time_limit: Duration::from_millis(50),
        steps: Some(20),
        ..Default::default()
    }
}

/// Every solver's reader on arbitrary bytes: an answer or a located error, never a panic, in
/// bounded time. The first byte picks the solver and the output format.
pub fn solve(data: &[u8]) {
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
            let _ = showdown::run(input, &mut out, &showdown_options(format));
        }
        _ => {
            let deadline = Instant::now() + Duration::from_millis(50);
            let control = nqueens::Control::with_deadline(deadline);
            let _ = nqueens::run_best(input, &mut out, format, &control);
        }
    }
}

/// Every validator on arbitrary bytes: a verdict, never a panic. An input a validator calls
/// valid is one its solver answers (the statements' limits are within the solvers').
pub fn validate(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let mut out = Vec::new();
    let answered = match pick % 4 {
        0 => queens::validate::validate(input)
            .ok()
            .map(|_| queens::run(input, &mut out, queens::Options::default()).is_ok()),
        1 => sultan::validate::validate(input)
            .ok()
            .map(|_| sultan::run(input, &mut out, OutputFormat::Judge).is_ok()),
        2 => tour::validate::validate(input)
            .ok()
            .map(|_| tour::run(input, &mut out, tour::Options::default()).is_ok()),
        _ => showdown::validate::validate(input).ok().map(|_| {
            showdown::run(input, &mut out, &showdown_options(OutputFormat::Judge)).is_ok()
        }),
    };
    assert_ne!(answered, Some(false), "a valid input is answered");
}

/// Every checker judging arbitrary output for a fixed input (the statement's sample): a
/// verdict, never a panic; an output accepted under `exact` is the right answer byte for byte.
pub fn check(data: &[u8]) {
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
            let s = queens::SAMPLE;
            let style = queens::Style::Statement;
            (
                s.output,
                queens::check(s.input.as_bytes(), output, style, tolerance),
            )
        }
        1 => {
            let s = sultan::SAMPLE;
            (
                s.output,
                sultan::check(s.input.as_bytes(), output, tolerance),
            )
        }
        2 => {
            let s = tour::SAMPLE;
            (s.output, tour::check(s.input.as_bytes(), output, tolerance))
        }
        _ => {
            let s = showdown::SAMPLE;
            let report = showdown::judge::check(s.input.as_bytes(), output, |_, _| {});
            assert!(report.is_ok(), "the sample input is readable");
            return;
        }
    };
    let accepted = verdict.expect("the sample input is readable").is_ok();
    if accepted && tolerance == Tolerance::Exact {
        assert_eq!(output, right.as_bytes(), "only the right answer is exact");
    }
}

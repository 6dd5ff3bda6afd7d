//! Every validator on arbitrary bytes: a verdict, never a panic. An input a validator calls
//! valid is one its solver must answer (the statements' limits are within the solvers').
#![no_main]

use std::time::Duration;

use chess_puzzles::output::OutputFormat;
use chess_puzzles::{queens, showdown, sultan, tour};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    let mut out = Vec::new();
    match pick % 4 {
        0 => {
            if queens::validate::validate(input).is_ok() {
                queens::run(input, &mut out, queens::Options::default())
                    .expect("a valid input is answered");
            }
        }
        1 => {
            if sultan::validate::validate(input).is_ok() {
                sultan::run(input, &mut out, OutputFormat::Judge).expect("a valid input is answered");
            }
        }
        2 => {
            if tour::validate::validate(input).is_ok() {
                tour::run(input, &mut out, tour::Options::default()).expect("a valid input is answered");
            }
        }
        _ => {
            if showdown::validate::validate(input).is_ok() {
                let options = showdown::Options {
                    time_limit: Duration::from_millis(50),
                    steps: Some(20),
                    ..Default::default()
                };
                showdown::run(input, &mut out, &options).expect("a valid input is answered");
            }
        }
    }
});

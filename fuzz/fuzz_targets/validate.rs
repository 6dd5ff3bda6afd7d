//! The `validate` target: see `fuzz/harness.rs`, which the regression test replays too.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::validate(data));

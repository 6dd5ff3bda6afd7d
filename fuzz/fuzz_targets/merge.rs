//! The `merge` target: see `fuzz/harness.rs`, which the regression test replays too.
#![no_main]

// Each target calls one of the harness's functions.
#[allow(dead_code)]
#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::merge(data));

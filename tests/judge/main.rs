//! The judge kits, through the real binary and the library: the generators, validators and
//! checkers of queens and sultan; the promises every validator and checker keeps about bad
//! input and adversarial output; and every input the fuzzers keep, replayed.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
mod inputs;

mod fuzz_regressions;
mod kit;
mod stress;
mod strict;

//! What problem setters need around a puzzle, independent of any one puzzle: a strict line
//! reader for validators ([`strict`]), the comparison of an answer with the right one
//! ([`compare`]), and reproducible random numbers for generators ([`Rng`]).

pub mod compare;
pub mod span;
pub mod strict;

use std::io::{self, Read};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::InputError;
use compare::{Accepted, Answers, Difference, Tolerance};

/// The generators' random numbers: ChaCha8 seeded from a 64-bit seed, the same on every machine
/// and every release of the crate.
pub type Rng = ChaCha8Rng;

/// The generator of seed `seed`.
pub fn rng(seed: u64) -> Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Why a `check` could not reach a verdict.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// The test input could not be read or parsed.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The output to judge could not be read.
    #[error("cannot read the output: {0}")]
    Output(io::Error),
}

/// Judges `output` against the right answers that `answers` gives case by case (see
/// [`compare`] for what each [`Tolerance`] forgives): the common `check` of the exact puzzles.
/// Memory stays bounded whatever the sizes of the input and the output.
pub fn check(
    answers: impl Answers,
    output: impl Read,
    tolerance: Tolerance,
) -> Result<Result<Accepted, Difference>, CheckError> {
    compare::compare_answers(answers, output, tolerance)
}

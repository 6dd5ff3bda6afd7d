//! What problem setters need around a puzzle, independent of any one puzzle: a strict line
//! reader for validators ([`strict`]), the comparison of an answer with the right one
//! ([`compare`]), and reproducible random numbers for generators ([`Rng`]).

pub mod compare;
pub mod span;
pub mod strict;

use std::io::{self, Read};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::{InputError, RunError};
use compare::{Accepted, Difference, Tolerance};

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

/// Judges `output` against the answer that `solve` writes for the test input: the common
/// `check` of the exact puzzles.
pub fn check_exact(
    solve: impl FnOnce(&mut Vec<u8>) -> Result<(), RunError>,
    output: impl Read,
    tolerance: Tolerance,
) -> Result<Result<Accepted, Difference>, CheckError> {
    let mut expected = Vec::new();
    match solve(&mut expected) {
        Ok(()) => {}
        Err(RunError::Input(e)) => return Err(CheckError::Input(e)),
        // Writing to memory does not fail; treat it as unreadable output all the same.
        Err(RunError::Output(e)) => return Err(CheckError::Output(e)),
    }
    compare::compare(&expected, output, tolerance).map_err(CheckError::Output)
}

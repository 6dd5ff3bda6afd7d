//! What problem setters and contestants need around a puzzle, independent of any one puzzle: a
//! strict line reader for validators ([`strict`]), the comparison of an answer with the right
//! one ([`compare`]), reproducible random numbers for generators ([`Rng`]), and, on Unix, a
//! contestant's program run under a judge's limits with every process it starts contained
//! (`run`), judged on generated inputs or a folder of tests with a failing input shrunk
//! (`stress`, [`shrink`]) and reported readably ([`report`]).

pub mod compare;
#[cfg(unix)]
pub mod folder;
pub mod report;
#[cfg(unix)]
pub mod run;
#[cfg(unix)]
pub mod sandbox;
pub mod shrink;
pub mod span;
#[cfg(unix)]
pub mod stress;
pub mod strict;

use std::io::{self, Read};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::error::InputError;
use crate::input::CaseReader;
use crate::output::CaseAnswer;
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

/// What a check of an output found: accepted, or where it first differs from the right answer;
/// or why no verdict could be reached.
pub type Checked = Result<Result<Accepted, Difference>, CheckError>;

/// Judges `output` against the right answers to every case of `reader` in the judge's format,
/// `solve` giving each case's answer (see [`compare`] for what each [`Tolerance`] forgives):
/// the common `check` of the exact puzzles. Memory stays bounded whatever the sizes of the
/// input and the output.
pub fn check<C: CaseReader, A: CaseAnswer>(
    reader: C,
    solve: impl FnMut(C::Case) -> A,
    output: impl Read,
    tolerance: Tolerance,
) -> Checked {
    let answers = JudgeAnswers {
        reader,
        solve,
        case: 0,
    };
    compare::compare_answers(answers, output, tolerance)
}

/// The right answers to an input, case by case, for [`check`].
struct JudgeAnswers<C, F> {
    reader: C,
    solve: F,
    case: u64,
}

impl<C: CaseReader, A: CaseAnswer, F: FnMut(C::Case) -> A> Answers for JudgeAnswers<C, F> {
    fn next_answer(&mut self, out: &mut Vec<u8>) -> Result<bool, InputError> {
        let Some(read) = self.reader.next_case()? else {
            return Ok(false);
        };
        self.case += 1;
        // Writing to memory cannot fail.
        let _ = (self.solve)(read).write_judge(out, self.case);
        Ok(true)
    }

    /// Reads the rest of the cases without solving them.
    fn skip_rest(&mut self) -> Result<(), InputError> {
        while self.reader.next_case()?.is_some() {}
        Ok(())
    }
}

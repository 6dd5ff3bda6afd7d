//! The sample of a puzzle's statement: its input and the judge's expected output.

/// A statement's sample, embedded in the library (the same files the tests compare against).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Sample {
    /// The sample input, as the statement gives it.
    pub input: &'static str,
    /// The statement's expected output, byte for byte.
    pub output: &'static str,
}

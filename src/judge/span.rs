//! The ranges of generator options, written `A` or `A-B` on the command line: [`Span`], within
//! the limits a generator sets for each option ([`Limits`]).
//!
//! ```
//! use chess_puzzles::judge::span::{parse, whole_number};
//!
//! assert_eq!(parse("3-14", whole_number), Some((3, 14)));
//! assert_eq!(parse("7", whole_number), Some((7, 7)));
//! assert_eq!(parse("+7", whole_number), None);
//! assert_eq!(format!("{}", chess_puzzles::judge::span::Shown(3, 3)), "3");
//! ```

use std::fmt;
use std::str::FromStr;

/// `A-B` or `A` (meaning `A-A`), each end read by `number`; `None` when an end is not
/// understood. The order of the ends is the caller's to check.
pub fn parse<T: Copy>(text: &str, number: impl Fn(&str) -> Option<T>) -> Option<(T, T)> {
    match text.split_once('-') {
        Some((a, b)) => number(a).zip(number(b)),
        None => number(text).map(|v| (v, v)),
    }
}

/// A whole number of at most three plain digits: no sign, no spaces (every count a generator
/// takes as a range is small).
pub fn whole_number(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Writes a range as it is read: `A` when both ends are equal, else `A-B`.
pub struct Shown<T>(pub T, pub T);

impl<T: fmt::Display + PartialEq> fmt::Display for Shown<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == self.1 {
            write!(f, "{}", self.0)
        } else {
            write!(f, "{}-{}", self.0, self.1)
        }
    }
}

/// What the ranges of one generator option may hold: a [`Span`] of `Self` is a range of it.
pub trait Limits {
    /// The option's values.
    type Value: Copy + PartialOrd + fmt::Display + fmt::Debug;
    /// The smallest and the largest value allowed.
    const ALLOWED: (Self::Value, Self::Value);
    /// The range taken when none is given.
    const DEFAULT: (Self::Value, Self::Value);

    /// Reads one end of a range, `None` when it is not a value.
    fn value(text: &str) -> Option<Self::Value>;

    /// What a range must be, for the error about one that is not (`a density from 0 to 1 or a
    /// range A-B with A <= B`).
    fn expected() -> String;
}

/// A range of an option, both ends included, within [`Limits::ALLOWED`] of `L`. Written `V`
/// or `A-B` on the command line.
///
/// ```
/// use chess_puzzles::tour::generator::Knights;
///
/// let k: Knights = "2-14".parse().unwrap();
/// assert_eq!((k.min(), k.max()), (2, 14));
/// assert_eq!(k.to_string(), "2-14");
/// assert_eq!("5".parse::<Knights>().unwrap(), Knights::new(5, 5).unwrap());
/// assert!("9-3".parse::<Knights>().is_err());
/// ```
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Span<L: Limits> {
    min: L::Value,
    max: L::Value,
}

impl<L: Limits> Span<L> {
    /// The range `min..=max`; `None` when it is empty or leaves [`Limits::ALLOWED`].
    pub fn new(min: L::Value, max: L::Value) -> Option<Span<L>> {
        let (lo, hi) = L::ALLOWED;
        (lo <= min && min <= max && max <= hi).then_some(Span { min, max })
    }

    /// The low end.
    pub fn min(self) -> L::Value {
        self.min
    }

    /// The high end.
    pub fn max(self) -> L::Value {
        self.max
    }
}

impl<L: Limits> Default for Span<L> {
    /// [`Limits::DEFAULT`].
    fn default() -> Self {
        let (min, max) = L::DEFAULT;
        Span { min, max }
    }
}

impl<L: Limits> fmt::Display for Span<L> {
    /// As it is read: `A` when both ends are equal, else `A-B`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Shown(self.min, self.max).fmt(f)
    }
}

impl<L: Limits> FromStr for Span<L> {
    type Err = SpanError;

    fn from_str(text: &str) -> Result<Span<L>, SpanError> {
        parse(text, L::value)
            .and_then(|(a, b)| Span::new(a, b))
            .ok_or_else(|| SpanError {
                expected: L::expected(),
                found: text.to_string(),
            })
    }
}

/// Why a range was not understood.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("expected {expected}, found '{found}'")]
pub struct SpanError {
    /// What the range must be.
    pub expected: String,
    /// What was given.
    pub found: String,
}

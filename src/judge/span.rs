//! The ranges of generator options, written `A` or `A-B` on the command line.
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

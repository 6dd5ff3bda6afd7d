//! `--time-limit SECONDS`: the one parser of durations that every command uses.
//!
//! The rule, the same everywhere:
//! - a number of seconds written in decimal: `8.5`, `0.25`, `3`, `.5`, `2e3`, `1.5E-3`;
//! - `0` is allowed and means no time at all: the work stops at its first look at the clock
//!   (`showdown` then answers with its quickest answers, `nqueens best` with the first
//!   placement it holds);
//! - anything above [`LONGEST`] (10^9 s, about 32 years: `1e19`, `1e300`), and `inf` or
//!   `infinity`, is taken as [`LONGEST`], which no run reaches: in effect no limit;
//! - refused, as a usage error (exit 2): a negative number, `nan`, a sign, hexadecimal,
//!   anything else that is not such a number.
//!
//! The value is a [`Duration`] of at most [`LONGEST`], so adding it to any instant of a run
//! cannot overflow.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// The longest time limit: 10^9 seconds (about 32 years). Larger values are taken as this one.
pub const LONGEST: Duration = Duration::from_secs(1_000_000_000);

/// A time limit given on the command line. See the [module docs](self).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct TimeLimit(Duration);

impl TimeLimit {
    /// The limit as a duration, at most [`LONGEST`].
    pub fn duration(self) -> Duration {
        self.0
    }

    /// The moment the limit runs out for work started at `start` (`None` if that moment
    /// cannot be represented, which no real clock reaches).
    pub fn deadline(self, start: Instant) -> Option<Instant> {
        start.checked_add(self.0)
    }

    /// A limit of `duration`, at most [`LONGEST`].
    pub fn new(duration: Duration) -> TimeLimit {
        TimeLimit(duration.min(LONGEST))
    }
}

impl fmt::Display for TimeLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.as_secs_f64())
    }
}

/// True for `digits[.digits][e[+-]digits]` (at least one digit before the exponent).
fn is_decimal(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let exponent_start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i == exponent_start {
            return false;
        }
    }
    i == bytes.len()
}

impl FromStr for TimeLimit {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeLimit, String> {
        let lower = text.trim().to_ascii_lowercase();
        if lower == "inf" || lower == "infinity" {
            return Ok(TimeLimit(LONGEST));
        }
        let refuse = || {
            format!(
                "expected a number of seconds >= 0 (e.g. 2.5; inf for no limit), found '{text}'"
            )
        };
        if !is_decimal(&lower) {
            return Err(refuse());
        }
        let seconds: f64 = lower.parse().map_err(|_| refuse())?;
        // The syntax admits no sign, NaN or infinity; a huge exponent gives +inf.
        if seconds.is_nan() || seconds < 0.0 {
            return Err(refuse());
        }
        if seconds >= LONGEST.as_secs_f64() {
            return Ok(TimeLimit(LONGEST));
        }
        Duration::try_from_secs_f64(seconds)
            .map(TimeLimit)
            .map_err(|_| refuse())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Duration, String> {
        text.parse::<TimeLimit>().map(TimeLimit::duration)
    }

    #[test]
    fn decimal_seconds_are_read() {
        assert_eq!(parse("8.5"), Ok(Duration::from_millis(8500)));
        assert_eq!(parse("3"), Ok(Duration::from_secs(3)));
        assert_eq!(parse(".25"), Ok(Duration::from_millis(250)));
        assert_eq!(parse("2."), Ok(Duration::from_secs(2)));
        assert_eq!(parse("2e3"), Ok(Duration::from_secs(2000)));
        assert_eq!(parse("1.5E-3"), Ok(Duration::from_micros(1500)));
        assert_eq!(parse("0"), Ok(Duration::ZERO));
        assert_eq!(parse("0.0"), Ok(Duration::ZERO));
        assert_eq!(parse("1e-30"), Ok(Duration::ZERO));
    }

    #[test]
    fn huge_values_and_inf_are_the_longest_limit() {
        for text in [
            "1e9", "1e19", "1e20", "1e300", "1e999", "inf", "INF", "infinity",
        ] {
            assert_eq!(parse(text), Ok(LONGEST), "{text}");
        }
        assert_eq!(parse("999999999"), Ok(Duration::from_secs(999_999_999)));
        // The longest limit can be added to any instant of a run.
        let limit: TimeLimit = "1e300".parse().unwrap();
        assert!(limit.deadline(Instant::now()).is_some());
    }

    #[test]
    fn everything_else_is_refused() {
        for text in [
            "", " ", "-1", "-0", "+1", "nan", "NaN", "-inf", "1e", "e5", ".", "1.2.3", "0x10",
            "1,5", "1 s", "5s", "1_000",
        ] {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with("expected a number of seconds >= 0"),
                "{err}"
            );
            assert!(err.contains(&format!("found '{text}'")), "{err}");
        }
    }
}

//! When a part of the optimiser must stop: a moment, a stop flag raised from outside (Ctrl-C),
//! or both.
//!
//! Every loop of the optimiser that can run long (the greedy construction, the bound's
//! subgradient steps, the exact search, the local search and its large-neighbourhood moves)
//! looks at its [`Deadline`] every few steps, so the whole run ends within milliseconds of the
//! moment or of the flag. `Option<Instant>` converts into a deadline without a flag.
//!
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::time::{Duration, Instant};
//! use chess_puzzles::showdown::deadline::Deadline;
//!
//! let stop = AtomicBool::new(false);
//! let later = Deadline::at(Instant::now() + Duration::from_secs(60)).or_stop(&stop);
//! assert!(!later.passed());
//! stop.store(true, Ordering::Relaxed);
//! assert!(later.passed());
//! assert!(!Deadline::from(None).passed());
//! ```

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A moment and a stop flag, either optional. See the [module docs](self).
#[derive(Copy, Clone, Debug, Default)]
pub struct Deadline<'a> {
    at: Option<Instant>,
    stop: Option<&'a AtomicBool>,
}

impl<'a> Deadline<'a> {
    /// No moment, no flag: never passes.
    pub const NEVER: Deadline<'static> = Deadline {
        at: None,
        stop: None,
    };

    /// Passes at `at`.
    pub fn at(at: Instant) -> Deadline<'a> {
        Deadline {
            at: Some(at),
            stop: None,
        }
    }

    /// Passes also when `stop` is raised.
    pub fn or_stop(self, stop: &'a AtomicBool) -> Deadline<'a> {
        Deadline {
            stop: Some(stop),
            ..self
        }
    }

    /// The same flag, and the earlier of the two moments.
    pub fn no_later_than(self, at: Instant) -> Deadline<'a> {
        Deadline {
            at: Some(self.at.map_or(at, |mine| mine.min(at))),
            ..self
        }
    }

    /// The same flag, the moment `duration` after `from` (if that is sooner).
    pub fn within(self, from: Instant, duration: Duration) -> Deadline<'a> {
        match from.checked_add(duration) {
            Some(at) => self.no_later_than(at),
            None => self,
        }
    }

    /// The same flag, and the moment `extra` later (if it can be represented).
    pub fn later_by(self, extra: Duration) -> Deadline<'a> {
        Deadline {
            at: self.at.and_then(|at| at.checked_add(extra)).or(self.at),
            ..self
        }
    }

    /// The flag, if any.
    pub fn flag(&self) -> Option<&'a AtomicBool> {
        self.stop
    }

    /// The moment, if any.
    pub fn moment(&self) -> Option<Instant> {
        self.at
    }

    /// The time left until the moment (zero once it has passed; `None` without a moment).
    pub fn left(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// True when the flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// True when the moment has come or the flag is raised.
    pub fn passed(&self) -> bool {
        self.stopped() || self.at.is_some_and(|at| Instant::now() >= at)
    }
}

impl From<Option<Instant>> for Deadline<'_> {
    fn from(at: Option<Instant>) -> Self {
        Deadline { at, stop: None }
    }
}

impl From<Instant> for Deadline<'_> {
    fn from(at: Instant) -> Self {
        Deadline::at(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_combine_to_the_earliest() {
        let now = Instant::now();
        let d = Deadline::at(now + Duration::from_secs(10)).no_later_than(now);
        assert_eq!(d.moment(), Some(now));
        assert!(d.passed());
        let d = Deadline::NEVER.within(now, Duration::from_secs(5));
        assert_eq!(d.moment(), Some(now + Duration::from_secs(5)));
        // A duration too long to add to an instant leaves the deadline as it was.
        assert_eq!(Deadline::NEVER.within(now, Duration::MAX).moment(), None);
        assert_eq!(Deadline::NEVER.left(), None);
        assert_eq!(Deadline::at(now).left(), Some(Duration::ZERO));
    }
}

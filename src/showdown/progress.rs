//! What a run of the optimiser has reached, for a progress display: the optimiser updates a
//! [`Progress`] as it goes, a display reads [`Progress::snapshot`] from another thread.
//!
//! ```
//! use chess_puzzles::showdown::progress::Progress;
//!
//! let progress = Progress::default();
//! assert_eq!(progress.snapshot().tests, 0);
//! ```

use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::instance::score;

/// Shared between the optimiser and a display. See the [module docs](self).
#[derive(Debug, Default)]
pub struct Progress {
    state: Mutex<State>,
}

#[derive(Clone, Debug, Default)]
struct State {
    snapshot: Snapshot,
    /// Per test: its side, and its best cost and lower bound once it has a first answer.
    tests: Vec<(usize, Option<(u64, u64)>)>,
}

/// The state of a run at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Tests in the input.
    pub tests: usize,
    /// Tests with a first answer (and a lower bound).
    pub prepared: usize,
    /// Tests whose final answer was handed out.
    pub answered: usize,
    /// When the clock started (after the input was read).
    pub start: Option<Instant>,
    /// When the time limit runs out.
    pub end: Option<Instant>,
    /// The total score (cost / n²) of the best answers so far, over the prepared tests.
    pub score: f64,
    /// The total of their lower bounds, in score.
    pub bound: f64,
}

impl Progress {
    /// The state now.
    pub fn snapshot(&self) -> Snapshot {
        self.lock().snapshot.clone()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the numbers inconsistent enough to matter.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A run of tests of these sides starts its clock.
    pub(crate) fn begin(&self, sides: &[usize], start: Instant, end: Option<Instant>) {
        let mut state = self.lock();
        state.tests = sides.iter().map(|&n| (n, None)).collect();
        state.snapshot = Snapshot {
            tests: sides.len(),
            start: Some(start),
            end,
            ..Snapshot::default()
        };
    }

    /// Test `i` (from 0) holds an answer of `cost`, and no answer costs less than `bound`.
    pub(crate) fn update(&self, i: usize, cost: u64, bound: u64) {
        let mut state = self.lock();
        let Some(test) = state.tests.get_mut(i) else {
            return;
        };
        let newly = test.1.is_none();
        test.1 = Some((cost, bound.min(cost)));
        let (mut total, mut bounds) = (0.0, 0.0);
        for &(n, known) in &state.tests {
            if let Some((c, b)) = known {
                total += score(c, n);
                bounds += score(b, n);
            }
        }
        let snapshot = &mut state.snapshot;
        snapshot.score = total;
        snapshot.bound = bounds;
        if newly {
            snapshot.prepared += 1;
        }
    }

    /// One more test's final answer was handed out.
    pub(crate) fn answered(&self) {
        self.lock().snapshot.answered += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_follow_the_updates() {
        let progress = Progress::default();
        progress.begin(&[2, 10], Instant::now(), None);
        progress.update(0, 8, 4);
        assert_eq!(progress.snapshot().score, 2.0);
        assert_eq!(progress.snapshot().bound, 1.0);
        progress.update(1, 100, 50);
        progress.update(0, 4, 4);
        let s = progress.snapshot();
        assert_eq!((s.prepared, s.score, s.bound), (2, 2.0, 1.5));
        progress.answered();
        assert_eq!(progress.snapshot().answered, 1);
        // An unknown test changes nothing.
        progress.update(7, 1, 1);
        assert_eq!(progress.snapshot().prepared, 2);
    }
}

//! What a run of the optimiser has reached, for a progress display: the optimiser updates a
//! [`Progress`] as it goes, a display reads [`Progress::snapshot`] from another thread. A
//! [`Progress::recording`] also keeps every change of a test's best cost or bound, with its
//! time ([`CostPoint`]): the run's cost over time, which `showdown --trace` writes. With a
//! step count, it also counts the local search's steps made out of the steps the run will make
//! ([`Snapshot::steps`]), and [`Progress::observed`] tells them to a watcher on the solving
//! thread (a browser, which has no other thread to look from).
//!
//! ```
//! use chess_puzzles::showdown::progress::Progress;
//!
//! let progress = Progress::default();
//! assert_eq!(progress.snapshot().tests, 0);
//! ```

use crate::clock::Instant;
use std::sync::{Mutex, MutexGuard};

/// Shared between the optimiser and a display. See the [module docs](self).
#[derive(Debug, Default)]
pub struct Progress {
    state: Mutex<State>,
    observer: Option<Observer>,
}

/// Told `(done, total)`: see [`Progress::observed`].
struct Observer(Box<dyn Fn(u64, u64) + Send + Sync>);

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

/// How many local-search steps a search makes between two reports of its steps: often enough
/// for a bar that moves (a few dozen times a second on a 25x25 board), rarely enough to cost
/// nothing.
pub const STEPS_REPORTED: u64 = 4096;

/// The most [`CostPoint`]s a recording keeps (those after are dropped, and
/// [`Progress::take_points`] says so).
pub const MAX_POINTS: usize = 100_000;

/// One change of a test's best cost or lower bound during a run.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CostPoint {
    /// Seconds since the clock started (once the input was read).
    pub seconds: f64,
    /// The test, from 0.
    pub test: usize,
    /// The cost of the best answer held.
    pub cost: u64,
    /// The lower bound (at most the cost).
    pub bound: u64,
}

#[derive(Clone, Debug, Default)]
struct State {
    snapshot: Snapshot,
    /// Per test: its side, and its best cost and lower bound once it has a first answer.
    tests: Vec<(usize, Option<(u64, u64)>)>,
    /// Per test: the local-search steps counted (at most `steps_each`).
    steps: Vec<u64>,
    /// The steps each test's searches make in all (0 without a step count).
    steps_each: u64,
    /// The changes recorded since they were last taken (a recording only).
    points: Option<Vec<CostPoint>>,
    /// Changes dropped past [`MAX_POINTS`].
    dropped: u64,
    /// Per board side, the sums of those costs and bounds: kept up to date in constant time
    /// per update (a total recomputed over every test at each update made a run on many
    /// tests quadratic), exact (integers), and turned into scores (cost / n²) by
    /// [`Progress::snapshot`], over the sides only.
    by_side: Vec<(u128, u128)>,
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
    /// (Computed by [`Progress::snapshot`].)
    pub score: f64,
    /// The total of their lower bounds, in score.
    pub bound: f64,
    /// With a step count: the local-search steps made (a test answered counts all its steps,
    /// also those its searches did not need), out of `step_budget`.
    pub steps: u64,
    /// With a step count: the steps of every test's searches (the count times the searches
    /// of a test, one per thread, at most two); 0 without one.
    pub step_budget: u64,
}

impl Progress {
    /// A progress that also records every change of a test's best cost or bound (see
    /// [`Progress::take_points`]).
    pub fn recording() -> Progress {
        let progress = Progress::default();
        progress.lock().points = Some(Vec::new());
        progress
    }

    /// A progress that calls `observer(done, total)` after each change of what it counts, on
    /// the solving thread: with a step count the steps made out of the budget
    /// ([`Snapshot::steps`], at least every [`STEPS_REPORTED`] steps of a search), else the
    /// tests answered out of the tests. It should return at once.
    pub fn observed(observer: impl Fn(u64, u64) + Send + Sync + 'static) -> Progress {
        Progress {
            observer: Some(Observer(Box::new(observer))),
            ..Progress::default()
        }
    }

    /// The changes recorded since the last call, in the order they happened, and how many
    /// were dropped past [`MAX_POINTS`] (none for a progress that is not recording).
    pub fn take_points(&self) -> (Vec<CostPoint>, u64) {
        let mut state = self.lock();
        let dropped = std::mem::take(&mut state.dropped);
        let points = state
            .points
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default();
        (points, dropped)
    }

    /// The state now.
    pub fn snapshot(&self) -> Snapshot {
        let state = self.lock();
        let mut snapshot = state.snapshot.clone();
        for (n, &(cost, bound)) in state.by_side.iter().enumerate() {
            if cost > 0 || bound > 0 {
                let squares = (n * n) as f64;
                snapshot.score += cost as f64 / squares;
                snapshot.bound += bound as f64 / squares;
            }
        }
        snapshot
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere cannot leave the numbers inconsistent enough to matter.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A run of tests of these sides starts its clock; with a step count, each test's searches
    /// make `steps_each` steps in all.
    pub(crate) fn begin(
        &self,
        sides: &[usize],
        start: Instant,
        end: Option<Instant>,
        steps_each: u64,
    ) {
        let mut state = self.lock();
        state.steps = vec![0; sides.len()];
        state.steps_each = steps_each;
        if let Some(points) = &mut state.points {
            points.clear();
        }
        state.tests = sides.iter().map(|&n| (n, None)).collect();
        let largest = sides.iter().copied().max().unwrap_or(0);
        state.by_side = vec![(0, 0); largest + 1];
        state.snapshot = Snapshot {
            tests: sides.len(),
            start: Some(start),
            end,
            step_budget: steps_each.saturating_mul(sides.len() as u64),
            ..Snapshot::default()
        };
    }

    /// A search of test `i` made `steps` more steps.
    pub(crate) fn stepped(&self, i: usize, steps: u64) {
        let told = {
            let mut state = self.lock();
            Self::count_steps(&mut state, i, steps);
            Self::told(&state)
        };
        self.tell(told);
    }

    /// Counts `steps` more steps of test `i`, at most its budget.
    fn count_steps(state: &mut State, i: usize, steps: u64) {
        let each = state.steps_each;
        let Some(made) = state.steps.get_mut(i) else {
            return;
        };
        let more = steps.min(each - *made);
        *made += more;
        state.snapshot.steps += more;
    }

    /// What the observer is told now: steps with a step count, else tests answered.
    fn told(state: &State) -> (u64, u64) {
        let s = &state.snapshot;
        if s.step_budget > 0 {
            (s.steps, s.step_budget)
        } else {
            (s.answered as u64, s.tests as u64)
        }
    }

    fn tell(&self, (done, total): (u64, u64)) {
        if let Some(observer) = &self.observer {
            (observer.0)(done, total);
        }
    }

    /// Test `i` (from 0) holds an answer of `cost`, and no answer costs less than `bound`.
    pub(crate) fn update(&self, i: usize, cost: u64, bound: u64) {
        Self::record(&mut self.lock(), i, cost, bound);
    }

    /// A search of test `i` found an answer of `cost`: it counts when it is cheaper than the
    /// answer held (the bound stays).
    pub(crate) fn improved(&self, i: usize, cost: u64) {
        let mut state = self.lock();
        if let Some(&(_, Some((held, bound)))) = state.tests.get(i)
            && cost < held
        {
            Self::record(&mut state, i, cost, bound);
        }
    }

    /// Test `i`'s final answer, of `cost`, was handed out (with its bound, as [`Progress::update`]).
    /// It counts every step of the test's searches.
    pub(crate) fn answered(&self, i: usize, cost: u64, bound: u64) {
        let told = {
            let mut state = self.lock();
            Self::record(&mut state, i, cost, bound);
            state.snapshot.answered += 1;
            let each = state.steps_each;
            Self::count_steps(&mut state, i, each);
            Self::told(&state)
        };
        self.tell(told);
    }

    fn record(state: &mut State, i: usize, cost: u64, bound: u64) {
        let Some(test) = state.tests.get_mut(i) else {
            return;
        };
        let side = test.0;
        let before = test.1.replace((cost, bound.min(cost)));
        let (old_cost, old_bound) = before.unwrap_or((0, 0));
        let Some(sums) = state.by_side.get_mut(side) else {
            return;
        };
        sums.0 = sums.0 - u128::from(old_cost) + u128::from(cost);
        sums.1 = sums.1 - u128::from(old_bound) + u128::from(bound.min(cost));
        if before.is_none() {
            state.snapshot.prepared += 1;
        }
        if before != Some((cost, bound.min(cost))) {
            let seconds = state
                .snapshot
                .start
                .map_or(0.0, |start| start.elapsed().as_secs_f64());
            let full = state.points.as_ref().is_some_and(|p| p.len() >= MAX_POINTS);
            if full {
                state.dropped += 1;
            } else if let Some(points) = &mut state.points {
                points.push(CostPoint {
                    seconds,
                    test: i,
                    cost,
                    bound: bound.min(cost),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_follow_the_updates() {
        let progress = Progress::default();
        progress.begin(&[2, 10], Instant::now(), None, 0);
        progress.update(0, 8, 4);
        assert_eq!(progress.snapshot().score, 2.0);
        assert_eq!(progress.snapshot().bound, 1.0);
        progress.update(1, 100, 50);
        progress.update(0, 4, 4);
        let s = progress.snapshot();
        assert_eq!((s.prepared, s.score, s.bound), (2, 2.0, 1.5));
        progress.answered(1, 100, 50);
        assert_eq!(progress.snapshot().answered, 1);
        // An unknown test changes nothing.
        progress.update(7, 1, 1);
        assert_eq!(progress.snapshot().prepared, 2);
        // Not recording: no point.
        assert_eq!(progress.take_points(), (Vec::new(), 0));
    }

    #[test]
    fn steps_are_counted_within_each_tests_budget() {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicU64, Ordering};
        let seen = Arc::new(AtomicU64::new(0));
        let told = seen.clone();
        let progress = Progress::observed(move |done, total| {
            assert_eq!(total, 200);
            told.store(done, Ordering::Relaxed);
        });
        progress.begin(&[5, 6], Instant::now(), None, 100);
        progress.stepped(0, 60);
        progress.stepped(0, 60);
        assert_eq!(seen.load(Ordering::Relaxed), 100);
        progress.stepped(1, 30);
        progress.answered(1, 3, 3);
        assert_eq!(seen.load(Ordering::Relaxed), 200);
        let s = progress.snapshot();
        assert_eq!((s.steps, s.step_budget, s.answered), (200, 200, 1));
    }

    #[test]
    fn a_recording_keeps_every_change_once() {
        let progress = Progress::recording();
        progress.begin(&[5, 6], Instant::now(), None, 0);
        progress.update(0, 9, 4);
        progress.update(0, 9, 4);
        progress.improved(0, 12);
        progress.improved(0, 7);
        progress.improved(1, 3);
        progress.answered(0, 7, 4);
        let (points, dropped) = progress.take_points();
        let seen: Vec<_> = points.iter().map(|p| (p.test, p.cost, p.bound)).collect();
        assert_eq!(seen, [(0, 9, 4), (0, 7, 4)]);
        assert!(points.windows(2).all(|w| w[0].seconds <= w[1].seconds));
        assert_eq!(dropped, 0);
        assert!(progress.take_points().0.is_empty());
    }
}

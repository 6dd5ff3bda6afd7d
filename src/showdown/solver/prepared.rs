//! A test made ready for the search ([`prepare`]): its first answer, its lower bound and on
//! small boards the exact search; then its local searches and the best of their answers.

use super::*;
use crate::showdown::journal::{Exact, Searched, Story};

/// A test made ready for the search: its first answer and lower bound, or already solved
/// (proven optimal, or with nothing left to search). See [`prepare`].
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    pub(super) instance: &'a Instance,
    /// The candidate sets, kept for the search of an open test only.
    pub(super) candidates: Option<Candidates>,
    pub(super) state: State,
    /// What a trace tells of the test so far, when one is kept.
    pub(super) story: Option<Box<Story>>,
}

#[derive(Clone, Debug)]
pub(super) enum State {
    Done(Result<Solution, SolveError>),
    Open {
        cost: u64,
        pieces: Vec<Placement>,
        lower_bound: u64,
    },
}

/// The first part of [`solve`]: a first answer ([`first_answer`] within a quarter of
/// `budget`, at least [`FIRST_ANSWER_MIN`]), the lower bound (at most a tenth), and on small
/// boards the exact search (at most a fifth). `budget` is the whole test's, as for [`solve`].
pub fn prepare<'a>(instance: &'a Instance, budget: &Budget, seed: u64) -> Prepared<'a> {
    let hard = match budget.steps {
        Some(_) => Deadline::NEVER,
        None => Deadline::NEVER.within(Instant::now(), budget.time),
    };
    // The preparation draws no random number: `seed` is kept for the signature's sake.
    let _ = seed;
    prepare_within(instance, budget.time, hard, budget.steps, None)
}

/// [`prepare`] with the test's `share` of the time, inside a run that ends at `hard` (which
/// also cuts short the work of a step count).
pub(super) fn prepare_within<'a>(
    instance: &'a Instance,
    share: Duration,
    hard: Deadline<'_>,
    steps: Option<u64>,
    told: Option<usize>,
) -> Prepared<'a> {
    let start = Instant::now();
    let soft = |part: f64| match steps {
        Some(_) => hard,
        None => hard.within(start, part_of(share, part)),
    };
    // On large boards the candidate sets take tens of milliseconds: Ctrl-C need not wait.
    let stopped = match hard.flag() {
        Some(flag) => Deadline::NEVER.or_stop(flag),
        None => Deadline::NEVER,
    };
    let Some(candidates) = Candidates::until(instance.kings(), stopped) else {
        return Prepared {
            instance,
            candidates: None,
            state: State::Done(quick_answer(instance)),
            story: None,
        };
    };
    let done =
        |state: Result<Solution, SolveError>, _: Candidates, story: Option<Box<Story>>| Prepared {
            instance,
            candidates: None,
            state: State::Done(state),
            story,
        };

    if instance.king_count() == 0 {
        let kind = cheapest_kind(instance);
        let pieces = vec![Placement {
            kind,
            square: Square::new(0, 0),
        }];
        let solved = finish(instance, pieces, u64::from(instance.cost(kind)));
        return done(solved, candidates, None);
    }

    let first = first_answer_deadline(hard, instance.side(), start, share, steps);
    let (incumbent, construction) = match first_answer_told(instance, &candidates, first, told) {
        Some((cost, pieces, moves)) => (Some((cost, pieces)), moves),
        None => (None, None),
    };

    let upper = incumbent.as_ref().map_or(u64::MAX / 4, |(c, _)| *c);
    let bound = bound_told(instance, &candidates, upper, soft(0.1));
    let lower_bound = bound.value;
    let mut story = told.map(|limit| {
        Box::new(Story {
            instance: instance.clone(),
            limit,
            bound,
            construction: construction.unwrap_or_default(),
            exact: None,
            search: None,
        })
    });

    if let Some((cost, pieces)) = &incumbent
        && *cost <= lower_bound
    {
        let solved = finish(instance, pieces.clone(), lower_bound.max(*cost));
        return done(solved, candidates, story);
    }

    let exact_deadline = soft(0.2);
    if (instance.king_count() <= EXACT_KINGS || instance.side() <= EXACT_SIDE)
        && !exact_deadline.passed()
    {
        match exhaustive::optimum(
            instance,
            &candidates,
            incumbent.clone(),
            // With a step count instead of a time, the exact search's effort follows it.
            steps.map_or(EXACT_NODES, |s| s.saturating_mul(20).min(EXACT_NODES)),
            exact_deadline,
        ) {
            Outcome::Optimal(cost, pieces) => {
                if let Some(story) = &mut story {
                    story.exact = Some(Exact::Optimal(cost, pieces.clone()));
                }
                let solved = finish(instance, pieces, cost);
                return done(solved, candidates, story);
            }
            Outcome::Infeasible => return done(Err(SolveError::Infeasible), candidates, None),
            Outcome::Unfinished => {
                if let Some(story) = &mut story {
                    story.exact = Some(Exact::Unfinished);
                }
            }
        }
    }

    let Some((cost, pieces)) = incumbent else {
        let king = instance.kings().iter().next().unwrap_or(Square::new(0, 0));
        return done(Err(SolveError::NotFound(king)), candidates, None);
    };
    Prepared {
        instance,
        candidates: Some(candidates),
        state: State::Open {
            cost,
            pieces,
            lower_bound,
        },
        story,
    }
}

/// `part` (0..1) of `duration`, without overflow.
pub(super) fn part_of(duration: Duration, part: f64) -> Duration {
    Duration::try_from_secs_f64(duration.as_secs_f64() * part.clamp(0.0, 1.0))
        .map_or(duration, |d| d.min(duration))
}

/// Runs `work` with `local` raised as soon as `external` is (watched every few
/// milliseconds from another thread while `work` runs).
fn mirrored<T>(external: Option<&AtomicBool>, local: &AtomicBool, work: impl FnOnce() -> T) -> T {
    let Some(external) = external else {
        return work();
    };
    // Without threads (WebAssembly in a browser) nothing else runs while `work` does, so the
    // flag is looked at once, before it.
    #[cfg(target_family = "wasm")]
    {
        if external.load(Ordering::Relaxed) {
            local.store(true, Ordering::Relaxed);
        }
        work()
    }
    #[cfg(not(target_family = "wasm"))]
    mirrored_on_a_thread(external, local, work)
}

/// [`mirrored`] with a thread that watches `external`.
#[cfg(not(target_family = "wasm"))]
fn mirrored_on_a_thread<T>(
    external: &AtomicBool,
    local: &AtomicBool,
    work: impl FnOnce() -> T,
) -> T {
    let (finished, wait) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            loop {
                if external.load(Ordering::Relaxed) {
                    local.store(true, Ordering::Relaxed);
                    return;
                }
                if wait.recv_timeout(Duration::from_millis(5)) != Err(RecvTimeoutError::Timeout) {
                    return;
                }
            }
        });
        let result = work();
        drop(finished);
        result
    })
}

impl Prepared<'_> {
    /// True when the test needs no search: solved to optimality, or with no answer possible.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done(_))
    }

    /// The cost of the best answer held and the lower bound, when there is an answer.
    pub fn standing(&self) -> Option<(u64, u64)> {
        match &self.state {
            State::Done(Ok(solution)) => Some((solution.answer.cost, solution.lower_bound)),
            State::Done(Err(_)) => None,
            State::Open {
                cost, lower_bound, ..
            } => Some((*cost, *lower_bound)),
        }
    }

    /// What the search can still gain at most, in score (cost / n²): the first answer's cost
    /// minus the lower bound, over n²; 0 when done.
    pub fn open_gap(&self) -> f64 {
        match &self.state {
            State::Done(_) => 0.0,
            State::Open {
                cost, lower_bound, ..
            } => score(cost.saturating_sub(*lower_bound), self.instance.side()),
        }
    }

    /// The second part of [`solve`]: the local search from the first answer, one run per
    /// thread, within `budget` (this part's own time), stopping early at the lower bound.
    pub fn finish(self, budget: &Budget, seed: u64) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let deadline = match budget.steps {
            Some(_) => Deadline::NEVER,
            None => Deadline::NEVER.within(start, budget.time),
        };
        let mut searches = self.searches(seed, deadline.within(start, budget.time / 4));
        self.search(&mut searches, budget.steps, deadline);
        self.conclude(&searches)
    }

    /// The searches of an open test, one per thread: the first from the first answer, the
    /// others from randomised greedy answers (built by `greedy_deadline` at the latest), so
    /// that they search different regions; where that greedy reaches a dead end (no piece
    /// brings a king into check: 20 of the 30 boards of the dense benchmark set) or its time
    /// runs out, from the first answer too, with their own random moves. None for a test
    /// that is done.
    pub(super) fn searches(
        &self,
        seed: u64,
        greedy_deadline: Deadline<'_>,
    ) -> Vec<Search<'_, ChaCha8Rng>> {
        use rayon::prelude::*;
        let (State::Open { pieces, .. }, Some(candidates)) = (&self.state, &self.candidates) else {
            return Vec::new();
        };
        let threads = rayon::current_num_threads().clamp(1, 2) as u64;
        let start_board = Board::holding(self.instance, pieces);
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(seed ^ (t + 1).wrapping_mul(0xA076_1D64_78BD_642F));
                let mut board = start_board.clone();
                if t > 0 {
                    let mut b = Board::new(self.instance);
                    if greedy(&mut b, candidates, 0.3, &mut rng, greedy_deadline) {
                        prune(&mut b);
                        board = b;
                    }
                }
                let mut search = Search::new(board, candidates, rng);
                if let Some(story) = &self.story {
                    search.tell(story.limit);
                }
                search
            })
            .collect()
    }

    /// Runs the searches on, in parallel, for `steps` more steps each or until `deadline`;
    /// returns the best cost found (u64::MAX when there is no search).
    pub(super) fn search(
        &self,
        searches: &mut [Search<'_, ChaCha8Rng>],
        steps: Option<u64>,
        deadline: Deadline<'_>,
    ) -> u64 {
        use rayon::prelude::*;
        let target = match &self.state {
            State::Open { lower_bound, .. } => *lower_bound,
            State::Done(_) => return u64::MAX,
        };
        // The local search first, then large-neighbourhood moves on its best answer.
        let now = Instant::now();
        let part = |share: f64| {
            deadline
                .moment()
                .map(|d| now + part_of(d.saturating_duration_since(now), share))
        };
        // With a step count the steps alone decide how long the search explores, so that a
        // seed gives the same answers on any machine; else the clock (and with neither, it
        // does not explore).
        let (explore_steps, explore_until) =
            match (steps, part((1.0 - POLISH_SHARE) * EXPLORE_PART)) {
                (Some(n), _) => ((n as f64 * EXPLORE_PART) as u64, None),
                (None, Some(until)) => (UNLIMITED, Some(until)),
                (None, None) => (0, None),
            };
        let limits = Limits {
            steps: steps.unwrap_or(UNLIMITED),
            deadline: part(1.0 - POLISH_SHARE),
            target,
            explore_steps,
            explore_until,
            stop_others: steps.is_none(),
        };
        let tries = steps.map_or(u64::MAX, |n| n / STEPS_PER_POLISH);
        // Raised when a search meets the bound (not with a step count), or from outside
        // (Ctrl-C).
        let stop = AtomicBool::new(false);
        let polish_deadline = Deadline::from(deadline.moment()).or_stop(&stop);
        mirrored(deadline.flag(), &stop, || {
            searches
                .par_iter_mut()
                .map(|s| {
                    s.resume(&limits, &stop);
                    s.polish(tries, polish_deadline, target)
                })
                .min()
                .unwrap_or(u64::MAX)
        })
    }

    /// Leaves the story of the test with `recorder` as test `i`'s, with the moves of the
    /// search whose answer [`Prepared::conclude`] keeps (the first of the cheapest).
    pub(super) fn tell(&self, recorder: &Recorder, i: usize, searches: &[Search<'_, ChaCha8Rng>]) {
        let Some(story) = &self.story else {
            return;
        };
        let mut story = Story::clone(story);
        let first_cost = match &self.state {
            State::Open { cost, .. } => *cost,
            State::Done(_) => u64::MAX,
        };
        let kept = searches
            .iter()
            .enumerate()
            .min_by_key(|(_, s)| s.best_cost())
            .filter(|(_, s)| s.best_cost() <= first_cost);
        if let Some((index, search)) = kept
            && let Some(told) = search.told()
        {
            let mut moves = told.moves.clone();
            let cut = match told.best_at {
                Some(at) => {
                    moves.steps.truncate(at);
                    false
                }
                None => true,
            };
            story.search = Some(Searched {
                index,
                of: searches.len(),
                start: told.start.clone(),
                moves,
                cut,
            });
        }
        recorder.keep(i, story);
    }

    /// The best of the first answer and the searches' answers, verified.
    pub(super) fn conclude(
        &self,
        searches: &[Search<'_, ChaCha8Rng>],
    ) -> Result<Solution, SolveError> {
        let (cost, pieces, lower_bound) = match &self.state {
            State::Done(solved) => return solved.clone(),
            State::Open {
                cost,
                pieces,
                lower_bound,
            } => (*cost, pieces.clone(), *lower_bound),
        };
        let (best_cost, best) = searches
            .iter()
            .map(|s| (s.best_cost(), s.best().to_vec()))
            .chain(std::iter::once((cost, pieces)))
            .min_by_key(|(c, _)| *c)
            .unwrap_or_default();
        finish(self.instance, best, lower_bound.min(best_cost))
    }
}

//! The optimiser: a lower bound, an exact search where the board is small, otherwise a greedy
//! construction improved by local search on both cores, stopping early when the answer's cost
//! meets the lower bound. Every answer returned has passed [`judge::verify`].

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::board::Board;
use super::bounds::Relaxation;
use super::candidates::Candidates;
use super::construction::{fallback, greedy, prune};
use super::exhaustive::{self, Outcome};
use super::instance::{Answer, Instance, Placement, score};
use super::judge::verify;
use super::local_search::{Limits, Search};

/// How much effort one test gets.
#[derive(Copy, Clone, Debug)]
pub struct Budget {
    /// Wall-clock time for this test.
    pub time: Duration,
    /// When set, a fixed number of local-search steps per thread instead of the time (the
    /// answers then depend only on the seed).
    pub steps: Option<u64>,
}

/// An answer with what is known of its quality.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Solution {
    /// The pieces and their cost (verified).
    pub answer: Answer,
    /// No answer costs less than this.
    pub lower_bound: u64,
}

impl Solution {
    /// True when the answer is proven the cheapest.
    pub fn optimal(&self) -> bool {
        self.answer.cost <= self.lower_bound
    }
}

/// Why no answer could be given.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The search proved that no arrangement checks every king at once.
    #[error("no arrangement of pieces checks every king at once")]
    Infeasible,
    /// Neither the search nor the fallback found an arrangement (only possible when a king
    /// has no empty neighbour).
    #[error("found no arrangement that checks every king (the king on {0} has no empty neighbour)")]
    NotFound(Square),
}

/// Boards with at most this many kings, or of at most [`EXACT_SIDE`], are first tried by the
/// exact search (with a node limit and a fifth of the test's time): it proves many boards up
/// to 10x10 in milliseconds, whose time then goes to the others.
const EXACT_KINGS: usize = 30;
/// See [`EXACT_KINGS`].
const EXACT_SIDE: usize = 10;
/// The node limit of the exact search.
const EXACT_NODES: u64 = 200_000;
/// The part of each search's time given to large-neighbourhood moves on its best answer
/// ([`Search::polish`]).
const POLISH_SHARE: f64 = 0.1;
/// With a step count instead of a time, one large-neighbourhood move per this many steps.
const STEPS_PER_POLISH: u64 = 2500;
/// Local-search steps when no step count is given: effectively unlimited, time decides.
const UNLIMITED: u64 = u64::MAX;

/// Solves one test within its budget. `seed` fixes every random choice.
pub fn solve(instance: &Instance, budget: &Budget, seed: u64) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let prepared = prepare(instance, budget, seed);
    let left = Budget {
        time: budget.time.saturating_sub(start.elapsed()),
        steps: budget.steps,
    };
    prepared.finish(&left, seed)
}

/// The part of the first round's time in the whole search time (see [`solve_all`]).
const FIRST_ROUND: f64 = 0.4;
/// The part of the second round's time shared equally among the open tests; the rest goes by
/// each test's weight (see [`solve_all`]).
const EQUAL_SHARE: f64 = 0.25;
/// The improvement a test is credited with before any is seen, as a part of its score.
const PRIOR_GAIN: f64 = 0.002;

/// Solves every test of an input within `time_limit` in all, handing each answer to `each`
/// (test number from 1, answer) in order.
///
/// Every test is first [prepared](prepare) (both cores, each test at most its equal share of
/// the time). The search time left is then spent in two rounds. In the first, every open
/// test gets an equal share, in two halves; in the second, the searches go on where they
/// stopped: a part of the time is shared equally again, the rest in proportion to a weight in
/// score (cost / n²): what the test gained in the second half of its first round, plus how
/// far apart its searches' answers are, plus a small part of its score. So the time goes to
/// the tests whose score still falls or whose searches disagree, in proportion to what they
/// weigh in the total, not to those already settled; a test that finishes early leaves its
/// time to those after it. With `steps` set, the time plays no
/// part: each search makes that many steps, and the answers depend only on `seed`.
pub fn solve_all<E>(
    instances: &[Instance],
    time_limit: Duration,
    steps: Option<u64>,
    seed: u64,
    mut each: impl FnMut(usize, Result<Solution, SolveError>) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    let start = Instant::now();
    let count = instances.len().max(1);
    let share = time_limit / u32::try_from(count).unwrap_or(u32::MAX);
    let seed_of = |i: usize| seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let prepared: Vec<Prepared> = instances
        .par_iter()
        .enumerate()
        .map(|(i, instance)| prepare(instance, &Budget { time: share, steps }, seed_of(i)))
        .collect();
    let left = |start: Instant| time_limit.saturating_sub(start.elapsed());
    let open = prepared.iter().filter(|p| !p.is_done()).count();
    let round = left(start).mul_f64(FIRST_ROUND) / u32::try_from(open.max(1)).unwrap_or(1);
    // First round, and the weight of each test.
    let mut searches = Vec::with_capacity(prepared.len());
    let mut weights = vec![0.0f64; prepared.len()];
    for (i, p) in prepared.iter().enumerate() {
        let now = Instant::now();
        let deadline = |part: f64| steps.is_none().then(|| now + round.mul_f64(part));
        let mut s = p.searches(seed_of(i), deadline(0.25));
        if !s.is_empty() {
            let first_steps = steps.map(|n| n / 2);
            let half = p.search(&mut s, first_steps, deadline(0.5));
            let end = p.search(&mut s, steps.map(|n| n - n / 2), deadline(1.0));
            let worst = s.iter().map(Search::best_cost).max().unwrap_or(end);
            let side = p.instance.side();
            weights[i] = score(half.saturating_sub(end), side)
                + score(worst - end, side)
                + PRIOR_GAIN * score(end, side);
        }
        searches.push(s);
    }
    // Second round, each answer written as soon as its search ends.
    let mut still_open = searches.iter().filter(|s| !s.is_empty()).count().max(1);
    for (i, (p, mut s)) in prepared.iter().zip(searches).enumerate() {
        if steps.is_none() && !s.is_empty() {
            let total: f64 = weights[i..].iter().sum();
            let part = if total > 0.0 {
                EQUAL_SHARE / still_open as f64 + (1.0 - EQUAL_SHARE) * weights[i] / total
            } else {
                1.0 / still_open as f64
            };
            let deadline = Instant::now() + left(start).mul_f64(part.clamp(0.0, 1.0));
            p.search(&mut s, None, Some(deadline));
            still_open = still_open.saturating_sub(1).max(1);
        }
        each(i + 1, p.conclude(&s))?;
    }
    Ok(())
}

/// A test made ready for the search: its first answer and lower bound, or already solved
/// (proven optimal, or with nothing left to search). See [`prepare`].
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    instance: &'a Instance,
    candidates: Candidates,
    state: State,
}

#[derive(Clone, Debug)]
enum State {
    Done(Result<Solution, SolveError>),
    Open {
        cost: u64,
        pieces: Vec<Placement>,
        lower_bound: u64,
    },
}

/// The first part of [`solve`]: a first answer (the greedy, pruned; on large boards the simple
/// answer when the greedy would not finish in a quarter of `budget`), the lower bound (at most
/// a tenth), and on small boards the exact search (at most a fifth). `budget` is the whole
/// test's, as for [`solve`].
pub fn prepare<'a>(instance: &'a Instance, budget: &Budget, seed: u64) -> Prepared<'a> {
    let start = Instant::now();
    let deadline = budget.steps.is_none().then(|| start + budget.time);
    let candidates = Candidates::new(instance);
    let done = |state: Result<Solution, SolveError>, candidates: Candidates| Prepared {
        instance,
        candidates,
        state: State::Done(state),
    };

    if instance.king_count() == 0 {
        let kind = cheapest_kind(instance);
        let pieces = vec![Placement {
            kind,
            square: Square::new(0, 0),
        }];
        let solved = finish(instance, pieces, u64::from(instance.cost(kind)));
        return done(solved, candidates);
    }

    // A first answer: greedy, without redundant pieces.
    let mut board = Board::new(instance);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // On large boards the greedy may not finish in its share of the time: the simple answer
    // (a horse beside every king), pruned, is then the start.
    let greedy_deadline = deadline.map(|d| start + (d - start) / 4);
    let complete = greedy(&mut board, &candidates, 0.0, &mut rng, greedy_deadline);
    let mut incumbent: Option<(u64, Vec<Placement>)> = None;
    if complete {
        prune(&mut board);
        incumbent = Some((board.cost(), board.placements()));
    } else {
        let pieces = fallback(instance, &candidates);
        if verify(instance, &pieces).is_ok() {
            let mut b = board_with(instance, &pieces);
            prune(&mut b);
            incumbent = Some((b.cost(), b.placements()));
        }
    }

    let relaxation = Relaxation::new(instance, &candidates);
    let upper = incumbent.as_ref().map_or(u64::MAX / 4, |(c, _)| *c);
    let bound_deadline = deadline.map(|d| start + (d - start) / 10);
    let lower_bound = relaxation.lower_bound(upper, 300, bound_deadline);

    if let Some((cost, pieces)) = &incumbent
        && *cost <= lower_bound
    {
        let solved = finish(instance, pieces.clone(), lower_bound.max(*cost));
        return done(solved, candidates);
    }

    if instance.king_count() <= EXACT_KINGS || instance.side() <= EXACT_SIDE {
        let exact_deadline = deadline.map(|d| start + (d - start) / 5);
        match exhaustive::optimum(
            instance,
            &candidates,
            incumbent.clone(),
            // With a step count instead of a time, the exact search's effort follows it.
            budget
                .steps
                .map_or(EXACT_NODES, |s| s.saturating_mul(20).min(EXACT_NODES)),
            exact_deadline,
        ) {
            Outcome::Optimal(cost, pieces) => {
                let solved = finish(instance, pieces, cost);
                return done(solved, candidates);
            }
            Outcome::Infeasible => return done(Err(SolveError::Infeasible), candidates),
            Outcome::Unfinished => {}
        }
    }

    let Some((cost, pieces)) = incumbent else {
        let king = instance.kings().iter().next().unwrap_or(Square::new(0, 0));
        return done(Err(SolveError::NotFound(king)), candidates);
    };
    Prepared {
        instance,
        candidates,
        state: State::Open {
            cost,
            pieces,
            lower_bound,
        },
    }
}

impl Prepared<'_> {
    /// True when the test needs no search: solved to optimality, or with no answer possible.
    pub fn is_done(&self) -> bool {
        matches!(self.state, State::Done(_))
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
        let deadline = budget.steps.is_none().then(|| start + budget.time);
        let mut searches = self.searches(seed, deadline.map(|d| start + (d - start) / 4));
        self.search(&mut searches, budget.steps, deadline);
        self.conclude(&searches)
    }

    /// The searches of an open test, one per thread: the first from the first answer, the
    /// others from randomised greedy answers (built by `greedy_deadline` at the latest), so
    /// that they search different regions. None for a test that is done.
    fn searches(&self, seed: u64, greedy_deadline: Option<Instant>) -> Vec<Search<'_, ChaCha8Rng>> {
        use rayon::prelude::*;
        let State::Open { pieces, .. } = &self.state else {
            return Vec::new();
        };
        let threads = rayon::current_num_threads().clamp(1, 2) as u64;
        let start_board = board_with(self.instance, pieces);
        (0..threads)
            .into_par_iter()
            .map(|t| {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(seed ^ (t + 1).wrapping_mul(0xA076_1D64_78BD_642F));
                let mut board = start_board.clone();
                if t > 0 {
                    let mut b = Board::new(self.instance);
                    if greedy(&mut b, &self.candidates, 0.3, &mut rng, greedy_deadline) {
                        prune(&mut b);
                        board = b;
                    }
                }
                Search::new(board, &self.candidates, rng)
            })
            .collect()
    }

    /// Runs the searches on, in parallel, for `steps` more steps each or until `deadline`;
    /// returns the best cost found (u64::MAX when there is no search).
    fn search(
        &self,
        searches: &mut [Search<'_, ChaCha8Rng>],
        steps: Option<u64>,
        deadline: Option<Instant>,
    ) -> u64 {
        use rayon::prelude::*;
        let target = match &self.state {
            State::Open { lower_bound, .. } => *lower_bound,
            State::Done(_) => return u64::MAX,
        };
        let limits = Limits {
            steps: steps.unwrap_or(UNLIMITED),
            deadline,
            target,
        };
        // The local search first, then large-neighbourhood moves on its best answer.
        let now = Instant::now();
        let limits = Limits {
            deadline: deadline
                .map(|d| now + d.saturating_duration_since(now).mul_f64(1.0 - POLISH_SHARE)),
            ..limits
        };
        let tries = steps.map_or(u64::MAX, |n| n / STEPS_PER_POLISH);
        let stop = AtomicBool::new(false);
        searches
            .par_iter_mut()
            .map(|s| {
                s.resume(&limits, &stop);
                s.polish(tries, deadline, target)
            })
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The best of the first answer and the searches' answers, verified.
    fn conclude(&self, searches: &[Search<'_, ChaCha8Rng>]) -> Result<Solution, SolveError> {
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

/// A board holding `pieces`.
fn board_with(instance: &Instance, pieces: &[Placement]) -> Board {
    let mut b = Board::new(instance);
    let mut scratch = Vec::new();
    for p in pieces {
        let cell = b.cell(p.square);
        if b.is_empty(cell) {
            b.place(p.kind, cell, &mut scratch);
        }
    }
    b
}

/// The plain greedy answer, the baseline the optimiser is measured against: again and again
/// the piece with the lowest price per newly checked king, counted on the current board,
/// until every king is in check. No removal of redundant pieces, no search.
pub fn plain_greedy(instance: &Instance) -> Result<Solution, SolveError> {
    let candidates = Candidates::new(instance);
    if instance.king_count() == 0 {
        let kind = cheapest_kind(instance);
        let pieces = vec![Placement {
            kind,
            square: Square::new(0, 0),
        }];
        return finish(instance, pieces, u64::from(instance.cost(kind)));
    }
    let mut board = Board::new(instance);
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let pieces = if greedy(&mut board, &candidates, 0.0, &mut rng, None) {
        board.placements()
    } else {
        fallback(instance, &candidates)
    };
    let upper = board.cost();
    let lower_bound = Relaxation::new(instance, &candidates).lower_bound(upper, 300, None);
    finish(instance, pieces, lower_bound)
}

/// Verifies an answer and wraps it; a failed verification falls back to the simple answer.
fn finish(
    instance: &Instance,
    pieces: Vec<Placement>,
    lower_bound: u64,
) -> Result<Solution, SolveError> {
    match verify(instance, &pieces) {
        Ok(_) => Ok(Solution {
            answer: Answer::new(instance, pieces),
            lower_bound,
        }),
        Err(_) => {
            let candidates = Candidates::new(instance);
            let simple = fallback(instance, &candidates);
            match verify(instance, &simple) {
                Ok(_) if !simple.is_empty() => Ok(Solution {
                    answer: Answer::new(instance, simple),
                    lower_bound: 0,
                }),
                _ => {
                    let king = instance.kings().iter().next().unwrap_or(Square::new(0, 0));
                    Err(SolveError::NotFound(king))
                }
            }
        }
    }
}

/// The cheapest kind (the first in the statement's order among equals).
fn cheapest_kind(instance: &Instance) -> PieceKind {
    PieceKind::ALL
        .into_iter()
        .min_by_key(|&k| (instance.cost(k), k))
        .unwrap_or(PieceKind::Horse)
}

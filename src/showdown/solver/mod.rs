//! The optimiser: a lower bound, an exact search where the board is small, otherwise a greedy
//! construction improved by local search on both cores, stopping early when the answer's cost
//! meets the lower bound. Every answer returned has passed [`super::judge::verify`].

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(target_family = "wasm"))]
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::board::Board;
use super::bounds::Relaxation;
use super::candidates::Candidates;
use super::construction::{complete_by_leaps, fallback, greedy, leap_answer, prune};
use super::deadline::Deadline;
use super::exhaustive::{self, Outcome};
use super::journal::Recorder;
use super::judge::verify;
use super::local_search::{Limits, Search};
use super::progress::Progress;
use super::{Answer, Instance, Placement, STATEMENT_SIDES, score};

mod first;
mod prepared;

use first::{bound_told, cheapest_kind, finish, first_answer_told};
pub use first::{first_answer, plain_greedy, plain_greedy_within, quick_answer};
pub use prepared::{Prepared, prepare};
use prepared::{State, part_of, prepare_within};

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
/// The first part of each call's local search that explores, its moves allowed above the best
/// answer's cost (see [`crate::showdown::local_search::SLACK`]).
const EXPLORE_PART: f64 = 0.375;
/// Local-search steps when no step count is given: effectively unlimited, time decides.
const UNLIMITED: u64 = u64::MAX;

/// Solves one test within its budget. `seed` fixes every random choice: with
/// `budget.steps` set, the answer depends on the seed and on whether rayon's pool has one
/// thread or more (one search per thread, at most two), not on the machine's speed (unless
/// `budget.time` runs out first).
///
/// The answer has passed [`super::judge::verify`], and its `lower_bound` is certified. Fails
/// only when no arrangement checks every king ([`SolveError`]): a king with no empty
/// neighbour that no piece can check from anywhere.
pub fn solve(instance: &Instance, budget: &Budget, seed: u64) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let prepared = prepare(instance, budget, seed);
    let left = Budget {
        time: budget.time.saturating_sub(start.elapsed()),
        steps: budget.steps,
    };
    prepared.finish(&left, seed)
}

/// The part of the first round's time in the whole search time (see [`solve_input`]).
const FIRST_ROUND: f64 = 0.4;
/// The part of the second round's time shared equally among the open tests; the rest goes by
/// each test's weight (see [`solve_input`]).
const EQUAL_SHARE: f64 = 0.25;
/// The improvement a test is credited with before any is seen, as a part of its score.
const PRIOR_GAIN: f64 = 0.002;
/// On boards larger than [`ALWAYS_GREEDY_SIDE`], the least time the first answer of a test
/// may take, even past the time limit (by at most this much).
pub const FIRST_ANSWER_MIN: Duration = Duration::from_millis(80);

/// Solves every test of an input within `time_limit` in all, handing each answer to `each`
/// (test number from 1, answer) in order. See [`solve_input`], which this calls with no stop
/// flag and no progress.
pub fn solve_all<E>(
    instances: &[Instance],
    time_limit: Duration,
    steps: Option<u64>,
    seed: u64,
    mut each: impl FnMut(usize, Result<Solution, SolveError>) -> Result<(), E>,
) -> Result<(), E> {
    let settings = Settings {
        time_limit,
        steps,
        seed,
        ..Settings::default()
    };
    solve_input(instances, &settings, |i, solved, _| each(i, solved)).map(|_| ())
}

/// How [`solve_input`] and [`greedy_input`] work through an input.
#[derive(Copy, Clone, Debug, Default)]
pub struct Settings<'a> {
    /// The time for the whole input, from the call; it bounds every part of the run.
    pub time_limit: Duration,
    /// When set, each search makes exactly this many local-search steps per thread (unless
    /// the time limit runs out first), and the answers depend only on `seed`.
    pub steps: Option<u64>,
    /// The seed of every random choice.
    pub seed: u64,
    /// Raised from outside (Ctrl-C): every test is then answered at once with the best answer
    /// it holds.
    pub stop: Option<&'a AtomicBool>,
    /// Where to report the run's state, for a progress display.
    pub progress: Option<&'a Progress>,
    /// Where to leave the story of each test solved by the search, for a trace
    /// ([`crate::showdown::trace`]); the tests given a quick answer have none.
    pub trace: Option<&'a Recorder>,
}

/// How a run ended (every test was answered, unless `unread`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Ending {
    /// The stop flag was raised: the answers are the best held at that moment.
    pub interrupted: bool,
    /// With a step count: the time limit ran out before every step was made, so the answers
    /// depend on the machine's speed.
    pub steps_cut: bool,
    /// The stop flag was raised while the input was being read: nothing was answered (an
    /// input is answered only once it has been read and checked whole).
    pub unread: bool,
}

impl Settings<'_> {
    /// The deadline of the whole run started at `start`: the time limit and the stop flag.
    fn deadline(&self, start: Instant) -> Deadline<'_> {
        let hard = Deadline::NEVER.within(start, self.time_limit);
        match self.stop {
            Some(flag) => hard.or_stop(flag),
            None => hard,
        }
    }

    /// The deadline of a run over `instances` that starts now (see [`Settings::deadline`]),
    /// the progress told of the tests.
    fn begin(&self, instances: &[Instance]) -> Deadline<'_> {
        let start = Instant::now();
        let hard = self.deadline(start);
        if let Some(progress) = self.progress {
            let sides: Vec<usize> = instances.iter().map(Instance::side).collect();
            // Each open test's searches, one per thread (at most two), make the steps each.
            let searches = rayon::current_num_threads().clamp(1, 2) as u64;
            let steps_each = self.steps.map_or(0, |n| n.saturating_mul(searches));
            progress.begin(&sides, start, hard.moment(), steps_each);
        }
        hard
    }

    /// `each`, called with the tests numbered from 1, the progress told of every answer first.
    fn hand_out<E>(
        &self,
        mut each: impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
    ) -> impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E> {
        let progress = self.progress;
        move |i, solved, more| {
            if let (Some(progress), Ok(solution)) = (progress, &solved) {
                progress.answered(i, solution.answer.cost, solution.lower_bound);
            }
            each(i + 1, solved, more)
        }
    }

    /// The seed of the test at index `i` (see [`test_seed`]).
    fn seed_of(&self, i: usize) -> u64 {
        test_seed(self.seed, i as u64 + 1)
    }

    /// Each test's equal share of the time.
    fn share(&self, tests: usize) -> Duration {
        self.time_limit / u32::try_from(tests.max(1)).unwrap_or(u32::MAX)
    }

    fn ending(&self, hard: &Deadline<'_>) -> Ending {
        Ending {
            interrupted: hard.stopped(),
            steps_cut: self.steps.is_some() && hard.left().is_some_and(|l| l.is_zero()),
            unread: false,
        }
    }
}

/// The seed of test `case` (numbered from 1) of a run with `seed`, in the optimiser and in
/// the proof mode alike: the test's number times 2^64 divided by the golden ratio, mixed into
/// the run's seed. Consecutive numbers land far apart in every bit, so each test draws random
/// numbers of its own, and they depend only on the run's seed and the test's place in the
/// input.
pub(crate) fn test_seed(seed: u64, case: u64) -> u64 {
    seed ^ case.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// Boards up to this side (the statement's largest) always get the whole plain greedy as their
/// first answer, whatever the time limit: it takes about a millisecond there (25 ms at most
/// on the boards measured), and so no answer is ever worse than `--greedy`'s.
pub const ALWAYS_GREEDY_SIDE: usize = STATEMENT_SIDES.1;

/// The deadline of the first answer of a test of side `side`, whose work starts at `from`:
/// on boards up to [`ALWAYS_GREEDY_SIDE`] only the stop flag; on larger ones a quarter of the
/// test's `share` of the time but at least [`FIRST_ANSWER_MIN`], and no later than
/// [`FIRST_ANSWER_MIN`] after the end of the run (`hard`), which alone counts with a step
/// count.
fn first_answer_deadline<'a>(
    hard: Deadline<'a>,
    side: usize,
    from: Instant,
    share: Duration,
    steps: Option<u64>,
) -> Deadline<'a> {
    if side <= ALWAYS_GREEDY_SIDE {
        return match hard.flag() {
            Some(flag) => Deadline::NEVER.or_stop(flag),
            None => Deadline::NEVER,
        };
    }
    let latest = hard.later_by(FIRST_ANSWER_MIN);
    match steps {
        Some(_) => latest,
        None => latest.within(from, (share / 4).max(FIRST_ANSWER_MIN)),
    }
}

/// The most board cells (each side padded by 4, as in [`Board`]) of the tests solved side by
/// side in one window of [`solve_input`]: their search structures (two searches of a board
/// each, about 80 bytes a cell, and the candidate sets) are built when the window begins and
/// freed when it ends, so memory does not grow with the number of tests. About 3 boards of
/// 256x256, 300 of 25x25 (every input the statement allows is one window), 7,000 of 2x2.
pub const WINDOW_CELLS: usize = 1 << 18;
/// The most cells of the tests answered side by side by [`greedy_input`] and by the quick
/// answers (at least one test per thread): enough for both threads to share the work of
/// small tests (with 2^14, on a million 2x2 boards, one of them was seldom woken in time),
/// few enough that an answer is written within tens of milliseconds of being known.
const GREEDY_WINDOW_CELLS: usize = 1 << 17;

/// The end of the window of tests that starts at `from`: as many tests as fit in `cells`
/// padded cells, at least one per thread (so that both cores work on large boards too).
fn window_end(instances: &[Instance], from: usize, cells: usize) -> usize {
    let least = rayon::current_num_threads().max(1);
    let mut used = 0usize;
    let mut to = from;
    while let Some(instance) = instances.get(to) {
        let padded = (instance.side() + 4).pow(2);
        if to >= from + least && used + padded > cells {
            break;
        }
        used += padded;
        to += 1;
    }
    to
}

/// Solves every test of an input, handing each answer to `each` (test number from 1, answer,
/// and whether another answer follows at once, so that a writer may flush once for them
/// all) in order, within `settings.time_limit` in all, except for the first answers (on
/// boards up to [`ALWAYS_GREEDY_SIDE`] the whole greedy, a millisecond or so a board; on
/// larger ones at most [`FIRST_ANSWER_MIN`] past the limit).
///
/// The tests are taken in windows of consecutive tests ([`WINDOW_CELLS`]: every input of the
/// statement is one window), each solved as follows, its search structures freed before the
/// next begins. Every test of the window is first [prepared](prepare) (both cores): its
/// first answer (the plain greedy, the answer of [`greedy_input`], so no answer is ever
/// worse than that one), its lower bound, and on small boards the exact search, each with a
/// part of the test's equal share of the whole time. The tests solved already at the start
/// of the window are handed out at once. The window's part of the time left, in proportion to
/// its tests among those left, is then spent in two rounds. In the first, every open test
/// gets an equal share, in two halves; in the second, the searches go on where they stopped:
/// a part of the time is shared equally again, the rest in proportion to a weight in score
/// (cost / n²): what the test gained in the second half of its first round, plus how far
/// apart its searches' answers are, plus a small part of its score. So the time goes to the
/// tests whose score still falls or whose searches disagree, in proportion to what they
/// weigh in the total, not to those already settled; a test that finishes early leaves its
/// time to those after it. With `steps` set, the time only cuts the run short: each search
/// makes that many steps, and the answers depend only on the seed.
///
/// When the stop flag is raised, every test is answered at once with the best answer it
/// holds. The tests not begun then, or once the time left until [`FIRST_ANSWER_MIN`] past
/// the limit is what their quick answers take (40 ns a cell of the padded board, side + 4
/// squared, shared among the threads; each window's searches leave that time to the tests after it), get a
/// [`quick_answer`]. No work per test grows
/// with the number of tests.
pub fn solve_input<E>(
    instances: &[Instance],
    settings: &Settings<'_>,
    each: impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<Ending, E> {
    let hard = settings.begin(instances);
    let mut hand_out = settings.hand_out(each);
    let late = hard.later_by(FIRST_ANSWER_MIN);
    let mut cells_left: u64 = instances.iter().map(padded_cells).sum();
    let mut from = 0;
    let mut quick = false;
    while from < instances.len() {
        // The quick answers of the tests left must end by `late`.
        if earlier(late, quick_reserve(cells_left)).passed() {
            quick = true;
            quick_answers(instances, from, &mut hand_out)?;
            break;
        }
        let to = window_end(instances, from, WINDOW_CELLS);
        cells_left -= instances[from..to].iter().map(padded_cells).sum::<u64>();
        // The window leaves the time of the quick answers of the tests after it.
        let window_hard = earlier(hard, quick_reserve(cells_left));
        solve_window(instances, from..to, settings, window_hard, &mut hand_out)?;
        from = to;
    }
    let mut ending = settings.ending(&hard);
    ending.steps_cut |= quick && settings.steps.is_some();
    Ok(ending)
}

/// The CPU time of a [`quick_answer`] per padded cell (side + 4, squared) of its board, its
/// verification and writing included, with a margin: measured 20 to 30 ns on the 2-core
/// machine of the figures in docs/benchmarks.md (a million 2x2 boards, 400 of 256x256).
const QUICK_NANOS_PER_CELL: u64 = 40;

/// The padded cells of a test's board, the measure of its work and memory.
fn padded_cells(instance: &Instance) -> u64 {
    (instance.side() as u64 + 4).pow(2)
}

/// The time the quick answers of tests holding `cells` padded cells take on every thread.
fn quick_reserve(cells: u64) -> Duration {
    let threads = rayon::current_num_threads().max(1) as u64;
    Duration::from_nanos(cells.saturating_mul(QUICK_NANOS_PER_CELL) / threads)
}

/// `hard`, `reserve` earlier (its flag kept).
fn earlier(hard: Deadline<'_>, reserve: Duration) -> Deadline<'_> {
    match hard.moment() {
        Some(at) => hard.no_later_than(at.checked_sub(reserve).unwrap_or(at)),
        None => hard,
    }
}

/// Answers the tests from `from` on with [`quick_answer`], a few at a time in parallel, in
/// order.
fn quick_answers<E>(
    instances: &[Instance],
    from: usize,
    hand_out: &mut impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<(), E> {
    pipelined(
        instances,
        from,
        |instance, _| quick_answer(instance),
        hand_out,
    )
}

/// Answers the tests from `from` on with `answer` (given the padded cells of the tests after
/// the window, see [`quick_reserve`]), in windows of [`GREEDY_WINDOW_CELLS`] solved in
/// parallel, handing the answers out in order on this thread while the next windows are
/// solved (on an input of a million small tests, writing the answers takes as long as
/// finding them).
fn pipelined<E>(
    instances: &[Instance],
    from: usize,
    answer: impl Fn(&Instance, u64) -> Result<Solution, SolveError> + Sync,
    hand_out: &mut impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<(), E> {
    // Without threads (WebAssembly in a browser) the same windows are solved and handed out
    // in turn, on this thread.
    #[cfg(target_family = "wasm")]
    {
        use rayon::prelude::*;
        let mut at = from;
        let mut cells_left: u64 = instances[from..].iter().map(padded_cells).sum();
        while at < instances.len() {
            let to = window_end(instances, at, GREEDY_WINDOW_CELLS);
            cells_left -= instances[at..to].iter().map(padded_cells).sum::<u64>();
            let answers: Vec<Result<Solution, SolveError>> = instances[at..to]
                .par_iter()
                .map(|instance| answer(instance, cells_left))
                .collect();
            for (i, solved) in (at..to).zip(answers) {
                hand_out(i, solved, i + 1 < to)?;
            }
            at = to;
        }
        Ok(())
    }
    #[cfg(not(target_family = "wasm"))]
    {
        pipelined_on_a_thread(instances, from, &answer, hand_out)
    }
}

/// [`pipelined`] with the windows solved on a thread of their own.
#[cfg(not(target_family = "wasm"))]
fn pipelined_on_a_thread<E>(
    instances: &[Instance],
    from: usize,
    answer: &(impl Fn(&Instance, u64) -> Result<Solution, SolveError> + Sync),
    hand_out: &mut impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    type Window = (std::ops::Range<usize>, Vec<Result<Solution, SolveError>>);
    // Two windows ahead at most: memory stays bounded.
    let (send, receive) = mpsc::sync_channel::<Window>(2);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let mut at = from;
            let mut cells_left: u64 = instances[from..].iter().map(padded_cells).sum();
            while at < instances.len() {
                let to = window_end(instances, at, GREEDY_WINDOW_CELLS);
                cells_left -= instances[at..to].iter().map(padded_cells).sum::<u64>();
                let answers = instances[at..to]
                    .par_iter()
                    .map(|instance| answer(instance, cells_left))
                    .collect();
                // The receiver gone (a failed write), nothing more is wanted.
                if send.send((at..to, answers)).is_err() {
                    return;
                }
                at = to;
            }
        });
        // Dropped on return, which ends the solving thread at its next window.
        let receive = receive;
        for (window, answers) in receive.iter() {
            let end = window.end;
            for (i, solved) in window.zip(answers) {
                hand_out(i, solved, i + 1 < end)?;
            }
        }
        Ok(())
    })
}

/// One window of [`solve_input`]: the tests `window` (numbered from 0 in the whole input).
fn solve_window<E>(
    instances: &[Instance],
    window: std::ops::Range<usize>,
    settings: &Settings<'_>,
    hard: Deadline<'_>,
    hand_out: &mut impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<(), E> {
    use rayon::prelude::*;
    let steps = settings.steps;
    let share = settings.share(instances.len());
    let progress = settings.progress;
    let late = hard.later_by(FIRST_ANSWER_MIN);
    let first = window.start;
    let told = settings.trace.map(|r| r.limit);
    let prepared: Vec<Prepared> = instances[window.clone()]
        .par_iter()
        .enumerate()
        .map(|(j, instance)| {
            let i = first + j;
            // Past the limit, the tests not begun get the quick answer.
            let p = if late.passed() {
                Prepared {
                    instance,
                    candidates: None,
                    state: State::Done(quick_answer(instance)),
                    story: None,
                }
            } else {
                prepare_within(instance, share, hard, steps, told)
            };
            if let (Some(progress), Some((cost, bound))) = (progress, p.standing()) {
                progress.update(i, cost, bound);
            }
            p
        })
        .collect();
    // Hands out the answers in order, as soon as each is final.
    let mut written = 0;
    while written < prepared.len() && prepared[written].is_done() {
        let more = prepared.get(written + 1).is_some_and(Prepared::is_done);
        if let Some(recorder) = settings.trace {
            prepared[written].tell(recorder, first + written, &[]);
        }
        hand_out(first + written, prepared[written].conclude(&[]), more)?;
        written += 1;
    }
    if written == prepared.len() {
        return Ok(());
    }
    // The window's part of the time left: its tests among those left.
    let window_time = match hard.left() {
        Some(left) => {
            let remaining = (instances.len() - first) as f64;
            part_of(left, prepared.len() as f64 / remaining)
        }
        None => Duration::MAX,
    };
    let end = hard.within(Instant::now(), window_time);
    let left = || end.left().unwrap_or(Duration::MAX);
    let open = prepared.iter().filter(|p| !p.is_done()).count();
    let round = part_of(left(), FIRST_ROUND) / u32::try_from(open.max(1)).unwrap_or(u32::MAX);
    // First round, and the weight of each test.
    let mut searches = Vec::with_capacity(prepared.len());
    let mut weights = vec![0.0f64; prepared.len()];
    for (j, p) in prepared.iter().enumerate() {
        if p.is_done() || end.passed() {
            searches.push(Vec::new());
            continue;
        }
        let now = Instant::now();
        let deadline = |part: f64| match steps {
            Some(_) => hard,
            None => end.within(now, part_of(round, part)),
        };
        let mut s = p.searches(settings.seed_of(first + j), deadline(0.25));
        if let Some(progress) = progress {
            for search in &mut s {
                search.report_to(progress, first + j);
            }
        }
        if !s.is_empty() {
            let first_steps = steps.map(|n| n / 2);
            let half = p.search(&mut s, first_steps, deadline(0.5));
            let last = p.search(&mut s, steps.map(|n| n - n / 2), deadline(1.0));
            let worst = s.iter().map(Search::best_cost).max().unwrap_or(last);
            let side = p.instance.side();
            weights[j] = score(half.saturating_sub(last), side)
                + score(worst - last, side)
                + PRIOR_GAIN * score(last, side);
            if let (Some(progress), Some((_, bound))) = (progress, p.standing()) {
                progress.update(first + j, last, bound);
            }
        }
        searches.push(s);
    }
    // The weights of the tests still to come in the second round (a sum from the right,
    // so that each test's part costs no pass over the others).
    let mut weights_after = vec![0.0f64; weights.len() + 1];
    for j in (0..weights.len()).rev() {
        weights_after[j] = weights_after[j + 1] + weights[j];
    }
    // Second round, each answer handed out as soon as its search ends.
    let mut still_open = searches.iter().filter(|s| !s.is_empty()).count().max(1);
    let searched: Vec<bool> = searches.iter().map(|s| !s.is_empty()).collect();
    let searches_on = |j: usize| steps.is_none() && searched[j] && !end.passed();
    for (j, (p, mut s)) in prepared.iter().zip(searches).enumerate().skip(written) {
        if searches_on(j) {
            let total = weights_after[j];
            let part = if total > 0.0 {
                EQUAL_SHARE / still_open as f64 + (1.0 - EQUAL_SHARE) * weights[j] / total
            } else {
                1.0 / still_open as f64
            };
            let deadline = end.within(Instant::now(), part_of(left(), part));
            p.search(&mut s, None, deadline);
            still_open = still_open.saturating_sub(1).max(1);
        }
        let more = j + 1 < searched.len() && !searches_on(j + 1);
        if let Some(recorder) = settings.trace {
            p.tell(recorder, first + j, &s);
        }
        hand_out(first + j, p.conclude(&s), more)?;
    }
    Ok(())
}

/// Answers every test with the plain greedy ([`plain_greedy_within`]), the baseline of the
/// measurements, handing each answer to `each` in order: the tests are solved a few at a
/// time in parallel, each greedy within the deadline of a first answer of [`solve_input`]
/// (cut short, it is completed by [`complete_by_leaps`]), its lower bound within a tenth of
/// the test's share of the time. As there, the tests not begun when the stop flag is raised,
/// or once only the time of their quick answers is left, get a [`quick_answer`].
pub fn greedy_input<E>(
    instances: &[Instance],
    settings: &Settings<'_>,
    each: impl FnMut(usize, Result<Solution, SolveError>, bool) -> Result<(), E>,
) -> Result<Ending, E> {
    let hard = settings.begin(instances);
    let late = hard.later_by(FIRST_ANSWER_MIN);
    let share = settings.share(instances.len());
    let mut hand_out = settings.hand_out(each);
    let answer = |instance: &Instance, cells_after: u64| {
        if earlier(late, quick_reserve(cells_after)).passed() {
            return quick_answer(instance);
        }
        let now = Instant::now();
        let first = first_answer_deadline(hard, instance.side(), now, share, settings.steps);
        plain_greedy_within(instance, first, hard.within(now, share / 10))
    };
    pipelined(instances, 0, answer, &mut hand_out)?;
    Ok(settings.ending(&hard))
}

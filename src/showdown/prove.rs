//! Proofs of optimality: the [MILP](super::model) solved by HiGHS (cargo feature `milp`).
//!
//! [`prove`] starts from an answer (the optimiser's) and either proves it optimal, or finds a
//! cheaper one, or stops at its time limit with the best answer found and a certified lower
//! bound. Two schemes ([`Scheme`]):
//! - **exact** (the default): the exact rows of every king from the start, one solve.
//! - **lazy**: the covering relaxation first; the kings its answer does not really check on
//!   the final board (nor the answers the solver found on its way) get their exact rows and
//!   the model is solved again, until an answer of the model is valid (it is then optimal) or
//!   the time is up. Every round's model is a relaxation, so its dual bound bounds every
//!   answer; a round's answers that are valid (checked by the judge) are answers; an invalid
//!   one is also completed by the exact branch and bound, which may give a cheaper valid
//!   answer.
//!
//! Honesty: an answer is called optimal only when HiGHS reports the model optimal with no gap
//! left and the model's answer is valid, or when the answer's cost meets a certified bound.
//! A solve stopped by its time limit or by an interrupt gives its dual bound, rounded down
//! with room for the solver's tolerances, never "optimal". Every answer returned has passed
//! [`judge::verify`](super::judge::verify).

use std::collections::{BTreeMap, VecDeque};
use std::ffi::{c_char, c_int, c_void};
use std::io::{Read, Write};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use highs::{HighsModelStatus, RowProblem, Sense};

use super::board::Board;
use super::candidates::Candidates;
use super::construction::prune;
use super::deadline::Deadline;
use super::exhaustive;
use super::instance::{Answer, Instance, Placement};
use super::judge::verify;
use super::model::Model;
use super::reader::Reader;
use super::solver::{self, Budget, Solution};
use super::{Options, write_solution};
use crate::error::{ParseError, ParseErrorKind, RunError};
use crate::input::Scanner;

/// How the MILP is set up.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub enum Scheme {
    /// Every king's exact rows from the start (the default: on the dense benchmark set it
    /// proves every test the lazy scheme proves and one more, with tighter bounds elsewhere).
    #[default]
    Exact,
    /// The covering relaxation, then exact rows for the kings its answers leave unchecked,
    /// round after round.
    Lazy,
}

/// Why a MILP solve failed (a proof then ends with what it has).
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProveError {
    /// HiGHS refused the model or failed while solving it.
    #[error("the MILP solver failed: {0}")]
    Solver(String),
}

/// How a proof ended.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Ending {
    /// The answer is proven optimal.
    Optimal,
    /// The time limit came first.
    TimeLimit,
    /// The caller's interrupt flag was raised.
    Interrupted,
    /// The solver stopped for another reason, or failed (said in the message).
    Stopped(String),
    /// The model was too large to hand to the solver in the time left (`left`), so no MILP
    /// ran (in [`run`], the optimiser then has the rest of the test's time).
    TooLarge {
        /// The model's nonzeros.
        nonzeros: usize,
        /// The time that was left.
        left: Duration,
    },
}

/// The result of [`prove`].
#[derive(Clone, Debug)]
pub struct Proof {
    /// The best answer found (verified) and the certified lower bound; `optimal()` is true
    /// exactly when the answer is proven optimal.
    pub solution: Solution,
    /// How it ended.
    pub ending: Ending,
    /// How many MILP solves were made.
    pub rounds: u32,
    /// How many kings had exact rows in the last model.
    pub exact_kings: usize,
    /// How many kings the test has.
    pub kings: usize,
}

/// What [`prove`] reports while it works: the best answer's cost and the best bound so far.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Progress {
    /// The cost of the best valid answer.
    pub cost: u64,
    /// The certified lower bound.
    pub lower_bound: u64,
    /// The MILP solve under way, from 1.
    pub round: u32,
}

/// The relative room left below a solver's dual bound for its floating-point tolerances.
const BOUND_TOLERANCE: f64 = 1e-6;
/// About the rate at which HiGHS presolved the largest models (17.7 million nonzeros in 7.6 s
/// on a 2-core machine; a 256x256 board): a model with more nonzeros than this times the
/// seconds left is not handed to the solver, whose set-up and presolve do not stop on time
/// and could not give a bound in that time anyway.
const PRESOLVE_NONZEROS_PER_SECOND: f64 = 2.0e6;
/// The slowest rate at which HiGHS's presolve was seen to work through a model (a 100x100
/// board with 2% kings: 1.4 million nonzeros, 2.3 to 2.4 s when it did not stop at its time
/// limit, one of its steps not looking at the clock; 0.9 s when it did). A model handed over
/// with less time left than this rate allows is solved without presolve.
const PRESOLVE_SURE_NONZEROS_PER_SECOND: f64 = 5.0e5;
/// About the slowest rate at which HiGHS's symmetry detection and feasibility jump (a primal
/// heuristic run once before the root LP, whose work limit is a multiple of the nonzeros)
/// work through a model, neither looking at the clock: on the same board, with 0.78 s left at
/// the hand-over, the feasibility jump ran 9 to 13 s in some runs and symmetry detection
/// seconds in others. A model handed over with less time left than this rate allows is solved
/// without them (the warm start is an answer already).
const HURRIED_NONZEROS_PER_SECOND: f64 = 1.0e5;
/// A model of more nonzeros than this is freed on a thread of its own once its proof has
/// ended, so that the answer is not held up: freeing the model of a 160x160 board with 1%
/// kings (4.1 million nonzeros) took 0.33 s.
const FREE_ASIDE_NONZEROS: usize = 200_000;
/// The node limit of the branch and bound that completes a relaxation's answer.
const REPAIR_NODES: u64 = 20_000;

/// The largest cost that a solver's dual bound `value` certifies for `instance`: any answer
/// costs at least the bound rounded up (once the tolerances are allowed for) to a multiple of
/// the prices' greatest common divisor ([`Instance::least_cost_from`]).
pub fn certified(instance: &Instance, value: f64) -> u64 {
    if !value.is_finite() || value <= 0.0 {
        return 0;
    }
    let safe = value - BOUND_TOLERANCE * value.max(1.0);
    instance.least_cost_from(safe.ceil().max(0.0) as u64)
}

/// How [`prove`] works: the model's scheme, when it ends, and how HiGHS solves.
#[derive(Copy, Clone, Debug)]
pub struct Settings<'a> {
    /// How the MILP is set up.
    pub scheme: Scheme,
    /// The proof ends here with what it has.
    pub deadline: Instant,
    /// HiGHS's random choices.
    pub seed: u64,
    /// Above 1, HiGHS's parallel tree search on that many threads.
    pub threads: NonZeroU32,
    /// Raised from outside (Ctrl-C): the proof ends with what it has.
    pub interrupt: &'a AtomicBool,
}

/// Proves `start` optimal or improves it, until `settings.deadline` or until
/// `settings.interrupt` is raised. `progress` is called now and then from the calling thread.
/// Each solve runs on a thread of its own; one that has not stopped 0.1 s after the deadline
/// (or the interrupt) is left to stop on its own, and the proof ends with what it reported
/// (see [`solves_left_running`]).
pub fn prove(
    instance: &Instance,
    start: &Solution,
    settings: &Settings<'_>,
    progress: &mut dyn FnMut(Progress),
) -> Proof {
    let &Settings {
        scheme,
        deadline,
        seed,
        threads,
        interrupt,
    } = settings;
    let mut best = start.answer.clone();
    let mut bound = start.lower_bound;
    let mut rounds = 0;
    let mut model = Model::new(instance);
    model.add_covers();
    if scheme == Scheme::Exact {
        model.add_exact_all();
    }
    let candidates = Candidates::new(instance.kings());
    let ending = loop {
        if best.cost <= bound {
            break Ending::Optimal;
        }
        if interrupt.load(Ordering::Relaxed) {
            break Ending::Interrupted;
        }
        let now = Instant::now();
        if now >= deadline {
            break Ending::TimeLimit;
        }
        let nonzeros = model.nonzeros();
        let left = deadline - now;
        if nonzeros as f64 > PRESOLVE_NONZEROS_PER_SECOND * left.as_secs_f64() {
            break if rounds == 0 {
                Ending::TooLarge { nonzeros, left }
            } else {
                Ending::TimeLimit
            };
        }
        rounds += 1;
        progress(Progress {
            cost: best.cost,
            lower_bound: bound,
            round: rounds,
        });
        let warm_start = model.undominated(&best.pieces);
        let warm = model.assignment(&warm_start);
        let round = match solve_model(
            &model,
            &warm,
            deadline,
            seed,
            threads,
            interrupt,
            &mut |dual| {
                progress(Progress {
                    cost: best.cost,
                    lower_bound: bound.max(certified(instance, dual)),
                    round: rounds,
                })
            },
        ) {
            Ok(round) => round,
            Err(e) => break Ending::Stopped(e.to_string()),
        };
        bound = bound.max(certified(instance, round.dual_bound));
        for values in &round.solutions {
            let pieces = model.pieces_of(values);
            consider(instance, &mut best, pieces);
        }
        let last = round.last.as_ref().map(|v| model.pieces_of(v));
        match round.status {
            HighsModelStatus::Optimal => {
                let Some(pieces) = last else {
                    break Ending::Stopped("optimal without a solution".into());
                };
                let valid = verify(instance, &pieces).is_ok();
                let cost = Answer::new(instance, pieces.clone()).cost;
                if valid && round.gap_closed {
                    // The relaxation's optimum is a valid answer: it is the optimum.
                    consider(instance, &mut best, pieces);
                    if best.cost == cost {
                        bound = bound.max(cost);
                    }
                    continue;
                }
                if !valid {
                    // The relaxation's optimum costs no more than the true optimum.
                    if round.gap_closed {
                        bound = bound.max(cost);
                    }
                    if let Some(repaired) =
                        repair(instance, &candidates, &pieces, best.cost, deadline)
                    {
                        consider(instance, &mut best, repaired);
                    }
                    // The last answer has a king without exact rows that it leaves
                    // unchecked (else the rows would have made it valid); so may the answers
                    // the solver found on its way, which the next model should not allow
                    // either: every such king gets its exact rows.
                    let unchecked = Model::unchecked_kings(instance, &pieces);
                    if unchecked.iter().all(|&k| model.is_exact(k)) {
                        break Ending::Stopped("an invalid answer despite exact rows".into());
                    }
                    let found: Vec<Vec<Placement>> =
                        round.solutions.iter().map(|v| model.pieces_of(v)).collect();
                    let on_its_way = found
                        .iter()
                        .flat_map(|answer| Model::unchecked_kings(instance, answer));
                    for k in unchecked.into_iter().chain(on_its_way) {
                        model.add_exact(k);
                    }
                    continue;
                }
                break Ending::Stopped("optimal with a gap".into());
            }
            HighsModelStatus::ReachedTimeLimit => {
                break if interrupt.load(Ordering::Relaxed) {
                    Ending::Interrupted
                } else {
                    Ending::TimeLimit
                };
            }
            HighsModelStatus::ReachedInterrupt => {
                break if interrupt.load(Ordering::Relaxed) {
                    Ending::Interrupted
                } else {
                    Ending::TimeLimit
                };
            }
            other => break Ending::Stopped(status_name(other).into()),
        }
    };
    let exact_kings = (0..model.king_count())
        .filter(|&k| model.is_exact(k))
        .count();
    let ending = if best.cost <= bound {
        Ending::Optimal
    } else {
        ending
    };
    let kings = model.king_count();
    if model.nonzeros() > FREE_ASIDE_NONZEROS {
        // Should the thread not start, the closure and the model are dropped here.
        let _ = std::thread::Builder::new()
            .name("free-model".into())
            .spawn(move || drop((model, candidates)));
    }
    Proof {
        solution: Solution {
            lower_bound: bound.min(best.cost),
            answer: best,
        },
        ending,
        rounds,
        exact_kings,
        kings,
    }
}

/// The default time of a proof per test when no time limit is given.
pub const DEFAULT_TIME_PER_TEST: Duration = Duration::from_secs(60);
/// The part of a test's time the optimiser gets to find the answer the proof starts from.
const SEARCH_SHARE: f64 = 0.1;
/// The most time the optimiser gets per test (the MILP gains more from the rest).
const SEARCH_MOST: Duration = Duration::from_millis(8500);
/// The optimiser's time per test once interrupted: the tests left are answered quickly.
const AFTER_INTERRUPT: Duration = Duration::from_millis(100);

/// What [`run`] reports about each test. With several workers the tests' `Started` and
/// `Working` events interleave; `Done` comes in the order of the tests, as each answer is
/// written.
#[derive(Clone, Debug)]
pub enum Event<'a> {
    /// Test `case` of `total` starts (the optimiser first).
    Started {
        /// From 1.
        case: u64,
        /// How many tests the input holds.
        total: u64,
    },
    /// The proof of test `case` is under way.
    Working {
        /// From 1.
        case: u64,
        /// The best answer's cost and the bound so far.
        progress: Progress,
    },
    /// The proof of test `case` has ended (for now: a test left open may be proven again
    /// with time left over); its answer is written once those before it are.
    Ended {
        /// From 1.
        case: u64,
    },
    /// Test `case` is done and its answer written.
    Done {
        /// From 1.
        case: u64,
        /// Its proof.
        proof: &'a Proof,
    },
}

/// The time of a whole proof run.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum ProofTime {
    /// For the whole input, shared out among the tests still to come.
    Whole(Duration),
    /// For each test.
    PerTest(Duration),
}

impl ProofTime {
    /// The time of a proof that starts at `now`, when `waiting` proofs still want time (the
    /// jobs not started, this one among them, and the first proofs under way, which may come
    /// back open) and `workers` prove side by side: the time left over the rounds still to
    /// come, each worker taking one proof per round.
    fn share(self, end: Instant, now: Instant, waiting: usize, workers: usize) -> Duration {
        match self {
            ProofTime::PerTest(t) => t,
            ProofTime::Whole(_) => {
                let rounds = waiting.div_ceil(workers.max(1)).max(1);
                end.saturating_duration_since(now) / u32::try_from(rounds).unwrap_or(u32::MAX)
            }
        }
    }
}

/// `from + wait`, or a moment a century away when that cannot be represented.
fn later(from: Instant, wait: Duration) -> Instant {
    from.checked_add(wait)
        .or_else(|| from.checked_add(Duration::from_secs(100 * 365 * 86_400)))
        .unwrap_or(from)
}

/// One test read from the input, with where its board starts for messages about it.
struct Test {
    instance: Instance,
    position: crate::error::Position,
    context: String,
}

/// `showdown --prove`: for every test of `input`, the optimiser's answer (a tenth of the
/// test's time, at most 8.5 s), then [`prove`] with the rest, each answer written to `out`
/// in `options.format` in the order of the tests as soon as it and those before it are done
/// (`options.time_limit` is not used: `time` says). The whole input is read and checked
/// first. As many tests are proven side by side as rayon's pool has threads (`--threads`;
/// each proof and its MILP solve take one core; with fewer tests, the optimiser and HiGHS's
/// parallel tree search of each get the cores left over), in the order of the input.
/// `events` hears of each test's start, progress and end, from the workers' threads.
pub fn run<R: Read, W: Write>(
    input: R,
    out: &mut W,
    options: &Options,
    scheme: Scheme,
    time: ProofTime,
    interrupt: &AtomicBool,
    events: impl FnMut(Event<'_>) + Send,
) -> Result<(), RunError> {
    let mut reader = Reader::new(Scanner::new(input))?;
    let mut tests = Vec::new();
    while let Some(instance) = reader.next_instance()? {
        tests.push(Test {
            instance,
            position: reader.board_start(),
            context: reader.context(),
        });
    }
    let start = Instant::now();
    let end = later(
        start,
        match time {
            ProofTime::Whole(t) => t,
            ProofTime::PerTest(t) => {
                t.saturating_mul(u32::try_from(tests.len()).unwrap_or(u32::MAX))
            }
        },
    );
    let total = tests.len();
    let cores = rayon::current_num_threads().max(1);
    let workers = cores.min(total).max(1);
    let per_worker = (cores / workers).max(1);
    // HiGHS gets the worker's cores too: with fewer tests than threads (one test alone), each
    // is proven by its parallel tree search on the threads left over.
    let threads =
        NonZeroU32::new(u32::try_from(per_worker).unwrap_or(1)).unwrap_or(NonZeroU32::MIN);
    let events = Mutex::new(events);
    let report = |event: Event<'_>| {
        if let Ok(mut each) = events.lock() {
            each(event);
        }
    };
    // Raised by Ctrl-C (copied from `interrupt`) or when the run fails: the proofs under
    // way end with what they have and no test starts a proof.
    let halt = AtomicBool::new(false);
    let context = RunContext {
        options,
        scheme,
        threads,
        total: total as u64,
        halt: &halt,
        report: &report,
    };
    let jobs = Jobs::new(total);
    let (sender, receiver) = mpsc::channel::<Finished>();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let sender = sender.clone();
            let (tests, jobs, context, report) = (&tests, &jobs, &context, &report);
            scope.spawn(move || {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(per_worker)
                    .build();
                while let Some((job, waiting)) = jobs.take() {
                    let share = time.share(end, Instant::now(), waiting, workers);
                    let (i, first) = (job.index, job.first());
                    let case = i as u64 + 1;
                    let work = || match job.again {
                        None => context.prove_test(&tests[i], case, share),
                        Some(first) => {
                            Ok(context.prove_again(&tests[i].instance, first, case, share))
                        }
                    };
                    let proof = match &pool {
                        Ok(pool) => pool.install(work),
                        Err(_) => work(),
                    };
                    report(Event::Ended { case });
                    if first {
                        jobs.first_ended();
                    }
                    if sender
                        .send(Finished {
                            index: i,
                            first,
                            proof,
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut done = BTreeMap::new();
        let mut held: Vec<(usize, Proof)> = Vec::new();
        let mut written = 0;
        let mut failure = None;
        loop {
            let received = receiver.recv_timeout(Duration::from_millis(50));
            if interrupt.load(Ordering::Relaxed) {
                halt.store(true, Ordering::Relaxed);
            }
            match received {
                Ok(finished) => {
                    if finished.first {
                        jobs.first_reported();
                    }
                    match finished.proof {
                        // An open test of the first pass may get the time the others
                        // leave once every test has had its share.
                        Ok(proof)
                            if finished.first
                                && matches!(time, ProofTime::Whole(_))
                                && proof.ending == Ending::TimeLimit =>
                        {
                            held.push((finished.index, proof));
                        }
                        proof => {
                            done.insert(finished.index, proof);
                        }
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            let stopping = halt.load(Ordering::Relaxed) || failure.is_some();
            let time_left = end.saturating_duration_since(Instant::now()) >= SECOND_PASS_LEAST;
            if stopping || !time_left {
                for (i, proof) in held.drain(..).chain(jobs.withdraw_again()) {
                    done.insert(i, Ok(proof));
                }
            } else if jobs.first_all_taken() {
                jobs.give_again(held.drain(..));
            }
            jobs.close_when_done(held.is_empty());
            while failure.is_none() {
                let Some(proof) = done.remove(&written) else {
                    break;
                };
                let test: &Test = &tests[written];
                written += 1;
                let result = proof.and_then(|proof| {
                    write_solution(
                        out,
                        options.format,
                        written as u64,
                        &test.instance,
                        &proof.solution,
                    )
                    .and_then(|()| out.flush())
                    .map_err(RunError::Output)?;
                    report(Event::Done {
                        case: written as u64,
                        proof: &proof,
                    });
                    Ok(())
                });
                if let Err(e) = result {
                    failure = Some(e);
                    halt.store(true, Ordering::Relaxed);
                    jobs.cancel();
                }
            }
        }
        failure.map_or(Ok(()), Err)
    })
}

/// The least time left at the end of the first pass for the tests it left open to be
/// proven again (a model is set up anew, which takes a part of a second on the statement's
/// boards).
const SECOND_PASS_LEAST: Duration = Duration::from_secs(1);

/// A test's proof to make: the first (the optimiser, then the MILP), or again from the first
/// pass's proof (`again`) with time the other tests left.
struct Job {
    index: usize,
    again: Option<Proof>,
}

impl Job {
    fn first(&self) -> bool {
        self.again.is_none()
    }
}

/// A job's result, sent to the thread that writes the answers.
struct Finished {
    index: usize,
    first: bool,
    proof: Result<Proof, RunError>,
}

/// The jobs of [`run`]: every test's first proof in the input's order, then, once all have
/// been taken, second proofs of the tests the first pass left open.
struct Jobs {
    state: Mutex<JobState>,
    ready: Condvar,
}

struct JobState {
    queue: VecDeque<Job>,
    /// First proofs taken and not finished (counted down by the worker as it ends one).
    first_running: usize,
    /// First proofs taken whose result has not reached the writing thread.
    first_unreported: usize,
    /// No job will be added.
    closed: bool,
}

impl Jobs {
    fn new(total: usize) -> Jobs {
        Jobs {
            state: Mutex::new(JobState {
                queue: (0..total).map(|index| Job { index, again: None }).collect(),
                first_running: 0,
                first_unreported: 0,
                closed: false,
            }),
            ready: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, JobState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next job and how many proofs (it among them) still want a share of the time:
    /// the jobs waiting and the first proofs under way (which may come back open). None
    /// when there is none and will be none.
    fn take(&self) -> Option<(Job, usize)> {
        let mut state = self.lock();
        loop {
            let waiting = state.queue.len() + state.first_running;
            if let Some(job) = state.queue.pop_front() {
                if job.first() {
                    state.first_running += 1;
                    state.first_unreported += 1;
                }
                return Some((job, waiting));
            }
            if state.closed {
                return None;
            }
            state = self
                .ready
                .wait_timeout(state, Duration::from_millis(50))
                .map(|(s, _)| s)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// A worker ended a first proof (before sending it on).
    fn first_ended(&self) {
        let mut state = self.lock();
        state.first_running = state.first_running.saturating_sub(1);
    }

    /// The writing thread received a first proof.
    fn first_reported(&self) {
        let mut state = self.lock();
        state.first_unreported = state.first_unreported.saturating_sub(1);
    }

    /// True when every first proof has been taken.
    fn first_all_taken(&self) -> bool {
        !self.lock().queue.iter().any(Job::first)
    }

    fn give_again(&self, open: impl Iterator<Item = (usize, Proof)>) {
        let mut state = self.lock();
        let before = state.queue.len();
        state.queue.extend(open.map(|(index, proof)| Job {
            index,
            again: Some(proof),
        }));
        if state.queue.len() > before {
            self.ready.notify_all();
        }
    }

    /// Takes back the second proofs not started (their first proofs are the answers).
    fn withdraw_again(&self) -> Vec<(usize, Proof)> {
        let mut state = self.lock();
        let (again, first): (Vec<Job>, Vec<Job>) = state.queue.drain(..).partition(|j| !j.first());
        state.queue.extend(first);
        again
            .into_iter()
            .filter_map(|j| j.again.map(|p| (j.index, p)))
            .collect()
    }

    /// Closes the queue once no first proof waits or runs and none is held back.
    fn close_when_done(&self, nothing_held: bool) {
        let mut state = self.lock();
        if nothing_held && state.first_unreported == 0 && !state.queue.iter().any(Job::first) {
            state.closed = true;
            self.ready.notify_all();
        }
    }

    /// Drops every job not started and closes the queue (the run failed).
    fn cancel(&self) {
        let mut state = self.lock();
        state.queue.clear();
        state.closed = true;
        self.ready.notify_all();
    }
}

/// What every proof of a [`run`] shares.
struct RunContext<'a> {
    options: &'a Options,
    scheme: Scheme,
    /// HiGHS's threads per proof.
    threads: NonZeroU32,
    /// How many tests the input holds.
    total: u64,
    /// Raised by Ctrl-C or when the run fails: the proofs end with what they have.
    halt: &'a AtomicBool,
    /// Where the tests' events go.
    report: &'a (dyn Fn(Event<'_>) + Sync),
}

impl RunContext<'_> {
    /// A second proof of a test the first pass left open, from its answer and bound, for
    /// `share` from now: the answer is the better of the two, the bound the higher.
    fn prove_again(&self, instance: &Instance, first: Proof, case: u64, share: Duration) -> Proof {
        let RunContext {
            options,
            scheme,
            threads,
            halt,
            report,
            ..
        } = *self;
        let seed = solver::test_seed(options.seed, case).wrapping_add(1);
        let settings = Settings {
            scheme,
            deadline: later(Instant::now(), share),
            seed,
            threads,
            interrupt: halt,
        };
        let again = prove(instance, &first.solution, &settings, &mut |progress| {
            report(Event::Working { case, progress })
        });
        let ending = match again.ending {
            Ending::TooLarge { .. } => first.ending,
            ending => ending,
        };
        Proof {
            ending,
            rounds: first.rounds + again.rounds,
            exact_kings: first.exact_kings.max(again.exact_kings),
            ..again
        }
    }

    /// One test of [`run`]: the optimiser, then the proof, until `share` from now.
    fn prove_test(&self, test: &Test, case: u64, share: Duration) -> Result<Proof, RunError> {
        let RunContext {
            options,
            scheme,
            threads,
            total,
            halt,
            report,
        } = *self;
        let instance = &test.instance;
        report(Event::Started { case, total });
        let test_start = Instant::now();
        let seed = solver::test_seed(options.seed, case);
        // After an interrupt, the tests left get a quick answer each.
        let search = if halt.load(Ordering::Relaxed) {
            AFTER_INTERRUPT
        } else {
            SEARCH_MOST
        };
        let budget = Budget {
            time: share.mul_f64(SEARCH_SHARE).min(search),
            steps: options.steps,
        };
        let solved = solver::solve(instance, &budget, seed).map_err(|e| {
            ParseError::new(
                test.position,
                ParseErrorKind::Invalid,
                "a board whose kings can all be checked at once",
                e.to_string(),
            )
            .with_context(&test.context)
        })?;
        let mut proof = if solved.optimal() || halt.load(Ordering::Relaxed) {
            Proof {
                ending: if solved.optimal() {
                    Ending::Optimal
                } else {
                    Ending::Interrupted
                },
                solution: solved,
                rounds: 0,
                exact_kings: 0,
                kings: instance.king_count(),
            }
        } else {
            let settings = Settings {
                scheme,
                deadline: later(test_start, share),
                seed,
                threads,
                interrupt: halt,
            };
            prove(instance, &solved, &settings, &mut |progress| {
                report(Event::Working { case, progress })
            })
        };
        let rest = later(test_start, share).saturating_duration_since(Instant::now());
        if matches!(proof.ending, Ending::TooLarge { .. })
            && !rest.is_zero()
            && !halt.load(Ordering::Relaxed)
        {
            // No MILP could run: the optimiser has the rest of the test's time.
            let budget = Budget {
                time: rest,
                steps: options.steps,
            };
            if let Ok(again) = solver::solve(instance, &budget, seed.wrapping_add(1)) {
                let s = &mut proof.solution;
                if again.answer.cost < s.answer.cost {
                    s.answer = again.answer;
                }
                s.lower_bound = s.lower_bound.max(again.lower_bound).min(s.answer.cost);
                if s.optimal() {
                    proof.ending = Ending::Optimal;
                }
            }
        }
        Ok(proof)
    }
}

/// Keeps `pieces` as the best answer when they are valid and cheaper.
fn consider(instance: &Instance, best: &mut Answer, pieces: Vec<Placement>) {
    if pieces.is_empty() || verify(instance, &pieces).is_err() {
        return;
    }
    let answer = Answer::new(instance, pieces);
    if answer.cost < best.cost {
        *best = answer;
    }
}

/// A valid answer from a relaxation's answer: its pieces, the kings it leaves unchecked
/// checked by the exact branch and bound (until `deadline`), redundant pieces removed; when
/// cheaper than `below`.
fn repair(
    instance: &Instance,
    candidates: &Candidates,
    pieces: &[Placement],
    below: u64,
    deadline: Instant,
) -> Option<Vec<Placement>> {
    let mut board = Board::new(instance);
    let mut scratch = Vec::new();
    for p in pieces {
        let cell = board.cell(p.square);
        if board.is_empty(cell) {
            board.place(p.kind, cell, &mut scratch);
        }
    }
    let room = below.checked_sub(board.cost())?;
    let (_, completed) = exhaustive::complete(
        board,
        candidates,
        room,
        REPAIR_NODES,
        Deadline::at(deadline),
    )?;
    let mut done = Board::new(instance);
    for p in &completed {
        let cell = done.cell(p.square);
        done.place(p.kind, cell, &mut scratch);
    }
    prune(&mut done);
    Some(done.placements())
}

fn status_name(status: HighsModelStatus) -> &'static str {
    match status {
        HighsModelStatus::Infeasible => "infeasible",
        HighsModelStatus::Unbounded => "unbounded",
        HighsModelStatus::ReachedIterationLimit => "iteration limit",
        HighsModelStatus::ReachedSolutionLimit => "solution limit",
        HighsModelStatus::SolveError => "solve error",
        HighsModelStatus::ModelError => "model error",
        _ => "other status",
    }
}

/// One solve of the model.
struct Round {
    status: HighsModelStatus,
    /// The solver's dual bound (a lower bound of the model's optimum).
    dual_bound: f64,
    /// True when the solver reports no gap left.
    gap_closed: bool,
    /// The final solution's column values, if there is one.
    last: Option<Vec<f64>>,
    /// Every improving solution seen during the solve (filled in by the waiting thread).
    solutions: Vec<Vec<f64>>,
}

/// What the solver's callback and the thread waiting for the solve share.
struct Shared {
    /// Raised by the waiting thread (an interrupt, or a solve left running).
    stop: AtomicBool,
    /// The solve stops here too, should HiGHS's own clock run late.
    deadline: Instant,
    columns: usize,
    /// Every improving solution seen during the solve.
    solutions: Mutex<Vec<Vec<f64>>>,
    /// The last dual bound the solver reported (a lower bound of the model's optimum), as
    /// the bits of an `f64`; minus infinity before the first.
    dual_bound: AtomicU64,
}

impl Shared {
    fn stops(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }

    fn dual_bound(&self) -> f64 {
        f64::from_bits(self.dual_bound.load(Ordering::Relaxed))
    }

    fn take_solutions(&self) -> Vec<Vec<f64>> {
        self.solutions
            .lock()
            .map(|mut s| std::mem::take(&mut *s))
            .unwrap_or_default()
    }
}

/// HiGHS's callback: keeps improving solutions, records the dual bound, stops on interrupt
/// or at the deadline.
///
/// # Safety
/// Called by HiGHS during `Highs_run` with `user` the `Shared` given to `Highs_setCallback`,
/// which outlives the run; `out` and `input` are HiGHS's valid data for this call.
unsafe extern "C" fn on_event(
    kind: c_int,
    _message: *const c_char,
    out: *const highs_sys::HighsCallbackDataOut,
    input: *mut highs_sys::HighsCallbackDataIn,
    user: *mut c_void,
) {
    if user.is_null() || out.is_null() {
        return;
    }
    // Safety: see the function's doc.
    let (shared, out) = unsafe { (&*(user as *const Shared), &*out) };
    if kind == highs_sys::kHighsCallbackMipImprovingSolution as c_int {
        let size = usize::try_from(out.mip_solution_size).unwrap_or(0);
        if !out.mip_solution.is_null() && size == shared.columns {
            // Safety: HiGHS hands a solution of `mip_solution_size` values.
            let values = unsafe { std::slice::from_raw_parts(out.mip_solution, size) };
            if let Ok(mut solutions) = shared.solutions.lock() {
                solutions.push(values.to_vec());
            }
        }
    } else if kind == highs_sys::kHighsCallbackSimplexInterrupt as c_int {
        if shared.stops() && !input.is_null() {
            // Safety: `input` is HiGHS's valid input data for this call.
            unsafe { (*input).user_interrupt = 1 };
        }
    } else if kind == highs_sys::kHighsCallbackMipInterrupt as c_int {
        if shared.stops() && !input.is_null() {
            // Safety: `input` is HiGHS's valid input data for this call.
            unsafe { (*input).user_interrupt = 1 };
        }
        if out.mip_dual_bound.is_finite() {
            shared
                .dual_bound
                .store(out.mip_dual_bound.to_bits(), Ordering::Relaxed);
        }
    }
}

/// Raised when a solve was left running past its deadline (see [`solve_model`]).
static LEFT_RUNNING: AtomicBool = AtomicBool::new(false);

/// True when a MILP solve was left running on its own thread because it did not stop in
/// time (some of HiGHS's steps never look at the clock). HiGHS may then still be working
/// when the process ends: a program should end with `_exit` once its output is flushed, so
/// that no C++ static is torn down under the solver.
pub fn solves_left_running() -> bool {
    LEFT_RUNNING.load(Ordering::SeqCst)
}

/// How long a solve is waited for once its deadline has passed (or the interrupt has been
/// raised) before it is left to end on its own thread. On the statement's boards HiGHS
/// stops within milliseconds of either; on large models some of its steps never look at
/// the clock and ran seconds late.
const LATE_GRACE: Duration = Duration::from_millis(100);
/// How often the waiting thread looks at the solve, the interrupt and the clock.
const WAIT_POLL: Duration = Duration::from_millis(10);
/// How often the dual bound is reported while a solve runs.
const REPORT_EVERY: Duration = Duration::from_millis(200);

/// Solves the model by HiGHS from the warm start `warm`, until `deadline`: the solver's own
/// time limit is what is left once the model is handed over, which on the largest boards
/// (millions of rows) takes seconds. With `threads` above 1, HiGHS's parallel tree search.
///
/// The solve runs on a thread of its own (HiGHS's pool of threads belongs to the thread
/// that solves; a new one each solve). The calling thread waits, reports the dual bound to
/// `on_bound`, passes `interrupt` on, and once the deadline (or the interrupt) is
/// [`LATE_GRACE`] behind it, returns with what the solve has reported so far (its
/// solutions and its last dual bound), leaving the solver to stop on its own; see
/// [`solves_left_running`].
fn solve_model(
    model: &Model,
    warm: &[f64],
    deadline: Instant,
    seed: u64,
    threads: NonZeroU32,
    interrupt: &AtomicBool,
    on_bound: &mut dyn FnMut(f64),
) -> Result<Round, ProveError> {
    let mut problem = RowProblem::default();
    let cols: Vec<highs::Col> = model
        .columns()
        .iter()
        .map(|c| {
            if c.integer {
                problem.add_integer_column(c.cost, 0.0..=c.upper)
            } else {
                problem.add_column(c.cost, 0.0..=c.upper)
            }
        })
        .collect();
    for row in model.rows() {
        problem.add_row(
            row.lower..=row.upper,
            row.entries.iter().map(|&(c, a)| (cols[c], a)),
        );
    }
    drop(cols);
    let shared = Arc::new(Shared {
        stop: AtomicBool::new(interrupt.load(Ordering::Relaxed)),
        deadline,
        columns: model.columns().len(),
        solutions: Mutex::new(Vec::new()),
        dual_bound: AtomicU64::new(f64::NEG_INFINITY.to_bits()),
    });
    let job = SolveJob {
        problem,
        warm: warm.to_vec(),
        deadline,
        seed,
        threads,
        nonzeros: model.nonzeros(),
    };
    let (sender, receiver) = mpsc::channel();
    let theirs = Arc::clone(&shared);
    std::thread::Builder::new()
        .name("highs".into())
        .spawn(move || {
            let ended = job.run(&theirs);
            let _ = sender.send(ended);
        })
        .map_err(|e| ProveError::Solver(format!("no thread for the solver: {e}")))?;

    let mut last_report = Instant::now();
    let mut reported = f64::NEG_INFINITY;
    let mut stopping_since: Option<Instant> = None;
    loop {
        let received = receiver.recv_timeout(WAIT_POLL);
        let now = Instant::now();
        let bound = shared.dual_bound();
        if bound != reported && (received.is_ok() || now - last_report >= REPORT_EVERY) {
            reported = bound;
            last_report = now;
            on_bound(bound);
        }
        match received {
            Ok(ended) => {
                let mut round = ended?;
                round.dual_bound = round.dual_bound.max(shared.dual_bound());
                round.solutions = shared.take_solutions();
                return Ok(round);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(ProveError::Solver(
                    "the solver's thread ended without a result".into(),
                ));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        let interrupted = interrupt.load(Ordering::Relaxed);
        if interrupted {
            shared.stop.store(true, Ordering::Relaxed);
        }
        if interrupted || now >= deadline {
            let since = *stopping_since.get_or_insert(now);
            if now - since >= LATE_GRACE {
                shared.stop.store(true, Ordering::Relaxed);
                LEFT_RUNNING.store(true, Ordering::SeqCst);
                return Ok(Round {
                    status: if interrupted {
                        HighsModelStatus::ReachedInterrupt
                    } else {
                        HighsModelStatus::ReachedTimeLimit
                    },
                    dual_bound: shared.dual_bound(),
                    gap_closed: false,
                    last: None,
                    solutions: shared.take_solutions(),
                });
            }
        }
    }
}

/// A model handed to the solver's thread, with how to solve it.
struct SolveJob {
    problem: RowProblem,
    warm: Vec<f64>,
    deadline: Instant,
    seed: u64,
    threads: NonZeroU32,
    nonzeros: usize,
}

impl SolveJob {
    /// Hands the model to HiGHS and solves it (on the solver's thread), `shared` its
    /// callback's data.
    fn run(self, shared: &Shared) -> Result<Round, ProveError> {
        let failed = |what: &str| ProveError::Solver(what.to_string());
        let mut highs = self
            .problem
            .try_optimise(Sense::Minimise)
            .map_err(|e| ProveError::Solver(format!("{e:?}")))?;
        highs.make_quiet();
        let options: [(&str, f64); 2] = [("mip_rel_gap", 0.0), ("mip_abs_gap", 0.0)];
        for (name, value) in options {
            highs
                .try_set_option(name, value)
                .map_err(|_| failed(name))?;
        }
        highs
            .try_set_option("random_seed", (self.seed % (i32::MAX as u64)) as i32)
            .map_err(|_| failed("random_seed"))?;
        highs.set_threads(self.threads);
        if self.threads.get() > 1 {
            highs
                .try_set_option("parallel", "on")
                .map_err(|_| failed("parallel"))?;
        }
        highs
            .try_set_solution(Some(&self.warm), None, None, None)
            .map_err(|e| ProveError::Solver(format!("warm start: {e:?}")))?;
        let time = self.deadline.saturating_duration_since(Instant::now());
        highs
            .try_set_option("time_limit", time.as_secs_f64().max(0.001))
            .map_err(|_| failed("time_limit"))?;
        let nonzeros = self.nonzeros as f64;
        if nonzeros > PRESOLVE_SURE_NONZEROS_PER_SECOND * time.as_secs_f64() {
            highs
                .try_set_option("presolve", "off")
                .map_err(|_| failed("presolve"))?;
        }
        if nonzeros > HURRIED_NONZEROS_PER_SECOND * time.as_secs_f64() {
            for option in ["mip_detect_symmetry", "mip_heuristic_run_feasibility_jump"] {
                highs
                    .try_set_option(option, false)
                    .map_err(|_| failed(option))?;
            }
        }

        let ptr = highs.as_mut_ptr();
        // Safety: `shared` outlives the solve below, which is the only time HiGHS calls the
        // callback, and the callback only reads it or locks its mutex; `ptr` is the live
        // model's.
        unsafe {
            highs_sys::Highs_setCallback(
                ptr,
                Some(on_event),
                shared as *const Shared as *mut c_void,
            );
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipImprovingSolution);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackMipInterrupt);
            highs_sys::Highs_startCallback(ptr, highs_sys::kHighsCallbackSimplexInterrupt);
        }
        let solved = highs
            .try_solve()
            .map_err(|e| ProveError::Solver(format!("{e:?}")))?;
        let status = solved.status();
        let dual_bound = solved
            .double_info_value(c"mip_dual_bound")
            .unwrap_or(f64::NEG_INFINITY);
        let primal = solved.objective_value();
        let gap = solved.mip_gap();
        let has_solution = solved.primal_solution_status() == highs::HighsSolutionStatus::Feasible;
        let last = has_solution.then(|| solved.get_solution().columns().to_vec());
        let gap_closed = status == HighsModelStatus::Optimal
            && has_solution
            && (gap <= 1e-9 || primal - dual_bound < 0.5);
        Ok(Round {
            status,
            dual_bound,
            gap_closed,
            last,
            solutions: Vec::new(),
        })
    }
}

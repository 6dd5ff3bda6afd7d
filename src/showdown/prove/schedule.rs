//! A whole input's proofs ([`run`]): the input read and checked first, then every test
//! answered by the optimiser with a part of its time and proven ([`prove`]) with the rest,
//! as many tests side by side as rayon's pool has threads, the answers written in the input's
//! order. With a time for the whole input ([`ProofTime::Whole`]) each proof gets its share of
//! the time left over the rounds still to come, and once every test has had its first proof,
//! the tests left open at their time limit are proven again (a second pass) with the time the
//! quicker proofs left over.

use std::collections::{BTreeMap, VecDeque};
use std::io::{Read, Write};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use super::proof::{Ending, Progress, Proof, Scheme, Settings, prove};
use crate::error::{ParseError, ParseErrorKind, RunError};
use crate::input::{CaseReader, Scanner};
use crate::output;
use crate::showdown::reader::Reader;
use crate::showdown::solver::{self, Budget};
use crate::showdown::writer::Solved;
use crate::showdown::{Instance, Options};

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
    while let Some(instance) = reader.next_case()? {
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
                    let solved = Solved::new(&test.instance, &proof.solution, false);
                    output::write_case(out, options.format, written as u64, &solved)
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

//! One test's proof ([`prove`]): the model set up as its [`Scheme`] says, solved round after
//! round from the best answer held, every answer the solver finds checked by the judge, a
//! relaxation's invalid answer completed by the exact branch and bound, and the solver's dual
//! bound turned into a certified lower bound ([`certified`]). The [module docs](super) say how
//! the two schemes work and when an answer is called optimal.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use highs::HighsModelStatus;

use super::solve::{solve_model, status_name};
use crate::showdown::board::Board;
use crate::showdown::candidates::Candidates;
use crate::showdown::construction::prune;
use crate::showdown::deadline::Deadline;
use crate::showdown::exhaustive;
use crate::showdown::judge::verify;
use crate::showdown::model::Model;
use crate::showdown::solver::Solution;
use crate::showdown::{Answer, Instance, Placement};

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

/// How [`prove`] works: the model's scheme, when it ends, and how HiGHS solves.
#[derive(Copy, Clone, Debug)]
pub struct Settings<'a> {
    /// How the MILP is set up.
    pub scheme: Scheme,
    /// The proof ends here with what it has.
    pub deadline: Instant,
    /// The seed of HiGHS's random choices (its `random_seed` option, taken modulo 2^31 - 1).
    pub seed: u64,
    /// Above 1, HiGHS's parallel tree search on that many threads.
    pub threads: NonZeroU32,
    /// Raised from outside (Ctrl-C): the proof ends with what it has.
    pub interrupt: &'a AtomicBool,
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
    /// ran (in [`run`](super::run), the optimiser then has the rest of the test's time).
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

/// Proves `start` optimal or improves it, until `settings.deadline` or until
/// `settings.interrupt` is raised. `progress` is called now and then from the calling thread.
/// Each solve runs on a thread of its own; one that has not stopped 0.1 s after the deadline
/// (or the interrupt) is left to stop on its own, and the proof ends with what it reported
/// (see [`solves_left_running`](super::solves_left_running)).
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
    let board = Board::holding(instance, pieces);
    let room = below.checked_sub(board.cost())?;
    let (_, completed) = exhaustive::complete(
        board,
        candidates,
        room,
        REPAIR_NODES,
        Deadline::at(deadline),
    )?;
    let mut done = Board::new(instance);
    let mut scratch = Vec::new();
    for p in &completed {
        let cell = done.cell(p.square);
        done.place(p.kind, cell, &mut scratch);
    }
    prune(&mut done);
    Some(done.placements())
}

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
//!
//! The code is in three parts: one test's proof ([`prove`], in `proof.rs`); a whole input's
//! proofs ([`run`], in `schedule.rs`), side by side, each with its share of the time, and a
//! second pass for the tests left open; and the HiGHS plumbing (`solve.rs`): the model handed
//! to the solver on a thread of its own, the callback that follows the solve and stops it,
//! and the solves left running when they do not stop in time ([`solves_left_running`]).

mod proof;
mod schedule;
mod solve;

pub use proof::{Ending, Progress, Proof, Scheme, Settings, certified, prove};
pub use schedule::{DEFAULT_TIME_PER_TEST, Event, ProofTime, run};
pub use solve::{ProveError, solves_left_running};

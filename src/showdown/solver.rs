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
use super::instance::{Answer, Instance, Placement};
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
/// exact search (with a node limit and a fifth of the test's time).
const EXACT_KINGS: usize = 16;
/// See [`EXACT_KINGS`].
const EXACT_SIDE: usize = 5;
/// The node limit of the exact search.
const EXACT_NODES: u64 = 200_000;
/// Local-search steps when no step count is given: effectively unlimited, time decides.
const UNLIMITED: u64 = u64::MAX;

/// Solves one test within its budget. `seed` fixes every random choice.
pub fn solve(instance: &Instance, budget: &Budget, seed: u64) -> Result<Solution, SolveError> {
    let start = Instant::now();
    let deadline = budget.steps.is_none().then(|| start + budget.time);
    let candidates = Candidates::new(instance);

    if instance.king_count() == 0 {
        let kind = cheapest_kind(instance);
        let pieces = vec![Placement {
            kind,
            square: Square::new(0, 0),
        }];
        return finish(instance, pieces, u64::from(instance.cost(kind)));
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
            let mut b = Board::new(instance);
            let mut scratch = Vec::new();
            for p in &pieces {
                let cell = b.cell(p.square);
                b.place(p.kind, cell, &mut scratch);
            }
            prune(&mut b);
            incumbent = Some((b.cost(), b.placements()));
        }
    }

    let relaxation = Relaxation::new(instance, &candidates);
    let upper = incumbent.as_ref().map_or(u64::MAX / 4, |(c, _)| *c);
    let bound_deadline = deadline.map(|d| start + (d - start) / 10);
    let lower_bound = relaxation.lower_bound(upper, 300, bound_deadline);

    if incumbent.as_ref().is_some_and(|(c, _)| *c <= lower_bound) {
        let (cost, pieces) = incumbent.unwrap_or_default();
        return finish(instance, pieces, lower_bound.max(cost));
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
            Outcome::Optimal(cost, pieces) => return finish(instance, pieces, cost),
            Outcome::Infeasible => return Err(SolveError::Infeasible),
            Outcome::Unfinished => {}
        }
    }

    let Some((cost, pieces)) = incumbent else {
        let king = instance.kings().iter().next().unwrap_or(Square::new(0, 0));
        return Err(SolveError::NotFound(king));
    };
    // Local search from the greedy answer, one run per thread.
    let threads = rayon::current_num_threads().clamp(1, 2);
    let limits = Limits {
        steps: budget.steps.unwrap_or(UNLIMITED),
        deadline,
        target: lower_bound,
    };
    let stop = AtomicBool::new(false);
    let start_board = {
        let mut b = Board::new(instance);
        let mut scratch = Vec::new();
        for p in &pieces {
            let cell = b.cell(p.square);
            b.place(p.kind, cell, &mut scratch);
        }
        b
    };
    let runs: Vec<(u64, Vec<Placement>)> = {
        use rayon::prelude::*;
        (0..threads as u64)
            .into_par_iter()
            .map(|t| {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(seed ^ (t + 1).wrapping_mul(0xA076_1D64_78BD_642F));
                // The first run starts from the greedy answer, the others from randomised
                // greedy answers, so that the runs search different regions.
                let mut board = start_board.clone();
                if t > 0 {
                    let mut b = Board::new(instance);
                    if greedy(&mut b, &candidates, 0.3, &mut rng, greedy_deadline) {
                        prune(&mut b);
                        board = b;
                    }
                }
                let found = Search::new(board, &candidates, rng).run(&limits, &stop);
                (found.cost, found.pieces)
            })
            .collect()
    };
    let (best_cost, best) = runs
        .into_iter()
        .chain(std::iter::once((cost, pieces)))
        .min_by_key(|(c, _)| *c)
        .unwrap_or_default();
    finish(instance, best, lower_bound.min(best_cost))
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

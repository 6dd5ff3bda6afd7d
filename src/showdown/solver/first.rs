//! The first answers of a test and its lower bound: the plain greedy (completed by leaps and
//! pruned), the quick answer of a test with no time left, and the bound from the covering
//! relaxation.

use super::*;
use crate::showdown::journal::{BoundWhy, Moves, Phase};

/// The answer of a test that the run has no time left for (past its limit, or after Ctrl-C):
/// [`leap_answer`], built in one pass without the candidate sets, or where it finds none the
/// simple answer ([`fallback`]); verified. Its lower bound is the cheapest price (every
/// answer holds a piece).
pub fn quick_answer(instance: &Instance) -> Result<Solution, SolveError> {
    let cheapest = cheapest_kind(instance);
    if instance.king_count() == 0 {
        let pieces = vec![Placement {
            kind: cheapest,
            square: Square::new(0, 0),
        }];
        return finish(instance, pieces, u64::from(instance.cost(cheapest)));
    }
    let pieces = match leap_answer(instance) {
        Some(pieces) => pieces,
        None => fallback(instance, &Candidates::new(instance.kings())),
    };
    finish(instance, pieces, u64::from(instance.cost(cheapest)))
}

/// The first answer of a test: the plain greedy (the lowest price per newly checked king,
/// [`greedy`]) until `deadline`, a board it left half built completed by
/// [`complete_by_leaps`], then without its redundant pieces ([`prune`]); where the greedy
/// stopped by itself (no piece brings a king into check), the simple answer ([`fallback`],
/// pruned) when it is cheaper. So it never costs more than [`plain_greedy_within`]'s answer
/// with the same deadline. Where the stop flag of `deadline` cut the greedy short, the
/// quick [`leap_answer`] instead, as there. `None` only when no answer was found.
pub fn first_answer<'a>(
    instance: &Instance,
    candidates: &Candidates,
    deadline: impl Into<Deadline<'a>>,
) -> Option<(u64, Vec<Placement>)> {
    first_answer_told(instance, candidates, deadline.into(), None).map(|(c, p, _)| (c, p))
}

/// [`first_answer`], with the changes of the board it was built on, from the empty board
/// (at most `told` of them) when `told` is set.
pub(super) fn first_answer_told(
    instance: &Instance,
    candidates: &Candidates,
    deadline: Deadline<'_>,
    told: Option<usize>,
) -> Option<(u64, Vec<Placement>, Option<Moves>)> {
    let mut board = Board::new(instance);
    if let Some(limit) = told {
        board.keep_log(limit);
    }
    // The plain greedy draws no random number.
    let mut rng = ChaCha8Rng::seed_from_u64(0);
    let complete = greedy(&mut board, candidates, 0.0, &mut rng, deadline);
    if !complete
        && deadline.stopped()
        && let Some(pieces) = leap_answer(instance)
    {
        // Stopped from outside (Ctrl-C): the quick answer, not the slower completion.
        return verify(instance, &pieces)
            .ok()
            .map(|cost| (cost, pieces, None));
    }
    let mut found = Vec::with_capacity(2);
    board.set_phase(Phase::Leaps);
    if complete || complete_by_leaps(&mut board, candidates) {
        board.set_phase(Phase::Prune);
        prune(&mut board);
        found.push((board.cost(), board.placements(), board.take_log()));
    }
    // Where the greedy stopped by itself, `--greedy` answers the simple answer: this one must
    // not cost more. Where the clock stopped it, `--greedy` completes it by leaps too.
    if found.is_empty() || (!complete && !deadline.passed()) {
        let pieces = fallback(instance, candidates);
        if verify(instance, &pieces).is_ok() {
            let mut b = Board::new(instance);
            if let Some(limit) = told {
                b.keep_log(limit);
                b.set_phase(Phase::Fallback);
            }
            b.put_all(&pieces);
            b.set_phase(Phase::Prune);
            prune(&mut b);
            found.push((b.cost(), b.placements(), b.take_log()));
        }
    }
    found.into_iter().min_by_key(|(cost, _, _)| *cost)
}

/// A lower bound on the cost of every answer, given an answer of cost `upper`: the
/// Lagrangian bound ([`Relaxation`]) as far as it gets by `deadline`, and at least the
/// dearest of the kings' cheapest ways to be checked.
pub(super) fn bound_within(
    instance: &Instance,
    candidates: &Candidates,
    upper: u64,
    deadline: Deadline<'_>,
) -> u64 {
    bound_told(instance, candidates, upper, deadline).value
}

/// [`bound_within`] with what it counts.
pub(super) fn bound_told(
    instance: &Instance,
    candidates: &Candidates,
    upper: u64,
    deadline: Deadline<'_>,
) -> BoundWhy {
    // Every king needs a piece that checks it.
    let simple_king = (0..candidates.king_count())
        .filter_map(|k| {
            candidates
                .of_king(k)
                .iter()
                .map(|c| (instance.cost(c.kind), c.kind))
                .min()
                .map(|(price, kind)| (price, candidates.king_square(k), kind))
        })
        .max_by_key(|&(price, _, _)| price);
    let simple = simple_king.map_or(0, |(price, _, _)| u64::from(price));
    let relaxation = if deadline.passed() {
        None
    } else {
        Relaxation::new_until(instance, candidates, deadline)
            .map(|relaxation| relaxation.lower_bound(upper, 300, deadline))
    };
    BoundWhy {
        value: relaxation.unwrap_or(0).max(simple),
        simple,
        simple_king: simple_king.map(|(_, king, kind)| (king, kind)),
        relaxation,
    }
}

/// The plain greedy answer, the baseline the optimiser is measured against: again and again
/// the piece with the lowest price per newly checked king, counted on the current board,
/// until every king is in check. No removal of redundant pieces, no search.
pub fn plain_greedy(instance: &Instance) -> Result<Solution, SolveError> {
    plain_greedy_within(instance, Deadline::NEVER, Deadline::NEVER)
}

/// [`plain_greedy`] with deadlines: the greedy stops at `first` (a board it left half built
/// is then completed by [`complete_by_leaps`], or replaced by the quick [`leap_answer`]
/// when the stop flag of `first` cut it short), the lower bound reported with the answer is
/// computed until `bound`. When the greedy finds no piece that brings a king into check
/// before every king is, the answer is the simple one ([`fallback`]).
pub fn plain_greedy_within(
    instance: &Instance,
    first: Deadline<'_>,
    bound: Deadline<'_>,
) -> Result<Solution, SolveError> {
    let stopped = match first.flag() {
        Some(flag) => Deadline::NEVER.or_stop(flag),
        None => Deadline::NEVER,
    };
    let Some(candidates) = Candidates::until(instance.kings(), stopped) else {
        return quick_answer(instance);
    };
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
    let complete = greedy(&mut board, &candidates, 0.0, &mut rng, first);
    let quick = (!complete && first.stopped())
        .then(|| leap_answer(instance))
        .flatten();
    let pieces = if complete {
        board.placements()
    } else if let Some(pieces) = quick {
        // Stopped from outside (Ctrl-C): the quick answer, not the slower completion.
        pieces
    } else if first.passed() && complete_by_leaps(&mut board, &candidates) {
        board.placements()
    } else {
        fallback(instance, &candidates)
    };
    let upper = Answer::new(instance, pieces.clone()).cost;
    let lower_bound = bound_within(instance, &candidates, upper, bound);
    finish(instance, pieces, lower_bound)
}

/// Verifies an answer and wraps it; a failed verification falls back to the simple answer.
pub(super) fn finish(
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
            let candidates = Candidates::new(instance.kings());
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
pub(super) fn cheapest_kind(instance: &Instance) -> PieceKind {
    PieceKind::ALL
        .into_iter()
        .min_by_key(|&k| (instance.cost(k), k))
        .unwrap_or(PieceKind::Horse)
}

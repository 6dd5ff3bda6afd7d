//! Large-neighbourhood moves on a search's best answer: the pieces near a random piece of it
//! (a few rows and columns away at most, the nearest few) are taken away, and the kings this
//! leaves unchecked are checked again by the exact branch and bound
//! ([`exhaustive::complete`]) within a node limit. The change is kept when it costs less, and
//! the search goes on from the improved answer.
//!
//! Where a step of the search changes one piece, such a move replaces a whole region at once,
//! the cheapest way the branch and bound finds for its kings: on dense boards the search
//! settles where the optimum differs by a few dear pieces and the cheap ones around them (see
//! [`POLISH_PIECES`]). The optimiser gives these moves the last part of each search's time
//! ([`Search::polish`]).

use rand::{Rng, RngExt};

use super::Search;
use crate::showdown::deadline::Deadline;
use crate::showdown::exhaustive;
use crate::showdown::journal::Why;

/// [`Search::polish`] checks the clock after this many tries.
const POLISH_CHUNK: u64 = 4;
/// How far from its centre a large-neighbourhood move takes pieces away (a random distance
/// from 1 to this, in rows and columns).
const POLISH_WINDOW: u8 = 5;
/// At most this many pieces taken away by one large-neighbourhood move. On dense boards with
/// a nearly free piece the search settles where the optimum differs by a few dear pieces and
/// the cheap ones around them (test 3 of the dense benchmark file dense1_01: one phoenix too
/// many, 8 squares apart within 3 rows and columns): one move of 10 pieces there finds the
/// optimum, which 8 never could.
const POLISH_PIECES: usize = 10;
/// The node limit of the branch and bound of one large-neighbourhood move.
const POLISH_NODES: u64 = 5000;

impl<G: Rng> Search<'_, G> {
    /// Large-neighbourhood moves on the best answer, at most `tries` of them and until
    /// `deadline`: the pieces near a random piece of the best answer are taken away and the
    /// kings left unchecked are checked again by the exact branch and bound, which keeps the
    /// change when it costs less (see [`Search::polish_with`]). Stops at `target`. Returns
    /// the best cost.
    pub fn polish<'d>(
        &mut self,
        tries: u64,
        deadline: impl Into<Deadline<'d>>,
        target: u64,
    ) -> u64 {
        let deadline = deadline.into();
        let mut done = 0;
        while done < tries && self.best_cost > target && !deadline.passed() {
            let chunk = POLISH_CHUNK.min(tries - done);
            self.polish_with(chunk, POLISH_WINDOW, POLISH_PIECES, POLISH_NODES, deadline);
            done += chunk;
        }
        self.best_cost
    }

    /// `tries` large-neighbourhood moves: the pieces near a random piece of the best answer
    /// (at most `window` squares away in rows and columns, at most `most` of them, the nearest)
    /// are taken away, and the kings left unchecked are checked again by the exact branch and
    /// bound ([`exhaustive::complete`], `nodes` nodes at most, until `deadline`); kept when
    /// cheaper, and the search then goes on from the improved answer. Returns the best cost.
    pub fn polish_with(
        &mut self,
        tries: u64,
        window: u8,
        most: usize,
        nodes: u64,
        deadline: Deadline<'_>,
    ) -> u64 {
        let mut scratch = Vec::new();
        for _ in 0..tries {
            if self.best.is_empty() {
                break;
            }
            let centre = self.best[self.rng.random_range(0..self.best.len())].square;
            let reach = self.rng.random_range(1..=window);
            let mut near: Vec<(u8, usize)> = self
                .best
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let d = p
                        .square
                        .row
                        .abs_diff(centre.row)
                        .max(p.square.col.abs_diff(centre.col));
                    (d, i)
                })
                .filter(|&(d, _)| d <= reach)
                .collect();
            near.sort_unstable();
            near.truncate(most);
            let mut board = self.empty.clone();
            let mut removed = 0u64;
            let mut keep = vec![true; self.best.len()];
            for &(_, i) in &near {
                keep[i] = false;
                removed += u64::from(board.price(self.best[i].kind));
            }
            for (p, _) in self.best.iter().zip(&keep).filter(|(_, k)| **k) {
                let cell = board.cell(p.square);
                board.place(p.kind, cell, &mut scratch);
            }
            let rest = self.best_cost - removed;
            let found = if board.unchecked() == 0 {
                Some((0, board.placements()))
            } else {
                exhaustive::complete(board, self.candidates, removed, nodes, deadline)
            };
            if let Some((added, pieces)) = found
                && rest + added < self.best_cost
            {
                self.best_cost = rest + added;
                self.best = pieces;
                let mut board = self.empty.clone();
                for p in &self.best {
                    let cell = board.cell(p.square);
                    board.place(p.kind, cell, &mut scratch);
                }
                self.jump(board, Why::Polish);
                self.mark_best();
                self.improved_at = self.step;
            }
        }
        self.best_cost
    }
}

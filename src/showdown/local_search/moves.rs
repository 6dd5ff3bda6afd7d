//! The moves that check a king: placing a piece on one of its candidate squares, replacing a
//! piece by one that checks it, or placing a cannon together with a screen, each valued by its
//! exact changes (see the [module docs](super)).

use rand::{Rng, RngExt};

use crate::core::pieces::PieceKind;

use super::super::board::Change;
use super::Search;

impl<G: Rng> Search<'_, G> {
    /// Checks a random unchecked king by the best move among those that check it and keep the
    /// cost below the best answer's (plus the slack while exploring). Returns false when there
    /// was none.
    pub(super) fn add_for_random_king(&mut self) -> bool {
        let Some(k) = self.random_unchecked() else {
            return false;
        };
        // (value, age, move)
        let mut best: Option<(f64, u64, Move)> = None;
        let consider = |best: &mut Option<(f64, u64, Move)>, value: f64, age: u64, mv: Move| {
            if best.is_none_or(|b| value > b.0 || (value == b.0 && age < b.1)) {
                *best = Some((value, age, mv));
            }
        };
        let king_cell = self.board.king_cell(k);
        // What a move may add to the cost and still leave it below the best answer's (plus
        // the slack while exploring).
        let budget =
            (self.best_cost.saturating_add(self.slack)).saturating_sub(self.board.cost() + 1);
        // What occupying a square blocks, shared by the pieces tried there (candidates come
        // grouped by square).
        let mut through: Vec<Change> = Vec::new();
        let mut through_of = usize::MAX;
        for c in self.candidates.of_king(k) {
            let p = self.board.cell(c.square);
            let price = f64::from(self.board.price(c.kind));
            if self.board.is_empty(p) {
                if !self.free[p] || u64::from(self.board.price(c.kind)) > budget {
                    continue;
                }
                if through_of != p {
                    through.clear();
                    self.board.effect_of_occupying(p, &mut through);
                    through_of = p;
                }
                self.effect.clear();
                self.effect.extend_from_slice(&through);
                self.board.effect_of_piece(c.kind, p, &mut self.effect);
                let gain = self.effect_gain() as f64 / price;
                consider(&mut best, gain, self.age[p], Move::Place(c.kind, p));
                if c.needs_screen && self.rng.random_range(0..4) == 0 {
                    self.consider_screens(c.kind, p, king_cell, budget, &mut best);
                }
            } else if let Some(old) = self.board.piece_at(p)
                && old != c.kind
                && p != self.tabu
                && u64::from(self.board.price(c.kind)) <= budget + u64::from(self.board.price(old))
            {
                self.effect.clear();
                self.board.effect_of_replace(p, c.kind, &mut self.effect);
                let gain = self.effect_gain() as f64 / price;
                consider(&mut best, gain, self.age[p], Move::Replace(c.kind, p));
            }
        }
        match best {
            Some((_, _, Move::Place(kind, p))) => {
                self.board.place(kind, p, &mut self.scratch);
                self.changed(p);
                self.touch();
                self.age[p] = self.step;
                self.tabu = p;
            }
            Some((_, _, Move::Replace(kind, p))) => {
                self.board.replace(p, kind, &mut self.scratch);
                self.changed(p);
                self.touch();
                self.age[p] = self.step;
                self.tabu = p;
            }
            Some((_, _, Move::PlaceWithScreen(kind, p, screen, screen_kind))) => {
                self.board.place(screen_kind, screen, &mut self.scratch);
                self.changed(screen);
                self.touch();
                self.board.place(kind, p, &mut self.scratch);
                self.changed(p);
                self.touch();
                self.age[p] = self.step;
                self.age[screen] = self.step;
                self.tabu = p;
            }
            None => return false,
        }
        true
    }

    /// Values placing a cannon on `p` with a screen of the cheapest kind on a random empty
    /// square between it and the king.
    fn consider_screens(
        &mut self,
        kind: PieceKind,
        p: usize,
        king_cell: usize,
        budget: u64,
        best: &mut Option<(f64, u64, Move)>,
    ) {
        let between: Vec<usize> = self.cells_between(p, king_cell);
        if between.is_empty() {
            return;
        }
        let screen = between[self.rng.random_range(0..between.len())];
        if !self.board.is_empty(screen) {
            return;
        }
        let screen_kind = self.cheapest;
        let total = u64::from(self.board.price(kind)) + u64::from(self.board.price(screen_kind));
        if total > budget {
            return;
        }
        self.effect.clear();
        self.board
            .effect_of_place(screen_kind, screen, &mut self.effect);
        let mut scratch = std::mem::take(&mut self.scratch);
        self.board.place(screen_kind, screen, &mut scratch);
        // The cannon's changes are taken on the board with its screen, the screen's on the
        // board before it: together they lead from the current counts to the final ones.
        self.board.effect_of_place(kind, p, &mut self.effect);
        self.board.remove(screen, &mut scratch);
        self.scratch = scratch;
        let gain = self.effect_gain();
        let price = f64::from(self.board.price(kind)) + f64::from(self.board.price(screen_kind));
        let value = gain as f64 / price;
        if best.is_none_or(|b| value > b.0) {
            *best = Some((
                value,
                self.age[p],
                Move::PlaceWithScreen(kind, p, screen, screen_kind),
            ));
        }
    }

    /// The empty-or-not cells strictly between two cells on one orthogonal line.
    fn cells_between(&self, a: usize, b: usize) -> Vec<usize> {
        let sa = self.board.square(a);
        let sb = self.board.square(b);
        let dr = i32::from(sb.row) - i32::from(sa.row);
        let dc = i32::from(sb.col) - i32::from(sa.col);
        let steps = dr.abs().max(dc.abs());
        let (ur, uc) = (dr.signum(), dc.signum());
        (1..steps)
            .filter_map(|i| sa.offset(ur * i, uc * i, self.board.side()))
            .map(|sq| self.board.cell(sq))
            .collect()
    }
}

/// A move of the search.
#[derive(Copy, Clone, Debug)]
enum Move {
    Place(PieceKind, usize),
    Replace(PieceKind, usize),
    /// A piece and, first, a screen of the given kind on the given cell.
    PlaceWithScreen(PieceKind, usize, usize, PieceKind),
}

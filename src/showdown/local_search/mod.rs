//! Improving an answer: a local search with king weights, in the manner of the row-weighting
//! searches for set covering, on the exact check counts of [`Board`].
//!
//! Each step works on a board that costs less than the best answer found (or, while the search
//! explores, at most [`SLACK`] more), so it leaves some kings unchecked. It picks an unchecked king at random and makes the move that checks it at
//! the best weight gained per price: placing a piece on one of the king's candidate squares,
//! replacing a piece by one that checks it, or placing a cannon together with a screen.
//! Every move is valued by its exact changes, blocked slides and cannon screens included.
//! Then the weights of the kings still unchecked grow, so kings that stay hard to check pull
//! the search towards them. When every king is checked the answer is recorded and the piece
//! whose removal loses the least weight per price is taken away, or replaced by a cheaper kind
//! when that loses less weight per price saved (an expensive piece can thus give way to a
//! cheaper one on its square and, step by step, to several cheap ones around it). After many
//! steps without improvement the search "kicks": it goes back to the best answer with a random
//! region of it cleared, and rebuilds that region with the weights it has learnt. The first
//! part of each stretch of search (as long as the caller says: [`Limits::explore_steps`])
//! explores: its moves may take the board up to [`SLACK`] above the best answer's cost, so
//! that it wanders a while before it settles.
//!
//! Choosing the piece to take away values every piece on the board; most of those valuations
//! do not change from one step to the next, so each is kept until a change may alter it: a
//! piece placed, removed or replaced, or a check count changed, within its reach (two squares,
//! or the first two obstacles along a line: [`Board::pieces_near`]). A valuation that reads
//! the weight of an unchecked king (which grows at every step) is never kept. The unchecked
//! kings are listed as they change instead of looked for among all the kings. Both give the
//! same moves as valuing everything afresh, faster.
//!
//! Besides its steps, a search makes large-neighbourhood moves on its best answer
//! ([`Search::polish`], in `neighbourhood.rs`): a region cleared and checked again by the
//! exact branch and bound.

use crate::clock::Instant;
use std::sync::atomic::{AtomicBool, Ordering};

use rand::{Rng, RngExt};

use crate::core::pieces::PieceKind;

use super::Placement;
use super::board::{Board, Change};
use super::candidates::Candidates;
use super::deadline::Deadline;
use super::journal::{Moves, Phase, Why};
use super::progress::{Progress, STEPS_REPORTED};

mod moves;
mod neighbourhood;

/// When the search stops.
#[derive(Copy, Clone, Debug)]
pub struct Limits {
    /// At most this many steps.
    pub steps: u64,
    /// At the latest at this moment (checked every few steps).
    pub deadline: Option<Instant>,
    /// As soon as an answer costs this much or less (a lower bound: it cannot be beaten).
    pub target: u64,
    /// The first this many steps explore (see [`SLACK`]).
    pub explore_steps: u64,
    /// And only until this moment, when there is one.
    pub explore_until: Option<Instant>,
    /// Whether meeting `target` raises the stop flag, so that the other searches sharing it
    /// stop too. Not with a fixed number of steps: which search met it first, on the clock,
    /// would decide how far the others got, and a seed would not always give the same answers.
    pub stop_others: bool,
}

impl Limits {
    /// At most `steps` steps, until `deadline`, stopping at `target` (and raising the stop
    /// flag then), with no exploration.
    pub fn new(steps: u64, deadline: Option<Instant>, target: u64) -> Limits {
        Limits {
            steps,
            deadline,
            target,
            explore_steps: 0,
            explore_until: None,
            stop_others: true,
        }
    }
}

/// The best answer a search found.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Found {
    /// Its cost.
    pub cost: u64,
    /// Its pieces.
    pub pieces: Vec<Placement>,
    /// Steps made.
    pub steps: u64,
}

/// A local search from a board on which every king is in check. See the [module docs](self).
pub struct Search<'a, G> {
    board: Board,
    candidates: &'a Candidates,
    weights: Vec<u64>,
    tally: Vec<i32>,
    effect: Vec<Change>,
    scratch: Vec<Change>,
    /// The step at which each cell last changed.
    age: Vec<u64>,
    /// The cell changed by the last move: not to be undone at once.
    tabu: usize,
    /// Configuration checking: false for a cell whose piece was removed while none of the
    /// kings it could check has gone into or out of check since (placing there again would
    /// only undo the removal).
    free: Vec<bool>,
    step: u64,
    best_cost: u64,
    best: Vec<Placement>,
    rng: G,
    cheapest: PieceKind,
    /// The board without our pieces, to restart from.
    empty: Board,
    /// The step of the last improvement of the best answer.
    improved_at: u64,
    /// The step of the last kick (see [`KICK_STEPS`]).
    kicked_at: u64,
    /// The step last told to the progress ([`Search::report_to`]).
    reported: u64,
    /// For each cell holding a piece, the best way to take it away as last valued by
    /// [`Search::value_of_taking`]: (weight lost per price saved, the kind left there).
    valued: Vec<(f64, Option<PieceKind>)>,
    /// The cells whose entry in `valued` may be out of date: marked by every change to the
    /// board, to a check count or to a weight that its valuation may read (see
    /// [`Board::pieces_near`]), so that [`Search::remove_best`] values again only those.
    /// Brought up to date only when read ([`Search::mark_stale`]), from `queue`.
    stale: Vec<bool>,
    /// The cells changed and the cells of the kings whose check count changed since `stale`
    /// was last brought up to date, each once (`queued` per cell).
    queue: Vec<u32>,
    queued: Vec<bool>,
    /// The kings not in check, in increasing order (kept with the board by
    /// [`Search::changed`], or rebuilt by [`Search::set_board`]).
    unchecked: Vec<u32>,
    /// The cells of the pieces on the board, in increasing order (kept with the board by
    /// [`Search::changed`], or rebuilt by [`Search::set_board`]).
    cells: Vec<usize>,
    /// Where to report each better answer found, and the test's number there.
    report: Option<(&'a Progress, usize)>,
    /// How far above the best answer's cost a move may take the board: 0, or the best cost
    /// times [`SLACK`] while the search explores.
    slack: u64,
    /// The moves kept for a trace, when asked for ([`Search::tell`]).
    told: Option<Box<Told>>,
}

/// The moves of a search kept for a trace (see [`Search::tell`]).
#[derive(Clone, Debug)]
pub struct Told {
    /// The board the search started from.
    pub start: Vec<Placement>,
    /// Its changes of the board, in order (at most the limit given).
    pub moves: Moves,
    /// How many of them lead to the best answer (replayed from `start`); None when the best
    /// answer came after the limit.
    pub best_at: Option<usize>,
}

/// Steps without improvement after which the search restarts from a new randomised greedy
/// answer with fresh weights (plus a few per king).
const RESTART_STEPS: u64 = 50_000;
/// Steps without improvement (and since the last kick) after which the search kicks: it goes
/// back to the best answer with a region of it taken away (see [`Search::kick`]). Frequent
/// kicks (2,500 rather than 20,000 steps) turn the late search into many short rebuilds
/// around the best answer: on the dense benchmark boards that is what leaves the basins one
/// or two dear pieces away from the optimum, which long walks from the best answer rarely do.
const KICK_STEPS: u64 = 2_500;
/// The largest distance, in rows and columns, from the centre of a kick to the pieces it
/// takes away.
const KICK_REACH: u8 = 5;
/// While a search explores (the first part of each call, [`Limits::explore_steps`]), its
/// moves may take the board up to this fraction above the best answer's cost instead of
/// keeping below it. On the dense benchmark board where the search is stuck most (test 9 of
/// dense1_00) the searches that fall into the common basin (+143,293 above the optimum)
/// early stay there; wandering above the best answer for a while first lets more of them
/// reach the deeper ones. 5% rather than 10%: with 10% a run of dense1_01 now and then ended
/// in a dearer basin (docs/benchmarks.md has the dense set's figures).
pub const SLACK: f64 = 0.05;

impl<'a, G: Rng> Search<'a, G> {
    /// A search starting from `board`, on which every king must be in check.
    pub fn new(board: Board, candidates: &'a Candidates, rng: G) -> Search<'a, G> {
        let kings = board.king_count();
        let stride = board.side() + 4;
        let best = board.placements();
        let best_cost = board.cost();
        let mut empty = board.clone();
        let mut scratch = Vec::new();
        let cells: Vec<usize> = empty.piece_cells().collect();
        for p in cells {
            empty.remove(p, &mut scratch);
        }
        let cheapest = PieceKind::ALL
            .into_iter()
            .min_by_key(|&k| (board.price(k), k))
            .unwrap_or(PieceKind::Horse);
        let mut search = Search {
            board,
            candidates,
            weights: vec![1; kings],
            tally: vec![0; kings],
            effect: Vec::new(),
            scratch: Vec::new(),
            age: vec![0; stride * stride],
            tabu: usize::MAX,
            free: vec![true; stride * stride],
            step: 0,
            best_cost,
            best,
            rng,
            cheapest,
            empty,
            improved_at: 0,
            kicked_at: 0,
            reported: 0,
            valued: vec![(0.0, None); stride * stride],
            stale: vec![true; stride * stride],
            queue: Vec::new(),
            queued: vec![false; stride * stride],
            unchecked: Vec::new(),
            cells: Vec::new(),
            report: None,
            slack: 0,
            told: None,
        };
        search.set_board(None);
        search
    }

    /// Searches until a limit is reached or `stop` is raised; returns the best answer found.
    pub fn run(mut self, limits: &Limits, stop: &AtomicBool) -> Found {
        self.resume(limits, stop);
        Found {
            cost: self.best_cost,
            pieces: self.best,
            steps: self.step,
        }
    }

    /// Keeps every change of the board from now on, at most `limit` of them, and how many
    /// lead to the best answer (see [`Search::told`]).
    pub fn tell(&mut self, limit: usize) {
        self.told = Some(Box::new(Told {
            start: self.board.placements(),
            moves: Moves::new(limit),
            best_at: Some(0),
        }));
    }

    /// The changes kept since [`Search::tell`].
    pub fn told(&self) -> Option<&Told> {
        self.told.as_deref()
    }

    /// Notes that the board is the best answer now.
    fn mark_best(&mut self) {
        if let Some(told) = &mut self.told {
            told.best_at = (!told.moves.full).then_some(told.moves.steps.len());
        }
    }

    /// Puts `board` in place of the search's, kept as a jump for `why`.
    fn jump(&mut self, board: Board, why: Why) {
        if let Some(told) = &mut self.told {
            told.moves.jump(why, board.placements());
        }
        self.set_board(Some(board));
    }

    /// Reports every better answer found from now on to `progress`, as test `test`'s.
    pub fn report_to(&mut self, progress: &'a Progress, test: usize) {
        self.report = Some((progress, test));
    }

    /// The cost of the best answer found so far.
    pub fn best_cost(&self) -> u64 {
        self.best_cost
    }

    /// The best answer found so far.
    pub fn best(&self) -> &[Placement] {
        &self.best
    }

    /// Searches on from where the last call stopped (`limits.steps` more steps at most), until
    /// a limit is reached or `stop` is raised. Returns the best cost found so far.
    pub fn resume(&mut self, limits: &Limits, stop: &AtomicBool) -> u64 {
        let begin = self.step;
        let end = self.step.saturating_add(limits.steps);
        let explore_end = self.step.saturating_add(limits.explore_steps);
        let mut exploring = false;
        while self.step < end && self.best_cost > limits.target {
            if self.step.is_multiple_of(64) || self.step == begin {
                if self.step - self.reported >= STEPS_REPORTED {
                    self.report_steps();
                }
                let now = Instant::now();
                if stop.load(Ordering::Relaxed) || limits.deadline.is_some_and(|d| now >= d) {
                    break;
                }
                exploring = self.step < explore_end && limits.explore_until.is_none_or(|d| now < d);
            }
            self.slack = if exploring {
                (self.best_cost as f64 * SLACK) as u64
            } else {
                0
            };
            self.step += 1;
            if self.board.unchecked() == 0 {
                if self.board.cost() < self.best_cost {
                    self.best_cost = self.board.cost();
                    self.best = self.board.placements();
                    self.mark_best();
                    self.improved_at = self.step;
                    if let Some((progress, test)) = self.report {
                        progress.improved(test, self.best_cost);
                    }
                    if self.best_cost <= limits.target {
                        // It cannot be beaten: the other searches may stop too.
                        if limits.stop_others {
                            stop.store(true, Ordering::Relaxed);
                        }
                        break;
                    }
                }
                self.remove_best();
                continue;
            }
            if self.step - self.improved_at.max(self.kicked_at) > KICK_STEPS {
                self.kick();
            } else if self.step - self.improved_at > RESTART_STEPS + 100 * self.weights.len() as u64
            {
                self.restart(Deadline::from(limits.deadline).or_stop(stop));
            }
            // Check a king with a move that keeps the cost below the best answer's (plus the
            // slack while exploring); when none fits, make room by taking a piece away.
            if !self.add_for_random_king() && self.board.piece_count() > 0 {
                self.remove_best();
            }
            self.bump_weights();
        }
        if self.board.unchecked() == 0 && self.board.cost() < self.best_cost {
            self.best_cost = self.board.cost();
            self.best = self.board.placements();
            self.mark_best();
        }
        self.report_steps();
        self.best_cost
    }

    /// Tells the progress of [`Search::report_to`] the steps made since the last report.
    fn report_steps(&mut self) {
        if let Some((progress, test)) = self.report {
            progress.stepped(test, self.step - self.reported);
        }
        self.reported = self.step;
    }

    /// Removes the piece whose removal loses the least weight per price, or replaces one by a
    /// cheaper kind when that loses the least weight per price saved (oldest first among
    /// equals), never the one just placed. Returns false when no piece could be removed.
    /// Only the pieces whose valuation may have changed since the last call are valued again.
    fn remove_best(&mut self) -> bool {
        // (loss per price saved, age, cell, the kind left there: None to empty it)
        let mut best: Option<(f64, u64, usize, Option<PieceKind>)> = None;
        self.mark_stale();
        let cells = std::mem::take(&mut self.cells);
        #[cfg(test)]
        assert!(
            cells.iter().copied().eq(self.board.piece_cells()),
            "the list of pieces is out of date"
        );
        for &p in &cells {
            if p == self.tabu && self.board.piece_count() > 1 {
                continue;
            }
            if self.stale[p] {
                let (value, unchecked) = self.value_of_taking(p);
                self.valued[p] = value;
                // A valuation that reads the weight of an unchecked king (which grows at every
                // step) is never kept.
                self.stale[p] = unchecked;
            }
            #[cfg(test)]
            {
                let (fresh, _) = self.value_of_taking(p);
                assert_eq!(self.valued[p], fresh, "a stale valuation at cell {p}");
            }
            let (value, kind) = self.valued[p];
            let key = (value, self.age[p], p, kind);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        self.cells = cells;
        match best {
            Some((_, _, p, None)) => {
                self.board.remove(p, &mut self.scratch);
                self.changed(p);
                self.age[p] = self.step;
                self.touch();
                self.free[p] = false;
                true
            }
            Some((_, _, p, Some(cheaper))) => {
                self.board.replace(p, cheaper, &mut self.scratch);
                self.changed(p);
                self.age[p] = self.step;
                self.touch();
                self.tabu = p;
                true
            }
            None => false,
        }
    }

    /// The best way to take away the piece on `p`: removing it, valued by the weight lost per
    /// price saved, or replacing it by a cheaper kind, valued by the weight lost per price
    /// saved (the first of equals in that order); and whether the changes valued involve an
    /// unchecked king (whose weight the valuation then reads).
    fn value_of_taking(&mut self, p: usize) -> ((f64, Option<PieceKind>), bool) {
        let Some(kind) = self.board.piece_at(p) else {
            return ((f64::INFINITY, None), false);
        };
        let price = self.board.price(kind);
        let mut unchecked = false;
        // The piece's own checks lost, shared by the removal and every replacement.
        self.effect.clear();
        self.board.effect_of_lifting(p, &mut self.effect);
        let lifted = self.effect.len();
        self.board.effect_of_emptying(p, &mut self.effect);
        unchecked |= self.involves_unchecked();
        let loss = -self.effect_gain();
        let mut best = (loss as f64 / f64::from(price), None);
        for cheaper in PieceKind::ALL {
            let saving = price.saturating_sub(self.board.price(cheaper));
            if saving == 0 {
                continue;
            }
            self.effect.truncate(lifted);
            self.board.effect_of_piece(cheaper, p, &mut self.effect);
            unchecked |= self.involves_unchecked();
            let loss = -self.effect_gain();
            let value = loss as f64 / f64::from(saving);
            if value < best.0 {
                best = (value, Some(cheaper));
            }
        }
        (best, unchecked)
    }

    /// The weight the changes in `effect` gain (see [`Board::weight_gain`]).
    fn effect_gain(&mut self) -> i64 {
        self.board
            .weight_gain(&self.effect, &self.weights, &mut self.tally)
    }

    /// True when the changes in `effect` involve a king not in check.
    fn involves_unchecked(&self) -> bool {
        self.effect
            .iter()
            .any(|&(k, _)| self.board.checks(k as usize) == 0)
    }

    /// After a change on cell `x` (its changes of check counts in `scratch`): brings the lists
    /// of unchecked kings and of pieces up to date and queues what may make valuations stale
    /// (see [`Search::mark_stale`]).
    fn changed(&mut self, x: usize) {
        if let Some(told) = &mut self.told {
            told.moves
                .set(Phase::Search, self.board.square(x), self.board.piece_at(x));
        }
        for &k in self.board.flipped() {
            let at = self.unchecked.binary_search(&k);
            match (self.board.checks(k as usize) == 0, at) {
                (true, Err(i)) => self.unchecked.insert(i, k),
                (false, Ok(i)) => {
                    self.unchecked.remove(i);
                }
                _ => {}
            }
        }
        match (
            self.cells.binary_search(&x),
            self.board.piece_at(x).is_some(),
        ) {
            (Err(i), true) => self.cells.insert(i, x),
            (Ok(i), false) => {
                self.cells.remove(i);
            }
            _ => {}
        }
        // The cell, and the kings whose count changed on balance (`tally` is left zero).
        self.enqueue(x);
        for &(k, d) in &self.scratch {
            self.tally[k as usize] += d;
        }
        for i in 0..self.scratch.len() {
            let k = self.scratch[i].0 as usize;
            if std::mem::take(&mut self.tally[k]) != 0 {
                self.enqueue(self.board.king_cell(k));
            }
        }
    }

    fn enqueue(&mut self, cell: usize) {
        if !std::mem::replace(&mut self.queued[cell], true) {
            self.queue.push(cell as u32);
        }
    }

    /// Brings `stale` up to date from the queue, on the board as it is now: for a changed
    /// cell, its piece and those looking along a line through it ([`Board::pieces_in_line`]);
    /// for a king, the pieces whose changes may involve it ([`Board::pieces_near`]). That is
    /// as exact as marking at each change: a piece whose lines (up to their second obstacle)
    /// differ from when it was valued has the first cell where they differ within them now,
    /// with at most one obstacle between, and that cell changed; one whose lines are the same
    /// involves the same kings now as then, so it is near every one of them whose count
    /// changed. Changes that come and go between two removals (most of them) are marked once.
    fn mark_stale(&mut self) {
        let stale = &mut self.stale;
        for &c in &self.queue {
            let c = c as usize;
            self.queued[c] = false;
            if self.board.king_at(c).is_some() {
                self.board.pieces_near(c, |p| stale[p] = true);
            } else {
                stale[c] = true;
                self.board.pieces_in_line(c, |p| stale[p] = true);
            }
        }
        self.queue.clear();
    }

    /// Puts `board` in place of the search's (or keeps it, with None): every valuation
    /// stale, the unchecked kings listed again.
    fn set_board(&mut self, board: Option<Board>) {
        if let Some(board) = board {
            self.board = board;
        }
        self.cells.clear();
        self.cells.extend(self.board.piece_cells());
        self.stale.fill(true);
        for &c in &self.queue {
            self.queued[c as usize] = false;
        }
        self.queue.clear();
        self.unchecked.clear();
        self.unchecked.extend(
            (0..self.board.king_count() as u32).filter(|&k| self.board.checks(k as usize) == 0),
        );
    }

    /// Goes back to the best answer with the pieces near a random one of its pieces (at most
    /// a random distance from 2 to [`KICK_REACH`] away in rows and columns) taken away, the
    /// king weights kept: the search then rebuilds that region, often differently.
    fn kick(&mut self) {
        self.kicked_at = self.step;
        if self.best.is_empty() {
            return;
        }
        let centre = self.best[self.rng.random_range(0..self.best.len())].square;
        let reach = self.rng.random_range(2..=KICK_REACH);
        let mut board = self.empty.clone();
        let mut scratch = Vec::new();
        for p in &self.best {
            let d = p
                .square
                .row
                .abs_diff(centre.row)
                .max(p.square.col.abs_diff(centre.col));
            if d > reach {
                let cell = board.cell(p.square);
                board.place(p.kind, cell, &mut scratch);
            }
        }
        self.jump(board, Why::Kick);
        self.free.iter_mut().for_each(|f| *f = true);
        self.tabu = usize::MAX;
    }

    /// A random king that is not in check.
    fn random_unchecked(&mut self) -> Option<usize> {
        #[cfg(test)]
        assert!(
            self.unchecked.len() == self.board.unchecked()
                && self
                    .unchecked
                    .iter()
                    .all(|&k| self.board.checks(k as usize) == 0),
            "the list of unchecked kings is out of date"
        );
        if self.unchecked.is_empty() {
            return None;
        }
        let pick = self.rng.random_range(0..self.unchecked.len());
        Some(self.unchecked[pick] as usize)
    }

    /// Starts again from a randomised greedy answer with fresh weights (built by `deadline`,
    /// else nothing changes, as when the greedy reaches a dead end: on dense boards it often
    /// does); the best answer is kept.
    fn restart(&mut self, deadline: Deadline<'_>) {
        self.improved_at = self.step;
        let mut board = self.empty.clone();
        if !super::construction::greedy(&mut board, self.candidates, 0.5, &mut self.rng, deadline) {
            return;
        }
        self.jump(board, Why::Restart);
        self.weights.iter_mut().for_each(|w| *w = 1);
        self.free.iter_mut().for_each(|f| *f = true);
        self.tabu = usize::MAX;
    }

    /// Frees the candidate cells of every king that just went into or out of check.
    fn touch(&mut self) {
        for &k in self.board.flipped() {
            for c in self.candidates.of_king(k as usize) {
                let p = self.board.cell(c.square);
                self.free[p] = true;
            }
        }
    }

    fn bump_weights(&mut self) {
        for &k in &self.unchecked {
            self.weights[k as usize] += 1;
        }
    }
}

#[cfg(test)]
mod tests;

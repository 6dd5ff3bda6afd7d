//! The true optimum of small boards by exhaustive branch and bound.
//!
//! Take any optimal answer P. Every piece of P either checks a king or is the screen of a
//! cannon that does (any other piece can go without losing a check). The search builds a
//! subset Q of such an answer: it takes a king not in check on the current board and branches
//! over every candidate (piece, square) that may check it, adding, for a cannon that needs one,
//! every possible screen (square between, any piece). A branch is kept only if the king is then
//! in check and every king chosen before still is: on the way to Q that always holds, because
//! the squares between each checker and its king hold in Q exactly what they hold in P. When no
//! king is left unchecked the board is a valid answer costing no more than P. Branches are cut
//! when their cost plus a packing bound (kings whose candidate squares are pairwise disjoint
//! need a piece each) reaches the best answer known.

use crate::core::pieces::PieceKind;

use super::board::{Board, Change};
use super::candidates::Candidates;
use super::deadline::Deadline;
use super::{Instance, Placement};

/// The outcome of an exhaustive search.
#[derive(Clone, Debug, Eq, PartialEq)]
pub enum Outcome {
    /// The least cost and an answer reaching it.
    Optimal(u64, Vec<Placement>),
    /// No arrangement checks every king.
    Infeasible,
    /// The node limit was reached first.
    Unfinished,
}

struct Dfs<'a> {
    candidates: &'a Candidates,
    board: Board,
    best_cost: u64,
    best: Option<Vec<Placement>>,
    nodes: u64,
    limit: u64,
    /// Pieces tried (a node may try thousands on large boards, each cannon with every screen
    /// on its line): the deadline is looked at every 256 of them too.
    tried: u64,
    deadline: Deadline<'a>,
    assigned: Vec<usize>,
    scratch: Vec<Change>,
    marks: Vec<u32>,
    mark: u32,
}

/// Finds the least-cost answer of `instance` by branch and bound, visiting at most `limit`
/// nodes and stopping at `deadline`. `known` is an answer already found (its cost prunes the search from the start).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::candidates::Candidates;
/// use chess_puzzles::showdown::exhaustive::{optimum, Outcome};
/// use chess_puzzles::showdown::Instance;
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(0, 2));
/// // Cannons cost 1, the rest 5: the kings on (1,1) and (1,3) are each checked by a cannon on
/// // the bottom row with a cannon on the middle row as its screen: 4 beats a rook's 5.
/// let instance = Instance::new(3, kings, [5, 5, 5, 5, 5, 5, 5, 1]).unwrap();
/// match optimum(&instance, &Candidates::new(instance.kings()), None, 100_000, None) {
///     Outcome::Optimal(cost, _) => assert_eq!(cost, 4),
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn optimum<'a>(
    instance: &Instance,
    candidates: &'a Candidates,
    known: Option<(u64, Vec<Placement>)>,
    limit: u64,
    deadline: impl Into<Deadline<'a>>,
) -> Outcome {
    let deadline = deadline.into();
    let board = Board::new(instance);
    let stride = instance.side() + 4;
    let (best_cost, best) = match known {
        Some((cost, pieces)) => (cost, Some(pieces)),
        None => (u64::MAX, None),
    };
    let mut dfs = Dfs {
        candidates,
        board,
        best_cost,
        best,
        nodes: 0,
        limit,
        tried: 0,
        deadline,
        assigned: Vec::new(),
        scratch: Vec::new(),
        marks: vec![0; stride * stride],
        mark: 0,
    };
    if instance.king_count() == 0 {
        // One piece must still be placed (the answer has at least one): the cheapest anywhere.
        let kind = PieceKind::ALL
            .into_iter()
            .min_by_key(|&k| (instance.cost(k), k))
            .unwrap_or(PieceKind::Horse);
        let square = crate::core::Square::new(0, 0);
        return Outcome::Optimal(
            u64::from(instance.cost(kind)),
            vec![Placement { kind, square }],
        );
    }
    let finished = dfs.search(0);
    match (finished, dfs.best) {
        (false, _) => Outcome::Unfinished,
        (true, Some(pieces)) => Outcome::Optimal(dfs.best_cost, pieces),
        (true, None) => Outcome::Infeasible,
    }
}

/// Completes `board`, on which some kings are not in check, with the cheapest pieces the same
/// branch and bound finds within `limit` nodes and before `deadline`, keeping every king now
/// in check in check at every step (a heuristic: completions that take a check away and give
/// it back are not seen). Returns the cost of the pieces added and every piece of the
/// completed board, when the pieces added cost less than `below`.
pub fn complete<'a>(
    board: Board,
    candidates: &'a Candidates,
    below: u64,
    limit: u64,
    deadline: impl Into<Deadline<'a>>,
) -> Option<(u64, Vec<Placement>)> {
    let stride = board.side() + 4;
    let assigned = (0..board.king_count())
        .filter(|&k| board.checks(k) > 0)
        .collect();
    let mut dfs = Dfs {
        candidates,
        board,
        best_cost: below,
        best: None,
        nodes: 0,
        limit,
        tried: 0,
        deadline: deadline.into(),
        assigned,
        scratch: Vec::new(),
        marks: vec![0; stride * stride],
        mark: 0,
    };
    dfs.search(0);
    dfs.best.map(|pieces| (dfs.best_cost, pieces))
}

impl Dfs<'_> {
    /// Returns false when the node limit stopped the search.
    fn search(&mut self, cost: u64) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit || (self.nodes.is_multiple_of(256) && self.deadline.passed()) {
            return false;
        }
        if self.board.unchecked() == 0 {
            if cost < self.best_cost {
                self.best_cost = cost;
                self.best = Some(self.board.placements());
            }
            return true;
        }
        if cost.saturating_add(self.packing_bound()) >= self.best_cost {
            return true;
        }
        let Some(k) = self.most_constrained() else {
            return true;
        };
        let mut options: Vec<(u32, PieceKind, usize, bool)> = self
            .candidates
            .of_king(k)
            .iter()
            .map(|c| {
                (
                    self.board.price(c.kind),
                    c.kind,
                    self.board.cell(c.square),
                    c.needs_screen,
                )
            })
            .collect();
        options.sort_unstable();
        let king_cell = self.board.king_cell(k);
        for (price, kind, p, needs_screen) in options {
            if self.out_of_time() {
                return false;
            }
            let price = u64::from(price);
            if self.board.is_empty(p) {
                self.board.place(kind, p, &mut self.scratch);
                if !self.try_child(k, cost + price) {
                    self.board.remove(p, &mut self.scratch);
                    return false;
                }
                if needs_screen && !self.with_screens(k, p, king_cell, cost + price) {
                    self.board.remove(p, &mut self.scratch);
                    return false;
                }
                self.board.remove(p, &mut self.scratch);
            } else if needs_screen
                && self.board.piece_at(p) == Some(kind)
                && !self.with_screens(k, p, king_cell, cost)
            {
                return false;
            }
        }
        true
    }

    /// Counts a piece tried; true when the deadline has passed (looked at every 256).
    fn out_of_time(&mut self) -> bool {
        self.tried += 1;
        self.tried.is_multiple_of(256) && self.deadline.passed()
    }

    /// Recurses if king `k` is in check and every king assigned before still is.
    fn try_child(&mut self, k: usize, cost: u64) -> bool {
        if cost >= self.best_cost || self.board.checks(k) == 0 {
            return true;
        }
        if self.assigned.iter().any(|&a| self.board.checks(a) == 0) {
            return true;
        }
        self.assigned.push(k);
        let finished = self.search(cost);
        self.assigned.pop();
        finished
    }

    /// Branches over every screen (square between, any piece) for the cannon on `p`.
    fn with_screens(&mut self, k: usize, p: usize, king_cell: usize, cost: u64) -> bool {
        let from = self.board.square(p);
        let to = self.board.square(king_cell);
        let dr = i32::from(to.row) - i32::from(from.row);
        let dc = i32::from(to.col) - i32::from(from.col);
        let steps = dr.abs().max(dc.abs());
        let (ur, uc) = (dr.signum(), dc.signum());
        for i in 1..steps {
            let Some(sq) = from.offset(ur * i, uc * i, self.board.side()) else {
                continue;
            };
            let b = self.board.cell(sq);
            if !self.board.is_empty(b) {
                continue;
            }
            for kind in PieceKind::ALL {
                if self.out_of_time() {
                    return false;
                }
                let price = u64::from(self.board.price(kind));
                self.board.place(kind, b, &mut self.scratch);
                let finished = self.try_child(k, cost + price);
                self.board.remove(b, &mut self.scratch);
                if !finished {
                    return false;
                }
            }
        }
        true
    }

    /// The usable options of king `k`: (price, square cell); `None` when one of them is a
    /// cannon already standing that only lacks a screen (its king may be checked by a screen
    /// serving another king too, so it gives no bound).
    fn options(&self, k: usize, out: &mut Vec<(u32, usize)>) -> Option<()> {
        out.clear();
        for c in self.candidates.of_king(k) {
            let p = self.board.cell(c.square);
            if self.board.is_empty(p) {
                out.push((self.board.price(c.kind), p));
            } else if c.needs_screen && self.board.piece_at(p) == Some(c.kind) {
                return None;
            }
        }
        Some(())
    }

    /// The unchecked king with the fewest usable options.
    fn most_constrained(&self) -> Option<usize> {
        let mut best: Option<(usize, usize)> = None;
        let mut out = Vec::new();
        for k in 0..self.board.king_count() {
            if self.board.checks(k) > 0 {
                continue;
            }
            let count = match self.options(k, &mut out) {
                Some(()) => out.len(),
                None => usize::MAX - 1,
            };
            if best.is_none_or(|(c, _)| count < c) {
                best = Some((count, k));
            }
        }
        best.map(|(_, k)| k)
    }

    /// A lower bound on what the unchecked kings still cost: kings whose usable squares are
    /// pairwise disjoint need distinct new pieces, each at least its king's cheapest option.
    fn packing_bound(&mut self) -> u64 {
        self.mark += 1;
        let mark = self.mark;
        let mut kings: Vec<(u32, usize)> = Vec::new();
        let mut out = Vec::new();
        for k in 0..self.board.king_count() {
            if self.board.checks(k) == 0 && self.options(k, &mut out).is_some() {
                let cheapest = out.iter().map(|o| o.0).min().unwrap_or(u32::MAX);
                if out.is_empty() {
                    // Unreachable from here: no completion exists.
                    return u64::MAX / 4;
                }
                kings.push((cheapest, k));
            }
        }
        kings.sort_unstable_by(|a, b| b.cmp(a));
        let mut bound = 0u64;
        for (cheapest, k) in kings {
            let _ = self.options(k, &mut out);
            if out.iter().any(|&(_, p)| self.marks[p] == mark) {
                continue;
            }
            for &(_, p) in &out {
                self.marks[p] = mark;
            }
            bound += u64::from(cheapest);
        }
        bound
    }
}

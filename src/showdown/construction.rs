//! Building a first answer: greedy placement, redundant pieces removed, and a fallback that
//! always works on the statement's boards.
//!
//! [`greedy`] places, again and again, the piece with the lowest price per king it newly brings
//! into check, counted exactly on the current board (a piece that blocks a slide or adds a
//! second screen loses those checks, one that completes a screen gains them). With no noise it
//! is the plain greedy the optimiser is measured against.

use std::cell::Cell;

use rand::{Rng, RngExt};

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::board::{Board, Change};
use super::candidates::Candidates;
use super::deadline::Deadline;
use super::{Instance, Placement};

/// Places pieces until every king is in check or no placement brings a king into check,
/// each time the one with the lowest price per newly checked king. With `noise > 0` each ratio
/// is multiplied by a random factor in `1..1 + noise` (a randomised construction). Returns
/// true when every king ends in check; false also when `deadline` passes first (the board is
/// then left half built: [`complete_by_leaps`] finishes it).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::board::Board;
/// use chess_puzzles::showdown::candidates::Candidates;
/// use chess_puzzles::showdown::construction::greedy;
/// use chess_puzzles::showdown::Instance;
/// use rand::SeedableRng;
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(2, 2));
/// let instance = Instance::new(3, kings, [1; 8]).unwrap();
/// let mut board = Board::new(&instance);
/// assert!(greedy(&mut board, &Candidates::new(instance.kings()), 0.0, &mut rand_chacha::ChaCha8Rng::seed_from_u64(1), None));
/// assert_eq!(board.cost(), 1); // one bishop, rook or knight checks both kings
/// ```
pub fn greedy<'a, G: Rng + ?Sized>(
    board: &mut Board,
    candidates: &Candidates,
    noise: f64,
    rng: &mut G,
    deadline: impl Into<Deadline<'a>>,
) -> bool {
    let deadline = deadline.into();
    let mut work = Work::new(board);
    let mut scratch = Vec::new();
    while board.unchecked() > 0 {
        if deadline.passed() {
            return false;
        }
        // A round on a large board takes long: the deadline is looked at within it too.
        let best = if noise > 0.0 {
            work.choose_noisy(board, candidates, noise, rng, &deadline)
        } else {
            work.choose(board, candidates, &deadline)
        };
        match best {
            Some((kind, p)) => board.place(kind, p, &mut scratch),
            None => return false,
        }
    }
    true
}

/// How many kings or slots [`greedy`] handles between two looks at its deadline.
const LOOK_EVERY: usize = 1024;

/// The working space of [`greedy`], reused from round to round.
struct Work {
    round: u32,
    /// The round in which each (cell, kind) slot was last listed.
    seen: Vec<u32>,
    /// The number of unchecked kings that list the slot among their candidates (this round).
    listed: Vec<u32>,
    /// The slots of this round in the order first met (unchecked kings in order, each
    /// king's candidates in order): the order that breaks ties.
    order: Vec<usize>,
    /// What the pieces looking through a cell check changes the same way whatever is placed
    /// there: computed once per cell and round, kept in `occupying` at `occupying_at[cell]`.
    occupying_round: Vec<u32>,
    occupying_at: Vec<(u32, u32)>,
    occupying: Vec<Change>,
    tally: Vec<i32>,
    effect: Vec<Change>,
    /// Per cell, how many of our pieces would take a piece placed there as their screen.
    screens: Vec<u8>,
}

impl Work {
    fn new(board: &Board) -> Work {
        let slots = board_cells(board);
        Work {
            round: 0,
            seen: vec![u32::MAX; slots],
            listed: vec![0; slots],
            order: Vec::new(),
            occupying_round: vec![u32::MAX; slots / 8],
            occupying_at: vec![(0, 0); slots / 8],
            occupying: Vec::new(),
            tally: vec![0; board.king_count()],
            effect: Vec::new(),
            screens: vec![0; slots / 8],
        }
    }

    /// Starts a round: lists the slots on empty cells from which some unchecked king could be
    /// checked, in order, with how many unchecked kings list each. False when `deadline`
    /// passes first.
    fn list(&mut self, board: &Board, candidates: &Candidates, deadline: &Deadline<'_>) -> bool {
        self.round += 1;
        self.order.clear();
        self.occupying.clear();
        for k in 0..board.king_count() {
            if k % LOOK_EVERY == LOOK_EVERY - 1 && deadline.passed() {
                return false;
            }
            if board.checks(k) > 0 {
                continue;
            }
            for c in candidates.of_king(k) {
                let p = board.cell(c.square);
                if !board.is_empty(p) {
                    continue;
                }
                let slot = p * 8 + c.kind.index();
                if self.seen[slot] == self.round {
                    self.listed[slot] += 1;
                } else {
                    self.seen[slot] = self.round;
                    self.listed[slot] = 1;
                    self.order.push(slot);
                }
            }
        }
        true
    }

    /// Counts, for every empty cell, the pieces of ours that would hop over a piece placed
    /// there (it would be their screen): the only way occupying a cell brings a king into
    /// check. Each such piece adds at most one king.
    fn mark_screens(&mut self, board: &Board) {
        self.screens.iter_mut().for_each(|c| *c = 0);
        let n = board.side();
        for cell in board.piece_cells() {
            let Some(kind) = board.piece_at(cell) else {
                continue;
            };
            let from = board.square(cell);
            for &(dr, dc) in kind.movement().hops {
                let mut at = from;
                while let Some(next) = at.offset(i32::from(dr), i32::from(dc), n) {
                    let p = board.cell(next);
                    if !board.is_empty(p) {
                        break;
                    }
                    self.screens[p] = self.screens[p].saturating_add(1);
                    at = next;
                }
            }
        }
    }

    /// The changes of occupying cell `p`, computed once per round.
    fn occupying(&mut self, board: &Board, p: usize) -> &[Change] {
        if self.occupying_round[p] != self.round {
            self.occupying_round[p] = self.round;
            let from = self.occupying.len();
            board.effect_of_occupying(p, &mut self.occupying);
            self.occupying_at[p] = (from as u32, (self.occupying.len() - from) as u32);
        }
        let (from, len) = self.occupying_at[p];
        &self.occupying[from as usize..(from + len) as usize]
    }

    /// The net number of kings that placing the slot's piece brings into check.
    fn net(&mut self, board: &Board, slot: usize) -> i32 {
        let (p, kind) = (slot / 8, PieceKind::ALL[slot % 8]);
        let mut effect = std::mem::take(&mut self.effect);
        effect.clear();
        effect.extend_from_slice(self.occupying(board, p));
        board.effect_of_piece(kind, p, &mut effect);
        let net = board.net_checked(&effect, &mut self.tally);
        self.effect = effect;
        net
    }

    /// The slot with the lowest price per newly checked king, the first in [`Work::order`]
    /// among equals: exactly the choice of trying every slot, but a slot is evaluated only
    /// when a bound on its ratio could beat the best so far. The bound: a piece newly checks
    /// at most the unchecked kings that list its slot, plus one king for each of our pieces
    /// that would hop over it (a screen completed), so its ratio is at least price / that.
    fn choose(
        &mut self,
        board: &Board,
        candidates: &Candidates,
        deadline: &Deadline<'_>,
    ) -> Option<(PieceKind, usize)> {
        if !self.list(board, candidates, deadline) {
            return None;
        }
        self.mark_screens(board);
        // Each slot's lowest possible ratio, and the most promising slot.
        let mut bounds = Vec::with_capacity(self.order.len());
        let mut start: Option<(f64, usize)> = None;
        for i in 0..self.order.len() {
            if i % LOOK_EVERY == LOOK_EVERY - 1 && deadline.passed() {
                return None;
            }
            let slot = self.order[i];
            let p = slot / 8;
            let most = self.listed[slot] + u32::from(self.screens[p]);
            let price = f64::from(board.price(PieceKind::ALL[slot % 8]));
            let bound = price / f64::from(most.max(1));
            bounds.push(bound);
            if start.is_none_or(|(b, _)| bound < b) {
                start = Some((bound, i));
            }
        }
        let mut best: Option<(f64, usize)> = None;
        let consider = |best: &mut Option<(f64, usize)>, work: &mut Work, i: usize| {
            let slot = work.order[i];
            let net = work.net(board, slot);
            if net <= 0 {
                return;
            }
            let ratio = f64::from(board.price(PieceKind::ALL[slot % 8])) / f64::from(net);
            if best.is_none_or(|(r, j)| ratio < r || (ratio == r && i < j)) {
                *best = Some((ratio, i));
            }
        };
        if let Some((_, i)) = start {
            consider(&mut best, self, i);
        }
        for (i, &bound) in bounds.iter().enumerate() {
            if i % LOOK_EVERY == LOOK_EVERY - 1 && deadline.passed() {
                return None;
            }
            if best.is_some_and(|(r, j)| bound > r || (bound == r && i >= j)) {
                continue;
            }
            consider(&mut best, self, i);
        }
        best.map(|(_, i)| {
            let slot = self.order[i];
            (PieceKind::ALL[slot % 8], slot / 8)
        })
    }

    /// The slot with the lowest price per newly checked king, each ratio multiplied by a
    /// random factor in `1..1 + noise` (every slot is evaluated, in order).
    fn choose_noisy<G: Rng + ?Sized>(
        &mut self,
        board: &Board,
        candidates: &Candidates,
        noise: f64,
        rng: &mut G,
        deadline: &Deadline<'_>,
    ) -> Option<(PieceKind, usize)> {
        if !self.list(board, candidates, deadline) {
            return None;
        }
        let mut best: Option<(f64, usize)> = None;
        for i in 0..self.order.len() {
            if i % LOOK_EVERY == LOOK_EVERY - 1 && deadline.passed() {
                return None;
            }
            let slot = self.order[i];
            let net = self.net(board, slot);
            if net <= 0 {
                continue;
            }
            let mut ratio = f64::from(board.price(PieceKind::ALL[slot % 8])) / f64::from(net);
            ratio *= 1.0 + noise * rng.random::<f64>();
            if best.is_none_or(|(r, _)| ratio < r) {
                best = Some((ratio, slot));
            }
        }
        best.map(|(_, slot)| (PieceKind::ALL[slot % 8], slot / 8))
    }
}

/// The number of cells of the board's padded array, times eight (a slot per kind).
fn board_cells(board: &Board) -> usize {
    let side = board.side() + 4;
    side * side * 8
}

/// Completes a board on which some kings are unchecked (a greedy cut short by its deadline)
/// with pieces whose checks nothing can take away: for each unchecked king, the piece that
/// leaps or steps onto it, or slides onto it from a neighbouring square, with the lowest price
/// per newly checked king. A king checked that way stays in check whatever is placed later,
/// so at most one piece per king is added. Returns false when a king has no such square left
/// empty (the board is then left as it is).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::board::Board;
/// use chess_puzzles::showdown::candidates::Candidates;
/// use chess_puzzles::showdown::construction::complete_by_leaps;
/// use chess_puzzles::showdown::Instance;
///
/// let mut kings = SquareSet::new(4);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(3, 3));
/// let instance = Instance::new(4, kings, [5, 5, 1, 5, 5, 5, 5, 5]).unwrap();
/// let mut board = Board::new(&instance);
/// assert!(complete_by_leaps(&mut board, &Candidates::new(instance.kings())));
/// // A knight on (2,3) leaps onto both kings.
/// assert_eq!((board.unchecked(), board.cost()), (0, 1));
/// ```
pub fn complete_by_leaps(board: &mut Board, candidates: &Candidates) -> bool {
    let mut tally = vec![0i32; board.king_count()];
    let mut effect = Vec::new();
    let mut scratch = Vec::new();
    while board.unchecked() > 0 {
        for k in 0..board.king_count() {
            if board.checks(k) > 0 {
                continue;
            }
            let king = candidates.king_square(k);
            let mut best: Option<(f64, PieceKind, usize)> = None;
            for c in candidates.of_king(k) {
                let leap = usize::from(c.group) < c.kind.movement().leaps.len();
                let unblockable = !c.needs_screen && (leap || c.square.is_neighbour(king));
                let p = board.cell(c.square);
                if !unblockable || !board.is_empty(p) {
                    continue;
                }
                effect.clear();
                board.effect_of_place(c.kind, p, &mut effect);
                // At least the king itself comes into check, whatever the piece blocks.
                let net = board.net_checked(&effect, &mut tally).max(1);
                let ratio = f64::from(board.price(c.kind)) / f64::from(net);
                if best.is_none_or(|(r, _, _)| ratio < r) {
                    best = Some((ratio, c.kind, p));
                }
            }
            match best {
                Some((_, kind, p)) => board.place(kind, p, &mut scratch),
                None => return false,
            }
        }
    }
    true
}

/// Removes pieces that no king needs (its removal leaves every king in check), the dearest
/// first, until none can go. Returns how many were removed.
pub fn prune(board: &mut Board) -> usize {
    let mut tally = vec![0i32; board.king_count()];
    let mut effect = Vec::new();
    let mut scratch = Vec::new();
    let mut removed = 0;
    loop {
        let mut cells: Vec<(u32, usize)> = board
            .piece_cells()
            .filter_map(|p| board.piece_at(p).map(|k| (board.price(k), p)))
            .collect();
        cells.sort_by(|a, b| b.cmp(a));
        let mut any = false;
        for (_, p) in cells {
            effect.clear();
            board.effect_of_remove(p, &mut effect);
            if board.net_checked(&effect, &mut tally) >= 0 {
                board.remove(p, &mut scratch);
                removed += 1;
                any = true;
            }
        }
        if !any {
            return removed;
        }
    }
}

/// An answer built in one pass over the kings, without the candidate sets (whose
/// construction walks every line through every king): for each king that no piece placed so
/// far checks, the piece with the lowest price per king newly brought into check among those
/// that check it from an empty square by a leap, a step or a slide of one square (checks
/// that nothing placed later can block), counting only such checks. A king whose squares
/// all hold pieces already gets a horse instead of one of the pieces beside it (a horse
/// checks all eight neighbours of its square); the kings that only the piece replaced
/// checked (by a knight's or a phoenix's jump) are taken up again. Valid by construction; a
/// few milliseconds on a 256x256 board, where the candidate sets alone take tens. The
/// answer of the tests that the time limit or Ctrl-C leaves unbegun. `None` only for a king
/// with no empty neighbour whose jump squares are all taken (a cannon may still reach it).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::construction::leap_answer;
/// use chess_puzzles::showdown::judge::verify;
/// use chess_puzzles::showdown::Instance;
///
/// let mut kings = SquareSet::new(4);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(3, 3));
/// let instance = Instance::new(4, kings, [5, 5, 1, 5, 5, 5, 5, 5]).unwrap();
/// let pieces = leap_answer(&instance).unwrap();
/// assert_eq!(verify(&instance, &pieces), Ok(1)); // one knight leaps onto both kings
/// ```
pub fn leap_answer(instance: &Instance) -> Option<Vec<Placement>> {
    // A board padded by two cells on every side (the longest reach is a knight's or a
    // phoenix's jump of two), so that no offset needs a bounds check.
    const PAD: usize = 2;
    const WALL: u8 = 0x80;
    const KING: u8 = 0x40;
    // The low bits of a cell: the kind of our piece there (its index + 1, 0 for none).
    const KIND: u8 = 0x0F;
    let n = instance.side();
    let stride = n + 2 * PAD;
    let cell = |sq: Square| (usize::from(sq.row) + PAD) * stride + usize::from(sq.col) + PAD;
    // The cells, then how many of our pieces check each cell that way (at most 20: 8
    // neighbours, 8 knight and 4 phoenix jumps): one allocation.
    // The memory of the last call on this thread, if any (millions of small tests may come:
    // a fresh allocation each took a quarter of their time).
    let (mut grid, mut placed) = LEAP_MEMORY.take();
    grid.clear();
    grid.resize(2 * stride * stride, 0);
    let (cells, checks) = grid.split_at_mut(stride * stride);
    cells.fill(WALL);
    for r in 0..n {
        let row = (r + PAD) * stride + PAD;
        cells[row..row + n].fill(0);
    }
    for king in instance.kings().iter() {
        cells[cell(king)] = KING;
    }
    // Where each kind checks from one square away or by a leap, as cell offsets from the
    // piece to the king (fixed arrays: this runs for every test of inputs of millions).
    let reach: [([isize; 8], usize); 8] = PieceKind::ALL.map(|kind| {
        let m = kind.movement();
        let mut offsets = [0isize; 8];
        let mut len = 0;
        // At most 8 (a knight's, a horse's or a phoenix's).
        for (slot, &(dr, dc)) in offsets.iter_mut().zip(m.leaps.iter().chain(m.slides)) {
            *slot = isize::from(dr) * stride as isize + isize::from(dc);
            len += 1;
        }
        (offsets, len)
    });
    let reach_of = |k: usize| &reach[k].0[..reach[k].1];
    // For each offset from which some kind checks a king (the 8 neighbours, then the jumps),
    // the kind with the lowest price per cell it checks that way, the first among equals
    // (the statement's order): (offset, kind, price, cells). Counting the kings each choice
    // would really bring into check is better, but several times slower: this answer must be
    // quick.
    let option = |(dr, dc): (i8, i8), kinds: u8| {
        (0..8)
            .filter(|&k| kinds & (1 << k) != 0)
            .map(|k| {
                let price = u64::from(instance.cost(PieceKind::ALL[k]));
                let offset = isize::from(dr) * stride as isize + isize::from(dc);
                (offset, k, price, reach[k].1 as u64)
            })
            .reduce(|a, b| if b.2 * a.3 < a.2 * b.3 { b } else { a })
    };
    // Where many kings will look them up, every offset's choice is made once and sorted by
    // price per cell (stably); on a board with a handful of kings, most offsets lead off the
    // board, and each king's are made when it looks (millions of small tests may come).
    let mut sorted = [(0isize, 0usize, 0u64, 0u64); 24];
    let mut count = 0;
    if instance.king_count() > unblockable_offsets().len() {
        for &(o, kinds) in unblockable_offsets() {
            if let Some(choice) = option(o, kinds)
                && count < sorted.len()
            {
                sorted[count] = choice;
                count += 1;
            }
        }
        sorted[..count].sort_by(|a, b| (a.2 * b.3).cmp(&(b.2 * a.3)));
    }
    let sorted = &sorted[..count];
    // The kings left unchecked by a replacement, to take up again.
    let mut again = Vec::new();
    let mut kings = instance.kings().iter().map(cell);
    // The cells that hold a piece, a bit each.
    placed.clear();
    placed.resize((stride * stride).div_ceil(64), 0);
    let at = |p: usize, offset: isize| p.wrapping_add_signed(offset);
    while let Some(king) = again.pop().or_else(|| kings.next()) {
        if checks[king] > 0 {
            continue;
        }
        // The free cell whose best kind has the lowest price per cell it checks, the first
        // offset among equals: the first free one once they are sorted.
        let best = if count > 0 {
            sorted
                .iter()
                .map(|&(offset, kind, _, _)| (kind, at(king, -offset)))
                .find(|&(_, p)| cells[p] == 0)
        } else {
            unblockable_offsets()
                .iter()
                .filter_map(|&((dr, dc), kinds)| {
                    let p = at(king, -(isize::from(dr) * stride as isize + isize::from(dc)));
                    (cells[p] == 0).then(|| option((dr, dc), kinds)).flatten()
                })
                .map(|(offset, kind, price, len)| (kind, at(king, -offset), price, len))
                .reduce(|a, b| if b.2 * a.3 < a.2 * b.3 { b } else { a })
                .map(|(kind, p, _, _)| (kind, p))
        };
        let (kind, p) = match best {
            Some(choice) => choice,
            None => {
                // Every square is taken: a neighbour's piece (not a horse, which would check
                // the king) makes way for a horse.
                let horse = PieceKind::Horse.index();
                let p = reach_of(horse)
                    .iter()
                    .map(|&o| at(king, o))
                    .find(|&p| cells[p] & (WALL | KING) == 0 && cells[p] & KIND != 0)?;
                let old = usize::from(cells[p] & KIND) - 1;
                for &o in reach_of(old) {
                    let t = at(p, o);
                    checks[t] -= 1;
                    if checks[t] == 0 && cells[t] == KING {
                        again.push(t);
                    }
                }
                (horse, p)
            }
        };
        cells[p] = kind as u8 + 1;
        placed[p / 64] |= 1 << (p % 64);
        for &o in reach_of(kind) {
            checks[at(p, o)] += 1;
        }
    }
    // The pieces in the order of their cells (row by row), a word of 64 cells at a time: a
    // walk of every cell, a branch each, took a third of the time.
    let mut pieces = Vec::with_capacity(instance.king_count());
    let (mut row, mut row_start) = (0, 0);
    for (w, &word) in placed.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let p = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            while p >= row_start + stride {
                row += 1;
                row_start += stride;
            }
            pieces.push(Placement {
                kind: PieceKind::ALL[usize::from(cells[p] & KIND) - 1],
                square: Square::new((row - PAD) as u8, (p - row_start - PAD) as u8),
            });
        }
    }
    LEAP_MEMORY.set((grid, placed));
    Some(pieces)
}

thread_local! {
    /// [`leap_answer`]'s board and its set of cells holding a piece, kept for the next call on
    /// the same thread.
    static LEAP_MEMORY: Cell<(Vec<u8>, Vec<u64>)> = const { Cell::new((Vec::new(), Vec::new())) };
}

/// The offsets (rows, columns, from a piece to a king) from which some kind checks a king
/// by a leap, a step or a slide of one square, the eight neighbours first, each with the
/// kinds that do (a bit per kind). Made once.
fn unblockable_offsets() -> &'static [((i8, i8), u8)] {
    static OFFSETS: std::sync::OnceLock<Vec<((i8, i8), u8)>> = std::sync::OnceLock::new();
    OFFSETS.get_or_init(|| {
        let mut offsets: Vec<((i8, i8), u8)> = Vec::new();
        // The horse's first: it checks all eight neighbours.
        let order = (0..8).map(|k| PieceKind::ALL[(PieceKind::Horse.index() + k) % 8]);
        for kind in order {
            let m = kind.movement();
            for &o in m.leaps.iter().chain(m.slides) {
                if !offsets.iter().any(|&(seen, _)| seen == o) {
                    offsets.push((o, 0));
                }
            }
        }
        for (o, kinds) in &mut offsets {
            for kind in PieceKind::ALL {
                let m = kind.movement();
                if m.leaps.contains(o) || m.slides.contains(o) {
                    *kinds |= 1 << kind.index();
                }
            }
        }
        offsets
    })
}

/// An answer that needs no search: a horse on an empty neighbour of every king (its one-square
/// moves cannot be blocked), and for a king without one a knight or a phoenix jumping onto
/// it, else a cannon over a neighbouring king. Valid for every board the statement allows;
/// the caller verifies it, since a cannon can be spoilt by the other pieces.
pub fn fallback(instance: &Instance, candidates: &Candidates) -> Vec<Placement> {
    let n = instance.side();
    let mut chosen: Vec<Option<PieceKind>> = vec![None; n * n];
    let mut pieces = Vec::new();
    for k in 0..candidates.king_count() {
        let options = candidates.of_king(k);
        let pick = |kind: PieceKind, leap_only: bool| {
            options.iter().find(|c| {
                c.kind == kind
                    && !c.needs_screen
                    && (!leap_only || c.square.is_neighbour(candidates.king_square(k)))
                    && chosen[c.square.index(n)].is_none_or(|k2| k2 == kind)
            })
        };
        let choice = pick(PieceKind::Horse, true)
            .or_else(|| pick(PieceKind::Knight, false))
            .or_else(|| pick(PieceKind::Phoenix, false))
            .or_else(|| pick(PieceKind::Cannon, false));
        if let Some(c) = choice {
            let slot = &mut chosen[c.square.index(n)];
            if slot.is_none() {
                *slot = Some(c.kind);
                pieces.push(Placement {
                    kind: c.kind,
                    square: c.square,
                });
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Square, SquareSet};
    use crate::input::CaseReader;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// The plain greedy written the obvious way: every (cell, kind) of every unchecked king
    /// evaluated in full every round, the first with the lowest ratio kept.
    fn reference(board: &mut Board, candidates: &Candidates) -> bool {
        let mut tally = vec![0i32; board.king_count()];
        let mut scratch = Vec::new();
        while board.unchecked() > 0 {
            // Every empty (cell, kind) once, in the order the unchecked kings list them.
            let mut seen = std::collections::HashSet::new();
            let options: Vec<(usize, PieceKind)> = (0..board.king_count())
                .filter(|&k| board.checks(k) == 0)
                .flat_map(|k| candidates.of_king(k))
                .map(|c| (board.cell(c.square), c.kind))
                .filter(|&(p, kind)| board.is_empty(p) && seen.insert((p, kind)))
                .collect();
            let ratios = options.into_iter().filter_map(|(p, kind)| {
                let mut effect = Vec::new();
                board.effect_of_place(kind, p, &mut effect);
                let net = board.net_checked(&effect, &mut tally);
                (net > 0).then(|| (f64::from(board.price(kind)) / f64::from(net), kind, p))
            });
            // `min_by` keeps the first of equal ratios.
            let Some((_, kind, p)) = ratios.min_by(|a, b| a.0.total_cmp(&b.0)) else {
                return false;
            };
            board.place(kind, p, &mut scratch);
        }
        true
    }

    #[test]
    fn the_bounded_choice_is_the_choice_of_trying_everything() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for round in 0..300 {
            let n = rng.random_range(2..=14usize);
            let density = [0.1, 0.3, 0.6, 0.85][round % 4];
            let mut kings = SquareSet::new(n);
            for r in 0..n {
                for c in 0..n {
                    if rng.random::<f64>() < density {
                        kings.insert(Square::new(r as u8, c as u8));
                    }
                }
            }
            // Few distinct prices make ties, which must be broken the same way.
            let top = [1u32, 3, 1000][round % 3];
            let costs: [u32; 8] = std::array::from_fn(|_| rng.random_range(1..=top));
            let Ok(instance) = Instance::new(n, kings, costs) else {
                continue;
            };
            let candidates = Candidates::new(instance.kings());
            let mut fast = Board::new(&instance);
            let mut slow = Board::new(&instance);
            let done = greedy(&mut fast, &candidates, 0.0, &mut rng, None);
            assert_eq!(done, reference(&mut slow, &candidates));
            assert_eq!(fast.placements(), slow.placements(), "round {round}");
        }
    }

    #[test]
    fn a_board_cut_short_is_completed_by_leaps() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut completed = 0;
        for _ in 0..100 {
            let n = rng.random_range(3..=12usize);
            let mut kings = SquareSet::new(n);
            for r in 0..n {
                for c in 0..n {
                    if rng.random::<f64>() < 0.4 {
                        kings.insert(Square::new(r as u8, c as u8));
                    }
                }
            }
            let costs: [u32; 8] = std::array::from_fn(|_| rng.random_range(1..=9));
            let Ok(instance) = Instance::new(n, kings, costs) else {
                continue;
            };
            let candidates = Candidates::new(instance.kings());
            let mut board = Board::new(&instance);
            // A deadline already passed: nothing placed by the greedy.
            let passed = crate::clock::Instant::now();
            assert!(
                !greedy(&mut board, &candidates, 0.0, &mut rng, Some(passed))
                    || instance.king_count() == 0
            );
            if complete_by_leaps(&mut board, &candidates) {
                assert!(super::super::judge::verify(&instance, &board.placements()).is_ok());
                completed += 1;
            }
        }
        // Only a king surrounded by kings can lack a square to be leapt onto from.
        assert!(completed >= 80, "{completed}");
    }

    /// Random boards of every density, as the generator makes them (every king with an empty
    /// neighbour): the one-pass answer always exists there and is valid.
    #[test]
    fn the_leap_answer_is_valid_and_found_where_kings_have_room() {
        use crate::input::Scanner;
        use crate::showdown::generator::{Densities, GenOptions, Sizes, generate};
        use crate::showdown::judge::verify;
        for (seed, sizes) in [(1, "2-25"), (2, "2-4"), (3, "60-80"), (4, "256")] {
            let mut text = Vec::new();
            let options = GenOptions {
                seed,
                tests: if sizes == "256" { 4 } else { 200 },
                sizes: sizes.parse::<Sizes>().unwrap(),
                densities: "0.01-0.95".parse::<Densities>().unwrap(),
                ..GenOptions::default()
            };
            generate(options, &mut text).unwrap();
            let mut reader = crate::showdown::Reader::new(Scanner::new(&text[..])).unwrap();
            while let Some(instance) = reader.next_case().unwrap() {
                let pieces = leap_answer(&instance).expect("every king has an empty neighbour");
                assert!(verify(&instance, &pieces).is_ok(), "{}", reader.context());
            }
        }
    }
}

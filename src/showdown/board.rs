//! A board under construction with, for every king, the number of our pieces that check it,
//! kept exact as pieces are placed, removed and replaced.
//!
//! The board is stored with a border of two wall cells (the longest leap is two squares), so
//! every leap and every walk along a line stays inside the array. Placing or removing a piece
//! on a square `p` changes:
//! - the kings the piece itself checks (its leaps, the first obstacle of each slide, the first
//!   obstacle behind the first one along each hop);
//! - what the pieces looking through `p` check: the first obstacle `q1` behind `p` in each
//!   direction, if it slides through `p`, now stops at `p` instead of the first obstacle `r1`
//!   beyond it; a cannon on `q1` gets `p` as its screen and `r1` as its target instead of `r1`
//!   and `r2`; a cannon on the second obstacle `q2` behind `p` loses its target `r1` (the
//!   second screen `p` now stands in front of it).
//!
//! Removing reverses exactly these changes, and replacing a piece by another only swaps its own
//! checks. Every change is a list of (king, +1 or -1): the local search evaluates a move by such
//! a list without making it.

use crate::core::Square;
use crate::core::pieces::PieceKind;

use super::journal::{Moves, Phase};
use super::{Instance, Placement};

/// The border width: the longest leap of any piece.
const PAD: usize = 2;
/// A cell off the board.
const WALL: u8 = 0xFF;
/// An empty square.
const EMPTY: u8 = 0xFE;
/// A king.
const KING: u8 = 0xFD;
/// No king on this cell.
const NO_KING: u32 = u32::MAX;

/// One change of a king's check count.
pub type Change = (u32, i32);

/// The moves of one piece kind as offsets in the padded array.
#[derive(Clone, Debug, Default)]
struct KindMoves {
    leaps: Vec<isize>,
    slides: Vec<isize>,
    hops: Vec<isize>,
}

/// A board with kings, our pieces and the check count of every king. See the
/// [module docs](self).
#[derive(Clone, Debug)]
pub struct Board {
    side: usize,
    stride: usize,
    cells: Vec<u8>,
    king_at: Vec<u32>,
    king_cells: Vec<u32>,
    checks: Vec<u32>,
    unchecked: usize,
    costs: [u32; 8],
    cost: u64,
    pieces: usize,
    moves: [KindMoves; 8],
    /// The eight unit directions as offsets.
    directions: [isize; 8],
    /// The eight squares at most two away in rows and columns and on no line through the
    /// origin (a knight's jumps), as offsets.
    off_line: [isize; 8],
    /// For each unit direction, the kinds (bit per kind) that slide along it.
    slide_mask: [u8; 8],
    /// For each unit direction, the kinds (bit per kind) that hop along it.
    hop_mask: [u8; 8],
    /// The kings that went into or out of check in the last change.
    flipped: Vec<u32>,
    /// Every change kept, with the phase that made it, when asked for ([`Board::keep_log`]).
    log: Option<Box<(Phase, Moves)>>,
}

impl Board {
    /// The empty board of an instance: every king unchecked.
    pub fn new(instance: &Instance) -> Board {
        let side = instance.side();
        let stride = side + 2 * PAD;
        let mut cells = vec![WALL; stride * stride];
        let mut king_at = vec![NO_KING; stride * stride];
        let mut king_cells = Vec::new();
        for r in 0..side {
            for c in 0..side {
                let i = (r + PAD) * stride + c + PAD;
                if instance.is_king(Square::new(r as u8, c as u8)) {
                    cells[i] = KING;
                    king_at[i] = king_cells.len() as u32;
                    king_cells.push(i as u32);
                } else {
                    cells[i] = EMPTY;
                }
            }
        }
        let s = stride as isize;
        let offset = |(dr, dc): (i8, i8)| isize::from(dr) * s + isize::from(dc);
        let moves = PieceKind::ALL.map(|kind| {
            let m = kind.movement();
            KindMoves {
                leaps: m.leaps.iter().map(|&o| offset(o)).collect(),
                slides: m.slides.iter().map(|&o| offset(o)).collect(),
                hops: m.hops.iter().map(|&o| offset(o)).collect(),
            }
        });
        let directions = [-s - 1, -s, -s + 1, -1, 1, s - 1, s, s + 1];
        let off_line = [
            -2 * s - 1,
            -2 * s + 1,
            -s - 2,
            -s + 2,
            s - 2,
            s + 2,
            2 * s - 1,
            2 * s + 1,
        ];
        let mut slide_mask = [0u8; 8];
        let mut hop_mask = [0u8; 8];
        for (d, &delta) in directions.iter().enumerate() {
            for (k, m) in moves.iter().enumerate() {
                if m.slides.contains(&delta) {
                    slide_mask[d] |= 1 << k;
                }
                if m.hops.contains(&delta) {
                    hop_mask[d] |= 1 << k;
                }
            }
        }
        let kings = king_cells.len();
        Board {
            side,
            stride,
            cells,
            king_at,
            king_cells,
            checks: vec![0; kings],
            unchecked: kings,
            costs: instance.costs(),
            cost: 0,
            pieces: 0,
            moves,
            directions,
            off_line,
            slide_mask,
            hop_mask,
            flipped: Vec::new(),
            log: None,
        }
    }

    /// Keeps every change from now on (at most `limit`), each with the phase last set by
    /// [`Board::set_phase`] (at first [`Phase::Greedy`]).
    pub fn keep_log(&mut self, limit: usize) {
        self.log = Some(Box::new((Phase::Greedy, Moves::new(limit))));
    }

    /// The phase the changes from now on are kept with.
    pub fn set_phase(&mut self, phase: Phase) {
        if let Some(log) = &mut self.log {
            log.0 = phase;
        }
    }

    /// The changes kept, the log stopped.
    pub fn take_log(&mut self) -> Option<Moves> {
        self.log.take().map(|log| log.1)
    }

    /// Keeps the change of cell `p`, now holding `kind` (or nothing), when a log is kept.
    fn logged(&mut self, p: usize, kind: Option<PieceKind>) {
        if self.log.is_some() {
            let square = self.square(p);
            if let Some(log) = &mut self.log {
                log.1.set(log.0, square, kind);
            }
        }
    }

    /// The board of an instance holding `pieces` (a piece on a square already taken, by a king
    /// or an earlier piece, is left out).
    pub fn holding(instance: &Instance, pieces: &[Placement]) -> Board {
        let mut board = Board::new(instance);
        board.put_all(pieces);
        board
    }

    /// Places `pieces` one by one (a piece on a square already taken is left out).
    pub fn put_all(&mut self, pieces: &[Placement]) {
        let mut scratch = Vec::new();
        for p in pieces {
            let cell = self.cell(p.square);
            if self.is_empty(cell) {
                self.place(p.kind, cell, &mut scratch);
            }
        }
    }

    /// The board's side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The cell index of a square.
    pub fn cell(&self, sq: Square) -> usize {
        (usize::from(sq.row) + PAD) * self.stride + usize::from(sq.col) + PAD
    }

    /// The square of a cell index (which must be on the board).
    pub fn square(&self, cell: usize) -> Square {
        Square::new(
            (cell / self.stride - PAD) as u8,
            (cell % self.stride - PAD) as u8,
        )
    }

    /// The cell of king `k`.
    pub fn king_cell(&self, k: usize) -> usize {
        self.king_cells[k] as usize
    }

    /// How many kings there are.
    pub fn king_count(&self) -> usize {
        self.king_cells.len()
    }

    /// How many of our pieces check king `k`.
    pub fn checks(&self, k: usize) -> u32 {
        self.checks[k]
    }

    /// How many kings are not in check.
    pub fn unchecked(&self) -> usize {
        self.unchecked
    }

    /// The total price of the pieces on the board.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// How many pieces are on the board.
    pub fn piece_count(&self) -> usize {
        self.pieces
    }

    /// The price of a kind.
    pub fn price(&self, kind: PieceKind) -> u32 {
        self.costs[kind.index()]
    }

    /// The piece on a cell, if one of ours stands there.
    pub fn piece_at(&self, cell: usize) -> Option<PieceKind> {
        PieceKind::ALL.get(usize::from(self.cells[cell])).copied()
    }

    /// True when the cell is an empty square of the board.
    pub fn is_empty(&self, cell: usize) -> bool {
        self.cells[cell] == EMPTY
    }

    /// The king number on a cell, if a king stands there.
    pub fn king_at(&self, cell: usize) -> Option<usize> {
        let k = self.king_at[cell];
        (k != NO_KING).then_some(k as usize)
    }

    /// The pieces on the board.
    pub fn placements(&self) -> Vec<Placement> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, &c)| {
                PieceKind::ALL.get(usize::from(c)).map(|&kind| Placement {
                    kind,
                    square: self.square(i),
                })
            })
            .collect()
    }

    /// The cells holding our pieces, in increasing order (row by row).
    pub fn piece_cells(&self) -> impl Iterator<Item = usize> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| usize::from(c) < 8)
            .map(|(i, _)| i)
    }

    /// The first non-empty cell from `from` (exclusive) stepping by `delta`.
    #[inline]
    fn next_obstacle(&self, from: usize, delta: isize) -> usize {
        let mut at = from;
        loop {
            at = at.wrapping_add_signed(delta);
            if self.cells[at] != EMPTY {
                return at;
            }
        }
    }

    /// Pushes the changes of what the pieces looking through `p` check when `p` becomes
    /// occupied (`sign` +1) or empty (`sign` -1). The cell `p` itself is never read.
    fn through(&self, p: usize, sign: i32, out: &mut Vec<Change>) {
        for d in 0..8 {
            let delta = self.directions[d];
            let q1 = self.next_obstacle(p, -delta);
            let c1 = self.cells[q1];
            if c1 == WALL {
                continue;
            }
            let bit = |c: u8| if c < 8 { 1u8 << c } else { 0 };
            let slides = self.slide_mask[d] & bit(c1) != 0;
            let hops = self.hop_mask[d] & bit(c1) != 0;
            let hops2 = self.hop_mask[d] != 0 && {
                let q2 = self.next_obstacle(q1, -delta);
                self.hop_mask[d] & bit(self.cells[q2]) != 0
            };
            if !(slides || hops || hops2) {
                continue;
            }
            let r1 = self.next_obstacle(p, delta);
            let k1 = self.king_at[r1];
            if slides && k1 != NO_KING {
                out.push((k1, -sign));
            }
            if hops {
                if self.cells[r1] != WALL {
                    let r2 = self.next_obstacle(r1, delta);
                    let k2 = self.king_at[r2];
                    if k2 != NO_KING {
                        out.push((k2, -sign));
                    }
                }
                if k1 != NO_KING {
                    out.push((k1, sign));
                }
            }
            if hops2 && k1 != NO_KING {
                out.push((k1, -sign));
            }
        }
    }

    /// Pushes the checks of a piece of `kind` on `p`, with `sign`.
    fn own(&self, kind: PieceKind, p: usize, sign: i32, out: &mut Vec<Change>) {
        let m = &self.moves[kind.index()];
        for &delta in &m.leaps {
            let k = self.king_at[p.wrapping_add_signed(delta)];
            if k != NO_KING {
                out.push((k, sign));
            }
        }
        for &delta in &m.slides {
            let k = self.king_at[self.next_obstacle(p, delta)];
            if k != NO_KING {
                out.push((k, sign));
            }
        }
        for &delta in &m.hops {
            let screen = self.next_obstacle(p, delta);
            if self.cells[screen] != WALL {
                let k = self.king_at[self.next_obstacle(screen, delta)];
                if k != NO_KING {
                    out.push((k, sign));
                }
            }
        }
    }

    /// Calls `f` with the cell of every piece of ours whose changes (as the `effect_of_*`
    /// functions give them) may read what stands on the cell `x`: the first two obstacles
    /// along each line from `x` (a piece looks along a line up to its second obstacle; a leap
    /// reads only whether a king stands where it lands, which never changes). A piece may be
    /// named twice.
    #[inline]
    pub fn pieces_in_line(&self, x: usize, mut f: impl FnMut(usize)) {
        for &delta in &self.directions {
            let q1 = self.next_obstacle(x, delta);
            if self.cells[q1] == WALL {
                continue;
            }
            if self.cells[q1] < 8 {
                f(q1);
            }
            let q2 = self.next_obstacle(q1, delta);
            if self.cells[q2] < 8 {
                f(q2);
            }
        }
    }

    /// Calls `f` with the cell of every piece of ours whose changes may involve the king on
    /// the cell `x` (and so read its check count): those of [`Board::pieces_in_line`] and those
    /// at most two squares away in rows and columns (the longest leap). Those of the latter on
    /// a line through `x` are among the first two obstacles of that line, so only the others,
    /// a knight's jump away, are looked at apart. A piece may be named twice.
    #[inline]
    pub fn pieces_near(&self, x: usize, mut f: impl FnMut(usize)) {
        for &delta in &self.off_line {
            let c = x.wrapping_add_signed(delta);
            if self.cells[c] < 8 {
                f(c);
            }
        }
        self.pieces_in_line(x, f);
    }

    /// The changes of placing `kind` on the empty cell `p` (appended to `out`).
    pub fn effect_of_place(&self, kind: PieceKind, p: usize, out: &mut Vec<Change>) {
        self.through(p, 1, out);
        self.own(kind, p, 1, out);
    }

    /// The changes of what looks through `p` when it becomes occupied (the first half of
    /// [`Board::effect_of_place`], shared by every kind placed there).
    pub fn effect_of_occupying(&self, p: usize, out: &mut Vec<Change>) {
        self.through(p, 1, out);
    }

    /// The changes of a piece of `kind` on `p` checking what it checks (the second half of
    /// [`Board::effect_of_place`]).
    pub fn effect_of_piece(&self, kind: PieceKind, p: usize, out: &mut Vec<Change>) {
        self.own(kind, p, 1, out);
    }

    /// The changes of what looks through `p` when our piece there is taken away (the half of
    /// [`Board::effect_of_remove`] that does not depend on the piece).
    pub fn effect_of_emptying(&self, p: usize, out: &mut Vec<Change>) {
        self.through(p, -1, out);
    }

    /// The changes of our piece on `p` no longer checking what it checks (the other half of
    /// [`Board::effect_of_remove`], and the first half of [`Board::effect_of_replace`]).
    pub fn effect_of_lifting(&self, p: usize, out: &mut Vec<Change>) {
        if let Some(kind) = self.piece_at(p) {
            self.own(kind, p, -1, out);
        }
    }

    /// The changes of removing our piece from `p`.
    pub fn effect_of_remove(&self, p: usize, out: &mut Vec<Change>) {
        if let Some(kind) = self.piece_at(p) {
            self.through(p, -1, out);
            self.own(kind, p, -1, out);
        }
    }

    /// The changes of replacing our piece on `p` by one of `kind`.
    pub fn effect_of_replace(&self, p: usize, kind: PieceKind, out: &mut Vec<Change>) {
        if let Some(old) = self.piece_at(p) {
            self.own(old, p, -1, out);
            self.own(kind, p, 1, out);
        }
    }

    fn apply(&mut self, changes: &[Change]) {
        self.flipped.clear();
        for &(k, d) in changes {
            let c = &mut self.checks[k as usize];
            let before = *c;
            *c = c.wrapping_add_signed(d);
            if before == 0 {
                self.unchecked -= 1;
                self.flipped.push(k);
            } else if *c == 0 {
                self.unchecked += 1;
                self.flipped.push(k);
            }
        }
    }

    /// The kings that went into or out of check in the last place, remove or replace (a king
    /// may be listed twice).
    pub fn flipped(&self) -> &[u32] {
        &self.flipped
    }

    /// Places `kind` on the empty cell `p`; `scratch` is working space.
    pub fn place(&mut self, kind: PieceKind, p: usize, scratch: &mut Vec<Change>) {
        debug_assert!(self.is_empty(p));
        scratch.clear();
        self.effect_of_place(kind, p, scratch);
        self.apply(scratch);
        self.cells[p] = kind as u8;
        self.cost += u64::from(self.price(kind));
        self.pieces += 1;
        self.logged(p, Some(kind));
    }

    /// Removes our piece from `p` (nothing happens when there is none).
    pub fn remove(&mut self, p: usize, scratch: &mut Vec<Change>) {
        let Some(kind) = self.piece_at(p) else {
            return;
        };
        scratch.clear();
        self.effect_of_remove(p, scratch);
        self.apply(scratch);
        self.cells[p] = EMPTY;
        self.cost -= u64::from(self.price(kind));
        self.pieces -= 1;
        self.logged(p, None);
    }

    /// Replaces our piece on `p` by one of `kind` (nothing happens when there is none).
    pub fn replace(&mut self, p: usize, kind: PieceKind, scratch: &mut Vec<Change>) {
        let Some(old) = self.piece_at(p) else {
            return;
        };
        scratch.clear();
        self.effect_of_replace(p, kind, scratch);
        self.apply(scratch);
        self.cells[p] = kind as u8;
        self.cost = self.cost - u64::from(self.price(old)) + u64::from(self.price(kind));
        self.logged(p, Some(kind));
    }

    /// The net number of kings that a list of changes brings into check (negative when it
    /// leaves more kings unchecked than it checks). `tally` is working space of one entry per
    /// king, all zero, and left all zero.
    pub fn net_checked(&self, changes: &[Change], tally: &mut [i32]) -> i32 {
        let mut net = 0;
        self.for_each_changed(changes, tally, |_, before, after| {
            net += i32::from(after > 0) - i32::from(before > 0);
        });
        net
    }

    /// The total weight of the kings a list of changes brings into check minus the weight of
    /// those it leaves unchecked. `tally` as for [`Board::net_checked`].
    pub fn weight_gain(&self, changes: &[Change], weights: &[u64], tally: &mut [i32]) -> i64 {
        let mut gain = 0i64;
        self.for_each_changed(changes, tally, |k, before, after| {
            let w = weights[k] as i64;
            if before == 0 && after > 0 {
                gain += w;
            } else if before > 0 && after == 0 {
                gain -= w;
            }
        });
        gain
    }

    /// Calls `each(king, before, after)` once for every king whose number of checks a list of
    /// changes alters, with that number before and after them. `tally` as for
    /// [`Board::net_checked`].
    fn for_each_changed(
        &self,
        changes: &[Change],
        tally: &mut [i32],
        mut each: impl FnMut(usize, u32, u32),
    ) {
        for &(k, d) in changes {
            tally[k as usize] += d;
        }
        for &(k, _) in changes {
            let t = std::mem::take(&mut tally[k as usize]);
            if t != 0 {
                let before = self.checks[k as usize];
                each(k as usize, before, before.wrapping_add_signed(t));
            }
        }
    }

    /// Recounts every king's checks from scratch (for tests of the incremental updates).
    pub fn recount(&self) -> Vec<u32> {
        let mut counts = vec![0u32; self.king_count()];
        let mut out = Vec::new();
        for p in self.piece_cells() {
            if let Some(kind) = self.piece_at(p) {
                out.clear();
                self.own(kind, p, 1, &mut out);
                for &(k, _) in &out {
                    counts[k as usize] += 1;
                }
            }
        }
        counts
    }

    /// Every king's check count.
    pub fn all_checks(&self) -> &[u32] {
        &self.checks
    }
}

#[cfg(test)]
impl Board {
    /// Asserts that the incremental state (the checks of every king, the unchecked kings, the
    /// cost) agrees with a full recount and with the prices of the pieces.
    pub(crate) fn assert_consistent(&self, instance: &Instance) {
        let counts = self.recount();
        assert_eq!(self.all_checks(), counts.as_slice());
        let unchecked = counts.iter().filter(|&&c| c == 0).count();
        assert_eq!(self.unchecked(), unchecked);
        let prices = self.placements().into_iter().map(|p| instance.cost(p.kind));
        assert_eq!(self.cost(), prices.map(u64::from).sum::<u64>());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::SquareSet;
    use crate::core::pieces::attacks;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The check counts recomputed with the core's movement rules on the final board.
    fn literal_counts(instance: &Instance, board: &Board) -> Vec<u32> {
        let n = instance.side();
        let mut occupied = instance.kings().clone();
        let pieces = board.placements();
        for p in &pieces {
            occupied.insert(p.square);
        }
        let kings: Vec<Square> = instance.kings().iter().collect();
        let mut counts = vec![0; kings.len()];
        for p in &pieces {
            let hit = attacks(p.kind, p.square, &occupied);
            for (k, &sq) in kings.iter().enumerate() {
                if hit.contains(sq) {
                    counts[k] += 1;
                }
            }
        }
        assert_eq!(occupied.side(), n);
        counts
    }

    #[test]
    fn incremental_counts_match_a_full_recount_on_random_moves() {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let mut scratch = Vec::new();
        for _ in 0..300 {
            let n = rng.random_range(2..=9usize);
            let density = rng.random_range(0.05..0.85);
            let mut kings = SquareSet::new(n);
            for sq in SquareSet::full(n).iter() {
                if rng.random_bool(density) {
                    kings.insert(sq);
                }
            }
            let Ok(instance) = Instance::new(n, kings, [3, 5, 2, 4, 4, 6, 7, 1]) else {
                continue;
            };
            let mut board = Board::new(&instance);
            let mut tally = vec![0; board.king_count()];
            for _ in 0..60 {
                let sq = Square::new(rng.random_range(0..n) as u8, rng.random_range(0..n) as u8);
                let p = board.cell(sq);
                let kind = PieceKind::ALL[rng.random_range(0..8)];
                let before_unchecked = board.unchecked();
                let mut predicted = Vec::new();
                let move_kind = rng.random_range(0..3);
                if board.is_empty(p) {
                    board.effect_of_place(kind, p, &mut predicted);
                    let net = board.net_checked(&predicted, &mut tally);
                    board.place(kind, p, &mut scratch);
                    assert_eq!(before_unchecked as i32 - board.unchecked() as i32, net);
                } else if board.piece_at(p).is_some() {
                    // The halves the local search values removals and replacements by.
                    let mut lifted = Vec::new();
                    board.effect_of_lifting(p, &mut lifted);
                    let mut parts = lifted.clone();
                    if move_kind == 0 {
                        board.effect_of_piece(kind, p, &mut parts);
                    } else {
                        board.effect_of_emptying(p, &mut parts);
                    }
                    parts.sort_unstable();
                    if move_kind == 0 {
                        board.effect_of_replace(p, kind, &mut predicted);
                        let net = board.net_checked(&predicted, &mut tally);
                        predicted.sort_unstable();
                        assert_eq!(parts, predicted);
                        board.replace(p, kind, &mut scratch);
                        assert_eq!(before_unchecked as i32 - board.unchecked() as i32, net);
                    } else {
                        board.effect_of_remove(p, &mut predicted);
                        let net = board.net_checked(&predicted, &mut tally);
                        predicted.sort_unstable();
                        assert_eq!(parts, predicted);
                        board.remove(p, &mut scratch);
                        assert_eq!(before_unchecked as i32 - board.unchecked() as i32, net);
                    }
                }
                assert!(tally.iter().all(|&t| t == 0));
                assert_eq!(board.recount(), literal_counts(&instance, &board));
                board.assert_consistent(&instance);
                assert_eq!(board.piece_count(), board.placements().len());
            }
        }
    }
}

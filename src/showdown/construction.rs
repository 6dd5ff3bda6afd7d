//! Building a first answer: greedy placement, redundant pieces removed, and a fallback that
//! always works on the statement's boards.
//!
//! [`greedy`] places, again and again, the piece with the lowest price per king it newly brings
//! into check, counted exactly on the current board (a piece that blocks a slide or adds a
//! second screen loses those checks, one that completes a screen gains them). With no noise it
//! is the plain greedy the optimiser is measured against.

use rand::{Rng, RngExt};

use crate::core::pieces::PieceKind;

use super::board::{Board, Change};
use super::candidates::Candidates;
use super::instance::{Instance, Placement};

/// Places pieces until every king is in check or no placement brings a king into check,
/// each time the one with the lowest price per newly checked king. With `noise > 0` each ratio
/// is multiplied by a random factor in `1..1 + noise` (a randomised construction). Returns
/// true when every king ends in check; false also when `deadline` passes first (the board is
/// then left half built).
///
/// ```
/// use chess_puzzles::core::{Square, SquareSet};
/// use chess_puzzles::showdown::board::Board;
/// use chess_puzzles::showdown::candidates::Candidates;
/// use chess_puzzles::showdown::construction::greedy;
/// use chess_puzzles::showdown::Instance;
///
/// let mut kings = SquareSet::new(3);
/// kings.insert(Square::new(0, 0));
/// kings.insert(Square::new(2, 2));
/// let instance = Instance::new(3, kings, [1; 8]).unwrap();
/// let mut board = Board::new(&instance);
/// assert!(greedy(&mut board, &Candidates::new(&instance), 0.0, &mut rand::rng(), None));
/// assert_eq!(board.cost(), 1); // one bishop, rook or knight checks both kings
/// ```
pub fn greedy<G: Rng + ?Sized>(
    board: &mut Board,
    candidates: &Candidates,
    noise: f64,
    rng: &mut G,
    deadline: Option<std::time::Instant>,
) -> bool {
    let mut seen = vec![u32::MAX; board_cells(board)];
    let mut tally = vec![0i32; board.king_count()];
    let mut effect: Vec<Change> = Vec::new();
    let mut scratch = Vec::new();
    let mut round = 0u32;
    while board.unchecked() > 0 {
        if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
            return false;
        }
        let mut best: Option<(f64, PieceKind, usize)> = None;
        for k in 0..board.king_count() {
            if board.checks(k) > 0 {
                continue;
            }
            for c in candidates.of_king(k) {
                let p = board.cell(c.square);
                let slot = p * 8 + c.kind.index();
                if !board.is_empty(p) || seen[slot] == round {
                    continue;
                }
                seen[slot] = round;
                effect.clear();
                board.effect_of_place(c.kind, p, &mut effect);
                let net = board.net_checked(&effect, &mut tally);
                if net <= 0 {
                    continue;
                }
                let mut ratio = f64::from(board.price(c.kind)) / f64::from(net);
                if noise > 0.0 {
                    ratio *= 1.0 + noise * rng.random::<f64>();
                }
                if best.is_none_or(|(r, _, _)| ratio < r) {
                    best = Some((ratio, c.kind, p));
                }
            }
        }
        round += 1;
        match best {
            Some((_, kind, p)) => board.place(kind, p, &mut scratch),
            None => return false,
        }
    }
    true
}

/// The number of cells of the board's padded array, times eight (a slot per kind).
fn board_cells(board: &Board) -> usize {
    let side = board.side() + 4;
    side * side * 8
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

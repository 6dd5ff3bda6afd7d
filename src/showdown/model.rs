//! The showdown as a mixed-integer linear program (MILP), written as plain data for any solver.
//!
//! Columns: a binary `x[t,s]` per piece `t` a square `s` may usefully hold (every candidate of
//! every king, [`Candidates`], and the cheapest piece on every empty square, as a screen),
//! `o[s] = Σ_t x[t,s] <= 1` per empty square, and continuous helper columns. The objective is
//! the total price. Per king, two kinds of rows may be added:
//!
//! - **cover** ([`Model::add_covers`]): one of the king's candidates is placed (a cannon that
//!   needs one of our pieces as its screen counts only with some piece between; one cannon
//!   direction checks one king). Blocking is ignored: the rows hold on every valid answer, so a
//!   model of cover rows alone is a relaxation whose optimum bounds every answer from below.
//! - **exact** ([`Model::add_exact`]): the king is in check on the final board. Walking out
//!   from the king along each of its eight lines, `e[j]` may be 1 only while the squares
//!   `1..=j` hold none of our pieces (`e[j] <= e[j-1]`, `e[j] + o[j] <= 1`), and `h[j]` only
//!   while exactly one of them does (`h[j] <= h[j-1] + o[j]`, `h[j] + o[j] <= 1 + e[j-1]`). A
//!   slider on square `j` checks the king when it is the first piece of the line
//!   (`y <= Σ x`, `y <= e[j-1] - e[j]`); a cannon on `j` when exactly one piece stands
//!   before it (`w <= x`, `w <= h[j-1]`), or when the line reaches another king and
//!   nothing else stands before the cannon (the chain `e` goes on past that king). The king's
//!   leaps, `y`, `w` and the cannons past the other king sum to at least 1.
//!
//! A kind whose every capture another kind at most as dear also makes, from any square on any
//! board ([`replacement`]: the bishop, gold and silver generals when the horse costs no more),
//! gets its piece columns fixed at 0: both stand on one square and block alike, so putting the
//! other kind in its place keeps an answer valid at no greater cost, and the optimum is the same
//! with fewer columns and fewer equal answers to search through (boards with equal prices).
//!
//! Every helper column is at most the truth it stands for, whatever its value, once the `x`
//! are integers: so only the `x` need to be integer, and an integer solution whose kings all
//! have exact rows is a valid answer. [`Model::assignment`] gives every column's true value on
//! a given answer: on a valid answer every row holds (the model cuts no answer off), and on any
//! board exactly the cover and exact rows of the kings not in check fail (tested below).

use std::collections::HashMap;

use crate::core::pieces::{PieceKind, attacks};
use crate::core::{Square, SquareSet};

use super::board::Board;
use super::candidates::Candidates;
use super::{Instance, Placement};

/// One column (variable) of the model.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Its price in the objective (minimised).
    pub cost: f64,
    /// Its upper bound (the lower bound is 0).
    pub upper: f64,
    /// True when it must take an integer value.
    pub integer: bool,
    meaning: Meaning,
}

/// One row (constraint) of the model: `lower <= Σ coefficient * column <= upper`.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The least value of the sum (may be `-inf`).
    pub lower: f64,
    /// The largest value of the sum (may be `inf`).
    pub upper: f64,
    /// The sum's terms as (column, coefficient) pairs, the column an index into
    /// [`Model::columns`].
    pub entries: Vec<(usize, f64)>,
    /// The king whose check the row states (cover and exact rows), if any.
    pub king: Option<usize>,
}

/// What a column stands for on a final board; its true value is 1 when that holds, else 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Meaning {
    /// A piece of this kind on the square.
    Piece(PieceKind, Square),
    /// One of our pieces on the square.
    Occupied(Square),
    /// None of our pieces on the `len` squares after `from` in direction `dir` (kings do not
    /// count).
    NoPiece {
        from: Square,
        dir: (i8, i8),
        len: u8,
    },
    /// Exactly one of our pieces on those squares.
    OnePiece {
        from: Square,
        dir: (i8, i8),
        len: u8,
    },
    /// The piece on the square is one of `kinds` (a bit per kind) and checks the king.
    Checks { at: Square, king: Square, kinds: u8 },
}

/// A showdown test as a MILP. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Model {
    side: usize,
    kings: Vec<Square>,
    king_set: SquareSet,
    costs: [u32; 8],
    columns: Vec<Column>,
    rows: Vec<Row>,
    /// Per square (row-major): the column of `x[t,s]` per kind, if made.
    piece_columns: Vec<[Option<usize>; 8]>,
    /// Per square: the column `o[s]` and the row defining it (empty squares only).
    occupied: Vec<Option<(usize, usize)>>,
    /// Per king: its cover row and whether its exact rows are in.
    covered: Vec<bool>,
    exact: Vec<bool>,
    /// The kings' candidates (cover rows).
    candidates: Candidates,
}

impl Model {
    /// The model of `instance` with its piece and occupancy columns and no king's rows yet.
    ///
    /// ```
    /// use chess_puzzles::core::{Square, SquareSet};
    /// use chess_puzzles::showdown::Instance;
    /// use chess_puzzles::showdown::model::Model;
    ///
    /// let mut kings = SquareSet::new(3);
    /// kings.insert(Square::new(1, 1));
    /// let instance = Instance::new(3, kings, [1; 8]).unwrap();
    /// let mut model = Model::new(&instance);
    /// model.add_exact_all();
    /// assert!(model.rows().iter().any(|r| r.king == Some(0)));
    /// ```
    pub fn new(instance: &Instance) -> Model {
        let n = instance.side();
        let candidates = Candidates::new(instance.kings());
        let kings = candidates.king_squares().to_vec();
        let costs = instance.costs();
        let cheapest = PieceKind::ALL
            .into_iter()
            .filter(|&k| replacement(&costs, k) == k)
            .min_by_key(|&k| (costs[k.index()], k))
            .unwrap_or(PieceKind::Horse);
        let mut model = Model {
            side: n,
            king_set: instance.kings().clone(),
            kings,
            costs,
            columns: Vec::new(),
            rows: Vec::new(),
            piece_columns: vec![[None; 8]; n * n],
            occupied: vec![None; n * n],
            covered: Vec::new(),
            exact: Vec::new(),
            candidates,
        };
        model.covered = vec![false; model.kings.len()];
        model.exact = vec![false; model.kings.len()];
        for i in 0..n * n {
            let sq = Square::from_index(i, n);
            if model.king_set.contains(sq) {
                continue;
            }
            let o = model.push_column(0.0, false, Meaning::Occupied(sq));
            let row = model.rows.len();
            model.rows.push(Row {
                lower: 0.0,
                upper: 0.0,
                entries: vec![(o, 1.0)],
                king: None,
            });
            model.occupied[i] = Some((o, row));
            model.piece(cheapest, sq);
        }
        for k in 0..model.kings.len() {
            for c in model.candidates.of_king(k).to_vec() {
                model.piece(c.kind, c.square);
            }
        }
        model
    }

    /// The columns.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// The rows.
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The nonzero coefficients of all the rows.
    pub fn nonzeros(&self) -> usize {
        self.rows.iter().map(|r| r.entries.len()).sum()
    }

    /// How many kings there are (numbered as in [`Candidates`]).
    pub fn king_count(&self) -> usize {
        self.kings.len()
    }

    /// True when king `k`'s exact rows are in the model.
    pub fn is_exact(&self, k: usize) -> bool {
        self.exact[k]
    }

    /// The piece columns: (column, piece).
    pub fn piece_columns(&self) -> impl Iterator<Item = (usize, Placement)> + '_ {
        self.piece_columns
            .iter()
            .enumerate()
            .flat_map(move |(i, cols)| {
                let square = Square::from_index(i, self.side);
                PieceKind::ALL.into_iter().filter_map(move |kind| {
                    cols[kind.index()].map(|c| (c, Placement { kind, square }))
                })
            })
    }

    fn push_column(&mut self, cost: f64, integer: bool, meaning: Meaning) -> usize {
        self.columns.push(Column {
            cost,
            upper: 1.0,
            integer,
            meaning,
        });
        self.columns.len() - 1
    }

    fn push_row(&mut self, lower: f64, upper: f64, entries: Vec<(usize, f64)>) {
        self.rows.push(Row {
            lower,
            upper,
            entries,
            king: None,
        });
    }

    /// The column `x[kind, sq]`, made when missing (`sq` must be an empty square).
    pub fn piece(&mut self, kind: PieceKind, sq: Square) -> usize {
        let i = sq.index(self.side);
        if let Some(c) = self.piece_columns[i][kind.index()] {
            return c;
        }
        let price = f64::from(self.costs[kind.index()]);
        let c = self.push_column(price, true, Meaning::Piece(kind, sq));
        if replacement(&self.costs, kind) != kind {
            self.columns[c].upper = 0.0;
        }
        self.piece_columns[i][kind.index()] = Some(c);
        if let Some((_, row)) = self.occupied[i] {
            self.rows[row].entries.push((c, -1.0));
        }
        c
    }

    fn occupancy(&self, sq: Square) -> usize {
        self.occupied[sq.index(self.side)]
            .map(|(o, _)| o)
            .unwrap_or(usize::MAX)
    }

    /// Adds every king's cover row (once), and the rows letting a cannon direction cover one
    /// king only.
    pub fn add_covers(&mut self) {
        let mut hop_groups: HashMap<(Square, (i8, i8)), Vec<usize>> = HashMap::new();
        for k in 0..self.kings.len() {
            if self.covered[k] {
                continue;
            }
            self.covered[k] = true;
            let king = self.kings[k];
            let mut cover: Vec<usize> = Vec::new();
            for c in self.candidates.of_king(k).to_vec() {
                if c.kind == PieceKind::Cannon {
                    let z = self.push_column(
                        0.0,
                        false,
                        Meaning::Checks {
                            at: c.square,
                            king,
                            kinds: 1 << c.kind.index(),
                        },
                    );
                    let dir = direction(c.square, king);
                    hop_groups.entry((c.square, dir)).or_default().push(z);
                    if c.needs_screen {
                        let mut entries = vec![(z, 1.0)];
                        for b in between(c.square, king, self.side) {
                            entries.push((self.occupancy(b), -1.0));
                        }
                        self.push_row(f64::NEG_INFINITY, 0.0, entries);
                    }
                    cover.push(z);
                } else {
                    let x = self.piece(c.kind, c.square);
                    if !cover.contains(&x) {
                        cover.push(x);
                    }
                }
            }
            self.rows.push(Row {
                lower: 1.0,
                upper: f64::INFINITY,
                entries: cover.into_iter().map(|c| (c, 1.0)).collect(),
                king: Some(k),
            });
        }
        let mut groups: Vec<_> = hop_groups.into_iter().collect();
        groups.sort_unstable_by_key(|(key, _)| *key);
        for ((sq, _), zs) in groups {
            let x = self.piece(PieceKind::Cannon, sq);
            let mut entries: Vec<(usize, f64)> = zs.into_iter().map(|z| (z, 1.0)).collect();
            entries.push((x, -1.0));
            self.push_row(f64::NEG_INFINITY, 0.0, entries);
        }
    }

    /// Adds the exact rows of every king.
    pub fn add_exact_all(&mut self) {
        for k in 0..self.kings.len() {
            self.add_exact(k);
        }
    }

    /// Adds the exact rows of king `k` (once): it is in check on the final board.
    pub fn add_exact(&mut self, k: usize) {
        if self.exact[k] {
            return;
        }
        self.exact[k] = true;
        let n = self.side;
        let king = self.kings[k];
        let mut cover: Vec<usize> = Vec::new();
        for kind in PieceKind::ALL {
            for &(dr, dc) in kind.movement().leaps {
                if let Some(from) = king.offset(-i32::from(dr), -i32::from(dc), n)
                    && !self.king_set.contains(from)
                {
                    let x = self.piece(kind, from);
                    if !cover.contains(&x) {
                        cover.push(x);
                    }
                }
            }
        }
        for dir in [
            (-1, 0),
            (1, 0),
            (0, -1),
            (0, 1),
            (-1, -1),
            (-1, 1),
            (1, -1),
            (1, 1),
        ] {
            self.add_line(king, dir, &mut cover);
        }
        self.rows.push(Row {
            lower: 1.0,
            upper: f64::INFINITY,
            entries: cover.into_iter().map(|c| (c, 1.0)).collect(),
            king: Some(k),
        });
    }

    /// The exact rows of one line out of `king` in direction `dir`; the ways it checks the
    /// king are pushed on `cover`.
    fn add_line(&mut self, king: Square, dir: (i8, i8), cover: &mut Vec<usize>) {
        let n = self.side;
        let toward = (-dir.0, -dir.1);
        let mask = |f: fn(PieceKind) -> &'static [(i8, i8)]| -> u8 {
            PieceKind::ALL
                .into_iter()
                .filter(|&k| f(k).contains(&toward))
                .fold(0u8, |m, k| m | 1 << k.index())
        };
        let sliders = mask(|k| k.movement().slides);
        let hoppers = mask(|k| k.movement().hops);
        if sliders == 0 && hoppers == 0 {
            return;
        }
        let step = |sq: Square| sq.offset(i32::from(dir.0), i32::from(dir.1), n);
        let mut line = Vec::new();
        let mut at = step(king);
        while let Some(sq) = at {
            if self.king_set.contains(sq) {
                break;
            }
            line.push(sq);
            at = step(sq);
        }
        let other_king = at;
        // e: no piece of ours up to here; prev = None stands for the constant 1.
        let mut e: Vec<usize> = Vec::with_capacity(line.len());
        let mut prev: Option<usize> = None;
        for (j, &sq) in line.iter().enumerate() {
            let ej = self.push_column(
                0.0,
                false,
                Meaning::NoPiece {
                    from: king,
                    dir,
                    len: (j + 1) as u8,
                },
            );
            let o = self.occupancy(sq);
            self.push_row(f64::NEG_INFINITY, 1.0, vec![(ej, 1.0), (o, 1.0)]);
            if let Some(p) = prev {
                self.push_row(f64::NEG_INFINITY, 0.0, vec![(ej, 1.0), (p, -1.0)]);
            }
            if sliders != 0 {
                let y = self.first_on_line(sq, king, sliders, prev, ej);
                cover.push(y);
            }
            e.push(ej);
            prev = Some(ej);
        }
        if hoppers == 0 {
            return;
        }
        // h: exactly one piece of ours up to here; a cannon on square j + 1 with exactly one
        // piece before it checks.
        let mut h: Vec<usize> = Vec::with_capacity(line.len());
        for (j, &sq) in line.iter().enumerate() {
            let hj = self.push_column(
                0.0,
                false,
                Meaning::OnePiece {
                    from: king,
                    dir,
                    len: (j + 1) as u8,
                },
            );
            let o = self.occupancy(sq);
            if j == 0 {
                self.push_row(f64::NEG_INFINITY, 0.0, vec![(hj, 1.0), (o, -1.0)]);
            } else {
                self.push_row(
                    f64::NEG_INFINITY,
                    0.0,
                    vec![(hj, 1.0), (h[j - 1], -1.0), (o, -1.0)],
                );
                self.push_row(
                    f64::NEG_INFINITY,
                    1.0,
                    vec![(hj, 1.0), (o, 1.0), (e[j - 1], -1.0)],
                );
                // The cannon on this square, the screen before it.
                let w = self.push_column(
                    0.0,
                    false,
                    Meaning::Checks {
                        at: sq,
                        king,
                        kinds: hoppers,
                    },
                );
                let mut entries = vec![(w, 1.0)];
                for kind in kinds_of(hoppers) {
                    entries.push((self.piece(kind, sq), -1.0));
                }
                self.push_row(f64::NEG_INFINITY, 0.0, entries);
                self.push_row(f64::NEG_INFINITY, 0.0, vec![(w, 1.0), (h[j - 1], -1.0)]);
                cover.push(w);
            }
            h.push(hj);
        }
        // Past another king: the chain of e goes on; a cannon there uses that king as screen.
        let Some(screen) = other_king else {
            return;
        };
        let beyond_start = line.len() + 1;
        let mut at = step(screen);
        let mut i = 0;
        while let Some(sq) = at {
            if self.king_set.contains(sq) {
                break;
            }
            let ei = self.push_column(
                0.0,
                false,
                Meaning::NoPiece {
                    from: king,
                    dir,
                    len: (beyond_start + i + 1) as u8,
                },
            );
            let o = self.occupancy(sq);
            self.push_row(f64::NEG_INFINITY, 1.0, vec![(ei, 1.0), (o, 1.0)]);
            if let Some(p) = prev {
                self.push_row(f64::NEG_INFINITY, 0.0, vec![(ei, 1.0), (p, -1.0)]);
            }
            let v = self.first_on_line(sq, king, hoppers, prev, ei);
            cover.push(v);
            prev = Some(ei);
            i += 1;
            at = step(sq);
        }
    }

    /// A column for "a piece of `kinds` on `sq` is the first thing our pieces put on the line
    /// since `prev`": `y <= Σ x`, `y <= prev - e` (prev None: the constant 1).
    fn first_on_line(
        &mut self,
        sq: Square,
        king: Square,
        kinds: u8,
        prev: Option<usize>,
        e: usize,
    ) -> usize {
        let y = self.push_column(
            0.0,
            false,
            Meaning::Checks {
                at: sq,
                king,
                kinds,
            },
        );
        let mut entries = vec![(y, 1.0)];
        for kind in kinds_of(kinds) {
            entries.push((self.piece(kind, sq), -1.0));
        }
        self.push_row(f64::NEG_INFINITY, 0.0, entries);
        match prev {
            Some(p) => self.push_row(f64::NEG_INFINITY, 0.0, vec![(y, 1.0), (e, 1.0), (p, -1.0)]),
            None => self.push_row(f64::NEG_INFINITY, 1.0, vec![(y, 1.0), (e, 1.0)]),
        }
        y
    }

    /// `pieces` with every piece of a kind whose columns are fixed at 0 replaced by its
    /// [`replacement`] on the same square: still a valid answer when `pieces` is one, and at
    /// most as dear. A warm start for the solver.
    pub fn undominated(&self, pieces: &[Placement]) -> Vec<Placement> {
        pieces
            .iter()
            .map(|p| Placement {
                kind: replacement(&self.costs, p.kind),
                square: p.square,
            })
            .collect()
    }

    /// Every column's true value on the board holding `pieces` (each piece must stand on an
    /// empty square; a piece without a column gets one first).
    pub fn assignment(&mut self, pieces: &[Placement]) -> Vec<f64> {
        for p in pieces {
            self.piece(p.kind, p.square);
        }
        let n = self.side;
        let mut ours = SquareSet::new(n);
        let mut kind_at: Vec<Option<PieceKind>> = vec![None; n * n];
        for p in pieces {
            ours.insert(p.square);
            kind_at[p.square.index(n)] = Some(p.kind);
        }
        let mut occupied = self.king_set.clone();
        for p in pieces {
            occupied.insert(p.square);
        }
        let mut hits: HashMap<Square, SquareSet> = HashMap::new();
        let count = |from: Square, dir: (i8, i8), len: u8| {
            let mut at = from;
            let mut c = 0;
            for _ in 0..len {
                match at.offset(i32::from(dir.0), i32::from(dir.1), n) {
                    Some(sq) => {
                        c += usize::from(ours.contains(sq));
                        at = sq;
                    }
                    None => break,
                }
            }
            c
        };
        let truth = |b: bool| if b { 1.0 } else { 0.0 };
        self.columns
            .iter()
            .map(|col| match col.meaning {
                Meaning::Piece(kind, sq) => truth(kind_at[sq.index(n)] == Some(kind)),
                Meaning::Occupied(sq) => truth(ours.contains(sq)),
                Meaning::NoPiece { from, dir, len } => truth(count(from, dir, len) == 0),
                Meaning::OnePiece { from, dir, len } => truth(count(from, dir, len) == 1),
                Meaning::Checks { at, king, kinds } => match kind_at[at.index(n)] {
                    Some(kind) if kinds & (1 << kind.index()) != 0 => {
                        let hit = hits
                            .entry(at)
                            .or_insert_with(|| attacks(kind, at, &occupied));
                        truth(hit.contains(king))
                    }
                    _ => 0.0,
                },
            })
            .collect()
    }

    /// The pieces of a solution: every piece column at 1 (above one half).
    pub fn pieces_of(&self, values: &[f64]) -> Vec<Placement> {
        self.piece_columns()
            .filter(|&(c, _)| values.get(c).is_some_and(|&v| v > 0.5))
            .map(|(_, p)| p)
            .collect()
    }

    /// The rows that `values` break by more than `tolerance`.
    pub fn broken_rows(&self, values: &[f64], tolerance: f64) -> Vec<usize> {
        (0..self.rows.len())
            .filter(|&r| {
                let row = &self.rows[r];
                let sum: f64 = row.entries.iter().map(|&(c, a)| a * values[c]).sum();
                sum < row.lower - tolerance || sum > row.upper + tolerance
            })
            .collect()
    }

    /// The kings (by number) not in check on the board holding `pieces`.
    pub fn unchecked_kings(instance: &Instance, pieces: &[Placement]) -> Vec<usize> {
        let board = Board::holding(instance, pieces);
        (0..board.king_count())
            .filter(|&k| board.checks(k) == 0)
            .collect()
    }
}

/// True when a piece of kind `a` captures, from any square on any board, every square a piece
/// of kind `b` on that square captures: `a` slides and hops along every line `b` does, and each
/// leap of `b` is a leap of `a` or the first square of one of `a`'s slides (always captured).
pub fn captures_all_of(a: PieceKind, b: PieceKind) -> bool {
    let (ma, mb) = (a.movement(), b.movement());
    mb.slides.iter().all(|d| ma.slides.contains(d))
        && mb.hops.iter().all(|d| ma.hops.contains(d))
        && mb
            .leaps
            .iter()
            .all(|l| ma.leaps.contains(l) || ma.slides.contains(l))
}

/// The kind that stands in for `kind` in the model at the prices `costs`: the cheapest kind
/// (the first in [`PieceKind::ALL`] among equals) that costs no more and captures all that
/// `kind` does, when that is another kind which `kind` does not capture all of in return (so no
/// two kinds stand in for each other); else `kind` itself. Followed until it stops (each step
/// goes to a kind that captures strictly more, so it does).
pub fn replacement(costs: &[u32; 8], kind: PieceKind) -> PieceKind {
    let step = |kind: PieceKind| {
        PieceKind::ALL
            .into_iter()
            .filter(|&a| {
                a == kind
                    || (costs[a.index()] <= costs[kind.index()]
                        && captures_all_of(a, kind)
                        && !captures_all_of(kind, a))
            })
            .min_by_key(|&a| (costs[a.index()], a == kind, a))
            .unwrap_or(kind)
    };
    let mut kind = kind;
    for _ in 0..PieceKind::ALL.len() {
        let next = step(kind);
        if next == kind {
            break;
        }
        kind = next;
    }
    kind
}

/// The kinds of a mask (a bit per kind).
fn kinds_of(mask: u8) -> impl Iterator<Item = PieceKind> {
    PieceKind::ALL
        .into_iter()
        .filter(move |k| mask & (1 << k.index()) != 0)
}

/// The unit step from `a` toward `b` (on one line).
fn direction(a: Square, b: Square) -> (i8, i8) {
    (
        (i32::from(b.row) - i32::from(a.row)).signum() as i8,
        (i32::from(b.col) - i32::from(a.col)).signum() as i8,
    )
}

/// The squares strictly between `a` and `b` on one line.
fn between(a: Square, b: Square, n: usize) -> Vec<Square> {
    let (dr, dc) = direction(a, b);
    let mut out = Vec::new();
    let mut at = a;
    while let Some(sq) = at.offset(i32::from(dr), i32::from(dc), n) {
        if sq == b {
            break;
        }
        out.push(sq);
        at = sq;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::judge::verify;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random_instance(rng: &mut ChaCha8Rng, max_side: usize) -> Option<Instance> {
        let n = rng.random_range(2..=max_side);
        let density = rng.random_range(0.05..0.85);
        let mut kings = SquareSet::new(n);
        for sq in SquareSet::full(n).iter() {
            if rng.random_bool(density) {
                kings.insert(sq);
            }
        }
        let costs = std::array::from_fn(|_| rng.random_range(1..=20u32));
        Instance::new(n, kings, costs).ok()
    }

    fn random_pieces(rng: &mut ChaCha8Rng, instance: &Instance) -> Vec<Placement> {
        let n = instance.side();
        let empties: Vec<Square> = SquareSet::full(n)
            .iter()
            .filter(|&s| !instance.is_king(s))
            .collect();
        let chance = rng.random_range(0.05..0.9);
        let mut pieces = Vec::new();
        for square in empties {
            if rng.random_bool(chance) {
                let kind = PieceKind::ALL[rng.random_range(0..8)];
                pieces.push(Placement { kind, square });
            }
        }
        pieces
    }

    /// On any board, the true values break exactly the cover and exact rows of the kings not
    /// in check, and nothing else: the model cuts off no valid answer, and its rows of a king
    /// say no more and no less than "this king is in check".
    #[test]
    fn true_values_break_exactly_the_rows_of_the_unchecked_kings() {
        let mut rng = ChaCha8Rng::seed_from_u64(10);
        let mut valid_seen = 0;
        for _ in 0..400 {
            let Some(instance) = random_instance(&mut rng, 9) else {
                continue;
            };
            let mut model = Model::new(&instance);
            model.add_covers();
            model.add_exact_all();
            let pieces = random_pieces(&mut rng, &instance);
            let values = model.assignment(&pieces);
            let unchecked = Model::unchecked_kings(&instance, &pieces);
            let broken_kings: std::collections::BTreeSet<usize> = model
                .broken_rows(&values, 1e-9)
                .into_iter()
                .map(|r| {
                    model.rows()[r].king.unwrap_or_else(|| {
                        let row = &model.rows()[r];
                        let cols: Vec<_> = row
                            .entries
                            .iter()
                            .map(|&(c, _)| (model.columns()[c].meaning, values[c]))
                            .collect();
                        panic!("row {r} broken: {row:?} {cols:?} {pieces:?} {instance:?}")
                    })
                })
                .collect();
            let broken_kings: Vec<usize> = broken_kings.into_iter().collect();
            assert_eq!(broken_kings, unchecked);
            if unchecked.is_empty() {
                valid_seen += 1;
                assert!(verify(&instance, &pieces).is_ok());
                let cost: f64 = model
                    .columns()
                    .iter()
                    .zip(&values)
                    .map(|(c, v)| c.cost * v)
                    .sum();
                let price: u64 = pieces
                    .iter()
                    .map(|p| u64::from(instance.cost(p.kind)))
                    .sum();
                assert_eq!(cost, price as f64);
            }
            assert_eq!(model.pieces_of(&values).len(), pieces.len());
        }
        assert!(valid_seen > 30, "{valid_seen}");
    }

    /// The horse captures all that the bishop and the two generals do, and no other kind all
    /// that another does; checked on random boards against the capture sets themselves.
    #[test]
    fn captures_all_of_is_sound_and_finds_the_horse() {
        use crate::core::pieces::PieceKind::*;
        for a in PieceKind::ALL {
            for b in PieceKind::ALL {
                let expected =
                    a == b || (a == Horse && matches!(b, Bishop | GoldGeneral | SilverGeneral));
                assert_eq!(captures_all_of(a, b), expected, "{a:?} over {b:?}");
            }
        }
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let n = rng.random_range(1..=9);
            let mut occupied = SquareSet::new(n);
            for sq in SquareSet::full(n).iter() {
                if rng.random_bool(0.4) {
                    occupied.insert(sq);
                }
            }
            for at in SquareSet::full(n).iter() {
                for a in PieceKind::ALL {
                    let of_a = attacks(a, at, &occupied);
                    for b in PieceKind::ALL
                        .into_iter()
                        .filter(|&b| captures_all_of(a, b))
                    {
                        assert!(attacks(b, at, &occupied).iter().all(|s| of_a.contains(s)));
                    }
                }
            }
        }
        // The replacement needs a price no higher, and leaves the horse itself alone.
        let mut costs = [5; 8];
        assert_eq!(replacement(&costs, Bishop), Horse);
        assert_eq!(replacement(&costs, Horse), Horse);
        assert_eq!(replacement(&costs, Rook), Rook);
        costs[Horse.index()] = 6;
        assert_eq!(replacement(&costs, GoldGeneral), GoldGeneral);
    }

    /// The optimiser's answers with the dominated kinds replaced stay valid and no dearer, on
    /// random boards with equal prices and with random ones.
    #[test]
    fn undominated_answers_stay_valid() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut replaced = 0;
        for i in 0..80 {
            let Some(random) = random_instance(&mut rng, 10) else {
                continue;
            };
            let costs = if i % 2 == 0 { [3; 8] } else { random.costs() };
            let Ok(instance) = Instance::new(random.side(), random.kings().clone(), costs) else {
                continue;
            };
            let Ok(solution) = crate::showdown::solver::plain_greedy(&instance) else {
                continue;
            };
            let model = Model::new(&instance);
            let pieces = model.undominated(&solution.answer.pieces);
            replaced += usize::from(pieces != solution.answer.pieces);
            assert!(verify(&instance, &pieces).is_ok());
            let cost = |p: &[Placement]| {
                p.iter()
                    .map(|p| u64::from(costs[p.kind.index()]))
                    .sum::<u64>()
            };
            assert!(cost(&pieces) <= cost(&solution.answer.pieces));
        }
        assert!(replaced >= 10, "{replaced}");
    }

    /// The answers of the optimiser on random boards (the dominated kinds replaced) satisfy
    /// every row and every column's bounds.
    #[test]
    fn every_valid_answer_satisfies_the_model() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..60 {
            let Some(instance) = random_instance(&mut rng, 14) else {
                continue;
            };
            let Ok(solution) = crate::showdown::solver::solve(
                &instance,
                &crate::showdown::solver::Budget {
                    time: std::time::Duration::from_secs(1),
                    steps: Some(200),
                },
                rng.random(),
            ) else {
                continue;
            };
            let mut model = Model::new(&instance);
            model.add_covers();
            model.add_exact_all();
            let pieces = model.undominated(&solution.answer.pieces);
            let values = model.assignment(&pieces);
            assert_eq!(model.broken_rows(&values, 1e-9), Vec::<usize>::new());
            for (c, col) in model.columns().iter().enumerate() {
                assert!((0.0..=col.upper).contains(&values[c]));
            }
        }
    }
}

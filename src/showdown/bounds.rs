//! A lower bound on the cost of any answer: the Lagrangian dual of a covering relaxation,
//! improved by subgradient steps.
//!
//! The relaxation keeps only what holds on EVERY final board: each king is checked by some
//! (piece, square) among its [candidates](super::candidates) (a superset of the real ways),
//! each square holds at most one piece, and one move group of a piece (a slide or hop
//! direction, or one leap) checks at most one king. Blocking and the need of a screen are
//! dropped, so any real answer is a feasible point and the bound is valid. For multipliers
//! `u >= 0` on the covering rows:
//!
//! `L(u) = sum_k u_k + sum_squares min(0, min_piece (price - sum_groups max_{k in group} u_k))`
//!
//! and every `L(u)` is a lower bound; costs are integers, so its ceiling is one too, and so is
//! that rounded up to a multiple of the prices' greatest common divisor (every cost is one).

use super::deadline::Deadline;

use super::candidates::Candidates;
use super::{Instance, round_up_to};

/// One (piece, square) column of the relaxation.
#[derive(Clone, Debug)]
struct Column {
    square: u32,
    price: f64,
    /// The kings of each move group, as a flat list with group boundaries.
    kings: Vec<u32>,
    starts: Vec<u32>,
}

impl Column {
    /// The kings of each move group.
    fn groups(&self) -> impl Iterator<Item = &[u32]> {
        (0..self.starts.len()).map(|g| {
            let from = self.starts[g] as usize;
            let to = self
                .starts
                .get(g + 1)
                .map_or(self.kings.len(), |&e| e as usize);
            &self.kings[from..to]
        })
    }
}

/// The relaxation of one instance, ready for bounding. See the [module docs](self).
#[derive(Clone, Debug)]
pub struct Relaxation {
    kings: usize,
    squares: usize,
    columns: Vec<Column>,
    /// Every answer's cost is a multiple of this ([`Instance::cost_unit`]).
    unit: u64,
}

impl Relaxation {
    /// The relaxation of `instance` from its candidate sets.
    pub fn new(instance: &Instance, candidates: &Candidates) -> Relaxation {
        // Without a deadline the construction always finishes; an empty relaxation (bound 0)
        // would still be valid.
        Relaxation::new_until(instance, candidates, Deadline::NEVER).unwrap_or(Relaxation {
            kings: 0,
            squares: 0,
            columns: Vec::new(),
            unit: 1,
        })
    }

    /// [`Relaxation::new`], or `None` when `deadline` passes first (on a 256x256 board the
    /// construction takes a good part of a second).
    pub fn new_until<'a>(
        instance: &Instance,
        candidates: &Candidates,
        deadline: impl Into<Deadline<'a>>,
    ) -> Option<Relaxation> {
        let deadline = deadline.into();
        let n = instance.side();
        // (square and kind, group, king), sorted: the columns in order, each column's kings
        // by group and, within a group, by king.
        let mut entries: Vec<(u32, u8, u32)> = Vec::new();
        for k in 0..candidates.king_count() {
            if k % 1024 == 1023 && deadline.passed() {
                return None;
            }
            for c in candidates.of_king(k) {
                let slot = c.square.index(n) as u32 * 8 + c.kind.index() as u32;
                entries.push((slot, c.group, k as u32));
            }
        }
        entries.sort_unstable();
        if deadline.passed() {
            return None;
        }
        let costs = instance.costs();
        let mut columns: Vec<Column> = Vec::new();
        let mut last: Option<(u32, u8)> = None;
        for &(slot, group, king) in &entries {
            if last.map(|(s, _)| s) != Some(slot) {
                columns.push(Column {
                    square: slot / 8,
                    price: f64::from(costs[(slot % 8) as usize]),
                    kings: Vec::new(),
                    starts: Vec::new(),
                });
            }
            if let Some(col) = columns.last_mut() {
                if last != Some((slot, group)) {
                    col.starts.push(col.kings.len() as u32);
                }
                col.kings.push(king);
            }
            last = Some((slot, group));
        }
        Some(Relaxation {
            kings: candidates.king_count(),
            squares: n * n,
            columns,
            unit: instance.cost_unit(),
        })
    }

    /// `L(u)`, and in `cover` how often the minimising point covers each king.
    fn evaluate(&self, u: &[f64], cover: &mut [i32]) -> f64 {
        cover.iter_mut().for_each(|c| *c = 0);
        let mut best_at = vec![(0.0f64, usize::MAX); self.squares];
        for (j, col) in self.columns.iter().enumerate() {
            let mut value = col.price;
            for group in col.groups() {
                value -= group.iter().map(|&k| u[k as usize]).fold(0.0, f64::max);
            }
            let slot = &mut best_at[col.square as usize];
            if value < slot.0 {
                *slot = (value, j);
            }
        }
        let mut total: f64 = u.iter().sum();
        for &(value, j) in &best_at {
            if j == usize::MAX {
                continue;
            }
            total += value;
            let col = &self.columns[j];
            for group in col.groups() {
                let mut arg = None;
                let mut top = 0.0;
                for &k in group {
                    if u[k as usize] > top {
                        top = u[k as usize];
                        arg = Some(k);
                    }
                }
                if let Some(k) = arg {
                    cover[k as usize] += 1;
                }
            }
        }
        total
    }

    /// The best bound found by subgradient optimisation within `iterations` steps or until
    /// `deadline`, given an upper bound `upper` (the cost of a known answer). Returns an
    /// integer lower bound on the cost of every answer, a multiple of the prices' greatest
    /// common divisor; stops early once that meets `upper`.
    pub fn lower_bound<'a>(
        &self,
        upper: u64,
        iterations: usize,
        deadline: impl Into<Deadline<'a>>,
    ) -> u64 {
        let deadline = deadline.into();
        if self.kings == 0 {
            return 0;
        }
        let upper = upper as f64;
        // Start from each king's cheapest way, shared among the kings of a column.
        let mut u = vec![0.0f64; self.kings];
        let mut cheapest = vec![f64::INFINITY; self.kings];
        for col in &self.columns {
            let per = col.price / col.kings.len().max(1) as f64;
            for &k in &col.kings {
                cheapest[k as usize] = cheapest[k as usize].min(per);
            }
        }
        for (x, c) in u.iter_mut().zip(&cheapest) {
            *x = if c.is_finite() { *c } else { 0.0 };
        }
        let mut cover = vec![0i32; self.kings];
        let mut best = f64::NEG_INFINITY;
        let mut lambda = 2.0;
        let mut since_improved = 0;
        for it in 0..iterations {
            if it > 0 && deadline.passed() {
                break;
            }
            let value = self.evaluate(&u, &mut cover);
            if value > best + 1e-9 {
                best = value;
                since_improved = 0;
            } else {
                since_improved += 1;
                if since_improved >= 20 {
                    lambda /= 2.0;
                    since_improved = 0;
                    if lambda < 1e-4 {
                        break;
                    }
                }
            }
            if round_up_to(integer_bound(best), self.unit) as f64 >= upper {
                break;
            }
            let mut norm = 0.0;
            for (k, &c) in cover.iter().enumerate() {
                let g = 1.0 - f64::from(c);
                // A multiplier at zero that would go negative does not move.
                if !(u[k] <= 0.0 && g < 0.0) {
                    norm += g * g;
                }
            }
            if norm == 0.0 {
                break;
            }
            let step = lambda * (upper - value).max(1e-6 * upper.max(1.0)) / norm;
            for (k, &c) in cover.iter().enumerate() {
                u[k] = (u[k] + step * (1.0 - f64::from(c))).max(0.0);
            }
        }
        round_up_to(integer_bound(best), self.unit)
    }
}

/// The least integer that a real lower bound `value` guarantees, with room for rounding.
fn integer_bound(value: f64) -> u64 {
    if !value.is_finite() || value <= 0.0 {
        return 0;
    }
    let safe = value - 1e-7 * value.max(1.0);
    safe.ceil().max(0.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::showdown::tests::kings_drawn;

    fn instance(rows: &[&str], costs: [u32; 8]) -> Instance {
        Instance::new(rows.len(), kings_drawn(rows), costs).unwrap()
    }

    #[test]
    fn the_bound_of_one_king_is_its_cheapest_checker() {
        let inst = instance(&["#__", "___", "___"], [9, 9, 9, 9, 9, 4, 9, 9]);
        let relax = Relaxation::new(&inst, &Candidates::new(inst.kings()));
        assert_eq!(relax.lower_bound(4, 200, None), 4);
    }

    #[test]
    fn distant_kings_need_a_piece_each() {
        // Two kings that no single square reaches both of: the bound is two prices.
        let inst = instance(
            &["#____", "_____", "_____", "_____", "____#"],
            [7, 7, 7, 7, 7, 7, 7, 7],
        );
        let relax = Relaxation::new(&inst, &Candidates::new(inst.kings()));
        let lb = relax.lower_bound(14, 500, None);
        assert!((7..=14).contains(&lb), "{lb}");
    }

    #[test]
    fn rounding_is_safe() {
        assert_eq!(integer_bound(3.0), 3);
        assert_eq!(integer_bound(3.0000000001), 3);
        assert_eq!(integer_bound(3.2), 4);
        assert_eq!(integer_bound(-1.0), 0);
    }
}

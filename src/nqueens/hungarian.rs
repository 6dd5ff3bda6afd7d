//! Maximum-weight assignment of rows to columns (the Hungarian method, by shortest augmenting
//! paths with potentials), kept incremental for branch and bound.
//!
//! The problem is the min-cost form with cost `-w`. Potentials `u` (rows) and `v` (columns)
//! always satisfy `u[i] + v[j] <= -w[i][j]` on every allowed square, tightly on the matched
//! ones, so `-(sum u + sum v)` over the active rows and columns bounds every assignment from
//! above even before the matching is complete (weak duality), and equals the best assignment
//! once it is. Taking a row and a column out, or forbidding squares, keeps the potentials
//! feasible: a child of a branch-and-bound node starts from its parent's potentials and
//! matching and only re-routes the few rows that lost their partner, `O(m^2)` each.
//!
//! ```
//! use chess_puzzles::nqueens::hungarian::Assignment;
//!
//! // 3x3, every square allowed: the best assignment takes 5 + 6 + 7.
//! let w = [5, 1, 1, 1, 6, 1, 1, 1, 7];
//! let mut a = Assignment::new(3, &w, &[0b111; 3]);
//! assert!(a.solve(&w));
//! assert_eq!(a.bound(), 18);
//! assert_eq!(a.column_of(2), Some(2));
//! ```

/// The largest side handled (rows and columns are bits of a `u64`).
pub const MAX_SIDE: usize = 64;

/// No partner.
const NONE: u8 = u8::MAX;

/// An assignment problem on some active rows and columns of an `n`x`n` weight matrix, with
/// forbidden squares, its potentials and its (possibly partial) optimal matching.
#[derive(Clone, Debug)]
pub struct Assignment {
    n: usize,
    /// Active rows and columns.
    rows: u64,
    cols: u64,
    /// Per row, the allowed columns (a subset of `cols`).
    open: [u64; MAX_SIDE],
    /// Potentials of the min-cost form (cost = -weight).
    u: [i64; MAX_SIDE],
    v: [i64; MAX_SIDE],
    /// The matching: the column of each row and the row of each column, or `NONE`.
    col_of: [u8; MAX_SIDE],
    row_of: [u8; MAX_SIDE],
}

impl Assignment {
    /// Every row and column of an `n`x`n` matrix (`weights[i * n + j]`, `n <= 64`) active,
    /// `open[i]` the allowed columns of row `i`; nothing matched yet. Sides above 64 are cut.
    pub fn new(n: usize, weights: &[i64], open: &[u64]) -> Assignment {
        let n = n.min(MAX_SIDE);
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut a = Assignment {
            n,
            rows: all,
            cols: all,
            open: [0; MAX_SIDE],
            u: [0; MAX_SIDE],
            v: [0; MAX_SIDE],
            col_of: [NONE; MAX_SIDE],
            row_of: [NONE; MAX_SIDE],
        };
        for i in 0..n {
            a.open[i] = open.get(i).copied().unwrap_or(0) & all;
            // u[i] = the least cost of the row: feasible with v = 0.
            let mut best = i64::MAX;
            let mut m = a.open[i];
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                best = best.min(-weight(weights, n, i, j));
            }
            a.u[i] = if best == i64::MAX { 0 } else { best };
        }
        a
    }

    /// The side of the matrix.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The rows still active, as a bit set (bit `i` for row `i`): all `n` at first, less those
    /// taken out by [`Assignment::remove`] since.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// The allowed columns of row `i`.
    pub fn open(&self, i: usize) -> u64 {
        self.open.get(i).copied().unwrap_or(0)
    }

    /// The column matched to row `i`, if any.
    pub fn column_of(&self, i: usize) -> Option<usize> {
        self.col_of
            .get(i)
            .filter(|&&c| c != NONE)
            .map(|&c| usize::from(c))
    }

    /// The reduced cost of square (`i`, `j`): how much weight taking it gives up against the
    /// potentials (0 on matched squares, never negative on allowed ones).
    pub fn slack(&self, weights: &[i64], i: usize, j: usize) -> i64 {
        -weight(weights, self.n, i, j) - self.u[i % MAX_SIDE] - self.v[j % MAX_SIDE]
    }

    /// An upper bound on the weight of any assignment of the active rows to the active columns
    /// over allowed squares; the best such weight once [`Assignment::solve`] succeeded.
    pub fn bound(&self) -> i64 {
        let mut sum = 0i64;
        let mut m = self.rows;
        while m != 0 {
            sum += self.u[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        let mut m = self.cols;
        while m != 0 {
            sum += self.v[m.trailing_zeros() as usize];
            m &= m - 1;
        }
        -sum
    }

    /// Narrows the allowed columns of row `i` to `keep` (its matched column must stay).
    pub fn restrict(&mut self, i: usize, keep: u64) {
        if let Some(open) = self.open.get_mut(i) {
            *open &= keep;
        }
        if let Some(j) = self.column_of(i)
            && keep & (1 << j) == 0
        {
            self.unmatch_row(i);
        }
    }

    /// Takes row `r` and column `c` out (a queen placed there) and forbids `attacked[i]` on
    /// every other row `i`; partners that lost their square are unmatched.
    pub fn remove(&mut self, r: usize, c: usize, attacked: impl Fn(usize) -> u64) {
        let (r, c) = (r % MAX_SIDE, c % MAX_SIDE);
        self.rows &= !(1 << r);
        self.cols &= !(1 << c);
        self.unmatch_row(r);
        if self.row_of[c] != NONE {
            let i = usize::from(self.row_of[c]);
            self.unmatch_row(i);
        }
        let mut m = self.rows;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            self.open[i] &= !attacked(i) & self.cols;
            if let Some(j) = self.column_of(i)
                && self.open[i] & (1 << j) == 0
            {
                self.unmatch_row(i);
            }
        }
    }

    fn unmatch_row(&mut self, i: usize) {
        let j = self.col_of[i];
        if j != NONE {
            self.row_of[usize::from(j)] = NONE;
            self.col_of[i] = NONE;
        }
    }

    /// Matches every active row, re-routing along shortest augmenting paths; false when no
    /// assignment of all active rows exists.
    pub fn solve(&mut self, weights: &[i64]) -> bool {
        let mut m = self.rows;
        while m != 0 {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            if self.col_of[i] == NONE && !self.augment(weights, i) {
                return false;
            }
        }
        true
    }

    /// One shortest augmenting path from the free row `s` (Dijkstra on reduced costs).
    fn augment(&mut self, weights: &[i64], s: usize) -> bool {
        let n = self.n;
        let mut dist = [i64::MAX; MAX_SIDE];
        // The row from which each column was reached.
        let mut via = [0u8; MAX_SIDE];
        let mut done = 0u64;
        let mut row = s;
        let mut row_dist = 0i64;
        loop {
            // Relax the squares of `row`.
            let mut m = self.open[row] & self.cols & !done;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                let d = row_dist + (-weight(weights, n, row, j) - self.u[row] - self.v[j]);
                if d < dist[j] {
                    dist[j] = d;
                    via[j] = row as u8;
                }
            }
            // The closest column not yet final.
            let mut best = i64::MAX;
            let mut next = usize::MAX;
            let mut m = self.cols & !done;
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                if dist[j] < best {
                    best = dist[j];
                    next = j;
                }
            }
            if next == usize::MAX {
                return false;
            }
            done |= 1 << next;
            if self.row_of[next] == NONE {
                // Potentials: rows reached gain what they were short of, columns lose it.
                let total = best;
                self.u[s] += total;
                let mut m = done & !(1 << next);
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let gain = total - dist[j];
                    self.v[j] -= gain;
                    self.u[usize::from(self.row_of[j])] += gain;
                }
                // Flip the path.
                let mut j = next;
                loop {
                    let i = usize::from(via[j]);
                    let previous = self.col_of[i];
                    self.col_of[i] = j as u8;
                    self.row_of[j] = i as u8;
                    if i == s {
                        return true;
                    }
                    j = usize::from(previous);
                }
            }
            row = usize::from(self.row_of[next]);
            row_dist = best;
        }
    }
}

/// `weights[i * n + j]`, 0 outside.
#[inline(always)]
fn weight(weights: &[i64], n: usize, i: usize, j: usize) -> i64 {
    weights.get(i * n + j).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The best assignment by trying every permutation.
    fn brute(n: usize, w: &[i64], open: &[u64]) -> Option<i64> {
        fn go(i: usize, n: usize, used: u64, w: &[i64], open: &[u64]) -> Option<i64> {
            if i == n {
                return Some(0);
            }
            (0..n)
                .filter(|&j| used & (1 << j) == 0 && open[i] & (1 << j) != 0)
                .filter_map(|j| go(i + 1, n, used | 1 << j, w, open).map(|s| s + w[i * n + j]))
                .max()
        }
        go(0, n, 0, w, open)
    }

    #[test]
    fn matches_brute_force_and_stays_exact_after_removals() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..300 {
            let n = rng.random_range(1..=7usize);
            let w: Vec<i64> = (0..n * n).map(|_| rng.random_range(0..50)).collect();
            let open: Vec<u64> = (0..n)
                .map(|_| rng.random_range(0..1u64 << n) | rng.random_range(0..1u64 << n))
                .collect();
            let mut a = Assignment::new(n, &w, &open);
            let expected = brute(n, &w, &open);
            assert_eq!(a.solve(&w).then(|| a.bound()), expected);
            if expected.is_none() || n < 2 {
                continue;
            }
            // Remove a row and column, forbid a random square per row: still exact.
            let (r, c) = (rng.random_range(0..n), rng.random_range(0..n));
            let forbid: Vec<u64> = (0..n).map(|_| 1 << rng.random_range(0..n)).collect();
            a.remove(r, c, |i| forbid[i]);
            let mut open2 = open.clone();
            let mut w2 = w.clone();
            for (i, o) in open2.iter_mut().enumerate() {
                *o &= !forbid[i] & !(1 << c);
                if i == r {
                    *o = 1 << c;
                }
            }
            // The reference keeps row r on column c with weight 0.
            w2[r * n + c] = 0;
            let expected = brute(n, &w2, &open2);
            let before = a.bound();
            let solved = a.solve(&w);
            assert_eq!(solved.then(|| a.bound()), expected);
            if let Some(e) = expected {
                assert!(before >= e, "the bound before solving is an upper bound");
            }
        }
    }
}

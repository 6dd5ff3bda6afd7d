//! The largest sum of weights under n non-attacking queens: exact branch and bound.
//!
//! Bound: a Lagrangian relaxation of the diagonal constraints. Every diagonal gets a price
//! (found once, at the root, by subgradient steps); a square's weight minus the prices of its
//! two diagonals, plus the prices of the diagonals still free, bounds the best completion,
//! computed as the best assignment of the free rows to the free columns over the squares no
//! placed queen attacks ([`hungarian`](super::hungarian)), kept incremental from node to node.
//! Squares whose reduced cost exceeds the gap between the bound and the best placement found
//! are forbidden for the subtree. Branching: a row with a single square left, else the row
//! whose cheapest alternative to the assignment's square costs most; its squares are tried in
//! order of their reduced cost (the assignment's choice first), depth first. An assignment
//! with no two queens on a diagonal is a placement: it raises the incumbent, and ends its
//! subtree when it reaches the bound.
//!
//! ```
//! use chess_puzzles::nqueens::Control;
//! use chess_puzzles::nqueens::best::{solve, Weights};
//!
//! // The Sultan's Successors' (UVa 167) sample board (1..64 with 48 twice and no 49): 260.
//! let w: Vec<u32> = (1..=64).map(|v| if v == 49 { 48 } else { v }).collect();
//! let best = solve(&Weights::new(8, w).unwrap(), &Control::new()).unwrap();
//! assert_eq!(best.score, 260);
//! ```

use super::control::Control;
use super::hungarian::{Assignment, MAX_SIDE};

/// How many nodes pass between two looks at [`Control::should_stop`].
const CHECK_EVERY: u64 = 1 << 10;

/// A square board of weights, `weights[row * n + col]`.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Weights {
    n: usize,
    weights: Vec<u32>,
}

/// Why weights make no board.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The side is 0 or above 64.
    #[error("a board side 1..64, found {0}")]
    BadSide(usize),
    /// Not `n * n` weights.
    #[error("{expected} weights, found {found}")]
    BadLength {
        /// `n * n`.
        expected: usize,
        /// The number given.
        found: usize,
    },
}

impl Weights {
    /// The board of side `n` (1..64) with `weights` row by row. Sides 2 and 3 are boards
    /// too, on which no placement exists ([`solve`] says so).
    pub fn new(n: usize, weights: Vec<u32>) -> Result<Weights, WeightsError> {
        if !(1..=MAX_SIDE).contains(&n) {
            return Err(WeightsError::BadSide(n));
        }
        if weights.len() != n * n {
            return Err(WeightsError::BadLength {
                expected: n * n,
                found: weights.len(),
            });
        }
        Ok(Weights { n, weights })
    }

    /// The side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The weight of (`row`, `col`), 0 off the board.
    pub fn get(&self, row: usize, col: usize) -> u32 {
        if col < self.n {
            self.weights.get(row * self.n + col).copied().unwrap_or(0)
        } else {
            0
        }
    }
}

/// The best placement of a board.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Best {
    /// The largest sum of weights under n non-attacking queens.
    pub score: u64,
    /// A placement reaching it: the row (0-based) of the queen of each column.
    pub placement: Vec<u8>,
    /// Branch-and-bound nodes explored.
    pub nodes: u64,
    /// True when the search ended, so that no placement scores more; false when `control`
    /// stopped it first (the placement is then the best found, valid but maybe not the best).
    pub proven: bool,
}

/// One level of the depth-first search: a node and the squares of its branching row left.
#[derive(Clone)]
struct Frame {
    assignment: Assignment,
    node: Node,
    /// The branching row and its columns, best first; `next` indexes the next to try.
    row: usize,
    order: [u8; MAX_SIDE],
    len: usize,
    next: usize,
}

/// The best placement of `board`, or `None` when there is none (sides 2 and 3). When
/// `control` says stop first, the best placement found so far, not [proven](Best::proven):
/// the search starts from the best of eight arrangements of a placement known in closed form,
/// so it always holds one, and a board where every placement ties (all weights equal) is
/// proven at once.
pub fn solve(board: &Weights, control: &Control) -> Option<Best> {
    let n = board.n;
    if n == 2 || n == 3 {
        return None;
    }
    let original: Vec<i64> = board.weights.iter().map(|&w| i64::from(w)).collect();
    let start = constructed(n, &original);
    let mut search = Search {
        n,
        original: &original,
        weights: &[],
        incumbent: Some(start),
    };
    let finish = |search: &Search<'_>, nodes: u64, proven: bool| {
        let (score, queens) = search.incumbent?;
        let mut placement = vec![0u8; n];
        for (row, &col) in queens.iter().enumerate().take(n) {
            if let Some(p) = placement.get_mut(usize::from(col)) {
                *p = row as u8;
            }
        }
        Some(Best {
            score: score.max(0) as u64,
            placement,
            nodes,
            proven,
        })
    };
    if control.should_stop() {
        return finish(&search, 0, false);
    }
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let prices = Prices::find(n, &original, ROUNDS);
    let weights = prices.apply(n, &original);
    search.weights = &weights;
    let mut root = Assignment::new(n, &weights, &vec![all; n]);
    if !root.solve(&weights) {
        return finish(&search, 0, false);
    }
    let mut nodes = 1u64;
    let mut stack: Vec<Frame> = Vec::with_capacity(n + 1);
    let queens = [u8::MAX; MAX_SIDE];
    let root_node = Node {
        placed: 0,
        free_prices: prices.total(),
        queens,
    };
    if let Some(row) = search.examine(&mut root, &root_node) {
        stack.push(frame(root, &weights, root_node, row));
    }
    while let Some(top) = stack.last_mut() {
        if top.next == top.len {
            stack.pop();
            continue;
        }
        let col = usize::from(top.order[top.next]);
        top.next += 1;
        nodes += 1;
        if nodes.is_multiple_of(CHECK_EVERY) && control.should_stop() {
            return finish(&search, nodes, false);
        }
        let row = top.row;
        let mut node = top.node;
        node.placed += original[row * n + col];
        node.free_prices -= prices.of(n, row, col);
        node.queens[row] = col as u8;
        let mut child = top.assignment.clone();
        child.remove(row, col, |i| {
            let d = i.abs_diff(row);
            let mut m = 0u64;
            if col + d < n {
                m |= 1 << (col + d);
            }
            if col >= d {
                m |= 1 << (col - d);
            }
            m
        });
        // The parent's potentials bound the child before any re-routing.
        if search.beaten(&node, &child) || !child.solve(&weights) || search.beaten(&node, &child) {
            continue;
        }
        if let Some(next_row) = search.examine(&mut child, &node) {
            stack.push(frame(child, &weights, node, next_row));
        }
    }
    finish(&search, nodes, true)
}

/// A placement of `n` non-attacking queens (`n` = 1 or at least 4) in closed form: the queen
/// of column `j` (1-based) stands on row `rows[j]`, the even rows first, then the odd ones,
/// with the two classic corrections when `n % 6` is 2 or 3 (E. J. Hoffman, J. C. Loessi and
/// R. C. Moore, Mathematics Magazine 42 (1969)). Returned 0-based, as the row of each column.
pub fn closed_form(n: usize) -> Vec<u8> {
    let mut even: Vec<usize> = (2..=n).step_by(2).collect();
    let mut odd: Vec<usize> = (1..=n).step_by(2).collect();
    match n % 6 {
        2 if n >= 8 => {
            // 3, 1, 7, 9, ..., 5: swap 1 and 3, move 5 to the end.
            odd.swap(0, 1);
            if let Some(i) = odd.iter().position(|&r| r == 5) {
                let five = odd.remove(i);
                odd.push(five);
            }
        }
        3 if n >= 9 => {
            // 4, 6, ..., 2 then 5, 7, ..., 1, 3.
            even.rotate_left(1);
            odd.rotate_left(2);
        }
        _ => {}
    }
    even.into_iter().chain(odd).map(|r| (r - 1) as u8).collect()
}

/// A symmetry of the board: (row, column, last index) to (row, column).
type Image = fn(usize, usize, usize) -> (usize, usize);

/// The best of the eight symmetric images of [`closed_form`] under the weights, as the search
/// keeps it: (score, the column of each row's queen).
fn constructed(n: usize, original: &[i64]) -> (i64, [u8; MAX_SIDE]) {
    let rows = closed_form(n);
    let last = n - 1;
    let images: [Image; 8] = [
        |r, c, _| (r, c),
        |r, c, _| (c, r),
        |r, c, l| (l - r, c),
        |r, c, l| (r, l - c),
        |r, c, l| (l - r, l - c),
        |r, c, l| (c, l - r),
        |r, c, l| (l - c, r),
        |r, c, l| (l - c, l - r),
    ];
    let mut best = (i64::MIN, [u8::MAX; MAX_SIDE]);
    for image in images {
        let mut queens = [u8::MAX; MAX_SIDE];
        let mut value = 0;
        for (c, &r) in rows.iter().enumerate() {
            let (r, c) = image(usize::from(r), c, last);
            queens[r % MAX_SIDE] = c as u8;
            value += original.get(r * n + c).copied().unwrap_or(0);
        }
        if value > best.0 {
            best = (value, queens);
        }
    }
    best
}

/// Subgradient rounds spent on the diagonal prices at the root.
const ROUNDS: usize = 60;

/// The prices of the diagonals: `down[i - j + n - 1]` and `up[i + j]` for square (`i`, `j`).
#[derive(Clone, Debug)]
struct Prices {
    down: Vec<i64>,
    up: Vec<i64>,
}

impl Prices {
    /// Prices that make the relaxation tight, by `rounds` subgradient steps on the
    /// Lagrangian dual (each a full assignment); all zero for `rounds == 0`.
    fn find(n: usize, original: &[i64], rounds: usize) -> Prices {
        let diagonals = 2 * n - 1;
        let mut best = Prices {
            down: vec![0; diagonals],
            up: vec![0; diagonals],
        };
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut best_bound = i64::MAX;
        let (mut down, mut up) = (vec![0f64; diagonals], vec![0f64; diagonals]);
        // The step: a fraction of the gap to a target a little under the best bound.
        let mut theta = 1.0f64;
        let mut stale = 0;
        for _ in 0..rounds {
            let prices = Prices {
                down: down.iter().map(|&p| p.round().max(0.0) as i64).collect(),
                up: up.iter().map(|&p| p.round().max(0.0) as i64).collect(),
            };
            let weights = prices.apply(n, original);
            let mut a = Assignment::new(n, &weights, &vec![all; n]);
            if !a.solve(&weights) {
                break;
            }
            let bound = a.bound() + prices.total();
            if bound < best_bound {
                best_bound = bound;
                best = prices;
                stale = 0;
            } else {
                stale += 1;
                if stale >= 4 {
                    theta /= 2.0;
                    stale = 0;
                }
            }
            // Subgradient: queens on each diagonal minus one.
            let (mut gd, mut gu) = (vec![-1f64; diagonals], vec![-1f64; diagonals]);
            for i in 0..n {
                if let Some(j) = a.column_of(i) {
                    gd[i + n - 1 - j] += 1.0;
                    gu[i + j] += 1.0;
                }
            }
            let norm: f64 = gd.iter().chain(&gu).map(|g| g * g).sum();
            if norm == 0.0 {
                break;
            }
            let target = best_bound as f64 * 0.97;
            let step = theta * (bound as f64 - target).max(1.0) / norm;
            for (p, g) in down.iter_mut().zip(&gd).chain(up.iter_mut().zip(&gu)) {
                *p = (*p + step * g).max(0.0);
            }
        }
        best
    }

    /// The sum of all prices.
    fn total(&self) -> i64 {
        self.down.iter().chain(&self.up).sum()
    }

    /// The prices of the two diagonals of (`i`, `j`).
    fn of(&self, n: usize, i: usize, j: usize) -> i64 {
        self.down.get(i + n - 1 - j).copied().unwrap_or(0)
            + self.up.get(i + j).copied().unwrap_or(0)
    }

    /// The weights less the prices of their diagonals.
    fn apply(&self, n: usize, original: &[i64]) -> Vec<i64> {
        original
            .iter()
            .enumerate()
            .map(|(k, &w)| w - self.of(n, k / n, k % n))
            .collect()
    }
}

/// What a node has placed.
#[derive(Copy, Clone)]
struct Node {
    /// Weight of the queens placed so far.
    placed: i64,
    /// The prices of the diagonals no placed queen stands on.
    free_prices: i64,
    /// Column of the queen of each row placed so far, `u8::MAX` for free rows.
    queens: [u8; MAX_SIDE],
}

/// The search's fixed data and its best placement so far.
struct Search<'a> {
    n: usize,
    original: &'a [i64],
    weights: &'a [i64],
    incumbent: Option<(i64, [u8; MAX_SIDE])>,
}

impl Search<'_> {
    /// True when no completion of `node` can beat the incumbent.
    fn beaten(&self, node: &Node, a: &Assignment) -> bool {
        let bound = node.placed + node.free_prices + a.bound();
        self.incumbent
            .as_ref()
            .is_some_and(|&(best, _)| bound <= best)
    }

    /// Looks at a solved node: an assignment with no two queens on a diagonal is a placement,
    /// recorded if it beats the incumbent. Then forbids the squares whose reduced cost exceeds
    /// the gap to the incumbent, and gives the row to branch on, or `None` when the subtree
    /// needs no more search.
    fn examine(&mut self, a: &mut Assignment, node: &Node) -> Option<usize> {
        let n = self.n;
        let (mut down, mut up) = (0u128, 0u128);
        let mut conflict = false;
        let mut value = node.placed;
        let mut rows = a.rows();
        while rows != 0 {
            let i = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let j = a.column_of(i)?;
            let (d, u) = (1u128 << (i + n - 1 - j), 1u128 << (i + j));
            conflict |= down & d != 0 || up & u != 0;
            down |= d;
            up |= u;
            value += self.original.get(i * n + j).copied().unwrap_or(0);
        }
        if !conflict
            && self
                .incumbent
                .as_ref()
                .is_none_or(|&(best, _)| value > best)
        {
            let mut all = node.queens;
            let mut rows = a.rows();
            while rows != 0 {
                let i = rows.trailing_zeros() as usize;
                rows &= rows - 1;
                all[i] = a.column_of(i).map_or(u8::MAX, |j| j as u8);
            }
            self.incumbent = Some((value, all));
        }
        if self.beaten(node, a) {
            return None;
        }
        // Reduced-cost fixing: a square whose reduced cost is at least the gap between the
        // bound and the incumbent is in no better placement of this subtree.
        let gap = self.incumbent.as_ref().map_or(i64::MAX, |&(best, _)| {
            node.placed + node.free_prices + a.bound() - best
        });
        let mut best_row = None;
        let mut most = i64::MIN;
        let mut rows = a.rows();
        while rows != 0 {
            let i = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            let mut useful = 0u64;
            let mut m = a.open(i);
            while m != 0 {
                let j = m.trailing_zeros() as usize;
                m &= m - 1;
                if a.slack(self.weights, i, j) < gap {
                    useful |= 1 << j;
                }
            }
            a.restrict(i, useful);
            // Branch where the assignment has the most to lose: a row with one square left
            // first, else the row whose cheapest alternative square costs most.
            let mut regret = i64::MAX;
            if useful.count_ones() > 1 {
                regret = -1;
                let mut m = useful;
                while m != 0 {
                    let j = m.trailing_zeros() as usize;
                    m &= m - 1;
                    if a.column_of(i) != Some(j) {
                        let slack = a.slack(self.weights, i, j);
                        regret = if regret < 0 { slack } else { regret.min(slack) };
                    }
                }
            }
            if best_row.is_none() || regret > most {
                most = regret;
                best_row = Some(i);
            }
        }
        best_row
    }
}

/// The frame branching on `row` of a solved node, its columns by increasing reduced cost.
fn frame(assignment: Assignment, weights: &[i64], node: Node, row: usize) -> Frame {
    let mut cols: Vec<(i64, u8)> = Vec::with_capacity(MAX_SIDE);
    let mut m = assignment.open(row);
    while m != 0 {
        let j = m.trailing_zeros() as usize;
        m &= m - 1;
        cols.push((assignment.slack(weights, row, j), j as u8));
    }
    cols.sort_unstable();
    let mut order = [0u8; MAX_SIDE];
    for (slot, &(_, j)) in order.iter_mut().zip(&cols) {
        *slot = j;
    }
    Frame {
        assignment,
        node,
        row,
        order,
        len: cols.len(),
        next: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placements;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The sum of the weights under a placement (the rows of the queens of each column).
    fn sum(board: &Weights, placement: &[u8]) -> u64 {
        let weights = placement.iter().enumerate();
        weights
            .map(|(c, &r)| u64::from(board.get(usize::from(r), c)))
            .sum()
    }

    #[test]
    fn matches_brute_force_on_small_boards() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for _ in 0..200 {
            let n = [1usize, 4, 5, 6, 7, 8][rng.random_range(0..6)];
            let top = [2u32, 10, 100, 1 << 20][rng.random_range(0..4)];
            let w: Vec<u32> = (0..n * n).map(|_| rng.random_range(0..top)).collect();
            let board = Weights::new(n, w).unwrap();
            let expected = placements::all(n).iter().map(|p| sum(&board, p)).max();
            let expected = expected.unwrap();
            let best = solve(&board, &Control::new()).unwrap();
            assert!(best.proven);
            assert_eq!(best.score, expected);
            assert!(placements::is_non_attacking(&best.placement));
            assert_eq!(sum(&board, &best.placement), expected);
        }
    }

    #[test]
    fn sides_without_placements_have_no_answer() {
        for n in [2, 3] {
            let board = Weights::new(n, vec![5; n * n]).unwrap();
            assert_eq!(solve(&board, &Control::new()), None);
        }
        assert_eq!(Weights::new(0, vec![]), Err(WeightsError::BadSide(0)));
        assert_eq!(Weights::new(65, vec![]), Err(WeightsError::BadSide(65)));
        assert!(Weights::new(4, vec![0; 15]).is_err());
    }

    #[test]
    fn the_closed_form_is_a_placement_on_every_side() {
        for n in (1..=MAX_SIDE).filter(|&n| n != 2 && n != 3) {
            let rows = closed_form(n);
            let mut sorted = rows.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..n as u8).collect::<Vec<_>>(), "n = {n}");
            assert!(placements::is_non_attacking(&rows), "n = {n}: {rows:?}");
        }
    }

    #[test]
    fn ties_are_proven_at_once() {
        for (n, w) in [(28, 1), (30, 7), (64, 0), (64, u32::MAX)] {
            let board = Weights::new(n, vec![w; n * n]).unwrap();
            let best = solve(&board, &Control::new()).unwrap();
            assert!(best.proven);
            assert_eq!(best.score, n as u64 * u64::from(w));
            assert!(best.nodes <= 1, "n = {n}: {} nodes", best.nodes);
            assert!(placements::is_non_attacking(&best.placement));
        }
    }

    #[test]
    fn a_stop_gives_the_best_found_unproven() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let n = 40;
        let w: Vec<u32> = (0..n * n).map(|_| rng.random_range(1..100)).collect();
        let board = Weights::new(n, w).unwrap();
        let control = Control::new();
        control.stop();
        let best = solve(&board, &control).unwrap();
        assert!(!best.proven);
        assert!(placements::is_non_attacking(&best.placement));
        assert_eq!(sum(&board, &best.placement), best.score);
    }
}

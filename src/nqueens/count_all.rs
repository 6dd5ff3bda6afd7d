//! Counting every placement of an empty n x n board: one placement in about eight is searched
//! (symmetry), row by row from the top, and the last few rows are not searched but looked up.
//!
//! # Symmetry
//! Every placement has one queen on each edge of the board (a corner queen on two). Reading
//! each edge from each of its two ends gives 8 *flags*, and the 8 symmetries of the square map
//! the flag (top edge, left end) onto each flag exactly once; the distance of a flag's queen
//! from its end is the top queen's column in the image under that symmetry.
//!
//! - No queen in a corner. Let `c` be the least of the 8 distances of a placement P, and `k`
//!   the number of flags at distance `c`; both are the same for all images of P. The search
//!   visits the placements with the top queen on column `c`, `c` not above any other distance:
//!   the images of P under the `k` symmetries that bring a closest flag on top. There are
//!   `k / s` of them (`s` symmetries fix P) while P has `8 / s` images, so each visited
//!   placement stands for `8 / k`. In the search: the top queen on column `c <= (n - 1) / 2`,
//!   the side columns closed to rows above `c` and below `n - 1 - c`, the bottom queen between
//!   columns `c` and `n - 1 - c`. `k` is one plus the number of *tie squares* taken: the side
//!   squares of rows `c` and `n - 1 - c`, and the bottom squares of columns `c` and `n - 1 - c`.
//! - A queen in a corner (there is at most one): its 8 images are distinct, two of them have
//!   it top left (one is the other transposed), and exactly one of these two has the queen of
//!   row 1 on a smaller column than the row of the queen of column 1 (0-based; they cannot be
//!   equal). The search visits that one, which stands for 8: row 0 on column 0, row 1 on
//!   column `a >= 2`, column 1 closed to rows `2..=a`.
//!
//! # The search
//! Rows are not filled top down. Every row keeps the set of columns still open on it (forward
//! checking), all rows updated at once by one mask per square; the next row to fill is the one
//! with the fewest open columns (a row with none, or a free column that no row can still take,
//! ends the branch at once). On one thread this visits about a fifth of the nodes of the top
//! down search with the same symmetry, at a few vector operations per node.
//!
//! ```
//! use chess_puzzles::nqueens::{count_all, Control};
//!
//! assert_eq!(count_all::count(8, &Control::new()), Some(92));
//! assert_eq!(count_all::count(13, &Control::new()), Some(73712));
//! ```

use rayon::prelude::*;

use super::backtrack::Lines;
use super::{Control, MAX_N};

/// The largest side counted this way (columns are bits of a `u32`, bit 31 marks a filled row).
pub const MAX_FAST_N: usize = 31;

/// The smallest side counted this way (smaller boards go to the plain kernel).
const MIN_FAST_N: usize = 4;

/// A row's mask once the row is filled.
const FILLED: u32 = 1 << 31;

/// How many pushes the search makes between two looks at [`Control::should_stop`].
const CHECK_EVERY: u32 = 1 << 12;

/// Subtrees wanted before the counting starts, for the threads to share.
const TASKS: usize = 4096;

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board (`n <= 64`),
/// or `None` when `control` said stop (or `n` is out of range). Counts on the current rayon
/// pool; progress is reported to `control` in subtrees.
pub fn count(n: usize, control: &Control) -> Option<u128> {
    if n == 0 || n > MAX_N {
        return None;
    }
    if !(MIN_FAST_N..=MAX_FAST_N).contains(&n) {
        return plain(n, control);
    }
    if n <= 16 {
        count_with::<16>(n, control)
    } else {
        count_with::<32>(n, control)
    }
}

/// Counts with the plain kernel, every row searched top down (tiny or very large boards).
fn plain(n: usize, control: &Control) -> Option<u128> {
    let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let lines = Lines::new((0..n).map(|row| (row, all))).ok()?;
    control.add_total(1);
    let count = lines.count(lines.root(), control)?;
    control.add_done(1);
    Some(u128::from(count))
}

/// [`count`] with `L >= n` lanes per board (16 or 32).
fn count_with<const L: usize>(n: usize, control: &Control) -> Option<u128> {
    let board = Board::<L>::new(n);
    let plans = plans(&board);
    let mut tasks: Vec<(usize, Frame<L>)> = plans
        .iter()
        .enumerate()
        .filter_map(|(i, p)| board.frame(p.open, p.taken, 0, p.left).map(|f| (i, f)))
        .collect();
    while tasks.len() < TASKS && tasks.iter().all(|(_, f)| f.left > 3) {
        tasks = tasks
            .iter()
            .flat_map(|&(i, f)| {
                let plan = &plans[i];
                board.children(f, &plan.ties).map(move |c| (i, c))
            })
            .collect();
    }
    control.add_total(tasks.len() as u64);
    // Per plan kind and tie count; weighed only at the end, where the division is exact.
    let results: Option<Vec<(Kind, [u64; 6])>> = tasks
        .par_iter()
        .map(|&(i, frame)| {
            if control.should_stop() {
                return None;
            }
            let plan = &plans[i];
            let per_ties = board.count(frame, &plan.ties, control)?;
            control.add_done(1);
            Some((plan.kind, per_ties))
        })
        .collect();
    let mut corner = [0u128; 6];
    let mut edge = [0u128; 6];
    for (kind, per_ties) in results? {
        let sums = if kind == Kind::Corner {
            &mut corner
        } else {
            &mut edge
        };
        for (sum, c) in sums.iter_mut().zip(per_ties) {
            *sum += u128::from(c);
        }
    }
    Some(weigh(Kind::Corner, &corner) + weigh(Kind::Edge, &edge))
}

/// The number of placements that the visited ones, counted per number of tie squares, stand
/// for; `per_ties` must cover every visited placement of its kind.
fn weigh(kind: Kind, per_ties: &[u128; 6]) -> u128 {
    match kind {
        Kind::Corner => 8 * per_ties.iter().sum::<u128>(),
        // Per tie count t the visits form whole classes, a class of k = 1 + t flags
        // contributing k / s visits for 8 / s placements: 8 * visits is divisible by 1 + t.
        Kind::Edge => per_ties
            .iter()
            .enumerate()
            .map(|(t, &c)| c * 8 / (1 + t as u128))
            .sum(),
    }
}

/// How the placements visited by a plan are weighted.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Kind {
    /// A corner queen: each stands for 8.
    Corner,
    /// No corner queen: each stands for `8 / (1 + tie squares taken)`.
    Edge,
}

/// One symmetry class of the search: its first queens placed, the open columns of every row.
struct Plan<const L: usize> {
    kind: Kind,
    /// Per row, the open columns ([`FILLED`] for a filled row).
    open: [u32; L],
    /// The columns taken.
    taken: u32,
    /// The rows still to fill.
    left: usize,
    /// Per row, its tie squares.
    ties: [u32; L],
}

/// The board's masks: what a queen on each square leaves open on every row.
struct Board<const L: usize> {
    n: usize,
    /// The board's columns.
    columns: u32,
    /// `keep[row * n + col][r]`: the columns of row `r` that a queen on (`row`, `col`) does
    /// not attack, [`FILLED`] kept; 0 for `r == row`.
    keep: Vec<[u32; L]>,
    /// `filled[row]`: [`FILLED`] on lane `row`, 0 elsewhere.
    filled: Vec<[u32; L]>,
}

/// A node of the search: the open columns of every row and the row to branch on.
#[derive(Copy, Clone, Debug)]
struct Frame<const L: usize> {
    open: [u32; L],
    taken: u32,
    /// The row to branch on (the one with the fewest open columns).
    row: usize,
    /// Its open columns not tried yet.
    todo: u32,
    /// Rows still to fill, this one included.
    left: usize,
    /// Tie squares taken so far.
    ties: usize,
}

impl<const L: usize> Board<L> {
    fn new(n: usize) -> Board<L> {
        let columns = (1u32 << n) - 1;
        let mut keep = vec![[FILLED | columns; L]; n * n];
        let mut filled = vec![[0u32; L]; n];
        for row in 0..n {
            filled[row][row] = FILLED;
            for col in 0..n {
                let lanes = &mut keep[row * n + col];
                for (r, lane) in lanes.iter_mut().enumerate().take(n) {
                    if r == row {
                        *lane = 0;
                        continue;
                    }
                    let d = r.abs_diff(row);
                    let mut attacked = 1u32 << col;
                    if col + d < n {
                        attacked |= 1 << (col + d);
                    }
                    if col >= d {
                        attacked |= 1 << (col - d);
                    }
                    *lane &= !attacked;
                }
            }
        }
        Board {
            n,
            columns,
            keep,
            filled,
        }
    }

    /// Places a queen on (`row`, `col`) into `open`; `None` if that leaves a row without an
    /// open column or a free column without a row that can take it.
    #[inline(always)]
    fn place(&self, open: &[u32; L], taken: u32, row: usize, col: usize) -> Option<[u32; L]> {
        let keep = self.keep.get(row * self.n + col)?;
        let filled = self.filled.get(row)?;
        let mut next = [0u32; L];
        let mut any_empty = false;
        let mut reachable = 0u32;
        for i in 0..L {
            let lane = (open[i] & keep[i]) | filled[i];
            next[i] = lane;
            any_empty |= lane == 0;
            reachable |= lane;
        }
        let free = self.columns & !(taken | 1 << col);
        (!any_empty && reachable & free == free).then_some(next)
    }

    /// The node for `open`: the unfilled row with the fewest open columns; `None` when no row
    /// is left to branch on.
    #[inline(always)]
    fn frame(&self, open: [u32; L], taken: u32, ties: usize, left: usize) -> Option<Frame<L>> {
        let row = fewest(&open);
        let todo = open.get(row).copied()? & self.columns;
        Some(Frame {
            open,
            taken,
            row,
            todo,
            left,
            ties,
        })
    }

    /// The children of `f` (for splitting the work).
    fn children<'a>(
        &'a self,
        f: Frame<L>,
        ties: &'a [u32; L],
    ) -> impl Iterator<Item = Frame<L>> + 'a {
        let mut todo = f.todo;
        std::iter::from_fn(move || {
            while todo != 0 {
                let bit = todo & todo.wrapping_neg();
                todo ^= bit;
                let col = bit.trailing_zeros() as usize;
                if let Some(placed) = self.place(&f.open, f.taken, f.row, col) {
                    let tie = usize::from(ties[f.row] & bit != 0);
                    return self.frame(placed, f.taken | bit, f.ties + tie, f.left - 1);
                }
            }
            None
        })
    }

    /// The placements below `start` per number of tie squares taken, or `None` when `control`
    /// said stop. `start.left >= 1`.
    fn count(&self, start: Frame<L>, ties: &[u32; L], control: &Control) -> Option<[u64; 6]> {
        let mut per_ties = [0u64; 6];
        if start.left == 1 {
            self.count_last(&start, ties, &mut per_ties);
            return Some(per_ties);
        }
        let mut stack = [start; 33];
        let first = start.left;
        let mut top = 0usize;
        let mut until_check = CHECK_EVERY;
        loop {
            let f = &mut stack[top & 31];
            if f.todo == 0 {
                if top == 0 {
                    return Some(per_ties);
                }
                top -= 1;
                continue;
            }
            let bit = f.todo & f.todo.wrapping_neg();
            f.todo ^= bit;
            let col = bit.trailing_zeros() as usize;
            let (row, taken, left) = (f.row, f.taken, f.left);
            let Some(placed) = self.place(&f.open, taken, row, col) else {
                continue;
            };
            let tie = f.ties + usize::from(ties.get(row).is_some_and(|t| t & bit != 0));
            let Some(child) = self.frame(placed, taken | bit, tie, left - 1) else {
                continue;
            };
            if child.left == 1 {
                self.count_last(&child, ties, &mut per_ties);
                continue;
            }
            debug_assert!(first - child.left < 32);
            top += 1;
            stack[top & 31] = child;
            until_check -= 1;
            if until_check == 0 {
                until_check = CHECK_EVERY;
                if control.should_stop() {
                    return None;
                }
            }
        }
    }

    /// Counts the completions of a node with one row left: its open columns.
    #[inline(always)]
    fn count_last(&self, f: &Frame<L>, ties: &[u32; L], per_ties: &mut [u64; 6]) {
        let tie = ties.get(f.row).copied().unwrap_or(0);
        let on_ties = u64::from((f.todo & tie).count_ones());
        let all = u64::from(f.todo.count_ones());
        if let Some(slot) = per_ties.get_mut(f.ties) {
            *slot += all - on_ties;
        }
        if let Some(slot) = per_ties.get_mut(f.ties + 1) {
            *slot += on_ties;
        }
    }
}

/// The unfilled lane with the fewest open columns (the first of them); a filled lane only if
/// every lane is filled.
#[inline(always)]
fn fewest<const L: usize>(open: &[u32; L]) -> usize {
    let mut best = u16::MAX;
    for (i, &lane) in open.iter().enumerate() {
        let count = (lane & !FILLED).count_ones() as u16 + ((lane >> 31) as u16) * 63;
        best = best.min(count << 5 | i as u16);
    }
    usize::from(best & 31)
}

/// Every symmetry class of an `n`x`n` board, `MIN_FAST_N <= n <= MAX_FAST_N`.
fn plans<const L: usize>(board: &Board<L>) -> Vec<Plan<L>> {
    let n = board.n;
    let all = board.columns;
    let last = n - 1;
    let mut plans = Vec::new();
    let mut open_rows = [FILLED; L];
    for lane in open_rows.iter_mut().take(n) {
        *lane = all;
    }
    // Places the first queens (row, column) of a plan on `open`.
    let start = |mut open: [u32; L], queens: &[(usize, usize)]| {
        let mut taken = 0u32;
        for &(row, col) in queens {
            if open.get(row)? & 1 << col == 0 {
                return None;
            }
            open = board.place(&open, taken, row, col)?;
            taken |= 1 << col;
        }
        Some((open, taken))
    };
    // A queen in the top left corner, the queen of row 1 on column a.
    for a in 2..=last {
        let mut open = open_rows;
        for lane in open.iter_mut().take(a + 1).skip(2) {
            *lane &= !0b10;
        }
        let Some((open, taken)) = start(open, &[(0, 0), (1, a)]) else {
            continue;
        };
        plans.push(Plan {
            kind: Kind::Corner,
            open,
            taken,
            left: n - 2,
            ties: [0; L],
        });
    }
    // The top queen on column c, no queen in a corner.
    let side = 1 | 1 << last;
    for c in 1..=last / 2 {
        if 2 * c == last {
            // Then every border queen would stand on the middle: two on one row.
            continue;
        }
        let mut open = open_rows;
        for (row, lane) in open.iter_mut().enumerate().take(n) {
            if row < c || row > last - c {
                *lane &= !side;
            }
        }
        open[last] = all & !((1 << c) - 1) & !(all << (last - c + 1) & all);
        let mut ties = [0u32; L];
        ties[c] = side;
        ties[last - c] = side;
        ties[last] = 1 << c | 1 << (last - c);
        let Some((open, taken)) = start(open, &[(0, c)]) else {
            continue;
        };
        plans.push(Plan {
            kind: Kind::Edge,
            open,
            taken,
            left: n - 1,
            ties,
        });
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A000170, n = 1..=13.
    const A000170: [u128; 13] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

    #[test]
    fn small_boards_match_oeis() {
        for (i, &expected) in A000170.iter().enumerate() {
            assert_eq!(
                count(i + 1, &Control::new()),
                Some(expected),
                "n = {}",
                i + 1
            );
        }
    }

    #[test]
    fn both_lane_widths_agree() {
        for n in 4..=13 {
            assert_eq!(
                count_with::<16>(n, &Control::new()),
                count_with::<32>(n, &Control::new()),
                "n = {n}"
            );
        }
    }

    #[test]
    fn out_of_range_sides_count_nothing() {
        assert_eq!(count(0, &Control::new()), None);
        assert_eq!(count(65, &Control::new()), None);
    }
}

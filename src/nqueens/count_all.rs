//! Counting every placement of an empty n x n board. Sides 12 to 27 go to
//! [`band`] (a band of middle columns fixed, its two sides joined: the fastest
//! there); the others are counted here: one placement in about eight is searched (symmetry), by forward checking with
//! fewest-open-row branching (`forward`).
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
//! The symmetry restrictions are closed squares and tie squares on the rows, so the search may
//! fill the rows in any order. The classes are split into a few thousand subtrees, counted in
//! parallel by rayon.
//!
//! ```
//! use chess_puzzles::nqueens::{count_all, Control};
//!
//! assert_eq!(count_all::count(8, &Control::new()), Some(92));
//! assert_eq!(count_all::count(13, &Control::new()), Some(73712));
//! ```

use rayon::prelude::*;

use super::backtrack::Lines;
use super::band;
use super::control::Control;
use super::forward::{Board, Frame, Lane, Ties};
use super::problem::MAX_N;

/// The largest side counted this way (columns are the bits of a `u32` lane).
pub const MAX_FAST_N: usize = 31;

/// The smallest side counted this way (smaller boards go to the plain kernel).
const MIN_FAST_N: usize = 4;

/// The smallest side counted by joining the sides of a band ([`band`]), which is faster
/// there.
pub const BAND_FROM: usize = 12;

/// Subtrees wanted before the counting starts, for the threads to share.
const TASKS: usize = 4096;

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board (`n <= 64`),
/// or `None` when `control` said stop (or `n` is out of range). Counts on the current rayon
/// pool; progress is reported to `control` in subtrees.
pub fn count(n: usize, control: &Control) -> Option<u128> {
    if n == 0 || n > MAX_N {
        return None;
    }
    if (BAND_FROM..=band::MAX_N).contains(&n) {
        return band::count(n, control);
    }
    if !(MIN_FAST_N..=MAX_FAST_N).contains(&n) {
        return plain(n, control);
    }
    match n {
        ..=8 => count_with::<8>(n, control),
        9..=16 => count_with::<16>(n, control),
        17..=24 => count_with::<24>(n, control),
        _ => count_with::<32>(n, control),
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

/// [`count`] with `L >= n` lanes.
fn count_with<const L: usize>(n: usize, control: &Control) -> Option<u128> {
    let board = Board::<u32, L>::new(n)?;
    let plans = plans(&board);
    let roots = plans.iter().enumerate().map(|(i, p)| (i, p.root));
    let tasks = split(&board, roots, |i| &plans[i].ties, TASKS);
    control.add_total(tasks.len() as u64);
    // Per plan kind and tie count; weighed only at the end, where the division is exact.
    let results: Option<Vec<(Kind, [u64; 8])>> = tasks
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
    let mut corner = [0u128; 8];
    let mut edge = [0u128; 8];
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

/// Expands `roots` (tagged by their plan) breadth first until there are `target` subtrees or
/// some has few rows left.
pub(super) fn split<'a, T: Lane, const L: usize>(
    board: &'a Board<T, L>,
    roots: impl Iterator<Item = (usize, Frame<T, L>)>,
    ties: impl Fn(usize) -> &'a Ties<T, L>,
    target: usize,
) -> Vec<(usize, Frame<T, L>)> {
    let mut tasks: Vec<(usize, Frame<T, L>)> = roots.collect();
    while !tasks.is_empty() && tasks.len() < target && tasks.iter().all(|(_, f)| f.left() > 3) {
        tasks = tasks
            .iter()
            .flat_map(|&(i, f)| board.children(f, ties(i)).map(move |c| (i, c)))
            .collect();
    }
    tasks
}

/// The number of placements that the visited ones, counted per number of tie squares, stand
/// for; `per_ties` must cover every visited placement of its kind.
fn weigh(kind: Kind, per_ties: &[u128; 8]) -> u128 {
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

/// One symmetry class of the search: its first queens placed, its tie squares.
struct Plan<const L: usize> {
    kind: Kind,
    root: Frame<u32, L>,
    ties: Ties<u32, L>,
}

/// Every symmetry class of the board.
fn plans<const L: usize>(board: &Board<u32, L>) -> Vec<Plan<L>> {
    let n = board.n();
    let all = board.columns();
    let last = n - 1;
    let mut plans = Vec::new();
    // A queen in the top left corner, the queen of row 1 on column a.
    for a in 2..=last {
        let mut open = board.empty();
        for lane in open.iter_mut().take(a + 1).skip(2) {
            *lane &= !0b10;
        }
        let Some((open, taken)) = board.start(open, &[(0, 0), (1, a)]) else {
            continue;
        };
        plans.push(Plan {
            kind: Kind::Corner,
            root: board.frame(open, taken, 0, n - 2),
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
        let mut open = board.empty();
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
        let Some((open, taken)) = board.start(open, &[(0, c)]) else {
            continue;
        };
        plans.push(Plan {
            kind: Kind::Edge,
            root: board.frame(open, taken, 0, n - 1),
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
    fn lane_counts_agree() {
        for n in 4..=8 {
            let narrow = count_with::<8>(n, &Control::new());
            assert_eq!(narrow, count_with::<16>(n, &Control::new()), "n = {n}");
            assert_eq!(narrow, count_with::<32>(n, &Control::new()), "n = {n}");
        }
    }

    #[test]
    fn forward_checking_and_the_band_agree() {
        // Two independent methods; 12 to 14 are past OEIS in the test above.
        for n in 12..=14 {
            let forward = count_with::<16>(n, &Control::new());
            assert!(forward.is_some());
            assert_eq!(forward, band::count(n, &Control::new()), "n = {n}");
        }
    }

    #[test]
    fn out_of_range_sides_count_nothing() {
        assert_eq!(count(0, &Control::new()), None);
        assert_eq!(count(65, &Control::new()), None);
    }
}

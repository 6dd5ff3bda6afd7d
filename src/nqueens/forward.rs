//! Counting placements by forward checking with fewest-open-row branching.
//!
//! Every row keeps the set of columns still open on it; a queen on a square updates all rows at
//! once by one precomputed mask (a vector AND over the lanes). Rows are not filled in order: the
//! next row to branch on is the one with the fewest open columns, and a branch ends as soon as
//! some row has no open column left, or some free column is open on no row. A filled row holds
//! only the [`Lane::FILLED`] bit. On the empty board this visits about a fifth of the nodes of
//! the classic top-down bitmask search with the same symmetry restrictions.
//!
//! Lanes are `u32` (boards up to 31x31) or `u64` (up to 63x63); `L`, the number of lanes, is a
//! multiple of 8 at least the board side (the lanes past the board are filled).

use std::ops::{BitAnd, BitOr, Not};

use super::control::Control;

/// How many pushes the search makes between two looks at [`Control::should_stop`].
const CHECK_EVERY: u32 = 1 << 12;

/// The open columns of one row: a lane of the board's vector.
pub(super) trait Lane:
    Copy
    + Eq
    + Send
    + Sync
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
{
    /// No bit set.
    const ZERO: Self;
    /// The top bit: set on a filled row (and on lanes past the board), never a column.
    const FILLED: Self;
    /// The largest board side (one bit per column, the top bit kept for [`Lane::FILLED`]).
    const MAX_SIDE: usize;
    /// The single bit of column `col`.
    fn bit(col: usize) -> Self;
    /// The bits of columns `0..n`.
    fn first(n: usize) -> Self;
    /// The number of set bits.
    fn ones(self) -> u32;
    /// The lowest set bit's column.
    fn lowest(self) -> usize;
    /// The lowest set bit alone.
    fn lowest_bit(self) -> Self;
    /// A queen's mark on every lane: `(open & keep) | filled` per lane, written into `next`;
    /// whether a lane came out empty, and the union of the lanes. (Written into the caller's
    /// array rather than returned: the browser's module, built for size, copies an array
    /// returned or moved with `memory.copy`, a call out of WebAssembly.)
    #[inline(always)]
    fn step<const L: usize>(
        open: &[Self; L],
        keep: &[Self; L],
        filled: &[Self; L],
        next: &mut [Self; L],
    ) -> (bool, Self) {
        let mut any_empty = false;
        let mut reachable = Self::ZERO;
        for i in 0..L {
            let lane = (open[i] & keep[i]) | filled[i];
            next[i] = lane;
            any_empty |= lane == Self::ZERO;
            reachable = reachable | lane;
        }
        (any_empty, reachable)
    }
}

macro_rules! lane {
    ($t:ty $(; $($more:tt)*)?) => {
        impl Lane for $t {
            const ZERO: $t = 0;
            const FILLED: $t = 1 << (<$t>::BITS - 1);
            const MAX_SIDE: usize = <$t>::BITS as usize - 1;
            #[inline(always)]
            fn bit(col: usize) -> $t {
                1 << col
            }
            #[inline(always)]
            fn first(n: usize) -> $t {
                (1 << n) - 1
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline(always)]
            fn lowest_bit(self) -> $t {
                self & self.wrapping_neg()
            }
            $($($more)*)?
        }
    };
}

lane!(u32;
    /// [`Lane::step`] four lanes at a time in WebAssembly SIMD: the browser's module is built
    /// for size, where the compiler leaves the plain loop one lane at a time (natively it
    /// becomes one AVX-512 or two AVX2 instructions per 16 lanes). `L` is a multiple of 8.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn step<const L: usize>(
        open: &[u32; L],
        keep: &[u32; L],
        filled: &[u32; L],
        next: &mut [u32; L],
    ) -> (bool, u32) {
        use std::arch::wasm32::*;
        let mut empty = u32x4_splat(0);
        let mut reachable = u32x4_splat(0);
        for i in (0..L).step_by(4) {
            // Safety: `i + 4 <= L` (L is a multiple of 4), so each load and store stays in
            // its array; v128_load and v128_store take any alignment.
            let lane = unsafe {
                let four = |a: &[u32; L]| v128_load(a.as_ptr().add(i).cast());
                v128_or(v128_and(four(open), four(keep)), four(filled))
            };
            unsafe { v128_store(next.as_mut_ptr().add(i).cast(), lane) };
            empty = v128_or(empty, u32x4_eq(lane, u32x4_splat(0)));
            reachable = v128_or(reachable, lane);
        }
        let reachable = v128_or(reachable, u32x4_shuffle::<2, 3, 0, 1>(reachable, reachable));
        let reachable = v128_or(reachable, u32x4_shuffle::<1, 0, 3, 2>(reachable, reachable));
        (v128_any_true(empty), u32x4_extract_lane::<0>(reachable))
    }
);
lane!(u64);

/// What a queen on each square of an `n`x`n` board leaves open on every row.
pub(super) struct Board<T, const L: usize> {
    n: usize,
    /// The board's columns.
    columns: T,
    /// `keep[row * n + col][r]`: the columns of row `r` that a queen on (`row`, `col`) does
    /// not attack, with [`Lane::FILLED`]; 0 for `r == row`.
    keep: Vec<[T; L]>,
    /// `filled[row]`: [`Lane::FILLED`] on lane `row`, 0 elsewhere.
    filled: Vec<[T; L]>,
}

/// A node of the search: the open columns of every row and the row to branch on.
#[derive(Copy, Clone, Debug)]
pub(super) struct Frame<T, const L: usize> {
    open: [T; L],
    taken: T,
    /// The row to branch on (the one with the fewest open columns).
    row: usize,
    /// Its open columns not tried yet.
    todo: T,
    /// Rows still to fill, this one included.
    left: usize,
    /// Tie squares taken so far.
    ties: usize,
}

impl<T, const L: usize> Frame<T, L> {
    /// Rows still to fill.
    pub(super) fn left(&self) -> usize {
        self.left
    }
}

/// Per row, the squares that count as ties (see [`Board::count`]).
pub(super) type Ties<T, const L: usize> = [T; L];

impl<T: Lane, const L: usize> Board<T, L> {
    /// The masks of an `n`x`n` board, `1 <= n <= min(L, T::MAX_SIDE)`; `None` otherwise.
    pub(super) fn new(n: usize) -> Option<Board<T, L>> {
        if n == 0 || n > L || n > T::MAX_SIDE {
            return None;
        }
        let columns = T::first(n);
        let mut keep = vec![[T::FILLED | columns; L]; n * n];
        let mut filled = vec![[T::ZERO; L]; n];
        for row in 0..n {
            filled[row][row] = T::FILLED;
            for col in 0..n {
                let lanes = &mut keep[row * n + col];
                for (r, lane) in lanes.iter_mut().enumerate().take(n) {
                    if r == row {
                        *lane = T::ZERO;
                        continue;
                    }
                    let d = r.abs_diff(row);
                    let mut attacked = T::bit(col);
                    if col + d < n {
                        attacked = attacked | T::bit(col + d);
                    }
                    if col >= d {
                        attacked = attacked | T::bit(col - d);
                    }
                    *lane = *lane & !attacked;
                }
            }
        }
        Some(Board {
            n,
            columns,
            keep,
            filled,
        })
    }

    /// The board's side.
    pub(super) fn n(&self) -> usize {
        self.n
    }

    /// The board's columns.
    pub(super) fn columns(&self) -> T {
        self.columns
    }

    /// Every column open on every row of the board, the lanes past it filled.
    pub(super) fn empty(&self) -> [T; L] {
        let mut open = [T::FILLED; L];
        for lane in open.iter_mut().take(self.n) {
            *lane = self.columns;
        }
        open
    }

    /// Puts the queens `(row, col)` on `open` (rows with open columns as restricted by the
    /// caller, no column taken yet); `None` if one of them is not open or they leave a dead
    /// end. Gives the rows and the taken columns.
    pub(super) fn start(&self, mut open: [T; L], queens: &[(usize, usize)]) -> Option<([T; L], T)> {
        let mut taken = T::ZERO;
        for &(row, col) in queens {
            if col >= self.n || *open.get(row)? & T::bit(col) == T::ZERO {
                return None;
            }
            open = self.place(&open, taken, row, col)?;
            taken = taken | T::bit(col);
        }
        Some((open, taken))
    }

    /// Places a queen on (`row`, `col`) into `open`; `None` if that leaves a row without an
    /// open column or a free column without a row that can take it.
    #[inline(always)]
    fn place(&self, open: &[T; L], taken: T, row: usize, col: usize) -> Option<[T; L]> {
        let mut next = [T::ZERO; L];
        self.place_into(open, taken, row, col, &mut next)
            .then_some(next)
    }

    /// [`Board::place`], written into `next`; false if it leaves a dead end (`next` is
    /// written all the same).
    #[inline(always)]
    fn place_into(
        &self,
        open: &[T; L],
        taken: T,
        row: usize,
        col: usize,
        next: &mut [T; L],
    ) -> bool {
        let (Some(keep), Some(filled)) = (self.keep.get(row * self.n + col), self.filled.get(row))
        else {
            return false;
        };
        let (any_empty, reachable) = T::step(open, keep, filled, next);
        let free = self.columns & !(taken | T::bit(col));
        !any_empty && reachable & free == free
    }

    /// The node for `open`, `left` rows to fill (at least one).
    #[inline(always)]
    pub(super) fn frame(&self, open: [T; L], taken: T, ties: usize, left: usize) -> Frame<T, L> {
        let mut frame = Frame {
            open,
            taken,
            row: 0,
            todo: T::ZERO,
            left,
            ties,
        };
        self.choose_row(&mut frame);
        frame
    }

    /// Sets the frame's row to branch on (the one with the fewest open columns) and its
    /// columns to try.
    #[inline(always)]
    fn choose_row(&self, f: &mut Frame<T, L>) {
        f.row = fewest(&f.open);
        f.todo = f.open.get(f.row).copied().unwrap_or(T::ZERO) & self.columns;
    }

    /// The children of `f`, which has at least two rows left.
    pub(super) fn children<'a>(
        &'a self,
        f: Frame<T, L>,
        ties: &'a Ties<T, L>,
    ) -> impl Iterator<Item = Frame<T, L>> + 'a {
        let mut todo = f.todo;
        std::iter::from_fn(move || {
            while todo != T::ZERO {
                let bit = todo.lowest_bit();
                todo = todo & !bit;
                if let Some(open) = self.place(&f.open, f.taken, f.row, bit.lowest()) {
                    let tie = usize::from(ties.get(f.row).is_some_and(|&t| t & bit != T::ZERO));
                    return Some(self.frame(open, f.taken | bit, f.ties + tie, f.left - 1));
                }
            }
            None
        })
    }

    /// The placements below `start`, counted by the number of tie squares they take (`ties`
    /// gives each row's; the count of `start` carries on), or `None` when `control` said stop.
    pub(super) fn count(
        &self,
        start: Frame<T, L>,
        ties: &Ties<T, L>,
        control: &Control,
    ) -> Option<[u64; 8]> {
        let mut per_ties = [0u64; 8];
        if start.left <= 1 {
            count_last(&start, ties, &mut per_ties);
            return Some(per_ties);
        }
        // The search stack, indexed `& 63`: at most 63 rows are ever pushed.
        let mut stack = [start; 64];
        let mut top = 0usize;
        let mut until_check = CHECK_EVERY;
        loop {
            let f = &mut stack[top & 63];
            if f.todo == T::ZERO {
                if top == 0 {
                    return Some(per_ties);
                }
                top -= 1;
                continue;
            }
            let bit = f.todo.lowest_bit();
            f.todo = f.todo & !bit;
            // Natively the child is made in registers (a vector of the lanes), and a leaf is
            // counted without a store.
            #[cfg(not(target_arch = "wasm32"))]
            {
                let Some(open) = self.place(&f.open, f.taken, f.row, bit.lowest()) else {
                    continue;
                };
                let tie = usize::from(ties.get(f.row).is_some_and(|&t| t & bit != T::ZERO));
                let child = self.frame(open, f.taken | bit, f.ties + tie, f.left - 1);
                if child.left == 1 {
                    count_last(&child, ties, &mut per_ties);
                    continue;
                }
                stack[(top + 1) & 63] = child;
            }
            // In the browser's module it is made in the slot above: the size-optimised build
            // moves a frame with `memory.copy`, a call out of WebAssembly (a quarter of the
            // time of a count with a given queen).
            #[cfg(target_arch = "wasm32")]
            {
                let (f, child) = two_slots(&mut stack, top & 63);
                if !self.place_into(&f.open, f.taken, f.row, bit.lowest(), &mut child.open) {
                    continue;
                }
                let tie = usize::from(ties.get(f.row).is_some_and(|&t| t & bit != T::ZERO));
                child.taken = f.taken | bit;
                child.ties = f.ties + tie;
                child.left = f.left - 1;
                self.choose_row(child);
                if child.left == 1 {
                    count_last(child, ties, &mut per_ties);
                    continue;
                }
            }
            top += 1;
            until_check -= 1;
            if until_check == 0 {
                until_check = CHECK_EVERY;
                if control.should_stop() {
                    return None;
                }
            }
        }
    }
}

/// Slot `at` of the search stack and the slot after it (the first, after the last).
#[cfg(target_arch = "wasm32")]
#[inline(always)]
fn two_slots<F>(stack: &mut [F; 64], at: usize) -> (&F, &mut F) {
    if at == 63 {
        let (first, rest) = stack.split_at_mut(1);
        (&rest[62], &mut first[0])
    } else {
        let (low, high) = stack.split_at_mut(at + 1);
        (&low[at], &mut high[0])
    }
}

/// Counts the completions of a node with one row left (its open columns), by tie squares.
#[inline(always)]
fn count_last<T: Lane, const L: usize>(
    f: &Frame<T, L>,
    ties: &Ties<T, L>,
    per_ties: &mut [u64; 8],
) {
    if f.left == 0 {
        // Nothing left to fill: the node itself is a placement.
        if let Some(slot) = per_ties.get_mut(f.ties) {
            *slot += 1;
        }
        return;
    }
    let tie = ties.get(f.row).copied().unwrap_or(T::ZERO);
    let on_ties = u64::from((f.todo & tie).ones());
    let all = u64::from(f.todo.ones());
    if let Some(slot) = per_ties.get_mut(f.ties) {
        *slot += all - on_ties;
    }
    if let Some(slot) = per_ties.get_mut(f.ties + 1) {
        *slot += on_ties;
    }
}

/// The unfilled lane with the fewest open columns (the first of them); a filled lane only if
/// every lane is filled.
#[inline(always)]
fn fewest<T: Lane, const L: usize>(open: &[T; L]) -> usize {
    let mut best = u16::MAX;
    for (i, &lane) in open.iter().enumerate() {
        let filled = u16::from(lane & T::FILLED != T::ZERO);
        let count = (lane & !T::FILLED).ones() as u16 + filled * 127;
        best = best.min(count << 7 | i as u16);
    }
    usize::from(best & 127)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count_empty<T: Lane, const L: usize>(n: usize) -> u64 {
        let board = Board::<T, L>::new(n).unwrap();
        let frame = board.frame(board.empty(), T::ZERO, 0, n);
        board.count(frame, &[T::ZERO; L], &Control::new()).unwrap()[0]
    }

    #[test]
    fn counts_empty_boards_with_either_lane() {
        // OEIS A000170.
        for (n, expected) in [(1, 1), (2, 0), (3, 0), (4, 2), (6, 4), (8, 92), (10, 724)] {
            assert_eq!(count_empty::<u32, 16>(n), expected, "n = {n}");
            assert_eq!(count_empty::<u64, 64>(n), expected, "n = {n}");
        }
    }

    #[test]
    fn sizes_beyond_the_lanes_are_refused() {
        assert!(Board::<u32, 32>::new(32).is_none());
        assert!(Board::<u32, 16>::new(17).is_none());
        assert!(Board::<u64, 64>::new(64).is_none());
        assert!(Board::<u64, 64>::new(63).is_some());
    }

    #[test]
    fn tie_squares_are_counted_apart() {
        // 4x4: the two placements are 2 4 1 3 and 3 1 4 2 (rows of columns, 1-based); mark the
        // square of row 0, column 1 (0-based) as a tie: it is in the first one only.
        let board = Board::<u32, 8>::new(4).unwrap();
        let mut ties = [0u32; 8];
        ties[0] = 0b10;
        let frame = board.frame(board.empty(), 0, 0, 4);
        let per_ties = board.count(frame, &ties, &Control::new()).unwrap();
        assert_eq!(&per_ties[..2], &[1, 1]);
    }
}

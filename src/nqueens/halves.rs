//! Counting every placement of an empty board by joining half boards: the west half (the
//! columns left of the middle) and the east half, each filled on its own, then paired.
//!
//! In a placement every row has its queen in the west or in the east (or, on an odd board, in
//! the middle column, which holds exactly one queen: its row `m` is fixed first). So a
//! placement is a *west half*, `h = n / 2` non-attacking queens on the `h` west columns, one
//! per column, on a set `R` of rows, together with an *east half* on the other rows. The
//! two halves are compatible when no west queen shares a diagonal with an east queen; only the
//! `2h - 1` diagonals of each direction that cross both halves can be shared, so each half is
//! summed up by a *footprint* of at most 30 bits, and two halves are compatible exactly when
//! their footprints are disjoint.
//!
//! The west halves are enumerated once (a bitmask search over `h` columns, a few million
//! leaves for n = 16) and grouped by `R`. The east halves need no search: mirroring the board
//! left to right turns the west halves on rows `R'` into the east halves on `R'`, and swaps
//! the two diagonal directions of the footprint. The count is then, over the row sets `R`,
//! the number of disjoint pairs between the west footprints on `R` and the mirrored ones on
//! the other rows: a branch-free AND over two arrays, which the compiler vectorises (AVX2 when
//! the processor has it, detected at run time).
//!
//! Symmetry: mirroring maps the placements with west rows `R` onto those with west rows equal
//! to the other rows, and flipping the board upside down maps `R` to its reverse (and `m` to
//! `n - 1 - m`), so only one row set of each class is paired, weighted by the size of the class.
//!
//! Footprints fit 32 bits while `2h - 1 <= 16`, so this counts boards of side 4 to 17; it is
//! faster than [`forward`](super::forward) checking there from side 12 up (measured).
//!
//! ```
//! use chess_puzzles::nqueens::{halves, Control};
//!
//! assert_eq!(halves::count(8, &Control::new()), Some(92));
//! assert_eq!(halves::count(13, &Control::new()), Some(73712));
//! ```

use rayon::prelude::*;

use super::Control;

/// The smallest side counted this way.
pub const MIN_N: usize = 4;

/// The smallest side whose west halves are enumerated in parts: the parallel parts, each with
/// a table of all row sets, pay from there (measured on one thread: in parts N = 15 takes 1.14
/// times as long, N = 16 and 17 0.82 and 0.85 times).
const PARTS_FROM: usize = 16;

/// The largest side counted this way (footprints of two 16-bit halves).
pub const MAX_N: usize = 17;

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board, for
/// [`MIN_N`]` <= n <= `[`MAX_N`]; `None` otherwise or when `control` said stop. Counts on the
/// current rayon pool.
pub fn count(n: usize, control: &Control) -> Option<u128> {
    if !(MIN_N..=MAX_N).contains(&n) {
        return None;
    }
    let h = n / 2;
    // Progress in steps: a part enumerated, a row set paired.
    let row_sets = binomial(2 * h, h);
    if n.is_multiple_of(2) {
        let parts = if n < PARTS_FROM { 1 } else { n as u64 };
        control.add_total(parts + row_sets);
        let halves = Halves::enumerate(n, None, control);
        return halves.join(Symmetry::Full, control);
    }
    // The middle column's queen on row m; rows m and n - 1 - m give as many placements.
    control.add_total((h as u64 + 1) * (1 + row_sets));
    let counts: Option<Vec<u128>> = (0..=h)
        .into_par_iter()
        .map(|m| {
            if control.should_stop() {
                return None;
            }
            let halves = Halves::enumerate(n, Some(m), control);
            let (symmetry, weight) = if m == h {
                (Symmetry::Full, 1)
            } else {
                (Symmetry::Mirror, 2)
            };
            Some(halves.join(symmetry, control)? * weight)
        })
        .collect();
    Some(counts?.iter().sum())
}

/// The number of ways to choose `k` of `n` things (small `n`).
fn binomial(n: usize, k: usize) -> u64 {
    (0..k as u64).fold(1, |acc, i| acc * (n as u64 - i) / (i + 1))
}

/// Which symmetries of the row sets may be used.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Symmetry {
    /// Mirroring (a row set and the other rows) and flipping (a row set and its reverse).
    Full,
    /// Mirroring only (the middle queen is off the middle row).
    Mirror,
}

/// The west halves of a board, their footprints grouped by row set, in parts (from side
/// [`PARTS_FROM`] on, one per row of the first column's queen, enumerated in parallel).
struct Halves {
    /// The number of rows that take part (`2h`: the middle queen's row left out).
    rows: usize,
    parts: Vec<Part>,
}

/// Some of the west halves of a board, grouped by row set.
struct Part {
    /// Per row set (bit `i` for the `i`-th row taking part), where its footprints start in
    /// `footprints`; one more entry for the end.
    offsets: Vec<u32>,
    /// Every west half's footprint: bits 0..15 the shared down diagonals (row + column), bits
    /// 16..31 the shared up diagonals (row - column).
    footprints: Vec<u32>,
}

impl Halves {
    /// Every west half of an `n`x`n` board (`n <= MAX_N`), with the middle queen on row
    /// `middle` when `n` is odd.
    fn enumerate(n: usize, middle: Option<usize>, control: &Control) -> Halves {
        let h = n / 2;
        // The diagonals a west queen may share with an east one: row + column from n - h on,
        // row - column from -(h - 1) on; 2h - 1 of each.
        let shared = 2 * h - 1;
        let down = |r: usize, c: usize| (r + c).checked_sub(n - h).filter(|&i| i < shared);
        let up = |r: usize, c: usize| (r + h - 1).checked_sub(c).filter(|&i| i < shared);
        // Per column, per row: the footprint bits of a queen there, or None if the middle queen
        // attacks the square (or takes its row).
        let mut squares = vec![[None::<u32>; MAX_N]; h];
        for (c, column) in squares.iter_mut().enumerate() {
            for (r, square) in column.iter_mut().enumerate().take(n) {
                let attacked = middle.is_some_and(|m| r == m || r + h == m + c || r + c == m + h);
                if !attacked {
                    let bits =
                        down(r, c).map_or(0, |i| 1 << i) | up(r, c).map_or(0, |i| 1 << (16 + i));
                    *square = Some(bits);
                }
            }
        }
        if n < PARTS_FROM {
            // Small enough for one part: the parts' own tables would cost more than they save.
            let part = Part::enumerate(n, middle, &squares);
            control.add_done(1);
            return Halves {
                rows: 2 * h,
                parts: vec![part],
            };
        }
        let parts = (0..n)
            .into_par_iter()
            .map(|first| {
                let mut squares = squares.clone();
                for (r, square) in squares[0].iter_mut().enumerate() {
                    if r != first {
                        *square = None;
                    }
                }
                let part = Part::enumerate(n, middle, &squares);
                control.add_done(1);
                part
            })
            .collect();
        Halves { rows: 2 * h, parts }
    }

    /// The footprints of the west halves on `rows`, part by part.
    fn on(&self, rows: u32) -> impl Iterator<Item = &[u32]> {
        self.parts.iter().map(move |p| p.on(rows))
    }

    /// The number of compatible pairs of a west half and an east half, over every row set.
    fn join(&self, symmetry: Symmetry, control: &Control) -> Option<u128> {
        let all = (1u32 << self.rows) - 1;
        let reverse = |r: u32| r.reverse_bits() >> (32 - self.rows);
        let h = self.rows as u32 / 2;
        let groups: Vec<u32> = (0..=all).filter(|r| r.count_ones() == h).collect();
        groups
            .par_iter()
            .map_init(Vec::new, |east, &rows| {
                let class = match symmetry {
                    Symmetry::Full => [rows, all ^ rows, reverse(rows), all ^ reverse(rows)],
                    Symmetry::Mirror => [rows, all ^ rows, rows, all ^ rows],
                };
                control.add_done(1);
                let smallest = class.iter().copied().min().unwrap_or(rows);
                if rows != smallest || control.should_stop() {
                    return Some(0);
                }
                let mut distinct = class;
                distinct.sort_unstable();
                let weight = 1 + distinct.windows(2).filter(|w| w[0] != w[1]).count() as u128;
                east.clear();
                for part in self.on(all ^ rows) {
                    east.extend(part.iter().map(|f| f.rotate_left(16)));
                }
                let pairs: u64 = self.on(rows).map(|west| disjoint_pairs(west, east)).sum();
                Some(weight * u128::from(pairs))
            })
            .try_fold(|| 0u128, |sum, c| c.map(|c| sum + c))
            .try_reduce(|| 0, |a, b| Some(a + b))
            .filter(|_| !control.should_stop())
    }
}

impl Part {
    /// The west halves whose squares are in `squares` (per column, per row: the footprint bits
    /// of a queen there, or None).
    fn enumerate(n: usize, middle: Option<usize>, squares: &[[Option<u32>; MAX_N]]) -> Part {
        let h = n / 2;
        // Row sets are written without the middle queen's row.
        let squeeze = |used: u32| match middle {
            Some(m) => used & ((1 << m) - 1) | (used >> (m + 1)) << m,
            None => used,
        };
        let rows = 2 * h;
        // One search, then the footprints grouped by row set by a counting sort.
        let mut found: Vec<(u32, u32)> = Vec::new();
        let mut allowed = [0u32; MAX_N];
        for (mask, column) in allowed.iter_mut().zip(squares) {
            for (r, square) in column.iter().enumerate() {
                if square.is_some() {
                    *mask |= 1 << r;
                }
            }
        }
        Search {
            n,
            h,
            squares,
            allowed,
            visit: &mut |used: u32, footprint: u32| found.push((squeeze(used), footprint)),
        }
        .column(0, 0, 0, 0, 0);
        let mut offsets = vec![0u32; (1 << rows) + 1];
        for &(set, _) in &found {
            offsets[set as usize + 1] += 1;
        }
        for i in 1..offsets.len() {
            offsets[i] += offsets[i - 1];
        }
        let mut footprints = vec![0u32; found.len()];
        let mut next = offsets.clone();
        for &(set, footprint) in &found {
            let slot = &mut next[set as usize];
            footprints[*slot as usize] = footprint;
            *slot += 1;
        }
        Part {
            offsets,
            footprints,
        }
    }

    /// The footprints of the west halves on `rows`.
    fn on(&self, rows: u32) -> &[u32] {
        let r = rows as usize;
        &self.footprints[self.offsets[r] as usize..self.offsets[r + 1] as usize]
    }
}

/// The bitmask search of the west halves.
struct Search<'a, F: FnMut(u32, u32)> {
    n: usize,
    h: usize,
    squares: &'a [[Option<u32>; MAX_N]],
    /// Per column, the rows a queen may take at all (the squares that are `Some`).
    allowed: [u32; MAX_N],
    visit: &'a mut F,
}

impl<F: FnMut(u32, u32)> Search<'_, F> {
    /// Fills column `c` on: `used` rows taken, `down`/`up` the diagonals (as rows of column
    /// `c`) that the queens so far attack.
    fn column(&mut self, c: usize, used: u32, down: u32, up: u32, footprint: u32) {
        let all = (1u32 << self.n) - 1;
        let Some(column) = self.squares.get(c) else {
            (self.visit)(used, footprint);
            return;
        };
        let mut free = self.allowed[c] & all & !(used | down | up);
        let last = c + 1 == self.h;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            let bits = column[bit.trailing_zeros() as usize].unwrap_or(0);
            if last {
                (self.visit)(used | bit, footprint | bits);
                continue;
            }
            // A queen on (r, c) attacks row r - 1 and r + 1 of the next column.
            self.column(
                c + 1,
                used | bit,
                (down | bit) >> 1,
                (up | bit) << 1 & all,
                footprint | bits,
            );
        }
    }
}

/// The number of pairs (a, b) of `west` x `east` with no bit in common.
fn disjoint_pairs(west: &[u32], east: &[u32]) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, checked just above.
        return unsafe { disjoint_pairs_avx2(west, east) };
    }
    disjoint_pairs_plain(west, east)
}

/// [`disjoint_pairs`] compiled for AVX2 (eight pairs per instruction).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn disjoint_pairs_avx2(west: &[u32], east: &[u32]) -> u64 {
    disjoint_pairs_plain(west, east)
}

/// [`disjoint_pairs`] for any processor.
#[inline(always)]
fn disjoint_pairs_plain(west: &[u32], east: &[u32]) -> u64 {
    west.iter()
        .map(|&a| u64::from(east.iter().map(|&b| u32::from(a & b == 0)).sum::<u32>()))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placements;

    #[test]
    fn counts_match_the_backtracker() {
        for n in MIN_N..=11 {
            let expected = placements::all(n).len() as u128;
            assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
        }
    }

    #[test]
    fn counts_match_oeis_beyond() {
        // OEIS A000170.
        for (n, expected) in [(12, 14_200), (13, 73_712), (14, 365_596)] {
            assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
        }
    }

    #[test]
    fn progress_ends_complete() {
        for n in [12, 13, 16] {
            let control = Control::new();
            assert!(count(n, &control).is_some());
            let (done, total) = control.progress();
            assert!(total > 0);
            assert_eq!(done, total, "n = {n}");
        }
    }

    #[test]
    fn out_of_range_sides_are_refused() {
        assert_eq!(count(3, &Control::new()), None);
        assert_eq!(count(18, &Control::new()), None);
    }

    #[test]
    fn both_kernels_agree() {
        let west = [0b0101u32, 0b1000, 0, 0b1111];
        let east = [0b1010u32, 0b0001, 0b0110];
        // 0b0101: 0b1010 only; 0b1000: the last two; 0: all three; 0b1111: none.
        assert_eq!(disjoint_pairs_plain(&west, &east), 6);
        assert_eq!(disjoint_pairs(&west, &east), 6);
    }
}

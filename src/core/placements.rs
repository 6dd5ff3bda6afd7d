//! Placements of `n` mutually non-attacking queens on an `n`x`n` board, some of them given.
//!
//! A placement is written as the judges write it: for each column from the left, the row of its
//! queen. Placements are produced in lexicographic order of that sequence by an iterative
//! bitmask backtracker (one machine word per set of rows), so any `n <= 64` works.
//!
//! ```
//! use chess_puzzles::core::placements::{self, Constraints};
//! use chess_puzzles::core::Square;
//!
//! assert_eq!(placements::all(8).len(), 92);
//! // The placements of the sample of 8 Queens (UVa 750): a queen on row 1, column 1.
//! let given = Constraints::new(8, &[Square::new(0, 0)]).unwrap();
//! let mut first = Vec::new();
//! given.for_each(|rows| { first = rows.to_vec(); std::ops::ControlFlow::Break(()) });
//! assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]);
//! ```

use std::ops::ControlFlow;

use super::square::Square;

/// The largest board side the backtracker handles.
pub const MAX_N: usize = 64;

/// How many search nodes pass between two [`Event::Tick`]s of [`Constraints::search`].
pub const TICK_NODES: u64 = 1 << 16;

/// What [`Constraints::search`] reports.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Event<'a> {
    /// A placement: the row (0-based) of the queen of each column.
    Placement(&'a [u8]),
    /// Another [`TICK_NODES`] nodes were searched.
    Tick,
}

/// Why a set of given queens cannot be part of any placement, before any search.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ConstraintError {
    /// The board side is 0 or larger than [`MAX_N`].
    #[error("a board side 1..{MAX_N}, found {0}")]
    BadSide(usize),
    /// A given queen lies outside the board.
    #[error("queen {0} lies outside the {1}x{1} board")]
    Outside(Square, usize),
    /// The same square is given twice.
    #[error("queen {0} is given twice")]
    Repeated(Square),
    /// Two given queens attack each other.
    #[error("queens {0} and {1} attack each other")]
    Attacking(Square, Square),
}

/// A board side and the queens that every placement must contain, checked for consistency.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Constraints {
    n: usize,
    /// Per column: the only row allowed (a given queen), as a one-bit mask, or all rows.
    allowed: Vec<u64>,
}

impl Constraints {
    /// Checks the given queens and prepares the per-column masks.
    pub fn new(n: usize, given: &[Square]) -> Result<Constraints, ConstraintError> {
        if n == 0 || n > MAX_N {
            return Err(ConstraintError::BadSide(n));
        }
        let all = full_mask(n);
        let mut allowed = vec![all; n];
        for (i, &q) in given.iter().enumerate() {
            if usize::from(q.row) >= n || usize::from(q.col) >= n {
                return Err(ConstraintError::Outside(q, n));
            }
            for &p in &given[..i] {
                if p == q {
                    return Err(ConstraintError::Repeated(q));
                }
                if p.queen_aligned(q) {
                    return Err(ConstraintError::Attacking(p, q));
                }
            }
        }
        for &q in given {
            // Every square a given queen attacks is forbidden, in every column.
            for (c, mask) in allowed.iter_mut().enumerate() {
                if c == usize::from(q.col) {
                    *mask &= 1 << q.row;
                    continue;
                }
                let dc = c.abs_diff(usize::from(q.col));
                let mut attacked = 1u64 << q.row;
                if let Some(r) = usize::from(q.row).checked_add(dc).filter(|&r| r < n) {
                    attacked |= 1 << r;
                }
                if let Some(r) = usize::from(q.row).checked_sub(dc) {
                    attacked |= 1 << r;
                }
                *mask &= !attacked;
            }
        }
        Ok(Constraints { n, allowed })
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Per column, the rows (bit `r` for row `r`) a queen may take: the one row of a given queen,
    /// or every row that no given queen attacks.
    pub fn allowed(&self) -> &[u64] {
        &self.allowed
    }

    /// Calls `visit` with every placement (rows of columns 0..n, 0-based) in lexicographic order,
    /// until it returns `Break`. Returns `Break` when it was stopped.
    pub fn for_each(&self, mut visit: impl FnMut(&[u8]) -> ControlFlow<()>) -> ControlFlow<()> {
        self.search(|event| match event {
            Event::Placement(rows) => visit(rows),
            Event::Tick => ControlFlow::Continue(()),
        })
    }

    /// Like [`Constraints::for_each`], but also reports [`Event::Tick`] every
    /// [`TICK_NODES`] search nodes, so that a caller can look at the clock (flush an output,
    /// honour a deadline) while placements are rare. Stops when `on` returns `Break`.
    pub fn search(&self, mut on: impl FnMut(Event<'_>) -> ControlFlow<()>) -> ControlFlow<()> {
        let n = self.n;
        let all = full_mask(n);
        // Per depth: the rows still to try, and the attacked rows (row, down and up diagonals)
        // of the column at that depth.
        let mut todo = [0u64; MAX_N];
        let mut rows_used = [0u64; MAX_N + 1];
        let mut down = [0u64; MAX_N + 1];
        let mut up = [0u64; MAX_N + 1];
        let mut placement = [0u8; MAX_N];
        let mut depth = 0usize;
        let mut until_tick = TICK_NODES;
        todo[0] = self.allowed[0];
        loop {
            let candidates = todo[depth];
            if candidates == 0 {
                if depth == 0 {
                    return ControlFlow::Continue(());
                }
                depth -= 1;
                continue;
            }
            until_tick -= 1;
            if until_tick == 0 {
                until_tick = TICK_NODES;
                on(Event::Tick)?;
            }
            let bit = candidates & candidates.wrapping_neg();
            todo[depth] = candidates ^ bit;
            placement[depth] = bit.trailing_zeros() as u8;
            if depth + 1 == n {
                on(Event::Placement(&placement[..n]))?;
                continue;
            }
            rows_used[depth + 1] = rows_used[depth] | bit;
            down[depth + 1] = ((down[depth] | bit) << 1) & all;
            up[depth + 1] = (up[depth] | bit) >> 1;
            depth += 1;
            todo[depth] = self.allowed[depth] & !(rows_used[depth] | down[depth] | up[depth]);
        }
    }

    /// Every placement, in lexicographic order.
    pub fn collect(&self) -> Vec<Vec<u8>> {
        let mut found = Vec::new();
        let _ = self.for_each(|rows| {
            found.push(rows.to_vec());
            ControlFlow::Continue(())
        });
        found
    }
}

/// Every placement of `n` queens on an empty board (`1 <= n <= 64`; keep `n` small: the count
/// grows fast), in lexicographic order. An out-of-range `n` has no placements.
pub fn all(n: usize) -> Vec<Vec<u8>> {
    Constraints::new(n, &[])
        .map(|c| c.collect())
        .unwrap_or_default()
}

/// Every placement on the empty `N`x`N` board as fixed-size arrays, in lexicographic order.
///
/// ```
/// let placements = chess_puzzles::core::placements::all_arrays::<8>();
/// assert_eq!(placements.len(), 92);
/// assert_eq!(placements[0], [0, 4, 7, 5, 2, 6, 1, 3]);
/// ```
pub fn all_arrays<const N: usize>() -> Vec<[u8; N]> {
    all(N)
        .into_iter()
        .filter_map(|rows| <[u8; N]>::try_from(rows.as_slice()).ok())
        .collect()
}

/// The mask of rows `0..n`.
fn full_mask(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// True when `rows` (the row of each column's queen) places mutually non-attacking queens.
/// Written plainly, square pair by square pair, to serve as an independent check.
pub fn is_non_attacking(rows: &[u8]) -> bool {
    let queens: Vec<Square> = rows
        .iter()
        .enumerate()
        .map(|(c, &r)| Square::new(r, c as u8))
        .collect();
    rows.iter().all(|&r| usize::from(r) < rows.len())
        && queens
            .iter()
            .enumerate()
            .all(|(i, a)| queens[i + 1..].iter().all(|b| !a.queen_aligned(*b)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// OEIS A000170.
    const COUNTS: [usize; 11] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680];

    #[test]
    fn counts_match_oeis() {
        for (i, &count) in COUNTS.iter().enumerate() {
            assert_eq!(all(i + 1).len(), count, "n = {}", i + 1);
        }
    }

    #[test]
    fn placements_are_sorted_valid_and_distinct() {
        let p = all(8);
        assert!(p.windows(2).all(|w| w[0] < w[1]));
        assert!(p.iter().all(|rows| is_non_attacking(rows)));
    }

    #[test]
    fn given_queens_filter_exactly() {
        let every = all(7);
        for r in 0..7u8 {
            for c in 0..7u8 {
                for (r2, c2) in [(0u8, 6u8), (3, 0), (6, 3)] {
                    if (r, c) == (r2, c2) {
                        continue;
                    }
                    let given = [Square::new(r, c), Square::new(r2, c2)];
                    let expected: Vec<_> = every
                        .iter()
                        .filter(|rows| given.iter().all(|q| rows[q.col as usize] == q.row))
                        .cloned()
                        .collect();
                    match Constraints::new(7, &given) {
                        Ok(cons) => assert_eq!(cons.collect(), expected),
                        Err(_) => assert!(expected.is_empty()),
                    }
                }
            }
        }
    }

    #[test]
    fn inconsistent_givens_are_rejected() {
        let a = Square::new(0, 0);
        assert_eq!(
            Constraints::new(8, &[a, Square::new(2, 2)]),
            Err(ConstraintError::Attacking(a, Square::new(2, 2)))
        );
        assert_eq!(
            Constraints::new(8, &[a, a]),
            Err(ConstraintError::Repeated(a))
        );
        assert_eq!(
            Constraints::new(4, &[Square::new(4, 0)]),
            Err(ConstraintError::Outside(Square::new(4, 0), 4))
        );
        assert_eq!(Constraints::new(0, &[]), Err(ConstraintError::BadSide(0)));
        assert_eq!(Constraints::new(65, &[]), Err(ConstraintError::BadSide(65)));
    }

    #[test]
    fn large_boards_find_a_first_placement() {
        let cons = Constraints::new(28, &[]).unwrap();
        let mut first = None;
        let _ = cons.for_each(|rows| {
            first = Some(rows.to_vec());
            ControlFlow::Break(())
        });
        let rows = first.unwrap();
        assert_eq!(rows.len(), 28);
        assert!(is_non_attacking(&rows));
    }

    #[test]
    fn search_ticks_between_placements() {
        let cons = Constraints::new(10, &[]).unwrap();
        let (mut placements, mut ticks) = (0, 0);
        let _ = cons.search(|event| {
            match event {
                Event::Placement(_) => placements += 1,
                Event::Tick => ticks += 1,
            }
            ControlFlow::Continue(())
        });
        assert_eq!(placements, 724);
        // The 10-queens search places a queen fewer than TICK_NODES times: no tick yet.
        assert_eq!(ticks, 0);
        let cons = Constraints::new(13, &[]).unwrap();
        let mut ticks = 0;
        let _ = cons.search(|event| {
            if event == Event::Tick {
                ticks += 1;
            }
            ControlFlow::Continue(())
        });
        assert!(ticks > 0);
    }

    #[test]
    fn the_independent_check_rejects_attacks() {
        assert!(is_non_attacking(&[1, 3, 0, 2]));
        assert!(!is_non_attacking(&[0, 1, 2, 3]));
        assert!(!is_non_attacking(&[0, 0, 2, 3]));
        assert!(!is_non_attacking(&[1, 3, 0, 4]));
    }
}

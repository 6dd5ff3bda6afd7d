//! The backtracking search for queen placements, step by step, for people to watch: the
//! search that [`placements`](super::placements) runs with bit masks, told one square at a
//! time.
//!
//! The search fills the columns that hold no given queen from left to right, and in each
//! column tries the rows from the top. Every square it looks at is one [`Step`]:
//!
//! - [`Step::Place`]: no queen attacks the square, a queen is put on it and the search goes on
//!   to the next column;
//! - [`Step::Attacked`]: a queen already on the board attacks the square (a conflict), and
//!   the search tries the next row;
//! - [`Step::Remove`]: every row of a column failed (or a placement was found), so the queen
//!   of the column before is taken off again (a backtrack), and that column tries its next
//!   row;
//! - [`Step::Solution`]: every column holds a queen: a placement, reported before its last
//!   queen is removed.
//!
//! The placements come in lexicographic order, the order of
//! [`Constraints::for_each`](super::placements::Constraints::for_each) and of `nqueens list`.
//! A trace is bounded: [`trace()`] stops after `max_steps` steps.
//!
//! For programs and the web board, [`Line`] is a step as one line of JSON (JSON Lines), rows
//! and columns from 1 as everywhere in the judges' formats:
//!
//! ```text
//! {"event":"start","n":4,"given":[]}
//! {"step":1,"event":"place","square":[1,1]}
//! {"step":2,"event":"attacked","square":[1,2],"by":[[1,1]]}
//! {"step":3,"event":"attacked","square":[2,2],"by":[[1,1]]}
//! {"step":4,"event":"place","square":[3,2]}
//! ...
//! {"step":31,"event":"solution","index":1,"rows":[2,4,1,3]}
//! {"event":"end","steps":31,"solutions":1,"complete":false,"stopped_by":"solutions"}
//! ```
//!
//! ```
//! use chess_puzzles::core::trace::{self, Step};
//! use std::ops::ControlFlow;
//!
//! // 4 queens: the first placement is reached at step 31.
//! let mut first = None;
//! let traced = trace::trace(4, &[], 1_000, |number, step| {
//!     if let Step::Solution(rows) = step {
//!         first = Some((number, rows.to_vec()));
//!         return ControlFlow::Break(());
//!     }
//!     ControlFlow::Continue(())
//! })
//! .unwrap();
//! assert_eq!(first, Some((31, vec![1, 3, 0, 2])));
//! assert!(!traced.complete);
//! ```

use std::io::{self, Write};
use std::ops::ControlFlow;

use serde::Serialize;

use super::placements::{ConstraintError, Constraints, MAX_N};
use super::square::Square;

/// One step of the search. Squares are 0-based; a placement is the row of each column's queen.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Step<'a> {
    /// A queen is put on a square that no queen attacks.
    Place(Square),
    /// The square tried is attacked by these queens (one to three of them: at most one per
    /// row and per diagonal), so no queen goes there: a conflict.
    Attacked {
        /// The square tried.
        square: Square,
        /// The queens that attack it, left to right.
        by: &'a [Square],
    },
    /// The queen on this square is taken off again: a backtrack.
    Remove(Square),
    /// Every column holds a queen: the row of each column's queen, given queens included.
    Solution(&'a [u8]),
}

/// How a [`trace()`] ended.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Traced {
    /// The steps reported.
    pub steps: u64,
    /// The placements reported.
    pub solutions: u64,
    /// True when the search ran to its end (every placement reported); false when it was
    /// stopped by the step limit or by the caller.
    pub complete: bool,
    /// True when the step limit stopped it.
    pub step_limit: bool,
}

/// Runs the search on an `n`x`n` board with the `given` queens (checked as
/// [`Constraints::new`] checks them), calling `on(number, step)` for each step, numbered from
/// 1, until the search ends, `max_steps` steps were reported, or `on` returns `Break`.
///
/// Memory is fixed (a few arrays of at most [`MAX_N`] entries), whatever the limit.
pub fn trace(
    n: usize,
    given: &[Square],
    max_steps: u64,
    mut on: impl FnMut(u64, Step<'_>) -> ControlFlow<()>,
) -> Result<Traced, ConstraintError> {
    // The same checks as the fast search: on the board, distinct, not attacking.
    Constraints::new(n, given)?;
    let mut board = Occupied::new(n);
    let mut rows = [0u8; MAX_N];
    let mut fixed = [false; MAX_N];
    for &q in given {
        board.put(q);
        rows[usize::from(q.col)] = q.row;
        fixed[usize::from(q.col)] = true;
    }
    let free: Vec<u8> = (0..n as u8).filter(|&c| !fixed[usize::from(c)]).collect();
    // Per free column (by depth): the next row to try.
    let mut next = [0u8; MAX_N];
    let mut depth = 0usize;
    let mut traced = Traced::default();
    let mut attackers = [Square::new(0, 0); 3];
    // Reports one step; `Break` when the limit or the caller stops the search. The limit is
    // looked at before a step, so that a search whose last step is the limit's is complete.
    let mut report = |traced: &mut Traced, step: Step<'_>| -> ControlFlow<()> {
        if traced.steps >= max_steps {
            traced.step_limit = true;
            return ControlFlow::Break(());
        }
        traced.steps += 1;
        if matches!(step, Step::Solution(_)) {
            traced.solutions += 1;
        }
        on(traced.steps, step)
    };
    loop {
        if depth == free.len() {
            if report(&mut traced, Step::Solution(&rows[..n])).is_break() {
                return Ok(traced);
            }
            if depth == 0 {
                traced.complete = true;
                return Ok(traced);
            }
            depth -= 1;
            let col = free[depth];
            let square = Square::new(rows[usize::from(col)], col);
            board.take(square);
            if report(&mut traced, Step::Remove(square)).is_break() {
                return Ok(traced);
            }
            continue;
        }
        let col = free[depth];
        let row = next[depth];
        if usize::from(row) == n {
            if depth == 0 {
                traced.complete = true;
                return Ok(traced);
            }
            depth -= 1;
            let col = free[depth];
            let square = Square::new(rows[usize::from(col)], col);
            board.take(square);
            if report(&mut traced, Step::Remove(square)).is_break() {
                return Ok(traced);
            }
            continue;
        }
        next[depth] = row + 1;
        let square = Square::new(row, col);
        let count = board.attackers(square, &mut attackers);
        if count > 0 {
            let by = &attackers[..count];
            if report(&mut traced, Step::Attacked { square, by }).is_break() {
                return Ok(traced);
            }
            continue;
        }
        board.put(square);
        rows[usize::from(col)] = row;
        if report(&mut traced, Step::Place(square)).is_break() {
            return Ok(traced);
        }
        depth += 1;
        if depth < free.len() {
            next[depth] = 0;
        }
    }
}

/// The queens on the board, by row and diagonal, to name the ones attacking a square.
struct Occupied {
    n: usize,
    /// Per row, its queen.
    by_row: [Option<Square>; MAX_N],
    /// Per diagonal `row + col`, its queen.
    by_sum: [Option<Square>; 2 * MAX_N],
    /// Per diagonal `row - col + n - 1`, its queen.
    by_difference: [Option<Square>; 2 * MAX_N],
}

impl Occupied {
    fn new(n: usize) -> Occupied {
        Occupied {
            n,
            by_row: [None; MAX_N],
            by_sum: [None; 2 * MAX_N],
            by_difference: [None; 2 * MAX_N],
        }
    }

    fn slots(&self, s: Square) -> (usize, usize, usize) {
        let (r, c) = (usize::from(s.row), usize::from(s.col));
        (r, r + c, r + self.n - 1 - c)
    }

    fn put(&mut self, s: Square) {
        let (r, d, e) = self.slots(s);
        self.by_row[r] = Some(s);
        self.by_sum[d] = Some(s);
        self.by_difference[e] = Some(s);
    }

    fn take(&mut self, s: Square) {
        let (r, d, e) = self.slots(s);
        self.by_row[r] = None;
        self.by_sum[d] = None;
        self.by_difference[e] = None;
    }

    /// Writes the queens attacking `s` into `out`, left to right (then top to bottom), and
    /// returns how many there are. Queens never share a column with `s` (the search fills a
    /// column at a time), so a row and two diagonals are all there is to look at.
    fn attackers(&self, s: Square, out: &mut [Square; 3]) -> usize {
        let (r, d, e) = self.slots(s);
        let mut count = 0;
        for q in [self.by_row[r], self.by_sum[d], self.by_difference[e]]
            .into_iter()
            .flatten()
        {
            out[count] = q;
            count += 1;
        }
        // Three at most: sorted by hand (a library sort is a call, and most of the time of
        // an `attacked` step in the browser's module).
        let key = |q: Square| (q.col, q.row);
        if count >= 2 && key(out[1]) < key(out[0]) {
            out.swap(0, 1);
        }
        if count == 3 && key(out[2]) < key(out[1]) {
            out.swap(1, 2);
            if key(out[1]) < key(out[0]) {
                out.swap(0, 1);
            }
        }
        count
    }
}

/// A square as the judges number it: `[row, column]`, from 1.
fn one_based(s: Square) -> [u32; 2] {
    [u32::from(s.row) + 1, u32::from(s.col) + 1]
}

/// What stopped a trace before the end of its search.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StoppedBy {
    /// The limit on steps.
    Steps,
    /// The limit on placements.
    Solutions,
    /// The time limit.
    Time,
}

/// One line of a trace in JSON (see the [module docs](self)): a step, or the `start` and
/// `end` lines around a search. Fields that do not apply are left out.
#[derive(Debug, Default, Serialize)]
pub struct Line<'a> {
    /// The test case, for the traces of a judge input (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<u64>,
    /// The step's number, from 1 (none on `start` and `end`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// `start`, `place`, `attacked`, `remove`, `solution` or `end`.
    pub event: &'static str,
    /// `start`: the board side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
    /// `start`: the given queens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub given: Option<Vec<[u32; 2]>>,
    /// The square placed on, tried or cleared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<[u32; 2]>,
    /// `attacked`: the queens that attack the square.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by: Option<&'a [[u32; 2]]>,
    /// `solution`: the placement's number, from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<u64>,
    /// `solution`: the row of each column's queen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows: Option<&'a [u32]>,
    /// Weighted boards: the sum of the weights under the queens on the board after the step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sum: Option<u64>,
    /// `end`: the steps of the trace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// `end`: the placements found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<u64>,
    /// `end`: whether the search ran to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub complete: Option<bool>,
    /// `end`: what stopped it otherwise (`null` when complete).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped_by: Option<Option<StoppedBy>>,
    /// Weighted boards: the best sum of a placement so far (`solution`, `end`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best: Option<u64>,
}

impl Line<'_> {
    /// Writes the line and its line end.
    pub fn write(&self, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
        crate::output::json_line(out, self)
    }

    /// The `start` line of a search on an `n`x`n` board with the `given` queens.
    pub fn start(case: Option<u64>, n: usize, given: &[Square]) -> Line<'static> {
        Line {
            case,
            event: "start",
            n: Some(n),
            given: Some(given.iter().map(|&q| one_based(q)).collect()),
            ..Line::default()
        }
    }

    /// The `end` line of a search.
    pub fn end(case: Option<u64>, traced: &Traced, stopped_by: Option<StoppedBy>) -> Line<'static> {
        Line {
            case,
            event: "end",
            steps: Some(traced.steps),
            solutions: Some(traced.solutions),
            complete: Some(traced.complete),
            stopped_by: Some(if traced.complete { None } else { stopped_by }),
            ..Line::default()
        }
    }
}

/// Writes step `number` as a line of JSON, with the case it belongs to, the sum of the
/// weights after it (`sum`) and the best sum so far (`best`, written on solutions) on a
/// weighted board. `index` is the placement's number on a solution.
///
/// The bytes are those of [`Line`] through serde_json (the tests compare the two on random
/// steps), made by hand in a buffer on the stack and written once: a trace is millions of
/// these lines, and in the browser's WebAssembly serde_json's token-by-token writes and
/// copies cost three times the search (web/EXPERIMENTS.md).
pub fn write_step(
    out: &mut (impl Write + ?Sized),
    case: Option<u64>,
    number: u64,
    step: &Step<'_>,
    index: u64,
    sum: Option<u64>,
    best: Option<u64>,
) -> io::Result<()> {
    let mut line = LineBytes::new();
    line.push(b"{");
    if let Some(case) = case {
        line.push(b"\"case\":");
        line.number(case);
        line.push(b",");
    }
    line.push(b"\"step\":");
    line.number(number);
    match *step {
        Step::Place(s) => {
            line.push(b",\"event\":\"place\",\"square\":");
            line.square(s);
        }
        Step::Attacked { square, by } => {
            line.push(b",\"event\":\"attacked\",\"square\":");
            line.square(square);
            line.push(b",\"by\":[");
            for (k, &q) in by.iter().take(3).enumerate() {
                if k > 0 {
                    line.push(b",");
                }
                line.square(q);
            }
            line.push(b"]}\n");
            return out.write_all(line.bytes());
        }
        Step::Remove(s) => {
            line.push(b",\"event\":\"remove\",\"square\":");
            line.square(s);
        }
        Step::Solution(placement) => {
            line.push(b",\"event\":\"solution\",\"index\":");
            line.number(index);
            line.push(b",\"rows\":[");
            for (k, &r) in placement.iter().take(MAX_N).enumerate() {
                if k > 0 {
                    line.push(b",");
                }
                line.number(u64::from(r) + 1);
            }
            line.push(b"]");
        }
    }
    if let Some(sum) = sum {
        line.push(b",\"sum\":");
        line.number(sum);
    }
    if let (Step::Solution(_), Some(best)) = (step, best) {
        line.push(b",\"best\":");
        line.number(best);
    }
    line.push(b"}\n");
    out.write_all(line.bytes())
}

/// The longest step line: a solution of [`MAX_N`] rows (at most three bytes each with its
/// comma) with a case, step, index, sum and best of twenty digits each, and its keys.
const LINE_BYTES: usize = 128 + 5 * 20 + 3 * MAX_N;

/// "00", "01", ..., "99": the two digits of each number below 100.
const DIGIT_PAIRS: [u8; 200] = {
    let mut pairs = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        pairs[2 * i] = b'0' + (i / 10) as u8;
        pairs[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    pairs
};

/// A line of JSON under construction, on the stack.
struct LineBytes {
    bytes: [u8; LINE_BYTES],
    len: usize,
}

impl LineBytes {
    fn new() -> LineBytes {
        LineBytes {
            bytes: [0; LINE_BYTES],
            len: 0,
        }
    }

    /// Appends `text`, a constant: an array assigned is a few stores, where a slice copied
    /// (`copy_from_slice`) is a call in the size-optimised WebAssembly module.
    #[inline(always)]
    fn push<const N: usize>(&mut self, text: &[u8; N]) {
        let at = self.len;
        let to: &mut [u8; N] = (&mut self.bytes[at..at + N]).try_into().expect("N bytes");
        *to = *text;
        self.len = at + N;
    }

    /// Appends `value` in decimal.
    fn number(&mut self, value: u64) {
        match u32::try_from(value) {
            Ok(value) => self.number32(value),
            Err(_) => {
                let mut digits = [0u8; 20];
                let mut at = digits.len();
                let mut value = value;
                while value > 0 {
                    at -= 1;
                    digits[at] = b'0' + (value % 10) as u8;
                    value /= 10;
                }
                for &d in &digits[at..] {
                    self.bytes[self.len] = d;
                    self.len += 1;
                }
            }
        }
    }

    /// Appends `value` in decimal, written in place from its last digit, two digits at a time
    /// (in 32 bits: WebAssembly has no 64-bit multiply-high, so a 64-bit division by a
    /// constant is a real division there).
    fn number32(&mut self, mut value: u32) {
        let mut end = self.len + value.checked_ilog10().unwrap_or(0) as usize + 1;
        self.len = end;
        while value >= 100 {
            let pair = (value % 100) as usize * 2;
            value /= 100;
            end -= 2;
            self.bytes[end] = DIGIT_PAIRS[pair];
            self.bytes[end + 1] = DIGIT_PAIRS[pair + 1];
        }
        if value >= 10 {
            let pair = value as usize * 2;
            self.bytes[end - 2] = DIGIT_PAIRS[pair];
            self.bytes[end - 1] = DIGIT_PAIRS[pair + 1];
        } else {
            self.bytes[end - 1] = b'0' + value as u8;
        }
    }

    /// Appends `s` as `[row,column]`, from 1.
    fn square(&mut self, s: Square) {
        self.push(b"[");
        self.number(u64::from(s.row) + 1);
        self.push(b",");
        self.number(u64::from(s.col) + 1);
        self.push(b"]");
    }

    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placements;

    /// Replays a trace on a plain board: every step is checked against the board (a place on
    /// a free square, an attacked square with exactly its attackers, a removal of a queen
    /// that is there, a solution of every column), and the placements are returned.
    fn replay(n: usize, given: &[Square], max_steps: u64) -> (Vec<Vec<u8>>, Traced) {
        let mut queens: Vec<Square> = given.to_vec();
        let mut found = Vec::new();
        let mut last = 0;
        let traced = trace(n, given, max_steps, |number, step| {
            assert_eq!(number, last + 1);
            last = number;
            match step {
                Step::Place(s) => {
                    assert!(queens.iter().all(|q| !q.queen_aligned(s) && *q != s));
                    queens.push(s);
                }
                Step::Attacked { square, by } => {
                    let mut expected: Vec<Square> = queens
                        .iter()
                        .copied()
                        .filter(|q| q.queen_aligned(square))
                        .collect();
                    expected.sort_by_key(|q| (q.col, q.row));
                    assert_eq!(by, expected.as_slice());
                    assert!(!by.is_empty());
                }
                Step::Remove(s) => {
                    assert!(!given.contains(&s));
                    let i = queens.iter().position(|&q| q == s).expect("a queen there");
                    queens.remove(i);
                }
                Step::Solution(rows) => {
                    assert_eq!(queens.len(), n);
                    for q in &queens {
                        assert_eq!(rows[usize::from(q.col)], q.row);
                    }
                    found.push(rows.to_vec());
                }
            }
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(traced.steps, last);
        (found, traced)
    }

    #[test]
    fn every_placement_in_order_and_every_step_consistent() {
        for n in 1..=8 {
            let (found, traced) = replay(n, &[], u64::MAX);
            assert_eq!(found, placements::all(n), "n = {n}");
            assert!(traced.complete && !traced.step_limit);
            assert_eq!(traced.solutions, found.len() as u64);
        }
    }

    #[test]
    fn given_queens_are_kept_and_attack_like_the_others() {
        for (n, given) in [
            (8, vec![Square::new(0, 0)]),
            (8, vec![Square::new(2, 4)]),
            (6, vec![Square::new(1, 0), Square::new(3, 1)]),
            (5, vec![Square::new(4, 4), Square::new(0, 2)]),
        ] {
            let (found, traced) = replay(n, &given, u64::MAX);
            let expected = Constraints::new(n, &given).unwrap().collect();
            assert_eq!(found, expected);
            assert!(traced.complete);
        }
        // Every column given: the placement alone.
        let all = [
            Square::new(1, 0),
            Square::new(3, 1),
            Square::new(0, 2),
            Square::new(2, 3),
        ];
        let (found, traced) = replay(4, &all, u64::MAX);
        assert_eq!(found, vec![vec![1, 3, 0, 2]]);
        assert_eq!((traced.steps, traced.complete), (1, true));
    }

    #[test]
    fn the_limit_stops_the_trace_exactly() {
        let (_, whole) = replay(6, &[], u64::MAX);
        for limit in [0, 1, 2, 17, whole.steps - 1] {
            let (_, cut) = replay(6, &[], limit);
            assert_eq!(cut.steps, limit);
            assert!(!cut.complete && cut.step_limit, "limit {limit}");
        }
        // A limit that falls on the last step leaves nothing undone.
        let (_, exact) = replay(6, &[], whole.steps);
        assert!(exact.complete && !exact.step_limit);
        assert_eq!(exact.steps, whole.steps);
    }

    #[test]
    fn bad_givens_are_refused_and_no_placement_is_a_complete_trace() {
        assert!(
            trace(8, &[Square::new(0, 0), Square::new(1, 1)], 10, |_, _| {
                ControlFlow::Continue(())
            })
            .is_err()
        );
        assert!(trace(0, &[], 10, |_, _| ControlFlow::Continue(())).is_err());
        let (found, traced) = replay(3, &[], u64::MAX);
        assert!(found.is_empty() && traced.complete);
    }

    #[test]
    fn the_first_eight_queens_placement_takes_982_steps() {
        let mut at = None;
        let _ = trace(8, &[], u64::MAX, |number, step| {
            if matches!(step, Step::Solution(_)) {
                at = Some(number);
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        assert_eq!(at, Some(982));
    }

    /// The step's line as serde_json writes [`Line`]: what [`write_step`] must equal.
    fn serde_step(
        case: Option<u64>,
        number: u64,
        step: &Step<'_>,
        index: u64,
        sum: Option<u64>,
        best: Option<u64>,
    ) -> Vec<u8> {
        let by: Vec<[u32; 2]>;
        let rows: Vec<u32>;
        let mut line = Line {
            case,
            step: Some(number),
            sum,
            ..Line::default()
        };
        match *step {
            Step::Place(s) => {
                line.event = "place";
                line.square = Some(one_based(s));
            }
            Step::Attacked { square, by: queens } => {
                line.event = "attacked";
                line.square = Some(one_based(square));
                by = queens.iter().take(3).map(|&q| one_based(q)).collect();
                line.by = Some(&by);
                line.sum = None;
            }
            Step::Remove(s) => {
                line.event = "remove";
                line.square = Some(one_based(s));
            }
            Step::Solution(placement) => {
                line.event = "solution";
                line.index = Some(index);
                rows = placement.iter().map(|&r| u32::from(r) + 1).collect();
                line.rows = Some(&rows);
                line.best = best;
            }
        }
        let mut out = serde_json::to_vec(&line).unwrap();
        out.push(b'\n');
        out
    }

    fn square() -> impl proptest::strategy::Strategy<Value = Square> {
        use proptest::prelude::*;
        (0..MAX_N as u8, 0..MAX_N as u8).prop_map(|(r, c)| Square::new(r, c))
    }

    /// Numbers of every length, from one digit to twenty.
    fn number() -> impl proptest::strategy::Strategy<Value = u64> {
        use proptest::prelude::*;
        (0..64u32, proptest::num::u64::ANY).prop_map(|(shift, v)| v >> shift)
    }

    proptest::proptest! {
        /// The hand-made lines are serde_json's, byte for byte, on every kind of step, with
        /// and without a case, a sum and a best, numbers of every length.
        #[test]
        fn step_lines_are_serde_json_s(
            case in proptest::option::of(number()),
            number in number(),
            kind in 0..4u8,
            at in square(),
            by in proptest::collection::vec(square(), 0..=3),
            rows in proptest::collection::vec(0..MAX_N as u8, 1..=MAX_N),
            index in number(),
            sum in proptest::option::of(number()),
            best in proptest::option::of(number()),
        ) {
            let step = match kind {
                0 => Step::Place(at),
                1 => Step::Attacked { square: at, by: &by },
                2 => Step::Remove(at),
                _ => Step::Solution(&rows),
            };
            let mut out = Vec::new();
            write_step(&mut out, case, number, &step, index, sum, best).unwrap();
            let expected = serde_step(case, number, &step, index, sum, best);
            proptest::prop_assert_eq!(
                String::from_utf8(out).unwrap(),
                String::from_utf8(expected).unwrap()
            );
        }
    }

    #[test]
    fn lines_are_one_based_json() {
        let mut out = Vec::new();
        Line::start(None, 4, &[Square::new(1, 0)])
            .write(&mut out)
            .unwrap();
        let by = [Square::new(1, 0)];
        for (k, step) in [
            Step::Place(Square::new(0, 1)),
            Step::Attacked {
                square: Square::new(1, 2),
                by: &by,
            },
            Step::Remove(Square::new(0, 1)),
            Step::Solution(&[1, 3, 0, 2]),
        ]
        .iter()
        .enumerate()
        {
            write_step(&mut out, Some(2), k as u64 + 1, step, 1, Some(7), Some(9)).unwrap();
        }
        let traced = Traced {
            steps: 4,
            solutions: 1,
            complete: false,
            step_limit: true,
        };
        Line::end(None, &traced, Some(StoppedBy::Steps))
            .write(&mut out)
            .unwrap();
        let text = String::from_utf8(out).unwrap();
        let expected = [
            r#"{"event":"start","n":4,"given":[[2,1]]}"#,
            r#"{"case":2,"step":1,"event":"place","square":[1,2],"sum":7}"#,
            r#"{"case":2,"step":2,"event":"attacked","square":[2,3],"by":[[2,1]]}"#,
            r#"{"case":2,"step":3,"event":"remove","square":[1,2],"sum":7}"#,
            r#"{"case":2,"step":4,"event":"solution","index":1,"rows":[2,4,1,3],"sum":7,"best":9}"#,
            r#"{"event":"end","steps":4,"solutions":1,"complete":false,"stopped_by":"steps"}"#,
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    }
}

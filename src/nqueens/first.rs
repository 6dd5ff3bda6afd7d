//! The placements of a problem in lexicographic order, the first one found without walking the
//! subtrees before it: an incumbent placement made lexicographically smaller column by column,
//! each smaller row either proven dead or giving a smaller incumbent.
//!
//! How: any placement `S` is found first by a fail-first search (below). Then, column by column
//! from the left, with the columns before it fixed to `S`, each row `r < S[c]` open on column
//! `c` is asked the same question: is there a placement with these columns and `r` on `c`? A
//! placement found there is lexicographically smaller than `S` and replaces it (the column is
//! then done: `S[c] = r`, and every smaller row was proven dead); a row for which the search
//! ends empty-handed is dead, by exhaustion. When the last column is done, every row smaller
//! than the answer's, on every column, with the answer's columns before it, is proven dead: the
//! answer is the lexicographically first placement. The next placement in order is the first
//! one whose column `d` holds a row above `S[d]`, the columns before `d` as in `S`, for the
//! last `d` that has one (found as above, with that lower bound on column `d`).
//!
//! The question "is there a placement?" is answered by a depth-first search that branches on
//! the line (a free column or a free row) with the fewest open squares for its weight (below),
//! and propagates after every queen: a free column or row with no open square ends the
//! branch; one with a single open square takes its queen at once; and the free columns must be
//! matched to the free rows through open squares (Hall's condition, checked by augmenting paths
//! over bit sets). None of these prunings removes a placement, so "no" is a proof. The order of
//! the branches does not matter for the answer, only for its time: that freedom is what the
//! lexicographic search lacks.
//!
//! The weights: every line starts at 1, and a dead end adds 1 to the line found with no open
//! square, or to each column of a set that the matching could not place (a Hall set). The
//! search branches on the line with the fewest open squares per unit of weight (a
//! "dom/wdeg" rule): the lines that keep failing are decided first. Measured, it visits 3 to
//! 14 times fewer nodes at N = 24 to 34 and more at a few sides (21, 35; see
//! experiments/nqueens/EXPERIMENTS.md). The weights are kept from one probe to the next (the
//! same rows and columns stay hard as the prefix grows). They steer the order only.
//!
//! A line's open squares are tried from the middle of the board out: the "yes" probes meet
//! their placement sooner, and the incumbents they give leave fewer and easier dead probes
//! (1.2 to 4.2 times fewer nodes from N = 33 to 37, a few more on some smaller sides; see the
//! same log).
//!
//! Boards up to 64x64: rows and columns are bits of a `u64`, diagonals bits of a `u128`.

use std::ops::ControlFlow;

use super::control::Control;
use crate::core::placements::MAX_N;

/// How many search nodes pass between two looks at [`Control::should_stop`].
const CHECK_EVERY: u64 = 1 << 12;

/// The queens placed so far and what they leave free.
#[derive(Copy, Clone, Debug)]
struct State {
    /// Free rows.
    rows: u64,
    /// Free columns.
    cols: u64,
    /// Taken diagonals `r - c + n - 1` (for columns' open rows).
    down_c: u128,
    /// Taken diagonals `c - r + n - 1` (the same, for rows' open columns).
    down_r: u128,
    /// Taken anti-diagonals `r + c`.
    up: u128,
    /// The row of each placed column's queen.
    place: [u8; MAX_N],
}

/// What a search ended with.
enum Found {
    Yes(State),
    No,
    Stopped,
}

/// Node counts of a search.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Stats {
    /// Nodes of the fail-first searches (each a partial placement propagated).
    pub nodes: u64,
    /// Questions "is there a placement with this prefix?" asked.
    pub probes: u64,
    /// Of them, answered no (a proof by exhaustion).
    pub dead: u64,
    /// Nodes of the plain lexicographic backtracker ([`First::after`]'s first try).
    pub plain: u64,
    /// Nodes of the plain search skipped because the table of dead nodes held them.
    pub memo_hits: u64,
}

/// The lexicographic search over one board: its side, the rows allowed on each column (the
/// given queens, and the bounds of [`First::next`]), and the node counts.
pub struct First<'a> {
    n: usize,
    allowed: &'a [u64],
    control: &'a Control,
    /// Whether the free columns are matched to the free rows at every node.
    matching: bool,
    /// Whether the rows below the incumbent's on a column are probed together (one
    /// question for all) rather than one by one.
    grouped: bool,
    stats: Stats,
    until_check: u64,
    /// The table of dead nodes of the plain search (`1 << memo_bits` entries of 32 bytes,
    /// made at first use; none when 0).
    memo_bits: u32,
    memo: Vec<[u64; 4]>,
    /// Per row, the columns whose bounds exclude it (for the probes' current bounds).
    forbid: [u64; MAX_N],
    /// Whether the branching line is weighted by its failures (see the module docs).
    weighted: bool,
    /// Whether a line's open squares are tried from the middle of the board out (else from
    /// the first row or column).
    centred: bool,
    /// The failures of each line: column `c` at `c`, row `r` at `MAX_N + r`.
    weights: [u32; 2 * MAX_N],
}

/// A size of the table of dead nodes for measurements: 2^20 entries, 32 MiB (off by
/// default: it did not pay, see experiments/nqueens/EXPERIMENTS.md).
pub const MEMO_BITS: u32 = 20;

/// Nodes with fewer columns left than this are not remembered (cheaper to search again).
const MEMO_MIN_LEFT: usize = 4;

#[inline(always)]
fn bits(mut m: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (m != 0).then(|| {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            i
        })
    })
}

/// The bits of `m`, nearest to bit `middle` first (of two at the same distance, the lower
/// one); with `middle` 0, in increasing order.
#[inline(always)]
fn centre_out(m: u64, middle: usize) -> impl Iterator<Item = usize> {
    let below_mask = (1u64 << middle) - 1;
    let mut below = m & below_mask;
    let mut above = m & !below_mask;
    std::iter::from_fn(move || {
        // The nearest bit below `middle` is its highest; above (or at), its lowest.
        let down = (below != 0).then(|| 63 - below.leading_zeros() as usize);
        let up = (above != 0).then(|| above.trailing_zeros() as usize);
        match (down, up) {
            (Some(d), Some(u)) if middle - d <= u - middle => {
                below &= !(1u64 << d);
                Some(d)
            }
            (_, Some(u)) => {
                above &= above - 1;
                Some(u)
            }
            (Some(d), None) => {
                below &= !(1u64 << d);
                Some(d)
            }
            (None, None) => None,
        }
    })
}

impl<'a> First<'a> {
    /// The search of an `n`x`n` board (`1 <= n <= 64`) whose column `c` may hold only the rows
    /// of `allowed[c]` (a given queen: one row).
    pub fn new(n: usize, allowed: &'a [u64], control: &'a Control) -> Option<First<'a>> {
        ((1..=MAX_N).contains(&n) && allowed.len() == n).then_some(First {
            n,
            allowed,
            control,
            matching: true,
            grouped: false,
            stats: Stats::default(),
            until_check: CHECK_EVERY,
            memo_bits: 0,
            memo: Vec::new(),
            forbid: [0; MAX_N],
            weighted: true,
            centred: true,
            weights: [1; 2 * MAX_N],
        })
    }

    /// Turns the matching check off (to measure what it brings).
    pub fn without_matching(mut self) -> First<'a> {
        self.matching = false;
        self
    }

    /// Branches on the line with the fewest open squares, whatever its failures (to measure
    /// what the weights bring).
    pub fn without_weights(mut self) -> First<'a> {
        self.weighted = false;
        self
    }

    /// Tries a line's open squares in increasing order rather than from the middle out (to
    /// measure what the order brings).
    pub fn uncentred(mut self) -> First<'a> {
        self.centred = false;
        self
    }

    /// Adds a failure to line `line` (column `c` at `c`, row `r` at `MAX_N + r`).
    #[inline(always)]
    fn failed(&mut self, line: usize) {
        if self.weighted
            && let Some(w) = self.weights.get_mut(line)
        {
            *w = w.saturating_add(1);
        }
    }

    /// Probes the rows below the incumbent's on a column all at once (measured slower than
    /// one by one; kept to measure it again).
    pub fn grouped(mut self) -> First<'a> {
        self.grouped = true;
        self
    }

    /// Sets the size of the table of dead nodes to `2^bits` entries (at most 2^26, 2 GiB;
    /// 0 for none).
    pub fn with_memo(mut self, bits: u32) -> First<'a> {
        self.memo_bits = bits.min(26);
        self.memo = Vec::new();
        self
    }

    /// The node counts so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    fn empty(&self) -> State {
        let all = if self.n == 64 {
            u64::MAX
        } else {
            (1u64 << self.n) - 1
        };
        State {
            rows: all,
            cols: all,
            down_c: 0,
            down_r: 0,
            up: 0,
            place: [0; MAX_N],
        }
    }

    /// The open rows of free column `c`.
    #[inline(always)]
    fn col_open(&self, s: &State, c: usize, allowed: &[u64]) -> u64 {
        let down = (s.down_c >> (self.n - 1 - c)) as u64;
        let up = (s.up >> c) as u64;
        s.rows & !down & !up & allowed[c]
    }

    /// The open columns of free row `r` (without the column bounds, which the columns check).
    #[inline(always)]
    fn row_open(&self, s: &State, r: usize) -> u64 {
        let down = (s.down_r >> (self.n - 1 - r)) as u64;
        let up = (s.up >> r) as u64;
        s.cols & !down & !up
    }

    #[inline(always)]
    fn put(&self, s: &mut State, r: usize, c: usize) {
        let n = self.n;
        s.rows &= !(1u64 << r);
        s.cols &= !(1u64 << c);
        s.down_c |= 1u128 << (r + n - 1 - c);
        s.down_r |= 1u128 << (c + n - 1 - r);
        s.up |= 1u128 << (r + c);
        s.place[c] = r as u8;
    }

    /// Propagates `s` to its fixpoint: `None` for a dead end, else the line to branch on (a
    /// column, or a row as `64 + r`) and its open squares, or `None` line when every column is
    /// placed.
    fn propagate(&mut self, s: &mut State, allowed: &[u64]) -> Option<Option<(usize, u64)>> {
        let mut opens = [0u64; MAX_N];
        loop {
            let mut changed = false;
            let mut best: Option<(usize, u64)> = None;
            // The best line so far has `best_count` open squares and weight `best_weight`:
            // a line beats it when count / weight is smaller (compared crosswise).
            let mut best_count = u64::from(u32::MAX);
            let mut best_weight = 1u64;
            for c in bits(s.cols) {
                let open = self.col_open(s, c, allowed);
                opens[c] = open;
                if open == 0 {
                    self.failed(c);
                    return None;
                }
                if open & (open - 1) == 0 {
                    self.put(s, open.trailing_zeros() as usize, c);
                    changed = true;
                    continue;
                }
                let k = u64::from(open.count_ones());
                let w = self.line_weight(c);
                if k * best_weight < best_count * w {
                    best_count = k;
                    best_weight = w;
                    best = Some((c, open));
                }
            }
            for r in bits(s.rows) {
                let open = self.row_open(s, r) & !self.forbid[r];
                if open == 0 {
                    self.failed(MAX_N + r);
                    return None;
                }
                if open & (open - 1) == 0 {
                    self.put(s, r, open.trailing_zeros() as usize);
                    changed = true;
                    continue;
                }
                let k = u64::from(open.count_ones());
                let w = self.line_weight(MAX_N + r);
                if k * best_weight < best_count * w {
                    best_count = k;
                    best_weight = w;
                    best = Some((64 + r, open));
                }
            }
            if !changed {
                if s.cols == 0 {
                    return Some(None);
                }
                if self.matching
                    && let Err(hall) = self.matched(s, &opens)
                {
                    for c in bits(hall) {
                        self.failed(c);
                    }
                    return None;
                }
                return Some(best);
            }
        }
    }

    /// The weight of line `line` (1 when the weights are off).
    #[inline(always)]
    fn line_weight(&self, line: usize) -> u64 {
        if self.weighted {
            self.weights.get(line).map_or(1, |&w| u64::from(w))
        } else {
            1
        }
    }

    /// `Ok` when every free column can take a distinct free row through its open squares, else
    /// `Err` with a set of columns whose open squares lie in fewer rows than they are (a Hall
    /// set: the columns the last augmenting search reached).
    fn matched(&self, s: &State, open: &[u64; MAX_N]) -> Result<(), u64> {
        // owner[r]: the column matched to row r; mate[c]: the row matched to column c.
        let mut owner = [0u8; MAX_N];
        let mut mate = [0u8; MAX_N];
        let mut free_rows = s.rows;
        for c in bits(s.cols) {
            let direct = open[c] & free_rows;
            if direct != 0 {
                let r = direct.trailing_zeros() as usize;
                owner[r] = c as u8;
                mate[c] = r as u8;
                free_rows &= !(1 << r);
                continue;
            }
            // An augmenting path, breadth first over the rows.
            let mut seen = 0u64;
            let mut parent = [0u8; MAX_N]; // parent[r]: the column that reached row r
            let mut queue = [0u8; MAX_N];
            let (mut head, mut tail) = (0usize, 1usize);
            queue[0] = c as u8;
            let mut end = None;
            'bfs: while head < tail {
                let col = usize::from(queue[head]);
                head += 1;
                for r in bits(open[col] & !seen) {
                    seen |= 1 << r;
                    parent[r] = col as u8;
                    if free_rows & (1 << r) != 0 {
                        end = Some(r);
                        break 'bfs;
                    }
                    // A matched row: its column goes on the queue (each row once, so the
                    // queue holds at most 64).
                    if tail < MAX_N {
                        queue[tail] = owner[r];
                        tail += 1;
                    }
                }
            }
            let Some(mut r) = end else {
                let hall = queue[..tail].iter().fold(0u64, |h, &c| h | 1 << c);
                return Err(hall);
            };
            free_rows &= !(1 << r);
            loop {
                let col = usize::from(parent[r]);
                let previous = usize::from(mate[col]);
                owner[r] = col as u8;
                mate[col] = r as u8;
                if col == c {
                    break;
                }
                r = previous;
            }
        }
        Ok(())
    }

    /// True when the control says stop (looked at every [`CHECK_EVERY`] calls).
    fn tick(&mut self) -> bool {
        self.until_check -= 1;
        if self.until_check == 0 {
            self.until_check = CHECK_EVERY;
            return self.control.should_stop();
        }
        false
    }

    /// Some placement extending `s` (fail-first, any order).
    fn any(&mut self, mut s: State, allowed: &[u64]) -> Found {
        self.stats.nodes += 1;
        if self.tick() {
            return Found::Stopped;
        }
        let line = match self.propagate(&mut s, allowed) {
            None => return Found::No,
            Some(None) => return Found::Yes(s),
            Some(Some(line)) => line,
        };
        let (which, open) = line;
        let middle = if self.centred { self.n / 2 } else { 0 };
        for x in centre_out(open, middle) {
            let mut child = s;
            if which < 64 {
                self.put(&mut child, x, which);
            } else {
                self.put(&mut child, which - 64, x);
            }
            match self.any(child, allowed) {
                Found::No => {}
                found => return found,
            }
        }
        Found::No
    }

    /// Asks whether a placement extends `s`, counting the question.
    fn probe(&mut self, s: State, allowed: &[u64]) -> Found {
        self.stats.probes += 1;
        let found = self.any(s, allowed);
        if matches!(found, Found::No) {
            self.stats.dead += 1;
        }
        found
    }

    /// The lexicographically first placement with column `c` in `allowed[c]` for every `c`
    /// (`None` inside when there is none), or `Break` when the control said stop.
    fn first_with(&mut self, allowed: &[u64]) -> ControlFlow<(), Option<Vec<u8>>> {
        self.set_bounds(allowed);
        let root = self.empty();
        let mut best = match self.probe(root, allowed) {
            Found::Yes(s) => s,
            Found::No => return ControlFlow::Continue(None),
            Found::Stopped => return ControlFlow::Break(()),
        };
        let mut prefix = root;
        let mut bounded = [0u64; MAX_N];
        bounded[..self.n].copy_from_slice(&allowed[..self.n]);
        for c in 0..self.n {
            if self.grouped {
                // One probe for all the rows below the incumbent's at once: "no" proves them
                // all dead; "yes" gives a smaller incumbent, and the question is asked again.
                loop {
                    let target = usize::from(best.place[c]);
                    let below = self.col_open(&prefix, c, allowed) & ((1u64 << target) - 1);
                    if below == 0 {
                        break;
                    }
                    bounded[c] = allowed[c] & below;
                    self.set_bounds(&bounded[..self.n]);
                    let found = self.probe(prefix, &bounded[..self.n]);
                    bounded[c] = allowed[c];
                    self.set_bounds(allowed);
                    match found {
                        Found::Yes(s) => best = s,
                        Found::No => break,
                        Found::Stopped => return ControlFlow::Break(()),
                    }
                }
            } else {
                let target = usize::from(best.place[c]);
                let below = self.col_open(&prefix, c, allowed) & ((1u64 << target) - 1);
                for r in bits(below) {
                    let mut child = prefix;
                    self.put(&mut child, r, c);
                    match self.probe(child, allowed) {
                        Found::Yes(s) => {
                            best = s;
                            break;
                        }
                        Found::No => {}
                        Found::Stopped => return ControlFlow::Break(()),
                    }
                }
            }
            let r = usize::from(best.place[c]);
            self.put(&mut prefix, r, c);
        }
        ControlFlow::Continue(Some(best.place[..self.n].to_vec()))
    }

    /// Makes `allowed` the bounds the rows' look-ups see.
    fn set_bounds(&mut self, allowed: &[u64]) {
        let all = self.empty().rows;
        self.forbid = [0; MAX_N];
        for (c, &rows) in allowed.iter().enumerate() {
            for r in bits(!rows & all) {
                self.forbid[r] |= 1 << c;
            }
        }
    }

    /// The first placement in lexicographic order, by the probes alone.
    pub fn first(&mut self) -> ControlFlow<(), Option<Vec<u8>>> {
        let allowed = self.allowed;
        self.first_with(allowed)
    }

    /// The first placement in lexicographic order after `after` (the first of all when
    /// `None`): the plain lexicographic backtracker first, for at most `budget` nodes (where
    /// placements are dense it is the fastest), then the probes.
    pub fn after(&mut self, after: Option<&[u8]>, budget: u64) -> ControlFlow<(), Option<Vec<u8>>> {
        if let Some(found) = self.plain_after(after, budget)? {
            return ControlFlow::Continue(found);
        }
        match after {
            None => self.first(),
            Some(rows) => self.next(rows),
        }
    }

    /// The plain lexicographic backtracker (column by column, rows in increasing order, no
    /// look-ahead), from the start or resumed just after `after`: `Some(answer)` within
    /// `budget` nodes, `None` past it.
    pub fn plain_after(
        &mut self,
        after: Option<&[u8]>,
        budget: u64,
    ) -> ControlFlow<(), Option<Option<Vec<u8>>>> {
        let n = self.n;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut todo = [0u64; MAX_N];
        let mut used = [0u64; MAX_N + 1];
        let mut down = [0u64; MAX_N + 1];
        let mut up = [0u64; MAX_N + 1];
        let mut place = [0u8; MAX_N];
        let candidates = |d: usize, used: &[u64], down: &[u64], up: &[u64]| {
            self.allowed[d] & !(used[d] | down[d] | up[d])
        };
        let mut depth;
        match after {
            None => {
                depth = 0;
                todo[0] = candidates(0, &used, &down, &up);
            }
            Some(rows) => {
                if rows.len() != n {
                    return ControlFlow::Continue(Some(None));
                }
                // Rebuild the stack as the search stood when it wrote `rows`.
                for d in 0..n {
                    let bit = 1u64 << rows[d];
                    let above = u64::MAX.checked_shl(u32::from(rows[d]) + 1).unwrap_or(0);
                    todo[d] = candidates(d, &used, &down, &up) & above;
                    place[d] = rows[d];
                    used[d + 1] = used[d] | bit;
                    down[d + 1] = ((down[d] | bit) << 1) & all;
                    up[d + 1] = (up[d] | bit) >> 1;
                }
                depth = n - 1;
            }
        }
        // found[d]: a placement lies below the node at depth d (on the resumed path), so it
        // must not be remembered as dead.
        let mut found = [after.is_some(); MAX_N];
        if self.memo_bits > 0 && self.memo.is_empty() {
            self.memo = vec![[u64::MAX; 4]; 1 << self.memo_bits];
        }
        let mut spent = 0u64;
        loop {
            let open = todo[depth];
            if open == 0 {
                if depth == 0 {
                    return ControlFlow::Continue(Some(None));
                }
                if !found[depth] && n - depth >= MEMO_MIN_LEFT {
                    self.remember(depth, used[depth], down[depth], up[depth]);
                }
                depth -= 1;
                continue;
            }
            spent += 1;
            if spent > budget {
                return ControlFlow::Continue(None);
            }
            self.stats.plain += 1;
            if self.tick() {
                return ControlFlow::Break(());
            }
            let bit = open & open.wrapping_neg();
            todo[depth] = open ^ bit;
            place[depth] = bit.trailing_zeros() as u8;
            if depth + 1 == n {
                return ControlFlow::Continue(Some(Some(place[..n].to_vec())));
            }
            used[depth + 1] = used[depth] | bit;
            down[depth + 1] = ((down[depth] | bit) << 1) & all;
            up[depth + 1] = (up[depth] | bit) >> 1;
            depth += 1;
            if n - depth >= MEMO_MIN_LEFT
                && self.is_dead(depth, used[depth], down[depth], up[depth])
            {
                self.stats.memo_hits += 1;
                depth -= 1;
                continue;
            }
            found[depth] = false;
            todo[depth] = candidates(depth, &used, &down, &up);
        }
    }

    /// The slot of a node of the plain search in the table of dead nodes.
    #[inline(always)]
    fn slot(&self, depth: usize, used: u64, down: u64, up: u64) -> usize {
        let h = used.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ down.wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(21)
            ^ up.wrapping_mul(0x1656_67b1_9e37_79f9).rotate_left(42)
            ^ (depth as u64).wrapping_mul(0x27d4_eb2f_1656_67c5);
        (h.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - self.memo_bits)) as usize
    }

    /// Remembers a node of the plain search (the column `depth` to fill, the rows and
    /// diagonals taken as they bear on it) below which there is no placement.
    fn remember(&mut self, depth: usize, used: u64, down: u64, up: u64) {
        if self.memo_bits == 0 {
            return;
        }
        let i = self.slot(depth, used, down, up);
        if let Some(e) = self.memo.get_mut(i) {
            *e = [depth as u64, used, down, up];
        }
    }

    /// True when the node was remembered as dead (the whole key compared: never a guess).
    #[inline(always)]
    fn is_dead(&self, depth: usize, used: u64, down: u64, up: u64) -> bool {
        if self.memo_bits == 0 {
            return false;
        }
        let i = self.slot(depth, used, down, up);
        self.memo.get(i) == Some(&[depth as u64, used, down, up])
    }

    /// The placement after `rows` in lexicographic order, by the probes alone.
    pub fn next(&mut self, rows: &[u8]) -> ControlFlow<(), Option<Vec<u8>>> {
        let n = self.n;
        let mut bounds = self.allowed.to_vec();
        for d in (0..n).rev() {
            bounds[..n].copy_from_slice(self.allowed);
            for c in 0..d {
                bounds[c] &= 1u64 << rows[c];
            }
            let r = u32::from(rows[d]);
            bounds[d] &= u64::MAX.checked_shl(r + 1).unwrap_or(0);
            if bounds[d] == 0 {
                continue;
            }
            if let Some(found) = self.first_with(&bounds)? {
                return ControlFlow::Continue(Some(found));
            }
        }
        ControlFlow::Continue(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;
    use crate::core::placements::{self, Constraints};

    fn all_rows(n: usize) -> Vec<u64> {
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        vec![all; n]
    }

    #[test]
    fn centre_out_takes_every_bit_once_nearest_first() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let m = random(&mut seed);
            let middle = (random(&mut seed) % 64) as usize;
            let got: Vec<usize> = centre_out(m, middle).collect();
            let mut expected: Vec<usize> = bits(m).collect();
            // A stable sort keeps the lower of two bits at the same distance first.
            expected.sort_by_key(|&x| x.abs_diff(middle));
            assert_eq!(got, expected, "m = {m:#x}, middle {middle}");
        }
        assert_eq!(centre_out(0b1011, 0).collect::<Vec<_>>(), [0, 1, 3]);
    }

    #[test]
    fn lists_small_boards_in_order() {
        for n in 1..=10 {
            let allowed = all_rows(n);
            let control = Control::new();
            let mut search = First::new(n, &allowed, &control).unwrap();
            let mut listed = Vec::new();
            let mut next = search.first().continue_value().unwrap();
            while let Some(rows) = next {
                next = search.next(&rows).continue_value().unwrap();
                listed.push(rows);
            }
            assert_eq!(listed, placements::all(n), "n = {n}");
        }
    }

    #[test]
    fn given_queens_bound_the_columns() {
        let given = [Square::new(2, 0), Square::new(0, 3)];
        let c = Constraints::new(8, &given).unwrap();
        let control = Control::new();
        let mut search = First::new(8, c.allowed(), &control).unwrap();
        let first = search.first().continue_value().unwrap();
        assert_eq!(first, c.collect().first().cloned());
    }

    #[test]
    fn the_first_placements_of_oeis_a141843() {
        // OEIS A141843, rows 1..12 (https://oeis.org/A141843), 1-based.
        let rows: [&[u8]; 4] = [
            &[2, 4, 6, 1, 3, 5],
            &[1, 5, 8, 6, 3, 7, 2, 4],
            &[1, 3, 6, 8, 10, 5, 9, 2, 4, 7],
            &[1, 3, 5, 8, 10, 12, 6, 11, 2, 7, 9, 4],
        ];
        for expected in rows {
            let n = expected.len();
            let allowed = all_rows(n);
            let control = Control::new();
            let got = First::new(n, &allowed, &control)
                .unwrap()
                .first()
                .continue_value()
                .unwrap()
                .unwrap();
            let got: Vec<u8> = got.iter().map(|r| r + 1).collect();
            assert_eq!(got, expected);
        }
    }

    /// A small random generator for the tests (xorshift).
    fn random(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn random_given_queens_match_the_plain_search() {
        // Against the shared backtracker, written independently: every placement, in order,
        // with up to three given queens, by the probes alone and by the hybrid.
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut checked = 0;
        while checked < 300 {
            let n = 4 + (random(&mut seed) % 7) as usize;
            let k = (random(&mut seed) % 4) as usize;
            let given: Vec<Square> = (0..k)
                .map(|_| {
                    let r = (random(&mut seed) % n as u64) as u8;
                    let c = (random(&mut seed) % n as u64) as u8;
                    Square::new(r, c)
                })
                .collect();
            let Ok(c) = Constraints::new(n, &given) else {
                continue;
            };
            let expected = c.collect();
            let control = Control::new();
            for budget in [0, 3, u64::MAX] {
                let mut search = First::new(n, c.allowed(), &control).unwrap();
                let mut listed = Vec::new();
                let mut next = search.after(None, budget).continue_value().unwrap();
                while let Some(rows) = next {
                    assert!(placements::is_non_attacking(&rows));
                    next = search.after(Some(&rows), budget).continue_value().unwrap();
                    listed.push(rows);
                }
                assert_eq!(
                    listed, expected,
                    "n = {n}, given {given:?}, budget {budget}"
                );
            }
            checked += 1;
        }
    }

    #[test]
    fn first_placements_match_the_plain_search_up_to_24() {
        // The plain backtracker reaches these in well under a second each.
        for n in 13..=24 {
            let allowed = all_rows(n);
            let control = Control::new();
            let got = First::new(n, &allowed, &control)
                .unwrap()
                .first()
                .continue_value()
                .unwrap();
            let mut expected = None;
            let _ = Constraints::new(n, &[]).unwrap().for_each(|rows| {
                expected = Some(rows.to_vec());
                ControlFlow::Break(())
            });
            assert_eq!(got, expected, "n = {n}");
        }
    }

    /// Node counts and times per side, printed: `cargo test --release --lib
    /// nqueens::first::tests::measure -- --ignored --nocapture` (sides from FIRST_FROM to
    /// FIRST_TO, default 4..=40, each stopped after FIRST_LIMIT_S seconds, default 60; the
    /// plain search given FIRST_PLAIN_S seconds, default 0 for none; FIRST_MATCHING=0 turns
    /// the matching off, FIRST_WEIGHTS=0 the weights, FIRST_CENTRED=0 the middle-out order of
    /// a line's squares, FIRST_GROUPED=1 groups the probes,
    /// FIRST_MODE=1 runs the plain search alone, with a table of 2^FIRST_MEMO_BITS dead nodes).
    #[test]
    #[ignore]
    fn measure() {
        use std::time::{Duration, Instant};
        let var = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let (from, to) = (var("FIRST_FROM", 4) as usize, var("FIRST_TO", 40) as usize);
        let plain_s = var("FIRST_PLAIN_S", 0);
        let limit_s = var("FIRST_LIMIT_S", 60);
        let matching = var("FIRST_MATCHING", 1) == 1;
        println!("n\tms\tnodes\tprobes\tdead\tplain\tmemo_hits\tplain_nodes\tplain_ms\tfirst");
        for n in from..=to {
            let allowed = all_rows(n);
            let control = Control::with_deadline(Instant::now() + Duration::from_secs(limit_s));
            let started = Instant::now();
            let mut search = First::new(n, &allowed, &control).unwrap();
            if !matching {
                search = search.without_matching();
            }
            if var("FIRST_WEIGHTS", 1) == 0 {
                search = search.without_weights();
            }
            if var("FIRST_CENTRED", 1) == 0 {
                search = search.uncentred();
            }
            if var("FIRST_GROUPED", 0) == 1 {
                search = search.grouped();
            }
            search = search.with_memo(var("FIRST_MEMO_BITS", 0) as u32);
            let got = if var("FIRST_MODE", 0) == 1 {
                search.after(None, u64::MAX)
            } else {
                search.first()
            };
            let ms = started.elapsed().as_secs_f64() * 1e3;
            let st = search.stats();
            let (mut plain_nodes, mut plain_ms) = (String::from("-"), String::from("-"));
            if plain_s > 0 {
                let control = Control::with_deadline(Instant::now() + Duration::from_secs(plain_s));
                let started = Instant::now();
                let mut ticks = 0u64;
                let stopped = Constraints::new(n, &[]).unwrap().search(|e| match e {
                    placements::Event::Placement(_) => ControlFlow::Break(()),
                    placements::Event::Tick => {
                        ticks += 1;
                        if control.should_stop() {
                            ticks = u64::MAX;
                            return ControlFlow::Break(());
                        }
                        ControlFlow::Continue(())
                    }
                });
                let _ = stopped;
                plain_nodes = if ticks == u64::MAX {
                    format!(">{}", plain_s)
                } else {
                    format!("~{}", ticks * placements::TICK_NODES)
                };
                plain_ms = format!("{:.1}", started.elapsed().as_secs_f64() * 1e3);
            }
            let first = match got {
                ControlFlow::Continue(Some(rows)) => {
                    assert!(placements::is_non_attacking(&rows));
                    rows.iter()
                        .map(|r| (r + 1).to_string())
                        .collect::<Vec<_>>()
                        .join(" ")
                }
                ControlFlow::Continue(None) => "none".to_string(),
                ControlFlow::Break(()) => "stopped".to_string(),
            };
            println!(
                "{n}\t{ms:.1}\t{}\t{}\t{}\t{}\t{}\t{plain_nodes}\t{plain_ms}\t{first}",
                st.nodes, st.probes, st.dead, st.plain, st.memo_hits
            );
        }
    }

    #[test]
    fn a_stopped_control_stops() {
        let control = Control::new();
        control.stop();
        let allowed = all_rows(40);
        let mut search = First::new(40, &allowed, &control).unwrap();
        // The first look at the control comes after CHECK_EVERY nodes; a 40x40 board's first
        // placement takes more.
        let _ = search.first();
        assert!(search.stats().nodes <= 2 * CHECK_EVERY);
    }
}

//! The counting kernel: an iterative bitmask backtracker over a sequence of board lines, each of
//! which takes exactly one queen.
//!
//! A line is a row or a column, whichever the caller chose; its squares are the bits of a `u64`.
//! The lines need not be adjacent: queens given in advance take whole lines out of the search,
//! and the diagonal masks then jump by the distance between the remaining lines. What the given
//! queens attack is folded into each line's `allowed` mask beforehand.
//!
//! Invariant the kernel relies on: the number of lines equals the number of positions still
//! free in `allowed` across lines (every line's queen takes a position no other line may use),
//! so on the last line at most one position is left and the count there is 0 or 1, without
//! descending into it.
//!
//! ```
//! use chess_puzzles::nqueens::Control;
//! use chess_puzzles::nqueens::backtrack::Lines;
//!
//! // The eight rows of an empty 8x8 board.
//! let lines = Lines::new((0..8).map(|row| (row, 0xff))).unwrap();
//! assert_eq!(lines.count(lines.root(), &Control::new()), Some(92));
//! ```

use super::control::Control;

/// The most lines (and positions per line) the kernel handles.
pub const MAX_LINES: usize = 64;

/// How many pushes the search makes between two looks at [`Control::should_stop`].
const CHECK_EVERY: u32 = 1 << 14;

/// Where a search stands between two lines: the next line to fill and what is attacked on it.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct State {
    /// How many lines are filled (the index of the next line in the search's sequence).
    pub depth: usize,
    /// Positions taken by a queen of an earlier line.
    pub taken: u64,
    /// Positions attacked on the next line along one diagonal direction.
    pub down: u64,
    /// Positions attacked on the next line along the other diagonal direction.
    pub up: u64,
}

/// The lines of a search, in order, with the positions allowed on each.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Lines {
    len: usize,
    /// Per line, the allowed positions; one spare entry past the end.
    allowed: [u64; MAX_LINES + 1],
    /// Per line, the distance to the next line (how far the diagonals move).
    shift: [u32; MAX_LINES + 1],
}

/// Why a sequence of lines cannot be searched.
#[derive(Copy, Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LinesError {
    /// More than [`MAX_LINES`] lines, or a line index of [`MAX_LINES`] or more.
    #[error("at most {MAX_LINES} lines with indices below {MAX_LINES}")]
    TooMany,
    /// The line indices do not increase.
    #[error("line indices must increase")]
    NotIncreasing,
}

impl Lines {
    /// The search over `lines`: pairs of a line index (increasing, below [`MAX_LINES`]) and the
    /// positions allowed on that line.
    pub fn new(lines: impl IntoIterator<Item = (usize, u64)>) -> Result<Lines, LinesError> {
        let mut result = Lines {
            len: 0,
            allowed: [0; MAX_LINES + 1],
            shift: [0; MAX_LINES + 1],
        };
        let mut previous: Option<usize> = None;
        for (index, allowed) in lines {
            if index >= MAX_LINES || result.len >= MAX_LINES {
                return Err(LinesError::TooMany);
            }
            if let Some(p) = previous {
                if index <= p {
                    return Err(LinesError::NotIncreasing);
                }
                result.shift[result.len - 1] = (index - p) as u32;
            }
            result.allowed[result.len] = allowed;
            result.len += 1;
            previous = Some(index);
        }
        Ok(result)
    }

    /// The number of lines.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no line to fill.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The state before the first line.
    pub fn root(&self) -> State {
        State::default()
    }

    /// The positions still open on the next line of `state`.
    fn open(&self, state: &State) -> u64 {
        self.allowed[state.depth.min(MAX_LINES)] & !(state.taken | state.down | state.up)
    }

    /// The states one line further, in increasing order of the position taken.
    pub fn children(&self, state: State) -> impl Iterator<Item = State> + '_ {
        let mut open = if state.depth < self.len {
            self.open(&state)
        } else {
            0
        };
        let shift = self.shift[state.depth.min(MAX_LINES)];
        std::iter::from_fn(move || {
            if open == 0 {
                return None;
            }
            let bit = open & open.wrapping_neg();
            open ^= bit;
            Some(State {
                depth: state.depth + 1,
                taken: state.taken | bit,
                down: (state.down | bit) << shift,
                up: (state.up | bit) >> shift,
            })
        })
    }

    /// The number of ways to fill the lines from `start` on, or `None` when `control` said stop.
    pub fn count(&self, start: State, control: &Control) -> Option<u64> {
        let len = self.len;
        let first = start.depth;
        if first >= len {
            return Some(1);
        }
        let open = self.open(&start);
        if first + 1 == len {
            return Some(u64::from(open.count_ones()));
        }
        let last = len - 1;
        let mut todo = [0u64; MAX_LINES];
        let mut taken = [0u64; MAX_LINES];
        let mut down = [0u64; MAX_LINES];
        let mut up = [0u64; MAX_LINES];
        let mut depth = first;
        todo[depth] = open;
        taken[depth] = start.taken;
        down[depth] = start.down;
        up[depth] = start.up;
        let mut total = 0u64;
        let mut until_check = CHECK_EVERY;
        loop {
            let candidates = todo[depth];
            if candidates == 0 {
                if depth == first {
                    return Some(total);
                }
                depth -= 1;
                continue;
            }
            let bit = candidates & candidates.wrapping_neg();
            todo[depth] = candidates ^ bit;
            let shift = self.shift[depth];
            let t = taken[depth] | bit;
            let d = (down[depth] | bit) << shift;
            let u = (up[depth] | bit) >> shift;
            let next = self.allowed[depth + 1] & !(t | d | u);
            if depth + 1 == last {
                // At most one position is left for the last line (see the module docs).
                debug_assert!(next.count_ones() <= 1);
                total += u64::from(next != 0);
                continue;
            }
            if next != 0 {
                depth += 1;
                todo[depth] = next;
                taken[depth] = t;
                down[depth] = d;
                up[depth] = u;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_classic_boards() {
        for (n, expected) in [(4usize, 2u64), (5, 10), (6, 4), (8, 92), (10, 724)] {
            let all = (1u64 << n) - 1;
            let lines = Lines::new((0..n).map(|i| (i, all))).unwrap();
            assert_eq!(lines.count(lines.root(), &Control::new()), Some(expected));
            let split: u64 = lines
                .children(lines.root())
                .flat_map(|s| lines.children(s))
                .map(|s| lines.count(s, &Control::new()).unwrap())
                .sum();
            assert_eq!(split, expected);
        }
    }

    #[test]
    fn a_given_queen_skips_its_line() {
        // 8x8 with a queen on row 0 of line 0: the other seven lines, its attacks removed.
        let attacked = |line: usize| 1u64 | (1 << line);
        let lines = Lines::new((1..8).map(|i| (i, 0xfe & !attacked(i)))).unwrap();
        assert_eq!(lines.count(lines.root(), &Control::new()), Some(4));
    }

    #[test]
    fn bad_sequences_are_refused() {
        assert_eq!(Lines::new([(3, 1), (3, 1)]), Err(LinesError::NotIncreasing));
        assert_eq!(Lines::new([(64, 1)]), Err(LinesError::TooMany));
        let empty = Lines::new([]).unwrap();
        assert!(empty.is_empty());
        assert_eq!(empty.count(empty.root(), &Control::new()), Some(1));
        assert_eq!(empty.children(empty.root()).count(), 0);
    }

    #[test]
    fn a_stopped_control_stops_a_long_count() {
        let control = Control::new();
        control.stop();
        let all = (1u64 << 14) - 1;
        let lines = Lines::new((0..14).map(|i| (i, all))).unwrap();
        assert_eq!(lines.count(lines.root(), &control), None);
    }
}

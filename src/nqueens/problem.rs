//! What `nqueens` counts, lists and weighs: a board side and the queens given on it, checked
//! (on the board, no two attacking each other), and the limits of its inputs.

use std::fmt;
use std::str::FromStr;

use crate::core::Square;
use crate::core::placements::{self, Constraints};

/// The largest board side of every `nqueens` command.
pub const MAX_N: usize = placements::MAX_N;

/// A queen given on the command line: 1-based row and column, not yet checked against a board.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct Fix {
    /// Row from the top, from 1.
    pub row: u64,
    /// Column from the left, from 1.
    pub col: u64,
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// Reads `ROW,COL` (1-based).
impl FromStr for Fix {
    type Err = String;

    fn from_str(s: &str) -> Result<Fix, String> {
        let bad = || format!("expected ROW,COL (two numbers from 1, e.g. 3,5), found '{s}'");
        let (row, col) = s.split_once(',').ok_or_else(bad)?;
        let number = |t: &str| {
            let t = t.trim();
            (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<u64>().ok())
                .flatten()
        };
        match (number(row), number(col)) {
            (Some(row), Some(col)) => Ok(Fix { row, col }),
            _ => Err(bad()),
        }
    }
}

/// Why a board side and given queens make no problem.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemError {
    /// The side is 0 or above [`MAX_N`].
    #[error("expected a board side 1..{MAX_N}, found {0}")]
    BadSide(u64),
    /// A given queen lies outside the board (rows and columns count from 1).
    #[error("queen {0} lies outside the {1}x{1} board (rows and columns 1..{1})")]
    Outside(Fix, u64),
    /// A square is given twice.
    #[error("queen {0} is given twice")]
    Repeated(Fix),
    /// Two given queens attack each other.
    #[error("queens {0} and {1} attack each other")]
    Attacking(Fix, Fix),
}

/// A board side and the queens every placement must contain, checked for consistency.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Problem {
    given: Vec<Square>,
    constraints: Constraints,
}

impl Problem {
    /// Checks the side and the given queens (1-based, in the order given).
    pub fn new(n: u64, fixes: &[Fix]) -> Result<Problem, ProblemError> {
        if n == 0 || n > MAX_N as u64 {
            return Err(ProblemError::BadSide(n));
        }
        let on_board = |v: u64| (1..=n).contains(&v);
        let mut given = Vec::with_capacity(fixes.len().min(MAX_N * MAX_N));
        for (i, &fix) in fixes.iter().enumerate() {
            if !on_board(fix.row) || !on_board(fix.col) {
                return Err(ProblemError::Outside(fix, n));
            }
            for &other in &fixes[..i] {
                if other == fix {
                    return Err(ProblemError::Repeated(fix));
                }
                let (dr, dc) = (other.row.abs_diff(fix.row), other.col.abs_diff(fix.col));
                if dr == 0 || dc == 0 || dr == dc {
                    return Err(ProblemError::Attacking(other, fix));
                }
            }
            // Both are at most MAX_N = 64 here.
            given.push(Square::new((fix.row - 1) as u8, (fix.col - 1) as u8));
        }
        let constraints = Constraints::new(n as usize, &given).map_err(|_| {
            // Every reason the core could have was checked above.
            ProblemError::BadSide(n)
        })?;
        Ok(Problem { given, constraints })
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.constraints.n()
    }

    /// The given queens (0-based), in the order given.
    pub fn given(&self) -> &[Square] {
        &self.given
    }

    /// The per-column masks of the shared backtracker.
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }
}

/// The largest weight `nqueens best` reads.
pub const MAX_WEIGHT: u64 = u32::MAX as u64;

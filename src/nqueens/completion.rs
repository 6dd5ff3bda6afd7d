//! Counting the completions of given queens on any board up to 64x64, in parallel.
//!
//! The given queens are placed first; the rest is counted by forward checking with
//! fewest-open-row branching (`forward`), split into enough independent
//! subtrees to keep every thread busy. A 64x64 board (one bit too many for the lanes) is
//! counted by the plain [`backtrack`](super::backtrack) kernel instead, the board turned so
//! that the search meets the given queens early.
//!
//! ```
//! use chess_puzzles::nqueens::{completion, Control, Fix, Problem};
//!
//! let problem = Problem::new(8, &[Fix { row: 1, col: 1 }]).unwrap();
//! assert_eq!(completion::count(&problem, &Control::new()), Some(4));
//! ```

use rayon::prelude::*;

use crate::core::Square;
use crate::core::placements::Constraints;

use super::backtrack::{Lines, State};
use super::control::Control;
use super::count_all::split;
use super::forward::{Board, Lane};
use super::problem::Problem;

/// Subtrees wanted per search before the counting starts (enough for work stealing to even out
/// very uneven subtrees on a few cores).
const TASKS: usize = 1024;

/// The number of placements of `problem` (its given queens included), or `None` when `control`
/// said stop. Counts on the current rayon pool and reports its subtrees to `control`.
pub fn count(problem: &Problem, control: &Control) -> Option<u128> {
    match problem.n() {
        ..=8 => count_forward::<u32, 8>(problem, control),
        9..=16 => count_forward::<u32, 16>(problem, control),
        17..=24 => count_forward::<u32, 24>(problem, control),
        25..=31 => count_forward::<u32, 32>(problem, control),
        32..=63 => count_forward::<u64, 64>(problem, control),
        _ => count_plain(problem, control),
    }
}

/// [`count`] by forward checking, `L` lanes of type `T`.
fn count_forward<T: Lane, const L: usize>(problem: &Problem, control: &Control) -> Option<u128> {
    let board = Board::<T, L>::new(problem.n())?;
    let queens: Vec<(usize, usize)> = problem
        .given()
        .iter()
        .map(|s| (usize::from(s.row), usize::from(s.col)))
        .collect();
    let left = problem.n() - queens.len();
    let Some((open, taken)) = board.start(board.empty(), &queens) else {
        // The given queens leave a row or a column with nowhere to go.
        return Some(0);
    };
    let no_ties = [T::ZERO; L];
    let root = board.frame(open, taken, 0, left);
    let tasks = split(&board, std::iter::once((0, root)), |_| &no_ties, TASKS);
    control.add_total(tasks.len() as u64);
    let counts: Option<Vec<u64>> = tasks
        .par_iter()
        .map(|&(_, frame)| {
            if control.should_stop() {
                return None;
            }
            let per_ties = board.count(frame, &no_ties, control)?;
            control.add_done(1);
            Some(per_ties[0])
        })
        .collect();
    counts.map(|c| c.iter().map(|&x| u128::from(x)).sum())
}

/// [`count`] by the plain kernel (the 64x64 board).
fn count_plain(problem: &Problem, control: &Control) -> Option<u128> {
    let lines = best_orientation(problem);
    let mut frontier = vec![lines.root()];
    while frontier.len() < TASKS && frontier.first().is_some_and(|s| s.depth + 1 < lines.len()) {
        frontier = frontier
            .iter()
            .flat_map(|&s| lines.children(s))
            .collect::<Vec<State>>();
    }
    control.add_total(frontier.len() as u64);
    let counts: Option<Vec<u64>> = frontier
        .par_iter()
        .map(|&state| {
            if control.should_stop() {
                return None;
            }
            let c = lines.count(state, control);
            control.add_done(1);
            c
        })
        .collect();
    counts.map(|c| c.iter().map(|&x| u128::from(x)).sum())
}

/// The search lines of the board turned the way that looks cheapest to search.
fn best_orientation(problem: &Problem) -> Lines {
    let n = problem.n();
    let flip = |v: u8| (n - 1 - usize::from(v)) as u8;
    // Mirroring along the lines changes nothing for the search; these four turns give every
    // order in which the lines can be met (left to right, right to left, top down, bottom up).
    let turn = |k: usize, s: Square| match k {
        0 => s,
        1 => Square::new(s.row, flip(s.col)),
        2 => Square::new(s.col, s.row),
        _ => Square::new(s.col, flip(s.row)),
    };
    let mut best = lines_of(problem.constraints(), problem.given());
    for k in 1..4 {
        let turned: Vec<Square> = problem.given().iter().map(|&s| turn(k, s)).collect();
        // The turned queens are as consistent as the originals, so this cannot fail.
        if let Ok(constraints) = Constraints::new(n, &turned) {
            let candidate = lines_of(&constraints, &turned);
            if candidate.0 < best.0 {
                best = candidate;
            }
        }
    }
    best.1
}

/// The free lines (columns) of `constraints` and the estimated cost of searching them.
fn lines_of(constraints: &Constraints, given: &[Square]) -> (u64, Lines) {
    let free: Vec<(usize, u64)> = constraints
        .allowed()
        .iter()
        .enumerate()
        .filter(|&(line, _)| given.iter().all(|s| usize::from(s.col) != line))
        .map(|(line, &mask)| (line, mask))
        .collect();
    let cost = estimated_cost(&free, constraints.n());
    // At most 64 increasing columns: always a valid sequence.
    let lines = Lines::new(free).unwrap_or_else(|_| unreachable!("columns of a board <= 64"));
    (cost, lines)
}

/// A rough size of the search tree: the sum over depths of the product of the open positions
/// of the lines so far, each scaled by the chance (about 1/2 per line at the start) that a
/// position survives the queens before it. Only used to compare orientations.
fn estimated_cost(free: &[(usize, u64)], n: usize) -> u64 {
    let mut product = 1f64;
    let mut total = 0f64;
    for (depth, &(_, mask)) in free.iter().enumerate() {
        let survive = (1.0 - depth as f64 / n.max(1) as f64).max(0.05);
        product *= f64::from(mask.count_ones()) * survive;
        total += product;
    }
    total.min(u64::MAX as f64 / 2.0) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placements;
    use crate::nqueens::Fix;

    fn brute(n: usize, given: &[(u64, u64)]) -> u128 {
        placements::all(n)
            .iter()
            .filter(|p| {
                given
                    .iter()
                    .all(|&(r, c)| u64::from(p[(c - 1) as usize]) + 1 == r)
            })
            .count() as u128
    }

    #[test]
    fn both_kernels_agree() {
        for (n, given) in [(9u64, vec![(1u64, 2u64)]), (10, vec![(4, 4), (9, 1)])] {
            let fixes: Vec<Fix> = given.iter().map(|&(row, col)| Fix { row, col }).collect();
            let p = Problem::new(n, &fixes).unwrap();
            assert_eq!(
                count_plain(&p, &Control::new()),
                Some(brute(n as usize, &given))
            );
            assert_eq!(
                count_forward::<u64, 64>(&p, &Control::new()),
                Some(brute(n as usize, &given))
            );
        }
    }

    #[test]
    fn counts_with_queens_in_every_corner_region() {
        for n in 4..=8usize {
            for &given in &[
                &[(1u64, 2u64)][..],
                &[(2, 1)],
                &[(n as u64, 3)],
                &[(3, n as u64)],
                &[(1, 2), (n as u64, 3)],
            ] {
                let fixes: Vec<Fix> = given.iter().map(|&(row, col)| Fix { row, col }).collect();
                match Problem::new(n as u64, &fixes) {
                    Ok(p) => assert_eq!(count(&p, &Control::new()), Some(brute(n, given))),
                    Err(_) => assert_eq!(brute(n, given), 0),
                }
            }
        }
    }
}

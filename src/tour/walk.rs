//! A learner's own tour, checked move by move: the web board's "try it yourself" on the
//! Traveling Queen. Each move is checked by the statement's rules ([`check_move`]); each stop
//! says which knights it visits for the first time; the walk stops at the first illegal move
//! and says why. Whether the walk is a whole tour is [`Walk::complete`]; the shortest tour to
//! compare it with is the search's ([`Solver`](super::Solver)).
//!
//! ```
//! use chess_puzzles::tour::walk::walk;
//! use chess_puzzles::tour::{Scenario, parse_square_name};
//!
//! let board = ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n";
//! let scenario = Scenario::parse(board).unwrap();
//! let moves: Vec<_> = ["h2", "e5", "d4", "b2"].iter().map(|m| parse_square_name(m).unwrap()).collect();
//! let w = walk(&scenario, &moves);
//! assert!(w.complete());
//! assert_eq!(w.stops.len(), 5); // the start and four moves
//! ```

use super::{Scenario, check_move};
use crate::core::Square;

/// One square the queen stands on, and the knights it visits that no earlier stop visited.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Stop {
    /// Where she stands.
    pub square: Square,
    /// The knights next to this square that no earlier stop was next to, in board order.
    pub knights: Vec<Square>,
}

/// The first move that breaks the rules.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Illegal {
    /// Its number, from 1 (the first move).
    pub index: usize,
    /// Where it went.
    pub square: Square,
    /// Why it breaks the rules ([`check_move`]'s words).
    pub why: String,
}

/// A learner's moves, checked.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Walk {
    /// The start, then each legal move's square (up to the first illegal one).
    pub stops: Vec<Stop>,
    /// The first illegal move, if any (the moves after it are not looked at).
    pub illegal: Option<Illegal>,
    /// The knights no stop is next to, in board order.
    pub unvisited: Vec<Square>,
    /// Whether the last stop is next to the bishop.
    pub next_to_bishop: bool,
}

impl Walk {
    /// The legal moves made (the stops less the start).
    pub fn moves(&self) -> usize {
        self.stops.len() - 1
    }

    /// Whether the walk is a tour: every move legal, every knight visited, and the last stop
    /// next to the bishop.
    pub fn complete(&self) -> bool {
        self.illegal.is_none() && self.unvisited.is_empty() && self.next_to_bishop
    }
}

/// Walks the queen from her square through `moves` (each the square a move goes to), checking
/// each move, up to the first that breaks the rules.
pub fn walk(scenario: &Scenario, moves: &[Square]) -> Walk {
    let mut visited = vec![false; scenario.knights().len()];
    let mut visit = |at: Square| -> Vec<Square> {
        let mut new = Vec::new();
        for (seen, &k) in visited.iter_mut().zip(scenario.knights()) {
            if !*seen && at.is_neighbour(k) {
                *seen = true;
                new.push(k);
            }
        }
        new
    };
    let start = scenario.queen();
    let mut stops = vec![Stop {
        square: start,
        knights: visit(start),
    }];
    let mut illegal = None;
    let mut at = start;
    for (i, &to) in moves.iter().enumerate() {
        if let Err(why) = check_move(scenario, at, to) {
            illegal = Some(Illegal {
                index: i + 1,
                square: to,
                why,
            });
            break;
        }
        stops.push(Stop {
            square: to,
            knights: visit(to),
        });
        at = to;
    }
    let unvisited = scenario
        .knights()
        .iter()
        .zip(&visited)
        .filter(|&(_, &seen)| !seen)
        .map(|(&k, _)| k)
        .collect();
    Walk {
        stops,
        illegal,
        unvisited,
        next_to_bishop: at.is_neighbour(scenario.bishop()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    use crate::tour::{Solver, check_path, parse_square_name, random};

    fn sample() -> Scenario {
        Scenario::parse(
            ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n",
        )
        .unwrap()
    }

    fn squares(names: &[&str]) -> Vec<Square> {
        names
            .iter()
            .map(|n| parse_square_name(n).unwrap())
            .collect()
    }

    #[test]
    fn the_sample_tour_is_complete_and_names_its_knights() {
        let w = walk(&sample(), &squares(&["h2", "e5", "d4", "b2"]));
        assert!(w.complete());
        assert_eq!(w.moves(), 4);
        let knights: Vec<Vec<Square>> = w.stops.iter().map(|s| s.knights.clone()).collect();
        // e5 is next to the knight on e6, d4 next to the one on c5.
        assert_eq!(
            knights,
            vec![vec![], vec![], squares(&["e6"]), squares(&["c5"]), vec![]]
        );
    }

    #[test]
    fn an_illegal_move_stops_the_walk() {
        let w = walk(&sample(), &squares(&["h2", "h1", "a7", "b2"]));
        assert_eq!(w.stops.len(), 3);
        let illegal = w.illegal.clone().unwrap();
        assert_eq!(illegal.index, 3);
        assert_eq!(illegal.why, "h1 to a7 is not a queen move");
        assert!(!w.complete());
        assert_eq!(w.unvisited, squares(&["e6", "c5"]));
    }

    #[test]
    fn an_unfinished_walk_is_not_a_tour() {
        let w = walk(&sample(), &squares(&["h2", "e5"]));
        assert!(w.illegal.is_none());
        assert_eq!(w.unvisited, squares(&["c5"]));
        assert!(!w.next_to_bishop);
        assert!(!w.complete());
    }

    /// On random boards, a walk along the search's shortest path is complete, and a walk is
    /// complete exactly when `check_path` accepts its path.
    #[test]
    fn agrees_with_check_path_on_random_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(47);
        let mut solver = Solver::new();
        let mut tours = 0;
        for _ in 0..200 {
            let scenario = random::scenario(&mut rng, 6, 10).unwrap();
            if let Some(path) = solver.solve(&scenario) {
                tours += 1;
                let w = walk(&scenario, &path[1..]);
                assert!(w.complete(), "{scenario:?}");
                assert_eq!(w.moves(), path.len() - 1);
            }
            // Random moves: legal ones go on, the first illegal one stops the walk.
            let moves: Vec<Square> = (0..6)
                .map(|_| Square::new(rng.random_range(0..8u8), rng.random_range(0..8u8)))
                .collect();
            let w = walk(&scenario, &moves);
            let legal = w.illegal.as_ref().map_or(moves.len(), |i| i.index - 1);
            let path: Vec<Square> = std::iter::once(scenario.queen())
                .chain(moves[..legal].iter().copied())
                .collect();
            if w.illegal.is_none() {
                assert_eq!(w.complete(), check_path(&scenario, &path).is_ok());
            }
            if let Some(i) = &w.illegal {
                let mut longer = path.clone();
                longer.push(i.square);
                assert!(check_path(&scenario, &longer).is_err());
            }
        }
        assert!(tours > 20, "{tours} boards with a tour");
    }
}

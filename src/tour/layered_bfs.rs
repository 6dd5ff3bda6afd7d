//! Breadth-first search over (square, visited knights) states, one whole layer of squares per
//! set of visited knights at a time, then a backward marking pass and a greedy first-path walk.
//!
//! A state is the queen's square and the set of knights visited so far (a bit mask, the knights
//! touched by the start square included). Layer `d` holds, for each mask, the bitboard of the
//! squares first reached with that mask after `d` moves; only non-empty pairs are stored.
//!
//! - **Forward.** One [Kogge-Stone fill](crate::core::kogge_stone) of a pair's bitboard gives
//!   every square one move away from any of its squares. Those that touch no knight outside the
//!   mask keep the mask (one AND); each of the others adds the knights it touches. Before a
//!   layer is built, a cheap test says whether it would hold a goal (every knight visited, next
//!   to the bishop); if so only the goal states are made and the search stops: that layer's
//!   depth `D` is the fewest moves.
//! - **Backward.** From the goal states down, the predecessors in layer `d` of the states kept in
//!   layer `d + 1` are kept: every one of them lies on a path of exactly `D` moves. Queen moves
//!   are symmetric, so the squares one move before a set are the same fill. The kept states are
//!   few, so this pass costs little next to the forward one.
//! - **Walk.** From the start, the lexicographically first kept successor at every move gives
//!   the lexicographically first of the shortest paths (all of them have `D + 1` squares, so
//!   the first square that differs decides).
//!
//! Memory: two dense arrays of one bitboard per mask (`16 * 2^k` bytes for `k` knights) and the
//! layers (12 bytes per non-empty `(layer, mask)` pair).

use crate::core::{Bitboard, CLASSIC, Square};

use super::{Scenario, lex_rank};

/// The search, with its buffers kept from one scenario to the next.
#[derive(Debug, Default)]
pub struct Solver {
    /// Per mask: the squares reached with it in the layers so far. The backward pass removes
    /// the layers above the one it works on.
    visited: Vec<u64>,
    /// Per mask: the squares of the layer being built (forward) or the kept predecessors
    /// (backward); zero between uses.
    scratch: Vec<u64>,
    /// The masks with a non-zero `scratch` entry.
    touched: Vec<u32>,
    /// All layers one after the other: mask and squares of each non-empty pair.
    masks: Vec<u32>,
    squares: Vec<u64>,
    /// Where each layer starts in `masks`/`squares`, plus the end of the last one.
    layer_start: Vec<usize>,
    /// The kept states of all layers, and for each layer its range in `kept`.
    kept: Vec<(u32, u64)>,
    kept_range: Vec<(usize, usize)>,
}

/// One layer of the breadth-first search: the states (a square and the set of knights visited
/// on the way) first reached after `moves` moves. The last layer of a scenario with a tour
/// holds its goal states only: the squares next to the bishop reached with every knight
/// visited.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Layer {
    /// The number of moves.
    pub moves: usize,
    /// The squares of the layer's states.
    pub squares: Bitboard,
    /// How many states: pairs of a square and a set of knights visited.
    pub states: u64,
    /// The knights visited by some state of the layer, one bit per knight (in the order of
    /// [`Scenario::knights`]).
    pub knights: u32,
    /// The most knights any one state of the layer has visited.
    pub most_knights: u32,
}

/// What the passes share about one scenario.
struct Board {
    /// The squares the queen can stand on and cross: the empty squares she can reach.
    open: u64,
    /// Per square: the knights it touches, one bit per knight.
    touch: [u32; 64],
    /// Per knight: the squares of `open` that touch it.
    near_knight: Vec<u64>,
    /// Every knight.
    all: u32,
    /// The squares of `open` next to the bishop.
    goal: u64,
    /// The squares one move away from a goal square.
    before_goal: u64,
    /// The knights touched by some goal square.
    goal_knights: u32,
}

impl Board {
    fn new(scenario: &Scenario) -> Option<Board> {
        let start = Bitboard::from_square(scenario.queen());
        let region = start.flood(!scenario.blockers());
        let knights = scenario.knights();
        let mut touch = [0u32; 64];
        let mut near_knight = Vec::with_capacity(knights.len());
        for (i, &k) in knights.iter().enumerate() {
            let near = Bitboard::neighbours(k) & region;
            if near.is_empty() {
                return None;
            }
            for sq in near.iter() {
                touch[sq.index(CLASSIC)] |= 1 << i;
            }
            near_knight.push(near.0);
        }
        let goal = Bitboard::neighbours(scenario.bishop()) & region;
        if goal.is_empty() {
            return None;
        }
        let goal_knights = goal
            .iter()
            .fold(0, |acc, sq| acc | touch[sq.index(CLASSIC)]);
        Some(Board {
            open: region.0,
            touch,
            near_knight,
            all: ((1u64 << knights.len()) - 1) as u32,
            goal: goal.0,
            before_goal: goal.queen_fill(region).0,
            goal_knights,
        })
    }

    /// The knights a square touches.
    #[inline(always)]
    fn touch(&self, square: u32) -> u32 {
        self.touch[(square & 63) as usize]
    }

    /// Every square one move from a square of `from`.
    #[inline(always)]
    fn moves(&self, from: u64) -> u64 {
        Bitboard(from).queen_fill(Bitboard(self.open)).0
    }

    /// Splits `reach`, the squares one move from states with `mask`, by the knights they add:
    /// calls `add(new mask, squares)` for each group (possibly with no squares).
    #[inline(always)]
    fn split(&self, mask: u32, reach: u64, mut add: impl FnMut(u32, u64)) {
        // The squares near exactly one missing knight go to that knight in one AND each; the
        // few near two or more missing knights go one by one.
        let mut missing = self.all & !mask;
        let (mut near, mut crowded) = (0, 0);
        while missing != 0 {
            let k = self.near_knight[missing.trailing_zeros() as usize];
            crowded |= near & k;
            near |= k;
            missing &= missing - 1;
        }
        add(mask, reach & !near);
        let single = reach & near & !crowded;
        if single != 0 {
            let mut missing = self.all & !mask;
            while missing != 0 {
                let i = missing.trailing_zeros();
                add(mask | 1 << i, single & self.near_knight[i as usize]);
                missing &= missing - 1;
            }
        }
        for sq in bits(reach & crowded) {
            add(mask | self.touch(sq), 1 << sq);
        }
    }
}

/// The bits of a word, lowest first.
#[inline(always)]
fn bits(mut word: u64) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (word != 0).then(|| {
            let i = word.trailing_zeros();
            word &= word - 1;
            i
        })
    })
}

fn square(i: u32) -> Square {
    Square::new((i / 8) as u8, (i % 8) as u8)
}

impl Solver {
    /// A solver with empty buffers.
    pub fn new() -> Solver {
        Solver::default()
    }

    /// The squares the queen stands on along the lexicographically first of the shortest paths
    /// (start square first), or `None` when no path visits every knight and ends next to the
    /// bishop.
    pub fn solve(&mut self, scenario: &Scenario) -> Option<Vec<Square>> {
        let board = Board::new(scenario)?;
        let start = scenario.queen();
        let start_mask = board.touch(start.index(CLASSIC) as u32);
        let depth = self.forward(&board, Bitboard::from_square(start).0, start_mask)?;
        self.backward(&board, depth);
        Some(self.walk(&board, start, start_mask, depth))
    }

    /// [`Solver::solve`], and the layers of its breadth-first search (what was first reached
    /// after each number of moves, see [`Layer`]): the search as the web board shows it and
    /// `tour --trace` writes it. When some knight or the bishop has no neighbour the queen
    /// can reach, the search does not start and there is no layer.
    pub fn solve_with_layers(&mut self, scenario: &Scenario) -> (Option<Vec<Square>>, Vec<Layer>) {
        let Some(board) = Board::new(scenario) else {
            return (None, Vec::new());
        };
        let start = scenario.queen();
        let start_mask = board.touch(start.index(CLASSIC) as u32);
        let depth = self.forward(&board, Bitboard::from_square(start).0, start_mask);
        let layers = self.layers();
        let path = depth.map(|depth| {
            self.backward(&board, depth);
            self.walk(&board, start, start_mask, depth)
        });
        (path, layers)
    }

    /// The layers stored by the last forward pass.
    fn layers(&self) -> Vec<Layer> {
        self.layer_start
            .windows(2)
            .enumerate()
            .map(|(moves, w)| {
                let (from, to) = (w[0], w[1].min(self.masks.len()));
                let mut layer = Layer {
                    moves,
                    squares: Bitboard(0),
                    states: 0,
                    knights: 0,
                    most_knights: 0,
                };
                for i in from..to {
                    layer.squares = Bitboard(layer.squares.0 | self.squares[i]);
                    layer.states += u64::from(self.squares[i].count_ones());
                    layer.knights |= self.masks[i];
                    layer.most_knights = layer.most_knights.max(self.masks[i].count_ones());
                }
                layer
            })
            .collect()
    }

    /// Builds the layers until the next one would hold a goal state; returns the depth of the
    /// goal layer, whose goal states are then the only stored pairs of that layer (all with the
    /// full mask), or `None` when the reachable states run out first.
    fn forward(&mut self, board: &Board, start: u64, start_mask: u32) -> Option<usize> {
        let size = board.all as usize + 1;
        for dense in [&mut self.visited, &mut self.scratch] {
            dense.clear();
            dense.resize(size, 0);
        }
        self.touched.clear();
        self.masks.clear();
        self.squares.clear();
        self.layer_start.clear();

        self.layer_start.push(0);
        self.masks.push(start_mask);
        self.squares.push(start);
        self.visited[start_mask as usize] = start;
        self.layer_start.push(1);
        if start_mask == board.all && start & board.goal != 0 {
            return Some(0);
        }
        let mut depth = 0;
        loop {
            let (from, to) = (self.layer_start[depth], self.layer_start[depth + 1]);
            let goals = self.goals_after(board, from, to);
            if goals != 0 {
                self.masks.push(board.all);
                self.squares.push(goals);
                self.layer_start.push(self.masks.len());
                return Some(depth + 1);
            }
            for i in from..to {
                let (mask, reach) = (self.masks[i], board.moves(self.squares[i]));
                board.split(mask, reach, |m, squares| self.add(m as usize, squares));
            }
            for &m in &self.touched {
                let m = m as usize;
                let new = self.scratch[m] & !self.visited[m];
                self.scratch[m] = 0;
                if new != 0 {
                    self.visited[m] |= new;
                    self.masks.push(m as u32);
                    self.squares.push(new);
                }
            }
            self.touched.clear();
            depth += 1;
            let end = self.masks.len();
            if end == self.layer_start[depth] {
                return None;
            }
            self.layer_start.push(end);
        }
    }

    /// Adds squares to the layer being built.
    #[inline(always)]
    fn add(&mut self, mask: usize, squares: u64) {
        if squares != 0 {
            let slot = &mut self.scratch[mask];
            if *slot == 0 {
                self.touched.push(mask as u32);
            }
            *slot |= squares;
        }
    }

    /// The goal squares one move from the pairs `from..to` (a layer): squares next to the
    /// bishop reached with every knight visited. Goal states are never reached twice: the
    /// search stops at the first layer that has one.
    fn goals_after(&self, board: &Board, from: usize, to: usize) -> u64 {
        let mut goals = 0;
        for i in from..to {
            let (mask, squares) = (self.masks[i], self.squares[i]);
            if squares & board.before_goal == 0 || mask | board.goal_knights != board.all {
                continue;
            }
            for sq in bits(board.moves(squares) & board.goal) {
                if mask | board.touch(sq) == board.all {
                    goals |= 1 << sq;
                }
            }
        }
        goals
    }

    /// Keeps, layer by layer from `depth` down, the states from which a goal is reached in the
    /// remaining moves: the predecessors of the states kept one layer up.
    fn backward(&mut self, board: &Board, depth: usize) {
        self.kept.clear();
        self.kept_range.clear();
        self.kept_range.resize(depth + 1, (0, 0));
        let top = self.layer_start[depth];
        self.kept.push((board.all, self.squares[top]));
        self.kept_range[depth] = (0, 1);
        for d in (0..depth).rev() {
            // `visited` must hold the layers up to `d` only (the goal layer never was in it).
            if d + 1 < depth {
                for i in self.layer_start[d + 1]..self.layer_start[d + 2] {
                    self.visited[self.masks[i] as usize] &= !self.squares[i];
                }
            }
            let (from, to) = self.kept_range[d + 1];
            for k in from..to {
                let (mask, squares) = self.kept[k];
                for sq in bits(squares) {
                    let before = board.moves(1 << sq);
                    let touched = board.touch(sq) & mask;
                    let base = mask & !touched;
                    // Every predecessor mask: the kept mask less any part of what `sq` adds.
                    let mut part = touched;
                    loop {
                        let m = (base | part) as usize;
                        // A state of layer <= d one move from a state first reached in layer
                        // d + 1 is in layer d.
                        self.add(m, self.visited[m] & before);
                        if part == 0 {
                            break;
                        }
                        part = (part - 1) & touched;
                    }
                }
            }
            let first = self.kept.len();
            for &m in &self.touched {
                self.kept.push((m, self.scratch[m as usize]));
                self.scratch[m as usize] = 0;
            }
            self.touched.clear();
            self.kept_range[d] = (first, self.kept.len());
        }
    }

    /// Walks from the start, taking the lexicographically first kept successor at every move.
    fn walk(&self, board: &Board, start: Square, start_mask: u32, depth: usize) -> Vec<Square> {
        let mut path = Vec::with_capacity(depth + 1);
        path.push(start);
        let (mut at, mut mask) = (start.index(CLASSIC) as u32, start_mask);
        for d in 1..=depth {
            let reach = board.moves(1 << at);
            let mut best: Option<(u8, u32, u32)> = None;
            let (from, to) = self.kept_range[d];
            for &(m, squares) in &self.kept[from..to] {
                for sq in bits(squares & reach) {
                    let rank = lex_rank(square(sq));
                    if mask | board.touch(sq) == m && best.is_none_or(|(r, _, _)| rank < r) {
                        best = Some((rank, sq, m));
                    }
                }
            }
            // A kept state has a kept successor: that is why it was kept.
            let Some((_, sq, m)) = best else {
                break;
            };
            path.push(square(sq));
            at = sq;
            mask = m;
        }
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_are_listed_lowest_first() {
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
        assert_eq!(bits(0).count(), 0);
        assert_eq!(bits(u64::MAX).count(), 64);
    }

    #[test]
    fn the_layers_are_the_breadth_first_search_of_the_sample() {
        let s = Scenario::parse(
            ".......Q\n...P.P..\n...PNP..\n..NP.P..\n........\n........\n..B.....\n........\n",
        )
        .unwrap();
        let mut solver = Solver::new();
        let (path, layers) = solver.solve_with_layers(&s);
        assert_eq!(path, solver.solve(&s));
        let path = path.unwrap();
        // One layer per move count, the start alone first, the goal last.
        assert_eq!(layers.len(), path.len());
        assert_eq!(layers[0].squares, Bitboard::from_square(s.queen()));
        assert_eq!(layers[0].states, 1);
        let last = layers.last().unwrap();
        assert!(last.squares.contains(*path.last().unwrap()));
        assert_eq!(last.most_knights, 2);
        // Every square of the path is in the layer of its move count, and a square is in
        // layer d only if the queen can reach it in d moves from the start (the union over
        // visited sets of a plain breadth-first search of the squares).
        for (d, sq) in path.iter().enumerate() {
            assert!(layers[d].squares.contains(*sq), "move {d}");
        }
        let open = !s.blockers();
        let mut reach = Bitboard::from_square(s.queen());
        for layer in &layers[1..] {
            reach = Bitboard(reach.0 | reach.queen_fill(open).0);
            assert_eq!(layer.squares.0 & !reach.0, 0, "layer {}", layer.moves);
        }
    }

    #[test]
    fn a_board_without_a_reachable_knight_neighbour_is_refused_early() {
        let s = Scenario::parse(
            "Q.......\n........\n........\n........\n........\n......PP\n......PN\n.....BPP\n",
        )
        .unwrap();
        assert!(Board::new(&s).is_none());
        assert_eq!(Solver::new().solve(&s), None);
        assert_eq!(Solver::new().solve_with_layers(&s), (None, Vec::new()));
    }
}

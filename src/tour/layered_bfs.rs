//! Breadth-first search over (square, visited knights) states, one whole layer of squares per
//! set of visited knights at a time, with a backward marking pass and a greedy first-path walk.
//!
//! A state is the queen's square and the set of knights visited so far (a bit mask). Layer `d`
//! holds, for each mask, the bitboard of squares first reached with that mask after `d` moves.
//! One [Kogge-Stone fill](crate::core::kogge_stone) of a layer's bitboard gives every square
//! one move away from any of its squares. The empty squares fall into a few classes by the set
//! of knights they touch, so the successors split into `(mask | class knights, squares of
//! the class)` with one AND per class.
//!
//! The first layer with a state "all knights, next to the bishop" gives the fewest moves `D`.
//! The backward pass keeps, layer by layer from `D` down, the states from which such a goal is
//! `D - d` moves away (queen moves are symmetric, so "reaches a kept square" is the same fill).
//! Every kept state lies on a shortest path, so walking forward from the start and always
//! taking the lexicographically first kept successor gives the first shortest path.
//!
//! Memory: three dense arrays of one bitboard per mask (`24 * 2^k` bytes for `k` knights) and
//! the layers, stored sparsely (12 bytes per non-empty `(layer, mask)` pair).

use crate::core::{Bitboard, CLASSIC, Square};

use super::{Scenario, lex_rank};

/// A group of empty squares that touch the same knights.
#[derive(Copy, Clone, Debug)]
struct Class {
    /// The squares.
    squares: u64,
    /// The knights they touch, one bit per knight.
    knights: u32,
}

/// The search, with its buffers kept from one scenario to the next.
#[derive(Debug, Default)]
pub struct Solver {
    /// Per mask: the squares reached with it in any layer so far.
    visited: Vec<u64>,
    /// Per mask: the squares of the layer being built (forward), or of the kept states of
    /// the layer after the current one (backward and walk).
    scratch: Vec<u64>,
    /// The masks with a non-zero `scratch` entry.
    touched: Vec<u32>,
    /// All layers one after the other: masks and squares of each non-empty pair.
    masks: Vec<u32>,
    squares: Vec<u64>,
    /// Per pair: the squares kept by the backward pass.
    kept: Vec<u64>,
    /// Where each layer starts in `masks`/`squares`/`kept`, plus the end.
    layer_start: Vec<usize>,
}

/// The lexicographically first square of a non-empty set: the lowest file, then the lowest rank
/// (the highest row).
fn lex_first(set: u64) -> Option<Square> {
    const FILE: u64 = 0x0101_0101_0101_0101;
    (0..CLASSIC as u32).find_map(|col| {
        let on_file = set & (FILE << col);
        (on_file != 0).then(|| {
            let i = 63 - on_file.leading_zeros();
            Square::new((i / 8) as u8, (i % 8) as u8)
        })
    })
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
        let open = !scenario.blockers();
        let start = Bitboard::from_square(scenario.queen());
        let region = start.flood(open);
        let knights = scenario.knights();
        // A piece with no reachable neighbour makes the search pointless.
        if knights
            .iter()
            .chain([&scenario.bishop()])
            .any(|&k| (Bitboard::neighbours(k) & region).is_empty())
        {
            return None;
        }
        // Per square of the region: the knights it touches; then the classes.
        let mut touch = [0u32; 64];
        for (i, &k) in knights.iter().enumerate() {
            for sq in (Bitboard::neighbours(k) & region).iter() {
                touch[sq.index(CLASSIC)] |= 1 << i;
            }
        }
        let mut classes: Vec<Class> = Vec::new();
        for sq in region.iter() {
            let t = touch[sq.index(CLASSIC)];
            match classes.iter_mut().find(|c| c.knights == t) {
                Some(c) => c.squares |= Bitboard::from_square(sq).0,
                None => classes.push(Class {
                    squares: Bitboard::from_square(sq).0,
                    knights: t,
                }),
            }
        }
        let all: u32 = ((1u64 << knights.len()) - 1) as u32;
        let goal_squares = (Bitboard::neighbours(scenario.bishop()) & region).0;
        let region = region.0;

        let depth = self.forward(
            start.0,
            touch[scenario.queen().index(CLASSIC)],
            all,
            goal_squares,
            region,
            &classes,
        )?;
        self.backward(depth, all, goal_squares, region, &classes);
        Some(self.walk(
            scenario.queen(),
            touch[scenario.queen().index(CLASSIC)],
            depth,
            region,
            &classes,
        ))
    }

    /// Builds the layers until one holds a goal state; returns its depth, or `None` when the
    /// reachable states run out first.
    fn forward(
        &mut self,
        start: u64,
        start_mask: u32,
        all: u32,
        goal_squares: u64,
        open: u64,
        classes: &[Class],
    ) -> Option<usize> {
        let size = all as usize + 1;
        self.visited.clear();
        self.visited.resize(size, 0);
        self.scratch.clear();
        self.scratch.resize(size, 0);
        self.touched.clear();
        self.masks.clear();
        self.squares.clear();
        self.layer_start.clear();

        self.layer_start.push(0);
        self.masks.push(start_mask);
        self.squares.push(start);
        self.visited[start_mask as usize] = start;
        self.layer_start.push(1);
        if start_mask == all && start & goal_squares != 0 {
            return Some(0);
        }
        let mut depth = 0;
        loop {
            let (from, to) = (self.layer_start[depth], self.layer_start[depth + 1]);
            for i in from..to {
                let mask = self.masks[i];
                let reach = Bitboard(self.squares[i]).queen_fill(Bitboard(open)).0;
                for class in classes {
                    let x = reach & class.squares;
                    if x != 0 {
                        let m = (mask | class.knights) as usize;
                        if self.scratch[m] == 0 {
                            self.touched.push(m as u32);
                        }
                        self.scratch[m] |= x;
                    }
                }
            }
            let mut goal = false;
            for &m in &self.touched {
                let m = m as usize;
                let new = self.scratch[m] & !self.visited[m];
                self.scratch[m] = 0;
                if new != 0 {
                    self.visited[m] |= new;
                    self.masks.push(m as u32);
                    self.squares.push(new);
                    goal |= m == all as usize && new & goal_squares != 0;
                }
            }
            self.touched.clear();
            depth += 1;
            let end = self.masks.len();
            if end == self.layer_start[depth] {
                return None;
            }
            self.layer_start.push(end);
            if goal {
                return Some(depth);
            }
        }
    }

    /// Marks, layer by layer from `depth` down, the states a goal is reachable from in the
    /// remaining moves.
    fn backward(
        &mut self,
        depth: usize,
        all: u32,
        goal_squares: u64,
        open: u64,
        classes: &[Class],
    ) {
        self.kept.clear();
        self.kept.resize(self.masks.len(), 0);
        for i in self.layer_start[depth]..self.layer_start[depth + 1] {
            if self.masks[i] == all {
                self.kept[i] = self.squares[i] & goal_squares;
            }
        }
        for d in (0..depth).rev() {
            self.scatter_kept(d + 1);
            for i in self.layer_start[d]..self.layer_start[d + 1] {
                let mask = self.masks[i];
                let mut targets = 0;
                for class in classes {
                    targets |= self.scratch[(mask | class.knights) as usize] & class.squares;
                }
                if targets != 0 {
                    self.kept[i] = self.squares[i] & Bitboard(targets).queen_fill(Bitboard(open)).0;
                }
            }
            self.clear_kept(d + 1);
        }
    }

    /// Writes the kept squares of layer `d` into `scratch`, by mask.
    fn scatter_kept(&mut self, d: usize) {
        for i in self.layer_start[d]..self.layer_start[d + 1] {
            self.scratch[self.masks[i] as usize] = self.kept[i];
        }
    }

    /// Undoes [`Solver::scatter_kept`].
    fn clear_kept(&mut self, d: usize) {
        for i in self.layer_start[d]..self.layer_start[d + 1] {
            self.scratch[self.masks[i] as usize] = 0;
        }
    }

    /// Walks from the start, taking the lexicographically first kept successor at each move.
    fn walk(
        &mut self,
        start: Square,
        start_mask: u32,
        depth: usize,
        open: u64,
        classes: &[Class],
    ) -> Vec<Square> {
        let mut path = vec![start];
        let (mut at, mut mask) = (start, start_mask);
        for d in 1..=depth {
            self.scatter_kept(d);
            let reach = Bitboard::from_square(at).queen_fill(Bitboard(open)).0;
            let mut best: Option<(u8, Square, u32)> = None;
            for class in classes {
                let m = mask | class.knights;
                let options = reach & class.squares & self.scratch[m as usize];
                if let Some(sq) = lex_first(options) {
                    let rank = lex_rank(sq);
                    if best.is_none_or(|(r, _, _)| rank < r) {
                        best = Some((rank, sq, m));
                    }
                }
            }
            self.clear_kept(d);
            // The backward pass kept `(at, mask)` only because such a successor exists.
            let Some((_, sq, m)) = best else {
                break;
            };
            path.push(sq);
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
    fn lex_first_takes_the_lowest_file_then_the_lowest_rank() {
        let set: Bitboard = [Square::new(0, 1), Square::new(7, 1), Square::new(3, 2)]
            .into_iter()
            .collect();
        assert_eq!(lex_first(set.0), Some(Square::new(7, 1)));
        assert_eq!(lex_first(0), None);
        assert_eq!(lex_first(1 << 63), Some(Square::new(7, 7)));
    }
}

//! Random scenarios: the queen, the bishop, knights and pawns on distinct random squares.
//!
//! ```
//! use chess_puzzles::tour::random;
//! use rand::SeedableRng;
//!
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let s = random::scenario(&mut rng, 14, 6).unwrap();
//! assert_eq!(s.knights().len(), 14);
//! assert_eq!(s.pawns().count(), 6);
//! ```

use rand::Rng;
use rand::seq::SliceRandom;

use crate::core::{Bitboard, CLASSIC, Square};

use super::{Scenario, ScenarioError};

/// A scenario with `knights` knights and `pawns` pawns, every piece on a square drawn uniformly
/// among those still free. Fails when the pieces do not fit on the board or there are more
/// knights than [`super::MAX_KNIGHTS`].
pub fn scenario<R: Rng + ?Sized>(
    rng: &mut R,
    knights: usize,
    pawns: usize,
) -> Result<Scenario, ScenarioError> {
    let squares = CLASSIC * CLASSIC;
    let pieces = 2 + knights + pawns;
    if pieces > squares {
        return Err(ScenarioError::TooManyPieces(pieces));
    }
    let mut all: Vec<Square> = (0..squares)
        .map(|i| Square::from_index(i, CLASSIC))
        .collect();
    let (chosen, _) = all.partial_shuffle(rng, pieces);
    let (queen, bishop) = (chosen[0], chosen[1]);
    let knight_squares = chosen[2..2 + knights].to_vec();
    let pawn_squares: Bitboard = chosen[2 + knights..].iter().copied().collect();
    Scenario::new(queen, bishop, knight_squares, pawn_squares)
}

/// Writes scenarios as a judge input: the count, then each board followed by an empty line.
pub fn judge_input(scenarios: &[Scenario]) -> String {
    let mut text = format!("{}\n", scenarios.len());
    for s in scenarios {
        text.push_str(&s.to_rows());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::CaseReader;
    use rand::SeedableRng;

    #[test]
    fn pieces_are_distinct_and_counted() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for k in 0..=14 {
            let s = scenario(&mut rng, k, 10).unwrap();
            assert_eq!(s.knights().len(), k);
            assert_eq!(s.pawns().count(), 10);
            assert_eq!(s.blockers().count() as usize, k + 10 + 1);
            assert!(!s.blockers().contains(s.queen()));
        }
        assert!(scenario(&mut rng, 14, 49).is_err());
    }

    #[test]
    fn judge_input_reads_back() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        let list: Vec<Scenario> = (0..3).map(|_| scenario(&mut rng, 5, 5).unwrap()).collect();
        let text = judge_input(&list);
        let mut reader =
            super::super::Reader::new(crate::input::Scanner::new(text.as_bytes())).unwrap();
        for s in &list {
            assert_eq!(reader.next_case().unwrap().as_ref(), Some(s));
        }
        assert_eq!(reader.next_case().unwrap(), None);
    }
}

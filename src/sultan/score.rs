//! The search of The Sultan's Successors: a board scored against all 92 placements at once
//! ([`Solver`], over a [`Scorer`]).
//!
//! The plain way adds eight weights per placement. When every weight of a board fits a byte (the
//! statement's weights are below 100), [`Scorer::best_score`] instead looks up sixteen placements'
//! weights of one column with a single byte shuffle (`pshufb`, SSSE3) and adds them in 16-bit
//! lanes: six groups of sixteen placements, eight columns each. Both ways are tested against
//! each other on random boards.

use super::{Best, Board, Placement};
use crate::core::{CLASSIC, placements};

/// The 92 placements, ready to score boards.
pub struct Solver {
    scorer: Scorer,
}

impl Default for Solver {
    fn default() -> Self {
        Solver::new()
    }
}

impl Solver {
    /// Finds the 92 placements of eight queens.
    pub fn new() -> Solver {
        Solver {
            scorer: Scorer::new(placements::all_arrays::<CLASSIC>()),
        }
    }

    /// The score of one placement on a board.
    pub fn score(board: &Board, placement: &Placement) -> u64 {
        Scorer::score(board, placement)
    }

    /// The best score alone (the judge's answer), by the fastest way available.
    pub fn best_score(&self, board: &Board) -> u64 {
        self.scorer.best_score(board)
    }

    /// The best score and the first placement (in lexicographic order) that reaches it.
    pub fn best(&self, board: &Board) -> Best {
        let mut best: Option<Best> = None;
        for p in self.scorer.placements() {
            let score = Solver::score(board, p);
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Best {
                    score,
                    placement: *p,
                });
            }
        }
        best.unwrap_or(Best {
            score: 0,
            placement: [0; CLASSIC],
        })
    }
}

/// Placements per shuffle group.
const LANES: usize = 16;

/// The 92 placements, as rows per column and as byte-shuffle index vectors.
#[derive(Clone, Debug)]
pub struct Scorer {
    placements: Vec<Placement>,
    /// Per group of sixteen placements, per column: the row of each placement's queen there.
    /// The last group is padded with copies of the first placement, which cannot change a maximum.
    /// (Read by the SSSE3 and WebAssembly SIMD scorers only: other processors have neither.)
    #[cfg_attr(
        not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )),
        allow(dead_code)
    )]
    groups: Vec<[[u8; LANES]; CLASSIC]>,
}

impl Scorer {
    /// Prepares the index vectors of `placements` (at least one).
    pub fn new(placements: Vec<Placement>) -> Scorer {
        let groups = placements
            .chunks(LANES)
            .map(|chunk| {
                let mut group = [[0u8; LANES]; CLASSIC];
                for (c, column) in group.iter_mut().enumerate() {
                    for (lane, slot) in column.iter_mut().enumerate() {
                        let p = chunk.get(lane).or(placements.first());
                        *slot = p.map_or(0, |p| p[c]);
                    }
                }
                group
            })
            .collect();
        Scorer { placements, groups }
    }

    /// The placements, in lexicographic order.
    pub fn placements(&self) -> &[Placement] {
        &self.placements
    }

    /// The score of one placement.
    pub fn score(board: &Board, placement: &Placement) -> u64 {
        placement
            .iter()
            .enumerate()
            .map(|(c, &r)| u64::from(board.weights[usize::from(r) % CLASSIC][c]))
            .sum()
    }

    /// The best score, one placement at a time.
    pub fn best_score_plain(&self, board: &Board) -> u64 {
        self.placements
            .iter()
            .map(|p| Scorer::score(board, p))
            .max()
            .unwrap_or(0)
    }

    /// The best score, by byte shuffles where the machine and the weights allow it.
    pub fn best_score(&self, board: &Board) -> u64 {
        #[cfg(target_arch = "x86_64")]
        {
            let small = board
                .weights
                .iter()
                .flatten()
                .all(|&w| w <= u32::from(u8::MAX));
            if small && std::is_x86_feature_detected!("ssse3") {
                let mut columns = [[0u8; LANES]; CLASSIC];
                for (r, row) in board.weights.iter().enumerate() {
                    for (c, &w) in row.iter().enumerate() {
                        columns[c][r] = w as u8;
                    }
                }
                // Safety: SSSE3 was detected just above.
                return u64::from(unsafe { best_score_ssse3(&self.groups, &columns) });
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if let Some(columns) = byte_columns(board) {
            return u64::from(best_score_simd128(&self.groups, &columns));
        }
        self.best_score_plain(board)
    }
}

/// The largest lane sum over all groups: per group, column by column, the sixteen weights are
/// picked from the column's weights by one shuffle and added in 16-bit lanes (8 x 255 fits).
///
/// # Safety
/// The CPU must support SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn best_score_ssse3(
    groups: &[[[u8; LANES]; CLASSIC]],
    columns: &[[u8; LANES]; CLASSIC],
) -> u16 {
    use std::arch::x86_64::*;
    let zero = _mm_setzero_si128();
    // Safety (all loads and stores): every pointer comes from a 16-byte array, and the unaligned
    // load/store intrinsics accept any alignment.
    let tables: [__m128i; CLASSIC] =
        std::array::from_fn(|c| unsafe { _mm_loadu_si128(columns[c].as_ptr().cast()) });
    let mut best = zero;
    for group in groups {
        let mut low = zero;
        let mut high = zero;
        for (table, index) in tables.iter().zip(group) {
            let index = unsafe { _mm_loadu_si128(index.as_ptr().cast()) };
            let picked = _mm_shuffle_epi8(*table, index);
            low = _mm_add_epi16(low, _mm_unpacklo_epi8(picked, zero));
            high = _mm_add_epi16(high, _mm_unpackhi_epi8(picked, zero));
        }
        best = _mm_max_epi16(best, _mm_max_epi16(low, high));
    }
    let mut lanes = [0u16; 8];
    unsafe { _mm_storeu_si128(lanes.as_mut_ptr().cast(), best) };
    lanes.into_iter().max().unwrap_or(0)
}

/// The board's weights column by column, as bytes, when every weight fits one.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn byte_columns(board: &Board) -> Option<[[u8; LANES]; CLASSIC]> {
    let mut columns = [[0u8; LANES]; CLASSIC];
    for (r, row) in board.weights.iter().enumerate() {
        for (c, &w) in row.iter().enumerate() {
            columns[c][r] = u8::try_from(w).ok()?;
        }
    }
    Some(columns)
}

/// [`best_score_ssse3`] in WebAssembly SIMD (`simd128`, as the browser's module is built):
/// `u8x16_swizzle` picks as `pshufb` does (an index past 15 gives 0; the rows are below 8).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn best_score_simd128(groups: &[[[u8; LANES]; CLASSIC]], columns: &[[u8; LANES]; CLASSIC]) -> u16 {
    use std::arch::wasm32::*;
    // Byte i of the vector is bytes[i] (WebAssembly is little-endian).
    let load = |bytes: &[u8; LANES]| {
        let v = u128::from_le_bytes(*bytes);
        u64x2(v as u64, (v >> 64) as u64)
    };
    let tables: [v128; CLASSIC] = std::array::from_fn(|c| load(&columns[c]));
    let mut best = u16x8_splat(0);
    for group in groups {
        let mut low = u16x8_splat(0);
        let mut high = u16x8_splat(0);
        for (table, index) in tables.iter().zip(group) {
            let picked = u8x16_swizzle(*table, load(index));
            low = u16x8_add(low, u16x8_extend_low_u8x16(picked));
            high = u16x8_add(high, u16x8_extend_high_u8x16(picked));
        }
        best = u16x8_max(best, u16x8_max(low, high));
    }
    // The largest lane: halves, quarters, then pairs folded onto lane 0.
    let best = u16x8_max(best, u16x8_shuffle::<4, 5, 6, 7, 0, 1, 2, 3>(best, best));
    let best = u16x8_max(best, u16x8_shuffle::<2, 3, 0, 1, 2, 3, 0, 1>(best, best));
    let best = u16x8_max(best, u16x8_shuffle::<1, 0, 1, 0, 1, 0, 1, 0>(best, best));
    u16x8_extract_lane::<0>(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scorer() -> Scorer {
        Scorer::new(placements::all_arrays::<CLASSIC>())
    }

    #[test]
    fn shuffles_agree_with_the_plain_sum() {
        let scorer = scorer();
        assert_eq!(scorer.groups.len(), 6);
        let mut state = 12345u64;
        let mut next = |bound: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for round in 0..3000 {
            let top = [2, 100, 256, 300, 1 << 32][round % 5];
            let mut weights = [[0u32; CLASSIC]; CLASSIC];
            for w in weights.iter_mut().flatten() {
                *w = next(top) as u32;
            }
            let board = Board { weights };
            assert_eq!(scorer.best_score(&board), scorer.best_score_plain(&board));
        }
    }

    #[test]
    fn extreme_byte_weights() {
        let scorer = scorer();
        let board = Board {
            weights: [[255; CLASSIC]; CLASSIC],
        };
        assert_eq!(scorer.best_score(&board), 8 * 255);
        let board = Board {
            weights: [[0; CLASSIC]; CLASSIC],
        };
        assert_eq!(scorer.best_score(&board), 0);
    }
}

//! The puzzles with one answer per input, through the real binary and the library: the eight
//! queens, the sultan's successors, the travelling queen (with its judge kit) and n queens
//! (counts, listings, the best weighted placement, shards), against references written here.
//! The judge kits of queens and sultan are in the `judge` tests.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/inputs.rs"]
mod inputs;

mod nqueens;
mod nqueens_best;
#[cfg(feature = "gpu")]
mod nqueens_gpu;
mod queens;
mod reference;
mod sultan;
mod tour;
mod tour_kit;

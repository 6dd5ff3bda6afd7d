//! The shared chess core: board geometry, squares, bitboards (with set-wide sliding fills),
//! square sets of any side, piece movement as data, queen placements (and their search told
//! step by step, [`trace`]), diagrams drawn as text and as SVG.
//!
//! Nothing here knows about any one puzzle. Coordinates are 0-based inside the crate; the judge
//! formats' 1-based numbers are converted at their parsers and writers.

pub mod bitboard;
pub mod diagram;
pub mod kogge_stone;
pub mod pieces;
pub mod placements;
pub mod square;
pub mod square_set;
pub mod svg;
pub mod trace;

pub use bitboard::Bitboard;
pub use diagram::Diagram;
pub use square::Square;
pub use square_set::SquareSet;

/// The side of the classic chessboard, used by the puzzles that are fixed to it.
pub const CLASSIC: usize = 8;

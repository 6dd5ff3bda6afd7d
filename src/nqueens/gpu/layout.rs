//! The words the kernels read and write, laid out once for the GPU and its Rust twin: the
//! constants of a band (its [`Shape`]), each configuration's tables, and the batch table.
//!
//! Every buffer is an array of `u32` words (WGSL has no 64-bit integers without an
//! extension): a footprint of up to 38 bits is two words, `lo` and `hi`.

use super::super::band::{Band, Config, Geometry, MAX_ROWS};

/// No row: the free index of a band row.
pub const NONE: u32 = u32::MAX;

/// The flag of a valid completion, in the high word of its footprint (footprints have at
/// most 38 bits, so the high word uses at most 6).
pub const VALID: u32 = 1 << 31;

/// Words of a configuration's header: the free rows (32), the free index of each board row
/// (32), then the mirror flag and the mask of free rows.
pub const HEADER_WORDS: usize = 96;

/// Offset of the free index of each board row in the header.
pub const FREE_INDEX: usize = 32;

/// Offset of the mirror flag in the header.
pub const MIRRORED: usize = 64;

/// Offset of the mask of free rows in the header.
pub const FREE_MASK: usize = 65;

/// Words of each configuration's entry in the batch table: its first item, its first row
/// set, where its two sides' partial sides start, and its mirror flag.
pub const BATCH_WORDS: usize = 8;

/// Bytes of a partial side: its footprint's low word, then its footprint's high bits (at most
/// 6) with its attacks on the two outer columns above them, each on the `s + 2` free rows the
/// partial side leaves open (bits 6 up and 18 up).
pub const PARTIAL_BYTES: u64 = 8;

/// Where the attacks on the last but one column start in a partial side's second word.
pub const OUTER_A: u32 = 6;

/// Where the attacks on the last column start in a partial side's second word.
pub const OUTER_B: u32 = 18;

/// Footprints per tile of the pairing kernel: 16 words of 32.
pub const TILE: usize = 512;

/// Words of a tile (footprint bits per 32 footprints).
pub const TILE_WORDS: usize = TILE / 32;

/// Footprint bits per chunk of the pairing tables: a table of 32 masks per chunk.
pub const CHUNK_BITS: usize = 5;

/// The most chunks: footprints of up to `4 * 10 - 2 = 38` bits.
pub const MAX_CHUNKS: usize = 8;

/// The most pairs of rows a side's row set has: `C(10, 2)`.
pub const MAX_PAIRS: usize = 45;

/// Threads of a workgroup of the scan and pairing kernels.
pub const WORKGROUP: usize = 256;

/// Threads of a workgroup of the partial-side search.
pub const SEARCH_WORKGROUP: usize = 64;

/// Footprints a tile's word of 32 takes in workgroup memory with [`Tables::Padded`].
pub const PADDED: usize = 33;

/// Workgroup memory the pairing kernel needs: a tile of footprints (padded), its bit planes
/// and its tables, and a few hundred bytes more.
pub(crate) const WORKGROUP_MEMORY: u32 =
    (TILE_WORDS * PADDED) as u32 * 8 + 640 * 4 + 4096 * 4 + 1024;

/// A dispatch's own words (`tally` in the kernels), cleared before it: the flag of loops cut
/// short by the device.
pub const TALLY_CUT: usize = 0;
/// The next item the pairing kernel's workgroups take ([`Work::Queue`]).
pub const TALLY_NEXT: usize = 1;
/// The items the pairing kernel finished.
pub const TALLY_DONE: usize = 2;
/// The items whose lists outgrew the scratch, and where the first [`OVERFLOW_SLOTS`] of them
/// are.
pub const TALLY_OVERFLOW: usize = 3;
/// A word that stays 0, which the kernels' check of their loops reads (`check_loops`).
pub const TALLY_ZERO: usize = 4;
/// Where the items whose lists outgrew the scratch are listed.
pub const OVERFLOW_LIST: usize = 5;
/// Items of that list.
pub const OVERFLOW_SLOTS: usize = 256;
/// Where each configuration's sum of pairs starts (two words each, low and high).
pub const TALLY_SUMS: usize = OVERFLOW_LIST + OVERFLOW_SLOTS;

/// How the pairing kernel builds its bit planes and mask tables in workgroup memory (see
/// `pairs.wgsl`).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Tables {
    /// A thread per plane word reading its word's 32 footprints (lanes 256 bytes apart, one
    /// bank), a thread per table of 32 masks built one from another (lanes 128 bytes apart,
    /// one bank): the layout first written.
    Strided,
    /// The tile padded to 33 footprints a word, the planes indexed plane-fastest and a thread
    /// per mask: no two lanes of a warp in one bank.
    #[default]
    Padded,
}

/// How the pairing kernel's workgroups take the items of a dispatch.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub enum Work {
    /// Workgroup `g` of `G` takes items `g`, `g + G`, ...
    Stride,
    /// Each takes its next item from a counter on the device.
    #[default]
    Queue,
}

/// The choices only a GPU can settle, each selectable at run time and checked against the
/// twin.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Tuning {
    /// The pairing kernel's tables.
    pub tables: Tables,
    /// How its workgroups take items.
    pub work: Work,
    /// Whether the kernels keep the shader compiler's run-time checks (indices clamped to
    /// their arrays, loops bounded); off, the kernels are compiled as written.
    pub checks: bool,
    /// The pairing kernel's workgroups in flight (`None`: the device's default).
    pub workgroups: Option<usize>,
    /// Items of one dispatch of the pairing kernel at most (`None`: as many as a tenth of a
    /// second takes, up to 2^20).
    pub items: Option<u32>,
}

/// The constants of a band that every kernel is compiled with (WGSL `override`s).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Shape {
    /// Board side.
    pub n: usize,
    /// Columns of each side.
    pub side: usize,
    /// Inner columns of a side (searched once per configuration): `side - 2`.
    pub inner: usize,
    /// Free rows: `2 * side`.
    pub free: usize,
    /// Row sets of the inner columns, `C(2s, s - 2)`: the groups of partial sides.
    pub groups: usize,
    /// Pairs of rows of a side's row set, `C(s, 2)`.
    pub pairs: usize,
    /// Inner columns fixed by a search thread's number.
    pub depth: usize,
    /// Search threads per side of a configuration: `free ^ depth`.
    pub prefixes: usize,
    /// Footprint bits that may be set: `4s - 2`.
    pub bits: usize,
    /// Chunks of the pairing tables: `ceil(bits / 5)`.
    pub chunks: usize,
    /// Words of one side's tables in a configuration's tables.
    pub side_words: usize,
    /// Words of a configuration's tables.
    pub config_words: usize,
    /// Footprints each list of the pairing kernel holds; a longer list is counted again on
    /// the CPU.
    pub scratch: usize,
}

/// Search threads per side of a configuration, at least: enough for a GPU to keep busy on a
/// batch of a few configurations.
const MIN_PREFIXES: usize = 1000;

impl Shape {
    /// The shape of `band`, its lists holding `scratch` footprints each.
    pub fn new(band: &Band, scratch: usize) -> Shape {
        let side = band.side();
        let inner = side - 2;
        let free = 2 * side;
        let mut depth = 0;
        while depth < inner && free.pow(depth as u32) < MIN_PREFIXES {
            depth += 1;
        }
        let bits = 4 * side - 2;
        let side_words = 8 + inner * band.n() * 4 + free * free * 2;
        Shape {
            n: band.n(),
            side,
            inner,
            free,
            groups: choose(free, inner) as usize,
            pairs: side * (side - 1) / 2,
            depth,
            prefixes: free.pow(depth as u32),
            bits,
            chunks: bits.div_ceil(CHUNK_BITS),
            side_words,
            config_words: HEADER_WORDS + 2 * side_words,
            scratch,
        }
    }

    /// The `override` constants of the kernels, with the pairing kernel's choices of
    /// `tuning`.
    pub fn constants(&self, tuning: &Tuning) -> Vec<(&'static str, f64)> {
        [
            ("TABLES", usize::from(tuning.tables == Tables::Padded)),
            ("WORK", usize::from(tuning.work == Work::Queue)),
            ("ROWS", self.n),
            ("SIDE", self.side),
            ("GROUPS", self.groups),
            ("SCRATCH", self.scratch),
            ("DEPTH", self.depth),
            ("PREFIXES", self.prefixes),
            ("CHUNKS", self.chunks),
            ("FBITS", self.bits),
        ]
        .into_iter()
        .map(|(name, value)| (name, value as f64))
        .collect()
    }

    /// Where side `side` (0 west, 1 east) of configuration `c` starts in the tables.
    pub fn side_base(&self, c: usize, side: usize) -> usize {
        c * self.config_words + HEADER_WORDS + side * self.side_words
    }

    /// Where the square of inner column `i`, board row `r` starts within a side's tables.
    pub fn square(&self, i: usize, r: usize) -> usize {
        8 + (i * self.n + r) * 4
    }

    /// Where the completion with free rows `a` (last but one column) and `b` (last column)
    /// starts within a side's tables.
    pub fn completion(&self, a: usize, b: usize) -> usize {
        8 + self.inner * self.n * 4 + (a * self.free + b) * 2
    }

    /// Appends the tables of `config` to `words`: its header, then each side's allowed rows
    /// per inner column, squares of the inner columns and completions of the outer two.
    pub fn push_tables(&self, band: &Band, config: &Config, words: &mut Vec<u32>) {
        let start = words.len();
        words.resize(start + self.config_words, 0);
        let table = &mut words[start..];
        let geometries = band.side_geometries(config);
        // The free rows are the band's, the same for both sides.
        let row_bit = &geometries[0].row_bit;
        table[FREE_INDEX..FREE_INDEX + 32].fill(NONE);
        let mut mask = 0u32;
        for (r, bit) in row_bit.iter().enumerate().take(self.n) {
            if let Some(bit) = bit {
                let k = bit.trailing_zeros() as usize;
                table[k] = r as u32;
                table[FREE_INDEX + r] = k as u32;
                mask |= 1 << r;
            }
        }
        table[MIRRORED] = u32::from(config.mirrored());
        table[FREE_MASK] = mask;
        for (side, geometry) in geometries.iter().enumerate() {
            let base = HEADER_WORDS + side * self.side_words;
            self.push_side(geometry, &mut table[base..base + self.side_words]);
        }
    }

    /// One side's tables (see [`Shape::push_tables`]).
    fn push_side(&self, g: &Geometry, table: &mut [u32]) {
        let split = |w: u64| [w as u32, (w >> 32) as u32];
        for i in 0..self.inner {
            for r in 0..self.n {
                if let Some(square) = g.squares[i][r] {
                    table[i] |= 1 << r;
                    let at = self.square(i, r);
                    let [lo, hi] = split(square.footprint);
                    let [a, b] = split(square.outer);
                    table[at..at + 4].copy_from_slice(&[lo, hi, a, b]);
                }
            }
        }
        let free: Vec<usize> = (0..self.n.min(MAX_ROWS))
            .filter(|&r| g.row_bit[r].is_some())
            .collect();
        for (a, &ra) in free.iter().enumerate() {
            for (b, &rb) in free.iter().enumerate() {
                let (Some(x), Some(y)) =
                    (g.squares[self.side - 2][ra], g.squares[self.side - 1][rb])
                else {
                    continue;
                };
                if a != b && x.diagonals & y.diagonals == 0 {
                    let [lo, hi] = split(x.footprint | y.footprint);
                    let at = self.completion(a, b);
                    table[at..at + 2].copy_from_slice(&[lo, hi | VALID]);
                }
            }
        }
    }
}

/// `C(n, k)`, exact for the small arguments used here (`n < 32`).
pub fn choose(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k as u64).fold(1, |acc, i| acc * (n as u64 - i) / (i + 1))
}

/// Pascal's triangle up to 31, `C(i, j)` at `32 * i + j`: the kernels' ranks of row sets.
pub fn binomials() -> Vec<u32> {
    let mut table = vec![0u32; 32 * 32];
    for i in 0..32 {
        for j in 0..32 {
            table[32 * i + j] = choose(i, j) as u32;
        }
    }
    table
}

/// The colex rank of `set` among the sets of as many bits (`sum C(c_i, i)` over its bits
/// `c_1 < c_2 < ...`), as the kernels compute it.
pub fn rank(set: u32) -> u32 {
    let mut rank = 0;
    let mut m = set;
    let mut i = 1;
    while m != 0 {
        rank += choose(m.trailing_zeros() as usize, i) as u32;
        i += 1;
        m &= m - 1;
    }
    rank
}

/// The set of `ones` bits of colex rank `index`, as the kernels compute it.
pub fn unrank(index: u32, ones: u32) -> u32 {
    let mut set = 0;
    let mut rest = index;
    for k in (1..=ones).rev() {
        let mut c = k - 1;
        while choose(c as usize + 1, k as usize) as u32 <= rest {
            c += 1;
        }
        set |= 1 << c;
        rest -= choose(c as usize, k as usize) as u32;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_in_colex_order() {
        for (bits, ones) in [(4, 2), (12, 6), (18, 7), (20, 10)] {
            let mut previous = None;
            for index in 0..choose(bits, ones) as u32 {
                let set = unrank(index, ones as u32);
                assert_eq!(set.count_ones(), ones as u32);
                assert!(set < 1 << bits);
                assert_eq!(rank(set), index);
                assert!(
                    previous.is_none_or(|p| p < set),
                    "colex order is increasing"
                );
                previous = Some(set);
            }
        }
    }
}

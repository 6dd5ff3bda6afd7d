//! One side of the band, built one row set at a time: its inner columns listed once by a
//! bitmask search and grouped by their rows, the two outer columns completed on demand.
//!
//! A side fills `s` columns on `s` of the `2s` rows the band leaves free. Its `s - 2` inner
//! columns (next to the band) are searched once per configuration; their *partial sides* are
//! grouped by the rows they take. The sides on a row set `R` are then the partial sides on
//! `R` less two rows `{a, b}`, for each of the `s(s - 1)/2` pairs, completed by queens on `a`
//! and `b` in the two outer columns (both ways round) when no diagonal clashes. The partial
//! sides are about `2.3^2` times fewer than the sides, and only they are stored: the sides
//! of a row set are made just before they are counted, in a buffer that stays in cache.

use super::super::control::Control;
use super::word::{Completion, Word, gather_bits};

/// The most columns of a side (packed `u64` words: `4 * MAX_SIDE - 2` footprint bits and
/// twice `MAX_SIDE + 2` rows of outer attacks in 64 bits).
pub const MAX_SIDE: usize = 10;

/// The most rows of a board.
pub const MAX_ROWS: usize = 32;

/// From this many partial sides on (a quarter of a megabyte), [`Side::sides_on`] prefetches
/// the groups it reads (measured: a loss while they fit the second-level cache).
#[cfg(target_arch = "x86_64")]
const PREFETCH_FROM: usize = 1 << 15;

/// A queen on one square of a side: its diagonals within the side, what it attacks in the
/// two outer columns, and its footprint.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Square {
    /// Bit `r + c` (row + column, `c` counted from the side's west column) and bit
    /// `64 + r + s - 1 - c` (row - column): the diagonals two queens of the side may share.
    pub diagonals: u128,
    /// The free rows it attacks diagonally in the last but one column (bits `0..2s`, by
    /// index among the free rows) and in the last column (bits `W::LAST..W::LAST + 2s`, for
    /// the side's [`Word`] `W`).
    pub outer: u64,
    /// The diagonals it shares with the other side, as footprint bits.
    pub footprint: u64,
}

/// The search of one side: per column (the one next to the band first) and row, the square a
/// queen may take there (`None` where the band attacks it); per row, its bit in the row sets
/// (`None` for the band's rows).
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Columns to fill, `3..=MAX_SIDE`.
    pub columns: usize,
    /// Rows of the board.
    pub n: usize,
    /// Per column searched, per board row.
    pub squares: [[Option<Square>; MAX_ROWS]; MAX_SIDE],
    /// Per board row, its bit in the row sets (rows of the band: none).
    pub row_bit: [Option<u32>; MAX_ROWS],
}

/// Row sets of `s - 2` of `2s` rows, numbered densely (colex order) for grouping.
#[derive(Clone, Debug, Default)]
pub struct Ranks {
    ones: usize,
    /// Per byte of the set (low to high), per value of the byte and number of ones below
    /// it: the rank contributed by its bits.
    bytes: Vec<[[u32; 25]; 256]>,
    /// The number of row sets.
    count: usize,
}

impl Ranks {
    /// The ranks of the sets of `ones` of `bits <= 24` rows.
    pub fn new(bits: usize, ones: usize) -> Ranks {
        debug_assert!(bits <= 24 && ones <= bits);
        // Pascal's triangle up to 24.
        let mut binomial = [[0u32; 25]; 25];
        for n in 0..25 {
            binomial[n][0] = 1;
            for k in 1..=n {
                binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
            }
        }
        let choose = |n: usize, k: usize| if k > n { 0 } else { binomial[n][k] };
        // Colex rank of {c_1 < c_2 < ...} = sum over i of C(c_i, i).
        let bytes = (0..bits.div_ceil(8).max(1))
            .map(|byte| {
                let mut table = [[0u32; 25]; 256];
                for (m, by_below) in table.iter_mut().enumerate() {
                    for (below, slot) in by_below.iter_mut().enumerate() {
                        *slot = (0..8)
                            .filter(|&b| m >> b & 1 == 1)
                            .enumerate()
                            .map(|(i, b)| choose(8 * byte + b, below + i + 1))
                            .sum();
                    }
                }
                table
            })
            .collect();
        Ranks {
            ones,
            bytes,
            count: choose(bits, ones) as usize,
        }
    }

    /// The rank of `set` (which has [`Ranks::new`]'s number of ones).
    #[inline]
    pub fn of(&self, set: u32) -> usize {
        let mut rank = 0;
        let mut below = 0;
        for (i, table) in self.bytes.iter().enumerate() {
            let byte = (set >> (8 * i) & 0xFF) as usize;
            rank += table[byte][below];
            below += byte.count_ones() as usize;
        }
        rank as usize
    }
}

/// The search's view of a [`Geometry`]: flat tables.
struct Tables<W> {
    /// Per column, the rows the band leaves a queen.
    allowed: [u64; MAX_SIDE],
    /// Per board row, its bit in the row sets (0 for the band's rows).
    row_bit: [u32; MAX_ROWS],
    /// Per column and row, [`Square::outer`].
    outer: [[W; MAX_ROWS]; MAX_SIDE],
    /// Per column and row, [`Square::footprint`].
    footprint: [[W; MAX_ROWS]; MAX_SIDE],
}

impl<W: Word> Tables<W> {
    fn new(g: &Geometry) -> Tables<W> {
        let mut t = Tables {
            allowed: [0; MAX_SIDE],
            row_bit: [0; MAX_ROWS],
            outer: [[W::ZERO; MAX_ROWS]; MAX_SIDE],
            footprint: [[W::ZERO; MAX_ROWS]; MAX_SIDE],
        };
        for (r, bit) in g.row_bit.iter().enumerate().take(g.n) {
            t.row_bit[r] = bit.unwrap_or(0);
        }
        for c in 0..g.columns {
            for r in 0..g.n {
                if let Some(square) = g.squares[c][r] {
                    t.allowed[c] |= 1u64 << r;
                    t.outer[c][r] = W::from_u64(square.outer);
                    t.footprint[c][r] = W::from_u64(square.footprint);
                }
            }
        }
        t
    }
}

/// The partial sides of one configuration's side, grouped by row set, and the completions of
/// its two outer columns, in words `W`.
#[derive(Clone, Debug, Default)]
pub struct Side<W> {
    /// Columns of the side.
    columns: usize,
    /// Per rank of a row set (see [`Ranks`]), where its partial sides start; one more entry.
    offsets: Vec<u32>,
    /// What the partial sides attack in the two outer columns, by row set.
    outer: Vec<W>,
    /// Footprints of the partial sides, by row set.
    footprints: Vec<W>,
    /// Per pair of row indices (`a * 32 + b`): queens on row `a` of the last but one column
    /// and row `b` of the last, if both may stand there together.
    completions: Vec<Option<Completion<W>>>,
    /// The partial sides as found: row set and footprint (packed with the outer attacks for
    /// packed words); and their outer attacks, for words that are not packed.
    found: Vec<(u32, W)>,
    found_outer: Vec<W>,
}

/// Where the search of a side's inner columns stands: at column `c`, the `free` rows; `left`
/// and `right`, the rows of column `c` on a diagonal of the queens so far (moving one row
/// down, and one row up, per column outward); the `key` (row set), `outer` attacks and
/// `footprint` of the queens so far.
#[derive(Clone, Copy)]
struct Search<W> {
    c: usize,
    free: u64,
    left: u64,
    right: u64,
    key: u32,
    outer: W,
    footprint: W,
}

impl<W: Word> Side<W> {
    /// Lists and groups the partial sides of `geometry`, and its completions; false (and the
    /// side unusable) when `control` said stop, which the search asks at each queen of its
    /// first two columns (sides of 10 columns take up to a few seconds to build).
    ///
    /// The search is compiled for BMI ([`Side::build_bmi`]) if `fast` and the processor has it.
    pub fn build(
        &mut self,
        geometry: &Geometry,
        ranks: &Ranks,
        fast: bool,
        control: &Control,
    ) -> bool {
        #[cfg(target_arch = "x86_64")]
        if fast && super::word::bmi_available() {
            // SAFETY: the processor has the features of `build_bmi`, checked just above.
            return unsafe { self.build_bmi(geometry, ranks, control) };
        }
        let _ = fast;
        self.build_with(geometry, ranks, control, Self::search_plain)
    }

    /// [`Side::build`] compiled for BMI1, BMI2, LZCNT and POPCNT: bit scans, shifts by a
    /// register, PEXT and population counts in one instruction each, where the baseline
    /// x86-64 needs a call or a loop for some.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn build_bmi(&mut self, geometry: &Geometry, ranks: &Ranks, control: &Control) -> bool {
        self.build_with(geometry, ranks, control, |side, t, at, c| {
            // SAFETY: `build_bmi` runs only where its features are (its caller checks).
            unsafe { side.search_bmi(t, at, c) }
        })
    }

    /// [`Side::build`], its inner columns searched by `search`.
    #[inline(always)]
    fn build_with(
        &mut self,
        geometry: &Geometry,
        ranks: &Ranks,
        control: &Control,
        search: impl FnOnce(&mut Self, &Tables<W>, Search<W>, &Control) -> bool,
    ) -> bool {
        let s = geometry.columns;
        debug_assert!((2..=W::MAX_SIDE).contains(&s) && ranks.ones == s - 2);
        self.columns = s;
        self.found.clear();
        self.found_outer.clear();
        let rows = u64::MAX >> (64 - geometry.n);
        let taken = (0..geometry.n)
            .filter(|&r| geometry.row_bit[r].is_none())
            .fold(0u64, |t, r| t | 1 << r);
        if s == 2 {
            // No inner column: one empty partial side.
            self.push::<false>(0, W::ZERO, W::ZERO);
        } else {
            let tables = Tables::new(geometry);
            let start = Search {
                c: 0,
                free: rows & !taken,
                left: 0,
                right: 0,
                key: 0,
                outer: W::ZERO,
                footprint: W::ZERO,
            };
            if !search(self, &tables, start, control) || control.should_stop() {
                return false;
            }
        }
        // Group by rank: a counting sort.
        self.offsets.clear();
        self.offsets.resize(ranks.count + 1, 0);
        for &(key, _) in &self.found {
            self.offsets[ranks.of(key) + 1] += 1;
        }
        for i in 1..self.offsets.len() {
            self.offsets[i] += self.offsets[i - 1];
        }
        self.outer.clear();
        if !W::PACKED {
            self.outer.resize(self.found.len(), W::ZERO);
        }
        self.footprints.clear();
        self.footprints.resize(self.found.len(), W::ZERO);
        let mut next = self.offsets.clone();
        for (i, &(key, f)) in self.found.iter().enumerate() {
            let slot = &mut next[ranks.of(key)];
            if !W::PACKED {
                self.outer[*slot as usize] = self.found_outer[i];
            }
            self.footprints[*slot as usize] = f;
            *slot += 1;
        }
        // The completions, by the indices (0..2s) of the free rows.
        self.completions.clear();
        self.completions.resize(32 * 32, None);
        let free: Vec<usize> = (0..geometry.n)
            .filter(|&r| geometry.row_bit[r].is_some())
            .collect();
        for (a, &ra) in free.iter().enumerate() {
            for (b, &rb) in free.iter().enumerate() {
                let (Some(x), Some(y)) = (geometry.squares[s - 2][ra], geometry.squares[s - 1][rb])
                else {
                    continue;
                };
                if a != b && x.diagonals & y.diagonals == 0 {
                    self.completions[a * 32 + b] = Some(Completion {
                        rows: W::from_u64(1 << a | 1 << (W::LAST + b)),
                        footprint: W::from_u64(x.footprint | y.footprint),
                    });
                }
            }
        }
        true
    }

    /// Keeps a partial side on the row set `key` with its outer attacks (as searched) and its
    /// footprint.
    /// With `PEXT`, the caller is compiled for BMI2 (so that the instruction is inlined).
    #[inline(always)]
    fn push<const PEXT: bool>(&mut self, key: u32, outer: W, footprint: W) {
        if W::PACKED {
            // The outer attacks on the rows the partial side leaves free, above its footprint.
            let (o, open) = (
                outer.to_u64(),
                ((1u64 << (2 * self.columns)) - 1) & !u64::from(key),
            );
            let gather = |value: u64| {
                #[cfg(target_arch = "x86_64")]
                if PEXT {
                    // SAFETY: with `PEXT` the caller runs only where BMI2 is.
                    return unsafe { std::arch::x86_64::_pext_u64(value, open) };
                }
                gather_bits(value, open)
            };
            let packed = gather(o & 0xFFFF_FFFF) << W::OUTER | gather(o >> 32) << (W::OUTER + 12);
            self.found.push((key, footprint | W::from_u64(packed)));
        } else {
            self.found.push((key, footprint));
            self.found_outer.push(outer);
        }
    }

    /// The search of the inner columns from `at`; false when `control` said stop.
    fn search_plain(&mut self, t: &Tables<W>, at: Search<W>, control: &Control) -> bool {
        self.search_with::<false>(t, at, control, Self::search_plain)
    }

    /// [`Side::search_plain`] compiled for the features of [`Side::build_bmi`].
    ///
    /// # Safety
    /// The processor has BMI1, BMI2, LZCNT and POPCNT.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn search_bmi(&mut self, t: &Tables<W>, at: Search<W>, control: &Control) -> bool {
        self.search_with::<true>(t, at, control, |side, t, at, c| {
            // SAFETY: as for this function.
            unsafe { side.search_bmi(t, at, c) }
        })
    }

    /// The body of the search, going one column further by `deeper`.
    #[inline(always)]
    fn search_with<const PEXT: bool>(
        &mut self,
        t: &Tables<W>,
        at: Search<W>,
        control: &Control,
        deeper: impl Fn(&mut Self, &Tables<W>, Search<W>, &Control) -> bool,
    ) -> bool {
        let Search {
            c,
            free,
            left,
            right,
            key,
            outer,
            footprint,
        } = at;
        let mut candidates = free & t.allowed[c] & !(left | right);
        while candidates != 0 {
            if c < 2 && control.should_stop() {
                return false;
            }
            let r = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let bit = 1u64 << r;
            let (k, o, f) = (
                key | t.row_bit[r],
                outer | t.outer[c][r],
                footprint | t.footprint[c][r],
            );
            if c + 3 == self.columns {
                self.push::<PEXT>(k, o, f);
            } else {
                let next = Search {
                    c: c + 1,
                    free: free & !bit,
                    left: (left | bit) << 1,
                    right: (right | bit) >> 1,
                    key: k,
                    outer: o,
                    footprint: f,
                };
                if !deeper(self, t, next, control) {
                    return false;
                }
            }
        }
        true
    }

    /// Writes to `out` the footprint of every side on `set` (a row set of `s` of the `2s`
    /// free rows, as row indices). Uses AVX-512 when `fast` and the processor has it, and
    /// WebAssembly SIMD when `fast` in a module built with it.
    pub fn sides_on(&self, ranks: &Ranks, set: u32, fast: bool, out: &mut Vec<W>) {
        out.clear();
        #[cfg(target_arch = "x86_64")]
        if fast && super::word::avx512_available() {
            // SAFETY: the processor has the features of `avx512_available`, checked just above.
            unsafe { self.sides_on_avx512(ranks, set, out) };
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if fast {
            self.groups_on(ranks, set, |o, f, ab, ba| {
                W::complete_simd128(o, f, ab, ba, out);
            });
            return;
        }
        let _ = fast;
        let footprint = W::from_u64((1 << W::OUTER) - 1);
        self.groups_on(ranks, set, |o, f, ab, ba| {
            for c in [ab, ba].into_iter().flatten() {
                for (i, &xf) in f.iter().enumerate() {
                    let attacks = if W::PACKED { xf } else { o[i] };
                    if attacks & c.rows == W::ZERO {
                        out.push(xf & footprint | c.footprint);
                    }
                }
            }
        });
    }

    /// [`Side::sides_on`] with the completions tested sixteen partial sides at a time.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
    unsafe fn sides_on_avx512(&self, ranks: &Ranks, set: u32, out: &mut Vec<W>) {
        // The groups are read one after the other, each a few cache lines that are rarely in
        // the first levels of cache when the partial sides outgrow them: ask for all first.
        if self.footprints.len() >= PREFETCH_FROM {
            self.groups_on(ranks, set, |o, f, _, _| {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                if !W::PACKED {
                    _mm_prefetch::<_MM_HINT_T0>(o.as_ptr().cast());
                }
                _mm_prefetch::<_MM_HINT_T0>(f.as_ptr().cast());
            });
        }
        self.groups_on(ranks, set, |o, f, ab, ba| {
            // SAFETY: this function runs only where the features of `avx512_available` are
            // (its caller checks).
            unsafe { W::complete_avx512(o, f, ab, ba, out) }
        });
    }

    /// Calls `visit` with each group of partial sides on `set` less two rows `a < b`, and the
    /// completions putting `a` then `b`, and `b` then `a`, in the two outer columns.
    #[inline(always)]
    fn groups_on(
        &self,
        ranks: &Ranks,
        set: u32,
        mut visit: impl FnMut(&[W], &[W], Option<Completion<W>>, Option<Completion<W>>),
    ) {
        let mut first = set;
        while first != 0 {
            let a = first.trailing_zeros() as usize;
            first &= first - 1;
            let mut second = first;
            while second != 0 {
                let b = second.trailing_zeros() as usize;
                second &= second - 1;
                let (mut ab, mut ba) = (self.completions[a * 32 + b], self.completions[b * 32 + a]);
                if ab.is_none() && ba.is_none() {
                    continue;
                }
                let key = set & !(1 << a | 1 << b);
                let k = ranks.of(key);
                let range = self.offsets[k] as usize..self.offsets[k + 1] as usize;
                if range.is_empty() {
                    continue;
                }
                if W::PACKED {
                    // The rows of the completions among those the partial sides leave free.
                    let open = ((1u32 << (2 * self.columns)) - 1) & !key;
                    let (ia, ib) = (
                        (open & ((1 << a) - 1)).count_ones() as usize,
                        (open & ((1 << b) - 1)).count_ones() as usize,
                    );
                    let rows = |first: usize, last: usize| {
                        W::from_u64(1 << (W::OUTER + first) | 1 << (W::OUTER + 12 + last))
                    };
                    if let Some(c) = &mut ab {
                        c.rows = rows(ia, ib);
                    }
                    if let Some(c) = &mut ba {
                        c.rows = rows(ib, ia);
                    }
                }
                let outer = if W::PACKED {
                    &self.outer[..0]
                } else {
                    &self.outer[range.clone()]
                };
                visit(outer, &self.footprints[range], ab, ba);
            }
        }
    }
}

//! Counting every placement of an empty board by fixing a band of middle columns and joining
//! its two sides.
//!
//! The *band* is the middle `2k` columns of an even board, or the middle `2k + 1` of an odd
//! one; the *sides* are the `s` columns left of it (west) and right of it (east). A placement
//! is a *configuration* of the band (one queen per band column, none attacking another)
//! together with a west side and an east side, each one queen per column, on rows the band
//! leaves free: the west on a set `R` of `s` of them, the east on the other `s`. The band's
//! queens attack both sides, so each side is built with the band's queens on the board, once
//! per configuration (`side`: inner columns searched and grouped by rows, the two outer
//! ones completed per row set). A west side and an east side can only attack each other along
//! the `2s - 1` diagonals of each direction that cross both (less those the band's queens
//! hold), so each side is summed up by its *footprint*, at most `4s - 2` bits, and the two
//! make a placement exactly when their footprints are disjoint. Per configuration the count
//! is the sum over `R` of the disjoint pairs between the west footprints on `R` and the east
//! footprints on the other rows ([`kernel`]).
//!
//! Why a band: joining plain half boards pairs every west half with every east half of
//! complementary rows, most of which clash on the diagonals next to the middle. Fixing the
//! middle columns first removes those before any pair is tried: on the 16x16 board a band
//! of two columns tries 6.5 times fewer pairs than the half boards, for 1.6 times as many
//! sides. How wide the sides should be is a trade: wider sides make longer lists per row
//! set (fewer sides built per placement, and the fixed costs of a row set shared by more
//! placements) but more pairs tried per placement and more memory for the partial sides.
//! Sides of at most 8 columns fit `u32` words (footprints of 30 bits, 16 free rows), wider
//! ones `u64` words, which hold half as many footprints per vector ([`word`]). The default
//! band ([`Band::default_for`]) is the narrowest whose sides have at most 8 columns up to
//! n = 18 (the middle column alone on odd boards up to 17, two columns on even boards up to
//! 18), from 19 to 23 the band whose sides have 9 columns (one to five columns), and from 24
//! to 27 the band whose sides have 10 (four to seven columns): the fastest measured whose
//! memory stays reasonable (`experiments/nqueens/EXPERIMENTS.md`).
//!
//! Symmetry: mirroring the board (west and east exchanged) reverses a configuration, flipping
//! it upside down turns every row `r` into `n - 1 - r`; both map the placements with one
//! configuration onto those with its image, one to one. Only the smallest configuration of
//! each orbit is counted, times the size of the orbit. A configuration that is its own
//! mirror image (the middle column alone, say) has as many placements with west rows `R` as
//! with west rows the complement of `R`: only the smaller of the two is counted, twice.
//!
//! Work units ([`Plan`]): the `T` row sets of every configuration, configuration after
//! configuration, are numbered `0..units`; any range of them counts a disjoint part of the
//! placements, which makes ranges the units of parallel work (rayon) and of shards (a count
//! split over many processes or machines and summed).
//!
//! The files: this one holds the band, its configurations and the sides' geometry, and
//! counts one configuration's row sets; `side.rs` builds and completes the sides, `word.rs`
//! and [`kernel`] pair them, `plan.rs` numbers the work units and counts a range of them in
//! parallel ([`Plan`]), `tally.rs` keeps the sums ([`Tally`]), `tests.rs` and `reference.rs`
//! test it.
//!
//! ```
//! use chess_puzzles::nqueens::{band, Control};
//!
//! assert_eq!(band::count(8, &Control::new()), Some(92));
//! assert_eq!(band::count(14, &Control::new()), Some(365_596));
//! ```

pub mod kernel;
mod plan;
#[cfg(test)]
mod reference;
pub(crate) mod side;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
mod tally;
#[cfg(test)]
mod tests;
pub mod word;

use std::ops::{ControlFlow, Range};
use std::sync::Arc;

use super::control::Control;
use kernel::Kernel;
use plan::BATCH;
pub use plan::{Plan, SHARDS_PER_CONFIG};
pub(crate) use side::{Geometry, MAX_ROWS, MAX_SIDE};
use side::{Ranks, Side, Square};
pub use tally::{RESIDUE_MODULUS, Tally};
use word::Word;

/// The smallest side counted this way.
pub const MIN_N: usize = 6;

/// The largest side counted this way: beyond, the sides that keep the band's configurations
/// few enough to list (sides of 11 columns and more) need more memory than a machine has.
pub const MAX_N: usize = 27;

/// The most band columns.
const MAX_BAND: usize = MAX_N;

/// The geometry of a band: which columns it holds and how wide its sides are.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Band {
    n: usize,
    /// The band's first (west-most) column.
    first: usize,
    /// The number of band columns.
    width: usize,
    /// The number of columns of each side.
    side: usize,
}

/// A configuration of the band to count, with the size of its symmetry orbit.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct Config {
    /// The row of the queen of each band column, west to east (0-based).
    rows: [u8; MAX_BAND],
    /// How many configurations it stands for (1, 2 or 4).
    weight: u8,
    /// Whether it is its own mirror image.
    mirrored: bool,
}

impl Band {
    /// The band of `2k` middle columns of an even board (`2k + 1` of an odd one), if it has a
    /// column and both sides keep between 2 and 10 columns.
    pub fn new(n: usize, k: usize) -> Option<Band> {
        if !(MIN_N..=MAX_N).contains(&n) {
            return None;
        }
        let width = 2 * k + n % 2;
        let side = n.checked_sub(width)? / 2;
        if width == 0 || !(2..=MAX_SIDE).contains(&side) {
            return None;
        }
        Some(Band {
            n,
            first: side,
            width,
            side,
        })
    }

    /// The band of `n` whose sides have `side` columns, if there is one.
    pub fn with_side(n: usize, side: usize) -> Option<Band> {
        (0..=n / 2)
            .filter_map(|k| Band::new(n, k))
            .find(|band| band.side == side)
    }

    /// The band counted by default: from 19 to 23 sides of 9 columns (`u64` words; bands of
    /// one to five columns), the fastest measured whose sides' memory stays within a few
    /// hundred megabytes a thread (sides of 10 columns take 13.6 GB at n = 21, 5 GB at 23);
    /// from 24 to 27 sides of 10 (2.1, 1.6, 1.0 and 1.2 GB a thread at most), 2 to 28 times
    /// faster there than sides of 9 (whose bands of 6 to 9 columns have so many
    /// configurations that listing them costs more than counting); below 19 the narrowest
    /// band whose sides have at most 8 columns (`u32` words).
    pub fn default_for(n: usize) -> Option<Band> {
        match n {
            19..=23 => Band::with_side(n, 9),
            24.. => Band::with_side(n, 10),
            _ => (0..=n / 2)
                .filter_map(|k| Band::new(n, k))
                .find(|band| band.side <= u32::MAX_SIDE),
        }
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of columns of each side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The number of band columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of row sets of a configuration: `s` of the `2s` free rows.
    pub fn row_sets(&self) -> u64 {
        let m = 2 * self.side as u64;
        (0..self.side as u64).fold(1, |acc, i| acc * (m - i) / (i + 1))
    }

    /// Every configuration of the band that stands for its symmetry orbit, in increasing
    /// order of rows.
    pub fn configs(&self) -> Vec<Config> {
        let mut out = Vec::new();
        self.for_each_config(|_, config| {
            out.push(config);
            ControlFlow::Continue(())
        });
        out
    }

    /// The number of configurations that stand for their orbits; `None` when `control` said
    /// stop (asked every 4,096 configurations: at `n = 27`, listing them all takes
    /// about two seconds).
    pub fn count_configs(&self, control: &Control) -> Option<u64> {
        let mut count = 0;
        let mut stopped = false;
        self.for_each_config(|_, _| {
            count += 1;
            if count % BATCH as u64 == 0 && control.should_stop() {
                stopped = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        (!stopped).then_some(count)
    }

    /// Calls `visit` with the number (from 0) and the configuration of every configuration
    /// that stands for its orbit, in increasing order of rows, until it breaks. A bitmask
    /// search without allocation: a few nanoseconds a configuration.
    pub fn for_each_config(&self, mut visit: impl FnMut(u64, Config) -> ControlFlow<()>) {
        let (n, width) = (self.n, self.width);
        let all = u32::MAX >> (32 - n);
        let mut rows = [0u8; MAX_BAND];
        // Per column: the rows still to try, and the rows and diagonals taken before it.
        let mut open = [0u32; MAX_BAND];
        let mut taken = [(0u32, 0u32, 0u32); MAX_BAND];
        // A configuration is never smaller than its flip unless its first row is in the
        // upper half.
        open[0] = all >> (n - n.div_ceil(2));
        let mut c = 0;
        let mut index = 0;
        loop {
            if open[c] == 0 {
                if c == 0 {
                    return;
                }
                c -= 1;
                continue;
            }
            let r = open[c].trailing_zeros();
            open[c] &= open[c] - 1;
            rows[c] = r as u8;
            if c + 1 == width {
                if let Some(weight) = self.orbit_weight(&rows[..width]) {
                    let config = Config {
                        rows,
                        weight,
                        mirrored: rows[..width].iter().eq(rows[..width].iter().rev()),
                    };
                    if visit(index, config).is_break() {
                        return;
                    }
                    index += 1;
                }
                continue;
            }
            let bit = 1u32 << r;
            let (used, down, up) = taken[c];
            let next = (used | bit, (down | bit) << 1, (up | bit) >> 1);
            taken[c + 1] = next;
            c += 1;
            open[c] = all & !(next.0 | next.1 | next.2);
        }
    }

    /// The size of the orbit of `rows` under mirroring and flipping, if `rows` is the
    /// smallest of its orbit.
    fn orbit_weight(&self, rows: &[u8]) -> Option<u8> {
        let last = (self.n - 1) as u8;
        let w = rows.len();
        let mirror = |i: usize| rows[w - 1 - i];
        let flip = |i: usize| last - rows[i];
        let turn = |i: usize| last - rows[w - 1 - i];
        let mut distinct = 1;
        for image in [&mirror as &dyn Fn(usize) -> u8, &flip, &turn] {
            // How `rows` compares with the image, at the first element where they differ.
            match (0..w).map(|i| rows[i].cmp(&image(i))).find(|o| o.is_ne()) {
                Some(std::cmp::Ordering::Greater) => return None,
                Some(_) => distinct += 1,
                None => {}
            }
        }
        // The orbit has 1, 2 or 4 members: the images differing from `rows` are all distinct
        // from each other, or pair up.
        Some(match distinct {
            4 => 4,
            1 => 1,
            _ => 2,
        })
    }

    /// The shared diagonals' bit assignment and the band's queens for `config`: per board
    /// square, its footprint bits, and whether a band queen attacks it.
    fn layout(&self, config: &Config) -> Layout {
        let n = self.n;
        let s = self.side;
        let band: Vec<(usize, usize)> = (0..self.width)
            .map(|i| (usize::from(config.rows[i]), self.first + i))
            .collect();
        // The shared diagonals: row + column in n - s ..= n + s - 2, row - column in
        // -(s - 1) ..= s - 1; those a band queen holds are left out (no side can use them).
        let down_held = |d: usize| band.iter().any(|&(r, c)| r + c == d);
        let up_held = |u: isize| band.iter().any(|&(r, c)| r as isize - c as isize == u);
        let mut down_bit = [0u64; 2 * MAX_N];
        let mut up_bit = [0u64; 2 * MAX_N];
        let mut bit = 0;
        for (d, slot) in down_bit.iter_mut().enumerate().take(n + s - 1).skip(n - s) {
            if !down_held(d) {
                *slot = 1 << bit;
                bit += 1;
            }
        }
        let s_i = s as isize;
        for u in -(s_i - 1)..=(s_i - 1) {
            if !up_held(u) {
                up_bit[(u + MAX_N as isize) as usize] = 1 << bit;
                bit += 1;
            }
        }
        debug_assert!(bit <= u64::MAX_BITS);
        let free_rows: Vec<usize> = (0..n)
            .filter(|&r| band.iter().all(|&(b, _)| b != r))
            .collect();
        Layout {
            band,
            down_bit,
            up_bit,
            free_rows,
        }
    }

    /// The geometry of the side on `columns` (listed from the band outward), for words `W`.
    fn geometry<W: Word>(&self, layout: &Layout, columns: &[usize]) -> Geometry {
        let s = self.side;
        let left = columns.iter().copied().min().unwrap_or(0);
        let mut free_index = [None; MAX_ROWS];
        for (i, &r) in layout.free_rows.iter().enumerate() {
            free_index[r] = Some(i);
        }
        let mut squares = [[None; MAX_ROWS]; MAX_SIDE];
        for (i, (table, &c)) in squares.iter_mut().zip(columns).enumerate() {
            for (r, square) in table.iter_mut().enumerate().take(self.n) {
                let attacked = layout
                    .band
                    .iter()
                    .any(|&(br, bc)| br == r || br + c == r + bc || br + bc == r + c);
                if attacked {
                    continue;
                }
                // The free rows it attacks diagonally in the two outer columns.
                let mut outer = 0u64;
                for (shift, j) in [(0, s - 2), (W::LAST, s - 1)] {
                    if j <= i {
                        continue;
                    }
                    let d = (j - i) as isize;
                    for row in [r as isize - d, r as isize + d] {
                        if let Some(Some(k)) = usize::try_from(row)
                            .ok()
                            .and_then(|r| (r < self.n).then(|| free_index[r]))
                        {
                            outer |= 1 << (shift + k);
                        }
                    }
                }
                let cl = c - left;
                *square = Some(Square {
                    diagonals: 1u128 << (r + cl) | 1u128 << (64 + r + s - 1 - cl),
                    outer,
                    footprint: layout.down_bit[r + c]
                        | layout.up_bit[(r as isize - c as isize + MAX_N as isize) as usize],
                });
            }
        }
        let mut row_bit = [None; MAX_ROWS];
        for (i, &r) in layout.free_rows.iter().enumerate() {
            row_bit[r] = Some(1 << i);
        }
        Geometry {
            columns: s,
            n: self.n,
            squares,
            row_bit,
        }
    }

    /// The geometries of the two sides of `config` (west, east; columns from the band
    /// outward), in the layout of `u64` words: what another counter of the same work units
    /// (the GPU's) starts from.
    #[cfg(feature = "gpu")]
    pub(crate) fn side_geometries(&self, config: &Config) -> [Geometry; 2] {
        let layout = self.layout(config);
        let west: Vec<usize> = (0..self.first).rev().collect();
        let east: Vec<usize> = (self.first + self.width..self.n).collect();
        [
            self.geometry::<u64>(&layout, &west),
            self.geometry::<u64>(&layout, &east),
        ]
    }

    /// Builds the two sides of `config` into `sides`, their search compiled for BMI where the
    /// processor has it if `fast`.
    fn build<W: Word>(
        &self,
        config: &Config,
        ranks: &Ranks,
        sides: &mut Sides<W>,
        fast: bool,
        control: &Control,
    ) -> bool {
        let layout = self.layout(config);
        let west: Vec<usize> = (0..self.first).rev().collect();
        let east: Vec<usize> = (self.first + self.width..self.n).collect();
        let (w, e) = (&mut sides.west, &mut sides.east);
        let (west, east) = rayon::join(
            || w.build(&self.geometry::<W>(&layout, &west), ranks, fast, control),
            || e.build(&self.geometry::<W>(&layout, &east), ranks, fast, control),
        );
        west && east
    }

    /// The number of placements with the band on `config` (its own, not its orbit's) and the
    /// west on the row sets numbered `range` (in increasing order of their masks), skipping
    /// those that symmetry counts elsewhere.
    fn count_row_sets<W: Word>(
        &self,
        config: &Config,
        sides: &Sides<W>,
        range: Range<u64>,
        work: &mut Workspace<W>,
    ) -> Tally {
        let s = self.side;
        let all = (1u32 << (2 * s)) - 1;
        let mut total = Tally::default();
        let mut set = unrank(range.start, s);
        for _ in range {
            // A mirrored configuration counts the smaller of a set and its complement, twice.
            let counted = !config.mirrored || set < all ^ set;
            if counted {
                sides
                    .west
                    .sides_on(&sides.ranks, set, work.fast, &mut work.west);
                if !work.west.is_empty() {
                    sides
                        .east
                        .sides_on(&sides.ranks, all ^ set, work.fast, &mut work.east);
                    if !work.east.is_empty() {
                        let pairs = work.kernel.disjoint_pairs(&work.west, &work.east);
                        total.add(if config.mirrored { 2 * pairs } else { pairs });
                    }
                }
            }
            set = next_set(set);
        }
        total
    }

    /// The ranks of the partial sides' row sets.
    fn ranks(&self) -> Arc<Ranks> {
        Arc::new(Ranks::new(2 * self.side, self.side - 2))
    }

    /// The number of placements with the band on `config` (its own, not its orbit's), with
    /// words `W` (`u32` holds sides of at most [`Word::MAX_SIDE`] = 8 columns).
    pub fn count_config<W: Word>(&self, config: &Config, work: &mut Workspace<W>) -> u64 {
        assert!(self.side <= W::MAX_SIDE, "a side of {} columns", self.side);
        let mut sides = Sides::new(self.ranks());
        let ranks = sides.ranks.clone();
        let built = self.build(config, &ranks, &mut sides, work.fast, &Control::new());
        debug_assert!(built);
        let tally = self.count_row_sets(config, &sides, 0..self.row_sets(), work);
        debug_assert!(tally.verified());
        tally.count as u64
    }
}

/// The set of `ones` bits numbered `index` in increasing order of masks (colex order).
fn unrank(index: u64, ones: usize) -> u32 {
    let binomial = |n: u64, k: u64| (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let mut set = 0;
    let mut rest = index;
    for k in (1..=ones as u64).rev() {
        // The largest c with C(c, k) <= rest.
        let mut c = k - 1;
        while binomial(c + 1, k) <= rest {
            c += 1;
        }
        set |= 1 << c;
        rest -= binomial(c, k);
    }
    set
}

/// The next set with as many bits, in increasing order of masks.
#[inline]
fn next_set(set: u32) -> u32 {
    let low = set & set.wrapping_neg();
    let ripple = set.wrapping_add(low);
    ripple | (((set ^ ripple) >> 2) / low)
}

/// Where the band's queens stand and how the shared diagonals are numbered.
struct Layout {
    band: Vec<(usize, usize)>,
    down_bit: [u64; 2 * MAX_N],
    up_bit: [u64; 2 * MAX_N],
    /// The rows without a band queen, top to bottom.
    free_rows: Vec<usize>,
}

/// The two sides of one configuration, built once and shared by the threads that count its
/// row sets.
#[derive(Debug)]
struct Sides<W> {
    ranks: Arc<Ranks>,
    west: Side<W>,
    east: Side<W>,
}

impl<W: Word> Sides<W> {
    fn new(ranks: Arc<Ranks>) -> Sides<W> {
        Sides {
            ranks,
            west: Side::default(),
            east: Side::default(),
        }
    }
}

impl Config {
    /// How many configurations this one stands for.
    pub fn weight(&self) -> u64 {
        u64::from(self.weight)
    }

    /// Whether it is its own mirror image (then only the smaller of a row set and its
    /// complement is counted, twice).
    pub fn mirrored(&self) -> bool {
        self.mirrored
    }
}

/// The buffers of one thread: the sides of the row set being counted.
#[derive(Debug)]
pub struct Workspace<W> {
    west: Vec<W>,
    east: Vec<W>,
    kernel: Kernel,
    /// Whether the sides may be built with BMI and completed with AVX-512.
    fast: bool,
}

impl<W: Word> Default for Workspace<W> {
    fn default() -> Workspace<W> {
        Workspace::new(Kernel::detect(), true)
    }
}

impl<W: Word> Workspace<W> {
    /// A workspace counting with `kernel`, its sides built with BMI and completed with AVX-512
    /// if `fast` (and the processor has them).
    pub fn new(kernel: Kernel, fast: bool) -> Workspace<W> {
        Workspace {
            west: Vec::new(),
            east: Vec::new(),
            kernel,
            fast,
        }
    }
}

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board, for
/// [`MIN_N`]` <= n <= `[`MAX_N`]; `None` otherwise or when `control` said stop. Counts on the
/// current rayon pool; progress in row sets.
pub fn count(n: usize, control: &Control) -> Option<u128> {
    let plan = Plan::new(n, control)?;
    let tally = plan.count(0..plan.units(), control)?;
    // An overflow anywhere in the sums would show here; none is possible below 2^64
    // placements per row set, but the check costs nothing.
    assert!(
        tally.verified(),
        "the count {} fails its residue",
        tally.count
    );
    Some(tally.count)
}

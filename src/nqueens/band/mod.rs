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
//! ```
//! use chess_puzzles::nqueens::{band, Control};
//!
//! assert_eq!(band::count(8, &Control::new()), Some(92));
//! assert_eq!(band::count(14, &Control::new()), Some(365_596));
//! ```

pub mod kernel;
#[cfg(test)]
mod reference;
pub(crate) mod side;
pub mod word;

use std::ops::{ControlFlow, Range};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::control::Control;
use kernel::Kernel;
pub(crate) use side::{Geometry, MAX_ROWS, MAX_SIDE};
use side::{Ranks, Side, Square};
use word::Word;

/// The smallest side counted this way.
pub const MIN_N: usize = 6;

/// The largest side counted this way: beyond, the sides that keep the band's configurations
/// few enough to list (sides of 11 columns and more) need more memory than a machine has.
pub const MAX_N: usize = 27;

/// The most band columns.
const MAX_BAND: usize = MAX_N;

/// Row sets per work item handed to a thread.
const CHUNK: u64 = 256;

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

/// The modulus of a [`Tally`]'s residue: the Mersenne prime 2^61 - 1.
pub const RESIDUE_MODULUS: u64 = (1 << 61) - 1;

/// A count and, kept apart, the same count modulo [`RESIDUE_MODULUS`]: every addition is
/// made twice, in 128-bit and in modular arithmetic, so that an overflow or a lost carry
/// anywhere in the sums shows as a count that does not match its residue.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Tally {
    /// The placements counted.
    pub count: u128,
    /// The same, modulo [`RESIDUE_MODULUS`], summed separately.
    pub residue: u64,
}

impl Tally {
    /// Adds `n` placements.
    #[inline]
    pub(crate) fn add(&mut self, n: u64) {
        self.count += u128::from(n);
        self.residue = modular_sum(self.residue, n % RESIDUE_MODULUS);
    }

    /// The tally `factor` times over.
    pub(crate) fn times(self, factor: u64) -> Tally {
        Tally {
            count: self.count * u128::from(factor),
            residue: (u128::from(self.residue) * u128::from(factor) % u128::from(RESIDUE_MODULUS))
                as u64,
        }
    }

    /// The sum of two tallies.
    pub(crate) fn plus(self, other: Tally) -> Tally {
        Tally {
            count: self.count + other.count,
            residue: modular_sum(self.residue, other.residue),
        }
    }

    /// Whether the count matches its residue.
    pub fn verified(&self) -> bool {
        self.count % u128::from(RESIDUE_MODULUS) == u128::from(self.residue)
    }
}

/// `a + b` modulo [`RESIDUE_MODULUS`], for `a, b` below it.
#[inline]
fn modular_sum(a: u64, b: u64) -> u64 {
    let sum = a + b;
    if sum >= RESIDUE_MODULUS {
        sum - RESIDUE_MODULUS
    } else {
        sum
    }
}

/// Shards per configuration at most, on average, before the band of a sharded count is
/// narrowed. A shard builds the sides of every configuration it touches, whole, so a
/// configuration split over many shards is built many times: at n = 20 and K = 1,000 (90
/// configurations of sides of 9, each built in about 0.6 s, against 0.12 s of pairing per
/// shard) the shards take 6 times the whole count's CPU with sides of 9 and 3.7 times with
/// sides of 8. But a narrower band is slower in itself (sides of 8 take 5 times as long as
/// sides of 9 at n = 21), so it is narrowed only when the configurations are this much fewer
/// than the shards: at n = 21 and K = 1,000 the 1,476 configurations of sides of 9 are kept
/// (the shards then take 1.13 times the whole count's CPU).
pub const SHARDS_PER_CONFIG: u64 = 4;

/// The band is not narrowed for shards beyond about this many configurations (listing them
/// takes about a second; each column more multiplies them by 10 to 20).
const MAX_CONFIGS: u64 = 100_000_000;

/// Configurations counted together (their sides built and counted in parallel) before the
/// next are listed: a count holds only these in memory, whatever the board.
const BATCH: usize = 4096;

/// A count laid out as numbered work units: the row sets of every configuration of a band.
/// The configurations are listed when counted, never stored all at once: a range of units
/// lists only the configurations it counts (and walks past those before it).
#[derive(Clone, Debug)]
pub struct Plan {
    band: Band,
    /// The configurations, one per orbit.
    configs: u64,
    /// Row sets per configuration.
    row_sets: u64,
}

impl Plan {
    /// The plan of the default band of `n`, if `n` can be counted this way; `None` otherwise,
    /// or when `control` said stop while the configurations were counted.
    pub fn new(n: usize, control: &Control) -> Option<Plan> {
        Plan::with_band(Band::default_for(n)?, control)
    }

    /// The plan of a count of `n` split into `shards`: the default band, narrowed (sides one
    /// column narrower at a time) while it has fewer than one configuration per
    /// [`SHARDS_PER_CONFIG`] shards, unless one step more would pass `MAX_CONFIGS` in all.
    /// `None` as for [`Plan::new`].
    pub fn for_shards(n: usize, shards: u64, control: &Control) -> Option<Plan> {
        let mut plan = Plan::new(n, control)?;
        while plan.configs.saturating_mul(SHARDS_PER_CONFIG) < shards
            && plan.configs.saturating_mul(20) <= MAX_CONFIGS
        {
            match Band::with_side(n, plan.band.side - 1) {
                Some(band) => plan = Plan::with_band(band, control)?,
                None => break,
            }
        }
        Some(plan)
    }

    /// The plan of `band`; `None` when `control` said stop while its configurations were
    /// counted.
    pub fn with_band(band: Band, control: &Control) -> Option<Plan> {
        Some(Plan {
            band,
            configs: band.count_configs(control)?,
            row_sets: band.row_sets(),
        })
    }

    /// The band the count is split by: its columns and the width of its sides.
    pub fn band(&self) -> &Band {
        &self.band
    }

    /// The number of row sets of each configuration: units `i * row_sets .. (i + 1) *
    /// row_sets` are the row sets of configuration `i`.
    pub fn row_sets(&self) -> u64 {
        self.row_sets
    }

    /// Calls `visit` with the number, the configuration and the row sets (numbered within it)
    /// of every configuration that has units in `range`, in order, until it breaks.
    #[cfg(feature = "gpu")]
    pub(crate) fn walk(
        &self,
        range: Range<u64>,
        mut visit: impl FnMut(u64, Config, Range<u64>) -> ControlFlow<()>,
    ) {
        let range = range.start.min(self.units())..range.end.min(self.units());
        if range.is_empty() {
            return;
        }
        let first = range.start / self.row_sets;
        let last = (range.end - 1) / self.row_sets;
        self.band.for_each_config(|index, config| {
            if index < first {
                return ControlFlow::Continue(());
            }
            let base = index * self.row_sets;
            let sets = range.start.max(base) - base..range.end.min(base + self.row_sets) - base;
            if visit(index, config, sets).is_break() || index == last {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
    }

    /// The placements of the units `units` of configuration `config` (numbered `index`),
    /// each row set counted alone, weighted by symmetry: the sides built once for all of them.
    /// For units another counter gave back (a GPU list that outgrew its buffer).
    #[cfg(feature = "gpu")]
    pub(crate) fn count_units(&self, config: &Config, sets: &[u64]) -> Tally {
        if self.band.side <= u32::MAX_SIDE {
            self.count_units_with::<u32>(config, sets)
        } else {
            self.count_units_with::<u64>(config, sets)
        }
    }

    /// [`Plan::count_units`] with words `W`.
    #[cfg(feature = "gpu")]
    fn count_units_with<W: Word>(&self, config: &Config, sets: &[u64]) -> Tally {
        let mut total = Tally::default();
        if sets.is_empty() {
            return total;
        }
        let ranks = self.band.ranks();
        let mut sides = Sides::<W>::new(ranks.clone());
        let mut work = Workspace::default();
        self.band
            .build(config, &ranks, &mut sides, true, &Control::new());
        for &set in sets {
            let tally = self
                .band
                .count_row_sets(config, &sides, set..set + 1, &mut work);
            total = total.plus(tally);
        }
        total.times(config.weight())
    }

    /// The number of work units.
    pub fn units(&self) -> u64 {
        self.configs * self.row_sets
    }

    /// The units of shard `index` of `shards` (`index < shards`): the whole range cut into
    /// `shards` consecutive pieces of equal length (to within one), so that the shards are
    /// disjoint and cover every unit whatever the number of shards.
    pub fn shard(&self, index: u64, shards: u64) -> Range<u64> {
        let units = u128::from(self.units());
        let cut = |i: u64| (units * u128::from(i) / u128::from(shards)) as u64;
        cut(index)..cut(index + 1)
    }

    /// The placements counted by the units `range`, weighted by symmetry, with their residue;
    /// `None` when `control` said stop. Counts on the current rayon pool; progress in row
    /// sets.
    pub fn count(&self, range: Range<u64>, control: &Control) -> Option<Tally> {
        if self.band.side <= u32::MAX_SIDE {
            self.count_with::<u32>(range, control)
        } else {
            self.count_with::<u64>(range, control)
        }
    }

    /// [`Plan::count`] with words `W`.
    fn count_with<W: Word>(&self, range: Range<u64>, control: &Control) -> Option<Tally> {
        let range = range.start.min(self.units())..range.end.min(self.units());
        control.add_total(range.end.saturating_sub(range.start));
        if range.is_empty() {
            return Some(Tally::default());
        }
        let first = range.start / self.row_sets;
        let last = (range.end - 1) / self.row_sets;
        let ranks = self.band.ranks();
        // The memory of configurations done with, reused (fresh pages cost page faults).
        let spare_sides: Mutex<Vec<Sides<W>>> = Mutex::new(Vec::new());
        let spare_work: Mutex<Vec<Workspace<W>>> = Mutex::new(Vec::new());
        let mut total = Tally::default();
        let mut stopped = false;
        let mut batch: Vec<(u64, Config)> = Vec::with_capacity(BATCH);
        let flush = |batch: &mut Vec<(u64, Config)>, total: &mut Tally| {
            let counted =
                self.count_batch(batch, &range, &ranks, &spare_sides, &spare_work, control);
            batch.clear();
            counted.map(|tally| *total = total.plus(tally)).is_some()
        };
        self.band.for_each_config(|index, config| {
            if index < first {
                return ControlFlow::Continue(());
            }
            batch.push((index, config));
            if batch.len() == BATCH && !flush(&mut batch, &mut total) || control.should_stop() {
                stopped = true;
                return ControlFlow::Break(());
            }
            if index == last {
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        });
        if !stopped && !batch.is_empty() && !flush(&mut batch, &mut total) {
            stopped = true;
        }
        (!stopped).then_some(total)
    }

    /// The units of `range` that belong to the configurations of `batch` (numbered), counted
    /// in parallel: a configuration's sides are built once (its two sides at the same time),
    /// then its row sets counted in items of at most [`CHUNK`], in parallel. Nested parallel
    /// loops rather than sides built on demand under a lock: a thread that needs sides
    /// another is building helps build them instead of waiting.
    fn count_batch<W: Word>(
        &self,
        batch: &[(u64, Config)],
        range: &Range<u64>,
        ranks: &Arc<Ranks>,
        spare_sides: &Mutex<Vec<Sides<W>>>,
        spare_work: &Mutex<Vec<Workspace<W>>>,
        control: &Control,
    ) -> Option<Tally> {
        batch
            .par_iter()
            .map(|&(index, ref config)| {
                if control.should_stop() {
                    return None;
                }
                // This configuration's row sets within the range.
                let base = index * self.row_sets;
                let sets = range.start.max(base) - base..range.end.min(base + self.row_sets) - base;
                let chunks: Vec<Range<u64>> = (sets.start..sets.end)
                    .step_by(CHUNK as usize)
                    .map(|at| at..(at + CHUNK).min(sets.end))
                    .collect();
                let mut sides = pop(spare_sides).unwrap_or_else(|| Sides::new(ranks.clone()));
                if !self.band.build(config, ranks, &mut sides, true, control) {
                    push(spare_sides, sides);
                    return None;
                }
                let tally = chunks
                    .into_par_iter()
                    .map(|sets| {
                        if control.should_stop() {
                            return None;
                        }
                        let mut work = pop(spare_work).unwrap_or_default();
                        let size = sets.end - sets.start;
                        let tally = self.band.count_row_sets(config, &sides, sets, &mut work);
                        push(spare_work, work);
                        control.add_done(size);
                        Some(tally)
                    })
                    .try_reduce(Tally::default, |a, b| Some(a.plus(b)));
                push(spare_sides, sides);
                Some(tally?.times(u64::from(config.weight)))
            })
            .try_reduce(Tally::default, |a, b| Some(a.plus(b)))
    }
}

/// The last value of a pool of spare memory, if any.
fn pop<T>(pool: &Mutex<Vec<T>>) -> Option<T> {
    pool.lock().unwrap_or_else(|e| e.into_inner()).pop()
}

/// Gives a value back to a pool of spare memory.
fn push<T>(pool: &Mutex<Vec<T>>, value: T) {
    pool.lock().unwrap_or_else(|e| e.into_inner()).push(value);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::placements;

    /// OEIS A000170 from n = 6.
    const A000170: [u128; 11] = [
        4, 40, 92, 352, 724, 2680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512,
    ];

    #[test]
    fn counts_match_the_backtracker() {
        for n in MIN_N..=10 {
            let expected = placements::all(n).len() as u128;
            assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
        }
    }

    #[test]
    fn counts_match_oeis() {
        for (i, &expected) in A000170.iter().enumerate() {
            let n = MIN_N + i;
            assert_eq!(count(n, &Control::new()), Some(expected), "n = {n}");
        }
    }

    #[test]
    fn every_band_width_gives_the_same_count() {
        for n in MIN_N..=13 {
            let expected = placements::all(n).len() as u128;
            for k in 0..=n / 2 {
                if let Some(band) = Band::new(n, k) {
                    let plan = Plan::with_band(band, &Control::new()).unwrap();
                    let got = plan.count(0..plan.units(), &Control::new()).unwrap();
                    assert!(got.verified());
                    assert_eq!(got.count, expected, "n = {n}, band {}", band.width());
                }
            }
        }
    }

    /// The band's queens of `config` as (row, column), and the side columns.
    fn board(band: &Band, config: &Config) -> (Vec<(usize, usize)>, Vec<usize>, Vec<usize>) {
        let queens = (0..band.width)
            .map(|i| (usize::from(config.rows[i]), band.first + i))
            .collect();
        let west = (0..band.first).collect();
        let east = (band.first + band.width..band.n).collect();
        (queens, west, east)
    }

    /// Every kernel, with and without the vectorised completion, in words `W`.
    fn workspaces<W: Word>() -> Vec<Workspace<W>> {
        Kernel::available()
            .into_iter()
            .flat_map(|kernel| [Workspace::new(kernel, false), Workspace::new(kernel, true)])
            .collect()
    }

    /// Checks every configuration of `band` against the reference, with every workspace.
    fn check_every_configuration<W: Word>(band: &Band, works: &mut [Workspace<W>]) {
        for config in band.configs() {
            let (queens, west, east) = board(band, &config);
            let expected = reference::count(band.n, &queens, &west, &east);
            for work in works.iter_mut() {
                assert_eq!(
                    band.count_config(&config, work),
                    expected,
                    "n = {}, band {}, {config:?}, {:?}",
                    band.n,
                    band.width,
                    work.kernel
                );
            }
        }
    }

    #[test]
    fn every_configuration_matches_the_reference() {
        // Every band width of small boards, every configuration, every kernel, with and
        // without the vectorised completion, in both words where the side fits them.
        let (mut narrow, mut wide) = (workspaces::<u32>(), workspaces::<u64>());
        for n in MIN_N..=11 {
            for k in 0..=n / 2 {
                let Some(band) = Band::new(n, k) else {
                    continue;
                };
                if band.side <= u32::MAX_SIDE {
                    check_every_configuration(&band, &mut narrow);
                }
                check_every_configuration(&band, &mut wide);
            }
        }
    }

    #[test]
    fn sampled_configurations_of_larger_boards_match_the_reference() {
        use rand::RngExt;
        let mut rng = crate::judge::rng(3);
        for n in [12, 13, 14, 15, 16] {
            let band = Band::default_for(n).unwrap();
            let configs = band.configs();
            let (mut narrow, mut wide) = (Workspace::<u32>::default(), Workspace::<u64>::default());
            for _ in 0..6 {
                let config = configs[rng.random_range(0..configs.len())];
                let (queens, west, east) = board(&band, &config);
                let expected = reference::count(n, &queens, &west, &east);
                assert_eq!(
                    band.count_config(&config, &mut wide),
                    expected,
                    "n = {n}, {config:?}"
                );
                if band.side <= u32::MAX_SIDE {
                    assert_eq!(band.count_config(&config, &mut narrow), expected, "n = {n}");
                }
            }
        }
    }

    /// Every configuration of `band` (not only one per orbit), each counted for itself.
    fn every_config(band: &Band) -> Vec<Config> {
        fn walk(b: &Band, c: usize, rows: &mut [u8; MAX_BAND], out: &mut Vec<Config>) {
            if c == b.width {
                out.push(Config {
                    rows: *rows,
                    weight: 1,
                    mirrored: false,
                });
                return;
            }
            for r in 0..b.n {
                let ok = (0..c).all(|p| {
                    let q = usize::from(rows[p]);
                    q != r && q.abs_diff(r) != c - p
                });
                if ok {
                    rows[c] = r as u8;
                    walk(b, c + 1, rows, out);
                }
            }
        }
        let mut out = Vec::new();
        walk(band, 0, &mut [0; MAX_BAND], &mut out);
        out
    }

    #[test]
    fn wide_sides_agree_with_a_wider_band() {
        // Sides of 9 columns (u64 words, 18 free rows, footprints of up to 34 bits): the
        // placements with the middle queens of n = 19 and 20 on given rows, counted by a band
        // of one or two columns, and as the sum over the bands of three or four columns (sides
        // of 8) that have those middle queens: two decompositions of the same placements.
        for (n, middle) in [(19usize, &[5u8][..]), (20, &[3, 11][..])] {
            let k = 1 - n % 2;
            let (wide, narrow) = (Band::new(n, k).unwrap(), Band::new(n, k + 1).unwrap());
            assert_eq!((wide.side, narrow.side), (9, 8));
            let mut rows = [0u8; MAX_BAND];
            rows[..middle.len()].copy_from_slice(middle);
            let config = Config {
                rows,
                weight: 1,
                mirrored: false,
            };
            let mut work = Workspace::<u64>::default();
            let by_wide = wide.count_config(&config, &mut work);
            let mut narrow_work = Workspace::<u32>::default();
            let by_narrow: u64 = every_config(&narrow)
                .iter()
                .filter(|c| &c.rows[1..1 + middle.len()] == middle)
                .map(|c| narrow.count_config(c, &mut narrow_work))
                .sum();
            assert!(by_wide > 0);
            assert_eq!(by_wide, by_narrow, "n = {n}, middle {middle:?}");
        }
    }

    #[test]
    fn orbit_weights_cover_every_configuration() {
        // The weights of the canonical configurations add up to all configurations.
        for n in [6, 7, 10, 11] {
            for k in 1..=2 {
                let Some(band) = Band::new(n, k) else {
                    continue;
                };
                let all = every_config(&band).len() as u64;
                let weighted: u64 = band.configs().iter().map(Config::weight).sum();
                assert_eq!(weighted, all, "n = {n}, k = {k}");
            }
        }
    }

    #[test]
    fn shards_add_up_to_the_whole_count() {
        use rand::RngExt;
        let mut rng = crate::judge::rng(11);
        for n in [8, 9, 12, 13] {
            let plan = Plan::new(n, &Control::new()).unwrap();
            let whole = plan.count(0..plan.units(), &Control::new()).unwrap().count;
            let units = plan.units();
            let mut counts = vec![1, 2, 3, 7, 100, units - 1, units, units + 5];
            counts.extend((0..4).map(|_| rng.random_range(1..=units + 10)));
            for shards in counts {
                let mut sum = Tally::default();
                let mut next = 0;
                for i in 0..shards {
                    let range = plan.shard(i, shards);
                    // Consecutive, disjoint, covering.
                    assert_eq!(range.start, next, "n = {n}, {i} of {shards}");
                    next = range.end;
                    let part = plan.count(range, &Control::new()).unwrap();
                    assert!(part.verified());
                    sum = sum.plus(part);
                }
                assert_eq!(next, units);
                assert_eq!(sum.count, whole, "n = {n}, {shards} shards");
                assert!(sum.verified());
            }
        }
    }

    #[test]
    fn row_sets_are_numbered_in_order() {
        for s in 2..=MAX_SIDE {
            let band = Band {
                n: 2 * s + 2,
                first: s,
                width: 2,
                side: s,
            };
            let mut set = (1u32 << s) - 1;
            for i in 0..band.row_sets() {
                assert_eq!(unrank(i, s), set, "s = {s}, set {i}");
                assert_eq!(set.count_ones() as usize, s);
                set = next_set(set);
            }
            assert!(set >= 1 << (2 * s), "s = {s}: the last set is the largest");
        }
    }

    #[test]
    fn stops_when_asked() {
        let control = Control::new();
        control.stop();
        assert_eq!(count(14, &control), None);
    }

    #[test]
    fn out_of_range_sides_are_refused() {
        assert_eq!(count(5, &Control::new()), None);
        assert_eq!(count(MAX_N + 1, &Control::new()), None);
        assert!(Band::new(12, 0).is_none());
        assert!(Band::new(12, 5).is_none());
    }
}

//! Counting every placement of an empty board by fixing a band of middle columns and joining
//! its two sides.
//!
//! The *band* is the middle `2k` columns of an even board, or the middle `2k + 1` of an odd
//! one; the *sides* are the `s` columns left of it (west) and right of it (east). A placement
//! is a *configuration* of the band (one queen per band column, none attacking another)
//! together with a west side and an east side, each one queen per column, on rows the band
//! leaves free: the west on a set `R` of `s` of them, the east on the others. The band's
//! queens attack both sides, so each side is searched with the band's queens on the board,
//! once per configuration. A west side and an east side attack each other only along the
//! `2s - 1` diagonals of each direction that cross both sides (less those the band's queens
//! hold), so each side is summed up by its *footprint*, at most `4s - 2` bits, and the two
//! make a placement exactly when their footprints are disjoint. Per configuration, the count
//! is the sum over `R` of the disjoint pairs between the west footprints on `R` and the east
//! footprints on the other rows ([`kernel`]).
//!
//! Why a band: joining plain half boards (a band of zero or one column) pairs every west half
//! with every east half of complementary rows, most of which clash on the diagonals next to
//! the middle. Fixing the middle columns first removes those before any pair is tried: on the
//! 16x16 board the band of two columns tries 6.5 times fewer pairs than the half boards, for
//! 1.6 times as many sides searched; each further pair of band columns divides the pairs by
//! about four again and multiplies the sides by about 1.5 (measured on 10x10 to 16x16). The
//! default band keeps sides of at most 8 columns (footprints of 30 bits, row sets of 16 bits):
//! 2 columns for sides 12 to 18, 4 for 19 and 20, and so on; every configuration then has
//! its two sides and their groups in a few megabytes.
//!
//! Symmetry: mirroring the board (west and east exchanged) reverses a configuration, flipping
//! it upside down turns every row `r` into `n - 1 - r`; both map placements with one
//! configuration onto placements with its image, one to one. Only the smallest configuration
//! of each orbit is counted, times the size of the orbit.
//!
//! Work units: the configurations are independent, which makes them the units of parallel
//! work ([rayon]) and of shards ([`Plan`]): any set of them counts a disjoint part of the
//! placements.
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
mod side;

use rayon::prelude::*;

use super::Control;
use kernel::Kernel;
use side::{Geometry, MAX_ROWS, MAX_SIDE, Ranks, Side, Square};

/// The smallest side counted this way (sides of two columns around a band of two or three).
pub const MIN_N: usize = 6;

/// The largest side counted this way (a side's diagonals are `u32` masks: `n + 7` of them).
pub const MAX_N: usize = 25;

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
}

impl Band {
    /// The band of `2k` middle columns of an even board (`2k + 1` of an odd one), if both
    /// sides keep between 2 and [`MAX_SIDE`] columns.
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

    /// The narrowest band (at least two columns) whose sides have at most [`MAX_SIDE`]
    /// columns: the fastest measured.
    pub fn default_for(n: usize) -> Option<Band> {
        (1..=n / 2).find_map(|k| Band::new(n, k))
    }

    /// The board side.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of band columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Every configuration of the band that stands for its symmetry orbit, in increasing
    /// order of rows.
    pub fn configs(&self) -> Vec<Config> {
        let mut out = Vec::new();
        let mut rows = [0u8; MAX_BAND];
        self.configs_from(0, &mut rows, &mut out);
        out
    }

    fn configs_from(&self, c: usize, rows: &mut [u8; MAX_BAND], out: &mut Vec<Config>) {
        if c == self.width {
            if let Some(weight) = self.orbit_weight(&rows[..self.width]) {
                out.push(Config {
                    rows: *rows,
                    weight,
                });
            }
            return;
        }
        for r in 0..self.n {
            let clash = (0..c).any(|p| {
                let q = usize::from(rows[p]);
                q == r || q.abs_diff(r) == c - p
            });
            if !clash {
                rows[c] = r as u8;
                self.configs_from(c + 1, rows, out);
            }
        }
    }

    /// The size of the orbit of `rows` under mirroring and flipping, if `rows` is the
    /// smallest of its orbit.
    fn orbit_weight(&self, rows: &[u8]) -> Option<u8> {
        let last = (self.n - 1) as u8;
        let mirror: Vec<u8> = rows.iter().rev().copied().collect();
        let flip: Vec<u8> = rows.iter().map(|&r| last - r).collect();
        let turn: Vec<u8> = mirror.iter().map(|&r| last - r).collect();
        let mut orbit = [rows, &mirror[..], &flip[..], &turn[..]];
        if orbit.iter().any(|image| *image < rows) {
            return None;
        }
        orbit.sort_unstable();
        Some(1 + orbit.windows(2).filter(|w| w[0] != w[1]).count() as u8)
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
        let mut down_bit = [0u32; 2 * MAX_N];
        let mut up_bit = [0u32; 2 * MAX_N];
        let mut bit = 0;
        for d in n - s..=n + s - 2 {
            if !down_held(d) {
                down_bit[d] = 1 << bit;
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
        debug_assert!(bit <= 32);
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

    /// The geometry of the side on `columns` (listed from the band outward).
    fn geometry(&self, layout: &Layout, columns: &[usize]) -> Geometry {
        let s = self.side;
        let left = columns.iter().copied().min().unwrap_or(0);
        let mut squares = [[None; MAX_ROWS]; MAX_SIDE];
        for (table, &c) in squares.iter_mut().zip(columns) {
            for (r, square) in table.iter_mut().enumerate().take(self.n) {
                let attacked = layout
                    .band
                    .iter()
                    .any(|&(br, bc)| br == r || br + c == r + bc || br + bc == r + c);
                if attacked {
                    continue;
                }
                let cl = c - left;
                *square = Some(Square {
                    diagonals: 1u64 << (r + cl) | 1u64 << (32 + r + s - 1 - cl),
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

    /// The number of placements with the band on `config` (its own, not its orbit's).
    pub fn count_config(&self, config: &Config, work: &mut Workspace) -> u64 {
        let s = self.side;
        let layout = self.layout(config);
        let west: Vec<usize> = (0..self.first).rev().collect();
        let east: Vec<usize> = (self.first + self.width..self.n).collect();
        let ranks = work.ranks(s);
        work.west.build(&self.geometry(&layout, &west), &ranks);
        work.east.build(&self.geometry(&layout, &east), &ranks);
        let all = (1u32 << (2 * s)) - 1;
        let kernel = work.kernel;
        let fast = work.fast;
        let mut total = 0;
        // Every row set of s of the 2s free rows: the next one with as many bits each time.
        let mut set = (1u32 << s) - 1;
        while set <= all {
            work.west.sides_on(&ranks, set, fast, &mut work.west_sides);
            if !work.west_sides.is_empty() {
                work.east
                    .sides_on(&ranks, all ^ set, fast, &mut work.east_sides);
                if !work.east_sides.is_empty() {
                    total += kernel.disjoint_pairs(&work.west_sides, &work.east_sides);
                }
            }
            let low = set & set.wrapping_neg();
            let ripple = set + low;
            set = ripple | ((set ^ ripple) >> 2) / low;
        }
        total
    }
}

/// Where the band's queens stand and how the shared diagonals are numbered.
struct Layout {
    band: Vec<(usize, usize)>,
    down_bit: [u32; 2 * MAX_N],
    up_bit: [u32; 2 * MAX_N],
    /// The rows without a band queen, top to bottom.
    free_rows: Vec<usize>,
}

impl Config {
    /// How many configurations this one stands for.
    pub fn weight(&self) -> u64 {
        u64::from(self.weight)
    }
}

/// Memory reused from one configuration to the next (one per thread).
#[derive(Debug)]
pub struct Workspace {
    west: Side,
    east: Side,
    west_sides: Vec<u32>,
    east_sides: Vec<u32>,
    /// The ranks of the partial sides' row sets (made once per side size).
    ranks: (usize, std::sync::Arc<Ranks>),
    kernel: Kernel,
    /// Whether the sides may be completed with AVX-512.
    fast: bool,
}

impl Default for Workspace {
    fn default() -> Workspace {
        Workspace::new(Kernel::detect(), true)
    }
}

impl Workspace {
    /// A workspace counting with `kernel`, its sides completed with AVX-512 if `fast`.
    pub fn new(kernel: Kernel, fast: bool) -> Workspace {
        Workspace {
            west: Side::default(),
            east: Side::default(),
            west_sides: Vec::new(),
            east_sides: Vec::new(),
            ranks: (usize::MAX, std::sync::Arc::new(Ranks::default())),
            kernel,
            fast,
        }
    }

    /// The ranks for sides of `s` columns.
    fn ranks(&mut self, s: usize) -> std::sync::Arc<Ranks> {
        if self.ranks.0 != s {
            self.ranks = (s, std::sync::Arc::new(Ranks::new(2 * s, s - 2)));
        }
        self.ranks.1.clone()
    }
}

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board, for
/// [`MIN_N`]` <= n <= `[`MAX_N`]; `None` otherwise or when `control` said stop. Counts on the
/// current rayon pool; progress in configurations.
pub fn count(n: usize, control: &Control) -> Option<u128> {
    let band = Band::default_for(n)?;
    let configs = band.configs();
    count_configs(&band, &configs, control)
}

/// The number of placements with the band on any of `configs` or their images.
pub fn count_configs(band: &Band, configs: &[Config], control: &Control) -> Option<u128> {
    control.add_total(configs.len() as u64);
    configs
        .par_iter()
        .map_init(Workspace::default, |work, config| {
            if control.should_stop() {
                return None;
            }
            let count = band.count_config(config, work);
            control.add_done(1);
            Some(u128::from(count) * u128::from(config.weight))
        })
        .try_reduce(|| 0, |a, b| Some(a + b))
        .filter(|_| !control.should_stop())
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
                    let got = count_configs(&band, &band.configs(), &Control::new());
                    assert_eq!(got, Some(expected), "n = {n}, band {}", band.width());
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

    #[test]
    fn every_configuration_matches_the_reference() {
        // Every band width of small boards, every configuration, every kernel, with and
        // without the vectorised quarter join.
        for n in MIN_N..=11 {
            for k in 0..=n / 2 {
                let Some(band) = Band::new(n, k) else {
                    continue;
                };
                let mut works: Vec<Workspace> = Kernel::available()
                    .into_iter()
                    .flat_map(|kernel| {
                        [Workspace::new(kernel, false), Workspace::new(kernel, true)]
                    })
                    .collect();
                for config in band.configs() {
                    let (queens, west, east) = board(&band, &config);
                    let expected = reference::count(n, &queens, &west, &east);
                    for work in &mut works {
                        assert_eq!(
                            band.count_config(&config, work),
                            expected,
                            "n = {n}, band {}, {config:?}, {:?}",
                            band.width,
                            work.kernel
                        );
                    }
                }
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
            let mut work = Workspace::default();
            for _ in 0..6 {
                let config = configs[rng.random_range(0..configs.len())];
                let (queens, west, east) = board(&band, &config);
                assert_eq!(
                    band.count_config(&config, &mut work),
                    reference::count(n, &queens, &west, &east),
                    "n = {n}, {config:?}"
                );
            }
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
                let all = {
                    let mut count = 0u64;
                    let mut rows = [0u8; MAX_BAND];
                    fn walk(b: &Band, c: usize, rows: &mut [u8; MAX_BAND], count: &mut u64) {
                        if c == b.width {
                            *count += 1;
                            return;
                        }
                        for r in 0..b.n {
                            let ok = (0..c).all(|p| {
                                let q = usize::from(rows[p]);
                                q != r && q.abs_diff(r) != c - p
                            });
                            if ok {
                                rows[c] = r as u8;
                                walk(b, c + 1, rows, count);
                            }
                        }
                    }
                    walk(&band, 0, &mut rows, &mut count);
                    count
                };
                let weighted: u64 = band.configs().iter().map(Config::weight).sum();
                assert_eq!(weighted, all, "n = {n}, k = {k}");
            }
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

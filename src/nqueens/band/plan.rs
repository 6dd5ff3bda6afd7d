//! A count laid out as numbered work units (the row sets of every configuration of a band),
//! the band of a count split into shards, and the parallel count of a range of units.

use std::ops::{ControlFlow, Range};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::side::Ranks;
use super::word::Word;
use super::{Band, Config, Sides, Tally, Workspace};
use crate::nqueens::control::Control;

/// Row sets per work item handed to a thread.
const CHUNK: u64 = 256;

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
pub(super) const BATCH: usize = 4096;

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

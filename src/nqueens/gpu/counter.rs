//! The count of a range of work units, batch after batch, on anything that runs the kernels:
//! the GPU or their Rust twin. The host lists the
//! configurations, writes their tables, sizes the batches, weighs the results by symmetry
//! and counts again on the CPU any unit whose list outgrew the kernels' buffer.

use std::collections::VecDeque;
use std::ops::{ControlFlow, Range};
use std::time::{Duration, Instant};

use super::super::band::{Config, Plan, Tally};
use super::super::control::Control;
use super::GpuError;
use super::layout::{BATCH_WORDS, PARTIAL_BYTES, Shape};
use super::twin;
pub(crate) use super::twin::PairTally;

/// Dispatches of the pairing kernel started and not yet collected at most: while the host
/// reads one's sums, the device counts the next.
pub(crate) const IN_FLIGHT: usize = 2;

/// What runs the kernels: the three steps of a batch, each on the state the previous left.
pub(crate) trait Kernels {
    /// The shape the kernels were made for.
    fn shape(&self) -> &Shape;

    /// The most configurations a batch may hold.
    fn max_configs(&self) -> usize;

    /// The most partial sides a batch may hold.
    fn max_partials(&self) -> usize;

    /// The most items a dispatch of the pairing kernel may count.
    fn max_items(&self) -> usize;

    /// Takes the tables of `configs` configurations, counts their partial sides per group
    /// and scans the counts; returns each segment's total (two per configuration). Here and
    /// below, `None` or `false`: the device cut the kernel's loops short (a software
    /// device's limit on an invocation's iterations), and what it computed is worthless.
    fn partial_totals(
        &mut self,
        tables: &[u32],
        configs: usize,
    ) -> Result<Option<Vec<u32>>, GpuError>;

    /// Writes the partial sides of the first `configs` configurations (`batch`: the batch
    /// table, `total`: their number).
    fn write_partials(
        &mut self,
        batch: &[u32],
        configs: usize,
        total: usize,
    ) -> Result<bool, GpuError>;

    /// Starts counting the items `items` of the batch (of the configurations `configs`),
    /// behind the dispatches started and not collected yet (at most [`IN_FLIGHT`]).
    fn submit_pairs(&mut self, items: Range<u32>, configs: Range<usize>) -> Result<(), GpuError>;

    /// The sums of the oldest dispatch started and not collected (see [`PairTally`]).
    fn collect_pairs(&mut self) -> Result<Option<PairTally>, GpuError>;

    /// Seconds the host spent waiting for the device so far.
    fn waited(&self) -> f64 {
        0.0
    }

    /// Items of every dispatch, where they are fixed (else sized by their time).
    fn fixed_items(&self) -> Option<u32> {
        None
    }

    /// Seconds spent in each kernel so far, where the device can tell.
    fn kernel_seconds(&self) -> Option<KernelSeconds> {
        None
    }

    /// Workgroups of the pairing kernel in flight, where the kernels run on a device.
    fn pair_workgroups(&self) -> Option<usize> {
        None
    }
}

/// Seconds a device spent in each kernel (from its timestamps).
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct KernelSeconds {
    /// The search of the partial sides, both passes (counting, writing).
    pub search: f64,
    /// The scan of their counts.
    pub scan: f64,
    /// The pairs: completing the sides of each work unit and counting their disjoint pairs.
    pub pairs: f64,
}

/// How long a dispatch of the pairing kernel should take: long enough that the host's
/// turns cost little, short enough for a time limit or Ctrl-C to stop the count at once.
const DISPATCH_TIME: Duration = Duration::from_millis(100);

/// Items of the first dispatch of a count.
const FIRST_DISPATCH: u32 = 1024;

/// What a count did besides counting.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Stats {
    /// Configurations whose units were counted (whole or in part).
    pub configs: u64,
    /// Batches of configurations.
    pub batches: u64,
    /// Dispatches of the pairing kernel.
    pub dispatches: u64,
    /// Units counted on the CPU because a list outgrew the kernels' buffer, or the device
    /// cut the kernels' loops short even at one unit a workgroup.
    pub units_on_cpu: u64,
    /// Seconds in each kernel, where the device has timestamps.
    pub kernel_seconds: Option<KernelSeconds>,
    /// Workgroups of the pairing kernel in flight (on a device).
    pub pair_workgroups: Option<usize>,
    /// Dispatches whose loops the device cut short, done again (smaller, or on the CPU).
    pub cut_dispatches: u64,
    /// Units counted (by the device or the CPU).
    pub units: u64,
    /// Seconds of the count, from its start to its end.
    pub wall: f64,
    /// Seconds the host waited for the device; the rest of the wall time is the host's own
    /// work (listing configurations, writing tables, starting dispatches, reading sums).
    pub waited: f64,
    /// Configurations whose partial sides were counted to size a batch and not kept in it
    /// (counted again in a later batch).
    pub configs_probed_again: u64,
    /// Seconds of the host's own work spent listing the configurations (the rest of its
    /// work is per batch and per dispatch).
    pub listing: f64,
}

impl Stats {
    /// Seconds of the host's own work: the wall time less the waits.
    pub fn host(&self) -> f64 {
        (self.wall - self.waited).max(0.0)
    }

    /// Seconds the device sat idle, where it has timestamps: the wall time less the kernels'.
    pub fn idle(&self) -> Option<f64> {
        self.kernel_seconds
            .map(|k| (self.wall - k.search - k.scan - k.pairs).max(0.0))
    }
}

/// Counts the units `range` of `plan` with `kernels`; `Ok(None)` when `control` said stop.
/// Progress in row sets, as the CPU count reports it. The configurations are listed once, in
/// one pass (at N = 27 there are millions), and counted a batch at a time as they come.
pub(crate) fn count(
    kernels: &mut dyn Kernels,
    plan: &Plan,
    range: Range<u64>,
    control: &Control,
    stats: &mut Stats,
) -> Result<Option<Tally>, GpuError> {
    let started = Instant::now();
    let waited_before = kernels.waited();
    let range = range.start.min(plan.units())..range.end.min(plan.units());
    control.add_total(range.end - range.start);
    stats.units += range.end - range.start;
    let first_dispatch = kernels.fixed_items().unwrap_or(FIRST_DISPATCH);
    let mut run = Run {
        kernels,
        plan,
        control,
        stats,
        total: Tally::default(),
        per_dispatch: first_dispatch,
        ceiling: u32::MAX,
        pending: VecDeque::new(),
        known: VecDeque::new(),
        partials_seen: 0,
        configs_seen: 0,
    };
    let mut going = Ok(true);
    let mut in_batches = 0.0;
    plan.walk(range, |index, config, sets| {
        run.pending.push_back((index, config, sets));
        if run.pending.len() < run.kernels.max_configs() {
            return ControlFlow::Continue(());
        }
        let batch = Instant::now();
        going = run.batch();
        in_batches += batch.elapsed().as_secs_f64();
        if matches!(going, Ok(true)) {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    });
    run.stats.listing = started.elapsed().as_secs_f64() - in_batches;
    while matches!(going, Ok(true)) && !run.pending.is_empty() {
        going = run.batch();
    }
    run.stats.kernel_seconds = run.kernels.kernel_seconds();
    run.stats.pair_workgroups = run.kernels.pair_workgroups();
    run.stats.waited = run.kernels.waited() - waited_before;
    run.stats.wall = started.elapsed().as_secs_f64();
    match going {
        Ok(true) => Ok(Some(run.total)),
        Ok(false) => Ok(None),
        Err(e) => Err(e),
    }
}

/// A count under way: the configurations listed and not counted yet, and the sum so far.
struct Run<'a> {
    kernels: &'a mut dyn Kernels,
    plan: &'a Plan,
    control: &'a Control,
    stats: &'a mut Stats,
    total: Tally,
    /// Items of the next dispatch of the pairing kernel.
    per_dispatch: u32,
    /// Items a dispatch may hold at most: halved when the device cut a dispatch's loops
    /// short, doubled after each dispatch it did not.
    ceiling: u32,
    /// Configurations (number, configuration, row sets) listed and not counted yet.
    pending: VecDeque<(u64, Config, Range<u64>)>,
    /// The partial sides of each side of the first pending configurations, where a batch
    /// counted them and did not keep them.
    known: VecDeque<[u32; 2]>,
    /// Partial sides and configurations counted so far: their mean sizes the next batch.
    partials_seen: u64,
    configs_seen: u64,
}

impl Run<'_> {
    /// Configurations to count the partial sides of for the next batch: those known to fit
    /// (when the known ones do not all fit, exactly those), else the known ones and as many
    /// more as the mean so far says will fit, and a tenth more.
    fn batch_size(&self) -> usize {
        let most = self.pending.len().min(self.kernels.max_configs());
        let room = self.kernels.max_partials() as u64;
        let mut sum = 0u64;
        for (c, sides) in self.known.iter().enumerate() {
            sum += u64::from(sides[0]) + u64::from(sides[1]);
            if sum > room {
                return c.max(1);
            }
        }
        if self.configs_seen == 0 {
            return most;
        }
        let mean = self.partials_seen.div_ceil(self.configs_seen).max(1);
        let more = (room - sum) / mean;
        (self.known.len() + (more + more / 10 + 1) as usize).min(most)
    }

    /// Counts the first pending configurations, as many as the kernels' buffers hold (at
    /// least one), and takes them off the list; `Ok(false)` when `control` said stop.
    fn batch(&mut self) -> Result<bool, GpuError> {
        if self.control.should_stop() {
            return Ok(false);
        }
        let shape = *self.kernels.shape();
        let count = self.batch_size();
        let mut tables = Vec::with_capacity(count * shape.config_words);
        for (_, config, _) in self.pending.iter().take(count) {
            shape.push_tables(self.plan.band(), config, &mut tables);
        }
        let Some(totals) = self.kernels.partial_totals(&tables, count)? else {
            self.stats.cut_dispatches += 1;
            return self.on_cpu(count);
        };
        // Keep the configurations whose partial sides fit; remember the others' sizes.
        let mut kept = 0;
        let mut partials = 0usize;
        while kept < count {
            let more = totals[2 * kept] as usize + totals[2 * kept + 1] as usize;
            if partials + more > self.kernels.max_partials() {
                break;
            }
            partials += more;
            kept += 1;
        }
        if kept == 0 {
            let more = totals[0] as usize + totals[1] as usize;
            return Err(GpuError::TooLarge {
                needed: more as u64 * PARTIAL_BYTES,
                most: self.kernels.max_partials() as u64 * PARTIAL_BYTES,
            });
        }
        // Known now: the sizes of the configurations searched and not kept, then those known
        // before of the configurations after them.
        let later: Vec<[u32; 2]> = self.known.drain(count.min(self.known.len())..).collect();
        self.known.clear();
        self.known
            .extend((kept..count).map(|c| [totals[2 * c], totals[2 * c + 1]]));
        self.known.extend(later);
        self.stats.configs_probed_again += (count - kept) as u64;
        self.partials_seen += totals.iter().map(|&t| u64::from(t)).sum::<u64>();
        self.configs_seen += count as u64;
        // The batch table: per configuration its first item, its first row set, where its
        // sides' partial sides start, its mirror flag; then the number of items.
        let mut table = vec![0u32; (kept + 1) * BATCH_WORDS];
        let (mut items, mut base) = (0u64, 0u64);
        for (c, (_, config, sets)) in self.pending.iter().take(kept).enumerate() {
            let at = c * BATCH_WORDS;
            let counts = [u64::from(totals[2 * c]), u64::from(totals[2 * c + 1])];
            table[at] = items as u32;
            table[at + 1] = sets.start as u32;
            table[at + 2] = base as u32;
            table[at + 3] = (base + counts[0]) as u32;
            table[at + 4] = u32::from(config.mirrored());
            items += sets.end - sets.start;
            base += counts[0] + counts[1];
        }
        table[kept * BATCH_WORDS] = items as u32;
        if !self.kernels.write_partials(&table, kept, partials)? {
            self.stats.cut_dispatches += 1;
            self.known.clear();
            return self.on_cpu(kept);
        }
        self.stats.batches += 1;
        self.stats.configs += kept as u64;
        let batch: Vec<(u64, Config, Range<u64>)> = self.pending.drain(..kept).collect();
        // The items, a few dispatches at a time; their sums kept per configuration.
        let mut sums = vec![Tally::default(); kept];
        let mut on_cpu: Vec<Vec<u64>> = vec![Vec::new(); kept];
        if !self.pairs(&table, kept, items as u32, &batch, &mut sums, &mut on_cpu)? {
            return Ok(false);
        }
        for ((sum, units), (_, config, _)) in sums.into_iter().zip(on_cpu).zip(&batch) {
            let mut counted = sum.times(config.weight());
            if !units.is_empty() {
                counted = counted.plus(self.plan.count_units(config, &units));
            }
            self.total = self.total.plus(counted);
        }
        Ok(true)
    }

    /// Counts the `items` items of a batch of `kept` configurations (`table`: its batch
    /// table) on the device, [`IN_FLIGHT`] dispatches at a time, into `sums` (per
    /// configuration, not yet weighted), listing in `on_cpu` the units to count on the CPU;
    /// `Ok(false)` when `control` said stop.
    fn pairs(
        &mut self,
        table: &[u32],
        kept: usize,
        items: u32,
        batch: &[(u64, Config, Range<u64>)],
        sums: &mut [Tally],
        on_cpu: &mut [Vec<u64>],
    ) -> Result<bool, GpuError> {
        let config_of = |k: u32| twin::config_of(table, kept, k);
        // Ranges of items to count again (cut short by the device), and the next item.
        let mut again: Vec<Range<u32>> = Vec::new();
        let mut next = 0u32;
        let mut flight: VecDeque<(Range<u32>, Instant)> = VecDeque::new();
        let mut last_done = Instant::now();
        let cpu_unit = |k: u32, on_cpu: &mut [Vec<u64>]| {
            let c = config_of(k);
            on_cpu[c].push(batch[c].2.start + u64::from(k - table[c * BATCH_WORDS]));
        };
        loop {
            if self.control.should_stop() {
                return Ok(false);
            }
            while flight.len() < IN_FLIGHT {
                let most = self
                    .per_dispatch
                    .min(self.kernels.max_items() as u32)
                    .min(self.ceiling)
                    .max(1);
                let range = if let Some(r) = again.pop() {
                    if r.len() as u32 > most {
                        again.push(r.start + most..r.end);
                    }
                    r.start..r.end.min(r.start + most)
                } else if next < items {
                    let r = next..(next + most).min(items);
                    next = r.end;
                    r
                } else {
                    break;
                };
                let configs = config_of(range.start)..config_of(range.end - 1) + 1;
                self.kernels.submit_pairs(range.clone(), configs)?;
                self.stats.dispatches += 1;
                flight.push_back((range, Instant::now()));
            }
            let Some((range, submitted)) = flight.pop_front() else {
                return Ok(true);
            };
            let collected = self.kernels.collect_pairs()?;
            // A dispatch's time: from when the device could start it (its submission, or the
            // end of the one before it) to its end.
            let now = Instant::now();
            let took = now - submitted.max(last_done);
            last_done = now;
            let Some(tally) = collected else {
                self.stats.cut_dispatches += 1;
                // Fewer items a workgroup, down to one; then these items on the CPU.
                let workgroups = self.kernels.pair_workgroups().unwrap_or(1) as u32;
                let len = range.len() as u32;
                if len > workgroups {
                    self.ceiling = (len / 2).max(workgroups);
                    again.push(range);
                } else {
                    for k in range.clone() {
                        self.stats.units_on_cpu += 1;
                        cpu_unit(k, on_cpu);
                    }
                    self.control.add_done(u64::from(len));
                }
                continue;
            };
            self.ceiling = self.ceiling.saturating_mul(2);
            if self.kernels.fixed_items().is_none() {
                self.per_dispatch = next_dispatch(self.per_dispatch, took);
            }
            if tally.done != range.len() as u32
                || tally.sums.len() != tally.configs.len()
                || tally.overflow.len() != tally.overflowed as usize
            {
                return Err(GpuError::Failed(format!(
                    "the device finished {} of the {} units of a dispatch",
                    tally.done,
                    range.len()
                )));
            }
            for (c, &sum) in tally.configs.clone().zip(&tally.sums) {
                sums[c].add(sum);
            }
            for &k in &tally.overflow {
                self.stats.units_on_cpu += 1;
                cpu_unit(k, on_cpu);
            }
            self.control.add_done(range.len() as u64);
        }
    }

    /// Counts the first `count` pending configurations on the CPU, whole, and takes them off
    /// the list: the device cut the search of their partial sides short.
    fn on_cpu(&mut self, count: usize) -> Result<bool, GpuError> {
        self.known.clear();
        for (_, config, sets) in self.pending.drain(..count) {
            if self.control.should_stop() {
                return Ok(false);
            }
            let units: Vec<u64> = sets.collect();
            self.total = self.total.plus(self.plan.count_units(&config, &units));
            self.stats.configs += 1;
            self.stats.units_on_cpu += units.len() as u64;
            self.control.add_done(units.len() as u64);
        }
        Ok(true)
    }
}

/// Counts every unit of `plan` with `kernels`, to its end: the tally and what the count did.
#[cfg(test)]
pub(crate) fn count_whole(kernels: &mut dyn Kernels, plan: &Plan) -> (Tally, Stats) {
    let mut stats = Stats::default();
    let tally = count(kernels, plan, 0..plan.units(), &Control::new(), &mut stats)
        .unwrap()
        .expect("nothing stops the count");
    (tally, stats)
}

/// The items of the next dispatch, from those of the last and its time: doubled or halved
/// towards [`DISPATCH_TIME`].
fn next_dispatch(items: u32, took: Duration) -> u32 {
    if took < DISPATCH_TIME / 2 {
        items.saturating_mul(2).min(1 << 24)
    } else if took > DISPATCH_TIME * 2 {
        (items / 2).max(64)
    } else {
        items
    }
}

/// The kernels' Rust twin as a [`Kernels`]: the state of a batch kept in vectors.
#[cfg(test)]
pub(crate) struct Twin {
    shape: Shape,
    tables: Vec<u32>,
    counts: Vec<u32>,
    starts: Vec<u32>,
    batch: Vec<u32>,
    partials: Vec<twin::Partial>,
    configs: usize,
    max_configs: usize,
    max_partials: usize,
    /// The sums of the dispatches submitted and not collected.
    flight: VecDeque<PairTally>,
}

#[cfg(test)]
impl Twin {
    /// The twin of kernels made for `shape`, holding at most `max_configs` configurations and
    /// `max_partials` partial sides a batch.
    pub(crate) fn new(shape: Shape, max_configs: usize, max_partials: usize) -> Twin {
        Twin {
            shape,
            tables: Vec::new(),
            counts: Vec::new(),
            starts: Vec::new(),
            batch: Vec::new(),
            partials: Vec::new(),
            configs: 0,
            max_configs,
            max_partials,
            flight: VecDeque::new(),
        }
    }

    /// Each item's pairs and status (see [`twin::count_pairs`]).
    pub(crate) fn count_pairs(&self, items: Range<u32>) -> Vec<[u32; 2]> {
        twin::count_pairs(&self.shape, &self.inputs(), items)
    }

    fn inputs(&self) -> twin::PairInputs<'_> {
        twin::PairInputs {
            tables: &self.tables,
            counts: &self.counts,
            starts: &self.starts,
            batch: &self.batch,
            partials: &self.partials,
            configs: self.configs,
        }
    }
}

#[cfg(test)]
impl Kernels for Twin {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn max_configs(&self) -> usize {
        self.max_configs
    }

    fn max_partials(&self) -> usize {
        self.max_partials
    }

    fn max_items(&self) -> usize {
        1 << 16
    }

    fn partial_totals(
        &mut self,
        tables: &[u32],
        configs: usize,
    ) -> Result<Option<Vec<u32>>, GpuError> {
        self.tables = tables.to_vec();
        self.counts = twin::count_partials(&self.shape, tables, configs);
        let (starts, totals) = twin::scan(&self.shape, &self.counts, configs);
        self.starts = starts;
        Ok(Some(totals))
    }

    fn write_partials(
        &mut self,
        batch: &[u32],
        configs: usize,
        total: usize,
    ) -> Result<bool, GpuError> {
        self.batch = batch.to_vec();
        self.configs = configs;
        self.partials = twin::write_partials(
            &self.shape,
            &self.tables,
            batch,
            &self.starts,
            configs,
            total,
        );
        Ok(true)
    }

    fn submit_pairs(&mut self, items: Range<u32>, configs: Range<usize>) -> Result<(), GpuError> {
        assert!(
            self.flight.len() < IN_FLIGHT,
            "more dispatches in flight than allowed"
        );
        let results = self.count_pairs(items.clone());
        let tally = twin::tally_pairs(&self.inputs(), items, &results);
        assert_eq!(
            tally.configs, configs,
            "the host's configurations of the items"
        );
        self.flight.push_back(tally);
        Ok(())
    }

    fn collect_pairs(&mut self) -> Result<Option<PairTally>, GpuError> {
        Ok(self.flight.pop_front())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nqueens::band::Band;

    /// OEIS A000170 from n = 6.
    const A000170: [u128; 11] = [
        4, 40, 92, 352, 724, 2680, 14_200, 73_712, 365_596, 2_279_184, 14_772_512,
    ];

    fn twin_count(
        plan: &Plan,
        range: Range<u64>,
        configs: usize,
        partials: usize,
        scratch: usize,
    ) -> (Tally, Stats) {
        let shape = Shape::new(plan.band(), scratch);
        let mut twin = Twin::new(shape, configs, partials);
        let mut stats = Stats::default();
        let tally = count(&mut twin, plan, range, &Control::new(), &mut stats)
            .unwrap()
            .unwrap();
        (tally, stats)
    }

    #[test]
    fn the_twin_counts_every_default_band_to_13() {
        for n in 6..=13 {
            let plan = Plan::new(n, &Control::new()).unwrap();
            let (tally, _) = twin_count(&plan, 0..plan.units(), 64, 1 << 20, 4096);
            assert!(tally.verified());
            assert_eq!(tally.count, A000170[n - 6], "n = {n}");
        }
    }

    #[test]
    fn batches_cut_short_by_the_partial_sides_buffer_count_the_rest_later() {
        for n in [11, 12, 13] {
            let plan = Plan::new(n, &Control::new()).unwrap();
            let shape = Shape::new(plan.band(), 4096);
            // The largest configuration's partial sides: a buffer of less than two of them
            // cuts most batches short.
            let mut largest = 0usize;
            plan.walk(0..plan.units(), |_, config, _| {
                let mut tables = Vec::new();
                shape.push_tables(plan.band(), &config, &mut tables);
                let partials: u32 = twin::count_partials(&shape, &tables, 1).iter().sum();
                largest = largest.max(partials as usize);
                ControlFlow::Continue(())
            });
            let (tally, stats) = twin_count(&plan, 0..plan.units(), 64, 2 * largest - 1, 4096);
            assert_eq!(tally.count, A000170[n - 6], "n = {n}");
            // Every configuration counted once, in more batches than the 64 a batch holds
            // would need.
            let configs = plan.units() / plan.row_sets();
            assert_eq!(stats.configs, configs, "n = {n}");
            assert!(stats.batches > configs.div_ceil(64), "n = {n}: {stats:?}");
            // A batch searches the configurations it keeps, from the sizes found before: a
            // configuration is searched at most twice (each batch keeps one or two, and
            // searched up to 64 to keep them, the rest again and again, before).
            assert!(
                stats.configs_probed_again <= stats.configs,
                "n = {n}: {stats:?}"
            );
            // A buffer too small for one configuration is an error, not a wrong count.
            let shape = Shape::new(plan.band(), 4096);
            let mut twin = Twin::new(shape, 64, largest - 1);
            let got = count(
                &mut twin,
                &plan,
                0..plan.units(),
                &Control::new(),
                &mut Stats::default(),
            );
            assert!(matches!(got, Err(GpuError::TooLarge { .. })), "{got:?}");
        }
    }

    /// The twin, failing as a lost device would at its `fail_at`-th dispatch of the pairs.
    struct Failing {
        twin: Twin,
        dispatches: usize,
        fail_at: usize,
    }

    impl Kernels for Failing {
        fn shape(&self) -> &Shape {
            self.twin.shape()
        }
        fn max_configs(&self) -> usize {
            self.twin.max_configs()
        }
        fn max_partials(&self) -> usize {
            self.twin.max_partials()
        }
        fn max_items(&self) -> usize {
            64
        }
        fn partial_totals(
            &mut self,
            tables: &[u32],
            configs: usize,
        ) -> Result<Option<Vec<u32>>, GpuError> {
            self.twin.partial_totals(tables, configs)
        }
        fn write_partials(
            &mut self,
            batch: &[u32],
            configs: usize,
            total: usize,
        ) -> Result<bool, GpuError> {
            self.twin.write_partials(batch, configs, total)
        }
        fn submit_pairs(
            &mut self,
            items: Range<u32>,
            configs: Range<usize>,
        ) -> Result<(), GpuError> {
            self.dispatches += 1;
            if self.dispatches == self.fail_at {
                return Err(GpuError::Failed("device lost".to_string()));
            }
            self.twin.submit_pairs(items, configs)
        }
        fn collect_pairs(&mut self) -> Result<Option<PairTally>, GpuError> {
            self.twin.collect_pairs()
        }
    }

    /// The twin, with its loops cut short as a software device's are: every `search_every`-th
    /// search of the partial sides (counting or writing), and every dispatch of the pairs
    /// with more than `items_a_workgroup` items a workgroup, or holding item `stubborn`.
    struct Cutting {
        twin: Twin,
        searches: usize,
        search_every: usize,
        items_a_workgroup: u32,
        stubborn: u32,
        /// Per dispatch in flight, whether it is cut short.
        cut: VecDeque<bool>,
    }

    impl Cutting {
        fn search_cut(&mut self) -> bool {
            self.searches += 1;
            self.searches.is_multiple_of(self.search_every)
        }
    }

    impl Kernels for Cutting {
        fn shape(&self) -> &Shape {
            self.twin.shape()
        }
        fn max_configs(&self) -> usize {
            self.twin.max_configs()
        }
        fn max_partials(&self) -> usize {
            self.twin.max_partials()
        }
        fn max_items(&self) -> usize {
            self.twin.max_items()
        }
        fn partial_totals(
            &mut self,
            tables: &[u32],
            configs: usize,
        ) -> Result<Option<Vec<u32>>, GpuError> {
            let totals = self.twin.partial_totals(tables, configs)?;
            Ok(if self.search_cut() { None } else { totals })
        }
        fn write_partials(
            &mut self,
            batch: &[u32],
            configs: usize,
            total: usize,
        ) -> Result<bool, GpuError> {
            let written = self.twin.write_partials(batch, configs, total)?;
            Ok(written && !self.search_cut())
        }
        fn submit_pairs(
            &mut self,
            items: Range<u32>,
            configs: Range<usize>,
        ) -> Result<(), GpuError> {
            let workgroups = self.pair_workgroups().unwrap() as u32;
            self.cut.push_back(
                items.len() as u32 > workgroups * self.items_a_workgroup
                    || items.contains(&self.stubborn),
            );
            self.twin.submit_pairs(items, configs)
        }
        fn collect_pairs(&mut self) -> Result<Option<PairTally>, GpuError> {
            let tally = self.twin.collect_pairs()?;
            Ok(if self.cut.pop_front() == Some(true) {
                None
            } else {
                tally
            })
        }
        fn pair_workgroups(&self) -> Option<usize> {
            Some(4)
        }
    }

    #[test]
    fn loops_cut_short_are_done_again_smaller_or_on_the_cpu() {
        for (n, search_every, items_a_workgroup, stubborn) in [
            (10, 2, 5, 3),
            (12, 3, 1, 100),
            (13, 1000, 7, 40),
            (12, 1, 9, 0),
        ] {
            let plan = Plan::new(n, &Control::new()).unwrap();
            let mut kernels = Cutting {
                twin: Twin::new(Shape::new(plan.band(), 4096), 3, 1 << 20),
                searches: 0,
                search_every,
                items_a_workgroup,
                stubborn,
                cut: VecDeque::new(),
            };
            let (tally, stats) = count_whole(&mut kernels, &plan);
            assert_eq!(tally.count, A000170[n - 6], "n = {n}");
            assert!(tally.verified());
            assert!(stats.cut_dispatches > 0, "n = {n}: {stats:?}");
            // The stubborn item, at least, is counted on the CPU; with every search cut,
            // every unit is.
            assert!(stats.units_on_cpu > 0, "n = {n}: {stats:?}");
            if search_every == 1 {
                assert_eq!(stats.units_on_cpu, plan.units(), "n = {n}");
                assert_eq!(stats.batches, 0);
            }
        }
    }

    #[test]
    fn a_device_failing_mid_count_gives_its_error_and_no_count() {
        let plan = Plan::new(12, &Control::new()).unwrap();
        for fail_at in [1, 2, 5] {
            let mut kernels = Failing {
                twin: Twin::new(Shape::new(plan.band(), 4096), 8, 1 << 20),
                dispatches: 0,
                fail_at,
            };
            let got = count(
                &mut kernels,
                &plan,
                0..plan.units(),
                &Control::new(),
                &mut Stats::default(),
            );
            assert_eq!(
                got,
                Err(GpuError::Failed("device lost".to_string())),
                "at {fail_at}"
            );
        }
    }

    #[test]
    fn a_stop_ends_the_count_without_a_count() {
        let plan = Plan::new(12, &Control::new()).unwrap();
        let control = Control::new();
        control.stop();
        let mut twin = Twin::new(Shape::new(plan.band(), 4096), 8, 1 << 20);
        let got = count(
            &mut twin,
            &plan,
            0..plan.units(),
            &control,
            &mut Stats::default(),
        );
        assert_eq!(got, Ok(None));
    }

    #[test]
    fn the_twin_counts_every_band_width() {
        for n in 6..=12 {
            for k in 0..=n / 2 {
                let Some(band) = Band::new(n, k) else {
                    continue;
                };
                let plan = Plan::with_band(band, &Control::new()).unwrap();
                let (tally, _) = twin_count(&plan, 0..plan.units(), 7, 1 << 20, 4096);
                assert_eq!(
                    tally.count,
                    A000170[n - 6],
                    "n = {n}, band {}",
                    band.width()
                );
            }
        }
    }
}

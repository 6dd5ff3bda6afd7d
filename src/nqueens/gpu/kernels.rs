//! The kernels of one band on a [`Gpu`]: their pipelines and buffers, made once and reused
//! for every batch, and the dispatches of a batch. The pairing kernel's dispatches are
//! double-buffered: each has its own parameters, sums and readback ([`Slot`]), and its sums
//! are copied back in its own submission, so the device counts the next dispatch while the
//! host reads one's. [`Gpu::kernels`] is made here: this module builds on `device.rs`, never
//! the other way.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use wgpu::util::DeviceExt;

use super::GpuError;
use super::counter::{IN_FLIGHT, KernelSeconds, Kernels, PairTally};
use super::device::Gpu;
use super::layout::{
    self, BATCH_WORDS, OVERFLOW_LIST, OVERFLOW_SLOTS, PARTIAL_BYTES, SEARCH_WORKGROUP, Shape,
    TALLY_CUT, TALLY_DONE, TALLY_OVERFLOW, TALLY_SUMS, Tuning,
};
use super::tuning::MOST_ITEMS;
use crate::nqueens::band::Band;

/// The kernels' shared code, compiled before each of them.
const COMMON: &str = include_str!("common.wgsl");
const PARTIALS: &str = include_str!("partials.wgsl");
const SCAN: &str = include_str!("scan.wgsl");
const PAIRS: &str = include_str!("pairs.wgsl");

/// Footprints each list of the pairing kernel holds (a unit with a longer list is counted
/// again on the CPU): at N = 21 the longest lists seen hold about 6,000.
const SCRATCH: usize = 16_384;

/// Workgroups of the pairing kernel on a GPU (enough to fill the largest), and on a
/// software device.
const PAIR_WORKGROUPS: usize = 1024;
const SOFTWARE_PAIR_WORKGROUPS: usize = 16;

/// Configurations a batch holds at most, and bytes of the buffers sized by them.
const MAX_BATCH: usize = 4096;
const BATCH_BUFFER_BYTES: u64 = 64 << 20;

/// Bytes of the partial sides' buffer to begin with (it grows when a batch needs more).
const FIRST_PARTIALS_BYTES: u64 = 64 << 20;

/// Items of one dispatch of the pairing kernel at most.
const MAX_ITEMS: usize = MOST_ITEMS as usize;

/// Iterations of the kernels' last loop (`check_loops` in common.wgsl).
const CANARY: u32 = 2;

/// Bytes between two steps' timestamps in the resolved buffer.
const STAMP_STRIDE: u64 = wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT;

/// A workgroup grid of at least `count` workgroups, in two dimensions when one holds too few.
fn grid(count: usize) -> (u32, u32) {
    let x = count.clamp(1, 65_535);
    (x as u32, count.div_ceil(x).max(1) as u32)
}

/// The steps of a batch, as they are timed: the search of the partial sides (counting, then
/// writing them), the scan, and the pairs in each slot.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Step {
    Count,
    Scan,
    Write,
    Pairs(usize),
}

impl Step {
    /// Its place among the timestamps (two queries each, one aligned place in `resolved`).
    fn place(self) -> usize {
        match self {
            Step::Count => 0,
            Step::Scan => 1,
            Step::Write => 2,
            Step::Pairs(slot) => 3 + slot,
        }
    }
}

/// Places of timestamps: three steps of the search and one per slot of the pairs.
const STAMP_PLACES: usize = 3 + IN_FLIGHT;

/// Timestamps around each dispatch, where the adapter has them: per step, the begin and end
/// of its last dispatch, resolved into `resolved` and added up when it is read.
struct Timer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    /// Per place, seconds so far.
    seconds: [f64; STAMP_PLACES],
    /// Nanoseconds per tick.
    period: f64,
}

impl Timer {
    /// Adds the time between the two stamps (four words) of a place.
    fn add(&mut self, place: usize, stamps: &[u32]) {
        if stamps.len() < 4 {
            return;
        }
        let tick = |i: usize| u64::from(stamps[2 * i]) | u64::from(stamps[2 * i + 1]) << 32;
        let ticks = tick(1).saturating_sub(tick(0));
        self.seconds[place] += ticks as f64 * self.period * 1e-9;
    }
}

/// The buffers of one dispatch of the pairing kernel in flight.
struct Slot {
    params: wgpu::Buffer,
    /// Its words (`tally` in the kernels: the cut flag, the queue, the items done and
    /// overflowed, the per-configuration sums).
    tally: wgpu::Buffer,
    /// Each item's pairs and status (read back only when more items overflowed than the
    /// tally lists).
    results: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// The dispatch in it, if any.
    flight: Option<Flight>,
}

/// A dispatch submitted and not collected.
struct Flight {
    items: Range<u32>,
    configs: Range<usize>,
    submission: wgpu::SubmissionIndex,
    /// Bytes of the readback mapped, and its mapping's outcome once known.
    bytes: u64,
    mapped: Arc<Mutex<Option<Result<(), wgpu::BufferAsyncError>>>>,
}

impl Gpu {
    /// The kernels of `band` on this device.
    pub(crate) fn kernels(&self, band: &Band) -> Result<BandKernels<'_>, GpuError> {
        BandKernels::new(self, band, SCRATCH, self.tuning())
    }

    /// The kernels of `band`, their lists holding `scratch` footprints, made with `tuning`.
    #[cfg(test)]
    pub(crate) fn kernels_with(
        &self,
        band: &Band,
        scratch: usize,
        tuning: &Tuning,
    ) -> Result<BandKernels<'_>, GpuError> {
        BandKernels::new(self, band, scratch, tuning)
    }
}

/// The pipelines and buffers of one band's kernels on a [`Gpu`].
pub(crate) struct BandKernels<'g> {
    gpu: &'g Gpu,
    shape: Shape,
    tuning: Tuning,
    count_partials: wgpu::ComputePipeline,
    write_partials: wgpu::ComputePipeline,
    scan: wgpu::ComputePipeline,
    pairs: wgpu::ComputePipeline,
    params: wgpu::Buffer,
    tables: wgpu::Buffer,
    binomial: wgpu::Buffer,
    counts: wgpu::Buffer,
    starts: wgpu::Buffer,
    totals: wgpu::Buffer,
    batch: wgpu::Buffer,
    partials: wgpu::Buffer,
    scratch: wgpu::Buffer,
    /// The search's word of loops cut short (`tally[0]`).
    search_tally: wgpu::Buffer,
    readback: wgpu::Buffer,
    slots: Vec<Slot>,
    /// The slot of the next dispatch, and of the oldest in flight.
    next_slot: usize,
    oldest_slot: usize,
    /// The batch table of the batch being counted.
    batch_table: Vec<u32>,
    /// Partial sides the buffer holds now, and at most.
    partial_capacity: usize,
    partial_most: usize,
    max_configs: usize,
    pair_workgroups: usize,
    configs: usize,
    timer: Option<Timer>,
}

impl<'g> BandKernels<'g> {
    pub(crate) fn new(
        gpu: &'g Gpu,
        band: &Band,
        scratch: usize,
        tuning: &Tuning,
    ) -> Result<BandKernels<'g>, GpuError> {
        let device = gpu.device();
        let limits = gpu.limits();
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let shape = Shape::new(band, scratch);
        let pair_workgroups = tuning
            .workgroups
            .unwrap_or(if gpu.adapter().software {
                SOFTWARE_PAIR_WORKGROUPS
            } else {
                PAIR_WORKGROUPS
            })
            .min((binding / (16 * scratch as u64)) as usize)
            .max(1);
        let batch_bytes = BATCH_BUFFER_BYTES.min(binding);
        let max_configs = MAX_BATCH
            .min((batch_bytes / (8 * shape.groups as u64)) as usize)
            .min((batch_bytes / (4 * shape.config_words as u64)) as usize)
            .max(1);
        let partial_most = (binding / PARTIAL_BYTES) as usize;
        let partial_capacity = (FIRST_PARTIALS_BYTES.min(binding) / PARTIAL_BYTES) as usize;
        let storage = wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        let words = |n: usize| (n * 4) as u64;
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let constants = shape.constants(tuning);
        let pipeline = |source: &str, entry: &str| {
            let descriptor = wgpu::ShaderModuleDescriptor {
                label: Some(entry),
                source: wgpu::ShaderSource::Wgsl(format!("{COMMON}\n{source}").into()),
            };
            let module = if tuning.checks {
                device.create_shader_module(descriptor)
            } else {
                // SAFETY: the checks left out clamp indices to their arrays and bound loops.
                // Every index of the kernels is within its array by construction (the scratch
                // appends are guarded by SCRATCH, the tables' indices come from the layout
                // the host wrote, the workgroup arrays are sized for the largest shape), and
                // every loop ends; the tests run each kernel with the checks off against its
                // twin on the software device.
                unsafe {
                    device.create_shader_module_trusted(
                        descriptor,
                        wgpu::ShaderRuntimeChecks::unchecked(),
                    )
                }
            };
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: None,
                module: &module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    zero_initialize_workgroup_memory: false,
                },
                cache: None,
            })
        };
        let count_partials = pipeline(PARTIALS, "count_partials");
        let write_partials = pipeline(PARTIALS, "write_partials");
        let scan = pipeline(SCAN, "scan");
        let pairs = pipeline(PAIRS, "count_pairs");
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Failed(format!("the kernels do not compile: {e}")));
        }
        let binomial = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("binomial"),
            contents: &layout::binomials()
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>(),
            usage: wgpu::BufferUsages::STORAGE,
        });
        let segments = 2 * max_configs;
        let tally_words = TALLY_SUMS + 2 * max_configs;
        let mut slots = Vec::with_capacity(IN_FLIGHT);
        for _ in 0..IN_FLIGHT {
            slots.push(Slot {
                params: gpu.buffer(
                    "params",
                    16,
                    wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                )?,
                tally: gpu.buffer("tally", words(tally_words), storage)?,
                results: gpu.buffer("results", (MAX_ITEMS * 8) as u64, storage)?,
                readback: gpu.buffer(
                    "readback",
                    words(tally_words) + STAMP_STRIDE,
                    wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                )?,
                flight: None,
            });
        }
        let kernels = BandKernels {
            gpu,
            shape,
            tuning: *tuning,
            count_partials,
            write_partials,
            scan,
            pairs,
            params: gpu.buffer(
                "params",
                16,
                wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            )?,
            tables: gpu.buffer("tables", words(max_configs * shape.config_words), storage)?,
            binomial,
            counts: gpu.buffer("counts", words(segments * shape.groups), storage)?,
            starts: gpu.buffer("starts", words(segments * shape.groups), storage)?,
            totals: gpu.buffer("totals", words(segments), storage)?,
            batch: gpu.buffer("batch", words((max_configs + 1) * BATCH_WORDS), storage)?,
            partials: gpu.buffer("partials", partial_capacity as u64 * PARTIAL_BYTES, storage)?,
            scratch: gpu.buffer(
                "scratch",
                (pair_workgroups * 2 * scratch * 8) as u64,
                wgpu::BufferUsages::STORAGE,
            )?,
            search_tally: gpu.buffer("search tally", 32, storage)?,
            // The largest read of its own: a dispatch's results (when many overflowed), or
            // the totals, then the word of cut loops and a step's timestamps.
            readback: gpu.buffer(
                "readback",
                words((2 * MAX_ITEMS).max(segments) + 1) + STAMP_STRIDE,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )?,
            slots,
            next_slot: 0,
            oldest_slot: 0,
            batch_table: Vec::new(),
            partial_capacity,
            partial_most,
            max_configs,
            pair_workgroups,
            configs: 0,
            timer: device
                .features()
                .contains(wgpu::Features::TIMESTAMP_QUERY)
                .then(|| Timer {
                    queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("timestamps"),
                        ty: wgpu::QueryType::Timestamp,
                        count: 2 * STAMP_PLACES as u32,
                    }),
                    resolved: device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("timestamps"),
                        size: STAMP_PLACES as u64 * STAMP_STRIDE,
                        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    }),
                    seconds: [0.0; STAMP_PLACES],
                    period: f64::from(gpu.queue().get_timestamp_period()),
                }),
        };
        gpu.check()?;
        Ok(kernels)
    }

    /// The first `words` words of the buffer `name`, read back (for the tests).
    #[cfg(test)]
    pub(crate) fn read_for_tests(&self, name: &str, words: usize) -> Vec<u32> {
        let buffer = match name {
            "counts" => &self.counts,
            "starts" => &self.starts,
            "partials" => &self.partials,
            _ => panic!("no buffer {name}"),
        };
        self.read_buffer_for_tests(buffer, words)
    }

    #[cfg(test)]
    fn read_buffer_for_tests(&self, buffer: &wgpu::Buffer, words: usize) -> Vec<u32> {
        let readback = self
            .gpu
            .buffer(
                "test readback",
                (words * 4) as u64,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )
            .unwrap();
        self.gpu.read(buffer, &readback, words).unwrap()
    }

    /// One dispatch of the pairing kernel over `items`, alone: each item's pairs and status,
    /// and the dispatch's sums; `None` when the device cut its loops short (for the tests).
    #[cfg(test)]
    pub(crate) fn pairs_for_tests(
        &mut self,
        items: Range<u32>,
    ) -> Option<(Vec<[u32; 2]>, PairTally)> {
        let config_of = |k: u32| super::twin::config_of(&self.batch_table, self.configs, k);
        let configs = config_of(items.start)..config_of(items.end - 1) + 1;
        let slot = self.next_slot;
        self.submit_pairs(items.clone(), configs).unwrap();
        let tally = self.collect_pairs().unwrap()?;
        let words = self.read_buffer_for_tests(&self.slots[slot].results, 2 * items.len());
        Some((words.chunks_exact(2).map(|w| [w[0], w[1]]).collect(), tally))
    }

    /// Writes the parameters of the next dispatches into `params`.
    fn set_params(&self, params: &wgpu::Buffer, configs: usize, items: Range<u32>) {
        let words = [configs as u32, items.start, items.end - items.start, CANARY];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.gpu.queue().write_buffer(params, 0, &bytes);
    }

    /// The buffers of the search at their bindings.
    fn search_buffers(&self) -> [(u32, &wgpu::Buffer); 8] {
        [
            (0, &self.params),
            (1, &self.tables),
            (2, &self.binomial),
            (3, &self.counts),
            (4, &self.starts),
            (5, &self.batch),
            (6, &self.partials),
            (9, &self.search_tally),
        ]
    }

    /// Records in `encoder` `pipeline` run on `groups` workgroups with `buffers` at their
    /// bindings, timed as `step`.
    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        step: Step,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
        groups: (u32, u32),
    ) {
        let entries: Vec<wgpu::BindGroupEntry> = buffers
            .iter()
            .map(|&(binding, b)| wgpu::BindGroupEntry {
                binding,
                resource: b.as_entire_binding(),
            })
            .collect();
        let bind = self
            .gpu
            .device()
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
        let index = 2 * step.place() as u32;
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: None,
                timestamp_writes: self
                    .timer
                    .as_ref()
                    .map(|t| wgpu::ComputePassTimestampWrites {
                        query_set: &t.queries,
                        beginning_of_pass_write_index: Some(index),
                        end_of_pass_write_index: Some(index + 1),
                    }),
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind, &[]);
            pass.dispatch_workgroups(groups.0, groups.1, 1);
        }
        if let Some(t) = &self.timer {
            let at = step.place() as u64 * STAMP_STRIDE;
            encoder.resolve_query_set(&t.queries, index..index + 2, &t.resolved, at);
        }
    }

    /// Runs a step of the search (clearing the counts first if `clear`, and the word of cut
    /// loops but for the scan, which keeps the count pass's word).
    fn run_search_step(
        &self,
        step: Step,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
        groups: (u32, u32),
        clear: bool,
    ) {
        let mut encoder = self
            .gpu
            .device()
            .create_command_encoder(&Default::default());
        if clear {
            encoder.clear_buffer(&self.counts, 0, None);
        }
        if step != Step::Scan {
            encoder.clear_buffer(&self.search_tally, 0, None);
        }
        self.record(&mut encoder, step, pipeline, buffers, groups);
        self.gpu.submit(encoder);
    }

    /// Reads the first `words` words of `source` back, and adds up the times of `steps`;
    /// `None` when a kernel of the search had its loops cut short by the device
    /// (`check_loops`), so that what it computed is wrong.
    fn read_checked(
        &mut self,
        source: &wgpu::Buffer,
        words: usize,
        steps: &[Step],
    ) -> Result<Option<Vec<u32>>, GpuError> {
        let stride = (STAMP_STRIDE / 4) as usize;
        let mut parts = vec![(source, words), (&self.search_tally, 1)];
        if let Some(timer) = &self.timer {
            parts.push((&timer.resolved, STAMP_PLACES * stride));
        }
        let mut read = self.gpu.read_parts(&parts, &self.readback)?.into_iter();
        let (values, cut) = (
            read.next().unwrap_or_default(),
            read.next().unwrap_or_default(),
        );
        if let (Some(timer), Some(stamps)) = (&mut self.timer, read.next()) {
            for step in steps {
                let at = step.place() * stride;
                timer.add(step.place(), stamps.get(at..at + 4).unwrap_or(&[]));
            }
        }
        Ok((cut.first() == Some(&0)).then_some(values))
    }
}

impl Kernels for BandKernels<'_> {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn max_configs(&self) -> usize {
        self.max_configs
    }

    fn max_partials(&self) -> usize {
        self.partial_most
    }

    fn max_items(&self) -> usize {
        self.tuning
            .items
            .map_or(MAX_ITEMS, |i| i as usize)
            .min(MAX_ITEMS)
    }

    fn fixed_items(&self) -> Option<u32> {
        self.tuning.items
    }

    fn partial_totals(
        &mut self,
        tables: &[u32],
        configs: usize,
    ) -> Result<Option<Vec<u32>>, GpuError> {
        let bytes: Vec<u8> = tables.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.gpu.queue().write_buffer(&self.tables, 0, &bytes);
        self.set_params(&self.params, configs, 0..0);
        let threads = 2 * configs * self.shape.prefixes;
        self.run_search_step(
            Step::Count,
            &self.count_partials,
            &self.search_buffers(),
            grid(threads.div_ceil(SEARCH_WORKGROUP)),
            true,
        );
        self.run_search_step(
            Step::Scan,
            &self.scan,
            &[
                (0, &self.params),
                (3, &self.counts),
                (4, &self.starts),
                (5, &self.totals),
                (9, &self.search_tally),
            ],
            grid(2 * configs),
            false,
        );
        let totals = self.totals.clone();
        self.read_checked(&totals, 2 * configs, &[Step::Count, Step::Scan])
    }

    fn write_partials(
        &mut self,
        batch: &[u32],
        configs: usize,
        total: usize,
    ) -> Result<bool, GpuError> {
        if total > self.partial_most {
            return Err(GpuError::TooLarge {
                needed: total as u64 * PARTIAL_BYTES,
                most: self.partial_most as u64 * PARTIAL_BYTES,
            });
        }
        if total > self.partial_capacity {
            let capacity = total.max(2 * self.partial_capacity).min(self.partial_most);
            let storage = wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_DST
                | wgpu::BufferUsages::COPY_SRC;
            self.partials =
                self.gpu
                    .buffer("partials", capacity as u64 * PARTIAL_BYTES, storage)?;
            self.partial_capacity = capacity;
        }
        let bytes: Vec<u8> = batch.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.gpu.queue().write_buffer(&self.batch, 0, &bytes);
        self.batch_table = batch.to_vec();
        self.configs = configs;
        self.set_params(&self.params, configs, 0..0);
        let threads = 2 * configs * self.shape.prefixes;
        self.run_search_step(
            Step::Write,
            &self.write_partials,
            &self.search_buffers(),
            grid(threads.div_ceil(SEARCH_WORKGROUP)),
            true,
        );
        let cut = self.search_tally.clone();
        Ok(self.read_checked(&cut, 0, &[Step::Write])?.is_some())
    }

    fn pair_workgroups(&self) -> Option<usize> {
        Some(self.pair_workgroups)
    }

    fn kernel_seconds(&self) -> Option<KernelSeconds> {
        self.timer.as_ref().map(|t| KernelSeconds {
            search: t.seconds[Step::Count.place()] + t.seconds[Step::Write.place()],
            scan: t.seconds[Step::Scan.place()],
            pairs: (0..IN_FLIGHT)
                .map(|s| t.seconds[Step::Pairs(s).place()])
                .sum(),
        })
    }

    fn waited(&self) -> f64 {
        self.gpu.waited()
    }

    fn submit_pairs(&mut self, items: Range<u32>, configs: Range<usize>) -> Result<(), GpuError> {
        let s = self.next_slot;
        if self.slots[s].flight.is_some() {
            return Err(GpuError::Failed(format!(
                "internal error: more than {IN_FLIGHT} dispatches in flight"
            )));
        }
        let n = items.len();
        let slot = &self.slots[s];
        self.set_params(&slot.params, self.configs, items.clone());
        let buffers = [
            &slot.params,
            &self.tables,
            &self.binomial,
            &self.counts,
            &self.starts,
            &self.batch,
            &self.partials,
            &self.scratch,
            &slot.results,
            &slot.tally,
        ];
        let entries: Vec<(u32, &wgpu::Buffer)> = (0..).zip(buffers).collect();
        let mut encoder = self
            .gpu
            .device()
            .create_command_encoder(&Default::default());
        encoder.clear_buffer(&slot.tally, 0, None);
        self.record(
            &mut encoder,
            Step::Pairs(s),
            &self.pairs,
            &entries,
            (self.pair_workgroups.min(n.max(1)) as u32, 1),
        );
        // Read back in the same submission: the tally's first words, the sums of this
        // dispatch's configurations, and its timestamps.
        let head = (TALLY_SUMS * 4) as u64;
        let sums = (2 * configs.len() * 4) as u64;
        encoder.copy_buffer_to_buffer(&slot.tally, 0, &slot.readback, 0, head);
        if sums > 0 {
            let from = ((TALLY_SUMS + 2 * configs.start) * 4) as u64;
            encoder.copy_buffer_to_buffer(&slot.tally, from, &slot.readback, head, sums);
        }
        let mut bytes = head + sums;
        if let Some(t) = &self.timer {
            let at = Step::Pairs(s).place() as u64 * STAMP_STRIDE;
            encoder.copy_buffer_to_buffer(&t.resolved, at, &slot.readback, bytes, 16);
            bytes += 16;
        }
        let submission = self.gpu.submit(encoder);
        let mapped = Arc::new(Mutex::new(None));
        let done = mapped.clone();
        slot.readback
            .slice(..bytes)
            .map_async(wgpu::MapMode::Read, move |result| {
                *done.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            });
        self.slots[s].flight = Some(Flight {
            items,
            configs,
            submission,
            bytes,
            mapped,
        });
        self.next_slot = (s + 1) % IN_FLIGHT;
        Ok(())
    }

    fn collect_pairs(&mut self) -> Result<Option<PairTally>, GpuError> {
        let s = self.oldest_slot;
        let Some(flight) = self.slots[s].flight.take() else {
            return Err(GpuError::Failed(
                "internal error: no dispatch in flight to collect".to_string(),
            ));
        };
        self.oldest_slot = (s + 1) % IN_FLIGHT;
        self.gpu.wait_for(Some(flight.submission))?;
        match flight
            .mapped
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
        {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(GpuError::Failed(format!("reading sums back: {e}"))),
            None => return Err(GpuError::Failed("reading sums back: not mapped".into())),
        }
        let readback = &self.slots[s].readback;
        let words: Vec<u32> = {
            let slice = readback.slice(..flight.bytes);
            let view = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Failed(format!("reading sums back: {e}")))?;
            view.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        readback.unmap();
        let sums_at = TALLY_SUMS;
        let configs = flight.configs.len();
        if let Some(timer) = &mut self.timer {
            let at = sums_at + 2 * configs;
            timer.add(Step::Pairs(s).place(), words.get(at..at + 4).unwrap_or(&[]));
        }
        if words[TALLY_CUT] != 0 {
            return Ok(None);
        }
        let overflowed = words[TALLY_OVERFLOW];
        let mut overflow: Vec<u32> = if overflowed as usize <= OVERFLOW_SLOTS {
            words[OVERFLOW_LIST..OVERFLOW_LIST + overflowed as usize].to_vec()
        } else {
            // More than the tally lists: each item's status tells.
            let n = flight.items.len();
            let results = self.slots[s].results.clone();
            let read = self
                .gpu
                .read_parts(&[(&results, 2 * n)], &self.readback)?
                .pop()
                .unwrap_or_default();
            flight
                .items
                .clone()
                .zip(read.chunks_exact(2))
                .filter(|(_, w)| w[1] != 0)
                .map(|(k, _)| k)
                .collect()
        };
        overflow.sort_unstable();
        Ok(Some(PairTally {
            configs: flight.configs,
            sums: (0..configs)
                .map(|c| {
                    u64::from(words[sums_at + 2 * c]) | u64::from(words[sums_at + 2 * c + 1]) << 32
                })
                .collect(),
            overflowed,
            overflow,
            done: words[TALLY_DONE],
        }))
    }
}

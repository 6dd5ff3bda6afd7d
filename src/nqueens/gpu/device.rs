//! The device: choosing an adapter, and the kernels of one band on it (their pipelines and
//! buffers, made once and reused for every batch).

use std::fmt;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use wgpu::util::DeviceExt;

use super::GpuError;
use super::counter::{KernelSeconds, Kernels};
use super::layout::{self, BATCH_WORDS, PARTIAL_BYTES, SEARCH_WORKGROUP, Shape, TILE, WORKGROUP};
use crate::nqueens::band::Band;

/// The kernels' shared code, compiled before each of them.
const COMMON: &str = include_str!("common.wgsl");
const PARTIALS: &str = include_str!("partials.wgsl");
const SCAN: &str = include_str!("scan.wgsl");
const PAIRS: &str = include_str!("pairs.wgsl");

/// Workgroup memory the pairing kernel needs: a tile of footprints, its bit planes and its
/// tables, and a few hundred bytes more.
const WORKGROUP_MEMORY: u32 = (TILE as u32) * 8 + 640 * 4 + 4096 * 4 + 1024;

/// Footprints each list of the pairing kernel holds (a unit with a longer list is counted
/// again on the CPU): at N = 21 the longest lists seen hold about 6,000.
const SCRATCH: usize = 16_384;

/// Workgroups of the pairing kernel on a GPU (enough to fill the largest), and on a
/// software device.
const PAIR_WORKGROUPS: usize = 1024;
const SOFTWARE_PAIR_WORKGROUPS: usize = 16;

/// The environment variable that sets the pairing kernel's workgroups instead (for tuning on
/// a new GPU; each takes `2 x SCRATCH` footprints of the device's memory), and its largest
/// value.
pub const WORKGROUPS_VARIABLE: &str = "CHESS_PUZZLES_GPU_WORKGROUPS";
const MOST_PAIR_WORKGROUPS: usize = 65_535;

/// The pairing kernel's workgroups that `value` (the variable's, if set) asks for.
fn workgroups_asked(value: Option<&std::ffi::OsStr>) -> Result<Option<usize>, GpuError> {
    let Some(value) = value else {
        return Ok(None);
    };
    match value.to_str().and_then(|v| v.parse::<usize>().ok()) {
        Some(n) if (1..=MOST_PAIR_WORKGROUPS).contains(&n) => Ok(Some(n)),
        _ => Err(GpuError::Setting(format!(
            "{WORKGROUPS_VARIABLE} must be a whole number from 1 to {MOST_PAIR_WORKGROUPS}, \
             found {value:?}"
        ))),
    }
}

/// Configurations a batch holds at most, and bytes of the buffers sized by them.
const MAX_BATCH: usize = 4096;
const BATCH_BUFFER_BYTES: u64 = 64 << 20;

/// Bytes of the partial sides' buffer to begin with (it grows when a batch needs more).
const FIRST_PARTIALS_BYTES: u64 = 64 << 20;

/// Items of one dispatch of the pairing kernel at most.
const MAX_ITEMS: usize = 1 << 20;

/// Iterations of the kernels' last loop (`check_loops` in common.wgsl).
const CANARY: u32 = 2;

/// How long a dispatch may take before the device is given up as hung.
const DISPATCH_TIMEOUT: Duration = Duration::from_secs(600);

/// An adapter: a GPU (or a software device) and the interface it is driven through.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Adapter {
    /// Its name, as its driver gives it ("NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)").
    pub name: String,
    /// The interface: Vulkan, Metal, Direct3D 12.
    pub backend: String,
    /// Its driver and version, as the driver gives them.
    pub driver: String,
    /// Whether it is a software device running on the CPU.
    pub software: bool,
}

impl fmt::Display for Adapter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}", self.name, self.backend)?;
        if self.software {
            write!(f, ", software")?;
        }
        write!(f, ")")
    }
}

impl Adapter {
    fn of(info: &wgpu::AdapterInfo) -> Adapter {
        let backend = match info.backend {
            wgpu::Backend::Vulkan => "Vulkan",
            wgpu::Backend::Metal => "Metal",
            wgpu::Backend::Dx12 => "Direct3D 12",
            wgpu::Backend::Gl => "OpenGL",
            wgpu::Backend::BrowserWebGpu => "WebGPU",
            _ => "an unknown interface",
        };
        Adapter {
            name: info.name.clone(),
            backend: backend.to_string(),
            driver: [info.driver.as_str(), info.driver_info.as_str()]
                .iter()
                .filter(|s| !s.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join(" "),
            software: info.device_type == wgpu::DeviceType::Cpu,
        }
    }
}

/// An open GPU: the adapter chosen, its device and queue, and what went wrong on it.
pub struct Gpu {
    adapter: Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    limits: wgpu::Limits,
    /// The pairing kernel's workgroups, where `WORKGROUPS_VARIABLE` sets them.
    pair_workgroups: Option<usize>,
    /// The first error the device reported outside a check of ours, or its loss.
    failure: Arc<Mutex<Option<String>>>,
}

impl fmt::Debug for Gpu {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gpu")
            .field("adapter", &self.adapter)
            .finish()
    }
}

/// What the kernels need of an adapter; `None` if it has it, else why not.
fn unsuitable(limits: &wgpu::Limits) -> Option<String> {
    if limits.max_compute_workgroup_storage_size < WORKGROUP_MEMORY {
        return Some(format!(
            "{} bytes of workgroup memory, {WORKGROUP_MEMORY} needed",
            limits.max_compute_workgroup_storage_size
        ));
    }
    if limits.max_compute_invocations_per_workgroup < WORKGROUP as u32 {
        return Some(format!(
            "{} threads a workgroup, {WORKGROUP} needed",
            limits.max_compute_invocations_per_workgroup
        ));
    }
    if limits.max_storage_buffers_per_shader_stage < 9 {
        return Some(format!(
            "{} storage buffers a kernel, 9 needed",
            limits.max_storage_buffers_per_shader_stage
        ));
    }
    None
}

/// Ranks adapters: discrete GPUs first, software devices last.
fn preference(info: &wgpu::AdapterInfo) -> u8 {
    match info.device_type {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Other => 3,
        wgpu::DeviceType::Cpu => 4,
    }
}

/// What to say when no adapter was found at all.
fn nothing_found() -> String {
    #[cfg(target_os = "linux")]
    {
        // The Vulkan loader is opened at run time; say whether it is there at all.
        let name = c"libvulkan.so.1";
        // SAFETY: dlopen takes a NUL-terminated name; the handle is closed right away.
        let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return "no adapter: the Vulkan loader (libvulkan.so.1) is not installed; install \
                    it with the Vulkan driver of the machine's GPU (Debian: libvulkan1 with \
                    mesa-vulkan-drivers, which also has a software device, or the NVIDIA \
                    driver)"
                .to_string();
        }
        // SAFETY: the handle came from dlopen just above.
        unsafe { libc::dlclose(handle) };
        "no adapter: the Vulkan loader found no driver; install the Vulkan driver of the \
         machine's GPU (Debian: mesa-vulkan-drivers, which also has a software device, or the \
         NVIDIA driver)"
            .to_string()
    }
    #[cfg(not(target_os = "linux"))]
    {
        "no adapter: no Vulkan, Metal or Direct3D 12 driver found".to_string()
    }
}

impl Gpu {
    /// Opens the best adapter the system has (a discrete GPU first, a software device last)
    /// that can run the kernels.
    pub fn open() -> Result<Gpu, GpuError> {
        let pair_workgroups = workgroups_asked(std::env::var_os(WORKGROUPS_VARIABLE).as_deref())?;
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = wgpu::Backends::PRIMARY;
        let instance = wgpu::Instance::new(descriptor);
        let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
        if adapters.is_empty() {
            return Err(GpuError::NoDevice(nothing_found()));
        }
        adapters.sort_by_key(|a| preference(&a.get_info()));
        let mut refused = Vec::new();
        for adapter in adapters {
            let info = Adapter::of(&adapter.get_info());
            let limits = adapter.limits();
            if let Some(why) = unsuitable(&limits) {
                refused.push(format!("{info}: {why}"));
                continue;
            }
            // Timestamps time each kernel (`Stats`) where the adapter has them.
            let features = adapter.features() & wgpu::Features::TIMESTAMP_QUERY;
            let descriptor = wgpu::DeviceDescriptor {
                label: Some("chess-puzzles"),
                required_features: features,
                required_limits: limits.clone(),
                ..Default::default()
            };
            match pollster::block_on(adapter.request_device(&descriptor)) {
                Ok((device, queue)) => {
                    let failure = Arc::new(Mutex::new(None));
                    let sink = failure.clone();
                    device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
                        record(&sink, error.to_string());
                    }));
                    let sink = failure.clone();
                    device.set_device_lost_callback(move |reason, message| {
                        record(&sink, format!("device lost ({reason:?}): {message}"));
                    });
                    return Ok(Gpu {
                        adapter: info,
                        device,
                        queue,
                        limits,
                        pair_workgroups,
                        failure,
                    });
                }
                Err(e) => refused.push(format!("{info}: {e}")),
            }
        }
        Err(GpuError::NoDevice(format!(
            "no adapter can run the kernels: {}",
            refused.join("; ")
        )))
    }

    /// The adapter counting.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// The kernels of `band` on this device.
    pub(crate) fn kernels(&self, band: &Band) -> Result<BandKernels<'_>, GpuError> {
        BandKernels::new(self, band, SCRATCH, None)
    }

    /// The kernels of `band`, their lists holding `scratch` footprints, the pairing kernel
    /// run on `workgroups` workgroups (or as many as for a count).
    #[cfg(test)]
    pub(crate) fn kernels_with(
        &self,
        band: &Band,
        scratch: usize,
        workgroups: Option<usize>,
    ) -> Result<BandKernels<'_>, GpuError> {
        BandKernels::new(self, band, scratch, workgroups)
    }

    /// An error the device reported since the last check, if any.
    fn check(&self) -> Result<(), GpuError> {
        match self
            .failure
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
        {
            Some(message) => Err(GpuError::Failed(message)),
            None => Ok(()),
        }
    }

    /// Waits for everything submitted so far.
    fn wait(&self) -> Result<(), GpuError> {
        let poll = self.device.poll(wgpu::PollType::Wait {
            submission_index: None,
            timeout: Some(DISPATCH_TIMEOUT),
        });
        self.check()?;
        poll.map(|_| ())
            .map_err(|e| GpuError::Failed(format!("waiting for the GPU: {e}")))
    }

    /// A buffer of `bytes` bytes, or the device's refusal.
    fn buffer(
        &self,
        label: &str,
        bytes: u64,
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, GpuError> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::OutOfMemory);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(16).next_multiple_of(16),
            usage,
            mapped_at_creation: false,
        });
        match pollster::block_on(scope.pop()) {
            Some(e) => Err(GpuError::Failed(format!(
                "no memory for a buffer of {bytes} bytes ({label}): {e}"
            ))),
            None => Ok(buffer),
        }
    }

    /// Copies the first `words` words of `source` back to the host through `readback`.
    #[cfg(test)]
    fn read(
        &self,
        source: &wgpu::Buffer,
        readback: &wgpu::Buffer,
        words: usize,
    ) -> Result<Vec<u32>, GpuError> {
        let mut parts = self.read_parts(&[(source, words)], readback)?;
        Ok(parts.pop().unwrap_or_default())
    }

    /// Copies the first words of each buffer of `parts` back to the host, one after the other
    /// through `readback`, in one submission.
    fn read_parts(
        &self,
        parts: &[(&wgpu::Buffer, usize)],
        readback: &wgpu::Buffer,
    ) -> Result<Vec<Vec<u32>>, GpuError> {
        let bytes: u64 = parts.iter().map(|&(_, words)| (words * 4) as u64).sum();
        if bytes == 0 {
            return Ok(parts.iter().map(|_| Vec::new()).collect());
        }
        if bytes > readback.size() {
            return Err(GpuError::Failed(format!(
                "internal error: {bytes} bytes to read back, through a buffer of {}",
                readback.size()
            )));
        }
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let mut at = 0;
        for &(source, words) in parts {
            let size = (words * 4) as u64;
            if size > 0 {
                encoder.copy_buffer_to_buffer(source, 0, readback, at, size);
            }
            at += size;
        }
        self.queue.submit([encoder.finish()]);
        let slice = readback.slice(..bytes);
        let mapped = Arc::new(Mutex::new(None));
        let done = mapped.clone();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            *done.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        self.wait()?;
        match mapped.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(Ok(())) => {}
            Some(Err(e)) => return Err(GpuError::Failed(format!("reading results back: {e}"))),
            None => return Err(GpuError::Failed("reading results back: not mapped".into())),
        }
        let words: Vec<u32> = {
            let view = slice
                .get_mapped_range()
                .map_err(|e| GpuError::Failed(format!("reading results back: {e}")))?;
            view.chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()
        };
        readback.unmap();
        let mut out = Vec::with_capacity(parts.len());
        let mut at = 0;
        for &(_, n) in parts {
            out.push(words[at..at + n].to_vec());
            at += n;
        }
        Ok(out)
    }
}

/// Keeps the first failure the device reports.
fn record(sink: &Mutex<Option<String>>, message: String) {
    let mut slot = sink.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = Some(message);
    }
}

/// A workgroup grid of at least `count` workgroups, in two dimensions when one holds too few.
fn grid(count: usize) -> (u32, u32) {
    let x = count.clamp(1, 65_535);
    (x as u32, count.div_ceil(x).max(1) as u32)
}

/// The steps of a batch, as they are timed: the search of the partial sides (counting, then
/// writing them), the scan, the pairs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Step {
    Count = 0,
    Scan = 1,
    Write = 2,
    Pairs = 3,
}

/// Timestamps around each dispatch, where the adapter has them: per step, the begin and end
/// of its last dispatch, resolved into `resolved` and added up at the next read.
struct Timer {
    queries: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    /// Per step, whether its last dispatch's times are not added up yet.
    pending: [bool; 4],
    /// Per step, seconds so far.
    seconds: [f64; 4],
    /// Nanoseconds per tick.
    period: f64,
}

/// The pipelines and buffers of one band's kernels on a [`Gpu`].
pub(crate) struct BandKernels<'g> {
    gpu: &'g Gpu,
    shape: Shape,
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
    results: wgpu::Buffer,
    /// The word the kernels set when the device cut their loops short (`check_loops`).
    cut: wgpu::Buffer,
    readback: wgpu::Buffer,
    /// Partial sides the buffer holds now, and at most.
    partial_capacity: usize,
    partial_most: usize,
    max_configs: usize,
    pair_workgroups: usize,
    configs: usize,
    timer: Option<Timer>,
}

impl<'g> BandKernels<'g> {
    fn new(
        gpu: &'g Gpu,
        band: &Band,
        scratch: usize,
        workgroups: Option<usize>,
    ) -> Result<BandKernels<'g>, GpuError> {
        let device = &gpu.device;
        let limits = &gpu.limits;
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        let shape = Shape::new(band, scratch);
        let pair_workgroups = workgroups
            .or(gpu.pair_workgroups)
            .unwrap_or(if gpu.adapter.software {
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
        let constants = shape.constants();
        let pipeline = |source: &str, entry: &str| {
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(entry),
                source: wgpu::ShaderSource::Wgsl(format!("{COMMON}\n{source}").into()),
            });
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
        let kernels = BandKernels {
            gpu,
            shape,
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
            results: gpu.buffer("results", (MAX_ITEMS * 8) as u64, storage)?,
            cut: gpu.buffer("cut", 16, storage)?,
            // The largest read: a dispatch's results (or the totals), the word of cut loops
            // and the timestamps.
            readback: gpu.buffer(
                "readback",
                words((2 * MAX_ITEMS).max(segments) + 1) + 4 * wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT,
                wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            )?,
            partial_capacity,
            partial_most,
            max_configs,
            pair_workgroups,
            configs: 0,
            timer: gpu
                .device
                .features()
                .contains(wgpu::Features::TIMESTAMP_QUERY)
                .then(|| Timer {
                    queries: device.create_query_set(&wgpu::QuerySetDescriptor {
                        label: Some("timestamps"),
                        ty: wgpu::QueryType::Timestamp,
                        count: 8,
                    }),
                    resolved: device.create_buffer(&wgpu::BufferDescriptor {
                        label: Some("timestamps"),
                        size: 4 * wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT,
                        usage: wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC,
                        mapped_at_creation: false,
                    }),
                    pending: [false; 4],
                    seconds: [0.0; 4],
                    period: f64::from(gpu.queue.get_timestamp_period()),
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
            "results" => &self.results,
            _ => panic!("no buffer {name}"),
        };
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

    /// Writes the parameters of the next dispatches.
    fn set_params(&self, configs: usize, items: Range<u32>) {
        let words = [configs as u32, items.start, items.end - items.start, CANARY];
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.gpu.queue.write_buffer(&self.params, 0, &bytes);
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
            (9, &self.cut),
        ]
    }

    /// Runs `pipeline` on `groups` workgroups with `buffers` at their bindings, after clearing
    /// `counts` if `clear` and the word of cut loops (but for the scan); timed as `step`.
    fn dispatch(
        &self,
        step: Step,
        pipeline: &wgpu::ComputePipeline,
        buffers: &[(u32, &wgpu::Buffer)],
        groups: (u32, u32),
        clear: bool,
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
            .device
            .create_bind_group(&wgpu::BindGroupDescriptor {
                label: None,
                layout: &pipeline.get_bind_group_layout(0),
                entries: &entries,
            });
        let mut encoder = self.gpu.device.create_command_encoder(&Default::default());
        if clear {
            encoder.clear_buffer(&self.counts, 0, None);
        }
        if step != Step::Scan {
            // The scan keeps the count pass's word: the totals are read after both.
            encoder.clear_buffer(&self.cut, 0, None);
        }
        let index = step as u32 * 2;
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
            // Each step's two timestamps at their own aligned place.
            let at = step as u64 * wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT;
            encoder.resolve_query_set(&t.queries, index..index + 2, &t.resolved, at);
        }
        self.gpu.queue.submit([encoder.finish()]);
    }

    /// Notes that `step` ran: its times are added up at the next read.
    fn ran(&mut self, step: Step) {
        if let Some(t) = &mut self.timer {
            t.pending[step as usize] = true;
        }
    }

    /// Reads the first `words` words of `source` back, and adds up the times of the steps
    /// dispatched since the last read; `None` when a kernel of the last dispatch had its
    /// loops cut short by the device (`check_loops`), so that what it computed is wrong.
    fn read_checked(
        &mut self,
        source: &wgpu::Buffer,
        words: usize,
    ) -> Result<Option<Vec<u32>>, GpuError> {
        let stride = (wgpu::QUERY_RESOLVE_BUFFER_ALIGNMENT / 4) as usize;
        let mut parts = vec![(source, words), (&self.cut, 1)];
        if let Some(timer) = &self.timer {
            parts.push((&timer.resolved, 4 * stride));
        }
        let mut read = self.gpu.read_parts(&parts, &self.readback)?.into_iter();
        let (values, cut) = (
            read.next().unwrap_or_default(),
            read.next().unwrap_or_default(),
        );
        if let (Some(timer), Some(stamps)) = (&mut self.timer, read.next()) {
            for (step, pending) in timer.pending.iter_mut().enumerate() {
                if std::mem::take(pending) {
                    let tick = |i: usize| {
                        let at = step * stride + 2 * i;
                        u64::from(stamps[at]) | u64::from(stamps[at + 1]) << 32
                    };
                    let ticks = tick(1).saturating_sub(tick(0));
                    timer.seconds[step] += ticks as f64 * timer.period * 1e-9;
                }
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
        MAX_ITEMS
    }

    fn partial_totals(
        &mut self,
        tables: &[u32],
        configs: usize,
    ) -> Result<Option<Vec<u32>>, GpuError> {
        let bytes: Vec<u8> = tables.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.gpu.queue.write_buffer(&self.tables, 0, &bytes);
        self.set_params(configs, 0..0);
        let threads = 2 * configs * self.shape.prefixes;
        self.dispatch(
            Step::Count,
            &self.count_partials,
            &self.search_buffers(),
            grid(threads.div_ceil(SEARCH_WORKGROUP)),
            true,
        );
        self.ran(Step::Count);
        self.dispatch(
            Step::Scan,
            &self.scan,
            &[
                (0, &self.params),
                (3, &self.counts),
                (4, &self.starts),
                (5, &self.totals),
                (9, &self.cut),
            ],
            grid(2 * configs),
            false,
        );
        self.ran(Step::Scan);
        let totals = self.totals.clone();
        self.read_checked(&totals, 2 * configs)
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
        self.gpu.queue.write_buffer(&self.batch, 0, &bytes);
        self.configs = configs;
        self.set_params(configs, 0..0);
        let threads = 2 * configs * self.shape.prefixes;
        self.dispatch(
            Step::Write,
            &self.write_partials,
            &self.search_buffers(),
            grid(threads.div_ceil(SEARCH_WORKGROUP)),
            true,
        );
        self.ran(Step::Write);
        let cut = self.cut.clone();
        Ok(self.read_checked(&cut, 0)?.is_some())
    }

    fn pair_workgroups(&self) -> Option<usize> {
        Some(self.pair_workgroups)
    }

    fn kernel_seconds(&self) -> Option<KernelSeconds> {
        self.timer.as_ref().map(|t| KernelSeconds {
            search: t.seconds[Step::Count as usize] + t.seconds[Step::Write as usize],
            scan: t.seconds[Step::Scan as usize],
            pairs: t.seconds[Step::Pairs as usize],
        })
    }

    fn count_pairs(&mut self, items: Range<u32>) -> Result<Option<Vec<[u32; 2]>>, GpuError> {
        let n = (items.end - items.start) as usize;
        self.set_params(self.configs, items);
        let buffers = [
            &self.params,
            &self.tables,
            &self.binomial,
            &self.counts,
            &self.starts,
            &self.batch,
            &self.partials,
            &self.scratch,
            &self.results,
        ];
        let mut entries: Vec<(u32, &wgpu::Buffer)> = (0..).zip(buffers).collect();
        entries.push((9, &self.cut));
        self.dispatch(
            Step::Pairs,
            &self.pairs,
            &entries,
            (self.pair_workgroups.min(n.max(1)) as u32, 1),
            false,
        );
        self.ran(Step::Pairs);
        let results = self.results.clone();
        let words = self.read_checked(&results, 2 * n)?;
        Ok(words.map(|words| words.chunks_exact(2).map(|w| [w[0], w[1]]).collect()))
    }
}

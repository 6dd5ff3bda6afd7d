//! The device: choosing an adapter, opening it, and the few things done on it outside the
//! kernels (buffers, waits, reads). The kernels of a band on it are `kernels.rs`'s, which
//! builds on this module (`Gpu::kernels` is made there); this module takes nothing from it.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::GpuError;
use super::layout::{Tuning, WORKGROUP, WORKGROUP_MEMORY};
use super::tuning::Options;

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
    /// The kernels' choices.
    tuning: Tuning,
    /// Seconds spent waiting for the device.
    waited: Mutex<f64>,
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
    /// Opens the best GPU the system has that can run the kernels (a discrete GPU first), with
    /// the options of the environment ([`Options::from_env`]): a software device only where
    /// they allow it.
    pub fn open() -> Result<Gpu, GpuError> {
        Gpu::open_with(&Options::from_env()?)
    }

    /// Opens the best adapter the system has that can run the kernels and `options` allow (a
    /// discrete GPU first, a software device last and only if allowed), its kernels made
    /// with `options.tuning`.
    pub fn open_with(options: &Options) -> Result<Gpu, GpuError> {
        let mut descriptor = wgpu::InstanceDescriptor::new_without_display_handle();
        descriptor.backends = wgpu::Backends::PRIMARY;
        let instance = wgpu::Instance::new(descriptor);
        let mut adapters = pollster::block_on(instance.enumerate_adapters(wgpu::Backends::PRIMARY));
        if adapters.is_empty() {
            return Err(GpuError::NoDevice(nothing_found()));
        }
        adapters.sort_by_key(|a| preference(&a.get_info()));
        let mut refused = Vec::new();
        let mut software = Vec::new();
        for adapter in adapters {
            let info = Adapter::of(&adapter.get_info());
            if info.software && !options.allow_software {
                software.push(info.to_string());
                continue;
            }
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
                        tuning: options.tuning,
                        waited: Mutex::new(0.0),
                        failure,
                    });
                }
                Err(e) => refused.push(format!("{info}: {e}")),
            }
        }
        if refused.is_empty() {
            return Err(GpuError::NoDevice(format!(
                "only a software device, which runs the kernels on the CPU (far slower than \
                 the CPU count): {}; count on it with --allow-software or {}=1",
                software.join(", "),
                super::tuning::ALLOW_SOFTWARE_VARIABLE
            )));
        }
        Err(GpuError::NoDevice(format!(
            "no adapter can run the kernels: {}",
            refused.join("; ")
        )))
    }

    /// The kernels' choices this device was opened with.
    pub fn tuning(&self) -> &Tuning {
        &self.tuning
    }

    /// The adapter counting.
    pub fn adapter(&self) -> &Adapter {
        &self.adapter
    }

    /// The device and queue, for the kernels.
    pub(crate) fn device(&self) -> &wgpu::Device {
        &self.device
    }

    pub(crate) fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    pub(crate) fn limits(&self) -> &wgpu::Limits {
        &self.limits
    }

    /// Seconds spent waiting for the device so far.
    pub(crate) fn waited(&self) -> f64 {
        *self.waited.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// An error the device reported since the last check, if any.
    pub(crate) fn check(&self) -> Result<(), GpuError> {
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

    /// Submits what `encoder` recorded. The time in the driver's submit counts as waiting:
    /// a driver may block there while the device is busy (Mesa's software device does, for
    /// as long as the dispatch before runs).
    pub(crate) fn submit(&self, encoder: wgpu::CommandEncoder) -> wgpu::SubmissionIndex {
        let started = std::time::Instant::now();
        let index = self.queue.submit([encoder.finish()]);
        *self.waited.lock().unwrap_or_else(|e| e.into_inner()) += started.elapsed().as_secs_f64();
        index
    }

    /// Waits for everything submitted so far.
    fn wait(&self) -> Result<(), GpuError> {
        self.wait_for(None)
    }

    /// Waits for the submission `index` (and those before it), or all so far.
    pub(crate) fn wait_for(&self, index: Option<wgpu::SubmissionIndex>) -> Result<(), GpuError> {
        let started = std::time::Instant::now();
        let poll = self.device.poll(wgpu::PollType::Wait {
            submission_index: index,
            timeout: Some(DISPATCH_TIMEOUT),
        });
        *self.waited.lock().unwrap_or_else(|e| e.into_inner()) += started.elapsed().as_secs_f64();
        self.check()?;
        poll.map(|_| ())
            .map_err(|e| GpuError::Failed(format!("waiting for the GPU: {e}")))
    }

    /// A buffer of `bytes` bytes, or the device's refusal.
    pub(crate) fn buffer(
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
    pub(crate) fn read(
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
    pub(crate) fn read_parts(
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
        self.submit(encoder);
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
pub(crate) fn record(sink: &Mutex<Option<String>>, message: String) {
    let mut slot = sink.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none() {
        *slot = Some(message);
    }
}

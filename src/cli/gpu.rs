//! `nqueens count --device gpu`: the GPU opened, its count run and its failures sorted into
//! exit codes (no usable device: 2, like any argument that cannot be honoured; a device that
//! fails mid-count: 1, and no count written).

use chess_puzzles::nqueens::Control;
use chess_puzzles::nqueens::shard::{Counted, Spec};

use super::io::Failure;

#[cfg(feature = "gpu")]
pub use chess_puzzles::nqueens::gpu::Gpu;

/// A build without the `gpu` feature has no GPU to open.
#[cfg(not(feature = "gpu"))]
pub enum Gpu {}

/// Refuses a board the GPU does not count.
pub fn check_side(n: usize) -> Result<(), Failure> {
    let (low, high) = (
        chess_puzzles::nqueens::band::MIN_N,
        chess_puzzles::nqueens::band::MAX_N,
    );
    if (low..=high).contains(&n) {
        Ok(())
    } else {
        Err(Failure::Usage(format!(
            "--device gpu counts empty boards of side {low} to {high}, found {n}"
        )))
    }
}

/// The best GPU there is (a software device too if `allow_software` or the environment says
/// so), or why there is none (exit code 2).
#[cfg(feature = "gpu")]
pub fn open(allow_software: bool) -> Result<Gpu, Failure> {
    use chess_puzzles::nqueens::gpu::Options;
    quiet_device_select();
    let usage = |e| Failure::Usage(format!("--device gpu: {e}"));
    let mut options = Options::from_env().map_err(usage)?;
    options.allow_software |= allow_software;
    Gpu::open_with(&options).map_err(usage)
}

#[cfg(not(feature = "gpu"))]
pub fn open(_: bool) -> Result<Gpu, Failure> {
    Err(Failure::Usage(
        "--device gpu: this build has no GPU support (build it with the `gpu` feature)".to_string(),
    ))
}

/// Mesa's device-selection layer asks for a Wayland display, and its library prints an
/// error to standard error where there is none (a server, a cluster node, CI); the layer
/// is of no use here, where the adapter is chosen by the program.
#[cfg(feature = "gpu")]
fn quiet_device_select() {
    if std::env::var_os("XDG_RUNTIME_DIR").is_none()
        && std::env::var_os("NODEVICE_SELECT").is_none()
    {
        // SAFETY: called before the count starts its threads; the only other thread, the
        // Ctrl-C handler's (if installed), waits for a signal and reads no environment.
        unsafe { std::env::set_var("NODEVICE_SELECT", "1") };
    }
}

/// Counts side `n` (shard `shard`, or the whole board) on `gpu`, with a progress bar:
/// `Ok(None)` when `control` said stop. With `stats`, says on standard error what the GPU did
/// (also when the count stopped).
#[cfg(feature = "gpu")]
pub fn count(
    gpu: &Gpu,
    n: usize,
    shard: Option<Spec>,
    control: &Control,
    stats: bool,
) -> Result<Option<(u128, Option<Counted>)>, Failure> {
    use chess_puzzles::nqueens::{gpu as device, shard as shards};
    let failed = |e: device::GpuError| Failure::Failed(format!("{e} ({})", gpu.adapter()));
    let started = std::time::Instant::now();
    let (result, done) = match shard {
        Some(spec) => {
            let (counted, done) = super::progress::with_progress(control, || {
                shards::count_on_gpu(n, spec, gpu, control)
            })
            .map_err(failed)?;
            (counted.map(|c| (c.tally.count, Some(c))), done)
        }
        None => {
            let (tally, done) =
                super::progress::with_progress(control, || device::count(gpu, n, control))
                    .map_err(failed)?;
            if let Some(tally) = tally.filter(|t| !t.verified()) {
                return Err(Failure::Failed(format!(
                    "internal error: the count {} fails its residue {} (an overflow in the \
                     sums); no count written",
                    tally.count, tally.residue
                )));
            }
            (tally.map(|t| (t.count, None)), done)
        }
    };
    if stats {
        eprintln!("{}", describe(gpu, &done, started.elapsed()));
    }
    Ok(result)
}

/// What the GPU did, in a line: `gpu: NVIDIA H200 (Vulkan), driver NVIDIA 580.65; kernels
/// tables=padded,work=queue,checks=off; 1476 configurations in 6 batches, 331 dispatches of
/// the pairs (1024 workgroups each); kernels 3.210 s (partial sides 0.410 s, scan 0.010 s,
/// pairs 2.790 s) of 4.000 s in all; host's own work 0.100 s (0.08 ns a unit), GPU idle
/// 0.790 s; 0 units counted again on the CPU` (an example of the form, not a measurement).
#[cfg(feature = "gpu")]
fn describe(
    gpu: &Gpu,
    done: &chess_puzzles::nqueens::gpu::Stats,
    took: std::time::Duration,
) -> String {
    use chess_puzzles::nqueens::gpu::tuning;
    let kernels = match done.kernel_seconds {
        Some(k) => format!(
            "kernels {:.3} s (partial sides {:.3} s, scan {:.3} s, pairs {:.3} s) of",
            k.search + k.scan + k.pairs,
            k.search,
            k.scan,
            k.pairs
        ),
        None => "no kernel times (the adapter has no timestamps);".to_string(),
    };
    let some = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let cut = match done.cut_dispatches {
        0 => String::new(),
        n => format!(
            "; {} cut short by the device and done again",
            some(n, "dispatch", "dispatches")
        ),
    };
    let per_unit = if done.units > 0 {
        format!(" ({:.2} ns a unit)", done.host() * 1e9 / done.units as f64)
    } else {
        String::new()
    };
    let idle = match done.idle() {
        Some(idle) => format!(", GPU idle {idle:.3} s"),
        None => String::new(),
    };
    let adapter = gpu.adapter();
    let driver = if adapter.driver.is_empty() {
        "driver unnamed".to_string()
    } else {
        format!("driver {}", adapter.driver)
    };
    format!(
        "gpu: {adapter}, {driver}; kernels {}; {} in {}, {} of the pairs{}; {kernels} {:.3} s \
         in all; host's own work {:.4} s{per_unit}, listing the configurations {:.4} s{idle}; \
         {} sized again; {} counted again on the CPU{cut}",
        tuning::describe(gpu.tuning()),
        some(done.configs, "configuration", "configurations"),
        some(done.batches, "batch", "batches"),
        some(done.dispatches, "dispatch", "dispatches"),
        done.pair_workgroups
            .map(|w| format!(" ({} each)", some(w as u64, "workgroup", "workgroups")))
            .unwrap_or_default(),
        took.as_secs_f64(),
        done.host(),
        done.listing,
        some(done.configs_probed_again, "configuration", "configurations"),
        some(done.units_on_cpu, "unit", "units"),
    )
}

#[cfg(not(feature = "gpu"))]
pub fn count(
    gpu: &Gpu,
    _: usize,
    _: Option<Spec>,
    _: &Control,
    _: bool,
) -> Result<Option<(u128, Option<Counted>)>, Failure> {
    match *gpu {}
}

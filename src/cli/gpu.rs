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

/// The best GPU there is, or why there is none (exit code 2).
#[cfg(feature = "gpu")]
pub fn open() -> Result<Gpu, Failure> {
    quiet_device_select();
    Gpu::open().map_err(|e| Failure::Usage(format!("--device gpu: {e}")))
}

#[cfg(not(feature = "gpu"))]
pub fn open() -> Result<Gpu, Failure> {
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
/// `Ok(None)` when `control` said stop.
#[cfg(feature = "gpu")]
pub fn count(
    gpu: &Gpu,
    n: usize,
    shard: Option<Spec>,
    control: &Control,
) -> Result<Option<(u128, Option<Counted>)>, Failure> {
    use chess_puzzles::nqueens::{gpu as device, shard as shards};
    let failed = |e: device::GpuError| Failure::Failed(format!("{e} ({})", gpu.adapter()));
    match shard {
        Some(spec) => {
            let counted = super::nqueens::with_progress(control, || {
                shards::count_on_gpu(n, spec, gpu, control)
            })
            .map_err(failed)?;
            Ok(counted.map(|c| (c.tally.count, Some(c))))
        }
        None => {
            let tally = super::nqueens::with_progress(control, || device::count(gpu, n, control))
                .map_err(failed)?;
            match tally {
                Some(tally) if !tally.verified() => Err(Failure::Failed(format!(
                    "internal error: the count {} fails its residue {} (an overflow in the \
                     sums); no count written",
                    tally.count, tally.residue
                ))),
                tally => Ok(tally.map(|t| (t.count, None))),
            }
        }
    }
}

#[cfg(not(feature = "gpu"))]
pub fn count(
    gpu: &Gpu,
    _: usize,
    _: Option<Spec>,
    _: &Control,
) -> Result<Option<(u128, Option<Counted>)>, Failure> {
    match *gpu {}
}

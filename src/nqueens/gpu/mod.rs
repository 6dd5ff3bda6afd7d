//! Counting an empty board's placements on a GPU: the work units of the band join
//! ([`super::band`]), so a count, a shard and its record are the CPU's, whichever
//! device counted them.
//!
//! Per batch of configurations, three kernels (WGSL compute shaders, run through wgpu on
//! Vulkan, Metal or Direct3D 12):
//!
//! - [`partials.wgsl`](../../../src/nqueens/gpu/partials.wgsl): the *partial sides* (a side's
//!   inner columns) of every configuration, one thread per choice of queens in the first
//!   inner columns, searched depth first; counted per group (the free rows they take), the
//!   counts scanned (`scan.wgsl`), then written grouped.
//! - [`pairs.wgsl`](../../../src/nqueens/gpu/pairs.wgsl): one work unit (a configuration and
//!   a row set) per workgroup at a time: its west and east sides made from the partial sides
//!   completed by the two outer columns, then the pairs of them with disjoint footprints,
//!   counted by bit-plane tables 32 pairs at a time.
//!
//! The host ([`counter`]) lists the configurations, writes their tables ([`layout`]), sizes
//! the batches to the device's buffers, weighs the results by symmetry and sums them as the
//! CPU does (a 128-bit count and its residue). Every kernel has a Rust twin ([`twin`]) of
//! the same arithmetic on the same words, against which the tests check it.
//!
//! ```no_run
//! use chess_puzzles::nqueens::{band::Plan, gpu::Gpu, Control};
//!
//! let gpu = Gpu::open().expect("a GPU");
//! let plan = Plan::new(14, &Control::new()).unwrap();
//! let tally = gpu.count(&plan, 0..plan.units(), &Control::new()).unwrap().unwrap();
//! assert_eq!(tally.count, 365_596);
//! ```

pub mod counter;
mod device;
mod kernels;
pub mod layout;
#[cfg(test)]
mod tests;
pub mod tuning;
pub mod twin;

use std::ops::Range;

use super::band::{self, Plan, Tally};
use super::control::Control;

pub use counter::{KernelSeconds, Stats};
pub use device::{Adapter, Gpu};
pub use layout::{Tables, Tuning, Work};
pub use tuning::Options;

/// The smallest board the GPU counts: the band's.
pub const MIN_N: usize = band::MIN_N;

/// The largest board the GPU counts: the band's.
pub const MAX_N: usize = band::MAX_N;

/// Why a count on the GPU could not start or finish.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// A board the GPU does not count.
    #[error("the GPU counts empty boards of side {MIN_N} to {MAX_N}, found {0}")]
    Unsupported(usize),
    /// No device to count on: what is missing, and which adapters were found.
    #[error("no usable GPU: {0}")]
    NoDevice(String),
    /// The device failed during the count (lost, out of memory, a kernel rejected).
    #[error("the GPU failed during the count: {0}")]
    Failed(String),
    /// A setting of the environment that cannot be honoured.
    #[error("{0}")]
    Setting(String),
    /// One configuration's partial sides need more memory than the device's largest buffer.
    #[error(
        "a configuration's partial sides need {needed} bytes, more than the GPU's largest \
         buffer ({most} bytes)"
    )]
    TooLarge {
        /// Bytes needed.
        needed: u64,
        /// Bytes of the largest buffer.
        most: u64,
    },
}

/// The number of placements of `n` non-attacking queens on an empty `n`x`n` board, counted
/// on `gpu` (the band of [`Plan::new`]), with its residue, and what the GPU did; `None` when
/// `control` said stop.
pub fn count(gpu: &Gpu, n: usize, control: &Control) -> Result<(Option<Tally>, Stats), GpuError> {
    if !(MIN_N..=MAX_N).contains(&n) {
        return Err(GpuError::Unsupported(n));
    }
    let Some(plan) = Plan::new(n, control) else {
        return Ok((None, Stats::default()));
    };
    gpu.count_with_stats(&plan, 0..plan.units(), control)
}

impl Gpu {
    /// The placements of the units `range` of `plan`, weighted by symmetry, with their
    /// residue; `Ok(None)` when `control` said stop (asked between dispatches of a tenth of a
    /// second). Progress in row sets, as [`Plan::count`] reports it.
    pub fn count(
        &self,
        plan: &Plan,
        range: Range<u64>,
        control: &Control,
    ) -> Result<Option<Tally>, GpuError> {
        self.count_with_stats(plan, range, control)
            .map(|(tally, _)| tally)
    }

    /// [`Gpu::count`], and what the count did besides counting.
    pub fn count_with_stats(
        &self,
        plan: &Plan,
        range: Range<u64>,
        control: &Control,
    ) -> Result<(Option<Tally>, Stats), GpuError> {
        let mut kernels = self.kernels(plan.band())?;
        let mut stats = Stats::default();
        let tally = counter::count(&mut kernels, plan, range, control, &mut stats)?;
        Ok((tally, stats))
    }
}

//! Counting the disjoint pairs of two lists of footprints: the inner loop of the join.
//!
//! A west side and an east side on complementary rows make a placement exactly when their
//! footprints (the shared diagonals they occupy) have no bit in common, so the join counts,
//! for two lists `w` and `e` of [`Word`]s, the pairs `(a, b)` with `a & b == 0`. Natively four
//! versions: bit planes with AVX-512 (512 pairs per few instructions), AVX-512 (a register
//! of pairs per instruction, the east list held in four registers at a time), AVX2 and
//! plain code (both as the compiler vectorises the plain loop); in the browser, bit planes
//! with WebAssembly SIMD where the module is built with it. [`Kernel::detect`] picks the
//! best the processor has, and the tests check each against the plain one ([`check`] runs
//! them in the browser's module too).

pub use super::word::Word;

/// A way of counting disjoint pairs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Kernel {
    /// Portable code.
    Plain,
    /// The plain loop compiled for AVX2 (eight lanes).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Hand-written AVX-512: mask tests and masked adds.
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// AVX-512 with population counts: large lists are transposed into bit planes and
    /// counted 512 pairs at a time (`transposed`); small ones as [`Kernel::Avx512`].
    #[cfg(target_arch = "x86_64")]
    Avx512Planes,
    /// WebAssembly SIMD (`simd128`): large lists of `u32` words as bit planes, 256 pairs at
    /// a time; small ones four pairs a vector, the east list held in four vectors at a time
    /// (`simd128.rs`); `u64` words by the plain loop.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    Simd128,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if super::word::planes_available() {
                return Kernel::Avx512Planes;
            }
            if super::word::avx512_available() {
                return Kernel::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return Kernel::Simd128;
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        Kernel::Plain
    }

    /// Every kernel this processor runs (for tests and benchmarks).
    pub fn available() -> Vec<Kernel> {
        // Only x86-64 and WebAssembly with SIMD have kernels beyond the plain one.
        #[cfg_attr(
            not(any(
                target_arch = "x86_64",
                all(target_arch = "wasm32", target_feature = "simd128")
            )),
            allow(unused_mut)
        )]
        let mut kernels = vec![Kernel::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel::Avx2);
            }
            if super::word::avx512_available() {
                kernels.push(Kernel::Avx512);
                if super::word::planes_available() {
                    kernels.push(Kernel::Avx512Planes);
                }
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        kernels.push(Kernel::Simd128);
        kernels
    }

    /// The number of pairs `(a, b)` of `w` x `e` with `a & b == 0`.
    #[inline]
    pub fn disjoint_pairs<W: Word>(self, w: &[W], e: &[W]) -> u64 {
        match self {
            Kernel::Plain => plain(w, e),
            // SAFETY: `Kernel::Avx2` is only made by `detect`/`available` after checking that
            // the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2(w, e) },
            // SAFETY: as above, for the features of `word::avx512_available`.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { W::pairs_avx512(w, e) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Planes => {
                // The larger list as planes, the smaller one queried against them.
                let (small, large) = if w.len() <= e.len() { (w, e) } else { (e, w) };
                if small.len() >= PLANES_SMALL && large.len() >= PLANES_LARGE {
                    // SAFETY: as above, for the features of `planes_available`.
                    unsafe { W::pairs_planes(small, large) }
                } else {
                    // SAFETY: as above, for the features of `word::avx512_available`.
                    unsafe { W::pairs_avx512(w, e) }
                }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Kernel::Simd128 => {
                let (small, large) = if w.len() <= e.len() { (w, e) } else { (e, w) };
                if planes_pay(small.len(), large.len()) {
                    super::simd128::pairs_planes(small, large)
                } else {
                    W::pairs_simd128(w, e)
                }
            }
        }
    }
}

/// Portable: a branch-free count the compiler can vectorise.
#[inline(always)]
pub(super) fn plain<W: Word>(w: &[W], e: &[W]) -> u64 {
    w.iter()
        .map(|&a| e.iter().map(|&b| u64::from(a & b == W::ZERO)).sum::<u64>())
        .sum()
}

/// [`plain`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2<W: Word>(w: &[W], e: &[W]) -> u64 {
    plain(w, e)
}

/// The smallest lists counted by bit planes (measured: below, the planes cost more than
/// they save).
#[cfg(target_arch = "x86_64")]
const PLANES_SMALL: usize = 32;
#[cfg(target_arch = "x86_64")]
const PLANES_LARGE: usize = 128;

/// Whether [`Kernel::Simd128`]'s bit planes pair `small` x `large` footprints in fewer
/// operations than four pairs a vector (about 13/16 of an operation a pair), by their costs
/// counted in WebAssembly instructions: about 14 a footprint of `large` to transpose it, 1,900
/// a block of 256 for the tables, 42 a footprint of `small` and block to query them
/// (web/EXPERIMENTS.md).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn planes_pay(small: usize, large: usize) -> bool {
    let blocks = large.div_ceil(256);
    13 * small * large > 16 * (14 * large + 1_900 * blocks + 42 * small * blocks)
}

/// Checks every kernel this processor runs ([`Kernel::available`]) against the definition,
/// pair by pair, on random lists of both words drawn from `seed`: lengths around the lanes'
/// and blocks' boundaries, footprints of various widths and densities, lists long enough for
/// the bit planes now and then. The number of lists checked, or the first disagreement. The
/// crate's tests run it natively, and the browser's module exports it (`web/test.mjs` runs it
/// in Node.js), so that the WebAssembly SIMD kernel is tested where it runs.
pub fn check(seed: u64) -> Result<usize, String> {
    Ok(check_empty::<u32>()?
        + check_empty::<u64>()?
        + check_random_lists::<u32>(u32::MAX_BITS, seed)?
        + check_random_lists::<u64>(u64::MAX_BITS, seed ^ 1)?
        + check_random_lists::<u64>(34, seed ^ 2)?)
}

/// Empty footprints (which pair with every footprint) against lists of every length to 40,
/// both ways round.
fn check_empty<W: Word>() -> Result<usize, String> {
    let full = W::from_u64((1u64 << W::MAX_BITS) - 1);
    let w = [W::ZERO, full, W::ZERO, W::from_u64(5)];
    for len in 0..40 {
        let e: Vec<W> = (0..len as u64)
            .map(|i| W::from_u64(if i % 3 == 0 { 0 } else { i }))
            .collect();
        for kernel in Kernel::available() {
            for (a, b) in [(&w[..], &e[..]), (&e[..], &w[..])] {
                let (counted, expected) = (kernel.disjoint_pairs(a, b), reference(a, b));
                if counted != expected {
                    return Err(format!(
                        "{kernel:?} counted {counted} disjoint pairs of {}x{} footprints with \
                         empty ones, not {expected}",
                        a.len(),
                        b.len()
                    ));
                }
            }
        }
    }
    Ok(40)
}

/// The definition, pair by pair.
fn reference<W: Word>(w: &[W], e: &[W]) -> u64 {
    let mut count = 0;
    for &a in w {
        for &b in e {
            if a & b == W::ZERO {
                count += 1;
            }
        }
    }
    count
}

/// [`check`] with footprints of at most `bits` bits.
fn check_random_lists<W: Word>(bits: usize, seed: u64) -> Result<usize, String> {
    use rand::RngExt;
    let mut rng = crate::judge::rng(seed);
    let rounds = 400;
    for round in 0..rounds {
        let wl = rng.random_range(0..70usize);
        let el = [0, 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 130][round % 15]
            + rng.random_range(0..3usize);
        let density = rng.random_range(1..17u32);
        let width = rng.random_range(bits.saturating_sub(12).max(1)..=bits);
        let draw = |rng: &mut crate::judge::Rng| {
            W::from_u64((0..density).fold(0u64, |f, _| f | 1 << rng.random_range(0..width)))
        };
        // Lists long enough for the bit planes too (and past a block of 512), now and then.
        let (wl, el) = if round % 4 == 0 {
            (wl + 40, el * 5 + 120)
        } else {
            (wl, el)
        };
        let w: Vec<W> = (0..wl).map(|_| draw(&mut rng)).collect();
        let e: Vec<W> = (0..el).map(|_| draw(&mut rng)).collect();
        let expected = reference(&w, &e);
        for kernel in Kernel::available() {
            let counted = kernel.disjoint_pairs(&w, &e);
            if counted != expected {
                return Err(format!(
                    "{kernel:?} counted {counted} disjoint pairs of {wl}x{el} footprints of \
                     {width} bits, not {expected}"
                ));
            }
        }
    }
    Ok(rounds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_counts_as_the_definition() {
        assert_eq!(check(7), Ok(2 * 40 + 3 * 400));
    }

    #[test]
    fn zero_footprints_pair_with_everything() {
        fn check<W: Word>() {
            let w = [W::ZERO; 3];
            let e = [
                W::from_u64((1u64 << W::MAX_BITS) - 1),
                W::ZERO,
                W::from_u64(5),
            ];
            for kernel in Kernel::available() {
                assert_eq!(kernel.disjoint_pairs(&w, &e), 9, "{kernel:?}");
                assert_eq!(kernel.disjoint_pairs(&e, &w), 9, "{kernel:?}");
                assert_eq!(kernel.disjoint_pairs(&[], &e), 0, "{kernel:?}");
            }
        }
        check::<u32>();
        check::<u64>();
    }
}

//! Counting the disjoint pairs of two lists of footprints: the inner loop of the join.
//!
//! A west side and an east side on complementary rows make a placement exactly when their
//! footprints (the shared diagonals they occupy) have no bit in common, so the join counts,
//! for two lists `w` and `e`, the pairs `(a, b)` with `a & b == 0`. Three versions: AVX-512
//! (sixteen pairs per instruction, the east list held in registers 64 at a time), AVX2 and
//! plain code (both as the compiler vectorises the plain loop); [`Kernel::detect`] picks the best the
//! processor has, and the tests check each against the plain one.

/// A way of counting disjoint pairs.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Kernel {
    /// Portable code.
    Plain,
    /// The plain loop compiled for AVX2 (eight lanes).
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// Hand-written AVX-512: mask tests and masked adds, sixteen lanes.
    #[cfg(target_arch = "x86_64")]
    Avx512,
    /// AVX-512 with population counts: large lists are transposed into bit planes and
    /// counted 512 pairs at a time ([`transposed`]); small ones as [`Kernel::Avx512`].
    #[cfg(target_arch = "x86_64")]
    Avx512Planes,
}

impl Kernel {
    /// The fastest kernel this processor runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vpopcntdq")
            {
                return Kernel::Avx512Planes;
            }
            if std::is_x86_feature_detected!("avx512f") {
                return Kernel::Avx512;
            }
            if std::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Plain
    }

    /// Every kernel this processor runs (for tests and benchmarks).
    pub fn available() -> Vec<Kernel> {
        let mut kernels = vec![Kernel::Plain];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel::Avx2);
            }
            if std::is_x86_feature_detected!("avx512f") {
                kernels.push(Kernel::Avx512);
                if std::is_x86_feature_detected!("avx512vpopcntdq") {
                    kernels.push(Kernel::Avx512Planes);
                }
            }
        }
        kernels
    }

    /// The number of pairs `(a, b)` of `w` x `e` with `a & b == 0`.
    #[inline]
    pub fn disjoint_pairs(self, w: &[u32], e: &[u32]) -> u64 {
        match self {
            Kernel::Plain => plain(w, e),
            // SAFETY: `Kernel::Avx2` is only made by `detect`/`available` after checking that
            // the processor has AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => unsafe { avx2(w, e) },
            // SAFETY: as above, for AVX-512F.
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512 => unsafe { avx512(w, e) },
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx512Planes => {
                // The larger list as planes, the smaller one queried against them.
                let (small, large) = if w.len() <= e.len() { (w, e) } else { (e, w) };
                if small.len() >= PLANES_SMALL && large.len() >= PLANES_LARGE {
                    // SAFETY: as above, for AVX-512F and VPOPCNTDQ.
                    unsafe { transposed(small, large) }
                } else {
                    // SAFETY: as above, for AVX-512F.
                    unsafe { avx512(w, e) }
                }
            }
        }
    }
}

/// Portable: a branch-free count the compiler can vectorise.
#[inline(always)]
fn plain(w: &[u32], e: &[u32]) -> u64 {
    w.iter()
        .map(|&a| u64::from(e.iter().map(|&b| u32::from(a & b == 0)).sum::<u32>()))
        .sum()
}

/// [`plain`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2(w: &[u32], e: &[u32]) -> u64 {
    plain(w, e)
}

/// AVX-512: the east list 64 footprints at a time in four registers (the last block under a
/// lane mask), every west footprint broadcast and tested against them; per lane a counter
/// of disjoint pairs. A lane counts at most `w.len()` pairs per block, so `u32` lanes cannot
/// overflow for lists shorter than 2^32.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn avx512(w: &[u32], e: &[u32]) -> u64 {
    use std::arch::x86_64::*;
    let minus_one = _mm512_set1_epi32(-1);
    let mut total = 0u64;
    for block in e.chunks(64) {
        let len = block.len();
        // The lanes of each register that hold a footprint.
        let lanes = |i: usize| -> u16 {
            let have = len.saturating_sub(16 * i).min(16);
            ((1u32 << have) - 1) as u16
        };
        let (m0, m1, m2, m3) = (lanes(0), lanes(1), lanes(2), lanes(3));
        let p = block.as_ptr().cast::<i32>();
        // SAFETY: a masked load reads only the lanes of its mask, which lie inside `block`
        // (lane j of register i is element 16 i + j < len).
        let (e0, e1, e2, e3) = unsafe {
            (
                _mm512_maskz_loadu_epi32(m0, p),
                _mm512_maskz_loadu_epi32(m1, p.wrapping_add(16)),
                _mm512_maskz_loadu_epi32(m2, p.wrapping_add(32)),
                _mm512_maskz_loadu_epi32(m3, p.wrapping_add(48)),
            )
        };
        let mut a0 = _mm512_setzero_si512();
        let mut a1 = _mm512_setzero_si512();
        let mut a2 = _mm512_setzero_si512();
        let mut a3 = _mm512_setzero_si512();
        for &x in w {
            let b = _mm512_set1_epi32(x as i32);
            // Lanes (of the mask) where the east footprint and `x` share no bit: count one.
            a0 = _mm512_mask_sub_epi32(a0, _mm512_mask_testn_epi32_mask(m0, e0, b), a0, minus_one);
            a1 = _mm512_mask_sub_epi32(a1, _mm512_mask_testn_epi32_mask(m1, e1, b), a1, minus_one);
            a2 = _mm512_mask_sub_epi32(a2, _mm512_mask_testn_epi32_mask(m2, e2, b), a2, minus_one);
            a3 = _mm512_mask_sub_epi32(a3, _mm512_mask_testn_epi32_mask(m3, e3, b), a3, minus_one);
        }
        // Each lane holds at most w.len() and the sum of the four at most 4 w.len(); add them
        // as 64-bit numbers to be safe for any length.
        let lo = |v: __m512i| _mm512_cvtepu32_epi64(_mm512_castsi512_si256(v));
        let hi = |v: __m512i| _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64::<1>(v));
        let sum = _mm512_add_epi64(
            _mm512_add_epi64(
                _mm512_add_epi64(lo(a0), hi(a0)),
                _mm512_add_epi64(lo(a1), hi(a1)),
            ),
            _mm512_add_epi64(
                _mm512_add_epi64(lo(a2), hi(a2)),
                _mm512_add_epi64(lo(a3), hi(a3)),
            ),
        );
        total += _mm512_reduce_add_epi64(sum) as u64;
    }
    total
}

/// The smallest lists counted by bit planes (measured: below, the planes cost more than
/// they save).
#[cfg(target_arch = "x86_64")]
const PLANES_SMALL: usize = 32;
#[cfg(target_arch = "x86_64")]
const PLANES_LARGE: usize = 128;

/// Footprint bits per lookup table of [`transposed`].
#[cfg(target_arch = "x86_64")]
const CHUNK_BITS: usize = 5;

/// Footprint bits covered (six tables of five bits: footprints have at most 30).
#[cfg(target_arch = "x86_64")]
const CHUNKS: usize = 6;

/// AVX-512 with bit planes: the `large` list is cut into blocks of 512; per block, its bits
/// are transposed (plane `b`: bit `j` set when footprint `j` has bit `b`), and for each
/// chunk of five footprint bits a table of 32 vectors holds, per value `x` of the chunk, the
/// footprints of the block with no bit of `x`. A footprint of `small` is then disjoint from
/// the AND of six table entries, 512 pairs counted by six loads, five ANDs and a population
/// count. Footprints must fit 30 bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,popcnt")]
unsafe fn transposed(small: &[u32], large: &[u32]) -> u64 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;
    debug_assert!(
        small
            .iter()
            .chain(large)
            .all(|&f| f >> (CHUNK_BITS * CHUNKS) == 0)
    );
    let mut planes = [[0u16; 32]; CHUNK_BITS * CHUNKS];
    // Every entry is written before it is read (below); not zeroing 12 KiB per call is
    // measurable.
    let mut tables: [[MaybeUninit<__m512i>; 1 << CHUNK_BITS]; CHUNKS] =
        [[MaybeUninit::uninit(); 1 << CHUNK_BITS]; CHUNKS];
    let mut total = 0u64;
    for block in large.chunks(512) {
        // Planes, sixteen footprints at a time.
        let mut valid = [0u16; 32];
        for (i, part) in block.chunks(16).enumerate() {
            let lanes = ((1u32 << part.len()) - 1) as u16;
            valid[i] = lanes;
            // SAFETY: the masked load reads only the `part.len()` lanes of the mask.
            let v = unsafe { _mm512_maskz_loadu_epi32(lanes, part.as_ptr().cast()) };
            for (b, plane) in planes.iter_mut().enumerate() {
                plane[i] = _mm512_mask_test_epi32_mask(lanes, v, _mm512_set1_epi32(1 << b));
            }
        }
        let words = block.len().div_ceil(16);
        for plane in &mut planes {
            plane[words..].fill(0);
        }
        // SAFETY: `[u16; 32]` is 64 bytes, read as one vector.
        let load = |v: &[u16; 32]| unsafe { _mm512_loadu_si512(v.as_ptr().cast()) };
        let valid = load(&valid);
        // Tables: entry x = the valid footprints with no bit of x, built from entry x less its
        // lowest bit.
        for (k, table) in tables.iter_mut().enumerate() {
            table[0].write(valid);
            for x in 1..1usize << CHUNK_BITS {
                let low = x.trailing_zeros() as usize;
                let plane = load(&planes[CHUNK_BITS * k + low]);
                // SAFETY: entry `x & (x - 1)` < x was written earlier in this loop.
                let rest = unsafe { table[x & (x - 1)].assume_init() };
                table[x].write(_mm512_andnot_si512(plane, rest));
            }
        }
        // SAFETY: every entry of every table was written just above.
        let get = |k: usize, x: usize| unsafe { tables[k][x].assume_init() };
        let mut sum = _mm512_setzero_si512();
        for &f in small {
            let f = f as usize;
            let mut fit = get(0, f & 31);
            for k in 1..CHUNKS {
                fit = _mm512_and_si512(fit, get(k, f >> (CHUNK_BITS * k) & 31));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(fit));
        }
        total += _mm512_reduce_add_epi64(sum) as u64;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The definition, pair by pair.
    fn reference(w: &[u32], e: &[u32]) -> u64 {
        let mut count = 0;
        for &a in w {
            for &b in e {
                if a & b == 0 {
                    count += 1;
                }
            }
        }
        count
    }

    #[test]
    fn every_kernel_counts_as_the_definition() {
        let mut rng = crate::judge::rng(7);
        for round in 0..400 {
            // Lengths around the block and lane boundaries, footprints of various densities.
            let wl = rng.random_range(0..70usize);
            let el = [0, 1, 15, 16, 17, 63, 64, 65, 130][round % 9] + rng.random_range(0..3usize);
            let density = rng.random_range(1..13u32);
            let draw = |rng: &mut crate::judge::Rng| {
                (0..density).fold(0u32, |f, _| f | 1 << rng.random_range(0..30))
            };
            // Lists long enough for the bit planes too, now and then.
            let (wl, el) = if round % 5 == 0 {
                (wl + 40, el * 5 + 120)
            } else {
                (wl, el)
            };
            let w: Vec<u32> = (0..wl).map(|_| draw(&mut rng)).collect();
            let e: Vec<u32> = (0..el).map(|_| draw(&mut rng)).collect();
            let expected = reference(&w, &e);
            for kernel in Kernel::available() {
                assert_eq!(
                    kernel.disjoint_pairs(&w, &e),
                    expected,
                    "{kernel:?} {wl}x{el}"
                );
            }
        }
    }

    #[test]
    fn zero_footprints_pair_with_everything() {
        let w = [0u32; 3];
        let e = [u32::MAX, 0, 5];
        for kernel in Kernel::available() {
            assert_eq!(kernel.disjoint_pairs(&w, &e), 9, "{kernel:?}");
            assert_eq!(kernel.disjoint_pairs(&e, &w), 9, "{kernel:?}");
            assert_eq!(kernel.disjoint_pairs(&[], &e), 0, "{kernel:?}");
        }
    }
}

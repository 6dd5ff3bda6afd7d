//! The two widths of a side's words: `u32` for sides of at most 8 columns (footprints of at
//! most 30 bits, row sets of 16 free rows), `u64` for wider ones (at most 46 bits, 24 rows).
//! The narrower word puts twice as many footprints in a vector, so each side is counted with
//! the narrowest word that holds it; the vector code of each width lives here.

use std::fmt::Debug;
use std::ops::{BitAnd, BitOr};

/// Queens on two free rows `a` and `b` of a side's last but one and last column.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Completion<W> {
    /// `1 << a | 1 << (W::LAST + b)`: a partial side fits if its outer attacks have neither.
    pub rows: W,
    /// The two queens' footprint bits.
    pub footprint: W,
}

/// A word holding a side's footprint and the rows its partial sides attack in the two
/// outer columns.
pub trait Word:
    Copy + Default + Eq + Debug + Send + Sync + 'static + BitAnd<Output = Self> + BitOr<Output = Self>
{
    /// The most columns of a side counted with this word.
    const MAX_SIDE: usize;
    /// The most footprint bits (`4 * MAX_SIDE - 2`).
    const MAX_BITS: usize;
    /// Where the last column's rows start in the outer attacks, as searched.
    const LAST: usize;
    /// Whether a partial side is kept in one word (*packed*): its footprint in the bits below
    /// [`Word::OUTER`], and above, its outer attacks on the rows it leaves free only (at most
    /// `s + 2` of them a column: the last but one column's from `OUTER`, the last column's
    /// from `OUTER + 12`). Half the memory, and half the reads when the sides are made.
    const PACKED: bool;
    /// Where a packed partial side's outer attacks start.
    const OUTER: usize;
    /// No bit.
    const ZERO: Self;

    /// The word of `value`, which fits it.
    fn from_u64(value: u64) -> Self;

    /// The bits of the word, as a `u64`.
    fn to_u64(self) -> u64;

    /// Appends `f | c.footprint` for every partial side (outer attacks `o`, footprints `f`)
    /// that attacks neither queen of a completion `c`, for each of `ab` and `ba`.
    ///
    /// # Safety
    /// The processor has the features of [`avx512_available`].
    #[cfg(target_arch = "x86_64")]
    unsafe fn complete_avx512(
        o: &[Self],
        f: &[Self],
        ab: Option<Completion<Self>>,
        ba: Option<Completion<Self>>,
        out: &mut Vec<Self>,
    );

    /// The number of pairs of `w` x `e` with no common bit, by mask tests.
    ///
    /// # Safety
    /// The processor has the features of [`avx512_available`].
    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_avx512(w: &[Self], e: &[Self]) -> u64;

    /// The number of pairs of `small` x `large` with no common bit, by bit planes of
    /// `large` (see [`super::kernel`]).
    ///
    /// # Safety
    /// The processor has AVX-512F, VPOPCNTDQ and VBMI, and GFNI ([`planes_available`]).
    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_planes(small: &[Self], large: &[Self]) -> u64;

    /// [`Word::pairs_avx512`] in WebAssembly SIMD (the plain loop for `u64`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn pairs_simd128(w: &[Self], e: &[Self]) -> u64;

    /// [`Word::complete_avx512`] in WebAssembly SIMD.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn complete_simd128(
        o: &[Self],
        f: &[Self],
        ab: Option<Completion<Self>>,
        ba: Option<Completion<Self>>,
        out: &mut Vec<Self>,
    );
}

/// Whether the processor runs the AVX-512 code of the band ([`Word::pairs_avx512`],
/// [`Word::complete_avx512`]): AVX-512 F, BW, DQ and VL, with BMI1, BMI2, LZCNT and POPCNT,
/// which every processor with AVX-512 has. The band's AVX-512 functions are compiled for all
/// of them, not AVX-512F alone, so that the compiler may use 64-bit mask registers, shifts by
/// a register and one-instruction bit scans (measured in `experiments/nqueens/EXPERIMENTS.md`).
#[cfg(target_arch = "x86_64")]
pub fn avx512_available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512vl")
        && bmi_available()
}

/// Whether the processor has BMI1, BMI2, LZCNT and POPCNT (the search of the partial sides
/// is compiled for them where it has).
#[cfg(target_arch = "x86_64")]
pub fn bmi_available() -> bool {
    std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("popcnt")
}

/// Whether the processor runs [`Word::pairs_planes`].
#[cfg(target_arch = "x86_64")]
pub fn planes_available() -> bool {
    avx512_available()
        && std::is_x86_feature_detected!("avx512vpopcntdq")
        && std::is_x86_feature_detected!("avx512vbmi")
        && std::is_x86_feature_detected!("gfni")
}

impl Word for u32 {
    const MAX_SIDE: usize = 8;
    const MAX_BITS: usize = 30;
    const LAST: usize = 16;
    const PACKED: bool = false;
    const OUTER: usize = 32;
    const ZERO: u32 = 0;

    fn from_u64(value: u64) -> u32 {
        debug_assert!(value <= u64::from(u32::MAX));
        value as u32
    }

    fn to_u64(self) -> u64 {
        u64::from(self)
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn complete_avx512(
        o: &[u32],
        f: &[u32],
        ab: Option<Completion<u32>>,
        ba: Option<Completion<u32>>,
        out: &mut Vec<u32>,
    ) {
        // SAFETY: the caller's processor has the features of `avx512_available`.
        unsafe { complete32(o, f, ab, ba, out) }
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_avx512(w: &[u32], e: &[u32]) -> u64 {
        // SAFETY: the caller's processor has the features of `avx512_available`.
        unsafe { pairs32(w, e) }
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_planes(small: &[u32], large: &[u32]) -> u64 {
        // SAFETY: the caller's processor has the features of `planes_available`.
        unsafe { planes32(small, large) }
    }

    /// Inlined into the walk of the groups: a group holds a few partial sides, and a call
    /// per group was a third of the completion's time.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn complete_simd128(
        o: &[u32],
        f: &[u32],
        ab: Option<Completion<u32>>,
        ba: Option<Completion<u32>>,
        out: &mut Vec<u32>,
    ) {
        super::simd128::complete32(o, f, ab, ba, out);
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn pairs_simd128(w: &[u32], e: &[u32]) -> u64 {
        super::simd128::pairs32(w, e)
    }
}

impl Word for u64 {
    // Packed: footprints of at most 4 x 10 - 2 = 38 bits, then twice 12 rows.
    const MAX_SIDE: usize = 10;
    const MAX_BITS: usize = 38;
    const LAST: usize = 32;
    const PACKED: bool = true;
    const OUTER: usize = 38;
    const ZERO: u64 = 0;

    fn from_u64(value: u64) -> u64 {
        value
    }

    fn to_u64(self) -> u64 {
        self
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn complete_avx512(
        o: &[u64],
        f: &[u64],
        ab: Option<Completion<u64>>,
        ba: Option<Completion<u64>>,
        out: &mut Vec<u64>,
    ) {
        // SAFETY: the caller's processor has the features of `avx512_available`.
        unsafe { complete64(o, f, ab, ba, out) }
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_avx512(w: &[u64], e: &[u64]) -> u64 {
        // SAFETY: the caller's processor has the features of `avx512_available`.
        unsafe { pairs64(w, e) }
    }

    #[cfg(target_arch = "x86_64")]
    unsafe fn pairs_planes(small: &[u64], large: &[u64]) -> u64 {
        // SAFETY: the caller's processor has the features of `planes_available`.
        unsafe { planes64(small, large) }
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn complete_simd128(
        o: &[u64],
        f: &[u64],
        ab: Option<Completion<u64>>,
        ba: Option<Completion<u64>>,
        out: &mut Vec<u64>,
    ) {
        super::simd128::complete64(o, f, ab, ba, out);
    }

    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    fn pairs_simd128(w: &[u64], e: &[u64]) -> u64 {
        super::kernel::plain(w, e)
    }
}

/// [`Word::complete_avx512`] for `u32`: sixteen partial sides at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn complete32(
    o: &[u32],
    f: &[u32],
    ab: Option<Completion<u32>>,
    ba: Option<Completion<u32>>,
    out: &mut Vec<u32>,
) {
    use std::arch::x86_64::*;
    debug_assert_eq!(o.len(), f.len());
    // At most one side per partial side and completion, and 16 lanes of slack for a store.
    out.reserve(2 * o.len() + 16);
    let start = out.len();
    // SAFETY: `reserve` made room for `2 * o.len() + 16` elements after `start`; each store
    // writes 16 lanes at `end` and advances it by the number of sides written (at most one
    // per partial side read, per completion), so every store stays within that room.
    let mut end = unsafe { out.as_mut_ptr().add(start) };
    for c in [ab, ba].into_iter().flatten() {
        let rows = _mm512_set1_epi32(c.rows as i32);
        let footprint = _mm512_set1_epi32(c.footprint as i32);
        for (o, f) in o.chunks(16).zip(f.chunks(16)) {
            let lanes = ((1u32 << o.len()) - 1) as u16;
            // SAFETY: masked loads read only the `o.len()` (= `f.len()`) lanes of the mask,
            // all inside the slices.
            let (ov, fv) = unsafe {
                (
                    _mm512_maskz_loadu_epi32(lanes, o.as_ptr().cast()),
                    _mm512_maskz_loadu_epi32(lanes, f.as_ptr().cast()),
                )
            };
            let fit = _mm512_mask_testn_epi32_mask(lanes, ov, rows);
            let sides = _mm512_maskz_compress_epi32(fit, _mm512_or_si512(fv, footprint));
            // SAFETY: see above.
            unsafe {
                _mm512_storeu_si512(end.cast(), sides);
                end = end.add(fit.count_ones() as usize);
            }
        }
    }
    // SAFETY: the elements from `start` to `end` were written above.
    unsafe {
        let len = end.offset_from(out.as_ptr()) as usize;
        out.set_len(len);
    }
}

/// [`Word::complete_avx512`] for packed `u64` words (`o` is empty: the outer attacks are in
/// `f`): eight partial sides at a time, each read once for both completions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
#[inline]
unsafe fn complete64(
    _o: &[u64],
    f: &[u64],
    ab: Option<Completion<u64>>,
    ba: Option<Completion<u64>>,
    out: &mut Vec<u64>,
) {
    use std::arch::x86_64::*;
    // A completion that cannot be made tests no lane.
    let split = |c: Option<Completion<u64>>| match c {
        Some(c) => (
            0xFF,
            _mm512_set1_epi64(c.rows as i64),
            _mm512_set1_epi64(c.footprint as i64),
        ),
        None => (0, _mm512_setzero_si512(), _mm512_setzero_si512()),
    };
    let (ab, ba) = (split(ab), split(ba));
    let footprint_bits = _mm512_set1_epi64(((1u64 << <u64 as Word>::OUTER) - 1) as i64);
    // At most two sides per partial side, and 8 lanes of slack for a store.
    out.reserve(2 * f.len() + 8);
    let start = out.len();
    // SAFETY: `reserve` made room for `2 * f.len() + 8` elements after `start`; each store
    // writes 8 lanes at `end` and advances it by the number of sides written (at most one
    // per partial side read, per completion), so every store stays within that room.
    let mut end = unsafe { out.as_mut_ptr().add(start) };
    let mut step = |lanes: u8, fv: __m512i| {
        for (made, rows, footprint) in [ab, ba] {
            let fit = _mm512_mask_testn_epi64_mask(lanes & made, fv, rows);
            // (the partial side's footprint bits) | the completion's footprint.
            let sides = _mm512_maskz_compress_epi64(
                fit,
                _mm512_ternarylogic_epi64::<0xEA>(fv, footprint_bits, footprint),
            );
            // SAFETY: see above.
            unsafe {
                _mm512_storeu_si512(end.cast(), sides);
                end = end.add(fit.count_ones() as usize);
            }
        }
    };
    let full = f.len() / 8 * 8;
    for i in (0..full).step_by(8) {
        // SAFETY: elements i..i + 8 lie inside `f`.
        step(0xFF, unsafe {
            _mm512_loadu_si512(f.as_ptr().add(i).cast())
        });
    }
    if full < f.len() {
        let lanes = ((1u32 << (f.len() - full)) - 1) as u8;
        // SAFETY: the masked load reads only the lanes of the mask, the last elements.
        step(lanes, unsafe {
            _mm512_maskz_loadu_epi64(lanes, f.as_ptr().add(full).cast())
        });
    }
    // SAFETY: the elements from `start` to `end` were written above.
    unsafe {
        let len = end.offset_from(out.as_ptr()) as usize;
        out.set_len(len);
    }
}

/// The bits of `value` at the positions of `mask`, gathered to the low bits (BMI2's PEXT).
pub fn gather_bits(value: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor has BMI2, checked just above.
        return unsafe { pext(value, mask) };
    }
    let (mut out, mut bit, mut rest) = (0, 0, mask);
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        if value & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        rest &= rest - 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn pext(value: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pext_u64(value, mask)
}

/// [`Word::pairs_avx512`] for `u32`: the east list 64 footprints at a time in four
/// registers (the last block under a lane mask), every west footprint broadcast and tested
/// against them; per lane a counter of disjoint pairs. A lane counts at most `w.len()`
/// pairs per block, so `u32` lanes cannot overflow for lists shorter than 2^32.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn pairs32(w: &[u32], e: &[u32]) -> u64 {
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

/// [`Word::pairs_avx512`] for `u64`: as [`pairs32`], eight lanes a register, 64-bit
/// counters.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn pairs64(w: &[u64], e: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    let minus_one = _mm512_set1_epi64(-1);
    let mut total = 0u64;
    for block in e.chunks(32) {
        let len = block.len();
        let lanes = |i: usize| -> u8 {
            let have = len.saturating_sub(8 * i).min(8);
            ((1u32 << have) - 1) as u8
        };
        let (m0, m1, m2, m3) = (lanes(0), lanes(1), lanes(2), lanes(3));
        let p = block.as_ptr().cast::<i64>();
        // SAFETY: a masked load reads only the lanes of its mask, which lie inside `block`
        // (lane j of register i is element 8 i + j < len).
        let (e0, e1, e2, e3) = unsafe {
            (
                _mm512_maskz_loadu_epi64(m0, p),
                _mm512_maskz_loadu_epi64(m1, p.wrapping_add(8)),
                _mm512_maskz_loadu_epi64(m2, p.wrapping_add(16)),
                _mm512_maskz_loadu_epi64(m3, p.wrapping_add(24)),
            )
        };
        let mut a0 = _mm512_setzero_si512();
        let mut a1 = _mm512_setzero_si512();
        let mut a2 = _mm512_setzero_si512();
        let mut a3 = _mm512_setzero_si512();
        for &x in w {
            let b = _mm512_set1_epi64(x as i64);
            a0 = _mm512_mask_sub_epi64(a0, _mm512_mask_testn_epi64_mask(m0, e0, b), a0, minus_one);
            a1 = _mm512_mask_sub_epi64(a1, _mm512_mask_testn_epi64_mask(m1, e1, b), a1, minus_one);
            a2 = _mm512_mask_sub_epi64(a2, _mm512_mask_testn_epi64_mask(m2, e2, b), a2, minus_one);
            a3 = _mm512_mask_sub_epi64(a3, _mm512_mask_testn_epi64_mask(m3, e3, b), a3, minus_one);
        }
        let sum = _mm512_add_epi64(_mm512_add_epi64(a0, a1), _mm512_add_epi64(a2, a3));
        total += _mm512_reduce_add_epi64(sum) as u64;
    }
    total
}

/// Footprint bits per lookup table of the bit-plane kernels.
#[cfg(target_arch = "x86_64")]
const CHUNK32: usize = 5;

/// [`Word::pairs_planes`] for `u32` (footprints of at most 30 bits): the `large` list is cut
/// into blocks of 512; per block, its bits are transposed (plane `b`: bit `j` set when
/// footprint `j` has bit `b`), and for each chunk of five footprint bits a table of 32
/// vectors holds, per value `x` of the chunk, the footprints of the block with no bit of
/// `x`. A footprint of `small` is then disjoint from the AND of six table entries, 512 pairs
/// counted by six loads, five ANDs and a population count.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt,avx512vpopcntdq"
)]
unsafe fn planes32(small: &[u32], large: &[u32]) -> u64 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;
    const CHUNKS: usize = 6;
    debug_assert!(
        small
            .iter()
            .chain(large)
            .all(|&f| f >> (CHUNK32 * CHUNKS) == 0)
    );
    let mut planes = [[0u16; 32]; CHUNK32 * CHUNKS];
    // Every entry is written before it is read (below); not zeroing 12 KiB per call is
    // measurable.
    let mut tables: [[MaybeUninit<__m512i>; 1 << CHUNK32]; CHUNKS] =
        [[MaybeUninit::uninit(); 1 << CHUNK32]; CHUNKS];
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
            for x in 1..1usize << CHUNK32 {
                let low = x.trailing_zeros() as usize;
                let plane = load(&planes[CHUNK32 * k + low]);
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
                fit = _mm512_and_si512(fit, get(k, f >> (CHUNK32 * k) & 31));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(fit));
        }
        total += _mm512_reduce_add_epi64(sum) as u64;
    }
    total
}

/// Footprint bits per lookup table of [`planes64`].
#[cfg(target_arch = "x86_64")]
const CHUNK64: usize = 6;

/// [`Word::pairs_planes`] for `u64` (footprints of at most 48 bits): as [`planes32`], with
/// tables of six bits (64 vectors each), and only as many tables as the highest bit of the
/// two lists needs.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt,avx512vpopcntdq,avx512vbmi,gfni"
)]
unsafe fn planes64(small: &[u64], large: &[u64]) -> u64 {
    let used = small.iter().chain(large).fold(0u64, |a, &f| a | f);
    let bits = 64 - used.leading_zeros() as usize;
    // SAFETY: the caller's processor has AVX-512F and VPOPCNTDQ (this function's features).
    unsafe {
        match bits.div_ceil(CHUNK64) {
            0..=5 => planes64_chunks::<5>(small, large),
            6 => planes64_chunks::<6>(small, large),
            7 => planes64_chunks::<7>(small, large),
            _ => planes64_chunks::<8>(small, large),
        }
    }
}

/// [`planes64`] with footprints of at most `K * CHUNK64` bits.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt,avx512vpopcntdq,avx512vbmi,gfni"
)]
unsafe fn planes64_chunks<const K: usize>(small: &[u64], large: &[u64]) -> u64 {
    use std::arch::x86_64::*;
    use std::mem::MaybeUninit;
    debug_assert!(small.iter().chain(large).all(|&f| f >> (K * CHUNK64) == 0));
    let mut planes = [_mm512_setzero_si512(); 64];
    // Every entry is written before it is read (below).
    let mut tables: [[MaybeUninit<__m512i>; 1 << CHUNK64]; K] =
        [[MaybeUninit::uninit(); 1 << CHUNK64]; K];
    let mut total = 0u64;
    for block in large.chunks(512) {
        // SAFETY: this function's features include `transpose512`'s.
        let valid = unsafe { transpose512(block, (K * CHUNK64).div_ceil(8), &mut planes) };
        for (k, table) in tables.iter_mut().enumerate() {
            table[0].write(valid);
            for x in 1..1usize << CHUNK64 {
                let low = x.trailing_zeros() as usize;
                // SAFETY: entry `x & (x - 1)` < x was written earlier in this loop.
                let rest = unsafe { table[x & (x - 1)].assume_init() };
                table[x].write(_mm512_andnot_si512(planes[CHUNK64 * k + low], rest));
            }
        }
        // SAFETY: every entry of every table was written just above.
        let get = |k: usize, x: usize| unsafe { tables[k][x].assume_init() };
        let mask = (1usize << CHUNK64) - 1;
        let mut sum = _mm512_setzero_si512();
        for &f in small {
            let f = f as usize;
            let mut fit = get(0, f & mask);
            for k in 1..K {
                fit = _mm512_and_si512(fit, get(k, f >> (CHUNK64 * k) & mask));
            }
            sum = _mm512_add_epi64(sum, _mm512_popcnt_epi64(fit));
        }
        total += _mm512_reduce_add_epi64(sum) as u64;
    }
    total
}

/// The bit planes of at most 512 footprints: `planes[b]` gets one bit per footprint, set when
/// it has bit `b`, for the bits of the `bytes` low bytes (the other planes are left as they
/// are); returns the plane of the footprints present. Footprint `j` takes bit `j` of the
/// planes.
///
/// Per group of 64 footprints (eight registers): a byte shuffle and an 8x8 transpose of
/// 64-bit lanes gather, per byte of the footprints, the 8x8 bit blocks of that byte; a
/// Galois-field affine transformation transposes each block; a second byte shuffle gathers
/// each plane's eight bytes into a 64-bit word. The words of the eight groups are then
/// transposed into whole planes.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt,avx512vbmi,gfni"
)]
unsafe fn transpose512(
    block: &[u64],
    bytes: usize,
    planes: &mut [std::arch::x86_64::__m512i; 64],
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    debug_assert!(block.len() <= 512 && bytes <= 8);
    // Byte 8 B + l of a register <- byte B of its footprint 7 - l (bytes of one footprint
    // reversed, so that the affine transformation below transposes without mirroring).
    let mut gather = [0u8; 64];
    // Byte 8 k + J <- byte 8 J + k.
    let mut spread = [0u8; 64];
    for b in 0..8 {
        for l in 0..8 {
            gather[8 * b + l] = (8 * (7 - l) + b) as u8;
            spread[8 * b + l] = (8 * l + b) as u8;
        }
    }
    // SAFETY: both arrays are 64 bytes.
    let (gather, spread) = unsafe {
        (
            _mm512_loadu_si512(gather.as_ptr().cast()),
            _mm512_loadu_si512(spread.as_ptr().cast()),
        )
    };
    // Byte i of each lane: 1 << i, which makes the affine transformation a transpose.
    let units = _mm512_set1_epi64(0x8040_2010_0804_0201u64 as i64);
    // words[B][g]: lane k = the 64-bit word of plane 8 B + k for the footprints of group g.
    let mut words = [[_mm512_setzero_si512(); 8]; 8];
    let mut valid = [0u64; 8];
    for g in 0..8 {
        let start = (64 * g).min(block.len());
        let group = &block[start..(start + 64).min(block.len())];
        valid[g] = if group.len() == 64 {
            u64::MAX
        } else {
            (1u64 << group.len()) - 1
        };
        if group.is_empty() {
            continue;
        }
        let mut rows = [_mm512_setzero_si512(); 8];
        for (j, row) in rows.iter_mut().enumerate() {
            let from = (8 * j).min(group.len());
            let have = group.len().saturating_sub(8 * j).min(8);
            // SAFETY: the masked load reads only the `have` lanes of the mask, inside `group`.
            let v = unsafe {
                _mm512_maskz_loadu_epi64(((1u32 << have) - 1) as u8, group[from..].as_ptr().cast())
            };
            *row = _mm512_permutexvar_epi8(gather, v);
        }
        let columns = transpose8x8(rows);
        for (b, column) in columns.iter().enumerate().take(bytes) {
            let bits = _mm512_gf2p8affine_epi64_epi8::<0>(units, *column);
            words[b][g] = _mm512_permutexvar_epi8(spread, bits);
        }
    }
    for (b, words) in words.iter().enumerate().take(bytes) {
        for (k, plane) in transpose8x8(*words).into_iter().enumerate() {
            planes[8 * b + k] = plane;
        }
    }
    // SAFETY: `[u64; 8]` is 64 bytes.
    unsafe { _mm512_loadu_si512(valid.as_ptr().cast()) }
}

/// The transpose of an 8x8 matrix of 64-bit lanes: lane `j` of output `i` is lane `i` of
/// input `j`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,bmi1,bmi2,lzcnt,popcnt")]
fn transpose8x8(m: [std::arch::x86_64::__m512i; 8]) -> [std::arch::x86_64::__m512i; 8] {
    use std::arch::x86_64::*;
    // Pairs of rows: lanes (2i, 2i + 1) of t[2p] hold lane 2i of rows 2p and 2p + 1, those
    // of t[2p + 1] lane 2i + 1.
    let mut t = [_mm512_setzero_si512(); 8];
    for p in 0..4 {
        t[2 * p] = _mm512_unpacklo_epi64(m[2 * p], m[2 * p + 1]);
        t[2 * p + 1] = _mm512_unpackhi_epi64(m[2 * p], m[2 * p + 1]);
    }
    // Quads of rows: u[q * 4 + r] holds, in each half, lane r (then r + 4) of rows 4q..4q+4.
    let low = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    let high = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    let mut u = [_mm512_setzero_si512(); 8];
    for q in 0..2 {
        let (a0, a1, b0, b1) = (t[4 * q], t[4 * q + 1], t[4 * q + 2], t[4 * q + 3]);
        u[4 * q] = _mm512_permutex2var_epi64(a0, low, b0);
        u[4 * q + 1] = _mm512_permutex2var_epi64(a1, low, b1);
        u[4 * q + 2] = _mm512_permutex2var_epi64(a0, high, b0);
        u[4 * q + 3] = _mm512_permutex2var_epi64(a1, high, b1);
    }
    // Halves: lane r of rows 0..4 then of rows 4..8.
    let mut out = [_mm512_setzero_si512(); 8];
    for r in 0..4 {
        out[r] = _mm512_shuffle_i64x2::<0b0100_0100>(u[r], u[4 + r]);
        out[r + 4] = _mm512_shuffle_i64x2::<0b1110_1110>(u[r], u[4 + r]);
    }
    out
}

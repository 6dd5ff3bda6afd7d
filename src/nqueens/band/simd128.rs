//! The count's kernels in WebAssembly SIMD (`simd128`), for the browser: what `word.rs` does
//! with AVX-512 natively (`pairs_planes`, `pairs_avx512`, `complete_avx512`), with 128-bit
//! vectors.
//!
//! The larger list is cut into blocks of 256 footprints; per block its bits are transposed
//! into planes (plane `b`: bit `j` set when footprint `j` has bit `b`, two vectors), and for
//! each chunk of six footprint bits a table of 64 entries holds, per value `x` of the chunk,
//! the footprints of the block with no bit of `x`. A footprint of the smaller list is then
//! disjoint from the AND of one entry per chunk: 256 pairs counted by a few loads, ANDs and
//! two population counts, where the plain loop tests four (`u32`) or two (`u64`) a vector.
//! Shorter lists are paired four a vector ([`pairs32`]), sixteen east footprints held in four
//! vectors while the west ones are broadcast.
//!
//! The completion of the sides' two outer columns ([`Side::sides_on`](super::side::Side::sides_on))
//! is here too: four partial sides tested a vector, the fitting ones written without a
//! branch (what AVX-512's compress does natively).
//!
//! Compiled only for `wasm32` with the `simd128` feature (the web crate's build enables it:
//! `.cargo/config.toml`), where every intrinsic used here is safe to call but the loads and
//! stores of whole vectors, which the completion uses as AVX-512's does: written through
//! `Vec::resize` and `copy_from_slice`, it took half the count's time (web/EXPERIMENTS.md).

use core::arch::wasm32::*;

use super::word::{Completion, Word};

/// Footprint bits per lookup table.
const CHUNK: usize = 6;

/// Lookup tables: one per chunk of the footprints' bits.
const TABLES: usize = MAX_BITS / CHUNK;

/// Footprints per block: two vectors of 128 lanes.
const LANES: usize = 256;

/// The most footprint bits counted by planes: five tables, the `u32` words' 30 bits (sides of
/// up to 8 columns, boards up to 18). The wider `u64` words (boards from 19, whose counts take
/// minutes in a browser) are paired by the plain loop: a second instance of the planes, for
/// them, took the module over its 300 KB (web/EXPERIMENTS.md).
const MAX_BITS: usize = 5 * CHUNK;

/// The number of pairs of `small` x `large` with no common bit, by bit planes of `large`;
/// by the plain loop for words wider than [`MAX_BITS`] bits.
pub fn pairs_planes<W: Word>(small: &[W], large: &[W]) -> u64 {
    if W::MAX_BITS > MAX_BITS {
        return super::kernel::plain(small, large);
    }
    planes(small, large)
}

/// Two vectors: one bit per footprint of a block.
type Pair = [v128; 2];

/// [`pairs_planes`] with footprints of at most [`MAX_BITS`] bits.
fn planes<W: Word>(small: &[W], large: &[W]) -> u64 {
    debug_assert!(
        small
            .iter()
            .chain(large)
            .all(|&f| f.to_u64() >> MAX_BITS == 0)
    );
    let zero = u64x2_splat(0);
    // Per bit, 16 footprints per word.
    let mut words = [[0u16; LANES / 16]; MAX_BITS.div_ceil(8) * 8];
    let mut tables = [[[zero; 2]; 1 << CHUNK]; TABLES];
    let bytes = MAX_BITS.div_ceil(8);
    let mut total = 0u64;
    for block in large.chunks(LANES) {
        let mut valid = [0u16; LANES / 16];
        for (i, part) in block.chunks(16).enumerate() {
            valid[i] = ((1u32 << part.len()) - 1) as u16;
            let mut values = [0u32; 16];
            for (v, &f) in values.iter_mut().zip(part) {
                *v = f.to_u64() as u32; // of at most MAX_BITS bits
            }
            let lanes = byte_lanes(&values);
            for (byte, &v) in lanes.iter().enumerate().take(bytes) {
                // Each bit of the byte moved to the top of its lane, the lanes' tops as a mask.
                // A 16-bit shift moves each byte's bits as an 8-bit one would, and is one
                // instruction where WebAssembly's 8-bit shift is several; written out, so
                // that each shift is by a constant.
                let bit = &mut words[8 * byte..8 * byte + 8];
                bit[0][i] = i8x16_bitmask(i16x8_shl(v, 7));
                bit[1][i] = i8x16_bitmask(i16x8_shl(v, 6));
                bit[2][i] = i8x16_bitmask(i16x8_shl(v, 5));
                bit[3][i] = i8x16_bitmask(i16x8_shl(v, 4));
                bit[4][i] = i8x16_bitmask(i16x8_shl(v, 3));
                bit[5][i] = i8x16_bitmask(i16x8_shl(v, 2));
                bit[6][i] = i8x16_bitmask(i16x8_shl(v, 1));
                bit[7][i] = i8x16_bitmask(v);
            }
        }
        // Words past the block's end keep an earlier block's bits: harmless, as every entry
        // below is `valid` with bits taken away.
        let valid = pair(&valid);
        for (k, table) in tables.iter_mut().enumerate() {
            table[0] = valid;
            let planes: [Pair; CHUNK] = core::array::from_fn(|b| pair(&words[CHUNK * k + b]));
            // Entry x: entry x less its lowest bit, less the footprints with that bit.
            for x in 1..1usize << CHUNK {
                let (rest, plane) = (table[x & (x - 1)], planes[x.trailing_zeros() as usize]);
                table[x] = [
                    v128_andnot(rest[0], plane[0]),
                    v128_andnot(rest[1], plane[1]),
                ];
            }
        }
        let mut sum = u32x4_splat(0);
        // Byte counters: at most 16 a footprint, 15 footprints before they are widened.
        for part in small.chunks(15) {
            let mut counts = u8x16_splat(0);
            for &f in part {
                let [a, b] = fit(&tables, f.to_u64());
                counts = u8x16_add(counts, u8x16_add(u8x16_popcnt(a), u8x16_popcnt(b)));
            }
            sum = u32x4_add(
                sum,
                u32x4_extadd_pairwise_u16x8(u16x8_extadd_pairwise_u8x16(counts)),
            );
        }
        total += u64::from(u32x4_extract_lane::<0>(sum))
            + u64::from(u32x4_extract_lane::<1>(sum))
            + u64::from(u32x4_extract_lane::<2>(sum))
            + u64::from(u32x4_extract_lane::<3>(sum));
    }
    total
}

/// The footprints of a block with no bit of `f`: the AND of one table entry per chunk of
/// its bits (written out, as no opt-level may leave the loop rolled).
#[inline(always)]
fn fit(tables: &[[Pair; 1 << CHUNK]; TABLES], f: u64) -> Pair {
    const MASK: u64 = (1 << CHUNK) - 1;
    let e = |k: usize| &tables[k][(f >> (CHUNK * k) & MASK) as usize];
    let (e0, e1, e2, e3, e4) = (e(0), e(1), e(2), e(3), e(4));
    [
        v128_and(
            v128_and(e0[0], e1[0]),
            v128_and(v128_and(e2[0], e3[0]), e4[0]),
        ),
        v128_and(
            v128_and(e0[1], e1[1]),
            v128_and(v128_and(e2[1], e3[1]), e4[1]),
        ),
    ]
}

/// Byte `k` of each of sixteen values, one value a lane (lane `j` of vector `k` is byte `k`
/// of `v[j]`): a transposition by shuffles, each of them one instruction.
#[inline(always)]
fn byte_lanes(v: &[u32; 16]) -> [v128; 4] {
    let load = |q: usize| {
        // Four values a vector, then their bytes grouped: byte 0 of the four, byte 1, ...
        let lanes = u32x4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
        i8x16_shuffle::<0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15>(lanes, lanes)
    };
    let (t0, t1, t2, t3) = (load(0), load(1), load(2), load(3));
    // A 4x4 transposition of the groups of four bytes.
    let low01 = i32x4_shuffle::<0, 4, 1, 5>(t0, t1);
    let low23 = i32x4_shuffle::<0, 4, 1, 5>(t2, t3);
    let high01 = i32x4_shuffle::<2, 6, 3, 7>(t0, t1);
    let high23 = i32x4_shuffle::<2, 6, 3, 7>(t2, t3);
    [
        i64x2_shuffle::<0, 2>(low01, low23),
        i64x2_shuffle::<1, 3>(low01, low23),
        i64x2_shuffle::<0, 2>(high01, high23),
        i64x2_shuffle::<1, 3>(high01, high23),
    ]
}

/// The 256 bits of sixteen words as two vectors (word `i` at bits `16 i..16 i + 16`).
#[inline(always)]
fn pair(w: &[u16; LANES / 16]) -> Pair {
    [
        u16x8(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]),
        u16x8(w[8], w[9], w[10], w[11], w[12], w[13], w[14], w[15]),
    ]
}

/// Per mask of four lanes, the byte shuffle that moves the lanes of the mask to the front,
/// in order (the lanes after them are left as lane 0): a compress, which simd128 lacks.
const COMPRESS32: [v128; 16] = {
    let mut table = [u64x2(0, 0); 16];
    let mut mask = 0;
    while mask < 16 {
        let mut lanes = [0u32; 4];
        let (mut to, mut from) = (0, 0);
        while from < 4 {
            if mask >> from & 1 == 1 {
                // The four bytes of lane `from`.
                let b = 4 * from as u32;
                lanes[to] = b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24;
                to += 1;
            }
            from += 1;
        }
        table[mask] = u32x4(lanes[0], lanes[1], lanes[2], lanes[3]);
        mask += 1;
    }
    table
};

/// [`COMPRESS32`] for two lanes of 64 bits.
const COMPRESS64: [v128; 4] = [
    u64x2(0x0706_0504_0302_0100, 0),
    u64x2(0x0706_0504_0302_0100, 0),
    u64x2(0x0F0E_0D0C_0B0A_0908, 0),
    u64x2(0x0706_0504_0302_0100, 0x0F0E_0D0C_0B0A_0908),
];

/// [`Word::complete_simd128`] for `u32`: the sides of the completions `ab` and `ba` of the
/// partial sides (outer attacks `o`, footprints `f`), four partial sides at a time, each read
/// once for both completions, and written without a branch: the fitting lanes moved to the
/// front of a vector, written whole, and the end moved on by their number. (The sides of the
/// two completions come out interleaved: the join counts pairs, in any order.)
#[inline(always)]
pub fn complete32(
    o: &[u32],
    f: &[u32],
    ab: Option<Completion<u32>>,
    ba: Option<Completion<u32>>,
    out: &mut Vec<u32>,
) {
    assert_eq!(o.len(), f.len());
    // A completion that cannot be made fits no lane.
    let split = |c: Option<Completion<u32>>| match c {
        Some(c) => (0xF, u32x4_splat(c.rows), u32x4_splat(c.footprint)),
        None => (0, u32x4_splat(0), u32x4_splat(0)),
    };
    let ((made_ab, rows_ab, footprint_ab), (made_ba, rows_ba, footprint_ba)) =
        (split(ab), split(ba));
    let zero = u32x4_splat(0);
    // At most one side per partial side and completion, and the lanes of one vector beyond.
    out.reserve(2 * f.len() + 4);
    let start = out.len();
    // SAFETY: `reserve` made room for `2 * f.len() + 4` elements after `start`; each store
    // writes 4 lanes at `end` and moves it on by the sides written (at most one per partial
    // side read, per completion), so every store stays within that room.
    let mut end = unsafe { out.as_mut_ptr().add(start) };
    // Four partial sides, and the sides of each completion that fit them.
    let mut complete = |ov: v128, fv: v128| {
        let fit = i32x4_bitmask(i32x4_eq(v128_and(ov, rows_ab), zero)) & made_ab;
        let ab = i8x16_swizzle(v128_or(fv, footprint_ab), COMPRESS32[usize::from(fit)]);
        let fit_ba = i32x4_bitmask(i32x4_eq(v128_and(ov, rows_ba), zero)) & made_ba;
        let ba = i8x16_swizzle(v128_or(fv, footprint_ba), COMPRESS32[usize::from(fit_ba)]);
        // SAFETY: see above.
        unsafe {
            v128_store(end.cast(), ab);
            end = end.add(fit.count_ones() as usize);
            v128_store(end.cast(), ba);
            end = end.add(fit_ba.count_ones() as usize);
        }
    };
    let full = f.len() / 4 * 4;
    for i in (0..full).step_by(4) {
        // SAFETY: elements i..i + 4 lie inside `o` and `f` (of equal lengths, above).
        let (ov, fv) = unsafe {
            (
                v128_load(o.as_ptr().add(i).cast()),
                v128_load(f.as_ptr().add(i).cast()),
            )
        };
        complete(ov, fv);
    }
    if full < f.len() {
        // The last partial sides, the missing lanes attacking every row (they fit nothing).
        let lane = |v: &[u32], i: usize, or: u32| v.get(full + i).copied().unwrap_or(or);
        complete(
            u32x4(
                lane(o, 0, !0),
                lane(o, 1, !0),
                lane(o, 2, !0),
                lane(o, 3, !0),
            ),
            u32x4(lane(f, 0, 0), lane(f, 1, 0), lane(f, 2, 0), lane(f, 3, 0)),
        );
    }
    // SAFETY: the elements from `start` to `end` were written above.
    unsafe {
        let len = end.offset_from(out.as_ptr()) as usize;
        out.set_len(len);
    }
}

/// [`Word::complete_simd128`] for packed `u64` words (`o` is empty: the outer attacks are
/// above the footprint in `f`): as [`complete32`], two partial sides at a time.
pub fn complete64(
    _o: &[u64],
    f: &[u64],
    ab: Option<Completion<u64>>,
    ba: Option<Completion<u64>>,
    out: &mut Vec<u64>,
) {
    let start = out.len();
    out.resize(start + 2 * f.len() + 2, 0);
    let mut end = start;
    let bits = (1u64 << <u64 as Word>::OUTER) - 1;
    for c in [ab, ba].into_iter().flatten() {
        let (rows, footprint) = (u64x2_splat(c.rows), u64x2_splat(c.footprint));
        let mut f2 = f.chunks_exact(2);
        for fv in &mut f2 {
            let fv = u64x2(fv[0], fv[1]);
            let fit = i64x2_bitmask(i64x2_eq(v128_and(fv, rows), u64x2_splat(0)));
            let side = v128_or(v128_and(fv, u64x2_splat(bits)), footprint);
            let sides = i8x16_swizzle(side, COMPRESS64[usize::from(fit)]);
            out[end..end + 2].copy_from_slice(&[
                u64x2_extract_lane::<0>(sides),
                u64x2_extract_lane::<1>(sides),
            ]);
            end += fit.count_ones() as usize;
        }
        for &f in f2.remainder() {
            out[end] = f & bits | c.footprint;
            end += usize::from(f & c.rows == 0);
        }
    }
    out.truncate(end);
}

/// [`Word::pairs_simd128`] for `u32`: the east list sixteen footprints at a time in four
/// vectors, every west footprint broadcast and tested against them; per lane a counter of
/// disjoint pairs. A block short of sixteen is filled with footprints of every bit, which
/// pair with the west's empty footprints only: those pairs are taken away.
pub fn pairs32(w: &[u32], e: &[u32]) -> u64 {
    let zero = u32x4_splat(0);
    let empty = w.iter().filter(|&&a| a == 0).count() as u64;
    let mut total = 0u64;
    for block in e.chunks(16) {
        let lane = |i: usize| block.get(i).copied().unwrap_or(u32::MAX);
        let vector = |i: usize| u32x4(lane(i), lane(i + 1), lane(i + 2), lane(i + 3));
        let (e0, e1, e2, e3) = (vector(0), vector(4), vector(8), vector(12));
        let (mut a0, mut a1, mut a2, mut a3) = (zero, zero, zero, zero);
        for &x in w {
            let b = u32x4_splat(x);
            // A lane whose footprint shares no bit with `x` is all ones (-1): count one.
            a0 = i32x4_sub(a0, i32x4_eq(v128_and(e0, b), zero));
            a1 = i32x4_sub(a1, i32x4_eq(v128_and(e1, b), zero));
            a2 = i32x4_sub(a2, i32x4_eq(v128_and(e2, b), zero));
            a3 = i32x4_sub(a3, i32x4_eq(v128_and(e3, b), zero));
        }
        // Each lane at most `w.len()`: added as 64-bit numbers.
        let lanes = |v: v128| {
            u64::from(u32x4_extract_lane::<0>(v))
                + u64::from(u32x4_extract_lane::<1>(v))
                + u64::from(u32x4_extract_lane::<2>(v))
                + u64::from(u32x4_extract_lane::<3>(v))
        };
        total += lanes(a0) + lanes(a1) + lanes(a2) + lanes(a3);
        total -= (16 - block.len()) as u64 * empty;
    }
    total
}

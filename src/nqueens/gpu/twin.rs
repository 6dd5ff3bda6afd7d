//! The plain Rust twin of each kernel: the same arithmetic on the same words, one thread
//! after another. The tests run a kernel on a device and its twin on the same input and
//! compare the outputs word for word (where threads race to append, as in the search's
//! output and the pairing's lists, the order within a group is free and compared sorted).

use super::layout::{
    BATCH_WORDS, CHUNK_BITS, FREE_INDEX, FREE_MASK, MAX_CHUNKS, OUTER_A, OUTER_B, Shape, TILE,
    TILE_WORDS, VALID, rank, unrank,
};

/// A partial side as the search writes it (see [`PARTIAL_BYTES`](super::layout::PARTIAL_BYTES)):
/// its footprint's low word; then the footprint's high bits, and above them the free rows it
/// attacks in the last but one column and in the last, numbered among the rows it leaves
/// open.
pub type Partial = [u32; 2];

/// The bits of `value` at the set bits of `mask`, packed from bit 0 (as x86's PEXT).
fn gather(value: u32, mask: u32) -> u32 {
    let (mut out, mut m, mut i) = (0, mask, 0);
    while m != 0 {
        let low = m.trailing_zeros();
        out |= (value >> low & 1) << i;
        i += 1;
        m &= m - 1;
    }
    out
}

/// A partial side on the free rows `key`, packed.
fn pack(shape: &Shape, key: u32, lo: u32, hi: u32, outer_a: u32, outer_b: u32) -> Partial {
    let open = ((1u32 << shape.free) - 1) & !key;
    [
        lo,
        hi | gather(outer_a, open) << OUTER_A | gather(outer_b, open) << OUTER_B,
    ]
}

/// `count_partials` (in `partials.wgsl`): the partial sides of each group of each side of
/// each of `configs` configurations, counted into `counts[(2c + side) * groups + rank]`.
pub fn count_partials(shape: &Shape, tables: &[u32], configs: usize) -> Vec<u32> {
    let mut counts = vec![0u32; 2 * configs * shape.groups];
    for thread in 0..2 * configs * shape.prefixes {
        search(shape, tables, thread, |seg, key, _| {
            counts[seg * shape.groups + rank(key) as usize] += 1;
        });
    }
    counts
}

/// `write_partials`: every partial side written at its group's start (from `batch` and
/// `starts`) plus its place among the group's, in the order the threads find them.
pub fn write_partials(
    shape: &Shape,
    tables: &[u32],
    batch: &[u32],
    starts: &[u32],
    configs: usize,
    total: usize,
) -> Vec<Partial> {
    let mut partials = vec![[0u32; 2]; total];
    let mut cursor = vec![0u32; 2 * configs * shape.groups];
    for thread in 0..2 * configs * shape.prefixes {
        search(shape, tables, thread, |seg, key, partial| {
            let index = seg * shape.groups + rank(key) as usize;
            let base = batch[(seg / 2) * BATCH_WORDS + 2 + seg % 2];
            let slot = base + starts[index] + cursor[index];
            cursor[index] += 1;
            partials[slot as usize] = partial;
        });
    }
    partials
}

/// `scan`: per segment (a side of a configuration), where each group's partial sides start
/// within the segment, and the segment's total.
pub fn scan(shape: &Shape, counts: &[u32], configs: usize) -> (Vec<u32>, Vec<u32>) {
    let mut starts = vec![0u32; counts.len()];
    let mut totals = vec![0u32; 2 * configs];
    for (seg, total) in totals.iter_mut().enumerate() {
        let at = seg * shape.groups;
        let mut run = 0u32;
        for g in 0..shape.groups {
            starts[at + g] = run;
            run += counts[at + g];
        }
        *total = run;
    }
    (starts, totals)
}

/// The search of one thread: the partial sides of segment `thread / prefixes` whose first
/// `depth` inner columns hold the queens that `thread % prefixes` spells (one free row per
/// column, in base `2s`), each handed to `emit(segment, rows taken, partial)`.
fn search(shape: &Shape, tables: &[u32], thread: usize, mut emit: impl FnMut(usize, u32, Partial)) {
    let seg = thread / shape.prefixes;
    let mut prefix = thread % shape.prefixes;
    let (c, side) = (seg / 2, seg % 2);
    let cb = c * shape.config_words;
    let sb = shape.side_base(c, side);
    let all = (1u32 << shape.n) - 1;
    // Per column: the state before its queen, as in the kernel's stacks.
    let mut state = [State::default(); 9];
    let mut s = State {
        free: tables[cb + FREE_MASK],
        ..State::default()
    };
    for i in 0..shape.depth {
        let k = prefix % shape.free;
        prefix /= shape.free;
        let r = tables[cb + k];
        let bit = 1u32 << r;
        if tables[sb + i] & s.free & !s.left & !s.right & bit == 0 {
            return;
        }
        s = s.place(
            shape,
            tables,
            sb,
            i,
            r,
            tables[cb + FREE_INDEX + r as usize],
            all,
        );
    }
    if shape.depth == shape.inner {
        emit(seg, s.key, s.partial(shape));
        return;
    }
    let mut candidates = [0u32; 8];
    let mut d = shape.depth;
    state[d] = s;
    candidates[d] = tables[sb + d] & s.free & !s.left & !s.right;
    loop {
        if candidates[d] == 0 {
            if d == shape.depth {
                break;
            }
            d -= 1;
            continue;
        }
        let r = candidates[d].trailing_zeros();
        candidates[d] &= candidates[d] - 1;
        let k = tables[cb + FREE_INDEX + r as usize];
        let next = state[d].place(shape, tables, sb, d, r, k, all);
        if d + 1 == shape.inner {
            emit(seg, next.key, next.partial(shape));
            continue;
        }
        d += 1;
        state[d] = next;
        candidates[d] = tables[sb + d] & next.free & !next.left & !next.right;
    }
}

/// The search's state before a column: rows free, rows on a diagonal of the queens so far
/// (`left` moving down, `right` up, a row per column), rows taken (as free indices), outer
/// attacks and footprint.
#[derive(Copy, Clone, Default)]
struct State {
    free: u32,
    left: u32,
    right: u32,
    key: u32,
    outer_a: u32,
    outer_b: u32,
    lo: u32,
    hi: u32,
}

impl State {
    /// The state after a queen on row `r` (free index `k`) of inner column `i`.
    #[allow(clippy::too_many_arguments)]
    fn place(
        &self,
        shape: &Shape,
        tables: &[u32],
        sb: usize,
        i: usize,
        r: u32,
        k: u32,
        all: u32,
    ) -> State {
        let bit = 1u32 << r;
        let q = sb + shape.square(i, r as usize);
        State {
            free: self.free & !bit,
            left: ((self.left | bit) << 1) & all,
            right: (self.right | bit) >> 1,
            key: self.key | 1 << k,
            outer_a: self.outer_a | tables[q + 2],
            outer_b: self.outer_b | tables[q + 3],
            lo: self.lo | tables[q],
            hi: self.hi | tables[q + 1],
        }
    }

    fn partial(&self, shape: &Shape) -> Partial {
        pack(
            shape,
            self.key,
            self.lo,
            self.hi,
            self.outer_a,
            self.outer_b,
        )
    }
}

/// The inputs of `count_pairs`.
pub struct PairInputs<'a> {
    /// The configurations' tables.
    pub tables: &'a [u32],
    /// Partial sides per group (after `write_partials`, the same as `count_partials`').
    pub counts: &'a [u32],
    /// Where each group starts within its segment (`scan`).
    pub starts: &'a [u32],
    /// The batch table, one entry more than configurations (its first word: the items).
    pub batch: &'a [u32],
    /// The partial sides.
    pub partials: &'a [Partial],
    /// Configurations in the batch.
    pub configs: usize,
}

/// `count_pairs`: for each item (a row set of a configuration of the batch), the disjoint
/// pairs of its west and east sides, and a status (1: a list outgrew `shape.scratch`, the
/// count is not valid).
pub fn count_pairs(
    shape: &Shape,
    input: &PairInputs,
    items: std::ops::Range<u32>,
) -> Vec<[u32; 2]> {
    items.map(|k| count_item(shape, input, k)).collect()
}

/// One item of `count_pairs`.
fn count_item(shape: &Shape, input: &PairInputs, k: u32) -> [u32; 2] {
    let (c, west, east, counted) = locate(shape, input, k);
    if !counted {
        return [0, 0];
    }
    let w = side_list(shape, input, c, 0, west);
    let e = side_list(shape, input, c, 1, east);
    if w.len() > shape.scratch || e.len() > shape.scratch {
        return [0, 1];
    }
    [disjoint_pairs(shape, &w, &e), 0]
}

/// The configuration of item `k`, its west and east row sets, and whether it is counted.
fn locate(shape: &Shape, input: &PairInputs, k: u32) -> (usize, u32, u32, bool) {
    let b = input.batch;
    // The last configuration whose first item is at most k.
    let (mut lo, mut hi) = (0usize, input.configs);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if b[mid * BATCH_WORDS] <= k {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let at = lo * BATCH_WORDS;
    let index = b[at + 1] + (k - b[at]);
    let west = unrank(index, shape.side as u32);
    let east = ((1u32 << shape.free) - 1) ^ west;
    let counted = b[at + 4] == 0 || west < east;
    (lo, west, east, counted)
}

/// The footprints of the sides of side `side` of configuration `c` on the free rows `set`:
/// for each pair `a < b` of its rows, the partial sides on the other rows completed by queens
/// on `a` and `b` in the two outer columns, both ways round.
fn side_list(shape: &Shape, input: &PairInputs, c: usize, side: usize, set: u32) -> Vec<[u32; 2]> {
    let sb = shape.side_base(c, side);
    let seg = 2 * c + side;
    let base = input.batch[c * BATCH_WORDS + 2 + side];
    let members: Vec<u32> = (0..32).filter(|&i| set >> i & 1 == 1).collect();
    let mut list = Vec::new();
    for (i, &a) in members.iter().enumerate() {
        for &b in &members[i + 1..] {
            let rest = set & !(1 << a) & !(1 << b);
            let index = seg * shape.groups + rank(rest) as usize;
            let start = (base + input.starts[index]) as usize;
            // Rows a and b among the rows the group's partial sides leave open.
            let open = ((1u32 << shape.free) - 1) & !rest;
            let at = |row: u32| (open & ((1 << row) - 1)).count_ones();
            for p in &input.partials[start..start + input.counts[index] as usize] {
                for (x, y) in [(a, b), (b, a)] {
                    let c = sb + shape.completion(x as usize, y as usize);
                    let (lo, hi) = (input.tables[c], input.tables[c + 1]);
                    if hi & VALID != 0
                        && p[1] >> (OUTER_A + at(x)) & 1 == 0
                        && p[1] >> (OUTER_B + at(y)) & 1 == 0
                    {
                        list.push([p[0] | lo, (p[1] & ((1 << OUTER_A) - 1)) | (hi & !VALID)]);
                    }
                }
            }
        }
    }
    list
}

/// The pairs of `w` and `e` with no footprint bit in common, counted as the kernel does: `e`
/// in tiles of [`TILE`], each turned into bit planes (bit `i` of plane `b`, word `j`: whether
/// footprint `32j + i` has bit `b`) and, per chunk of five footprint bits and per word, a
/// table of 32 masks (the footprints with none of the chunk's bits that the mask names); a
/// footprint of `w` then takes one mask per chunk and word, ANDs them and counts the ones.
fn disjoint_pairs(shape: &Shape, w: &[[u32; 2]], e: &[[u32; 2]]) -> u32 {
    let mut count = 0u32;
    for tile in e.chunks(TILE) {
        let words = tile.len().div_ceil(32);
        let mut planes = vec![0u32; 40 * TILE_WORDS];
        for bit in 0..shape.bits {
            for j in 0..words {
                let mut word = 0u32;
                for i in 0..32 {
                    let f = tile.get(32 * j + i).copied().unwrap_or([0, 0]);
                    let v = if bit < 32 {
                        f[0] >> bit
                    } else {
                        f[1] >> (bit - 32)
                    };
                    word |= (v & 1) << i;
                }
                planes[bit * TILE_WORDS + j] = word;
            }
        }
        let mut tables = vec![0u32; MAX_CHUNKS * TILE_WORDS * 32];
        for c in 0..shape.chunks {
            for j in 0..words {
                let rest = tile.len() - 32 * j;
                let at = (c * TILE_WORDS + j) * 32;
                tables[at] = if rest < 32 { (1 << rest) - 1 } else { u32::MAX };
                for m in 1..32usize {
                    let b = CHUNK_BITS * c + m.trailing_zeros() as usize;
                    let plane = if b < shape.bits {
                        planes[b * TILE_WORDS + j]
                    } else {
                        0
                    };
                    tables[at + m] = tables[at + (m & (m - 1))] & !plane;
                }
            }
        }
        for f in w {
            let mut m = [0usize; MAX_CHUNKS];
            for (c, slot) in m.iter_mut().enumerate().take(shape.chunks) {
                *slot = chunk(*f, c);
            }
            for j in 0..words {
                let mut acc = tables[j * 32 + m[0]];
                for (c, &mask) in m.iter().enumerate().take(shape.chunks).skip(1) {
                    acc &= tables[(c * TILE_WORDS + j) * 32 + mask];
                }
                count += acc.count_ones();
            }
        }
    }
    count
}

/// Bits `5c .. 5c + 5` of the footprint `f` (`lo`, `hi`).
fn chunk(f: [u32; 2], c: usize) -> usize {
    let low = CHUNK_BITS * c;
    let bits = if low + CHUNK_BITS <= 32 {
        f[0] >> low
    } else if low >= 32 {
        f[1] >> (low - 32)
    } else {
        f[0] >> low | f[1] << (32 - low)
    };
    (bits & 31) as usize
}

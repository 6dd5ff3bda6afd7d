//! The plain Rust twin of each kernel: the same arithmetic on the same words, one thread
//! after another. The tests run a kernel on a device and its twin on the same input and
//! compare the outputs word for word (where threads race to append, as in the search's
//! output and the pairing's lists, the order within a group is free and compared sorted).

use std::ops::Range;

use super::layout::{
    BATCH_WORDS, CHUNK_BITS, FREE_INDEX, FREE_MASK, MAX_CHUNKS, OUTER_A, OUTER_B, PADDED, Shape,
    TILE, TILE_WORDS, Tables, VALID, WORKGROUP, rank, unrank,
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

/// What a dispatch of `count_pairs` sums on the device: per configuration of its items (from
/// the first item's), the pairs of its items (twice for a configuration that is its own
/// mirror image); the items whose lists outgrew the scratch (in any order on the device, which
/// lists the first [`OVERFLOW_SLOTS`](super::layout::OVERFLOW_SLOTS) of them and the host reads the rest from each item's
/// status); the items done.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct PairTally {
    /// The configurations of the dispatch's items, numbered in the batch.
    pub configs: Range<usize>,
    /// Their sums, one per configuration.
    pub sums: Vec<u64>,
    /// Items whose lists outgrew the scratch.
    pub overflowed: u32,
    /// Which, sorted.
    pub overflow: Vec<u32>,
    /// Items done.
    pub done: u32,
}

/// The sums of a dispatch of `count_pairs` over `items` (see [`PairTally`]), from each item's
/// pairs and status.
pub fn tally_pairs(input: &PairInputs, items: Range<u32>, results: &[[u32; 2]]) -> PairTally {
    let configs = configs_of(input, items.clone());
    let mut tally = PairTally {
        sums: vec![0; configs.len()],
        configs: configs.clone(),
        ..PairTally::default()
    };
    for (k, &[pairs, status]) in items.zip(results) {
        tally.done += 1;
        if status != 0 {
            tally.overflowed += 1;
            tally.overflow.push(k);
            continue;
        }
        let c = config_of(input.batch, input.configs, k);
        let mirrored = input.batch[c * BATCH_WORDS + 4];
        tally.sums[c - configs.start] += u64::from(pairs) << mirrored;
    }
    tally.overflow.sort_unstable();
    tally
}

/// The configurations (numbered in the batch) of the items `items`.
pub fn configs_of(input: &PairInputs, items: Range<u32>) -> Range<usize> {
    if items.is_empty() {
        return 0..0;
    }
    config_of(input.batch, input.configs, items.start)
        ..config_of(input.batch, input.configs, items.end - 1) + 1
}

/// The configuration of item `k`: the last of the batch table `batch` (of `configs`
/// configurations) whose first item is at most `k`.
pub fn config_of(batch: &[u32], configs: usize, k: u32) -> usize {
    let (mut lo, mut hi) = (0usize, configs);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if batch[mid * BATCH_WORDS] <= k {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
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
    let lo = config_of(b, input.configs, k);
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
pub(crate) fn side_list(
    shape: &Shape,
    input: &PairInputs,
    c: usize,
    side: usize,
    set: u32,
) -> Vec<[u32; 2]> {
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

/// Warp-wide accesses to workgroup memory and the wavefronts they take (a warp's access to
/// words in `k` distinct places of one bank takes `k` wavefronts; to one word, a broadcast,
/// one).
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Traffic {
    /// Accesses, counted once per warp that makes them.
    pub accesses: u64,
    /// Wavefronts they take.
    pub wavefronts: u64,
    /// Wavefronts they would take with no bank conflict: one per 32 distinct words (a 64-bit
    /// access by 32 lanes takes two however it is laid out).
    pub minimum: u64,
}

impl Traffic {
    /// One warp-wide access to the words `words` (as many as the active lanes touch).
    pub fn access(&mut self, words: impl IntoIterator<Item = usize>) {
        let mut per_bank: [Vec<usize>; BANKS] = Default::default();
        let mut any = false;
        for w in words {
            any = true;
            let bank = &mut per_bank[w % BANKS];
            if !bank.contains(&w) {
                bank.push(w);
            }
        }
        if any {
            let distinct: usize = per_bank.iter().map(Vec::len).sum();
            self.accesses += 1;
            self.wavefronts += per_bank.iter().map(Vec::len).max().unwrap_or(1) as u64;
            self.minimum += distinct.div_ceil(BANKS) as u64;
        }
    }

    /// The sum of two counts.
    pub fn plus(self, other: Traffic) -> Traffic {
        Traffic {
            accesses: self.accesses + other.accesses,
            wavefronts: self.wavefronts + other.wavefronts,
            minimum: self.minimum + other.minimum,
        }
    }
}

/// Banks of workgroup memory, four bytes wide (NVIDIA's and AMD's), and the lanes of a warp.
const BANKS: usize = 32;
const LANES: usize = 32;

/// The pairing kernel's workgroup-memory traffic for one unit, per phase: the east list
/// copied into tiles, the bit planes, the mask tables (together the *build*) and the pair
/// loop, as the kernel with `tables` makes them for a west list of `wn` and an east list of
/// `en` footprints. The footprints' values do not change the counts: the pair loop's lanes
/// read one 32-word table each (distinct banks or one word), whatever masks they pick.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct UnitTraffic {
    /// Writing the tiles.
    pub tile: Traffic,
    /// Building the bit planes.
    pub planes: Traffic,
    /// Building the mask tables.
    pub masks: Traffic,
    /// The pairs.
    pub pairs: Traffic,
}

impl UnitTraffic {
    /// The build: tiles, planes and masks.
    pub fn build(&self) -> Traffic {
        self.tile.plus(self.planes).plus(self.masks)
    }
}

/// The workgroup-memory traffic of one unit (see [`UnitTraffic`]).
pub fn unit_traffic(shape: &Shape, tables: Tables, wn: usize, en: usize) -> UnitTraffic {
    let mut t = UnitTraffic::default();
    let padded = tables == Tables::Padded;
    // Word places of the tile's footprint i of word j (two words each), and of a plane word.
    let tile_at = |j: usize, i: usize| 2 * if padded { j * PADDED + i } else { j * 32 + i };
    let plane_at = |bit: usize, j: usize| {
        PLANES_BASE
            + if padded {
                j * shape.bits + bit
            } else {
                bit * TILE_WORDS + j
            }
    };
    let mask_at = |c: usize, j: usize, m: usize| MASKS_BASE + (c * TILE_WORDS + j) * 32 + m;
    // The warps of a loop `for q in lid..end step 256`: the threads q of each warp.
    let warps = |end: usize| {
        (0..end.div_ceil(WORKGROUP)).flat_map(move |round| {
            (0..WORKGROUP / LANES).filter_map(move |warp| {
                let first = round * WORKGROUP + warp * LANES;
                (first < end).then(|| first..(first + LANES).min(end))
            })
        })
    };
    if wn == 0 || en == 0 {
        return t;
    }
    for t0 in (0..en).step_by(TILE) {
        let tn = TILE.min(en - t0);
        let words = tn.div_ceil(32);
        for lanes in warps(words * 32) {
            t.tile
                .access(lanes.flat_map(|i| [tile_at(i / 32, i % 32), tile_at(i / 32, i % 32) + 1]));
        }
        let plane_of = |q: usize| {
            if padded {
                (q % shape.bits, q / shape.bits)
            } else {
                (q / words, q % words)
            }
        };
        for lanes in warps(shape.bits * words) {
            for i in 0..32 {
                t.planes.access(lanes.clone().flat_map(|q| {
                    let (_, j) = plane_of(q);
                    [tile_at(j, i), tile_at(j, i) + 1]
                }));
            }
            t.planes.access(lanes.map(|q| {
                let (bit, j) = plane_of(q);
                plane_at(bit, j)
            }));
        }
        if padded {
            for lanes in warps(shape.chunks * words * 32) {
                let cj = |q: usize| ((q / 32) / words, (q / 32) % words);
                for b in 0..CHUNK_BITS {
                    t.masks.access(lanes.clone().filter_map(|q| {
                        let (c, j) = cj(q);
                        (CHUNK_BITS * c + b < shape.bits).then(|| plane_at(CHUNK_BITS * c + b, j))
                    }));
                }
                t.masks.access(lanes.map(|q| {
                    let (c, j) = cj(q);
                    mask_at(c, j, q % 32)
                }));
            }
        } else {
            for lanes in warps(shape.chunks * words) {
                let cj = |q: usize| (q / words, q % words);
                t.masks.access(lanes.clone().map(|q| {
                    let (c, j) = cj(q);
                    mask_at(c, j, 0)
                }));
                for m in 1..32usize {
                    t.masks.access(lanes.clone().map(|q| {
                        let (c, j) = cj(q);
                        mask_at(c, j, m & (m - 1))
                    }));
                    t.masks.access(lanes.clone().filter_map(|q| {
                        let (c, j) = cj(q);
                        let b = CHUNK_BITS * c + m.trailing_zeros() as usize;
                        (b < shape.bits).then(|| plane_at(b, j))
                    }));
                    t.masks.access(lanes.clone().map(|q| {
                        let (c, j) = cj(q);
                        mask_at(c, j, m)
                    }));
                }
            }
        }
        // The pair loop: each warp of west footprints reads, per word and chunk, one table of
        // 32 words: one wavefront whatever masks its lanes pick (a lane's mask index is in
        // 0..32; shown with every lane on its own mask).
        for lanes in warps(wn) {
            for j in 0..words {
                for c in 0..shape.chunks {
                    t.pairs.access(lanes.clone().map(|i| mask_at(c, j, i % 32)));
                }
            }
        }
    }
    t
}

/// Word places of the planes and masks in the model's workgroup memory, after the tile (both
/// multiples of 32 words, as the kernel's arrays are aligned).
const PLANES_BASE: usize = 2 * TILE_WORDS * PADDED + 32;
const MASKS_BASE: usize = PLANES_BASE + 40 * TILE_WORDS + 32;

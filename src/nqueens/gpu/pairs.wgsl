// The placements of a batch of work units, one unit (a configuration and a row set R of its
// free rows) per workgroup at a time: its west sides on R and east sides on the other free
// rows, made from the partial sides, and the pairs of them whose footprints share no bit.
//
// A side's list: for each pair {a, b} of its rows, the partial sides on the others (one
// group) completed by queens on a and b in the two outer columns, both ways round, when no
// diagonal clashes; written to this workgroup's part of `scratch`.
//
// The pairs: the east list in tiles of 512 footprints, each turned into bit planes and, per
// chunk of five footprint bits and per word of 32 footprints, a table of 32 masks (the
// footprints with none of the bits a mask names); each west footprint ANDs one mask per
// chunk and counts the ones, 32 pairs at a time.
//
// Each item's pairs are summed per configuration on the device (`tally`), so that a dispatch
// returns a few words; an item whose lists outgrew the scratch is listed there instead, for
// the CPU.
//
// Two choices are compiled in as constants, each checked against the twin (twin.rs), the
// host choosing them at run time (`Tuning` in layout.rs):
//
// TABLES, how the bit planes and the mask tables are built in workgroup memory.
//  0 (strided): a thread per plane word, reading the tile's 32 footprints of its word, and a
//    thread per table of 32 masks, built one mask from the last. The threads of a warp differ
//    in the word `j` and read `tile[32 j + i]`, 256 bytes apart, all in one bank; and write
//    `masks[32 (16 c + j) + m]`, all in bank m: 16- to 32-way bank conflicts.
//  1 (padded): the tile's words padded to 33 footprints, so that the footprint i of word j
//    and of word j + 1 lie two banks apart; a thread per plane word with the plane index
//    fastest (lanes read one footprint, a broadcast, and write consecutive words); a thread
//    per mask (lanes of a warp share a chunk and word: five broadcast loads of the planes,
//    then 32 consecutive words written). No two lanes of a warp touch two words of one bank.
// WORK, how workgroups take items.
//  0 (stride): workgroup g takes items g, g + G, g + 2G, ...
//  1 (queue): each workgroup takes its next item from a counter in `tally` (an atomic add),
//    so a workgroup done early takes more and the dispatch ends when the items do.
// (Both are declared in common.wgsl, as every kernel is given every constant.)

const TILE: u32 = 512u;
const TILE_WORDS: u32 = 16u;
// Footprints a tile's word takes in workgroup memory, padded.
const PADDED: u32 = 33u;
const MAX_PAIRS: u32 = 45u;

@group(0) @binding(3) var<storage, read> counts: array<u32>;
@group(0) @binding(4) var<storage, read> starts: array<u32>;
@group(0) @binding(5) var<storage, read> batch: array<u32>;
@group(0) @binding(6) var<storage, read> partials: array<vec2<u32>>;
@group(0) @binding(7) var<storage, read_write> scratch: array<vec2<u32>>;
@group(0) @binding(8) var<storage, read_write> results: array<vec2<u32>>;

// The item being counted: configuration, west rows, east rows, whether it is counted.
var<workgroup> item: vec4<u32>;
// The item after it (thread 0 takes it, all read it).
var<workgroup> next_k: u32;
// Per pair of rows of the side being listed: where its group starts, its size, the rows (a,
// b, and their places among the rows its group's partial sides leave open).
var<workgroup> pair_start: array<u32, 45>;
var<workgroup> pair_size: array<u32, 45>;
var<workgroup> pair_rows: array<u32, 45>;
var<workgroup> pair_prefix: array<u32, 46>;
var<workgroup> list_len: atomic<u32>;
var<workgroup> list_total: u32;
var<workgroup> pairs_found: atomic<u32>;
var<workgroup> tile: array<vec2<u32>, 528>;
var<workgroup> planes: array<u32, 640>;
var<workgroup> masks: array<u32, 4096>;

// Bits 5c .. 5c + 5 of a footprint.
fn chunk(f: vec2<u32>, c: u32) -> u32 {
    let low = 5u * c;
    var bits: u32;
    if (low + 5u <= 32u) {
        bits = f.x >> low;
    } else if (low >= 32u) {
        bits = f.y >> (low - 32u);
    } else {
        bits = (f.x >> low) | (f.y << (32u - low));
    }
    return bits & 31u;
}

// Appends partial side p completed by queens on free rows a (last but one column) and b
// (last column), if they fit; ia and ib are their places among the rows p leaves open.
fn complete(p: vec2<u32>, a: u32, b: u32, ia: u32, ib: u32, sb: u32, list: u32) {
    let at = sb + completion_at(a, b);
    let hi = tables[at + 1u];
    if ((hi & VALID) != 0u && ((p.y >> (OUTER_A + ia)) & 1u) == 0u && ((p.y >> (OUTER_B + ib)) & 1u) == 0u) {
        let i = atomicAdd(&list_len, 1u);
        if (i < SCRATCH) {
            scratch[list + i] = vec2<u32>(p.x | tables[at], (p.y & ((1u << OUTER_A) - 1u)) | (hi & ~VALID));
        }
    }
}

// Lists the sides of side `side` of configuration `c` on the free rows `rows` at `list` of
// scratch; returns their number (over SCRATCH: the list was cut short).
fn side_list(c: u32, side: u32, rows: u32, list: u32, lid: u32) -> u32 {
    let sb = side_base(c, side);
    let seg = 2u * c + side;
    let pairs = SIDE * (SIDE - 1u) / 2u;
    if (lid < pairs) {
        // The lid-th pair (i < j) of the set's members, in order.
        var i = 0u;
        var rest = lid;
        while (rest >= SIDE - 1u - i) {
            rest -= SIDE - 1u - i;
            i += 1u;
        }
        let j = i + 1u + rest;
        var m = rows;
        var a = 0u;
        var b = 0u;
        for (var t = 0u; t <= j; t += 1u) {
            let low = countTrailingZeros(m);
            if (t == i) {
                a = low;
            }
            if (t == j) {
                b = low;
            }
            m &= m - 1u;
        }
        let group = rows & ~(1u << a) & ~(1u << b);
        let index = seg * GROUPS + rank(group);
        let open = ((1u << free_rows()) - 1u) & ~group;
        let ia = countOneBits(open & ((1u << a) - 1u));
        let ib = countOneBits(open & ((1u << b) - 1u));
        pair_start[lid] = batch[c * BATCH_WORDS + 2u + side] + starts[index];
        pair_size[lid] = counts[index];
        pair_rows[lid] = a | (b << 8u) | (ia << 16u) | (ib << 24u);
    }
    workgroupBarrier();
    if (lid == 0u) {
        var run = 0u;
        for (var t = 0u; t < pairs; t += 1u) {
            pair_prefix[t] = run;
            run += pair_size[t];
        }
        pair_prefix[pairs] = run;
        list_total = run;
        atomicStore(&list_len, 0u);
    }
    let tests = workgroupUniformLoad(&list_total);
    for (var t = lid; t < tests; t += 256u) {
        // The pair whose group holds test t: the last with pair_prefix <= t.
        var lo = 0u;
        var hi = pairs;
        while (hi - lo > 1u) {
            let mid = (lo + hi) / 2u;
            if (pair_prefix[mid] <= t) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let p = partials[pair_start[lo] + t - pair_prefix[lo]];
        let ab = pair_rows[lo];
        let a = ab & 255u;
        let b = (ab >> 8u) & 255u;
        let ia = (ab >> 16u) & 255u;
        let ib = ab >> 24u;
        complete(p, a, b, ia, ib, sb, list);
        complete(p, b, a, ib, ia, sb, list);
    }
    // The list is in storage memory, read next by other threads of the workgroup: a
    // workgroup barrier alone orders only workgroup memory.
    storageBarrier();
    workgroupBarrier();
    if (lid == 0u) {
        list_total = atomicLoad(&list_len);
    }
    return workgroupUniformLoad(&list_total);
}

// Where footprint i of word j of the tile is.
fn tile_at(j: u32, i: u32) -> u32 {
    if (TABLES == 1u) {
        return j * PADDED + i;
    }
    return j * 32u + i;
}

// Where word j of the plane of footprint bit `bit` is.
fn plane_at(bit: u32, j: u32) -> u32 {
    if (TABLES == 1u) {
        return j * FBITS + bit;
    }
    return bit * TILE_WORDS + j;
}

// Bit `bit` (below 64) of footprint f.
fn footprint_bit(f: vec2<u32>, bit: u32) -> u32 {
    // Both shifts by less than 32 (a larger shift is undefined in SPIR-V), one chosen.
    return (select(f.y >> ((bit - 32u) & 31u), f.x >> (bit & 31u), bit < 32u)) & 1u;
}

// The bit planes of a tile of `words` words: word j of plane `bit` holds bit `bit` of the
// tile's footprints 32 j to 32 j + 31.
fn build_planes(words: u32, lid: u32) {
    for (var q = lid; q < FBITS * words; q += 256u) {
        var bit: u32;
        var j: u32;
        if (TABLES == 1u) {
            j = q / FBITS;
            bit = q % FBITS;
        } else {
            bit = q / words;
            j = q % words;
        }
        var word = 0u;
        for (var i = 0u; i < 32u; i += 1u) {
            word |= footprint_bit(tile[tile_at(j, i)], bit) << i;
        }
        planes[plane_at(bit, j)] = word;
    }
}

// The mask tables of a tile of `tn` footprints in `words` words: mask m of chunk c and word
// j holds the footprints (of that word) with none of the bits 5c + t for the bits t of m.
fn build_masks(tn: u32, words: u32, lid: u32) {
    if (TABLES == 1u) {
        for (var q = lid; q < CHUNKS * words * 32u; q += 256u) {
            let m = q % 32u;
            let c = (q / 32u) / words;
            let j = (q / 32u) % words;
            let rest = tn - 32u * j;
            var mask = 0xffffffffu;
            if (rest < 32u) {
                mask = (1u << rest) - 1u;
            }
            for (var t = 0u; t < 5u; t += 1u) {
                let b = 5u * c + t;
                if (b < FBITS) {
                    let plane = planes[plane_at(b, j)];
                    if (((m >> t) & 1u) != 0u) {
                        mask &= ~plane;
                    }
                }
            }
            masks[(c * TILE_WORDS + j) * 32u + m] = mask;
        }
        return;
    }
    for (var q = lid; q < CHUNKS * words; q += 256u) {
        let c = q / words;
        let j = q % words;
        let rest = tn - 32u * j;
        let at = (c * TILE_WORDS + j) * 32u;
        var valid = 0xffffffffu;
        if (rest < 32u) {
            valid = (1u << rest) - 1u;
        }
        masks[at] = valid;
        for (var m = 1u; m < 32u; m += 1u) {
            let b = 5u * c + countTrailingZeros(m);
            var plane = 0u;
            if (b < FBITS) {
                plane = planes[plane_at(b, j)];
            }
            masks[at + m] = masks[at + (m & (m - 1u))] & ~plane;
        }
    }
}

// Adds to `pairs_found` the pairs of the w lists and e lists with disjoint footprints.
fn pair(w: u32, wn: u32, e: u32, en: u32, lid: u32) {
    var count = 0u;
    for (var t0 = 0u; t0 < en; t0 += TILE) {
        let tn = min(TILE, en - t0);
        let words = (tn + 31u) / 32u;
        for (var i = lid; i < words * 32u; i += 256u) {
            var f = vec2<u32>(0u, 0u);
            if (i < tn) {
                f = scratch[e + t0 + i];
            }
            tile[tile_at(i / 32u, i % 32u)] = f;
        }
        workgroupBarrier();
        build_planes(words, lid);
        workgroupBarrier();
        build_masks(tn, words, lid);
        workgroupBarrier();
        for (var i = lid; i < wn; i += 256u) {
            let f = scratch[w + i];
            var m: array<u32, 8>;
            for (var c = 0u; c < CHUNKS; c += 1u) {
                m[c] = chunk(f, c);
            }
            for (var j = 0u; j < words; j += 1u) {
                var acc = masks[j * 32u + m[0]];
                for (var c = 1u; c < CHUNKS; c += 1u) {
                    acc &= masks[(c * TILE_WORDS + j) * 32u + m[c]];
                }
                count += countOneBits(acc);
            }
        }
        workgroupBarrier();
    }
    atomicAdd(&pairs_found, count);
}

// Where item k's configuration is in the batch, its row sets, and whether it is counted (a
// configuration that is its own mirror image counts the smaller of a rows and its
// complement only).
fn locate(k: u32) -> vec4<u32> {
    var lo = 0u;
    var hi = params.configs;
    while (hi - lo > 1u) {
        let mid = (lo + hi) / 2u;
        if (batch[mid * BATCH_WORDS] <= k) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let at = lo * BATCH_WORDS;
    let west = unrank(batch[at + 1u] + (k - batch[at]), SIDE);
    let east = ((1u << free_rows()) - 1u) ^ west;
    let counted = batch[at + 4u] == 0u || west < east;
    return vec4<u32>(lo, west, east, select(0u, 1u, counted));
}

// Adds `v` to the 64-bit sum of configuration c.
fn add_sum(c: u32, v: u32) {
    let at = TALLY_SUMS + 2u * c;
    let old = atomicAdd(&tally[at], v);
    if (old + v < old) {
        atomicAdd(&tally[at + 1u], 1u);
    }
}

// The next item of this workgroup after `k` (its first when `first`), taken by thread 0.
fn next_item(k: u32, first: bool, wg: u32, grid: u32) -> u32 {
    if (WORK == 1u) {
        return params.item_first + atomicAdd(&tally[TALLY_NEXT], 1u);
    }
    if (first) {
        return params.item_first + wg;
    }
    return k + grid;
}

// Workgroups take the items of the dispatch (see WORK); each has two lists of scratch. Per
// item: its pairs and status in `results`, and its pairs added to its configuration's sum
// in `tally` (times two for a configuration that is its own mirror image) or, if a list
// outgrew the scratch, the item listed there.
@compute @workgroup_size(256)
fn count_pairs(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let w = 2u * wg.x * SCRATCH;
    let e = w + SCRATCH;
    let end = params.item_first + params.item_count;
    if (lid == 0u) {
        next_k = next_item(0u, true, wg.x, grid.x);
    }
    var k = workgroupUniformLoad(&next_k);
    loop {
        if (k >= end) {
            break;
        }
        if (lid == 0u) {
            item = locate(k);
            atomicStore(&pairs_found, 0u);
        }
        let it = workgroupUniformLoad(&item);
        var status = 0u;
        if (it.w != 0u) {
            let wn = side_list(it.x, 0u, it.y, w, lid);
            let en = side_list(it.x, 1u, it.z, e, lid);
            if (wn > SCRATCH || en > SCRATCH) {
                status = 1u;
            } else if (wn > 0u && en > 0u) {
                pair(w, wn, e, en, lid);
            }
        }
        workgroupBarrier();
        if (lid == 0u) {
            let pairs = atomicLoad(&pairs_found);
            results[k - params.item_first] = vec2<u32>(pairs, status);
            if (status != 0u) {
                let slot = atomicAdd(&tally[TALLY_OVERFLOW], 1u);
                if (slot < OVERFLOW_SLOTS) {
                    atomicStore(&tally[OVERFLOW_LIST + slot], k);
                }
            } else if (pairs != 0u) {
                add_sum(it.x, pairs << batch[it.x * BATCH_WORDS + 4u]);
            }
            atomicAdd(&tally[TALLY_DONE], 1u);
            next_k = next_item(k, false, wg.x, grid.x);
        }
        // This item's lists are read before the next item's are written.
        storageBarrier();
        k = workgroupUniformLoad(&next_k);
    }
    check_loops();
}

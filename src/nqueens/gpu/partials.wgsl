// The partial sides of a batch of configurations: every placement of a side's inner columns
// (next to the band), one queen per column on the free rows, none attacking another or
// attacked by the band. One thread per side of a configuration and per choice of queens in
// its first DEPTH inner columns (a number in base 2s), searching the rest depth first.
// `count_partials` counts them per group (the free rows they take); `write_partials` writes
// each at its group's place, found by the scan in between.

@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> starts: array<u32>;
@group(0) @binding(5) var<storage, read> batch: array<u32>;
@group(0) @binding(6) var<storage, read_write> partials: array<vec2<u32>>;

// The bits of `value` at the set bits of `mask` (below bit 2s), packed from bit 0.
fn gather(value: u32, mask: u32) -> u32 {
    var out = 0u;
    var i = 0u;
    for (var r = 0u; r < free_rows(); r += 1u) {
        if (((mask >> r) & 1u) != 0u) {
            out |= ((value >> r) & 1u) << i;
            i += 1u;
        }
    }
    return out;
}

// A partial side found on the free rows `key`: counted, or written at the next place of its
// group, packed: its footprint's low word; its footprint's high bits, and above them its
// attacks on the two outer columns on the rows it leaves open.
fn emit(seg: u32, key: u32, partial: vec4<u32>, write: bool) {
    let index = seg * GROUPS + rank(key);
    if (write) {
        let base = batch[(seg / 2u) * BATCH_WORDS + 2u + seg % 2u];
        let slot = base + starts[index] + atomicAdd(&counts[index], 1u);
        let open = ((1u << free_rows()) - 1u) & ~key;
        let high = partial.y | (gather(partial.z, open) << OUTER_A) | (gather(partial.w, open) << OUTER_B);
        partials[slot] = vec2<u32>(partial.x, high);
    } else {
        atomicAdd(&counts[index], 1u);
    }
}

fn search(thread: u32, write: bool) {
    let seg = thread / PREFIXES;
    if (seg >= 2u * params.configs) {
        return;
    }
    var prefix = thread % PREFIXES;
    let cb = config_base(seg / 2u);
    let sb = side_base(seg / 2u, seg % 2u);
    let all = (1u << ROWS) - 1u;
    // The state before each column: rows free, rows on a diagonal of the queens so far
    // (`left` moving down, `right` up, one row per column outward), free rows taken (the
    // group), outer attacks, footprint.
    var free = tables[cb + FREE_MASK];
    var left = 0u;
    var right = 0u;
    var key = 0u;
    var oa = 0u;
    var ob = 0u;
    var lo = 0u;
    var hi = 0u;
    for (var i = 0u; i < DEPTH; i += 1u) {
        let k = prefix % free_rows();
        prefix /= free_rows();
        let r = tables[cb + k];
        let bit = 1u << r;
        if ((tables[sb + i] & free & ~left & ~right & bit) == 0u) {
            return;
        }
        let q = sb + square_at(i, r);
        free &= ~bit;
        left = ((left | bit) << 1u) & all;
        right = (right | bit) >> 1u;
        key |= 1u << k;
        oa |= tables[q + 2u];
        ob |= tables[q + 3u];
        lo |= tables[q];
        hi |= tables[q + 1u];
    }
    if (DEPTH == inner()) {
        emit(seg, key, vec4<u32>(lo, hi, oa, ob), write);
        return;
    }
    var s_free: array<u32, 8>;
    var s_left: array<u32, 8>;
    var s_right: array<u32, 8>;
    var s_key: array<u32, 8>;
    var s_oa: array<u32, 8>;
    var s_ob: array<u32, 8>;
    var s_lo: array<u32, 8>;
    var s_hi: array<u32, 8>;
    var candidates: array<u32, 8>;
    var d = DEPTH;
    s_free[d] = free;
    s_left[d] = left;
    s_right[d] = right;
    s_key[d] = key;
    s_oa[d] = oa;
    s_ob[d] = ob;
    s_lo[d] = lo;
    s_hi[d] = hi;
    candidates[d] = tables[sb + d] & free & ~left & ~right;
    loop {
        if (candidates[d] == 0u) {
            if (d == DEPTH) {
                break;
            }
            d -= 1u;
            continue;
        }
        let r = countTrailingZeros(candidates[d]);
        let bit = 1u << r;
        candidates[d] &= candidates[d] - 1u;
        let q = sb + square_at(d, r);
        let n_free = s_free[d] & ~bit;
        let n_left = ((s_left[d] | bit) << 1u) & all;
        let n_right = (s_right[d] | bit) >> 1u;
        let n_key = s_key[d] | (1u << tables[cb + FREE_INDEX + r]);
        let n_oa = s_oa[d] | tables[q + 2u];
        let n_ob = s_ob[d] | tables[q + 3u];
        let n_lo = s_lo[d] | tables[q];
        let n_hi = s_hi[d] | tables[q + 1u];
        if (d + 1u == inner()) {
            emit(seg, n_key, vec4<u32>(n_lo, n_hi, n_oa, n_ob), write);
            continue;
        }
        d += 1u;
        s_free[d] = n_free;
        s_left[d] = n_left;
        s_right[d] = n_right;
        s_key[d] = n_key;
        s_oa[d] = n_oa;
        s_ob[d] = n_ob;
        s_lo[d] = n_lo;
        s_hi[d] = n_hi;
        candidates[d] = tables[sb + d] & n_free & ~n_left & ~n_right;
    }
}

// Threads are numbered across a two-dimensional grid of workgroups (a dimension holds at
// most 65,535).
@compute @workgroup_size(64)
fn count_partials(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    search(id.x + id.y * groups.x * 64u, false);
}

@compute @workgroup_size(64)
fn write_partials(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    search(id.x + id.y * groups.x * 64u, true);
}

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

// The search's state before a column: rows free, rows on a diagonal of the queens so far
// (`left` moving down, `right` up, one row per column outward), free rows taken (the group),
// attacks on the two outer columns (`oa`, `ob`), footprint (`lo`, `hi`).
struct State {
    free: u32,
    left: u32,
    right: u32,
    key: u32,
    oa: u32,
    ob: u32,
    lo: u32,
    hi: u32,
}

// The state after a queen on board row r (free row k) of inner column i of the side whose
// tables start at sb.
fn place(s: State, sb: u32, i: u32, r: u32, k: u32) -> State {
    let bit = 1u << r;
    let q = sb + square_at(i, r);
    return State(
        s.free & ~bit,
        ((s.left | bit) << 1u) & ((1u << ROWS) - 1u),
        (s.right | bit) >> 1u,
        s.key | (1u << k),
        s.oa | tables[q + 2u],
        s.ob | tables[q + 3u],
        s.lo | tables[q],
        s.hi | tables[q + 1u],
    );
}

// The rows where inner column i may take a queen in state s.
fn open_rows(s: State, sb: u32, i: u32) -> u32 {
    return tables[sb + i] & s.free & ~s.left & ~s.right;
}

fn search(thread: u32, write: bool) {
    let seg = thread / PREFIXES;
    if (seg >= 2u * params.configs) {
        return;
    }
    var prefix = thread % PREFIXES;
    let cb = config_base(seg / 2u);
    let sb = side_base(seg / 2u, seg % 2u);
    var s = State(tables[cb + FREE_MASK], 0u, 0u, 0u, 0u, 0u, 0u, 0u);
    // The first DEPTH columns: the queens the thread's number spells.
    for (var i = 0u; i < DEPTH; i += 1u) {
        let k = prefix % free_rows();
        prefix /= free_rows();
        let r = tables[cb + k];
        if ((open_rows(s, sb, i) & (1u << r)) == 0u) {
            return;
        }
        s = place(s, sb, i, r, k);
    }
    if (DEPTH == inner()) {
        emit(seg, s.key, vec4<u32>(s.lo, s.hi, s.oa, s.ob), write);
        return;
    }
    // The other columns depth first: per column, its state and the rows left to try.
    var stack: array<State, 8>;
    var candidates: array<u32, 8>;
    var d = DEPTH;
    stack[d] = s;
    candidates[d] = open_rows(s, sb, d);
    loop {
        if (candidates[d] == 0u) {
            if (d == DEPTH) {
                break;
            }
            d -= 1u;
            continue;
        }
        let r = countTrailingZeros(candidates[d]);
        candidates[d] &= candidates[d] - 1u;
        let next = place(stack[d], sb, d, r, tables[cb + FREE_INDEX + r]);
        if (d + 1u == inner()) {
            emit(seg, next.key, vec4<u32>(next.lo, next.hi, next.oa, next.ob), write);
            continue;
        }
        d += 1u;
        stack[d] = next;
        candidates[d] = open_rows(next, sb, d);
    }
}

// Threads are numbered across a two-dimensional grid of workgroups (a dimension holds at
// most 65,535).
@compute @workgroup_size(64)
fn count_partials(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    search(id.x + id.y * groups.x * 64u, false);
    check_loops();
}

@compute @workgroup_size(64)
fn write_partials(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    search(id.x + id.y * groups.x * 64u, true);
    check_loops();
}

// Exclusive prefix sums of the partial sides per group, one workgroup per segment (a side of
// a configuration): where each group starts within its segment, and the segment's total.

@group(0) @binding(3) var<storage, read> counts: array<u32>;
@group(0) @binding(4) var<storage, read_write> starts: array<u32>;
@group(0) @binding(5) var<storage, read_write> totals: array<u32>;

var<workgroup> sums: array<u32, 256>;

@compute @workgroup_size(256)
fn scan(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) grid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let seg = wg.x + wg.y * grid.x;
    if (seg >= 2u * params.configs) {
        return;
    }
    // Each thread sums a run of consecutive groups; the runs' sums are scanned together.
    let per = (GROUPS + 255u) / 256u;
    let first = min(lid * per, GROUPS);
    let last = min(first + per, GROUPS);
    let at = seg * GROUPS;
    var sum = 0u;
    for (var g = first; g < last; g += 1u) {
        sum += counts[at + g];
    }
    sums[lid] = sum;
    workgroupBarrier();
    for (var step = 1u; step < 256u; step <<= 1u) {
        var v = sums[lid];
        if (lid >= step) {
            v += sums[lid - step];
        }
        workgroupBarrier();
        sums[lid] = v;
        workgroupBarrier();
    }
    var run = 0u;
    if (lid > 0u) {
        run = sums[lid - 1u];
    }
    for (var g = first; g < last; g += 1u) {
        starts[at + g] = run;
        run += counts[at + g];
    }
    if (lid == 255u) {
        totals[seg] = sums[255];
    }
    check_loops();
}

// Shared by the counting kernels: the band's constants, the parameters of a dispatch, the
// configurations' tables and the colex ranks of row sets. Each kernel's file is compiled
// after this one. The layout of the tables is `layout.rs`'s.

// The board side, the columns of each side, the groups of partial sides per side
// (C(2s, s - 2)) and the footprints each list of the pairing kernel holds.
override ROWS: u32;
override SIDE: u32;
override GROUPS: u32;
override SCRATCH: u32;
// The search's inner columns fixed by a thread's number, and the numbers per side:
// (2s)^DEPTH.
override DEPTH: u32;
override PREFIXES: u32;
// The pairing's chunks of five footprint bits, and the footprint bits that may be set
// (4s - 2).
override CHUNKS: u32;
override FBITS: u32;
// The pairing kernel's choices (see pairs.wgsl): its tables strided (0) or padded (1), its
// items taken by a fixed stride (0) or from a queue (1).
override TABLES: u32;
override WORK: u32;

// A completion's flag, in the high word of its footprint.
const VALID: u32 = 0x80000000u;
// Words of a configuration's header, where its free rows and their indices are.
const HEADER_WORDS: u32 = 96u;
const FREE_INDEX: u32 = 32u;
const MIRRORED: u32 = 64u;
const FREE_MASK: u32 = 65u;
// Words of a configuration's entry in the batch table.
const BATCH_WORDS: u32 = 8u;
// Where a partial side's attacks on the last but one and on the last column start in its
// second word (above its footprint's high bits), each on the rows it leaves open.
const OUTER_A: u32 = 6u;
const OUTER_B: u32 = 18u;

struct Params {
    // Configurations in the batch.
    configs: u32,
    // The items (row sets) of this dispatch of the pairing kernel.
    item_first: u32,
    item_count: u32,
    // Iterations of the loop that `check_loops` runs: 2 (set by the host, so that no
    // compiler can count them beforehand).
    canary: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// The configurations' tables, `config_words()` words each.
@group(0) @binding(1) var<storage, read> tables: array<u32>;
// C(i, j) at 32 * i + j.
@group(0) @binding(2) var<storage, read> binomial: array<u32>;
// A dispatch's own words, cleared before it (the layout is `layout.rs`'s `TALLY_*`): word 0
// set (to 1) by an invocation whose loops the device cut short (see `check_loops`); then,
// for the pairing kernel, the next item to take, the items done, the items whose lists
// outgrew the scratch; a word that stays 0 (`check_loops`); the first OVERFLOW_SLOTS items
// that outgrew the scratch; and per configuration of the batch its pairs summed in 64 bits
// (low word, high word).
@group(0) @binding(9) var<storage, read_write> tally: array<atomic<u32>>;
const TALLY_CUT: u32 = 0u;
const TALLY_NEXT: u32 = 1u;
const TALLY_DONE: u32 = 2u;
const TALLY_OVERFLOW: u32 = 3u;
const TALLY_ZERO: u32 = 4u;
const OVERFLOW_LIST: u32 = 5u;
const OVERFLOW_SLOTS: u32 = 256u;
const TALLY_SUMS: u32 = 261u;

// Mesa's software devices (lavapipe, through its LLVM back end) end every loop of an
// invocation for good once all its loops together have run 65,535 iterations, without a
// word: the invocation goes on with its loops cut short and its results wrong. A loop of
// `params.canary` (2) iterations, run last, says whether that happened: it then runs once.
// The host throws away what such a dispatch computed. On a GPU the loop costs two iterations.
// Each iteration adds a word of `tally` that stays 0, loaded atomically: without it, a
// compiler may compute the loop's end in closed form and run no loop at all (LLVM does,
// where the shader is compiled without naga's loop bounding), and the check would miss.
fn check_loops() {
    var n = 0u;
    loop {
        n += 1u + atomicLoad(&tally[TALLY_ZERO]);
        if (n >= params.canary) {
            break;
        }
    }
    if (n != params.canary) {
        atomicStore(&tally[TALLY_CUT], 1u);
    }
}

fn inner() -> u32 {
    return SIDE - 2u;
}

fn free_rows() -> u32 {
    return 2u * SIDE;
}

fn side_words() -> u32 {
    return 8u + inner() * ROWS * 4u + free_rows() * free_rows() * 2u;
}

fn config_base(c: u32) -> u32 {
    return c * (HEADER_WORDS + 2u * side_words());
}

fn side_base(c: u32, side: u32) -> u32 {
    return config_base(c) + HEADER_WORDS + side * side_words();
}

// A square of an inner column, within a side's tables: footprint (two words) and the free
// rows it attacks in the last but one and in the last column.
fn square_at(i: u32, r: u32) -> u32 {
    return 8u + (i * ROWS + r) * 4u;
}

// The completion by queens on free rows a (last but one column) and b (last column).
fn completion_at(a: u32, b: u32) -> u32 {
    return 8u + inner() * ROWS * 4u + (a * free_rows() + b) * 2u;
}

fn choose(n: u32, k: u32) -> u32 {
    return binomial[n * 32u + k];
}

// The colex rank of the set `rows` among the sets of as many bits.
fn rank(rows: u32) -> u32 {
    var r = 0u;
    var m = rows;
    var i = 1u;
    while (m != 0u) {
        r += choose(countTrailingZeros(m), i);
        i += 1u;
        m &= m - 1u;
    }
    return r;
}

// The set of `ones` bits of colex rank `index`.
fn unrank(index: u32, ones: u32) -> u32 {
    var rows = 0u;
    var rest = index;
    var k = ones;
    while (k >= 1u) {
        var c = k - 1u;
        while (choose(c + 1u, k) <= rest) {
            c += 1u;
        }
        rows |= 1u << c;
        rest -= choose(c, k);
        k -= 1u;
    }
    return rows;
}

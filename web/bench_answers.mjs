// Every answer of the web board other than an empty board's count (web/bench.mjs has those),
// in WebAssembly against the command line on one thread, on the same machine: the module
// built by web/build.sh OUT, in Node.js, one thread, as in one of the page's workers, and the
// command line with the same input and options. Each workload is made large enough for the
// command line's start (about 1 ms) not to count: a judge input of many cases, a showdown of
// many steps, a count or listing of seconds. The median of RUNS runs of each, alternated, and
// their ratio, in seconds of CPU time (user and system: the command line's as bash's `time`
// reports it with RAYON_NUM_THREADS=1, the module's as Node.js's `process.cpuUsage()`). The
// figures are in docs/web.md.
//
// Each run of the module is a fresh Node.js process that answers the request twice and times
// the second answer (the first, while the engine compiles its optimised code, is timed apart:
// the last column). The time of one answer moves between processes (the Sultan's 0.16 s in
// some, 0.26 s in others, as the command line's moves between runs: web/EXPERIMENTS.md), so
// one process for every run would give one draw for them all. The ratio of the fastest runs
// of each side is given too.
//
//   node web/bench_answers.mjs OUT CHESS_PUZZLES [RUNS [NAME...]]
//
// Prints a Markdown table (answer, request, native s, WebAssembly s, ratio, ratio of the
// fastest runs, the module's first answer s); exits 1 if an answer differs from the command
// line's by a byte.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

if (process.argv[2] === "--child") {
    // One run of the module: `--child OUT PATH QUERY EXPECTED`, the body on standard input,
    // the command line's answer in the file EXPECTED; prints the CPU seconds of the first and
    // of the second answer.
    const [, out, path, query, expectedFile] = process.argv.slice(2);
    const web = await import(pathToFileURL(resolve(out, "chess_puzzles_web.js")).href);
    web.initSync({ module: readFileSync(join(out, "chess_puzzles_web_bg.wasm")) });
    globalThis.chessPuzzlesProgress = () => {};
    const body = readFileSync(0);
    const expected = readFileSync(expectedFile);
    const seconds = [];
    for (let i = 0; i < 2; i += 1) {
        const start = process.cpuUsage();
        const reply = web.answer(path, query, body, 600);
        const used = process.cpuUsage(start);
        seconds.push((used.user + used.system) / 1e6);
        const got = Buffer.from(reply.body);
        const status = reply.status;
        reply.free();
        if (status !== 200 || !got.equals(expected)) {
            console.error(`${path}?${query}: the module answered ${status} (${got.length} bytes: ${new TextDecoder().decode(got.subarray(0, 200))}), the command line ${expected.length} bytes`);
            process.exit(1);
        }
    }
    console.log(seconds.join(" "));
    process.exit(0);
}

const [out, cli, runsArg, ...names] = process.argv.slice(2);
if (!out || !cli) {
    console.error("usage: node web/bench_answers.mjs OUT CHESS_PUZZLES [RUNS [NAME...]]");
    process.exit(2);
}
const runs = Number(runsArg ?? 5);

/** The command line's standard output for `args` and `input`. */
const run = (args, input = "") => {
    const done = spawnSync(cli, args, { input, maxBuffer: 1 << 30 });
    if (done.status !== 0) throw new Error(`${cli} ${args.join(" ")}: ${done.stderr}`);
    return done.stdout.toString();
};

/** Weights 1..99 on `boards` boards of side `n`, from a fixed linear congruential draw. */
const weights = (boards, n) => {
    let state = 12345n;
    const next = () => {
        state = (state * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
        return Number(state >> 33n) % 99 + 1;
    };
    const lines = [String(boards)];
    for (let b = 0; b < boards; b += 1) {
        lines.push(String(n));
        for (let r = 0; r < n; r += 1) lines.push(Array.from({ length: n }, next).join(" "));
    }
    return `${lines.join("\n")}\n`;
};

/** 8 Queens inputs: the benchmark input of 200,000 squares, `times` times over. */
const manySquares = (times) => {
    const [, ...squares] = run(["queens", "gen", "--kind", "large"]).trimEnd().split("\n");
    return `${squares.length * times}\n${Array(times).fill(squares.join("\n")).join("\n")}\n`;
};

// name, what it is, the command line's arguments, the API's path and query, the input.
const workloads = [
    ["queens", "UVa 750, 2,000,000 squares", ["queens"], "/api/queens", "format=judge", () => manySquares(10)],
    ["sultan", "UVa 167, 100,000 boards", ["sultan"], "/api/sultan", "format=judge",
        () => run(["sultan", "gen", "--cases", "100000", "--seed", "1"])],
    ["tour", "POJ 2919, 2,000 random boards", ["tour"], "/api/tour", "format=judge",
        () => run(["tour", "gen", "--cases", "2000", "--seed", "1"])],
    ["showdown", "SPOJ CHE, 4 boards of 25x25, 20,000 steps", ["showdown", "--steps", "20000", "--seed", "1"],
        "/api/showdown", "steps=20000&seed=1&format=judge",
        () => run(["showdown", "gen", "--cases", "4", "--seed", "1", "--size", "25"])],
    ["count-fix", "N-queens count of 16 with a queen given at 1,1", ["nqueens", "count", "16", "--fix", "1,1", "--threads", "1"],
        "/api/nqueens/count", "n=16&fix=1,1&format=judge", () => ""],
    ["list", "N-queens: every placement of 13", ["nqueens", "list", "13"], "/api/nqueens/list", "n=13&format=judge", () => ""],
    ["best", "nqueens best, 4 boards of 24x24", ["nqueens", "best"], "/api/nqueens/best", "format=judge", () => weights(4, 24)],
    ["queens-trace", "UVa 750 search traces, each of the 64 squares", ["queens", "--trace", "--trace-steps", "1000000"],
        "/api/queens/trace", "steps=1000000", () => run(["queens", "gen", "--kind", "all", "--seed", "1"])],
    ["sultan-trace", "UVa 167 search traces, 50 boards", ["sultan", "--trace", "--trace-steps", "1000000"],
        "/api/sultan/trace", "steps=1000000", () => run(["sultan", "gen", "--cases", "50", "--seed", "1"])],
    ["nqueens-trace", "N-queens search trace of 10, 1,000,000 steps", ["nqueens", "list", "10", "--trace", "--trace-steps", "1000000"],
        "/api/nqueens/trace", "n=10&steps=1000000", () => ""],
    ["tour-trace", "POJ 2919 search traces, 2,000 boards", ["tour", "--trace"], "/api/tour/trace", "",
        () => run(["tour", "gen", "--cases", "2000", "--seed", "1"])],
];

const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log("| answer | request | native, one thread (CPU s) | WebAssembly in Node.js (CPU s) | ratio | ratio of the fastest runs | the module's first answer (CPU s) |");
console.log("|---|---|---|---|---|---|---|");
for (const [name, what, args, path, query, make] of workloads) {
    if (names.length > 0 && !names.includes(name)) continue;
    const input = make();
    const native = [];
    const wasm = [];
    const first = [];
    for (let i = 0; i < runs; i += 1) {
        // Alternated, so that a busy spell of the machine falls on both.
        const started = spawnSync("bash", ["-c", 'TIMEFORMAT="%3U %3S"; time "$0" "$@" >/tmp/chess-puzzles-bench.out', cli, ...args],
            { input, env: { ...process.env, RAYON_NUM_THREADS: "1" }, maxBuffer: 1 << 30 });
        if (started.status !== 0) throw new Error(`${name}: ${started.stderr}`);
        const [user, system] = started.stderr.toString().trim().split(/\s+/).slice(-2).map(Number);
        native.push(user + system);
        const child = spawnSync(process.execPath, [process.argv[1], "--child", out, path, query, "/tmp/chess-puzzles-bench.out"],
            { input, maxBuffer: 1 << 20 });
        if (child.status !== 0) {
            console.error(`${name}: ${child.stderr}`);
            process.exit(1);
        }
        const [cold, warm] = child.stdout.toString().trim().split(" ").map(Number);
        first.push(cold);
        wasm.push(warm);
    }
    const [a, b] = [median(native), median(wasm)];
    const fastest = Math.min(...wasm) / Math.min(...native);
    console.log(`| ${name} | ${what} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)}x | ${fastest.toFixed(2)}x | ${median(first).toFixed(3)} |`);
}

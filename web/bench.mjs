// The empty-board N-queens count in WebAssembly (the module built by web/build.sh OUT, in
// Node.js, one thread, as in one of the page's workers) against the command line on one
// thread (`nqueens count N --threads 1`), on the same machine: the median of RUNS runs of
// each, and their ratio, in seconds of CPU time (user and system: the command line's as bash's
// `time` reports it, the module's as Node.js's `process.cpuUsage()`), which other work on a
// busy machine disturbs less than the time on the clock. The figures are in docs/web.md and
// the tries in web/EXPERIMENTS.md.
//
//   node web/bench.mjs OUT CHESS_PUZZLES [RUNS [N...]]
//
// Prints a Markdown table (N, native s, WebAssembly s, ratio of the medians, ratio of the
// fastest runs of each side); exits 1 if the two counts differ.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [out, cli, runsArg, ...sides] = process.argv.slice(2);
if (!out || !cli) {
    console.error("usage: node web/bench.mjs OUT CHESS_PUZZLES [RUNS [N...]]");
    process.exit(2);
}
const runs = Number(runsArg ?? 5);
const ns = sides.length > 0 ? sides.map(Number) : [16, 17];
const web = await import(pathToFileURL(resolve(out, "chess_puzzles_web.js")).href);
web.initSync({ module: readFileSync(join(out, "chess_puzzles_web_bg.wasm")) });

const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** The module's CPU time for `f`, and its value. */
const timed = (f) => {
    const start = process.cpuUsage();
    const value = f();
    const { user, system } = process.cpuUsage(start);
    return [(user + system) / 1e6, value];
};
/** The command line's count of `n` and its CPU time. */
const native = (n) => {
    const run = spawnSync("bash", ["-c", 'TIMEFORMAT="%3U %3S"; time "$0" nqueens count "$1" --threads 1 --format json', cli, String(n)]);
    if (run.status !== 0) throw new Error(`${cli}: ${run.stderr}`);
    const [user, system] = run.stderr.toString().trim().split(/\s+/).slice(-2).map(Number);
    return [user + system, run.stdout.toString()];
};

console.log(`kernel in the module: ${web.check_kernels(1)}`);
console.log("| N | native, one thread (CPU s) | WebAssembly in Node.js (CPU s) | ratio | ratio of the fastest runs |");
console.log("|---|---|---|---|---|");
for (const n of ns) {
    const cpu = [];
    const wasm = [];
    for (let run = 0; run < runs; run += 1) {
        // Alternated, so that a busy spell of the machine falls on both.
        const [t1, line] = native(n);
        const [t2, reply] = timed(() => web.answer("/api/nqueens/count", `n=${n}&time_limit=300`, new Uint8Array(), 300));
        const body = Buffer.from(reply.body).toString();
        if (reply.status !== 200 || body !== line) {
            console.error(`n=${n}: the module answered ${reply.status} ${body}, the command line ${line}`);
            process.exit(1);
        }
        cpu.push(t1);
        wasm.push(t2);
    }
    const [a, b] = [median(cpu), median(wasm)];
    console.log(`| ${n} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)}x | ${(Math.min(...wasm) / Math.min(...cpu)).toFixed(2)}x |`);
}

// The library's API in WebAssembly (built by web/build.sh OUT) against the command line:
// the same bytes for the same input and options, and refusals with the command line's
// message, line and column.
//
//   node web/test.mjs OUT CHESS_PUZZLES
//
// CHESS_PUZZLES is the native binary (target/release/chess-puzzles). Run from the
// repository's root (the samples are read from tests/data). Exits 1 on the first difference.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import assert from "node:assert/strict";

const [out, cli] = process.argv.slice(2);
if (!out || !cli) {
    console.error("usage: node web/test.mjs OUT CHESS_PUZZLES");
    process.exit(2);
}
const web = await import(pathToFileURL(resolve(out, "chess_puzzles_web.js")).href);
web.initSync({ module: readFileSync(join(out, "chess_puzzles_web_bg.wasm")) });
// The progress the module reports (the worker's `chessPuzzlesProgress`): counts, showdown, best.
const reported = [];
globalThis.chessPuzzlesProgress = (done, total) => reported.push([done, total]);
/** The last progress reported since `reported` was emptied is all of `total` parts. */
const finished = (name, total) => {
    assert.ok(reported.length > 0, `${name}: no progress`);
    assert.deepEqual(reported.at(-1), [total, total], `${name}: the last progress`);
    assert.ok(reported.every(([d], i) => i === 0 || d >= reported[i - 1][0]), `${name}: progress went back`);
};

// One search per thread natively: a showdown with steps is the browser's with one thread.
const env = { ...process.env, RAYON_NUM_THREADS: "1" };
const command = (args, input) => execFileSync(cli, args, { input, env, maxBuffer: 1 << 26 });
const ask = (path, query, body) => {
    const reply = web.answer(path, query, body ?? new Uint8Array(), 10);
    return { status: reply.status, type: reply.content_type, body: Buffer.from(reply.body) };
};
const sample = (puzzle) => readFileSync(`tests/data/${puzzle}/sample.in`);

let checked = 0;
const same = (name, reply, expected, type) => {
    assert.equal(reply.status, 200, `${name}: ${reply.body}`);
    assert.equal(reply.type, type, name);
    assert.ok(reply.body.equals(expected), `${name}: the API's bytes differ from the command line's:\n${reply.body}\n---\n${expected}`);
    checked += 1;
};
const JSONL = "application/x-ndjson";
const TEXT = "text/plain; charset=utf-8";

for (const puzzle of ["queens", "sultan", "tour"]) {
    const input = sample(puzzle);
    same(`${puzzle} json`, ask(`/api/${puzzle}`, "", input), command([puzzle, "--format", "json"], input), JSONL);
    same(`${puzzle} judge`, ask(`/api/${puzzle}`, "format=judge", input), command([puzzle], input), TEXT);
    same(`${puzzle} board`, ask(`/api/${puzzle}`, "format=board", input), command([puzzle, "--format", "board"], input), TEXT);
}
same("queens uva", ask("/api/queens", "format=judge&uva", sample("queens")), command(["queens", "--uva"], sample("queens")), TEXT);
same("tour svg", ask("/api/tour", "format=svg", sample("tour")), command(["tour", "--format", "svg"], sample("tour")), "image/svg+xml");
// The Sultan's boards scored by byte shuffles in the module (weights up to 255) and by plain
// sums (larger weights): random boards of both kinds, against the command line.
for (const weights of ["0-255", "1-99", "200-300", "0-4294967295"]) {
    const boards = command(["sultan", "gen", "--cases", "3000", "--seed", "7", "--weights", weights]);
    same(`sultan random ${weights}`, ask("/api/sultan", "format=judge", boards), command(["sultan"], boards), TEXT);
}
for (const puzzle of ["queens", "sultan", "tour"]) {
    same(`${puzzle} trace`, ask(`/api/${puzzle}/trace`, "", sample(puzzle)), command([puzzle, "--trace"], sample(puzzle)), JSONL);
}

// The showdown optimiser: the clock, the pipelined start and the local search on wasm; its
// progress in steps (each test's one search, the browser's one thread, makes them all), and
// the same answers as without progress.
const showdown = sample("showdown");
const tests = Number(showdown.toString().trim().split(/\s+/)[0]);
reported.length = 0;
same("showdown steps", ask("/api/showdown", "format=judge&steps=300&seed=1", showdown),
    command(["showdown", "--steps", "300", "--seed", "1"], showdown), TEXT);
finished("showdown", 300 * tests);
// A search long enough to report its steps on the way, through the trace the page asks for:
// 20,000 steps on a 25x25 board with a king on every other square (the page's test of Stop).
const rows = Array.from({ length: 25 }, (_, r) => Array.from({ length: 25 }, (_, c) => ((r + c) % 2 === 0 ? "#" : "_")).join(""));
const checkered = Buffer.from(`1\n25\n${rows.join("\n")}\n1 1 1 1 1 1 2 1\n`);
reported.length = 0;
const traced = ask("/api/showdown/trace", "steps=20000&seed=2&trace_steps=100", checkered);
assert.equal(traced.status, 200, `showdown trace: ${traced.body}`);
assert.ok(traced.body.equals(command(["showdown", "--trace", "--trace-steps", "100", "--steps", "20000", "--seed", "2"], checkered)), "showdown trace: the bytes differ");
checked += 1;
finished("showdown trace", 20000);
assert.ok(reported.some(([done]) => done > 0 && done < 20000), `showdown trace: no progress within the search: ${JSON.stringify(reported)}`);
same("showdown json", ask("/api/showdown", "steps=300&seed=7", showdown),
    command(["showdown", "--steps", "300", "--seed", "7", "--format", "json"], showdown), JSONL);
const timed = ask("/api/showdown", "format=judge&time_limit=0.5", showdown);
assert.equal(timed.status, 200, `showdown with a time limit: ${timed.body}`);
// Timed (not reproducible): the command line's judge accepts its answers.
const dir = mkdtempSync(join(tmpdir(), "chess-puzzles-web-"));
writeFileSync(join(dir, "in"), showdown);
writeFileSync(join(dir, "out"), timed.body);
const judged = spawnSync(cli, ["showdown", "check", join(dir, "in"), join(dir, "out")]);
rmSync(dir, { recursive: true });
assert.equal(judged.status, 0, `showdown check: ${judged.stdout}${judged.stderr}`);
checked += 1;

// The best placement of weighted boards, and its progress after each board.
const weighted = Buffer.from("2\n4\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 16\n5\n" +
    Array.from({ length: 5 }, (_, r) => Array.from({ length: 5 }, (_, c) => (7 * r + 3 * c) % 11).join(" ")).join("\n") + "\n");
reported.length = 0;
same("nqueens best", ask("/api/nqueens/best", "format=judge", weighted), command(["nqueens", "best", "--format", "judge"], weighted), TEXT);
finished("nqueens best", 2);

// N-queens from the query: counting, listing, the best placement.
same("nqueens count", ask("/api/nqueens/count", "n=9&fix=1,1&fix=2,3", undefined),
    command(["nqueens", "count", "9", "--fix", "1,1", "--fix", "2,3", "--format", "json"]), JSONL);
same("nqueens list", ask("/api/nqueens/list", "n=6&format=judge", undefined),
    command(["nqueens", "list", "6"]), TEXT);
same("nqueens trace", ask("/api/nqueens/trace", "n=5&limit=2", undefined),
    command(["nqueens", "list", "5", "--limit", "2", "--trace"]), JSONL);

// A count with its progress (the server's count/events): the count's line, and the parts.
for (const [query, args] of [["n=12", ["12"]], ["n=10&fix=1,2&fix=5,1", ["10", "--fix", "1,2", "--fix", "5,1"]]]) {
    reported.length = 0;
    const reply = web.count_events(query, 10);
    same(`nqueens count events ${query}`, { status: reply.status, type: reply.content_type, body: Buffer.from(reply.body) },
        command(["nqueens", "count", ...args, "--format", "json"]), JSONL);
    finished(query, reported.at(-1)?.[1]);
    assert.ok(reported.at(-1)[1] > 0, `${query}: no parts`);
}
// A count shared by workers: its shards sum to the count, written as the command line does.
for (const shards of [1, 3]) {
    let sum = 0n;
    for (let index = 0; index < shards; index += 1) {
        const part = web.count_shard("n=14", index, shards, 10);
        assert.equal(part.status, 200, `shard ${index}/${shards}`);
        sum += BigInt(Buffer.from(part.body).toString());
    }
    const total = web.count_total("n=14", sum.toString());
    same(`nqueens count 14 in ${shards} shards`, { status: total.status, type: total.content_type, body: Buffer.from(total.body) },
        command(["nqueens", "count", "14", "--format", "json"]), JSONL);
}
assert.equal(web.count_shard("n=8&fix=1,1", 0, 2, 10).status, 400, "a shard of a board with given queens");
const late = web.count_events("n=8&time_limit=20", 10);
assert.equal(late.status, 400, "a time limit above the most");

// An empty board's count in this module's kernels (the sides completed and paired in
// WebAssembly SIMD, large lists as bit planes).
same("nqueens count 16", ask("/api/nqueens/count", "n=16", undefined),
    command(["nqueens", "count", "16", "--format", "json"]), JSONL);

// The count's kernels in this module (WebAssembly SIMD where it is built with it) against the
// definition, on random lists.
for (const seed of [1, 2, 3]) {
    const kernels = web.check_kernels(seed);
    assert.ok(kernels.startsWith("ok: Simd128, "), `the kernels in WebAssembly: ${kernels}`);
}
checked += 1;

// A bad input: the command line's message, line and column.
const bad = Buffer.from("1\n9 1\n");
const refused = ask("/api/queens", "", bad);
assert.equal(refused.status, 400);
assert.equal(refused.type, "application/json");
const failed = spawnSync(cli, ["queens"], { input: bad });
assert.equal(failed.status, 2);
const { error, line, column } = JSON.parse(refused.body);
assert.equal(failed.stderr.toString(), `error: <stdin>:${line}:${column}: ${error}\n`);
// Bad numbers deep in long inputs (past the reader's 64 KiB buffer, with \r\n and \n line
// ends): the same line and column, which the module counts sixteen bytes at a time.
const boards = command(["sultan", "gen", "--cases", "600", "--seed", "3"]).toString();
for (const [at, crlf] of [[1000, false], [70000, true], [100000, false], [114000, true]]) {
    let text = boards.slice(0, at) + " 4294967296 " + boards.slice(at);
    if (crlf) text = text.replaceAll("\n", "\r\n");
    const input = Buffer.from(text);
    const reply = ask("/api/sultan", "", input);
    assert.equal(reply.status, 400, `a bad weight at byte ${at}`);
    const cli_ = spawnSync(cli, ["sultan"], { input });
    const told = JSON.parse(reply.body);
    assert.equal(cli_.stderr.toString(), `error: <stdin>:${told.line}:${told.column}: ${told.error}\n`);
    assert.ok(told.line > 1, `a line is counted: ${told.line}`);
}
assert.equal(ask("/api/none", "", undefined).status, 404);
assert.equal(ask("/api/nqueens/count", "n=8&colour=red", undefined).status, 400);
checked += 1;

console.log(`web/test.mjs: ${checked} answers of the WebAssembly API are the command line's`);

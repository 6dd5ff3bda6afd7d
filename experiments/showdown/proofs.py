#!/usr/bin/env python3
"""Proves the optima of benchmark files with `chess-puzzles showdown --prove` (standard library).

Needs the proof mode: `cargo build --release --features milp`. For each input file, runs

    chess-puzzles showdown --prove --format json --time-limit (SECONDS x tests) FILE

and writes one line per test in the format of milp.py's TSV (file, test, side, kings, status,
best, bound, seconds), which compare.py reads with --optima: status `Optimal` when the
answer is proven optimal, else `Time limit reached` with the certified lower bound. With
--answers DIR, the answers go to DIR/NAME.out in the judge's format (check them with
`chess-puzzles showdown check`). With --json, reads a saved JSON output instead of running.
With --threads T, T tests are proven side by side (the program's default: one per
core). With --only FILE:TEST,..., each chosen test is proved alone (a one-test input written to a
temporary file) with --seconds for itself, and only those tests are written (with --answers,
to DIR/NAME.TEST.out).

    python3 experiments/showdown/proofs.py --seconds 80 --proof-model exact \\
        experiments/showdown/dense/*.in > experiments/showdown/optima-dense.tsv
    taskset -c 1 python3 experiments/showdown/proofs.py --seconds 300 --no-header \\
        --only set1_05.in:2,set1_03.in:3 experiments/showdown/set/*.in >> optima-prove.tsv
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

BIN = "target/release/chess-puzzles"


def report(name, c, secs):
    """One TSV line in milp.py's format."""
    status = "Optimal" if c["optimal"] else "Time limit reached"
    print(f"{name}\t{c['case']}\t{c['side']}\t{c['kings']}\t{status}\t{c['cost']}\t"
          f"{c['lower_bound']:.3f}\t{secs:.1f}", flush=True)


def judge_text(case):
    return f"{len(case['pieces'])} {case['cost']}\n" + "".join(
        f"{p['type']} {p['row']} {p['col']}\n" for p in case["pieces"])


def one_test(path, test):
    """The text of a one-test input holding test `test` (1-based) of the input file `path`."""
    lines = open(path).read().split("\n")
    i = 1
    for t in range(1, int(lines[0]) + 1):
        n = int(lines[i])
        if t == test:
            return "1\n" + "\n".join(lines[i:i + n + 2]) + "\n"
        i += n + 2
    raise SystemExit(f"{path} has no test {test}")


def prove(args, path, seconds):
    """The JSON records of `chess-puzzles showdown --prove` on `path`, and the seconds per test."""
    start = time.time()
    out = subprocess.run(
        [args.bin, "showdown", "--prove", "--format", "json", "--proof-model", args.proof_model,
         "--seed", args.seed, "--time-limit", str(seconds)]
        + (["--threads", args.threads] if args.threads else []) + [path],
        check=True, capture_output=True, text=True).stdout
    cases = [json.loads(line) for line in out.splitlines()]
    return cases, (time.time() - start) / max(1, len(cases))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="input files (with --json: NAME=JSON pairs)")
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--seconds", type=float, default=60.0, help="per test, shared over the file")
    ap.add_argument("--proof-model", default="lazy", choices=["lazy", "exact"])
    ap.add_argument("--seed", default="1")
    ap.add_argument("--threads", help="tests proven side by side (default: one per core; "
                    "1 for the runs made before they were)")
    ap.add_argument("--answers", help="write the answers to DIR/NAME.out")
    ap.add_argument("--json", action="store_true", help="the files are NAME=SAVED_JSON pairs")
    ap.add_argument("--no-header", action="store_true")
    ap.add_argument("--only", help="FILE:TEST,...: prove these tests, each alone")
    args = ap.parse_args()
    only = {}
    for item in (args.only or "").split(","):
        if item:
            name, test = item.rsplit(":", 1)
            only.setdefault(name, []).append(int(test))
    if not args.no_header:
        print("file\ttest\tside\tkings\tstatus\tbest\tbound\tseconds")
    for item in args.files:
        if args.only:
            name = os.path.basename(item)
            for test in only.get(name, []):
                with tempfile.NamedTemporaryFile("w", suffix=".in") as fh:
                    fh.write(one_test(item, test))
                    fh.flush()
                    cases, secs = prove(args, fh.name, args.seconds)
                for c in cases:
                    c["case"] = test
                    report(name, c, secs)
                if args.answers:
                    with open(os.path.join(args.answers, f"{name}.{test}.out"), "w") as fh:
                        fh.writelines(judge_text(c) for c in cases)
            continue
        if args.json:
            name, saved = item.split("=", 1)
            cases = [json.loads(line) for line in open(saved) if line.strip()]
            secs = float("nan")
        else:
            name = os.path.basename(item)
            tests = int(open(item).read().split()[0])
            cases, secs = prove(args, item, args.seconds * tests)
        for c in cases:
            report(name, c, secs)
        if args.answers:
            with open(os.path.join(args.answers, name + ".out"), "w") as fh:
                fh.writelines(judge_text(c) for c in cases)


if __name__ == "__main__":
    main()

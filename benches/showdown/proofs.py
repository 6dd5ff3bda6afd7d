#!/usr/bin/env python3
"""Proves the optima of benchmark files with `chess-puzzles showdown --prove` (standard library).

Needs the proof mode: `cargo build --release --features milp`. For each input file, runs

    chess-puzzles showdown --prove --format json --time-limit (SECONDS x tests) FILE

and writes one line per test in the format of milp.py's TSV (file, test, side, kings, status,
best, bound, seconds), which compare.py reads with --optima: status `Optimal` when the
answer is proven optimal, else `Time limit reached` with the certified lower bound. With
--answers DIR, the answers go to DIR/NAME.out in the judge's format (check them with
`chess-puzzles showdown check`). With --json, reads a saved JSON output instead of running.

    python3 benches/showdown/proofs.py --seconds 80 --proof-model exact \\
        benches/showdown/dense/*.in > benches/showdown/optima-dense.tsv
"""
import argparse
import json
import os
import subprocess
import time

BIN = "target/release/chess-puzzles"


def judge_text(case):
    return f"{len(case['pieces'])} {case['cost']}\n" + "".join(
        f"{p['type']} {p['row']} {p['col']}\n" for p in case["pieces"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", help="input files (with --json: NAME=JSON pairs)")
    ap.add_argument("--bin", default=BIN)
    ap.add_argument("--seconds", type=float, default=60.0, help="per test, shared over the file")
    ap.add_argument("--proof-model", default="lazy", choices=["lazy", "exact"])
    ap.add_argument("--seed", default="1")
    ap.add_argument("--answers", help="write the answers to DIR/NAME.out")
    ap.add_argument("--json", action="store_true", help="the files are NAME=SAVED_JSON pairs")
    ap.add_argument("--no-header", action="store_true")
    args = ap.parse_args()
    if not args.no_header:
        print("file\ttest\tside\tkings\tstatus\tbest\tbound\tseconds")
    for item in args.files:
        if args.json:
            name, saved = item.split("=", 1)
            cases = [json.loads(line) for line in open(saved) if line.strip()]
            secs = float("nan")
        else:
            name = os.path.basename(item)
            tests = int(open(item).read().split()[0])
            start = time.time()
            out = subprocess.run(
                [args.bin, "showdown", "--prove", "--format", "json", "--proof-model", args.proof_model,
                 "--seed", args.seed, "--time-limit", str(args.seconds * tests), item],
                check=True, capture_output=True, text=True).stdout
            cases = [json.loads(line) for line in out.splitlines()]
            secs = (time.time() - start) / max(1, len(cases))
        for c in cases:
            status = "Optimal" if c["optimal"] else "Time limit reached"
            print(f"{name}\t{c['case']}\t{c['side']}\t{c['kings']}\t{status}\t{c['cost']}\t"
                  f"{c['lower_bound']:.3f}\t{secs:.1f}", flush=True)
        if args.answers:
            with open(os.path.join(args.answers, name + ".out"), "w") as fh:
                fh.writelines(judge_text(c) for c in cases)


if __name__ == "__main__":
    main()

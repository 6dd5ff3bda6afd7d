#!/usr/bin/env python3
"""Where the optimiser lands on chosen tests, seed by seed, with a fixed number of steps (standard library).

For each FILE:TEST (FILE a benchmark input, TEST its test number from 1), the test is cut out
into a one-test input and solved once per seed with

    chess-puzzles showdown --format json --seed S --steps N --time-limit 1000 TEST.in

so that each answer depends only on the seed (`--steps`: N local-search steps per thread), not
on the machine's speed or load. Prints per test the cost above the reference of every seed,
and how many seeds reach it (within --within): the reference is the proven optimum of the
--optima TSV files, else the best answer known in --best DIR/NAME.out.

    cargo build --release
    python3 experiments/showdown/seeds.py --steps 300000 --seeds 1-12 \\
        --optima experiments/showdown/optima-dense.tsv --optima experiments/showdown/optima-dense-long.tsv \\
        --best experiments/showdown/best dense1_01.in:3 dense1_01.in:5 \\
        --dir experiments/showdown/dense
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import read_answers, read_optima  # noqa: E402
from proofs import one_test  # noqa: E402

BIN = "target/release/chess-puzzles"


def seed_range(text):
    """`1-12` or `1,3,5` as a list of seeds."""
    if "-" in text:
        lo, hi = text.split("-")
        return list(range(int(lo), int(hi) + 1))
    return [int(s) for s in text.split(",")]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tests", nargs="+", help="FILE:TEST, FILE's name inside --dir")
    ap.add_argument("--dir", required=True, help="the directory of the input files")
    ap.add_argument("--steps", type=int, required=True, help="local-search steps per thread")
    ap.add_argument("--seeds", type=seed_range, default=seed_range("1-6"))
    ap.add_argument("--optima", action="append", default=[], help="TSV files of milp.py or proofs.py")
    ap.add_argument("--best", help="directory of the best answers known, DIR/NAME.out")
    ap.add_argument("--within", type=int, default=0,
                    help="a seed reaches the reference when at most this much above it")
    ap.add_argument("--bin", default=BIN)
    args = ap.parse_args()
    optima = read_optima(args.optima)
    for item in args.tests:
        name, test = item.rsplit(":", 1)
        test = int(test)
        proven, _, bound = optima.get((name, test), (False, None, 0.0))
        reference = int(bound) if proven else None
        if reference is None and args.best:
            known = read_answers(os.path.join(args.best, name + ".out"))
            reference = known[test - 1][0] if len(known) >= test else None
        if reference is None:
            raise SystemExit(f"{item}: no proven optimum and no best answer known")
        with tempfile.NamedTemporaryFile("w", suffix=".in", delete=False) as fh:
            fh.write(one_test(os.path.join(args.dir, name), test))
        try:
            above = []
            for seed in args.seeds:
                out = subprocess.run(
                    [args.bin, "showdown", "--format", "json", "--seed", str(seed), "--steps",
                     str(args.steps), "--time-limit", "1000", fh.name],
                    check=True, capture_output=True, text=True).stdout
                above.append(json.loads(out.splitlines()[0])["cost"] - reference)
        finally:
            os.unlink(fh.name)
        kind = "optimum" if proven else "best known"
        reached = sum(a <= args.within for a in above)
        print(f"{item}\t{kind} {reference}\tabove: "
              + " ".join(str(a) for a in above)
              + f"\treached by {reached} of {len(above)}")


if __name__ == "__main__":
    main()

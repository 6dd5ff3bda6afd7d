#!/usr/bin/env python3
"""Projects the CPU time of whole N-queens counts from random shards.

For each N, runs `chess-puzzles nqueens count N --threads 1 --shard I/K --format json` on
`--samples` random shards I of K and reads their CPU times from the records: the whole count
would take about K times their mean (one thread, this machine). The spread of the mean (its
standard error) says how far to trust it. Prints one Markdown row per N.

    python3 experiments/nqueens/project.py --bin target/release/chess-puzzles --n 23 24 25 \\
        --samples 12 --seed 1

A shard of K should hold a few configurations of the band the plan chooses (the record says
its sides); the default K per N below keeps the default band (the whole count's).
"""

import argparse
import json
import math
import random
import subprocess
import sys

# OEIS A000170.
KNOWN = {
    17: 95815104, 18: 666090624, 19: 4968057848, 20: 39029188884, 21: 314666222712,
    22: 2691008701644, 23: 24233937684440, 24: 227514171973736, 25: 2207893435808352,
    26: 22317699616364044, 27: 234907967154122528,
}
# Shards per N: a few seconds each, and few enough to keep the default band (more than 4 a
# configuration would narrow it, see band::SHARDS_PER_CONFIG).
DEFAULT_SHARDS = {
    20: 11, 21: 184, 22: 3000, 23: 50000, 24: 100000, 25: 1000000, 26: 5000000,
    27: 28000000,
}
YEAR = 365.25 * 24 * 3600


def sample(binary, n, shards, index):
    out = subprocess.run(
        [binary, "nqueens", "count", str(n), "--threads", "1",
         "--shard", f"{index}/{shards}", "--format", "json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="target/release/chess-puzzles")
    parser.add_argument("--n", type=int, nargs="+", required=True)
    parser.add_argument("--shards", type=int, help="K for every N (default: per N)")
    parser.add_argument("--samples", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print("| N | K | sides | shards sampled | mean CPU a shard | projected CPU, one thread "
          "| +- (std. error) | ns a placement |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.n:
        shards = args.shards or DEFAULT_SHARDS.get(n, 1000)
        records = [sample(args.bin, n, shards, rng.randrange(shards))
                   for _ in range(args.samples)]
        cpu = [r["cpu_seconds"] for r in records]
        mean = sum(cpu) / len(cpu)
        spread = (math.sqrt(sum((c - mean) ** 2 for c in cpu) / (len(cpu) - 1) / len(cpu))
                  if len(cpu) > 1 else float("nan"))
        total = mean * shards
        if total >= YEAR:
            shown = f"{total / YEAR:,.1f} CPU-years"
        elif total >= 86400:
            shown = f"{total / 86400:,.1f} CPU-days"
        else:
            shown = f"{total:,.0f} s"
        per = total / KNOWN[n] * 1e9 if n in KNOWN else float("nan")
        print(f"| {n} | {shards:,} | {records[0]['side']} | {len(cpu)} | {mean:.3f} s "
              f"| {shown} | {100 * spread / mean:.0f}% | {per:.2f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

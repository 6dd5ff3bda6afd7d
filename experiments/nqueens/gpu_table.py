#!/usr/bin/env python3
"""Times whole N-queens counts on a GPU, side by side with another counter, in one sitting.

For each N, runs `chess-puzzles nqueens count N --device gpu --stats` and, when `--other` is
given, the other program's command (with `{n}` replaced by N), one after the other, `--runs`
times each in turn; checks every count against OEIS A000170 (the other program's last number
printed, when it prints one); prints a Markdown table of median wall times (whole process) and
their ratio, and the kernel times of our last run.

    python3 experiments/nqueens/gpu_table.py --bin target/release/chess-puzzles \\
        --n 19 20 21 22 --runs 3 --other '/opt/other/counter {n}'

The other counter is built outside this repository, by whoever runs this; nothing here builds
it. A run that takes longer than `--timeout` seconds is stopped and reported as such.
"""

import argparse
import re
import statistics
import subprocess
import sys
import time

# OEIS A000170.
KNOWN = {
    6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200, 13: 73712, 14: 365596,
    15: 2279184, 16: 14772512, 17: 95815104, 18: 666090624, 19: 4968057848,
    20: 39029188884, 21: 314666222712, 22: 2691008701644, 23: 24233937684440,
    24: 227514171973736, 25: 2207893435808352, 26: 22317699616364044,
    27: 234907967154122528,
}


def timed(command, timeout):
    """Runs `command` (a list, or a string for the shell); returns (seconds, stdout, stderr),
    or (None, '', why) when it failed or ran out of time."""
    began = time.monotonic()
    try:
        done = subprocess.run(command, shell=isinstance(command, str), capture_output=True,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, "", f"stopped after {timeout} s"
    took = time.monotonic() - began
    if done.returncode != 0:
        return None, done.stdout, f"exit {done.returncode}: {done.stderr.strip()[-300:]}"
    return took, done.stdout, done.stderr


def last_number(text):
    numbers = re.findall(r"\d+", text)
    return int(numbers[-1]) if numbers else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="target/release/chess-puzzles")
    parser.add_argument("--n", type=int, nargs="+", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--other", help="the other counter's command, {n} for N")
    parser.add_argument("--other-name", default="other")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    rows = []
    for n in args.n:
        ours, theirs, stats = [], [], ""
        for _ in range(args.runs):
            took, out, err = timed([args.bin, "nqueens", "count", str(n), "--device", "gpu",
                                    "--stats"], args.timeout)
            if took is None:
                sys.exit(f"N = {n}: chess-puzzles failed: {err}")
            if int(out.strip()) != KNOWN[n]:
                sys.exit(f"N = {n}: chess-puzzles counted {out.strip()}, not {KNOWN[n]}")
            ours.append(took)
            stats = err.strip()
            if args.other:
                took, out, err = timed(args.other.replace("{n}", str(n)), args.timeout)
                if took is None:
                    theirs.append(None)
                    print(f"N = {n}: {args.other_name}: {err}", file=sys.stderr)
                    continue
                number = last_number(out)
                if number is not None and number != KNOWN[n]:
                    print(f"N = {n}: {args.other_name} printed {number}, not {KNOWN[n]}",
                          file=sys.stderr)
                theirs.append(took)
        mine = statistics.median(ours)
        other = [t for t in theirs if t is not None]
        if other and len(other) == len(theirs):
            their = statistics.median(other)
            rows.append(f"| {n} | {mine:.2f} s | {their:.2f} s | {mine / their:.2f} |")
        elif args.other:
            rows.append(f"| {n} | {mine:.2f} s | (failed or stopped) | |")
        else:
            rows.append(f"| {n} | {mine:.2f} s | | |")
        print(f"N = {n}: {stats}", file=sys.stderr)
    print(f"| N | chess-puzzles --device gpu | {args.other_name} | ratio |")
    print("|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()

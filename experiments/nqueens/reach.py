#!/usr/bin/env python3
"""How far `chess-puzzles nqueens` answers quickly (standard library only).

    cargo build --release
    python3 experiments/nqueens/reach.py            # list --limit 1 and count with given queens
    python3 experiments/nqueens/reach.py --best     # best on random boards, weights 1..99

With given queens: for each side, 5 random sets of a quarter, a half and three quarters of the
queens of a known placement (the construction of Hoffman, Loessi and Moore, 1969, for sides
not 2 or 3 modulo 6), so a completion always exists. Prints the median and largest wall time
of the 5 runs; 99 stands for a run that did not finish within the limit.
"""
import random
import subprocess
import sys
import time

BIN = "target/release/chess-puzzles"
LIMIT = 10.0


def constructed(n):
    """The row (1-based) of the queen of each column of a placement, n % 6 not in (2, 3)."""
    rows = [0] * n
    for i in range(1, n // 2 + 1):
        rows[2 * i - 1] = i
        rows[2 * i - 2] = n // 2 + i
    return rows


def non_attacking(rows):
    n = len(rows)
    return (len(set(rows)) == n and len({r + c for c, r in enumerate(rows)}) == n
            and len({r - c for c, r in enumerate(rows)}) == n)


def timed(args, stdin=None, limit=LIMIT):
    start = time.time()
    try:
        p = subprocess.run(args, input=stdin, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return 99.0
    return time.time() - start if p.returncode == 0 else 99.0


def given(command):
    for n in [16, 24, 30, 40, 48, 64]:
        full = constructed(n)
        assert non_attacking(full), n
        cells = []
        for fraction in [0.25, 0.5, 0.75]:
            times = []
            for seed in range(5):
                rng = random.Random(seed * 100 + n)
                args = [BIN, "nqueens", command, str(n)]
                for c in rng.sample(range(n), int(n * fraction)):
                    args += ["--fix", f"{full[c]},{c + 1}"]
                args += ["--time-limit", str(LIMIT)] if command == "count" else ["--limit", "1"]
                times.append(timed(args))
            times.sort()
            cells.append(f"{int(fraction * 100)}%: median {times[2]:.2f} max {times[4]:.2f}")
        print(n, command, " | ".join(cells), flush=True)


def best():
    for n in [8, 16, 20, 24, 28, 32, 40]:
        times = []
        for seed in range(5):
            rng = random.Random(seed * 1000 + n)
            rows = (" ".join(str(rng.randint(1, 99)) for _ in range(n)) for _ in range(n))
            text = f"1\n{n}\n" + "\n".join(rows) + "\n"
            times.append(timed([BIN, "nqueens", "best", "--time-limit", "20"],
                               text.encode(), limit=25))
        times.sort()
        print(n, "best min %.2f median %.2f max %.2f" % (times[0], times[2], times[4]), flush=True)


if __name__ == "__main__":
    if "--best" in sys.argv:
        best()
    else:
        given("list")
        given("count")

#!/usr/bin/env python3
"""Proves the optimum of showdown tests with a MILP solver (HiGHS, through highspy).

Optional tooling, never run by `cargo test`. It installs nothing by itself; set it up with
    python3 -m venv /tmp/showdown-venv && /tmp/showdown-venv/bin/pip install highspy
and run, for example,
    /tmp/showdown-venv/bin/python benches/showdown/milp.py --time-limit 120 \
        benches/showdown/set/*.in > benches/showdown/optima.tsv
One line per test: file, test, side, kings, status, best cost found, proven lower bound.

The model is exact and written from the statement, independently of the Rust code:
  x[t,s] in {0,1}: piece t on empty square s; sum_t x[t,s] <= 1; o[s] = sum_t x[t,s].
  For a king k, each way (t, s) of checking it contributes to sum >= 1:
  - a leap or step: x[t,s] itself;
  - a slide from s with no king between: y <= x[t,s], y <= 1 - o[b] for each square b between;
  - a cannon with exactly one king between: the same, over the empty squares between;
  - a cannon with no king between (binary y): y <= x[t,s], y <= sum_b o[b],
    sum_b o[b] <= 1 + |B| (1 - y): exactly one of our pieces between.
  At least one piece in all (the statement's f >= 1). Minimise the sum of prices.
"""
import argparse
import sys
import time

import highspy

GOLD = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)]
SILVER = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)]
KNIGHT = [(a, b) for a in (-2, -1, 1, 2) for b in (-2, -1, 1, 2) if abs(a) != abs(b)]
ORTH = [(-1, 0), (1, 0), (0, -1), (0, 1)]
DIAG = [(-1, -1), (-1, 1), (1, -1), (1, 1)]
PHOENIX = ORTH + [(2 * a, 2 * b) for a, b in DIAG]
# type index (0-based, statement order) -> (leaps, slides, hops)
MOVES = [([], DIAG, []), ([], ORTH, []), (KNIGHT, [], []), (GOLD, [], []), (SILVER, [], []),
         (ORTH, DIAG, []), (PHOENIX, [], []), ([], [], ORTH)]


def read_tests(path):
    tokens = open(path).read().split()
    t = int(tokens[0])
    i = 1
    tests = []
    for _ in range(t):
        n = int(tokens[i]); i += 1
        rows = tokens[i:i + n]; i += n
        costs = list(map(int, tokens[i:i + 8])); i += 8
        tests.append((n, rows, costs))
    return tests


def solve(n, rows, costs, time_limit, threads):
    king = lambda r, c: rows[r][c] == "#"
    inside = lambda r, c: 0 <= r < n and 0 <= c < n
    empties = [(r, c) for r in range(n) for c in range(n) if not king(r, c)]
    kings = [(r, c) for r in range(n) for c in range(n) if king(r, c)]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("threads", threads)
    h.setOptionValue("mip_rel_gap", 0.0)
    inf = highspy.kHighsInf
    x = {}
    for s in empties:
        for t in range(8):
            x[t, s] = h.addVariable(0, 1, costs[t], type=highspy.HighsVarType.kInteger)
    occ = {s: [x[t, s] for t in range(8)] for s in empties}
    for s in empties:
        h.addRow(-inf, 1, 8, [x[t, s].index for t in range(8)], [1.0] * 8)
    h.addRow(1, inf, len(x), [v.index for v in x.values()], [1.0] * len(x))

    def occ_terms(squares, coef):
        idx, val = [], []
        for b in squares:
            for v in occ[b]:
                idx.append(v.index); val.append(coef)
        return idx, val

    for (kr, kc) in kings:
        cover = []
        for t, (leaps, slides, hops) in enumerate(MOVES):
            for dr, dc in leaps:
                s = (kr - dr, kc - dc)
                if inside(*s) and not king(*s):
                    cover.append(x[t, s].index)
            for dr, dc in slides:
                between = []
                r, c = kr - dr, kc - dc
                while inside(r, c) and not king(r, c):
                    y = h.addVariable(0, 1, 0)
                    h.addRow(-inf, 0, 2, [y.index, x[t, (r, c)].index], [1.0, -1.0])
                    for b in between:  # y + o[b] <= 1
                        idx, val = occ_terms([b], 1.0)
                        h.addRow(-inf, 1, len(idx) + 1, [y.index] + idx, [1.0] + val)
                    cover.append(y.index)
                    between.append((r, c))
                    r, c = r - dr, c - dc
            for dr, dc in hops:
                between = []
                kings_between = 0
                r, c = kr - dr, kc - dc
                while inside(r, c):
                    if king(r, c):
                        kings_between += 1
                        if kings_between == 2:
                            break
                    else:
                        s = (r, c)
                        if kings_between == 1:
                            y = h.addVariable(0, 1, 0)
                            h.addRow(-inf, 0, 2, [y.index, x[t, s].index], [1.0, -1.0])
                            for b in between:
                                idx, val = occ_terms([b], 1.0)
                                h.addRow(-inf, 1, len(idx) + 1, [y.index] + idx, [1.0] + val)
                            cover.append(y.index)
                        elif between:
                            y = h.addVariable(0, 1, 0, type=highspy.HighsVarType.kInteger)
                            h.addRow(-inf, 0, 2, [y.index, x[t, s].index], [1.0, -1.0])
                            idx, val = occ_terms(between, -1.0)  # y - sum o <= 0
                            h.addRow(-inf, 0, len(idx) + 1, [y.index] + idx, [1.0] + val)
                            m = len(between)  # sum o + m y <= 1 + m
                            idx, val = occ_terms(between, 1.0)
                            h.addRow(-inf, 1 + m, len(idx) + 1, [y.index] + idx, [float(m)] + val)
                            cover.append(y.index)
                        between.append(s)
                    r, c = r - dr, c - dc
        h.addRow(1, inf, len(cover), cover, [1.0] * len(cover))
    start = time.time()
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    best = info.objective_function_value
    bound = info.mip_dual_bound
    return status, best, bound, time.time() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per test")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    print("file\ttest\tside\tkings\tstatus\tbest\tbound\tseconds")
    for path in args.files:
        for i, (n, rows, costs) in enumerate(read_tests(path), 1):
            status, best, bound, secs = solve(n, rows, costs, args.time_limit, args.threads)
            kings = sum(row.count("#") for row in rows)
            print(f"{path.split('/')[-1]}\t{i}\t{n}\t{kings}\t{status}\t{best:.0f}\t{bound:.3f}\t{secs:.1f}", flush=True)


if __name__ == "__main__":
    main()

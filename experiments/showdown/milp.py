#!/usr/bin/env python3
"""Proves the optimum of showdown tests with a MILP solver (HiGHS, through highspy).

Optional tooling, never run by `cargo test`. It installs nothing by itself; set it up with
    python3 -m venv /tmp/showdown-venv
    /tmp/showdown-venv/bin/pip install -r experiments/requirements.txt
and run, for example,
    /tmp/showdown-venv/bin/python experiments/showdown/milp.py --time-limit 120 \
        experiments/showdown/set/*.in > experiments/showdown/optima.tsv
One line per test: file, test, side, kings, status, best cost found, proven lower bound.

The models are written from the statement, independently of the Rust code:
  x[t,s] in {0,1}: piece t on empty square s; sum_t x[t,s] <= 1; o[s] = sum_t x[t,s];
  at least one piece in all (the statement's f >= 1); minimise the sum of prices; for a king,
  the ways of checking it sum to >= 1:
  - a leap or step: x[t,s] itself;
  - exact (the default): per king and line, a chain e[1..] with e[j] <= e[j-1] and
    e[j] + o[s_j] <= 1 (1 only while the line is free of our pieces up to j); a slider on
    s_j checks when it is the first piece: y <= sum of the sliders' x on s_j,
    y <= e[j-1] - e[j]; a cannon beyond the first king continues the chain past it;
  - pairs (the first model, slower): a slide from s with no king between: y <= x[t,s],
    y <= 1 - o[b] for each square b between; a cannon with exactly one king between: the
    same over the empty squares between;
  - in both, a cannon with no king between (binary w): w <= x[t,s], w <= sum_b o[b],
    sum_b o[b] <= 1 + |B| (1 - w): exactly one of our pieces between.
  - paths: instead of chains per king, one path of flow per line of the board through the
    states that decide its checks (solve_paths); the same optima, a slightly higher LP;
  cover drops the blocking (a relaxation: its optimum or dual bound is a lower bound only);
  lp, exact-lp and paths-lp solve the LP relaxations.
With --start, each test starts from an answer (ours), so the MILP only has to prove it or
beat it; --answers writes the incumbents, which `chess-puzzles showdown check` verifies.
"""
import argparse
import os
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


def read_answers(path):
    """The answers of a judge-format output file: per test, a list of (type, row, column)."""
    tokens = list(map(int, open(path).read().split()))
    out, i = [], 0
    while i < len(tokens):
        f = tokens[i]
        out.append([tuple(tokens[i + 2 + 3 * j:i + 5 + 3 * j]) for j in range(f)])
        i += 2 + 3 * f
    return out


def base_model(n, rows, costs, time_limit, threads, lp):
    """What every model shares: a HiGHS instance, x[t, s] per kind and empty square (binary,
    or continuous for an LP), at most one piece per square, at least one piece in all.
    Returns (h, x, king, kings): king(r, c) tells a king's square, kings lists them."""
    king = lambda r, c: rows[r][c] == "#"
    empties = [(r, c) for r in range(n) for c in range(n) if not king(r, c)]
    kings = [(r, c) for r in range(n) for c in range(n) if king(r, c)]
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("time_limit", float(time_limit))
    h.setOptionValue("threads", threads)
    h.setOptionValue("mip_rel_gap", 0.0)
    kind = highspy.HighsVarType.kContinuous if lp else highspy.HighsVarType.kInteger
    x = {}
    for s in empties:
        for t in range(8):
            x[t, s] = h.addVariable(0, 1, costs[t], type=kind)
    for s in empties:
        h.addRow(-highspy.kHighsInf, 1, 8, [x[t, s].index for t in range(8)], [1.0] * 8)
    h.addRow(1, highspy.kHighsInf, len(x), [v.index for v in x.values()], [1.0] * len(x))
    return h, x, king, kings


def solve(n, rows, costs, time_limit, threads, model="exact", start=None):
    if model == "cover":
        return solve_cover(n, rows, costs, time_limit, threads)
    if model in ("exact", "exact-lp"):
        return solve_chain(n, rows, costs, time_limit, threads, model == "exact-lp", start)
    if model in ("paths", "paths-lp"):
        return solve_paths(n, rows, costs, time_limit, threads, model == "paths-lp")
    h, x, king, kings = base_model(n, rows, costs, time_limit, threads, model == "lp")
    inside = lambda r, c: 0 <= r < n and 0 <= c < n
    inf = highspy.kHighsInf
    kind = highspy.HighsVarType.kContinuous if model == "lp" else highspy.HighsVarType.kInteger
    occ = {}  # empty square -> its x
    for (_, s), v in x.items():
        occ.setdefault(s, []).append(v)

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
                            y = h.addVariable(0, 1, 0, type=kind)
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
    return run(h, x, model == "lp")


def solve_chain(n, rows, costs, time_limit, threads, lp, start):
    """The exact model with a chain per king and direction, O(n) rows each.

    Walking out from a king along a line, e[j] may be 1 only while the squares 1..j of the
    line hold none of our pieces (e[j] <= e[j-1], e[j] + o[j] <= 1). A slider on square j
    checks the king only if it is the first piece of the line: y[j] <= sum of the sliders'
    x on j, y[j] <= e[j-1] - e[j]. A cannon beyond the first king of the line continues the
    chain past that king the same way. A cannon whose screen is one of our pieces keeps the
    binary form: w <= x, w <= sum o between, sum o between + m w <= 1 + m.
    """
    h, x, king, kings = base_model(n, rows, costs, time_limit, threads, lp)
    inside = lambda r, c: 0 <= r < n and 0 <= c < n
    inf = highspy.kHighsInf
    kind = highspy.HighsVarType.kContinuous if lp else highspy.HighsVarType.kInteger
    occ = {}  # empty square -> the indices of its x
    for (_, s), v in x.items():
        occ.setdefault(s, []).append(v.index)
    sliders = {}
    for t, (_, slides, hops) in enumerate(MOVES):
        for d in slides:
            sliders.setdefault(d, []).append(t)
    cannon = 7

    def chain(line, prev, cover, kinds):
        """Chains e along `line` from `prev` (None: 1); the pieces of `kinds` on a square of
        the line check the king when first. Returns the last e (None when the line is empty)."""
        for s in line:
            e = h.addVariable(0, 1, 0)
            if prev is not None:
                h.addRow(-inf, 0, 2, [e.index, prev.index], [1.0, -1.0])
            h.addRow(-inf, 1, 9, [e.index] + occ[s], [1.0] * 9)
            if kinds:
                y = h.addVariable(0, 1, 0)
                idx = [x[t, s].index for t in kinds]
                h.addRow(-inf, 0, len(idx) + 1, [y.index] + idx, [1.0] + [-1.0] * len(idx))
                if prev is None:  # y + e <= 1
                    h.addRow(-inf, 1, 2, [y.index, e.index], [1.0, 1.0])
                else:  # y - prev + e <= 0
                    h.addRow(-inf, 0, 3, [y.index, prev.index, e.index], [1.0, -1.0, 1.0])
                cover.append(y.index)
            prev = e
        return prev

    for (kr, kc) in kings:
        cover = []
        for t, (leaps, _, _) in enumerate(MOVES):
            for dr, dc in leaps:
                s = (kr - dr, kc - dc)
                if inside(*s) and not king(*s):
                    cover.append(x[t, s].index)
        for dr, dc in ORTH + DIAG:
            line, beyond = [], []
            r, c = kr - dr, kc - dc
            while inside(r, c) and not king(r, c):
                line.append((r, c))
                r, c = r - dr, c - dc
            screen_king = inside(r, c)
            if screen_king:
                r, c = r - dr, c - dc
                while inside(r, c) and not king(r, c):
                    beyond.append((r, c))
                    r, c = r - dr, c - dc
            hops = (dr, dc) in ORTH
            if not sliders.get((dr, dc)) and not (hops and beyond):
                continue  # nothing on this line can check the king
            last = chain(line, None, cover, sliders.get((dr, dc), []))
            if hops and beyond:
                chain(beyond, last, cover, [cannon])
            if hops:
                for j in range(1, len(line)):
                    s, between = line[j], line[:j]
                    w = h.addVariable(0, 1, 0, type=kind)
                    h.addRow(-inf, 0, 2, [w.index, x[cannon, s].index], [1.0, -1.0])
                    idx = [i for b in between for i in occ[b]]
                    h.addRow(-inf, 0, len(idx) + 1, [w.index] + idx, [1.0] + [-1.0] * len(idx))
                    m = len(between)
                    h.addRow(-inf, 1 + m, len(idx) + 1, [w.index] + idx, [float(m)] + [1.0] * len(idx))
                    cover.append(w.index)
        h.addRow(1, inf, len(cover), cover, [1.0] * len(cover))
    if start and not lp:
        chosen = set((t - 1, (r - 1, c - 1)) for t, r, c in start)
        idx = [v.index for v in x.values()]
        val = [1.0 if key in chosen else 0.0 for key in x]
        h.setSolution(len(idx), idx, val)
    return run(h, x, lp)


def solve_paths(n, rows, costs, time_limit, threads, lp):
    """The exact model with a path per line of the board instead of chains per king.

    Each line (row, column, diagonal) is walked from one end to the other; what it holds so
    far matters only through the kinds of its last two things (kings included): the last is
    a king, a slider along the line (the rook on rows and columns, the bishop and the horse
    on diagonals), a cannon (rows and columns), another piece or nothing, the one before it
    a king, a cannon or anything else. A continuous arc per (square, state, choice: no piece
    or a class of pieces) carries one unit of flow from the line's first square to its last;
    the arcs of a class on a square sum to the x of its kinds there. The checks are read off
    the arcs: a king reached right after a slider, or two things after a cannon, is checked
    from behind; a slider right after a king, or a cannon two things after one, checks it
    from the other side. Leaps and steps are x themselves. With the x integer the flows are
    too; each line's LP is the convex hull of its placements and their checks, so this LP is
    at least the chains' (exact-lp).
    """
    h, x, king, kings = base_model(n, rows, costs, time_limit, threads, lp)
    inf = highspy.kHighsInf
    checks = {k: [] for k in kings}
    for (kr, kc) in kings:
        for t, (leaps, _, _) in enumerate(MOVES):
            for dr, dc in leaps:
                s = (kr - dr, kc - dc)
                if 0 <= s[0] < n and 0 <= s[1] < n and not king(*s):
                    checks[kr, kc].append(x[t, s].index)
    lines = [([(r, c) for c in range(n)], True) for r in range(n)]
    lines += [([(r, c) for r in range(n)], True) for c in range(n)]
    for d in range(-(n - 1), n):
        lines.append(([(r, r - d) for r in range(n) if 0 <= r - d < n], False))
        lines.append(([(r, d + n - 1 - r) for r in range(n) if 0 <= d + n - 1 - r < n], False))
    for squares, ortho in lines:
        classes = {"S": [1], "C": [7], "O": [0, 2, 3, 4, 5, 6]} if ortho else \
            {"S": [0, 5], "O": [1, 2, 3, 4, 6, 7]}
        behind = {"N": "N", "K": "K", "C": "C", "S": "X", "O": "X"}
        inflow = {("N", "N"): None}  # state -> the arcs into it (None: the source)
        last_king = second_king = None
        for r, c in squares:
            here = {}  # class -> the arcs choosing it on this square
            into = {}
            for (a, b), arcs_in in inflow.items():
                out = []
                for choice in (["K"] if king(r, c) else ["-"] + list(classes)):
                    target = None
                    if choice == "-":
                        state = (a, b)
                    else:
                        state = (behind[b] if ortho else "N", choice)
                        if choice == "K" and (b == "S" or a == "C"):
                            target = (r, c)
                        elif choice == "S" and b == "K":
                            target = last_king
                        elif choice == "C" and a == "K":
                            target = second_king if b == "K" else last_king
                    arc = h.addVariable(0, 1, 0)
                    out.append(arc.index)
                    into.setdefault(state, []).append(arc.index)
                    here.setdefault(choice, []).append(arc.index)
                    if target is not None:
                        checks[target].append(arc.index)
                if arcs_in is None:
                    h.addRow(1, 1, len(out), out, [1.0] * len(out))
                else:
                    h.addRow(0, 0, len(out) + len(arcs_in), out + arcs_in,
                             [1.0] * len(out) + [-1.0] * len(arcs_in))
            if king(r, c):
                second_king, last_king = last_king, (r, c)
            else:
                for choice, kinds in classes.items():
                    idx = here[choice] + [x[t, (r, c)].index for t in kinds]
                    h.addRow(0, 0, len(idx), idx, [1.0] * len(here[choice]) + [-1.0] * len(kinds))
            inflow = into
    for k in kings:
        h.addRow(1, inf, len(checks[k]), checks[k], [1.0] * len(checks[k]))
    return run(h, x, lp)


def run(h, x, lp=False):
    start = time.time()
    h.run()
    status = h.modelStatusToString(h.getModelStatus())
    info = h.getInfo()
    best = info.objective_function_value
    pieces = []
    if not lp and info.primal_solution_status == 2:  # a feasible incumbent
        values = h.getSolution().col_value
        pieces = [(t + 1, r + 1, c + 1) for (t, (r, c)), v in x.items() if values[v.index] > 0.5]
    bound = best if lp and status == "Optimal" else info.mip_dual_bound
    if lp:
        best = float("nan")  # an LP value is a bound, not an answer
        status = "LP " + status
    return status, best, bound, time.time() - start, pieces


def solve_cover(n, rows, costs, time_limit, threads):
    """The covering relaxation as a MILP: its optimum, or its dual bound, bounds every answer.

    Every way a king can be checked on SOME final board (leaps; slides with no king between;
    cannons with one king between, or none and one of our pieces between) may cover it;
    blocking is ignored. A cannon's hop direction covers at most one king, and a cannon
    without a king between needs one of our pieces between.
    """
    h, x, king, kings = base_model(n, rows, costs, time_limit, threads, False)
    inside = lambda r, c: 0 <= r < n and 0 <= c < n
    inf = highspy.kHighsInf
    hop_group = {}  # (cannon square, direction) -> the z variables of the kings it may check
    for (kr, kc) in kings:
        cover = []
        for t, (leaps, slides, hops) in enumerate(MOVES):
            for dr, dc in leaps:
                s = (kr - dr, kc - dc)
                if inside(*s) and not king(*s):
                    cover.append(x[t, s].index)
            for dr, dc in slides:
                r, c = kr - dr, kc - dc
                while inside(r, c) and not king(r, c):
                    cover.append(x[t, (r, c)].index)
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
                        if kings_between == 1 or between:
                            z = h.addVariable(0, 1, 0)
                            hop_group.setdefault((s, dr, dc), []).append(z.index)
                            if kings_between == 0:  # z <= sum of our pieces between
                                idx = [x[u, b].index for b in between for u in range(8)]
                                h.addRow(-inf, 0, len(idx) + 1, [z.index] + idx, [1.0] + [-1.0] * len(idx))
                            cover.append(z.index)
                        between.append(s)
                    r, c = r - dr, c - dc
        h.addRow(1, inf, len(cover), cover, [1.0] * len(cover))
    for (s, _, _), zs in hop_group.items():  # sum z <= x[cannon, s]
        h.addRow(-inf, 0, len(zs) + 1, zs + [x[7, s].index], [1.0] * len(zs) + [-1.0])
    status, best, bound, secs, pieces = run(h, x)
    # The relaxation's optimum is a lower bound of the real one, not an answer.
    return "cover " + status, float("nan"), bound, secs, []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per test")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--tests", help="only these tests, numbered 1.. across all the files in order: A-B")
    ap.add_argument("--only", help="only these tests: NAME:TEST,NAME:TEST,... (NAME the file's name)")
    ap.add_argument("--no-header", action="store_true")
    ap.add_argument("--model", choices=["exact", "exact-lp", "paths", "paths-lp", "pairs", "cover", "lp"], default="exact",
                    help="exact: the statement's rules with a chain per line (optima); exact-lp: its LP "
                         "relaxation (a bound); pairs: the first exact model, one row per blocking pair "
                         "(slower, kept to cross-check); lp: its LP relaxation; paths: the statement's rules "
                         "with a path per line of the board (tried as a stronger model; paths-lp its "
                         "LP relaxation); cover: the covering "
                         "relaxation as a MILP (a lower bound only)")
    ap.add_argument("--start", help="answers in the judge's format for the same tests, in order "
                                    "(one file per input file: INPUT.out beside each input, or this "
                                    "directory holding NAME.out): the MILP starts from them")
    ap.add_argument("--answers", help="write the incumbents in the judge's output format to this file")
    args = ap.parse_args()
    answers = open(args.answers, "w") if args.answers else None
    lo, hi = 1, float("inf")
    if args.tests:
        a, b = args.tests.split("-")
        lo, hi = int(a), int(b)
    if not args.no_header:
        print("file\ttest\tside\tkings\tstatus\tbest\tbound\tseconds")
    number = 0
    for path in args.files:
        starts = read_answers(os.path.join(args.start, os.path.basename(path) + ".out")) if args.start else None
        for i, (n, rows, costs) in enumerate(read_tests(path), 1):
            number += 1
            if not lo <= number <= hi:
                continue
            if args.only and f"{os.path.basename(path)}:{i}" not in args.only.split(","):
                continue
            status, best, bound, secs, pieces = solve(n, rows, costs, args.time_limit, args.threads, args.model,
                                                  starts[i - 1] if starts else None)
            kings = sum(row.count("#") for row in rows)
            if answers:
                cost = sum(costs[t - 1] for t, _, _ in pieces)
                answers.write(f"{len(pieces)} {cost}\n" + "".join(f"{t} {r} {c}\n" for t, r, c in pieces))
                answers.flush()
            print(f"{path.split('/')[-1]}\t{i}\t{n}\t{kings}\t{status}\t{best:.0f}\t{bound:.3f}\t{secs:.1f}", flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compares the optimiser's answers with the proven optima and lower bounds (standard library).

    cargo build --release
    python3 benches/showdown/compare.py --optima benches/showdown/optima.tsv \
        [--solver-args "--time-limit 10"] benches/showdown/set/*.in

Runs `chess-puzzles showdown --format json` on each file (and `--greedy` for the baseline if
asked), and prints per file: the total score (sum of cost / n^2) of the optimiser, of the
plain greedy, of the best lower bound known, and of the proven optima where every test of the
file has one, with the number of tests equal to the optimum.
"""
import argparse
import json
import subprocess
import time

BIN = "target/release/chess-puzzles"


def run(path, extra):
    start = time.time()
    out = subprocess.run([BIN, "showdown", "--format", "json", *extra, path],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()], time.time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--optima", help="TSV written by milp.py")
    ap.add_argument("--solver-args", default="")
    ap.add_argument("--greedy", action="store_true", help="also run the plain greedy")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--per-test", help="write one line per test to this TSV file")
    args = ap.parse_args()
    rows = []
    optima = {}
    if args.optima:
        for line in open(args.optima):
            f = line.rstrip("\n").split("\t")
            if f[0] == "file":
                continue
            best = int(float(f[5])) if f[5] not in ("inf", "nan") else None
            optima[f[0], int(f[1])] = (f[4] == "Optimal", best, float(f[6]))
    tot = {"ours": 0.0, "greedy": 0.0, "lb": 0.0, "opt": 0.0}
    equal = comparable = 0
    proven_ours = proven_opt = 0.0
    opt_files = 0
    print("file\tours\tgreedy\tbound\toptimum\tequal/proven\tseconds")
    for path in args.files:
        name = path.split("/")[-1]
        ours, secs = run(path, args.solver_args.split())
        greedy = run(path, ["--greedy"])[0] if args.greedy else None
        s_ours = sum(c["score"] for c in ours)
        s_greedy = sum(c["score"] for c in greedy) if greedy else float("nan")
        s_lb = 0.0
        s_opt = 0.0
        all_proven = True
        eq = proven = 0
        for j, c in enumerate(ours):
            n2 = c["side"] ** 2
            key = (name, c["case"])
            lb = c["lower_bound"]
            milp = optima.get(key, (False, None, float("nan")))
            rows.append((name, c["case"], c["side"], c["kings"], c["cost"],
                         greedy[j]["cost"] if greedy else "", c["lower_bound"],
                         "Optimal" if milp[0] else "-", milp[1] if milp[1] is not None else "", milp[2]))
            if key in optima:
                ok, best, bound = optima[key]
                lb = max(lb, int(-(-bound // 1)) if bound > 0 else 0)
                if ok:
                    proven += 1
                    s_opt += best / n2
                    proven_ours += c["cost"] / n2
                    proven_opt += best / n2
                    lb = max(lb, best)
                    if c["cost"] == best:
                        eq += 1
                    elif args.verbose:
                        print(f"  {name} test {c['case']}: n={c['side']} kings={c['kings']} ours {c['cost']} optimum {best} (+{100 * (c['cost'] - best) / best:.2f}%)")
                else:
                    all_proven = False
            else:
                all_proven = False
            if c["optimal"] and c["cost"] == lb:
                pass
            s_lb += lb / n2
        equal += eq
        comparable += proven
        tot["ours"] += s_ours
        tot["greedy"] += s_greedy
        tot["lb"] += s_lb
        opt_text = f"{s_opt:.3f}" if all_proven else "-"
        if all_proven:
            opt_files += 1
            tot["opt"] += s_opt
        print(f"{name}\t{s_ours:.3f}\t{s_greedy:.3f}\t{s_lb:.3f}\t{opt_text}\t{eq}/{proven}\t{secs:.2f}")
    if args.per_test:
        with open(args.per_test, "w") as fh:
            fh.write("file\ttest\tside\tkings\tours\tgreedy\tour_bound\tmilp_status\tmilp_best\tmilp_bound\n")
            for r in rows:
                fh.write("\t".join(map(str, r)) + "\n")
    print(f"TOTAL\t{tot['ours']:.3f}\t{tot['greedy']:.3f}\t{tot['lb']:.3f}\t-\t{equal}/{comparable}")
    print(f"ours vs bound: +{100 * (tot['ours'] / tot['lb'] - 1):.3f}%")
    if proven_opt:
        print(f"on the {comparable} tests with a proven optimum: ours {proven_ours:.3f} vs optimum {proven_opt:.3f}: +{100 * (proven_ours / proven_opt - 1):.3f}%")
    if args.greedy:
        print(f"greedy vs bound: +{100 * (tot['greedy'] / tot['lb'] - 1):.3f}%")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compares the optimiser's answers with the optima, lower bounds and best answers known (standard library).

    cargo build --release
    python3 experiments/showdown/compare.py --greedy \
        --optima experiments/showdown/optima.tsv --optima experiments/showdown/optima-hard.tsv \
        --best experiments/showdown/best experiments/showdown/set/*.in

Runs `chess-puzzles showdown --format json` on each file (and `--greedy` for the baseline if
asked) and prints per file the total score (sum of cost / n^2) of the optimiser, of the plain
greedy, of the best lower bound known and of the best answer known, with the number of tests
whose optimum is proven and how many of them the optimiser's answer equals.

Per test:
- proven optimum: a MILP line with status Optimal (--optima), the optimiser's own proof (its
  answer meets its lower bound, or its exact search finished), or a best answer known (--best,
  judged valid by tests/showdown/experiment_data.rs) that costs the best lower bound; where two
  exist they must agree, else the script says so;
- best lower bound: the largest of the optimiser's bound and the MILP dual bounds, rounded up
  (costs are integers); the optimum where proven;
- best answer known: the cheapest of this run's answer, the MILP incumbents (--optima) and the
  answer in DIR/NAME.out (--best, the judge's format: check it with `chess-puzzles showdown
  check`); with --update-best, DIR/NAME.out is rewritten with every test's cheapest answer
  among this run's and the file's.
"""
import argparse
import json
import math
import os
import subprocess
import time

BIN = "target/release/chess-puzzles"


def run(binary, path, extra):
    start = time.time()
    out = subprocess.run([binary, "showdown", "--format", "json", *extra, path],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()], time.time() - start


def read_optima(paths):
    """(file, test) -> (proven, best cost or None, bound), merged over the TSV files of milp.py."""
    optima = {}
    for path in paths:
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if f[0] == "file":
                continue
            # A relaxation's line (status "cover ..." or "LP ...") gives a bound only.
            relaxed = f[4].startswith(("cover", "LP"))
            best = int(float(f[5])) if f[5] not in ("inf", "nan") and not relaxed else None
            proven = f[4] == "Optimal"
            bound = float(f[6]) if f[6] not in ("inf", "-inf", "nan") else 0.0
            old = optima.get((f[0], int(f[1])))
            if old:
                best = min((b for b in (best, old[1]) if b is not None), default=None)
                proven = proven or old[0]
                bound = max(bound, old[2])
            if proven:
                bound = best
            optima[f[0], int(f[1])] = (proven, best, bound)
    return optima


def read_answers(path):
    """The answers of a judge-format output file: a list of (cost, text of the answer)."""
    if not os.path.exists(path):
        return []
    tokens = open(path).read().split()
    answers = []
    i = 0
    while i + 1 < len(tokens):
        count, cost = int(tokens[i]), int(tokens[i + 1])
        body = tokens[i + 2:i + 2 + 3 * count]
        lines = [f"{count} {cost}"] + [" ".join(body[k:k + 3]) for k in range(0, len(body), 3)]
        answers.append((cost, "\n".join(lines) + "\n"))
        i += 2 + 3 * count
    return answers


def judge_text(case):
    return f"{len(case['pieces'])} {case['cost']}\n" + "".join(
        f"{p['type']} {p['row']} {p['col']}\n" for p in case["pieces"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--optima", action="append", default=[],
                    help="TSV written by milp.py (may be given again: the files are merged, a "
                         "test is proven when one of them proves it, its bound is the largest, "
                         "its best answer the cheapest; a relaxation's line counts as a bound only)")
    ap.add_argument("--best", help="directory of the best answers known, DIR/NAME.out per input")
    ap.add_argument("--update-best", action="store_true",
                    help="write this run's answers into --best where they are cheaper")
    ap.add_argument("--solver-args", default="")
    ap.add_argument("--bin", default=BIN, help="the chess-puzzles binary to measure (default: %(default)s)")
    ap.add_argument("--greedy", action="store_true", help="also run the plain greedy")
    ap.add_argument("--answers", help="write the optimiser's answers in the judge's format to "
                                      "DIR/NAME.out, one file per input")
    ap.add_argument("--verbose", action="store_true", help="name the tests above the proven optimum")
    ap.add_argument("--per-test", help="write one line per test to this TSV file")
    args = ap.parse_args()
    optima = read_optima(args.optima)
    rows = []
    tot = {"ours": 0.0, "greedy": 0.0, "lb": 0.0, "best": 0.0}
    proven_ours = proven_opt = 0.0
    n_tests = n_proven = n_equal = n_best = 0
    print("file\tours\tgreedy\tbound\tbest known\tequal/proven\tseconds")
    for path in args.files:
        name = os.path.basename(path)
        ours, secs = run(args.bin, path, args.solver_args.split())
        greedy = run(args.bin, path, ["--greedy"])[0] if args.greedy else None
        if args.answers:
            with open(os.path.join(args.answers, name + ".out"), "w") as fh:
                fh.writelines(judge_text(c) for c in ours)
        best_path = os.path.join(args.best, name + ".out") if args.best else None
        known = read_answers(best_path) if best_path else []
        if known and len(known) != len(ours):
            raise SystemExit(f"{best_path}: {len(known)} answers for {len(ours)} tests")
        s = {"ours": 0.0, "greedy": 0.0, "lb": 0.0, "best": 0.0}
        eq = proven = 0
        for j, c in enumerate(ours):
            n2 = c["side"] ** 2
            key = (name, c["case"])
            milp_ok, milp_best, milp_bound = optima.get(key, (False, None, 0.0))
            lb = max(c["lower_bound"], math.ceil(milp_bound - 1e-6) if milp_bound > 0 else 0)
            if c["optimal"]:
                if milp_ok and milp_best != c["cost"]:
                    print(f"  DISAGREE {name} test {c['case']}: ours proven {c['cost']}, MILP optimum {milp_best}")
                lb = max(lb, c["cost"])
            if milp_ok:
                lb = max(lb, milp_best)
            best = min(b for b in (c["cost"], milp_best, known[j][0] if known else None) if b is not None)
            if best < lb:
                print(f"  INVALID {name} test {c['case']}: an answer of cost {best} below the bound {lb}")
            # A known answer at the certified bound proves it too (answer from one run, bound
            # from another).
            met = bool(known) and known[j][0] == lb
            if milp_ok or c["optimal"] or met:
                proven += 1
                proven_ours += c["cost"] / n2
                proven_opt += lb / n2
                if c["cost"] == lb:
                    eq += 1
                elif args.verbose:
                    print(f"  {name} test {c['case']}: n={c['side']} kings={c['kings']} ours {c['cost']} "
                          f"optimum {lb} (+{100 * (c['cost'] - lb) / lb:.2f}%)")
            n_best += c["cost"] == best
            if known and c["cost"] < known[j][0]:
                known[j] = (c["cost"], judge_text(c))
            s["ours"] += c["score"]
            s["greedy"] += greedy[j]["score"] if greedy else float("nan")
            s["lb"] += lb / n2
            s["best"] += best / n2
            rows.append((name, c["case"], c["side"], c["kings"], c["cost"],
                         greedy[j]["cost"] if greedy else "", c["lower_bound"], int(c["optimal"]),
                         "Optimal" if milp_ok else "-", milp_best if milp_best is not None else "",
                         f"{milp_bound:.3f}", lb, best))
        if best_path and args.update_best:
            known = known or [(c["cost"], judge_text(c)) for c in ours]
            with open(best_path, "w") as fh:
                fh.writelines(text for _, text in known)
        n_tests += len(ours)
        n_equal += eq
        n_proven += proven
        for k in tot:
            tot[k] += s[k]
        print(f"{name}\t{s['ours']:.3f}\t{s['greedy']:.3f}\t{s['lb']:.3f}\t{s['best']:.3f}\t{eq}/{proven}\t{secs:.2f}")
    if args.per_test:
        with open(args.per_test, "w") as fh:
            fh.write("file\ttest\tside\tkings\tours\tgreedy\tour_bound\tour_proof\tmilp_status\tmilp_best"
                     "\tmilp_bound\tbound\tbest_known\n")
            for r in rows:
                fh.write("\t".join(map(str, r)) + "\n")
    print(f"TOTAL\t{tot['ours']:.3f}\t{tot['greedy']:.3f}\t{tot['lb']:.3f}\t{tot['best']:.3f}\t{n_equal}/{n_proven}")
    print(f"ours vs best bound: +{100 * (tot['ours'] / tot['lb'] - 1):.3f}%; "
          f"best known vs best bound: +{100 * (tot['best'] / tot['lb'] - 1):.3f}%")
    print(f"ours vs best known: +{100 * (tot['ours'] / tot['best'] - 1):.3f}% "
          f"(equal on {n_best} of {n_tests} tests)")
    if proven_opt:
        print(f"on the {n_proven} tests with a proven optimum: ours {proven_ours:.3f} vs optimum "
              f"{proven_opt:.3f}: +{100 * (proven_ours / proven_opt - 1):.4f}%, equal on {n_equal}")
    if args.greedy:
        print(f"greedy vs best bound: +{100 * (tot['greedy'] / tot['lb'] - 1):.3f}%; "
              f"vs best known: +{100 * (tot['greedy'] / tot['best'] - 1):.3f}%")


if __name__ == "__main__":
    main()

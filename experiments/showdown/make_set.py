#!/usr/bin/env python3
"""Writes the seeded benchmark files of the showdown optimiser (standard library only).

Each file has the statement's shape: 15 tests, side n uniform in 2..25, king density uniform
in 5%..85%, and one of four cost models per test, in turn:
  equal   - all eight prices the same (random in 1..1000);
  skewed  - small and skewed prices: 1 + floor(9 * u^3) for u uniform in [0, 1);
  uniform - uniform in 1..10^6;
  cheap   - one random piece far cheaper (1..10) than the rest (10^4..10^6).
A king without an empty neighbour gets one neighbour emptied (the statement guarantees one).

    python3 experiments/showdown/make_set.py --seed 1 --files 8 --out experiments/showdown/set

With --dense, the set of the dense boards where the search found the last percent hardest:
side uniform in 18..25, king density uniform in 60%..85% (about 75% kings once every king
has an empty neighbour), and every test one cheap piece: one random piece at 1..1000, the
others uniform in 10^5..10^6.

    python3 experiments/showdown/make_set.py --dense --seed 1 --files 2 --out experiments/showdown/dense
"""
import argparse
import os
import random

MODELS = ["equal", "skewed", "uniform", "cheap"]


def costs(rng, model):
    if model == "equal":
        return [rng.randint(1, 1000)] * 8
    if model == "skewed":
        return [1 + int(9 * rng.random() ** 3) for _ in range(8)]
    if model == "uniform":
        return [rng.randint(1, 10**6) for _ in range(8)]
    if model == "dense-cheap":
        cheap = rng.randrange(8)
        return [rng.randint(1, 1000) if i == cheap else rng.randint(10**5, 10**6) for i in range(8)]
    cheap = rng.randrange(8)
    return [rng.randint(1, 10) if i == cheap else rng.randint(10**4, 10**6) for i in range(8)]


def board(rng, n, density):
    kings = [[rng.random() < density for _ in range(n)] for _ in range(n)]
    for r in range(n):
        for c in range(n):
            if not kings[r][c]:
                continue
            around = [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and 0 <= r + dr < n and 0 <= c + dc < n]
            if all(kings[a][b] for a, b in around):
                a, b = rng.choice(around)
                kings[a][b] = False
    return ["".join("#" if k else "_" for k in row) for row in kings]


def test_file(rng, tests, first_model, side=None, dense=False):
    out = [str(tests)]
    for i in range(tests):
        if dense:
            n = side or rng.randint(18, 25)
            density = rng.uniform(0.60, 0.85)
            model = "dense-cheap"
        else:
            n = side or rng.randint(2, 25)
            density = rng.uniform(0.05, 0.85)
            model = MODELS[(first_model + i) % 4]
        out.append(str(n))
        out.extend(board(rng, n, density))
        out.append(" ".join(map(str, costs(rng, model))))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--files", type=int, default=8)
    ap.add_argument("--tests", type=int, default=15)
    ap.add_argument("--out", default="experiments/showdown/set")
    ap.add_argument("--side", type=int, help="every board of this side (default: random 2..25)")
    ap.add_argument("--dense", action="store_true",
                    help="dense boards of side 18..25, one cheap piece (see above); files denseSEED_NN.in")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for f in range(args.files):
        rng = random.Random(f"showdown-{'dense-' if args.dense else ''}{args.seed}-{f}")
        prefix = f"side{args.side}_" if args.side else "dense" if args.dense else "set"
        path = os.path.join(args.out, f"{prefix}{args.seed}_{f:02}.in")
        with open(path, "w") as fh:
            fh.write(test_file(rng, args.tests, f % 4, args.side, args.dense))
        print(path)


if __name__ == "__main__":
    main()

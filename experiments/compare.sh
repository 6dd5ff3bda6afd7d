#!/usr/bin/env bash
# Whole-process, side-by-side timing of chess-puzzles against the plain C baselines of
# experiments/baselines/ on the issue's inputs. Needs a C compiler; uses hyperfine when installed
# (apt install hyperfine), else /usr/bin/time over five runs each.
#   usage: experiments/compare.sh [queens|sultan]...   (default: both)
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
bin=target/release/chess-puzzles
for puzzle in "${@:-queens sultan}"; do
  for p in $puzzle; do
    cc -O2 -o "$work/$p-c" "experiments/baselines/$p.c"
    "$bin" "$p" gen --kind large --seed 1 > "$work/$p.in"
    # Both must print the same bytes before their times mean anything.
    cmp <("$bin" "$p" "$work/$p.in") <("$work/$p-c" < "$work/$p.in")
    echo "== $p: $(wc -c < "$work/$p.in") bytes of input, identical answers"
    if command -v hyperfine > /dev/null; then
      hyperfine -N --warmup 1 --runs 10 --output=pipe \
        "$bin $p $work/$p.in" "$work/$p-c" --input "$work/$p.in"
    else
      for cmd in "$bin $p $work/$p.in" "$work/$p-c"; do
        for _ in 1 2 3 4 5; do
          /usr/bin/time -f "$cmd: %e s wall, %U s user, %M KiB" $cmd < "$work/$p.in" > /dev/null
        done
      done
    fi
  done
done

#!/usr/bin/env bash
# Median time per run of `queens stress` (100 runs of a one-case input, the program the
# judge itself) with the sandbox off and on, five rounds each, interleaved.
CP=${CP:-target/release/chess-puzzles}
for round in 1 2 3 4 5; do
    for mode in off auto; do
        start=$(date +%s%N)
        "$CP" queens stress --cases 100 --gen-args '--cases 1' --sandbox "$mode" -- "$CP" queens >/dev/null 2>&1
        end=$(date +%s%N)
        echo "$mode $(( (end - start) / 100000 ))"
    done
done | sort -k1,1 -k2,2n | awk '{ n[$1]++; v[$1, n[$1]] = $2 } END { for (m in n) printf "%s: median %.2f ms per run\n", m, v[m, 3] / 1000 }'

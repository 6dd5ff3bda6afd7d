#!/usr/bin/env bash
# The judge kit's and the command line's own CI steps (called once from .ci/run):
#  1. zsh and fish, which tests/cli/completions.rs drives (bash and man are on every machine);
#  2. `cargo install --locked --path .` as the README says, and the README's console examples
#     run against the installed binary;
#  3. a short run of every fuzz target (FUZZ_SECONDS each, default 25) with cargo-fuzz on the
#     stable toolchain (RUSTC_BOOTSTRAP=1 lets it pass its -Z flags), optimised with overflow
#     checks and debug assertions on; a crash or a time-out fails the run, and its input is
#     left in fuzz/artifacts/<target>/.
# Measured on the 2-core machine: about 8 minutes in all, most of it compiling (cargo-fuzz
# itself, and the targets with the address sanitizer).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v zsh >/dev/null || ! command -v fish >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zsh fish >/dev/null
fi

root=$(mktemp -d)
cargo install --locked --path . --root "$root"
CHESS_PUZZLES_BIN="$root/bin/chess-puzzles" cargo test --release --test cli readme::
rm -rf "$root"

if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --locked cargo-fuzz --version 0.13.2
fi
cd fuzz
# -O -a: optimised, with overflow checks and debug assertions on (an overflow is a crash).
for target in solve validate check merge serve; do
    features=()
    if [[ $target == serve ]]; then
        features=(--features serve)
    fi
    mkdir -p "corpus/$target"
    RUSTC_BOOTSTRAP=1 cargo fuzz run -O -a "${features[@]}" "$target" "corpus/$target" \
        "seeds/$target" -- -max_total_time="${FUZZ_SECONDS:-25}" -max_len=4096 -timeout=10
done

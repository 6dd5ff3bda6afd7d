#!/usr/bin/env bash
# CI of the proof mode (`cargo build --release --features milp`): the highs crate builds the
# MILP solver HiGHS from its C++ source, which needs cmake, a C++ compiler and libclang
# (bindgen). Installs them from Debian's packages when missing, then lints and tests the
# feature. HiGHS and the dependencies from scratch: about 5 minutes of CPU; then the crate
# rebuilt with the feature, clippy and the tests: about 1.5 minutes of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! dpkg -s cmake g++ libclang-dev >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends cmake g++ libclang-dev >/dev/null
fi
cargo clippy --release --all-targets --features milp -- -D warnings
cargo test --release --features milp --test showdown prove::

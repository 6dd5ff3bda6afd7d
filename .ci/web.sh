#!/usr/bin/env bash
# The library's JSON API as WebAssembly (the foundation of the static web board): builds it
# with web/build.sh into target/web (installing wasm-bindgen-cli of the pinned version into
# target/tools once, a few minutes) and compares its answers in Node.js with the command
# line's, byte for byte (web/test.mjs). Installs Node.js (Debian's) when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nodejs >/dev/null
fi
cargo test --quiet --release -p chess-puzzles-web
cargo clippy --quiet -p chess-puzzles-web --target wasm32-unknown-unknown -- -D warnings
cargo build --quiet --release --bin chess-puzzles
bash web/build.sh target/web
node web/test.mjs target/web target/release/chess-puzzles

#!/usr/bin/env bash
# The web board as a static site (docs/web.md): builds it with web/build.sh into target/web
# (installing wasm-bindgen-cli of the pinned version into target/tools once, a few minutes),
# compares the WebAssembly API's answers in Node.js with the command line's, byte for byte
# (web/test.mjs), then opens the site in Chromium, served by Python's static file server under
# a sub-path, against `chess-puzzles serve` (the test browser::static_site::, through
# .ci/serve.sh, which installs Chromium and chromedriver). Installs Node.js and Python 3
# (Debian's) when they are missing. Under CI=true a missing part fails the browser test.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v node >/dev/null || missing+=(nodejs)
command -v python3 >/dev/null || missing+=(python3)
if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
cargo test --quiet --release -p chess-puzzles-web
cargo clippy --quiet -p chess-puzzles-web --target wasm32-unknown-unknown -- -D warnings
cargo build --quiet --release --bin chess-puzzles
bash web/build.sh target/web
node web/test.mjs target/web "${CARGO_TARGET_DIR:-target}/release/chess-puzzles"
STATIC_SITE="$PWD/target/web" bash .ci/serve.sh browser::static_site::

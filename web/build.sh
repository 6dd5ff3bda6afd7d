#!/usr/bin/env bash
# Builds the library's JSON API for a browser into OUT: chess_puzzles_web_bg.wasm (the library
# as WebAssembly, wasm32-unknown-unknown, release) and chess_puzzles_web.js (wasm-bindgen's ES
# module: `init()`, then `answer(path, query, body, max_time)`), with a package.json that
# marks the folder's .js files as ES modules for Node.
#
# Needs the rustup target wasm32-unknown-unknown (added here) and wasm-bindgen-cli of exactly
# the version of the wasm-bindgen crate in Cargo.lock: the one on PATH if it is that version,
# else installed once with `cargo install` into target/tools/wasm-bindgen-VERSION.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: web/build.sh OUT}

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[ -n "$version" ] || { echo "build.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }

bindgen=wasm-bindgen
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    tools="$PWD/target/tools/wasm-bindgen-$version"
    bindgen="$tools/bin/wasm-bindgen"
    if [ "$("$bindgen" --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
        echo "build.sh: installing wasm-bindgen-cli $version into $tools" >&2
        cargo install --quiet wasm-bindgen-cli --version "$version" --root "$tools"
    fi
fi

rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
cargo build --quiet --release -p chess-puzzles-web --target wasm32-unknown-unknown
mkdir -p "$out"
"$bindgen" --target web --no-typescript --out-dir "$out" \
    "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/release/chess_puzzles_web.wasm"
printf '{ "type": "module" }\n' >"$out/package.json"

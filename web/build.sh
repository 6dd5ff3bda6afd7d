#!/usr/bin/env bash
# Builds the web board as a static site into OUT, for any static host (GitHub Pages, a folder
# served by `python3 -m http.server`), at its root or under a sub-path (every address in it is
# relative):
#
# - the page: index.html, style.css, favicon.svg and js/, the very files `chess-puzzles serve`
#   embeds (src/serve/web), with index.html marked to answer through the worker
#   (<meta name="chess-puzzles-transport" content="worker">);
# - worker.js (web/worker.js): the Web Worker that owns the library and answers the page;
# - the library's JSON API as WebAssembly: chess_puzzles_web_bg.wasm (wasm32-unknown-unknown,
#   the `web` profile of Cargo.toml: whole-program LTO, no symbol names; WebAssembly SIMD, as
#   .cargo/config.toml asks for that target) and chess_puzzles_web.js (wasm-bindgen's ES
#   module: `init()`, then `answer(path, query, body, max_time)`), with a package.json that
#   marks the folder's .js files as ES modules for Node (web/test.mjs).
#
# Needs the rustup target wasm32-unknown-unknown (added here) and wasm-bindgen-cli of exactly
# the version of the wasm-bindgen crate in Cargo.lock: the one on PATH if it is that version,
# else installed once with `cargo install` into target/tools/wasm-bindgen-VERSION.
#
# Fails when the module is larger than MAX_GZIP bytes compressed by `gzip -9` (as a host
# sends it): the page's first answer waits for it.
set -euo pipefail
MAX_GZIP=300000
[ $# -eq 1 ] || { echo "usage: web/build.sh OUT" >&2; exit 2; }
mkdir -p -- "$1"
out=$(cd -- "$1" && pwd) # OUT relative to where the script is called from
cd "$(dirname "$0")/.."

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
cargo build --quiet --profile web -p chess-puzzles-web --target wasm32-unknown-unknown
mkdir -p "$out"
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
    --out-dir "$out" "${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/web/chess_puzzles_web.wasm"
size=$(gzip -9 -c "$out/chess_puzzles_web_bg.wasm" | wc -c)
if [ "$size" -gt "$MAX_GZIP" ]; then
    echo "build.sh: the module is $size bytes gzipped, above the limit of $MAX_GZIP" >&2
    exit 1
fi
echo "build.sh: the module is $size bytes gzipped (at most $MAX_GZIP)" >&2
printf '{ "type": "module" }\n' >"$out/package.json"

# The page, from the files the server embeds; only its transport differs.
cp -R src/serve/web/. "$out/"
cp web/worker.js "$out/worker.js"
marker='<meta name="chess-puzzles-transport" content="server">'
grep -qF "$marker" src/serve/web/index.html ||
    { echo "build.sh: src/serve/web/index.html lacks $marker" >&2; exit 1; }
sed "s|$marker|${marker/server/worker}|" src/serve/web/index.html >"$out/index.html"
echo "build.sh: the static site is in $out" >&2

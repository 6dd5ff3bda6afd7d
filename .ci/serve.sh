#!/usr/bin/env bash
# The web board in a real browser: installs Chromium and chromedriver (Debian's packages,
# about 130 MB, when they are missing), Node.js and npm (Debian's) and axe-core (the
# accessibility engine, a pinned version from the npm registry, into target/), starts
# chromedriver on a free loopback port, runs the browser test against it (`cargo test
# --release --test serve browser::every_view... -- --ignored`, about a minute once built) with
# WEBDRIVER_URL and AXE_CORE_JS set, and stops chromedriver by its PID whatever happens.
# Screenshots go to target/screenshots (docs/screenshots holds the committed ones).
#
#   .ci/serve.sh [TEST]
#
# TEST filters the browser tests (default: browser::every_view_works_in_a_real_browser, the
# board under `serve`); .ci/web.sh runs browser::static_site:: (the static site, with
# STATIC_SITE naming what web/build.sh built) through this script.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
updated=""
install() {
    [ -n "$updated" ] || { apt-get update -qq; updated=yes; }
    apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    install chromium chromium-driver fonts-dejavu-core
fi
if ! command -v npm >/dev/null; then
    install nodejs npm
fi

# axe-core, never committed: installed from the registry by its exact version.
AXE_VERSION=4.14.1
axe_dir="target/axe-core-$AXE_VERSION"
if [ ! -f "$axe_dir/node_modules/axe-core/axe.min.js" ]; then
    mkdir -p "$axe_dir"
    npm install --no-audit --no-fund --ignore-scripts --prefix "$axe_dir" "axe-core@$AXE_VERSION" >/dev/null
fi
export AXE_CORE_JS="$PWD/$axe_dir/node_modules/axe-core/axe.min.js"
[ -f "$AXE_CORE_JS" ] || { echo "serve.sh: axe-core is missing: $AXE_CORE_JS" >&2; exit 1; }

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port that nothing listens on may still be bound (a connection's local end in the
# ephemeral range, 32768-60999 on Linux): candidates come from below that range, and
# chromedriver is started again on another one when its bind fails all the same.
log=$(mktemp)
driver=""
stop_driver() {
    if [ -n "$driver" ]; then
        kill "$driver" 2>/dev/null || true
        wait "$driver" 2>/dev/null || true
    fi
    rm -f "$log"
}
trap stop_driver EXIT

port=""
for _ in $(seq 1 20); do
    candidate=$((20000 + RANDOM % 12000))
    listening "$candidate" && continue
    chromedriver --port="$candidate" >"$log" 2>&1 &
    driver=$!
    for _ in $(seq 1 200); do
        listening "$candidate" && break
        kill -0 "$driver" 2>/dev/null || break
        sleep 0.1
    done
    if listening "$candidate" && kill -0 "$driver" 2>/dev/null; then
        port=$candidate
        break
    fi
    echo "serve.sh: chromedriver did not start on port $candidate:" >&2
    cat "$log" >&2
    kill "$driver" 2>/dev/null || true
    wait "$driver" 2>/dev/null || true
    driver=""
done
[ -n "$port" ] || { echo "serve.sh: chromedriver did not start on any of 20 ports" >&2; exit 1; }

WEBDRIVER_URL="http://127.0.0.1:$port" SCREENSHOTS_DIR="${SCREENSHOTS_DIR:-target/screenshots}" \
    cargo test --release --test serve "${1:-browser::every_view_works_in_a_real_browser}" -- --ignored

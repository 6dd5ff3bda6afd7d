#!/usr/bin/env bash
# The web board in a real browser: installs Chromium and chromedriver (Debian's packages,
# about 130 MB, when they are missing), starts chromedriver on a free loopback port, runs the
# browser test against it (`cargo test --release --test serve browser:: -- --ignored`, about
# 15 s once built), and stops chromedriver by its PID whatever happens. Screenshots of every
# view go to target/screenshots (docs/screenshots holds the committed ones).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
fi

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
    cargo test --release --test serve browser:: -- --ignored

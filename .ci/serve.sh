#!/usr/bin/env bash
# The web board in a real browser: installs Chromium and chromedriver (Debian's packages,
# about 130 MB, when they are missing), starts chromedriver on a free loopback port, runs the
# browser test against it (`cargo test --release --test browser -- --ignored`, about 15 s
# once built), and stops chromedriver by its PID whatever happens. Screenshots of every view
# go to target/screenshots (docs/screenshots holds the committed ones).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends chromium chromium-driver fonts-dejavu-core >/dev/null
fi

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

port=""
for _ in $(seq 1 50); do
    candidate=$((20000 + RANDOM % 30000))
    if ! listening "$candidate"; then
        port=$candidate
        break
    fi
done
[ -n "$port" ] || { echo "serve.sh: no free port for chromedriver" >&2; exit 1; }

log=$(mktemp)
chromedriver --port="$port" >"$log" 2>&1 &
driver=$!
stop_driver() {
    kill "$driver" 2>/dev/null || true
    wait "$driver" 2>/dev/null || true
    rm -f "$log"
}
trap stop_driver EXIT

for _ in $(seq 1 200); do
    listening "$port" && break
    kill -0 "$driver" 2>/dev/null || { cat "$log" >&2; exit 1; }
    sleep 0.1
done
listening "$port" || { echo "serve.sh: chromedriver did not start" >&2; cat "$log" >&2; exit 1; }

WEBDRIVER_URL="http://127.0.0.1:$port" SCREENSHOTS_DIR="${SCREENSHOTS_DIR:-target/screenshots}" \
    cargo test --release --test browser -- --ignored

#!/usr/bin/env bash
# Set-up shared by `npm run demo` and `npm test`: npm dependencies, a Docker engine, the local images, and
# (for tests) Debian's Chromium for the HTML report check. Idempotent; a second run costs about a second.
# Usage: setup.sh [--test]
set -euo pipefail
cd "$(dirname "$0")/.."

want_test_tools=false
[ "${1:-}" = "--test" ] && want_test_tools=true

# 1. npm dependencies, reinstalled only when the lockfile changed.
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f node_modules/.harness-lock-hash ] || [ "$(cat node_modules/.harness-lock-hash)" != "$lock_hash" ]; then
  echo "setup: installing npm dependencies" >&2
  npm ci --no-audit --no-fund --loglevel=error >&2
  echo "$lock_hash" > node_modules/.harness-lock-hash
fi

# 2. A Docker engine (starts Debian's dockerd when none answers and we are root on Debian).
bash scripts/ensure-engine.sh

# 3. Local images, built from Debian's packages when their recipe changed.
node bin/httpd-upgrade-harness.js images --build >/dev/null

# 4. Chromium for the HTML report test.
if $want_test_tools && [ -z "${HARNESS_CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then
    echo "setup: installing Debian's chromium for the HTML report test" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq chromium >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null; }
  else
    echo "setup: chromium not found; the HTML report browser test will fail. Install it or set HARNESS_CHROMIUM." >&2
  fi
fi

#!/usr/bin/env bash
# Make sure the Docker engine the harness will use answers. Which engine that is comes from the harness itself
# (`httpd-upgrade-harness engine`: DOCKER_HOST, DOCKER_CONTEXT, ~/.testcontainers.properties, the current docker
# context, in that order; see harness/engine/engine-target.ts), so setup and run always agree. When something
# names an engine that does not answer: exit 3 naming it, never another engine. Only when nothing names one and
# the default socket does not answer, and we are root on Debian, installs Debian's docker.io and starts dockerd
# in the background, its output in a log file so that it holds no terminal or CI pipe open. Exit 3 (the CLI's
# "environment" status) otherwise. Needs the npm dependencies (scripts/setup.sh installs them first).
set -euo pipefail

log_file="${HARNESS_DOCKERD_LOG:-/var/log/harness-dockerd.log}"
wait_seconds="${HARNESS_DOCKERD_WAIT_SECONDS:-60}"
harness="$(cd "$(dirname "$0")/.." && pwd)/bin/httpd-upgrade-harness.js"

engine_answers() { timeout 30 node "$harness" engine --check >/dev/null 2>&1; }

fail() {
  echo "httpd-upgrade-harness: $1" >&2
  exit 3
}

if ! command -v node >/dev/null 2>&1 || [ ! -d "$(dirname "$harness")/../node_modules/tsx" ]; then
  fail "node and the npm dependencies are needed to find the engine; run 'npm ci' (or scripts/setup.sh) first."
fi

if engine_answers; then
  exit 0
fi

if ! target="$(node "$harness" engine)"; then
  fail "could not decide which engine to use (see above)."
fi
if ! grep -qx 'named=false' <<<"$target"; then
  # Its own message names the engine and what named it; exit 3 as the run would.
  node "$harness" engine --check >/dev/null || exit 3
  exit 0
fi
if [ "$(id -u)" != 0 ] || [ ! -f /etc/debian_version ]; then
  fail "no Docker engine answers at the default socket and the harness can only start one itself as root on Debian. Start your engine (or name it with DOCKER_HOST or 'docker context use') and run this again."
fi

if ! command -v dockerd >/dev/null 2>&1; then
  echo "httpd-upgrade-harness: installing Debian's docker.io (no engine found)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq docker.io >/dev/null || fail "apt-get install docker.io failed; see apt's output above."
fi

if ! pgrep -x dockerd >/dev/null 2>&1; then
  echo "httpd-upgrade-harness: starting dockerd (log: ${log_file})" >&2
  mkdir -p "$(dirname "$log_file")"
  # setsid + closed stdin: dockerd must outlive this script and keep no pipe of the caller open.
  setsid dockerd >>"$log_file" 2>&1 </dev/null &
fi

deadline=$((SECONDS + wait_seconds))
until engine_answers; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    tail -n 20 "$log_file" >&2 || true
    fail "dockerd did not answer within ${wait_seconds}s; its log is ${log_file} (last lines above)."
  fi
  sleep 0.5
done

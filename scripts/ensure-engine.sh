#!/usr/bin/env bash
# Make sure a Docker engine answers. Uses the one that answers (DOCKER_HOST honoured); where none does and we
# are root on Debian, installs Debian's docker.io and starts dockerd in the background, its output in a log
# file so that it holds no terminal or CI pipe open. Exit 3 (the CLI's "environment" status) otherwise.
set -euo pipefail

log_file="${HARNESS_DOCKERD_LOG:-/var/log/harness-dockerd.log}"
wait_seconds="${HARNESS_DOCKERD_WAIT_SECONDS:-60}"

engine_answers() { timeout 10 docker info >/dev/null 2>&1; }

fail() {
  echo "httpd-upgrade-harness: $1" >&2
  exit 3
}

if ! command -v docker >/dev/null 2>&1 && [ "$(id -u)" != 0 ]; then
  fail "no docker client found. Install Docker (https://docs.docker.com/engine/install/) or Debian's docker.io, start the engine, and run this again."
fi

if command -v docker >/dev/null 2>&1 && engine_answers; then
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ]; then
  fail "DOCKER_HOST=${DOCKER_HOST} does not answer 'docker info'. Start that engine or unset DOCKER_HOST to let the harness start a local one."
fi
if [ "$(id -u)" != 0 ] || [ ! -f /etc/debian_version ]; then
  fail "no Docker engine answers and the harness can only start one itself as root on Debian. Start your engine (or set DOCKER_HOST) and run this again."
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

#!/usr/bin/env bash
# Build the local base image: a minimal Debian bookworm tree from debootstrap, imported with `docker import`.
# No registry is reachable on the machines this project runs on, so every image starts here.
# Usage: build-base.sh TAG   (the caller chooses a content-hashed tag and skips us when it already exists)
set -euo pipefail
tag="${1:?usage: build-base.sh TAG}"
mirror="${HARNESS_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
security_mirror="${HARNESS_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

if ! command -v debootstrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && [ -f /etc/debian_version ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null \
      || { apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
  else
    echo "httpd-upgrade-harness: debootstrap is needed to build the base image; install it (apt-get install debootstrap)" >&2
    exit 3
  fi
fi

root="$(mktemp -d /tmp/harness-base.XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 || {
  tail -n 30 "$root.log" >&2; rm -f "$root.log"; exit 3; }
rm -f "$root.log"
cat >"$root/etc/apt/sources.list" <<SRC
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb $security_mirror bookworm-security main
SRC
# Keep images small and apt quiet inside builds.
printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root/etc/apt/apt.conf.d/90harness"
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
tar -C "$root" -c . | docker import --change 'CMD ["/bin/bash"]' - "$tag" >/dev/null
echo "$tag"

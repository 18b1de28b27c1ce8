#!/usr/bin/env bash
# A further local Docker engine, for runs and tests spread over several engines (`run --engines`), started
# beside the first one without touching it. Prints the engine's DOCKER_HOST address on stdout.
#
#   scripts/ensure-extra-engine.sh NAME          start it (quick when it already answers)
#   scripts/ensure-extra-engine.sh NAME --stop   stop it: its processes, containers, network namespace and link
#
# As root on Debian, with the dockerd that scripts/ensure-engine.sh installed. The engine is made to look like a
# remote engine on a machine of its own:
#
# - Its own network namespace (`ip netns` harness-NAME), joined to this host by a veth pair on a private /30
#   (198.19.K.0/30 of the benchmarking range RFC 2544 sets aside: host side .1, engine side .2). The harness
#   creates client networks at the fixed subnets a scenario or config names (198.51.100.0/24, 10.77.1.0/24...);
#   two engines sharing one routing table and one iptables would both make a bridge for the same subnet and
#   break each other's routes. In its own namespace each engine has its own routes, bridges and iptables, as on
#   two machines.
# - It listens on tcp://198.19.K.2:2375 (what this script prints; only this host reaches the link) and on a unix
#   socket, /run/harness-engine-NAME/docker.sock, for people. The harness treats the tcp:// one as remote: ports
#   published on every address of the namespace, reached at 198.19.K.2.
# - Requests that arrive over the link are masqueraded to the bridge's gateway inside the namespace, so a server
#   sees them from the network's gateway, as it does on the first engine (whose docker-proxy connects from there):
#   `{{clients.host.ip}}` means the same on both engines.
# - The link gets a default route and NAT through this host (two FORWARD rules and one MASQUERADE, each with the
#   comment "harness-extra-engine NAME"; nothing of the first engine's rules is changed), so its containers reach
#   the same DNS servers as the first engine's.
# - Its own --data-root (/var/lib/harness-engine-NAME, kept when it stops, so images copied to it stay),
#   --exec-root, --pidfile, socket, cgroup parent (/harness-engine-NAME), default bridge (172.16.255.1/24) and
#   address pool (172.16.0.0/17 in /24s: inside 172.16.0.0/12 like the first engine's defaults, so a gateway
#   address is of the same kind on both, but outside every pool of the first engine), and its own mount namespace
#   (its mounts vanish with its processes).
#
# Several extra engines may run at once under different names. HARNESS_EXTRA_ENGINE_WAIT_SECONDS (default 60):
# how long to wait for the engine to answer. Its log: /var/log/harness-dockerd-NAME.log.
set -euo pipefail

usage() {
  echo "usage: $0 NAME [--stop]   (NAME: letters, digits and '-', at most 20)" >&2
  exit 2
}
fail() {
  echo "ensure-extra-engine: $1" >&2
  exit 3
}

[ $# -ge 1 ] && [ $# -le 2 ] || usage
name="$1"
action="${2:-start}"
[[ "$name" =~ ^[a-z0-9][a-z0-9-]{0,19}$ ]] || usage
case "$action" in start | --stop) ;; *) usage ;; esac

[ "$(id -u)" = 0 ] || fail "must run as root (it makes a network namespace and starts dockerd)."

netns="harness-${name}"
state="/run/harness-engine-${name}"
data_root="/var/lib/harness-engine-${name}"
socket="${state}/docker.sock"
pidfile="${state}/dockerd.pid"
cgroup_parent="/harness-engine-${name}"
log_file="/var/log/harness-dockerd-${name}.log"
comment="harness-extra-engine ${name}"
wait_seconds="${HARNESS_EXTRA_ENGINE_WAIT_SECONDS:-60}"
# Marks packets that came in over the link, inside the namespace (one bit nothing of Docker's uses here).
link_mark="0x4e0000/0x4e0000"

# Every extra engine's set-up and stop under one lock: two test files may start engines at once.
mkdir -p /run/lock
exec 9>/run/lock/harness-extra-engine.lock
flock 9

# K: the third byte of the link's /30, kept in the state directory while the engine exists.
link_index() {
  if [ -f "${state}/link" ]; then
    cat "${state}/link"
    return
  fi
  local k
  k=$(( $(printf '%s' "$name" | cksum | cut -d' ' -f1) % 256 ))
  for _ in $(seq 256); do
    if ! ip link show "hxe${k}h" >/dev/null 2>&1 && ! ip -4 -o addr show | grep -q " 198\.19\.${k}\.1/"; then
      echo "$k"
      return
    fi
    k=$(( (k + 1) % 256 ))
  done
  fail "no free link in 198.19.0.0/16 for a further engine."
}

dockerd_pid() {
  [ -f "$pidfile" ] || return 1
  local pid
  pid="$(cat "$pidfile")"
  [ -n "$pid" ] && [ -d "/proc/${pid}" ] && grep -qx 'dockerd' "/proc/${pid}/comm" 2>/dev/null && echo "$pid"
}

engine_answers() { timeout 10 docker -H "unix://${socket}" version --format '{{.Server.Version}}' >/dev/null 2>&1; }

# The processes of the engine's containers (all cgroup hierarchies: v1 and v2), and of its namespace (dockerd,
# containerd, shims, docker-proxy).
engine_pids() {
  {
    find /sys/fs/cgroup -maxdepth 3 -type d -name "harness-engine-${name}" 2>/dev/null | while read -r dir; do
      find "$dir" -name cgroup.procs -exec cat {} + 2>/dev/null || true
    done
    [ -e "/run/netns/${netns}" ] && ip netns pids "$netns" 2>/dev/null || true
  } | sort -un
}

delete_host_rules() {
  local table rule
  for table in filter nat; do
    { iptables -t "$table" -S 2>/dev/null | grep -F -- "--comment \"${comment}\"" || true; } | while read -r rule; do
      # "-A CHAIN ..." -> "-D CHAIN ..."; the rule's words as iptables printed them.
      eval "iptables -t ${table} -D ${rule#-A }" || true
    done
  done
}

stop_engine() {
  local pid k
  # 1. dockerd, asked to stop (it stops its containers), then made to.
  if pid="$(dockerd_pid)"; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do [ -d "/proc/${pid}" ] || break; sleep 0.2; done
  fi
  # 2. Whatever is left: containers, shims, containerd, docker-proxy, a dockerd that would not stop.
  for _ in $(seq 50); do
    pids="$(engine_pids)"
    [ -z "$pids" ] && break
    kill -KILL $pids 2>/dev/null || true
    sleep 0.2
  done
  [ -z "$(engine_pids)" ] || echo "ensure-extra-engine: processes of ${name} would not stop: $(engine_pids | tr '\n' ' ')" >&2
  find /sys/fs/cgroup -maxdepth 3 -type d -name "harness-engine-${name}" 2>/dev/null | while read -r dir; do
    find "$dir" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  done
  # 3. The link, its rules on this host, the namespace (its bridges and iptables go with it).
  if [ -f "${state}/link" ]; then
    k="$(cat "${state}/link")"
    ip link del "hxe${k}h" 2>/dev/null || true
  fi
  delete_host_rules
  ip netns del "$netns" 2>/dev/null || true
  rm -rf "$state"
}

if [ "$action" = "--stop" ]; then
  stop_engine
  exit 0
fi

# Quick path: it answers already.
if dockerd_pid >/dev/null && [ -f "${state}/link" ] && engine_answers; then
  echo "tcp://198.19.$(cat "${state}/link").2:2375"
  exit 0
fi

[ -f /etc/debian_version ] || fail "starts an engine on Debian only."
command -v dockerd >/dev/null 2>&1 || fail "dockerd is not installed; run scripts/ensure-engine.sh first (it installs Debian's docker.io)."
if ! command -v ip >/dev/null 2>&1 || ! command -v iptables >/dev/null 2>&1; then
  echo "ensure-extra-engine: installing iproute2 and iptables" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq iproute2 iptables >/dev/null 2>&1 || { apt-get update -qq >/dev/null && apt-get install -y -qq iproute2 iptables >/dev/null; } ||
    fail "apt-get install iproute2 iptables failed."
fi

# Whatever a half-started or lost engine of this name left (a dockerd killed, a namespace without one).
stop_engine

k="$(link_index)"
host_if="hxe${k}h"
ns_if="hxe${k}n"
host_ip="198.19.${k}.1"
ns_ip="198.19.${k}.2"
mkdir -p "$state" "$data_root" "$(dirname "$log_file")"
echo "$k" >"${state}/link"

ip netns add "$netns"
ip link add "$host_if" type veth peer name "$ns_if"
ip link set "$ns_if" netns "$netns"
ip addr add "${host_ip}/30" dev "$host_if"
ip link set "$host_if" up
ip -n "$netns" link set lo up
ip -n "$netns" addr add "${ns_ip}/30" dev "$ns_if"
ip -n "$netns" link set "$ns_if" up
ip -n "$netns" route add default via "$host_ip"

# This host: forward what the engine sends out, and what answers it; masquerade it behind this host's address.
iptables -I FORWARD -i "$host_if" -m comment --comment "$comment" -j ACCEPT
iptables -I FORWARD -o "$host_if" -m conntrack --ctstate RELATED,ESTABLISHED -m comment --comment "$comment" -j ACCEPT
iptables -t nat -I POSTROUTING -s "198.19.${k}.0/30" ! -o "$host_if" -m comment --comment "$comment" -j MASQUERADE
# The namespace: a connection that came in over the link reaches a container from its bridge's gateway.
ip netns exec "$netns" iptables -t mangle -A PREROUTING -i "$ns_if" -j MARK --set-xmark "$link_mark"
ip netns exec "$netns" iptables -t nat -A POSTROUTING -m mark --mark "$link_mark" ! -o "$ns_if" -j MASQUERADE

echo "ensure-extra-engine: starting dockerd ${name} at tcp://${ns_ip}:2375 (log: ${log_file})" >&2
# nsenter, not `ip netns exec`: that one remounts /sys (and cgroup2 on /sys/fs/cgroup), which hides the cgroup
# v1 hierarchies dockerd needs. unshare --mount: dockerd's mounts (overlays, network namespace handles) live in a
# mount namespace of its own and go with its processes. setsid, closed stdin and lock: it outlives this script
# and holds no pipe of the caller open, nor the lock. --tls=false says the plain tcp:// listener is meant (only
# this host reaches the link); without it dockerd 20.10 waits 15 s before it listens.
nsenter "--net=/run/netns/${netns}" -- unshare --mount --propagation slave -- setsid dockerd \
  --data-root "$data_root" \
  --exec-root "${state}/exec" \
  --pidfile "$pidfile" \
  --host "unix://${socket}" \
  --host "tcp://${ns_ip}:2375" \
  --tls=false \
  --bip 172.16.255.1/24 \
  --default-address-pool base=172.16.0.0/17,size=24 \
  --cgroup-parent "$cgroup_parent" \
  --exec-opt native.cgroupdriver=cgroupfs \
  >>"$log_file" 2>&1 </dev/null 9>&- &

deadline=$((SECONDS + wait_seconds))
until engine_answers && timeout 10 docker -H "tcp://${ns_ip}:2375" version >/dev/null 2>&1; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    tail -n 20 "$log_file" >&2 || true
    stop_engine
    fail "dockerd ${name} did not answer within ${wait_seconds}s; its log is ${log_file} (last lines above)."
  fi
  sleep 0.3
done
echo "tcp://${ns_ip}:2375"

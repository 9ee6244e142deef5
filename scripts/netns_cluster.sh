#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cartex multi-node testbed: N simulated nodes on one Linux machine, so that MPI runs cross real TCP.
#
# Every node is a network namespace with its own interface (a veth pair whose other end sits on one
# bridge), its own hostname (a UTS namespace per launched daemon) and its own TMPDIR. A launcher
# namespace (node 0) runs mpiexec; Open MPI starts its daemons on the nodes through the rsh agent
# written here, so ranks on different nodes use btl tcp and MPI_COMM_TYPE_SHARED sees the real node
# split, ranks on one node use shared memory. Nothing in cartex knows about this script: the runs are
# ordinary Open MPI launches. Needs root, iproute2 (ip netns, veth, bridge) and util-linux (unshare).
#
#   scripts/netns_cluster.sh check            exit 0 if a testbed can be made here, else 3 and the reason
#   scripts/netns_cluster.sh up N             make nodes 1..N (keeps nodes that exist; safe to repeat)
#   scripts/netns_cluster.sh nodes            the number of nodes up (0 when down)
#   scripts/netns_cluster.sh flags SLOTS [K]  mpiexec options for the first K nodes (default all) x SLOTS
#                                             (Open MPI only: $MPIEXEC, default mpiexec, must be Open MPI's)
#   scripts/netns_cluster.sh run CMD...       run CMD (mpiexec ...) in the launcher namespace
#   scripts/netns_cluster.sh bytes            per node: tx and rx bytes of its interface
#   scripts/netns_cluster.sh down             remove all it made (safe to repeat)
#
# Names start with CARTEX_TESTBED_PREFIX (default ctxmn), addresses are 10.79.0.1N/24 (node N; the
# launcher 10.79.0.10), the state lives in /tmp/<prefix>-testbed. CARTEX_TESTBED_UNAVAILABLE=REASON
# makes `check` and `up` fail with REASON (to test what callers do without a testbed).
#
# Example, 2 nodes x 2 ranks, ranks in round-robin order over the nodes:
#   scripts/netns_cluster.sh up 2
#   scripts/netns_cluster.sh run mpiexec --allow-run-as-root $(scripts/netns_cluster.sh flags 2) \
#       --map-by node -n 4 build/bin/heat3d inputs/heat3d.yaml
#   scripts/netns_cluster.sh down
set -euo pipefail

prefix=${CARTEX_TESTBED_PREFIX:-ctxmn}
subnet=10.79.0
bridge=${prefix}br
state=/tmp/${prefix}-testbed
agent=$state/launch-agent

fail() { echo "netns_cluster: $*" >&2; exit 3; }

nodes_up() { if [ -f "$state/nodes" ]; then cat "$state/nodes"; else echo 0; fi; }

# Why no testbed can be made here (empty when one can).
unavailable_reason() {
  if [ -n "${CARTEX_TESTBED_UNAVAILABLE:-}" ]; then echo "$CARTEX_TESTBED_UNAVAILABLE (CARTEX_TESTBED_UNAVAILABLE)"; return; fi
  if [ "$(id -u)" -ne 0 ]; then echo "needs root to make network namespaces (running as uid $(id -u))"; return; fi
  command -v ip >/dev/null 2>&1 || { echo "no 'ip' command (iproute2)"; return; }
  command -v unshare >/dev/null 2>&1 || { echo "no 'unshare' command (util-linux)"; return; }
  local probe=${prefix}probe
  ip netns add "$probe" >/dev/null 2>&1 || { echo "'ip netns add' fails here (no network namespaces)"; return; }
  if ! ip netns exec "$probe" unshare --uts true >/dev/null 2>&1; then
    ip netns del "$probe" >/dev/null 2>&1 || true
    echo "'unshare --uts' fails inside a network namespace"; return
  fi
  ip netns del "$probe" >/dev/null 2>&1 || true
  if ! ip link show "$bridge" >/dev/null 2>&1; then
    ip link add "$bridge" type bridge >/dev/null 2>&1 || { echo "cannot make a bridge interface ('ip link add type bridge')"; return; }
    ip link del "$bridge" >/dev/null 2>&1 || true
  fi
}

check() {
  local why; why=$(unavailable_reason)
  [ -z "$why" ] || fail "cannot make a testbed: $why"
}

# Node i: namespace <prefix>i, interface <prefix>v<i> inside it, bridge port <prefix>p<i>, address .1<i>.
add_node() {
  local i=$1 ns=$prefix$1
  ip netns list | grep -qw "^$ns" && return 0
  ip netns add "$ns"
  ip link add "${prefix}v$i" type veth peer name "${prefix}p$i"
  ip link set "${prefix}v$i" netns "$ns"
  ip link set "${prefix}p$i" master "$bridge" up
  ip -n "$ns" addr add "$subnet.1$i/24" dev "${prefix}v$i"
  ip -n "$ns" link set "${prefix}v$i" up
  ip -n "$ns" link set lo up
  mkdir -p "$state/tmp$i"
}

up() {
  local n=${1:-}
  [[ "$n" =~ ^[1-9]$ ]] || fail "usage: up N (N = 1..9 nodes)"
  check
  mkdir -p "$state"
  ip link show "$bridge" >/dev/null 2>&1 || { ip link add "$bridge" type bridge; ip link set "$bridge" up; }
  local i have; have=$(nodes_up)
  for i in $(seq 0 "$n"); do add_node "$i"; done
  [ "$have" -gt "$n" ] && n=$have
  # Open MPI runs `AGENT HOST CMD...` to start a daemon; HOST is a node address, its last digit the node.
  cat > "$agent" <<EOF
#!/bin/sh
node=\${1##$subnet.1}; shift
exec ip netns exec $prefix\$node unshare --uts /bin/sh -c "hostname node\$node && TMPDIR=$state/tmp\$node && export TMPDIR && \$*"
EOF
  chmod +x "$agent"
  echo "$n" > "$state/nodes"
  echo "netns_cluster: $n node(s) up ($subnet.11 .. $subnet.1$n)"
}

flags() {
  local slots=${1:-} n k hosts="" i
  [[ "$slots" =~ ^[1-9][0-9]*$ ]] || fail "usage: flags SLOTS [NODES]"
  n=$(nodes_up); k=${2:-$n}
  [ "$n" -gt 0 ] || fail "no testbed; run 'up N' first"
  [ "$k" -ge 1 ] && [ "$k" -le "$n" ] || fail "flags: $k node(s) asked, $n up"
  for i in $(seq 1 "$k"); do hosts+="${hosts:+,}$subnet.1$i:$slots"; done
  local launcher family
  launcher=$(dirname "${BASH_SOURCE[0]}")/mpi_launcher.py
  family=$(python3 "$launcher" --mpiexec "${MPIEXEC:-mpiexec}" family) || fail "no launcher for ${MPIEXEC:-mpiexec}"
  # The tuning below is Open MPI's; Hydra's proxies and MPICH's UCX transport are not ported.
  [ "$family" = openmpi ] || fail "the testbed runs Open MPI only; ${MPIEXEC:-mpiexec} is $family's mpiexec"
  # routed direct: every daemon talks to mpiexec itself (no tree through daemons the agent cannot reach).
  # yield_when_idle: all nodes share the machine's cores; a rank polling TCP without yielding holds a
  # core for a whole scheduler quantum (an exchange then costs ~10 ms, a test minutes instead of seconds).
  echo "--mca routed direct --mca mpi_yield_when_idle 1 --mca oob_tcp_if_include $subnet.0/24" \
       "--mca btl_tcp_if_include $subnet.0/24 --mca btl self,vader,tcp" \
       $(python3 "$launcher" --mpiexec "${MPIEXEC:-mpiexec}" hosts "$agent" "$hosts")
}

run() {
  [ "$(nodes_up)" -gt 0 ] || fail "no testbed; run 'up N' first"
  exec ip netns exec "${prefix}0" env TMPDIR="$state/tmp0" "$@"
}

bytes() {
  local i n; n=$(nodes_up)
  [ "$n" -gt 0 ] || fail "no testbed; run 'up N' first"
  for i in $(seq 1 "$n"); do
    echo "node$i tx $(ip netns exec "$prefix$i" cat "/sys/class/net/${prefix}v$i/statistics/tx_bytes")" \
         "rx $(ip netns exec "$prefix$i" cat "/sys/class/net/${prefix}v$i/statistics/rx_bytes")"
  done
}

down() {
  local ns
  # Every namespace with the prefix, also from an `up` whose state file is gone.
  for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^${prefix}[0-9]+$" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
  for ns in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | cut -d@ -f1 | grep -E "^${prefix}p[0-9]+$" || true); do
    ip link del "$ns" 2>/dev/null || true
  done
  ip link del "$bridge" 2>/dev/null || true
  rm -rf "$state"
}

cmd=${1:-}; shift || true
case $cmd in
  check) check ;; up) up "$@" ;; nodes) nodes_up ;; flags) flags "$@" ;; run) run "$@" ;; bytes) bytes ;; down) down ;;
  *) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

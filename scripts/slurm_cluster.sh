#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# cartex Slurm testbed: a real Slurm 22.05 cluster (Debian's slurmctld, slurmd, slurm-client, munge)
# on one Linux machine, whose compute nodes are the network-namespace testbed's simulated nodes.
#
# scripts/netns_cluster.sh makes the nodes (a network namespace each, on one bridge). Here munged runs
# on the host with a key and socket of its own, slurmctld runs in the launcher namespace (node 0,
# 10.79.0.10, hostname ctl) and one slurmd per node in that node's namespace with its own hostname
# (node1, node2, ...): a job's tasks on different nodes see different host names and talk over TCP
# between namespaces, as on a real cluster. Slurm's own multiple-slurmd mode would put every slurmd on
# one host name, and MPI would then see one node. Clients reach slurmctld from node 0: run them through
# `run`. Needs root, the Debian packages (scripts/setup.sh --slurm) and what the netns testbed needs.
#
#   scripts/slurm_cluster.sh check         exit 0 if a cluster can be made here, else 3 and the reason
#   scripts/slurm_cluster.sh up [N]        munged, slurmctld, slurmd on nodes 1..N (default 2), all idle
#                                          (nothing done when a cluster is up and answering)
#   scripts/slurm_cluster.sh run CMD...    CMD (sbatch, srun, squeue, scancel, scontrol, sinfo...) with
#                                          SLURM_CONF set, in the launcher namespace
#   scripts/slurm_cluster.sh tick          seconds (decimal) until slurmctld's next time-limit check: it
#                                          sends --signal's signals and ends jobs at their limit only
#                                          then, every 30 s (a --signal comes up to 30 s early, the
#                                          end at the limit up to 30 s late)
#   scripts/slurm_cluster.sh versions      the Slurm, munge and Open MPI versions, one line
#   scripts/slurm_cluster.sh down          stop every daemon it started and remove all it made (safe to
#                                          repeat)
#
# The partition `short` (the default) has a time limit of 5 minutes (1 minute unless a job asks more),
# 2 CPUs per node (both nodes share the machine's cores), KillWait 5 s (SIGTERM to SIGKILL on
# cancel or time limit), requeue allowed; MpiDefault pmix (what Open MPI 4 needs from srun, as on
# most sites).
# Names start with CARTEX_SLURM_PREFIX (default ctxsl; the testbed's namespaces get it too), the state
# (slurm.conf, logs, spool, munge key) lives in /tmp/<prefix>-slurm. CARTEX_SLURM_UNAVAILABLE=REASON
# makes `check` and `up` fail with REASON (to test what callers do without a cluster).
#
# Example, 2 nodes x 2 tasks:
#   scripts/slurm_cluster.sh up
#   scripts/slurm_cluster.sh run sbatch --wait examples/slurm/heat3d.sbatch inputs/heat3d.yaml
#   scripts/slurm_cluster.sh down
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix=${CARTEX_SLURM_PREFIX:-ctxsl}
state=/tmp/${prefix}-slurm
conf=$state/slurm.conf
subnet=10.79.0
testbed() { CARTEX_TESTBED_PREFIX=$prefix "$here/netns_cluster.sh" "$@"; }

fail() { echo "slurm_cluster: $*" >&2; exit 3; }

# Why no cluster can be made here (empty when one can).
unavailable_reason() {
  if [ -n "${CARTEX_SLURM_UNAVAILABLE:-}" ]; then echo "$CARTEX_SLURM_UNAVAILABLE (CARTEX_SLURM_UNAVAILABLE)"; return; fi
  if [ "$(id -u)" -ne 0 ]; then echo "needs root to start Slurm's daemons (running as uid $(id -u))"; return; fi
  local p missing=()
  for p in slurmctld slurmd slurmstepd sbatch srun squeue scancel scontrol sinfo munged; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "no ${missing[*]} (Debian's slurmctld slurmd slurm-client munge: scripts/setup.sh --slurm)"; return
  fi
  local why
  why=$(testbed check 2>&1) || { echo "${why#netns_cluster: }"; return; }
}

check() {
  local why; why=$(unavailable_reason)
  [ -z "$why" ] || fail "cannot make a Slurm cluster: $why"
}

export PATH=$PATH:/usr/sbin
versions() {
  local slurm munge ompi
  slurm=$(slurmd -V 2>/dev/null || echo "no Slurm")
  munge=$(munged -V 2>/dev/null | awk '{print $1; exit}' || true)
  ompi=$(ompi_info --version 2>/dev/null | sed -n 's/^Open MPI v/Open MPI /p' | head -1 || true)
  echo "${slurm}; ${munge:-no munge}; ${ompi:-no Open MPI}"
}

nodes_up() { if [ -f "$state/nodes" ]; then cat "$state/nodes"; else echo 0; fi; }

in_ctl() { ip netns exec "${prefix}0" env SLURM_CONF="$conf" "$@"; }

# True when slurmctld answers and every node is idle (or allocated/mixed: a cluster in use is up).
answering() {
  local n; n=$(nodes_up)
  [ "$n" -gt 0 ] || return 1
  local states
  states=$(in_ctl sinfo -h -N -o '%N %t' 2>/dev/null | sort -u) || return 1
  [ "$(grep -cE ' (idle|alloc|mix|comp)$' <<<"$states")" -eq "$n" ]
}

write_conf() {
  local n=$1 i
  {
    echo "# Written by scripts/slurm_cluster.sh: the cartex Slurm testbed."
    echo "ClusterName=cartex"
    echo "SlurmctldHost=ctl($subnet.10)"
    echo "SlurmUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    # cred_expire: also how long a requeued job waits before it may start again (default 120 s).
    echo "AuthInfo=socket=$state/munge/munge.socket,cred_expire=5"
    echo "StateSaveLocation=$state/ctld"
    echo "SlurmdSpoolDir=$state/spool/%n"
    echo "SlurmctldPidFile=$state/slurmctld.pid"
    echo "SlurmdPidFile=$state/slurmd-%n.pid"
    echo "SlurmctldLogFile=$state/slurmctld.log"
    echo "SlurmctldDebug=debug2"
    echo "SlurmdLogFile=$state/slurmd-%n.log"
    # The nodes share one file system: each needs a temporary directory of its own (the PMIx plugin
    # makes its per-step directories there, with the same names on every node).
    echo "TmpFS=$state/tmp/%n"
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "JobCompType=jobcomp/none"
    echo "SchedulerType=sched/backfill"
    # A small cluster can afford a look at the queue every second (defaults: 60 s and 30 s): a requeued
    # job or one whose begin time came starts within a second or two.
    echo "SchedulerParameters=sched_interval=1,bf_interval=1"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_CPU"
    echo "MpiDefault=pmix"
    echo "ReturnToService=2"
    echo "SlurmdParameters=config_overrides"
    echo "KillWait=5"
    echo "MinJobAge=600"
    echo "InactiveLimit=0"
    echo "JobRequeue=0"
    for i in $(seq 1 "$n"); do
      echo "NodeName=node$i NodeAddr=$subnet.1$i NodeHostname=node$i Sockets=1 CoresPerSocket=2 ThreadsPerCore=1 RealMemory=1000 State=UNKNOWN"
    done
    echo "PartitionName=short Nodes=node[1-$n] Default=YES MaxTime=5 DefaultTime=1 State=UP"
  } > "$conf"
  # slurmd 22.05 starts a cgroup plugin even when no plugin above uses cgroups; autodetect fails on a
  # hybrid mount (a tmpfs on /sys/fs/cgroup), so name the version the machine has.
  local cgroup=cgroup/v1
  [ -f /sys/fs/cgroup/cgroup.controllers ] && cgroup=cgroup/v2
  echo "CgroupPlugin=$cgroup" > "$state/cgroup.conf"
}

start_munged() {
  local d=$state/munge
  if [ -f "$d/munged.pid" ] && kill -0 "$(cat "$d/munged.pid")" 2>/dev/null; then return; fi
  mkdir -p "$d"; chmod 711 "$d"
  [ -f "$d/munge.key" ] || { dd if=/dev/urandom of="$d/munge.key" bs=128 count=1 status=none; chmod 600 "$d/munge.key"; }
  munged --force --socket="$d/munge.socket" --key-file="$d/munge.key" --pid-file="$d/munged.pid" \
         --log-file="$d/munged.log" --seed-file="$d/munged.seed"
}

up() {
  local n=${1:-2} i
  [[ "$n" =~ ^[1-9]$ ]] || fail "usage: up [N] (N = 1..9 nodes)"
  if [ "$(nodes_up)" = "$n" ] && answering; then echo "slurm_cluster: $n node(s) up"; return; fi
  check
  [ "$(nodes_up)" = 0 ] || down
  testbed up "$n" >/dev/null
  mkdir -p "$state/ctld" "$state/spool"
  chmod 755 "$state"
  write_conf "$n"
  start_munged
  date +%s.%N > "$state/started"
  ip netns exec "${prefix}0" unshare --uts sh -c "hostname ctl && exec slurmctld -f '$conf'"
  for i in $(seq 1 "$n"); do
    mkdir -p "$state/spool/node$i" "$state/tmp/node$i"
    ip netns exec "$prefix$i" unshare --uts sh -c "hostname node$i && exec slurmd -f '$conf' -N node$i"
  done
  echo "$n" > "$state/nodes"
  for i in $(seq 1 60); do
    answering && { echo "slurm_cluster: $n node(s) up: $(versions)"; return; }
    sleep 0.5
  done
  in_ctl sinfo -N >&2 || true
  tail -n 20 "$state/slurmctld.log" >&2 || true
  fail "the nodes did not become idle within 30 s (logs in $state)"
}

# Stops the daemons of the pid files FILE... : SIGTERM to all at once (each takes about 2 s to exit),
# SIGKILL to any still there after 5 s.
stop_pidfiles() {
  local f pids=() pid i
  for f in "$@"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f"); rm -f "$f"
    kill "$pid" 2>/dev/null && pids+=("$pid")
  done
  for i in $(seq 1 50); do
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && break; pid=; done
    [ -n "${pid:-}" ] || return 0
    sleep 0.1
  done
  for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
}

down() {
  stop_pidfiles "$state"/slurmd-*.pid "$state/slurmctld.pid" "$state/munge/munged.pid"
  testbed down
  rm -rf "$state"
}

# slurmctld logs each time-limit check at debug2 ("Testing job time limits"); they come every 30 s
# from its start (PERIODIC_TIMEOUT in Slurm's source).
tick() {
  [ "$(nodes_up)" -gt 0 ] || fail "no Slurm cluster; run 'up' first"
  local last now
  last=$(sed -n 's/^\[\([0-9T:.-]*\)\] debug2: Testing job time limits.*/\1/p' "$state/slurmctld.log" | tail -n 1)
  if [ -n "$last" ]; then last=$(date -d "$last" +%s.%N); else last=$(cat "$state/started"); fi
  now=$(date +%s.%N)
  awk -v l="$last" -v n="$now" 'BEGIN { t = l + 30; while (t < n) t += 30; printf "%.1f\n", t - n }'
}

run() {
  [ "$(nodes_up)" -gt 0 ] || fail "no Slurm cluster; run 'up' first"
  exec ip netns exec "${prefix}0" env SLURM_CONF="$conf" "$@"
}

cmd=${1:-}; shift || true
case $cmd in
  check) check ;; up) up "$@" ;; run) run "$@" ;; tick) tick ;; versions) versions ;; down) down ;;
  *) sed -n '3,38p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac

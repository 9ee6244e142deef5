#!/usr/bin/env bash
# Runs a cartex MPI program on a simulated cluster with SimGrid's SMPI (docs/scale.md): installs SimGrid
# if missing (scripts/setup.sh --smpi), builds the smpi preset (build-smpi/: the MPI-only layers and
# their programs compiled with smpicxx, CARTEX_MPI_ONLY), writes the hostfile (ranks fill the nodes in
# order, `core` of them per node) and runs the program under smpirun, niced, measured by /usr/bin/time -v.
#
# Usage: scripts/simulate.sh [--log FILE] [--no-build] [--bin DIR] PLATFORM PROCESSES PROGRAM [ARGS...]
#   PLATFORM    hydra, titan (platforms/NAME.xml) or a SimGrid platform file with one <cluster>
#   PROCESSES   simulated MPI processes (at most nodes x cores of the platform)
#   PROGRAM     a program of build-smpi/bin (cartbench, graphbench, haloplans)
#   --log FILE  also write everything (the program's output, SMPI's settings, host cost) to FILE
#   --bin DIR   the programs' directory (default build-smpi/bin; --no-build implied: the tests pass theirs)
# e.g. scripts/simulate.sh hydra 1152 cartbench --d 5 --n 3 --m 1,10,100 --check
#
# The SMPI settings (every run, written into the output): the calibration of docs/scale.md (smpi/ois:
# 0.285 us of CPU per MPI_Isend, the sender's plus the receiver's measured per-message cost, since SMPI
# 3.32 charges smpi/os and smpi/or only to detached sends; the platforms' loopback), no correction
# factors (bw-factor, lat-factor 1), maxmin/precision 1e-3 (SimGrid's 1e-5 aborts at 1,152 ranks:
# "Cannot saturate more a constraint"), computation not
# simulated (smpi/simulate-computation:no: every message's overheads, latency and bandwidth are, local
# copies are free; the host's CPU time of a short burst is noise on a shared machine), sends not
# detached (smpi/send-is-detached-thresh:0: SimGrid 3.32's detached sends cost the simulator time
# quadratic in the messages in flight), MPI_Barrier by Bruck's dissemination (smpi/barrier:ompi_bruck:
# SMPI's default releases the ranks one by one from a root, which with 0.285 us per send skews the
# ranks by 0.285 us x P before every timed run), MPI_Allreduce and MPI_Reduce by recursive doubling and a
# binomial tree (smpi/allreduce:rdb, smpi/reduce:binomial: SMPI's default reduce is linear, its root waits
# on P requests at once, host time quadratic in P -- minutes per call at 16,384 processes; these
# collectives only gather the programs' results outside the timed windows), no privatization (cartex keeps
# no per-rank globals).
# Extra SimGrid options: SMPI_FLAGS="--cfg=...". At the end: host wall time and peak memory.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log= build=1 bin=$root/build-smpi/bin
while [ $# -gt 0 ]; do
  case "$1" in
    --log) log=$2; shift 2 ;;
    --bin) bin=$2; build=0; shift 2 ;;
    --no-build) build=0; shift ;;
    *) break ;;
  esac
done
if [ $# -lt 3 ]; then sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; exit 2; fi
platform=$1 procs=$2 program=$3
shift 3
case "$platform" in
  */*|*.xml) xml=$(cd "$(dirname "$platform")" && pwd)/$(basename "$platform") ;;
  *) xml=$root/platforms/$platform.xml ;;
esac
[ -f "$xml" ] || { echo "simulate.sh: no platform file $xml" >&2; exit 2; }
[[ "$procs" =~ ^[1-9][0-9]*$ ]] || { echo "simulate.sh: PROCESSES must be a positive integer, got '$procs'" >&2; exit 2; }

if [ "$build" = 1 ]; then
  "$root/scripts/setup.sh" --smpi
  (cd "$root" && cmake --preset smpi >/dev/null && cmake --build --preset smpi --parallel 2 >/dev/null) \
    || { echo "simulate.sh: building the smpi preset failed (cmake --build --preset smpi)" >&2; exit 1; }
fi
binary=$bin/$program
[ -x "$binary" ] || { echo "simulate.sh: no program $binary (build the smpi preset)" >&2; exit 2; }

# The hostfile: the <cluster>'s hosts prefix + i + suffix for i in its radical "A-B", `core` ranks each.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$xml" "$procs" >"$work/hosts" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
procs = int(sys.argv[2])
m = re.search(r"<cluster\b([^>]*)>", text)
if not m:
    sys.exit(f"simulate.sh: {sys.argv[1]} has no <cluster>")
attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
lo, hi = (int(x) for x in attrs["radical"].split("-"))
core = int(attrs.get("core", "1"))
nodes = hi - lo + 1
if procs > nodes * core:
    sys.exit(f"simulate.sh: {procs} processes do not fit {nodes} nodes x {core} cores of {sys.argv[1]}")
for r in range(procs):  # one line a rank (smpirun would unroll "host:N" into a file in the working directory)
    print(f"{attrs.get('prefix', '')}{lo + r // core}{attrs.get('suffix', '')}")
PY

flags=(--cfg=smpi/privatization:no --cfg=smpi/host-speed:1Gf --cfg=smpi/simulate-computation:no
       --cfg=smpi/send-is-detached-thresh:0 --cfg=smpi/ois:0:2.85e-7:0 --cfg=smpi/barrier:ompi_bruck
       --cfg=smpi/allreduce:rdb --cfg=smpi/reduce:binomial
       --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=maxmin/precision:1e-3 ${SMPI_FLAGS:-})
cpu=$(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -1)
family=$(sed -n 's/^cpu family\s*: //p' /proc/cpuinfo | head -1)
model=$(sed -n 's/^model\s*: //p' /proc/cpuinfo | head -1)
run() {
  echo "== simulate.sh: $procs processes on $(basename "$xml") ($(uniq "$work/hosts" | wc -l) nodes), $program $*"
  echo "== host: $cpu family $family model $model, $(nproc) cores, $(free -g | awk '/^Mem:/{print $2}') GiB; commit $(git -C "$root" rev-parse --short=12 HEAD)"
  echo "== smpirun ${flags[*]}"
  local rc=0
  nice -n 19 /usr/bin/time -v -o "$work/time" smpirun -np "$procs" -platform "$xml" -hostfile "$work/hosts" \
    "${flags[@]}" "$binary" "$@" 2> >(grep -v -e '\[xbt_cfg/INFO\]' -e 'smpi_config/INFO' >&2) || rc=$?
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time")
  echo "== host cost: wall $wall, peak memory $((rss / 1024)) MiB, exit $rc"
  return $rc
}
if [ -n "$log" ]; then
  run "$@" 2>&1 | tee "$log"
  exit "${PIPESTATUS[0]}"
fi
run "$@"

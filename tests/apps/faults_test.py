#!/usr/bin/env python3
"""Resource limits and faults at run time (issue 13): inputs that would need more memory than a node
has are refused before set-up with the estimate; --dry-run prints the estimate; a rank killed mid-run
ends the job within seconds and the previous checkpoint restarts to the uninterrupted result; a full
disk during output is a clear error with the last good checkpoint intact. One case per ctest:

    faults_test.py --heat3d PATH --wave3d PATH --mpiexec PATH CASE
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None
BASE = cartex_testing.BASE_INPUT


def run(ranks, args, cwd, env=None, timeout=120):
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.heat3d, args, cwd, per_rank_codes=True, env=env, timeout=timeout)


def resource(out, key):
    """The integer after `key` on the dry run's resources lines, or None."""
    m = re.search(r"^  " + re.escape(key) + r"\s+(\d+)", out, re.M)
    return int(m.group(1)) if m else None


def refused(ranks, args, d, key, env=None):
    """Runs and checks: refused on every rank within 20 s with one located line at `key`; returns the line."""
    t0 = time.monotonic()
    code, out, err, codes = run(ranks, args, d, env=env, timeout=60)
    took = time.monotonic() - t0
    lines = cartex_testing.own_lines(err)
    check(codes == [2] * ranks, f"{args}: per-rank exit codes {codes}, stderr {lines}")
    check(took < 20, f"{args}: refusing took {took:.1f} s")
    # Located at the input file's line, or at the --set that gave the value.
    ok = len(lines) == 1 and re.match(r"^(\S+:\d+:\d+|--set \S+): " + re.escape(key) + ": ", lines[0])
    check(ok, f"{args}: expected one located line at {key}, got {lines}")
    return lines[0] if lines else ""


def case_resources_refused():
    """grid.n = 4000^3 on 1 and 2 ranks is refused quickly at grid.n with the estimate; a deep halo
    (steps_per_exchange 400 on 512^3) at halo.steps_per_exchange."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for ranks in (1, 2):
            line = refused(ranks, ["in.yaml", "--set", "grid.n=[4000,4000,4000]"], d, "grid.n")
            # 4000^3 cells over `ranks`, each of u and next with a one-cell halo: at least 2 * 8 bytes a cell.
            m = re.search(r"the run needs an estimated (\d+) B \([\d.]+ TiB\) on a node \((\d+) rank\(s\) x (\d+) B", line)
            if check(m is not None, f"no estimate in {line!r}"):
                node, per_rank = int(m.group(1)), int(m.group(3))
                check(int(m.group(2)) == ranks, f"ranks on the node {m.group(2)}, expected {ranks}")
                check(per_rank >= 16 * 4000**3 // ranks, f"per-rank estimate {per_rank} below the fields alone")
                check(node == per_rank * ranks, f"node total {node} != {ranks} x {per_rank}")
            check(not os.path.exists(os.path.join(d, "output")), "an output directory was created")
        refused(1, ["in.yaml", "--set", "grid.n=[512,512,512]", "--set", "halo.steps_per_exchange=400"], d,
                "halo.steps_per_exchange")


def case_resources_dry_run():
    """--dry-run of 16^3 on 2 ranks (7pt, p2p) prints the estimate, checked against a hand computation."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        code, out, err, codes = run(2, ["in.yaml", "--dry-run", "--set", "grid.n=[16,16,16]"], d)
        check(codes == [0, 0], f"dry run: codes {codes}: {err}")
        check("process grid: 1x1x2" in out, f"dry run: expected process grid 1x1x2:\n{out}")
        # Blocks 16x16x8 with a one-cell halo on each side: 18*18*10 = 3240 cells, 2048 inside.
        halo = 18 * 18 * 10 - 16 * 16 * 8
        expected = {"halo cells": halo,                      # 1192
                    "field bytes": 2 * 18 * 18 * 10 * 8,     # u and next: 51840
                    "buffer bytes": 2 * halo * 8,            # p2p: a send and a receive buffer
                    # Send and receive lists, pattern and plan: 32 B a run, a run per x-line holding halo
                    # cells at most (18*10 lines, 16*8 of them through the block with an x halo each side).
                    "halo list bytes": 4 * 32 * (18 * 10 - 16 * 8 + 2 * 16 * 8),
                    "geometry bytes": 2 * (27 + 18 * 18 * 10),  # reach 3^3 and the block walk region, 2 B a cell
                    "output staging bytes": 16 * 16 * 8 * 8,  # one field's block
                    "geometry walk cells": 27 + 18 * 18 * 10}
        for key, want in expected.items():
            check(resource(out, key) == want, f"dry run: {key} {resource(out, key)}, expected {want}")
        total = sum(v for k, v in expected.items() if k.endswith("bytes"))
        check(resource(out, "total bytes per rank") == total, f"dry run: total {resource(out, 'total bytes per rank')}, expected {total}")
        check(resource(out, "node total bytes") == 2 * total, f"dry run: node total {resource(out, 'node total bytes')}")
        check(re.search(r"^  node total bytes .*\(2 rank\(s\) on the fullest node; limit \d+", out, re.M) is not None,
              f"dry run: node line:\n{out}")
        # wave3d keeps its previous level in u_next and checkpoints two fields: twice the staging.
        write(d, "wave.yaml", BASE.replace("alpha: 1.0", "speed: 1.0"))
        wave = cartex_testing.mpirun(ARGS.mpiexec, 2, ARGS.wave3d, ["wave.yaml", "--dry-run", "--set", "grid.n=[16,16,16]"], d)
        check(wave[0] == 0, f"wave dry run: {wave[2]}")
        check(resource(wave[1], "field bytes") == 51840, f"wave dry run: field bytes {resource(wave[1], 'field bytes')}")
        check(resource(wave[1], "output staging bytes") == 2 * 16384, "wave dry run: staging")


def case_resources_limit():
    """CARTEX_MEMORY_LIMIT overrides the node's memory: below the 16^3 estimate the input is refused,
    above it accepted (and named in the dry run); a malformed value is one error line, exit 2."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        args = ["in.yaml", "--dry-run", "--set", "grid.n=[16,16,16]"]
        line = refused(2, args, d, "grid.n", env={"CARTEX_MEMORY_LIMIT": "100K"})
        check("more than the 102400 B (100.0 KiB) of CARTEX_MEMORY_LIMIT" in line, f"limit not named: {line}")
        code, out, err, codes = run(2, args, d, env={"CARTEX_MEMORY_LIMIT": "1G"})
        check(codes == [0, 0], f"limit 1G: codes {codes}: {err}")
        check("limit 1073741824 B (1.0 GiB) from CARTEX_MEMORY_LIMIT" in out, f"limit 1G not in the dry run:\n{out}")
        code, out, err, codes = run(2, args, d, env={"CARTEX_MEMORY_LIMIT": "lots"})
        lines = cartex_testing.own_lines(err)
        check(codes == [2, 2], f"limit 'lots': codes {codes}")
        check(lines == ['CARTEX_MEMORY_LIMIT: expected bytes per node (a number with an optional K, M, G or T suffix), '
                        'got "lots"'], f"limit 'lots': {lines}")


# Runs the app with one rank's set-up made different (issue 35): RANK_SETUP's shell line runs on the
# last rank only, before it starts the app (OMPI_COMM_WORLD_RANK under Open MPI, PMI_RANK under Hydra).
ODD_RANK_WRAPPER = """#!/bin/sh
r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
if [ "$r" = "$CARTEX_TEST_ODD_RANK" ]; then eval "$CARTEX_TEST_ODD_SETUP"; fi
exec "$CARTEX_TEST_PROGRAM" "$@"
"""


def case_rank_dependent_setup():
    """A set-up that fails on one rank only (an environment variable, an input file that only some ranks
    find or that differs between them) is one located line and exit 2 on every rank, within seconds,
    not a hang or an MPI error: every decision a rank takes from its own data is agreed before the
    collectives that follow it."""
    odd = [("export CARTEX_MEMORY_LIMIT=lots", r"CARTEX_MEMORY_LIMIT: expected bytes per node"),
           ("export CARTEX_RANKS_PER_NODE=1", r"environment: CARTEX_RANKS_PER_NODE is unset on rank 0 but '1' on rank \d"),
           ("export CARTEX_AUTO_TRY_ALL=1", r"environment: CARTEX_AUTO_TRY_ALL is unset on rank 0 but '1' on rank \d"),
           ("cd missing", r"^in\.yaml:1:1: \(file\): cannot open the input file"),
           ("cd other", r"^in\.yaml:1:1: \(file\): rank \d read other bytes than rank 0")]
    with tempfile.TemporaryDirectory() as d:
        wrapper = write(d, "odd-rank.sh", ODD_RANK_WRAPPER)
        os.chmod(wrapper, 0o755)
        write(d, "in.yaml", cartex_testing.small_input(steps=120))
        os.makedirs(os.path.join(d, "missing"))
        os.makedirs(os.path.join(d, "other"))
        write(os.path.join(d, "other"), "in.yaml", BASE.replace("alpha: 1.0", "alpha: 0.5"))
        for ranks in (2, 3):
            for setup, expected in odd:
                env = {"CARTEX_TEST_ODD_RANK": str(ranks - 1), "CARTEX_TEST_ODD_SETUP": setup, "CARTEX_TEST_PROGRAM": ARGS.heat3d}
                t0 = time.monotonic()
                try:
                    code, out, err, codes = cartex_testing.mpirun(ARGS.mpiexec, ranks, wrapper, ["in.yaml"], d, per_rank_codes=True,
                                                                  env=env, timeout=60)
                except subprocess.TimeoutExpired:
                    check(False, f"{ranks} ranks, last rank '{setup}': no exit within 60 s (a hang)")
                    continue
                took = time.monotonic() - t0
                lines = cartex_testing.own_lines(err)
                what = f"{ranks} ranks, last rank '{setup}'"
                check(codes == [2] * ranks, f"{what}: per-rank exit codes {codes}, stderr {lines}")
                check(len(lines) == 1 and re.search(expected, lines[0]) is not None, f"{what}: expected one line /{expected}/, got {lines}")
                check(took < 20, f"{what}: refusing took {took:.1f} s")


def spawn(ranks, args, d, name):
    """Starts heat3d on `ranks` ranks in the background; each rank writes its pid to NAME.RANK."""
    rank = cartex_testing.launcher(ARGS.mpiexec).rank_variable
    cmd = [ARGS.mpiexec, "-n", str(ranks)] + cartex_testing.mpi_flags(ARGS.mpiexec, ranks)
    cmd += ["sh", "-c", f'echo $$ > {name}.${rank}; exec "$0" "$@"', ARGS.heat3d] + args
    return subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(path, proc, seconds):
    """Waits until `path` exists (True) or the process ended or time ran out (False)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end and proc.poll() is None:
        if os.path.exists(path):
            return True
        time.sleep(0.05)
    return False


def checkpoints(dirname):
    """The complete checkpoints in `dirname`, oldest first."""
    return sorted(n for n in os.listdir(dirname) if re.fullmatch(r"checkpoint_\d+\.h5", n))


def restart_matches(d, ck, steps, what):
    """Restarting from `ck` to `steps` on 2 ranks gives the checksum of an uninterrupted run to `steps`."""
    sets = [f"run.steps={steps}"]
    code, ref, err, _ = run(2, ["in.yaml"] + set_args(sets + ["output.dir=ref"]), d)
    check(code == 0 and checksum(ref), f"{what}: the uninterrupted run failed: {err}")
    code, out, err, _ = run(2, ["in.yaml", "--restart", ck] + set_args(sets + ["output.dir=resumed"]), d)
    check(code == 0, f"{what}: restart from {ck} exited {code}: {err}")
    check(checksum(out) == checksum(ref), f"{what}: restart from {ck}: checksum {checksum(out)}, uninterrupted {checksum(ref)}")


def case_rank_killed():
    """SIGKILL of one rank mid-run ends the whole job within seconds; the newest checkpoint restarts
    to the uninterrupted run's checksum."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE.replace("[12, 10, 8]", "[40, 40, 40]").replace("steps: 20", "steps: 1000000"))
        sets = ["output.dir=run", "output.checkpoint_every=20", "output.keep_checkpoints=0", "run.progress_every=0"]
        proc = spawn(2, ["in.yaml"] + set_args(sets), d, "pid")
        try:
            started = wait_for(os.path.join(d, "run", "checkpoint_000040.h5"), proc, 120)
            if not started:
                # Seen twice as a normal user (2026-12-07, 0.3 s into the test), not reproduced since:
                # say how the job ended.
                ended = proc.poll() is not None
                out, err = proc.communicate() if ended else ("", "")
                check(False, f"the run wrote no second checkpoint ({f'mpiexec exited {proc.returncode}' if ended else 'still running'}):\n"
                             f"{out[-2000:]}{err[-2000:]}")
                return
            victim = int(open(os.path.join(d, "pid.1")).read())
            os.kill(victim, signal.SIGKILL)
            t0 = time.monotonic()
            try:
                out, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                check(False, "the job did not end within 30 s of a rank's SIGKILL")
                return
            took = time.monotonic() - t0
            check(took < 10, f"the job took {took:.1f} s to end after a rank's SIGKILL")
            check(proc.returncode != 0, f"mpiexec exited {proc.returncode} after a rank was killed")
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        names = checkpoints(os.path.join(d, "run"))
        newest = names[-1]
        step = int(newest[11:17])
        restart_matches(d, os.path.join("run", newest), step + 10, "after SIGKILL")


def case_disk_full():
    """A full file system during checkpoint output (a 1 MiB tmpfs) ends the run with a clear error
    on every rank, no hang, and the last complete checkpoint restarts to the uninterrupted result."""
    with tempfile.TemporaryDirectory() as d, cartex_testing.mounted_tmpfs(os.path.join(d, "small"), "size=1m") as mnt:
        # 32^3 doubles: 256 KiB a checkpoint, so the fourth does not fit in 1 MiB.
        write(d, "in.yaml", BASE.replace("[12, 10, 8]", "[32, 32, 32]").replace("steps: 20", "steps: 40"))
        sets = ["output.dir=small", "output.checkpoint_every=5", "output.keep_checkpoints=0"]
        t0 = time.monotonic()
        code, out, err, codes = run(2, ["in.yaml"] + set_args(sets), d, timeout=60)
        took = time.monotonic() - t0
        lines = [l for l in err.splitlines() if "error" in l]
        check(code != 0, f"the run on a full disk exited {code}")
        check(took < 30, f"the run on a full disk took {took:.1f} s")
        check(1 <= len(lines) <= 2 and all(re.match(r"^rank \d: error: .*small/checkpoint_\d+\.h5", l) for l in lines),
              f"full disk: expected one error line per failing rank naming the checkpoint; exit code {code}, per-rank "
              f"codes {codes}, stderr:\n{err}\nstdout's last lines:\n" + "\n".join(out.splitlines()[-5:]))
        names = checkpoints(mnt)
        check(len(names) >= 1, f"no complete checkpoint before the disk filled: {os.listdir(mnt)}")
        if names:
            newest = os.path.join("small", names[-1])
            restart_matches(d, newest, 40, "after a full disk")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d", "wave3d"])

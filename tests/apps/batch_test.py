#!/usr/bin/env python3
"""End-to-end tests of what a batch job needs from heat3d and wave3d: run.end_time, output and
checkpoints every simulated-time interval, stopping on SIGTERM/SIGUSR1 or the wall-time limit with a
checkpoint, a restart command that runs as printed, its own exit code and a restart marker, one name
for the integral of u, the summary of a restarted run, an output directory checked by writing before
step 1 and late write failures after the summary. One case per ctest:

    batch_test.py --heat3d PATH --wave3d PATH --mpiexec PATH --data DIR CASE
"""
import math
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, set_args, summary_value, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = cartex_testing.small_input(steps=20, progress_every=None, time_step="dt: 3.0e-4")


def run(ranks, args, cwd, per_rank_codes=False, app=None):
    """Runs heat3d (or `app`) on `ranks` ranks; see cartex_testing.mpirun."""
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, app or ARGS.heat3d, args, cwd, per_rank_codes)


def ok_run(ranks, d, args, app=None):
    """Runs and checks exit 0; returns stdout."""
    code, out, err, _ = run(ranks, args, d, app=app)
    check(code == 0, f"{' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def bad_input(d, text, args, expected, ranks=2):
    """Checks that input `text` fails with the one located line `expected` and exit 2 on every rank."""
    write(d, "bad.yaml", text)
    code, out, err, codes = run(ranks, ["bad.yaml"] + args, d, per_rank_codes=True)
    lines = cartex_testing.own_lines(err)
    check(codes == [2] * ranks and lines == [expected], f"bad input: codes {codes}, stderr {lines}, expected {expected!r}")


def history_rows(path):
    """history.csv as (header, rows of strings)."""
    lines = open(path).read().splitlines()
    return lines[0], [l.split(",") for l in lines[1:]]


def case_end_time():
    """run.end_time: n = ceil(T/dt) uniform steps of T/n, the last one exactly at T; the sine error
    against the exact discrete solution stays at round-off; the resolved YAML reloads to the same run."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE.replace("  steps: 20", "  end_time: 0.01"))
        out = ok_run(2, d, ["in.yaml", "--dry-run"])
        n = math.ceil(0.01 / 3.0e-4)  # 33.3 -> 34 steps of 0.01/34 < 3e-4
        check(f"end time: 0.01 = {n} steps of the uniform dt {0.01 / n!r}" in out, f"dry run end time line:\n{out}")
        resolved = out.split("# resolved configuration (in.yaml)\n", 1)[-1].split("\n# decomposition", 1)[0]
        check("end_time: 0.01" in resolved and "steps:" not in resolved, f"resolved run section:\n{resolved}")
        write(d, "resolved.yaml", resolved)
        again = ok_run(2, d, ["resolved.yaml", "--dry-run"])
        check(f"end time: 0.01 = {n} steps of the uniform dt {0.01 / n!r}" in again, f"resolved YAML reloads differently:\n{again}")
        out = ok_run(2, d, ["in.yaml", "--set", "output.history=true"])
        check(re.search(rf"^  steps +1\.\.{n} of {n}, dt 0\.000294118 \(cfl \S+\), t_end 0\.01 = run\.end_time$", out, re.M),
              f"summary steps line:\n{out}")
        err = summary_value(out, "sine error")
        check(err is not None and float(err) < 1e-12, f"sine error {err} with the uniform dt")
        header, rows = history_rows(os.path.join(d, "output", "history.csv"))
        check(rows[-1][0] == str(n) and float(rows[-1][1]) == 0.01, f"last history row {rows[-1]} (expected step {n}, t 0.01)")
        # A multiple of dt up to rounding takes exactly that many steps.
        out = ok_run(1, d, ["in.yaml", "--dry-run", "--set", "run.end_time=0.003"])
        check("end time: 0.003 = 10 steps of the uniform dt" in out, f"end_time 10*dt:\n{out}")


def files(d, prefix):
    return sorted(int(f[len(prefix):-3]) for f in os.listdir(d) if f.startswith(prefix) and f.endswith(".h5"))


def case_every_time():
    """output.every_time and checkpoint_every_time: a file at the first step whose time reaches each
    multiple of the interval (step 10's time 10 * 3e-4 is 2.9999999999999996e-3 in floating point,
    and still counts as reaching 3e-3), at step 0 (field files) and at the last step."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        ok_run(2, d, ["in.yaml"] + set_args(["output.every_time=1e-3", "output.checkpoint_every_time=2.5e-3",
                                             "output.keep_checkpoints=0", "run.steps=21"]))
        check(files(os.path.join(d, "output"), "fields_") == [0, 4, 7, 10, 14, 17, 20, 21],
              f"field files at steps {files(os.path.join(d, 'output'), 'fields_')}")
        check(files(os.path.join(d, "output"), "checkpoint_") == [9, 17, 21],
              f"checkpoints at steps {files(os.path.join(d, 'output'), 'checkpoint_')}")


def case_bad_keys():
    """Both forms of a kind, a margin without a limit or as large as it, a bad end time: one located
    line, exit 2 on every rank."""
    with tempfile.TemporaryDirectory() as d:
        bad_input(d, BASE + "  end_time: 0.01\n", [], "bad.yaml:8:13: run.end_time: give either run.steps or run.end_time, not both")
        bad_input(d, BASE.replace("  steps: 20", "  end_time: -1"), [],
                  "bad.yaml:7:13: run.end_time: expected a positive number (simulated time to stop at), got -1")
        bad_input(d, BASE + "output:\n  every: 2\n  every_time: 0.5\n", [],
                  "bad.yaml:10:15: output.every_time: give either output.every or output.every_time, not both")
        bad_input(d, BASE + "output:\n  checkpoint_every: 2\n  checkpoint_every_time: 0.5\n", [],
                  "bad.yaml:10:26: output.checkpoint_every_time: give either output.checkpoint_every or "
                  "output.checkpoint_every_time, not both")
        bad_input(d, BASE + "  wall_time_margin: 5\n", [],
                  "bad.yaml:8:21: run.wall_time_margin: needs run.wall_time_limit (a margin below no limit means nothing)")
        bad_input(d, BASE + "  wall_time_limit: 10\n  wall_time_margin: 10\n", [],
                  "bad.yaml:9:21: run.wall_time_margin: expected less than run.wall_time_limit = 10, got 10")
        bad_input(d, BASE, ["--set", "run.wall_time_limit=-3"],
                  "--set run.wall_time_limit=-3: run.wall_time_limit: expected a non-negative number (seconds, 0 = no limit), got -3")


def rank_pids(tag, timeout=60):
    """{MPI rank: pid} of the processes whose command line contains `tag` and that run the app
    binary itself (not mpiexec or a shell), once every rank is there."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        found = {}
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if tag not in open(f"/proc/{pid}/cmdline").read() or os.readlink(f"/proc/{pid}/exe") != os.path.realpath(ARGS.heat3d):
                    continue
                env = open(f"/proc/{pid}/environ").read().split("\0")
            except OSError:
                continue
            for e in env:
                if e.startswith(cartex_testing.launcher(ARGS.mpiexec).rank_variable + "="):
                    found[int(e.split("=", 1)[1])] = int(pid)
        if len(found) == 3:
            return found
        time.sleep(0.05)
    return {}


def stop_line(out):
    """(reason, step, steps, checkpoint) of the 'stopped by' line, or None."""
    m = re.search(r"^stopped by (.+) after step (\d+) of (\d+); checkpoint (.+)$", out, re.M)
    return (m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)) if m else None


# run.stopped_exit_code's default: stopped early with a checkpoint, restart me. Runs with per-rank exit
# codes check those: their mpiexec does not abort on a non-zero code and returns 0 (a plain mpiexec
# returns 75: case_restart_command).
STOPPED = 75


def restart_line(out):
    """The printed 'restart with:' command, or None."""
    m = re.search(r"^restart with: (.+)$", out, re.M)
    check(m is not None, f"no restart command in\n{out}")
    return m.group(1) if m else None


def restart_from_command(d, out, ranks, extra=()):
    """Runs the arguments of the printed 'restart with:' command (after the program), `extra` added,
    on `ranks` ranks."""
    line = restart_line(out)
    if line is None:
        return ""
    words = shlex.split(line)
    program = [i for i, w in enumerate(words) if os.path.basename(w) == "heat3d"]
    if not check(program, f"no heat3d in the restart command {line}"):
        return ""
    return ok_run(ranks, d, words[program[0] + 1:] + list(extra))


# Far more steps than the run can make before the signal, so only the signal ends it (the wall-time
# limit only keeps a run whose handler failed from running on); the state it stopped at is then checked
# by continuing it a few steps and comparing with a fresh run to that step.
SIGNAL_STEPS = 1000000000
SIGNAL_SETS = ["physics.dt=1e-7", f"run.steps={SIGNAL_STEPS}", "run.progress_every=500", "output.dir=stopped",
               "run.wall_time_limit=120"]


def case_signal():
    """SIGTERM to one rank (not rank 0) of a 3-rank run mid-run: every rank exits 75 at the same step
    with a checkpoint and the restart command; that command, continued 500 steps on 2 ranks, ends
    bitwise where a fresh run to that step does. SIGUSR1 does the same."""
    with tempfile.TemporaryDirectory() as d:
        inp = write(d, "in.yaml", BASE)  # an absolute path: it tags this test's processes
        for signo, name in [(signal.SIGTERM, "SIGTERM"), (signal.SIGUSR1, "SIGUSR1")]:
            cmd = cartex_testing.mpi_command(ARGS.mpiexec, 3, ARGS.heat3d, [inp] + set_args(SIGNAL_SETS), d, per_rank_codes=True)
            p = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            # The pids first (the processes exist from the start), then the first progress line (the time
            # loop runs, the handlers are in), then the signal at once: the run must still be stepping.
            pids = rank_pids(inp)
            first = p.stdout.readline()
            check(first.startswith("step ") and 2 in pids, f"{name}: progress {first!r}, rank pids {pids}")
            if 2 in pids:
                os.kill(pids[2], signo)
            out, err = p.communicate(timeout=300)
            out = first + out
            codes = cartex_testing.rank_codes(d)
            check(codes == [STOPPED] * 3, f"{name}: exit {p.returncode}, per rank {codes}: {err}")
            stop = stop_line(out)
            if not check(stop is not None and stop[0] == name and stop[1] < SIGNAL_STEPS, f"{name}: stop line in\n{out}"):
                continue
            check(os.path.exists(os.path.join(d, stop[3])), f"{name}: checkpoint {stop[3]} missing")
            check(re.search(rf"^  steps +1\.\.{stop[1]} of {SIGNAL_STEPS}, .*stopped by {name}$", out, re.M), f"{name}: steps line\n{out}")
            target = stop[1] + 500
            restarted = checksum(restart_from_command(d, out, 2, set_args([f"run.steps={target}"])))
            reference = checksum(ok_run(2, d, [inp] + set_args([SIGNAL_SETS[0], f"run.steps={target}", "output.dir=full"])))
            check(reference is not None and restarted == reference,
                  f"restart after {name} to step {target}: checksum {restarted}, uninterrupted {reference}")


def case_wall_time():
    """run.wall_time_limit: a run far too long for it stops in time with a checkpoint; the state it
    stopped at is the state a fresh run to that step computes."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        sets = ["physics.dt=1e-7", "run.steps=100000000", "run.wall_time_limit=3", "output.dir=res"]
        t0 = time.time()
        code, out, err, codes = run(3, ["in.yaml"] + set_args(sets), d, per_rank_codes=True)
        took = time.time() - t0
        check(codes == [STOPPED] * 3, f"wall time: exit {code}, per rank {codes}: {err}")
        stop = stop_line(out)
        if not check(stop is not None and stop[0].startswith("the wall-time limit"), f"wall time: stop line in\n{out}"):
            return
        # The limit counts from the set-up; mpiexec's start and MPI_Finalize come on top, seconds for 3
        # oversubscribed ranks on a loaded 2-core machine (the 10^8 steps would take hours).
        check(took < 3 + 8, f"wall time: the run took {took:.1f} s for a 3 s limit")
        check(os.path.exists(os.path.join(d, stop[3])), f"wall time: checkpoint {stop[3]} missing")
        fresh = ok_run(2, d, ["in.yaml"] + set_args(["physics.dt=1e-7", f"run.steps={stop[1]}", "output.dir=fresh"]))
        check(checksum(fresh) == checksum(out), f"wall time: stopped at step {stop[1]} with checksum {checksum(out)}, "
                                                f"a fresh run to it {checksum(fresh)}")


def case_names():
    """One name for the integral of u: the summary's 'integral of u', progress 'integral=', the
    history column 'integral' (heat3d and wave3d alike); a checkpoint whose history still says
    total_heat (the version-1 test file) restarts with its rows."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        write(d, "wave.yaml", BASE.replace("alpha", "speed"))
        for app, inp in [(ARGS.heat3d, "in.yaml"), (ARGS.wave3d, "wave.yaml")]:
            out = ok_run(2, d, [inp] + set_args(["run.progress_every=10", "output.history=true", "output.checkpoint_every=20"]), app=app)
            check(re.search(r"^  integral of u +\S+ \(start", out, re.M) and not re.search(r"total heat|int_u|heat=", out),
                  f"{app}: summary names\n{out}")
            check(len(re.findall(r"^step +\d+/20 .* integral=[-+]", out, re.M)) == 2, f"{app}: progress lines\n{out}")
            header, _ = history_rows(os.path.join(d, "output", "history.csv"))
            check(header == "step,time,integral,min,max,sine_rel_error", f"{app}: history header {header}")
            ck = open(os.path.join(d, "output", "checkpoint_000020.h5"), "rb").read()
            check(b"step,time,sum,min,max,integral,sine_rel_error" in ck, f"{app}: checkpoint history columns")
        v1 = """\
grid:
  n: [5, 4, 3]
  length: [1, 2, 0.75]
  periodic: [true, false, true]
physics:
  alpha: 1.0
  dt: 0.001
run:
  steps: 9
output:
  history: true
  dir: v1
"""
        write(d, "v1.yaml", v1)
        ok_run(2, d, ["v1.yaml", "--restart", os.path.join(ARGS.data, "checkpoint_v1.h5")])
        _, rows = history_rows(os.path.join(d, "v1", "history.csv"))
        check([r[:3] for r in rows[:2]] == [["0", "0", "4"], ["7", "0.0070000000000000001", "8"]],
              f"history restored from a total_heat checkpoint: {rows}")


def case_restart_summary():
    """A restarted run says which steps it ran and where it came from; one with nothing left to do
    says so instead of printing a rate of 0."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        ok_run(2, d, ["in.yaml"] + set_args(["output.checkpoint_every=10", "output.keep_checkpoints=0"]))
        out = ok_run(2, d, ["in.yaml", "--restart", "output/checkpoint_000010.h5", "--set", "output.dir=again"])
        check(re.search(r"^  steps +11\.\.20 of 20, dt 0\.0003 \(cfl \S+\), t_end 0\.006 "
                        r"\(restarted from output/checkpoint_000010\.h5 at step 10\)$", out, re.M), f"restart summary:\n{out}")
        out = ok_run(2, d, ["in.yaml", "--restart", "output/checkpoint_000020.h5", "--set", "output.dir=again"])
        check(re.search(r"^  steps +none run: restarted from output/checkpoint_000020\.h5 at step 20 = run\.steps, "
                        r"nothing left to do$", out, re.M), f"restart at run.steps:\n{out}")
        check(re.search(r"^  MLUP/s +- \(no steps run\)$", out, re.M) and "0.00" not in out.split("MLUP/s")[1].split("\n")[0],
              f"rate with no steps:\n{out}")
        out = ok_run(2, d, ["in.yaml"])
        check(re.search(r"^  steps +1\.\.20 of 20, dt 0\.0003 \(cfl \S+\), t_end 0\.006$", out, re.M), f"fresh summary:\n{out}")


def stop_by_wall_time(d, args, ranks=3, program=None):
    """Runs `args` (a run far too long) with a 2 s wall-time limit on `ranks` ranks; checks that every
    rank exits 75 and returns (stdout, stop_line)."""
    sets = ["physics.dt=1e-7", "run.steps=100000000", "run.wall_time_limit=2"]
    code, out, err, codes = cartex_testing.mpirun(ARGS.mpiexec, ranks, program or ARGS.heat3d, args + set_args(sets), d,
                                                  per_rank_codes=True)
    check(codes == [STOPPED] * ranks, f"stopped run: exit {code}, per rank {codes}: {err}")
    stop = stop_line(out)
    check(stop is not None, f"no stop line in\n{out}")
    return out, stop


def case_restart_command():
    """The printed restart command, pasted into a shell in the same directory, runs: the launcher
    with this run's rank count, the program as invoked (here ./heat3d, a link), the input and the
    overrides (an output.dir with a space, quoted), and continues bitwise: where it stops again, a
    fresh run to that step has the same checksum."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        os.symlink(ARGS.heat3d, os.path.join(d, "heat3d"))
        out, stop = stop_by_wall_time(d, ["in.yaml", "--set", "output.dir=out dir"], program="./heat3d")
        line = restart_line(out)
        if stop is None or line is None:
            return
        words = shlex.split(line)
        # Hydra's mpiexec is named as invoked (here the build's, e.g. mpiexec.mpich); Open MPI's as mpiexec.
        hydra = cartex_testing.launcher(ARGS.mpiexec).family == "hydra"
        launcher = ARGS.mpiexec if hydra else "mpiexec"
        program = words.index("./heat3d") if "./heat3d" in words else len(words)
        check(words[:3] == [launcher, "-n", "3"] and words[program + 1:program + 3] == ["in.yaml", "--set"]
              and words[-2:] == ["--restart", stop[3]],
              f"restart command {line!r}: expected {launcher} -n 3 ./heat3d in.yaml --set ... --restart {stop[3]}")
        p = subprocess.run(line, shell=True, cwd=d, capture_output=True, text=True, timeout=120)
        check(p.returncode == STOPPED, f"the printed command exited {p.returncode}: {p.stderr}")
        again = stop_line(p.stdout)
        if not check(again is not None and again[1] > stop[1], f"the printed command did not continue:\n{p.stdout}"):
            return
        check(re.search(rf"^  steps +{stop[1] + 1}\.\.{again[1]} of .*\(restarted from {re.escape(stop[3])} at step {stop[1]}\)$",
                        p.stdout, re.M), f"restarted steps line:\n{p.stdout}")
        fresh = ok_run(2, d, ["in.yaml"] + set_args(["physics.dt=1e-7", f"run.steps={again[1]}", "output.dir=fresh"]))
        check(checksum(fresh) is not None and checksum(fresh) == checksum(p.stdout),
              f"restart to step {again[1]}: checksum {checksum(p.stdout)}, a fresh run {checksum(fresh)}")


def case_exit_codes():
    """A run stopped early exits 75 on every rank and through mpiexec, and leaves output.dir/restart.sh
    holding the printed command; run.stopped_exit_code: 0 keeps 0; a run that reaches run.steps exits 0
    and removes the marker; a code that means failure is refused."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        out, stop = stop_by_wall_time(d, ["in.yaml"])
        marker = os.path.join(d, "output", "restart.sh")
        line = restart_line(out)
        if not check(os.path.exists(marker) and stop is not None and line is not None, f"no restart marker {marker}"):
            return
        text = open(marker).read()
        check(text.startswith("#!/bin/sh\n") and f"\ncd {d} && exec {line}\n" in text, f"restart marker:\n{text}")
        # Continued to the end: exit 0, the marker is gone.
        ok_run(2, d, ["in.yaml", "--restart", stop[3]] + set_args(["physics.dt=1e-7", f"run.steps={stop[1] + 10}"]))
        check(not os.path.exists(marker), "a finished run left the restart marker")
        code, out, err, codes = run(2, ["in.yaml"] + set_args(["physics.dt=1e-7", "run.steps=100000000", "run.wall_time_limit=1",
                                                              "run.stopped_exit_code=0", "output.dir=zero"]), d, per_rank_codes=True)
        check(codes == [0, 0] and stop_line(out), f"run.stopped_exit_code=0: exit {code}, per rank {codes}: {err}")
        bad_input(d, BASE + "  stopped_exit_code: 1\n", [],
                  "bad.yaml:8:22: run.stopped_exit_code: expected 0 or an integer 3..125 (1, 2: failures; above 125: "
                  "signals), got 1")


def case_restart_latest_dir():
    """--restart latest without an input file looks for the checkpoint in --set output.dir."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        ok_run(2, d, ["in.yaml"] + set_args(["output.dir=custom", "output.checkpoint_every=10"]))
        out = ok_run(2, d, ["--restart", "latest"] + set_args(["output.dir=custom", "run.steps=30"]))
        check(re.search(r"^  steps +21\.\.30 of 30, .*\(restarted from custom/checkpoint_000020\.h5 at step 20\)$", out, re.M),
              f"--restart latest --set output.dir=custom:\n{out}")
        fresh = ok_run(2, d, ["in.yaml"] + set_args(["run.steps=30", "output.dir=fresh"]))
        check(checksum(out) is not None and checksum(out) == checksum(fresh), f"checksum {checksum(out)}, fresh {checksum(fresh)}")


def case_output_dir_kernel_fs():
    """An output directory on /proc or /sys (which root passes access() on) is refused before step 1
    with one located line and exit 2, not after the whole run; --dry-run says the same, creating
    nothing."""
    with tempfile.TemporaryDirectory() as d:
        text = BASE.replace("steps: 20", "steps: 3000") + "output:\n  dir: /proc/cartex_out\n  every: 0\n  history: true\n"
        for dry in ([], ["--dry-run"]):
            write(d, "bad.yaml", text)
            t0 = time.monotonic()
            code, out, err, codes = run(2, ["bad.yaml"] + dry, d, per_rank_codes=True)
            lines = cartex_testing.own_lines(err)
            check(codes == [2, 2] and len(lines) == 1 and lines[0].startswith(
                'bad.yaml:9:8: output.dir: cannot create directory "/proc/cartex_out": /proc '),
                  f"/proc {dry}: codes {codes}, stderr {lines}")
            check(time.monotonic() - t0 < 20 and "checksum" not in out, f"/proc {dry}: ran\n{out}")
        code, out, err, codes = run(2, ["bad.yaml", "--set", "output.dir=/sys/cartex_out"], d, per_rank_codes=True)
        lines = cartex_testing.own_lines(err)
        check(codes == [2, 2] and len(lines) == 1 and lines[0].startswith(
            '--set output.dir=/sys/cartex_out: output.dir: cannot create directory "/sys/cartex_out": /sys '),
              f"/sys: codes {codes}, stderr {lines}")


def case_output_dir_probe():
    """A directory that passes the input check but holds no new file (a tmpfs without a free inode,
    root only) is found by the probe file before step 1: one located line with the OS error, exit 2."""
    with tempfile.TemporaryDirectory() as d, cartex_testing.mounted_tmpfs(os.path.join(d, "full"), "size=1m,nr_inodes=1"):
        write(d, "in.yaml", BASE)
        code, out, err, codes = run(2, ["in.yaml", "--set", "output.dir=full", "--set", "output.history=true"], d,
                                    per_rank_codes=True)
        lines = cartex_testing.own_lines(err)
        check(codes == [2, 2] and len(lines) == 1 and re.match(
            r'^--set output\.dir=full: output\.dir: cannot write a file in "full" \(full/\.cartex_probe_\d+\): '
            r'No space left on device$', lines[0]), f"no free inode: codes {codes}, stderr {lines}")


def case_late_write_failure():
    """A file that cannot be written after the last step (history.csv: its .tmp is a directory) is one
    error line naming the file and the OS error, after the summary of what ran (checksum included);
    exit 1; the checkpoints and the history.csv of before stay intact."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        ok_run(2, d, ["in.yaml", "--set", "output.history=true", "--set", "run.steps=10"])
        before = open(os.path.join(d, "output", "history.csv")).read()
        os.mkdir(os.path.join(d, "output", "history.csv.tmp"))
        sets = ["output.history=true", "output.checkpoint_every=10", "output.keep_checkpoints=0"]
        code, out, err, codes = run(2, ["in.yaml"] + set_args(sets), d, per_rank_codes=True)
        lines = cartex_testing.own_lines(err)
        check(codes == [1, 1] and lines == ["rank 0: error: cannot write output/history.csv.tmp: Is a directory"],
              f"late write failure: codes {codes}, stderr {lines}")
        check(checksum(out) is not None and re.search(r"^  steps +1\.\.20 of 20", out, re.M), f"no summary:\n{out}")
        check(files(os.path.join(d, "output"), "checkpoint_") == [10, 20], f"checkpoints {os.listdir(os.path.join(d, 'output'))}")
        check(open(os.path.join(d, "output", "history.csv")).read() == before, "history.csv of the run before changed")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d'], extra=['data'])

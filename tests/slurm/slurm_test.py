#!/usr/bin/env python3
"""heat3d as a Slurm user runs it, on a real Slurm 22.05 cluster of simulated nodes (scripts/slurm_cluster.sh):
every job is examples/slurm/heat3d.sbatch submitted with sbatch. The cluster is a ctest fixture (cases `up`
and `down`); a case that finds no cluster skips with the reason (exit 77), or fails under CI=true. One
case per ctest:

    slurm_test.py --cluster SCRIPT --example JOB_SCRIPT --term_blocked PATH --heat3d PATH --mpiexec PATH CASE
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None
SUBMITTED = []  # every job a case submitted: cancelled when the case ends, whatever happened
NODES = 2
SMALL = cartex_testing.small_input(steps=20, progress_every=None)
# Job states after which a job does nothing more (squeue's long names).
DONE = {"COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "BOOT_FAIL", "DEADLINE", "PREEMPTED"}


def cluster(*args, cwd=None, env=None, timeout=120):
    """Runs the cluster script; returns (exit code, stdout + stderr)."""
    p = subprocess.run([ARGS.cluster] + list(args), capture_output=True, text=True, cwd=cwd, timeout=timeout,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, (p.stdout + p.stderr).strip()


def require_cluster():
    """Skips (or fails under CI=true) with the reason when the fixture's cluster is not up."""
    code, out = cluster("run", "sinfo", "-h", "-N", "-o", "%N %t")
    idle = re.findall(r"^node\d+ (idle|alloc|mix)", out, re.M) if code == 0 else []
    if len(idle) >= NODES:
        return
    code, why = cluster("check")
    cartex_testing.skip(f"no Slurm cluster ({NODES} nodes not up): {why if code else 'the set-up fixture did not run: ' + out}")


def job_env(d, name, launch="srun"):
    """The environment a job is submitted with (sbatch passes it on to the job): the program, the
    launcher the job script uses, an Open MPI session directory of the job's own (jobs side by side on
    one simulated node share /tmp; open-mpi/ompi#8510), and ranks that yield while they wait (the
    simulated nodes share the machine's two cores)."""
    return {"CARTEX_HEAT3D": ARGS.heat3d, "CARTEX_LAUNCH": launch, "OMPI_MCA_mpi_yield_when_idle": "1",
            "OMPI_MCA_orte_tmpdir_base": os.path.join(d, "sessions", name)}


def sbatch(d, options, args, env):
    """Submits the example job script from `d`; returns the job id ("123", or "123" for a whole array)."""
    code, out = cluster("run", "sbatch", "--parsable", *options, ARGS.example, *args, cwd=d, env=env)
    check(code == 0 and re.fullmatch(r"\d+(;\S+)?", out) is not None, f"sbatch {' '.join(options)}: exit {code}: {out}")
    job_id = out.split(";")[0] if code == 0 else "0"
    SUBMITTED.append(job_id)
    return job_id


def job(job_id):
    """scontrol's record of a job as a dict (JobState, ExitCode, Restarts, StartTime, ...); an array job's
    tasks are one record each: use job_id "ARRAY_TASK" forms through jobs()."""
    code, out = cluster("run", "scontrol", "-o", "show", "job", job_id)
    return dict(re.findall(r"(\w+)=(\S*)", out.splitlines()[0])) if code == 0 and out else {}


def jobs(job_id):
    """Every record of `job_id` (an array: one per task), in task order."""
    code, out = cluster("run", "scontrol", "-o", "show", "job", job_id)
    records = [dict(re.findall(r"(\w+)=(\S*)", line)) for line in out.splitlines()] if code == 0 else []
    # A pending array's tasks are one record, ArrayTaskId "0-1"; started ones have a number each.
    return sorted(records, key=lambda r: int(re.match(r"\d*", r.get("ArrayTaskId", "")).group() or 0))


def wait_done(job_ids, timeout):
    """Waits until every job (every task of an array) has ended; returns their records by id."""
    end = time.monotonic() + timeout
    while True:
        records = {j: jobs(j) for j in job_ids}
        if all(rs and all(r.get("JobState") in DONE for r in rs) for rs in records.values()):
            return records
        if time.monotonic() > end:
            check(False, f"jobs {job_ids} did not end within {timeout} s: "
                         f"{ {j: [r.get('JobState') for r in rs] for j, rs in records.items()} }")
            cluster("run", "scancel", *job_ids)
            return records
        time.sleep(0.5)


def wait_for(what, condition, timeout):
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return check(False, f"{what} within {timeout} s")
        time.sleep(0.2)
    return True


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def reference(d, args):
    """The checksum of an uninterrupted 1-rank run (no Slurm) of heat3d `args` in `d`."""
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, 1, ARGS.heat3d, args, d, timeout=120)
    check(code == 0 and checksum(out), f"1-rank reference {' '.join(args)}: exit {code}: {err[-1000:]}")
    return checksum(out)


def restart_line(text):
    """The last `restart with: ...` command of a job's output, or None."""
    lines = re.findall(r"^restart with: (.*)$", text, re.M)
    return lines[-1] if lines else None


def case_up():
    """Fixture set-up: a cluster of NODES nodes, every node idle (skips or fails with the reason when none
    can be made); prints the Slurm, munge and Open MPI versions."""
    code, why = cluster("check")
    if code != 0:
        cartex_testing.skip(why)
    code, out = cluster("up", str(NODES))
    print(out)
    check(code == 0, f"slurm_cluster up {NODES}: {out}")
    code, out = cluster("up", str(NODES))
    check(code == 0 and "up" in out, f"up again (idempotent): {out}")
    print(cluster("versions")[1])
    code, out = cluster("run", "sinfo", "-h", "-o", "%P %l %D %t")
    check(code == 0 and re.search(rf"^short\* 5:00 {NODES} idle$", out, re.M) is not None,
          f"sinfo: the partition short, 5 minutes, {NODES} idle nodes: {out!r}")


def case_down():
    """Fixture clean-up: the daemons are gone, and removing the cluster again is harmless."""
    for attempt in (1, 2):
        code, out = cluster("down")
        check(code == 0, f"slurm_cluster down ({attempt}): {out}")
    code, out = cluster("run", "true")
    check(code != 0, f"'run' still works after down: {out}")


def case_unavailable():
    """Without a cluster (forced by CARTEX_SLURM_UNAVAILABLE) the set-up reports skip (77) with the reason,
    and fails with it under CI=true: never a silent pass."""
    env = {"CARTEX_SLURM_UNAVAILABLE": "forced by the test", "CARTEX_SLURM_PREFIX": "ctxslno"}
    base = [sys.executable, os.path.abspath(__file__)] + [a for name in ("cluster", "example", "term_blocked", "heat3d", "mpiexec")
                                                          for a in ("--" + name, getattr(ARGS, name))]
    for ci, expected in (("", 77), ("true", 1)):
        p = subprocess.run(base + ["up"], capture_output=True, text=True, env=dict(os.environ, CI=ci, **env))
        check(p.returncode == expected, f"up with CI={ci!r}: exit {p.returncode}, expected {expected}: {p.stdout}")
        check("forced by the test" in p.stdout, f"up with CI={ci!r}: the reason is not printed: {p.stdout!r}")


def case_launch():
    """The job script on 2 nodes x 2 tasks, once launched by srun (PMIx) and once by Open MPI's mpiexec
    inside the allocation (its own daemons, started through srun): exit 0, the 1-rank checksum, the summary
    names both nodes and their ranks. srun --mpi=pmi2 cannot start Debian's Open MPI (no PMI2 support)."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", SMALL)
        want = reference(d, ["in.yaml"])
        ids = {launch: sbatch(d, ["-o", f"{launch}.out"], ["in.yaml"], dict(job_env(d, launch, launch),
                                                                             CARTEX_OUTPUT_DIR=f"out-{launch}"))
               for launch in ("srun", "mpiexec")}
        records = wait_done(list(ids.values()), 120)
        for launch, job_id in ids.items():
            r = records[job_id][0] if records[job_id] else {}
            out = read(os.path.join(d, f"{launch}.out"))
            what = f"{launch} job {job_id}"
            check(r.get("JobState") == "COMPLETED" and r.get("ExitCode") == "0:0",
                  f"{what}: {r.get('JobState')} exit {r.get('ExitCode')}:\n{out[-3000:]}")
            check(r.get("NodeList") == "node[1-2]", f"{what}: ran on {r.get('NodeList')}")
            check(checksum(out) == want, f"{what}: checksum {checksum(out)}, 1-rank {want}")
            check(re.search(r"^  placement +4 ranks on 2 node\(s\), sequential, detected", out, re.M) is not None,
                  f"{what}: placement is not 4 ranks on 2 nodes:\n{out}")
            check(re.search(r"^  hosts +node1 \(ranks 0-1\), node2 \(ranks 2-3\)$", out, re.M) is not None,
                  f"{what}: the summary does not name the nodes:\n{out}")
        # Debian 12's Open MPI 4.1.4 has PMIx and Slurm's own launcher components, no PMI2 client.
        code, out = cluster("run", "srun", "--mpi=list")
        check(code == 0 and "pmix" in out and "pmi2" in out, f"srun --mpi=list: {out}")
        code, out = cluster("run", "srun", "--mpi=pmi2", "-N", "2", "-n", "2", ARGS.heat3d, "in.yaml", cwd=d,
                            env=job_env(d, "pmi2"))
        check(code != 0 and "OMPI was not built with SLURM's PMI support" in out,
              f"srun --mpi=pmi2: exit {code}, expected Open MPI's refusal: {out[-1500:]}")


def case_time_limit():
    """Two jobs reach their time limit's warning at once, each 2 nodes x 1 task with --requeue: srun with
    --signal=USR1@58, mpiexec with --signal=B:USR1@58 (the job script passes it on). Each stops with a
    checkpoint, exit 75 and a restart line equal to DIR/restart.sh's command; the job requeues itself, runs
    DIR/restart.sh (the printed command as printed) and ends at run.steps with the 1-rank checksum.
    slurmctld sends such signals only at its time-limit checks (every 30 s), so the jobs are submitted a
    few seconds before the next one, and the run is long enough (measured pace) to outlast it."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", SMALL)
        # The pace of this layout, two jobs side by side (what the timed jobs will share).
        pace_ids = [sbatch(d, ["-N", "2", "--ntasks-per-node=1", "-o", f"pace-{launch}.out"],
                           ["in.yaml", "--set", "run.steps=30000", "--set", "run.progress_every=0"],
                           dict(job_env(d, f"pace-{launch}", launch), CARTEX_OUTPUT_DIR=f"pace-{launch}"))
                    for launch in ("srun", "mpiexec")]
        wait_done(pace_ids, 60)
        paces = {launch: float(cartex_testing.summary_value(read(os.path.join(d, f"pace-{launch}.out")), "time/step") or 0)
                 for launch in ("srun", "mpiexec")}
        if not check(all(p > 0 for p in paces.values()), f"no time/step from the pace jobs: {paces}"):
            return
        # About 28 s of stepping at each launcher's measured pace, at least 14 s at twice it (pace jobs
        # slowed by other load once gave a third of the timed jobs' pace: those ended before the signal).
        # The signal comes after about 6 s; the rest after the requeue may meet a second one (checked).
        steps = {launch: int(2 * 14.0 / (pace / 1e3)) for launch, pace in paces.items()}
        sets = {launch: [f"run.steps={n}", "run.progress_every=0"] for launch, n in steps.items()}
        want = {launch: reference(d, ["in.yaml"] + set_args(sets[launch])) for launch in steps}
        tick = float(cluster("tick")[1])
        # 6 s: the jobs start (the scheduler looks every second) and heat3d installs its handlers first.
        time.sleep(tick - 6 if tick > 6 else tick + 24)
        ids = {}
        for launch, signal in (("srun", "USR1@58"), ("mpiexec", "B:USR1@58")):
            ids[launch] = sbatch(d, ["-N", "2", "--ntasks-per-node=1", "--time=1", f"--signal={signal}", "--requeue",
                                     "-o", f"{launch}.out"], ["in.yaml"] + set_args(sets[launch]),
                                 dict(job_env(d, launch, launch), CARTEX_OUTPUT_DIR=f"out-{launch}"))
        print(f"steps {steps} (ms per step measured: {paces}), jobs {ids}")
        # The first stop: restart.sh appears; it must hold the printed restart command.
        for launch in ids:
            marker = os.path.join(d, f"out-{launch}", "restart.sh")
            if wait_for(f"{launch}: {marker} after the time-limit signal", lambda: os.path.exists(marker), 60):
                time.sleep(0.5)
                line = restart_line(read(os.path.join(d, f"{launch}.out")))
                script = read(marker)
                check(line is not None and script.rstrip().endswith("exec " + line),
                      f"{launch}: restart.sh does not run the printed command {line!r}:\n{script}")
                prefix = "srun -n 2 " if launch == "srun" else "mpiexec -n 2 --allow-run-as-root "
                check(line is not None and line.startswith(prefix + shlex.quote(ARGS.heat3d) + " "),
                      f"{launch}: restart line {line!r} does not start with {prefix!r}")
        records = wait_done(list(ids.values()), 180)
        for launch, job_id in ids.items():
            r = records[job_id][0] if records[job_id] else {}
            out = read(os.path.join(d, f"{launch}.out"))
            what = f"{launch} job {job_id}"
            check(r.get("JobState") == "COMPLETED" and r.get("ExitCode") == "0:0" and int(r.get("Restarts", 0)) >= 1,
                  f"{what}: {r.get('JobState')} exit {r.get('ExitCode')} after {r.get('Restarts')} requeue(s):\n{out[-4000:]}")
            stops = re.findall(r"^stopped by SIGUSR1 after step (\d+) of (\d+); checkpoint (\S+)$", out, re.M)
            print(f"{what}: stopped after steps {[int(s) for s, _, _ in stops]}, time/step "
                  f"{re.findall(r'^  time/step +(.*)$', out, re.M)}, {r.get('Restarts')} requeue(s)")
            check(len(stops) >= 1 and all(int(s) < steps[launch] for s, _, _ in stops),
                  f"{what}: no stop by SIGUSR1 before step {steps[launch]}:\n{out[-4000:]}")
            check(out.count(f"job {job_id}: exit code 75") == len(stops) and out.count(f"job {job_id}: requeued") == len(stops),
                  f"{what}: each stop exits 75 and requeues:\n{out[-4000:]}")
            if stops:
                check(f"(restarted from {stops[-1][2]} at step {stops[-1][0]})" in out,
                      f"{what}: the requeued job did not continue from {stops[-1][2]}:\n{out[-3000:]}")
            if launch == "mpiexec":
                check("SIGUSR1, passed on to the ranks" in out, f"{what}: the batch shell did not pass SIGUSR1 on")
            finals = re.findall(r"^checksum: (\S+)$", out, re.M)
            check(finals and finals[-1] == want[launch],
                  f"{what}: final checksum {finals[-1:]} != uninterrupted 1-rank {want[launch]}")
            check(not os.path.exists(os.path.join(d, f"out-{launch}", "restart.sh")), f"{what}: restart.sh left at the end")


def newest_checkpoint(directory):
    """(step, path) of the newest complete checkpoint_NNNNNN.h5 in `directory` (a .tmp is not one)."""
    steps = sorted(int(m.group(1)) for f in os.listdir(directory) if (m := re.fullmatch(r"checkpoint_(\d+)\.h5", f)))
    return (steps[-1], os.path.join(directory, f"checkpoint_{steps[-1]:06d}.h5")) if steps else (None, None)


def start_long_jobs(d, cases, sets, env=None):
    """Submits one long job per (name, launch) of `cases` on 2 nodes x 1 task (env: more environment by
    name); waits until each has written its first periodic checkpoint; returns the job ids by name."""
    ids = {name: sbatch(d, ["-N", "2", "--ntasks-per-node=1", "-o", f"{name}.out"], ["in.yaml"] + set_args(sets),
                        dict(job_env(d, name, launch), CARTEX_OUTPUT_DIR=f"out-{name}", **(env or {}).get(name, {})))
           for name, launch in cases}
    for name in ids:
        out_dir = os.path.join(d, f"out-{name}")
        wait_for(f"{name}: a first checkpoint", lambda: os.path.isdir(out_dir) and newest_checkpoint(out_dir)[0], 60)
    time.sleep(1)
    return ids


LONG = ["run.steps=2000000", "run.progress_every=0", "output.checkpoint_every=5000"]


def case_scancel_term():
    """scancel --signal=TERM of a running srun job: the ranks stop after a step, write a checkpoint and exit
    75 (the job's exit code, state FAILED); scancel --signal=USR1 of an mpiexec job: the same (TERM would
    end Open MPI's daemons too). The printed restart line, run as printed inside a new allocation, continues
    to the end: the 1-rank checksum."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", SMALL)
        ids = start_long_jobs(d, [("term", "srun"), ("usr1", "mpiexec")], LONG)
        cluster("run", "scancel", "--signal=TERM", ids["term"])
        cluster("run", "scancel", "--signal=USR1", ids["usr1"])
        records = wait_done(list(ids.values()), 60)
        for name, signal in (("term", "SIGTERM"), ("usr1", "SIGUSR1")):
            r = records[ids[name]][0] if records[ids[name]] else {}
            out = read(os.path.join(d, f"{name}.out"))
            what = f"scancel --signal={signal[3:]} job {ids[name]}"
            check(r.get("JobState") == "FAILED" and r.get("ExitCode") == "75:0",
                  f"{what}: {r.get('JobState')} exit {r.get('ExitCode')}, expected FAILED 75:0:\n{out[-3000:]}")
            m = re.search(rf"^stopped by {signal} after step (\d+) of 2000000; checkpoint (\S+)$", out, re.M)
            line = restart_line(out)
            if not check(m is not None and line is not None, f"{what}: no stop line and restart line:\n{out[-3000:]}"):
                continue
            step = int(m.group(1))
            check(os.path.exists(os.path.join(d, m.group(2))), f"{what}: no {m.group(2)}")
            # The restart line as printed, to a nearer end (a later --set wins), in a new allocation.
            end = step + 3000
            code, again = cluster("run", "salloc", "-N", "2", "--ntasks-per-node=1", "sh", "-c",
                                  line + f" --set run.steps={end}", cwd=d, env=job_env(d, name + "-again"), timeout=120)
            check(code == 0 and f"(restarted from {m.group(2)} at step {step})" in again,
                  f"{what}: the printed restart line in salloc: exit {code}:\n{again[-3000:]}")
            want = reference(d, ["in.yaml"] + set_args(LONG + [f"run.steps={end}", f"output.dir=ref-{name}"]))
            check(checksum(again) == want, f"{what}: restarted to step {end}: checksum {checksum(again)}, 1-rank {want}")


def case_scancel_kill():
    """scancel without a signal: Slurm sends SIGTERM to every process of the job, SIGKILL KillWait (5 s)
    later. heat3d writes its stop checkpoint within that time and the job is CANCELLED; a run with SIGTERM
    blocked (tests/slurm/term_blocked.py: one that cannot stop in time) dies by SIGKILL after the grace
    period with no stop, and its newest complete checkpoint is a periodic one. Either way `--restart
    latest` continues from the newest complete checkpoint to the 1-rank checksum."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", SMALL)
        ids = start_long_jobs(d, [("cancel", "srun"), ("kill", "srun")], LONG,
                              env={"kill": {"CARTEX_HEAT3D": ARGS.term_blocked, "CARTEX_BLOCKED_PROGRAM": ARGS.heat3d}})
        t0 = time.monotonic()
        cluster("run", "scancel", ids["cancel"], ids["kill"])
        ended = {}
        while len(ended) < 2 and time.monotonic() - t0 < 60:
            for name, job_id in ids.items():
                if name not in ended and job(job_id).get("JobState") in DONE:
                    ended[name] = time.monotonic() - t0
            time.sleep(0.2)
        print(f"seconds from scancel to the end of the job: {ended}")
        check(ended.get("kill", 0) >= 4, f"the TERM-blocked job ended {ended.get('kill')} s after scancel, before KillWait (5 s)")
        for name, job_id in ids.items():
            r = job(job_id)
            out = read(os.path.join(d, f"{name}.out"))
            check(r.get("JobState") == "CANCELLED", f"scancel {name}: job state {r.get('JobState')}, expected CANCELLED")
            stop = re.search(r"^stopped by SIGTERM after step (\d+)", out, re.M)
            step, path = newest_checkpoint(os.path.join(d, f"out-{name}"))
            if not check(step is not None, f"{name}: no complete checkpoint"):
                continue
            if name == "kill":
                check(stop is None and step % 5000 == 0, f"kill: a stop line ({stop}) or a newest checkpoint at step {step}, "
                                                         f"not a periodic one")
            else:
                check(stop is not None and int(stop.group(1)) == step, f"cancel: newest checkpoint {step}, stop line {stop}")
            end = step + 3000
            sets = LONG + [f"run.steps={end}", f"output.dir=out-{name}"]
            code, again, err, _ = cartex_testing.mpirun(ARGS.mpiexec, 1, ARGS.heat3d, ["in.yaml"] + set_args(sets) +
                                                        ["--restart", "latest"], d)
            check(code == 0 and f"(restarted from out-{name}/checkpoint_{step:06d}.h5 at step {step})" in again,
                  f"{name}: --restart latest: exit {code}: {again[-2000:]}{err[-1000:]}")
            want = reference(d, ["in.yaml"] + set_args(LONG + [f"run.steps={end}", f"output.dir=ref-{name}"]))
            check(checksum(again) == want, f"{name}: restarted to step {end}: checksum {checksum(again)}, 1-rank {want}")


def case_array():
    """A parameter sweep: a job array of two inputs (1 node x 2 tasks each, side by side), each in its own
    output directory with the 1-rank checksum of its input; a job with --dependency=afterok on the array
    starts after both tasks ended; one with afterok on a failed job never starts (DependencyNeverSatisfied)."""
    require_cluster()
    with tempfile.TemporaryDirectory() as d:
        inputs = {"a": SMALL, "b": SMALL.replace("steps: 20", "steps: 24"), "c": SMALL.replace("steps: 20", "steps: 30")}
        for name, text in inputs.items():
            write(d, f"{name}.yaml", text)
        want = {name: reference(d, [f"{name}.yaml", "--set", f"output.dir=ref-{name}"]) for name in inputs}
        check(len(set(want.values())) == 3, f"the three inputs give three checksums: {want}")
        env = job_env(d, "sweep")
        array = sbatch(d, ["--array=0-1", "-N", "1", "--ntasks-per-node=2", "-o", "sweep-%A_%a.out"], ["a.yaml", "b.yaml"], env)
        after = sbatch(d, [f"--dependency=afterok:{array}", "-N", "1", "--ntasks-per-node=2", "-o", "after.out"], ["c.yaml"],
                       job_env(d, "after"))
        failed = sbatch(d, ["-N", "1", "--ntasks-per-node=1", "-o", "bad.out"], ["missing.yaml"], job_env(d, "bad"))
        never = sbatch(d, [f"--dependency=afterok:{failed}", "-N", "1", "-o", "never.out"], ["c.yaml"], job_env(d, "never"))
        records = wait_done([array, after, failed], 120)
        tasks = records[array]
        check([t.get("ArrayTaskId") for t in tasks] == ["0", "1"], f"array tasks: {[t.get('ArrayTaskId') for t in tasks]}")
        for t, name in zip(tasks, ("a", "b")):
            out = read(os.path.join(d, f"sweep-{array}_{t.get('ArrayTaskId')}.out"))
            what = f"array task {t.get('ArrayTaskId')} ({name}.yaml)"
            check(t.get("JobState") == "COMPLETED", f"{what}: {t.get('JobState')} {t.get('ExitCode')}:\n{out[-2000:]}")
            check(checksum(out) == want[name], f"{what}: checksum {checksum(out)}, 1-rank {want[name]}")
            check(f"-> output/{name}" in out and os.path.isdir(os.path.join(d, "output", name)),
                  f"{what}: not in output/{name}:\n{out[-1000:]}")
        dependent = records[after][0] if records[after] else {}
        check(dependent.get("JobState") == "COMPLETED" and checksum(read(os.path.join(d, "after.out"))) == want["c"],
              f"afterok job: {dependent.get('JobState')}, checksum {checksum(read(os.path.join(d, 'after.out')))} vs {want['c']}")
        ends = [t.get("EndTime", "") for t in tasks]
        check(all(dependent.get("StartTime", "") >= e for e in ends),
              f"afterok job started {dependent.get('StartTime')} before the array ended {ends}")
        bad = records[failed][0] if records[failed] else {}
        check(bad.get("JobState") == "FAILED" and bad.get("ExitCode") == "2:0", f"missing input: {bad.get('JobState')} {bad.get('ExitCode')}")
        wait_for("the dependent of a failed job: DependencyNeverSatisfied",
                 lambda: job(never).get("Reason") == "DependencyNeverSatisfied", 20)
        check(job(never).get("JobState") == "PENDING", f"afterok on a failed job: {job(never).get('JobState')}")
        cluster("run", "scancel", never)
        check(sorted(os.listdir(os.path.join(d, "output"))) == ["a", "b", "c"], f"output/: {os.listdir(os.path.join(d, 'output'))}")


if __name__ == "__main__":
    try:
        cartex_testing.run_case(globals(), ["heat3d"], extra=["cluster", "example", "term_blocked"])
    finally:
        if SUBMITTED:
            cluster("run", "scancel", *SUBMITTED)

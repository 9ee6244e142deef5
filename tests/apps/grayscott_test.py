#!/usr/bin/env python3
"""End-to-end tests of grayscott3d (Gray-Scott, two fields u and v in one state) under mpiexec: a run
interrupted at a checkpoint and continued on another rank count, with other settings, ends on the
uninterrupted run's checksum (which combines both fields, so a restart that lost or swapped v fails).
The randomized campaign (tests/campaign) draws such restarts too; this one runs in every everyday run.
One case per ctest:

    grayscott_test.py --grayscott3d PATH --mpiexec PATH CASE
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, run_case, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

# A small problem on a lattice (h = 1) where the reaction matters within its 24 steps: a seed of v of
# amplitude 1/2, three cells wide, off centre; F and k of Pearson's spots.
BASE = """grid:
  n: [12, 10, 8]
  length: [12.0, 10.0, 8.0]
  periodic: [true, true, true]
physics:
  Du: 0.16
  Dv: 0.08
  feed: 0.035
  kill: 0.06
  cfl: 0.5
init:
  type: gaussian
  center: [4.0, 6.5, 3.0]
  width: 3.0
  amplitude: 0.5
run:
  steps: 24
"""

# (name, --set values): walls of every kind on both fields, a wide star (halo 2), a 2D box stencil.
PROBLEMS = [
    ("3D 7pt walls", ["grid.periodic=[false,true,false]", "grid.length=[12,10,9]", "stencil=7pt",
                      "boundary.x.low={neumann: 0}", "boundary.x.high={robin: {a: 1, b: 0.5, g: 0.5}}",
                      "boundary.z=[1,0.25]"]),
    ("3D star4 periodic", ["stencil={type: star, order: 4}"]),
    ("2D 9pt walls", ["grid.n=[14,11]", "grid.length=[14,11.5]", "grid.periodic=[true,false]",
                      "init.center=[4.0,6.5]", "stencil=9pt", "boundary.y.low={neumann: 0}",
                      "boundary.y.high={dirichlet: 1}"]),
]

# The continued runs: (checkpoint step, ranks, --set values of their own), each against the
# uninterrupted 2-rank run that wrote the checkpoints.
RESTARTS = [
    (12, 3, []),
    (6, 3, ["processes.dims=[3,1,1]", "comm.backend=cart_combining", "halo.steps_per_exchange=2",
            "comm.overlap=true"]),
    (18, 1, ["halo.temporal_blocking={tile_y: 2}", "halo.steps_per_exchange=2"]),
    (12, 4, ["comm.backend=mpi_neighbor_alltoallw", "comm.overlap=true"]),
]


def grayscott(ranks, d, sets, extra=()):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.grayscott3d, args, d)
    check(code == 0, f"grayscott3d {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def case_restart_ranks():
    """Checkpoints every 6 steps on 2 ranks; restarts from the middle ones on 3, 1 and 4 ranks (other
    process grids, backends, k, overlap, tiles) end on the uninterrupted run's checksum, which a 1-rank
    run without checkpoints gives too; both fields move (u and v not uniform at the end)."""
    for name, sets in PROBLEMS:
        dim = 2 if "2D" in name else 3
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", BASE)
            full = grayscott(2, d, sets + ["output.dir=full", "output.checkpoint_every=6", "output.keep_checkpoints=0"])
            ref = checksum(full)
            check(ref is not None, f"{name}: the uninterrupted run printed no checksum:\n{full}")
            alone = checksum(grayscott(1, d, sets + ["output.dir=alone"]))
            check(alone == ref, f"{name}: 1 rank without checkpoints: checksum {alone}, 2 ranks {ref}")
            for field in ("u", "v"):
                line = [x for x in full.splitlines() if x.split()[:2] == [field, "min"]]
                words = line[0].split() if line else []
                check(len(words) >= 5 and float(words[2]) < float(words[4]),
                      f"{name}: {field} is uniform or missing at the end: {line}")
            for step, ranks, more in RESTARTS:
                if dim == 2:
                    more = [s.replace("[3,1,1]", "[3,1]") for s in more]
                point = os.path.join("full", f"checkpoint_{step:06d}.h5")
                check(os.path.exists(os.path.join(d, point)), f"{name}: no {point}")
                out = grayscott(ranks, d, sets + more + [f"output.dir=re{step}_{ranks}"], ["--restart", point])
                check(checksum(out) == ref, f"{name}: restart from step {step} on {ranks} rank(s) {more}: "
                      f"checksum {checksum(out)}, uninterrupted {ref}")


def case_reports():
    """One exchange moves both fields: --dry-run's tables and the run's summary say "2 fields (u, v)
    together" and count 2 x 8 bytes per halo cell the rank lines list (the messages of one field)."""
    sets = ["grid.periodic=[true,false,false]", "processes.dims=[2,1,1]", "comm.backend=p2p"]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        dry = grayscott(2, d, sets, ["--dry-run"])
        cells = [int(c) for c in re.findall(r"^  neighbor +\S+  send (\d+) cells to rank", dry, re.M)]
        per_rank = re.search(r"^  p2p +1\.\.1 +(\d+)\.\.(\d+) ", dry, re.M)
        check(re.search(r"^# halo exchange per backend \(per exchange of 2 fields \(u, v\) together and rank", dry, re.M)
              is not None and len(cells) == 4 and per_rank is not None
              and int(per_rank.group(1)) == int(per_rank.group(2)) == 2 * 8 * sum(cells[:2]),
              f"--dry-run's backend table does not count both fields of {cells} cells:\n{dry}")
        traffic = re.search(r"^# inter-node traffic per halo exchange \(of 2 fields \(u, v\) together.*\n.*\n"
                            r"  MPI order +4 +0 +(\d+) +0$", dry, re.M)
        check(traffic is not None and int(traffic.group(1)) == 2 * 8 * sum(cells),
              f"--dry-run's traffic table does not count both fields of {cells} cells:\n{dry}")
        out = grayscott(2, d, sets)
        halo = re.search(r"^  halo +24 exchange\(s\) of 2 fields \(u, v\) together, one every 1 step\(s\); per exchange "
                         r"and rank: messages 1\.\.1, bytes (\d+)\.\.(\d+)", out, re.M)
        check(halo is not None and halo.group(1) == halo.group(2) == per_rank.group(1),
              f"the summary's halo line does not say one exchange of both fields:\n{out}")


if __name__ == "__main__":
    run_case(globals(), ["grayscott3d"])

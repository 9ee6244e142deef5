#!/usr/bin/env python3
"""Two builds of cartex on two MPI libraries give the same physics: heat3d's decomposition-independent
checksum under the build's own mpiexec, for every backend value of the registry (`auto` included) on
1, 2 and 4 ranks, equals the reference build's (same input, same backend, 1 rank). Run by
the mpich configuration's check (CMakePresets.json, scripts/ci.sh mpich) with the Open MPI build as reference:

    mpi_checksums.py --reference BUILD_DIR --build BUILD_DIR [--ranks 1 2 4]
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, finish, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

# Small but not trivial: every rank count splits it, 20 steps move heat across the rank boundaries.
INPUT = cartex_testing.small_input(steps=20, progress_every=None)
SETS = ["grid.n=[24,20,16]", "output.history=false"]


def build_mpiexec(build):
    """The MPIEXEC_EXECUTABLE a build tree was configured with."""
    text = open(os.path.join(build, "CMakeCache.txt")).read()
    m = re.search(r"^MPIEXEC_EXECUTABLE:[A-Z]*=(.+)$", text, re.M)
    return m.group(1) if m else "mpiexec"


def heat3d_checksum(build, ranks, backend, d):
    heat3d = os.path.join(build, "bin", "heat3d")
    mpiexec = build_mpiexec(build)
    code, out, err, _ = cartex_testing.mpirun(mpiexec, ranks, heat3d, ["in.yaml"] + set_args(SETS + [f"comm.backend={backend}"]),
                                              d, timeout=300)
    check(code == 0 and checksum(out), f"{build} ({mpiexec}) {backend} on {ranks} rank(s): exit {code}\n{err[-1500:]}")
    return checksum(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--reference", required=True)
    p.add_argument("--build", required=True)
    p.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 4])
    args = p.parse_args()
    reference, build = os.path.abspath(args.reference), os.path.abspath(args.build)
    backends = [name for name, _, _ in cartex_testing.list_backends(build_mpiexec(build), os.path.join(build, "bin", "heat3d"))]
    check(len(backends) >= 9, f"only {len(backends)} backends listed: {backends}")
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", INPUT)
        for backend in backends:
            want = heat3d_checksum(reference, 1, backend, d)
            got = {ranks: heat3d_checksum(build, ranks, backend, d) for ranks in args.ranks}
            check(want and all(c == want for c in got.values()), f"{backend}: reference {want}, {build}: {got}")
            print(f"{backend:<26} reference {want}  " + "  ".join(f"np{r} {c}" for r, c in got.items()))
    finish("mpi_checksums")


if __name__ == "__main__":
    main()

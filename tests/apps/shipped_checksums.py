#!/usr/bin/env python3
"""The shipped inputs keep their physics bit for bit: heat3d and wave3d on every input of inputs/ that
existed before the equations moved into the physics registry (issue 27) print the checksum main printed
then (commit 34394c3, 2 ranks, default settings, Release; the checksum is independent of the rank count
and of the backend, docs/output.md). A refit of the physics layer moves code, not bits: a failure here
means a change of the resolved dt, the stencil's weights, the evaluation order or the boundary values.
A deliberate change of an input or of the physics updates this table in the same commit, with the
reason in its message.

    shipped_checksums.py --heat3d BIN --wave3d BIN --mpiexec MPIEXEC --inputs DIR
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, finish, mpirun, set_args  # noqa: E402

# (program, input) -> checksum printed by main at 34394c3.
RECORDED = {
    ("heat3d", "heat3d.yaml"): "6a517f8afd28c2c8",
    ("heat3d", "heat2d-9pt.yaml"): "46ef04ce73d14128",
    ("heat3d", "heat3d-27pt.yaml"): "57b51b92236af944",
    ("heat3d", "heat3d-star8.yaml"): "c8607a1073d8779f",
    ("wave3d", "wave3d.yaml"): "9b35086b29c41b13",
}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--heat3d", required=True)
    p.add_argument("--wave3d", required=True)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--inputs", required=True)
    args = p.parse_args()
    programs = {"heat3d": args.heat3d, "wave3d": args.wave3d}
    with tempfile.TemporaryDirectory() as d:
        for (program, name), want in RECORDED.items():
            path = os.path.join(args.inputs, name)
            code, out, err, _ = mpirun(args.mpiexec, 2, programs[program], [path] + set_args(["output.dir=out"]), d, timeout=300)
            got = checksum(out)
            check(code == 0, f"{program} {name}: exit {code}\n{err[-1500:]}")
            check(got == want, f"{program} {name}: checksum {got}, main printed {want} before the physics refit")
            print(f"{program} {name:<18} {got}")
    finish("shipped_checksums")


if __name__ == "__main__":
    main()

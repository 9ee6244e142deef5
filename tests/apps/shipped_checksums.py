#!/usr/bin/env python3
"""The shipped inputs keep their physics bit for bit: heat3d and wave3d on every input of inputs/ that
existed before the equations moved into the physics registry (issue 27) print the checksum main printed
then (commit 34394c3, 2 ranks, default settings, Release; the checksum is independent of the rank count
and of the backend, docs/output.md). A refit of the physics layer moves code, not bits: a failure here
means a change of the resolved dt, the stencil's weights, the evaluation order or the boundary values.
A deliberate change of an input or of the physics updates this table in the same commit, with the
reason in its message.

grayscott3d's input came later (fb7e4fb): its checksum, which combines u and v, is the one main
printed at d7ab9e0 on 2 ranks. A two-field state is newer than the other apps' rank-count tests, so
with --other-ranks the inputs of OTHER_RANKS run on those rank counts instead (a few seconds each),
which must print the same (the ctest grayscott3d.shipped_ranks, label numerics).

    shipped_checksums.py --heat3d BIN --wave3d BIN --grayscott3d BIN --mpiexec MPIEXEC --inputs DIR [--other-ranks]
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
    ("grayscott3d", "grayscott.yaml"): "36cbe39cad49a584",  # main at d7ab9e0
}

# With --other-ranks these inputs run on these rank counts instead of 2 (each must print the recorded checksum).
OTHER_RANKS = {("grayscott3d", "grayscott.yaml"): (1, 3)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--heat3d", required=True)
    p.add_argument("--wave3d", required=True)
    p.add_argument("--grayscott3d", required=True)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--inputs", required=True)
    p.add_argument("--other-ranks", action="store_true", help="run the inputs of OTHER_RANKS on their rank counts")
    args = p.parse_args()
    programs = {"heat3d": args.heat3d, "wave3d": args.wave3d, "grayscott3d": args.grayscott3d}
    with tempfile.TemporaryDirectory() as d:
        for (program, name), want in RECORDED.items():
            path = os.path.join(args.inputs, name)
            for ranks in OTHER_RANKS.get((program, name), ()) if args.other_ranks else (2,):
                code, out, err, _ = mpirun(args.mpiexec, ranks, programs[program], [path] + set_args(["output.dir=out"]), d,
                                           timeout=300)
                got = checksum(out)
                check(code == 0, f"{program} {name} on {ranks} ranks: exit {code}\n{err[-1500:]}")
                check(got == want, f"{program} {name} on {ranks} ranks: checksum {got}, recorded {want} (RECORDED says when)")
                print(f"{program} {name:<18} {ranks} rank(s) {got}")
    finish("shipped_checksums")


if __name__ == "__main__":
    main()

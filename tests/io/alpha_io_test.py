#!/usr/bin/env python3
"""heat3d with a field physics.alpha and HDF5 (docs/input.md, Field alpha): a dataset written here
reads back on 1-4 ranks (the same bits as the layers form it spells out); a dataset of the wrong
shape or type, a missing one or a non-positive value is one located line and exit 2 on every rank;
field files hold alpha when output.fields lists it; a restart continues bitwise and refuses another
alpha. One case per ctest:

    alpha_io_test.py --heat3d PATH --mpiexec PATH CASE
"""
import os
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = cartex_testing.small_input(steps=20, progress_every=None)  # grid 12 x 10 x 8, periodic
LAYERS = "physics.alpha={layers: {axis: y, bounds: [0.35], values: [0.5, 2.0]}}"


def layers_values():
    """The LAYERS form on the (nz, ny, nx) = (8, 10, 12) grid: y_j = j / 10 below 0.35 -> 0.5, else 2.0."""
    a = np.empty((8, 10, 12))
    for j in range(10):
        a[:, j, :] = 0.5 if j / 10 < 0.35 else 2.0
    return a


def heat(ranks, d, sets, extra=()):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.heat3d, args, d)
    check(code == 0, f"heat3d {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def refused(d, args, expected, what):
    code, out, err, codes = cartex_testing.mpirun(ARGS.mpiexec, 2, ARGS.heat3d, args, d, per_rank_codes=True)
    check(codes == [2, 2], f"{what}: per-rank exit codes {codes}")
    check(own_lines(err) == [expected], f"{what}: stderr {own_lines(err)!r}, expected {expected!r}")


def case_hdf5_form():
    """The hdf5 form on 1-4 ranks gives the layers form's bits; bad datasets are located errors."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        with h5py.File(os.path.join(d, "alpha.h5"), "w") as f:
            f["alpha"] = layers_values()
            f["flat"] = layers_values()[0]
            f["ints"] = np.ones((8, 10, 12), dtype=np.int32)
            bad = layers_values()
            bad[3, 4, 5] = 0.0
            f["zero"] = bad
        common = ["init.type=gaussian", "halo.steps_per_exchange=2"]
        ref = checksum(heat(2, d, common + [LAYERS]))
        for ranks in (1, 2, 3, 4):
            out = heat(ranks, d, common + ["physics.alpha={hdf5: {file: alpha.h5, dataset: alpha}}"])
            check(checksum(out) == ref and ref is not None, f"hdf5 on {ranks} ranks: {checksum(out)}, layers form {ref}")
        at = "--set physics.alpha={hdf5: {file: alpha.h5, dataset: %s}}"
        for dataset, key, what in [
                ("flat", "dataset", "alpha.h5: dataset flat has shape (10, 12), expected the grid's (8, 10, 12) (nz, ny, nx)"),
                ("ints", "dataset", "alpha.h5: dataset ints is not floating point"),
                ("nope", "dataset", "alpha.h5: no dataset nope"),
                ("zero", "dataset", "alpha.h5: dataset zero holds the value 0 (expected positive, finite values everywhere)")]:
            sets = [f"physics.alpha={{hdf5: {{file: alpha.h5, dataset: {dataset}}}}}"]
            refused(d, ["in.yaml"] + set_args(sets), f"{at % dataset}: physics.alpha.hdf5.{key}: {what}", dataset)
        sets = ["physics.alpha={hdf5: {file: missing.h5, dataset: alpha}}"]
        refused(d, ["in.yaml"] + set_args(sets),
                "--set physics.alpha={hdf5: {file: missing.h5, dataset: alpha}}: physics.alpha.hdf5.file: missing.h5: no such file",
                "missing file")


def case_output_restart():
    """Field files hold alpha; a restart continues bitwise, and refuses another alpha or a number."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        common = [LAYERS, "init.type=gaussian", "output.every=10", "output.fields=[u,alpha]"]
        full = heat(2, d, common + ["output.dir=full"])
        with h5py.File(os.path.join(d, "full", "fields_000020.h5"), "r") as f:
            check(sorted(f) == ["alpha", "u"], f"field file datasets {sorted(f)}")
            check(np.array_equal(f["alpha"][()], layers_values()), "the field file's alpha is not the layers form")
        heat(2, d, common + ["output.dir=first", "output.checkpoint_every=10", "run.steps=10"])
        ck = os.path.join("first", "checkpoint_000010.h5")
        with h5py.File(os.path.join(d, ck), "r") as f:
            check(f.attrs["fields"].decode() == "u,alpha", f"checkpoint fields {f.attrs['fields']!r}")
        for ranks in (2, 3):
            out = heat(ranks, d, common + [f"output.dir=re{ranks}"], ["--restart", ck])
            check(checksum(out) == checksum(full) and checksum(full) is not None,
                  f"restart on {ranks} ranks: {checksum(out)}, uninterrupted {checksum(full)}")
        other = LAYERS.replace("[0.5,", "[0.75,")  # the same largest value: the same dt
        refused(d, ["in.yaml"] + set_args([other, "init.type=gaussian", "output.dir=x"]) + ["--restart", ck],
                f"--restart {ck}: physics.alpha differs from the checkpoint's alpha at cell (0, 0, 0): 0.75 in the input, 0.5 in "
                "the checkpoint (a restart keeps the field)", "another alpha")
        refused(d, ["in.yaml"] + set_args(["init.type=gaussian", "output.dir=x", "physics.alpha=2.0"]) + ["--restart", ck],
                f"--restart {ck}: the checkpoint holds a field alpha, the input's physics.alpha is a number (give the field the "
                "run was started with)", "a number")
        refused(d, ["in.yaml"] + set_args(["output.fields=[u,alpha]"]),
                '--set output.fields=[u,alpha]: output.fields: unknown field "alpha" (expected one of: u, rank)', "alpha without a field")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d"])

#!/usr/bin/env python3
"""heat3d with a field physics.alpha (layers, gaussian; the flux form of kernels/flux_diffusion.hpp)
end to end under mpiexec: bad inputs are one located line and exit 2 on every rank; a periodic box
with a gaussian alpha conserves the integral of u over 1,000 steps on 1-4 ranks and several backends
and halo depths; the final field is bitwise the same across rank counts, process grids, backends and
halo depths. One case per ctest:

    alpha_field_test.py --heat3d PATH --mpiexec PATH CASE
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = cartex_testing.small_input(steps=5, progress_every=None)
GAUSSIAN = "physics.alpha={gaussian: {background: 0.5, peak: 2.0, center: [0.3, 0.6, 0.5], width: 0.2}}"
LAYERS = "physics.alpha={layers: {axis: x, bounds: [0.3, 0.7], values: [1.0, 3.0, 0.5]}}"
BACKENDS = ["p2p", "cart_combining", "mpi_neighbor_alltoallw"]


def heat(ranks, d, sets):
    args = ["in.yaml"] + set_args(sets)
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.heat3d, args, d)
    check(code == 0, f"heat3d {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


# (name, YAML text of physics.alpha's line, extra --set, expected stderr line); alpha sits at line 4.
def bad_inputs():
    a = "  alpha: {}\n"
    base = BASE.replace("  alpha: 1.0\n", "{alpha}")
    return [
        ("two forms", base.format(alpha=a.format("{layers: {bounds: [0.5], values: [1, 2]}, gaussian: {peak: 2}}")), [],
         "bad.yaml:4:10: physics.alpha: expected a positive number or a mapping with one of layers, gaussian, hdf5 (several given)"),
        ("unknown form", base.format(alpha=a.format("{layer: {bounds: [0.5]}}")), [],
         "bad.yaml:4:11: physics.alpha.layer: unknown key; did you mean layers? (expected one of: gaussian, hdf5, layers)"),
        ("values count", base.format(alpha=a.format("{layers: {bounds: [0.5], values: [1.0]}}")), [],
         "bad.yaml:4:43: physics.alpha.layers.values: expected 2 values (one more than bounds: one per layer), got 1"),
        ("non-positive layer", base.format(alpha=a.format("{layers: {bounds: [0.5], values: [1.0, 0.0]}}")), [],
         "bad.yaml:4:49: physics.alpha.layers.values: expected a positive number, got 0"),
        ("bounds order", base.format(alpha=a.format("{layers: {bounds: [0.5, 0.2], values: [1, 2, 3]}}")), [],
         "bad.yaml:4:34: physics.alpha.layers.bounds: expected increasing positions, got 0.2 after 0.5"),
        ("axis", base.format(alpha=a.format("{layers: {axis: w, bounds: [0.5], values: [1, 2]}}")), [],
         'bad.yaml:4:26: physics.alpha.layers.axis: expected x, y or z, got "w"'),
        ("non-positive peak", base.format(alpha=a.format("{gaussian: {peak: -1}}")), [],
         "bad.yaml:4:28: physics.alpha.gaussian.peak: expected a positive number, got -1"),
        ("unknown gaussian key", base.format(alpha=a.format("{gaussian: {peak: 2, sigma: 1}}")), [],
         "bad.yaml:4:31: physics.alpha.gaussian.sigma: unknown key (expected one of: background, center, peak, width)"),
        ("27pt", base.format(alpha=a.format("{gaussian: {peak: 2}}")), ["stencil=27pt", "grid.n=[12,12,12]"],
         "bad.yaml:4:10: physics.alpha: a field alpha (gaussian) takes the second-order star stencil only (7pt, or "
         "{type: star, order: 2}); the stencil is 27pt"),
        ("dt above the limit", base.format(alpha=a.format("{layers: {bounds: [0.5], values: [1, 4]}}")),
         ["physics.cfl=null", "physics.dt=0.001"],
         "--set physics.dt=0.001: physics.dt: 0.001 exceeds the stability limit 0.000405844 of stencil 7pt on this grid "
         "(dt <= 2/(alpha*rho), rho = 1232)"),
    ]


def case_bad_inputs():
    """Every bad field alpha is one located line and exit 2 on every rank, before anything runs."""
    with tempfile.TemporaryDirectory() as d:
        for name, text, sets, expected in bad_inputs():
            write(d, "bad.yaml", text)
            code, out, err, codes = cartex_testing.mpirun(ARGS.mpiexec, 2, ARGS.heat3d, ["bad.yaml"] + set_args(sets), d,
                                                          per_rank_codes=True)
            check(codes == [2, 2], f"{name}: per-rank exit codes {codes}")
            check(own_lines(err) == [expected], f"{name}: stderr {own_lines(err)!r}, expected {expected!r}")


def case_conservation():
    """Periodic box, gaussian alpha: the integral of u is kept to rounding over 1,000 steps."""
    runs = [(1, "p2p", 1), (2, "cart_combining", 2), (3, "mpi_neighbor_alltoallw", 1), (4, "p2p", 4), (4, "cart_combining", 1)]
    for ranks, backend, k in runs:
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", BASE)
            out = heat(ranks, d, [GAUSSIAN, "init.type=gaussian", "init.width=0.2", "run.steps=1000", "physics.cfl=0.9",
                                  f"comm.backend={backend}", f"halo.steps_per_exchange={k}"])
            m = re.search(r"integral of u\s+(\S+) \(start (\S+), change (\S+)\)", out)
            where = f"{ranks} ranks, {backend}, k={k}"
            if check(m is not None, f"conservation {where}: no integral of u line in\n{out}"):
                start, change = float(m.group(2)), float(m.group(3))
                check(start > 0, f"conservation {where}: start heat {start} should be positive")
                check(abs(change) <= 1e-12 * abs(start), f"conservation {where}: heat changed by {change} of {start}")
            m = re.search(r"min / max\s+(\S+) / (\S+)", out)
            check(m is not None and float(m.group(2)) < 0.5, f"conservation {where}: the peak did not spread:\n{out}")


def case_bitwise():
    """The final field is bitwise the same on 1, 2, 4 ranks, other process grids, backends and halo depths."""
    cases = [("3D gaussian periodic", [GAUSSIAN, "grid.n=[13,11,9]", "init.type=gaussian"]),
             ("3D layers walls", [LAYERS, "grid.n=[14,11,9]", "grid.periodic=[false,true,true]", "boundary.x=[1.0,0.0]"]),
             ("2D layers walls", [LAYERS.replace("axis: x", "axis: y"), "grid.n=[17,15]", "grid.periodic=[true,false]",
                                  "boundary.y=[0.5,2.0]"])]
    runs = [(1, []), (2, []), (4, []), (4, ["processes.dims=[1,4,1]"]), (2, ["comm.backend=cart_combining"]),
            (3, ["comm.backend=mpi_neighbor_alltoallw"]), (2, ["halo.steps_per_exchange=3"]), (4, ["halo.steps_per_exchange=2"])]
    for name, sets in cases:
        sums = {}
        for ranks, more in runs:
            if "2D" in name and more == ["processes.dims=[1,4,1]"]:
                more = ["processes.dims=[1,4]"]
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                sums[(ranks, tuple(more))] = checksum(heat(ranks, d, sets + more + ["run.steps=24"]))
        values = set(sums.values())
        check(None not in values, f"bitwise {name}: a run printed no checksum: {sums}")
        check(len(values) == 1, f"bitwise {name}: checksums differ: {sums}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d"])

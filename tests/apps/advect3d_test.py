#!/usr/bin/env python3
"""End-to-end tests of build/bin/advect3d (u_t + v . grad u = alpha lap u, explicit Euler) under
mpiexec: the exact discrete solution of the sine mode for every first-derivative scheme in 2D and 3D,
bitwise equal fields across backends, rank counts, deep halos, temporal blocking and overlap, the
inputs it refuses (a dt above the operator's limit, central differences without diffusion) and the
behaviour of the schemes (first-order upwind damps the mode, higher orders with little diffusion hardly do).
One case per ctest:

    advect3d_test.py --advect3d PATH --mpiexec PATH CASE
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, set_args, summary_value, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = """grid:
  n: [12, 10, 8]
physics:
  alpha: 0.01
  velocity: [1.0, -0.6, 0.4]
  advection: {scheme: upwind, order: 2}
  cfl: 0.5
run:
  steps: 20
"""

SCHEMES = [("upwind", 1), ("upwind", 2), ("upwind", 3), ("upwind", 4), ("central", 2), ("central", 4)]


def run(ranks, args, cwd, per_rank_codes=False):
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.advect3d, args, cwd, per_rank_codes)


def advect(ranks, d, sets, extra=()):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = run(ranks, args, d)
    check(code == 0, f"advect3d {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def case_exact():
    """The sine mode matches the exact discrete solution (2^dim plane waves times G^n, G from the
    operator's complex symbol) to 1e-12 relative after 200 steps, for every scheme and order, 2D and 3D,
    on 1 to 3 ranks, with a mode that moves (so the phase is checked, not only the decay).

    Rounding leaves ~1e-18 in the mean, which never decays; the runs stop (cfl 0.2) while first-order
    upwind, the most damping, still holds the mode far above that, so the error measures the update."""
    grids = [("3D", ["grid.n=[16,12,10]", "grid.length=[1.0,0.8,1.2]", "init.modes=[1,2,1]"]),
             ("2D", ["grid.n=[24,24]", "physics.velocity=[0.7,-1.1]", "stencil=9pt", "init.modes=[2,1]"])]
    for i, (scheme, order) in enumerate(SCHEMES):
        for j, (name, sets) in enumerate(grids):
            ranks = 1 + (i + j) % 3
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                out = advect(ranks, d, sets + [f"physics.advection={{scheme: {scheme}, order: {order}}}", "run.steps=200", "physics.cfl=0.2"])
                err = summary_value(out, "sine error")
                check(err is not None and float(err) < 1e-12,
                      f"{name} {scheme} {order} on {ranks} ranks: sine error {err}\n{out}")
    # Between walls that follow the exact solution (dirichlet: exact) the lattice solution holds too:
    # x walls, upwind 3 against the flow in 3D, on 1 and 2 ranks with k = 1 to 3, one checksum (the wall
    # ghosts in the periodic y and z halos take their owners' positions).
    sums = {}
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for ranks, k in [(2, 1), (2, 3), (1, 2)]:
            out = advect(ranks, d, grids[0][1] + ["grid.periodic=[false,true,true]", "physics.advection={scheme: upwind, order: 3}",
                                                  "boundary.x={low: {dirichlet: exact}, high: {dirichlet: exact}}",
                                                  "run.steps=200", "physics.cfl=0.2", f"halo.steps_per_exchange={k}"])
            err = summary_value(out, "sine error")
            check(err is not None and float(err) < 1e-12, f"exact x walls, {ranks} ranks, k={k}: sine error {err}\n{out}")
            sums[(ranks, k)] = checksum(out)
    check(None not in sums.values() and len(set(sums.values())) == 1, f"exact x walls: checksums differ: {sums}")


def case_bitwise():
    """Every backend on 4 ranks, and deep halos (k = 2, 3), temporal blocking (off, tiles) and
    overlap on 1, 2 and 4 ranks, give one checksum for a non-symmetric operator with a reach of 3
    (upwind order 4: offsets -3..+1 along the flow) and a gaussian start."""
    sets = ["grid.n=[14,11,10]", "grid.length=[1.4,1.1,1.0]", "init.type=gaussian", "init.width=0.2",
            "init.center=[0.5,0.5,0.5]", "physics.advection={scheme: upwind, order: 4}", "run.steps=7"]
    backends = [name for name, _, _ in cartex_testing.list_backends(ARGS.mpiexec, ARGS.advect3d)]
    sums = {}
    for ranks in (1, 2, 4):
        runs = [(b, 1, "false", "off") for b in backends] if ranks == 4 else [("p2p", 1, "false", "off")]
        runs += [("p2p", 2, "false", "off"), ("cart_combining", 3, "true", "auto"), ("p2p", 3, "false", "{tile_y: 2}"),
                 ("mpi_neighbor_alltoallw", 2, "true", "{tile_y: 3}"), ("cart_forwarding", 3, "false", "auto")]
        for backend, k, overlap, blocking in runs:
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                out = advect(ranks, d, sets + [f"comm.backend={backend}", f"halo.steps_per_exchange={k}",
                                               f"comm.overlap={overlap}", f"halo.temporal_blocking={blocking}"])
                sums[(ranks, backend, k, overlap, blocking)] = checksum(out)
    check(None not in sums.values() and len(set(sums.values())) == 1, f"checksums differ: {sums}")


def case_bad_inputs():
    """What advect3d refuses, with one located line on every rank and exit 2."""
    with tempfile.TemporaryDirectory() as d:
        cases = [
            ("dt above the limit", ["physics.cfl=null", "physics.dt=0.5"],
             r"^--set physics\.dt=0\.5: physics\.dt: 0\.5 exceeds the stability limit [\d.e+-]+ of stencil 7pt\+upwind2 "),
            ("central 2 without diffusion", None,
             r"^in\.yaml:\d+:\d+: physics\.cfl: stencil 7pt\+central2: .*"),
            ("unknown scheme", ["physics.advection={scheme: upwnd, order: 2}"],
             r"^--set physics\.advection=.*: physics\.advection: expected scheme upwind or central, got \"upwnd\"$"),
            ("scheme a list", ["physics.advection={scheme: [upwind], order: 1}"],
             r"^--set physics\.advection=.*: physics\.advection: expected scheme upwind or central, got a list or mapping$"),
            ("weights that overflow", ["physics.velocity=[1e307, 0, 0]", "physics.cfl=null", "physics.dt=0.001"],
             r"^--set physics\.velocity=.*: physics\.velocity: the operator this builds from stencil 7pt\+upwind2 has a weight "
             r"that is not a finite number \(it overflows a double with the grid spacing h = \[.*\]\): expected values this grid "
             r"can step$"),
            ("a limit beyond the doubles", ["physics.velocity=[1e300, 0, 0]", "physics.cfl=null", "physics.dt=0.001"],
             r"^--set physics\.dt=0\.001: physics\.dt: stencil 7pt\+upwind2: the operator's weights are too large to compute a "
             r"limit with doubles .*"),
            ("order the scheme lacks", ["physics.advection={scheme: central, order: 3}"],
             r"^--set physics\.advection=.*: physics\.advection: scheme central has orders 2, 4, got 3$"),
            ("an order in hex", ["physics.advection={scheme: upwind, order: 0x2}"],
             r"^--set physics\.advection=.*: physics\.advection: scheme upwind has orders 1, 2, 3, 4, got 0x2$"),
            ("an order in YAML 1.1 octal", ["physics.advection={scheme: upwind, order: 0o2}"],
             r"^--set physics\.advection=.*: physics\.advection: scheme upwind has orders 1, 2, 3, 4, got 0o2$"),
            ("velocity of the wrong length", ["physics.velocity=[1.0, 2.0]"],
             r"^--set physics\.velocity=.*: physics\.velocity: expected 3 entries .*, got 2$"),
            ("exact walls without the exact solution", ["grid.periodic=[false,false,true]",
                                                         "boundary.x={low: {dirichlet: exact}, high: {dirichlet: exact}}"],
             r"^--set boundary\.x=.*: boundary\.x\.low: dirichlet: exact follows the exact solution, which the "
             r"advection-diffusion equation does not have for this input"),
            ("robin wall with b < 0", ["grid.periodic=[false,true,true]", "boundary.x={high: {robin: {a: 1, b: -0.5, g: 0}}}"],
             r"^--set boundary\.x=.*: boundary\.x\.high: robin: a and b must be >= 0 and not both 0 \(a u \+ b du/dn = g is then "
             r"well posed\), got a = 1, b = -0\.5$"),
        ]
        for name, sets, pattern in cases:
            # A case without overrides edits the file, so that its line is the location.
            text = BASE if sets is not None else BASE.replace("alpha: 0.01", "alpha: 0").replace("upwind, order: 2", "central, order: 2")
            write(d, "in.yaml", text)
            code, out, err, codes = run(2, ["in.yaml"] + set_args(sets or []), d, per_rank_codes=True)
            check(codes == [2, 2], f"{name}: per-rank exit codes {codes}")
            lines = own_lines(err)
            check(len(lines) == 1 and re.match(pattern, lines[0]) is not None, f"{name}: stderr {lines}, expected /{pattern}/")


def max_u(out):
    """The summary's largest |u| at the end."""
    m = re.search(r"^\s*min / max\s+(\S+) / (\S+)$", out, re.M)
    return max(-float(m.group(1)), float(m.group(2))) if m else None


def case_behaviour():
    """At one dt and time (t = 0.4, a sine mode carried diagonally on 32x32 cells): first-order upwind
    damps the mode strongly (its numerical diffusion |v| h / 2 is far above alpha), third-order upwind
    and fourth-order central keep it (their damping is the diffusion's, upwind's slightly more)."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        amps = {}
        for scheme, order in [("upwind", 1), ("upwind", 3), ("central", 4)]:
            out = advect(2, d, ["grid.n=[32,32]", "physics.alpha=0.001", "physics.velocity=[1.0,0.5]", "physics.cfl=null",
                                "physics.dt=0.001", f"physics.advection={{scheme: {scheme}, order: {order}}}", "run.steps=400"])
            amps[(scheme, order)] = max_u(out)
        check(None not in amps.values(), f"no min / max of u in the summaries: {amps}")
        if None not in amps.values():
            check(amps[("upwind", 1)] < 0.9, f"upwind 1 should damp the mode: {amps}")
            check(0.95 < amps[("upwind", 3)] <= amps[("central", 4)] < 1.0, f"upwind 3 and central 4 should keep it: {amps}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["advect3d"])

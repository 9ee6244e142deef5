#!/usr/bin/env python3
"""End-to-end tests of the boundary conditions per face (docs/boundaries.md) with heat3d, wave3d and
advect3d: the insulated box conserves u, cosine modes with Neumann walls and the sine mode with exact
Dirichlet walls match their exact discrete solutions, mixed walls give the same bits on every backend,
rank count, k and overlap, Robin walls too (and reach their steady linear profile; a = 0, b = 1 is
Neumann to the bit), and bad boundary input is one located error. One case per ctest:

    boundary_test.py --heat3d PATH --wave3d PATH --advect3d PATH --mpiexec PATH CASE
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, set_args, summary_value, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = cartex_testing.small_input(steps=5, progress_every=None)
INSULATED = "{low: {neumann: 0}, high: {neumann: 0}}"
# Walls of every kind and periodic z: x Neumann with a flux / Dirichlet, y Dirichlet / Neumann.
MIXED = ["grid.periodic=[false,false,true]", "boundary.x={low: {neumann: 0.5}, high: {dirichlet: 1.0}}",
         "boundary.y={low: {dirichlet: 0.25}, high: {neumann: -0.3}}", "init.type=gaussian",
         "init.center=[0.3,0.6,0.4]", "grid.length=[1.05,0.95,1.2]"]  # h = 0.1 with n = [10, 9, 12]
# Robin walls of every sort (b = 0, a = 0 with a flux, both) beside a Neumann and a periodic z.
ROBIN = ["grid.periodic=[false,false,true]", "boundary.x={low: {robin: {a: 1, b: 0.5, g: 0}}, high: {robin: {a: 2, b: 0, g: 1}}}",
         "boundary.y={low: {robin: {a: 0, b: 1, g: -0.3}}, high: {robin: {a: 0.25, b: 1.5, g: 0.7}}}", "init.type=gaussian",
         "init.center=[0.3,0.6,0.4]"]
# advect3d's input: a little diffusion and a one-sided upwind derivative (reach 2 against the flow).
ADVECT = BASE.replace("alpha: 1.0", "alpha: 0.05\n  velocity: [1.0, -0.5, 0.25]\n  advection: {scheme: upwind, order: 3}")


def run(ranks, args, cwd, per_rank_codes=False, app=None):
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, app or ARGS.heat3d, args, cwd, per_rank_codes)


def heat(ranks, d, sets, extra=(), app=None):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = run(ranks, args, d, app=app)
    check(code == 0, f"{app or 'heat3d'} {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


_BACKENDS = []
TILES_1, TILES_2, TILES_3 = "{tile_y: 1}", "{tile_y: 2}", "{tile_y: 3}"


def backends():
    """Every backend of the halo registry that runs here (heat3d --list-backends)."""
    if not _BACKENDS:
        _BACKENDS.extend(name for name, _, _ in cartex_testing.list_backends(ARGS.mpiexec, ARGS.heat3d))
    return _BACKENDS


def matrix(ranks):
    """(backend, k, overlap, temporal blocking) runs on `ranks` ranks: every backend with k = 1 on 2
    ranks, and k = 1..4 with overlap on and off, temporal blocking off, auto (one tile of the whole
    view on these grids) and tiles of 1 to 3 rows (several tiles per pass, the first grown and the
    last merged for the y walls: the wall ghost cells are filled inside the pass) on every rank count."""
    runs = [(b, 1, "false", "off") for b in backends()] if ranks == 2 else []
    runs += [("p2p", 1, "true", "auto"), ("p2p", 2, "false", "auto"), ("cart_combining", 2, "true", "off"),
             ("graph_combining", 3, "true", "auto"), ("p2p_persistent", 3, "true", "auto"),
             ("mpi_neighbor_alltoallw", 3, "false", "off"), ("p2p", 2, "true", TILES_2), ("p2p_persistent", 3, "false", TILES_1),
             ("cart_combining", 4, "true", TILES_3), ("p2p", 4, "false", "auto")]
    return runs


def blocked(k, blocking):
    """True when a run's cycles run as temporal-blocking passes (k >= 2, tiles or auto on the host)."""
    return k > 1 and blocking != "off"


def check_blocked(key, k, blocking, out):
    """The summary's temporal line says the cycles ran in tiled passes."""
    if blocked(k, blocking):
        check(re.search(r"^  temporal +tiles of", out, re.M) is not None, f"{key}: temporal blocking should be tiled:\n{out}")


def comm_sets(backend, k, overlap, blocking):
    return [f"comm.backend={backend}", f"halo.steps_per_exchange={k}", f"comm.overlap={overlap}",
            f"halo.temporal_blocking={blocking}"]


def case_insulated():
    """Neumann 0 on every wall: the integral of u is conserved to rounding over 1,000 steps, on 1 to 8
    ranks, every backend, k = 1..3, overlap on and off; and every run gives the same bits."""
    sets = ["grid.n=[9,8,7]", "grid.length=[0.9,0.8,0.7]", "grid.periodic=false", "stencil=27pt", "init.type=gaussian", "init.width=0.2",
            "init.center=[0.2,0.7,0.4]", "run.steps=1000"] + [f"boundary.{a}={INSULATED}" for a in "xyz"]
    sums = {}
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for ranks in (1, 2, 3, 4, 8):
            for backend, k, overlap, blocking in matrix(ranks):
                out = heat(ranks, d, sets + comm_sets(backend, k, overlap, blocking))
                key = (ranks, backend, k, overlap, blocking)
                sums[key] = checksum(out)
                m = re.search(r"integral of u\s+(\S+) \(start (\S+), change (\S+)\)", out)
                check(m is not None, f"insulated {key}: no integral of u line in\n{out}")
                if m:
                    start, change = float(m.group(2)), float(m.group(3))
                    check(start > 0 and abs(change) <= 1e-12 * start, f"insulated {key}: u changed by {change} of {start}")
                check_blocked(f"insulated {key}", k, blocking, out)
    check(None not in sums.values() and len(set(sums.values())) == 1, f"insulated: checksums differ: {sums}")


COSINE_CASES = [  # (name, sets): Neumann 0 walls (cosine factors), mixed with Dirichlet 0 and periodic
    ("3D 7pt insulated", ["grid.n=[12,10,9]", "grid.periodic=false", "stencil=7pt", "init.modes=[1,2,1]"]
     + [f"boundary.{a}={INSULATED}" for a in "xyz"]),
    ("3D 27pt insulated x, periodic y z", ["grid.n=[10,10,10]", "grid.periodic=[false,true,true]", "stencil=27pt",
                                          f"boundary.x={INSULATED}", "init.modes=[2,1,1]"]),
    ("3D star order 4 insulated (reach 2)", ["grid.n=[12,12,10]", "grid.periodic=[false,false,true]",
                                             "stencil={type: star, order: 4}", f"boundary.x={INSULATED}",
                                             f"boundary.y={INSULATED}"]),
    ("2D 9pt Neumann/Dirichlet quarter waves", ["grid.n=[20,20]", "grid.periodic=false", "stencil=9pt", "init.modes=[1,2]",
                                                "boundary.x={low: {neumann: 0}, high: {dirichlet: 0}}",
                                                "boundary.y={low: {dirichlet: 0}, high: {neumann: 0}}"]),
]


def case_cosine_exact():
    """Cosine modes with insulated walls (and quarter waves between a Neumann and a Dirichlet wall)
    match the exact discrete solution (summary `sine error`) to 1e-12 relative on 1 to 4 ranks, k = 1
    to 3, heat3d and wave3d; with temporal blocking (tiles and auto, k = 2..4, overlap on and off)
    too, bitwise equal to the same run unblocked."""
    for name, sets in COSINE_CASES:
        for app, ranks, k in [(ARGS.heat3d, 1, 1), (ARGS.heat3d, 2, 2), (ARGS.heat3d, 4, 1), (ARGS.wave3d, 2, 1), (ARGS.wave3d, 3, 3)]:
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE if app == ARGS.heat3d else BASE.replace("alpha", "speed"))
                out = heat(ranks, d, sets + ["run.steps=40", "physics.cfl=0.5", f"halo.steps_per_exchange={k}"], app=app)
                err = summary_value(out, "sine error")
                check(err is not None and float(err) < 1e-12,
                      f"cosine {name} ({os.path.basename(app)}, {ranks} ranks, k={k}): sine error {err} (want < 1e-12)\n{out}")
        # Temporal blocking fills the walls' ghost cells inside its passes: the same bits as the steps one by one.
        for app, ranks, k, overlap, blocking in [(ARGS.heat3d, 1, 2, "false", TILES_1), (ARGS.heat3d, 2, 3, "true", TILES_2),
                                                 (ARGS.heat3d, 4, 4, "false", "auto"), (ARGS.wave3d, 2, 2, "false", TILES_3),
                                                 (ARGS.wave3d, 4, 3, "true", TILES_1)]:
            key = f"cosine {name} ({os.path.basename(app)}, {ranks} ranks, k={k}, overlap {overlap}, {blocking})"
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE if app == ARGS.heat3d else BASE.replace("alpha", "speed"))
                runs = {}
                for tiles in (blocking, "off"):
                    runs[tiles] = heat(ranks, d, sets + ["run.steps=40", "physics.cfl=0.5"] + comm_sets("p2p", k, overlap, tiles), app=app)
                out = runs[blocking]
                check_blocked(key, k, blocking, out)
                err = summary_value(out, "sine error")
                check(err is not None and float(err) < 1e-12, f"{key}: sine error {err} (want < 1e-12)\n{out}")
                check(checksum(out) is not None and checksum(out) == checksum(runs["off"]),
                      f"{key}: checksum {checksum(out)}, unblocked {checksum(runs['off'])}")


def case_exact_dirichlet():
    """Dirichlet exact walls follow the sine mode's exact solution: with a stencil reaching two cells
    the mode stays exact (sine error < 1e-12) on 1, 2 and 4 ranks, k = 1 to 3, heat3d and wave3d, with
    one checksum per program (a wall ghost in the periodic z halo takes its owner's position, so deep
    halos read the same bits); with constant zero walls the same run is not exact (no sine error line)."""
    exact = "{low: {dirichlet: exact}, high: {dirichlet: exact}}"
    sets = ["grid.n=[14,12,10]", "grid.periodic=[false,false,true]", "stencil={type: star, order: 4}",
            f"boundary.x={exact}", f"boundary.y={exact}", "init.modes=[2,1,1]", "run.steps=40", "physics.cfl=0.5"]
    sums = {}
    for app, ranks, k in [(ARGS.heat3d, 1, 1), (ARGS.heat3d, 1, 2), (ARGS.heat3d, 2, 2), (ARGS.heat3d, 2, 3), (ARGS.heat3d, 4, 1),
                          (ARGS.wave3d, 2, 1), (ARGS.wave3d, 4, 2), (ARGS.wave3d, 1, 3)]:
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", BASE if app == ARGS.heat3d else BASE.replace("alpha", "speed"))
            out = heat(ranks, d, sets + [f"halo.steps_per_exchange={k}"], app=app)
            err = summary_value(out, "sine error")
            check(err is not None and float(err) < 1e-12,
                  f"exact walls ({os.path.basename(app)}, {ranks} ranks, k={k}): sine error {err} (want < 1e-12)\n{out}")
            sums.setdefault(os.path.basename(app), {})[(ranks, k)] = checksum(out)
    for app, by_run in sums.items():
        check(None not in by_run.values() and len(set(by_run.values())) == 1, f"exact walls ({app}): checksums differ: {by_run}")
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        out = heat(2, d, [s for s in sets if not s.startswith("boundary")])
        check(summary_value(out, "sine error") is None, f"constant walls with reach 2 report a sine error:\n{out}")


def case_mixed_bitwise():
    """Mixed Neumann / Dirichlet / periodic walls: every backend, 1, 4 and 8 ranks, k = 1..3, overlap on
    and off give the same bits (3D 27pt); 2D 9pt and wave3d (leapfrog's two levels) on 1, 3 and 8 ranks.
    Random walls, stencils, rank counts and settings: the campaign (tests/campaign)."""
    for name, sets, app, rank_counts in [
            ("3D 27pt", ["grid.n=[10,9,12]", "stencil=27pt"] + MIXED, ARGS.heat3d, (1, 4, 8)),
            ("2D 9pt", ["grid.n=[17,15]", "grid.length=[1.75,1.5]", "grid.periodic=false", "stencil=9pt", "init.type=gaussian",
                        "boundary.x={low: {neumann: 0.5}, high: {dirichlet: 1.0}}",
                        "boundary.y={low: {neumann: -1}, high: {neumann: 0}}"], ARGS.heat3d, (1, 3, 8)),
            ("wave 3D star 4", ["grid.n=[12,11,9]", "stencil={type: star, order: 4}"] + MIXED, ARGS.wave3d, (1, 3, 8))]:
        sums = {}
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", BASE if app == ARGS.heat3d else BASE.replace("alpha", "speed"))
            for ranks in rank_counts:
                for backend, k, overlap, blocking in matrix(ranks):
                    out = heat(ranks, d, sets + ["run.steps=9"] + comm_sets(backend, k, overlap, blocking), app=app)
                    sums[(ranks, backend, k, overlap, blocking)] = checksum(out)
                    check_blocked(f"mixed {name} {ranks} ranks {backend}", k, blocking, out)
        check(None not in sums.values() and len(set(sums.values())) == 1, f"mixed {name}: checksums differ: {sums}")


def case_robin_bitwise():
    """Robin walls (boundary.x.low: {robin: {a: 1, b: 0.5, g: 0}} and others) in heat3d, wave3d and
    advect3d: every backend on 2 ranks, k = 1..4, overlap, temporal blocking tiles and process grids on
    2-4 ranks give the 1-rank run's checksum. A few cases, not the full matrix (the campaign draws
    Robin walls too)."""
    runs = {1: [("p2p", 1, "false", "off", None), ("p2p", 3, "false", TILES_2, None)],
            2: [(b, 1, "false", "off", None) for b in backends()] + [("p2p", 2, "true", "auto", None)],
            3: [("p2p_persistent", 3, "true", TILES_1, None), ("cart_combining", 4, "false", TILES_3, None)],
            4: [("graph_combining", 2, "true", "off", "[2,2,1]"), ("p2p", 4, "false", TILES_2, "[1,4,1]"),
                ("mpi_neighbor_alltoallw", 1, "true", "off", "[4,1,1]")]}
    for name, app, text, sets in [
            ("heat3d 7pt", ARGS.heat3d, BASE, ["grid.n=[10,9,12]"] + ROBIN),
            ("wave3d star 4", ARGS.wave3d, BASE.replace("alpha", "speed"),
             ["grid.n=[12,11,9]", "stencil={type: star, order: 4}"] + ROBIN),
            ("advect3d upwind 3", ARGS.advect3d, ADVECT, ["grid.n=[12,10,9]"] + ROBIN)]:
        sums = {}
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", text)
            for ranks, matrix_runs in runs.items():
                if name != "heat3d 7pt" and ranks == 2:
                    matrix_runs = matrix_runs[-1:] + [("cart_combining", 1, "false", "off", None)]
                for backend, k, overlap, blocking, dims in matrix_runs:
                    extra = [f"processes.dims={dims}"] if dims else []
                    out = heat(ranks, d, sets + ["run.steps=9"] + comm_sets(backend, k, overlap, blocking) + extra, app=app)
                    sums[(ranks, backend, k, overlap, blocking, dims)] = checksum(out)
                    check_blocked(f"robin {name} {ranks} ranks {backend}", k, blocking, out)
        reference = sums[(1, "p2p", 1, "false", "off", None)]
        check(reference is not None and all(v == reference for v in sums.values()),
              f"robin {name}: checksums differ from the 1-rank run's {reference}: {sums}")


def min_max(out):
    m = re.search(r"^  min / max +(\S+) / (\S+)", out, re.M)
    return (float(m.group(1)), float(m.group(2))) if m else (None, None)


def case_robin_physics():
    """Robin walls as physics: (1) a = 0, b = 1, g = q gives a Neumann wall's bits (heat3d and wave3d,
    1 and 3 ranks, k = 2); (2) heat between a Robin wall a u - b u' = g0 at x = 0 and a u + b u' = g1 at
    x = 1 settles to the linear profile u = c0 + c1 x that satisfies both, which the ghost rule holds
    exactly (the mean and the difference of a linear function across the wall are its value and
    derivative there): its min and max are the profile at the first and last cell centres."""
    with tempfile.TemporaryDirectory() as d:
        for app, text in [(ARGS.heat3d, BASE), (ARGS.wave3d, BASE.replace("alpha", "speed"))]:
            write(d, "in.yaml", text)
            walls = ["grid.n=[10,9,12]", "grid.periodic=[false,false,true]", "init.type=gaussian", "init.center=[0.3,0.6,0.4]",
                     "run.steps=12", "halo.steps_per_exchange=2"]
            for ranks in (1, 3):
                neumann = checksum(heat(ranks, d, walls + ["boundary.x={low: {neumann: 0.5}, high: {neumann: -0.431}}",
                                                           "boundary.y={low: {neumann: 0}, high: {dirichlet: 1}}"], app=app))
                robin = checksum(heat(ranks, d, walls + [
                    "boundary.x={low: {robin: {a: 0, b: 1, g: 0.5}}, high: {robin: {a: 0, b: 1, g: -0.431}}}",
                    "boundary.y={low: {robin: {a: 0, b: 1, g: 0}}, high: {dirichlet: 1}}"], app=app))
                check(neumann is not None and neumann == robin,
                      f"{os.path.basename(app)} {ranks} ranks: robin a = 0, b = 1 {robin} is not neumann's {neumann}")
        # The steady state: 2D, 16 cells between the walls (h = 1/16 with the walls half a cell out).
        a0, b0, g0, a1, b1, g1 = 1.0, 0.5, 0.0, 2.0, 1.0, 1.0
        c1 = (g1 - a1 * g0 / a0) / (a1 * (b0 / a0 + 1.0) + b1)  # c0 = (g0 + b0 c1) / a0
        c0 = (g0 + b0 * c1) / a0
        h = 1.0 / 16
        write(d, "in.yaml", BASE)
        out = heat(1, d, ["grid.n=[16,2]", "grid.length=[1,0.125]", "grid.periodic=[false,true]", "stencil=5pt",
                          f"boundary.x={{low: {{robin: {{a: {a0}, b: {b0}, g: {g0}}}}}, "
                          f"high: {{robin: {{a: {a1}, b: {b1}, g: {g1}}}}}}}",
                          "init.modes=[1,1]", "physics.cfl=0.9", "run.steps=20000", "halo.steps_per_exchange=1"])
        lo, hi = min_max(out)
        expected = (c0 + c1 * h / 2, c0 + c1 * (1 - h / 2))
        check(lo is not None and abs(lo - expected[0]) < 1e-10 and abs(hi - expected[1]) < 1e-10,
              f"robin steady state: min / max {lo} / {hi}, expected {expected}")


# What a face may be (core/src/walls' rows), in the errors.
FACES = ("{dirichlet: a number or exact}, {neumann: a number (the outward normal derivative, 0 = insulated)}, "
         "{robin: {a: a number >= 0, b: a number >= 0, g: a number} (a u + b du/dn = g, a + b > 0)} or periodic")
ROBIN_VALUE = "{a: a number >= 0, b: a number >= 0, g: a number} (a u + b du/dn = g, a + b > 0)"

BAD = [  # (name, sets, expected stderr line): one located error on every rank
    ("exact wall where the sine mode is not exact", ["grid.periodic=[false,true,false]", "boundary.x=[1,2]",
                                                      "boundary.z={low: {dirichlet: exact}}"],
     "--set boundary.z={low: {dirichlet: exact}}: boundary.z.low: dirichlet: exact follows the exact solution, which the "
     "heat equation does not have for this input"),
    ("unknown condition", ["grid.periodic=false", "boundary.x={low: {flux: 1}}"],
     '--set boundary.x={low: {flux: 1}}: boundary.x.low: unknown condition "flux" (expected ' + FACES + ")"),
    ("neumann not a number", ["grid.periodic=false", "boundary.y={high: {neumann: [1]}}"],
     "--set boundary.y={high: {neumann: [1]}}: boundary.y.high: expected neumann: a number (the outward normal derivative, "
     "0 = insulated), got a list or mapping"),
    ("two conditions", ["grid.periodic=false", "boundary.x={low: {neumann: 0, dirichlet: 1}}"],
     "--set boundary.x={low: {neumann: 0, dirichlet: 1}}: boundary.x.low: expected " + FACES),
    ("periodic face, walls in grid", ["grid.periodic=false", "boundary.x={low: periodic, high: periodic}"],
     "--set boundary.x={low: periodic, high: periodic}: boundary.x.low: periodic, but grid.periodic makes x non-periodic "
     "(a periodic face needs its partner periodic and grid.periodic's x entry true)"),
    ("periodic partner missing", ["grid.periodic=[true,false,false]", "boundary.x={low: periodic, high: {neumann: 0}}"],
     "--set boundary.x={low: periodic, high: {neumann: 0}}: boundary.x.high: a wall, but grid.periodic makes x periodic "
     "(set grid.periodic's x entry false for walls)"),
    ("periodic word, walls in grid", ["grid.periodic=false", "boundary.z=periodic"],
     "--set boundary.z=periodic: boundary.z: periodic, but grid.periodic makes z non-periodic (a periodic face needs its "
     "partner periodic and grid.periodic's z entry true)"),
    ("unknown face key", ["grid.periodic=false", "boundary.x={left: {neumann: 0}}"],
     "--set boundary.x={left: {neumann: 0}}: boundary.x.left: unknown key (expected one of: high, low)"),
    ("exact with gaussian", ["grid.periodic=false", "init.type=gaussian", "boundary.x={low: {dirichlet: exact}}"],
     "--set boundary.x={low: {dirichlet: exact}}: boundary.x.low: dirichlet: exact follows the sine mode's exact solution, "
     "but init.type is gaussian (give init.type: sine)"),
    ("neumann deeper than the grid", ["grid.n=[12,10,1]", "grid.periodic=false", "stencil={type: star, order: 4}",
                                      "boundary.z={low: {neumann: 0}}"],
     "--set boundary.z={low: {neumann: 0}}: boundary.z.low: a Neumann wall mirrors the stencil's reach of 2 cells, but z "
     "has only 1 (grid.n)"),
    ("robin missing key", ["grid.periodic=false", "boundary.x={low: {robin: {a: 1, b: 0.5}}}"],
     "--set boundary.x={low: {robin: {a: 1, b: 0.5}}}: boundary.x.low: robin: missing key g (expected " + ROBIN_VALUE + ")"),
    ("robin a < 0", ["grid.periodic=false", "boundary.y={high: {robin: {a: -1, b: 0.5, g: 0}}}"],
     "--set boundary.y={high: {robin: {a: -1, b: 0.5, g: 0}}}: boundary.y.high: robin: a and b must be >= 0 and not both 0 "
     "(a u + b du/dn = g is then well posed), got a = -1, b = 0.5"),
    ("robin a = b = 0", ["grid.periodic=false", "boundary.x={low: {robin: {a: 0, b: 0, g: 1}}}"],
     "--set boundary.x={low: {robin: {a: 0, b: 0, g: 1}}}: boundary.x.low: robin: a and b must be >= 0 and not both 0 "
     "(a u + b du/dn = g is then well posed), got a = 0, b = 0"),
    ("robin not finite", ["grid.periodic=false", "boundary.x={high: {robin: {a: 1, b: .inf, g: 0}}}"],
     "--set boundary.x={high: {robin: {a: 1, b: .inf, g: 0}}}: boundary.x.high: robin: expected a finite number for b, got .inf"),
    ("robin unknown key", ["grid.periodic=false", "boundary.x={low: {robin: {a: 1, b: 0.5, g: 0, c: 2}}}"],
     '--set boundary.x={low: {robin: {a: 1, b: 0.5, g: 0, c: 2}}}: boundary.x.low: robin: unknown key "c" (expected a, b and g)'),
    ("robin not a mapping", ["grid.periodic=false", "boundary.x={low: {robin: 1}}"],
     "--set boundary.x={low: {robin: 1}}: boundary.x.low: expected robin: " + ROBIN_VALUE + ", got 1"),
    ("robin deeper than the grid", ["grid.n=[12,10,1]", "grid.periodic=false", "stencil={type: star, order: 4}",
                                    "boundary.z={high: {robin: {a: 1, b: 1, g: 0}}}"],
     "--set boundary.z={high: {robin: {a: 1, b: 1, g: 0}}}: boundary.z.high: a Robin wall mirrors the stencil's reach of 2 "
     "cells, but z has only 1 (grid.n)"),
]


def case_bad_inputs():
    """Every bad boundary value is one located error, exit 2 on every rank, before anything runs; in a
    file the location is the face's line and column."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for name, sets, expected in BAD:
            code, out, err, codes = run(2, ["in.yaml"] + set_args(sets), d, per_rank_codes=True)
            lines = own_lines(err)
            check(codes == [2, 2], f"{name}: per-rank exit codes {codes}")
            check(len(lines) == 1 and lines[0].startswith(expected), f"{name}: stderr {lines}\nexpected {expected!r}")
        write(d, "bad.yaml", BASE + "boundary:\n  x:\n    low: {neumann: 0}\n    high: {neumann: yes}\n")
        code, out, err, codes = run(2, ["bad.yaml", "--set", "grid.periodic=false"], d, per_rank_codes=True)
        expected = ("bad.yaml:11:11: boundary.x.high: expected neumann: a number (the outward normal derivative, "
                    "0 = insulated), got yes")
        check(codes == [2, 2] and own_lines(err) == [expected], f"file location: {codes} {own_lines(err)}, expected {expected!r}")
        write(d, "bad.yaml", BASE + "boundary:\n  x:\n    low: {neumann: 0}\n    high: {robin: {a: 1, b: 0, g: .nan}}\n")
        code, out, err, codes = run(2, ["bad.yaml", "--set", "grid.periodic=false"], d, per_rank_codes=True)
        expected = "bad.yaml:11:11: boundary.x.high: robin: expected a finite number for g, got .nan"
        check(codes == [2, 2] and own_lines(err) == [expected], f"file location: {codes} {own_lines(err)}, expected {expected!r}")


def resolved(out):
    m = re.search(r"^# resolved configuration \(.*\)\n(.*?)^# decomposition", out, re.M | re.S)
    return m.group(1) if m else None


def case_resolved_round_trip():
    """--dry-run writes one canonical spelling of the walls that reloads to the same configuration: the
    [low, high] shorthand for two constant Dirichlet walls, a mapping otherwise."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for sets in [MIXED, ["grid.periodic=[false,true,false]", "boundary.x=[0,0]", "boundary.z={low: {dirichlet: exact}}"],
                     ["grid.periodic=[false,true,true]", "boundary.x=[1,2]"],
                     ["grid.periodic=false", "boundary.x=[0.5,0.25]", "boundary.y={low: {dirichlet: 3}, high: {dirichlet: 4}}",
                      "boundary.z={high: {neumann: 0}}"],
                     ["grid.n=[10,9,12]"] + ROBIN[:3] + ["boundary.x.high={robin: {a: 0.1, b: 1e-300, g: -0.30000000000000004}}"]]:
            first = resolved(heat(1, d, sets, ["--dry-run"]))
            check(first is not None and "boundary:" in first, f"{sets}: no resolved configuration")
            if first is None:
                continue
            write(d, "resolved.yaml", first)
            code, out, err, _ = run(1, ["resolved.yaml", "--dry-run"], d)
            again = resolved(out)
            check(code == 0 and again == first, f"{sets}: the resolved YAML reloads differently:\n{first}\n---\n{again}{err}")
        text = resolved(heat(1, d, ["grid.periodic=false", "boundary.y={low: {dirichlet: 3}, high: {dirichlet: 4}}",
                                    "boundary.z={high: {neumann: 0}}"], ["--dry-run"]))
        check(text is not None and "y: [3, 4]" in text and "z: {low: {dirichlet: 0}, high: {neumann: 0}}" in text,
              f"canonical spelling:\n{text}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d', 'advect3d'])

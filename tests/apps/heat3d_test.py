#!/usr/bin/env python3
"""End-to-end tests of build/bin/heat3d and wave3d under mpiexec: bad inputs, physics, bitwise
reproducibility across rank counts, dry runs, the command line, node placement and allreduces.
One case per ctest:

    heat3d_test.py --heat3d PATH --wave3d PATH --mpiexec PATH CASE
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


def run(ranks, args, cwd, per_rank_codes=False, env=None, app=None):
    """Runs heat3d (or `app`) on `ranks` ranks; see cartex_testing.mpirun."""
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, app or ARGS.heat3d, args, cwd, per_rank_codes, env)


# Each bad input: (name, YAML text or None for a missing file, extra arguments, expected stderr line).
# Line and column are 1-based; "bad.yaml" is the file name as given on the command line; {ranks} is
# the rank count of the run (the cases run on 2, 3 and 4 ranks in turn), {backends} the registry's names.
BAD_INPUTS = [
    ("missing file", None, [], "bad.yaml:1:1: (file): cannot open the input file for reading"),
    ("yaml syntax", "grid:\n  n: [8, 8\nphysics: {alpha: 1}\n", [],
     "bad.yaml:3:8: (syntax): invalid YAML: end of sequence flow not found"),
    ("unknown section", BASE + "grdi:\n  n: 3\n", [],
     "bad.yaml:8:1: grdi: unknown key; did you mean grid? (expected one of: boundary, comm, grid, halo, init, output, physics, processes, run, stencil)"),
    ("unknown nested key", BASE.replace("  n: [12, 10, 8]", "  n: [12, 10, 8]\n  nn: 4"), [],
     "bad.yaml:3:3: grid.nn: unknown key; did you mean n? (expected one of: length, n, periodic)"),
    ("wrong type in list", BASE.replace("[12, 10, 8]", "[12, ten, 8]"), [],
     'bad.yaml:2:6: grid.n: expected a list of 2 or 3 positive integers (cells per dimension), got an entry "ten"'),
    ("wrong list length", BASE.replace("[12, 10, 8]", "[12, 10, 8, 4]"), [],
     "bad.yaml:2:6: grid.n: expected 2 or 3 entries (a 2D or 3D grid), got 4"),
    ("negative size", BASE.replace("[12, 10, 8]", "[12, -10, 8]"), [],
     "bad.yaml:2:6: grid.n: expected positive cell counts, got -10 in y"),
    ("missing grid.n", BASE.replace("  n: [12, 10, 8]", "  length: 1.0"), [],
     "bad.yaml:2:3: grid.n: required key is missing (a list of 2 or 3 positive integers, cells per dimension)"),
    ("missing physics", "grid:\n  n: [8, 8, 8]\n", [],
     "bad.yaml:1:1: physics: required section is missing (physics.alpha and physics.dt or physics.cfl)"),
    ("missing alpha", BASE.replace("  alpha: 1.0\n", ""), [],
     "bad.yaml:4:3: physics.alpha: required key is missing (a positive number, the diffusivity)"),
    ("misspelt alpha", BASE.replace("alpha:", "alpah:"), [],
     "bad.yaml:4:3: physics.alpah: unknown key; did you mean alpha? (expected one of: alpha, cfl, dt)"),
    # A key twice in one mapping (yaml-cpp would keep the first silently); layers and --set override on purpose.
    ("section twice", BASE + "comm: {overlap: false}\nrun: {steps: 20, progress_every: 5}\n", [],
     "bad.yaml:9:1: run: duplicate key: first given at bad.yaml:6:1 (a mapping holds each key once)"),
    ("grid.n twice", BASE.replace("  n: [12, 10, 8]", "  n: [12, 10, 8]\n  n: [4, 4, 4]"), [],
     "bad.yaml:3:3: grid.n: duplicate key: first given at bad.yaml:2:3 (a mapping holds each key once)"),
    ("empty input", "", [], "bad.yaml:1:1: (file): the input file is empty (0 bytes)"),
    ("nesting beyond the parser's limit", BASE + "init:\n  modes: " + "[" * 100000 + "]" * 100000 + "\n", [],
     "bad.yaml:9:200010: (syntax): invalid YAML: mappings and lists nested deeper than 100 levels"),
    ("negative alpha", BASE.replace("alpha: 1.0", "alpha: -2"), [],
     "bad.yaml:4:10: physics.alpha: expected a positive number, got -2"),
    ("unstable dt", BASE.replace("cfl: 0.5", "dt: 0.01"), [],
     "bad.yaml:5:7: physics.dt: 0.01 exceeds the stability limit 0.00162338 of stencil 7pt on this grid "
     "(dt <= 2/(alpha*rho), rho = 1232)"),
    ("dt and cfl", BASE.replace("cfl: 0.5", "cfl: 0.5\n  dt: 1e-7"), [],
     "bad.yaml:5:8: physics.cfl: give either physics.dt or physics.cfl, not both"),
    ("cfl out of range", BASE.replace("cfl: 0.5", "cfl: 1.5"), [],
     "bad.yaml:5:8: physics.cfl: expected a number in (0, 1], got 1.5"),
    ("unknown stencil", BASE + "stencil: 13pt\n", [],
     'bad.yaml:8:10: stencil: unknown stencil "13pt" for a 3D grid (expected one of: 7pt, 27pt)'),
    ("2D stencil on 3D grid", BASE + "stencil: 9pt\n", [],
     'bad.yaml:8:10: stencil: unknown stencil "9pt" for a 3D grid (expected one of: 7pt, 27pt)'),
    ("27pt on anisotropic grid", BASE + "stencil: 27pt\n", [],
     "bad.yaml:8:10: stencil: stencil 27pt needs equal grid spacing in every dimension (check grid.n, grid.length, grid.periodic)"),
    ("star of odd order", BASE + "stencil: {type: star, order: 5}\n", [],
     "bad.yaml:8:30: stencil.order: expected 2, 4, 6 or 8, got 5"),
    ("star radius against order", BASE, ["--set", "stencil={type: star, order: 4, radius: 1}"],
     "--set stencil={type: star, order: 4, radius: 1}: stencil.radius: radius 1 does not match order 4 "
     "(a star of order p has radius p/2)"),
    ("box beyond radius 1", BASE + "stencil: {type: box, radius: 2}\n", [],
     "bad.yaml:8:30: stencil.radius: expected 1: only the compact box of radius 1 and order 2 (9pt in 2D, 27pt in 3D) "
     "is built in: there is no single standard higher-order box Laplacian; give offsets and weights for the one you want"),
    ("custom duplicate offset",
     BASE + "stencil:\n  offsets:\n    - [0, 0, 0]\n    - [1, 0, 0]\n    - [1, 0, 0]\n  weights: [-2, 1, 1]\n", [],
     "bad.yaml:12:7: stencil.offsets: entry 3 repeats the offset [1, 0, 0] of entry 2 (every offset must appear once)"),
    ("custom divide_by_h2, the old spelling",
     BASE + "stencil:\n  offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0]]\n  weights: [-2, 1, 2]\n  divide_by_h2: false\n", [],
     "bad.yaml:11:17: stencil.divide_by_h2: replaced by stencil.derivative (the derivative the unit-spacing weights "
     "approximate): divide_by_h2: true is derivative: 2 (the default), divide_by_h2: false is derivative: 0 (weights used "
     "as given)"),
    ("custom unit weights on unequal spacing",
     BASE + "stencil:\n  offsets: [[0, 0, 0], [-1, 0, 0], [0, 1, 0]]\n  weights: [-2, 1, 1]\n", [],
     "bad.yaml:9:3: stencil.derivative: weights for unit spacing are divided by h^2, which needs equal grid spacing in the "
     "dimensions the stencil reaches (x, y; check grid.n, grid.length, grid.periodic); or give the weights for this grid "
     "with derivative: 0"),
    ("custom central first derivative: no stable step",
     BASE + "stencil:\n  offsets: [[-1, 0, 0], [1, 0, 0]]\n  weights: [-0.5, 0.5]\n  derivative: 1\n", [],
     "bad.yaml:5:8: physics.cfl: stencil custom: no time step is stable with explicit Euler: along theta = t * [1, 0, 0] "
     "the per-mode limit tends to 0 as t -> 0 (the second moment of the weights, sum w (o.e)^2, is 0 there while the "
     "first, sum w o.e, is not: Re lambda vanishes faster than t^2, Im lambda only as t), as for a central first "
     "derivative or an upwind-biased one of order 2 and higher; add diffusion (a second-derivative part) or use a "
     "first-order upwind first derivative"),
    ("custom stencil with dt above its computed limit",
     BASE.replace("cfl: 0.5", "dt: 0.03") + "stencil:\n  offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0], [0, -1, 0], [0, 1, 0]]\n"
     "  weights: [-34.34, 18.56, 2.56, 10.56, 2.56]\n  derivative: 0\n", [],
     "bad.yaml:5:7: physics.dt: 0.03 exceeds the stability limit 0.029163 of stencil custom on this grid (explicit "
     "Euler, from the stencil's Fourier symbol, the mode theta = [-3.142, -3.142, -3.142] with lambda = -68.58 + 0i)"),
    ("unknown backend", BASE + "comm:\n  backend: smoke_signals\n", [],
     'bad.yaml:9:12: comm.backend: unknown backend "smoke_signals" (expected one of: {backends})'),
    ("unknown allreduce", BASE + "comm:\n  allreduce: carrier_pigeon\n", [],
     'bad.yaml:9:14: comm.allreduce: unknown allreduce algorithm "carrier_pigeon" (expected one of: mpi, ring, ring_renamed)'),
    ("reorder not a bool", BASE + "processes:\n  reorder: maybe\n", [],
     'bad.yaml:9:12: processes.reorder: expected true or false, got "maybe"'),
    ("steps per exchange below 1", BASE + "halo:\n  steps_per_exchange: 0\n", [],
     "bad.yaml:9:23: halo.steps_per_exchange: expected a positive integer (time steps per halo exchange) or auto, got 0"),
    ("steps per exchange a word", BASE + "halo:\n  steps_per_exchange: many\n", [],
     'bad.yaml:9:23: halo.steps_per_exchange: expected a positive integer (time steps per halo exchange) or auto, got "many"'),
    ("temporal blocking not a mode", BASE + "halo:\n  temporal_blocking: always\n", [],
     'bad.yaml:9:22: halo.temporal_blocking: expected auto, off, or a mapping {tile_y: N} (N a positive integer), got "always"'),
    ("temporal blocking tile of 0 rows", BASE, ["--set", "halo.temporal_blocking={tile_y: 0}"],
     "--set halo.temporal_blocking={tile_y: 0}: halo.temporal_blocking.tile_y: expected a positive integer "
     "(rows of a tile in y), got 0"),
    ("temporal blocking tile without rows", BASE + "halo:\n  temporal_blocking: {}\n", [],
     "bad.yaml:9:22: halo.temporal_blocking.tile_y: required key is missing (rows of a tile in y, a positive integer)"),
    ("temporal blocking misspelt key", BASE + "halo:\n  temporal_blocking: {tile: [4, 4]}\n", [],
     "bad.yaml:9:23: halo.temporal_blocking.tile: unknown key; did you mean tile_y? (expected one of: tile_y)"),
    ("overlap not a bool", BASE + "comm:\n  overlap: sometimes\n", [],
     'bad.yaml:9:12: comm.overlap: expected true, false or auto, got "sometimes"'),
    ("gpu_aware_mpi not a mode", BASE + "comm:\n  gpu_aware_mpi: maybe\n", [],
     'bad.yaml:9:18: comm.gpu_aware_mpi: expected auto, on or off, got "maybe"'),
    ("halo deeper than the periodic grid", BASE.replace("[12, 10, 8]", "[12, 10, 3]") + "halo:\n  steps_per_exchange: 4\n", [],
     "bad.yaml:9:23: halo.steps_per_exchange: 4 step(s) per exchange of stencil 7pt need a halo deeper than the grid's "
     "3 cells in z (1 cell(s) per step): at most 3 steps per exchange"),
    ("stencil wider than the grid", BASE, ["--set", "grid.n=[2,2,2]", "--set", "stencil={type: star, order: 8}"],
     "--set grid.n=[2,2,2]: grid.n: 2 cell(s) in x are fewer than the reach of stencil star8 (4 cells): a stencil must fit "
     "the grid"),
    ("halo far deeper than the grid", BASE, ["--set", "halo.steps_per_exchange=100000"],
     "--set halo.steps_per_exchange=100000: halo.steps_per_exchange: 100000 step(s) per exchange of stencil 7pt need a "
     "halo deeper than the grid's 12 cells in x (1 cell(s) per step): at most 12 steps per exchange"),
    ("dims do not match ranks", BASE + "processes:\n  dims: [5, 1, 1]\n", [],
     "bad.yaml:9:9: processes.dims: [5, 1, 1] needs exactly 5 ranks, but the run has {ranks}"),
    ("dims not a divisor", BASE + "processes:\n  dims: [0, 5, 0]\n", [],
     "bad.yaml:9:9: processes.dims: [0, 5, 0] needs a multiple of 5 ranks, but the run has {ranks}"),
    ("negative steps", BASE.replace("steps: 5", "steps: -1"), [],
     "bad.yaml:7:10: run.steps: expected a non-negative integer, got -1"),
    ("boundary on periodic dimension", BASE + "boundary:\n  x: [0, 1]\n", [],
     "bad.yaml:9:6: boundary.x: dimension x is periodic (grid.periodic); Dirichlet values apply only to non-periodic dimensions"),
    ("unknown init type", BASE + "init:\n  type: square\n", [],
     'bad.yaml:9:9: init.type: expected sine or gaussian, got "square"'),
    # Size-like keys far out of range (issue 13): one located line, never an overflow or a huge allocation.
    ("grid.n beyond 2^30", BASE, ["--set", "grid.n=[2147483647,10,8]"],
     "--set grid.n=[2147483647,10,8]: grid.n: expected at most 1073741824 cells per dimension (2^30: message sizes "
     "are int counts), got 2147483647 in x"),
    ("grid.n product beyond 2^50", BASE, ["--set", "grid.n=[1073741824,1073741824,1073741824]"],
     "--set grid.n=[1073741824,1073741824,1073741824]: grid.n: 1073741824 * 1073741824 * 1073741824 cells in all "
     "exceed the limit of 1125899906842624 (2^50, beyond any machine's memory)"),
    ("run.steps beyond 10^15", BASE, ["--set", "run.steps=10000000000000000"],
     "--set run.steps=10000000000000000: run.steps: expected at most 1000000000000000 steps (10^15), got 10000000000000000"),
    ("run.steps beyond a long", BASE, ["--set", "run.steps=18446744073709551616"],
     '--set run.steps=18446744073709551616: run.steps: expected a non-negative integer (time steps), got "18446744073709551616"'),
    ("end_time beyond 10^15 steps", BASE, ["--unset", "run.steps", "--set", "run.end_time=1e300"],
     "--set run.end_time=1e300: run.end_time: 1e+300 / dt = 1.232e+303 steps exceed the limit of 1000000000000000 "
     "steps (10^15)"),
    ("star order beyond the table", BASE + "stencil: {type: star, order: 1000000000000}\n", [],
     "bad.yaml:8:30: stencil.order: expected 2, 4, 6 or 8, got 1000000000000"),
    ("star radius beyond the table", BASE + "stencil: {type: star, radius: 99}\n", [],
     "bad.yaml:8:31: stencil.radius: expected 1, 2, 3 or 4, got 99"),
    ("custom offset beyond the grid",
     BASE + "stencil:\n  offsets: [[0, 0, 0], [-2147483648, 0, 0], [1, 0, 0]]\n  weights: [-2, 1, 1]\n", [],
     "bad.yaml:9:24: stencil.offsets: entry 2: offset [-2147483648, 0, 0] reaches beyond the grid's 12 cells in x"),
    ("dims far beyond the rank count", BASE + "processes:\n  dims: [12, 10, 8]\n", [],
     "bad.yaml:9:9: processes.dims: [12, 10, 8] needs exactly 960 ranks, but the run has {ranks}"),
    ("dims beyond the cells", BASE + "processes:\n  dims: [4294967296, 1, 1]\n", [],
     "bad.yaml:9:9: processes.dims: 4294967296 processes in x exceed the 12 cells there"),
    ("--set wrong type", BASE, ["--set", "run.steps=many"],
     '--set run.steps=many: run.steps: expected a non-negative integer (time steps), got "many"'),
    ("--set unknown key", BASE, ["--set", "run.stepz=4"],
     "--set run.stepz=4: run.stepz: unknown key; did you mean steps? (expected one of: end_time, progress_every, steps, "
     "stopped_exit_code, wall_time_limit, wall_time_margin)"),
    ("--set without value", BASE, ["--set", "run.steps"],
     "--set run.steps: expected key.path=value"),
    ("unknown option", BASE, ["--frobnicate"],
     "heat3d: The following argument was not expected: --frobnicate (see heat3d --help)"),
]


def case_bad_inputs():
    for i, (name, text, extra, expected) in enumerate(BAD_INPUTS):
        with tempfile.TemporaryDirectory() as d:
            if text is not None:
                write(d, "bad.yaml", text)
            args = ["bad.yaml", "--set", "output.history=true"] + extra
            ranks = 2 + i % 3
            code, out, err, codes = run(ranks, args, d, per_rank_codes=True)
            check(codes == [2] * ranks, f"{name}: per-rank exit codes {codes}, expected {[2] * ranks}")
            if i % 6 == 0:  # what a user sees: mpiexec itself exits 2
                code, out, err, _ = run(ranks, args, d)
                check(code == 2, f"{name}: mpiexec exit code {code}, expected 2")
            lines = own_lines(err)
            expected = expected.replace("{ranks}", str(ranks)).replace("{backends}", ", ".join(backends()))
            check(lines == [expected], f"{name}: stderr\n  {lines}\nexpected\n  [{expected!r}]")
            check(out.strip() == "", f"{name}: unexpected stdout {out!r}")
            check(not os.path.exists(os.path.join(d, "output")), f"{name}: output directory was created")


def heat(ranks, d, sets, extra=(), env=None, app=None):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = run(ranks, args, d, env=env, app=app)
    check(code == 0, f"{app or 'heat3d'} {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def wave(ranks, d, sets, extra=()):
    return heat(ranks, d, sets, extra, app=ARGS.wave3d)


SINE_CASES = [
    ("3D 7pt periodic", ["grid.n=[16,12,10]", "stencil=7pt"]),
    ("3D 27pt periodic", ["grid.n=[12,12,12]", "stencil=27pt", "init.modes=[2,1,1]"]),
    ("3D 7pt walls", ["grid.n=[15,12,10]", "grid.periodic=[false,true,false]", "stencil=7pt"]),
    ("3D 27pt walls", ["grid.n=[11,11,12]", "grid.periodic=[false,false,true]", "stencil=27pt"]),
    ("2D 5pt mixed", ["grid.n=[30,20]", "grid.periodic=[true,false]", "stencil=5pt", "init.modes=[3,2]"]),
    ("2D 9pt periodic", ["grid.n=[24,24]", "stencil=9pt"]),
]


def case_sine_exact():
    """The sine mode matches the exact discrete decay to 1e-12 relative, on 1 to 4 ranks.

    Rounding puts ~1e-17 into the mean, which never decays; the runs stop while the mode's amplitude
    is still far above that, so the relative error measures the update, not that floor."""
    for name, sets in SINE_CASES:
        for ranks in (1, 2, 3, 4):
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                out = heat(ranks, d, sets + ["run.steps=40", "physics.cfl=0.5"])
                err = summary_value(out, "sine error")
                check(err is not None, f"sine {name} on {ranks}: no sine error in\n{out}")
                if err is not None:
                    check(float(err) < 1e-12, f"sine {name} on {ranks} ranks: relative error {err} >= 1e-12")


def case_conservation():
    """Periodic runs conserve the total heat to round-off."""
    for name, sets in [("7pt", ["stencil=7pt"]), ("27pt", ["stencil=27pt", "grid.n=[12,12,12]"]),
                       ("9pt", ["grid.n=[20,20]", "stencil=9pt"])]:
        with tempfile.TemporaryDirectory() as d:
            write(d, "in.yaml", BASE)
            out = heat(3, d, sets + ["init.type=gaussian", "init.width=0.2", "run.steps=80"])
            m = re.search(r"integral of u\s+(\S+) \(start (\S+), change (\S+)\)", out)
            check(m is not None, f"conservation {name}: no integral of u line in\n{out}")
            if m:
                start, change = float(m.group(2)), float(m.group(3))
                check(start > 0, f"conservation {name}: start heat {start} should be positive")
                check(abs(change) <= 1e-12 * abs(start), f"conservation {name}: heat changed by {change} of {start}")


REPRO_CASES = [
    ("3D 7pt periodic", ["grid.n=[13,11,9]", "stencil=7pt", "init.type=gaussian"]),
    ("3D 27pt walls", ["grid.n=[11,11,12]", "grid.periodic=[false,false,true]", "stencil=27pt",
                       "boundary.x=[1.0,0.5]", "boundary.y=[0.25,0.0]"]),
    ("2D 9pt mixed", ["grid.n=[19,20]", "grid.periodic=[false,true]", "stencil=9pt", "init.type=gaussian"]),
    ("2D 5pt walls", ["grid.n=[17,14]", "grid.periodic=false", "stencil=5pt", "boundary.y=[2,1]"]),
]


def case_bitwise_ranks():
    """The final field is bitwise identical on 1, 2, 3 and 4 ranks and for other process grids."""
    for name, sets in REPRO_CASES:
        sums = {}
        dims3 = ["processes.dims=[1,2,2]", "processes.dims=[4,1,1]", "processes.dims=[2,1,2]"]
        runs = [(1, []), (2, []), (3, []), (4, [])]
        runs += [(4, [dims3[i]]) for i in range(3)] if "3D" in name else [(4, ["processes.dims=[4,1]"]), (4, ["processes.dims=[2,2]"])]
        for ranks, more in runs:
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                out = heat(ranks, d, sets + more + ["run.steps=25"])
                sums[(ranks, tuple(more))] = checksum(out)
        values = set(sums.values())
        check(None not in values, f"bitwise {name}: a run printed no checksum: {sums}")
        check(len(values) == 1, f"bitwise {name}: checksums differ across decompositions: {sums}")


_BACKENDS = []


def backends():
    """Every backend name of the halo registry (heat3d --list-backends), auto last."""
    if not _BACKENDS:
        _BACKENDS.extend(name for name, _, _ in cartex_testing.list_backends(ARGS.mpiexec, ARGS.heat3d))
    return _BACKENDS


def case_backends_bitwise():
    """Every backend, every k, overlap on or off and temporal blocking (off, auto, explicit tiles, passes cut
    short by progress lines) give the same field, on 1, 2, 4 and 8 ranks."""
    for name, sets in [("3D 27pt walls", ["grid.n=[10,9,12]", "grid.periodic=[false,true,true]", "stencil=27pt",
                                          "init.type=gaussian", "boundary.x=[0.5,0.25]", "grid.length=[1.1,0.9,1.2]"]),
                       ("2D 9pt periodic", ["grid.n=[17,15]", "stencil=9pt", "init.type=gaussian", "grid.length=[1.7,1.5]"])]:
        sums = {}
        for ranks in (1, 2, 4, 8):
            runs = [(b, 1, "false", "auto") for b in backends()] if ranks in (2, 4) else [("p2p", 1, "false", "auto"),
                                                                                     ("cart_forwarding", 3, "true", "auto")]
            runs += [("cart_combining", 2, "true", "auto"), ("p2p", 3, "false", "off"), ("mpi_neighbor_alltoallw", 2, "true", "off"),
                     ("p2p", 4, "false", "{tile_y: 2}"), ("graph_combining", 3, "true", "{tile_y: 3}"),
                     ("cart_direct", 5, "false", "{tile_y: 1}"), ("p2p", 3, "true", "{tile_y: 2}"),
                     ("cart_combining_packed", 4, "true", "auto")]
            for backend, k, overlap, blocking in runs:
                with tempfile.TemporaryDirectory() as d:
                    write(d, "in.yaml", BASE)
                    # Progress every 3 steps cuts some blocked passes short of the cycle's end.
                    progress = "3" if blocking.startswith("{") and k > 3 else "0"
                    out = heat(ranks, d, sets + ["run.steps=7", f"comm.backend={backend}", f"halo.steps_per_exchange={k}",
                                                 f"comm.overlap={overlap}", f"halo.temporal_blocking={blocking}",
                                                 f"run.progress_every={progress}"])
                    sums[(ranks, backend, k, overlap, blocking)] = checksum(out)
                    if overlap == "true":
                        check(re.search(r"overlap +hidden \d+% of a blocking exchange", out) is not None, f"no overlap line:\n{out}")
                        check(re.search(r"^  overlap shape +chunked: the interior in [\d.]+ launch\(es\) per step", out, re.M) is not None,
                              f"no chunked overlap shape line (a host build):\n{out}")
                        # A unit is a step, or with temporal blocking and a plan that copies its block at
                        # start a pass over the whole cycle.
                        whole_pass = k > 1 and blocking != "off" and backend in ("p2p", "p2p_persistent")
                        unit = f"pass of {k} steps" if whole_pass else "step"
                        cost = re.search(rf"overlap cost +overlapped {unit} ([\d.e+-]+) ms vs blocking {unit} ([\d.e+-]+) ms: "
                                         r"([\d.]+)x", out)
                        check(cost is not None and float(cost.group(1)) > 0 and float(cost.group(2)) > 0,
                              f"no overlap cost line with two {unit} times:\n{out}")
                    if blocking.startswith("{"):
                        rows = blocking.split()[1].rstrip("}")
                        check(re.search(rf"^  temporal +tiles of {rows} rows in y", out, re.M) is not None,
                              f"{blocking}: no temporal line with the tiles:\n{out}")
        values = set(sums.values())
        check(None not in values and len(values) == 1, f"backends {name}: checksums differ: {sums}")


def case_gpu_aware_mpi():
    """comm.gpu_aware_mpi off (packed backends stage their buffers through separate host copies, as on a device
    without GPU-aware MPI) and on give bitwise the field of a run without the key, for packed and zero-copy
    backends, with and without deep halos and overlap; the summary and --dry-run say what was decided."""
    sets = ["grid.n=[10,9,12]", "grid.periodic=[false,true,true]", "stencil=27pt", "init.type=gaussian",
            "boundary.x=[0.5,0.25]", "grid.length=[1.1,0.9,1.2]", "run.steps=7"]
    said = {None: "comm.gpu_aware_mpi auto: the field is host memory: MPI reads the pack buffers directly",
            "on": "comm.gpu_aware_mpi on: the field is host memory: MPI reads the pack buffers directly",
            "off": "comm.gpu_aware_mpi off: packed backends stage through separate host buffers"}
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for ranks in (2, 4):
            for backend, k, overlap in [("p2p", 1, "false"), ("cart_combining_packed", 2, "true"),
                                        ("mpi_neighbor_alltoallw", 1, "false"), ("cart_combining", 2, "true")]:
                sums = {}
                for setting in (None, "off", "on"):
                    more = [f"comm.backend={backend}", f"halo.steps_per_exchange={k}", f"comm.overlap={overlap}"]
                    out = heat(ranks, d, sets + more + ([f"comm.gpu_aware_mpi={setting}"] if setting else []))
                    sums[setting] = checksum(out)
                    line = re.search(r"^  mpi buffers +(.*)$", out, re.M)
                    check(line is not None and line.group(1).startswith(said[setting]),
                          f"{backend} on {ranks} ranks, comm.gpu_aware_mpi {setting}: mpi buffers line "
                          f"{line.group(0) if line else None!r}, expected it to start with {said[setting]!r}")
                check(sums[None] is not None and len(set(sums.values())) == 1,
                      f"{backend} on {ranks} ranks: checksums by comm.gpu_aware_mpi differ: {sums}")
        out = heat(2, d, sets + ["comm.gpu_aware_mpi=off"], ["--dry-run"])
        check(re.search(r"^comm:\n(?:  .*\n)*  gpu_aware_mpi: off$", out, re.M) is not None,
              f"--dry-run: no gpu_aware_mpi: off in the resolved comm section:\n{out}")
        check(f"mpi buffers: {said['off']}" in out, f"--dry-run: no mpi buffers line for off:\n{out}")


def case_auto_bitwise():
    """halo.steps_per_exchange, halo.temporal_blocking and comm.overlap at auto (their defaults) are measured
    on the first cycles of a run of >= 100 steps, switching k, tiles and overlap between trials
    (CARTEX_AUTO_TRY_ALL=1: every candidate, whatever it costs): the field is bitwise that of k = 1 without
    blocking or overlap, for heat (3D walls and periodic, 2D) and wave, on 1 to 4 ranks and two backends;
    the summary gives each choice's measurements and pick and the cost; without the variable a run far under 1 s
    keeps its first trial's choices; a run under 100 steps measures nothing and
    says so; --dry-run lists what will be measured."""
    env = dict(os.environ, CARTEX_AUTO_TRY_ALL="1")
    plain = ["halo.steps_per_exchange=1", "halo.temporal_blocking=off", "comm.overlap=false"]
    cases = [(ARGS.heat3d, "3D 27pt walls", ["grid.n=[10,9,12]", "grid.periodic=[false,true,true]", "stencil=27pt",
                                             "init.type=gaussian", "boundary.x=[0.5,0.25]", "grid.length=[1.1,0.9,1.2]"]),
             (ARGS.heat3d, "3D 7pt periodic", ["grid.n=[12,16,10]", "stencil=7pt"]),
             (ARGS.heat3d, "2D 9pt periodic", ["grid.n=[17,24]", "stencil=9pt", "init.type=gaussian", "grid.length=[1.7,2.4]"]),
             (ARGS.wave3d, "3D star6 wave", ["grid.n=[13,11,12]", "stencil={type: star, order: 6}", "init.type=gaussian"])]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        write(d, "wave.yaml", WAVE_BASE)
        for app, name, sets in cases:
            base = (["run.steps=120", "run.progress_every=50"] + sets)
            inp = "wave.yaml" if app == ARGS.wave3d else "in.yaml"
            def go(ranks, more, extra=(), environ=None):
                args = [inp] + set_args(base + more) + list(extra)
                code, out, err, _ = run(ranks, args, d, env=environ, app=app)
                check(code == 0, f"{name} {' '.join(args)} on {ranks} ranks exited {code}: {err}")
                return out
            want = checksum(go(1, plain))
            for ranks in (1, 2, 3, 4):
                for backend in ("p2p", "cart_combining"):
                    out = go(ranks, [f"comm.backend={backend}"], environ=env)
                    check(checksum(out) == want, f"{name} on {ranks} ranks, {backend}, every auto: checksum {checksum(out)} "
                          f"!= {want} of k = 1\n{out}")
                    picks = dict(re.findall(r"^  auto +(halo\.steps_per_exchange|halo\.temporal_blocking|comm\.overlap): .* -> (\S+)$",
                                            out, re.M))
                    if not check("halo.steps_per_exchange" in picks and "comm.overlap" in picks,
                                 f"{name} on {ranks} ranks: no auto lines for k and overlap:\n{out}"):
                        continue
                    k = int(picks["halo.steps_per_exchange"].split("=")[1])
                    halo = re.search(r"^  halo +\d+ exchange\(s\).*, one every (\d+) step", out, re.M)
                    check(halo is not None and int(halo.group(1)) == k, f"{name}: halo line does not say the pick k = {k}:\n{out}")
                    check(re.search(r"^  auto cost +\d+ of 120 steps measured in \d+ trial", out, re.M) is not None,
                          f"{name}: no auto cost line:\n{out}")
            # Without CARTEX_AUTO_TRY_ALL a run this small (far under 1 s) keeps its first trial's choices.
            brief = go(2, [])
            check(checksum(brief) == want and re.search(r"^  auto +measured no further: the rest of the run would take [\d.e+-]+ s", brief,
                                                        re.M) is not None and len(re.findall(r"^  auto cost +\S+ of 120 steps measured in 1 trial",
                                                                                              brief, re.M)) == 1,
                  f"{name}: a run far under 1 s measures more than its first trial:\n{brief}")
            short = go(2, ["run.steps=20"])
            check(checksum(short) is not None and re.search(r"^  auto +not measured \(run\.steps < 100\): k = 1, overlap off", short,
                                                           re.M) is not None, f"{name}: a 20-step run says nothing of auto:\n{short}")
            dry = go(2, [], ["--dry-run"])
            check(re.search(r"^  halo\.steps_per_exchange: k = 1, 2(, 4(, 8)?)? from [124] on; fields laid out for k = [248] ", dry, re.M) is not None
                  and re.search(r"^  comm\.overlap: off, then on$", dry, re.M) is not None,
                  f"{name}: --dry-run does not list the automatic choices:\n{dry}")
        # Auto lays the fields out for its deepest candidate for the whole run, so a k whose memory
        # estimate exceeds 1.15x k = 1's is no candidate (issue 40): k = 8 is 23% more for a 256x256x128
        # block, less than 15% for a 512x512x256 one.
        for n, ks in (("[256,256,256]", "1, 2, 4"), ("[512,512,512]", "1, 2, 4, 8")):
            args = ["in.yaml"] + set_args([f"grid.n={n}", "stencil=7pt", "run.steps=120"]) + ["--dry-run"]
            code, out, err, _ = run(2, args, d)
            check(code == 0 and re.search(rf"^  halo\.steps_per_exchange: k = {ks} from 4 on; fields laid out for k = {ks[-1]} ", out,
                                          re.M) is not None, f"grid.n={n} on 2 ranks: auto's k are not {ks}:\n{out}{err}")


def case_threads_bitwise():
    """Registered only when Kokkos has a threaded host backend: every backend's halo exchange (pack and
    unpack), the deep-halo region sweeps (k = 2) and the overlap's interior/boundary regions give the same
    field with 1, 2 and 4 threads per rank as with one thread, so a race in any of these loops shows up
    as a different checksum (run it a few times; it is cheap)."""
    sets = ["grid.n=[26,21,19]", "grid.periodic=[true,false,true]", "stencil=27pt", "init.type=gaussian",
            "boundary.y=[0.5,0.25]", "grid.length=[1.3,1.1,0.95]", "run.steps=6"]
    runs = [(2, b, 2, "true") for b in backends()] + [(1, "p2p", 1, "false"), (1, "cart_combining", 2, "true"),
                                                      (3, "cart_forwarding", 3, "false")]
    sums = {}
    for threads in (1, 2, 4):
        env = {"OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": "false"}
        for ranks, backend, k, overlap in runs:
            with tempfile.TemporaryDirectory() as d:
                write(d, "in.yaml", BASE)
                out = heat(ranks, d, sets + [f"comm.backend={backend}", f"halo.steps_per_exchange={k}",
                                             f"comm.overlap={overlap}"], env=env)
                sums[(threads, ranks, backend, k, overlap)] = checksum(out)
                check(re.search(rf"^  kokkos +\S+, \S+, {threads} thread\(s\) per rank$", out, re.M) is not None,
                      f"{threads} threads: the summary reports another thread count:\n{out}")
    one = {key[1:]: v for key, v in sums.items() if key[0] == 1}
    check(None not in one.values() and len(set(one.values())) == 1, f"1 thread: checksums differ: {one}")
    for key, value in sums.items():
        check(value == one[key[1:]], f"{key[0]} threads, {key[1]} ranks, {key[2]} k={key[3]} overlap={key[4]}: "
                                     f"checksum {value}, 1 thread {one[key[1:]]}")


def case_dry_run():
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE + "stencil: 7pt\noutput:\n  history: true\n")
        code, out, err, _ = run(4, ["in.yaml", "--dry-run", "--set", "grid.periodic=[true,false,true]"], d)
        check(code == 0, f"dry run exit code {code}: {err}")
        check("# resolved configuration" in out, "dry run: no resolved configuration")
        check("periodic: [true, false, true]" in out, f"dry run: --set not shown in the resolved config:\n{out}")
        check("process grid: 1x2x2" in out, f"dry run: process grid missing:\n{out}")
        check("halo widths: lo [1, 1, 1]  hi [1, 1, 1]  (1 step(s) per exchange)" in out, "dry run: halo widths missing")
        check("neighborhood: 6 process offsets" in out, f"dry run: neighborhood missing:\n{out}")
        for backend in backends()[:-1]:
            check(re.search(r"^  " + backend + r" +\d+\.\.\d+ +\d+\.\.\d+ +\d+\.\.\d+$", out, re.M) is not None,
                  f"dry run: no per-backend line for {backend}:\n{out}")
        for r in range(4):
            check(f"rank {r}: coords" in out, f"dry run: rank {r} missing")
        # rank 0 sits at y = 0 of a non-periodic y: its -y neighbor is the boundary.
        check(re.search(r"neighbor +\(0,1,0\)  send \d+ cells to rank \d+, recv 0 cells from PROC_NULL \(boundary\)", out) is not None,
              f"dry run: boundary neighbor missing:\n{out}")
        check(not os.path.exists(os.path.join(d, "output")), "dry run created the output directory")
        check(re.search(r"^temporal blocking: off \(auto: off with one step per exchange\); redundant ghost updates "
                        r"0\.0%\.\.0\.0%", out, re.M) is not None, f"dry run: temporal blocking line (k = 1):\n{out}")
        # k = 4 with 10-row tiles on 64x32x32 blocks: the ghost updates are redundant work on every rank,
        # and one pass moves less than four sweeps.
        code, out, err, _ = run(4, ["in.yaml", "--dry-run", "--set", "halo.steps_per_exchange=4", "--set", "grid.n=[64,64,64]",
                                    "--set", "halo.temporal_blocking={tile_y: 10}"], d)
        m = re.search(r"^temporal blocking: tiles of 10 rows in y x all z \(wavefront over z\), \d+ tile\(s\) per pass "
                      r"\(halo.temporal_blocking: tile_y given\); redundant ghost updates ([\d.]+)%\.\.([\d.]+)% of k block "
                      r"updates; modelled traffic ([\d.]+) B per cell-update \(([\d.]+) one step at a time\)$", out, re.M)
        check(code == 0 and m is not None, f"dry run: temporal blocking line (tiles):\n{out}")
        check(0 < float(m.group(1)) <= float(m.group(2)) and float(m.group(3)) < float(m.group(4)),
              f"dry run: redundant work or traffic implausible: {m.group(0)}")


def case_cli():
    with tempfile.TemporaryDirectory() as d:
        code, out, err, _ = run(2, ["--help"], d)
        check(code == 0, f"--help exit {code}")
        check(out.count("Usage:") == 1 and "--dry-run" in out and "--set" in out, f"--help text:\n{out}")
        code, out, err, _ = run(2, ["--version"], d)
        check(code == 0 and re.match(r"^heat3d \d+\.\d+\.\d+ \(cartex, commit \S+\)\n$", out) is not None, f"--version: {out!r}")
    # --list-backends prints the halo registry, the same through every app of the shared driver: p2p
    # first (the default), auto last, each row zero-copy or packed.
    rows = cartex_testing.list_backends(ARGS.mpiexec, ARGS.heat3d)
    check(rows[0][0] == "p2p" and rows[-1][0] == "auto", f"--list-backends order: {rows}")
    check(len({name for name, _, _ in rows}) == len(rows), f"--list-backends repeats a name: {rows}")
    check(cartex_testing.list_backends(ARGS.mpiexec, ARGS.wave3d) == rows, "wave3d --list-backends differs from heat3d's")


def case_history():
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        out = heat(2, d, ["run.steps=20", "run.progress_every=5", "output.history=true", "output.dir=res"])
        path = os.path.join(d, "res", "history.csv")
        check(os.path.exists(path), "history.csv missing")
        if os.path.exists(path):
            rows = open(path).read().splitlines()
            check(rows[0] == "step,time,integral,min,max,sine_rel_error", f"history header {rows[0]}")
            check([r.split(",")[0] for r in rows[1:]] == ["0", "5", "10", "15", "20"], f"history steps {rows}")
            check(not os.path.exists(path + ".tmp"), "history.csv.tmp left behind")
        check(len(re.findall(r"^step +\d+/20 ", out, re.M)) == 4, f"progress lines:\n{out}")


def simulated(per_node, mapping):
    return {"CARTEX_RANKS_PER_NODE": str(per_node), "CARTEX_RANK_MAPPING": mapping}


def traffic_rows(out):
    """The dry run's inter-node traffic table: grid order -> (messages, inter-node, bytes, inter-node)."""
    rows = re.findall(r"^  (MPI order|node blocks \S+) +(\d+) +(\d+) +(\d+) +(\d+)$", out, re.M)
    return {r[0]: tuple(int(x) for x in r[1:]) for r in rows}


def case_placement():
    """Simulated node layouts: inter-node messages and bytes of one halo exchange in MPI order and in
    node blocks, the Ring/Ring* counts of the diagnostics allreduce, and a reordered run computing the
    same field."""
    # 8 ranks as 1x1x8 over z, 7pt, grid 12x10x16 periodic: each rank holds 12x10x2 cells and sends 6
    # faces: x faces 10*2 cells, y faces 12*2, z faces 12*10 (8 bytes each) -> 2624 bytes per rank.
    sets = ["grid.n=[12,10,16]", "processes.dims=[1,1,8]", "stencil=7pt"]
    z_face = 12 * 10 * 8
    messages, total_bytes = 8 * 6, 8 * 2 * (10 * 2 + 12 * 2 + 12 * 10) * 8

    def expect(inter):  # the table row with `inter` z messages crossing nodes
        return (messages, inter, total_bytes, inter * z_face)

    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        # Round-robin over 4 nodes of 2: rank r on node r mod 4, so both z neighbors are on other
        # nodes (16 of 48 messages); node blocks 1x1x2 put z pairs together: 8 messages cross.
        out = heat(8, d, sets, ["--dry-run"], env=simulated(2, "round_robin"))
        rows = traffic_rows(out)
        check(rows.get("MPI order") == expect(16), f"round robin, MPI order: {rows}\n{out}")
        check(rows.get("node blocks 1x1x2") == expect(8), f"round robin, node blocks: {rows}\n{out}")
        check("in use: MPI order (processes.reorder: false)" in out, f"round robin: order in use:\n{out}")
        # Ring: 2(P-1) = 14 stages of 8 messages, all inter-node when neighbors in rank order sit on
        # different nodes; Ring* renames so only the 4 node boundaries of the ring cross: 14 * 4.
        check("inter-node messages ring 112, ring_renamed 56" in out, f"round robin: allreduce counts:\n{out}")
        # Sequential nodes of 2 already hold z pairs: MPI order is the best order.
        out = heat(8, d, sets, ["--dry-run"], env=simulated(2, "sequential"))
        rows = traffic_rows(out)
        check(rows.get("MPI order") == expect(8) and len(rows) == 1, f"sequential: {rows}\n{out}")
        check("no node-block order has fewer inter-node bytes than MPI order" in out, f"sequential:\n{out}")
        check("inter-node messages ring 56, ring_renamed 56" in out, f"sequential: allreduce counts:\n{out}")
        # Unequal nodes (3 + 1 ranks): no block order.
        out = heat(4, d, ["processes.dims=[1,1,4]"], ["--dry-run"], env=simulated(3, "sequential"))
        check("the nodes hold unequal numbers of ranks" in out, f"unequal nodes:\n{out}")
        # The reordered run computes the same field as the plain one, with every allreduce.
        plain = checksum(heat(8, d, sets + ["run.steps=6"]))
        for algorithm in ("mpi", "ring", "ring_renamed"):
            out = heat(8, d, sets + ["run.steps=6", "processes.reorder=true", f"comm.allreduce={algorithm}"],
                       env=simulated(2, "round_robin"))
            check(checksum(out) == plain and plain is not None, f"reordered run ({algorithm}): checksum {checksum(out)} != {plain}")
            check(re.search(r"placement +8 ranks on 4 node\(s\), round_robin, simulated .*grid in node blocks 1x1x2; "
                            r"diagnostics allreduce " + algorithm, out) is not None, f"reordered run summary:\n{out}")
        # A malformed layout variable is one clear error, exit 2 on every rank.
        code, out, err, codes = run(3, ["in.yaml"], d, per_rank_codes=True, env=simulated("two", "sequential"))
        check(codes == [2] * 3, f"bad CARTEX_RANKS_PER_NODE: per-rank exit codes {codes}")
        check(own_lines(err) ==
              ["environment: CARTEX_RANKS_PER_NODE: expected a positive integer, got 'two'"], f"bad layout variable: {err!r}")


def case_allreduce():
    """comm.allreduce ring, ring_renamed and mpi give the same field, bitwise equal min/max and a total
    heat equal to rounding, under detected and simulated layouts, with and without reordering."""
    sets = ["grid.n=[12,10,8]", "init.type=gaussian", "init.center=[0.4,0.5,0.5]", "run.steps=6", "run.progress_every=3"]
    results = {}
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for ranks, env in [(4, None), (4, simulated(2, "round_robin")), (3, simulated(2, "sequential"))]:
            for algorithm in ("mpi", "ring", "ring_renamed"):
                for reorder in ("false", "true"):
                    out = heat(ranks, d, sets + [f"comm.allreduce={algorithm}", f"processes.reorder={reorder}"], env=env)
                    heat_line = re.search(r"integral of u +(\S+)", out)
                    minmax = re.search(r"min / max +(.*)$", out, re.M)
                    results[(ranks, str(env), algorithm, reorder)] = (
                        checksum(out), float(heat_line.group(1)) if heat_line else None, minmax.group(1) if minmax else None)
    first = next(iter(results.values()))
    for key, (cs, h, mm) in results.items():
        check(cs == first[0] and cs is not None, f"allreduce {key}: checksum {cs} != {first[0]}")
        check(mm == first[2] and mm is not None, f"allreduce {key}: min / max {mm} != {first[2]}")
        check(h is not None and abs(h - first[1]) <= 1e-13 * abs(first[1]), f"allreduce {key}: integral of u {h} vs {first[1]}")


def case_custom_stencils():
    """Stencils from the input: a custom 7pt/5pt on power-of-two spacings (weights exact) gives the
    builtin's field bit for bit; an upwind (one-sided) stencil gets a one-sided halo and neighborhood
    and the same field on 1 to 4 ranks."""
    seven = ("{offsets: [[0,0,0],[-1,0,0],[1,0,0],[0,-1,0],[0,1,0],[0,0,-1],[0,0,1]], "
             "weights: [-6,1,1,1,1,1,1], name: my7}")
    five = "{offsets: [[0,0],[-1,0],[1,0],[0,-1],[0,1]], weights: [-4,1,1,1,1], name: my5}"
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for name, grid, custom, builtin in [
                ("3D", ["grid.n=[16,16,8]", "grid.length=[1,1,0.5]", "init.center=[0.3,0.4,0.2]"], seven, "7pt"),
                ("2D", ["grid.n=[32,16]", "grid.length=[2,1]", "init.center=[0.3,0.4]"], five, "5pt")]:
            sets = grid + ["init.type=gaussian", "run.steps=12"]
            for ranks in (1, 3):
                a = checksum(heat(ranks, d, sets + [f"stencil={custom}"]))
                b = checksum(heat(ranks, d, sets + [f"stencil={builtin}"]))
                check(a is not None and a == b, f"custom {name} on {ranks} ranks: {a} != builtin {builtin} {b}")
        # Upwind in x (reads x-1 and x-2 only, damping: sum w o^2 > 0 along x), central in y and z: the
        # halo is 2 deep below x and 0 above, so ranks receive from -x and send to +x only along x.
        upwind = ("{offsets: [[0,0,0],[-1,0,0],[-2,0,0],[0,-1,0],[0,1,0],[0,0,-1],[0,0,1]], "
                  "weights: [-5,0.5,0.5,1,1,1,1], name: upwind}")
        sets = ["grid.n=[16,8,8]", "grid.length=[2,1,1]", "init.type=gaussian", "run.steps=10", "physics.cfl=0.3",
                f"stencil={upwind}"]
        out = heat(3, d, sets + ["processes.dims=[3,1,1]"], ["--dry-run"])
        check("halo widths: lo [2, 1, 1]  hi [0, 1, 1]" in out, f"upwind halo widths:\n{out}")
        check(re.search(r"neighborhood: \d+ process offsets .*\(1,0,0\)", out) is not None and "(-1,0,0)" not in out,
              f"upwind neighborhood should hold +x and not -x:\n{out}")
        sums = {ranks: checksum(heat(ranks, d, sets + [f"processes.dims=[{ranks},1,1]"])) for ranks in (1, 2, 3, 4)}
        check(None not in sums.values() and len(set(sums.values())) == 1, f"upwind checksums differ: {sums}")


# Upwind advection (v = (1, 0.5)) + diffusion (nu = 0.01) + decay (rate 0.1) on h = 1/16, weights for
# this grid: its limit is the classical 2 / (2 (vx/h + vy/h + 4 nu/h^2) + 0.1), set by the
# checkerboard mode, where one explicit Euler step multiplies the mode by 1 - 2 dt / dt_max.
MIXED_OFFSETS = [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)]
MIXED_WEIGHTS = [-34.34, 18.56, 2.56, 10.56, 2.56]
MIXED = (f"{{offsets: {[list(o) for o in MIXED_OFFSETS]}, weights: {MIXED_WEIGHTS}, derivative: 0, name: mixed}}")


def euler_max_growth(dt, n, steps):
    """max |u| / max |u(0)| of explicit Euler with MIXED on an n x n periodic grid from a field holding
    every mode (a fixed pseudo-random one): the same update as heat3d's, by hand, so dt may exceed the
    limit the loader enforces. Stops early once it has grown 1e6 times."""
    import random
    rng = random.Random(7)
    u = [[rng.uniform(-1, 1) for _ in range(n)] for _ in range(n)]
    start = max(abs(v) for row in u for v in row)
    for _ in range(steps):
        u = [[u[j][i] + dt * sum(w * u[(j + oy) % n][(i + ox) % n] for (ox, oy), w in zip(MIXED_OFFSETS, MIXED_WEIGHTS))
              for i in range(n)] for j in range(n)]
        if max(abs(v) for row in u for v in row) > 1e6 * start:
            break
    return max(abs(v) for row in u for v in row) / start


def case_custom_stability():
    """A non-symmetric custom stencil (upwind advection + diffusion + decay, weights summing to -0.1):
    its computed limit is the analytic one; at cfl 0.99 heat3d runs 10,000 steps with max |u| never
    above its start, and the same update by hand stays bounded at 0.99 and blows up at 1.05 times the
    limit (the limit is sharp); a physics.dt 1.01 times the limit is a located error on every rank."""
    limit = 2 / (2 * (16 + 8 + 4 * 2.56) + 0.1)
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", "grid:\n  n: [16, 16]\nphysics:\n  alpha: 1.0\n  cfl: 0.99\n")
        out = heat(2, d, [f"stencil={MIXED}", "run.steps=0"], ["--dry-run"])
        m = re.search(r"cfl ([0-9.]+) of the stability limit ([0-9.e-]+)\)", out)
        check(m is not None and abs(float(m.group(2)) - limit) < 1e-6 * limit, f"limit {limit:.6g} expected:\n{out}")
        heat(2, d, [f"stencil={MIXED}", "run.steps=10000", "run.progress_every=500", "output.history=true",
                    "init.type=gaussian", "init.width=0.05"])
        rows = [r.split(",") for r in open(os.path.join(d, "output", "history.csv")).read().splitlines()]
        col = {name: i for i, name in enumerate(rows[0])}
        peak = [max(abs(float(r[col["min"]])), abs(float(r[col["max"]]))) for r in rows[1:]]
        check(len(peak) == 21 and rows[-1][0] == "10000", f"history rows: {[r[0] for r in rows[1:]]}")
        check(all(p <= peak[0] for p in peak) and peak[-1] > 0, f"max |u| grew at cfl 0.99: {peak}")
        below, above = euler_max_growth(0.99 * limit, 8, 10000), euler_max_growth(1.05 * limit, 8, 10000)
        check(below <= 1.0, f"by hand at 0.99 x the limit max |u| grew {below} times")
        check(above > 1e6, f"by hand at 1.05 x the limit max |u| grew only {above} times")
        write(d, "in.yaml", f"grid:\n  n: [16, 16]\nphysics:\n  alpha: 1.0\n  dt: {1.01 * limit!r}\nstencil: {MIXED}\n")
        code, out, err, codes = run(3, ["in.yaml"], d, per_rank_codes=True)
        lines = own_lines(err)
        check(codes == [2] * 3, f"dt above the limit: per-rank exit codes {codes}")
        check(len(lines) == 1 and lines[0].startswith("in.yaml:5:7: physics.dt: ")
              and f"exceeds the stability limit {limit:.6g} of stencil mixed" in lines[0], f"dt above the limit: {lines}")


WAVE_BASE = """\
grid:
  n: [12, 10, 8]
physics:
  speed: 1.0
  cfl: 0.8
run:
  steps: 5
"""


def case_wave():
    """wave3d: the standing wave follows the exact discrete leapfrog solution A cos(n w dt) on 1 to 4
    ranks for 2nd- to 8th-order stencils (on 3 ranks with k = 2 steps per exchange); the field is bitwise the same
    for every rank count, backend, overlap, temporal blocking and k; the integral of u is conserved;
    wave-specific input errors."""
    exact = [("3D 7pt", ["grid.n=[16,12,10]", "stencil=7pt"]),
             ("3D 27pt", ["grid.n=[12,12,12]", "stencil=27pt", "init.modes=[2,1,1]"]),
             ("3D star order 8", ["grid.n=[16,12,10]", "stencil={type: star, order: 8}"]),
             ("3D 7pt walls", ["grid.n=[15,12,10]", "grid.periodic=[false,true,false]", "stencil=7pt"]),
             ("2D star order 4", ["grid.n=[30,20]", "stencil={type: star, order: 4}", "init.modes=[3,2]"])]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", WAVE_BASE)
        for name, sets in exact:
            for ranks in (1, 2, 3, 4):
                out = wave(ranks, d, sets + ["run.steps=60"] + (["halo.steps_per_exchange=2"] if ranks == 3 else []))
                err = summary_value(out, "sine error")
                check(err is not None and float(err) < 1e-11, f"wave {name} on {ranks} ranks: sine error {err}\n{out}")
        sums = {}
        for ranks in (1, 2, 4):
            # k > 1: deep halos of both levels (the previous one exchanged at each cycle's start), blocked
            # passes of leapfrog steps, whole overlapped passes (p2p) and overlapped first steps.
            for backend, overlap, blocking, k in [("p2p", "false", "off", 1), ("cart_combining", "true", "{tile_y: 2}", 1),
                                                  ("mpi_neighbor_alltoallw", "false", "{tile_y: 3}", 1), ("p2p", "false", "off", 2),
                                                  ("p2p", "true", "auto", 3), ("cart_forwarding", "false", "{tile_y: 2}", 3),
                                                  ("cart_combining_packed", "true", "auto", 2)]:
                out = wave(ranks, d, ["grid.n=[13,11,9]", "stencil={type: star, order: 6}", "init.type=gaussian",
                                      "run.steps=9", f"comm.backend={backend}", f"comm.overlap={overlap}",
                                      f"halo.temporal_blocking={blocking}", f"halo.steps_per_exchange={k}"])
                sums[(ranks, backend, overlap, blocking, k)] = checksum(out)
                # k > 1 exchanges both levels (apart with overlap), and the summary's halo line says so.
                halo = re.search(r"^  halo +\d+ exchange\(s\) of (1 field \(u\)|2 fields \(u and its previous level\) "
                                 r"(?:together|in two exchanges \(the previous level apart, overlap\))), one every (\d+) step",
                                 out, re.M)
                check(halo is not None and halo.group(1).startswith("2") == (k > 1) and halo.group(2) == str(k)
                      and ("in two exchanges" in halo.group(1)) == (k > 1 and overlap == "true"),
                      f"wave k={k}: halo line {halo.group(0) if halo else None!r}")
        check(None not in sums.values() and len(set(sums.values())) == 1, f"wave: checksums differ: {sums}")
        # --dry-run's traffic tables count the state (u), and say when a cycle also moves the previous level.
        for k in (1, 2):
            out = wave(2, d, [f"halo.steps_per_exchange={k}"], ["--dry-run"])
            notes = re.findall(r"^# (?:halo exchange per backend \(per exchange of 1 field \(u\) and rank|"
                               r"inter-node traffic per halo exchange \(of 1 field \(u\), all ranks).*$", out, re.M)
            moves = "each cycle also moves the previous level: one exchange of 2 fields without overlap"
            check(len(notes) == 2 and all((moves in n) == (k > 1) for n in notes), f"wave --dry-run k={k}: table headers {notes}\n{out}")
        out = wave(3, d, ["init.type=gaussian", "init.width=0.2", "run.steps=80", "stencil=27pt", "grid.n=[12,12,12]"])
        m = re.search(r"integral of u\s+(\S+) \(start (\S+), change (\S+)\)", out)
        check(m is not None and abs(float(m.group(3))) <= 1e-12 * abs(float(m.group(2))), f"wave conservation:\n{out}")
        for text, expected in [
                (WAVE_BASE.replace("speed: 1.0", "alpha: 1.0"),
                 "bad.yaml:4:3: physics.alpha: unknown key for the wave equation (expected one of: cfl, dt, speed)"),
                (WAVE_BASE + "stencil: {offsets: [[0, 0, 0], [-1, 0, 0]], weights: [-1, 1], derivative: 1}\n",
                 "bad.yaml:5:8: physics.cfl: stencil custom: leapfrog is stable only for a real symbol lambda <= 0 (w(o) == "
                 "w(-o) for every offset o, no growing mode, e.g. a Laplacian), but the mode theta = [-1.571, -3.142, -3.142] "
                 "has lambda = -12 + 12i: make the stencil symmetric, or solve a first-order equation")]:
            write(d, "bad.yaml", text)
            code, out, err, codes = run(2, ["bad.yaml"], d, per_rank_codes=True, app=ARGS.wave3d)
            check(codes == [2, 2], f"wave bad input: per-rank exit codes {codes}")
            check(own_lines(err) == [expected], f"wave bad input: {err!r}, expected {expected!r}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d'])

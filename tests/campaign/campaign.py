#!/usr/bin/env python3
"""Differential campaign (issue 35): random small problems, each run as a reference and as random
variants that must give the reference's bits, the promise of docs/testing.md "Differential campaign".

The case space. A case is one app (heat3d, wave3d, advect3d, grayscott3d) and one input, drawn from a seeded
random.Random: 2D or 3D, 1 to 12 cells per dimension (few cells in all; now and then a long thin grid
of 13-70 cells in y, where tiles of 8-64 rows differ between ranks), each dimension periodic or with
walls, each face `{dirichlet: v}`, `{dirichlet: exact}` (sine init only), `{neumann: q}`,
`{robin: {a: a, b: b, g: g}}` or the `[a, b]` shorthand; the stencil a builtin name,
`{type: star, order: 2..8}`, `{type: box}` or custom offsets and weights (symmetric, one-sided, scattered, reaction only; `derivative` 0, 1 or 2);
advect3d every upwind (1-4) and central (2, 4) scheme with velocity components of both signs and 0;
heat3d's alpha a number or a field (layers, gaussian); grayscott3d's two fields u and v (Du, Dv, feed,
kill of Pearson's map on a lattice, a gaussian seed of v, walls that keep u and v near [0, 1], never
exact ones, a step of at most 0.5-0.8: draw_gray_scott); sine (modes) or gaussian (centre, width,
amplitude) init; `physics.cfl` or `physics.dt`; `run.steps` (mostly 1-30, sometimes 100-160, where
`auto` measures) or a `run.end_time` that is no multiple of dt; history, field files, checkpoints.
The generator leans towards inputs the apps accept, but many are refused for good reasons (an
unstable stencil, a reach longer than the grid), which is fine.

The runs. The reference is 1 rank, `comm.backend: p2p`, `halo.steps_per_exchange: 1`,
`halo.temporal_blocking: off`, `comm.overlap: false`. Each case has 1-3 variants: 1..R ranks
(oversubscribed), a random `processes.dims` (a factorisation, zeros, uneven splits, blocks of one
cell), any backend of `APP --list-backends` (those marked unavailable left out; `auto` in), k 1-4 or
`auto`, `halo.temporal_blocking` off, auto or `{tile_y: N}`, `comm.overlap` true, false or auto,
`comm.allreduce` mpi, ring or ring_renamed, any of them left at its default, sometimes
`CARTEX_AUTO_TRY_ALL=1`, and sometimes a restart: the variant writes checkpoints and a second run on
another rank count continues from one with `--restart DIR/checkpoint_NNNNNN.h5`. Every run works in a
directory of its own: `in.json` (the problem; JSON is YAML), `reference.json` or `variant.json` (and
`restart.json`) layered on it, `output.dir` inside.

The verdict. A case passes when every run exits 0 on every rank with the reference's checksum, or
when the reference and a variant both exit 2 with the same one located line on stderr (`FILE:LINE:COL:
key.path: what`, or the `--set ...:` / `--restart ...:` forms). A variant refused while the reference
runs (or refused otherwise than the reference) passes only if its line is one of LIMITS, the
documented limits (docs/testing.md lists them); these refusals are counted by class. Failures, by
kind: `checksum` (another checksum), `exit` (an exit code other than 0 and 2 on some rank, ranks that
disagree, exit 0 without a checksum), `hang` (no exit within --timeout; the whole process tree is
killed), `unlocated` (exit 2 without exactly one located line), `refusal` (a refusal that is no
documented limit, or a variant that runs what the reference refuses), `output` (no checkpoint to
restart from).

Shrinking. After the campaign the first failure of each kind and message (then more checksums and
hangs, at most SHRINK_AT_MOST) is simplified greedily (fewer steps and cells, optional keys dropped, a
simpler stencil and walls, fewer ranks, p2p, k = 1, no tiles, no overlap), each step kept when the
reference and the variant still fail with the same kind, and written to --keep as `{"app", "input",
"variant", "found"}`: a file for tests/campaign/cases/, which `--replay` runs (the ctest
campaign.regressions).

    campaign.py --heat3d PATH --wave3d PATH --advect3d PATH --grayscott3d PATH [--mpiexec PATH]
                [--apps LIST] [--count N] [--seed S|commit] [--budget SECONDS] [--ranks R|LIST]
                [--jobs J] [--timeout SECONDS] [--keep DIR] [--case I] [--replay DIR_OR_FILE...]

    --apps LIST    the apps cases are drawn for, e.g. `grayscott3d` or `heat3d,wave3d` (default all
                   four); only their programs (and those of replayed cases) need a path

    --count N      cases to draw (default 100; with --budget and no --count: until the budget ends)
    --seed S       an integer, or `commit`: from `git rev-parse HEAD` of this source tree (the time
                   where there is no git); printed first, with the commands that rerun the campaign
                   and one case. Case I is drawn from (S, I) and --apps alone, so `--case I` reruns it
    --budget SEC   draw no new case after SEC seconds; the cases finished are reported. Shrinking
                   then takes at most SEC seconds more (600 without --budget)
    --ranks R|LIST variants' rank counts: R means 1..R (default 8), `1,2,4` a list
    --jobs J       cases run side by side (default 2)
    --timeout SEC  per run (default 120)
    --keep DIR     where the shrunk failures go (default: a new temporary directory, printed)
    --case I       run case I of the seed alone, printing every run
    --replay       run kept cases (files, or directories of *.json) instead of drawing any

Exit 0 when every case passed, 1 on any failure, 2 on bad options.
"""
import argparse
import cmath
import concurrent.futures
import copy
import glob
import json
import math
import os
import random
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "support"))
from cartex_testing import checksum, mpi_command, own_lines, per_rank_output, rank_codes  # noqa: E402

APPS = ("heat3d", "wave3d", "advect3d", "grayscott3d")
AXES = "xyz"

# The reference's settings: one rank, nothing that may change the bits (layered over the problem).
REFERENCE = {"comm.backend": "p2p", "comm.overlap": False, "halo.steps_per_exchange": 1,
             "halo.temporal_blocking": "off"}

# The refusals a variant may meet while the reference runs: limits docs/input.md states, which depend on
# the rank count, the process grid or k, not on the problem: (class, regex on the line after its
# location). docs/testing.md, "Differential campaign", has the same table.
LIMITS = [
    # A given grid, or MPI_Dims_create's (then located at the file's first line).
    ("more processes than cells", r"^processes\.dims: \d+ processes in (dimension )?[xyz] exceed (the|its) \d+ cells"),
    ("k too deep for the grid", r"^halo\.steps_per_exchange: \d+ step\(s\) per exchange of stencil \S+ need a halo "
     r"deeper than the grid's \d+ cells in [xyz]"),
    ("resource limit", r"^(grid\.n|halo\.steps_per_exchange): the run needs an estimated .* on a node"),
]

# One located line: FILE:LINE:COL: key: what, --set KEY=VALUE: key: what, --restart FILE: what.
LOCATED = re.compile(r"^(?:[\w.-]+\.json:\d+:\d+|--set \S.*?|--unset \S+|--restart \S+): \S.*$")
LOCATION = re.compile(r"^(?:[\w.-]+\.json:\d+:\d+|--set \S.*?|--unset \S+|--restart \S+): ")

def limit_class(line):
    """The LIMITS class of a refusal line, or None."""
    text = LOCATION.sub("", line, count=1)
    for name, pattern in LIMITS:
        if re.search(pattern, text):
            return name
    return None


def refusal_class(line):
    """A reference refusal's class for the report: its key (a wall's axis and face blanked) and the
    start of its message, stencil names, numbers and bracketed or quoted parts blanked."""
    text = LOCATION.sub("", line, count=1)
    text = re.sub(r"^boundary\.[xyz]\.(low|high)", "boundary.D.FACE", text)
    text = re.sub(r" \([^)]*\)", "", text)
    text = re.sub(r"\[[^\]]*\]|\"[^\"]*\"", "_", text)
    text = re.sub(r"stencil [^\s:]+", "stencil S", text)
    text = re.sub(r"(?<![\w.])-?\d[\d.e+-]*", "N", text)
    words = text.split()
    return " ".join(words[:9]) + (" ..." if len(words) > 9 else "")


# ---------------------------------------------------------------------------------------------------
# Drawing problems


def k32(rng, lo=1, hi=32):
    """A weight k/32: exact in binary, so weights that should sum to 0 do."""
    return rng.randint(lo, hi) / 32


def draw_cells(rng, dim):
    """Cells per dimension: 1-12, odd and tiny sizes often, few cells in all (runs stay ~0.3 s). Now and
    then a long thin grid instead, 13-70 cells in y: tiles of 8, 16, 32 and 64 rows fit only there, and
    an uneven split in y gives the ranks different lists of tile candidates to agree on."""
    if rng.random() < 0.08:
        n = [rng.randint(1, 8 if dim == 2 else 3), rng.randint(13, 70)] + ([rng.randint(1, 3)] if dim == 3 else [])
        return n
    n = [rng.choices(range(1, 13), weights=[1, 4, 6, 6, 7, 7, 6, 6, 5, 5, 5, 5])[0] for _ in range(dim)]
    cap = 400 if dim == 3 else 120
    while n[0] * n[1] * (n[2] if dim == 3 else 1) > cap:
        i = n.index(max(n))
        n[i] = rng.randint(max(1, n[i] // 2), n[i] - 1)
    return n


def draw_custom(rng, dim, n, mirrored):
    """A custom stencil: the centre plus neighbours of weight k/32 (mirror symmetric when `mirrored`: the
    wave equation needs a real symbol), the centre
    their negative sum minus a reaction rate, so the symbol has no growing mode; in shuffled order."""
    reach = [max(1, min(rng.choice([1, 1, 2, 2, 3]), nd)) for nd in n]
    shape = rng.choice(["symmetric", "one-sided", "scattered", "reaction"]) if not mirrored else \
        rng.choice(["symmetric", "symmetric", "reaction"])
    centre = [0] * dim
    points = {}
    if shape == "one-sided":
        # Every neighbour on one side of one axis (e.g. only negative z), maybe a symmetric part elsewhere.
        axis, sign = rng.randrange(dim), rng.choice([-1, 1])
        for r in rng.sample(range(1, reach[axis] + 1), rng.randint(1, reach[axis])):
            o = [0] * dim
            o[axis] = sign * r
            points[tuple(o)] = k32(rng)
        if rng.random() < 0.4 and dim > 1:
            other = rng.choice([d for d in range(dim) if d != axis])
            w = k32(rng)
            for s in (-1, 1):
                o = [0] * dim
                o[other] = s
                points[tuple(o)] = w
    elif shape in ("symmetric", "scattered"):
        for _ in range(rng.randint(1, 4)):
            o = tuple(rng.randint(-reach[d], reach[d]) for d in range(dim))
            if o == tuple(centre):
                continue
            points[o] = k32(rng)
            if shape == "symmetric":
                points[tuple(-x for x in o)] = points[o]
    rate = k32(rng, 1, 8) if shape == "reaction" or rng.random() < 0.2 else 0.0
    points[tuple(centre)] = -(sum(points.values()) + rate)
    if mirrored and rng.random() < 0.05:  # now and then one the wave equation must refuse
        points[tuple([1] + [0] * (dim - 1))] = points.get(tuple([1] + [0] * (dim - 1)), 0) + 0.25
    items = list(points.items())
    rng.shuffle(items)
    stencil = {"offsets": [list(o) for o, _ in items], "weights": [w for _, w in items]}
    if shape == "reaction" and len(items) == 1:
        stencil["derivative"] = 0
    else:
        derivative = rng.choices([None, 2, 1, 0], weights=[3, 2, 1, 2])[0]
        if derivative is not None:
            stencil["derivative"] = derivative
    if rng.random() < 0.2:
        stencil["name"] = rng.choice(["mine", "one_sided", "cross"])
    return stencil


def draw_stencil(rng, app, dim, n, field_alpha):
    """The `stencil` value, or None to leave the key out (the default 5pt/7pt)."""
    star2 = "5pt" if dim == 2 else "7pt"
    if field_alpha:  # a field alpha runs on the second-order star only
        return rng.choice([None, star2, {"type": "star", "order": 2}])
    kind = rng.choices(["default", "builtin", "star", "box", "custom"], weights=[2, 3, 3, 1, 4])[0]
    if kind == "default":
        return None
    if kind == "builtin":
        return rng.choice([star2, "9pt" if dim == 2 else "27pt"])
    if kind == "box":
        return {"type": "box"} if rng.random() < 0.7 else {"type": "box", "radius": 1, "order": 2}
    if kind == "star":
        fits = [p for p in (2, 4, 6, 8) if p // 2 <= min(n)] or [2]
        order = rng.choice(fits if rng.random() < 0.9 else [2, 4, 6, 8])
        s = {"type": "star", "order": order}
        if rng.random() < 0.2:
            s = {"type": "star", "radius": order // 2}
        return s
    return draw_custom(rng, dim, n, mirrored=(app == "wave3d"))


def stencil_reach(stencil, dim):
    """Per dimension the cells the `stencil` value reaches (operator_reach adds advect3d's advection)."""
    if stencil is None or isinstance(stencil, str):
        return [1] * dim
    if "offsets" in stencil:
        return [max([abs(o[d]) for o in stencil["offsets"]] + [0]) for d in range(dim)]
    if stencil.get("type") == "star":
        r = stencil.get("radius") or stencil.get("order", 2) // 2
        return [r] * dim
    return [1] * dim


def draw_face(rng, nd, reach, exact_mode, advect, gray_scott=False):
    """One wall. In `exact_mode` (a sine init whose exact solution the walls must continue) `exact`,
    an insulated wall or a zero Dirichlet wall with a reach of one cell (advect3d: only `exact`);
    else a Dirichlet constant, a Neumann flux or a Robin wall (both mirror `reach` cells, which the grid
    must have), and now and then an `exact` wall the apps refuse. Gray-Scott (`gray_scott`): no `exact`
    (it has no exact solution), and walls that keep both fields near [0, 1] (a wall value in it, a
    Robin wall's g/a too, small fluxes: a flux of 1 per cell and step feeds v until the reaction
    explodes)."""
    if exact_mode:
        kinds = ["exact"] if advect else ["exact", "exact", "insulated"] + (["zero"] if reach == 1 else [])
    else:
        kinds = ["dirichlet", "dirichlet", "neumann", "neumann", "robin"] + \
            (["exact"] if not gray_scott and rng.random() < 0.03 else [])
    kind = rng.choice(kinds)
    if kind in ("neumann", "robin") and nd < reach and rng.random() < 0.9:
        kind = "dirichlet"
    if kind == "exact":
        return {"dirichlet": "exact"}
    if kind == "insulated":
        return {"neumann": 0}
    if kind == "zero":
        return {"dirichlet": 0}
    if kind == "dirichlet":
        return {"dirichlet": rng.choice([0, 0, 1, 0.5, 0.25] if gray_scott else [0, 0, 1, -0.5, 0.25])}
    if kind == "robin":  # a + b > 0; b = 0 is a Dirichlet wall half a cell out, a = 0 a Neumann one
        a, b = rng.choice([(1, 0.5), (0.25, 1), (2, 0), (0, 1), (0.5, 0.125), (3.7, 1.3)])
        if gray_scott:
            g = a * rng.choice([0, 0, 0.5, 1]) if a else rng.choice([0, 0, 0.03125, -0.03125])
            return {"robin": {"a": a, "b": b, "g": g}}
        return {"robin": {"a": a, "b": b, "g": rng.choice([0, 0, 1, -0.5, 0.3])}}
    return {"neumann": rng.choice([0, 0, 0, 0.03125, -0.03125] if gray_scott else [0, 0, 0.5, -0.431, 1])}


def symmetric(stencil):
    """True for a stencil whose weights are mirror symmetric (builtins and families are)."""
    if not isinstance(stencil, dict) or "offsets" not in stencil:
        return True
    w = {tuple(o): x for o, x in zip(stencil["offsets"], stencil["weights"])}
    return all(w.get(tuple(-c for c in o)) == x for o, x in w.items())


# Cells the first derivative of physics.advection reaches against the flow (docs/stencils.md).
ADVECTION_REACH = {("upwind", 1): 1, ("upwind", 2): 2, ("upwind", 3): 2, ("upwind", 4): 3, ("central", 2): 1,
                   ("central", 4): 2}


def offset_of(face):
    """Where the first cell sits from a wall, in cells (docs/boundaries.md): Dirichlet 1, Neumann and
    Robin 1/2."""
    return 0.5 if "neumann" in face or "robin" in face else 1.0


def draw_problem(rng, app):
    """One random input for `app` (a dict, written as JSON)."""
    dim = rng.choice((2, 3))
    n = draw_cells(rng, dim)
    inp = {"grid": {"n": n}}
    periodic = [rng.random() < 0.55 for _ in range(dim)]
    if all(periodic) or not any(periodic):
        inp["grid"]["periodic"] = periodic[0] if rng.random() < 0.5 else periodic
    else:
        inp["grid"]["periodic"] = periodic

    field_alpha = app == "heat3d" and rng.random() < 0.2
    stencil = draw_stencil(rng, app, dim, n, field_alpha)
    if stencil is not None:
        inp["stencil"] = stencil
    reach = stencil_reach(stencil, dim)
    advection = None
    if app == "advect3d":
        alpha = rng.choices([0, 0.01, 0.05, 0.1, 0.5], weights=[1, 2, 3, 2, 2])[0]
        if alpha == 0 and rng.random() < 0.8:
            advection = ("upwind", 1)  # the only scheme stable without diffusion
        else:
            advection = rng.choice(sorted(ADVECTION_REACH))
        reach = [max(r, ADVECTION_REACH[advection]) for r in reach]

    gray_scott = app == "grayscott3d"
    sine = rng.random() < 0.5 and not gray_scott  # Gray-Scott: a gaussian seed of v only
    # Exact walls need the exact solution: a symmetric operator and walls that continue the mode.
    exact_mode = sine and not field_alpha and symmetric(stencil) and rng.random() < 0.3
    faces = {}
    boundary = {}
    for d in range(dim):
        if periodic[d]:
            continue
        low, high = (draw_face(rng, n[d], reach[d], exact_mode, app == "advect3d", gray_scott)
                     for _ in range(2))
        faces[d] = (low, high)
        roll = rng.random()
        if roll < 0.1 and low == {"dirichlet": 0} and high == {"dirichlet": 0}:
            continue  # the default walls, key left out
        if "dirichlet" in low and "dirichlet" in high and "exact" not in (low["dirichlet"], high["dirichlet"]) \
                and roll < 0.5:
            boundary[AXES[d]] = [low["dirichlet"], high["dirichlet"]]
        else:
            boundary[AXES[d]] = {"low": low, "high": high}
    if boundary:
        inp["boundary"] = boundary

    # Equal spacing (box stencils and scaled custom ones need it) from lengths of h times the cells
    # between the walls: a power-of-two h keeps every length and spacing exact. Gray-Scott's rates are
    # per unit time on a lattice (h = 1), so its h is 1 or 1/2 (its D then scaled by h^2), or the
    # default lengths of 1 (h <= 1: small steps).
    box = stencil in ("9pt", "27pt") or (isinstance(stencil, dict) and stencil.get("type") == "box")
    roll = rng.random() * (0.8 if box else 1.0)
    if gray_scott and 0.75 <= roll < 0.9:
        roll = 0.95
    if roll < 0.75:
        h = rng.choice([1.0, 1.0, 0.5] if gray_scott else [0.0625, 0.125, 0.25])
        lengths = []
        for d in range(dim):
            if periodic[d]:
                lengths.append(h * n[d])
            else:
                low, high = faces[d]
                lengths.append(h * (n[d] - 1 + offset_of(low) + offset_of(high)))
        inp["grid"]["length"] = lengths
    elif roll < 0.9:
        inp["grid"]["length"] = [rng.choice([0.5, 1.0, 1.3, 2.0]) for _ in range(dim)]
    lengths = inp["grid"].get("length", [1.0] * dim)
    if gray_scott:
        return draw_gray_scott(rng, inp, dim, n, stencil, h if "length" in inp["grid"] else None)

    physics = {}
    if app == "heat3d":
        if field_alpha:
            if rng.random() < 0.5:
                axis = rng.randrange(dim)
                cuts = sorted(round(rng.uniform(0, lengths[axis]), 3) for _ in range(rng.randint(1, 3)))
                cuts = sorted(set(cuts))
                physics["alpha"] = {"layers": {"axis": AXES[axis], "bounds": cuts,
                                               "values": [rng.choice([0.2, 0.5, 1.0, 2.0]) for _ in range(len(cuts) + 1)]}}
            else:
                g = {"peak": rng.choice([0.3, 2.0, 4.0])}
                if rng.random() < 0.5:
                    g["background"] = rng.choice([0.5, 1.0])
                if rng.random() < 0.5:
                    g["center"] = [round(rng.uniform(0, L), 3) for L in lengths]
                if rng.random() < 0.5:
                    g["width"] = rng.choice([0.05, 0.2, 0.5])
                physics["alpha"] = {"gaussian": g}
        else:
            physics["alpha"] = rng.choice([0.1, 0.5, 1.0, 2.0])
    elif app == "wave3d":
        physics["speed"] = rng.choice([0.5, 1.0, 2.0])
    else:
        physics["alpha"] = alpha
        physics["velocity"] = [rng.choice([-1.0, -0.7, -0.5, 0, 0.3, 0.5, 1.0]) for _ in range(dim)]
        physics["advection"] = {"scheme": advection[0], "order": advection[1]}
    if rng.random() < 0.8:
        physics["cfl"] = rng.choice([0.2, 0.36, 0.5, 0.9, 1.0])
    else:
        physics["dt"] = rng.choice([1e-5, 5e-5, 1e-4, 3e-4])
    inp["physics"] = physics

    init = {}
    if sine:
        if rng.random() < 0.3:
            init["type"] = "sine"
        if rng.random() < 0.5:
            init["modes"] = rng.randint(1, 3) if rng.random() < 0.5 else [rng.randint(1, 3) for _ in range(dim)]
    else:
        init["type"] = "gaussian"
        if rng.random() < 0.6:
            init["center"] = round(rng.uniform(0, min(lengths)), 3) if rng.random() < 0.3 else \
                [round(rng.uniform(0, L), 3) for L in lengths]
        if rng.random() < 0.5:
            init["width"] = rng.choice([0.05, 0.1, 0.2, 0.3])
    if rng.random() < 0.3:
        init["amplitude"] = rng.choice([1.0, -2.0, 0.5])
    if init:
        inp["init"] = init
    draw_run(rng, inp, n, ["u", "rank"] + (["alpha"] if field_alpha else []))
    return inp


def draw_run(rng, inp, n, fields, end_time=(0.001, 0.02)):
    """The `run` and `output` sections of `inp`: steps or an end time drawn from the range `end_time`,
    history, field files (`fields`: an output.fields value), checkpoints."""
    roll = rng.random()
    if max(n) > 12 and rng.random() < 0.5:
        roll = 0.7  # a long thin grid is there for the tile candidates, which only auto measures
    if roll < 0.65:
        run = {"steps": rng.randint(1, 30)}
    elif roll < 0.8:
        run = {"steps": rng.randint(100, 160)}  # long enough for `auto` to measure
    else:
        run = {"end_time": float(f"{rng.uniform(*end_time):.5g}")}
    if rng.random() < 0.1:
        run["progress_every"] = rng.randint(1, 10)
    inp["run"] = run

    output = {}
    if rng.random() < 0.2:
        output["history"] = True
    if rng.random() < 0.15:
        output["every"] = rng.randint(1, 10)
        if rng.random() < 0.3:
            output["fields"] = fields
    if rng.random() < 0.1:
        output["checkpoint_every"] = rng.randint(1, 10)
    if output:
        inp["output"] = output


# Second-derivative weights of the central stars on unit spacing, centre first (docs/stencils.md).
STAR_WEIGHTS = {2: [-2, 1], 4: [-5 / 2, 4 / 3, -1 / 12], 6: [-49 / 18, 3 / 2, -3 / 20, 1 / 90],
                8: [-205 / 72, 8 / 5, -1 / 5, 8 / 315, -1 / 560]}


def stencil_taps(stencil, dim):
    """The `stencil` value as (offset, weight) pairs on unit spacing and its derivative (None: one the
    apps refuse, such as a star of another order)."""
    if stencil is None or stencil in ("5pt", "7pt"):
        stencil = {"type": "star", "order": 2}
    if stencil in ("9pt", "27pt") or (isinstance(stencil, dict) and stencil.get("type") == "box"):
        # The compact box Laplacians: 9pt (1/6) [-20 | 4 edge | 1 corner], 27pt (1/30) [-128 | 14 | 3 | 1].
        by_norm = {0: -20 / 6, 1: 4 / 6, 2: 1 / 6} if dim == 2 else {0: -128 / 30, 1: 14 / 30, 2: 3 / 30, 3: 1 / 30}
        box = [(x, y, z) for x in (-1, 0, 1) for y in (-1, 0, 1) for z in ((-1, 0, 1) if dim == 3 else (0,))]
        return [(o[:dim], by_norm[sum(map(abs, o))]) for o in box], 2
    if isinstance(stencil, dict) and "offsets" in stencil:
        return [(tuple(o), w) for o, w in zip(stencil["offsets"], stencil["weights"])], stencil.get("derivative", 2)
    if isinstance(stencil, dict) and stencil.get("type") == "star":
        order = stencil.get("order") or 2 * stencil.get("radius", 1)
        w = STAR_WEIGHTS.get(order)
        if w is None:
            return None
        taps = [((0,) * dim, dim * w[0])]
        for d in range(dim):
            for r in range(1, len(w)):
                for sign in (-1, 1):
                    o = [0] * dim
                    o[d] = sign * r
                    taps.append((tuple(o), w[r]))
        return taps, 2
    return None


def spectral_radius(stencil, dim, h):
    """max |symbol| of the stencil on spacing h, sampled on 16 wavenumbers per dimension (a lower bound of
    the true one, so 2 / (D rho) bounds Euler's limit from above); None for a stencil the apps refuse."""
    taps = stencil_taps(stencil, dim)
    if taps is None:
        return None
    taps, derivative = taps
    scale = h ** -derivative
    m = 16
    best = 0.0
    for j in range(m ** dim):
        k = [2 * math.pi * ((j // m ** d) % m) / m for d in range(dim)]
        s = sum(w * cmath.exp(1j * sum(kd * od for kd, od in zip(k, o))) for o, w in taps)
        best = max(best, abs(s))
    return best * scale


def draw_gray_scott(rng, inp, dim, n, stencil, h):
    """Gray-Scott's physics, seed, run and output for `inp` (grid, stencil and walls drawn), on spacing h
    (None: the default lengths of 1, h <= 1). Rates of Pearson's map on a lattice (D 0.05-0.2 per cell,
    scaled by h^2; F 0.01-0.05, k 0.04-0.07, sometimes 0), a time step of at most 1/2 or 0.8 (the
    reaction's Euler limit is about 2/(F + k + 3)): the cfl is lowered until the diffusion's limit, from
    the stencil's spectral radius, allows no larger one, or a dt is given (refused above the limit)."""
    lattice = h is not None
    scale = h * h if lattice else 1.0
    du = float(f"{rng.uniform(0.05, 0.2):.3g}")
    dv = float(f"{du * rng.uniform(0.5, 1.0):.3g}")
    physics = {"Du": du * scale, "Dv": dv * scale,
               "feed": 0.0 if rng.random() < 0.05 else float(f"{rng.uniform(0.01, 0.05):.3g}"),
               "kill": 0.0 if rng.random() < 0.05 else float(f"{rng.uniform(0.04, 0.07):.3g}")}
    if rng.random() < 0.8:
        cfl = rng.choice([0.2, 0.36, 0.5, 0.9, 1.0])
        rho = spectral_radius(stencil, dim, h if lattice else 1.0)
        if rho:
            cap = rng.choice([0.5, 0.5, 0.8])  # the largest dt wanted
            most = cap * max(physics["Du"], physics["Dv"]) * rho / 2
            if most < cfl:
                cfl = max(float(f"{most * 0.999:.3g}"), 1e-4)
        physics["cfl"] = cfl
    else:
        physics["dt"] = rng.choice([0.1, 0.25, 0.5, 0.8] if lattice else [1e-4, 5e-4, 2e-3])
    inp["physics"] = physics

    lengths = inp["grid"].get("length", [1.0] * dim)
    init = {"type": "gaussian"}  # the only init it has (v's seed; u = 1)
    if rng.random() < 0.6:
        init["center"] = round(rng.uniform(0, min(lengths)), 3) if rng.random() < 0.3 else \
            [round(rng.uniform(0, L), 3) for L in lengths]
    if lattice or rng.random() < 0.7:  # the default width 0.1 is a point on a lattice
        init["width"] = rng.choice([1.0, 1.5, 2.0, 3.0]) * h if lattice else rng.choice([0.1, 0.2, 0.3])
    if rng.random() < 0.6:  # default 1
        init["amplitude"] = rng.choice([0.25, 0.5, 0.5])
    inp["init"] = init
    draw_run(rng, inp, n, rng.choice([["u", "v", "rank"], ["v"], ["u"]]),
             end_time=(0.5, 15.0) if lattice else (0.001, 0.02))
    return inp


def factorisations(r, dim):
    """Every ordered factorisation of r into `dim` factors."""
    if dim == 1:
        return [[r]]
    return [[f] + rest for f in range(1, r + 1) if r % f == 0 for rest in factorisations(r // f, dim - 1)]


def draw_grid(rng, ranks, n):
    """processes.dims for `ranks` ranks on n cells: left out, a factorisation (mostly one that fits the
    cells), or one with zeros for MPI_Dims_create to fill."""
    roll = rng.random()
    if roll < 0.3:
        return None
    facts = factorisations(ranks, len(n))
    fitting = [f for f in facts if all(p <= c for p, c in zip(f, n))]
    dims = list(rng.choice(fitting if fitting and rng.random() < 0.9 else facts))
    if roll > 0.8:
        for d in rng.sample(range(len(n)), rng.randint(1, len(n))):
            dims[d] = 0
        if not any(dims) and rng.random() < 0.5:
            return 0
    return dims


def operator_reach(app, inp):
    """Per dimension the cells the operator reaches (advect3d: the Laplacian's or the advection's)."""
    dim = len(inp["grid"]["n"])
    reach = stencil_reach(inp.get("stencil"), dim)
    if app == "advect3d":
        adv = inp["physics"]["advection"]
        a = ADVECTION_REACH.get((adv["scheme"], adv["order"]), 3)
        reach = [max(r, a if v else 0) for r, v in zip(reach, inp["physics"]["velocity"])]
    return reach


def draw_settings(rng, backends, ranks, n, reach):
    """The variant keys of one run on `ranks` ranks (dotted keys; a key left out keeps its default).
    k mostly one the grid can serve (k times the reach within the cells: docs/input.md)."""
    s = {}
    dims = draw_grid(rng, ranks, n)
    if dims is not None:
        s["processes.dims"] = dims
    deep = [k for k in (2, 3, 4) if all(k * r <= c for r, c in zip(reach, n))]
    ks = [1] + (deep if rng.random() < 0.85 else [2, 3, 4])
    for key, choices in (("comm.backend", backends + [None]),
                         ("halo.steps_per_exchange", ks + ["auto", None]),
                         ("halo.temporal_blocking", ["off", "auto", "tile", None]),
                         ("comm.overlap", [True, False, "auto", None]),
                         ("comm.allreduce", ["mpi", "ring", "ring_renamed", None])):
        value = rng.choice(choices)
        if value == "tile":
            value = {"tile_y": rng.randint(1, 8)}
        if value is not None:
            s[key] = value
    return s


def draw_ranks(rng, rank_counts, n):
    """A rank count, mostly one with at most as many ranks as cells."""
    cells = 1
    for c in n:
        cells *= c
    fitting = [r for r in rank_counts if r <= cells]
    return rng.choice(fitting if fitting and rng.random() < 0.9 else rank_counts)


def draw_variant(rng, app, inp, backends, rank_counts):
    """One variant: ranks, settings, environment, maybe a restart on another rank count."""
    n = inp["grid"]["n"]
    reach = operator_reach(app, inp)
    ranks = draw_ranks(rng, rank_counts, n)
    blocks_of_one = [d for d in range(len(n)) if 1 < n[d] <= max(rank_counts)]
    if blocks_of_one and rng.random() < 0.2:
        # One process per cell in some dimension: blocks of one cell.
        d = rng.choice(blocks_of_one)
        multiples = [r for r in rank_counts if r % n[d] == 0]
        if multiples:
            ranks = rng.choice(multiples)
            rest = rng.choice(factorisations(ranks // n[d], len(n) - 1))
            v_dims = rest[:d] + [n[d]] + rest[d:]
            variant = {"ranks": ranks, "set": draw_settings(rng, backends, ranks, n, reach)}
            variant["set"]["processes.dims"] = v_dims
            return finish_variant(rng, variant, inp, backends, rank_counts, reach)
    variant = {"ranks": ranks, "set": draw_settings(rng, backends, ranks, n, reach)}
    return finish_variant(rng, variant, inp, backends, rank_counts, reach)


def finish_variant(rng, variant, inp, backends, rank_counts, reach):
    # Only a run of 100 steps or more measures its auto choices (docs/input.md).
    if rng.random() < (0.5 if inp["run"].get("steps", 100) >= 100 else 0.1):
        variant["env"] = {"CARTEX_AUTO_TRY_ALL": "1"}
    if rng.random() < 0.25:
        run = inp["run"]
        steps = run.get("steps", 20)
        others = [r for r in rank_counts if r != variant["ranks"]] or rank_counts
        r2 = draw_ranks(rng, others, inp["grid"]["n"])
        restart = {"every": rng.randint(1, max(1, steps // 2)), "from": rng.randrange(4), "ranks": r2,
                   "set": draw_settings(rng, backends, r2, inp["grid"]["n"], reach)}
        restart["set"].setdefault("processes.dims", None)  # not the first run's grid
        variant["restart"] = restart
    return variant


def draw_case(seed, index, backends, rank_counts, apps=APPS):
    """Case `index` of `seed`: app (one of `apps`), input and variants, from a generator of its own."""
    rng = random.Random(f"cartex-campaign:{seed}:{index}")
    app = rng.choice(apps)
    inp = draw_problem(rng, app)
    variants = [draw_variant(rng, app, inp, backends[app], rank_counts) for _ in range(rng.randint(1, 3))]
    return app, inp, variants


# ---------------------------------------------------------------------------------------------------
# Running


def nested(dotted):
    """{"a.b": 1} -> {"a": {"b": 1}} (a JSON null removes a key when layered)."""
    out = {}
    for key, value in dotted.items():
        node = out
        *path, last = key.split(".")
        for part in path:
            node = node.setdefault(part, {})
        node[last] = value
    return out


def describe(variant):
    """A variant in one line."""
    if variant is None:
        return "the reference alone"
    keys = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in variant["set"].items())
    text = f"{variant['ranks']} rank(s) {keys}".rstrip()
    if variant.get("env"):
        text += " " + " ".join(f"{k}={v}" for k, v in variant["env"].items())
    r = variant.get("restart")
    if r:
        keys = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in r["set"].items())
        text += f"; restart (checkpoint_every {r['every']}, checkpoint #{r['from']}) on {r['ranks']} rank(s) {keys}"
    return text


class Outcome:
    """One run: state "ok" (value: the checksum), "refused" (value: the located line) or a failure kind
    (value: what happened)."""

    def __init__(self, state, value, command="", stdout=""):
        self.state, self.value, self.command, self.stdout = state, value, command, stdout

    def __repr__(self):
        return f"{self.state}: {self.value}"


class Runner:
    """Launches the apps (counting the runs) and judges cases."""

    def __init__(self, args, verbose=False):
        self.args = args
        self.verbose = verbose
        self.lock = threading.Lock()
        self.runs = 0
        self.restarts = [0, 0]  # restart runs launched, and those that gave the reference's checksum
        self.live = set()  # the mpiexec processes running, killed when the campaign is interrupted

    def launch(self, app, ranks, files, cwd, env=None, extra=(), quiet=False):
        """One mpiexec run of `app` in `cwd`; every rank's exit code, own stdout and stderr."""
        with self.lock:
            self.runs += 1
        rank_dir = tempfile.mkdtemp(prefix="ranks-", dir=cwd)
        cmd = mpi_command(self.args.mpiexec, ranks, self.args.apps[app], list(files) + list(extra), cwd,
                          per_rank_codes=True, output_dir=rank_dir)
        run_env = dict(os.environ)
        run_env.setdefault("OMPI_MCA_pml", "ob1")  # Open MPI's PML on one node; skips the MTL probes
        # A session directory of its own: jobs side by side race on a shared one (open-mpi/ompi#8510).
        run_env["OMPI_MCA_orte_tmpdir_base"] = tempfile.mkdtemp(prefix="s", dir=cwd)
        run_env.update(env or {})
        shown = " ".join(f"{k}={v}" for k, v in (env or {}).items()) + " " + shlex.join(
            [self.args.mpiexec, "-n", str(ranks), app] + list(files) + list(extra))
        # A session of its own: a hang is killed as a whole, and ^C reaches only this program.
        proc = subprocess.Popen(cmd, cwd=cwd, env=run_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True)
        with self.lock:
            self.live.add(proc.pid)
        try:
            out, err = proc.communicate(timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            kill_tree(proc.pid)
            proc.communicate()
            result = Outcome("hang", f"no exit within {self.args.timeout:g} s", shown.strip())
            if not quiet:
                self.show(result)
            return result
        finally:
            with self.lock:
                self.live.discard(proc.pid)
        out, err = out.decode(errors="backslashreplace"), err.decode(errors="backslashreplace")
        out, err = per_rank_output(self.args.mpiexec, rank_dir, ranks, err) or (out, err)
        codes = rank_codes(cwd)
        lines = own_lines(err)
        if len(codes) != ranks or any(c != codes[0] for c in codes) or codes[0] not in (0, 2):
            result = Outcome("exit", f"exit codes {codes} of {ranks} rank(s): {lines[-4:]}")
        elif codes[0] == 0:
            c = checksum(out)
            result = Outcome("ok", c) if c else Outcome("exit", f"exit 0 without a checksum line: {lines[-4:]}")
        elif len(lines) == 1 and LOCATED.match(lines[0]):
            result = Outcome("refused", lines[0])
        else:
            result = Outcome("unlocated", f"exit 2 without one located line: {lines[:5]}")
        result.command, result.stdout = shown.strip(), out
        if not quiet:
            self.show(result)
        return result

    def show(self, result):
        if self.verbose:
            print(f"  run: {result.command}\n    -> {result}", flush=True)

    def reference(self, app, inp, work):
        d = os.path.join(work, "reference")
        write_inputs(d, inp, {"reference.json": nested(REFERENCE)})
        return self.launch(app, 1, ["in.json", "reference.json"], d)

    def variant(self, app, inp, variant, ref, work, index, counts):
        """Runs one variant against the reference's outcome: None when it passes, else (kind, what).
        Documented-limit refusals are added to counts["variant"]."""
        d = os.path.join(work, f"variant-{index}")
        files = {"variant.json": nested(variant["set"])}
        r = variant.get("restart")
        if r:
            files["variant.json"] = nested(dict(variant["set"], **{"output.checkpoint_every": r["every"],
                                                                    "output.keep_checkpoints": 0}))
            files["restart.json"] = nested(r["set"])
        write_inputs(d, inp, files)
        env = variant.get("env")
        got = self.launch(app, variant["ranks"], ["in.json", "variant.json"], d, env)
        verdict = judge(ref, got, counts)
        if verdict is not None or got.state != "ok" or not r:
            return verdict
        points = sorted(glob.glob(os.path.join(d, "out", "checkpoint_[0-9][0-9][0-9][0-9][0-9][0-9].h5")))
        if not points:
            return "output", f"no checkpoint_NNNNNN.h5 in output.dir after a run with checkpoint_every {r['every']}"
        # A checkpoint before the last one, so the second run has steps to take (if there is one).
        before = points[:-1] or points
        point = os.path.relpath(before[r["from"] % len(before)], d)
        got = self.launch(app, r["ranks"], ["in.json", "variant.json", "restart.json"], d, env, ["--restart", point])
        verdict = judge(ref, got, counts)
        with self.lock:
            self.restarts[0] += 1
            self.restarts[1] += verdict is None and got.state == "ok"
        return None if verdict is None else (verdict[0], f"restart from {point}: {verdict[1]}")

    def case(self, app, inp, variants, counts):
        """Runs the reference and `variants` of one case in a new directory; returns the failures as
        [(variant index or None for the reference, kind, what)] and adds the refusals to counts."""
        work = tempfile.mkdtemp(prefix="case-", dir=self.args.work)
        try:
            ref = self.reference(app, inp, work)
            if ref.state not in ("ok", "refused"):
                return [(None, ref.state, f"reference: {ref.value}")]
            if ref.state == "refused":
                counts["reference"].append(refusal_class(ref.value))
            failures = []
            for i, v in enumerate(variants):
                verdict = self.variant(app, inp, v, ref, work, i, counts)
                if verdict:
                    failures.append((i, verdict[0], verdict[1]))
            return failures
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def failure_of(self, app, inp, variant):
        """The first failure (kind, what) of the reference and `variant`, or (None, None); for shrinking."""
        counts = {"reference": [], "variant": []}
        failures = self.case(app, inp, [variant] if variant else [], counts)
        return failures[0][1:] if failures else (None, None)


def judge(ref, got, counts):
    """A variant run against the reference: None (passes) or (kind, what)."""
    if got.state not in ("ok", "refused"):
        return got.state, got.value
    if got.state == "ok":
        if ref.state == "ok":
            return None if got.value == ref.value else ("checksum", f"checksum {got.value}, reference {ref.value}")
        return "refusal", f"runs (checksum {got.value}) what the reference refuses: {ref.value}"
    if ref.state == "refused" and got.value == ref.value:
        return None
    cls = limit_class(got.value)
    if cls:
        counts["variant"].append(cls)
        return None
    if ref.state == "refused":
        return "refusal", f"refused as {got.value!r}, the reference as {ref.value!r}"
    return "refusal", f"refused (no documented limit) while the reference runs: {got.value}"


def pretty(value, depth=0):
    """JSON with one key a line and lists of numbers on one line (readable kept cases and located lines)."""
    pad = " " * (depth + 1)
    if isinstance(value, dict) and value:
        items = [f"{pad}{json.dumps(k)}: {pretty(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    if isinstance(value, list) and any(isinstance(x, dict) for x in value):
        return "[\n" + ",\n".join(pad + pretty(x, depth + 1) for x in value) + "\n" + " " * depth + "]"
    return json.dumps(value, separators=(", ", ": "))


def write_inputs(d, inp, layers):
    """in.json (the problem) and the layers over it, one key a line, in d (the run's working directory:
    output.dir `out` is inside it, and a line naming it reads the same for every run)."""
    os.makedirs(d, exist_ok=True)
    inp = copy.deepcopy(inp)
    inp.setdefault("output", {})["dir"] = "out"
    for name, content in [("in.json", inp)] + list(layers.items()):
        with open(os.path.join(d, name), "w") as f:
            f.write(pretty(content) + "\n")


def kill_tree(pid):
    """SIGKILL to mpiexec's process group and every process below it (ranks may have groups of their own)."""
    below, todo = [], [pid]
    parents = {}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(stat.split("/")[2]))
        except (OSError, IndexError, ValueError):
            pass
    while todo:
        p = todo.pop()
        for child in parents.get(p, []):
            below.append(child)
            todo.append(child)
    try:
        os.killpg(pid, signal.SIGKILL)
    except OSError:
        pass
    for p in below:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


def list_backends(runner, app):
    """The backends `app --list-backends` prints, those marked unavailable left out (auto included)."""
    d = tempfile.mkdtemp(prefix="backends-", dir=runner.args.work)
    got = runner.launch(app, 1, [], d, extra=["--list-backends"], quiet=True)
    shutil.rmtree(d, ignore_errors=True)
    names = [m.group(1) for m in re.finditer(r"^([a-z0-9_]+) +(zero-copy|packed) +(overlaps|blocking) ", got.stdout, re.M)]
    if not names:
        sys.exit(f"campaign: {app} --list-backends lists no backend: {got}")
    return names


# ---------------------------------------------------------------------------------------------------
# Shrinking


def shrink_candidates(app, inp, variant):
    """Simpler versions of (input, variant): the variant's first, then fewer steps and optional keys (which
    most often keep a failure), then fewer cells, a simpler stencil, physics and walls."""
    out = []

    def edit_variant(fn):
        v = copy.deepcopy(variant)
        if fn(v) is not False:
            out.append((inp, v))

    def edit_input(fn):
        i = copy.deepcopy(inp)
        if fn(i) is not False:
            for section in [k for k, v in i.items() if v == {}]:  # an emptied section goes too
                del i[section]
            out.append((i, variant))

    if variant:
        if "restart" in variant:
            edit_variant(lambda v: v.pop("restart"))

            def restart_alone(v):  # the restart's own settings from step 0
                r = v.pop("restart")
                v["ranks"] = r["ranks"]
                v["set"] = {k: x for k, x in r["set"].items() if x is not None}
            edit_variant(restart_alone)
        if "env" in variant:
            edit_variant(lambda v: v.pop("env"))
        # Fewer ranks: any smaller count with MPI's own grid, or one process fewer in one dimension.
        for r in range(1, variant["ranks"]):
            def fewer(v, r=r):
                v["ranks"] = r
                v["set"].pop("processes.dims", None)
            edit_variant(fewer)
        dims = variant["set"].get("processes.dims")
        if isinstance(dims, list) and all(dims):
            for d in range(len(dims)):
                if dims[d] > 1:
                    def thinner(v, d=d):
                        v["set"]["processes.dims"][d] -= 1
                        product = 1
                        for p in v["set"]["processes.dims"]:
                            product *= p
                        v["ranks"] = product
                    edit_variant(thinner)
        for key, simple in REFERENCE.items():
            if variant["set"].get(key) != simple:
                edit_variant(lambda v, key=key, simple=simple: v["set"].__setitem__(key, simple))
        for key in ("comm.allreduce", "processes.dims"):
            if key in variant["set"]:
                edit_variant(lambda v, key=key: v["set"].pop(key))
        r = variant.get("restart")
        if r:
            for ranks in range(1, r["ranks"]):
                def fewer_restart(v, ranks=ranks):
                    v["restart"]["ranks"] = ranks
                    v["restart"]["set"]["processes.dims"] = None
                edit_variant(fewer_restart)
            for key, simple in REFERENCE.items():
                if r["set"].get(key) != simple:
                    edit_variant(lambda v, key=key, simple=simple: v["restart"]["set"].__setitem__(key, simple))
            if "comm.allreduce" in r["set"]:
                edit_variant(lambda v: v["restart"]["set"].pop("comm.allreduce"))

    run = inp["run"]
    if "end_time" in run:
        edit_input(lambda i: (i["run"].pop("end_time"), i["run"].__setitem__("steps", 10)))
    elif run.get("steps", 100) > 1:
        steps = run.get("steps", 100)
        for s in sorted({1, steps // 4, steps // 2, steps - 1} - {0, steps}):
            edit_input(lambda i, s=s: i["run"].__setitem__("steps", s))
            if variant and variant.get("restart"):
                v = copy.deepcopy(variant)
                v["restart"]["every"] = max(1, min(v["restart"]["every"], s // 2))
                i = copy.deepcopy(inp)
                i["run"]["steps"] = s
                out.append((i, v))
    for section, key in (("run", "progress_every"), ("grid", "length"), ("init", "center"), ("init", "width"),
                         ("init", "amplitude"), ("init", "modes"), ("init", "type"), ("stencil", "name"),
                         ("stencil", "derivative")):
        if isinstance(inp.get(section), dict) and key in inp[section]:
            edit_input(lambda i, s=section, k=key: i[s].pop(k))
    if inp.get("output"):
        edit_input(lambda i: i.pop("output"))
    if isinstance(inp["physics"].get("alpha"), dict):
        edit_input(lambda i: i["physics"].__setitem__("alpha", 1.0))
    if "dt" in inp["physics"]:
        edit_input(lambda i: (i["physics"].pop("dt"), i["physics"].__setitem__("cfl", 0.5)))
    if inp.get("init", {}).get("type") == "gaussian":
        edit_input(lambda i: i.pop("init"))
    n = inp["grid"]["n"]
    for d in range(len(n)):
        for m in sorted({n[d] // 2, n[d] - 1} - {0, n[d]}):
            def smaller(i, d=d, m=m):
                i["grid"]["n"][d] = m
                # Keep an equal spacing equal: the length shrinks with the cells.
                lengths = i["grid"].get("length")
                if isinstance(lengths, list):
                    lengths[d] = lengths[d] - (n[d] - m) * spacing_of(inp, d)
            edit_input(smaller)
    if "stencil" in inp:
        edit_input(lambda i: i.pop("stencil"))
        s = inp["stencil"]
        if isinstance(s, dict) and "offsets" in s and len(s["offsets"]) > 1:
            for q in range(len(s["offsets"])):
                def fewer_points(i, q=q):
                    del i["stencil"]["offsets"][q]
                    del i["stencil"]["weights"][q]
                edit_input(fewer_points)
    if app == "advect3d":
        for d, v in enumerate(inp["physics"]["velocity"]):
            if v != 0:
                edit_input(lambda i, d=d: i["physics"]["velocity"].__setitem__(d, 0))
        adv = inp["physics"]["advection"]
        if adv != {"scheme": "upwind", "order": 1}:
            edit_input(lambda i: i["physics"].__setitem__("advection", {"scheme": "upwind", "order": 1}))
    for axis, walls in (inp.get("boundary") or {}).items():
        d = AXES.index(axis)

        def periodic(i, d=d, axis=axis):
            p = i["grid"].get("periodic", True)
            p = list(p) if isinstance(p, list) else [p] * len(n)
            p[d] = True
            i["grid"]["periodic"] = p
            del i["boundary"][axis]
            if not i["boundary"]:
                del i["boundary"]
            i["grid"].pop("length", None)
        edit_input(periodic)
        if isinstance(walls, dict):
            for face in ("low", "high"):
                if walls[face] != {"dirichlet": 0}:
                    edit_input(lambda i, a=axis, f=face: i["boundary"][a].__setitem__(f, {"dirichlet": 0}))
    return out


def spacing_of(inp, d):
    """The grid spacing of dimension d of an input with a list grid.length (docs/boundaries.md)."""
    n, length = inp["grid"]["n"][d], inp["grid"]["length"][d]
    p = inp["grid"].get("periodic", True)
    if (p[d] if isinstance(p, list) else p):
        return length / n
    walls = (inp.get("boundary") or {}).get(AXES[d])
    if isinstance(walls, dict):
        return length / (n - 1 + offset_of(walls["low"]) + offset_of(walls["high"]))
    return length / (n + 1)


def shrink(runner, app, inp, variant, kind, what, deadline, limit=120):
    """Greedy shrinking: the first candidate that fails with the same kind becomes the case, until none
    does (or `limit` evaluations, or the deadline). Returns the case, its failure and the evaluations."""
    tried = set()
    evaluations = 0
    improved = True
    while improved and evaluations < limit and time.monotonic() < deadline:
        improved = False
        for cand_inp, cand_var in shrink_candidates(app, inp, variant):
            key = json.dumps([cand_inp, cand_var], sort_keys=True)
            if key in tried:
                continue
            tried.add(key)
            evaluations += 1
            got, got_what = runner.failure_of(app, cand_inp, cand_var)
            if got == kind:
                inp, variant, what, improved = cand_inp, cand_var, got_what, True
                break
            if evaluations >= limit or time.monotonic() >= deadline:
                break
    return inp, variant, what, evaluations


# ---------------------------------------------------------------------------------------------------
# The campaign


def parse_ranks(text):
    """--ranks: R means 1..R, a comma-separated list the rank counts themselves."""
    try:
        values = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected a rank count or a list of them, got {text!r}")
    return sorted(set(values)) if "," in text else list(range(1, values[0] + 1))


def commit_seed():
    """The seed of --seed commit: the first 8 hex digits of this tree's HEAD (the time without git)."""
    try:
        sha = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True,
                             timeout=30).stdout.strip()
        if re.fullmatch(r"[0-9a-f]{40}", sha):
            return int(sha[:8], 16), f"commit {sha[:12]}"
    except (OSError, subprocess.TimeoutExpired):
        pass
    return int(time.time()), "the time (no git commit)"


def tally(items):
    counts = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))) or "none"


def rerun_command(args, extra):
    """This program's command line with the seed fixed: what reruns the campaign or one case."""
    words = [sys.executable, os.path.abspath(__file__)]
    for app in APPS:
        if app in args.apps:
            words += [f"--{app}", args.apps[app]]
    if args.only != list(APPS):
        words += ["--apps", ",".join(args.only)]
    words += ["--mpiexec", args.mpiexec, "--ranks", args.ranks, "--timeout", f"{args.timeout:g}"]
    return shlex.join(words + extra)


def campaign(args, runner):
    backends = {app: list_backends(runner, app) for app in args.only}
    seed = args.seed_value
    print(f"campaign: seed {seed} (from {args.seed_source})", flush=True)
    count = args.count if args.count is not None else (None if args.budget else 100)
    if args.case is None:
        extra = ["--seed", str(seed)] + (["--count", str(count)] if count is not None else []) + \
            (["--budget", f"{args.budget:g}"] if args.budget else [])
        print(f"  rerun:    {rerun_command(args, extra)}")
    print(f"  one case: {rerun_command(args, ['--seed', str(seed), '--case', 'I'])}", flush=True)
    print(f"  apps: {', '.join(args.only)}; backends: {', '.join(backends[args.only[0]])}; ranks {args.ranks}",
          flush=True)

    start = time.monotonic()
    counts = {"reference": [], "variant": []}
    results = {}

    def one(index):
        app, inp, variants = draw_case(seed, index, backends, args.rank_counts, args.only)
        if runner.verbose:
            print(f"case {index}: {app}\n  input: {json.dumps(inp)}")
            for i, v in enumerate(variants):
                print(f"  variant {i}: {describe(v)}")
        local = {"reference": [], "variant": []}
        failures = runner.case(app, inp, variants, local)
        return index, app, inp, variants, failures, local

    indices = [args.case] if args.case is not None else None
    next_index = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        pending = set()

        def submit_more():
            nonlocal next_index
            while len(pending) < args.jobs:
                if indices is not None:
                    if next_index >= len(indices):
                        return
                    index = indices[next_index]
                else:
                    if count is not None and next_index >= count:
                        return
                    if args.budget and time.monotonic() - start > args.budget:
                        return
                    index = next_index
                next_index += 1
                pending.add(pool.submit(one, index))

        submit_more()
        while pending:
            done, _ = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                index, app, inp, variants, failures, local = future.result()
                results[index] = (app, inp, variants, failures)
                counts["reference"] += local["reference"]
                counts["variant"] += local["variant"]
                for vi, kind, what in failures:
                    where = "reference" if vi is None else f"variant {vi} ({describe(variants[vi])})"
                    print(f"FAIL case {index} {app} {kind}: {where}: {what}", flush=True)
            submit_more()
    elapsed = time.monotonic() - start

    failed = {i: r for i, r in results.items() if r[3]}
    kinds = [kind for r in failed.values() for _, kind, _ in r[3]]
    print(f"campaign: seed {seed}: {len(results)} case(s) in {elapsed:.0f} s, {runner.runs} run(s) "
          f"(jobs {args.jobs}, ranks {args.ranks}); {len(results) - len(failed)} passed, {len(failed)} failed")
    print(f"  cases by app: {tally(r[0] for r in results.values())}; restarts from a checkpoint: "
          f"{runner.restarts[0]} run(s), {runner.restarts[1]} on the reference's checksum")
    print(f"  reference refusals ({len(counts['reference'])}): {tally(counts['reference'])}")
    print(f"  variant refusals, documented limits ({len(counts['variant'])}): {tally(counts['variant'])}")
    print(f"  failures ({len(kinds)}): {tally(kinds)}", flush=True)
    if args.budget and args.case is None:  # the cases this budget reached, without the clock
        print(f"  rerun:    {rerun_command(args, ['--seed', str(seed), '--count', str(len(results))])}")
    if failed:
        keep_failures(args, runner, seed, failed)
    return 1 if failed else 0


# At most this many failures are shrunk per campaign (each takes up to 120 evaluations).
SHRINK_AT_MOST = 6


def signature(kind, what):
    """What tells failures apart for shrinking: the kind and the message, numbers and checksums blanked."""
    text = re.sub(r"^restart from \S+: ", "", what)
    first_line = re.search(r"\['(?:rank \d+: )?([^']*)'", text)  # of a run's stderr lines, the first
    text = first_line.group(1) if first_line else re.sub(r"[0-9a-f]{16}", "", text)
    return kind, re.sub(r"\d+", "N", text)[:100]


def keep_failures(args, runner, seed, failed):
    """Shrinks the first failure of each kind and message (at most SHRINK_AT_MOST) into --keep."""
    keep = args.keep or tempfile.mkdtemp(prefix="cartex-campaign-kept-")
    os.makedirs(keep, exist_ok=True)
    every = [(index, vi, kind, what) for index in sorted(failed) for vi, kind, what in failed[index][3]]
    first = {}
    for job in every:
        first.setdefault(signature(job[2], job[3]), job)
    jobs = list(first.values())[:SHRINK_AT_MOST]
    # A checksum or a hang says nothing of its cause: the free places go to those of other cases.
    for job in every:
        if job[2] in ("checksum", "hang") and len(jobs) < SHRINK_AT_MOST and job[0] not in [j[0] for j in jobs]:
            jobs.append(job)
    deadline = time.monotonic() + (args.budget or 600)
    print(f"shrinking {len(jobs)} failure(s) (the first of each kind and message, then checksums and hangs) for at "
          f"most {args.budget or 600:g} s into {keep}", flush=True)
    runner.verbose = False

    def one(job):
        index, vi, kind, what = job
        app, inp, variants, _ = failed[index]
        variant = None if vi is None else variants[vi]
        small_inp, small_var, small_what, evaluations = shrink(runner, app, inp, variant, kind, what, deadline)
        name = os.path.join(keep, f"seed{seed}-case{index}-{'reference' if vi is None else f'variant{vi}'}-{app}-{kind}.json")
        with open(name, "w") as f:
            f.write(pretty({"app": app, "input": small_inp, "variant": small_var,
                            "found": f"seed {seed} case {index}: {kind}: {small_what}"}) + "\n")
        return name, evaluations, small_var

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for name, evaluations, small_var in pool.map(one, jobs):
            print(f"  kept {name} ({evaluations} evaluation(s)): {describe(small_var)}", flush=True)


def replay(args, runner):
    """Runs every kept case: the reference and its variant must pass."""
    files = []
    for item in args.replay:
        files += sorted(glob.glob(os.path.join(item, "*.json"))) if os.path.isdir(item) else [item]
    if not files:
        print("campaign: --replay: no case files")
        return 1
    for path in files:
        with open(path) as f:
            app = json.load(f).get("app")
        if app not in args.apps:
            print(f"campaign: --replay: {path} runs {app}, and no --{app} PATH was given")
            return 2

    def one(path):
        with open(path) as f:
            case = json.load(f)
        counts = {"reference": [], "variant": []}
        variant = case.get("variant")
        return path, runner.case(case["app"], case["input"], [variant] if variant else [], counts)

    start = time.monotonic()
    bad = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for path, failures in pool.map(one, files):
            for _, kind, what in failures:
                print(f"FAIL {os.path.basename(path)}: {kind}: {what}", flush=True)
            bad += bool(failures)
            if not failures:
                print(f"ok   {os.path.basename(path)}", flush=True)
    print(f"campaign: replayed {len(files)} case(s) in {time.monotonic() - start:.0f} s, {runner.runs} run(s): "
          f"{len(files) - bad} passed, {bad} failed")
    return 1 if bad else 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    for app in APPS:
        p.add_argument(f"--{app}", help=f"path of {app} (needed when --apps draws it or a replayed case runs it)")
    p.add_argument("--apps", default=",".join(APPS), help=f"the apps cases are drawn for (default {','.join(APPS)})")
    p.add_argument("--mpiexec", default="mpiexec")
    p.add_argument("--count", type=int, help="cases (default 100, or until --budget ends)")
    p.add_argument("--seed", default="commit", help="an integer or `commit` (default)")
    p.add_argument("--budget", type=float, help="seconds after which no new case is drawn")
    p.add_argument("--ranks", default="8", help="R (1..R) or a list such as 1,2,4 (default 8)")
    p.add_argument("--jobs", type=int, default=2, help="cases side by side (default 2)")
    p.add_argument("--case", type=int, help="run case I of the seed alone, printing every run")
    p.add_argument("--replay", nargs="+", metavar="DIR_OR_FILE", help="run kept cases instead")
    p.add_argument("--keep", help="directory for the shrunk failures (default: a new temporary one)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per run (default 120)")
    args = p.parse_args()
    try:
        args.rank_counts = parse_ranks(args.ranks)
    except argparse.ArgumentTypeError as e:
        p.error(f"--ranks: {e}")
    if args.seed == "commit":
        args.seed_value, args.seed_source = commit_seed()
    elif re.fullmatch(r"\d+", args.seed):
        args.seed_value, args.seed_source = int(args.seed), "--seed"
    else:
        p.error(f"--seed: expected an integer or `commit`, got {args.seed!r}")
    if args.jobs < 1 or (args.count is not None and args.count < 0) or args.timeout <= 0:
        p.error("--jobs must be at least 1, --count not negative, --timeout positive")
    args.only = [a.strip() for a in args.apps.split(",") if a.strip()]
    unknown = [a for a in args.only if a not in APPS]
    if not args.only or unknown or len(set(args.only)) != len(args.only):
        p.error(f"--apps: expected a list of {', '.join(APPS)} without repeats, got {args.apps!r}")
    args.only = [a for a in APPS if a in args.only]  # one order, whatever the list's
    missing = [a for a in args.only if getattr(args, a) is None and not args.replay]
    if missing:
        p.error(f"--apps draws {', '.join(missing)}: give its path (--{missing[0]} PATH) or leave it out of --apps")
    # Every run happens in a directory of its own: the programs must not be relative to this one.
    args.apps = {app: os.path.abspath(getattr(args, app)) for app in APPS if getattr(args, app) is not None}
    args.mpiexec = shutil.which(args.mpiexec) or args.mpiexec
    args.work = tempfile.mkdtemp(prefix="cartex-campaign-")
    runner = Runner(args, verbose=args.case is not None)
    try:
        code = replay(args, runner) if args.replay else campaign(args, runner)
    finally:
        for pid in list(runner.live):
            kill_tree(pid)
        shutil.rmtree(args.work, ignore_errors=True)
    sys.exit(code)


if __name__ == "__main__":
    main()

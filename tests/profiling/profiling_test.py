#!/usr/bin/env python3
"""The run's phase structure as Kokkos Tools and the summary see it (docs/profiling.md). One case per ctest:

    profiling_test.py --heat3d PATH --wave3d PATH --mpiexec PATH --tool LIB CASE

kokkos_regions: heat3d and wave3d on 2 ranks with several halo backends, with tests/profiling's
  recording tool loaded through KOKKOS_PROFILE_LIBRARY (or --kokkos-tools-library): the profiling
  regions, how they nest, how often they are entered, and the labels of the kernels in them.
phase_table: the summary's phase table: every phase, min <= avg <= max, call counts, the phases
  within the step time, and the exchange share equal to the sum of the halo phases.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, set_args, summary_value, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None
STEPS = 10



def write_input(d, app):
    """A small run of `app` (heat3d: diffusivity, wave3d: speed) with diagnostics and output every 5 steps."""
    physics = "alpha" if os.path.basename(app).startswith("heat") else "speed"
    write(d, "in.yaml", f"""\
grid:
  n: [16, 12, 10]
physics:
  {physics}: 1.0
  cfl: 0.5
run:
  steps: {STEPS}
  progress_every: 5
output:
  dir: out
  every: 5
""")

HALO = ["cartex::halo::pack", "cartex::halo::post", "cartex::halo::test", "cartex::halo::wait", "cartex::halo::unpack"]
# Backends that copy the blocks a rank sends itself inside start, in a second unpack phase per exchange:
# the input is periodic and 2 ranks split it in z, so x and y are periodic dimensions of one process.
SELF_COPY = {"p2p", "p2p_persistent"}
STEP = "cartex::step"
# Every region path a run may show: a step holds the update and the halo phases; halo phases also run
# alone (exchanges before the loop: wave3d's start, overlap's calibration), and so does the update
# (wave3d's first level; overlap's calibration times blocking steps before the loop); diagnostics and output are entered by
# the time loop outside a step. No phase holds another region (halo test could hold an unpack that
# progress() completes; the packed runs below do not overlap, so it holds none here).
ALLOWED_PATHS = ({STEP, f"{STEP} > cartex::update", "cartex::update", "cartex::diagnostics", "cartex::output"}
                 | set(HALO) | {f"{STEP} > {h}" for h in HALO})
# Kernels each phase may launch (name prefixes).
PHASE_KERNELS = {
    "cartex::update": "cartex::kernels::",
    "cartex::halo::pack": "cartex::halo::gather",
    "cartex::halo::unpack": ("cartex::halo::scatter", "cartex::halo::self_copy"),
    "cartex::diagnostics": "cartex::diagnostics::",
}


def read_tool_output(path):
    """{"regions": {path: count}, "kernels": [(kind, count, name, path)], "errors": [...], "complete": bool}."""
    out = {"regions": {}, "kernels": [], "errors": [], "complete": False}
    for line in open(path).read().splitlines():
        f = line.split("\t")
        if f[0] == "region":
            out["regions"][f[2]] = int(f[1])
        elif f[0] == "kernel":
            out["kernels"].append((f[1], int(f[2]), f[3], f[4]))
        elif f[0] == "error":
            out["errors"].append(f[1])
        elif f[0] == "end":
            out["complete"] = True
    return out


# Who launched a kernel, told by its label (docs/profiling.md, "Kokkos' own kernels and cartex's"):
# - Kokkos' own: every label that starts with "Kokkos::", the prefix of every label Kokkos gives the
#   kernels it launches itself (3.4 and 4.x: "Kokkos::View::initialization [LABEL]", 4.x also
#   "... [LABEL] via memset", "Kokkos::View::destruction [LABEL]", deep_copy's "Kokkos::ViewFill-3D" and
#   "Kokkos::ViewCopy-3D", "Kokkos::Impl::host_space_deepcopy_double"). One naming a View must name a
#   labelled one (cartex labels every View it allocates).
# - cartex's: exactly the labels of docs/profiling.md's table, cartex::<part>::<what>. An unlabelled
#   kernel is neither: Kokkos names it after its functor type, mangled in 3.4 ("ZN6cartex4halo...") and
#   spelled out in 4.x ("cartex::halo::pack(...)::<lambda(long int)>", "cartex::halo::Gather<double, 3>"),
#   which the pattern below refuses (no "(", space or further "::" in <what>; fixed names elsewhere).
KOKKOS_VIEW_KERNEL = re.compile(r"Kokkos::View::(initialization|destruction) \[(.*)\]( via memset)?$")
CARTEX_KERNEL = re.compile(r"cartex::(kernels::[^\s():]+|halo::(gather|scatter|self_copy)|"
                           r"diagnostics::(sum|min|max|sine_error|checksum)|init::(sine|gaussian)|boundary::dirichlet|"
                           r"kernelbench::stream_(copy|scale|triad))$")
# The innermost region each of cartex's kernels runs in ("": outside every region: set-up, the checksum
# after the loop). A cartex kernel anywhere else is unaccounted for in the phase table.
CARTEX_KERNEL_PHASE = [
    ("cartex::kernels::", "cartex::update"),
    ("cartex::halo::gather", "cartex::halo::pack"),
    ("cartex::halo::scatter", "cartex::halo::unpack"),
    ("cartex::halo::self_copy", "cartex::halo::unpack"),
    ("cartex::diagnostics::checksum", ""),
    ("cartex::diagnostics::", "cartex::diagnostics"),
    ("cartex::init::", ""),
    ("cartex::boundary::", ""),
]


def kernel_owner(name):
    """"kokkos", "cartex", or None for a kernel without a cartex label (see above)."""
    if name.startswith("Kokkos::"):
        m = KOKKOS_VIEW_KERNEL.match(name)
        return None if m and m.group(2) == "" else "kokkos"
    return "cartex" if CARTEX_KERNEL.match(name) else None


def cartex_kernel_phase(name):
    return next(phase for prefix, phase in CARTEX_KERNEL_PHASE if name.startswith(prefix))


def run_with_tool(app, ranks, d, sets, how):
    """Runs `app` with the recording tool loaded `how` ("env" or "flag"); returns (stdout, per-rank records)."""
    prefix = os.path.join(d, "tool")
    env = {"CARTEX_TOOL_OUT": prefix}
    extra = []
    if how == "env":
        env["KOKKOS_PROFILE_LIBRARY"] = ARGS.tool
    else:
        extra = [f"--kokkos-tools-library={ARGS.tool}"]
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, app, ["in.yaml"] + set_args(sets) + extra, d, env=env)
    check(code == 0, f"{os.path.basename(app)} {sets} exited {code}: {err}")
    records = []
    for r in range(ranks):
        path = f"{prefix}.{r}.txt"
        if check(os.path.exists(path), f"{sets}: the tool wrote no {os.path.basename(path)} (was it loaded?)"):
            records.append(read_tool_output(path))
    return out, records


# (app, backend, extra --set values, how the tool is loaded). p2p on 2 ranks split along z sends whole
# planes (no gather kernel, docs/backends.md); split along y it packs.
REGION_RUNS = [
    ("heat3d", "p2p", [], "env"),
    ("heat3d", "mpi_neighbor_alltoallw", ["comm.overlap=true"], "flag"),
    ("heat3d", "cart_combining_packed", ["halo.steps_per_exchange=2", "halo.temporal_blocking=off"], "env"),
    ("heat3d", "p2p", ["halo.steps_per_exchange=2", "halo.temporal_blocking={tile_y: 4}", "processes.dims=[1,2,1]"], "env"),
    ("wave3d", "p2p", [], "env"),
    ("wave3d", "cart_combining_packed", [], "flag"),
]


def case_kokkos_regions():
    for app_name, backend, sets, how in REGION_RUNS:
        app = ARGS.heat3d if app_name == "heat3d" else ARGS.wave3d
        sets = [f"comm.backend={backend}"] + sets
        what = f"{app_name} {' '.join(sets)}"
        overlap = "comm.overlap=true" in sets
        k = 2 if "halo.steps_per_exchange=2" in sets else 1
        blocked = any(s.startswith("halo.temporal_blocking={") for s in sets)
        exchanges = STEPS // k
        with tempfile.TemporaryDirectory() as d:
            write_input(d, app)
            out, records = run_with_tool(app, 2, d, sets, how)
            check(summary_value(out, "phases") is not None, f"{what}: no phase table in the summary")
            for rank, rec in enumerate(records):
                w = f"{what}, rank {rank}"
                check(rec["complete"], f"{w}: tool output incomplete (finalize not reached)")
                check(rec["errors"] == [], f"{w}: tool saw {rec['errors']}")
                regions = rec["regions"]
                bad = sorted(set(regions) - ALLOWED_PATHS)
                check(not bad, f"{w}: unexpected region paths {bad}")
                check(regions.get(STEP) == STEPS, f"{w}: {STEP} entered {regions.get(STEP)} times, expected {STEPS}")
                updates = STEPS + (exchanges if overlap else 0)  # overlap: inner and rim on exchange steps
                if blocked:  # one update per pass: steps 1-2, 3-4, 5 (output after 5), 6, 7-8, 9-10
                    updates = 6
                check(regions.get(f"{STEP} > cartex::update") == updates,
                      f"{w}: update entered {regions.get(f'{STEP} > cartex::update')} times in steps, expected {updates}")
                check(regions.get(f"{STEP} > cartex::halo::wait") == exchanges,
                      f"{w}: halo wait entered {regions.get(f'{STEP} > cartex::halo::wait')} times in steps, expected {exchanges}")
                packed = backend != "mpi_neighbor_alltoallw"
                for h in ("cartex::halo::pack", "cartex::halo::unpack"):
                    n = regions.get(f"{STEP} > {h}", 0)
                    per_exchange = (1 if packed else 0) + (h.endswith("unpack") and backend in SELF_COPY)
                    check(n == exchanges * per_exchange, f"{w}: {h} entered {n} times in steps, expected {exchanges * per_exchange}")
                check(regions.get("cartex::diagnostics", 0) >= STEPS // 5, f"{w}: diagnostics entered {regions.get('cartex::diagnostics')} times")
                check(regions.get("cartex::output", 0) >= 2, f"{w}: output entered {regions.get('cartex::output')} times")
                for kind, count, name, path in rec["kernels"]:
                    owner = kernel_owner(name)
                    check(owner is not None, f"{w}: parallel_{kind} {name!r} ({count}x in '{path}') has no cartex label (or names an unlabelled View)")
                    if path.startswith(STEP):
                        check(owner == "cartex", f"{w}: parallel_{kind} {name!r} inside a step")
                    phase = path.split(" > ")[-1] if path else ""
                    if owner == "cartex":
                        check(phase == cartex_kernel_phase(name),
                              f"{w}: parallel_{kind} {name!r} ({count}x) in '{path}', expected it in "
                              f"'{cartex_kernel_phase(name) or 'no region'}'")
                    if phase in ("cartex::halo::post", "cartex::halo::wait", STEP):
                        check(False, f"{w}: parallel_{kind} {name!r} directly in {phase}, which launches none")
                    if phase in PHASE_KERNELS:
                        check(name.startswith(PHASE_KERNELS[phase]), f"{w}: parallel_{kind} {name!r} in {phase}")
                update_kernels = sum(c for _, c, n, p in rec["kernels"] if p == f"{STEP} > cartex::update")
                check(update_kernels == updates, f"{w}: {update_kernels} update kernels in steps, expected {updates}")
                if packed:
                    planes = backend == "p2p" and "processes.dims=[1,2,1]" not in sets
                    gathers = sum(c for _, c, n, p in rec["kernels"] if n == "cartex::halo::gather" and p.startswith(STEP))
                    check(gathers == (0 if planes else exchanges),
                          f"{w}: {gathers} halo gathers in steps, expected {0 if planes else exchanges}")
                # The update's label names the kernel the summary reports ("7pt (star<3,1,x|y|z> kernel)").
                m = re.search(r"^\s*grid\s.*\((\S+) kernel\)", out, re.M)
                if check(m is not None, f"{what}: no kernel in the summary's grid line"):
                    label = "cartex::kernels::" + m.group(1)
                    names = {n for _, _, n, p in rec["kernels"] if p == f"{STEP} > cartex::update"}
                    if blocked:
                        check(names == {label + "/blocked"}, f"{w}: update kernels {names}, expected {label}/blocked")
                    else:
                        check(names <= {label, label + "/region"} and names, f"{w}: update kernels {names}, expected {label}[/region]")


PHASES = ["update", "halo pack", "halo post", "halo test", "halo wait", "halo unpack", "diagnostics"]
ROW = re.compile(r"^    (update|halo pack|halo post|halo test|halo wait|halo unpack|diagnostics|other|step time|output)\s+"
                 r"(\S+)\s+(\S+)\s+(\S+)\s+(\S+)%\s+(\S+)", re.M)


def parse_table(out):
    """{row name: (min, avg, max, share %, calls or None)} from the summary's phase table."""
    rows = {}
    for m in ROW.finditer(out):
        calls = None if m.group(6) == "-" else m.group(6)
        rows[m.group(1)] = tuple(float(m.group(i)) for i in range(2, 6)) + (calls,)
    return rows


def check_table(what, out, updates, exchanges, posts, packed, self_copy):
    rows = parse_table(out)
    expected = PHASES + ["other", "step time", "output"]
    if not check(sorted(rows) == sorted(expected), f"{what}: table rows {sorted(rows)}"):
        return
    for name, (lo, avg, hi, share, calls) in rows.items():
        check(0 <= lo <= avg <= hi or name == "other" and lo <= avg <= hi, f"{what}: {name}: min {lo} avg {avg} max {hi}")
        check(-0.05 <= share <= 100.05 or name == "output", f"{what}: {name}: share {share}%")
    calls = {n: rows[n][4] for n in PHASES + ["output"]}
    expect = {"update": updates, "halo pack": exchanges if packed else 0, "halo post": posts, "halo wait": exchanges,
              "halo unpack": exchanges * ((1 if packed else 0) + self_copy), "diagnostics": STEPS // 5, "output": 2}
    for n, c in expect.items():
        check(calls[n] == str(c), f"{what}: {n} called {calls[n]} times per rank, expected {c}")
    # progress() between the inner chunks: at least once per exchange with overlap (one chunk or more), never without.
    overlap = "comm.overlap=true" in what
    check(calls["halo test"] is not None and (int(calls["halo test"].split("-")[0]) >= exchanges if overlap else calls["halo test"] == "0"),
          f"{what}: halo test called {calls['halo test']} times per rank")
    # The phases lie within the step time on every rank: nothing is left negative for "other".
    check(rows["other"][0] >= -1e-6, f"{what}: phases exceed the step time by {-rows['other'][0]} s on some rank")
    in_step = sum(rows[n][1] for n in PHASES) + rows["other"][1]
    check(abs(in_step - rows["step time"][1]) <= 1e-3 * rows["step time"][1] + 1e-8,
          f"{what}: phases + other = {in_step} s, step time {rows['step time'][1]} s")
    shares = sum(rows[n][3] for n in PHASES) + rows["other"][3]
    check(abs(shares - 100.0) <= 0.5, f"{what}: shares add up to {shares}%")
    m = re.search(r"^\s*exchange share\s+min (\S+)%\s+avg (\S+)%\s+max (\S+)%", out, re.M)
    if check(m is not None, f"{what}: no exchange share line"):
        halo = sum(rows[n][3] for n in PHASES if n.startswith("halo"))
        check(abs(halo - float(m.group(2))) <= 0.3, f"{what}: halo phases {halo:.2f}% but exchange share avg {m.group(2)}%")
    ms = float(summary_value(out, "time/step"))
    check(abs(1e3 * rows["step time"][2] / STEPS - ms) <= 0.01 * ms + 1e-3,
          f"{what}: step time max {rows['step time'][2]} s over {STEPS} steps vs time/step {ms} ms")


def case_phase_table():
    # (app, sets, update calls, exchanges, post calls per rank, packed): p2p posts its receives and its
    # sends apart (and unpacks twice: its self blocks in start); overlap updates the inner cells and
    # the rim apart; the combining plan posts once.
    runs = [
        (ARGS.heat3d, ["comm.backend=p2p"], STEPS, STEPS, 2 * STEPS, True),
        (ARGS.heat3d, ["comm.backend=p2p", "halo.steps_per_exchange=2", "halo.temporal_blocking=off"], STEPS, STEPS // 2,
         STEPS, True),
        # Temporal blocking: one update per pass (1-2, 3-4, 5 with output after it, 6, 7-8, 9-10).
        (ARGS.heat3d, ["comm.backend=p2p", "halo.steps_per_exchange=2", "halo.temporal_blocking={tile_y: 4}"], 6,
         STEPS // 2, STEPS, True),
        (ARGS.heat3d, ["comm.backend=mpi_neighbor_alltoallw", "comm.overlap=true"], 2 * STEPS, STEPS, STEPS, False),
        (ARGS.wave3d, ["comm.backend=cart_combining_packed"], STEPS, STEPS, STEPS, True),
    ]
    for app, sets, updates, exchanges, posts, packed in runs:
        with tempfile.TemporaryDirectory() as d:
            write_input(d, app)
            code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, 2, app, ["in.yaml"] + set_args(sets), d)
            what = f"{os.path.basename(app)} {' '.join(sets)}"
            if check(code == 0, f"{what} exited {code}: {err}"):
                check_table(what, out, updates, exchanges, posts, packed, any(f"comm.backend={b}" in sets for b in SELF_COPY))


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d', 'tool'])

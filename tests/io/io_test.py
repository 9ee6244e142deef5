#!/usr/bin/env python3
"""End-to-end tests of heat3d's parallel HDF5 output, XDMF index, checkpoint/restart (also from
version-1 checkpoints, and refused across heat3d and wave3d) and the scripts/h5slice.py, h5diff.py
and plot_history.py tools. One case per ctest:

    io_test.py --heat3d PATH --wave3d PATH --mpiexec PATH --scripts DIR CASE

Runs under a Python with numpy, h5py and matplotlib (tests/io/CMakeLists.txt finds one).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import h5py
import matplotlib

matplotlib.use("Agg")
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, own_lines, png_is_nontrivial, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None

BASE = cartex_testing.BASE_INPUT

# The same grid for wave3d (physics.speed, not alpha).
WAVE = BASE.replace("alpha: 1.0", "speed: 1.0")

# A 3D case with walls, Dirichlet values and a gaussian: restart must restore more than a sine.
WALLS = ["grid.n=[11,9,12]", "grid.periodic=[false,true,false]", "boundary.x=[1.0,0.5]", "boundary.z=[0.0,0.25]",
         "init.type=gaussian", "init.width=0.2"]


def run(ranks, args, cwd, per_rank_codes=False, env=None, program=None):
    """Runs heat3d (or `program`) on `ranks` ranks; see cartex_testing.mpirun."""
    return cartex_testing.mpirun(ARGS.mpiexec, ranks, program or ARGS.heat3d, args, cwd, per_rank_codes, env)


def heat(ranks, d, sets, extra=(), env=None):
    args = ["in.yaml"] + set_args(sets) + list(extra)
    code, out, err, _ = run(ranks, args, d, env=env)
    check(code == 0, f"heat3d {' '.join(args)} on {ranks} ranks exited {code}: {err}")
    return out


def script(name, *args):
    """Runs scripts/NAME with this interpreter; returns (exit code, stdout, stderr)."""
    p = subprocess.run([sys.executable, os.path.join(ARGS.scripts, name)] + list(args), capture_output=True, text=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def positions(n, length, periodic):
    """Cell positions along one dimension (docs/input.md)."""
    h = length / n if periodic else length / (n + 1)
    return np.arange(n) * h if periodic else (np.arange(n) + 1) * h


def check_checksummed_format(path):
    """A file cartex wrote is in the HDF5 1.8 format (superblock version 2 or later, so checksummed
    headers) and keeps nothing in the global heap (no "GCOL" collection: it has no checksum, and HDF5
    1.10 crashes reading a damaged one): its string attributes are fixed-length UTF-8."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89HDF\r\n\x1a\n" and data[8] >= 2, f"{path}: superblock version {data[8]}, expected 2 or later")
    check(b"GCOL" not in data, f"{path}: the file has a global heap collection")
    with h5py.File(path, "r") as f:
        objects = [f] + [f[name] for name in f]
        for obj in objects:
            for name in obj.attrs:
                info = h5py.check_string_dtype(obj.attrs.get_id(name).dtype)
                if info is not None:
                    check(info.length is not None and info.encoding == "utf-8",
                          f"{path}: attribute {obj.name}:{name} is {info}, expected a fixed-length UTF-8 string")


def case_fields_xdmf():
    """Field files hold the global array in (z, y, x) order, each rank's block in its place; the XDMF
    index parses and references existing datasets of the right shape; every file carries provenance."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        out = heat(2, d, ["output.every=8", "output.fields=[u,rank]", "output.dir=res", "processes.dims=[1,1,2]"])
        res = os.path.join(d, "res")
        names = sorted(os.listdir(res))
        check(names == ["fields.xmf", "fields_000000.h5", "fields_000008.h5", "fields_000016.h5", "fields_000020.h5"],
              f"output files {names}")
        m = re.search(r"^  output +4 field files, 0 checkpoints, ([\d.]+) MB in ([\d.]+) s \((\d+) MB/s\)", out, re.M)
        check(m is not None, f"no output line with MB/s in the summary:\n{out}")
        if m:
            check(abs(float(m.group(1)) - 4 * 12 * 10 * 8 * 12 / 1e6) < 0.051, f"output MB {m.group(1)}")

        root = ET.parse(os.path.join(res, "fields.xmf")).getroot()
        check(root.tag == "Xdmf", f"XDMF root element {root.tag}")
        grids = root.findall("./Domain/Grid/Grid")
        check([g.get("Name") for g in grids] == ["step 0", "step 8", "step 16", "step 20"], "XDMF steps")
        times = [float(g.find("Time").get("Value")) for g in grids]
        items = root.findall(".//Attribute/DataItem")
        check(len(items) == 8, f"XDMF references {len(items)} datasets, expected 8 (u and rank in 4 files)")
        for item in items:
            file, dset = item.text.strip().split(":")
            shape = tuple(int(x) for x in item.get("Dimensions").split())
            path = os.path.join(res, file)
            if check(os.path.exists(path), f"XDMF references missing file {file}"):
                with h5py.File(path, "r") as f:
                    if check(dset.lstrip("/") in f, f"XDMF references missing dataset {file}:{dset}"):
                        check(f[dset].shape == shape, f"{file}:{dset} shape {f[dset].shape}, XDMF says {shape}")
        topo = root.find(".//Topology")
        check(topo.get("Dimensions") == "8 10 12", f"XDMF topology dimensions {topo.get('Dimensions')}")

        with h5py.File(os.path.join(res, "fields_000000.h5"), "r") as f:
            u, rank = f["u"][()], f["rank"][()]
            check(u.shape == (8, 10, 12) and u.dtype == np.float64, f"u shape {u.shape} {u.dtype}")
            # The initial sine mode at the cell positions: any misplaced block shows up here.
            x, y, z = (positions(n, 1.0, True) for n in (12, 10, 8))
            exact = np.sin(2 * np.pi * z)[:, None, None] * np.sin(2 * np.pi * y)[None, :, None] * np.sin(2 * np.pi * x)[None, None, :]
            check(np.max(np.abs(u - exact)) < 1e-14, f"u at step 0 differs from the sine by {np.max(np.abs(u - exact))}")
            check((rank[:4] == 0).all() and (rank[4:] == 1).all(), f"rank field is not the z split 0|1: {rank[:, 0, 0]}")
            a = f.attrs
            check(a["step"] == 0 and a["time"] == 0.0, "step/time attributes")
            check(list(a["spacing"]) == [1 / 12, 1 / 10, 1 / 8] and list(a["origin"]) == [0, 0, 0], "spacing/origin")
            check(a["dimension_order"].decode() == "z,y,x" and f["u"].attrs["dimension_order"].decode() == "z,y,x", "dimension order")
            check(list(a["process_grid"]) == [1, 1, 2] and a["ranks"] == 2, f"process grid {a['process_grid']}")
            check(a["backend"].decode() == "p2p", "backend attribute")
            check(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", a["start_time"].decode()) is not None, f"start time {a['start_time']}")
            check(re.fullmatch(r"\d+\.\d+\.\d+", a["cartex_version"].decode()) is not None, "cartex_version")
            check(a["git_commit"].decode() != "", "git_commit")
            text = a["input_yaml"].decode()
            check("n: [12, 10, 8]" in text and "every: 8" in text and "fields: [u, rank]" in text and "  dt: " in text,
                  f"input_yaml is not the resolved input:\n{text}")
            dt = float(re.search(r"^  dt: (\S+)$", text, re.M).group(1))
        check_checksummed_format(os.path.join(res, "fields_000020.h5"))
        with h5py.File(os.path.join(res, "fields_000020.h5"), "r") as f:
            check(f.attrs["step"] == 20 and f.attrs["time"] == 20 * dt, "last step attributes")
        check(times == [s * dt for s in (0, 8, 16, 20)], f"XDMF times {times}")
        check(not [n for n in names if n.endswith(".tmp")], "a .tmp file was left behind")


def case_fields_2d():
    """A 2D run writes (1, ny, nx) arrays with the same values on 1 and 3 ranks."""
    files = []
    for ranks in (1, 3):
        d = tempfile.mkdtemp()
        write(d, "in.yaml", BASE)
        heat(ranks, d, ["grid.n=[14,9]", "grid.periodic=[true,false]", "init.type=gaussian", "output.every=20"])
        files.append(os.path.join(d, "output", "fields_000020.h5"))
    with h5py.File(files[0], "r") as f:
        check(f["u"].shape == (1, 9, 14), f"2D field shape {f['u'].shape}")
    code, out, err = script("h5diff.py", files[0], files[1])
    check(code == 0 and "u: max abs 0.000000e+00" in out, f"2D fields on 1 and 3 ranks differ:\n{out}{err}")
    for f in files:
        shutil.rmtree(os.path.dirname(os.path.dirname(f)))


def case_restart_bitwise():
    """Checkpoint on 2 ranks, restart on 2, 3 and 4: the final field is bitwise that of the run without
    a restart; on the same rank count the history is the same too. keep_checkpoints keeps the newest."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        common = WALLS + ["output.every=20", "output.history=true"]
        full = heat(2, d, common + ["output.dir=full", "output.checkpoint_every=5", "output.keep_checkpoints=2"])
        ref = checksum(full)
        kept = sorted(n for n in os.listdir(os.path.join(d, "full")) if n.startswith("checkpoint_"))
        check(kept == ["checkpoint_000015.h5", "checkpoint_000015.xmf", "checkpoint_000020.h5", "checkpoint_000020.xmf"],
              f"kept checkpoints (and their XDMF) {kept}")
        first = heat(2, d, common + ["output.dir=first", "output.checkpoint_every=10", "run.steps=10"])
        check(checksum(first) is not None, "first half printed no checksum")
        ck = os.path.join("first", "checkpoint_000010.h5")
        check_checksummed_format(os.path.join(d, ck))
        with h5py.File(os.path.join(d, ck), "r") as f:
            check(f.attrs["kind"].decode() == "cartex checkpoint" and f.attrs["step"] == 10, "checkpoint attributes")
            check(f.attrs["layout_version"] == 2 and f.attrs["equation"].decode() == "heat" and f.attrs["fields"].decode() == "u",
                  f"checkpoint layout {f.attrs['layout_version']}, equation {f.attrs['equation']!r}, fields {f.attrs['fields']!r}")
            check(sorted(f) == ["history", "u"], f"checkpoint datasets {sorted(f)}")
            check(list(f["history"].attrs["columns"].decode().split(","))[:2] == ["step", "time"], "history columns")
        for ranks in (2, 3, 4):
            out = heat(ranks, d, common + [f"output.dir=re{ranks}"], ["--restart", ck])
            check(checksum(out) == ref, f"restart on {ranks} ranks: checksum {checksum(out)}, uninterrupted {ref}")
            code, text, err = script("h5diff.py", os.path.join(d, "full", "fields_000020.h5"),
                                     os.path.join(d, f"re{ranks}", "fields_000020.h5"))
            check(code == 0, f"restart on {ranks} ranks: final fields differ from the uninterrupted run:\n{text}{err}")
            with h5py.File(os.path.join(d, f"re{ranks}", "fields_000020.h5"), "r") as f:
                check(f.attrs["restart_from"].decode() == ck, f"restart_from attribute {f.attrs['restart_from']!r}")
        full_hist = open(os.path.join(d, "full", "history.csv")).read()
        re_hist = open(os.path.join(d, "re2", "history.csv")).read()
        check(full_hist == re_hist, f"history after restart on 2 ranks differs:\n{full_hist}\n---\n{re_hist}")
        check(len(full_hist.splitlines()) == 6, f"history rows:\n{full_hist}")


def case_abort_mid_write():
    """A run killed while writing a checkpoint leaves only NAME.tmp; the previous checkpoint is intact
    and restarts to the uninterrupted result; the partial file is refused with exit code 2."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        sets = WALLS + ["output.checkpoint_every=5", "output.keep_checkpoints=0"]
        ref = checksum(heat(2, d, sets + ["output.dir=full"]))
        env = dict(os.environ, CARTEX_IO_TEST_ABORT="checkpoint_000015.h5")
        code, out, err, _ = run(2, ["in.yaml", "--set", "output.dir=crash"] + set_args(sets), d,
                                env=env)
        check(code != 0, f"the injected abort did not end the run (exit {code})")
        check("aborting while writing crash/checkpoint_000015.h5.tmp" in err, f"abort message missing:\n{err}")
        names = sorted(os.listdir(os.path.join(d, "crash")))
        check(names == ["checkpoint_000005.h5", "checkpoint_000005.xmf", "checkpoint_000010.h5", "checkpoint_000010.xmf",
                        "checkpoint_000015.h5.tmp"], f"after the abort: {names}")
        out = heat(3, d, sets + ["output.dir=resumed"], ["--restart", "crash/checkpoint_000010.h5"])
        check(checksum(out) == ref, f"restart from the surviving checkpoint: {checksum(out)}, expected {ref}")
        args = ["in.yaml", "--restart", "crash/checkpoint_000015.h5.tmp", "--set", "output.dir=bad"]
        code, out, err, codes = run(2, args, d, per_rank_codes=True)
        lines = own_lines(err)
        check(codes == [2, 2], f"restart from the partial file: per-rank codes {codes}")
        check(len(lines) == 1 and lines[0].startswith("--restart crash/checkpoint_000015.h5.tmp: "),
              f"restart from the partial file: stderr {lines}")


def bad_restart_cases(d):
    """(name, restart file, extra --set, expected stderr line): each file is prepared in `d`."""
    write(d, "in.yaml", BASE.replace("[12, 10, 8]", "[12, 12, 12]"))
    heat(2, d, ["output.dir=ck", "output.checkpoint_every=10", "output.every=10"])
    ck = "ck/checkpoint_000010.h5"
    write(d, "text.h5", "grid:\n  n: [1, 2, 3]\n")
    shutil.copy(os.path.join(d, ck), os.path.join(d, "truncated.h5"))
    size = os.path.getsize(os.path.join(d, "truncated.h5"))
    os.truncate(os.path.join(d, "truncated.h5"), size // 2)
    shutil.copy(os.path.join(d, ck), os.path.join(d, "v3.h5"))
    with h5py.File(os.path.join(d, "v3.h5"), "r+") as f:
        f.attrs.modify("layout_version", 3)
    return [
        ("missing file", "nope.h5", [], "--restart nope.h5: no such file"),
        ("not HDF5", "text.h5", [], "--restart text.h5: not an HDF5 file"),
        ("truncated", "truncated.h5", [], "--restart truncated.h5: cannot open the HDF5 file (truncated or damaged)"),
        ("grid mismatch", ck, ["grid.n=[12,12,9]"],
         f"--restart {ck}: grid mismatch: the checkpoint has 12x12x12 cells, the input's grid.n is 12x12x9"),
        ("2D input", ck, ["grid.n=[12,12]"],
         f"--restart {ck}: grid mismatch: the checkpoint has 12x12x12 cells, the input's grid.n is 12x12"),
        ("length mismatch", ck, ["grid.length=[1,1,2]"],
         f"--restart {ck}: grid mismatch: the checkpoint has grid.length [1, 1, 1], the input has [1, 1, 2]"),
        ("periodicity mismatch", ck, ["grid.periodic=[true,true,false]"],
         f"--restart {ck}: grid mismatch: the checkpoint has grid.periodic [1, 1, 1], the input has [1, 1, 0] (1 = periodic)"),
        ("stencil mismatch", ck, ["stencil=27pt"],
         f"--restart {ck}: stencil mismatch: the checkpoint was written with stencil 7pt, the input has 27pt"),
        ("dt mismatch", ck, ["physics.cfl=0.25"],
         re.compile(re.escape(f"--restart {ck}: time step mismatch: the checkpoint has dt ") + r"[\d.e-]+, the input's resolved dt is [\d.e-]+")),
        ("layout version", "v3.h5", [], "--restart v3.h5: checkpoint layout version 3, but this cartex reads versions 1 and 2"),
        ("field file", "ck/fields_000010.h5", [],
         "--restart ck/fields_000010.h5: not a cartex checkpoint (no attribute kind = \"cartex checkpoint\")"),
        ("past the end", ck, ["run.steps=5"], f"--restart {ck}: the checkpoint is at step 10, past the input's run.steps = 5"),
    ]


def case_bad_restart():
    """Every bad restart gives one line on stderr, exit code 2 on every rank and no output directory."""
    with tempfile.TemporaryDirectory() as d:
        cases = bad_restart_cases(d)
        for i, (name, path, sets, expected) in enumerate(cases):
            ranks = 2 + i % 2
            args = ["in.yaml", "--restart", path, "--set", "output.dir=bad", "--set", "output.every=1"]
            args += set_args(sets)
            code, out, err, codes = run(ranks, args, d, per_rank_codes=True)
            check(codes == [2] * ranks, f"{name}: per-rank exit codes {codes}, expected {[2] * ranks}")
            lines = own_lines(err)
            if isinstance(expected, re.Pattern):
                check(len(lines) == 1 and expected.fullmatch(lines[0]) is not None, f"{name}: stderr {lines}")
            else:
                check(lines == [expected], f"{name}: stderr\n  {lines}\nexpected\n  [{expected!r}]")
            check(out.strip() == "", f"{name}: unexpected stdout {out!r}")
            check(not os.path.exists(os.path.join(d, "bad")), f"{name}: output directory was created")


def make_version1(src, dst):
    """Copies checkpoint `src` to `dst` as layout version 1 wrote it: no equation, no field list."""
    shutil.copy(src, dst)
    with h5py.File(dst, "r+") as f:
        del f.attrs["equation"]
        del f.attrs["fields"]
        f.attrs.modify("layout_version", 1)


def case_checkpoint_v1():
    """A version-1 checkpoint (one field u, no equation attribute) still restarts heat3d bitwise;
    wave3d refuses it as a heat checkpoint."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        ref = checksum(heat(2, d, WALLS + ["output.dir=full"]))
        heat(2, d, WALLS + ["output.dir=first", "output.checkpoint_every=10", "run.steps=10"])
        make_version1(os.path.join(d, "first", "checkpoint_000010.h5"), os.path.join(d, "v1.h5"))
        out = heat(3, d, WALLS + ["output.dir=re"], ["--restart", "v1.h5"])
        check(checksum(out) == ref, f"restart from version 1 on 3 ranks: checksum {checksum(out)}, uninterrupted {ref}")
        write(d, "wave.yaml", WAVE)
        code, out, err, codes = run(2, ["wave.yaml", "--restart", "v1.h5", "--set", "output.dir=bad"], d,
                                    per_rank_codes=True, program=ARGS.wave3d)
        expected = ("--restart v1.h5: equation mismatch: the checkpoint was written by a heat run (equation heat), "
                    "but this run is wave (equation wave)")
        check(codes == [2, 2] and own_lines(err) == [expected],
              f"wave3d from a version-1 checkpoint: codes {codes}, stderr {err!r}")


def case_equation_mismatch():
    """heat3d refuses a wave3d checkpoint and wave3d a heat3d one: one line, exit 2 on every rank."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        write(d, "wave.yaml", WAVE)
        heat(2, d, ["output.dir=heat", "output.checkpoint_every=10"])
        code, out, err, _ = run(2, ["wave.yaml", "--set", "output.dir=wave", "--set", "output.checkpoint_every=10"], d,
                                program=ARGS.wave3d)
        check(code == 0, f"wave3d exited {code}: {err}")
        with h5py.File(os.path.join(d, "wave", "checkpoint_000010.h5"), "r") as f:
            check(f.attrs["equation"].decode() == "wave", f"wave3d checkpoint equation {f.attrs['equation']!r}")
        for program, inp, ck, this, other in [(ARGS.wave3d, "wave.yaml", "heat/checkpoint_000010.h5", "wave", "heat"),
                                              (ARGS.heat3d, "in.yaml", "wave/checkpoint_000010.h5", "heat", "wave")]:
            for ranks in (2, 3):
                code, out, err, codes = run(ranks, [inp, "--restart", ck, "--set", "output.dir=bad"], d,
                                            per_rank_codes=True, program=program)
                expected = (f"--restart {ck}: equation mismatch: the checkpoint was written by a {other} run "
                            f"(equation {other}), but this run is {this} (equation {this})")
                lines = own_lines(err)
                check(codes == [2] * ranks, f"{this} run from a {other} checkpoint on {ranks} ranks: codes {codes}")
                check(lines == [expected], f"{this} run from a {other} checkpoint: stderr\n  {lines}\nexpected\n  [{expected!r}]")
                check(out.strip() == "" and not os.path.exists(os.path.join(d, "bad")), f"{this} run wrote output")


def case_bad_keys():
    """Bad output.* keys are located input errors (exit 2 on every rank, nothing written)."""
    cases = [
        ("output.every=-1", "--set output.every=-1: output.every: expected a non-negative integer, got -1"),
        ("output.fields=[v]", '--set output.fields=[v]: output.fields: unknown field "v" (expected one of: u, rank)'),
        ("output.fields=[u,u]", '--set output.fields=[u,u]: output.fields: field "u" is listed twice'),
        ("output.fields=[]", "--set output.fields=[]: output.fields: expected a non-empty list of field names (from: u, rank)"),
        ("output.checkpoint_every=x",
         '--set output.checkpoint_every=x: output.checkpoint_every: expected a non-negative integer '
         '(steps between checkpoints, 0 = none), got "x"'),
        ("output.keep_checkpoints=-2", "--set output.keep_checkpoints=-2: output.keep_checkpoints: expected a non-negative integer, got -2"),
    ]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        for setting, expected in cases:
            code, out, err, codes = run(2, ["in.yaml", "--set", setting], d, per_rank_codes=True)
            check(codes == [2, 2], f"{setting}: per-rank exit codes {codes}")
            lines = own_lines(err)
            check(lines == [expected], f"{setting}: stderr\n  {lines}\nexpected\n  [{expected!r}]")
            check(not os.path.exists(os.path.join(d, "output")), f"{setting}: output directory was created")


def case_scripts():
    """h5slice.py, plot_history.py and h5diff.py on a small real output."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE)
        heat(2, d, ["init.type=gaussian", "output.every=10", "output.fields=[u,rank]", "output.history=true",
                    "output.checkpoint_every=20"])
        out = os.path.join(d, "output")
        f10, f20 = os.path.join(out, "fields_000010.h5"), os.path.join(out, "fields_000020.h5")
        for args, png in [([f10], "z.png"), ([f10, "--axis", "x", "--index", "3"], "x.png"),
                          ([f20, "--field", "rank", "--axis", "y"], "rank.png")]:
            code, text, err = script("h5slice.py", *args, "-o", os.path.join(d, png))
            check(code == 0, f"h5slice.py {args}: exit {code}: {err}")
            png_is_nontrivial(os.path.join(d, png), f"h5slice.py {args}")
        code, text, err = script("h5slice.py", f10, "--field", "w", "-o", os.path.join(d, "w.png"))
        check(code == 2 and "no 3D field 'w' (fields: rank, u)" in err, f"h5slice.py unknown field: {code} {err}")
        code, text, err = script("h5slice.py", f10, "--index", "99", "-o", os.path.join(d, "w.png"))
        check(code == 2 and "outside 0..7" in err, f"h5slice.py bad index: {code} {err}")

        for src, png in [(os.path.join(out, "history.csv"), "hist_csv.png"), (os.path.join(out, "checkpoint_000020.h5"), "hist_h5.png")]:
            code, text, err = script("plot_history.py", src, "-o", os.path.join(d, png))
            check(code == 0 and "(5 records)" in text, f"plot_history.py {src}: exit {code}: {text}{err}")
            png_is_nontrivial(os.path.join(d, png), f"plot_history.py {src}")

        code, text, err = script("h5diff.py", f20, f20)
        check(code == 0 and "u: max abs 0.000000e+00  max rel 0.000000e+00  (bitwise equal)" in text, f"h5diff same: {code} {text}")
        code, text, err = script("h5diff.py", f10, f20)
        check(code == 1 and "u: max abs" in text and text.strip().endswith("differ"), f"h5diff different steps: {code} {text}")
        bumped = os.path.join(d, "bumped.h5")
        shutil.copy(f20, bumped)
        with h5py.File(bumped, "r+") as f:
            u = f["u"][()]
            u[3, 4, 5] = np.nextafter(u[3, 4, 5], np.inf)
            f["u"][...] = u
        code, text, err = script("h5diff.py", f20, bumped)
        check(code == 1 and "(bits differ)" in text, f"h5diff one ulp at tolerance 0: {code} {text}")
        code, text, err = script("h5diff.py", f20, bumped, "--tolerance", "1e-12")
        check(code == 0 and "(within 1e-12)" in text, f"h5diff one ulp within 1e-12: {code} {text}")
        code, text, err = script("h5diff.py", f20, os.path.join(d, "in.yaml"))
        check(code == 2 and "cannot open as HDF5" in err, f"h5diff on a non-HDF5 file: {code} {err}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ['heat3d', 'wave3d'], extra=['scripts'])

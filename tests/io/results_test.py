#!/usr/bin/env python3
"""The results, tried as a new user would (issue 11): h5slice.py draws the plane that holds the
field, h5diff.py confirms "bitwise on any rank count" by default, every script says in one line
what to install when its Python lacks a module, and no shipped input writes outside git's ignore
list. One case per ctest:

    results_test.py --heat3d PATH --mpiexec PATH --source DIR CASE

Runs under a Python with numpy, h5py and matplotlib (tests/io/CMakeLists.txt finds one).
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import BASE_INPUT, check, png_is_nontrivial, set_args, skip, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None  # the command line, set by cartex_testing.run_case

# The grid of the runs here: 16 points in z, so the middle z plane is a zero of the sine mode.
GRID = "grid.n=[12,10,16]"

# Every Python tool in scripts/ and the modules it needs.
SCRIPTS = {"h5slice.py": "h5py numpy matplotlib", "h5diff.py": "h5py numpy", "plot_history.py": "h5py numpy matplotlib",
           "plot_halobench.py": "numpy matplotlib", "plot_cartbench.py": "numpy matplotlib"}


def heat(ranks, d, sets):
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, ARGS.heat3d, ["in.yaml"] + set_args(sets), d)
    check(code == 0, f"heat3d {sets} on {ranks} ranks exited {code}: {err}")
    return out


def script(name, *args, python=None):
    """Runs scripts/NAME with `python` (default: this interpreter); returns (exit code, stdout, stderr)."""
    cmd = [python or sys.executable, os.path.join(ARGS.source, "scripts", name)] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def case_slice():
    """The default sine run's middle z plane is a zero of the mode (rounding noise): h5slice.py draws
    the plane of the largest |u| instead and says which; -o into a missing directory is one line; a
    2D file cut along y is a curve, not a one-pixel strip."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE_INPUT)
        heat(1, d, [GRID, "output.every=10", "output.dir=res"])
        f0 = os.path.join(d, "res", "fields_000000.h5")
        with h5py.File(f0, "r") as f:
            u = f["u"][()]
        middle = np.max(np.abs(u[u.shape[0] // 2]))
        check(middle < 1e-12, f"the middle z plane is expected to be a zero of the sine, max |u| = {middle}")
        peak = int(np.unravel_index(np.argmax(np.abs(u)), u.shape)[0])
        png = os.path.join(d, "z.png")
        code, out, err = script("h5slice.py", f0, "-o", png)
        check(code == 0, f"h5slice.py default plane: exit {code}: {err}")
        check(f"drew u on the z plane index {peak} (z = " in out and "the plane of the largest |value|" in out,
              f"h5slice.py does not say it drew z plane {peak}, the plane of the largest |u|:\n{out}")
        png_is_nontrivial(png, "h5slice.py default plane")
        code, out, err = script("h5slice.py", f0, "--index", "3", "-o", png)
        check(code == 0 and "z plane index 3 " in out and "given by --index" in out, f"h5slice.py --index 3: {out}{err}")

        missing = os.path.join(d, "no", "such", "dir", "z.png")
        code, out, err = script("h5slice.py", f0, "-o", missing)
        lines = [line for line in err.splitlines() if line.strip()]
        check(code == 2 and lines == [f"h5slice.py: -o {missing}: directory {os.path.dirname(missing)} does not exist"],
              f"h5slice.py -o into a missing directory: exit {code}, stderr {lines}")

        heat(1, d, ["grid.n=[40,30]", "grid.periodic=[false,true]", "output.every=10", "output.dir=flat"])
        flat = os.path.join(d, "flat", "fields_000000.h5")
        code, out, err = script("h5slice.py", flat, "-o", png)
        check(code == 0 and "40x30 points" in out and "as an image" in out, f"h5slice.py on a 2D file: {code} {out}{err}")
        png_is_nontrivial(png, "h5slice.py 2D file")
        code, out, err = script("h5slice.py", flat, "--axis", "y", "-o", png)
        check(code == 0 and "as a curve along x" in out, f"h5slice.py 2D file --axis y is not a curve: {code} {out}{err}")
        png_is_nontrivial(png, "h5slice.py 2D file --axis y")


def case_diff_ranks():
    """A 1-rank and a 3-rank run: h5diff.py's default compares the solution fields only and finds
    checkpoints and field files bitwise equal; the rank field and the history are reported as not
    compared; --fields and --ignore choose the datasets."""
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE_INPUT)
        sets = [GRID, "init.type=gaussian", "output.every=10", "output.fields=[u,rank]", "output.checkpoint_every=10",
                "output.history=true"]
        for ranks in (1, 3):
            heat(ranks, d, sets + [f"output.dir=r{ranks}"])
        for name, skipped in [("checkpoint_000010.h5", "history"), ("fields_000010.h5", "rank")]:
            a, b = os.path.join(d, "r1", name), os.path.join(d, "r3", name)
            code, out, err = script("h5diff.py", a, b)
            check(code == 0 and "u: max abs 0.000000e+00  max rel 0.000000e+00  (bitwise equal)" in out
                  and f"not compared: {skipped} " in out and out.strip().endswith("same"),
                  f"h5diff.py {name} on 1 and 3 ranks: exit {code}\n{out}{err}")
        fa, fb = os.path.join(d, "r1", "fields_000010.h5"), os.path.join(d, "r3", "fields_000010.h5")
        code, out, err = script("h5diff.py", fa, fb, "--fields", "u,rank")
        check(code == 1 and "rank: max abs 2.000000e+00" in out and "(bits differ)" in out,
              f"h5diff.py --fields u,rank: the rank fields of 1 and 3 ranks must differ: {code}\n{out}{err}")
        code, out, err = script("h5diff.py", fa, fb, "--fields", "u,rank", "--ignore", "rank")
        check(code == 0 and "rank:" not in out.replace("not compared: rank", ""), f"h5diff.py --ignore rank: {code}\n{out}")
        code, out, err = script("h5diff.py", fa, fb, "--ignore", "u")
        check(code == 2 and "no datasets to compare" in err, f"h5diff.py with nothing to compare: {code} {err}")
        code, out, err = script("h5diff.py", fa, fb, "--fields", "v")
        check(code == 1 and "v: in neither file" in out, f"h5diff.py --fields v: {code}\n{out}")


def make_bare_python(d):
    """A venv without site packages: a python3 that lacks h5py, numpy and matplotlib."""
    env_dir = os.path.join(d, "bare")
    p = subprocess.run([sys.executable, "-m", "venv", "--without-pip", env_dir], capture_output=True, text=True)
    python = os.path.join(env_dir, "bin", "python3")
    if p.returncode != 0 or not os.path.exists(python):
        skip(f"cannot create a venv with {sys.executable} -m venv (Debian: python3-venv): {p.stderr.strip()}")
    if subprocess.run([python, "-c", "import numpy"], capture_output=True).returncode == 0:
        skip(f"the venv's python3 imports numpy; no Python without it to test with")
    return env_dir, python


def case_missing_modules():
    """Every script run by a python3 without h5py/numpy/matplotlib prints one line naming the Debian
    packages and the interpreter that has them, exits 2, no traceback; each starts with the same
    `#!/usr/bin/env python3`, so the first python3 on PATH is the one that meets this."""
    with tempfile.TemporaryDirectory() as d:
        env_dir, python = make_bare_python(d)
        path = os.path.join(env_dir, "bin") + os.pathsep + os.environ.get("PATH", "")
        for name, modules in SCRIPTS.items():
            program = os.path.join(ARGS.source, "scripts", name)
            with open(program) as f:
                check(f.readline().rstrip("\n") == "#!/usr/bin/env python3", f"{name}: shebang is not #!/usr/bin/env python3")
            check(os.access(program, os.X_OK), f"{name} is not executable")
            # As a user types it: the script by its path, found python3 first on PATH.
            p = subprocess.run([program, "x.h5", "-o", os.path.join(d, "x.png")], capture_output=True, text=True,
                               timeout=120, env=dict(os.environ, PATH=path))
            lines = [line for line in p.stderr.splitlines() if line.strip()]
            packages = " ".join("python3-" + m for m in modules.split())
            ok = (p.returncode == 2 and len(lines) == 1 and lines[0].startswith(f"{name}: the Python at ")
                  and packages in lines[0] and "/usr/bin/python3" in lines[0] and "Traceback" not in p.stderr)
            check(ok, f"{name} under a python3 without {modules}: exit {p.returncode}, stderr:\n{p.stderr}")


def output_dir(path):
    """The output.dir an input file asks for (the default `output` when it has none): the `dir:` key
    indented under the top-level `output:` block (the shipped inputs use block style)."""
    section = None
    with open(path) as f:
        for line in f:
            top = re.match(r"^([A-Za-z_]\w*):", line)
            if top:
                section = top.group(1)
            m = re.match(r"^\s+dir:\s*([^\s#]+)", line)
            if section == "output" and m:
                return m.group(1).strip("\"'")
    return "output"


def case_inputs_ignored():
    """Every shipped input writes its output (run from the repository root) where git ignores it."""
    source = ARGS.source
    if subprocess.run(["git", "-C", source, "rev-parse", "--git-dir"], capture_output=True).returncode != 0:
        skip(f"{source} is not a git checkout")
    inputs = sorted(glob.glob(os.path.join(source, "inputs", "*.yaml")) + glob.glob(os.path.join(source, "examples", "**", "*.yaml"),
                                                                                  recursive=True))
    check(len(inputs) >= 6, f"found only {len(inputs)} shipped inputs")
    for path in inputs:
        out = output_dir(path)
        probe = os.path.join(out, "fields_000000.h5")
        p = subprocess.run(["git", "-C", source, "check-ignore", "-q", "--no-index", probe], capture_output=True, text=True)
        check(p.returncode == 0, f"{os.path.relpath(path, source)}: output.dir {out} is not ignored by git ({probe})")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d"], extra=["source"])

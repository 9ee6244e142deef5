#!/usr/bin/env python3
"""scripts/bench_device.sh without a GPU: --allow-host runs its whole pipeline (kernelbench's copy,
heat3d 7pt/27pt on 1 and 2 ranks with and without overlap, two rounds, the CSV and the markdown
table) on this host build at a tiny size; the CSV must have exactly the documented columns, a row per
run and positive figures. Without --allow-host it refuses a host build, and a CUDA build on a machine
without a GPU, with one line and exit 1 (a stub nvidia-smi and a stub CUDA build dir stand in for
what this machine lacks); a bad option is one line and exit 2.

    bench_device_test.py SOURCE_DIR BUILD_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, finish  # noqa: E402

COLUMNS = ["round", "stencil", "n", "ranks", "overlap", "steps", "kernel", "execution_space", "glups", "time_per_step_ms",
           "copy_gbs", "bound_glups", "fraction_of_bound", "exchange_share_pct", "hidden_share_pct", "cpu", "gpu", "kokkos",
           "cuda", "commit", "date"]
POSITIVE = ["glups", "time_per_step_ms", "copy_gbs", "bound_glups", "fraction_of_bound"]


def run(script, args, env=None):
    p = subprocess.run([script] + args, capture_output=True, text=True, env=env, timeout=600)
    return p.returncode, p.stdout, p.stderr


def number(row, key):
    try:
        return float(row[key])
    except ValueError:
        return None


def host_mode(script, build, d):
    results = os.path.join(d, "results")
    code, out, err = run(script, ["--allow-host", "--sizes", "12", "--steps", "3", "--stream-size", "4096",
                                  "--results", results, build])
    if not check(code == 0, f"--allow-host exited {code}: {err}"):
        return
    check(out.startswith("machine: CPU "), f"stdout does not begin by naming the machine: {out[:200]!r}")
    with open(os.path.join(results, "device.csv"), newline="") as f:
        reader = csv.DictReader(f)
        check(reader.fieldnames == COLUMNS, f"CSV columns {reader.fieldnames}, expected {COLUMNS}")
        rows = list(reader)
    # 2 rounds x 2 rank counts x 2 stencils x 1 size x overlap false/true
    check(len(rows) == 16, f"{len(rows)} CSV rows, expected 16")
    seen = {(r["round"], r["ranks"], r["stencil"], r["overlap"]) for r in rows}
    check(len(seen) == 16, f"configurations {sorted(seen)}")
    for r in rows:
        what = f"row {r['round']} {r['stencil']} np{r['ranks']} overlap {r['overlap']}"
        for key in POSITIVE:
            v = number(r, key)
            check(v is not None and v > 0, f"{what}: {key} = {r[key]!r}, expected a positive number")
        share = number(r, "exchange_share_pct")
        check(share is not None and 0 <= share <= 100, f"{what}: exchange share {r['exchange_share_pct']!r}")
        if r["overlap"] == "true":
            hidden = number(r, "hidden_share_pct")
            check(hidden is not None and 0 <= hidden <= 100, f"{what}: hidden share {r['hidden_share_pct']!r}")
        else:
            check(r["hidden_share_pct"] == "", f"{what}: a hidden share {r['hidden_share_pct']!r} without overlap")
        bound, glups, fraction = number(r, "bound_glups"), number(r, "glups"), number(r, "fraction_of_bound")
        if bound and glups and fraction:
            check(abs(bound - number(r, "copy_gbs") / 16) <= 1e-3 * bound + 1e-4, f"{what}: bound {bound} != copy / 16 B")
            check(abs(fraction - glups / bound) <= 1e-3 * fraction + 1e-4, f"{what}: fraction {fraction} != {glups} / {bound}")
        check(r["steps"] == "3" and r["n"] == "12", f"{what}: steps {r['steps']}, n {r['n']}")
        check(all(r[k] for k in ("kernel", "execution_space", "cpu", "gpu", "kokkos", "cuda", "commit", "date")),
              f"{what}: an empty machine or provenance field: {r}")
    md = open(os.path.join(results, "device.md")).read()
    table = [line for line in md.splitlines() if line.startswith("| ") and "³" in line]
    check(len(table) == 8, f"{len(table)} table rows in device.md, expected 8:\n{md}")
    check(md.startswith("Machine: CPU "), f"device.md does not name the machine first:\n{md[:200]}")
    check(all(line.count(" / ") >= 3 for line in table), f"device.md rows without both rounds:\n{md}")


def stub(path, text):
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


def refusals(script, build, d):
    """One line on stderr and exit 1 for a host build and for no GPU; exit 2 for a bad option."""
    bin_dir = os.path.join(d, "stub-bin")
    os.makedirs(bin_dir)
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
    stub(os.path.join(bin_dir, "nvidia-smi"),
         "#!/bin/sh\n[ \"$1\" = -L ] && echo 'GPU 0: NVIDIA Stub (UUID: GPU-00000000)'\nexit 0\n")
    code, _, err = run(script, ["--results", os.path.join(d, "r1"), build], env)
    check(code == 1 and err.count("\n") == 1 and "is not a CUDA build" in err,
          f"host build with a GPU: exit {code}, stderr {err!r}; expected exit 1 and one line 'is not a CUDA build'")

    # A CUDA build (as far as its CMakeCache and Kokkos config tell), on a machine whose nvidia-smi lists no GPU.
    cuda = os.path.join(d, "cuda-build")
    kokkos = os.path.join(d, "kokkos-cuda", "lib", "cmake", "Kokkos")
    os.makedirs(os.path.join(cuda, "bin"))
    os.makedirs(kokkos)
    stub(os.path.join(kokkos, "KokkosConfigCommon.cmake"), "set(Kokkos_DEVICES CUDA;SERIAL)\n")
    stub(os.path.join(cuda, "CMakeCache.txt"), f"Kokkos_DIR:PATH={kokkos}\n")
    for p in ("heat3d", "kernelbench"):
        stub(os.path.join(cuda, "bin", p), "#!/bin/sh\nexit 3\n")
    stub(os.path.join(bin_dir, "nvidia-smi"), "#!/bin/sh\necho 'No devices were found'\nexit 6\n")
    code, _, err = run(script, ["--results", os.path.join(d, "r2"), cuda], env)
    check(code == 1 and err.count("\n") == 1 and "no NVIDIA GPU found" in err,
          f"CUDA build without a GPU: exit {code}, stderr {err!r}; expected exit 1 and one line 'no NVIDIA GPU found'")

    code, _, err = run(script, ["--rounds", "0", build], env)
    check(code == 2 and err.count("\n") == 1 and "--rounds takes a positive integer" in err,
          f"--rounds 0: exit {code}, stderr {err!r}")


def main():
    root, build = sys.argv[1], sys.argv[2]
    script = os.path.join(root, "scripts", "bench_device.sh")
    with tempfile.TemporaryDirectory() as d:
        refusals(script, build, d)
        host_mode(script, build, d)
    finish("bench_device")


if __name__ == "__main__":
    main()

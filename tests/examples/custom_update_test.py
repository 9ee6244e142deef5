#!/usr/bin/env python3
"""Installs cartex into a scratch prefix, builds examples/custom_update against it with
find_package(cartex), and checks what its registered stencil and point update compute:

  cross13 (C++ offsets/weights)   bitwise the field of heat3d with `stencil: {type: star, order: 4}`
  varcoef (C++ point update)      bitwise the same on 1, 2 and 3 ranks, with deep halos (the region
                                  path) and overlap; total heat conserved; differs from constant a
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, checksum, set_args  # noqa: E402
import cartex_testing  # noqa: E402


def sh(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
        sys.exit(f"command failed ({p.returncode}): {' '.join(cmd)}")
    return p.stdout


def run_app(args, exe, ranks, yaml, sets=()):
    code, out, err, _ = cartex_testing.mpirun(args.mpiexec, ranks, exe, [yaml] + set_args(sets), args.work, timeout=300)
    check(code == 0, f"{exe} {yaml} {sets} on {ranks} ranks exited {code}: {err}")
    return out


def main():
    ap = argparse.ArgumentParser()
    for a in ("--build-dir", "--example", "--work", "--generator", "--heat3d", "--mpiexec"):
        ap.add_argument(a, required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    prefix = os.path.join(args.work, "prefix")
    build = os.path.join(args.work, "build")
    sh(["cmake", "--install", args.build_dir, "--prefix", prefix])
    sh(["cmake", "-S", args.example, "-B", build, "-G", args.generator, f"-DCMAKE_PREFIX_PATH={prefix}",
        "-DCMAKE_BUILD_TYPE=Release"])
    sh(["cmake", "--build", build])
    my_heat = os.path.join(build, "my_heat")
    cross13 = os.path.join(args.example, "cross13.yaml")
    varcoef = os.path.join(args.example, "varcoef.yaml")

    ours = run_app(args, my_heat, 2, cross13)
    builtin = run_app(args, args.heat3d, 2, cross13, ["stencil={type: star, order: 4}"])
    check(checksum(ours) is not None and checksum(ours) == checksum(builtin),
          f"cross13 {checksum(ours)} != heat3d star order 4 {checksum(builtin)}\n{ours}\n{builtin}")
    check(re.search(r"stencil cross13", ours) is not None, f"cross13 summary:\n{ours}")

    sums = {}
    for ranks, sets in [(1, []), (2, []), (3, []), (3, ["halo.steps_per_exchange=3"]), (2, ["comm.overlap=true"]),
                        (2, ["comm.backend=cart_combining", "halo.steps_per_exchange=2"])]:
        out = run_app(args, my_heat, ranks, varcoef, sets)
        sums[(ranks, tuple(sets))] = checksum(out)
        check("point update varcoef" in out, f"varcoef summary does not name the update:\n{out}")
        m = re.search(r"integral of u\s+(\S+) \(start (\S+), change (\S+)\)", out)
        check(m is not None and abs(float(m.group(3))) <= 1e-12 * abs(float(m.group(2))), f"varcoef conservation:\n{out}")
    check(None not in sums.values() and len(set(sums.values())) == 1, f"varcoef checksums differ: {sums}")
    constant = run_app(args, args.heat3d, 2, varcoef, ["stencil=7pt"])
    check(checksum(constant) not in sums.values(), "varcoef gives the constant-coefficient field: a(x) had no effect")

    cartex_testing.finish("custom_update")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The benchmarks' --help is their own usage, printed once on 2 ranks, without Kokkos' option list;
halobench and kernelbench (the two that start Kokkos) list --kokkos-help, which prints Kokkos' list
once and no usage, like heat3d (tests/apps/input_test.py, case help). A bad option is one line
"NAME: what (see NAME --help)" and exit 2 on every rank, like heat3d's. kernelbench --decompose lays
its cycle out on heat3d's split of the grid and times its best tile again with the periodic ghost writes
heat3d's pass makes there.

    bench_help_test.py --halobench P --kernelbench P --cartbench P --graphbench P --mpiexec P
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check  # noqa: E402
import cartex_testing  # noqa: E402

KOKKOS_LIST = "Kokkos command line arguments"
WITH_KOKKOS = ("halobench", "kernelbench")


def check_bench(mpiexec, name, program, d):
    _, _, err, codes = cartex_testing.mpirun(mpiexec, 2, program, ["--frobnicate"], d, per_rank_codes=True)
    mine = [line for line in err.splitlines() if line.startswith(f"{name}: ")]
    check(codes == [2, 2] and mine == [f"{name}: The following argument was not expected: --frobnicate (see {name} --help)"],
          f"{name} --frobnicate: per-rank exit codes {codes} (expected 2 on every rank), its lines {mine}")
    code, out, err, _ = cartex_testing.mpirun(mpiexec, 2, program, ["--help"], d)
    check(code == 0 and out.startswith(f"{name}: ") and out.count("Usage:") == 1,
          f"{name} --help: exit {code}, its own usage once first:\n{out}{err}")
    check(KOKKOS_LIST not in out + err, f"{name} --help prints Kokkos' options")
    if name not in WITH_KOKKOS:
        return
    check("--kokkos-help" in out, f"{name} --help does not list --kokkos-help")
    code, out, err, _ = cartex_testing.mpirun(mpiexec, 2, program, ["--kokkos-help"], d)
    check(code == 0 and (out + err).count(KOKKOS_LIST) == 1 and "Usage:" not in out,
          f"{name} --kokkos-help: exit {code}, Kokkos' list once and no usage:\n{out}{err}")


def main():
    p = argparse.ArgumentParser()
    for name in ("halobench", "kernelbench", "cartbench", "graphbench", "mpiexec"):
        p.add_argument("--" + name, required=True)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        for name in ("halobench", "kernelbench", "cartbench", "graphbench"):
            check_bench(args.mpiexec, name, os.path.abspath(getattr(args, name)), d)
        # kernelbench --decompose times each rank's block of heat3d's split (24^3 on 2 ranks: 1x1x2), and
        # its best tile again with the periodic ghost writes heat3d's pass makes there (x and y are periodic
        # on one process); without --decompose there is no such line.
        ghosts = "with heat3d's periodic ghost writes (x ghosts of each row, y ghost rows of each plane): "
        for decompose in (True, False):
            code, out, err, _ = cartex_testing.mpirun(args.mpiexec, 2, os.path.abspath(args.kernelbench),
                                                      ["--sizes", "24", "--stencils", "7pt", "--temporal", "2", "--repeats", "1",
                                                       "--stream-size", "100000"] + (["--decompose"] if decompose else []), d)
            check(code == 0 and ("the 24^3 grid split as heat3d splits it, 1x1x2 processes" in out) == decompose
                  and "auto's walk:" in out and "k = 2: one step at a time" in out and (ghosts in out) == decompose,
                  f"kernelbench{' --decompose' if decompose else ''}: exit {code}:\n{out}{err}")
    cartex_testing.finish("bench_help")


if __name__ == "__main__":
    main()

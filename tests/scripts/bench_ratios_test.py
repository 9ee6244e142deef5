#!/usr/bin/env python3
"""scripts/bench_ratios.py, the regression guard's ratio file, on made-up benchmark CSVs (no timing):
the committed benchmarks/ratios.csv parses into benchmark runs; compare prints one SLOWER / FASTER /
SAME line per case and exits 1 only when a case is slower beyond the noise; update writes the bands
that compare then reads; bad input is one line and exit 2.

    bench_ratios_test.py SOURCE_DIR
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, finish  # noqa: E402

CART_HEADER = ("label,neighborhood,d,t,procs,grid,periodic,op,m,impl,C,V,samples,kept,median_us,ci_low_us,ci_high_us,"
               "mean_us,min_us,ratio_to_mpi_neighbor")
HALO_HEADER = ("label,stencil,dim,k,periodic,procs,grid,block,backend,chosen,messages,bytes,rounds,samples,kept,"
               "median_us,ci_low_us,ci_high_us,mean_us,min_us,ratio_to_mpi_neighbor_alltoallw")
REF = """group,bench,ranks,args,case,baseline,ratio,ratio_low,ratio_high,measured
c,cartbench,8,--d 3 --n 3 --op alltoall --m 1,packed,mpi,0.600,0.580,0.620,ref
c,cartbench,8,--d 3 --n 3 --op alltoall --m 1,zero,mpi,0.600,0.580,0.620,ref
c,cartbench,8,--d 3 --n 3 --op alltoall --m 1,same,mpi,0.600,0.580,0.620,ref
h,halobench,2,--stencil 27pt --block 8,fwd,p2p,2.000,1.900,2.100,ref
"""


def cart_row(label, impl, median, low, high):
    return f"{label},d3n3,3,26,8,2x2x2,1,alltoall,1,{impl},6,54,1000,990,{median},{low},{high},{median},{low},0"


def halo_row(label, backend, median, low, high):
    return f"{label},27pt,3,1,1,2,1x1x2,8,{backend},,2,100,1,1000,990,{median},{low},{high},{median},{low},0"


def write(path, header, rows):
    with open(path, "w") as f:
        f.write("\n".join([header, *rows]) + "\n")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main(source):
    tmp = tempfile.mkdtemp()
    try:
        p = run("runs", os.path.join(source, "benchmarks", "ratios.csv"))
        check(p.returncode == 0, f"runs on benchmarks/ratios.csv exited {p.returncode}: {p.stderr.strip()}")
        for line in p.stdout.splitlines():
            fields = line.split("\t")
            check(len(fields) == 4 and fields[1] in ("cartbench", "halobench") and fields[2].isdigit(),
                  f"runs line '{line}' is not group, bench, ranks, args")
            option = "--impl" if fields[1] == "cartbench" else "--backends"
            check(option in fields[3].split(), f"runs line '{line}' does not select the implementations ({option})")

        ref = os.path.join(tmp, "ratios.csv")
        with open(ref, "w") as f:
            f.write(REF)
        p = run("runs", ref)
        check(p.stdout == "c\tcartbench\t8\t--d 3 --n 3 --op alltoall --m 1 --impl mpi packed zero same\n"
              "h\thalobench\t2\t--stencil 27pt --block 8 --backends p2p fwd\n", f"runs printed {p.stdout!r}")

        # Two runs; packed moved up beyond the CIs in both, zero down, same only in one run.
        for n, (packed, zero, same) in enumerate([(80.0, 50.0, 60.0), (82.0, 49.0, 75.0)], 1):
            write(os.path.join(tmp, f"c_{n}.csv"), CART_HEADER,
                  [cart_row("c", "mpi", 100.0, 99.0, 101.0), cart_row("c", "packed", packed, packed - 1, packed + 1),
                   cart_row("c", "zero", zero, zero - 1, zero + 1), cart_row("c", "same", same, same - 1, same + 1)])
            write(os.path.join(tmp, f"h_{n}.csv"), HALO_HEADER,
                  [halo_row("h", "p2p", 1.0, 0.99, 1.01), halo_row("h", "fwd", 2.0, 1.98, 2.02)])
        csvs = sorted(os.path.join(tmp, f) for f in os.listdir(tmp) if f[:2] in ("c_", "h_"))
        p = run("compare", ref, *csvs)
        check(p.returncode == 1, f"compare with a slower case exited {p.returncode} (expected 1): {p.stderr.strip()}")
        lines = p.stdout.splitlines()
        cart_ref, halo_ref = "reference 0.600 [0.580, 0.620]", "reference 2.000 [1.900, 2.100]"
        expected = [f"SLOWER  c packed/mpi: 0.810 [0.782, 0.838] (2 runs), {cart_ref}",
                    f"FASTER  c zero/mpi: 0.495 [0.475, 0.515] (2 runs), {cart_ref}",
                    f"SAME    c same/mpi: 0.675 [0.584, 0.768] (2 runs), {cart_ref}",
                    f"SAME    h fwd/p2p: 2.000 [1.960, 2.040] (2 runs), {halo_ref}"]
        check(lines[:-1] == ["reference: ref", *expected], f"compare printed {lines[:-1]}, expected {expected}")
        check(lines[-1:] == ["1 of 4 cases slower beyond the noise"], f"last line {lines[-1:]}")

        # update takes the bands of these runs; compared with themselves, nothing moved.
        p = run("update", ref, "abc1234 2026-01-01", *csvs)
        check(p.returncode == 0, f"update exited {p.returncode}: {p.stderr.strip()}")
        with open(ref, newline="") as f:
            rows = list(csv.DictReader(f))
        check([r["ratio"] for r in rows] == ["0.810", "0.495", "0.675", "2.000"], f"updated ratios {rows}")
        check(all(r["measured"] == "abc1234 2026-01-01, 2 runs" for r in rows), "updated measured column")
        p = run("compare", ref, *csvs)
        check(p.returncode == 0 and all(line.startswith("SAME") for line in p.stdout.splitlines()[1:-1]),
              f"compare after update exited {p.returncode}: {p.stdout}")

        # Bad input: a case missing from the runs, a failed (untimed) backend, a bad reference.
        p = run("compare", ref, csvs[0])
        check(p.returncode == 2 and p.stderr.count("\n") == 1 and "h: 0 runs of fwd" in p.stderr,
              f"compare without the halobench CSVs: exit {p.returncode}, {p.stderr!r}")
        write(os.path.join(tmp, "h_1.csv"), HALO_HEADER, [halo_row("h", "p2p", 1.0, 0.99, 1.01), halo_row("h", "fwd", 0, 0, 0)])
        p = run("compare", ref, *csvs)
        check(p.returncode == 2 and "no time" in p.stderr, f"compare with an untimed backend: exit {p.returncode}, {p.stderr!r}")
        with open(ref, "w") as f:
            f.write(REF.replace("halobench,2", "graphbench,2"))
        p = run("runs", ref)
        check(p.returncode == 2 and "unknown bench 'graphbench'" in p.stderr, f"unknown bench: exit {p.returncode}, {p.stderr!r}")
        p = run("compare", ref)
        check(p.returncode == 2 and p.stderr.startswith("usage:"), f"no CSVs: exit {p.returncode}, {p.stderr!r}")
    finally:
        shutil.rmtree(tmp)
    finish("bench_ratios")


if __name__ == "__main__":
    SCRIPT = os.path.join(sys.argv[1], "scripts", "bench_ratios.py")
    main(sys.argv[1])

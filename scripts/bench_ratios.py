#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The ratio file of the benchmark regression guard (benchmarks/ratios.csv, read by
scripts/bench_regress.sh; docs/performance.md, "Regression guard").

Each row is a case: an implementation's median time over its baseline's median, both from the same
benchmark run, so that the machine's speed and load mostly cancel. Rows of one group share one benchmark
invocation (bench, ranks, args); the runs write CSVs whose label column is the group.

    bench_ratios.py runs REF                    one line per group: group, bench, ranks, arguments
    bench_ratios.py compare REF CSV...          one line per case: slower / faster / same; exit 1 if slower
    bench_ratios.py update REF MEASURED CSV...  rewrites REF's ratios from these CSVs; MEASURED: where, when

A run's ratio interval is [case CI low / baseline CI high, case CI high / baseline CI low] (the 95% CIs
of the two medians); a measurement's band spans the intervals of all its runs. A case moved beyond the
noise when its band and the reference band do not overlap.
"""
import csv
import statistics
import sys

REF_FIELDS = ["group", "bench", "ranks", "args", "case", "baseline", "ratio", "ratio_low", "ratio_high", "measured"]
# The option selecting the implementations to time, per benchmark.
IMPL_OPTION = {"cartbench": "--impl", "halobench": "--backends"}
# Exit codes: 1 = a case is slower beyond the noise, 2 = bad input.
SLOWER, BAD_INPUT = 1, 2


class InputError(Exception):
    pass


def read_reference(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != REF_FIELDS:
            raise InputError(f"{path}: header is {reader.fieldnames}, expected {REF_FIELDS}")
        rows = list(reader)
    if not rows:
        raise InputError(f"{path}: no cases")
    groups = {}
    for n, row in enumerate(rows, 2):
        if row["bench"] not in IMPL_OPTION:
            raise InputError(f"{path}:{n}: unknown bench '{row['bench']}' (one of {', '.join(IMPL_OPTION)})")
        if not row["ranks"].isdigit() or int(row["ranks"]) < 1:
            raise InputError(f"{path}:{n}: ranks '{row['ranks']}' is not a positive integer")
        invocation = (row["bench"], row["ranks"], row["args"])
        if groups.setdefault(row["group"], invocation) != invocation:
            raise InputError(f"{path}:{n}: group {row['group']} has another bench, ranks or args than its first row")
        for key in ("ratio", "ratio_low", "ratio_high"):
            if row[key]:
                try:
                    float(row[key])
                except ValueError:
                    raise InputError(f"{path}:{n}: {key} '{row[key]}' is not a number") from None
    return rows


def read_runs(paths):
    """{(group, impl): [row of each run]} from benchmark CSVs (label = group)."""
    runs = {}
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                column = "backend" if "backend" in row else "impl"
                if "label" not in row or column not in row:
                    raise InputError(f"{path}: not a cartbench or halobench CSV (no label and impl/backend columns)")
                runs.setdefault((row["label"], row[column]), []).append(row)
    return runs


def band(runs, group, case, baseline):
    """(median ratio, low, high, number of runs) of case over baseline in the runs of group."""
    cases, bases = runs.get((group, case), []), runs.get((group, baseline), [])
    if not cases or len(cases) != len(bases):
        raise InputError(f"{group}: {len(cases)} runs of {case} and {len(bases)} of {baseline} in the CSVs")
    ratios, lows, highs = [], [], []
    for c, b in zip(cases, bases):
        med, lo, hi = (float(c[k]) for k in ("median_us", "ci_low_us", "ci_high_us"))
        bmed, blo, bhi = (float(b[k]) for k in ("median_us", "ci_low_us", "ci_high_us"))
        if min(med, lo, hi, bmed, blo, bhi) <= 0:
            raise InputError(f"{group}: {case} or {baseline} has no time (failed or not timed)")
        ratios.append(med / bmed)
        lows.append(lo / bhi)
        highs.append(hi / blo)
    return statistics.median(ratios), min(lows), max(highs), len(ratios)


def runs_text(n):
    return f"{n} run" if n == 1 else f"{n} runs"


def verdict(new, ref):
    """'slower', 'faster' or 'same': whether the band new = (ratio, low, high) and ref overlap."""
    if new[1] > ref[2]:
        return "slower"
    if new[2] < ref[1]:
        return "faster"
    return "same"


def compare(ref_path, csv_paths):
    rows, runs = read_reference(ref_path), read_runs(csv_paths)
    for measured in dict.fromkeys(row["measured"] for row in rows if row["ratio"]):
        print(f"reference: {measured}")
    slower = 0
    for row in rows:
        name = f"{row['group']} {row['case']}/{row['baseline']}"
        new = band(runs, row["group"], row["case"], row["baseline"])
        if not row["ratio"]:
            print(f"NEW     {name}: {new[0]:.3f} [{new[1]:.3f}, {new[2]:.3f}] ({runs_text(new[3])}), no reference")
            continue
        ref = tuple(float(row[k]) for k in ("ratio", "ratio_low", "ratio_high"))
        v = verdict(new, ref)
        slower += v == "slower"
        print(f"{v.upper():<7} {name}: {new[0]:.3f} [{new[1]:.3f}, {new[2]:.3f}] ({runs_text(new[3])}), "
              f"reference {ref[0]:.3f} [{ref[1]:.3f}, {ref[2]:.3f}]")
    print(f"{slower} of {len(rows)} cases slower beyond the noise")
    return SLOWER if slower else 0


def update(ref_path, csv_paths, measured):
    rows, runs = read_reference(ref_path), read_runs(csv_paths)
    for row in rows:
        ratio, low, high, n = band(runs, row["group"], row["case"], row["baseline"])
        row.update(ratio=f"{ratio:.3f}", ratio_low=f"{low:.3f}", ratio_high=f"{high:.3f}", measured=f"{measured}, {runs_text(n)}")
    with open(ref_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=REF_FIELDS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    print(f"{ref_path}: {len(rows)} cases updated")
    return 0


def runs_of(ref_path):
    groups = {}
    for row in read_reference(ref_path):
        group = groups.setdefault(row["group"], {"row": row, "impls": []})
        for impl in (row["baseline"], row["case"]):
            if impl not in group["impls"]:
                group["impls"].append(impl)
    for name, g in groups.items():
        row = g["row"]
        args = f"{row['args']} {IMPL_OPTION[row['bench']]} {' '.join(g['impls'])}"
        print("\t".join([name, row["bench"], row["ranks"], args]))
    return 0


USAGE = "usage: bench_ratios.py runs REF | compare REF CSV... | update REF MEASURED CSV..."


def main(argv):
    try:
        if len(argv) == 2 and argv[0] == "runs":
            return runs_of(argv[1])
        if len(argv) >= 3 and argv[0] == "compare":
            return compare(argv[1], argv[2:])
        if len(argv) >= 4 and argv[0] == "update":
            return update(argv[1], argv[3:], argv[2])
    except (InputError, OSError, KeyError, ValueError) as e:
        print(f"bench_ratios.py: {e}", file=sys.stderr)
        return BAD_INPUT
    print(USAGE, file=sys.stderr)
    return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

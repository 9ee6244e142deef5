#!/usr/bin/env python3
"""Bar charts of cartbench CSV results, normalised to mpi_neighbor (like Figures 3-6 of the ICPP'19
paper): one PNG per neighborhood and process count, one panel per operation, bars per
implementation grouped by block size, with the 95% confidence interval of each median as error
bar and the absolute mpi_neighbor median printed under each group.

Usage: scripts/plot_cartbench.py results.csv [more.csv ...] [--out DIR]
Needs python3 with numpy and matplotlib (Debian: python3-numpy python3-matplotlib).
"""
import argparse
import csv
import os
from collections import defaultdict

from python_deps import require

require("numpy", "matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def plot_group(rows, title, out_path):
    ops = sorted({r["op"] for r in rows})
    impls = list(dict.fromkeys(r["impl"] for r in rows))
    fig, axes = plt.subplots(1, len(ops), figsize=(5.5 * len(ops), 4.2), squeeze=False)
    for ax, op in zip(axes[0], ops):
        sizes = sorted({int(r["m"]) for r in rows if r["op"] == op})
        cell = {(int(r["m"]), r["impl"]): r for r in rows if r["op"] == op}
        width = 0.8 / max(len(impls), 1)
        x = np.arange(len(sizes))
        for k, impl in enumerate(impls):
            ratio, low, high = [], [], []
            for m in sizes:
                r, base = cell.get((m, impl)), cell.get((m, "mpi_neighbor"))
                if r is None or base is None or float(base["median_us"]) <= 0:
                    ratio.append(np.nan)
                    low.append(0.0)
                    high.append(0.0)
                    continue
                b = float(base["median_us"])
                med = float(r["median_us"]) / b
                ratio.append(med)
                low.append(max(med - float(r["ci_low_us"]) / b, 0.0))
                high.append(max(float(r["ci_high_us"]) / b - med, 0.0))
            ax.bar(x + (k - (len(impls) - 1) / 2) * width, ratio, width, yerr=[low, high], capsize=2, label=impl)
        ax.axhline(1.0, color="black", linewidth=0.8)
        labels = []
        for m in sizes:
            base = cell.get((m, "mpi_neighbor"))
            labels.append(f"m={m}\n{float(base['median_us']):.1f} us" if base else f"m={m}")
        ax.set_xticks(x)
        ax.set_xticklabels(labels)
        ax.set_title(op)
        ax.set_ylabel("time / mpi_neighbor")
    axes[0][-1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="cartbench --csv output files")
    parser.add_argument("--out", default=".", help="directory for the PNG files")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    groups = defaultdict(list)
    for r in read_rows(args.csv):
        groups[(r["label"], r["neighborhood"], r["procs"], r["grid"])].append(r)
    for (label, hood, procs, grid), rows in sorted(groups.items()):
        name = f"cartbench_{label + '_' if label else ''}{hood}_p{procs}.png"
        path = os.path.join(args.out, name)
        plot_group(rows, f"{hood}, {procs} processes ({grid}) {label}", path)
        print(path)


if __name__ == "__main__":
    main()

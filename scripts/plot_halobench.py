#!/usr/bin/env python3
"""Bar charts of halobench CSV results: every backend's median exchange time divided by
mpi_neighbor_alltoallw's, bars grouped by local block size, with the 95% confidence interval of each
median as error bar and mpi_neighbor_alltoallw's absolute median under each group. One PNG per
label, stencil, k, periodicity and process grid.

Usage: scripts/plot_halobench.py results.csv [more.csv ...] [--out DIR]
Needs numpy and matplotlib (Debian: python3-numpy python3-matplotlib); when the python3 first on
PATH lacks them, the script says so in one line (run it as /usr/bin/python3 scripts/plot_halobench.py ...).
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

from python_deps import require

require("numpy", "matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

BASELINE = "mpi_neighbor_alltoallw"


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


def ratio_bars(cell, blocks, backend):
    """Ratio to the baseline and the CI's distances below and above it, per block size."""
    ratio, low, high = [], [], []
    for b in blocks:
        r, base = cell.get((b, backend)), cell.get((b, BASELINE))
        if r is None or base is None or float(base["median_us"]) <= 0:
            ratio.append(np.nan)
            low.append(0.0)
            high.append(0.0)
            continue
        scale = float(base["median_us"])
        med = float(r["median_us"]) / scale
        ratio.append(med)
        low.append(max(med - float(r["ci_low_us"]) / scale, 0.0))
        high.append(max(float(r["ci_high_us"]) / scale - med, 0.0))
    return ratio, low, high


def plot_group(rows, title, out_path):
    blocks = sorted({int(r["block"]) for r in rows})
    backends = list(dict.fromkeys(r["backend"] for r in rows))
    cell = {(int(r["block"]), r["backend"]): r for r in rows}
    fig, ax = plt.subplots(figsize=(max(6.0, 2.2 * len(blocks) + 3.0), 4.5))
    width = 0.8 / max(len(backends), 1)
    x = np.arange(len(blocks))
    for k, backend in enumerate(backends):
        ratio, low, high = ratio_bars(cell, blocks, backend)
        ax.bar(x + (k - (len(backends) - 1) / 2) * width, ratio, width, yerr=[low, high], capsize=2, label=backend)
    ax.axhline(1.0, color="black", linewidth=0.8)
    labels = []
    for b in blocks:
        base = cell.get((b, BASELINE))
        dim = int(rows[0]["dim"])
        labels.append(f"block {b}^{dim}\n{float(base['median_us']):.1f} us" if base else f"block {b}^{dim}")
    ax.set_xticks(x)
    ax.set_xticklabels(labels)
    ax.set_ylabel(f"time / {BASELINE}")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="halobench --csv output files")
    parser.add_argument("--out", default=".", help="directory for the PNG files")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    groups = defaultdict(list)
    for r in read_rows(args.csv):
        groups[(r["label"], r["stencil"], r["k"], r["periodic"], r["procs"], r["grid"])].append(r)
    if not groups:
        sys.exit("plot_halobench.py: no rows in " + ", ".join(args.csv))
    for (label, stencil, k, periodic, procs, grid), rows in sorted(groups.items()):
        safe = stencil.replace(":", "")
        name = f"halobench_{label + '_' if label else ''}{safe}_k{k}_p{procs}.png"
        path = os.path.join(args.out, name)
        torus = "torus" if periodic == "1" else "mesh"
        plot_group(rows, f"{stencil}, k={k}, {procs} processes ({grid} {torus}) {label}", path)
        print(path)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Plots a cartex diagnostics history as a PNG: total heat, min and max over time, and the sine
error when the run reports one.

    plot_history.py HISTORY -o history.png

HISTORY is `output.history`'s history.csv or a checkpoint (its `history` dataset). Needs numpy,
h5py and matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib).
"""
import argparse
import csv
import sys

from python_deps import require

require("h5py", "numpy", "matplotlib")
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import h5py  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def fail(msg):
    print(f"plot_history.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_csv(path):
    """Columns of history.csv by name; empty cells (no sine error) read as NaN."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        fail(f"{path}: no history rows")
    head = rows[0]
    cols = {name: np.array([float(r[i]) if r[i] else np.nan for r in rows[1:]]) for i, name in enumerate(head)}
    return cols


def read_h5(path):
    """Columns of a checkpoint's history table; negative sine errors (none known) read as NaN."""
    with h5py.File(path, "r") as f:
        if "history" not in f:
            fail(f"{path}: no history dataset (only checkpoints carry one)")
        d = f["history"]
        names = d.attrs["columns"]
        names = names.decode() if isinstance(names, bytes) else names
        data = np.asarray(d[()])
    cols = {name: data[:, i] for i, name in enumerate(names.split(","))}
    if "sine_rel_error" in cols:
        cols["sine_rel_error"] = np.where(cols["sine_rel_error"] < 0, np.nan, cols["sine_rel_error"])
    return cols


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("history", help="history.csv or a checkpoint .h5")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    a = p.parse_args()
    try:
        with open(a.history, "rb") as f:
            is_h5 = f.read(8) == b"\x89HDF\r\n\x1a\n"
    except OSError as e:
        fail(f"{a.history}: {e.strerror}")
    cols = read_h5(a.history) if is_h5 else read_csv(a.history)
    for need in ("time", "total_heat", "min", "max"):
        if need not in cols:
            fail(f"{a.history}: no column {need!r}")
    t = cols["time"]
    err = cols.get("sine_rel_error")
    has_err = err is not None and np.isfinite(err).any()
    fig, axes = plt.subplots(3 if has_err else 2, 1, figsize=(7, 7 if has_err else 5), sharex=True)
    axes[0].plot(t, cols["total_heat"], "o-", label="total heat")
    axes[0].set_ylabel("total heat")
    axes[0].set_title(f"cartex diagnostics history ({len(t)} records)")
    axes[1].plot(t, cols["max"], "o-", label="max")
    axes[1].plot(t, cols["min"], "s-", label="min")
    axes[1].set_ylabel("u")
    axes[1].legend()
    if has_err:
        ok = np.isfinite(err) & (err > 0)
        axes[2].semilogy(t[ok], err[ok], "o-", color="C3")
        axes[2].set_ylabel("sine rel. error")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("time")
    fig.tight_layout()
    fig.savefig(a.output, dpi=100)
    print(f"plot_history.py: wrote {a.output} ({len(t)} records)")


if __name__ == "__main__":
    main()

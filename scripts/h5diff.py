#!/usr/bin/env python3
"""Compares every dataset of two HDF5 files (cartex field files or checkpoints).

    h5diff.py A B [--tolerance T]

Prints the max absolute and max relative difference per dataset. Exit code 0 when every dataset
exists in both files with the same shape and its max absolute difference is <= T; 1 when they
differ; 2 when a file cannot be read. T = 0 (the default) means bitwise: floating-point values are
compared by their bits, so -0.0 differs from 0.0 and NaN equals only the same NaN.
"""
import argparse
import sys

import h5py
import numpy as np


def datasets(f):
    """Every dataset in `f`, by its path."""
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def compare(a, b, tol):
    """(same?, max abs, max rel, note) for two arrays of one shape."""
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(a64 - b64)
        scale = np.maximum(np.abs(a64), np.abs(b64))
        rel = np.where(scale > 0, diff / np.where(scale > 0, scale, 1.0), 0.0)
    max_abs = float(np.nanmax(diff)) if diff.size else 0.0
    max_rel = float(np.nanmax(rel)) if rel.size else 0.0
    if tol == 0:
        same = a.dtype == b.dtype and a.tobytes() == b.tobytes()
        note = "bitwise equal" if same else "bits differ"
    else:
        same = not np.isnan(diff).any() and bool(np.all(diff <= tol))
        note = f"within {tol:g}" if same else f"exceeds {tol:g}"
    return same, max_abs, max_rel, note


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--tolerance", type=float, default=0.0, help="max absolute difference allowed (0 = bitwise)")
    args = p.parse_args()
    if args.tolerance < 0:
        print("h5diff.py: --tolerance must be >= 0", file=sys.stderr)
        sys.exit(2)
    files = []
    for path in (args.a, args.b):
        try:
            files.append(h5py.File(path, "r"))
        except OSError as e:
            print(f"h5diff.py: {path}: cannot open as HDF5 ({e})", file=sys.stderr)
            sys.exit(2)
    da, db = datasets(files[0]), datasets(files[1])
    differ = False
    for name in sorted(set(da) | set(db)):
        if name not in da or name not in db:
            print(f"{name}: only in {args.a if name in da else args.b}")
            differ = True
            continue
        if da[name].shape != db[name].shape:
            print(f"{name}: shapes differ {da[name].shape} vs {db[name].shape}")
            differ = True
            continue
        same, max_abs, max_rel, note = compare(np.asarray(da[name][()]), np.asarray(db[name][()]), args.tolerance)
        print(f"{name}: max abs {max_abs:.6e}  max rel {max_rel:.6e}  ({note})")
        differ = differ or not same
    print("differ" if differ else "same")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

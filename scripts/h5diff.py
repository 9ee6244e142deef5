#!/usr/bin/env python3
"""Compares the datasets of two HDF5 files (cartex field files or checkpoints).

    h5diff.py A B [--tolerance T] [--fields u,...] [--ignore NAME,...]

By default only the solution fields are compared: of a checkpoint the datasets its `fields`
attribute lists (`u`, wave's `u_previous`), of a field file every dataset but `rank`, of any other
HDF5 file every dataset. The `rank` field and a checkpoint's `history` differ between runs on
different rank counts by design (who owned a cell; reductions rounded per rank count), so the
default confirms "bitwise on any rank count" between a 1-rank and a 3-rank run. `--fields` names
the datasets to compare instead (e.g. `--fields u,rank,history`), `--ignore` drops some.

Prints the max absolute and max relative difference per dataset compared and the datasets skipped.
Exit code 0 when every compared dataset exists in both files with the same shape and its max
absolute difference is <= T; 1 when they differ; 2 when a file cannot be read. T = 0 (the default)
means bitwise: floating-point values are compared by their bits, so -0.0 differs from 0.0 and NaN
equals only the same NaN.
"""
import argparse
import sys

from python_deps import require

require("h5py", "numpy")
import h5py  # noqa: E402
import numpy as np  # noqa: E402


def fail(msg):
    print(f"h5diff.py: {msg}", file=sys.stderr)
    sys.exit(2)


def datasets(f):
    """Every dataset in `f`, by its path."""
    out = {}
    f.visititems(lambda name, obj: out.__setitem__(name, obj) if isinstance(obj, h5py.Dataset) else None)
    return out


def text_attr(f, name, default):
    value = f.attrs.get(name, default)
    return value.decode() if isinstance(value, bytes) else str(value)


def solution_fields(f, names):
    """The datasets of `f` (names: all of them) that hold the solution (see the module comment)."""
    kind = text_attr(f, "kind", "")
    if kind == "cartex checkpoint":
        return [n for n in text_attr(f, "fields", "u").split(",") if n]  # layout version 1: only u
    if kind == "cartex fields":
        return [n for n in names if n != "rank"]
    return list(names)


def names_to_compare(files, found, fields, ignore):
    """(names to compare, names skipped) for the two open files and their datasets."""
    every = set(found[0]) | set(found[1])
    if fields:
        chosen = set(fields)
    else:
        chosen = set(solution_fields(files[0], found[0])) | set(solution_fields(files[1], found[1]))
    chosen -= set(ignore)
    return sorted(chosen), sorted(every - chosen)


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


def name_list(text):
    return [n.strip().lstrip("/") for n in text.split(",") if n.strip()]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--tolerance", type=float, default=0.0, help="max absolute difference allowed (0 = bitwise)")
    p.add_argument("--fields", type=name_list, default=[],
                   help="comma-separated datasets to compare (default: the solution fields)")
    p.add_argument("--ignore", type=name_list, default=[], help="comma-separated datasets not to compare")
    args = p.parse_args()
    if args.tolerance < 0:
        fail("--tolerance must be >= 0")
    files = []
    for path in (args.a, args.b):
        try:
            files.append(h5py.File(path, "r"))
        except OSError as e:
            fail(f"{path}: cannot open as HDF5 ({e})")
    found = [datasets(files[0]), datasets(files[1])]
    names, skipped = names_to_compare(files, found, args.fields, args.ignore)
    if not names:
        fail("no datasets to compare (check --fields and --ignore)")
    da, db = found
    differ = False
    for name in names:
        if name not in da or name not in db:
            where = "in neither file" if name not in da and name not in db else f"only in {args.a if name in da else args.b}"
            print(f"{name}: {where}")
            differ = True
            continue
        if da[name].shape != db[name].shape:
            print(f"{name}: shapes differ {da[name].shape} vs {db[name].shape}")
            differ = True
            continue
        same, max_abs, max_rel, note = compare(np.asarray(da[name][()]), np.asarray(db[name][()]), args.tolerance)
        print(f"{name}: max abs {max_abs:.6e}  max rel {max_rel:.6e}  ({note})")
        differ = differ or not same
    if skipped:
        print(f"not compared: {', '.join(skipped)} (--fields NAME,... compares them)")
    print("differ" if differ else "same")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

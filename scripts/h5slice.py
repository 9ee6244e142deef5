#!/usr/bin/env python3
"""Draws one slice of a cartex field file (or checkpoint) as a labelled PNG with a colour bar.

    h5slice.py FILE [--field u] [--axis z] [--index N] -o slice.png

Datasets are stored (z, y, x) with x fastest (docs/output.md); the slice is drawn in physical
coordinates from the file's origin and spacing attributes. The default index is the middle plane.
Needs numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib).
"""
import argparse
import sys

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

AXES = {"z": 0, "y": 1, "x": 2}  # dataset index of each axis name
XYZ = {"x": 0, "y": 1, "z": 2}   # attribute index (origin, spacing are stored x, y, z)


def fail(msg):
    print(f"h5slice.py: {msg}", file=sys.stderr)
    sys.exit(2)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--field", default="u", help="dataset to draw (default u)")
    p.add_argument("--axis", choices=sorted(AXES), default="z", help="axis normal to the slice (default z)")
    p.add_argument("--index", type=int, help="cell index along --axis (default: the middle)")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    a = p.parse_args()
    try:
        f = h5py.File(a.file, "r")
    except OSError as e:
        fail(f"{a.file}: cannot open as HDF5 ({e})")
    with f:
        if a.field not in f or not isinstance(f[a.field], h5py.Dataset) or f[a.field].ndim != 3:
            names = sorted(k for k in f if isinstance(f[k], h5py.Dataset) and f[k].ndim == 3)
            fail(f"{a.file}: no 3D field {a.field!r} (fields: {', '.join(names) or 'none'})")
        d = f[a.field]
        ax = AXES[a.axis]
        n = d.shape[ax]
        index = n // 2 if a.index is None else a.index
        if not 0 <= index < n:
            fail(f"--index {index} is outside 0..{n - 1} along {a.axis}")
        sel = [slice(None)] * 3
        sel[ax] = index
        plane = np.asarray(d[tuple(sel)])
        origin = np.asarray(d.attrs.get("origin", f.attrs.get("origin", [0.0, 0.0, 0.0])), dtype=float)
        spacing = np.asarray(d.attrs.get("spacing", f.attrs.get("spacing", [1.0, 1.0, 1.0])), dtype=float)
        step = f.attrs.get("step")
        time = f.attrs.get("time")
    # The two in-plane axes, slowest first as in the dataset: rows then columns of `plane`.
    rows, cols = [name for name in ("z", "y", "x") if name != a.axis]

    def extent(name, count):
        i = XYZ[name]
        lo = origin[i] - 0.5 * spacing[i]
        return lo, lo + count * spacing[i]

    x0, x1 = extent(cols, plane.shape[1])
    y0, y1 = extent(rows, plane.shape[0])
    fig, axes = plt.subplots(figsize=(6, 5))
    im = axes.imshow(plane, origin="lower", extent=(x0, x1, y0, y1), cmap="viridis", aspect="equal")
    axes.set_xlabel(cols)
    axes.set_ylabel(rows)
    where = origin[XYZ[a.axis]] + index * spacing[XYZ[a.axis]]
    title = f"{a.field} at {a.axis} index {index} ({a.axis} = {where:.4g})"
    if step is not None:
        title += f", step {int(step)}"
    if time is not None:
        title += f", t = {float(time):.4g}"
    axes.set_title(title, fontsize=10)
    fig.colorbar(im, ax=axes, label=a.field)
    fig.tight_layout()
    fig.savefig(a.output, dpi=100)
    print(f"h5slice.py: wrote {a.output} ({plane.shape[1]}x{plane.shape[0]} cells, {a.field} in "
          f"[{plane.min():.6g}, {plane.max():.6g}])")


if __name__ == "__main__":
    main()

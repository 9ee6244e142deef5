#!/usr/bin/env python3
"""Draws one slice of a cartex field file (or checkpoint) as a labelled PNG with a colour bar.

    h5slice.py FILE [--field u] [--axis z] [--index N] -o slice.png

Datasets are stored (z, y, x) with x fastest (docs/output.md); the slice is drawn in physical
coordinates from the file's origin and spacing attributes, one pixel per grid point. The default
index is the plane that holds the field's largest |value| (the middle plane can be a zero of the
initial sine mode); the script says which plane it drew. A plane one point thick (a 2D file cut
along x or y) is drawn as a curve, not as a one-pixel strip.
Needs numpy, h5py and matplotlib (Debian: python3-numpy python3-h5py python3-matplotlib).
"""
import argparse
import os
import sys

from python_deps import require

require("h5py", "numpy", "matplotlib")
import h5py  # noqa: E402
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

AXES = {"z": 0, "y": 1, "x": 2}  # dataset index of each axis name
XYZ = {"x": 0, "y": 1, "z": 2}   # attribute index (origin, spacing are stored x, y, z)


def fail(msg):
    print(f"h5slice.py: {msg}", file=sys.stderr)
    sys.exit(2)


def read_plane(path, field, axis, index):
    """(plane, index, chosen, origin, spacing, step, time) of `field` in file `path`; `chosen` says
    why that index: given, or the plane of the largest |value| when `index` is None."""
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: cannot open as HDF5 ({e})")
    with f:
        if field not in f or not isinstance(f[field], h5py.Dataset) or f[field].ndim != 3:
            names = sorted(k for k in f if isinstance(f[k], h5py.Dataset) and f[k].ndim == 3)
            fail(f"{path}: no 3D field {field!r} (fields: {', '.join(names) or 'none'})")
        d = f[field]
        ax = AXES[axis]
        n = d.shape[ax]
        if index is None:
            data = np.abs(np.asarray(d[()], dtype=float))
            index = int(np.unravel_index(np.nanargmax(data), data.shape)[ax]) if data.size else 0
            chosen = "the plane of the largest |value|"
        elif not 0 <= index < n:
            fail(f"--index {index} is outside 0..{n - 1} along {axis}")
        else:
            chosen = "given by --index"
        sel = [slice(None)] * 3
        sel[ax] = index
        plane = np.asarray(d[tuple(sel)])
        origin = np.asarray(d.attrs.get("origin", f.attrs.get("origin", [0.0, 0.0, 0.0])), dtype=float)
        spacing = np.asarray(d.attrs.get("spacing", f.attrs.get("spacing", [1.0, 1.0, 1.0])), dtype=float)
        return plane, index, chosen, origin, spacing, f.attrs.get("step"), f.attrs.get("time")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file")
    p.add_argument("--field", default="u", help="dataset to draw (default u)")
    p.add_argument("--axis", choices=sorted(AXES), default="z", help="axis normal to the slice (default z)")
    p.add_argument("--index", type=int, help="point index along --axis (default: the plane of the largest |value|)")
    p.add_argument("-o", "--output", required=True, help="PNG file to write")
    a = p.parse_args()
    out_dir = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(out_dir):
        fail(f"-o {a.output}: directory {out_dir} does not exist")
    plane, index, chosen, origin, spacing, step, time = read_plane(a.file, a.field, a.axis, a.index)
    # The two in-plane axes, slowest first as in the dataset: rows then columns of `plane`.
    rows, cols = [name for name in ("z", "y", "x") if name != a.axis]

    def coords(name, count):
        return origin[XYZ[name]] + np.arange(count) * spacing[XYZ[name]]

    fig, axes = plt.subplots(figsize=(6, 5))
    drawn = "an image"
    if 1 in plane.shape and plane.size > 1:
        # One point thick (a 2D file cut along x or y): a curve along the other in-plane axis.
        along = cols if plane.shape[0] == 1 else rows
        drawn = f"a curve along {along} (the plane is one point thick)"
        axes.plot(coords(along, plane.size), plane.ravel(), "o-", markersize=3)
        axes.set_xlabel(along)
        axes.set_ylabel(a.field)
        axes.grid(True, alpha=0.3)
    else:
        # One pixel per grid point, centred on it: the image spans half a spacing beyond the end points.
        xs, ys = coords(cols, plane.shape[1]), coords(rows, plane.shape[0])
        hx, hy = 0.5 * spacing[XYZ[cols]], 0.5 * spacing[XYZ[rows]]
        im = axes.imshow(plane, origin="lower", extent=(xs[0] - hx, xs[-1] + hx, ys[0] - hy, ys[-1] + hy),
                         cmap="viridis", aspect="equal")
        axes.set_xlabel(cols)
        axes.set_ylabel(rows)
        fig.colorbar(im, ax=axes, label=a.field)
    where = origin[XYZ[a.axis]] + index * spacing[XYZ[a.axis]]
    title = f"{a.field} at {a.axis} index {index} ({a.axis} = {where:.4g})"
    if step is not None:
        title += f", step {int(step)}"
    if time is not None:
        title += f", t = {float(time):.4g}"
    axes.set_title(title, fontsize=10)
    fig.tight_layout()
    try:
        fig.savefig(a.output, dpi=100)
    except OSError as e:
        fail(f"-o {a.output}: cannot write ({e.strerror or e})")
    print(f"h5slice.py: drew {a.field} on the {a.axis} plane index {index} ({a.axis} = {where:.6g}, {chosen}), "
          f"{plane.shape[1]}x{plane.shape[0]} points, {a.field} in [{plane.min():.6g}, {plane.max():.6g}], as {drawn}; "
          f"wrote {a.output}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The XDMF files as ParaView's XDMF (version 2) reader reads them: valid XML; a temporal collection
of uniform grids, each with one Time (the file's simulated time), a 3DCoRectMesh topology and an
ORIGIN_DXDYDZ geometry whose nodes are the grid points x0 + i*h (periodic: 0 .. L-h; walls:
h .. L-h); node-centred scalar attributes whose HDF5 datasets exist, relative to the XDMF file, with
the topology's dimensions and the declared number type and precision. For field files
(fields.xmf) and for every checkpoint (checkpoint_NNNNNN.xmf, the state a restart starts from).
One case per ctest:

    xdmf_test.py --heat3d PATH --wave3d PATH --mpiexec PATH CASE
"""
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import BASE_INPUT, check, set_args, write  # noqa: E402
import cartex_testing  # noqa: E402

ARGS = None  # the command line, set by cartex_testing.run_case

# HDF5 dtype of each (NumberType, Precision) the reader maps to a VTK array type.
DTYPES = {("Float", "8"): np.dtype("float64"), ("Float", "4"): np.dtype("float32"), ("Int", "4"): np.dtype("int32"),
          ("Int", "8"): np.dtype("int64")}


def run(program, ranks, d, sets):
    code, out, err, _ = cartex_testing.mpirun(ARGS.mpiexec, ranks, program, ["in.yaml"] + set_args(sets), d)
    check(code == 0, f"{os.path.basename(program)} {sets} on {ranks} ranks exited {code}: {err}")


def one(parent, tag, where):
    """The single child `tag` of `parent` (a failure if there are none or several)."""
    found = parent.findall(tag)
    check(len(found) == 1, f"{where}: {len(found)} <{tag}> elements, expected 1")
    return found[0] if found else ET.Element(tag)


def numbers(item, where):
    values = [float(v) for v in (item.text or "").split()]
    check(item.get("Format") == "XML" and item.get("Dimensions") == "3" and len(values) == 3,
          f"{where}: geometry DataItem {item.attrib} {item.text!r}")
    check(item.get("NumberType", "Float") == "Float" and item.get("Precision") == "8", f"{where}: geometry precision {item.attrib}")
    return values + [0.0] * (3 - len(values))


def check_geometry(grid, where, n, length, periodic, dims):
    """Topology dims (z, y, x) and ORIGIN_DXDYDZ: node i of dimension d at x0 + i*h, the grid point."""
    topo = one(grid, "Topology", where)
    check(topo.get("TopologyType") == "3DCoRectMesh", f"{where}: topology {topo.get('TopologyType')}")
    check(tuple(int(x) for x in topo.get("Dimensions", "").split()) == dims, f"{where}: topology {topo.get('Dimensions')}, expected {dims}")
    geo = one(grid, "Geometry", where)
    check(geo.get("GeometryType") == "ORIGIN_DXDYDZ", f"{where}: geometry {geo.get('GeometryType')}")
    items = geo.findall("DataItem")
    if not check(len(items) == 2, f"{where}: geometry has {len(items)} DataItems"):
        return None, None
    origin, spacing = numbers(items[0], where)[::-1], numbers(items[1], where)[::-1]  # now x, y, z
    for d in range(len(n)):
        h = length[d] / n[d] if periodic[d] else length[d] / (n[d] + 1)
        first = 0.0 if periodic[d] else h
        check(abs(spacing[d] - h) < 1e-15 and abs(origin[d] - first) < 1e-15,
              f"{where}: dimension {d}: origin {origin[d]}, spacing {spacing[d]}, expected {first}, {h}")
        last = origin[d] + (n[d] - 1) * spacing[d]
        check(abs(last - (length[d] - h)) < 1e-12, f"{where}: dimension {d}: last node at {last}, expected L - h = {length[d] - h}")
    check(all(s > 0 for s in spacing), f"{where}: spacing {spacing}")
    return origin, spacing


def check_attributes(grid, where, xmf_dir, dims, expected_fields):
    """Node-centred scalars referencing existing datasets of the right shape and type; returns the files."""
    attrs = grid.findall("Attribute")
    names = [a.get("Name") for a in attrs]
    check(names == expected_fields, f"{where}: attributes {names}, expected {expected_fields}")
    files = set()
    for a in attrs:
        check(a.get("AttributeType") == "Scalar" and a.get("Center") == "Node", f"{where}: attribute {a.attrib}")
        item = one(a, "DataItem", f"{where} {a.get('Name')}")
        check(item.get("Format") == "HDF", f"{where}: {a.get('Name')} format {item.get('Format')}")
        check(tuple(int(x) for x in item.get("Dimensions", "").split()) == dims, f"{where}: {a.get('Name')} dims {item.get('Dimensions')}")
        file, _, dset = (item.text or "").strip().partition(":")
        check(not os.path.isabs(file) and dset.startswith("/"), f"{where}: reference {item.text!r} (file relative to the XDMF)")
        path = os.path.join(xmf_dir, file)
        if not check(os.path.exists(path), f"{where}: references missing file {file}"):
            continue
        files.add(path)
        with h5py.File(path, "r") as f:
            if not check(dset in f, f"{where}: references missing dataset {file}:{dset}"):
                continue
            want = DTYPES.get((item.get("NumberType", "Float"), item.get("Precision", "4")))
            check(f[dset].shape == dims, f"{where}: {file}:{dset} shape {f[dset].shape}, XDMF says {dims}")
            check(want is not None and f[dset].dtype == want,
                  f"{where}: {file}:{dset} is {f[dset].dtype}, XDMF says {item.get('NumberType')} {item.get('Precision')}")
    return files


def check_xdmf(path, n, length, periodic, fields, collection):
    """Checks one XDMF file as the reader reads it; returns its (step, time) list."""
    dims = (n[2] if len(n) == 3 else 1, n[1], n[0])
    root = ET.parse(path).getroot()  # raises (the test fails) if the XML is not well formed
    check(root.tag == "Xdmf" and root.get("Version", "").startswith("2"), f"{path}: root {root.tag} {root.attrib}")
    coll = one(one(root, "Domain", path), "Grid", path)
    check(coll.get("GridType") == "Collection" and coll.get("CollectionType") == "Temporal" and coll.get("Name") == collection,
          f"{path}: top grid {coll.attrib}")
    series = []
    for grid in coll.findall("Grid"):
        where = f"{os.path.basename(path)} {grid.get('Name')}"
        check(grid.get("GridType") == "Uniform", f"{where}: grid type {grid.get('GridType')}")
        time = float(one(grid, "Time", where).get("Value", "nan"))
        n3, l3, p3 = list(n) + [1] * (3 - len(n)), list(length) + [1.0] * (3 - len(length)), list(periodic) + [True] * (3 - len(periodic))
        origin, spacing = check_geometry(grid, where, n3[: len(n)], l3, p3, dims)
        for file in check_attributes(grid, where, os.path.dirname(path), dims, fields):
            with h5py.File(file, "r") as f:
                check(f.attrs["time"] == time and f"step {f.attrs['step']}" == grid.get("Name"),
                      f"{where}: XDMF time {time}, {os.path.basename(file)} has step {f.attrs['step']} time {f.attrs['time']}")
                if origin is not None:
                    check(np.allclose(f.attrs["origin"][: len(n)], origin[: len(n)], rtol=0, atol=1e-15)
                          and np.allclose(f.attrs["spacing"][: len(n)], spacing[: len(n)], rtol=0, atol=1e-15),
                          f"{where}: XDMF geometry differs from {os.path.basename(file)}'s origin/spacing")
        series.append((int(grid.get("Name").split()[-1]), time))
    check(len(series) > 0, f"{path}: no grids")
    check(all(a[1] < b[1] for a, b in zip(series, series[1:])), f"{path}: times not increasing: {series}")
    return series


def case_fields():
    """fields.xmf of a periodic 3D run on 2 ranks, a 3D run with walls on 3 ranks and a 2D run."""
    runs = [
        ("periodic", 2, [12, 10, 8], [1.0, 1.0, 1.0], [True, True, True], []),
        ("walls", 3, [11, 9, 12], [2.0, 1.0, 0.5], [False, True, False], ["grid.periodic=[false,true,false]", "init.type=gaussian"]),
        ("2d", 1, [14, 9], [1.0, 3.0], [True, False], ["grid.periodic=[true,false]"]),
    ]
    with tempfile.TemporaryDirectory() as d:
        write(d, "in.yaml", BASE_INPUT)
        for name, ranks, n, length, periodic, sets in runs:
            grid = [f"grid.n=[{','.join(map(str, n))}]", f"grid.length=[{','.join(map(str, length))}]"]
            run(ARGS.heat3d, ranks, d, grid + sets + ["output.every=8", "output.fields=[u,rank]", f"output.dir={name}"])
            series = check_xdmf(os.path.join(d, name, "fields.xmf"), n, length, periodic, ["u", "rank"], "fields")
            check([s for s, _ in series] == [0, 8, 16, 20] and series[0][1] == 0.0, f"{name}: XDMF steps {series}")


def case_checkpoints():
    """Every checkpoint has checkpoint_NNNNNN.xmf showing the fields a restart reads (wave: u and
    u_previous); pruned checkpoints lose their XDMF too."""
    with tempfile.TemporaryDirectory() as d:
        for program, coefficient, fields in [(ARGS.heat3d, "alpha", ["u"]), (ARGS.wave3d, "speed", ["u", "u_previous"])]:
            write(d, "in.yaml", BASE_INPUT.replace("alpha", coefficient))
            out = os.path.join(d, fields[-1])
            run(program, 2, d, ["grid.periodic=[true,false,true]", "output.checkpoint_every=5", "output.keep_checkpoints=2",
                                f"output.dir={fields[-1]}"])
            names = sorted(os.listdir(out))
            check(names == ["checkpoint_000015.h5", "checkpoint_000015.xmf", "checkpoint_000020.h5", "checkpoint_000020.xmf"],
                  f"{os.path.basename(program)}: files {names}")
            for step in (15, 20):
                xmf = os.path.join(out, f"checkpoint_{step:06d}.xmf")
                if check(os.path.exists(xmf), f"no {xmf}"):
                    series = check_xdmf(xmf, [12, 10, 8], [1.0, 1.0, 1.0], [True, False, True], fields, "checkpoint")
                    check([s for s, _ in series] == [step], f"{xmf}: steps {series}")


if __name__ == "__main__":
    cartex_testing.run_case(globals(), ["heat3d", "wave3d"])

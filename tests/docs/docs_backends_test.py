#!/usr/bin/env python3
"""docs/backends.md follows the halo registry (heat3d --list-backends, rows this build's MPI cannot run
included): its table of backends has one row per registry backend and no other, and its measured
table a row for every backend, so that a backend added to the registry cannot go undocumented or
unmeasured (as tests/apps/input_test.py does for docs/input.md and --help-input).

    docs_backends_test.py --heat3d PATH --mpiexec PATH --doc docs/backends.md
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check  # noqa: E402
import cartex_testing  # noqa: E402

FIRST_CELL = re.compile(r"^\| `([a-z0-9_]+)`")
UNAVAILABLE = re.compile(r"^([a-z0-9_]+) +unavailable: ")  # a row this build's MPI cannot run (still documented)


def section_names(text, heading):
    """The backend names in the first column of the table under the `## heading...` section, in order."""
    m = re.search(rf"^## {re.escape(heading)}.*?$(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not check(m, f"no section '## {heading}' in docs/backends.md"):
        return []
    return [c.group(1) for c in map(FIRST_CELL.match, m.group(1).splitlines()) if c]


def main():
    p = argparse.ArgumentParser()
    for name in ("heat3d", "mpiexec", "doc"):
        p.add_argument("--" + name, required=True)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        code, out, err, _ = cartex_testing.mpirun(args.mpiexec, 1, os.path.abspath(args.heat3d), ["--list-backends"], d)
    registry = [m.group(1) for line in out.splitlines()
                for m in [cartex_testing.BACKEND_LINE.match(line) or UNAVAILABLE.match(line)] if m]
    check(code == 0 and registry, f"heat3d --list-backends: exit {code}\n{out}{err}")
    with open(args.doc, encoding="utf-8") as f:
        text = f.read()
    table = section_names(text, "The backends")
    check(sorted(table) == sorted(registry) and len(table) == len(set(table)),
          f"docs/backends.md's table of backends {table} is not the registry's {registry}: missing "
          f"{sorted(set(registry) - set(table))}, not in the registry {sorted(set(table) - set(registry))}")
    measured = section_names(text, "Measured")
    check(set(measured) == set(registry),
          f"docs/backends.md's measured table: no row for {sorted(set(registry) - set(measured))}, rows not in the "
          f"registry {sorted(set(measured) - set(registry))}")
    cartex_testing.finish("docs_backends")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Every C and C++ source line of the repository fits the ColumnLimit of its .clang-format (the
style the code is written in; format what you change with `git clang-format`).

    line_length_test.py --root SOURCE_DIR
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check  # noqa: E402
import cartex_testing  # noqa: E402

SOURCES = (".c", ".h", ".cpp", ".hpp", ".cu")
SKIP_DIRS = {".git", "__pycache__"}


def column_limit(root):
    with open(os.path.join(root, ".clang-format")) as f:
        m = re.search(r"^ColumnLimit:\s*(\d+)\s*$", f.read(), re.M)
    check(m is not None, ".clang-format has no ColumnLimit")
    return int(m.group(1)) if m else 0


def source_files(root):
    for d, dirs, files in os.walk(root):
        # Build trees (build/, build-asan/, ...) hold generated and fetched code, not cartex's.
        dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
        for name in sorted(files):
            if name.endswith(SOURCES):
                yield os.path.join(d, name)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    root = os.path.abspath(p.parse_args().root)
    limit = column_limit(root)
    files = list(source_files(root))
    check(len(files) > 100, f"only {len(files)} source files found under {root}")
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                width = len(line.rstrip("\n"))
                check(width <= limit, f"{os.path.relpath(path, root)}:{n}: {width} columns (limit {limit})")
    cartex_testing.finish("line_length")


if __name__ == "__main__":
    main()

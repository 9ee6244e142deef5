#!/usr/bin/env python3
"""No MPI call's result is discarded: a call `MPI_Xxx(` or `(void)MPI_Xxx(` that starts a statement
(at the start of a line's code, or after `;`, `{`, `}`, `else`, `if (...)`, `for (...)` or
`while (...)` on the same line) throws away the error code, and under MPI_ERRORS_RETURN a failing call would then go unnoticed. Each layer's
check_mpi (or check_mpi_nothrow in destructors) takes the code instead. MPI_Abort (does not return
on success), MPI_Wtime and MPI_Wtick (return a time, not an error code) are left out.

    mpi_results_checked_test.py --root SOURCE_DIR
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check  # noqa: E402
import cartex_testing  # noqa: E402

LAYERS = ("core", "kernels", "physics", "apps", "comm", "examples")
SOURCES = (".c", ".h", ".cpp", ".hpp")
SKIP_DIRS = {".git", "__pycache__"}
NOT_ERROR_CODES = {"MPI_Abort", "MPI_Wtime", "MPI_Wtick"}

CALL = re.compile(r"(?:\(void\)\s*)?\b(MPI_[A-Z][A-Za-z_]*)\s*\(")
CONTROL = re.compile(r"\b(?:if|for|while)\s*$")


def starts_statement(before):
    """True when code `before` a call leaves the call as a statement of its own: nothing, `;`, `{`,
    `}`, `else`, a lambda's `[...] {`, or the condition of `if (...)`, `for (...)`, `while (...)`."""
    before = before.rstrip()
    if before == "" or before.endswith((";", "{", "}")) or re.search(r"\belse$", before):
        return True
    if not before.endswith(")"):
        return False
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(before[i], 0)
        if depth == 0:
            return CONTROL.search(before[:i]) is not None
    return False


def source_files(root):
    for layer in LAYERS:
        for d, dirs, files in os.walk(os.path.join(root, layer)):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and not x.startswith("build"))
            for name in sorted(files):
                if name.endswith(SOURCES):
                    yield os.path.join(d, name)


def code_of(line):
    """The line without a // comment (string literals holding // are not in these sources' MPI lines)."""
    return line.split("//", 1)[0]


def discarded_calls(text):
    """(line number, call) of every statement-level MPI call in `text` whose result is discarded."""
    for n, line in enumerate(text.splitlines(), 1):
        code = code_of(line)
        for m in CALL.finditer(code):
            if m.group(1) not in NOT_ERROR_CODES and starts_statement(code[:m.start()]):
                yield n, m.group(1)


def self_test():
    """The pattern finds what it must and leaves checked calls alone (a broken regex fails here)."""
    found = [c for _, c in discarded_calls(
        "  MPI_Barrier(comm);\n"
        "  (void)MPI_Comm_rank(comm, &r);\n"
        "  if (x != MPI_COMM_NULL) MPI_Comm_free(&x);\n"
        "  for (auto& t : types) MPI_Type_free(&t);\n"
        "  run = [=] { MPI_Neighbor_alltoall(s, m, MPI_INT, r, m, MPI_INT, g); };\n"
        "  run = [=] { MPI_Request q; check_mpi(MPI_Ibarrier(g, &q), \"MPI_Ibarrier\"); MPI_Wait(&q, MPI_STATUS_IGNORE); };\n")]
    check(found == ["MPI_Barrier", "MPI_Comm_rank", "MPI_Comm_free", "MPI_Type_free", "MPI_Neighbor_alltoall", "MPI_Wait"],
          f"self-test: discarded calls found {found}")
    kept = list(discarded_calls(
        "  check_mpi(MPI_Barrier(comm), \"MPI_Barrier\");\n"
        "  if (MPI_Comm_rank(comm, &r) != MPI_SUCCESS) r = -1;\n"
        "  const int rc = MPI_Waitall(n, q, MPI_STATUSES_IGNORE);\n"
        "  MPI_Abort(MPI_COMM_WORLD, 1);\n"
        "  const double t = MPI_Wtime();\n"
        "  if (rank == 0) MPI_Abort(MPI_COMM_WORLD, 1);\n"
        "  for (int i = 0; i < n; ++i) check_mpi(MPI_Type_free(&t[i]), \"MPI_Type_free\");\n"
        "  // MPI_Barrier(comm) in a comment\n"))
    check(kept == [], f"self-test: checked calls reported as discarded: {kept}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    root = os.path.abspath(p.parse_args().root)
    self_test()
    files = list(source_files(root))
    check(len(files) > 100, f"only {len(files)} source files found under {root}")
    for path in files:
        with open(path, encoding="utf-8") as f:
            for n, call in discarded_calls(f.read()):
                check(False, f"{os.path.relpath(path, root)}:{n}: the result of {call} is discarded "
                             "(check it: check_mpi, or check_mpi_nothrow in a destructor)")
    cartex_testing.finish("mpi_results_checked")


if __name__ == "__main__":
    main()

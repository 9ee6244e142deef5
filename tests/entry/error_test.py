#!/usr/bin/env python3
"""main's error handling, one way for every kind (cartex::entry::run_main): an InputError is its one
located line and exit 2 on every rank; a cartex::core::Error, comm/graph's error (a cartex::core::Error) and
comm/cart's error (mapped with its MPI error class) are one line and exit 1 on every rank; no raw
exception text, no hang. Errors in the set-up are agreed on (each rank exits itself); errors in the
run end the job (MPI_Abort) with the same code."""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import check, own_lines, mpirun, run_case  # noqa: E402

RANKS = 3
LINES = {
    "input": "input.yaml:3:7: grid.n: expected a list of 2 or 3 positive integers",
    "cartex": "error: cannot write out/history.csv.tmp",
    "graph": "error: MPI_Dist_graph_neighbors_count failed: ",
    "cart": "error: CX_Cart_neighborhood_create: 0 neighbors (MPI error class ",
}
CODES = {"input": 2, "cartex": 1, "graph": 1, "cart": 1}


def run(kind, phase):
    """(exit code, cartex's stderr lines, per-rank exit codes) of error_program KIND PHASE."""
    with tempfile.TemporaryDirectory() as cwd:
        code, _, err, ranks = mpirun(ARGS.mpiexec, RANKS, ARGS.program, [kind, phase], cwd,
                                     per_rank_codes=phase == "setup", timeout=60)
    return code, own_lines(err), ranks


def expect_line(lines, kind, prefix, what):
    """Checks that `lines` is the one line of `kind`'s error after `prefix`."""
    if not check(len(lines) == 1, f"{what}: one line on stderr, got {lines}"):
        return
    line, want = lines[0], prefix + LINES[kind]
    exact = kind == "input" or kind == "cartex"
    check(line == want if exact else line.startswith(want), f"{what}: line {line!r}, expected {want!r}")
    if kind == "cart":
        check(re.search(r"\(MPI error class \d+: \S.*\)$", line), f"{what}: names the MPI error class and its text: {line!r}")
    if kind == "graph":
        check(len(line) > len(want), f"{what}: names MPI's text: {line!r}")


def case_setup():
    """Every kind thrown in the set-up on the last rank: its line once, its code on every rank."""
    for kind in LINES:
        _, lines, ranks = run(kind, "setup")
        what = f"{kind} in set-up"
        # mpiexec's own code is not asserted here: with per-rank codes it may not kill or report.
        check(ranks == [CODES[kind]] * RANKS, f"{what}: per-rank exit codes {ranks}, expected all {CODES[kind]}")
        expect_line(lines, kind, "", what)
        check(not any("terminate called" in l or "what():" in l for l in lines), f"{what}: raw exception: {lines}")


def case_run():
    """Every kind thrown in the run on the last rank while the others wait: the job ends with its
    code and one line naming the rank."""
    for kind in LINES:
        code, lines, _ = run(kind, "run")
        what = f"{kind} in run"
        check(code == CODES[kind], f"{what}: exit {code}, expected {CODES[kind]}")
        # Open MPI adds its own MPI_ABORT banner; cartex's line is the one naming the rank.
        mine = [l for l in lines if l.startswith("rank ")]
        prefix = f"rank {RANKS - 1}: " + ("error: " if kind == "input" else "")
        expect_line(mine, kind, prefix, what)


if __name__ == "__main__":
    run_case(globals(), ["program"])

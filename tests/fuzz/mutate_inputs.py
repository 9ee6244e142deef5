#!/usr/bin/env python3
"""Mutation campaign over the shipped inputs (issue 13): each mutant of an inputs/*.yaml file (lines
dropped, duplicated or swapped, values set to extremes, huge or negative numbers, wrong types, deep
halos, bad stencils, control bytes, complex keys, size-like keys far out of range) goes through
`heat3d --dry-run` (wave3d for the wave input, advect3d for the advection one) on every rank count given. Each run must exit 0 or 2
within the time limit, never by a signal, and an exit 2 must print exactly one located line
("mutant.yaml:LINE:COL: key: what" or "--set ...: key: what") and nothing else. Failures are kept
(mutant and stderr) in --keep. Same seed, same mutants.

    mutate_inputs.py --heat3d PATH --wave3d PATH --advect3d PATH --mpiexec PATH --inputs DIR [--count N] [--seed S]
                     [--ranks 1,2] [--timeout 20] [--jobs 4] [--keep DIR]
"""
import argparse
import concurrent.futures
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from cartex_testing import mpi_command, own_lines, per_rank_output  # noqa: E402

EXTREME_VALUES = [
    "0", "-1", "1", "-0", "2147483647", "2147483648", "-2147483648", "4294967297", "1073741825",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1e15", "1e16", "1e300", "-1e300",
    "1e-320", "5e-324", ".nan", ".inf", "-.inf", "0x7fffffff", "0o777", "1_000", "''", "~", "null", "[]", "{}",
    "[1, 2]", "[1, 2, 3, 4]", "[[1]]", "{a: 1}", "true", "no", "abc", '"\\x00"', "&a 1", "*a", "!!binary AAAA",
    "[1000000, 1000000, 1000000]", "[2147483647, 2, 2]", "[0, 0, 0]", "'1e999'",
]

# key: values far out of range or of the wrong shape, for the size review of issue 13.
KEY_VALUES = {
    "grid:\n  n": ["[2147483647, 10, 8]", "[1073741824, 1073741824, 1073741824]", "[1000000, 1000000, 1000]",
                   "[100000, 100000]", "[1, 1, 1]", "[3, 3]", "[4294967296, 2, 2]"],
    "halo:\n  steps_per_exchange": ["1000", "64", "7", "1000000000000", "-5", "2.5"],
    "stencil": ["13pt", "{type: star, order: 10}", "{type: star, order: 1000000000000}", "{type: star, radius: 99}",
                "{type: box, radius: 4}", "{offsets: [[0, 0, 0], [-2147483648, 0, 0], [2147483647, 0, 0]], weights: [-2, 1, 1]}",
                "{offsets: [[0, 0, 0], [9, 0, 0], [-9, 0, 0]], weights: [-2, 1, 1], derivative: 0}",
                "{offsets: [[-1, 0, 0], [1, 0, 0]], weights: [-0.5, 0.5], derivative: 1}",
                "{offsets: [[0, 0, 0], [-1, 0, 0], [-2, 0, 0]], weights: [-1.5, 2, -0.5], derivative: 7}",
                "{offsets: [[0, 0, 0], [-1, 0, 0], [1, 0, 0]], weights: [-2, 1, 1.1], divide_by_h2: true}",
                "{offsets: [], weights: []}", "{type: star}", "{offsets: [[0, 0]], weights: [0]}"],
    "processes:\n  dims": ["[1000000, 1, 1]", "[2147483647, 2147483647, 2147483647]", "[64, 64, 64]", "[0, 0, 1000]",
                           "[3, 0, 0]", "[-1, 1, 1]"],
    "run:\n  steps": ["4294967297", "1000000000000000", "1000000000000001", "9223372036854775807", "0"],
    "run:\n  end_time": ["1e300", "1e18", "1e-300", "5e-324", "1.0"],
    "run:\n  wall_time_limit": ["1e300", "1e-300", "-1"],
    "run:\n  progress_every": ["9223372036854775807", "1"],
    "init:\n  modes": ["1000000", "[1000000, 1, 1]", "2147483647", "2147483648", "0"],
    "init:\n  width": ["1e-300", "1e300", "0"],
    "output:\n  every": ["9223372036854775807", "1"],
    "output:\n  every_time": ["1e300", "1e-300", "5e-324"],
    "output:\n  checkpoint_every": ["9223372036854775807", "1"],
    "output:\n  checkpoint_every_time": ["1e300", "5e-324"],
    "output:\n  keep_checkpoints": ["9223372036854775807", "1000000000"],
    "output:\n  fields": ["[u, u]", "[v]", "[]"],
    "physics:\n  cfl": ["1e-300", "5e-324", "1"],
    "physics:\n  dt": ["1e-300", "5e-324", "1e300"],
    "physics:\n  alpha": ["1e300", "1e-300"],
    "physics:\n  speed": ["1e300", "1e-300"],
    "grid:\n  length": ["1e300", "1e-300", "[1e300, 1e-300, 1]"],
    "comm:\n  backend": ["auto", "graph_combining", "cart_forwarding"],
}

CONTROL_BYTES = ["\0", "\x01", "\x1b", "\x7f", "\t", "\r", "\x0b", "\x0c", "\xff"]

LOCATED = re.compile(r"^(mutant\.yaml:[0-9]+:[0-9]+|--(set|unset) [^\n]*?): [^\n]+: [^\n]+$")


def mutate_line(lines, rng):
    """One line-level mutation: drop, duplicate, swap, re-indent, or replace a value."""
    i = rng.randrange(len(lines))
    kind = rng.randrange(5)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:
        lines[i] = (" " * rng.choice([1, 2, 4])) + lines[i] if rng.random() < 0.5 else lines[i].lstrip()
    elif ":" in lines[i]:
        head = lines[i].split(":", 1)[0]
        lines[i] = f"{head}: {rng.choice(EXTREME_VALUES)}"


def mutate(text, rng):
    """1 to 3 mutations of `text` (a YAML input)."""
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(6)
        lines = text.split("\n")
        if kind <= 1 and lines:
            mutate_line(lines, rng)
            text = "\n".join(lines)
        elif kind == 2:
            key = rng.choice(list(KEY_VALUES))
            text += f"\n{key}: {rng.choice(KEY_VALUES[key])}\n"
        elif kind == 3:
            at = rng.randrange(len(text) + 1)
            text = text[:at] + rng.choice(CONTROL_BYTES) + text[at:]
        elif kind == 4:
            text += rng.choice(["\n? [a]: b\n", "\ngrid:\n  ? {x: 1}\n  : 2\n", "\n? a\n", "\n[1, 2]: 3\n", "\n!!set {a}\n"])
        else:
            text = text[:rng.randrange(len(text) + 1)]
    return text


def run_one(job):
    """Runs one mutant; returns (job, problem or None, exit code)."""
    args, index, source, text, app, ranks = job
    work = tempfile.mkdtemp(prefix="cartex-mutant-")
    try:
        with open(os.path.join(work, "mutant.yaml"), "w", encoding="latin-1") as f:
            f.write(text)
        # Each rank's stderr from its own file (the merged stream can cut Kokkos' lines into cartex's).
        rank_dir = os.path.join(work, "ranks")
        cmd = mpi_command(args.mpiexec, ranks, app, ["mutant.yaml", "--dry-run"], work, output_dir=rank_dir)
        proc = subprocess.Popen(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        try:
            _, err = proc.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
            return job, f"no exit within {args.timeout} s", None
        err = (per_rank_output(args.mpiexec, rank_dir, ranks, err.decode("latin-1")) or ("", err.decode("latin-1")))[1]
        lines = own_lines(err)
        if proc.returncode not in (0, 2):
            return job, f"exit {proc.returncode}: {lines[-5:]}", proc.returncode
        if proc.returncode == 2 and (len(lines) != 1 or not LOCATED.match(lines[0])):
            return job, f"exit 2 without one located line: {lines[:5]}", 2
        return job, None, proc.returncode
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--heat3d", required=True)
    p.add_argument("--wave3d", required=True)
    p.add_argument("--advect3d", required=True)
    p.add_argument("--mpiexec", required=True)
    p.add_argument("--inputs", required=True, help="directory of the shipped inputs (*.yaml)")
    p.add_argument("--count", type=int, default=1000, help="mutants (each runs on every rank count)")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--ranks", default="1,2", help="rank counts, comma-separated")
    p.add_argument("--timeout", type=float, default=20.0, help="seconds per run")
    p.add_argument("--jobs", type=int, default=4, help="runs at a time (mostly waiting on MPI start-up)")
    p.add_argument("--keep", help="directory for the failing mutants and their stderr")
    args = p.parse_args()
    # Every run happens in a directory of its own: the programs must not be relative to this one.
    args.heat3d, args.wave3d, args.advect3d = (os.path.abspath(a) for a in (args.heat3d, args.wave3d, args.advect3d))
    args.mpiexec = shutil.which(args.mpiexec) or args.mpiexec

    sources = sorted(os.path.join(args.inputs, f) for f in os.listdir(args.inputs) if f.endswith(".yaml"))
    rng = random.Random(args.seed)
    jobs = []
    for index in range(args.count):
        source = rng.choice(sources)
        with open(source, encoding="latin-1") as f:
            text = mutate(f.read(), rng)
        original = open(source).read()
        app = args.wave3d if "speed:" in original else args.advect3d if "velocity:" in original else args.heat3d
        for ranks in [int(r) for r in args.ranks.split(",")]:
            jobs.append((args, index, source, text, app, ranks))

    start = time.monotonic()
    codes, failures = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for job, problem, code in pool.map(run_one, jobs):
            codes[code] = codes.get(code, 0) + 1
            if problem:
                failures.append((job, problem))
                print(f"FAIL: mutant {job[1]} of {os.path.basename(job[2])} on {job[5]} rank(s): {problem}")
    if args.keep and failures:
        os.makedirs(args.keep, exist_ok=True)
        for (_, index, source, text, _, ranks), problem in failures:
            base = os.path.join(args.keep, f"mutant-{index:04d}-np{ranks}")
            with open(base + ".yaml", "w", encoding="latin-1") as f:
                f.write(text)
            with open(base + ".txt", "w") as f:
                f.write(f"{source}\n{problem}\n")
    print(f"mutate_inputs: {args.count} mutants x ranks {args.ranks} = {len(jobs)} runs in {time.monotonic() - start:.0f} s: "
          f"exit 0: {codes.get(0, 0)}, exit 2: {codes.get(2, 0)}, failures: {len(failures)}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

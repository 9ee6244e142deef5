"""What the Python test drivers share: checks that record failures and carry on, running a program
under mpiexec (optionally collecting every rank's own exit code), and reading an app's summary.

    sys.path.insert(0, "<repo>/tests/support"); import cartex_testing as ct
"""
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

def small_input(steps=20, progress_every=5, time_step="cfl: 0.5"):
    """A small heat3d input (12x10x8 cells) for the drivers to start from; wave3d: replace "alpha" by
    "speed". progress_every=None leaves run.progress_every out."""
    text = f"grid:\n  n: [12, 10, 8]\nphysics:\n  alpha: 1.0\n  {time_step}\nrun:\n  steps: {steps}\n"
    return text + (f"  progress_every: {progress_every}\n" if progress_every is not None else "")


BASE_INPUT = small_input()

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import mpi_launcher  # noqa: E402  (the one launcher description: Open MPI's and Hydra's spellings)

FAILURES = []


def launcher(mpiexec):
    """The mpi_launcher.Launcher of `mpiexec` (Open MPI or Hydra)."""
    return mpi_launcher.detect(mpiexec)


def mpi_flags(mpiexec, ranks=8):
    """The options every test launch of `ranks` ranks uses: quiet, oversubscribed, as root, unbound."""
    return launcher(mpiexec).flags(ranks, any_user=True, unbound=True)


def check(cond, what):
    """Records `what` as a failure when `cond` is false; returns cond."""
    if not cond:
        FAILURES.append(what)
        print("FAIL:", what)
    return cond


def finish(name):
    """Prints the failure count and exits 1 if there were any."""
    print(f"{name}: {len(FAILURES)} failure(s)")
    sys.exit(1 if FAILURES else 0)


def mpi_command(mpiexec, ranks, program, args, cwd, per_rank_codes=False, output_dir=None, launch=((), ())):
    """The mpiexec command line for `program args` on `ranks` ranks; with per_rank_codes every rank
    appends its own exit code to rank_codes(cwd) (removed here first); with output_dir every rank's
    stdout and stderr also go to files below it (Open MPI's --output-filename, see per_rank_output);
    launch = (command that runs mpiexec, extra mpiexec options), e.g. a multi-node testbed's."""
    mpi = launcher(mpiexec)
    cmd = list(launch[0]) + [mpiexec, "-n", str(ranks)] + mpi_flags(mpiexec, ranks) + list(launch[1])
    if output_dir:
        os.makedirs(output_dir, exist_ok=True)  # Hydra does not make it
        cmd += mpi.rank_output_flags(output_dir)
    if not per_rank_codes:
        return cmd + [program] + list(args)
    codes_file = os.path.join(cwd, "rank-exit-codes.txt")
    if os.path.exists(codes_file):
        os.remove(codes_file)
    # Every rank appends its own exit code, so the test sees all of them, not mpiexec's pick; and
    # mpiexec must not kill the other ranks when the first one exits non-zero.
    cmd += mpi.keep_going_flags()
    return cmd + ["sh", "-c", '"$0" "$@"; c=$?; echo $c >> ' + codes_file + '; exit $c', program] + list(args)


def rank_codes(cwd):
    """The per-rank exit codes a per_rank_codes command wrote in `cwd` (empty if none)."""
    codes_file = os.path.join(cwd, "rank-exit-codes.txt")
    return [int(x) for x in open(codes_file).read().split()] if os.path.exists(codes_file) else []


def mpirun(mpiexec, ranks, program, args, cwd, per_rank_codes=False, env=None, timeout=120, launch=((), ())):
    """Runs `program args` on `ranks` ranks in `cwd` with `env` added to the environment (launch: see
    mpi_command); returns (exit code, stdout, stderr, per-rank exit codes — only with per_rank_codes)."""
    # Each rank's stdout and stderr also go to files of their own (Launcher.rank_output_flags): the
    # streams mpiexec merges can cut one rank's lines into another's (Kokkos writes its warnings piece by
    # piece), the files cannot. stdout and stderr are then every rank's file in rank order.
    rank_dir = tempfile.mkdtemp(prefix="cartex-ranks-")
    cmd = mpi_command(mpiexec, ranks, program, args, cwd, per_rank_codes, output_dir=rank_dir, launch=launch)
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, **(env or {})))
        stdout, stderr = per_rank_output(mpiexec, rank_dir, ranks, p.stderr) or (p.stdout, p.stderr)
    finally:
        shutil.rmtree(rank_dir, ignore_errors=True)
    return p.returncode, stdout, stderr, rank_codes(cwd) if per_rank_codes else []


def per_rank_output(mpiexec, rank_dir, ranks, launcher_stderr=""):
    """(stdout, stderr): every rank's own output below `rank_dir` in rank order, or None when the job
    did not start every rank (mpi_launcher.Launcher.rank_output)."""
    return launcher(mpiexec).rank_output(rank_dir, ranks, launcher_stderr)


# Lines that Kokkos prints on its own (the OpenMP backend warns about thread binding and oversubscription
# on every rank, e.g. "Kokkos::OpenMP::initialize WARNING: ..." and indented continuation lines).
FOREIGN_FIRST_LINE = re.compile(r"^(Kokkos::|MPI detected: For OpenMP binding)")


def own_lines(stream):
    """The non-blank lines of `stream` that cartex printed: drops what Kokkos prints itself (a line from
    FOREIGN_FIRST_LINE and the indented lines that continue it), so that a test asserts cartex's own
    lines exactly whatever the Kokkos backend adds."""
    lines, in_foreign = [], False
    for line in stream.splitlines():
        if FOREIGN_FIRST_LINE.match(line):
            in_foreign = True
        elif not (in_foreign and line[:1].isspace()):
            in_foreign = False
            if line.strip():
                lines.append(line)
    return lines


def set_args(sets):
    """["a=1", "b=2"] -> ["--set", "a=1", "--set", "b=2"]."""
    return [a for s in sets for a in ("--set", s)]


def write(dirname, name, text):
    path = os.path.join(dirname, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def checksum(stdout):
    """The summary's decomposition-independent checksum, or None."""
    m = re.search(r"^checksum: ([0-9a-f]{16})$", stdout, re.M)
    return m.group(1) if m else None


def summary_value(stdout, key):
    """The first word after `key` on a summary line, or None."""
    m = re.search(r"^\s*" + re.escape(key) + r"\s+(\S+)", stdout, re.M)
    return m.group(1) if m else None


def png_is_nontrivial(path, what):
    """Checks the PNG exists, decodes, is a real figure size and shows many colours (not a blank canvas)."""
    import matplotlib.image  # the drivers that plot run under a Python with matplotlib and numpy
    import numpy as np
    if not check(os.path.exists(path) and os.path.getsize(path) > 5000, f"{what}: PNG missing or tiny"):
        return
    img = matplotlib.image.imread(path)
    colours = len(np.unique(img.reshape(-1, img.shape[-1]), axis=0))
    check(img.shape[0] >= 300 and img.shape[1] >= 300, f"{what}: image {img.shape}")
    check(colours >= 50, f"{what}: only {colours} distinct colours")


def skip(reason):
    """Ends a test that cannot run: exit code 77 (ctest's SKIP_RETURN_CODE), or a failure when CI=true."""
    if os.environ.get("CI") == "true":
        check(False, f"cannot run under CI: {reason}")
        finish("skip")
    print(f"SKIP: {reason}")
    sys.exit(77)


@contextlib.contextmanager
def mounted_tmpfs(path, options):
    """A tmpfs mounted with `options` (e.g. "size=1m") on the new directory `path` for the block;
    skips the test when it cannot be mounted (mounting needs root)."""
    if os.geteuid() != 0:
        skip("mounting a tmpfs needs root")
    os.mkdir(path)
    p = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", path], capture_output=True, text=True)
    if p.returncode != 0:
        skip(f"cannot mount a tmpfs: {p.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", path], check=False)


BACKEND_LINE = re.compile(r"^([a-z0-9_]+) +(zero-copy|packed) +(overlaps|blocking) ")


def list_backends(mpiexec, program):
    """The halo registry's rows as (name, memory, start) in registry order, from `program --list-backends`
    (heat3d, wave3d, halobench), so no test spells the list of backends."""
    with tempfile.TemporaryDirectory() as d:
        code, out, err, _ = mpirun(mpiexec, 1, program, ["--list-backends"], d)
    rows = [m.groups() for m in map(BACKEND_LINE.match, out.splitlines()) if m]
    check(code == 0 and rows, f"{program} --list-backends: exit {code}, rows {rows}\n{out}{err}")
    return rows


def run_case(namespace, programs, extra=()):
    """The main of a driver with one case per ctest: parses --mpiexec PATH, --NAME PATH for each of
    `programs` (made absolute), the options in `extra` and the CASE (a `case_CASE` function in
    `namespace`, the driver's globals()); stores the arguments as namespace["ARGS"], runs the case
    and finishes."""
    import argparse
    cases = {n[5:]: f for n, f in namespace.items() if n.startswith("case_")}
    p = argparse.ArgumentParser()
    for name in list(programs) + ["mpiexec"] + list(extra):
        p.add_argument("--" + name, required=True)
    p.add_argument("case", choices=sorted(cases))
    args = p.parse_args()
    for name in programs:
        setattr(args, name, os.path.abspath(getattr(args, name)))
    namespace["ARGS"] = args
    cases[args.case]()
    finish(args.case)

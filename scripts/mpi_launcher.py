#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How to launch an MPI job here: the one launcher description that cartex's tests, scripts and
testbed read (cmake/CartexTesting.cmake, scripts/mpiexec_flags.sh, tests/support/cartex_testing.py,
scripts/netns_cluster.sh). Two families of mpiexec, told apart by `mpiexec --version`:

    what                      Open MPI 4 (ORTE)                     Hydra (MPICH, Intel MPI)
    ------------------------  ------------------------------------  ----------------------------------
    recognised by             "Open MPI" or "OpenRTE"               "HYDRA"
    quiet (no help banners)   -q                                    (nothing printed)
    more ranks than cores     --oversubscribe                       (always allowed)
    as root                   --allow-run-as-root                   (always allowed)
    no process binding        --bind-to none                        -bind-to none
    each rank's own streams   --output-filename D                   -outfile-pattern D/rank.%r.stdout
                              (D/<job>/rank.R/stdout, stderr; also  -errfile-pattern D/rank.%r.stderr
                              on mpiexec's own streams)             (made at the rank's first line)
    other ranks run on after  --mca orte_abort_on_non_zero_status 0 (the default: only MPI_Abort or a
      one exits non-zero                                            signal ends the job)
    a rank's own number       OMPI_COMM_WORLD_RANK                  PMI_RANK
    start on other hosts      --mca plm_rsh_agent AGENT             -launcher rsh -launcher-exec AGENT
                              --host H1:S,H2:S                      -hosts H1:S,H2:S (not exercised:
                                                                    the testbed runs Open MPI only)

Usage as a program (prints one word per line):
    mpi_launcher.py [--mpiexec PATH] family              openmpi or hydra
    mpi_launcher.py [--mpiexec PATH] flags RANKS [--any-user] [--unbound]
        the options for RANKS ranks on this machine, run by this user (--any-user: by root or not,
        as ctest's fixed command lines need; --unbound: no process binding, for tests that run
        jobs side by side)
    mpi_launcher.py [--mpiexec PATH] hosts AGENT H1:S,H2:S
        the options that start a job on those hosts through the remote-shell AGENT
"""
import argparse
import functools
import glob
import os
import re
import subprocess
import sys


class Launcher:
    """One family's spellings (the table above)."""

    def __init__(self, family, mpiexec):
        self.family = family
        self.mpiexec = mpiexec

    @property
    def openmpi(self):
        return self.family == "openmpi"

    def flags(self, ranks, any_user=False, unbound=False):
        """Options a launch of `ranks` ranks needs here: quiet, oversubscribed, as root; unbound: no
        process binding (Open MPI binds 1-2 ranks to cores, which jobs side by side would share)."""
        if not self.openmpi:
            return ["-bind-to", "none"] if unbound else []
        out = ["-q"]
        if any_user or ranks > len(os.sched_getaffinity(0)):  # the cores this process may use, as nproc
            out.append("--oversubscribe")
        if any_user or os.geteuid() == 0:
            out.append("--allow-run-as-root")
        return out + (["--bind-to", "none"] if unbound else [])

    def rank_output_flags(self, directory):
        """Options that write each rank's stdout and stderr to files of its own below `directory`."""
        if self.openmpi:
            return ["--output-filename", directory]
        return ["-outfile-pattern", os.path.join(directory, "rank.%r.stdout"),
                "-errfile-pattern", os.path.join(directory, "rank.%r.stderr")]

    def rank_output(self, directory, ranks, launcher_stderr=""):
        """(stdout, stderr) of every rank in rank order, read from the rank_output_flags' files, or None
        when Open MPI did not make a folder for each rank (the job never started them all). Open MPI
        writes every line to its own streams as well, so those are left out; Hydra's own messages are
        only in its stderr, which is appended. Hydra makes a rank's file at its first line."""
        if self.openmpi:
            jobs = glob.glob(os.path.join(directory, "*"))
            if len(jobs) != 1 or not all(os.path.isdir(os.path.join(jobs[0], f"rank.{r}")) for r in range(ranks)):
                return None
            path, extra = (lambda r, stream: os.path.join(jobs[0], f"rank.{r}", stream)), ""
        else:
            path, extra = (lambda r, stream: os.path.join(directory, f"rank.{r}.{stream}")), launcher_stderr

        def joined(stream):
            files = (path(r, stream) for r in range(ranks))
            return "".join(open(f, errors="backslashreplace").read() for f in files if os.path.exists(f))
        return joined("stdout"), joined("stderr") + extra

    def keep_going_flags(self):
        """Options that let the other ranks run on when one exits non-zero."""
        return ["--mca", "orte_abort_on_non_zero_status", "0"] if self.openmpi else []

    @property
    def rank_variable(self):
        """The environment variable that holds a launched process's rank in MPI_COMM_WORLD."""
        return "OMPI_COMM_WORLD_RANK" if self.openmpi else "PMI_RANK"

    def hosts_flags(self, agent, hosts):
        """Options that start the job on `hosts` ("H1:S,H2:S") through the remote-shell `agent`, which
        is run as `AGENT HOST COMMAND...`."""
        if self.openmpi:
            return ["--mca", "plm_rsh_agent", agent, "--host", hosts]
        return ["-launcher", "rsh", "-launcher-exec", agent, "-hosts", hosts]


@functools.lru_cache(maxsize=None)
def detect(mpiexec="mpiexec"):
    """The Launcher of `mpiexec` (a path or a name on PATH); raises RuntimeError for another family."""
    try:
        p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=60)
        text = p.stdout + p.stderr
    except OSError as e:
        raise RuntimeError(f"cannot run {mpiexec} --version: {e}") from e
    if re.search(r"Open MPI|OpenRTE", text):
        return Launcher("openmpi", mpiexec)
    if "HYDRA" in text:
        return Launcher("hydra", mpiexec)
    first = text.strip().splitlines()[:1]
    raise RuntimeError(f"{mpiexec} is neither Open MPI's nor Hydra's mpiexec (--version: {first})")


def main():
    p = argparse.ArgumentParser(description="cartex's MPI launcher description")
    p.add_argument("--mpiexec", default="mpiexec")
    sub = p.add_subparsers(dest="what", required=True)
    sub.add_parser("family")
    f = sub.add_parser("flags")
    f.add_argument("ranks", type=int)
    f.add_argument("--any-user", action="store_true")
    f.add_argument("--unbound", action="store_true")
    h = sub.add_parser("hosts")
    h.add_argument("agent")
    h.add_argument("hosts")
    args = p.parse_args()
    try:
        launcher = detect(args.mpiexec)
    except RuntimeError as e:
        sys.exit(f"mpi_launcher.py: {e}")
    if args.what == "family":
        words = [launcher.family]
    elif args.what == "flags":
        words = launcher.flags(args.ranks, args.any_user, args.unbound)
    else:
        words = launcher.hosts_flags(args.agent, args.hosts)
    print("\n".join(words))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs the program named by CARTEX_BLOCKED_PROGRAM with this script's arguments and SIGTERM blocked
(a blocked signal stays blocked across exec; heat3d's handler never runs): a run that cannot stop within
Slurm's grace period, so that `scancel` ends it with SIGKILL KillWait seconds after SIGTERM
(tests/slurm/slurm_test.py, case scancel_kill)."""
import os
import signal
import sys

program = os.environ["CARTEX_BLOCKED_PROGRAM"]
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
os.execv(program, [program] + sys.argv[1:])
